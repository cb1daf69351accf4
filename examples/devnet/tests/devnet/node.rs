//! What the node's flags do: a database kept across restarts, the index rules when indexing is
//! turned off and on, the public profile, allowed hosts and CORS.

use crate::common::{self, Devnet, fee_only};
use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_rpc::avm::*;
use avalanche_rpc::index::*;
use avalanche_rpc::info::*;
use avalanche_rpc::platform::PlatformClient;
use std::path::PathBuf;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p =
            std::env::temp_dir().join(format!("avalanche-devnet-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[tokio::test]
async fn a_restart_keeps_the_chain_and_the_index_rules_hold() {
    let dir = TempDir::new("restart");
    let keys = test_keys();
    let opts = |index: bool, allow: bool| avalanche_devnet::Options {
        db_dir: Some(dir.0.clone()),
        index_enabled: index,
        index_allow_incomplete: allow,
        ..common::options()
    };
    // Two blocks, then stop.
    let (tx, genesis_time) = {
        let d = Devnet::start(opts(true, false)).await;
        d.transfer(&keys[1], keys[2].address(), AVAX).await;
        let tx = d.transfer(&keys[1], keys[2].address(), 2 * AVAX).await;
        let time = d.devnet.genesis.time;
        d.stop().await;
        (tx, time)
    };
    // The same chain after the restart: genesis, blocks, tx, balances, index.
    let d = Devnet::start(opts(true, false)).await;
    assert_eq!(d.devnet.genesis.time, genesis_time);
    let x = d.node.avm("X");
    assert_eq!(
        x.get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        2
    );
    assert!(x.get_tx(GetTxParams::new(tx)).await.is_ok());
    let to = d.x_address(keys[2].address());
    assert_eq!(d.balance(&to, "AVAX").await, 1_000_003 * AVAX);
    let index = d.node.index("X", "block");
    let last = index
        .get_last_accepted(GetLastAcceptedParams::new())
        .await
        .unwrap();
    assert_eq!(last.index.get(), 1);
    d.stop().await;

    // Indexing off after it was on: refused, unless incomplete indexes are allowed.
    let e = avalanche_devnet::Devnet::open(opts(false, false))
        .err()
        .expect("refused");
    assert!(e.to_string().contains("--index-allow-incomplete"), "{e}");
    {
        let d = Devnet::start(opts(false, true)).await;
        // No index endpoint is served.
        let e = d
            .node
            .index("X", "block")
            .get_last_accepted(GetLastAcceptedParams::new())
            .await
            .unwrap_err();
        assert!(e.to_string().contains("404"), "{e}");
        d.transfer(&keys[1], keys[3].address(), AVAX).await;
        // Blocks on the P-chain too, while the index is off.
        for _ in 0..2 {
            d.p_do(&keys[1], fee_only).await.unwrap();
        }
        d.stop().await;
    }
    // On again: the blocks accepted meanwhile are indexed at start on every chain, numbered
    // after the others, in order, stamped with the time of this start.
    let d = Devnet::start(opts(true, false)).await;
    let index = d.node.index("X", "block");
    let last = index
        .get_last_accepted(GetLastAcceptedParams::new())
        .await
        .unwrap();
    assert_eq!(last.index.get(), 2);
    let started = d.devnet.started_ns / 1_000_000_000;
    assert_eq!(last.timestamp.unix_seconds() as u64, started);
    let p_height = d
        .node
        .platform()
        .get_height(avalanche_rpc::platform::GetHeightParams::new())
        .await
        .unwrap()
        .height
        .get();
    assert!(p_height >= 2, "two P-chain blocks were made: {p_height}");
    let p_index = d.node.index("P", "block");
    let p_last = p_index
        .get_last_accepted(GetLastAcceptedParams::new())
        .await
        .unwrap();
    assert_eq!(
        p_last.index.get(),
        p_height - 1,
        "every P-chain block is indexed"
    );
    assert_eq!(p_last.timestamp.unix_seconds() as u64, started);
    assert_eq!(p_index_in_order(&d).await, p_height, "in order");

    // Another network's ID on this database is refused.
    d.stop().await;
    let e = avalanche_devnet::Devnet::open(avalanche_devnet::Options {
        network_id: 1,
        ..opts(true, false)
    })
    .err()
    .expect("refused");
    assert!(e.to_string().contains("made for network 12345"), "{e}");
}

#[tokio::test]
async fn the_public_profile_hides_what_public_api_servers_hide() {
    let d = Devnet::start_with(common::options(), true).await;
    let info = d.node.info();
    let e = info.get_node_id(GetNodeIdParams::new()).await.unwrap_err();
    assert!(e.to_string().contains("-32601"), "{e}");
    assert!(info.get_node_ip(GetNodeIpParams::new()).await.is_err());
    assert!(info.get_vms(GetVmsParams::new()).await.is_err());
    assert!(info.get_network_id(GetNetworkIdParams::new()).await.is_ok());
    // And without it, the node's identity: a BLS key with a valid proof of possession.
    let d = Devnet::start(common::options()).await;
    let me = d
        .node
        .info()
        .get_node_id(GetNodeIdParams::new())
        .await
        .unwrap();
    let pk: [u8; 48] = me.node_pop.public_key.0.as_slice().try_into().unwrap();
    let pop: [u8; 96] = me
        .node_pop
        .proof_of_possession
        .0
        .as_slice()
        .try_into()
        .unwrap();
    avalanche_rpc::bls::verify_proof_of_possession(&pk, &pop).unwrap();
    let peers = d.node.info().peers(PeersParams::new()).await.unwrap();
    assert_eq!(peers.num_peers.get(), 4);
    assert!(peers.peers.iter().all(|p| p.node_id != me.node_id));
}

/// One raw HTTP/1.1 exchange, for headers the client does not set.
async fn raw(url: &str, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = url.trim_start_matches("http://");
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test]
async fn allowed_hosts_and_cors() {
    let d = Devnet::start(common::options()).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":{}}"#;
    let post = |host: &str, origin: &str| {
        format!(
            "POST /ext/info HTTP/1.1\r\nHost: {host}\r\n{origin}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    };
    let ok = raw(&d.url, &post("localhost:9650", "")).await;
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
    let ip = raw(&d.url, &post("127.0.0.1:9650", "")).await;
    assert!(ip.starts_with("HTTP/1.1 200"), "{ip}");
    let evil = raw(&d.url, &post("evil.example", "")).await;
    assert!(evil.starts_with("HTTP/1.1 403"), "{evil}");
    // A bracketed IPv6 address is accepted only as a whole host, not as the start of one.
    let v6 = raw(&d.url, &post("[::1]:9650", "")).await;
    assert!(v6.starts_with("HTTP/1.1 200"), "{v6}");
    for host in ["[::1]evil.example", "[::1].evil.example:9650"] {
        let evil = raw(&d.url, &post(host, "")).await;
        assert!(evil.starts_with("HTTP/1.1 403"), "{host}: {evil}");
    }
    let cors = raw(&d.url, &post("localhost", "Origin: http://app.example\r\n")).await;
    assert!(
        cors.to_lowercase()
            .contains("access-control-allow-origin: *"),
        "{cors}"
    );
    let preflight = raw(
        &d.url,
        "OPTIONS /ext/info HTTP/1.1\r\nHost: localhost\r\nOrigin: http://app.example\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(preflight.starts_with("HTTP/1.1 204"), "{preflight}");
    assert!(
        preflight
            .to_lowercase()
            .contains("access-control-allow-headers: content-type"),
        "{preflight}"
    );
}

/// The P-chain's indexed blocks in order: container n wraps the block at height n + 1; how
/// many there are.
async fn p_index_in_order(d: &Devnet) -> u64 {
    use avalanche_rpc::codec::{platform, proposervm};
    let all = d
        .node
        .index("P", "block")
        .get_container_range(GetContainerRangeParams::new(1024u64))
        .await
        .unwrap();
    for (n, c) in all.containers.iter().enumerate() {
        let w = proposervm::Block::from_bytes(c.bytes.strip_checksum().unwrap()).unwrap();
        // The first wrapper is a StatelessBlock, the others GraniteBlocks.
        let inner = w
            .block()
            .unwrap_or_else(|| panic!("container {n} is not a proposer block"));
        assert_eq!(
            w.type_name(),
            if n == 0 {
                "StatelessBlock"
            } else {
                "GraniteBlock"
            },
            "container {n}"
        );
        let platform::Block::BanffStandardBlock(b) = platform::Block::from_bytes(inner).unwrap()
        else {
            panic!("container {n} does not wrap a standard block")
        };
        assert_eq!(b.height, n as u64 + 1, "container {n}");
    }
    all.containers.len() as u64
}

#[tokio::test]
async fn a_store_without_the_p_chain_s_indexed_height_catches_up_from_its_index() {
    let dir = TempDir::new("p-indexed");
    let keys = test_keys();
    let opts = |index: bool| avalanche_devnet::Options {
        db_dir: Some(dir.0.clone()),
        index_enabled: index,
        index_allow_incomplete: true,
        ..common::options()
    };
    {
        let d = Devnet::start(opts(true)).await;
        d.p_do(&keys[1], fee_only).await.unwrap();
        d.p_do(&keys[1], fee_only).await.unwrap();
        // As a store written before the P-chain's indexed height was kept.
        let w = d.devnet.engine.store.write().unwrap();
        w.open_table(avalanche_devnet::store::META)
            .unwrap()
            .remove("p_indexed_height")
            .unwrap();
        w.commit().unwrap();
        d.stop().await;
    }
    {
        let d = Devnet::start(opts(false)).await;
        d.p_do(&keys[1], fee_only).await.unwrap();
        d.stop().await;
    }
    let d = Devnet::start(opts(true)).await;
    let r = d.devnet.engine.store.read().unwrap();
    let height = avalanche_devnet::ledger::height(&r, avalanche_devnet::ledger::Chain::P).unwrap();
    drop(r);
    assert_eq!(height, 3);
    assert_eq!(
        p_index_in_order(&d).await,
        height,
        "each block once, in order"
    );
}

#[test]
fn a_port_in_use_is_refused_naming_the_port_and_the_flag() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_avalanche-devnet"))
        .args(["--http-port", &port.to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "avalanche-devnet: cannot serve on 127.0.0.1:{port}: the port is in use (another \
             devnet or node?); stop it, or choose another port with --http-port\n"
        )
    );
}
