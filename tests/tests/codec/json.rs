//! The node's JSON form: every `getTx` example of the spec given in both encodings, its hex
//! decoded and written as JSON with the chain's context, equals its JSON example.

use avalanche_rpc::codec::{FromJson, JsonContext, ToJson, avm, platform};
use avalanche_rpc::rpc::MethodInfo;
use avalanche_rpc::wire::HexBytes;
use serde_json::Value;

/// The (hex, json) pairs of examples of `method` that have the same params but for the
/// encoding: the hex transaction and the JSON one.
fn pairs(method: &MethodInfo, member: &str) -> Vec<(String, Vec<u8>, Value)> {
    let parsed: Vec<(Value, Value, &str)> = method
        .examples
        .iter()
        .map(|e| {
            (
                serde_json::from_str(e.params).unwrap(),
                serde_json::from_str(e.result).unwrap(),
                e.name,
            )
        })
        .collect();
    let without_encoding = |p: &Value| {
        let mut p = p.clone();
        if let Some(o) = p.as_object_mut() {
            o.remove("encoding");
        }
        p
    };
    let mut out = Vec::new();
    for (p, r, name) in &parsed {
        let Some(Value::String(hex)) = r.get(member) else {
            continue;
        };
        for (q, s, _) in &parsed {
            if without_encoding(p) == without_encoding(q)
                && let Some(json) = s.get(member).filter(|v| v.is_object())
            {
                let bytes: HexBytes = hex.parse().unwrap();
                let payload = bytes.strip_checksum().unwrap().to_vec();
                out.push((name.to_string(), payload, json.clone()));
            }
        }
    }
    out
}

