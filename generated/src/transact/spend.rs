//! Choosing UTXOs, as AvalancheJS 5.2.0 does, so that the same UTXOs in the same order give
//! the same transaction:
//!
//! - X-chain (`x_spend`): `calculateUTXOSpend` with `useAvmAndCorethUTXOs`. One pass over
//!   the UTXOs in the order given; each unlocked `TransferOutput` of an asset still to burn
//!   that the payer's addresses can sign is spent, the last one of each asset returning its
//!   rest as change.
//! - P-chain (`p_spend`): the Etna `spend` with its `SpendHelper`. Stakeable-locked UTXOs
//!   first, for the stake only; then unlocked ones, other assets before AVAX; AVAX is spent
//!   until the stake, the burn and the dynamic fee (recomputed as inputs are added) are
//!   covered; one AVAX change output if it pays for itself.
//!
//! Where AvalancheJS would build what the node refuses (a repeated owner address, an import's
//! outputs out of order, an imported UTXO spent twice) the builders differ, as the module
//! documentation says.

use std::collections::BTreeSet;

use crate::codec::{Encode, Writer, avax, avm, platform, secp256k1fx};
use crate::wire::{Id, ShortId};

use super::error::BuildError;
use super::fee::{self, Complexity};

/// The bytes of a codec value (outputs and inputs are ordered by them).
pub(crate) fn encoded<T: Encode>(v: &T) -> Vec<u8> {
    let mut w = Writer::new();
    // In-memory values of the builders are within the codec's limits; a value past them
    // sorts as empty and fails when the transaction is encoded.
    let _ = v.encode(&mut w);
    w.into_bytes()
}

/// The order of inputs: by UTXO ID (transaction ID, then output index).
pub(crate) fn utxo_order(a: &avax::UtxoId, b: &avax::UtxoId) -> std::cmp::Ordering {
    (a.tx_id.as_bytes(), a.output_index).cmp(&(b.tx_id.as_bytes(), b.output_index))
}

/// The signature indices with which `from` can spend an output of `owners` at `time`
/// (AvalancheJS's `matchOwners`): the first `threshold` of the owners' addresses that
/// `from` holds, in the owners' order; `None` when it is locked or they are too few.
pub fn match_owners(
    owners: &secp256k1fx::OutputOwners,
    from: &BTreeSet<ShortId>,
    time: u64,
) -> Option<(Vec<u32>, Vec<ShortId>)> {
    if owners.locktime > time {
        return None;
    }
    let mut indices = Vec::new();
    let mut signers = Vec::new();
    for (i, a) in owners.addresses.iter().enumerate() {
        if indices.len() as u64 >= u64::from(owners.threshold) {
            break;
        }
        if from.contains(a) {
            indices.push(i as u32);
            signers.push(*a);
        }
    }
    (indices.len() as u64 >= u64::from(owners.threshold)).then_some((indices, signers))
}

/// The X-chain input spending a transfer output of `amount` of `u` with these signature
/// indices (spent or imported).
pub(crate) fn x_input(u: &avm::Utxo, amount: u64, indices: Vec<u32>) -> avm::TransferableInput {
    avm::TransferableInput::new(
        u.utxo_id.clone(),
        u.asset_id,
        secp256k1fx::TransferInput::new(amount, secp256k1fx::Input::new(indices)).into(),
    )
}

/// The P-chain input spending a transfer output of `amount` of `u` as unlocked (spent or
/// imported).
pub(crate) fn p_input(
    u: &platform::Utxo,
    amount: u64,
    indices: Vec<u32>,
) -> platform::TransferableInput {
    platform::TransferableInput::new(
        u.utxo_id.clone(),
        u.asset_id,
        secp256k1fx::TransferInput::new(amount, secp256k1fx::Input::new(indices)).into(),
    )
}

/// An ordered map from asset to amount (AvalancheJS's `Map`, whose order its errors follow).
#[derive(Debug, Clone, Default)]
pub(crate) struct Amounts(pub Vec<(Id, u64)>);

impl Amounts {
    pub fn get(&self, asset: &Id) -> u64 {
        self.0
            .iter()
            .find(|(a, _)| a == asset)
            .map_or(0, |(_, v)| *v)
    }

    pub fn has(&self, asset: &Id) -> bool {
        self.0.iter().any(|(a, _)| a == asset)
    }

