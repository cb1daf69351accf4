//! The P-chain as the engine runs it: its transactions decoded and verified over its state
//! at the current gas price, a Banff standard block taking what the fee state's capacity
//! allows, every kind's change applied, the block sealed with the new chain time and fee
//! state.

use super::verify::{self, Effects};
use super::vocab::{ChainState, Change, Current, Rules};
use super::{Utxo, fee, kind, l1, stakers, subnets, warp};
use crate::engine::{Sealed, Vm};
use crate::ledger::{self, Chain, Status};
use crate::proposer::{self, Tip};
use crate::refusal::{Refusal, VerifyError};
use crate::store::{self, Meta, Reader, StoreError};
use avalanche_rpc::codec::platform;
use avalanche_rpc::wire::{Id, NodeId};
use redb::{ReadTransaction, WriteTransaction};

/// The P-chain's VM.
pub struct PVm {
    pub rules: Rules,
    /// The proposervm's tip before the first block (the genesis block's).
    pub genesis: Tip,
    /// The genesis time: the chain time before any block.
    pub genesis_time: u64,
    /// How far a block's time may run ahead of the clock, in seconds.
    pub lead: u64,
}

/// The least time between a P-chain block and its parent, in seconds.
pub const MIN_BLOCK_DELAY: u64 = 1;

/// A P-chain block being built.
pub struct Block {
    parent: Id,
    height: u64,
    time: u64,
    price: u64,
    /// The fee state, with the gas the block's transactions so far consumed.
    state: fee::State,
    /// The P-chain height its Warp messages are verified at ([`proposer::warp_height`]).
    warp_height: u64,
}

impl Vm for PVm {
    const CHAIN: Chain = Chain::P;
    type Tx = platform::Tx;
    type Effects = Effects;
    type Block = Block;

    fn decode(&self, bytes: &[u8]) -> Result<platform::Tx, Refusal> {
        platform::Tx::from_bytes(bytes).map_err(|e| {
            crate::engine::undecodable(&e, bytes).within("couldn't parse tx: couldn't parse tx")
        })
    }

    const REFUSAL_PREFIX: &'static str = "couldn't issue tx: ";

    fn verify_issued(
        &self,
        r: &ReadTransaction,
        tx: &platform::Tx,
        id: Id,
        now: u64,
    ) -> Result<Effects, VerifyError> {
        let (state, chain_time) = fee_state(r)?;
        let state = state.advance(now.saturating_sub(chain_time));
        verify::verify(
            &self.rules,
            tx,
            id,
            now.max(chain_time),
            fee::price(state.excess),
            &mut StoredState {
                r,
                warp_height: proposer::warp_height(r, self.genesis)?,
                peer: super::verify::peer_of(&self.rules, &tx.unsigned),
            },
        )
        // The mempool's verification of a standard block's tx
        // (`vms/platformvm/block/executor/manager.go` VerifyTx, `verifier.go`).
        .map(|fx| Effects {
            peer: super::verify::peer_of(&self.rules, &tx.unsigned),
            ..fx
        })
        .map_err(|e| {
            e.within(format!(
                "failed verification: failed execution: standard tx {id} failed execution"
            ))
        })
    }

    fn admissible(&self, fx: &Effects) -> Result<(), Refusal> {
        if fx.gas > fee::MAX_CAPACITY {
            return Err(Refusal::new(format!(
                "it needs {} gas, more than a block's capacity of {}",
                fx.gas,
                fee::MAX_CAPACITY
            )));
        }
        Ok(())
    }

    fn spends(&self, fx: &Effects) -> Vec<(ledger::Space, Id)> {
        let own = fx.consumed.iter().map(|(u, _)| (Chain::P.into(), *u));
        own.chain(fx.imported.iter().map(|(u, _)| (fx.import_space(), *u)))
            .collect()
    }

