//! The P-chain's stakers in the store: the current validators of every Subnet (Primary
//! Network validators with their accrued delegatee reward, and permissioned Subnet
//! validators), the delegators of each validator, and the validator sets' changes by height
//! (`getValidatorsAt`).

use crate::ledger::{self, Chain};
use crate::store::{self, Reader, StoreError};
use avalanche_rpc::codec::platform;
use avalanche_rpc::wire::{Id, NodeId};
use redb::{ReadableTable, WriteTransaction};
use std::collections::BTreeMap;

/// A current validator's record.
#[derive(Debug, Clone, Copy)]
pub struct Record {
    /// Its staking transaction.
    pub tx_id: Id,
    /// The reward it earns if it validates to its end (0 for permissioned validators).
    pub reward: u64,
    /// When it started validating: the chain time it was accepted at (since Durango the tx's
    /// own start time is ignored).
    pub start: u64,
    /// The delegatee reward accrued from its delegators' rewards, paid at its end.
    pub accrued: u64,
    /// An auto-renewed validator's cycle and configuration (ACP-236).
    pub renew: Option<Renewal>,
}

/// What an auto-renewed validator (AddAutoRenewedValidatorTx) keeps beyond its tx, which
/// changes with each cycle: the node's `state.Staker` end and weight and its
/// `state.StakingInfo` (`vms/platformvm/state/staking_info.go`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Renewal {
    /// When the current cycle ends.
    pub end: u64,
    /// Its weight: the stake plus the rewards restaked so far.
    pub weight: u64,
    /// The next cycle's length in seconds (0: it leaves at the end of this one).
    pub next_period: u64,
    /// The share of rewards restaked at the cycle's end, in millionths.
    pub auto_compound_shares: u32,
    /// Validation rewards restaked by earlier cycles.
    pub accrued_validation: u64,
    /// Delegatee rewards restaked by earlier cycles.
    pub accrued_delegatee: u64,
}

impl Record {
    fn decode(v: &[u8]) -> Record {
        let u = |r: std::ops::Range<usize>| {
            v.get(r)
                .map_or(0, |b| u64::from_be_bytes(b.try_into().expect("8 bytes")))
        };
        Record {
            tx_id: Id::new(v[..32].try_into().expect("32 bytes")),
            reward: u(32..40),
            start: u(40..48),
            accrued: u(48..56),
            renew: (v.len() >= 104).then(|| Renewal {
                end: u(56..64),
                weight: u(64..72),
                next_period: u(72..80),
                auto_compound_shares: u(80..88) as u32,
                accrued_validation: u(88..96),
                accrued_delegatee: u(96..104),
            }),
        }
    }

    fn encode(&self) -> Vec<u8> {
        let mut v = store::key(&[
            self.tx_id.as_bytes(),
            &self.reward.to_be_bytes(),
            &self.start.to_be_bytes(),
            &self.accrued.to_be_bytes(),
        ]);
        if let Some(r) = &self.renew {
            for n in [
                r.end,
                r.weight,
                r.next_period,
                u64::from(r.auto_compound_shares),
                r.accrued_validation,
                r.accrued_delegatee,
            ] {
                v.extend_from_slice(&n.to_be_bytes());
            }
        }
        v
    }
}

/// A current validator of a Subnet, with its staking tx.
#[derive(Debug, Clone)]
pub struct Staker {
    pub subnet: Id,
    pub node: NodeId,
    pub tx_id: Id,
    pub tx: platform::Tx,
    pub potential_reward: u64,
    pub start: u64,
    pub accrued: u64,
    /// An auto-renewed validator's cycle and configuration.
    pub renew: Option<Renewal>,
}

/// What a reward-earning validator's tx says, whichever its type: an
/// AddPermissionlessValidatorTx, an AddAutoRenewedValidatorTx (its period and weight those
/// of its current cycle), or the AddValidatorTx a genesis file's staker without a BLS key
/// gets (one owner for both rewards).
#[derive(Debug, Clone, Copy)]
pub struct Terms<'a> {
    pub node: NodeId,
    /// When its period starts, as its tx says (an auto-renewed validator's: its cycle's).
    pub start: u64,
    pub end: u64,
    /// Its own stake (an auto-renewed validator's with its restaked rewards).
    pub weight: u64,
    /// How many outputs the tx's base has (returned stake and rewards are numbered after).
    pub outputs: usize,
    pub stake: &'a [platform::TransferableOutput],
    pub validation_owner: &'a platform::Owner,
    pub delegation_owner: &'a platform::Owner,
    /// The delegation fee, in millionths.
    pub shares: u32,
    pub signer: Option<&'a platform::Signer>,
    /// An auto-renewed validator's authority over its configuration.
    pub authority: Option<&'a platform::Owner>,
}

