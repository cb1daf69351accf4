//! The end of a staking period, as the node's block builder handles it. Once the chain time
//! reaches a staker's end:
//! - a Primary Network validator or delegator gets a Banff proposal block carrying a
//!   RewardValidatorTx and its commit block (every devnet node is always up, so the reward is
//!   always earned), which return the stake and pay the reward
//!   (`vms/platformvm/txs/executor/proposal_tx_executor.go`): a delegator's reward is split
//!   with its validator by the delegation fee, the validator's share accrued and paid with the
//!   validator's own reward;
//! - an auto-renewed validator (ACP-236) gets a RewardAutoRenewedValidatorTx instead
//!   (`RewardAutoRenewedValidatorTx`, `restakeAutoRenewedValidatorOnCommit` in the same
//!   file): with a next period, its rewards are split by its restaked share (capped at the
//!   maximum validator stake), the rest paid, its weight raised and a new cycle begun at the
//!   old end; with none, its stake is returned and every reward paid. Its reward UTXOs are the
//!   reward tx's outputs (`mintRewards`);
//! - a permissioned Subnet validator leaves in an empty standard block that moves the chain
//!   time to its end.

use super::due::{Due, next_due};
use super::vm::{PVm, standard_block};
use super::{Utxo, l1, stakers};
use crate::engine::{Engine, Sealed, tail};
use crate::ledger::{self, Chain, Status};
use crate::store::{self, Meta, StoreError};
use avalanche_rpc::codec::{avax, platform, secp256k1fx};
use avalanche_rpc::wire::Id;
use redb::WriteTransaction;

/// A reward output of staking tx `tx`, numbered `index`: paid, and listed by
/// `getRewardUTXOs`.
fn pay(
    w: &WriteTransaction,
    (tx, index): (&Id, u32),
    asset: Id,
    amount: u64,
    owner: &platform::Owner,
) -> Result<(), StoreError> {
    let platform::Owner::OutputOwners(owner) = owner else {
        return Err(StoreError::Invalid(
            "a reward owner is not an OutputOwners".into(),
        ));
    };
    let u = Utxo::new(platform::Utxo::new(
        avax::UtxoId::new(*tx, index),
        asset,
        platform::UtxoOutput::TransferOutput(secp256k1fx::TransferOutput::new(
            amount,
            owner.owners.clone(),
        )),
    ));
    ledger::put_utxo(w, Chain::P, &u.id, &u.bytes, &u.owners())?;
    w.open_table(store::P_REWARD_UTXOS)?.insert(
        store::key(&[tx.as_bytes(), &index.to_be_bytes()]).as_slice(),
        u.bytes.as_slice(),
    )?;
    Ok(())
}

/// Returns a staking tx's stake: outputs numbered after the tx's own; the next number.
fn unstake(
    w: &WriteTransaction,
    tx: &Id,
    outputs: usize,
    stake: &[platform::TransferableOutput],
) -> Result<u32, StoreError> {
    let mut index = outputs as u32;
    for o in stake {
        // Returned as staked: a stakeable-locked stake stays locked (`unstakeUTXOs`).
        let output = match &o.output {
            platform::TransferableOut::TransferOutput(t) => {
                Some(platform::UtxoOutput::TransferOutput(t.clone()))
            }
            platform::TransferableOut::LockOut(l) => Some(platform::UtxoOutput::LockOut(l.clone())),
            _ => None,
        };
        if let Some(output) = output {
            let u = Utxo::new(platform::Utxo::new(
                avax::UtxoId::new(*tx, index),
                o.asset_id,
                output,
            ));
            ledger::put_utxo(w, Chain::P, &u.id, &u.bytes, &u.owners())?;
        }
        index += 1;
    }
    Ok(index)
}

