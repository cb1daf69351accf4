//! The devnet's sustained acceptance rate for signed X-chain transfers, issued over HTTP on
//! 127.0.0.1 by a local load generator, and where the time goes.
//!
//! A devnet (in memory, or on disk with `--disk`) serves on an ephemeral port with its block
//! builder running. The faucet first splits its AVAX into `--chains` UTXOs of a load key;
//! every chain then gets `--rounds` transfers signed ahead (each spends the previous one's
//! output, so signing is not measured). The generator issues round after round with
//! `--concurrency` HTTP connections through the generated client (`avm.issueTx`), each round
//! once the previous one is accepted (the node refuses to spend an output that is not yet
//! accepted), and stops after `--seconds`. Then, side by side in the same run, as many chains
//! again whose transfers the wallet (`avalanche_rpc::transact`) builds and signs as they are
//! issued, for as long: the rate a Rust application sending through the crate gets, and its
//! ratio to the transfers signed ahead. It reports the accepted transfers per second, the
//! share of the time spent issuing (HTTP, decoding, verifying into the mempool) and waiting
//! for blocks (building, verifying again, committing), and, measured in the same process
//! without HTTP, what one verification and one accepted transfer cost.
//!
//! With `--chain P`, the same on the P-chain (`platform.issueTx`): one round of `--chains`
//! transfers (default 1,000), each from a UTXO of its own, issued at once; the P-chain's
//! acceptance rate is bound by its gas capacity (100,000 gas a second), so what compares with
//! the X-chain is the cost of issuing (admission verifies outside the mempool's lock, in
//! parallel, on both chains) and of one verification in process, measured side by side with
//! an X-chain transfer's in the same run (the ratio P/X).
//!
//!   cargo run --release -p avalanche-devnet --example throughput [-- --chains 2000 --seconds 20]
//!   cargo run --release -p avalanche-devnet --example throughput -- --chain P
//!
//! With `--url URL`, the X-chain load over HTTP against any node serving the local genesis
//! (`remote.rs`): how the devnet and AvalancheGo compare (`tests/node/compare`).

mod remote;

use avalanche_devnet::context;
use avalanche_devnet::engine::Vm;
use avalanche_devnet::genesis::test_keys;
use avalanche_devnet::ledger::Chain;
use avalanche_devnet::{Devnet, Options};
use avalanche_rpc::avm::{AvmClient, IssueTxParams};
use avalanche_rpc::codec::{avax, avm, secp256k1fx};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::rpc::Node;
use avalanche_rpc::transact::{Keychain, Payer, p, x};
use avalanche_rpc::wire::{HexBytes, Id, ShortId};
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

/// Owners of one address.
fn one(a: ShortId) -> secp256k1fx::OutputOwners {
    secp256k1fx::OutputOwners::new(0, 1, vec![a])
}

/// `key` alone pays, at the devnet's time.
fn payer(d: &Devnet, key: &PrivateKey) -> Payer {
    Payer::new(vec![key.address()], d.engine.clock.now())
}

/// The X-chain UTXOs of `key`.
fn x_utxos(d: &Devnet, key: &PrivateKey) -> Vec<avm::Utxo> {
    let r = d.engine.store.read().unwrap();
    avalanche_devnet::xchain::all_utxos_of(&r, key.address().as_bytes())
        .unwrap()
        .into_iter()
        .map(|u| u.utxo)
        .collect()
}

/// The outputs of the accepted transfer `tx` (ID `id`) that `to` alone owns, as UTXOs.
fn outputs_to(tx: &avm::Tx, id: Id, asset: Id, to: ShortId) -> Vec<avm::Utxo> {
    let avm::UnsignedTx::BaseTx(b) = &tx.unsigned else {
        unreachable!("a BaseTx")
    };
    let mut utxos = Vec::new();
    for (i, o) in b.base.outputs.iter().enumerate() {
        if let avm::TransferableOut::TransferOutput(t) = &o.output
            && t.owners.addresses == [to]
        {
            utxos.push(avm::Utxo::new(
                avax::UtxoId::new(id, i as u32),
                asset,
                avm::UtxoOutput::Secp256k1fxTransferOutput(t.clone()),
            ));
        }
    }
    utxos
}

