//! The acceptance engine: how a transaction becomes part of a chain, written once for every
//! chain. Each chain plugs in through [`Vm`] (decode, verify over the state, the block's
//! capacity, apply, seal its block); the engine does the rest, the same way for each:
//!
//! - **Admission** ([`Lane::issue`]): decode, the size and byte-cap checks, already accepted,
//!   verification against the last accepted state *outside* the pool's lock (issuers verify
//!   in parallel), then, under the lock, one conflict rule (no pending transaction spends the
//!   same UTXO, nor did a block accepted since the state it was verified against) and the
//!   add. What is acknowledged is in the pool without conflict, so a block accepts it.
//! - **Building** ([`Lane::build`], [`Lane::block_in`]): the pending transactions verified
//!   again against the block's own state, as many as the block's capacity takes, applied,
//!   the block sealed, then [`tail`] (store, proposervm wrapper, index entry) and one commit.
//!
//! Nothing here knows a chain's transactions; the chains (`xchain`, `pchain`) know nothing
//! of pools, locks or wrappers.

pub mod error;
pub mod pool;

pub mod shared;
pub mod tail;
#[cfg(test)]
mod tests;

pub use crate::refusal::{Refusal, VerifyError, fail};
pub use error::{IssueError, Refused, rule_broken, undecodable};
pub use pool::{Pending, Pool};
pub use shared::{Engine, Sealed};

use crate::ledger::{self, Chain, Space};
use crate::proposer::Tip;
use crate::store::StoreError;
use avalanche_rpc::wire::Id;
use redb::{ReadTransaction, WriteTransaction};
use std::sync::{Mutex, MutexGuard};

/// One chain, as the engine sees it.
pub trait Vm: Send + Sync {
    /// Which chain.
    const CHAIN: Chain;
    /// A decoded transaction.
    type Tx;
    /// What verifying a transaction found it changes.
    type Effects;
    /// A block being built: parent, time, what its capacity has left.
    type Block;

    /// Decodes an issued transaction (the node's refusal on failure).
    fn decode(&self, bytes: &[u8]) -> Result<Self::Tx, Refusal>;
    /// What the chain's `issueTx` puts before a refusal (the P-chain's `couldn't issue tx: `).
    const REFUSAL_PREFIX: &'static str = "";
    /// Verifies an issued transaction against the last accepted state, at `now`: its
    /// effects, its refusal, or the store failing.
    fn verify_issued(
        &self,
        r: &ReadTransaction,
        tx: &Self::Tx,
        id: Id,
        now: u64,
    ) -> Result<Self::Effects, VerifyError>;
    /// A refusal of a verified transaction that no block could ever take (not remembered
    /// as dropped).
    fn admissible(&self, _fx: &Self::Effects) -> Result<(), Refusal> {
        Ok(())
    }
    /// The UTXOs it spends, with where they are: two pending transactions never share one.
    fn spends(&self, fx: &Self::Effects) -> Vec<(Space, Id)>;
    /// Those of [`spends`](Vm::spends) that are stored UTXOs, which the conflict rule looks
    /// up in the store when blocks were accepted since the transaction was verified (the
    /// C-chain's exports also spend a pseudo-input per address and nonce, as coreth's
    /// `InputUTXOs`, which no store holds).
    fn stored_spends(&self, fx: &Self::Effects) -> Vec<(Space, Id)> {
        self.spends(fx)
    }

    /// Starts a block on the last accepted one at `now` (writing what time alone changes), or
    /// `None` if the chain cannot make one yet.
    fn open_block(&self, w: &WriteTransaction, now: u64)
    -> Result<Option<Self::Block>, StoreError>;
    /// Verifies a pending transaction against the block's state: its effects, its refusal,
    /// or the store failing.
    fn verify_in_block(
        &self,
        w: &WriteTransaction,
        block: &Self::Block,
        tx: &Self::Tx,
        id: Id,
    ) -> Result<Self::Effects, VerifyError>;
    /// Takes a verified transaction of `size` bytes into the block if its capacity allows
    /// (else it waits for the next block).
    fn take(&self, block: &mut Self::Block, size: usize, fx: &Self::Effects) -> bool;
    /// Writes what an accepted transaction changes.
    fn apply(
        &self,
        w: &WriteTransaction,
        block: &Self::Block,
        id: &Id,
        bytes: &[u8],
        fx: Self::Effects,
    ) -> Result<(), StoreError>;
    /// The block of `txs`, with what the chain records of it (not the tail).
    fn seal(
        &self,
        w: &WriteTransaction,
        block: Self::Block,
        txs: Vec<Self::Tx>,
    ) -> Result<Sealed, StoreError>;
    /// The proposervm's tip before the first block after genesis.
    fn genesis_tip(&self) -> Tip;
}

