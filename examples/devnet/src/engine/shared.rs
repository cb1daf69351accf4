//! What every chain's lane and the block tail share: the [`Engine`] (store, clock, index
//! flag, the builder's lock) and a [`Sealed`] block.

use crate::clock::Clock;
use crate::store::Store;
use std::sync::{Mutex, MutexGuard};

/// What every chain shares: the store, the clock, the index flag, the builder's lock and
/// its wake-up.
pub struct Engine {
    pub store: Store,
    pub clock: Clock,
    /// Accepted blocks are indexed (`--index-enabled`).
    pub indexing: bool,
    /// Held while blocks are written, so they are written one at a time (and a snapshot
    /// never sees half of one).
    pub building: Mutex<()>,
    /// Wakes the block builder.
    pub wake: tokio::sync::Notify,
}

impl Engine {
    pub fn new(store: Store, clock: Clock, indexing: bool) -> Engine {
        Engine {
            store,
            clock,
            indexing,
            building: Mutex::default(),
            wake: tokio::sync::Notify::new(),
        }
    }

    /// The builder's lock: one block at a time.
    pub fn one_at_a_time(&self) -> MutexGuard<'_, ()> {
        self.building.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A block its chain's VM has sealed: its bytes, height and time, ready for the engine's tail
/// (stored, wrapped in its proposer block, indexed).
pub struct Sealed {
    /// The block's bytes, as its chain's VM encodes it.
    pub bytes: Vec<u8>,
    pub height: u64,
    /// Its time, Unix seconds (the proposervm wrapper's too).
    pub time: u64,
}
