//! The P-chain's acceptance path: an issued transaction is verified against the last accepted
//! state and the mempool at the current gas price, then a Banff standard block takes what
//! the fee state's capacity allows, and the block, its transactions, their UTXO changes, the
//! new fee state, its proposervm wrapper and its index entry are committed together.

use super::verify::{self, Change, Current, Effects, View};
use super::{Record, Utxo, fee, l1, stakers, subnets, warp};
use crate::devnet::Devnet;
use crate::index::{self, Kind};
use crate::ledger::{self, Chain, Status};
use crate::mempool::{Mempool, Pending};
use crate::proposer;
use crate::secp::TxError;
use crate::store::{self, Reader, StoreError};
use avalanche_rpc::codec::{platform, secp256k1fx};
use avalanche_rpc::wire::{Id, NodeId};
use redb::WriteTransaction;

impl Devnet {
    /// Verifies a signed P-chain transaction and adds it to the mempool; its ID.
    pub fn issue_p(&self, bytes: Vec<u8>) -> Result<Id, TxError> {
        let tx = platform::Tx::from_bytes(&bytes)
            .map_err(|e| TxError(format!("couldn't parse tx: couldn't parse tx: {e}")))?;
        let id = Id::from_sha256(&bytes);
        let mut pool = self.p_mempool.lock().expect("mempool lock");
        if pool.contains(&id) {
            return Ok(id);
        }
        if let Some(reason) = pool.dropped(&id) {
            return Err(TxError(format!("couldn't issue tx: {reason}")));
        }
        crate::mempool::check_size(&id, bytes.len())
            .map_err(|e| TxError(format!("couldn't issue tx: {e}")))?;
        let r = self.store.read().map_err(|e| TxError(e.to_string()))?;
        if ledger::tx(&r, Chain::P, &id)
            .map_err(|e| TxError(e.to_string()))?
            .is_some()
        {
            return Err(TxError(format!(
                "couldn't issue tx: transaction {id} is already accepted"
            )));
        }
        let now = self.clock.now();
        let (state, chain_time) = fee_state(&r).map_err(|e| TxError(e.to_string()))?;
        let state = state.advance(now.saturating_sub(chain_time));
        let result = verify::verify(
            &self.p_rules,
            &tx,
            id,
            now.max(chain_time),
            fee::price(state.excess),
            &mut StateView {
                r: &r,
                pool: Some(&pool),
            },
        );
        let effects = match result {
            Ok(fx) => fx,
            Err(e) => {
                pool.drop_reason(id, e.0.clone());
                return Err(TxError(format!("couldn't issue tx: {}", e.0)));
            }
        };
        if effects.gas > fee::MAX_CAPACITY {
            return Err(TxError(format!(
                "couldn't issue tx: it needs {} gas, more than a block's capacity of {}",
                effects.gas,
                fee::MAX_CAPACITY
            )));
        }
        let spends = effects
            .consumed
            .iter()
            .chain(&effects.imported)
            .map(|c| c.0)
            .collect();
        pool.add(Pending { id, bytes, spends });
        drop(pool);
        self.wake.notify_one();
        Ok(id)
    }

    /// Why a P-chain transaction was dropped, or whether it waits in the mempool.
    pub fn p_pending_status(&self, id: &Id) -> Option<Result<(), String>> {
        let pool = self.p_mempool.lock().expect("mempool lock");
        if pool.contains(id) {
            return Some(Ok(()));
        }
        pool.dropped(id).map(|r| Err(r.to_string()))
    }