/// Rewards every staker whose period has ended by the engine's time, oldest end first,
/// each with a proposal block and its commit (or an empty standard block); how many.
pub fn reward_stakers(engine: &Engine, vm: &PVm) -> Result<usize, StoreError> {
    let _one_at_a_time = engine.one_at_a_time();
    let mut rewarded = 0;
    loop {
        let w = engine.store.write()?;
        let Some(due) = next_due(&w, engine.clock.now())? else {
            return Ok(rewarded);
        };
        let (parent_height, parent_bytes) =
            ledger::last_block(&w.open_table(store::BLOCKS)?, Chain::P)?;
        let parent = (Id::from_sha256(&parent_bytes), parent_height);
        let parent_time = store::meta_u64(&w, Meta::P_TIMESTAMP)?.unwrap_or(vm.genesis_time);
        let time = due.end().max(parent_time);
        let avax = vm.rules.avax;
        // The block's time first charges the L1 validators' continuous fee (which
        // deactivates those whose balance it uses up).
        l1::advance(&w, (time, time - parent_time), parent_height + 1)?;
        // Time passed: the fee state refills and drains; no gas is used.
        let state = super::vm::fee_state(&w)?.0.advance(time - parent_time);
        if let Due::Permissioned(_) | Due::Depleted(_) = &due {
            // An empty standard block moves the chain time to the staker's end.
            if let Due::Permissioned(s) = &due {
                stakers::remove_staker(&w, &s.subnet, &s.node, parent_height + 1, s.weight())?;
            }
            let sealed = standard_block(&w, parent, time, Vec::new(), state)?;
            tail::append(engine, &w, Chain::P, vm.genesis, &sealed)?;
            w.commit()?;
            rewarded += 1;
            continue;
        }
        let renewed = matches!(&due, Due::Validator(s) if s.renew.is_some());
        let reward_tx = if renewed {
            platform::Tx::new(
                platform::RewardAutoRenewedValidatorTx::new(due.tx_id(), time).into(),
                Vec::new(),
            )
        } else {
            platform::Tx::new(
                platform::RewardValidatorTx::new(due.tx_id()).into(),
                Vec::new(),
            )
        };
        let reward_bytes = encode(&reward_tx.to_bytes())?;
        let proposal = platform::Block::from(platform::BanffProposalBlock::new(
            time,
            Vec::new(),
            parent.0,
            parent_height + 1,
            reward_tx,
        ));
        let proposal = Sealed {
            bytes: encode(&proposal.to_bytes())?,
            height: parent_height + 1,
            time,
        };
        // The proposal, then its commit option (wrapped as an option of the proposal's
        // wrapper); both indexed.
        let proposal_id = tail::append(engine, &w, Chain::P, vm.genesis, &proposal)?;
        let commit_height = parent_height + 2;
        let commit = platform::Block::from(platform::BanffCommitBlock::new(
            time,
            proposal_id,
            commit_height,
        ));
        let commit = Sealed {
            bytes: encode(&commit.to_bytes())?,
            height: commit_height,
            time,
        };
        tail::append_option(engine, &w, Chain::P, &commit)?;
        ledger::put_tx(
            &w,
            Chain::P,
            &Id::from_sha256(&reward_bytes),
            parent_height + 1,
            Status::Committed,
            &reward_bytes,
        )?;
        // The stake comes back, then the rewards: outputs numbered after the tx's own
        // (`rewardValidatorTx`, `rewardDelegatorTx`).
        let reward_id = Id::from_sha256(&reward_bytes);
        match &due {
            Due::Validator(s) if renewed => {
                renew(&w, s, (&reward_id, commit_height), avax)?;
            }
            Due::Validator(s) => {
                let v = s.terms().ok_or_else(|| {
                    StoreError::Invalid(format!("validator {} has no staking terms", s.tx_id))
                })?;
                let mut index = unstake(&w, &s.tx_id, v.outputs, v.stake)?;
                if s.potential_reward > 0 {
                    pay(
                        &w,
                        (&s.tx_id, index),
                        avax,
                        s.potential_reward,
                        v.validation_owner,
                    )?;
                    index += 1;
                }
                // Its share of its delegators' rewards, accrued since Cortina.
                if s.accrued > 0 {
                    pay(&w, (&s.tx_id, index), avax, s.accrued, v.delegation_owner)?;
                }
                stakers::remove_staker(&w, &s.subnet, &s.node, commit_height, s.weight())?;
            }
            Due::Delegator(d) => {
                let index = unstake(&w, &d.tx_id, d.tx.base.outputs.len(), &d.tx.stake)?;
                let shares = stakers::staker(&w, &d.subnet, &d.node)?
                    .and_then(|v| v.terms().map(|t| t.shares))
                    .ok_or_else(|| {
                        StoreError::Invalid(format!("delegator {} has no validator", d.tx_id))
                    })?;
                let (delegatee, delegator) = split(d.potential_reward, shares);
                if delegator > 0 {
                    pay(&w, (&d.tx_id, index), avax, delegator, &d.tx.rewards_owner)?;
                }
                if delegatee > 0 {
                    stakers::accrue(&w, &d.subnet, &d.node, delegatee)?;
                }
                stakers::remove_delegator(
                    &w,
                    (&d.subnet, &d.node, &d.tx_id),
                    commit_height,
                    d.tx.validator.weight,
                )?;
            }
            Due::Permissioned(_) | Due::Depleted(_) => unreachable!("handled above"),
        }
        store::set_meta(&w, Meta::P_FEE_STATE, &state.encode())?;
        store::set_meta(&w, Meta::P_TIMESTAMP, &time.to_be_bytes())?;
        w.commit()?;
        rewarded += 1;
    }
}

