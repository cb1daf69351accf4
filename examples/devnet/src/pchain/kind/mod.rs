//! The P-chain transactions the devnet accepts, as one devnet-owned exhaustive enum
//! ([`PTxKind`]), and what each kind brings to verification ([`Accept`]): the parts of it the
//! flow check reads and its own checks, which give the [`Change`] it applies. Its complexity
//! for the dynamic fee is `avalanche_rpc::transact::fee`'s ([`super::fee::gas`]).
//!
//! [`PTxKind::of`] maps the generated (non-exhaustive) enum to [`PTxKind`]; it is the one match on
//! a transaction type with a wildcard, refusing the types the devnet does not accept. Every
//! kind is then handled through [`PTxKind::accept`], an exhaustive match: a kind added to
//! [`PTxKind`] without an arm there, or without an [`Accept`] for its transaction, does not
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

use super::vocab::{Accept, ChainState, Change, CheckInput, Parts, Rules};
use crate::refusal::{Refusal, VerifyError, fail};
use crate::secp::check_signatures;
use avalanche_rpc::codec::{platform, secp256k1fx};

/// A P-chain transaction of a kind the devnet accepts.
#[derive(Debug, Clone, Copy)]
pub enum PTxKind<'t> {
    Base(&'t platform::BaseTx),
    Import(&'t platform::ImportTx),
    Export(&'t platform::ExportTx),
    AddPermissionlessValidator(&'t platform::AddPermissionlessValidatorTx),
    AddPermissionlessDelegator(&'t platform::AddPermissionlessDelegatorTx),
    AddAutoRenewedValidator(&'t platform::AddAutoRenewedValidatorTx),
    SetAutoRenewedValidatorConfig(&'t platform::SetAutoRenewedValidatorConfigTx),
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

impl<'t> PTxKind<'t> {
    /// A refusal of the base's syntactic check (`BaseTx.SyntacticVerify`) as the kind words
    /// it: the permissionless kinds wrap it (`vms/platformvm/txs/add_permissionless_*_tx.go`).
    pub fn in_base(&self, e: Refusal) -> Refusal {
        match self {
            PTxKind::AddPermissionlessValidator(_) | PTxKind::AddPermissionlessDelegator(_) => {
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
            PTxKind::AddPermissionlessValidator(_)
                | PTxKind::AddPermissionlessDelegator(_)
                | PTxKind::AddAutoRenewedValidator(_)
                | PTxKind::SetAutoRenewedValidatorConfig(_)
                | PTxKind::AddSubnetValidator(_)
                | PTxKind::RemoveSubnetValidator(_)
        )
    }

    /// How the node wraps the refusals of the spend (`VerifySpend`): the staking kinds'
    /// `ErrFlowCheckFailed` (`vms/platformvm/txs/executor/staker_tx_verification.go`),
    /// ExportTx's `failed verifySpend` (`standard_tx_executor.go`), the others not at all.
    pub fn spend_context(&self) -> Option<&'static str> {
        match self {
            PTxKind::AddPermissionlessValidator(_)
            | PTxKind::AddPermissionlessDelegator(_)
            | PTxKind::AddAutoRenewedValidator(_)
            | PTxKind::SetAutoRenewedValidatorConfig(_)
            | PTxKind::AddSubnetValidator(_)
            | PTxKind::RemoveSubnetValidator(_)
            | PTxKind::TransferSubnetOwnership(_) => Some("flow check failed"),
            PTxKind::Export(_) => Some("failed verifySpend"),
            _ => None,
        }
    }

    /// The kind of `tx`, or the refusal of a type the devnet does not accept (the one match
    /// on the generated enum, whose new types land in its wildcard).
    pub fn of(tx: &'t platform::UnsignedTx) -> Result<PTxKind<'t>, Refusal> {
        use platform::UnsignedTx as T;
        Ok(match tx {
            T::BaseTx(t) => PTxKind::Base(t),
            T::ImportTx(t) => PTxKind::Import(t),
            T::ExportTx(t) => PTxKind::Export(t),
            T::AddPermissionlessValidatorTx(t) => PTxKind::AddPermissionlessValidator(t),
            T::AddPermissionlessDelegatorTx(t) => PTxKind::AddPermissionlessDelegator(t),
            T::AddAutoRenewedValidatorTx(t) => PTxKind::AddAutoRenewedValidator(t),
            T::SetAutoRenewedValidatorConfigTx(t) => PTxKind::SetAutoRenewedValidatorConfig(t),
            T::CreateSubnetTx(t) => PTxKind::CreateSubnet(t),
            T::CreateChainTx(t) => PTxKind::CreateChain(t),
            T::AddSubnetValidatorTx(t) => PTxKind::AddSubnetValidator(t),
            T::RemoveSubnetValidatorTx(t) => PTxKind::RemoveSubnetValidator(t),
            T::TransferSubnetOwnershipTx(t) => PTxKind::TransferSubnetOwnership(t),
            T::ConvertSubnetToL1Tx(t) => PTxKind::ConvertSubnetToL1(t),
            T::RegisterL1ValidatorTx(t) => PTxKind::RegisterL1Validator(t),
            T::SetL1ValidatorWeightTx(t) => PTxKind::SetL1ValidatorWeight(t),
            T::IncreaseL1ValidatorBalanceTx(t) => PTxKind::IncreaseL1ValidatorBalance(t),
            T::DisableL1ValidatorTx(t) => PTxKind::DisableL1Validator(t),
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
            PTxKind::Base(t) => t,
            PTxKind::Import(t) => t,
            PTxKind::Export(t) => t,
            PTxKind::AddPermissionlessValidator(t) => t,
            PTxKind::AddPermissionlessDelegator(t) => t,
            PTxKind::AddAutoRenewedValidator(t) => t,
            PTxKind::SetAutoRenewedValidatorConfig(t) => t,
            PTxKind::CreateSubnet(t) => t,
            PTxKind::CreateChain(t) => t,
            PTxKind::AddSubnetValidator(t) => t,
            PTxKind::RemoveSubnetValidator(t) => t,
            PTxKind::TransferSubnetOwnership(t) => t,
            PTxKind::ConvertSubnetToL1(t) => t,
            PTxKind::RegisterL1Validator(t) => t,
            PTxKind::SetL1ValidatorWeight(t) => t,
            PTxKind::IncreaseL1ValidatorBalance(t) => t,
            PTxKind::DisableL1Validator(t) => t,
        }
    }

    /// What the flow check reads of it (refusing an ImportTx or ExportTx with a chain other
    /// than the X-chain).
    pub fn parts(self, rules: &Rules) -> Result<Parts<'t>, Refusal> {
        self.accept().parts(rules)
    }

    /// Its own checks against `state`, and the change it makes.
    pub fn check(
        self,
        cx: &CheckInput<'_>,
        state: &mut dyn ChainState,
    ) -> Result<Change, VerifyError> {
        self.accept().check(cx, state)
    }
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
