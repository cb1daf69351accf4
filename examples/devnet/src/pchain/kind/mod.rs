//! The P-chain transactions the devnet accepts, as one devnet-owned exhaustive enum
//! ([`Kind`]), and what each kind brings to verification ([`Accept`]): the parts of it the
//! flow check reads and its own checks, which give the [`Change`] it applies. Its complexity
//! for the dynamic fee is `avalanche_rpc::transact::fee`'s ([`super::fee::gas`]).
//!
//! [`Kind::of`] maps the generated (non-exhaustive) enum to [`Kind`]; it is the one match on
//! a transaction type with a wildcard, refusing the types the devnet does not accept. Every
//! kind is then handled through [`Kind::accept`], an exhaustive match: a kind added to
//! [`Kind`] without an arm there, or without an [`Accept`] for its transaction, does not
//! compile.
//!
//! Kinds come in families, each in one file with its checks and the change it applies:
//! [`transfer`] (BaseTx, ImportTx, ExportTx), [`staking`] (Primary Network validators and
//! delegators), [`subnets`] (Subnets, their chains, owners and permissioned validators),
//! [`l1`] (converting a Subnet to an L1 and its validators).

pub mod l1;
pub mod staking;
pub mod subnets;
pub mod transfer;

use super::verify::{Change, Rules, View};
use crate::engine::refusal::{Refusal, fail};
use crate::secp::check_signatures;
use avalanche_rpc::codec::{platform, secp256k1fx};
use avalanche_rpc::wire::Id;