    /// Builds and accepts a P-chain block from the mempool; its ID, or `None` when nothing
    /// could go in.
    pub fn build_p_block(&self) -> Result<Option<Id>, StoreError> {
        let _one_at_a_time = self.building.lock().expect("builder lock");
        let pending = self.p_mempool.lock().expect("mempool lock").pending();
        if pending.is_empty() {
            return Ok(None);
        }
        let w = self.store.write()?;
        let (parent_height, parent_bytes) =
            ledger::last_block(&w.open_table(store::BLOCKS)?, Chain::P)?;
        let parent_time = store::meta_u64(&w, "p_timestamp")?.unwrap_or(self.genesis.time);
        let time = self.clock.now().max(parent_time);
        let mut state = fee_state(&w)?.0.advance(time - parent_time);
        let price = fee::price(state.excess);
        let height = parent_height + 1;
        // The block's time first charges the L1 validators' continuous fee.
        l1::advance(&w, (time, time - parent_time), height)?;
        let mut txs = Vec::new();
        let mut included = Vec::new();
        let mut dropped = Vec::new();
        for p in pending {
            let tx = match platform::Tx::from_bytes(&p.bytes) {
                Ok(tx) => tx,
                Err(e) => {
                    dropped.push((p.id, format!("couldn't parse tx: {e}")));
                    continue;
                }
            };
            let result = verify::verify(
                &self.p_rules,
                &tx,
                p.id,
                time,
                price,
                &mut StateView { r: &w, pool: None },
            );
            let effects = match result {
                Ok(fx) => fx,
                Err(e) => {
                    dropped.push((p.id, e.0));
                    continue;
                }
            };
            // Past the block's capacity: it waits for the next block.
            let Some(next) = state.consume(effects.gas) else {
                continue;
            };
            state = next;
            apply(&w, &p, height, &effects)?;
            txs.push(tx);
            included.push(p.id);
        }
        let mut result = None;
        if !included.is_empty() {
            let id =
                self.put_standard_block(&w, (parent_height, &parent_bytes), time, txs, state)?;
            w.commit()?;
            result = Some(id);
        } else {
            drop(w);
        }
        let mut pool = self.p_mempool.lock().expect("mempool lock");
        for id in &included {
            pool.remove(id, None);
        }
        for (id, reason) in dropped {
            pool.remove(&id, Some(reason));
        }
        Ok(result)
    }
}

impl Devnet {
    /// Writes a Banff standard block of `txs` on the parent block (height and bytes) at chain
    /// time `time`, with its proposervm wrapper, its index entry, the new chain time and the
    /// fee state after it; its ID. A block without txs only moves the chain time (to a
    /// staker's end).
    pub(super) fn put_standard_block(
        &self,
        w: &WriteTransaction,
        (parent_height, parent_bytes): (u64, &[u8]),
        time: u64,
        txs: Vec<platform::Tx>,
        state: fee::State,
    ) -> Result<Id, StoreError> {
        let height = parent_height + 1;
        let parent_id = Id::from_sha256(parent_bytes);
        let block = platform::Block::from(platform::BanffStandardBlock::new(
            time, parent_id, height, txs,
        ));
        let bytes = block
            .to_bytes()
            .map_err(|e| StoreError(format!("a built block does not encode: {e}")))?;
        let id = Id::from_sha256(&bytes);
        ledger::put_block(w, Chain::P, &id, height, &bytes)?;
        let parent_tip = match proposer::tip_in(w, Chain::P)? {
            Some(t) => t,
            None => proposer::Tip::genesis(parent_id, self.genesis.time),
        };
        let (wrapper, tip) = proposer::wrap(w, Chain::P, parent_tip, &bytes, time, parent_height)?;
        ledger::put_proposer(w, Chain::P, height, &wrapper)?;
        if self.options.index_enabled {
            index::append(w, Kind::PBlock, &tip.id, self.clock.now_ns(), &wrapper)?;
        }
        store::set_meta(w, "p_timestamp", &time.to_be_bytes())?;
        store::set_meta(w, "p_fee_state", &state.encode())?;
        Ok(id)
    }
}

