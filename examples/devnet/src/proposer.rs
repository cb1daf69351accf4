//! The proposervm around each chain's blocks (`vms/proposervm`): every accepted block is
//! wrapped in a proposer block, which is what the block indexes store and what
//! `proposervm.*` reports. Granite is active from genesis (as on a local network), so each
//! wrapper is a GraniteBlock carrying its P-chain epoch (`acp181.NewEpoch`); the devnet's
//! blocks are unsigned, as a node builds them once its proposer window has passed.

use crate::ledger::Chain;
use crate::store::Reader;
use crate::store::{self, StoreError};
use avalanche_rpc::codec::proposervm;
use avalanche_rpc::wire::Id;
use redb::WriteTransaction;

/// How long an epoch lasts on a local network (`upgrade.Default.GraniteEpochDuration`).
pub const EPOCH_SECONDS: u64 = 30;

/// An epoch: the P-chain height its blocks use, its number, its start (Unix seconds).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Epoch {
    pub p_chain_height: u64,
    pub number: u64,
    pub start: u64,
}

/// The last proposer block of a chain, which the next one builds on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tip {
    pub id: Id,
    pub timestamp: u64,
    pub p_chain_height: u64,
    pub epoch: Epoch,
    /// A proposer block (false for the inner genesis block, which the first one wraps).
    pub post_fork: bool,
}

impl Tip {
    /// The chain's genesis block: the proposervm's genesis is the inner genesis block, with no
    /// P-chain height and no epoch.
    pub fn genesis(inner_id: Id, timestamp: u64) -> Tip {
        Tip {
            id: inner_id,
            timestamp,
            p_chain_height: 0,
            epoch: Epoch::default(),
            post_fork: false,
        }
    }

    fn encode(&self) -> Vec<u8> {
        store::key(&[
            self.id.as_bytes(),
            &self.timestamp.to_be_bytes(),
            &self.p_chain_height.to_be_bytes(),
            &self.epoch.p_chain_height.to_be_bytes(),
            &self.epoch.number.to_be_bytes(),
            &self.epoch.start.to_be_bytes(),
        ])
    }

    fn decode(v: &[u8]) -> Option<Tip> {
        let u = |i: usize| {
            Some(u64::from_be_bytes(
                v.get(32 + 8 * i..40 + 8 * i)?.try_into().ok()?,
            ))
        };
        Some(Tip {
            id: Id::new(v.get(..32)?.try_into().ok()?),
            timestamp: u(0)?,
            p_chain_height: u(1)?,
            epoch: Epoch {
                p_chain_height: u(2)?,
                number: u(3)?,
                start: u(4)?,
            },
            post_fork: true,
        })
    }

    /// The epoch of a child (`acp181.NewEpoch`; Granite is active at every child's time).
    pub fn child_epoch(&self) -> Epoch {
        if self.epoch == Epoch::default() {
            return Epoch {
                p_chain_height: self.p_chain_height,
                number: 1,
                start: self.timestamp,
            };
        }
        if self.timestamp < self.epoch.start + EPOCH_SECONDS {
            return self.epoch;
        }
        Epoch {
            p_chain_height: self.p_chain_height,
            number: self.epoch.number + 1,
            start: self.timestamp,
        }
    }
}

fn meta_key(chain: Chain) -> store::Meta {
    match chain {
        Chain::X => store::Meta::PROPOSER_TIP_X,
        Chain::P => store::Meta::PROPOSER_TIP_P,
        Chain::C => store::Meta::PROPOSER_TIP_C,
    }
}

/// The chain's last proposer block, or `None` before the first block after genesis.
pub fn tip<R: Reader>(r: &R, chain: Chain) -> Result<Option<Tip>, StoreError> {
    Ok(store::meta(r, meta_key(chain))?.and_then(|v| Tip::decode(&v)))
}

/// The P-chain height the P-chain's next block verifies Warp messages at: its epoch's
/// (`vms/proposervm/block.go:184-185` gives the inner block the child epoch's P-chain height
/// once Granite is active; `vms/platformvm/block/executor/block.go:40-44` verifies with it),
/// which the mempool also uses (`manager.go:143-154`, the preferred block's context).
/// `genesis` is the P-chain's tip before its first block.
pub fn warp_height<R: Reader>(r: &R, genesis: Tip) -> Result<u64, StoreError> {
    Ok(next_p_epoch(r, genesis)?.p_chain_height)
}