/// The end of an auto-renewed validator's cycle, committed by reward tx `reward_id` at
/// `height` (`RewardAutoRenewedValidatorTx`: every devnet node is up, so the commit path).
fn renew(
    w: &WriteTransaction,
    s: &stakers::Staker,
    (reward_id, height): (&Id, u64),
    avax: Id,
) -> Result<(), StoreError> {
    let (Some(v), Some(r)) = (s.terms(), s.renew) else {
        return Err(StoreError::Invalid(format!(
            "validator {} is not auto-renewed",
            s.tx_id
        )));
    };
    // `mintRewards`: the validation reward, then the delegatee reward, as the reward tx's
    // outputs from 0 (it has none of its own).
    let mint = |validation: u64, delegatee: u64| -> Result<(), StoreError> {
        let mut index = 0;
        if validation > 0 {
            pay(w, (reward_id, index), avax, validation, v.validation_owner)?;
            index += 1;
        }
        if delegatee > 0 {
            pay(w, (reward_id, index), avax, delegatee, v.delegation_owner)?;
        }
        Ok(())
    };
    if r.next_period == 0 {
        // A graceful exit: the stake comes back as the staking tx's outputs, every reward
        // is paid.
        unstake(w, &s.tx_id, v.outputs, v.stake)?;
        mint(
            s.potential_reward.saturating_add(r.accrued_validation),
            s.accrued.saturating_add(r.accrued_delegatee),
        )?;
        return stakers::remove_staker(w, &s.subnet, &s.node, height, s.weight());
    }
    let (restake_validation, restake_delegatee) = restaked(
        s.potential_reward,
        s.accrued,
        r.auto_compound_shares,
        r.weight,
    );
    mint(
        s.potential_reward - restake_validation,
        s.accrued - restake_delegatee,
    )?;
    let restaked = restake_validation + restake_delegatee;
    let weight = r.weight.saturating_add(restaked);
    let reward = super::kind::staking::potential_reward(w, r.next_period, weight)?;
    let start = r.end;
    let rec = stakers::Record {
        tx_id: s.tx_id,
        reward,
        start,
        accrued: 0,
        renew: Some(stakers::Renewal {
            end: start.saturating_add(r.next_period),
            weight,
            accrued_validation: r.accrued_validation.saturating_add(restake_validation),
            accrued_delegatee: r.accrued_delegatee.saturating_add(restake_delegatee),
            ..r
        }),
    };
    stakers::set_record(w, &s.subnet, &s.node, rec)?;
    let delta = i64::try_from(restaked)
        .map_err(|_| StoreError::Invalid("a restaked reward above 2^63".into()))?;
    stakers::change_weight(w, (height, &s.subnet, &s.node), delta, None)
}

