//! The node's JSON form: every `getTx` example of the spec given in both encodings, its hex
//! decoded and written as JSON with the chain's context, equals its JSON example.

use avalanche_rpc::codec::{JsonContext, ToJson, avm, platform};
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
    T: ToJson,
{
    let found = pairs(method, member);
    for (name, bytes, expected) in &found {
        let value = decode(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let cx = JsonContext::for_network(chain, network_of(expected));
        let got = value.to_json(&cx);
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
fn x_chain_transactions_write_the_node_json() {
    let found = pairs(&avalanche_rpc::avm::methods::GET_TX, "tx");
    assert!(
        !found.is_empty(),
        "the spec has a getTx example in both encodings"
    );
    for (name, bytes, expected) in found {
        let tx = avm::Tx::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let hrp_of = |v: &Value| v["unsignedTx"]["networkID"].as_u64().unwrap() as u32;
        let cx = JsonContext::for_network("X", hrp_of(&expected));
        assert_eq!(tx.to_json(&cx), expected, "{name}");
        assert_eq!(
            serde_json::to_string(&tx.to_json(&cx)).unwrap(),
            serde_json::to_string(&expected).unwrap(),
            "{name}: the members come in the node's order"
        );
    }
}

#[test]
fn p_chain_transactions_write_the_node_json() {
    let found = pairs(&avalanche_rpc::platform::methods::GET_TX, "tx");
    assert!(
        !found.is_empty(),
        "the spec has a getTx example in both encodings"
    );
    for (name, bytes, expected) in found {
        let tx = platform::Tx::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let network = expected["unsignedTx"]["networkID"].as_u64().unwrap() as u32;
        let cx = JsonContext::for_network("P", network);
        assert_eq!(tx.to_json(&cx), expected, "{name}");
        assert_eq!(
            serde_json::to_string(&tx.to_json(&cx)).unwrap(),
            serde_json::to_string(&expected).unwrap(),
            "{name}: the members come in the node's order"
        );
    }
}
