//! The stakers due to leave, in the node's order of removal: when the next one leaves
//! bounds a standard block's time ([`next_change`]); [`super::reward`] removes them.

use super::{Delegator, Staker, l1, stakers};
use crate::store::{self, StoreError};
use avalanche_rpc::wire::Id;
use redb::WriteTransaction;

/// A staker due to leave, in the node's order of removal.
pub enum Due {
    /// A permissioned Subnet validator: removed by the block that moves the chain time past
    /// its end, without a reward.
    Permissioned(Staker),
    /// An L1 validator's balance runs out at this time: a block then deactivates it.
    Depleted(u64),
    /// A delegator: a proposal block rewards it.
    Delegator(Delegator),
    /// A Primary Network validator: a proposal block rewards it.
    Validator(Staker),
}

impl Due {
    pub fn end(&self) -> u64 {
        match self {
            Due::Permissioned(s) | Due::Validator(s) => s.end(),
            Due::Delegator(d) => d.tx.validator.end,
            Due::Depleted(t) => *t,
        }
    }

    /// The node's priority among stakers ending at the same time (`txs/priorities.go`):
    /// permissioned Subnet validators, then delegators, then validators.
    fn priority(&self) -> u8 {
        match self {
            Due::Permissioned(_) | Due::Depleted(_) => 0,
            Due::Delegator(_) => 1,
            Due::Validator(_) => 2,
        }
    }

    pub fn tx_id(&self) -> Id {
        match self {
            Due::Permissioned(s) | Due::Validator(s) => s.tx_id,
            Due::Delegator(d) => d.tx_id,
            Due::Depleted(_) => Id::ZERO,
        }
    }
}

/// When the next staker leaves (its period ends; an L1 validator's balance runs out), if any
/// does: a standard block may not pass it (the node's `NextBlockTime` stops there).
pub fn next_change(w: &WriteTransaction) -> Result<Option<u64>, StoreError> {
    Ok(next_due(w, u64::MAX)?.map(|d| d.end()))
}

/// The staker to remove first among those whose end is at or before `now`.
pub fn next_due(w: &WriteTransaction, now: u64) -> Result<Option<Due>, StoreError> {
    let mut all: Vec<Due> = stakers::all_stakers(w)?
        .into_iter()
        .map(|s| {
            if s.subnet_validator().is_some() {
                Due::Permissioned(s)
            } else {
                Due::Validator(s)
            }
        })
        .collect();
    all.extend(
        stakers::delegators(w, &Id::ZERO, None)?
            .into_iter()
            .map(Due::Delegator),
    );
    let chain_time = store::meta_u64(w, store::Meta::P_TIMESTAMP)?.unwrap_or(0);
    all.extend(l1::next_depletion(w, chain_time)?.map(Due::Depleted));
    Ok(all
        .into_iter()
        .filter(|d| d.end() <= now)
        .min_by_key(|d| (d.end(), d.priority(), d.tx_id())))
}
