//! The devnet benchmark: what a call costs as the history grows. Builds a devnet on disk with a
//! thousand and then a million blocks (each an ordinary signed transfer verified and accepted
//! by the devnet's own block path, a thousand blocks per store commit), each paying one more
//! UTXO to a sink address, and measures over HTTP on 127.0.0.1, side by side:
//! `index.getContainerRange(1024)`, `index.getContainerByIndex` and a 1,024-UTXO
//! `avm.getUTXOs` page, at both sizes, with their ratio (target ≤ 1.3); the process's memory
//! after the large build (target < 500 MB) and how long each build took.
//!
//!   cargo run --release -p avalanche-devnet --example bench [-- --large 1000000 --calls 200]

use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_devnet::mempool::Pending;
use avalanche_devnet::wallet::{self, Payment};
use avalanche_devnet::xchain::Utxo;
use avalanche_devnet::{Devnet, Options, http::Gate};
use avalanche_rpc::avm::{AvmClient, GetUtxosParams};
use avalanche_rpc::codec::{avax, avm};
use avalanche_rpc::index::{GetContainerByIndexParams, GetContainerRangeParams, IndexClient};
use avalanche_rpc::rpc::Node;
use avalanche_rpc::types::UtxoIndex;
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
    let r = d.store.read().unwrap();
    let mut current = avalanche_devnet::xchain::all_utxos_of(&r, payer.address().as_bytes())
        .unwrap()
        .into_iter()
        .filter(|u| u.utxo.asset_id == d.genesis.avax_asset_id)
        .max_by_key(|u| u.amount().unwrap_or(0))
        .expect("ewoq holds AVAX");
    drop(r);
    let started = Instant::now();
    let mut done = 0;
    while done < blocks {
        let w = d.store.write().unwrap();
        for _ in 0..per_commit.min(blocks - done) {
            let tx = wallet::base_tx(
                &d.rules,
                std::slice::from_ref(&payer),
                std::slice::from_ref(&current),
                &[Payment {
                    asset: d.genesis.avax_asset_id,
                    amount: 1,
                    to: sink,
                }],
                payer.address(),
                u64::MAX / 2,
            )
            .expect("ewoq can pay");
            let bytes = tx.to_bytes().unwrap();
            let id = Id::from_sha256(&bytes);
            let built = d
                .x_block_in(
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
            current = Utxo::new(avm::Utxo::new(
                avax::UtxoId::new(id, index),
                d.genesis.avax_asset_id,
                avm::UtxoOutput::Secp256k1fxTransferOutput(change),
            ));
            done += 1;
        }
        w.commit().unwrap();
    }
    started.elapsed()
}

/// Median time of `calls` runs of `f`.
async fn median<F, Fut>(calls: u64, mut f: F) -> Duration
where
    F: FnMut(u64) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let mut times = Vec::new();
    for i in 0..calls {
        let t = Instant::now();
        f(i).await;
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

struct Row {
    blocks: u64,
    build: Duration,
    range: Duration,
    by_index: Duration,
    utxo_page: Duration,
}

async fn measure(blocks: u64, calls: u64) -> Row {
    let dir = std::env::temp_dir().join(format!("devnet-bench-{blocks}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = Arc::new(
        Devnet::open(Options {
            network_id: 12345,
            db_dir: Some(dir.clone()),
            index_enabled: true,
            index_allow_incomplete: false,
            staking_port: 9651,
        })
        .expect("a devnet on disk"),
    );
    let sink = avalanche_rpc::keys::PrivateKey::from_bytes(&[3; 32])
        .unwrap()
        .address();
    let build_time = {
        let d = d.clone();
        tokio::task::spawn_blocking(move || build(&d, blocks, 1_000, sink))
            .await
            .unwrap()
    };
    let app = avalanche_devnet::app(
        d.clone(),
        false,
        Gate {
            hosts: vec!["*".into()],
            origins: vec!["*".into()],
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let _ = avalanche_rpc::rpc::serve(listener, app, Default::default()).await;
    });
    let node = Node::http(&url).unwrap();
    let index = node.index("X", "block");
    let x = node.avm("X");
    let sink_address = Address::new(Some("X"), "local", *sink.as_bytes()).unwrap();
    // Spread the positions over the whole history.
    let spread = |i: u64, span: u64| (i.wrapping_mul(2_654_435_761)) % span.max(1);
    let range = median(calls, |i| {
        let index = index.clone();
        let start = spread(i, blocks.saturating_sub(1024));
        async move {
            let r = index
                .get_container_range(GetContainerRangeParams::new(1024u64).with_start_index(start))
                .await
                .unwrap();
            assert_eq!(r.containers.len() as u64, 1024.min(blocks));
        }
    })
    .await;
    let by_index = median(calls, |i| {
        let index = index.clone();
        async move {
            index
                .get_container_by_index(
                    GetContainerByIndexParams::new().with_index(spread(i, blocks)),
                )
                .await
                .unwrap();
        }
    })
    .await;
    // Pages of the sink's UTXOs, each starting at a UTXO met on an earlier page.
    let first = x
        .get_utxos(GetUtxosParams::new(vec![sink_address.clone()]).with_limit(1024u32))
        .await
        .unwrap();
    // From the beginning, and (when the sink holds two pages) from where the first ended.
    let mut starts = vec![UtxoIndex::new(String::new(), String::new())];
    if blocks >= 2048 {
        starts.push(first.end_index.clone());
    }
    let utxo_page = median(calls, |i| {
        let x = x.clone();
        let a = sink_address.clone();
        let start = starts[(i as usize) % starts.len()].clone();
        async move {
            let page = x
                .get_utxos(
                    GetUtxosParams::new(vec![a])
                        .with_limit(1024u32)
                        .with_start_index(start),
                )
                .await
                .unwrap();
            assert_eq!(page.num_fetched.get(), 1024.min(blocks));
        }
    })
    .await;
    server.abort();
    drop(d);
    let _ = std::fs::remove_dir_all(&dir);
    Row {
        blocks,
        build: build_time,
        range,
        by_index,
        utxo_page,
    }
}

#[tokio::main]
async fn main() {
    let small = arg("--small", 1_000);
    let large = arg("--large", 1_000_000);
    let calls = arg("--calls", 200);
    let _ = AVAX;
    eprintln!("building {small} and {large} blocks on disk, {calls} calls per measure…");
    let a = measure(small, calls).await;
    let b = measure(large, calls).await;
    let rss = status_kib("VmRSS:");
    let peak = status_kib("VmHWM:");
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "| Measure | {} blocks | {} blocks | Ratio | Target |",
        a.blocks, b.blocks
    );
    println!("|---|---|---|---|---|");
    for (name, x, y) in [
        ("index.getContainerRange(1024)", a.range, b.range),
        ("index.getContainerByIndex", a.by_index, b.by_index),
        ("avm.getUTXOs, a 1,024-UTXO page", a.utxo_page, b.utxo_page),
    ] {
        println!(
            "| {name} | {:.0} µs | {:.0} µs | {:.2} | ≤ 1.3 |",
            us(x),
            us(y),
            us(y) / us(x)
        );
    }
    println!(
        "| building the history | {:.1} s | {:.1} s | | |",
        a.build.as_secs_f64(),
        b.build.as_secs_f64()
    );
    println!(
        "| memory after the large build | | {:.0} MB (peak {:.0} MB) | | < 500 MB |",
        rss as f64 / 1024.0,
        peak as f64 / 1024.0
    );
}
