//! The X-chain as the engine runs it: its transactions decoded and verified over the UTXO
//! set (and what the P-chain exported to it), a block filled up to its target size, a
//! standard block sealed.

use super::vocab::{Effects, Rules};
use super::{Utxo, verify};
use crate::engine::{Sealed, Vm};
use crate::ledger::{self, Chain, Space, Status};
use crate::proposer::Tip;
use crate::refusal::{Refusal, VerifyError};
use crate::store::{self, Reader, StoreError};
use avalanche_rpc::codec::avm;
use avalanche_rpc::wire::Id;
use redb::{ReadTransaction, ReadableTable, WriteTransaction};

/// How many bytes of transactions an X-chain block takes (`vms/avm/block/builder`
/// `targetBlockSize`).
pub const TARGET_BLOCK_SIZE: usize = 128 * 1024;

/// The fees of a local network (`vms/avm/config`, `genesis/params.go`).
pub const TX_FEE: u64 = 1_000_000;
pub const CREATE_ASSET_TX_FEE: u64 = 1_000_000;

/// The X-chain's VM.
pub struct XVm {
    pub rules: Rules,
    /// The proposervm's tip before the first block (the genesis block's).
    pub genesis: Tip,
}

/// An X-chain block being built.
pub struct Block {
    parent: Id,
    height: u64,
    time: u64,
    /// Bytes of transactions taken so far.
    size: usize,
}

/// A stored UTXO's bytes decoded (bytes that do not decode are the store's failure).
fn decode_utxo(b: Option<Vec<u8>>) -> Result<Option<Utxo>, StoreError> {
    b.map(|b| Utxo::decode(&b)).transpose()
}

impl Vm for XVm {
    const CHAIN: Chain = Chain::X;
    type Tx = avm::Tx;
    type Effects = Effects;
    type Block = Block;

    fn decode(&self, bytes: &[u8]) -> Result<avm::Tx, Refusal> {
        avm::Tx::from_bytes(bytes).map_err(|e| crate::engine::undecodable(&e, bytes))
    }

    fn verify_issued(
        &self,
        r: &ReadTransaction,
        tx: &avm::Tx,
        id: Id,
        now: u64,
    ) -> Result<Effects, VerifyError> {
        let peer = super::kind::peer_of(&self.rules, &tx.unsigned);
        let shared = Effects {
            peer,
            ..Effects::default()
        }
        .import_space();
        let mut fx = verify::verify(
            &self.rules,
            tx,
            id,
            now,
            &mut |u| super::utxo(r, u),
            &mut |u| decode_utxo(ledger::utxo(r, shared, u)?),
        )?;
        fx.peer = peer;
        Ok(fx)
    }

    fn spends(&self, fx: &Effects) -> Vec<(Space, Id)> {
        let own = fx.consumed.iter().map(|u| (Chain::X.into(), *u));
        own.chain(fx.imported.iter().map(|u| (fx.import_space(), *u)))
            .collect()
    }

    fn open_block(&self, w: &WriteTransaction, now: u64) -> Result<Option<Block>, StoreError> {
        let (height, bytes) = ledger::last_block(&w.open_table(store::BLOCKS)?, Chain::X)?;
        let parent = avm::Block::from_bytes(&bytes)
            .map_err(|e| StoreError::invalid(format!("the last block does not decode: {e}")))?;
        let avm::Block::StandardBlock(parent_block) = &parent else {
            return Err(StoreError::invalid(
                "the last block is not a standard block",
            ));
        };
        Ok(Some(Block {
            parent: Id::from_sha256(&bytes),
            height: height + 1,
            time: now.max(parent_block.time),
            size: 0,
        }))
    }

