//! Reads: every method of the spec's `info`, `platform`, `avm`, `index`, `proposervm`,
//! `avax` (the C-chain's atomic side) and `eth` (its five calls, positional params)
//! interfaces (the catalog `avalanche_rpc::METHODS`, less what the node no longer serves and
//! `issueTx`, which the transactions cover), with valid params drawn from what the writes
//! produced, then with each kind of bad param the spec's types can express, as raw JSON.

use avalanche_rpc::METHODS;
use avalanche_rpc::rpc::JsonKind;
use serde_json::{Map, Value, json};

use crate::report::Report;
use crate::rpc::{Side, path_of};
use crate::scenario::Written;

fn s(v: impl ToString) -> Value {
    Value::String(v.to_string())
}

/// The genesis block IDs of X and P, as the node answers them (`null` if it does not).
struct Genesis {
    x: Value,
    p: Value,
}

/// The valid cases of a method: (case, params). The genesis cases (`genesis-*`) read the
/// genesis blocks, which two networks with one genesis share byte for byte.
fn valid(method: &str, w: &Written, g: &Genesis) -> Vec<(String, Value)> {
    let x_tx = w.x_txs.first().map(s).unwrap_or(Value::Null);
    let p_tx = w.p_txs.last().map(s).unwrap_or(Value::Null);
    let c_tx = w.c_txs.first().map(s).unwrap_or(Value::Null);
    let subnet = w.subnet.map(s).unwrap_or(Value::Null);
    let chain = w.chain.map(s).unwrap_or(Value::Null);
    let primary = s("11111111111111111111111111111111LpoYY");
    let me = s(&w.me);
    let me_p = s(&w.me_p);
    let one = |p: Value| vec![("valid".to_string(), p)];
    let enc_as = |case: &str, p: Value| {
        ["hex", "json"]
            .iter()
            .map(|e| {
                let mut q = p.clone();
                q["encoding"] = s(e);
                (format!("{case}-{e}"), q)
            })
            .collect::<Vec<_>>()
    };
    let enc = |p: Value| enc_as("valid", p);
    match method {
        "avm.getAllBalances" => one(json!({ "address": me })),
        "avm.getAssetDescription" => {
            let mut v = one(json!({ "assetID": w.asset.map(s) }));
            v.push(("valid-avax".into(), json!({ "assetID": "AVAX" })));
            v
        }
        "avm.getBalance" => one(json!({ "address": me, "assetID": "AVAX" })),
        "avm.getBlockByHeight" | "platform.getBlockByHeight" => {
            let mut v = enc(json!({ "height": "1" }));
            v.extend(enc_as("genesis", json!({ "height": "0" })));
            v
        }
        "avm.getBlock" => enc_as("genesis", json!({ "blockID": g.x })),
        "platform.getBlock" => enc_as("genesis", json!({ "blockID": g.p })),
        "avm.getTx" | "avm.getTxStatus" => {
            let mut v = enc(json!({ "txID": x_tx }));
            if method == "avm.getTxStatus" {
                v.truncate(1);
            }
            v
        }
        "avm.getUTXOs" => {
            let mut v = enc(json!({ "addresses": [me], "limit": 1024 }));
            v.push((
                "valid-from-P".into(),
                json!({ "addresses": [me], "sourceChain": "P", "encoding": "hex" }),
            ));
            v.push((
                "valid-alice".into(),
                json!({ "addresses": [w.alice_x], "encoding": "hex" }),
            ));
            v
        }
        "info.getBlockchainID" => ["X", "P", "C"]
            .iter()
            .map(|a| (format!("valid-{a}"), json!({ "alias": a })))
            .collect(),
        "info.isBootstrapped" => ["X", "P", "C"]
            .iter()
            .map(|a| (format!("valid-{a}"), json!({ "chain": a })))
            .collect(),
        "info.peers" => one(json!({ "nodeIDs": [] })),
        "info.uptime" => one(json!({})),
        "platform.getBalance" => one(json!({ "addresses": [me_p] })),
        "platform.getUTXOs" => {
            let mut v = enc(json!({ "addresses": [me_p] }));
            v.push((
                "valid-from-X".into(),
                json!({ "addresses": [me_p], "sourceChain": "X", "encoding": "hex" }),
            ));
            v
        }
        "platform.getStake" => one(json!({ "addresses": [me_p], "encoding": "hex" })),
        "platform.getRewardUTXOs" => one(json!({ "txID": p_tx, "encoding": "hex" })),
        "platform.getTx" => enc(json!({ "txID": p_tx })),
        "platform.getTxStatus" => one(json!({ "txID": p_tx })),
        "platform.getCurrentValidators" => {
            let mut v = one(json!({}));
            v.push((
                "valid-node".into(),
                json!({ "nodeIDs": [w.validator.map(s)] }),
            ));
            v.push(("valid-subnet".into(), json!({ "subnetID": subnet })));
            v
        }
        "platform.getL1Validator" => one(json!({ "validationID": w.validation_id.map(s) })),
        "platform.getValidatorsAt" => vec![
            ("valid-1".into(), json!({ "height": "1" })),
            (
                "valid-subnet".into(),
                json!({ "height": "1", "subnetID": subnet }),
            ),
        ],
        "platform.getAllValidatorsAt" => one(json!({ "height": "1" })),
        "platform.sampleValidators" => one(json!({ "size": "1" })),
        "platform.getMinStake"
        | "platform.getTotalStake"
        | "platform.getCurrentSupply"
        | "platform.getStakingAssetID" => {
            let mut v = one(json!({}));
            v.push(("valid-primary".into(), json!({ "subnetID": primary })));
            v
        }
        "platform.getSubnet" => {
            let mut v = one(json!({ "subnetID": subnet }));
            v.push(("valid-primary".into(), json!({ "subnetID": primary })));
            v
        }
        "platform.getSubnets" => one(json!({ "ids": [subnet] })),
        "platform.validates" => one(json!({ "subnetID": subnet })),
        "platform.validatedBy" => one(json!({ "blockchainID": chain })),
        "avax.getUTXOs" => {
            let me_c = s(&w.me_c);
            vec![
                (
                    "valid-from-X".into(),
                    json!({ "addresses": [me_c], "sourceChain": "X", "encoding": "hex" }),
                ),
                (
                    "valid-from-X-limit-1".into(),
                    json!({ "addresses": [me_c], "sourceChain": "X", "limit": 1 }),
                ),
                (
                    "valid-from-P".into(),
                    json!({ "addresses": [me_c], "sourceChain": "P", "encoding": "hex" }),
                ),
            ]
        }
        "avax.getAtomicTx" => {
            let mut v = one(json!({ "txID": c_tx, "encoding": "hex" }));
            v.push((
                "valid-last".into(),
                json!({ "txID": w.c_txs.last().map(s), "encoding": "hex" }),
            ));
            v.push((
                "valid-x-tx".into(),
                json!({ "txID": x_tx, "encoding": "hex" }),
            ));
            v
        }
        "avax.getAtomicTxStatus" => {
            let mut v = one(json!({ "txID": c_tx }));
            v.push(("valid-x-tx".into(), json!({ "txID": x_tx })));
            v
        }
        "eth_getBalance" | "eth_getTransactionCount" => {
            let me_evm = s(&w.me_evm);
            vec![
                ("valid".into(), json!([me_evm, "latest"])),
                ("valid-genesis".into(), json!([me_evm, "0x0"])),
                ("valid-earliest".into(), json!([me_evm, "earliest"])),
                (
                    "valid-untouched".into(),
                    json!(["0x0000000000000000000000000000000000000001", "latest"]),
                ),
            ]
        }
        "eth_chainId" | "eth_baseFee" | "eth_blockNumber" => one(json!([])),
        "platform.getBlockchainStatus" => {
            let mut v = one(json!({ "blockchainID": chain }));
            v.push(("valid-X".into(), json!({ "blockchainID": "X" })));
            v
        }
        _ => one(json!({})),
    }
}

