//! The P-chain's acceptance path: an issued transaction is verified against the last accepted
//! state and the mempool at the current gas price, then a Banff standard block takes what
//! the fee state's capacity allows, and the block, its transactions, their UTXO changes, the
//! new fee state, its proposervm wrapper and its index entry are committed together.

use super::verify::{self, Effects};
use super::{Utxo, fee};
use crate::devnet::Devnet;
use crate::index::{self, Kind};
use crate::ledger::{self, Chain, Status};
use crate::mempool::Pending;
use crate::proposer;
use crate::secp::TxError;
use crate::store::{self, StoreError};
use avalanche_rpc::codec::platform;
use avalanche_rpc::wire::Id;
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
        let pool_ref = &pool;
        let read = |space: ledger::Space, u: &Id| {
            if let Some(other) = pool_ref.spender(u) {
                return Err(TxError(format!(
                    "tx conflicts with other tx: {other} already spends UTXO {u}"
                )));
            }
            ledger::utxo(&r, space, u)
                .and_then(|b| b.map(|b| Utxo::decode(&b)).transpose())
                .map_err(|e| TxError(e.to_string()))
        };
        let result = verify::verify(
            &self.p_rules,
            &tx,
            id,
            now.max(chain_time),
            fee::price(state.excess),
            &mut |u| read(Chain::P.into(), u),
            &mut |u| read(ledger::X_TO_P, u),
        );
        let effects = match result {
            Ok(fx) => fx,
            Err(e) => {
                pool.drop_reason(id, e.0.clone());
                return Err(TxError(format!("couldn't issue tx: {}", e.0)));
            }
        };
        if let Some(v) = &effects.staker
            && super::is_staker(&r, &Id::ZERO, &v.node).map_err(|e| TxError(e.to_string()))?
        {
            let reason = format!("{} is already a validator of the Primary Network", v.node);
            pool.drop_reason(id, reason.clone());
            return Err(TxError(format!("couldn't issue tx: {reason}")));
        }
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
        let parent_time = store::meta_u64_in(&w, "p_timestamp")?.unwrap_or(self.genesis.time);
        let time = self.clock.now().max(parent_time);
        let mut state = store::meta_in(&w, "p_fee_state")?
            .and_then(|v| fee::State::decode(&v))
            .unwrap_or_default()
            .advance(time - parent_time);
        let price = fee::price(state.excess);
        let height = parent_height + 1;
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
            let result = {
                let utxos = w.open_table(store::UTXOS)?;
                let read = |space: ledger::Space, u: &Id| {
                    ledger::utxo_in(&utxos, space, u)
                        .and_then(|b| b.map(|b| Utxo::decode(&b)).transpose())
                        .map_err(|e| TxError(e.to_string()))
                };
                verify::verify(
                    &self.p_rules,
                    &tx,
                    p.id,
                    time,
                    price,
                    &mut |u| read(Chain::P.into(), u),
                    &mut |u| read(ledger::X_TO_P, u),
                )
            };
            let effects = match result {
                Ok(fx) => fx,
                Err(e) => {
                    dropped.push((p.id, e.0));
                    continue;
                }
            };
            if let Some(v) = &effects.staker
                && super::is_staker_in(&w, &Id::ZERO, &v.node)?
            {
                dropped.push((
                    p.id,
                    format!("{} is already a validator of the Primary Network", v.node),
                ));
                continue;
            }
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
            let parent_id = Id::from_sha256(&parent_bytes);
            let block = platform::Block::from(platform::BanffStandardBlock::new(
                time, parent_id, height, txs,
            ));
            let bytes = block
                .to_bytes()
                .map_err(|e| StoreError(format!("a built block does not encode: {e}")))?;
            let id = Id::from_sha256(&bytes);
            ledger::put_block(&w, Chain::P, &id, height, &bytes)?;
            let parent_tip = match proposer::tip_in(&w, Chain::P)? {
                Some(t) => t,
                None => proposer::Tip::genesis(Id::from_sha256(&parent_bytes), self.genesis.time),
            };
            let (wrapper, tip) =
                proposer::wrap(&w, Chain::P, parent_tip, &bytes, time, parent_height)?;
            ledger::put_proposer(&w, Chain::P, height, &wrapper)?;
            if self.options.index_enabled {
                index::append(&w, Kind::PBlock, &tip.id, self.clock.now_ns(), &wrapper)?;
            }
            store::set_meta(&w, "p_timestamp", &time.to_be_bytes())?;
            store::set_meta(&w, "p_fee_state", &state.encode())?;
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
    if let Some(v) = &fx.staker {
        // The reward it may earn, from the supply now; the supply counts it at once.
        let supply = store::meta_u64_in(w, "p_supply")?.unwrap_or(0);
        let reward = crate::genesis::staking::reward(v.end - v.start, v.weight, supply);
        super::add_staker(
            w,
            &Id::ZERO,
            &v.node,
            &p.id,
            reward,
            (height, v.start),
            v.weight,
            Some(v.public_key),
        )?;
        store::set_meta(w, "p_supply", &supply.saturating_add(reward).to_be_bytes())?;
    }
    for u in &fx.exported {
        ledger::put_utxo(w, ledger::P_TO_X, &u.id, &u.bytes, &u.owners())?;
    }
    Ok(())
}

/// The stored fee state and the chain time it belongs to.
pub fn fee_state(r: &redb::ReadTransaction) -> Result<(fee::State, u64), StoreError> {
    let state = store::meta(r, "p_fee_state")?
        .and_then(|v| fee::State::decode(&v))
        .unwrap_or_default();
    Ok((state, super::timestamp(r)?))
}