/// The change output of a signed one-input transfer as the next one's input.
fn next_utxo(tx: &avm::Tx, asset: Id) -> avm::Utxo {
    let avm::UnsignedTx::BaseTx(b) = &tx.unsigned else {
        unreachable!("a BaseTx")
    };
    let avm::TransferableOut::TransferOutput(t) = &b.base.outputs[0].output else {
        unreachable!("a TransferOutput")
    };
    avm::Utxo::new(
        avax::UtxoId::new(tx.id().expect("encodes"), 0),
        asset,
        avm::UtxoOutput::Secp256k1fxTransferOutput(t.clone()),
    )
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.windows(2).any(|w| w[0] == "--chain" && w[1] == "P") {
        p_chain().await;
        return;
    }
    let chains = arg("--chains", 2_000) as usize;
    let rounds = arg("--rounds", 40) as usize;
    let seconds = arg("--seconds", 20);
    let concurrency = arg("--concurrency", 16) as usize;
    if let Some(url) = args
        .windows(2)
        .find(|w| w[0] == "--url")
        .map(|w| w[1].clone())
    {
        remote::run(&url, chains, rounds, seconds, concurrency).await;
        return;
    }
    let disk = std::env::args().any(|a| a == "--disk");
    let dir = std::env::temp_dir().join(format!("devnet-throughput-{}", std::process::id()));
    let d = Arc::new(
        Devnet::open(Options {
            network_id: 12345,
            db_dir: disk.then(|| dir.clone()),
            index_enabled: true,
            index_allow_incomplete: false,
            staking_port: 9651,
            genesis: None,
            mempool_bytes: avalanche_devnet::engine::pool::MAX_BYTES,
            db_cache_bytes: avalanche_devnet::store::CACHE_BYTES,
            p_chain_lead: avalanche_devnet::LEAD,
            upgrade_file: None,
        })
        .expect("a devnet"),
    );
    let avax = d.genesis.avax_asset_id;
    let faucet = test_keys().swap_remove(0);
    let faucet_keys = Keychain::from_keys([faucet.clone()]);
    let load = PrivateKey::from_bytes(&[7; 32]).unwrap();

    // The faucet splits AVAX into `chains` UTXOs of the load key for the transfers signed
    // ahead, and as many for those the wallet builds as it issues; 100 per transfer.
    let started = Instant::now();
    let mut heads = Vec::with_capacity(2 * chains);
    while heads.len() < 2 * chains {
        let n = (2 * chains - heads.len()).min(100);
        let payments: Vec<avm::TransferableOutput> = (0..n)
            .map(|_| x::output(avax, 10_000_000_000, one(load.address())))
            .collect();
        let cx = context::of(&d).unwrap();
        let built = x::base_tx(&cx, &x_utxos(&d, &faucet), &payer(&d, &faucet), &payments);
        let tx = context::sign(built, &faucet_keys).unwrap();
        let id = d.accept_now(Chain::X, tx.to_bytes().unwrap()).unwrap();
        heads.extend(outputs_to(&tx, id, avax, load.address()));
    }
    heads.truncate(2 * chains);
    let wallet_heads = heads.split_off(chains);
    // Every chain's transfers, signed ahead: round r of chain j spends round r - 1's output.
    let mut signed: Vec<Vec<Vec<u8>>> = vec![Vec::with_capacity(chains); rounds];
    let (cx, load_keys) = (
        context::of(&d).unwrap(),
        Keychain::from_keys([load.clone()]),
    );
    for head in heads {
        let mut current = head;
        for round in signed.iter_mut() {
            let from = payer(&d, &load);
            let built = x::base_tx(&cx, std::slice::from_ref(&current), &from, &[]);
            let tx = context::sign(built, &load_keys).unwrap();
            current = next_utxo(&tx, avax);
            round.push(tx.to_bytes().unwrap());
        }
    }
    eprintln!(
        "prepared {chains} chains x {rounds} transfers in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // Serve, with the block builder running.
    let (url, _server) = avalanche_devnet::serve_ephemeral(d.clone()).await.unwrap();
    tokio::spawn(avalanche_devnet::devnet::build_blocks(d.clone()));
    let node = Node::http(&url).unwrap();

    let x_height = || {
        let r = d.engine.store.read().unwrap();
        avalanche_devnet::xchain::height(&r).unwrap()
    };
    let height_before = x_height();
    let (mut issuing, mut waiting) = (Duration::ZERO, Duration::ZERO);
    let mut accepted = 0usize;
    let run = Instant::now();
    for round in signed {
        if run.elapsed() >= Duration::from_secs(seconds) {
            break;
        }
        let t = Instant::now();
        let round = Arc::new(round);
        let mut tasks = Vec::new();
        for c in 0..concurrency {
            let (node, round) = (node.clone(), round.clone());
            tasks.push(tokio::spawn(async move {
                let x = node.avm("X");
                let mut ok = 0usize;
                for tx in round.iter().skip(c).step_by(concurrency) {
                    if x.issue_tx(IssueTxParams::new(HexBytes::with_checksum(tx)))
                        .await
                        .is_ok()
                    {
                        ok += 1;
                    }
                }
                ok
            }));
        }
        let mut issued = 0;
        for t in tasks {
            issued += t.await.unwrap();
        }
        assert_eq!(issued, round.len(), "every transfer is taken");
        issuing += t.elapsed();
        let t = Instant::now();
        while d.pending() > 0 {
            tokio::time::sleep(Duration::from_micros(200)).await;
        }
        waiting += t.elapsed();
        accepted += issued;
    }
    let elapsed = run.elapsed();
    let blocks = x_height() - height_before;

    // The same, each transfer built and signed by the wallet (`transact::x::base_tx`, `sign`)
    // as it is issued, from the output the previous round left (what an application sending
    // from Rust does), for as long.
    let (wallet_accepted, wallet_elapsed) = {
        let cx = Arc::new(context::of(&d).unwrap());
        let time = d.engine.clock.now();
        let keys = Arc::new(Keychain::from_keys([load.clone()]));
        let mut heads = Arc::new(wallet_heads);
        let mut accepted = 0usize;
        let run = Instant::now();
        for _ in 0..rounds {
            if run.elapsed() >= Duration::from_secs(seconds) {
                break;
            }
            let mut tasks = Vec::new();
            for c in 0..concurrency {
                let (node, heads, cx, keys) =
                    (node.clone(), heads.clone(), cx.clone(), keys.clone());
                let from = Payer::new(vec![load.address()], time);
                tasks.push(tokio::spawn(async move {
                    let x = node.avm("X");
                    let mut next = Vec::new();
                    for (i, head) in heads.iter().enumerate().skip(c).step_by(concurrency) {
                        let mut tx = x::base_tx(&cx, std::slice::from_ref(head), &from, &[])
                            .expect("builds");
                        tx.sign(&keys).expect("signs");
                        let tx = tx.signed().expect("signed");
                        let bytes = tx.to_bytes().expect("encodes");
                        if x.issue_tx(IssueTxParams::new(HexBytes::with_checksum(&bytes)))
                            .await
                            .is_ok()
                        {
                            next.push((i, next_utxo(&tx, avax)));
                        }
                    }
                    next
                }));
            }
            let mut after = (*heads).clone();
            let mut issued = 0;
            for t in tasks {
                for (i, u) in t.await.unwrap() {
                    after[i] = u;
                    issued += 1;
                }
            }
            assert_eq!(issued, after.len(), "every transfer is taken");
            while d.pending() > 0 {
                tokio::time::sleep(Duration::from_micros(200)).await;
            }
            accepted += issued;
            heads = Arc::new(after);
        }
        (accepted, run.elapsed())
    };

    // In the same process, without HTTP: what verifying one transfer costs (issue into a
    // fresh mempool) and what accepting one costs (a block of them, committed).
    let (per_verify, per_recover) = {
        let fresh = Devnet::open(Options {
            network_id: 12345,
            db_dir: None,
            index_enabled: true,
            index_allow_incomplete: false,
            staking_port: 9651,
            genesis: None,
            mempool_bytes: avalanche_devnet::engine::pool::MAX_BYTES,
            db_cache_bytes: avalanche_devnet::store::CACHE_BYTES,
            p_chain_lead: avalanche_devnet::LEAD,
            upgrade_file: None,
        })
        .unwrap();
        let utxos = x_utxos(&fresh, &faucet);
        let cx = context::of(&fresh).unwrap();
        // Distinct transfers, so every signature is recovered (none is remembered).
        let n = 500u32;
        let txs: Vec<Vec<u8>> = (1..=n)
            .map(|i| {
                let pay = [x::output(avax, u64::from(i), one(load.address()))];
                let built = x::base_tx(&cx, &utxos, &payer(&fresh, &faucet), &pay);
                context::sign(built, &faucet_keys)
                    .unwrap()
                    .to_bytes()
                    .unwrap()
            })
            .collect();
        let t = Instant::now();
        for bytes in &txs {
            let tx = fresh.x.vm.decode(bytes).unwrap();
            let r = fresh.engine.store.read().unwrap();
            fresh
                .x
                .vm
                .verify_issued(&r, &tx, Id::from_sha256(bytes), fresh.engine.clock.now())
                .unwrap();
        }
        let per_verify = t.elapsed() / n;
        // Of which: recovering the signer from the signature.
        let hash = [7u8; 32];
        let sig = load.sign_hash(&hash);
        let t = Instant::now();
        for _ in 0..n {
            avalanche_rpc::keys::PublicKey::recover(&hash, &sig).unwrap();
        }
        (per_verify, t.elapsed() / n)
    };
    let rate = accepted as f64 / elapsed.as_secs_f64();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!("| Measure | Value |");
    println!("|---|---|");
    println!(
        "| signed X-chain transfers accepted | {accepted} in {:.1} s, {blocks} blocks ({} storage) |",
        elapsed.as_secs_f64(),
        if disk { "redb on disk" } else { "in memory" }
    );
    println!("| sustained acceptance rate | {rate:.0} transfers/s (target ≥ 2,000) |");
    let wallet_rate = wallet_accepted as f64 / wallet_elapsed.as_secs_f64();
    println!(
        "| the same, each built and signed by the wallet as it is issued | {wallet_rate:.0} transfers/s ({wallet_accepted} in {:.1} s): {:.2}x the transfers signed ahead |",
        wallet_elapsed.as_secs_f64(),
        wallet_rate / rate
    );
    println!(
        "| time issuing (HTTP, decode, verify into the mempool) | {:.0} % ({:.0} µs a transfer) |",
        100.0 * issuing.as_secs_f64() / elapsed.as_secs_f64(),
        us(issuing) / accepted.max(1) as f64
    );
    println!(
        "| time waiting for blocks (build, verify again, commit) | {:.0} % ({:.0} µs a transfer) |",
        100.0 * waiting.as_secs_f64() / elapsed.as_secs_f64(),
        us(waiting) / accepted.max(1) as f64
    );
    println!(
        "| one verification in process (decode, UTXO read, signature recovery) | {:.0} µs |",
        us(per_verify)
    );
    println!(
        "| of which recovering the signer (k256) | {:.0} µs |",
        us(per_recover)
    );
    if disk {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A devnet in memory with its defaults.
fn in_memory() -> Devnet {
    Devnet::open(Options {
        network_id: 12345,
        db_dir: None,
        index_enabled: true,
        index_allow_incomplete: false,
        staking_port: 9651,
        genesis: None,
        mempool_bytes: avalanche_devnet::engine::pool::MAX_BYTES,
        db_cache_bytes: avalanche_devnet::store::CACHE_BYTES,
        p_chain_lead: avalanche_devnet::LEAD,
        upgrade_file: None,
    })
    .expect("a devnet")
}

/// The P-chain mode: one round of `--chains` transfers issued at once over HTTP.
async fn p_chain() {
    use avalanche_devnet::pchain;
    use avalanche_rpc::platform::{IssueTxParams, PlatformClient};
    let chains = arg("--chains", 1_000) as usize;
    let seconds = arg("--seconds", 20);
    let concurrency = arg("--concurrency", 16) as usize;
    let d = Arc::new(in_memory());
    let avax = d.genesis.avax_asset_id;
    let faucet = test_keys().swap_remove(0);
    let faucet_keys = Keychain::from_keys([faucet.clone()]);
    let load = PrivateKey::from_bytes(&[7; 32]).unwrap();
    let p_utxos = |d: &Devnet, key: &PrivateKey| {
        let r = d.engine.store.read().unwrap();
        pchain::utxos_of(&r, key.address().as_bytes(), None, usize::MAX)
            .unwrap()
            .into_iter()
            .map(|u| u.utxo)
            .collect::<Vec<_>>()
    };
    // The faucet splits AVAX into `chains` UTXOs of the load key, 100 per transfer.
    let started = Instant::now();
    let mut made = 0;
    while made < chains {
        let n = (chains - made).min(100);
        let payments: Vec<_> = (0..n)
            .map(|_| p::output(avax, 10_000_000_000, one(load.address())))
            .collect();
        let cx = context::of(&d).unwrap();
        let from = payer(&d, &faucet);
        let built = p::base_tx(&cx, &p_utxos(&d, &faucet), &from, &payments);
        let tx = context::sign(built, &faucet_keys).unwrap();
        d.accept_now(Chain::P, tx.to_bytes().unwrap()).unwrap();
        made += n;
    }
    // One transfer from each, signed ahead, at twice the price now.
    let (cx, load_keys) = (
        context::of(&d).unwrap(),
        Keychain::from_keys([load.clone()]),
    );
    let signed: Vec<Vec<u8>> = p_utxos(&d, &load)
        .iter()
        .take(chains)
        .map(|u| {
            let built = p::base_tx(&cx, std::slice::from_ref(u), &payer(&d, &load), &[]);
            context::sign(built, &load_keys)
                .unwrap()
                .to_bytes()
                .unwrap()
        })
        .collect();
    assert_eq!(signed.len(), chains);
    eprintln!(
        "prepared {chains} P-chain transfers in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let (url, _server) = avalanche_devnet::serve_ephemeral(d.clone()).await.unwrap();
    tokio::spawn(avalanche_devnet::devnet::build_blocks(d.clone()));
    let node = Node::http(&url).unwrap();
    let p_height = || {
        let r = d.engine.store.read().unwrap();
        avalanche_devnet::ledger::height(&r, Chain::P).unwrap()
    };
    let height_before = p_height();
    let run = Instant::now();
    let signed = Arc::new(signed);
    let mut tasks = Vec::new();
    for c in 0..concurrency {
        let (node, signed) = (node.clone(), signed.clone());
        tasks.push(tokio::spawn(async move {
            let p = node.platform();
            let mut ok = 0usize;
            for tx in signed.iter().skip(c).step_by(concurrency) {
                match p
                    .issue_tx(IssueTxParams::new(HexBytes::with_checksum(tx)))
                    .await
                {
                    Ok(_) => ok += 1,
                    Err(e) => eprintln!("refused: {e}"),
                }
            }
            ok
        }));
    }
    let mut issued = 0;
    for t in tasks {
        issued += t.await.unwrap();
    }
    let issuing = run.elapsed();
    assert_eq!(issued, chains, "every transfer is taken");
    while d.pending() > 0 && run.elapsed() < Duration::from_secs(seconds) {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let elapsed = run.elapsed();
    let accepted = chains - d.pending();
    let blocks = p_height() - height_before;

    // In process, without HTTP, side by side in rounds: one verification against the last
    // accepted state of a P-chain transfer and of an X-chain one (each one input, one
    // signature, recovered every time).
    let (per_p, per_x) = {
        let fresh = in_memory();
        let x_utxos = x_utxos(&fresh, &faucet);
        let p_utxos = p_utxos(&fresh, &faucet);
        let cx = context::of(&fresh).unwrap();
        let r = fresh.engine.store.read().unwrap();
        let n = 500u32;
        let from = payer(&fresh, &faucet);
        let p_txs: Vec<Vec<u8>> = (1..=n)
            .map(|i| {
                let pay = [p::output(avax, u64::from(i), one(load.address()))];
                let built = p::base_tx(&cx, &p_utxos, &from, &pay);
                let tx = context::sign(built, &faucet_keys).unwrap();
                tx.to_bytes().unwrap()
            })
            .collect();
        let now = fresh.engine.clock.now();
        let x_txs: Vec<Vec<u8>> = (1..=n)
            .map(|i| {
                let pay = [x::output(avax, u64::from(i), one(load.address()))];
                let built = x::base_tx(&cx, &x_utxos, &from, &pay);
                let tx = context::sign(built, &faucet_keys).unwrap();
                tx.to_bytes().unwrap()
            })
            .collect();
        let (mut p_time, mut x_time) = (Duration::ZERO, Duration::ZERO);
        for round in 0..5 {
            let t = Instant::now();
            for bytes in p_txs.iter().skip(round * 100).take(100) {
                let tx = fresh.p.vm.decode(bytes).unwrap();
                assert_eq!(tx.credentials.len(), 1);
                fresh
                    .p
                    .vm
                    .verify_issued(&r, &tx, Id::from_sha256(bytes), now)
                    .unwrap();
            }
            p_time += t.elapsed();
            let t = Instant::now();
            for bytes in x_txs.iter().skip(round * 100).take(100) {
                let tx = fresh.x.vm.decode(bytes).unwrap();
                assert_eq!(tx.credentials.len(), 1);
                fresh
                    .x
                    .vm
                    .verify_issued(&r, &tx, Id::from_sha256(bytes), now)
                    .unwrap();
            }
            x_time += t.elapsed();
        }
        (p_time / n, x_time / n)
    };
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!("| Measure | Value |");
    println!("|---|---|");
    println!(
        "| signed P-chain transfers issued at once | {chains} over {concurrency} connections |"
    );
    println!(
        "| time issuing (HTTP, decode, verify into the mempool) | {:.0} ms ({:.0} µs a transfer) |",
        issuing.as_secs_f64() * 1e3,
        us(issuing) / chains as f64
    );
    println!(
        "| accepted within {seconds} s (bound by 100,000 gas a second) | {accepted} in {:.1} s, {blocks} blocks |",
        elapsed.as_secs_f64()
    );
    println!(
        "| one verification in process, P-chain transfer (decode, UTXO read, recovery, fee) | {:.0} µs |",
        us(per_p)
    );
    println!(
        "| the same for an X-chain transfer, side by side | {:.0} µs (P/X {:.2}) |",
        us(per_x),
        per_p.as_secs_f64() / per_x.as_secs_f64()
    );
}