/// The bad cases of one param of the spec, given the valid params.
fn bad(
    method: &'static avalanche_rpc::rpc::MethodInfo,
    valid: &Value,
    w: &Written,
) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    if let Some(arr) = valid.as_array() {
        return bad_positional(method, arr);
    }
    let Some(obj) = valid.as_object() else {
        return out;
    };
    for p in method.params {
        let with = |v: Value| {
            let mut m: Map<String, Value> = obj.clone();
            m.insert(p.name.to_string(), v);
            Value::Object(m)
        };
        if !p.optional && obj.contains_key(p.name) {
            let mut m = obj.clone();
            m.remove(p.name);
            out.push((format!("missing-{}", p.name), Value::Object(m)));
        }
        let wrong = match p.kind {
            JsonKind::String => json!(12),
            JsonKind::Number | JsonKind::Boolean | JsonKind::Array | JsonKind::Object => json!("x"),
            _ => continue,
        };
        out.push((format!("wrong-type-{}", p.name), with(wrong)));
        let current = obj.get(p.name);
        let first = |v: Option<&Value>| -> Option<String> {
            match v? {
                Value::String(t) => Some(t.clone()),
                Value::Array(a) => a.first()?.as_str().map(str::to_string),
                _ => None,
            }
        };
        let list = p.ty.starts_with("list<");
        let put = |t: String| if list { with(json!([t])) } else { with(s(t)) };
        let elem = p.ty.trim_start_matches("list<").trim_end_matches('>');
        match elem {
            "id" | "node-id" => {
                if let Some(t) = first(current) {
                    let mut c: Vec<char> = t.chars().collect();
                    if let Some(last) = c.last_mut() {
                        *last = if *last == 'z' { 'y' } else { 'z' };
                    }
                    out.push((
                        format!("bad-checksum-{}", p.name),
                        put(c.into_iter().collect()),
                    ));
                }
                let unknown = if elem == "id" {
                    avalanche_rpc::wire::Id::from_sha256(b"unknown").to_string()
                } else {
                    avalanche_rpc::wire::NodeId::new([0x55; 20]).to_string()
                };
                out.push((format!("unknown-{}", p.name), put(unknown)));
            }
            "address" => {
                if let Some(t) = first(current) {
                    let other = if let Some(r) = t.strip_prefix("C-") {
                        format!("X-{r}")
                    } else if let Some(r) = t.strip_prefix("X-") {
                        format!("P-{r}")
                    } else if let Some(r) = t.strip_prefix("P-") {
                        format!("X-{r}")
                    } else {
                        t.clone()
                    };
                    out.push((format!("wrong-chain-{}", p.name), put(other)));
                    out.push((
                        format!("wrong-hrp-{}", p.name),
                        put(t.replace(&format!("{}1", w.hrp), "fuji1")),
                    ));
                }
            }
            "u64" | "height-or-proposed" if p.name.contains("height") => {
                out.push((format!("too-high-{}", p.name), with(s(1_000_000_000u64))));
            }
            "encoding" => out.push((format!("unknown-{}", p.name), with(s("base64")))),
            _ => {}
        }
    }
    out
}

