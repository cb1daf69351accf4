//! The C-chain's atomic side as the engine runs it: atomic transactions decoded with the
//! atomic codec, verified over the accounts and the shared memory from the X- and P-chain,
//! a block of up to [`TARGET_ATOMIC_BYTES`] of them sealed in the devnet's own form.

use super::verify::{self, Effects, Rules};
use super::{CBlock, put_account};
use crate::engine::{Sealed, Vm};
use crate::ledger::{self, Chain, Space, Status};
use crate::proposer::Tip;
use crate::refusal::{Refusal, VerifyError};
use crate::store::{self, StoreError};
use avalanche_rpc::codec::atomic;
use avalanche_rpc::wire::Id;
use redb::{ReadTransaction, WriteTransaction};

/// How many bytes of atomic transactions a C block takes (coreth's
/// `targetAtomicTxsSize`, `plugin/evm/atomic/vm/vm.go`: 40 KiB).
pub const TARGET_ATOMIC_BYTES: usize = 40 * 1024;

/// The C-chain's VM (its atomic side).
pub struct CVm {
    pub rules: Rules,
    /// The proposervm's tip before the first block (the genesis block's).
    pub genesis: Tip,
}

/// A C block being built.
pub struct Block {
    parent: Id,
    height: u64,
    time: u64,
    size: usize,
}

/// The UTXOs of shared memory an import spends.
fn spends_of(fx: &Effects) -> Vec<(Space, Id)> {
    fx.imported.iter().map(|(s, u, _)| (*s, *u)).collect()
}

impl Vm for CVm {
    const CHAIN: Chain = Chain::C;
    type Tx = (atomic::Tx, Vec<u8>);
    type Effects = Effects;
    type Block = Block;

    fn decode(&self, bytes: &[u8]) -> Result<Self::Tx, Refusal> {
        atomic::Tx::from_bytes(bytes)
            .map(|tx| (tx, bytes.to_vec()))
            .map_err(|e| {
                crate::engine::undecodable(&e, bytes).within("problem parsing transaction")
            })
    }

    fn verify_issued(
        &self,
        r: &ReadTransaction,
        tx: &Self::Tx,
        _: Id,
        now: u64,
    ) -> Result<Effects, VerifyError> {
        verify::verify(
            &self.rules,
            &tx.0,
            now,
            &mut |space, u| ledger::utxo(r, space, u),
            &mut |a| super::account(r, a),
        )
    }

    /// The shared memory's UTXOs, and an export's pseudo-input per address and nonce.
    fn spends(&self, fx: &Effects) -> Vec<(Space, Id)> {
        let mut all = spends_of(fx);
        all.extend(fx.nonces.iter().map(|n| (Space::Chain(Chain::C), *n)));
        all
    }

    fn stored_spends(&self, fx: &Effects) -> Vec<(Space, Id)> {
        spends_of(fx)
    }

    fn open_block(&self, w: &WriteTransaction, now: u64) -> Result<Option<Block>, StoreError> {
        let (height, bytes) = ledger::last_block(&w.open_table(store::BLOCKS)?, Chain::C)?;
        let parent = CBlock::from_bytes(&bytes)?;
        Ok(Some(Block {
            parent: Id::from_sha256(&bytes),
            height: height + 1,
            time: now.max(parent.time),
            size: 0,
        }))
    }

    fn verify_in_block(
        &self,
        w: &WriteTransaction,
        block: &Block,
        tx: &Self::Tx,
        _: Id,
    ) -> Result<Effects, VerifyError> {
        verify::verify(
            &self.rules,
            &tx.0,
            block.time,
            &mut |space, u| ledger::utxo(w, space, u),
            &mut |a| super::account(w, a),
        )
    }

    fn take(&self, block: &mut Block, size: usize, _: &Effects) -> bool {
        if block.size > 0 && block.size + size > TARGET_ATOMIC_BYTES {
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
        ledger::put_tx(w, Chain::C, id, block.height, Status::Committed, bytes)?;
        for (space, u, owners) in &fx.imported {
            ledger::spend_utxo(w, *space, u, owners)?;
        }
        for (space, e) in &fx.exported {
            ledger::put_utxo(w, *space, &e.id, &e.bytes, &e.owners)?;
        }
        for (address, account) in &fx.accounts {
            put_account(w, address, account)?;
        }
        Ok(())
    }

    fn seal(
        &self,
        _: &WriteTransaction,
        block: Block,
        txs: Vec<Self::Tx>,
    ) -> Result<Sealed, StoreError> {
        let b = CBlock {
            parent: block.parent,
            height: block.height,
            time: block.time,
            txs: txs.into_iter().map(|(_, bytes)| bytes).collect(),
        };
        Ok(Sealed {
            bytes: b.to_bytes(),
            height: block.height,
            time: block.time,
        })
    }

    fn genesis_tip(&self) -> Tip {
        self.genesis
    }
}