/// A P-chain transaction of a kind the devnet accepts.
#[derive(Debug, Clone, Copy)]
pub enum Kind<'t> {
    Base(&'t platform::BaseTx),
    Import(&'t platform::ImportTx),
    Export(&'t platform::ExportTx),
    AddPermissionlessValidator(&'t platform::AddPermissionlessValidatorTx),
    AddPermissionlessDelegator(&'t platform::AddPermissionlessDelegatorTx),
    CreateSubnet(&'t platform::CreateSubnetTx),
    CreateChain(&'t platform::CreateChainTx),
    AddSubnetValidator(&'t platform::AddSubnetValidatorTx),
    RemoveSubnetValidator(&'t platform::RemoveSubnetValidatorTx),
    TransferSubnetOwnership(&'t platform::TransferSubnetOwnershipTx),
    ConvertSubnetToL1(&'t platform::ConvertSubnetToL1Tx),
    RegisterL1Validator(&'t platform::RegisterL1ValidatorTx),
    SetL1ValidatorWeight(&'t platform::SetL1ValidatorWeightTx),
    IncreaseL1ValidatorBalance(&'t platform::IncreaseL1ValidatorBalanceTx),
    DisableL1Validator(&'t platform::DisableL1ValidatorTx),
}

impl<'t> Kind<'t> {
    /// A refusal of the base's syntactic check (`BaseTx.SyntacticVerify`) as the kind words
    /// it: the permissionless kinds wrap it (`vms/platformvm/txs/add_permissionless_*_tx.go`).
    pub fn in_base(&self, e: Refusal) -> Refusal {
        match self {
            Kind::AddPermissionlessValidator(_) | Kind::AddPermissionlessDelegator(_) => {
                e.within("failed to verify BaseTx")
            }
            _ => e,
        }
    }

    /// Whether the node checks the kind's state before the spend: the staker kinds
    /// (`staker_tx_verification.go` runs the flow check last), not the standard ones.
    pub fn state_first(&self) -> bool {
        matches!(
            self,
            Kind::AddPermissionlessValidator(_)
                | Kind::AddPermissionlessDelegator(_)
                | Kind::AddSubnetValidator(_)
                | Kind::RemoveSubnetValidator(_)
        )
    }

    /// How the node wraps the refusals of the spend (`VerifySpend`): the staking kinds'
    /// `ErrFlowCheckFailed` (`vms/platformvm/txs/executor/staker_tx_verification.go`),
    /// ExportTx's `failed verifySpend` (`standard_tx_executor.go`), the others not at all.
    pub fn spend_context(&self) -> Option<&'static str> {
        match self {
            Kind::AddPermissionlessValidator(_)
            | Kind::AddPermissionlessDelegator(_)
            | Kind::AddSubnetValidator(_)
            | Kind::RemoveSubnetValidator(_)
            | Kind::TransferSubnetOwnership(_) => Some("flow check failed"),
            Kind::Export(_) => Some("failed verifySpend"),
            _ => None,
        }
    }

    /// The kind of `tx`, or the refusal of a type the devnet does not accept (the one match
    /// on the generated enum, whose new types land in its wildcard).
    pub fn of(tx: &'t platform::UnsignedTx) -> Result<Kind<'t>, Refusal> {
        use platform::UnsignedTx as T;
        Ok(match tx {
            T::BaseTx(t) => Kind::Base(t),
            T::ImportTx(t) => Kind::Import(t),
            T::ExportTx(t) => Kind::Export(t),
            T::AddPermissionlessValidatorTx(t) => Kind::AddPermissionlessValidator(t),
            T::AddPermissionlessDelegatorTx(t) => Kind::AddPermissionlessDelegator(t),
            T::CreateSubnetTx(t) => Kind::CreateSubnet(t),
            T::CreateChainTx(t) => Kind::CreateChain(t),
            T::AddSubnetValidatorTx(t) => Kind::AddSubnetValidator(t),
            T::RemoveSubnetValidatorTx(t) => Kind::RemoveSubnetValidator(t),
            T::TransferSubnetOwnershipTx(t) => Kind::TransferSubnetOwnership(t),
            T::ConvertSubnetToL1Tx(t) => Kind::ConvertSubnetToL1(t),
            T::RegisterL1ValidatorTx(t) => Kind::RegisterL1Validator(t),
            T::SetL1ValidatorWeightTx(t) => Kind::SetL1ValidatorWeight(t),
            T::IncreaseL1ValidatorBalanceTx(t) => Kind::IncreaseL1ValidatorBalance(t),
            T::DisableL1ValidatorTx(t) => Kind::DisableL1Validator(t),
            other => {
                return fail(format!(
                    "the devnet does not accept {} on the P-chain yet",
                    other.type_name()
                ));
            }
        })
    }

    /// Its rules: every kind has them all (no wildcard).
    pub fn accept(self) -> &'t dyn Accept {
        match self {
            Kind::Base(t) => t,
            Kind::Import(t) => t,
            Kind::Export(t) => t,
            Kind::AddPermissionlessValidator(t) => t,
            Kind::AddPermissionlessDelegator(t) => t,
            Kind::CreateSubnet(t) => t,
            Kind::CreateChain(t) => t,
            Kind::AddSubnetValidator(t) => t,
            Kind::RemoveSubnetValidator(t) => t,
            Kind::TransferSubnetOwnership(t) => t,
            Kind::ConvertSubnetToL1(t) => t,
            Kind::RegisterL1Validator(t) => t,
            Kind::SetL1ValidatorWeight(t) => t,
            Kind::IncreaseL1ValidatorBalance(t) => t,
            Kind::DisableL1Validator(t) => t,
        }
    }

    /// What the flow check reads of it (refusing an ImportTx or ExportTx with a chain other
    /// than the X-chain).
    pub fn parts(self, rules: &Rules) -> Result<Parts<'t>, Refusal> {
        self.accept().parts(rules)
    }

    /// Its own checks against the state `view` shows, and the change it makes.
    pub fn check(self, cx: &Context<'_>, view: &mut dyn View) -> Result<Change, Refusal> {
        self.accept().check(cx, view)
    }
}

/// What a kind of transaction brings to verification.
pub trait Accept {
    /// What the flow check reads of it beyond its base, and whose authorization it carries.
    fn parts(&self, rules: &Rules) -> Result<Parts<'_>, Refusal>;
    /// Its own checks (the flow checked, its authorization too), and the change it makes.
    fn check(&self, cx: &Context<'_>, view: &mut dyn View) -> Result<Change, Refusal>;
}

/// What the flow check reads of a transaction.
#[derive(Debug, Clone, Copy)]
pub struct Parts<'t> {
    pub base: &'t platform::Base,
    /// Inputs spending what the X-chain exported (ImportTx).
    pub imported: &'t [platform::TransferableInput],
    /// Outputs into shared memory (ExportTx).
    pub exported: &'t [platform::TransferableOutput],
    /// Staked outputs (returned at the staker's end).
    pub stake: &'t [platform::TransferableOutput],
    /// What it pays into L1 validators' balances, like an output.
    pub balances: u64,
    /// Whose authorization its last credential carries.
    pub authority: Option<(Authority<'t>, &'t platform::Auth)>,
}

impl<'t> Parts<'t> {
    /// A transaction with its base only.
    pub fn of(base: &'t platform::Base) -> Parts<'t> {
        Parts {
            base,
            imported: &[],
            exported: &[],
            stake: &[],
            balances: 0,
            authority: None,
        }
    }
}

/// Whose authorization a transaction carries (its last credential signs for it).
#[derive(Debug, Clone, Copy)]
pub enum Authority<'t> {
    /// A permissioned Subnet's owner.
    Subnet(&'t Id),
    /// An L1 validator's deactivation owner.
    Deactivation(&'t Id),
}

impl Authority<'_> {
    /// What the credential count's refusal says of it.
    pub fn credential(&self) -> &'static str {
        match self {
            Authority::Subnet(_) => ", then one for the Subnet authorization",
            Authority::Deactivation(_) => ", then one for the disable authorization",
        }
    }

    /// Checks `auth`, signed by the last credential of `tx` over `hash` at `time`.
    pub fn check(
        &self,
        auth: &platform::Auth,
        (tx, hash, time): (&platform::Tx, &[u8; 32], u64),
        view: &mut dyn View,
    ) -> Result<(), Refusal> {
        match self {
            Authority::Subnet(subnet) => subnets::check_auth(view, subnet, auth, (tx, hash, time)),
            Authority::Deactivation(id) => l1::check_disable_auth(view, id, auth, (tx, hash, time)),
        }
    }
}

/// What a kind's own checks read besides the state.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub rules: &'a Rules,
    /// The chain time the transaction is verified at.
    pub time: u64,
    /// The amount its stake outputs hold.
    pub staked: u64,
    /// How many outputs its base has (a refund is numbered after them).
    pub outputs: u32,
}

/// An authorization (`verifyAuthorization`): the last credential of `tx` signs for the
/// addresses of `owner` that the auth names.
fn check_authorization(
    owner: &secp256k1fx::OutputOwners,
    auth: &platform::Auth,
    (tx, hash, time): (&platform::Tx, &[u8; 32], u64),
    place: &str,
) -> Result<(), Refusal> {
    let platform::Auth::Input(input) = auth else {
        return fail(format!("`{place}` is not a secp256k1fx input"));
    };
    // `vms/platformvm/txs/executor/subnet_tx_verification.go` (`verifyAuthorization`).
    let Some(last) = tx.credentials.len().checked_sub(1) else {
        return Err(Refusal::node(
            "wrong number of credentials",
            format!("`{place}` needs the transaction's last credential, and it has none"),
        ));
    };
    let platform::Credential::Credential(cred) = &tx.credentials[last] else {
        return fail(format!(
            "`credentials[{last}]` (the authorization's) is not a secp256k1fx credential"
        ));
    };
    check_signatures(
        owner,
        &input.input.signature_indices,
        cred,
        hash,
        time,
        place,
    )
    .map_err(|e| Refusal::from(e).within("unauthorized modification"))?;
    Ok(())
}

#[cfg(test)]
mod tests;