    /// A standard block comes at least the proposer VM's minimum block delay after its parent
    /// (`vms/proposervm/vm.go:51`, one second), as the node's do, so the gas capacity refills
    /// between blocks as on the node. The node waits for that second; the devnet does not:
    /// it stamps the block a second after its parent, its chain time running ahead of the
    /// clock while transactions come faster than one block a second, by at most `lead`
    /// seconds (the node's sync bound, [`crate::LEAD`], by default), after which it waits
    /// (`None`) as the node would.
    fn open_block(&self, w: &WriteTransaction, now: u64) -> Result<Option<Block>, StoreError> {
        let (parent_height, parent_bytes) =
            ledger::last_block(&w.open_table(store::BLOCKS)?, Chain::P)?;
        let parent_time = store::meta_u64(w, Meta::P_TIMESTAMP)?.unwrap_or(self.genesis_time);
        let time = now.max(parent_time.saturating_add(MIN_BLOCK_DELAY));
        if time > now.saturating_add(self.lead) {
            return Ok(None);
        }
        // Ahead of the clock, not past a staker's end: it is rewarded first, once due.
        if time > now && super::due::next_change(w)?.is_some_and(|end| end < time) {
            return Ok(None);
        }
        let state = fee_state(w)?.0.advance(time - parent_time);
        let height = parent_height + 1;
        // The block's time first charges the L1 validators' continuous fee.
        l1::advance(w, (time, time - parent_time), height)?;
        Ok(Some(Block {
            parent: Id::from_sha256(&parent_bytes),
            height,
            time,
            price: fee::price(state.excess),
            state,
            warp_height: proposer::warp_height(w, self.genesis)?,
        }))
    }

    fn verify_in_block(
        &self,
        w: &WriteTransaction,
        block: &Block,
        tx: &platform::Tx,
        id: Id,
    ) -> Result<Effects, VerifyError> {
        verify::verify(
            &self.rules,
            tx,
            id,
            block.time,
            block.price,
            &mut StoredState {
                r: w,
                warp_height: block.warp_height,
                peer: super::verify::peer_of(&self.rules, &tx.unsigned),
            },
        )
        .map(|fx| super::verify::Effects {
            peer: super::verify::peer_of(&self.rules, &tx.unsigned),
            ..fx
        })
    }

    fn take(&self, block: &mut Block, _: usize, fx: &Effects) -> bool {
        match block.state.consume(fx.gas) {
            Some(next) => {
                block.state = next;
                true
            }
            None => false,
        }
    }

    fn apply(
        &self,
        w: &WriteTransaction,
        block: &Block,
        id: &Id,
        bytes: &[u8],
        fx: Effects,
    ) -> Result<(), StoreError> {
        apply(w, (id, bytes), block.height, &fx)
    }

    fn seal(
        &self,
        w: &WriteTransaction,
        block: Block,
        txs: Vec<platform::Tx>,
    ) -> Result<Sealed, StoreError> {
        standard_block(
            w,
            (block.parent, block.height - 1),
            block.time,
            txs,
            block.state,
        )
    }

    fn genesis_tip(&self) -> Tip {
        self.genesis
    }
}

/// A Banff standard block of `txs` on the parent block (ID and height) at chain time
/// `time`, recording the new chain time and the fee state after it. A block without txs
/// only moves the chain time (to a staker's end).
pub fn standard_block(
    w: &WriteTransaction,
    (parent, parent_height): (Id, u64),
    time: u64,
    txs: Vec<platform::Tx>,
    state: fee::State,
) -> Result<Sealed, StoreError> {
    let height = parent_height + 1;
    let block = platform::Block::from(platform::BanffStandardBlock::new(time, parent, height, txs));
    let bytes = block
        .to_bytes()
        .map_err(|e| StoreError::invalid(format!("a built block does not encode: {e}")))?;
    store::set_meta(w, Meta::P_TIMESTAMP, &time.to_be_bytes())?;
    store::set_meta(w, Meta::P_FEE_STATE, &state.encode())?;
    Ok(Sealed {
        bytes,
        height,
        time,
    })
}

/// Writes an accepted transaction's changes.
fn apply(
    w: &WriteTransaction,
    (id, bytes): (&Id, &[u8]),
    height: u64,
    fx: &Effects,
) -> Result<(), StoreError> {
    ledger::put_tx(w, Chain::P, id, height, Status::Committed, bytes)?;
    for (id, owners) in &fx.consumed {
        ledger::spend_utxo(w, Chain::P, id, owners)?;
    }
    for u in &fx.produced {
        ledger::put_utxo(w, Chain::P, &u.id, &u.bytes, &u.owners())?;
    }
    for (id, owners) in &fx.imported {
        ledger::spend_utxo(w, fx.import_space(), id, owners)?;
    }
    let at = (id, height);
    match fx.change.clone() {
        Change::None => {}
        Change::Staking(c) => kind::staking::apply(w, c, at)?,
        Change::Subnets(c) => kind::subnets::apply(w, c, at)?,
        Change::L1(c) => kind::l1::apply(w, c, at, fx.avax)?,
    }
    for u in &fx.exported {
        ledger::put_utxo(w, fx.export_space(), &u.id, &u.bytes, &u.owners())?;
    }
    Ok(())
}