/// What building a block did.
#[derive(Debug, Default)]
pub struct Built {
    /// The block, if any transaction was valid.
    pub id: Option<Id>,
    pub included: Vec<Id>,
    pub dropped: Vec<(Id, String)>,
}

/// A chain's VM and its pool.
pub struct Lane<V: Vm> {
    pub vm: V,
    pool: Mutex<Pool>,
}

impl<V: Vm> Lane<V> {
    /// A lane whose pool holds at most `pool_bytes` bytes of transactions.
    pub fn new(vm: V, pool_bytes: usize) -> Lane<V> {
        Lane {
            vm,
            pool: Mutex::new(Pool::new(pool_bytes)),
        }
    }

    fn pool(&self) -> MutexGuard<'_, Pool> {
        self.pool.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Admits a signed transaction into the pool; its ID. Success means it is pending
    /// without conflict (or already was).
    pub fn issue(&self, engine: &Engine, bytes: Vec<u8>) -> Result<Id, Refused> {
        self.admit(engine, bytes).map_err(|error| Refused {
            error,
            prefix: V::REFUSAL_PREFIX,
        })
    }

    fn admit(&self, engine: &Engine, bytes: Vec<u8>) -> Result<Id, IssueError> {
        let tx = self.vm.decode(&bytes).map_err(IssueError::Decode)?;
        let id = Id::from_sha256(&bytes);
        let generation = {
            let pool = self.pool();
            if pool.precheck(&id, bytes.len())? {
                return Ok(id);
            }
            pool.generation()
        };
        // Verified against the last accepted state without holding the pool.
        let verified = self.verify_issued(engine, &tx, id);
        let mut pool = self.pool();
        if pool.precheck(&id, bytes.len())? {
            return Ok(id);
        }
        let fx = match verified? {
            Ok(fx) => fx,
            Err(e) => {
                pool.drop_reason(id, e.words.clone());
                return Err(IssueError::Invalid(e));
            }
        };
        let spends = self.vm.spends(&fx);
        let stored = self.vm.stored_spends(&fx);
        if let Err(e) = self.conflict(engine, &pool, generation, &id, &spends, &stored) {
            if matches!(e, IssueError::Conflict { .. } | IssueError::Spent(_)) {
                pool.drop_reason(id, e.to_string());
            }
            return Err(e);
        }
        self.vm.admissible(&fx).map_err(IssueError::Invalid)?;
        let spends = spends.into_iter().map(|(_, u)| u).collect();
        pool.add(Pending { id, bytes, spends });
        drop(pool);
        engine.wake.notify_one();
        Ok(id)
    }

    /// The one conflict rule, applied with the pool held: no pending transaction spends what
    /// `spends` spends, and, if blocks were accepted since the state it was verified against
    /// (the pool's generation moved on), none of them spent it either (a block's spends are in
    /// the pool until it settles, and in the store once committed, which is before it
    /// settles: one of the two always shows them).
    fn conflict(
        &self,
        engine: &Engine,
        pool: &Pool,
        generation: u64,
        id: &Id,
        spends: &[(Space, Id)],
        stored: &[(Space, Id)],
    ) -> Result<(), IssueError> {
        if let Some((other, utxo)) = spends
            .iter()
            .find_map(|(_, u)| pool.spender(u).map(|o| (o, *u)))
        {
            return Err(IssueError::Conflict { other, utxo });
        }
        if pool.generation() == generation {
            return Ok(());
        }
        let r = engine.store.read()?;
        if ledger::tx(&r, V::CHAIN, id)?.is_some() {
            return Err(IssueError::AlreadyAccepted(*id));
        }
        for (space, u) in stored {
            if ledger::utxo(&r, *space, u)?.is_none() {
                return Err(IssueError::Spent(*u));
            }
        }
        Ok(())
    }