impl Staker {
    /// The terms of a Primary Network validator (none for a permissioned Subnet validator):
    /// type tests of the two kinds that make one (AddValidatorTx only in a genesis).
    pub fn terms(&self) -> Option<Terms<'_>> {
        use platform::UnsignedTx as T;
        if let T::AddPermissionlessValidatorTx(v) = &self.tx.unsigned {
            return Some(Terms {
                node: v.validator.node_id,
                start: v.validator.start,
                end: v.validator.end,
                weight: v.validator.weight,
                outputs: v.base.outputs.len(),
                stake: &v.stake,
                validation_owner: &v.validator_rewards_owner,
                delegation_owner: &v.delegator_rewards_owner,
                shares: v.delegation_shares,
                signer: Some(&v.signer),
                authority: None,
            });
        }
        if let (T::AddAutoRenewedValidatorTx(v), Some(r)) = (&self.tx.unsigned, &self.renew) {
            return Some(Terms {
                node: self.node,
                start: self.start,
                end: r.end,
                weight: r.weight,
                outputs: v.base.outputs.len(),
                stake: &v.stake,
                validation_owner: &v.validator_rewards_owner,
                delegation_owner: &v.delegator_rewards_owner,
                shares: v.delegation_shares,
                signer: Some(&v.signer),
                authority: Some(&v.validator_authority),
            });
        }
        let T::AddValidatorTx(v) = &self.tx.unsigned else {
            return None;
        };
        Some(Terms {
            node: v.validator.node_id,
            start: v.validator.start,
            end: v.validator.end,
            weight: v.validator.weight,
            outputs: v.base.outputs.len(),
            stake: &v.stake,
            validation_owner: &v.rewards_owner,
            delegation_owner: &v.rewards_owner,
            shares: v.delegation_shares,
            signer: None,
            authority: None,
        })
    }

    /// The permissioned Subnet validator's tx (a type test: any other kind is not one).
    pub fn subnet_validator(&self) -> Option<&platform::AddSubnetValidatorTx> {
        let platform::UnsignedTx::AddSubnetValidatorTx(v) = &self.tx.unsigned else {
            return None;
        };
        Some(v)
    }

    /// Its own stake weight (delegations not counted).
    pub fn weight(&self) -> u64 {
        match (self.terms(), self.subnet_validator()) {
            (Some(t), _) => t.weight,
            (None, Some(v)) => v.validator.validator.weight,
            (None, None) => 0,
        }
    }

    /// When its period ends.
    pub fn end(&self) -> u64 {
        match (self.terms(), self.subnet_validator()) {
            (Some(t), _) => t.end,
            (None, Some(v)) => v.validator.validator.end,
            (None, None) => 0,
        }
    }

    pub fn public_key(&self) -> Option<[u8; 48]> {
        match self.terms()?.signer? {
            platform::Signer::ProofOfPossession(p) => Some(p.public_key),
            _ => None,
        }
    }
}

/// A current delegator, with its delegation tx.
#[derive(Debug, Clone)]
pub struct Delegator {
    pub subnet: Id,
    pub node: NodeId,
    pub tx_id: Id,
    pub tx: platform::AddPermissionlessDelegatorTx,
    pub potential_reward: u64,
    pub start: u64,
}

fn staker_key(subnet: &Id, node: &NodeId) -> Vec<u8> {
    store::key(&[subnet.as_bytes(), node.as_bytes()])
}

fn stored_tx<R: Reader>(r: &R, id: &Id) -> Result<platform::Tx, StoreError> {
    let stored = ledger::tx(r, Chain::P, id)?
        .ok_or_else(|| StoreError::Invalid(format!("staker tx {id} is not stored")))?;
    platform::Tx::from_bytes(&stored.bytes)
        .map_err(|e| StoreError::Invalid(format!("stored tx {id} does not decode: {e}")))
}

/// The record of `node` if it currently validates `subnet`.
pub fn record<R: Reader>(r: &R, subnet: &Id, node: &NodeId) -> Result<Option<Record>, StoreError> {
    let t = r.table(store::P_STAKERS)?;
    Ok(t.get(staker_key(subnet, node).as_slice())?
        .map(|v| Record::decode(v.value())))
}

/// Whether `node` is a current validator of `subnet`.
pub fn is_staker<R: Reader>(r: &R, subnet: &Id, node: &NodeId) -> Result<bool, StoreError> {
    Ok(record(r, subnet, node)?.is_some())
}

/// The current validator `node` of `subnet`, with its tx.
pub fn staker<R: Reader>(r: &R, subnet: &Id, node: &NodeId) -> Result<Option<Staker>, StoreError> {
    record(r, subnet, node)?
        .map(|rec| {
            Ok(Staker {
                subnet: *subnet,
                node: *node,
                tx_id: rec.tx_id,
                tx: stored_tx(r, &rec.tx_id)?,
                potential_reward: rec.reward,
                start: rec.start,
                accrued: rec.accrued,
                renew: rec.renew,
            })
        })
        .transpose()
}