/// The state verification reads: the store as `r` shows it (the last accepted state, or
/// the block's own as it is built).
struct StoredState<'a, R: Reader> {
    r: &'a R,
    /// The P-chain height Warp messages are verified at.
    warp_height: u64,
    /// The chain an import reads the shared memory of.
    peer: Option<Chain>,
}

impl<R: Reader> StoredState<'_, R> {
    fn read(&self, space: ledger::Space, u: &Id) -> Result<Option<Utxo>, StoreError> {
        ledger::utxo(self.r, space, u).and_then(|b| b.map(|b| Utxo::decode(&b)).transpose())
    }
}

impl<R: Reader> ChainState for StoredState<'_, R> {
    fn utxo(&mut self, id: &Id) -> Result<Option<Utxo>, StoreError> {
        self.read(Chain::P.into(), id)
    }

    fn atomic(&mut self, id: &Id) -> Result<Option<Utxo>, StoreError> {
        self.read(super::verify::peer_space(self.peer).0, id)
    }

    fn subnet(&mut self, subnet: &Id) -> Result<Option<(platform::Owner, bool)>, StoreError> {
        let Some(o) = subnets::owner(self.r, subnet)? else {
            return Ok(None);
        };
        let converted = l1::conversion(self.r, subnet)?.is_some();
        Ok(Some((o.owner, converted)))
    }

    fn l1_validator(&mut self, validation_id: &Id) -> Result<Option<l1::Validator>, StoreError> {
        l1::validator(self.r, validation_id)
    }

    fn active_l1_validators(&mut self) -> Result<u64, StoreError> {
        l1::active_count(self.r)
    }

    fn conversion(&mut self, subnet: &Id) -> Result<Option<l1::Conversion>, StoreError> {
        l1::conversion(self.r, subnet)
    }

    fn l1_validation_of(&mut self, subnet: &Id, node: &NodeId) -> Result<Option<Id>, StoreError> {
        l1::validation_of(self.r, subnet, node)
    }

    fn l1_weight(&mut self, subnet: &Id) -> Result<u64, StoreError> {
        l1::weight(self.r, subnet)
    }

    fn has_expiry(&mut self, expiry: u64, validation_id: &Id) -> Result<bool, StoreError> {
        l1::has_expiry(self.r, expiry, validation_id)
    }

    fn warp_validators(&mut self, chain: &Id) -> Result<Option<warp::Canonical>, StoreError> {
        let Some(subnet) = warp::subnet_of(self.r, chain)? else {
            return Ok(None);
        };
        warp::canonical(self.r, &subnet, self.warp_height).map(Some)
    }

    fn tx(&mut self, id: &Id) -> Result<Option<platform::Tx>, StoreError> {
        let Some(stored) = ledger::tx(self.r, Chain::P, id)? else {
            return Ok(None);
        };
        platform::Tx::from_bytes(&stored.bytes)
            .map(Some)
            .map_err(|e| StoreError::Invalid(format!("stored tx {id} does not decode: {e}")))
    }

    fn validator(&mut self, subnet: &Id, node: &NodeId) -> Result<Option<Current>, StoreError> {
        let Some(s) = stakers::staker(self.r, subnet, node)? else {
            return Ok(None);
        };
        let delegated = stakers::delegators(self.r, subnet, Some(node))?
            .iter()
            .map(|d| d.tx.validator.weight)
            .fold(0, u64::saturating_add);
        Ok(Some(Current {
            tx_id: s.tx_id,
            weight: s.weight(),
            delegated,
            end: s.end(),
            permissioned: s.subnet_validator().is_some(),
        }))
    }
}

/// The stored fee state and the chain time it belongs to.
pub fn fee_state<R: Reader>(r: &R) -> Result<(fee::State, u64), StoreError> {
    let state = store::meta(r, store::Meta::P_FEE_STATE)?
        .and_then(|v| fee::State::decode(&v))
        .unwrap_or_default();
    Ok((state, super::timestamp(r)?))
}