/// What an auto-renewed validator of weight `weight` restakes of its validation reward and
/// its delegatee reward at its cycle's end, by its share (millionths), so that its weight
/// stays within the maximum stake (`restakeAutoRenewedValidatorOnCommit`: what does not fit
/// is withdrawn, the validation reward's part scaled down and rounded down, the delegatee
/// reward's the rest of the room).
pub fn restaked(validation: u64, delegatee: u64, shares: u32, weight: u64) -> (u64, u64) {
    let restake_validation = split(validation, shares).0;
    let restake_delegatee = split(delegatee, shares).0;
    let capacity = crate::genesis::staking::MAX_VALIDATOR_STAKE.saturating_sub(weight);
    let total = restake_validation.saturating_add(restake_delegatee);
    if total <= capacity {
        return (restake_validation, restake_delegatee);
    }
    let scaled = u128::from(restake_validation) * u128::from(capacity) / u128::from(total);
    let scaled = scaled as u64; // at most `restake_validation`
    (scaled, capacity - scaled)
}

/// A delegator's reward split between its validator (the delegation fee, `shares` in
/// millionths) and itself (`reward.Split`): (the validator's, the delegator's).
pub fn split(total: u64, shares: u32) -> (u64, u64) {
    const DENOMINATOR: u64 = 1_000_000;
    let remainder_shares = DENOMINATOR - u64::from(shares.min(1_000_000));
    let remainder = match remainder_shares.checked_mul(total) {
        Some(v) => v / DENOMINATOR,
        None => remainder_shares * (total / DENOMINATOR),
    };
    (total - remainder, remainder)
}

fn encode(r: &Result<Vec<u8>, avalanche_rpc::codec::RuleError>) -> Result<Vec<u8>, StoreError> {
    r.clone()
        .map_err(|e| StoreError::Invalid(format!("a reward block does not encode: {e}")))
}

/// The reward UTXOs paid for staking tx `tx` (`platform.getRewardUTXOs`).
pub fn reward_utxos(r: &redb::ReadTransaction, tx: &Id) -> Result<Vec<Vec<u8>>, StoreError> {
    let t = r.open_table(store::P_REWARD_UTXOS)?;
    let start = tx.as_bytes().to_vec();
    let end = store::key(&[tx.as_bytes(), &[0xff; 5]]);
    let mut out = Vec::new();
    for e in t.range(start.as_slice()..end.as_slice())? {
        out.push(e?.1.value().to_vec());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::restaked;
    use crate::genesis::staking::MAX_VALIDATOR_STAKE;

    #[test]
    fn an_auto_renewed_validator_restakes_its_share_within_the_maximum_stake() {
        // Room enough: the share of each reward, rounded as `reward.Split`.
        assert_eq!(restaked(1_000, 400, 250_000, 0), (250, 100));
        assert_eq!(restaked(1_001, 0, 250_000, 0), (251, 0));
        assert_eq!(restaked(1_000, 400, 0, 0), (0, 0));
        assert_eq!(restaked(1_000, 400, 1_000_000, 0), (1_000, 400));
        // 70 of room for 100 + 40: the validation part scaled down (100 × 70 / 140), the
        // delegatee part the rest; the weight ends at the maximum.
        let weight = MAX_VALIDATOR_STAKE - 70;
        assert_eq!(restaked(100, 40, 1_000_000, weight), (50, 20));
        assert_eq!(restaked(100, 40, 1_000_000, MAX_VALIDATOR_STAKE), (0, 0));
    }
}