/// The bad cases of a method with positional params (the `eth_` calls): each param left
/// out (from the last), of the wrong JSON type, and, by its type, an address that is not 20
/// bytes, a block tag that is none, a block past the last; one param too many.
fn bad_positional(
    method: &'static avalanche_rpc::rpc::MethodInfo,
    valid: &[Value],
) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (i, p) in method.params.iter().enumerate() {
        if i >= valid.len() {
            break;
        }
        let with = |v: Value| {
            let mut a = valid.to_vec();
            a[i] = v;
            Value::Array(a)
        };
        if !p.optional {
            out.push((
                format!("missing-{}", p.name),
                Value::Array(valid[..i].to_vec()),
            ));
        }
        out.push((format!("wrong-type-{}", p.name), with(json!(12))));
        match p.ty {
            "evm-address" => {
                out.push((
                    format!("short-{}", p.name),
                    with(s("0x8db97c7cece249c2b98bdc0226cc4c2a57bf52")),
                ));
                out.push((
                    format!("not-hex-{}", p.name),
                    with(s("0xzzb97c7cece249c2b98bdc0226cc4c2a57bf52fc")),
                ));
            }
            _ if p.name.contains("block") => {
                out.push((format!("unknown-tag-{}", p.name), with(s("later"))));
                out.push((format!("too-high-{}", p.name), with(s("0xffffff"))));
            }
            _ => {}
        }
    }
    let mut more = valid.to_vec();
    more.push(s("extra"));
    out.push(("one-param-too-many".into(), Value::Array(more)));
    out
}

