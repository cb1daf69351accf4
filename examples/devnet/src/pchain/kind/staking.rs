//! Staking on the Primary Network: AddPermissionlessValidatorTx and
//! AddPermissionlessDelegatorTx (after Durango: they start at the chain time). Their checks
//! (`verifyAddPermissionlessValidatorTx`, `verifyAddPermissionlessDelegatorTx`) and the
//! staker they add, with the potential reward it may earn.

use crate::genesis::staking;
use crate::pchain::vocab::{Accept, ChainState, Change, CheckInput, Parts, Rules, StakingChange};
use crate::pchain::{Record, stakers};
use crate::refusal::{Refusal, VerifyError, fail};
use crate::store::{self, StoreError};
use avalanche_rpc::codec::platform;
use avalanche_rpc::wire::Id;
use redb::WriteTransaction;

impl Accept for platform::AddPermissionlessValidatorTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts {
            stake: &self.stake,
            ..Parts::of(&self.base)
        })
    }

    /// The subnet is the Primary Network, a proof of possession holds, the stake is the
    /// weight and within bounds, the delegation fee at least the minimum, the period within
    /// bounds, and the node not already a validator.
    fn check(
        &self,
        cx: &CheckInput<'_>,
        state: &mut dyn ChainState,
    ) -> Result<Change, VerifyError> {
        let v = self;
        if v.subnet_id != Id::ZERO {
            return fail(format!(
                "`unsignedTx.subnetID` is {}; permissionless validators join the Primary Network only (no Subnet is elastic)",
                v.subnet_id
            ));
        }
        let platform::Signer::ProofOfPossession(pop) = &v.signer else {
            return fail(
                "`unsignedTx.signer`: a Primary Network validator needs a BLS proof of possession",
            );
        };
        avalanche_rpc::bls::verify_proof_of_possession(&pop.public_key, &pop.proof_of_possession)
            .map_err(|e| {
            Refusal::new(format!(
                "`unsignedTx.signer.proofOfPossession` does not verify: {e}"
            ))
        })?;
        let weight = v.validator.weight;
        staked_is_weight(cx.staked, weight)?;
        if !(staking::MIN_VALIDATOR_STAKE..=staking::MAX_VALIDATOR_STAKE).contains(&weight) {
            return fail(format!(
                "`unsignedTx.validator.weight` is {weight}; it must be from {} to {} nAVAX",
                staking::MIN_VALIDATOR_STAKE,
                staking::MAX_VALIDATOR_STAKE
            ));
        }
        if v.delegation_shares < staking::MIN_DELEGATION_FEE {
            return fail(format!(
                "`unsignedTx.shares` is {}; the minimum delegation fee is {} (2 %)",
                v.delegation_shares,
                staking::MIN_DELEGATION_FEE
            ));
        }
        let end = v.validator.end;
        duration(cx.time, end, "unsignedTx.validator.end")?;
        let node = v.validator.node_id;
        if state.validator(&Id::ZERO, &node)?.is_some() {
            return Err(Refusal::node(
                format!("duplicate validator: {node} on {}", Id::ZERO),
                format!("{node} is already a validator of the Primary Network"),
            )
            .into());
        }
        Ok(Change::Staking(StakingChange::AddValidator {
            node,
            weight,
            public_key: pop.public_key,
            start: cx.time,
            end,
        }))
    }
}

