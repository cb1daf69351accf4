//! One chain's transactions issued but not yet in a block, and the recently dropped ones with their
//! reasons (the node caches the last 64 and answers a re-issue with the cached reason).

use avalanche_rpc::wire::Id;
use std::collections::{HashMap, VecDeque};

/// How many dropped transactions are remembered.
const DROPPED: usize = 64;
/// The largest transaction a mempool takes (`vms/txs/mempool` MaxTxSize).
pub const MAX_TX_SIZE: usize = 64 * 1024;

/// The node's refusal of a transaction larger than [`MAX_TX_SIZE`].
pub fn check_size(id: &Id, size: usize) -> Result<(), String> {
    if size > MAX_TX_SIZE {
        return Err(format!(
            "tx too large: {id} size ({size}) > max size ({MAX_TX_SIZE})"
        ));
    }
    Ok(())
}

/// The most bytes of transactions the mempool holds (64 MiB, as the node's).
pub const MAX_BYTES: usize = 64 << 20;

/// A transaction waiting for a block: its ID, its bytes and the UTXOs it spends.
#[derive(Debug, Clone)]
pub struct Pending {
    pub id: Id,
    pub bytes: Vec<u8>,
    pub spends: Vec<Id>,
}

#[derive(Debug, Default)]
pub struct Mempool {
    txs: Vec<Pending>,
    bytes: usize,
    /// UTXO ID → the pending tx spending it.
    spent: HashMap<Id, Id>,
    dropped: VecDeque<(Id, String)>,
}

impl Mempool {
    pub fn contains(&self, id: &Id) -> bool {
        self.txs.iter().any(|p| p.id == *id)
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

    pub fn free_bytes(&self) -> usize {
        MAX_BYTES - self.bytes
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

    /// Removes `id` (accepted, or dropped with `reason`).
    pub fn remove(&mut self, id: &Id, reason: Option<String>) {
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
    }

    /// Remembers why `id` was refused.
    pub fn drop_reason(&mut self, id: Id, reason: String) {
        if self.dropped.len() == DROPPED {
            self.dropped.pop_front();
        }
        self.dropped.push_back((id, reason));
    }
}