pub async fn run(node_url: &str, devnet_url: &str, w: &Written, report: &mut Report) {
    let ns = Side::new(node_url);
    let ds = Side::new(devnet_url);
    let genesis_of = |path: &'static str, method: &'static str| {
        let ns = &ns;
        async move {
            ns.call(path, method, &json!({ "height": "0", "encoding": "json" }))
                .await["result"]["block"]["id"]
                .clone()
        }
    };
    let g = Genesis {
        x: genesis_of("/ext/bc/X", "avm.getBlockByHeight").await,
        p: genesis_of("/ext/bc/P", "platform.getBlockByHeight").await,
    };
    println!("\n== reads");
    for m in METHODS {
        if m.devnet_only
            || m.removed.is_some()
            || m.changes_state
            || !matches!(
                m.interface,
                "info" | "platform" | "avm" | "index" | "proposervm" | "avax" | "eth"
            )
        {
            continue;
        }
        let paths: Vec<(String, String)> = match m.interface {
            "index" => [("X", "tx"), ("X", "block"), ("P", "block")]
                .iter()
                .map(|(c, k)| (format!("/ext/index/{c}/{k}"), format!("{c}/{k}")))
                .collect(),
            "proposervm" => vec![("/ext/bc/P/proposervm".into(), "P".into())],
            _ => vec![(path_of(m.name).to_string(), String::new())],
        };
        for (path, at) in &paths {
            let cases = if m.interface == "index" {
                index_cases(m.name, at, w)
            } else {
                valid(m.name, w, &g)
            };
            let mut all = cases.clone();
            if let Some((_, v)) = cases.first() {
                all.extend(bad(m, v, w));
            }
            all.push(("params-not-object".into(), json!([1])));
            for (case, params) in all {
                let key = if at.is_empty() {
                    format!("{} {case}", m.name)
                } else {
                    format!("{} {at}/{case}", m.name)
                };
                let n = ns.call(path, m.name, &params).await;
                let d = ds.call(path, m.name, &params).await;
                report.reads += 1;
                report.compare(&key, &n, &d);
            }
        }
    }
    // Requests that are not calls.
    for (case, body) in [
        (
            "unknown-method",
            json!({"jsonrpc": "2.0", "id": 1, "method": "platform.noSuchMethod", "params": {}})
                .to_string(),
        ),
        ("not-json", "{".to_string()),
        (
            "no-method",
            json!({"jsonrpc": "2.0", "id": 1, "params": {}}).to_string(),
        ),
    ] {
        let n = ns.post("/ext/bc/P", body.clone()).await;
        let d = ds.post("/ext/bc/P", body).await;
        report.reads += 1;
        report.compare(&format!("request {case}"), &n, &d);
    }
}

fn index_cases(method: &str, at: &str, w: &Written) -> Vec<(String, Value)> {
    let id = match at {
        "X/tx" => w.x_txs.first().map(s),
        _ => None,
    };
    let hex = |p: Value| vec![("valid".to_string(), p)];
    match method {
        "index.getContainerByID" | "index.getIndex" | "index.isAccepted" => match id {
            Some(id) => hex(json!({ "id": id, "encoding": "hex" })),
            None => hex(
                json!({ "id": avalanche_rpc::wire::Id::from_sha256(b"unknown").to_string(), "encoding": "hex" }),
            ),
        },
        "index.getContainerByIndex" => hex(json!({ "index": "0", "encoding": "hex" })),
        "index.getContainerRange" => {
            hex(json!({ "startIndex": "0", "numToFetch": "3", "encoding": "hex" }))
        }
        "index.getLastAccepted" => hex(json!({ "encoding": "hex" })),
        _ => hex(json!({})),
    }
}
