//! What the run found: counts by outcome, per-kind figures, the unexplained replies.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::normalize::{self, Outcome};
use crate::txs::{self, Issued};

/// Figures of one transaction kind.
#[derive(Default)]
pub struct KindStats {
    pub valid: usize,
    pub mutated: usize,
    pub disagreements: usize,
    /// (node, devnet) nAVAX the funded key's holdings fell by.
    pub fees: Vec<(i128, i128)>,
}

/// Everything the run found.
#[derive(Default)]
pub struct Report {
    documented_keys: Vec<String>,
    pub identical: usize,
    pub normalized: usize,
    pub documented: BTreeMap<String, usize>,
    pub unexplained: Vec<(String, Value, Value)>,
    pub disagreements: Vec<(String, String, String)>,
    pub fee_mismatches: Vec<(String, i128, i128)>,
    pub kinds: BTreeMap<String, KindStats>,
    pub reads: usize,
}

impl Report {
    pub fn new() -> Report {
        Report {
            documented_keys: normalize::documented_keys(include_str!("../DIFFERENCES.md")),
            ..Default::default()
        }
    }

    /// Compares one reply pair under `key` (`method case`).
    pub fn compare(&mut self, key: &str, node: &Value, devnet: &Value) -> Outcome {
        let o = normalize::compare(&self.documented_keys, key, node, devnet);
        match &o {
            Outcome::Identical => self.identical += 1,
            Outcome::Normalized => self.normalized += 1,
            Outcome::Documented(d) => *self.documented.entry(d.clone()).or_default() += 1,
            Outcome::Unexplained => {
                println!(
                    "  UNEXPLAINED {key}\n    node:   {}\n    devnet: {}",
                    short(node),
                    short(devnet)
                );
                self.unexplained
                    .push((key.to_string(), node.clone(), devnet.clone()))
            }
        }
        o
    }

    /// Records an issue of kind `kind`: agreement and the replies.
    pub fn issued(&mut self, kind: &str, valid: bool, i: &Issued) {
        let s = self.kinds.entry(kind.to_string()).or_default();
        if valid {
            s.valid += 1;
        } else {
            s.mutated += 1;
        }
        if i.node_accepted() != i.devnet_accepted() {
            s.disagreements += 1;
            println!(
                "  DISAGREE {}: node {}, devnet {}",
                i.key,
                txs::verdict(&i.node),
                txs::verdict(&i.devnet)
            );
            self.disagreements.push((
                i.key.clone(),
                txs::verdict(&i.node),
                txs::verdict(&i.devnet),
            ));
        }
        self.compare(&i.key, &i.node, &i.devnet);
    }

    pub fn fee(&mut self, kind: &str, node: i128, devnet: i128) {
        self.kinds
            .entry(kind.to_string())
            .or_default()
            .fees
            .push((node, devnet));
        if node != devnet {
            println!("  FEE MISMATCH {kind}: node {node}, devnet {devnet}");
            self.fee_mismatches.push((kind.to_string(), node, devnet));
        }
    }

    pub fn print(&self) -> bool {
        println!(
            "\n== transactions (valid / mutated, accept-refuse disagreements, holdings fell by node / devnet)"
        );
        let (mut v, mut m) = (0, 0);
        for (k, s) in &self.kinds {
            v += s.valid;
            m += s.mutated;
            let fees: Vec<String> = s
                .fees
                .iter()
                .map(|(n, d)| {
                    if n == d {
                        format!("{n}")
                    } else {
                        format!("{n}/{d}")
                    }
                })
                .collect();
            println!(
                "  {k:<40} {:>2} valid {:>3} mutated {:>2} disagreements  fee {}",
                s.valid,
                s.mutated,
                s.disagreements,
                fees.join(", ")
            );
        }
        println!("  total: {} transactions ({v} valid, {m} mutated)", v + m);
        println!("\n== normalization rules (src/normalize.rs)");
        for r in normalize::RULES {
            println!(
                "  {} `{}` ({:?}): {}",
                r.methods,
                r.member,
                r.treat,
                r.why.split_whitespace().collect::<Vec<_>>().join(" ")
            );
        }
        println!("\n== documented differences (DIFFERENCES.md)");
        for (k, n) in &self.documented {
            println!("  {n:>4}  {k}");
        }
        println!("\n== unexplained");
        for (k, n, d) in &self.unexplained {
            println!("  {k}\n    node:   {}\n    devnet: {}", short(n), short(d));
        }
        println!(
            "\n== replies: {} identical, {} identical after normalization, {} documented, {} unexplained ({} reads)",
            self.identical,
            self.normalized,
            self.documented.values().sum::<usize>(),
            self.unexplained.len(),
            self.reads
        );
        println!(
            "== accept/refuse disagreements: {}; fee mismatches: {}",
            self.disagreements.len(),
            self.fee_mismatches.len()
        );
        self.unexplained.is_empty()
            && self.disagreements.is_empty()
            && self.fee_mismatches.is_empty()
    }
}

/// A reply shortened for the report.
pub fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 600 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(600).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s
    }
}
