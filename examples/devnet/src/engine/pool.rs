//! One chain's transactions issued but not yet in a block, and the recently dropped ones with their
//! reasons (the node caches the last 64 and answers a re-issue with the cached reason).
//!
//! The pool also counts the blocks whose transactions left it (its generation): an issuer
//! that verified against the state of one generation and finds another when it comes to add
//! its transaction verifies again, so a conflict with a transaction accepted in between is
//! never acknowledged.

use super::IssueError;
use avalanche_rpc::wire::Id;
use std::collections::{HashMap, VecDeque};

/// How many dropped transactions are remembered.
const DROPPED: usize = 64;
/// The largest transaction a mempool takes (`vms/txs/mempool` MaxTxSize).
pub const MAX_TX_SIZE: usize = 64 * 1024;

/// The most bytes of transactions a pool holds by default (64 MiB, as the node's).
pub const MAX_BYTES: usize = 64 << 20;

/// A transaction waiting for a block: its ID, its bytes and the UTXOs it spends.
#[derive(Debug, Clone)]
pub struct Pending {
    pub id: Id,
    pub bytes: Vec<u8>,
    pub spends: Vec<Id>,
}

/// One chain's pool.
#[derive(Debug)]
pub struct Pool {
    /// The most bytes of transactions it holds.
    capacity: usize,
    txs: Vec<Pending>,
    bytes: usize,
    /// UTXO ID → the pending tx spending it.
    spent: HashMap<Id, Id>,
    dropped: VecDeque<(Id, String)>,
    /// How many times accepted transactions left the pool (or it was cleared).
    generation: u64,
}

impl Pool {
    /// An empty pool holding at most `capacity` bytes of transactions.
    pub fn new(capacity: usize) -> Pool {
        Pool {
            capacity,
            txs: Vec::new(),
            bytes: 0,
            spent: HashMap::new(),
            dropped: VecDeque::new(),
            generation: 0,
        }
    }

    /// What the pool says of a transaction before it is verified: `true` if it is pending
    /// already; its remembered reason if it was dropped; too large; no room left.
    pub fn precheck(&self, id: &Id, size: usize) -> Result<bool, IssueError> {
        if self.contains(id) {
            return Ok(true);
        }
        if let Some(reason) = self.dropped(id) {
            return Err(IssueError::Dropped(reason.to_string()));
        }
        if size > MAX_TX_SIZE {
            return Err(IssueError::TooLarge {
                id: *id,
                size,
                max: MAX_TX_SIZE,
            });
        }
        if size > self.free_bytes() {
            return Err(IssueError::PoolFull {
                id: *id,
                size,
                free: self.free_bytes(),
            });
        }
        Ok(false)
    }

    pub fn contains(&self, id: &Id) -> bool {
        self.txs.iter().any(|p| p.id == *id)
    }

    /// The bytes of the pending tx `id`.
    pub fn bytes_of(&self, id: &Id) -> Option<&[u8]> {
        self.txs
            .iter()
            .find(|p| p.id == *id)
            .map(|p| p.bytes.as_slice())
    }

    /// The pending tx that spends `utxo`.
    pub fn spender(&self, utxo: &Id) -> Option<Id> {
        self.spent.get(utxo).copied()
    }

    /// Why `id` was dropped, if it was recently.
    pub fn dropped(&self, id: &Id) -> Option<&str> {
        self.dropped
            .iter()
            .find(|(d, _)| d == id)
            .map(|(_, r)| r.as_str())
    }

    /// Bumped whenever the state transactions were verified against may have changed under
    /// the pool (a block accepted, a revert).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn free_bytes(&self) -> usize {
        self.capacity.saturating_sub(self.bytes)
    }

    pub fn add(&mut self, p: Pending) {
        for u in &p.spends {
            self.spent.insert(*u, p.id);
        }
        self.bytes += p.bytes.len();
        self.txs.push(p);
    }

    /// Everything pending, oldest first.
    pub fn pending(&self) -> Vec<Pending> {
        self.txs.clone()
    }

    pub fn len(&self) -> usize {
        self.txs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.txs.is_empty()
    }

    /// Removes what a block accepted and what it found invalid (with the reasons): one
    /// generation more.
    pub fn settle(&mut self, accepted: &[Id], dropped: Vec<(Id, String)>) {
        for id in accepted {
            self.remove(id, None);
        }
        for (id, reason) in dropped {
            self.remove(&id, Some(reason));
        }
        self.generation += 1;
    }

    /// Removes `id` (accepted, or dropped with `reason`).
    fn remove(&mut self, id: &Id, reason: Option<String>) {
        if let Some(i) = self.txs.iter().position(|p| p.id == *id) {
            let p = self.txs.remove(i);
            self.bytes -= p.bytes.len();
            for u in &p.spends {
                self.spent.remove(u);
            }
        }
        if let Some(r) = reason {
            self.drop_reason(*id, r);
        }
    }

    /// Forgets everything pending (a revert).
    pub fn clear(&mut self) {
        self.txs.clear();
        self.spent.clear();
        self.bytes = 0;
        self.generation += 1;
    }

    /// Remembers why `id` was refused.
    pub fn drop_reason(&mut self, id: Id, reason: String) {
        if self.dropped.len() == DROPPED {
            self.dropped.pop_front();
        }
        self.dropped.push_back((id, reason));
    }
}
