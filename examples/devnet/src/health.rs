//! The devnet's health checks, as the node's (`api/health`): three sets (readiness, health,
//! liveness), each check with tags, filtered by tags as the node's worker does
//! (`api/health/worker.go`, `Results`).
//!
//! - readiness: `bootstrapped` (tag `application`): fails, with the Primary Network's ID as
//!   the Subnets still bootstrapping, until the devnet has started (its store opened, genesis
//!   and the start history written, the block builder running), then passes for good.
//! - health: `bootstrapped` (the same, tag `application`) and one check per chain, `C`, `P`,
//!   `X` (tag: the Primary Network's Subnet ID), once started: the chain's last accepted
//!   height, its block tail written (the proposervm wrapper stored at that height, and the
//!   index caught up to it when indexing is on), and the store writable (a write transaction
//!   opened and committed). Before the devnet has started there are no chain checks, as the
//!   node has none before it creates its chains.
//! - liveness: none, as the node (v1.14.2) registers none: always healthy.
//!
//! Unlike the node, which runs its checks every 30 s and reports the last run, the devnet
//! runs them when asked: `timestamp` is the time of the answer.

use crate::devnet::Devnet;
use crate::ledger::{self, Chain};
use crate::store;
use avalanche_rpc::health::HealthCheck;
use avalanche_rpc::wire::{Id, Timestamp};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, OnceLock};

/// The tag every check has.
pub const ALL_TAG: &str = "all";
/// The tag of checks that are in every answer.
pub const APPLICATION_TAG: &str = "application";

/// Which set of checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Set {
    Readiness,
    Health,
    Liveness,
}

/// The devnet's health: whether it has started, and each failing check's run of failures.
#[derive(Default)]
pub struct Health {
    devnet: OnceLock<Arc<Devnet>>,
    /// Per set and check: how many answers in a row it failed, and when the first of them was.
    failures: Mutex<BTreeMap<(Set, String), (u64, Timestamp)>>,
}

/// One check's outcome before bookkeeping: its message and its error.
struct Outcome {
    tags: Vec<String>,
    message: Option<Value>,
    error: Option<String>,
}

impl Health {
    /// The devnet has started: readiness passes from now on, and the chain checks run.
    pub fn started(&self, devnet: Arc<Devnet>) {
        let _ = self.devnet.set(devnet);
    }

    /// The devnet, once started.
    pub fn devnet(&self) -> Option<&Arc<Devnet>> {
        self.devnet.get()
    }

    /// The checks of `set` that `tags` select, and whether all of them pass. As the node:
    /// no tags means every check (the tag `all`); the checks tagged `application` are always
    /// in.
    pub fn results(&self, set: Set, tags: &[String]) -> (BTreeMap<String, HealthCheck>, bool) {
        let mut wanted: BTreeSet<&str> = tags.iter().map(String::as_str).collect();
        if wanted.is_empty() {
            wanted.insert(ALL_TAG);
        }
        wanted.insert(APPLICATION_TAG);
        let mut out = BTreeMap::new();
        let mut healthy = true;
        for (name, check) in self.checks(set) {
            let selected = check
                .tags
                .iter()
                .map(String::as_str)
                .chain([ALL_TAG])
                .any(|t| wanted.contains(t));
            if !selected {
                continue;
            }
            let start = std::time::Instant::now();
            let result = self.record(set, &name, check, start);
            healthy &= result.error.is_none();
            out.insert(name, result);
        }
        (out, healthy)
    }

    /// Every check of `set`, run now.
    fn checks(&self, set: Set) -> Vec<(String, Outcome)> {
        let devnet = self.devnet.get();
        let mut checks = Vec::new();
        if set == Set::Liveness {
            return checks;
        }
        let bootstrapped = match devnet {
            Some(_) => Outcome {
                tags: vec![APPLICATION_TAG.into()],
                message: Some(Value::Array(vec![])),
                error: None,
            },
            None => Outcome {
                tags: vec![APPLICATION_TAG.into()],
                message: Some(Value::Array(vec![Value::String(Id::ZERO.to_string())])),
                error: Some("subnets not bootstrapped".into()),
            },
        };
        checks.push(("bootstrapped".to_string(), bootstrapped));
        if set == Set::Health
            && let Some(d) = devnet
        {
            for (chain, name) in [(Chain::C, "C"), (Chain::P, "P"), (Chain::X, "X")] {
                let (message, error) = match chain_check(d, chain) {
                    Ok(m) => (Some(m), None),
                    Err(e) => (None, Some(e)),
                };
                checks.push((
                    name.to_string(),
                    Outcome {
                        tags: vec![Id::ZERO.to_string()],
                        message,
                        error,
                    },
                ));
            }
        }
        checks
    }

    /// A check's result with its run of failures kept up to date.
    fn record(&self, set: Set, name: &str, o: Outcome, start: std::time::Instant) -> HealthCheck {
        let now = wall_clock();
        let mut r = HealthCheck::new(now.clone(), start.elapsed().as_nanos() as u64);
        if let Some(m) = o.message {
            r = r.with_message(m);
        }
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let key = (set, name.to_string());
        match o.error {
            None => {
                failures.remove(&key);
            }
            Some(e) => {
                let entry = failures.entry(key).or_insert((0, now));
                entry.0 += 1;
                r = r
                    .with_error(e)
                    .with_contiguous_failures(entry.0)
                    .with_time_of_first_failure(entry.1.clone());
            }
        }
        r
    }
}

/// The wall clock (not the devnet's advanced clock), with nanoseconds, as the node stamps a
/// check's run.
fn wall_clock() -> Timestamp {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    Timestamp::from_unix(now.as_secs() as i64, now.subsec_nanos())
}

/// A chain's check: its last accepted height, the block tail written for it, the store
/// writable. The error names what is wrong.
fn chain_check(d: &Devnet, chain: Chain) -> Result<Value, String> {
    let w = d
        .engine
        .store
        .write()
        .map_err(|e| format!("the store is not writable: {e}"))?;
    let (height, _) = ledger::last_block(
        &w.open_table(store::BLOCKS)
            .map_err(|e| format!("the store cannot be read: {e}"))?,
        chain,
    )
    .map_err(|e| format!("the last accepted block cannot be read: {e}"))?;
    let wrapped = ledger::proposer_in(&w, chain, height)
        .map_err(|e| format!("the block tail cannot be read: {e}"))?
        .is_some()
        || height == 0;
    if !wrapped {
        return Err(format!(
            "the block tail is not written: no proposervm block at height {height}"
        ));
    }
    let indexed = if d.engine.indexing {
        let key = match chain {
            Chain::X => store::Meta::X_INDEXED_HEIGHT,
            Chain::P => store::Meta::P_INDEXED_HEIGHT,
            Chain::C => store::Meta::C_INDEXED_HEIGHT,
        };
        let h = store::meta_u64(&w, key)
            .map_err(|e| format!("the indexed height cannot be read: {e}"))?
            .unwrap_or(0);
        if h < height {
            return Err(format!(
                "the block tail is not written: indexed up to height {h}, accepted {height}"
            ));
        }
        Some(h)
    } else {
        None
    };
    w.commit()
        .map_err(|e| format!("the store is not writable: {e}"))?;
    let mut m = serde_json::Map::new();
    m.insert("bootstrapped".into(), Value::Bool(true));
    m.insert("height".into(), Value::from(height));
    m.insert("tailWritten".into(), Value::Bool(true));
    if let Some(h) = indexed {
        m.insert("indexedHeight".into(), Value::from(h));
    }
    m.insert("storeWritable".into(), Value::Bool(true));
    Ok(Value::Object(m))
}