/// The epoch the P-chain's next block is in; `genesis` is its tip before its first block.
pub fn next_p_epoch<R: Reader>(r: &R, genesis: Tip) -> Result<Epoch, StoreError> {
    Ok(tip(r, Chain::P)?.unwrap_or(genesis).child_epoch())
}

/// Wraps `inner` (built at `time`, using P-chain height `p_chain_height`) on `parent`; the
/// wrapper's bytes and the new tip, which is recorded. On the inner genesis block the wrapper
/// is a StatelessBlock with no epoch, as the node's first (`vms/proposervm/pre_fork_block.go:219-225`);
/// after it, GraniteBlocks.
pub fn wrap(
    w: &WriteTransaction,
    chain: Chain,
    parent: Tip,
    inner: &[u8],
    time: u64,
    p_chain_height: u64,
) -> Result<(Vec<u8>, Tip), StoreError> {
    let (block, epoch) = if parent.post_fork {
        let epoch = parent.child_epoch();
        let block = proposervm::Block::from(proposervm::GraniteBlock::new(
            parent.id,
            time as i64,
            p_chain_height,
            Vec::new(),
            inner.to_vec(),
            epoch.p_chain_height,
            epoch.number,
            epoch.start as i64,
            Vec::new(),
        ));
        (block, epoch)
    } else {
        let block = proposervm::Block::from(proposervm::StatelessBlock::new(
            parent.id,
            time as i64,
            p_chain_height,
            Vec::new(),
            inner.to_vec(),
            Vec::new(),
        ));
        (block, Epoch::default())
    };
    let bytes = block
        .to_bytes()
        .map_err(|e| StoreError::Invalid(format!("a proposer block does not encode: {e}")))?;
    let id = block
        .id()
        .map_err(|e| StoreError::Invalid(format!("a proposer block does not encode: {e}")))?;
    let tip = Tip {
        id,
        timestamp: time,
        p_chain_height,
        epoch,
        post_fork: true,
    };
    store::set_meta(w, meta_key(chain), &tip.encode())?;
    Ok((bytes, tip))
}

/// Wraps the commit or abort child `inner` of the proposal block `parent` as the
/// proposervm does (an `Option`: no time, P-chain height or epoch of its own; it keeps its
/// parent's); the wrapper's bytes and the new tip, which is recorded.
pub fn wrap_option(
    w: &WriteTransaction,
    chain: Chain,
    parent: Tip,
    inner: &[u8],
) -> Result<(Vec<u8>, Tip), StoreError> {
    let block = proposervm::Block::from(proposervm::Option::new(parent.id, inner.to_vec()));
    let bytes = block
        .to_bytes()
        .map_err(|e| StoreError::Invalid(format!("a proposer option does not encode: {e}")))?;
    let id = block
        .id()
        .map_err(|e| StoreError::Invalid(format!("a proposer option does not encode: {e}")))?;
    let tip = Tip { id, ..parent };
    store::set_meta(w, meta_key(chain), &tip.encode())?;
    Ok((bytes, tip))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epochs_follow_acp_181() {
        // The first proposer block (a StatelessBlock) has no epoch: its child opens epoch 1
        // at its time and P-chain height.
        let first = Tip {
            id: Id::ZERO,
            timestamp: 1_000,
            p_chain_height: 0,
            epoch: Epoch::default(),
            post_fork: true,
        };
        let e1 = first.child_epoch();
        assert_eq!((e1.number, e1.start, e1.p_chain_height), (1, 1_000, 0));
        let t1 = Tip {
            id: Id::ZERO,
            timestamp: 1_005,
            p_chain_height: 3,
            epoch: e1,
            post_fork: true,
        };
        // Within 30 s of the epoch's start the parent does not seal it.
        assert_eq!(t1.child_epoch(), e1);
        // A parent at or past the end seals it: the child opens the next one.
        let t2 = Tip {
            timestamp: 1_030,
            ..t1
        };
        let e2 = t2.child_epoch();
        assert_eq!((e2.number, e2.start, e2.p_chain_height), (2, 1_030, 3));
    }
}