    /// The verification against the last accepted state (the inner result: its effects or
    /// its refusal); already accepted, or the store failing (while verifying, too), as the
    /// outer error. An accepted transaction is
    /// verified first, as the node does (its inputs are spent: the refusal is the node's,
    /// `failed to get utxo …` or `failed to read consumed UTXO …`); one that still verifies
    /// is refused as already accepted.
    fn verify_issued(
        &self,
        engine: &Engine,
        tx: &V::Tx,
        id: Id,
    ) -> Result<Result<V::Effects, Refusal>, IssueError> {
        let r = engine.store.read()?;
        let verified = match self.vm.verify_issued(&r, tx, id, engine.clock.now()) {
            Ok(fx) => Ok(fx),
            Err(VerifyError::Refused(e)) => Err(e),
            Err(VerifyError::Store(e)) => return Err(e.into()),
        };
        if verified.is_ok() && ledger::tx(&r, V::CHAIN, &id)?.is_some() {
            return Err(IssueError::AlreadyAccepted(id));
        }
        Ok(verified)
    }

    /// Whether `id` waits in the pool (`Ok`) or was recently dropped (its reason).
    pub fn status(&self, id: &Id) -> Option<Result<(), String>> {
        let pool = self.pool();
        if pool.contains(id) {
            return Some(Ok(()));
        }
        pool.dropped(id).map(|r| Err(r.to_string()))
    }

    /// The bytes of `id` while it waits in the pool.
    pub fn pending_bytes(&self, id: &Id) -> Option<Vec<u8>> {
        self.pool().bytes_of(id).map(<[u8]>::to_vec)
    }

    /// How many transactions wait.
    pub fn len(&self) -> usize {
        self.pool().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets everything pending (a revert).
    pub fn clear(&self) {
        self.pool().clear();
    }

    /// Builds and accepts a block from the pool; its ID, or `None` when no pending
    /// transaction could go in.
    pub fn build(&self, engine: &Engine) -> Result<Option<Id>, StoreError> {
        let _one_at_a_time = engine.one_at_a_time();
        let pending = self.pool().pending();
        if pending.is_empty() {
            return Ok(None);
        }
        let w = engine.store.write()?;
        let built = self.block_in(engine, &w, pending)?;
        if built.id.is_some() {
            w.commit()?;
        } else {
            drop(w);
        }
        self.pool().settle(&built.included, built.dropped);
        Ok(built.id)
    }

    /// Verifies `pending` against the state of `w` and, if any is valid, writes the block
    /// holding them with everything it changes and its tail (not committed; the pool is
    /// left as it is). A refused transaction is dropped; the store failing, while verifying
    /// too, fails the block (`w`, half written, is then dropped, never committed).
    pub fn block_in(
        &self,
        engine: &Engine,
        w: &WriteTransaction,
        pending: Vec<Pending>,
    ) -> Result<Built, StoreError> {
        let mut built = Built::default();
        let Some(mut block) = self.vm.open_block(w, engine.clock.now())? else {
            return Ok(built);
        };
        let mut txs = Vec::new();
        for p in pending {
            let tx = match self.vm.decode(&p.bytes) {
                Ok(tx) => tx,
                Err(e) => {
                    built.dropped.push((p.id, e.words));
                    continue;
                }
            };
            let fx = match self.vm.verify_in_block(w, &block, &tx, p.id) {
                Ok(fx) => fx,
                Err(VerifyError::Refused(e)) => {
                    built.dropped.push((p.id, e.words));
                    continue;
                }
                Err(VerifyError::Store(e)) => return Err(e),
            };
            // Past the block's capacity: it waits for the next block.
            if !self.vm.take(&mut block, p.bytes.len(), &fx) {
                continue;
            }
            self.vm.apply(w, &block, &p.id, &p.bytes, fx)?;
            txs.push(tx);
            built.included.push(p.id);
        }
        if built.included.is_empty() {
            return Ok(built);
        }
        let sealed = self.vm.seal(w, block, txs)?;
        let id = tail::append(engine, w, V::CHAIN, self.vm.genesis_tip(), &sealed)?;
        built.id = Some(id);
        Ok(built)
    }
}
