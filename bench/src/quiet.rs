//! Keeping other processes' load out of the figures, within bounds: before each figure, wait
//! (a little) for the machine to be quiet; after it, if other processes used more than a
//! threshold of CPU while it was measured, measure it again (a limited number of times over
//! the run) and keep the attempt they disturbed least.

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

use crate::sys::{clock_ticks, machine_busy_ticks, process_ticks, self_ticks};

pub struct Quiet {
    /// Other processes' load, in cores, below which the machine counts as quiet.
    pub threshold: f64,
    /// Longest wait before one figure.
    pub per_wait: Duration,
    wait_left: Cell<Duration>,
    waited: Cell<Duration>,
    retries_left: Cell<u32>,
    retried: Cell<u32>,
    /// Other processes' load while each kept figure was measured, in cores.
    during: RefCell<Vec<f64>>,
}

/// A reading of the CPU time used by everything but us.
pub struct Snapshot {
    at: Instant,
    foreign_ticks: u64,
}

impl Quiet {
    pub fn new(threshold: f64, per_wait: Duration, total_wait: Duration, retries: u32) -> Quiet {
        Quiet {
            threshold,
            per_wait,
            wait_left: Cell::new(total_wait),
            waited: Cell::new(Duration::ZERO),
            retries_left: Cell::new(retries),
            retried: Cell::new(0),
            during: RefCell::new(Vec::new()),
        }
    }

    /// CPU ticks used by all processes but this one and `ours`, so far.
    pub fn snapshot(&self, ours: &[u32]) -> Option<Snapshot> {
        let mut own = self_ticks().ok()?;
        for &pid in ours {
            own += process_ticks(pid).ok()?;
        }
        Some(Snapshot {
            at: Instant::now(),
            foreign_ticks: machine_busy_ticks().ok()?.saturating_sub(own),
        })
    }

    /// Other processes' load since `start`, in cores.
    pub fn since(&self, start: &Option<Snapshot>, ours: &[u32]) -> f64 {
        match (start, self.snapshot(ours)) {
            (Some(a), Some(b)) => {
                let secs = (b.at - a.at).as_secs_f64().max(1e-3);
                b.foreign_ticks.saturating_sub(a.foreign_ticks) as f64 / clock_ticks() / secs
            }
            _ => f64::NAN,
        }
    }

    /// Waits until other processes use less than the threshold over 0.3 s, at most
    /// `per_wait` and what is left of the run's total.
    pub fn wait(&self, ours: &[u32]) {
        let budget = self.per_wait.min(self.wait_left.get());
        let start = Instant::now();
        let mut told = false;
        loop {
            let a = self.snapshot(ours);
            std::thread::sleep(Duration::from_millis(300));
            let cores = self.since(&a, ours);
            // NaN (no reading) counts as quiet.
            if cores.is_nan() || cores < self.threshold || start.elapsed() >= budget {
                break;
            }
            if !told {
                println!(
                    "    (other processes use {cores:.2} cores; waiting up to {:.0} s)",
                    budget.as_secs_f64()
                );
                told = true;
            }
        }
        let waited = start.elapsed();
        self.wait_left
            .set(self.wait_left.get().saturating_sub(waited));
        self.waited.set(self.waited.get() + waited);
    }

    /// Whether a figure measured while other processes used `foreign` cores is to be measured
    /// again (using up one retry).
    pub fn retry(&self, foreign: f64) -> bool {
        if foreign >= self.threshold && self.retries_left.get() > 0 {
            self.retries_left.set(self.retries_left.get() - 1);
            self.retried.set(self.retried.get() + 1);
            println!("    (other processes used {foreign:.2} cores meanwhile; measuring again)");
            true
        } else {
            false
        }
    }

    /// Records the load during a kept figure.
    pub fn keep(&self, foreign: f64) {
        self.during.borrow_mut().push(foreign);
    }

    /// Waits, measures `f`, and measures again while disturbed (within the retry budget);
    /// returns the least disturbed figure.
    pub fn measure<T>(&self, ours: &[u32], mut f: impl FnMut() -> T) -> T {
        // One figure and the load of other processes while it was measured.
        let mut once = || {
            self.wait(ours);
            let start = self.snapshot(ours);
            let value = f();
            (value, self.since(&start, ours))
        };
        let mut best = once();
        while self.retry(best.1) {
            let next = once();
            if next.1 < best.1 {
                best = next;
            }
        }
        self.keep(best.1);
        best.0
    }

    /// A note for the table.
    pub fn summary(&self) -> Option<String> {
        let during = self.during.borrow();
        if during.is_empty() {
            return None;
        }
        let s = crate::report::summarize(&during);
        Some(format!(
            "Other processes' load while the figures were measured: median {:.2} cores, max {:.2} \
             (before each figure the suite waited up to {:.0} s for it to drop below {} cores, \
             {:.0} s in all; {} figure(s) were measured again because it did not).",
            s.median,
            s.max,
            self.per_wait.as_secs_f64(),
            self.threshold,
            self.waited.get().as_secs_f64(),
            self.retried.get()
        ))
    }
}