    pub fn set(&mut self, asset: Id, v: u64) {
        match self.0.iter_mut().find(|(a, _)| *a == asset) {
            Some(e) => e.1 = v,
            None => self.0.push((asset, v)),
        }
    }

    pub fn add(&mut self, asset: Id, v: u64) -> Result<(), BuildError> {
        let sum = self.get(&asset).checked_add(v).ok_or_else(|| {
            BuildError::invalid("outputs", format!("amounts of {asset} overflow"))
        })?;
        self.set(asset, sum);
        Ok(())
    }
}

/// An input with the addresses that sign it, in signature order.
pub(crate) type Signed<I> = (I, Vec<ShortId>);

/// What the X-chain spend chose.
pub(crate) struct XSpent {
    pub inputs: Vec<Signed<avm::TransferableInput>>,
    pub change: Vec<avm::TransferableOutput>,
}

/// The X-chain's spend: burn `to_burn` (the fee included) from `utxos`.
pub(crate) fn x_spend(
    to_burn: &Amounts,
    utxos: &[avm::Utxo],
    from: &BTreeSet<ShortId>,
    change_owners: &secp256k1fx::OutputOwners,
    time: u64,
) -> Result<XSpent, BuildError> {
    let mut left = to_burn.clone();
    let mut inputs = Vec::new();
    let mut change = Vec::new();
    for u in utxos {
        let avm::UtxoOutput::Secp256k1fxTransferOutput(out) = &u.output else {
            continue;
        };
        // The UTXOs considered are those of an asset to burn at the start.
        if to_burn.get(&u.asset_id) == 0 {
            continue;
        }
        let Some((indices, signers)) = match_owners(&out.owners, from, time) else {
            continue;
        };
        let remaining = left.get(&u.asset_id);
        let burn = remaining.min(out.amount);
        if burn == 0 {
            continue;
        }
        left.set(u.asset_id, remaining - burn);
        inputs.push((x_input(u, out.amount, indices), signers));
        if out.amount > burn {
            change.push(avm::TransferableOutput::new(
                u.asset_id,
                secp256k1fx::TransferOutput::new(out.amount - burn, change_owners.clone()).into(),
            ));
        }
    }
    if let Some((asset, _)) = left.0.iter().find(|(_, v)| *v > 0) {
        let (spendable, locked) = x_funds(utxos, from, asset, time);
        return Err(BuildError::Insufficient {
            asset: *asset,
            needed: to_burn.get(asset),
            spendable,
            locked,
            what: "to burn, the fee included",
        });
    }
    inputs.sort_by(|a, b| utxo_order(&a.0.utxo_id, &b.0.utxo_id));
    change.sort_by_cached_key(encoded);
    Ok(XSpent { inputs, change })
}

/// What `from` holds of `asset` in X-chain `utxos`: spendable at `time`, and locked.
pub fn x_funds(utxos: &[avm::Utxo], from: &BTreeSet<ShortId>, asset: &Id, time: u64) -> (u64, u64) {
    let (mut spendable, mut locked) = (0u64, 0u64);
    for u in utxos.iter().filter(|u| u.asset_id == *asset) {
        let avm::UtxoOutput::Secp256k1fxTransferOutput(out) = &u.output else {
            continue;
        };
        if match_owners(&out.owners, from, time).is_some() {
            spendable = spendable.saturating_add(out.amount);
        } else if match_owners(&out.owners, from, u64::MAX).is_some() {
            locked = locked.saturating_add(out.amount);
        }
    }
    (spendable, locked)
}

/// The owners and amount of a P-chain UTXO's output, with its stakeable lock (0 for none).
pub(crate) fn p_output(o: &platform::UtxoOutput) -> (&secp256k1fx::TransferOutput, u64) {
    match o {
        platform::UtxoOutput::TransferOutput(t) => (t, 0),
        platform::UtxoOutput::LockOut(l) => match &l.output {
            platform::LockedOut::TransferOutput(t) => (t, l.locktime),
        },
    }
}

/// What the P-chain spend is asked.
pub(crate) struct PSpend<'a> {
    pub utxos: &'a [platform::Utxo],
    pub from: &'a BTreeSet<ShortId>,
    pub change_owners: secp256k1fx::OutputOwners,
    pub to_burn: Amounts,
    pub to_stake: Amounts,
    /// AVAX available beyond the inputs (imported), to pay the fee from first.
    pub excess_avax: u64,
    /// The complexity of the transaction without the spend's inputs and outputs.
    pub initial: Complexity,
    pub consolidate: bool,
    /// Whether stakeable-locked UTXOs may be spent for the stake.
    pub use_locked: bool,
    pub time: u64,
}