    fn verify_in_block(
        &self,
        w: &WriteTransaction,
        block: &Block,
        tx: &avm::Tx,
        id: Id,
    ) -> Result<Effects, VerifyError> {
        let utxos = w.table(store::UTXOS)?;
        let read = |space: Space, u: &Id| decode_utxo(ledger::utxo_in(&utxos, space, u)?);
        let peer = super::kind::peer_of(&self.rules, &tx.unsigned);
        let shared = Effects {
            peer,
            ..Effects::default()
        }
        .import_space();
        let mut fx = verify::verify(
            &self.rules,
            tx,
            id,
            block.time,
            &mut |u| read(Chain::X.into(), u),
            &mut |u| read(shared, u),
        )?;
        fx.peer = peer;
        Ok(fx)
    }

    fn take(&self, block: &mut Block, size: usize, _: &Effects) -> bool {
        // The node's builder fills a block up to its target size; the rest waits.
        if block.size > 0 && block.size + size > TARGET_BLOCK_SIZE {
            return false;
        }
        block.size += size;
        true
    }

    fn apply(
        &self,
        w: &WriteTransaction,
        block: &Block,
        id: &Id,
        bytes: &[u8],
        fx: Effects,
    ) -> Result<(), StoreError> {
        put_tx(w, id, block.height, bytes, &fx)
    }

    fn seal(
        &self,
        _: &WriteTransaction,
        block: Block,
        txs: Vec<avm::Tx>,
    ) -> Result<Sealed, StoreError> {
        let b = avm::Block::from(avm::StandardBlock::new(
            block.parent,
            block.height,
            block.time,
            Id::ZERO,
            txs,
        ));
        let bytes = b
            .to_bytes()
            .map_err(|e| StoreError::invalid(format!("a built block does not encode: {e}")))?;
        Ok(Sealed {
            bytes,
            height: block.height,
            time: block.time,
        })
    }

    fn genesis_tip(&self) -> Tip {
        self.genesis
    }
}

/// Records an accepted transaction and what it changed.
pub fn put_tx(
    w: &WriteTransaction,
    id: &Id,
    height: u64,
    bytes: &[u8],
    effects: &Effects,
) -> Result<(), StoreError> {
    ledger::put_tx(w, Chain::X, id, height, Status::Committed, bytes)?;
    for id in &effects.consumed {
        let bytes = {
            let utxos = w.open_table(store::UTXOS)?;
            ledger::utxo_in(&utxos, Chain::X, id)?
        }
        .ok_or_else(|| StoreError::Invalid(format!("UTXO {id} is spent but was not stored")))?;
        ledger::spend_utxo(w, Chain::X, id, &Utxo::decode(&bytes)?.owners())?;
    }
    for u in &effects.produced {
        ledger::put_utxo(w, Chain::X, &u.id, &u.bytes, &u.owners())?;
    }
    for id in &effects.imported {
        let bytes = {
            let utxos = w.open_table(store::UTXOS)?;
            ledger::utxo_in(&utxos, effects.import_space(), id)?
        }
        .ok_or_else(|| {
            StoreError::Invalid(format!("imported UTXO {id} is not in shared memory"))
        })?;
        ledger::spend_utxo(
            w,
            effects.import_space(),
            id,
            &Utxo::decode(&bytes)?.owners(),
        )?;
    }
    for u in &effects.exported {
        ledger::put_utxo(w, effects.export_space(), &u.id, &u.bytes, &u.owners())?;
    }
    let mut counts = w.open_table(store::X_ADDR_TX_COUNT)?;
    let mut txs = w.open_table(store::X_ADDR_TXS)?;
    for (address, asset) in &effects.touched {
        let prefix = store::key(&[address, asset.as_bytes()]);
        let n = counts
            .get(prefix.as_slice())?
            .map(|v| v.value())
            .unwrap_or(0);
        txs.insert(
            store::key(&[&prefix, &n.to_be_bytes()]).as_slice(),
            id.as_bytes().as_slice(),
        )?;
        counts.insert(prefix.as_slice(), n + 1)?;
    }
    Ok(())
}
