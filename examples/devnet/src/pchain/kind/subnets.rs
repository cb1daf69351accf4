//! Permissioned Subnets: CreateSubnetTx, and what their owner authorizes
//! (`verifyPoASubnetAuthorization`): CreateChainTx, AddSubnetValidatorTx,
//! RemoveSubnetValidatorTx, TransferSubnetOwnershipTx. Their checks and what they change
//! (the Subnet's owner, its chains, its validators).

use super::{Accept, Authority, Context, Parts, check_authorization, staking};
use crate::engine::refusal::{Refusal, fail};
use crate::pchain::verify::{Change as Changed, Rules, View};
use crate::pchain::{Record, stakers, subnets};
use crate::store::StoreError;
use avalanche_rpc::codec::platform;
use avalanche_rpc::wire::{Id, NodeId};
use redb::WriteTransaction;

/// What a Subnet transaction changes. The ID of a new Subnet or chain is its tx's ID.
#[derive(Debug, Clone)]
pub enum Change {
    CreateSubnet,
    CreateChain {
        subnet: Id,
    },
    /// The Subnet's owner becomes the one this tx names.
    SetOwner {
        subnet: Id,
    },
    /// A permissioned validator joins `subnet` from `start` (the chain time it is accepted
    /// at; its tx says when it ends); it earns no reward.
    AddValidator {
        subnet: Id,
        node: NodeId,
        weight: u64,
        start: u64,
    },
    /// A permissioned validator leaves `subnet`.
    RemoveValidator {
        subnet: Id,
        node: NodeId,
        weight: u64,
    },
}

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

    fn check(&self, _: &Context<'_>, _: &mut dyn View) -> Result<Changed, Refusal> {
        Ok(Changed::Subnets(Change::CreateSubnet))
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

    fn check(&self, _: &Context<'_>, _: &mut dyn View) -> Result<Changed, Refusal> {
        Ok(Changed::Subnets(Change::CreateChain {
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
    fn check(&self, cx: &Context<'_>, view: &mut dyn View) -> Result<Changed, Refusal> {
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
        if view.validator(&subnet, &node)?.is_some() {
            return Err(Refusal::node(
                format!("attempted to issue duplicate validator for {node} on subnet {subnet}"),
                format!("{node} is already a validator of Subnet {subnet}"),
            ));
        }
        let Some(primary) = view.validator(&Id::ZERO, &node)? else {
            return Err(Refusal::node(
                format!("{node} isn't a current or pending validator of the primary network"),
                format!(
                    "`unsignedTx.validator.nodeID` {node} must validate the Primary Network to validate a Subnet"
                ),
            ));
        };
        if end > primary.end {
            return Err(Refusal::node(
                "proposed staking period is not inside dependent staking period",
                format!(
                    "`unsignedTx.validator.end` is {end}, after the node's Primary Network validation ends ({})",
                    primary.end
                ),
            ));
        }
        Ok(Changed::Subnets(Change::AddValidator {
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
    fn check(&self, _: &Context<'_>, view: &mut dyn View) -> Result<Changed, Refusal> {
        let t = self;
        let Some(v) = view.validator(&t.subnet_id, &t.node_id)? else {
            return Err(Refusal::node(
                format!(
                    "{} isn't a current or pending validator of {}: not found",
                    t.node_id, t.subnet_id
                ),
                format!(
                    "`unsignedTx.nodeID` {} isn't a validator of subnet {}",
                    t.node_id, t.subnet_id
                ),
            ));
        };
        if !v.permissioned {
            return fail(format!(
                "`unsignedTx.nodeID` {} is a permissionless validator of subnet {}; only permissioned ones are removed this way",
                t.node_id, t.subnet_id
            ));
        }
        Ok(Changed::Subnets(Change::RemoveValidator {
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

    fn check(&self, _: &Context<'_>, _: &mut dyn View) -> Result<Changed, Refusal> {
        Ok(Changed::Subnets(Change::SetOwner {
            subnet: self.subnet_id,
        }))
    }
}

/// The Subnet owner's authorization (`verifyPoASubnetAuthorization`): the last credential
/// signs for the owner's addresses the auth names; the Subnet must exist and still be
/// permissioned.
pub fn check_auth(
    view: &mut dyn View,
    subnet: &Id,
    auth: &platform::Auth,
    signed: (&platform::Tx, &[u8; 32], u64),
) -> Result<(), Refusal> {
    if *subnet == Id::ZERO {
        return fail("`unsignedTx.subnetID` is the Primary Network, which has no owner");
    }
    let Some((owner, converted)) = view.subnet(subnet)? else {
        return Err(Refusal::node(
            "not found",
            format!("`unsignedTx.subnetID` {subnet} is not a Subnet of this chain"),
        ));
    };
    if converted {
        // `vms/platformvm/txs/executor/subnet_tx_verification.go` (`ErrIsImmutable`).
        return Err(Refusal::node(
            format!("\"{subnet}\" is immutable"),
            format!(
                "\"{subnet}\" is immutable: it was converted to an L1, and its owner no longer acts on it"
            ),
        ));
    }
    let platform::Owner::OutputOwners(owner) = owner else {
        return fail(format!("Subnet {subnet} has an owner of an unknown type"));
    };
    check_authorization(
        &owner.owners,
        auth,
        signed,
        "unsignedTx.subnetAuthorization",
    )
}

/// Writes what Subnet tx `id`, accepted at `height`, changes.
pub fn apply(
    w: &WriteTransaction,
    change: Change,
    (id, height): (&Id, u64),
) -> Result<(), StoreError> {
    match change {
        Change::CreateSubnet => subnets::set_owner(w, id, id),
        Change::CreateChain { subnet } => subnets::add_chain(w, &subnet, id),
        Change::SetOwner { subnet } => subnets::set_owner(w, &subnet, id),
        Change::AddValidator {
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
            };
            stakers::add_staker(w, (&subnet, &node), rec, height, weight, None)
        }
        Change::RemoveValidator {
            subnet,
            node,
            weight,
        } => stakers::remove_staker(w, &subnet, &node, height, weight),
    }
}