/// What the P-chain spend chose.
pub(crate) struct PSpent {
    pub inputs: Vec<Signed<platform::TransferableInput>>,
    pub change: Vec<platform::TransferableOutput>,
    pub stake: Vec<platform::TransferableOutput>,
    pub fee: u64,
}

/// AvalancheJS's `SpendHelper`: the inputs and outputs so far and the fee they cost.
struct Helper<'c> {
    initial: Complexity,
    consolidate: bool,
    to_burn: Amounts,
    to_stake: Amounts,
    weights: &'c [u64; 4],
    price: u64,
    inputs: Vec<Signed<platform::TransferableInput>>,
    change: Vec<platform::TransferableOutput>,
    stake: Vec<platform::TransferableOutput>,
}

impl Helper<'_> {
    fn consolidate_outputs(&mut self) {
        if self.consolidate {
            self.change = consolidate(std::mem::take(&mut self.change));
            self.stake = consolidate(std::mem::take(&mut self.stake));
        }
    }

    fn gas(&mut self, extra: Option<&platform::TransferableOutput>) -> Result<u64, BuildError> {
        self.consolidate_outputs();
        let ins: Vec<platform::TransferableInput> =
            self.inputs.iter().map(|(i, _)| i.clone()).collect();
        let extra = extra.map_or([0; 4], |o| fee::outputs(std::slice::from_ref(o)));
        let c = fee::sum(&[
            self.initial,
            fee::inputs(&ins),
            fee::outputs(&self.change),
            fee::outputs(&self.stake),
            extra,
        ]);
        Ok(fee::gas(&c, self.weights)?)
    }

    fn fee(&mut self, extra: Option<&platform::TransferableOutput>) -> Result<u64, BuildError> {
        self.gas(extra)?
            .checked_mul(self.price)
            .ok_or(BuildError::Fee(fee::FeeError::Overflow))
    }

    fn should_consume_locked(&self, asset: &Id) -> bool {
        self.to_stake.has(asset) && self.to_stake.get(asset) != 0
    }

    fn should_consume(&self, asset: &Id) -> bool {
        (self.to_burn.has(asset) && self.to_burn.get(asset) != 0)
            || self.should_consume_locked(asset)
    }

    /// Returns (what is left, what to stake) of `amount` after staking.
    fn consume_locked(&mut self, asset: Id, amount: u64) -> (u64, u64) {
        let want = self.to_stake.get(&asset);
        let stake = want.min(amount);
        if self.to_stake.has(&asset) || stake > 0 {
            self.to_stake.set(asset, want - stake);
        }
        (amount - stake, stake)
    }

    /// Returns (what is left, what to stake) of `amount` after burning, then staking.
    fn consume(&mut self, asset: Id, amount: u64) -> (u64, u64) {
        let want = self.to_burn.get(&asset);
        let burn = want.min(amount);
        if self.to_burn.has(&asset) || burn > 0 {
            self.to_burn.set(asset, want - burn);
        }
        self.consume_locked(asset, amount - burn)
    }
}

fn owners_equal(a: &secp256k1fx::OutputOwners, b: &secp256k1fx::OutputOwners) -> bool {
    a.locktime == b.locktime && a.threshold == b.threshold && a.addresses == b.addresses
}

/// AvalancheJS's `consolidateOutputs`: outputs of one asset, lock and owners merged into the
/// first of them.
fn consolidate(outs: Vec<platform::TransferableOutput>) -> Vec<platform::TransferableOutput> {
    use platform::{LockedOut, TransferableOut as T};
    let mut done: Vec<platform::TransferableOutput> = Vec::new();
    'next: for o in outs {
        for d in done.iter_mut() {
            if d.asset_id != o.asset_id {
                continue;
            }
            match (&mut d.output, &o.output) {
                (T::TransferOutput(a), T::TransferOutput(b))
                    if owners_equal(&a.owners, &b.owners) =>
                {
                    a.amount = a.amount.saturating_add(b.amount);
                    continue 'next;
                }
                (T::LockOut(a), T::LockOut(b)) if a.locktime == b.locktime => {
                    let (LockedOut::TransferOutput(x), LockedOut::TransferOutput(y)) =
                        (&mut a.output, &b.output);
                    if owners_equal(&x.owners, &y.owners) {
                        x.amount = x.amount.saturating_add(y.amount);
                        continue 'next;
                    }
                }
                _ => {}
            }
        }
        done.push(o);
    }
    done
}