/// Writes an accepted transaction's changes.
fn apply(w: &WriteTransaction, p: &Pending, height: u64, fx: &Effects) -> Result<(), StoreError> {
    ledger::put_tx(w, Chain::P, &p.id, height, Status::Committed, &p.bytes)?;
    for (id, owners) in &fx.consumed {
        ledger::spend_utxo(w, Chain::P, id, owners)?;
    }
    for u in &fx.produced {
        ledger::put_utxo(w, Chain::P, &u.id, &u.bytes, &u.owners())?;
    }
    for (id, owners) in &fx.imported {
        ledger::spend_utxo(w, ledger::X_TO_P, id, owners)?;
    }
    match fx.change.clone() {
        Change::None => {}
        Change::AddValidator {
            subnet,
            node,
            weight,
            public_key,
            start,
            end,
        } => {
            // Primary Network validators may earn a reward, from the supply now; the supply
            // counts it at once. Permissioned Subnet validators earn none.
            let reward = if subnet == Id::ZERO {
                potential_reward(w, end - start, weight)?
            } else {
                0
            };
            let rec = Record {
                tx_id: p.id,
                reward,
                start,
                accrued: 0,
            };
            stakers::add_staker(w, (&subnet, &node), rec, height, weight, public_key)?;
        }
        Change::AddDelegator {
            node,
            weight,
            start,
            end,
        } => {
            let reward = potential_reward(w, end - start, weight)?;
            stakers::add_delegator(
                w,
                (&Id::ZERO, &node, &p.id),
                reward,
                (height, start),
                weight,
            )?;
        }
        Change::RemoveValidator {
            subnet,
            node,
            weight,
        } => stakers::remove_staker(w, &subnet, &node, height, weight)?,
        Change::CreateSubnet => subnets::set_owner(w, &p.id, &p.id)?,
        Change::CreateChain { subnet } => subnets::add_chain(w, &subnet, &p.id)?,
        Change::SetSubnetOwner { subnet } => subnets::set_owner(w, &subnet, &p.id)?,
        Change::Convert {
            subnet,
            conversion,
            validators,
            balances,
        } => {
            let accrued = l1::fee_state(w)?.accrued;
            for (mut v, balance) in validators.into_iter().zip(balances) {
                if balance > 0 {
                    v.end_accumulated_fee = balance.saturating_add(accrued);
                }
                l1::put(w, &v, None, height)?;
            }
            l1::set_conversion(w, &subnet, &conversion)?;
        }
        Change::IncreaseBalance {
            validation_id,
            amount,
        } => {
            let before = l1_validator(w, &validation_id)?;
            let mut v = before.clone();
            if !v.active() {
                v.end_accumulated_fee = l1::fee_state(w)?.accrued;
            }
            v.end_accumulated_fee = v.end_accumulated_fee.saturating_add(amount);
            l1::put(w, &v, Some(&before), height)?;
        }
        Change::Disable {
            validation_id,
            index,
        } => {
            let before = l1_validator(w, &validation_id)?;
            if before.active() {
                refund(w, &before, (&p.id, index), fx.avax)?;
                let mut v = before.clone();
                v.end_accumulated_fee = 0;
                l1::put(w, &v, Some(&before), height)?;
            }
        }
        Change::Register {
            mut validator,
            balance,
            expiry,
        } => {
            if balance > 0 {
                validator.end_accumulated_fee = balance.saturating_add(l1::fee_state(w)?.accrued);
            }
            l1::put(w, &validator, None, height)?;
            l1::put_expiry(w, expiry, &validator.validation_id)?;
        }
        Change::SetWeight {
            validation_id,
            nonce,
            weight,
            index,
        } => {
            let before = l1_validator(w, &validation_id)?;
            if weight == 0 && before.active() {
                refund(w, &before, (&p.id, index), fx.avax)?;
            }
            let mut v = before.clone();
            v.min_nonce = nonce.saturating_add(1);
            v.weight = weight;
            l1::put(w, &v, Some(&before), height)?;
        }
    }
    for u in &fx.exported {
        ledger::put_utxo(w, ledger::P_TO_X, &u.id, &u.bytes, &u.owners())?;
    }
    Ok(())
}

/// Pays what is left of an active L1 validator's balance to its remaining balance owner, as
/// output `index` of tx `tx`.
fn refund(
    w: &WriteTransaction,
    v: &l1::Validator,
    (tx, index): (&Id, u32),
    avax: Id,
) -> Result<(), StoreError> {
    let left = v.balance(&l1::fee_state(w)?);
    let owner = &v.remaining_balance_owner;
    let u = Utxo::new(platform::Utxo::new(
        avalanche_rpc::codec::avax::UtxoId::new(*tx, index),
        avax,
        platform::UtxoOutput::TransferOutput(secp256k1fx::TransferOutput::new(
            left,
            secp256k1fx::OutputOwners::new(0, owner.threshold, owner.addresses.clone()),
        )),
    ));
    ledger::put_utxo(w, Chain::P, &u.id, &u.bytes, &u.owners())
}

fn l1_validator(w: &WriteTransaction, id: &Id) -> Result<l1::Validator, StoreError> {
    l1::validator(w, id)?.ok_or_else(|| StoreError(format!("L1 validator {id} is not stored")))
}

