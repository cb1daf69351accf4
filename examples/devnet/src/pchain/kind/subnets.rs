//! Permissioned Subnets: CreateSubnetTx, and what their owner authorizes
//! (`verifyPoASubnetAuthorization`): CreateChainTx, AddSubnetValidatorTx,
//! RemoveSubnetValidatorTx, TransferSubnetOwnershipTx. Their checks and what they change
//! (the Subnet's owner, its chains, its validators).

use super::{check_authorization, staking};
use crate::pchain::vocab::Authority;
use crate::pchain::vocab::{Accept, ChainState, Change, CheckInput, Parts, Rules, SubnetChange};
use crate::pchain::{Record, stakers, subnets};
use crate::refusal::{Refusal, VerifyError, fail};
use crate::store::StoreError;
use avalanche_rpc::codec::platform;
use avalanche_rpc::wire::Id;
use redb::WriteTransaction;

fn authorized<'t>(base: &'t platform::Base, subnet: &'t Id, auth: &'t platform::Auth) -> Parts<'t> {
    Parts {
        authority: Some((Authority::Subnet(subnet), auth)),
        ..Parts::of(base)
    }
}

impl Accept for platform::CreateSubnetTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts::of(&self.base))
    }

    fn check(&self, _: &CheckInput<'_>, _: &mut dyn ChainState) -> Result<Change, VerifyError> {
        Ok(Change::Subnets(SubnetChange::CreateSubnet))
    }
}

impl Accept for platform::CreateChainTx {
    /// The chain's name is ASCII letters, digits and spaces
    /// (`vms/platformvm/txs/create_chain_tx.go:72-76`).
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        if let Some(c) = self
            .chain_name
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == ' '))
        {
            return Err(Refusal::node(
                "illegal name character",
                format!(
                    "`unsignedTx.chainName` holds {c:?}: a chain's name is ASCII letters, digits and spaces"
                ),
            ));
        }
        Ok(authorized(&self.base, &self.subnet_id, &self.subnet_auth))
    }

    fn check(&self, _: &CheckInput<'_>, _: &mut dyn ChainState) -> Result<Change, VerifyError> {
        Ok(Change::Subnets(SubnetChange::CreateChain {
            subnet: self.subnet_id,
        }))
    }
}

impl Accept for platform::AddSubnetValidatorTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(authorized(
            &self.base,
            &self.validator.subnet_id,
            &self.subnet_auth,
        ))
    }

    /// `verifyAddSubnetValidatorTx`: a Subnet (not the Primary Network), a weight, a period
    /// within bounds and within the node's Primary Network validation, which it must have;
    /// not already a validator of the Subnet.
    fn check(
        &self,
        cx: &CheckInput<'_>,
        state: &mut dyn ChainState,
    ) -> Result<Change, VerifyError> {
        let subnet = self.validator.subnet_id;
        let node = self.validator.validator.node_id;
        let end = self.validator.validator.end;
        let weight = self.validator.validator.weight;
        if subnet == Id::ZERO {
            return fail(
                "`unsignedTx.validator.subnetID` is the Primary Network; use AddPermissionlessValidatorTx",
            );
        }
        if weight == 0 {
            return fail("`unsignedTx.validator.weight` is 0; a validator needs weight");
        }
        staking::duration(cx.time, end, "unsignedTx.validator.end")?;
        if state.validator(&subnet, &node)?.is_some() {
            return Err(Refusal::node(
                format!("attempted to issue duplicate validator for {node} on subnet {subnet}"),
                format!("{node} is already a validator of Subnet {subnet}"),
            )
            .into());
        }
        let Some(primary) = state.validator(&Id::ZERO, &node)? else {
            return Err(Refusal::node(
                format!("{node} isn't a current or pending validator of the primary network"),
                format!(
                    "`unsignedTx.validator.nodeID` {node} must validate the Primary Network to validate a Subnet"
                ),
            ).into());
        };
        if end > primary.end {
            return Err(Refusal::node(
                "proposed staking period is not inside dependent staking period",
                format!(
                    "`unsignedTx.validator.end` is {end}, after the node's Primary Network validation ends ({})",
                    primary.end
                ),
            ).into());
        }
        Ok(Change::Subnets(SubnetChange::AddValidator {
            subnet,
            node,
            weight,
            start: cx.time,
        }))
    }
}

