//! Staking on the Primary Network: AddPermissionlessValidatorTx and
//! AddPermissionlessDelegatorTx (after Durango: they start at the chain time). Their checks
//! (`verifyAddPermissionlessValidatorTx`, `verifyAddPermissionlessDelegatorTx`) and the
//! staker they add, with the potential reward it may earn. Since Helicon, ACP-236's
//! auto-renewed validators: AddAutoRenewedValidatorTx (`verifyAddAutoRenewedValidatorTx`)
//! and SetAutoRenewedValidatorConfigTx (`verifySetAutoRenewedValidatorConfigTx`), in
//! `vms/platformvm/txs/executor/staker_tx_verification.go`.

use crate::genesis::staking;
use crate::pchain::stakers::Renewal;
use crate::pchain::vocab::Authority;
use crate::pchain::vocab::{Accept, ChainState, Change, CheckInput, Parts, Rules, StakingChange};
use crate::pchain::{Record, stakers};
use crate::refusal::{Refusal, VerifyError, fail};
use crate::store::{self, StoreError};
use avalanche_rpc::codec::platform;
use avalanche_rpc::wire::{Id, NodeId};
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
        proof_holds(pop)?;
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

impl Accept for platform::AddAutoRenewedValidatorTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts {
            stake: &self.stake,
            ..Parts::of(&self.base)
        })
    }

    /// As `verifyAddAutoRenewedValidatorTx`: a 20-byte node ID, a proof of possession that
    /// holds, the restaked share at most 100 %, the stake (its weight) within bounds, the
    /// delegation fee at least the minimum, the period within the staking bounds, and the node
    /// not already a validator. It starts at the chain time and ends a period later.
    fn check(
        &self,
        cx: &CheckInput<'_>,
        state: &mut dyn ChainState,
    ) -> Result<Change, VerifyError> {
        let v = self;
        let node: [u8; 20] = v.node_id.as_slice().try_into().map_err(|_| {
            Refusal::new(format!(
                "`unsignedTx.nodeID` is {} bytes; a node ID is 20",
                v.node_id.len()
            ))
        })?;
        let node = NodeId::new(node);
        let platform::Signer::ProofOfPossession(pop) = &v.signer else {
            return Err(Refusal::node(
                "missing signer",
                "`unsignedTx.signer`: an auto-renewed validator needs a BLS proof of possession",
            )
            .into());
        };
        proof_holds(pop)?;
        auto_compound_shares(v.auto_compound_reward_shares)?;
        let weight = cx.staked;
        if weight < staking::MIN_VALIDATOR_STAKE {
            return Err(Refusal::node(
                "weight of this validator is too low",
                format!(
                    "`unsignedTx.stake` holds {weight} nAVAX; a validator stakes at least {}",
                    staking::MIN_VALIDATOR_STAKE
                ),
            )
            .into());
        }
        if weight > staking::MAX_VALIDATOR_STAKE {
            return Err(Refusal::node(
                "weight of this validator is too large",
                format!(
                    "`unsignedTx.stake` holds {weight} nAVAX; a validator stakes at most {}",
                    staking::MAX_VALIDATOR_STAKE
                ),
            )
            .into());
        }
        if v.delegation_shares < staking::MIN_DELEGATION_FEE {
            return Err(Refusal::node(
                "staker charges an insufficient delegation fee",
                format!(
                    "`unsignedTx.delegationShares` is {}; the minimum delegation fee is {} (2 %)",
                    v.delegation_shares,
                    staking::MIN_DELEGATION_FEE
                ),
            )
            .into());
        }
        period(v.period, false, "unsignedTx.period")?;
        if state.validator(&Id::ZERO, &node)?.is_some() {
            return Err(Refusal::node(
                format!("duplicate validator: {node}"),
                format!("{node} is already a validator of the Primary Network"),
            )
            .into());
        }
        Ok(Change::Staking(StakingChange::AddAutoRenewed {
            node,
            weight,
            public_key: pop.public_key,
            start: cx.time,
            period: v.period,
            auto_compound_shares: v.auto_compound_reward_shares,
        }))
    }
}

impl Accept for platform::SetAutoRenewedValidatorConfigTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts {
            authority: Some((Authority::AutoRenewed(&self.tx_id), &self.auth)),
            ..Parts::of(&self.base)
        })
    }

    /// As `verifySetAutoRenewedValidatorConfigTx` once the authority has signed
    /// ([`check_renew_auth`]): the validator its tx added is current and was added by that
    /// tx, the restaked share at most 100 %, and the next period 0 or within the bounds.
    fn check(&self, _: &CheckInput<'_>, state: &mut dyn ChainState) -> Result<Change, VerifyError> {
        let (_, node) = renewed_tx(state, &self.tx_id)?;
        let Some(current) = state.validator(&Id::ZERO, &node)? else {
            return Err(Refusal::node(
                format!("getting validator {node} from state: not found"),
                format!(
                    "`unsignedTx.txID` {} added {node}, which no longer validates",
                    self.tx_id
                ),
            )
            .into());
        };
        if current.tx_id != self.tx_id {
            return Err(Refusal::node(
                "invalid staker tx: wrong tx id",
                format!(
                    "`unsignedTx.txID` is {}, but {node} validates by {}",
                    self.tx_id, current.tx_id
                ),
            )
            .into());
        }
        auto_compound_shares(self.auto_compound_reward_shares)?;
        period(self.period, true, "unsignedTx.period")?;
        Ok(Change::Staking(StakingChange::SetAutoRenewedConfig {
            node,
            next_period: self.period,
            auto_compound_shares: self.auto_compound_reward_shares,
        }))
    }
}

