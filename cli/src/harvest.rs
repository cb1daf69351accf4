//! Values a node's replies give, by member name, for the params of later calls: what
//! `conformance` sends each method, and what `call METHOD --help` fills its example with. An
//! address is rewritten to the chain of the path it is sent to; some members give more than
//! their text (a block's ID from its bytes, the transactions that produced UTXOs, the C-chain
//! exports an X-chain import spends, the validation ID of a converted Subnet's first
//! validator).
//!
//! The API page's Try it forms harvest the same way in JavaScript
//! (`codegen/src/html/try.js`, `harvest`).

use serde_json::Value;
use std::collections::BTreeMap;

/// The chain a path serves (`/ext/bc/X` and `/ext/index/X/block`: `X`), or "" for node-wide
/// paths (`/ext/info`).
pub fn chain_of(path: &str) -> &str {
    let rest = path
        .strip_prefix("/ext/bc/")
        .or_else(|| path.strip_prefix("/ext/index/"))
        .unwrap_or("");
    rest.split('/').next().unwrap_or("")
}

/// The C-chain exports the X-chain imports in `bytes` spend: `bytes` an X transaction, an X
/// block, or a proposer block wrapping one; an import whose source is neither the X- nor the
/// P-chain (whose ID is all zeros) imports from the C-chain.
fn exports_from_c(bytes: &[u8]) -> Vec<avalanche_rpc::wire::Id> {
    use avalanche_rpc::codec::{avm, proposervm};
    let txs: Vec<avm::Tx> = if let Ok(tx) = avm::Tx::from_bytes(bytes) {
        vec![tx]
    } else {
        let inner = proposervm::Block::from_bytes(bytes)
            .ok()
            .and_then(|p| p.block().cloned());
        match avm::Block::from_bytes(inner.as_deref().unwrap_or(bytes)) {
            Ok(avm::Block::StandardBlock(b)) => b.txs.clone(),
            _ => Vec::new(),
        }
    };
    txs.iter()
        .filter_map(|tx| match &tx.unsigned {
            avm::UnsignedTx::ImportTx(i) if i.source_chain != avalanche_rpc::wire::Id::ZERO => {
                Some(i.imported_inputs.iter().map(|input| input.utxo_id.tx_id))
            }
            _ => None,
        })
        .flatten()
        .collect()
}

/// Values earlier replies gave, by member name, each with the path of the reply; at most
/// [`Harvest::PER_NAME`] a name at one path.
#[derive(Default)]
pub struct Harvest(BTreeMap<String, Vec<(String, Value)>>);

impl Harvest {
    const PER_NAME: usize = 8;

    pub fn add(&mut self, name: &str, path: &str, v: Value) {
        let list = self.0.entry(name.to_string()).or_default();
        let at_path = list.iter().filter(|(p, _)| p == path).count();
        if at_path < Self::PER_NAME && !list.iter().any(|(p, x)| p == path && *x == v) {
            list.push((path.to_string(), v));
        }
    }