impl Accept for platform::RemoveSubnetValidatorTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(authorized(&self.base, &self.subnet_id, &self.subnet_auth))
    }

    /// The node is a permissioned validator of the Subnet.
    fn check(&self, _: &CheckInput<'_>, state: &mut dyn ChainState) -> Result<Change, VerifyError> {
        let t = self;
        let Some(v) = state.validator(&t.subnet_id, &t.node_id)? else {
            return Err(Refusal::node(
                format!(
                    "{} isn't a current or pending validator of {}: not found",
                    t.node_id, t.subnet_id
                ),
                format!(
                    "`unsignedTx.nodeID` {} isn't a validator of subnet {}",
                    t.node_id, t.subnet_id
                ),
            )
            .into());
        };
        if !v.permissioned {
            return fail(format!(
                "`unsignedTx.nodeID` {} is a permissionless validator of subnet {}; only permissioned ones are removed this way",
                t.node_id, t.subnet_id
            ));
        }
        Ok(Change::Subnets(SubnetChange::RemoveValidator {
            subnet: t.subnet_id,
            node: t.node_id,
            weight: v.weight,
        }))
    }
}

impl Accept for platform::TransferSubnetOwnershipTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(authorized(&self.base, &self.subnet_id, &self.subnet_auth))
    }

    fn check(&self, _: &CheckInput<'_>, _: &mut dyn ChainState) -> Result<Change, VerifyError> {
        Ok(Change::Subnets(SubnetChange::SetOwner {
            subnet: self.subnet_id,
        }))
    }
}

/// The Subnet owner's authorization (`verifyPoASubnetAuthorization`): the last credential
/// signs for the owner's addresses the auth names; the Subnet must exist and still be
/// permissioned.
pub fn check_auth(
    state: &mut dyn ChainState,
    subnet: &Id,
    auth: &platform::Auth,
    signed: (&platform::Tx, &[u8; 32], u64),
) -> Result<(), VerifyError> {
    if *subnet == Id::ZERO {
        return fail("`unsignedTx.subnetID` is the Primary Network, which has no owner");
    }
    let Some((owner, converted)) = state.subnet(subnet)? else {
        return Err(Refusal::node(
            "not found",
            format!("`unsignedTx.subnetID` {subnet} is not a Subnet of this chain"),
        )
        .into());
    };
    if converted {
        // `vms/platformvm/txs/executor/subnet_tx_verification.go` (`ErrIsImmutable`).
        return Err(Refusal::node(
            format!("\"{subnet}\" is immutable"),
            format!(
                "\"{subnet}\" is immutable: it was converted to an L1, and its owner no longer acts on it"
            ),
        ).into());
    }
    let platform::Owner::OutputOwners(owner) = owner else {
        return fail(format!("Subnet {subnet} has an owner of an unknown type"));
    };
    Ok(check_authorization(
        &owner.owners,
        auth,
        signed,
        "unsignedTx.subnetAuthorization",
    )?)
}

/// Writes what Subnet tx `id`, accepted at `height`, changes.
pub fn apply(
    w: &WriteTransaction,
    change: SubnetChange,
    (id, height): (&Id, u64),
) -> Result<(), StoreError> {
    match change {
        SubnetChange::CreateSubnet => subnets::set_owner(w, id, id),
        SubnetChange::CreateChain { subnet } => subnets::add_chain(w, &subnet, id),
        SubnetChange::SetOwner { subnet } => subnets::set_owner(w, &subnet, id),
        SubnetChange::AddValidator {
            subnet,
            node,
            weight,
            start,
        } => {
            let rec = Record {
                tx_id: *id,
                reward: 0,
                start,
                accrued: 0,
                renew: None,
            };
            stakers::add_staker(w, (&subnet, &node), rec, height, weight, None)
        }
        SubnetChange::RemoveValidator {
            subnet,
            node,
            weight,
        } => stakers::remove_staker(w, &subnet, &node, height, weight),
    }
}
