//! The devnet benchmark: what a call costs as the history grows. Builds a devnet on disk with a
//! thousand and a million blocks (each an ordinary signed transfer verified and accepted
//! by the devnet's own block path, a thousand blocks per store commit), each paying one more
//! UTXO to a sink address, and measures over HTTP on 127.0.0.1, side by side:
//! `index.getContainerRange(1024)`, `index.getContainerByIndex` and a 1,024-UTXO
//! `avm.getUTXOs` page, at both sizes, with their ratio (target ≤ 1.3); the process's memory
//! with both histories open (target < 500 MB) and how long each build took. Both devnets are
//! served at once and each measure alternates between them, so both see the same load.
//! `--keep DIR` keeps the histories in `DIR/<blocks>` and reuses them on the next run.
//!
//!   cargo run --release -p avalanche-devnet --example bench [-- --large 1000000 --calls 200 --keep DIR]

use avalanche_devnet::context;
use avalanche_devnet::engine::Pending;
use avalanche_devnet::genesis::test_keys;
use avalanche_devnet::{Devnet, Options};
use avalanche_rpc::avm::{AvmClient, GetUtxosParams};
use avalanche_rpc::codec::{avax, avm, secp256k1fx};
use avalanche_rpc::index::{GetContainerByIndexParams, GetContainerRangeParams, IndexClient};
use avalanche_rpc::rpc::Node;
use avalanche_rpc::transact::{Keychain, Payer, x};
use avalanche_rpc::wire::{Address, Id};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Kibibytes of a /proc/self/status line.
fn status_kib(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// Appends `blocks` blocks of one transfer each (ewoq pays 1 nAVAX to `sink`, the change
/// back to itself), `per_commit` blocks per store transaction.
fn build(d: &Devnet, blocks: u64, per_commit: u64, sink: avalanche_rpc::wire::ShortId) -> Duration {
    let payer = test_keys().swap_remove(0);
    let r = d.engine.store.read().unwrap();
    let mut current = avalanche_devnet::xchain::all_utxos_of(&r, payer.address().as_bytes())
        .unwrap()
        .into_iter()
        .filter(|u| u.utxo.asset_id == d.genesis.avax_asset_id)
        .max_by_key(|u| u.amount().unwrap_or(0))
        .expect("ewoq holds AVAX")
        .utxo;
    drop(r);
    let cx = context::of(d).unwrap();
    let keys = Keychain::from_keys([payer.clone()]);
    let from = Payer::new(vec![payer.address()], u64::MAX / 2);
    let pay = [x::output(
        d.genesis.avax_asset_id,
        1,
        secp256k1fx::OutputOwners::new(0, 1, vec![sink]),
    )];
    let started = Instant::now();
    let mut done = 0;
    while done < blocks {
        let w = d.engine.store.write().unwrap();
        for _ in 0..per_commit.min(blocks - done) {
            let built = x::base_tx(&cx, std::slice::from_ref(&current), &from, &pay);
            let tx = context::sign(built, &keys).expect("ewoq can pay");
            let bytes = tx.to_bytes().unwrap();
            let id = Id::from_sha256(&bytes);
            let built =
                d.x.block_in(
                    &d.engine,
                    &w,
                    vec![Pending {
                        id,
                        bytes,
                        spends: Vec::new(),
                    }],
                )
                .unwrap();
            assert!(
                built.id.is_some(),
                "the transfer is accepted: {:?}",
                built.dropped
            );
            // The change is the next transfer's input.
            let avm::UnsignedTx::BaseTx(b) = &tx.unsigned else {
                unreachable!()
            };
            let (index, change) = b
                .base
                .outputs
                .iter()
                .enumerate()
                .find_map(|(i, o)| match &o.output {
                    avm::TransferableOut::TransferOutput(t)
                        if t.owners.addresses == [payer.address()] =>
                    {
                        Some((i as u32, t.clone()))
                    }
                    _ => None,
                })
                .expect("a change output");
            current = avm::Utxo::new(
                avax::UtxoId::new(id, index),
                d.genesis.avax_asset_id,
                avm::UtxoOutput::Secp256k1fxTransferOutput(change),
            );
            done += 1;
        }
        w.commit().unwrap();
    }
    started.elapsed()
}

/// A devnet with a history of `blocks` blocks, served on 127.0.0.1.
struct Served {
    blocks: u64,
    build: Option<Duration>,
    node: Node,
    sink: Address,
    server: tokio::task::JoinHandle<()>,
    dir: std::path::PathBuf,
    keep: bool,
}

/// Opens (or builds) the history in `dir`: a store that already holds `blocks` blocks is
/// reused, so a large history is built once and measured again later.
async fn prepare(blocks: u64, dir: std::path::PathBuf, keep: bool) -> Served {
    let d = Arc::new(
        Devnet::open(Options {
            network_id: 12345,
            db_dir: Some(dir.clone()),
            index_enabled: true,
            index_allow_incomplete: false,
            staking_port: 9651,
            genesis: None,
            mempool_bytes: avalanche_devnet::engine::pool::MAX_BYTES,
            db_cache_bytes: avalanche_devnet::store::CACHE_BYTES,
            p_chain_lead: avalanche_devnet::LEAD,
            upgrade_file: None,
        })
        .expect("a devnet on disk"),
    );
    let sink = avalanche_rpc::keys::PrivateKey::from_bytes(&[3; 32])
        .unwrap()
        .address();
    let height = avalanche_devnet::xchain::height(&d.engine.store.read().unwrap()).unwrap();
    let build = if height >= blocks {
        None
    } else {
        let d = d.clone();
        let missing = blocks - height;
        Some(
            tokio::task::spawn_blocking(move || build(&d, missing, 1_000, sink))
                .await
                .unwrap(),
        )
    };
    let (url, server) = avalanche_devnet::serve_ephemeral(d).await.unwrap();
    Served {
        blocks,
        build,
        node: Node::http(&url).unwrap(),
        sink: Address::new(Some("X"), "local", *sink.as_bytes()).unwrap(),
        server,
        dir,
        keep,
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.server.abort();
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// What is measured.
#[derive(Clone, Copy)]
enum Measure {
    Range,
    ByIndex,
    UtxoPage,
}

async fn call(m: Measure, i: u64, s: &Served) {
    match m {
        Measure::Range => range(i, s).await,
        Measure::ByIndex => by_index(i, s).await,
        Measure::UtxoPage => utxo_page(i, s).await,
    }
}

/// Calls `m` on the small and the large devnet in turn, `calls` times each: both see the
/// same load. The two medians.
async fn alternate(calls: u64, small: &Served, large: &Served, m: Measure) -> (Duration, Duration) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for i in 0..calls {
        for (side, times) in [(small, &mut a), (large, &mut b)] {
            let t = Instant::now();
            call(m, i, side).await;
            times.push(t.elapsed());
        }
    }
    a.sort();
    b.sort();
    (a[a.len() / 2], b[b.len() / 2])
}

/// A position spread over `span`.
fn spread(i: u64, span: u64) -> u64 {
    i.wrapping_mul(2_654_435_761) % span.max(1)
}

async fn range(i: u64, s: &Served) {
    let start = spread(i, s.blocks.saturating_sub(1024));
    let r = s
        .node
        .index("X", "block")
        .get_container_range(GetContainerRangeParams::new(1024u64).with_start_index(start))
        .await
        .unwrap();
    assert_eq!(r.containers.len() as u64, 1024.min(s.blocks));
}

async fn by_index(i: u64, s: &Served) {
    s.node
        .index("X", "block")
        .get_container_by_index(GetContainerByIndexParams::new().with_index(spread(i, s.blocks)))
        .await
        .unwrap();
}

async fn utxo_page(_: u64, s: &Served) {
    let page = s
        .node
        .avm("X")
        .get_utxos(GetUtxosParams::new(vec![s.sink.clone()]).with_limit(1024u32))
        .await
        .unwrap();
    assert_eq!(page.num_fetched.get(), 1024.min(s.blocks));
}

#[tokio::main]
async fn main() {
    let small = arg("--small", 1_100);
    let large = arg("--large", 1_000_000);
    let calls = arg("--calls", 200);
    // `--keep DIR`: build the histories in DIR/<blocks> and keep them for the next run.
    let args: Vec<String> = std::env::args().collect();
    let keep = args
        .iter()
        .position(|a| a == "--keep")
        .and_then(|i| args.get(i + 1))
        .map(std::path::PathBuf::from);
    let dir = |n: u64| match &keep {
        Some(d) => d.join(n.to_string()),
        None => std::env::temp_dir().join(format!("devnet-bench-{n}-{}", std::process::id())),
    };
    eprintln!("preparing {small} and {large} blocks on disk, {calls} calls per measure…");
    let a = prepare(small, dir(small), keep.is_some()).await;
    let b = prepare(large, dir(large), keep.is_some()).await;
    let range = alternate(calls, &a, &b, Measure::Range).await;
    let by_index = alternate(calls, &a, &b, Measure::ByIndex).await;
    let page = alternate(calls, &a, &b, Measure::UtxoPage).await;
    let rss = status_kib("VmRSS:");
    let peak = status_kib("VmHWM:");
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "| Measure | {} blocks | {} blocks | Ratio | Target |",
        a.blocks, b.blocks
    );
    println!("|---|---|---|---|---|");
    for (name, (x, y)) in [
        ("index.getContainerRange(1024)", range),
        ("index.getContainerByIndex", by_index),
        ("avm.getUTXOs, a 1,024-UTXO page", page),
    ] {
        println!(
            "| {name} | {:.0} µs | {:.0} µs | {:.2} | ≤ 1.3 |",
            us(x),
            us(y),
            us(y) / us(x)
        );
    }
    let built = |b: Option<Duration>| {
        b.map_or("kept from an earlier run".to_string(), |d| {
            format!("{:.1} s", d.as_secs_f64())
        })
    };
    println!(
        "| building the history | {} | {} | | |",
        built(a.build),
        built(b.build)
    );
    println!(
        "| memory after building and measuring | | {:.0} MB (peak {:.0} MB) | | < 500 MB |",
        rss as f64 / 1024.0,
        peak as f64 / 1024.0
    );
}