impl Accept for platform::AddPermissionlessDelegatorTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts {
            stake: &self.stake,
            ..Parts::of(&self.base)
        })
    }

    /// The subnet is the Primary Network, the stake is the weight and at least the minimum,
    /// the period within bounds and within the validator's, and the validator not over
    /// delegated.
    fn check(
        &self,
        cx: &CheckInput<'_>,
        state: &mut dyn ChainState,
    ) -> Result<Change, VerifyError> {
        let d = self;
        if d.subnet_id != Id::ZERO {
            return fail(format!(
                "`unsignedTx.subnetID` is {}; delegation is to Primary Network validators only (no Subnet is elastic)",
                d.subnet_id
            ));
        }
        let node = d.validator.node_id;
        let weight = d.validator.weight;
        let end = d.validator.end;
        staked_is_weight(cx.staked, weight)?;
        if weight < staking::MIN_DELEGATOR_STAKE {
            return fail(format!(
                "`unsignedTx.validator.weight` is {weight}; a delegator stakes at least {} nAVAX",
                staking::MIN_DELEGATOR_STAKE
            ));
        }
        duration(cx.time, end, "unsignedTx.validator.end")?;
        let Some(v) = state.validator(&Id::ZERO, &node)? else {
            return Err(Refusal::node(
                format!(
                    "failed to fetch the validator for {node} on {}: not found",
                    Id::ZERO
                ),
                format!(
                    "`unsignedTx.validator.nodeID` {node} is not a current validator of the Primary Network"
                ),
            ).into());
        };
        if end > v.end {
            return Err(Refusal::node(
                "proposed staking period is not inside dependent staking period",
                format!(
                    "`unsignedTx.validator.end` is {end}, after the validator's period ends ({})",
                    v.end
                ),
            )
            .into());
        }
        let limit = v
            .weight
            .saturating_mul(staking::MAX_VALIDATOR_WEIGHT_FACTOR)
            .min(staking::MAX_VALIDATOR_STAKE);
        let total = v.weight.saturating_add(v.delegated).saturating_add(weight);
        if total > limit {
            return fail(format!(
                "over delegated: {node} would hold {total} nAVAX with this delegation, more than its limit of {limit} ({}× its own stake of {}, at most {})",
                staking::MAX_VALIDATOR_WEIGHT_FACTOR,
                v.weight,
                staking::MAX_VALIDATOR_STAKE
            ));
        }
        Ok(Change::Staking(StakingChange::AddDelegator {
            node,
            weight,
            start: cx.time,
            end,
        }))
    }
}

fn staked_is_weight(staked: u64, weight: u64) -> Result<(), Refusal> {
    if staked != weight {
        return fail(format!(
            "`unsignedTx.stake` holds {staked} nAVAX but `unsignedTx.validator.weight` is {weight}"
        ));
    }
    Ok(())
}

/// A staking period from the chain time `time` to `end` must last from the minimum to the
/// maximum staking duration.
pub fn duration(time: u64, end: u64, place: &str) -> Result<(), Refusal> {
    let d = end.saturating_sub(time);
    if !(staking::MIN_STAKE_DURATION..=staking::MAX_STAKE_DURATION).contains(&d) {
        return fail(format!(
            "`{place}` is {end}: staking from the chain time {time} must last from {} to {} seconds, not {d}",
            staking::MIN_STAKE_DURATION,
            staking::MAX_STAKE_DURATION
        ));
    }
    Ok(())
}

/// Writes what staking tx `id`, accepted at `height`, changes: the staker with the reward
/// it may earn, from the supply now (the supply counts it at once).
pub fn apply(
    w: &WriteTransaction,
    change: StakingChange,
    (id, height): (&Id, u64),
) -> Result<(), StoreError> {
    match change {
        StakingChange::AddValidator {
            node,
            weight,
            public_key,
            start,
            end,
        } => {
            let rec = Record {
                tx_id: *id,
                reward: potential_reward(w, end - start, weight)?,
                start,
                accrued: 0,
            };
            stakers::add_staker(w, (&Id::ZERO, &node), rec, height, weight, Some(public_key))
        }
        StakingChange::AddDelegator {
            node,
            weight,
            start,
            end,
        } => {
            let reward = potential_reward(w, end - start, weight)?;
            stakers::add_delegator(w, (&Id::ZERO, &node, id), reward, (height, start), weight)
        }
    }
}

/// The reward a stake of `weight` for `duration` seconds earns, from the supply now; the
/// supply counts it at once.
fn potential_reward(w: &WriteTransaction, duration: u64, weight: u64) -> Result<u64, StoreError> {
    let supply = store::meta_u64(w, store::Meta::P_SUPPLY)?.unwrap_or(0);
    let reward = crate::genesis::staking::reward(duration, weight, supply);
    store::set_meta(
        w,
        store::Meta::P_SUPPLY,
        &supply.saturating_add(reward).to_be_bytes(),
    )?;
    Ok(reward)
}