/// The reward a stake of `weight` for `duration` seconds earns, from the supply now; the
/// supply counts it at once.
fn potential_reward(w: &WriteTransaction, duration: u64, weight: u64) -> Result<u64, StoreError> {
    let supply = store::meta_u64(w, "p_supply")?.unwrap_or(0);
    let reward = crate::genesis::staking::reward(duration, weight, supply);
    store::set_meta(w, "p_supply", &supply.saturating_add(reward).to_be_bytes())?;
    Ok(reward)
}

/// The state verification reads: the store as `r` shows it and, when a tx is issued, the
/// mempool, whose txs' spends conflict with it.
struct StateView<'a, R: Reader> {
    r: &'a R,
    pool: Option<&'a Mempool>,
}

impl<R: Reader> StateView<'_, R> {
    fn read(&self, space: ledger::Space, u: &Id) -> Result<Option<Utxo>, TxError> {
        if let Some(other) = self.pool.and_then(|p| p.spender(u)) {
            return Err(TxError(format!(
                "tx conflicts with other tx: {other} already spends UTXO {u}"
            )));
        }
        ledger::utxo(self.r, space, u)
            .and_then(|b| b.map(|b| Utxo::decode(&b)).transpose())
            .map_err(stored)
    }
}

fn stored(e: StoreError) -> TxError {
    TxError(e.to_string())
}

impl<R: Reader> View for StateView<'_, R> {
    fn utxo(&mut self, id: &Id) -> Result<Option<Utxo>, TxError> {
        self.read(Chain::P.into(), id)
    }

    fn atomic(&mut self, id: &Id) -> Result<Option<Utxo>, TxError> {
        self.read(ledger::X_TO_P, id)
    }

    fn subnet(&mut self, subnet: &Id) -> Result<Option<(platform::Owner, bool)>, TxError> {
        let Some(o) = subnets::owner(self.r, subnet).map_err(stored)? else {
            return Ok(None);
        };
        let converted = l1::conversion(self.r, subnet).map_err(stored)?.is_some();
        Ok(Some((o.owner, converted)))
    }

    fn l1_validator(&mut self, validation_id: &Id) -> Result<Option<l1::Validator>, TxError> {
        l1::validator(self.r, validation_id).map_err(stored)
    }

    fn active_l1_validators(&mut self) -> Result<u64, TxError> {
        l1::active_count(self.r).map_err(stored)
    }

    fn conversion(&mut self, subnet: &Id) -> Result<Option<l1::Conversion>, TxError> {
        l1::conversion(self.r, subnet).map_err(stored)
    }

    fn l1_validation_of(&mut self, subnet: &Id, node: &NodeId) -> Result<Option<Id>, TxError> {
        l1::validation_of(self.r, subnet, node).map_err(stored)
    }

    fn l1_weight(&mut self, subnet: &Id) -> Result<u64, TxError> {
        l1::weight(self.r, subnet).map_err(stored)
    }

    fn has_expiry(&mut self, expiry: u64, validation_id: &Id) -> Result<bool, TxError> {
        l1::has_expiry(self.r, expiry, validation_id).map_err(stored)
    }

    fn warp_validators(&mut self, chain: &Id) -> Result<Option<warp::Canonical>, TxError> {
        let Some(subnet) = warp::subnet_of(self.r, chain).map_err(stored)? else {
            return Ok(None);
        };
        warp::canonical(self.r, &subnet, u64::MAX)
            .map(Some)
            .map_err(stored)
    }

    fn validator(&mut self, subnet: &Id, node: &NodeId) -> Result<Option<Current>, TxError> {
        let Some(s) = stakers::staker(self.r, subnet, node).map_err(stored)? else {
            return Ok(None);
        };
        let delegated = stakers::delegators(self.r, subnet, Some(node))
            .map_err(stored)?
            .iter()
            .map(|d| d.tx.validator.weight)
            .fold(0, u64::saturating_add);
        Ok(Some(Current {
            weight: s.weight(),
            delegated,
            end: s.end(),
            permissioned: s.subnet_validator().is_some(),
        }))
    }
}

/// The stored fee state and the chain time it belongs to.
pub fn fee_state<R: Reader>(r: &R) -> Result<(fee::State, u64), StoreError> {
    let state = store::meta(r, "p_fee_state")?
        .and_then(|v| fee::State::decode(&v))
        .unwrap_or_default();
    Ok((state, super::timestamp(r)?))
}