/// Checks every pair of `method`'s examples for `member`; returns how many there were.
fn check_pairs<T>(
    method: &MethodInfo,
    member: &str,
    chain: &str,
    decode: fn(&[u8]) -> Result<T, avalanche_rpc::codec::DecodeError>,
    network_of: fn(&Value) -> u32,
) -> usize
where
    T: ToJson + FromJson + PartialEq,
{
    let found = pairs(method, member);
    for (name, bytes, expected) in &found {
        let value = decode(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let cx = JsonContext::for_network(chain, network_of(expected));
        let got = value.to_json(&cx);
        // The JSON reads back into the value the bytes gave.
        let read = T::from_json(expected, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            read == value,
            "{name}: the JSON reads into another value than the bytes"
        );
        assert_eq!(got, *expected, "{name}");
        assert_eq!(
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(expected).unwrap(),
            "{name}: the members come in the node's order"
        );
    }
    found.len()
}

#[test]
fn blocks_write_the_node_json() {
    // The network of a block is that of its transactions; mainnet where it has none.
    let x_network = |v: &Value| v["txs"][0]["unsignedTx"]["networkID"].as_u64().unwrap_or(1) as u32;
    let n = check_pairs(
        &avalanche_rpc::avm::methods::GET_BLOCK,
        "block",
        "X",
        avm::Block::from_bytes,
        x_network,
    ) + check_pairs(
        &avalanche_rpc::avm::methods::GET_BLOCK_BY_HEIGHT,
        "block",
        "X",
        avm::Block::from_bytes,
        x_network,
    );
    let p_network = |v: &Value| {
        let tx = if v["txs"].is_array() {
            &v["txs"][0]
        } else {
            &v["tx"]
        };
        tx["unsignedTx"]["networkID"].as_u64().unwrap_or(1) as u32
    };
    let m = check_pairs(
        &avalanche_rpc::platform::methods::GET_BLOCK,
        "block",
        "P",
        platform::Block::from_bytes,
        p_network,
    ) + check_pairs(
        &avalanche_rpc::platform::methods::GET_BLOCK_BY_HEIGHT,
        "block",
        "P",
        platform::Block::from_bytes,
        p_network,
    );
    assert!(
        n > 0 && m > 0,
        "{n} X-chain and {m} P-chain block pairs in the spec's examples"
    );
}

#[test]
fn transactions_write_and_read_the_node_json() {
    let network = |v: &Value| v["unsignedTx"]["networkID"].as_u64().unwrap_or(1) as u32;
    let n = check_pairs(
        &avalanche_rpc::avm::methods::GET_TX,
        "tx",
        "X",
        avm::Tx::from_bytes,
        network,
    );
    let m = check_pairs(
        &avalanche_rpc::platform::methods::GET_TX,
        "tx",
        "P",
        platform::Tx::from_bytes,
        network,
    );
    assert!(
        n > 0 && m > 0,
        "{n} X-chain and {m} P-chain transaction pairs in the spec's examples"
    );
}

/// Every JSON transaction or block among the examples of `method` (`member` of the result,
/// or each element of `list`) reads into the typed form and writes back the same JSON.
fn json_examples<T: FromJson + ToJson>(method: &MethodInfo, member: &str, chain: &str) -> usize {
    let mut n = 0;
    for e in method.examples {
        let result: Value = serde_json::from_str(e.result).unwrap();
        let values: Vec<&Value> = match result.get(member) {
            Some(Value::Array(items)) => items.iter().collect(),
            Some(v) => vec![v],
            None => Vec::new(),
        };
        for v in values.into_iter().filter(|v| v.is_object()) {
            let typed = T::from_json(v, None)
                .unwrap_or_else(|err| panic!("{}: {}: {err}", method.name, e.name));
            let network = v["unsignedTx"]["networkID"]
                .as_u64()
                .or_else(|| v["txs"][0]["unsignedTx"]["networkID"].as_u64())
                .or_else(|| v["tx"]["unsignedTx"]["networkID"].as_u64())
                .unwrap_or(1) as u32;
            let again = typed.to_json(&JsonContext::for_network(chain, network));
            assert_eq!(&again, v, "{}: {}", method.name, e.name);
            n += 1;
        }
    }
    n
}

#[test]
fn every_json_example_reads_and_writes_back() {
    use avalanche_rpc::{avm as x, platform as p};
    let mut n = 0;
    n += json_examples::<avm::Tx>(&x::methods::GET_TX, "tx", "X");
    n += json_examples::<avm::Block>(&x::methods::GET_BLOCK, "block", "X");
    n += json_examples::<avm::Block>(&x::methods::GET_BLOCK_BY_HEIGHT, "block", "X");
    n += json_examples::<platform::Tx>(&p::methods::GET_TX, "tx", "P");
    n += json_examples::<platform::Block>(&p::methods::GET_BLOCK, "block", "P");
    n += json_examples::<platform::Block>(&p::methods::GET_BLOCK_BY_HEIGHT, "block", "P");
    assert!(n >= 6, "{n} JSON examples");
}

#[test]
fn json_that_is_not_the_node_form_is_refused_with_the_member() {
    let example = avalanche_rpc::platform::methods::GET_TX
        .examples
        .iter()
        .map(|e| serde_json::from_str::<Value>(e.result).unwrap())
        .find(|r| r["tx"].is_object())
        .unwrap();
    let tx = example["tx"].clone();
    let mut bad = tx.clone();
    bad["unsignedTx"]["outputs"][0]["output"]["amount"] = Value::String("5".into());
    let e = platform::Tx::from_json(&bad, None).unwrap_err();
    assert_eq!(e.path().to_string(), "unsignedTx.outputs[0].output.amount");
    assert!(
        e.reason()
            .contains("expected a non-negative integer, found a string"),
        "{e}"
    );

    let mut bad = tx.clone();
    bad["unsignedTx"]["outputs"][0]["output"]["colour"] = Value::Bool(true);
    let e = platform::Tx::from_json(&bad, None).unwrap_err();
    assert_eq!(e.path().to_string(), "unsignedTx.outputs[0].output");
    assert!(
        e.reason()
            .starts_with("no type this slot holds has exactly the members"),
        "{e}"
    );

    let mut bad = tx.clone();
    bad["unsignedTx"]["memo"] = Value::String("0xzz".into());
    let e = platform::Tx::from_json(&bad, None).unwrap_err();
    assert_eq!(e.path().to_string(), "unsignedTx.memo");

    let mut bad = tx;
    bad.as_object_mut().unwrap().remove("credentials");
    let e = platform::Tx::from_json(&bad, None).unwrap_err();
    assert_eq!(e.to_string(), "missing member `credentials`");
}
