//! Every method of the spec is served by the devnet (none answers the generated default
//! "not implemented" or 404), and the removed static `avm.buildGenesis` rebuilds the node's
//! local X-chain genesis byte for byte.

use crate::common::{self, Devnet};
use avalanche_rpc::avm_static::*;
use avalanche_rpc::wire::{Encoding, HexBytes};
use serde_json::{Value, json};

/// The interface's path on the devnet.
fn path(interface: &str) -> &'static str {
    match interface {
        "info" => "/ext/info",
        "platform" => "/ext/bc/P",
        "avm" => "/ext/bc/X",
        "wallet" => "/ext/bc/X/wallet",
        "index" => "/ext/index/X/block",
        "proposervm" => "/ext/bc/P/proposervm",
        "avm-static" => "/ext/vm/avm",
        "devnet" => "/ext/devnet",
        "avax" => "/ext/bc/C/avax",
        "eth" => "/ext/bc/C/rpc",
        "health" => "/ext/health",
        "admin" => "/ext/admin",
        other => panic!("an interface this test does not know: {other}"),
    }
}

async fn call(url: &str, method: &str, params: &Value) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (addr, path) = url.trim_start_matches("http://").split_once('/').unwrap();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
    let req = format!(
        "POST /{path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out);
    let status: u16 = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

#[tokio::test]
async fn every_method_of_the_spec_is_served() {
    let d = Devnet::start(common::options()).await;
    let mut served = 0;
    for m in avalanche_rpc::METHODS {
        let params = m
            .examples
            .first()
            .and_then(|e| serde_json::from_str::<Value>(e.params).ok())
            .unwrap_or(json!({}));
        let url = format!("{}{}", d.url, path(m.interface));
        // Positional methods (`eth_…`) take an array.
        let (status, reply) = call(&url, m.name, &m.wire_params(params)).await;
        assert_eq!(status, 200, "{}: HTTP {status}", m.name);
        let code = reply["error"]["code"].as_i64();
        assert_ne!(code, Some(-32601), "{} is not implemented: {reply}", m.name);
        assert!(
            reply.get("result").is_some() || reply.get("error").is_some(),
            "{}: {reply}",
            m.name
        );
        served += 1;
    }
    assert_eq!(served, avalanche_rpc::METHODS.len());
    assert!(served >= 97, "{served}");
}

/// The node's local X-chain genesis (`genesis/genesis_local.json`, §9.11 of the codec's
/// ground truth): 226 bytes, one asset.
const X_GENESIS_LOCAL: &str = concat!(
    "000000000001000441564158000030390000000000000000000000000000000000000000000000000000000000000000",
    "000000000000000000000028b3d82b1367d362de99ab59a658165aff520cbd4db3d82b1367d362de99ab59a658165aff",
    "520cbd4d00094176616c616e6368650004415641580900000001000000000000000200000007002386f26fc100000000",
    "0000000000000000000100000001e0cfe8cae22827d032805ded484e393ce51cbedb000000070429d069189e00000000",
    "00000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c"
);

#[tokio::test]
async fn build_genesis_rebuilds_the_nodes_local_genesis() {
    let d = Devnet::start(common::options()).await;
    let hex = |s: &str| {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect::<Vec<u8>>()
    };
    let expected = hex(X_GENESIS_LOCAL);
    // The holders in the order the node's genesis lists them; buildGenesis sorts the outputs.
    let holders = json!([
        {"amount": "300000000000000000", "address": "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"},
        {"amount": "10000000000000000", "address": "X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu"},
    ]);
    let memo = "0xb3d82b1367d362de99ab59a658165aff520cbd4db3d82b1367d362de99ab59a658165aff520cbd4d";
    let params = json!({
        "networkID": 12345,
        "genesisData": {"AVAX": {"name": "Avalanche", "symbol": "AVAX", "denomination": 9,
            "initialState": {"fixedCap": holders}, "memo": memo}},
        "encoding": "hexnc",
    });
    let p: BuildGenesisParams = serde_json::from_value(params).unwrap();
    let r = d.node.avm_static().build_genesis(p).await.unwrap();
    assert_eq!(r.encoding, Encoding::HexNc);
    assert_eq!(r.bytes, HexBytes(expected));
    // A kind of asset the node does not build is refused, naming it.
    let p: BuildGenesisParams = serde_json::from_value(json!({
        "networkID": 12345,
        "genesisData": {"NFT": {"name": "n", "symbol": "N", "initialState": {"nonFungible": []}}},
    }))
    .unwrap();
    let e = d.node.avm_static().build_genesis(p).await.unwrap_err();
    assert!(e.to_string().contains("unknown asset type"), "{e}");
}
