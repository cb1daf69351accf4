//! Values a node's replies give, by member name, for the params of later calls: what
//! `conformance` sends each method, and what `call METHOD --help` fills its example with. An
//! address is rewritten to the chain of the path it is sent to; some members give more than
//! their text (a block's ID from its bytes, the transactions that produced UTXOs, the C-chain
//! exports an X-chain import spends, the validation ID of a converted Subnet's first
//! validator).
//!
//! The API page's Try it forms harvest the same way in JavaScript
//! (`codegen/src/html/harvest.js`).

use avalanche_rpc::METHODS;
use avalanche_rpc::rpc::{JsonKind, MethodInfo, ParamInfo, Transport};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::time::Instant;

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

/// A method's paths: each variable at its default (else its first example) first, then at
/// its other examples (`/ext/index/X/tx`, `/ext/index/X/block`, …, `/ext/index/C/vtx`).
pub fn paths(m: &MethodInfo) -> Vec<String> {
    let mut paths = vec![m.path.to_string()];
    for v in m.path_params {
        let mut values: Vec<&str> = v.default.into_iter().collect();
        values.extend(v.examples.iter().filter(|x| Some(**x) != v.default));
        let var = format!("{{{}}}", v.name);
        paths = paths
            .iter()
            .flat_map(|p| {
                values
                    .iter()
                    .map(|x| p.replace(&var, x))
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    paths
}

/// The value of each of `m`'s path variables in `path`, one of [`paths`]`(m)`.
pub fn path_values(m: &MethodInfo, path: &str) -> BTreeMap<&'static str, String> {
    let mut out = BTreeMap::new();
    for (t, p) in m.path.split('/').zip(path.split('/')) {
        if let Some(name) = t.strip_prefix('{').and_then(|t| t.strip_suffix('}'))
            && let Some(v) = m.path_params.iter().find(|v| v.name == name)
        {
            out.insert(v.name, p.to_string());
        }
    }
    out
}

/// What a node's replies gave: the values by name, and the paths at which a method that
/// needs no argument answered, in the order of [`paths`] (an empty index answers only
/// errors: `/ext/index/X/tx` on a network whose X-chain was linearized at its start).
pub struct Harvested {
    pub values: Harvest,
    pub served: Vec<String>,
}

impl Harvested {
    /// The path to call `m` at: the first of its paths at which the node answered, else
    /// its first.
    pub fn path(&self, m: &MethodInfo) -> String {
        let all = paths(m);
        all.iter()
            .find(|p| self.served.contains(p))
            .unwrap_or(&all[0])
            .clone()
    }
}

/// The form of a value, for telling whether a harvested value may stand for an example's: an
/// address (its chain alias kept: `X-…` and `P-…` are one form), `0x` hex of its length, a
/// decimal number (string or not), a CB58 ID or `NodeID-…`; any other text is its own form
/// (`latest`, `hex`), so it is never replaced. A list has the form of its first element.
pub fn form(v: &Value) -> String {
    match v {
        Value::Array(items) => items.first().map_or_else(|| "[]".into(), form),
        Value::Number(_) => "decimal".into(),
        Value::String(t) => {
            let base58 = |s: &str| {
                s.len() >= 40
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() && !b"0OIl".contains(&b))
            };
            if let Some(hex) = t.strip_prefix("0x") {
                format!("hex{}", hex.len())
            } else if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
                "decimal".into()
            } else if t.starts_with("NodeID-") {
                "node".into()
            } else if let Some((alias, rest)) = t.split_once('-')
                && matches!(alias, "X" | "P" | "C")
                && rest.contains('1')
            {
                "address".into()
            } else if base58(t) {
                "id".into()
            } else {
                format!("text:{t}")
            }
        }
        other => format!("json:{other}"),
    }
}

/// The value of `p` a call of `m` at `path` takes from the harvest: the first candidate of its
/// name (a list param also takes one of its singular name's, as a list of one: `addresses`
/// from `address`), written as the param's JSON kind (`"5"` for a string param given `5`),
/// of the same [`form`] as `example` when there is one, that `m`'s params type accepts
/// alongside `others`.
/// With `own_chain_only`, only values replies of the path's chain gave (or of the node as a
/// whole, `/ext/info`).
pub fn value_for(
    harvest: &Harvest,
    m: &MethodInfo,
    p: &ParamInfo,
    path: &str,
    example: Option<&Value>,
    others: &Map<String, Value>,
    own_chain_only: bool,
) -> Option<Value> {
    let mut found: Vec<Value> = harvest
        .candidates(p.name, path, own_chain_only)
        .into_iter()
        .map(|v| as_kind(p.kind, v))
        .collect();
    if p.kind == JsonKind::Array
        && let Some(one) = p.name.strip_suffix('s')
    {
        let item = p.items.unwrap_or(JsonKind::Any);
        found.extend(
            harvest
                .candidates(one, path, own_chain_only)
                .into_iter()
                .filter(|v| !v.is_array())
                .map(|v| Value::Array(vec![as_kind(item, v)])),
        );
    }
    // The params type decodes it; a problem elsewhere (a required param not yet given) is
    // not this value's.
    let own = |path: &str| {
        path.strip_prefix(p.name)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
    };
    found.into_iter().find(|v| {
        let mut params = others.clone();
        params.insert(p.name.to_string(), v.clone());
        example.is_none_or(|e| form(e) == form(v))
            && m.roundtrip_params(&Value::Object(params))
                .map_or_else(|e| !own(&e.path), |_| true)
    })
}

