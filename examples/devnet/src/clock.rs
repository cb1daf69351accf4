//! The devnet's clock: the system's, moved forward by however much it was advanced.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

#[derive(Debug, Default)]
pub struct Clock {
    /// Seconds added to the system clock.
    advanced: AtomicU64,
}

impl Clock {
    /// Unix nanoseconds.
    pub fn now_ns(&self) -> u64 {
        let system = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        system.saturating_add(
            self.advanced
                .load(Ordering::Relaxed)
                .saturating_mul(1_000_000_000),
        )
    }

    /// Unix seconds.
    pub fn now(&self) -> u64 {
        self.now_ns() / 1_000_000_000
    }

    /// How far the clock has been advanced, in seconds.
    pub fn advanced(&self) -> u64 {
        self.advanced.load(Ordering::Relaxed)
    }

    /// Sets how far the clock is advanced (from the store, or after an advance).
    pub fn set_advanced(&self, seconds: u64) {
        self.advanced.store(seconds, Ordering::Relaxed);
    }
}