fn transfer(
    asset: Id,
    amount: u64,
    owners: &secp256k1fx::OutputOwners,
) -> platform::TransferableOutput {
    platform::TransferableOutput::new(
        asset,
        secp256k1fx::TransferOutput::new(amount, owners.clone()).into(),
    )
}

fn locked(
    asset: Id,
    locktime: u64,
    amount: u64,
    owners: &secp256k1fx::OutputOwners,
) -> platform::TransferableOutput {
    platform::TransferableOutput::new(
        asset,
        platform::LockOut::new(
            locktime,
            secp256k1fx::TransferOutput::new(amount, owners.clone()).into(),
        )
        .into(),
    )
}

/// The P-chain's Etna spend.
pub(crate) fn p_spend(
    req: PSpend<'_>,
    avax: Id,
    weights: &[u64; 4],
    state: &super::context::FeeState,
    max_capacity: u64,
) -> Result<PSpent, BuildError> {
    let mut h = Helper {
        initial: req.initial,
        consolidate: req.consolidate,
        to_burn: req.to_burn.clone(),
        to_stake: req.to_stake.clone(),
        weights,
        price: state.price,
        inputs: Vec::new(),
        change: Vec::new(),
        stake: Vec::new(),
    };
    let time = req.time;

    // Stakeable-locked UTXOs, for the stake only (`useSpendableLockedUTXOs`).
    if req.use_locked {
        for u in req.utxos {
            let platform::UtxoOutput::LockOut(lock) = &u.output else {
                continue;
            };
            if time >= lock.locktime || !h.to_stake.has(&u.asset_id) {
                continue;
            }
            let (out, _) = p_output(&u.output);
            let Some((indices, signers)) = match_owners(&out.owners, req.from, time) else {
                continue;
            };
            if h.to_stake.get(&u.asset_id) == 0 {
                continue;
            }
            h.inputs.push((
                platform::TransferableInput::new(
                    u.utxo_id.clone(),
                    u.asset_id,
                    platform::LockIn::new(
                        lock.locktime,
                        secp256k1fx::TransferInput::new(
                            out.amount,
                            secp256k1fx::Input::new(indices),
                        )
                        .into(),
                    )
                    .into(),
                ),
                signers,
            ));
            let (rest, _) = h.consume_locked(u.asset_id, out.amount);
            h.stake.push(locked(
                u.asset_id,
                lock.locktime,
                out.amount - rest,
                &out.owners,
            ));
            if rest > 0 {
                h.change
                    .push(locked(u.asset_id, lock.locktime, rest, &out.owners));
            }
        }
    }

    // Unlocked UTXOs (`useUnlockedUTXOs`): other assets first, then AVAX.
    let usable: Vec<(&platform::Utxo, Vec<u32>, Vec<ShortId>)> = req
        .utxos
        .iter()
        .filter_map(|u| {
            let (out, lock) = p_output(&u.output);
            let locktime = if lock > 0 { lock } else { out.owners.locktime };
            if locktime >= time {
                return None;
            }
            let (indices, signers) = match_owners(&out.owners, req.from, time)?;
            Some((u, indices, signers))
        })
        .collect();
    // An expired stakeable lock is spent as a plain transfer output.
    let plain_input = |u: &platform::Utxo, indices: &[u32]| {
        p_input(u, p_output(&u.output).0.amount, indices.to_vec())
    };
    for (u, indices, signers) in usable.iter().filter(|(u, ..)| u.asset_id != avax) {
        if h.to_burn.get(&u.asset_id) == 0 && h.to_stake.get(&u.asset_id) == 0 {
            continue;
        }
        h.inputs.push((plain_input(u, indices), signers.clone()));
        let (rest, stake) = h.consume(u.asset_id, p_output(&u.output).0.amount);
        if stake > 0 {
            h.stake
                .push(transfer(u.asset_id, stake, &req.change_owners));
        }
        if rest > 0 {
            h.change
                .push(transfer(u.asset_id, rest, &req.change_owners));
        }
    }
    let mut excess = req.excess_avax;
    for (u, indices, signers) in usable.iter().filter(|(u, ..)| u.asset_id == avax) {
        let required = h.fee(None)?;
        if !h.should_consume(&avax) && excess >= required {
            break;
        }
        h.inputs.push((plain_input(u, indices), signers.clone()));
        let (rest, stake) = h.consume(avax, p_output(&u.output).0.amount);
        if stake > 0 {
            h.stake.push(transfer(avax, stake, &req.change_owners));
        }
        excess = excess.saturating_add(rest);
    }

    // Every asset staked and burned (`verifyAssetsConsumed`).
    let fee_now = h.fee(None)?;
    for (what, wanted, left) in [
        ("to stake", &req.to_stake, &h.to_stake),
        ("to burn", &req.to_burn, &h.to_burn),
    ] {
        if let Some((asset, _)) = left.0.iter().find(|(_, v)| *v > 0) {
            let (spendable, locked) = p_funds(req.utxos, req.from, asset, time, what == "to stake");
            let mut needed = wanted.get(asset);
            if *asset == avax {
                needed = needed
                    .saturating_add(if what == "to stake" {
                        req.to_burn.get(asset)
                    } else {
                        req.to_stake.get(asset)
                    })
                    .saturating_add(fee_now);
            }
            return Err(BuildError::Insufficient {
                asset: *asset,
                needed,
                spendable,
                locked,
                what: if *asset == avax {
                    "to stake and burn, the fee included"
                } else {
                    what
                },
            });
        }
    }

    // The fee, and the AVAX change if it pays for itself (`handleFeeAndChange`).
    let required = h.fee(None)?;
    if excess < required {
        let (spendable, locked) = p_funds(req.utxos, req.from, &avax, time, false);
        return Err(BuildError::Insufficient {
            asset: avax,
            needed: req
                .to_burn
                .get(&avax)
                .saturating_add(req.to_stake.get(&avax))
                .saturating_add(required),
            spendable: spendable.saturating_add(req.excess_avax),
            locked,
            what: "to stake and burn, the fee included",
        });
    }
    if excess > required {
        let has_change = h.change.iter().any(|o| {
            o.asset_id == avax
                && matches!(&o.output, platform::TransferableOut::TransferOutput(t)
                    if owners_equal(&t.owners, &req.change_owners))
        });
        if has_change {
            h.change
                .push(transfer(avax, excess - required, &req.change_owners));
        } else {
            let probe = transfer(avax, 0, &req.change_owners);
            let with_change = h.fee(Some(&probe))?;
            if excess > with_change {
                h.change
                    .push(transfer(avax, excess - with_change, &req.change_owners));
            }
        }
    }

    // The P-chain can ever take it. AvalancheJS's `verifyGasUsage` compares with the
    // capacity *read* (except on a local network reading 0), which refills by `maxPerSecond`
    // every second: a transaction over it waits in the mempool and is accepted once it has
    // refilled, so only the maximum refuses it for good.
    let gas = h.gas(None)?;
    if gas > max_capacity {
        return Err(BuildError::OverCapacity {
            gas,
            capacity: max_capacity,
        });
    }
    let fee = h.fee(None)?;
    let mut inputs = h.inputs;
    inputs.sort_by(|a, b| utxo_order(&a.0.utxo_id, &b.0.utxo_id));
    let mut change = h.change;
    change.sort_by_cached_key(encoded);
    let mut stake = h.stake;
    stake.sort_by_cached_key(encoded);
    Ok(PSpent {
        inputs,
        change,
        stake,
        fee,
    })
}

/// What `from` holds of `asset` in P-chain `utxos`: spendable at `time` (for staking, the
/// stakeable-locked too), and locked.
pub fn p_funds(
    utxos: &[platform::Utxo],
    from: &BTreeSet<ShortId>,
    asset: &Id,
    time: u64,
    staking: bool,
) -> (u64, u64) {
    let (mut spendable, mut locked) = (0u64, 0u64);
    for u in utxos.iter().filter(|u| u.asset_id == *asset) {
        let (out, lock) = p_output(&u.output);
        let now = match_owners(&out.owners, from, time).is_some() && (lock < time || staking);
        if now {
            spendable = spendable.saturating_add(out.amount);
        } else if match_owners(&out.owners, from, u64::MAX).is_some() {
            locked = locked.saturating_add(out.amount);
        }
    }
    (spendable, locked)
}