/// `v` as JSON of `kind` where it says the same: a number as a decimal string, a decimal
/// string as a number.
fn as_kind(kind: JsonKind, v: Value) -> Value {
    match (kind, &v) {
        (JsonKind::String, Value::Number(n)) => Value::String(n.to_string()),
        (JsonKind::Number, Value::String(s)) => s
            .parse::<u64>()
            .map_or(v.clone(), |n| Value::Number(n.into())),
        _ => v,
    }
}

/// Calls the methods of the catalog that only read, in rounds: first those that need no
/// argument (at each of their paths), then those whose required params earlier replies
/// gave (at the first path that answered), and harvests every result. Stops after
/// [`ROUNDS`] rounds, once `enough` says the harvest holds what is wanted (asked after each round), or
/// at `deadline`. `Err` when the node does not answer the first call.
pub const ROUNDS: usize = 4;

pub async fn from_node<T: Transport>(
    transport: &T,
    enough: impl Fn(&Harvested) -> bool,
    deadline: Instant,
) -> Result<Harvested, String> {
    let mut h = Harvested {
        values: Harvest::default(),
        served: Vec::new(),
    };
    let mut answered: Vec<&str> = Vec::new();
    let mut id = 0u64;
    for round in 0..ROUNDS {
        let mut called = false;
        for m in METHODS.iter().filter(|m| !m.changes_state) {
            if answered.contains(&m.name) || Instant::now() >= deadline {
                continue;
            }
            let needs = m.params.iter().any(|p| !p.optional);
            if needs == (round == 0) {
                continue;
            }
            let at = if needs { vec![h.path(m)] } else { paths(m) };
            for path in at {
                let mut params = Map::new();
                let mut missing = false;
                let example = m.examples.first().map(|e| e.params());
                for p in m.params.iter().filter(|p| !p.optional) {
                    // From the third round, the spec's example for what no reply gave (a
                    // chain's alias for `info.getBlockchainID`).
                    let fallback = example
                        .as_ref()
                        .and_then(|e| e.get(p.name))
                        .filter(|_| round >= 2)
                        .cloned();
                    // A value of the path's chain first, else any.
                    let v = value_for(&h.values, m, p, &path, None, &params, true)
                        .or_else(|| value_for(&h.values, m, p, &path, None, &params, false));
                    match v.or(fallback) {
                        Some(v) => {
                            params.insert(p.name.to_string(), v);
                        }
                        None => missing = true,
                    }
                }
                if missing {
                    continue;
                }
                id += 1;
                called = true;
                let params = m.wire_params(Value::Object(params));
                let body = json!({"jsonrpc": "2.0", "id": id, "method": m.name, "params": params});
                let reply = match transport.post(&path, body.to_string().into_bytes()).await {
                    Ok(r) => r,
                    Err(e) if id == 1 => return Err(e.to_string()),
                    Err(_) => continue,
                };
                let Ok(reply) = serde_json::from_slice::<Value>(&reply.body) else {
                    continue;
                };
                if let Some(result) = reply.get("result") {
                    h.values.collect(result, &path);
                    if !answered.contains(&m.name) {
                        answered.push(m.name);
                    }
                    if !needs && !h.served.contains(&path) {
                        h.served.push(path);
                    }
                }
            }
        }
        if enough(&h) || (round > 0 && !called) {
            break;
        }
    }
    Ok(h)
}

/// An unsigned Warp message like `example` (codec version 0, network ID, source chain ID,
/// payload: the bytes `devnet.signWarpMessage` signs) for the node's network: its network ID
/// and source chain (a `blockchainID` its replies gave) put in, the payload kept. `None`
/// when `example` is not such a message or the harvest lacks either.
pub fn warp_message(h: &Harvest, example: &Value) -> Option<Value> {
    let hex = example.as_str()?.strip_prefix("0x")?;
    if hex.len() < 2 * (2 + 4 + 32) || !hex.starts_with("0000") {
        return None;
    }
    let network: u32 = match h.candidates("networkID", "/ext/info", false).first()? {
        Value::String(s) => s.parse().ok()?,
        Value::Number(n) => u32::try_from(n.as_u64()?).ok()?,
        _ => return None,
    };
    let chain: avalanche_rpc::wire::Id = h
        .candidates("blockchainID", "/ext/info", false)
        .first()?
        .as_str()?
        .parse()
        .ok()?;
    let bytes: String = chain
        .as_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Some(Value::String(format!(
        "0x0000{network:08x}{bytes}{}",
        &hex[2 * (2 + 4 + 32)..]
    )))
}