    /// Every scalar and list-of-text member of `v` by name; and what a member gives: the ID
    /// of a block (`block`: SHA-256 of its bytes), the transaction that produced each UTXO
    /// (`utxos`: a UTXO's bytes start with its codec version and that ID), the C-chain's
    /// atomic exports an X-chain import from C spends (`tx`, `bytes`: an X transaction, its
    /// source chain neither X nor P, given at the C-chain's `avax` path), and the validation
    /// of a Subnet's first validator once it is an L1 (`subnetID`: the validation ID of the
    /// i-th validator of a ConvertSubnetToL1Tx is SHA-256 of the Subnet ID and i as 4 bytes,
    /// ACP-77).
    pub fn collect(&mut self, v: &Value, chain: &str) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    match x {
                        Value::String(_) | Value::Number(_) => self.add(k, chain, x.clone()),
                        Value::Array(items)
                            if items.iter().all(|i| i.is_string()) && !items.is_empty() =>
                        {
                            self.add(k, chain, x.clone())
                        }
                        _ => {}
                    }
                    let bytes = |t: &Value| {
                        avalanche_rpc::wire::Encoding::Hex
                            .decode(t.as_str().unwrap_or_default())
                            .ok()
                            .filter(|b| !b.is_empty())
                    };
                    if k == "block"
                        && let Some(b) = bytes(x)
                    {
                        let id = avalanche_rpc::wire::Id::from_sha256(&b);
                        self.add("blockID", chain, Value::String(id.to_string()));
                    }
                    if k == "subnetID"
                        && let Some(id) = x
                            .as_str()
                            .and_then(|t| t.parse::<avalanche_rpc::wire::Id>().ok())
                        && id != avalanche_rpc::wire::Id::ZERO
                    {
                        let mut b = id.as_bytes().to_vec();
                        b.extend_from_slice(&0u32.to_be_bytes());
                        let validation = avalanche_rpc::wire::Id::from_sha256(&b);
                        self.add("validationID", chain, Value::String(validation.to_string()));
                    }
                    // An X-chain import from the C-chain (in an X transaction's or block's
                    // bytes: `avm.getTx`, `avm.getBlock…`, the X-chain's index) names the
                    // C-chain's atomic exports it spends: IDs `avax.getAtomicTx` answers.
                    if matches!(k.as_str(), "tx" | "bytes" | "block")
                        && matches!(chain_of(chain), "X")
                        && let Some(b) = bytes(x)
                    {
                        for id in exports_from_c(&b) {
                            self.add("txID", "/ext/bc/C/avax", Value::String(id.to_string()));
                        }
                    }
                    if k == "utxos" {
                        for u in x.as_array().into_iter().flatten().filter_map(bytes) {
                            if let Some(id) = u.get(2..34) {
                                let id =
                                    avalanche_rpc::wire::Id::new(id.try_into().expect("32 bytes"));
                                self.add("txID", chain, Value::String(id.to_string()));
                            }
                        }
                    }
                    self.collect(x, chain);
                }
            }
            Value::Array(items) => items.iter().for_each(|i| self.collect(i, chain)),
            _ => {}
        }
    }

    /// The values for `name` a call at `path` may take: those from replies at the same path
    /// first, then from the same chain, then (unless `own_chain_only`) the rest; an address of another chain
    /// (`P-local1…`) is given as the same address on the path's chain.
    pub fn candidates(&self, name: &str, path: &str, own_chain_only: bool) -> Vec<Value> {
        let Some(list) = self.0.get(name) else {
            return Vec::new();
        };
        let chain = chain_of(path);
        let rank = |p: &str| {
            if p == path {
                0
            } else if chain_of(p) == chain {
                1
            } else {
                2
            }
        };
        let mut ranked: Vec<&(String, Value)> = list
            .iter()
            .filter(|(p, _)| !own_chain_only || rank(p) < 2)
            .collect();
        ranked.sort_by_key(|(p, _)| rank(p));
        let mut out: Vec<Value> = Vec::new();
        for (_, v) in ranked {
            let v = on_chain(v, chain);
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }
}

/// `v` with every address of another chain (`P-local1…`) written for `chain`.
pub fn on_chain(v: &Value, chain: &str) -> Value {
    let address = |t: &str| {
        let (alias, rest) = t.split_once('-')?;
        let is_address = matches!(alias, "X" | "P" | "C")
            && rest.contains('1')
            && rest
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        (is_address && matches!(chain, "X" | "P" | "C") && alias != chain)
            .then(|| format!("{chain}-{rest}"))
    };
    match v {
        Value::String(t) => address(t).map_or_else(|| v.clone(), Value::String),
        Value::Array(items) => Value::Array(items.iter().map(|i| on_chain(i, chain)).collect()),
        _ => v.clone(),
    }
}