/// The AddAutoRenewedValidatorTx `tx_id` names, and its node (`getting staker tx`,
/// `errInvalidStakerTxType`).
fn renewed_tx(
    state: &mut dyn ChainState,
    tx_id: &Id,
) -> Result<(platform::AddAutoRenewedValidatorTx, NodeId), VerifyError> {
    let Some(tx) = state.tx(tx_id)? else {
        return Err(Refusal::node(
            "getting staker tx: not found",
            format!("`unsignedTx.txID` {tx_id} is not an accepted transaction"),
        )
        .into());
    };
    let platform::UnsignedTx::AddAutoRenewedValidatorTx(t) = tx.unsigned else {
        return Err(Refusal::node(
            format!("invalid staker tx type: *txs.{}", tx.unsigned.type_name()),
            format!(
                "`unsignedTx.txID` {tx_id} is a {}, not an AddAutoRenewedValidatorTx",
                tx.unsigned.type_name()
            ),
        )
        .into());
    };
    let node = NodeId::new(t.node_id.as_slice().try_into().map_err(|_| {
        Refusal::new(format!(
            "the validator tx {tx_id} has a node ID not 20 bytes long"
        ))
    })?);
    Ok((*t, node))
}

/// The authorization of a SetAutoRenewedValidatorConfigTx: the validator authority of the
/// AddAutoRenewedValidatorTx it names (`verifyAuthorization`).
pub fn check_renew_auth(
    state: &mut dyn ChainState,
    tx_id: &Id,
    auth: &platform::Auth,
    signed: (&platform::Tx, &[u8; 32], u64),
) -> Result<(), VerifyError> {
    let (t, _) = renewed_tx(state, tx_id)?;
    let platform::Owner::OutputOwners(owner) = &t.validator_authority else {
        return fail("the validator authority is not a secp256k1fx owner");
    };
    super::check_authorization(&owner.owners, auth, signed, "unsignedTx.auth")?;
    Ok(())
}

/// A restaked share is at most 100 % (`errTooManyAutoCompoundRewardShares`).
fn auto_compound_shares(shares: u32) -> Result<(), Refusal> {
    if shares > 1_000_000 {
        return Err(Refusal::node(
            "a staker can only restake at most 1000000 shares from rewards",
            format!("`unsignedTx.autoCompoundRewardShares` is {shares}; at most 1000000 (100 %)"),
        ));
    }
    Ok(())
}

/// An auto-renewed validator's period, within the staking bounds (0 allowed for a next
/// period: it leaves at the end of this one).
fn period(period: u64, zero: bool, place: &str) -> Result<(), Refusal> {
    if zero && period == 0 {
        return Ok(());
    }
    if period < staking::MIN_STAKE_DURATION {
        return Err(Refusal::node(
            "staking period is too short",
            format!(
                "`{place}` is {period} seconds; at least {}",
                staking::MIN_STAKE_DURATION
            ),
        ));
    }
    if period > staking::MAX_STAKE_DURATION {
        return Err(Refusal::node(
            "staking period is too long",
            format!(
                "`{place}` is {period} seconds; at most {}",
                staking::MAX_STAKE_DURATION
            ),
        ));
    }
    Ok(())
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
                renew: None,
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
        StakingChange::AddAutoRenewed {
            node,
            weight,
            public_key,
            start,
            period,
            auto_compound_shares,
        } => {
            let rec = Record {
                tx_id: *id,
                reward: potential_reward(w, period, weight)?,
                start,
                accrued: 0,
                renew: Some(Renewal {
                    end: start.saturating_add(period),
                    weight,
                    next_period: period,
                    auto_compound_shares,
                    accrued_validation: 0,
                    accrued_delegatee: 0,
                }),
            };
            stakers::add_staker(w, (&Id::ZERO, &node), rec, height, weight, Some(public_key))
        }
        StakingChange::SetAutoRenewedConfig {
            node,
            next_period,
            auto_compound_shares,
        } => {
            let mut rec = stakers::record(w, &Id::ZERO, &node)?
                .ok_or_else(|| StoreError::Invalid(format!("{node} is not a current validator")))?;
            let Some(r) = rec.renew.as_mut() else {
                return Err(StoreError::Invalid(format!(
                    "{node} is not an auto-renewed validator"
                )));
            };
            r.next_period = next_period;
            r.auto_compound_shares = auto_compound_shares;
            stakers::set_record(w, &Id::ZERO, &node, rec)
        }
    }
}

/// The reward a stake of `weight` for `duration` seconds earns, from the supply now; the
/// supply counts it at once.
pub fn potential_reward(
    w: &WriteTransaction,
    duration: u64,
    weight: u64,
) -> Result<u64, StoreError> {
    let supply = store::meta_u64(w, store::Meta::P_SUPPLY)?.unwrap_or(0);
    let reward = crate::genesis::staking::reward(duration, weight, supply);
    store::set_meta(
        w,
        store::Meta::P_SUPPLY,
        &supply.saturating_add(reward).to_be_bytes(),
    )?;
    Ok(reward)
}

/// A validator's BLS proof of possession verifies, as both validator kinds require.
fn proof_holds(pop: &platform::ProofOfPossession) -> Result<(), Refusal> {
    avalanche_rpc::bls::verify_proof_of_possession(&pop.public_key, &pop.proof_of_possession)
        .map_err(|e| {
            Refusal::new(format!(
                "`unsignedTx.signer.proofOfPossession` does not verify: {e}"
            ))
        })
}