/// The current validators of `subnet`, by node ID.
pub fn stakers<R: Reader>(r: &R, subnet: &Id) -> Result<Vec<Staker>, StoreError> {
    let t = r.table(store::P_STAKERS)?;
    let start = subnet.as_bytes().to_vec();
    let end = store::key(&[subnet.as_bytes(), &[0xff; 21]]);
    let mut out = Vec::new();
    for e in t.range(start.as_slice()..end.as_slice())? {
        let (k, v) = e?;
        let rec = Record::decode(v.value());
        out.push(Staker {
            subnet: *subnet,
            node: NodeId::new(k.value()[32..].try_into().expect("20 bytes")),
            tx_id: rec.tx_id,
            tx: stored_tx(r, &rec.tx_id)?,
            potential_reward: rec.reward,
            start: rec.start,
            accrued: rec.accrued,
            renew: rec.renew,
        });
    }
    Ok(out)
}

/// Every current validator of every Subnet.
pub fn all_stakers<R: Reader>(r: &R) -> Result<Vec<Staker>, StoreError> {
    let subnets: Vec<Id> = {
        let t = r.table(store::P_STAKERS)?;
        let mut out: Vec<Id> = Vec::new();
        for e in t.iter()? {
            let s = Id::new(e?.0.value()[..32].try_into().expect("32 bytes"));
            if out.last() != Some(&s) {
                out.push(s);
            }
        }
        out
    };
    let mut all = Vec::new();
    for s in subnets {
        all.extend(stakers(r, &s)?);
    }
    Ok(all)
}

/// The current delegators of `subnet` (of `node` alone when given), by node then tx ID.
pub fn delegators<R: Reader>(
    r: &R,
    subnet: &Id,
    node: Option<&NodeId>,
) -> Result<Vec<Delegator>, StoreError> {
    let t = r.table(store::P_DELEGATORS)?;
    let prefix = match node {
        Some(n) => staker_key(subnet, n),
        None => subnet.as_bytes().to_vec(),
    };
    let end = store::key(&[&prefix, &[0xff; 53]]);
    let mut out = Vec::new();
    for e in t.range(prefix.as_slice()..end.as_slice())? {
        let (k, v) = e?;
        let (k, v) = (k.value(), v.value());
        let tx_id = Id::new(k[52..84].try_into().expect("32 bytes"));
        let platform::UnsignedTx::AddPermissionlessDelegatorTx(tx) = stored_tx(r, &tx_id)?.unsigned
        else {
            return Err(StoreError::Invalid(format!(
                "delegation {tx_id} is not an AddPermissionlessDelegatorTx"
            )));
        };
        out.push(Delegator {
            subnet: *subnet,
            node: NodeId::new(k[32..52].try_into().expect("20 bytes")),
            tx_id,
            tx: *tx,
            potential_reward: u64::from_be_bytes(v[..8].try_into().expect("8 bytes")),
            start: u64::from_be_bytes(v[8..16].try_into().expect("8 bytes")),
        });
    }
    Ok(out)
}

/// A validator set: weight (its own and its delegators') and BLS public key by node.
pub type ValidatorSet = BTreeMap<NodeId, (u64, Option<[u8; 48]>)>;

/// The validator set of `subnet` after the block at `height`.
pub fn validators_at<R: Reader>(
    r: &R,
    subnet: &Id,
    height: u64,
) -> Result<ValidatorSet, StoreError> {
    let t = r.table(store::P_VALIDATOR_DIFFS)?;
    let end = store::key(&[&height.to_be_bytes(), &[0xff; 53]]);
    let mut set = ValidatorSet::new();
    for e in t.range([].as_slice()..end.as_slice())? {
        let (k, v) = e?;
        let k = k.value();
        if &k[8..40] != subnet.as_bytes() {
            continue;
        }
        let node = NodeId::new(k[40..60].try_into().expect("20 bytes"));
        let (delta, pk) = decode_diff(v.value());
        let entry = set.entry(node).or_insert((0, pk));
        entry.0 = entry.0.saturating_add_signed(delta);
        if pk.is_some() {
            entry.1 = pk;
        }
        if entry.0 == 0 {
            set.remove(&node);
        }
    }
    Ok(set)
}

/// The Subnets with a validator set at `height` (the Primary Network always).
pub fn subnets_with_validators<R: Reader>(r: &R, height: u64) -> Result<Vec<Id>, StoreError> {
    let t = r.table(store::P_VALIDATOR_DIFFS)?;
    let end = store::key(&[&height.to_be_bytes(), &[0xff; 53]]);
    let mut out = vec![Id::ZERO];
    for e in t.range([].as_slice()..end.as_slice())? {
        let (k, _) = e?;
        let s = Id::new(k.value()[8..40].try_into().expect("32 bytes"));
        if !out.contains(&s) {
            out.push(s);
        }
    }
    Ok(out)
}

fn decode_diff(v: &[u8]) -> (i64, Option<[u8; 48]>) {
    (
        i64::from_be_bytes(v[..8].try_into().expect("8 bytes")),
        v.get(8..56).map(|b| b.try_into().expect("48 bytes")),
    )
}

/// Records a change of `node`'s weight in `subnet` at `height`, merged with any change the
/// same block already made (a validator and its first delegator in one block).
pub fn change_weight(
    w: &WriteTransaction,
    (height, subnet, node): (u64, &Id, &NodeId),
    delta: i64,
    pk: Option<[u8; 48]>,
) -> Result<(), StoreError> {
    let mut t = w.open_table(store::P_VALIDATOR_DIFFS)?;
    let key = store::key(&[&height.to_be_bytes(), subnet.as_bytes(), node.as_bytes()]);
    let (old, old_pk) = t
        .get(key.as_slice())?
        .map(|v| decode_diff(v.value()))
        .unwrap_or((0, None));
    let mut v = old.saturating_add(delta).to_be_bytes().to_vec();
    if let Some(pk) = pk.or(old_pk) {
        v.extend_from_slice(&pk);
    }
    t.insert(key.as_slice(), v.as_slice())?;
    Ok(())
}

fn signed(weight: u64) -> Result<i64, StoreError> {
    i64::try_from(weight).map_err(|_| StoreError::Invalid("a weight above 2^63".into()))
}

/// Adds a current validator, recording the change of the set at `height`.
pub fn add_staker(
    w: &WriteTransaction,
    (subnet, node): (&Id, &NodeId),
    rec: Record,
    height: u64,
    weight: u64,
    pk: Option<[u8; 48]>,
) -> Result<(), StoreError> {
    w.open_table(store::P_STAKERS)?
        .insert(staker_key(subnet, node).as_slice(), rec.encode().as_slice())?;
    change_weight(w, (height, subnet, node), signed(weight)?, pk)
}

/// Adds to a validator's accrued delegatee reward.
pub fn accrue(
    w: &WriteTransaction,
    subnet: &Id,
    node: &NodeId,
    amount: u64,
) -> Result<(), StoreError> {
    let mut rec = record(w, subnet, node)?
        .ok_or_else(|| StoreError::Invalid(format!("{node} does not validate {subnet}")))?;
    rec.accrued = rec.accrued.saturating_add(amount);
    w.open_table(store::P_STAKERS)?
        .insert(staker_key(subnet, node).as_slice(), rec.encode().as_slice())?;
    Ok(())
}

/// Replaces a current validator's record (its weight unchanged).
pub fn set_record(
    w: &WriteTransaction,
    subnet: &Id,
    node: &NodeId,
    rec: Record,
) -> Result<(), StoreError> {
    w.open_table(store::P_STAKERS)?
        .insert(staker_key(subnet, node).as_slice(), rec.encode().as_slice())?;
    Ok(())
}

/// Removes a current validator, recording the change of the set at `height`.
pub fn remove_staker(
    w: &WriteTransaction,
    subnet: &Id,
    node: &NodeId,
    height: u64,
    weight: u64,
) -> Result<(), StoreError> {
    w.open_table(store::P_STAKERS)?
        .remove(staker_key(subnet, node).as_slice())?;
    change_weight(w, (height, subnet, node), -signed(weight)?, None)
}

/// Adds a current delegator of `node`, recording the change of its weight at `height`.
pub fn add_delegator(
    w: &WriteTransaction,
    (subnet, node, tx): (&Id, &NodeId, &Id),
    reward: u64,
    (height, start): (u64, u64),
    weight: u64,
) -> Result<(), StoreError> {
    w.open_table(store::P_DELEGATORS)?.insert(
        store::key(&[subnet.as_bytes(), node.as_bytes(), tx.as_bytes()]).as_slice(),
        store::key(&[&reward.to_be_bytes(), &start.to_be_bytes()]).as_slice(),
    )?;
    change_weight(w, (height, subnet, node), signed(weight)?, None)
}

/// Removes a current delegator, recording the change of its validator's weight at `height`.
pub fn remove_delegator(
    w: &WriteTransaction,
    (subnet, node, tx): (&Id, &NodeId, &Id),
    height: u64,
    weight: u64,
) -> Result<(), StoreError> {
    w.open_table(store::P_DELEGATORS)?
        .remove(store::key(&[subnet.as_bytes(), node.as_bytes(), tx.as_bytes()]).as_slice())?;
    change_weight(w, (height, subnet, node), -signed(weight)?, None)
}
