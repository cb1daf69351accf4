//! `--url URL`: the same X-chain load against any node that serves the local genesis (the
//! devnet started with `--genesis-file`, or AvalancheGo), over HTTP only, so the two can be
//! measured side by side with one program.
//!
//! The genesis key (ewoq) splits its X-chain AVAX into `--chains` UTXOs of a load key, each
//! split accepted before the next. Every chain then gets `--rounds` transfers signed ahead
//! (each spends the previous one's change). Round after round, `--concurrency` connections
//! issue the round's transfers (`avm.issueTx`) and then wait until each is accepted
//! (`avm.getTx`, every 10 ms), for `--seconds`. What is measured is accepted transfers per
//! second from the first issue to the last acceptance; the node's own pace (its block
//! builder, its minimum block delay) is part of it, which is the point. Afterwards the load
//! key holds exactly `--chains` UTXOs: the last line names its address, for a `getUTXOs` page
//! of that size.

use avalanche_devnet::genesis::test_keys;
use avalanche_rpc::avm::{AvmClient, GetTxParams, IssueTxParams};
use avalanche_rpc::codec::avm;
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::rpc::Node;
use avalanche_rpc::transact::{self, Context, Keychain, Payer, x};
use avalanche_rpc::wire::{Address, HexBytes, Id};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long one transaction may take to be accepted before the run fails.
const PATIENCE: Duration = Duration::from_secs(60);

pub async fn run(url: &str, chains: usize, rounds: usize, seconds: u64, concurrency: usize) {
    let node = Node::http(url).expect("a node URL");
    let cx = Context::from_node(&node).await.expect("the node's context");
    let avax = cx.avax_asset_id;
    let faucet = test_keys().swap_remove(0);
    let faucet_keys = Keychain::from_keys([faucet.clone()]);
    let load = PrivateKey::from_bytes(&[7; 32]).expect("a key");
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs()
    };

    // The split, 100 outputs a transaction, each accepted before the next is built.
    let started = Instant::now();
    let mut heads: Vec<avm::Utxo> = Vec::with_capacity(chains);
    while heads.len() < chains {
        let n = (chains - heads.len()).min(100);
        let payments: Vec<avm::TransferableOutput> = (0..n)
            .map(|_| x::output(avax, 10_000_000_000, super::one(load.address())))
            .collect();
        let utxos = transact::x::utxos(&node, &cx, &[faucet.address()], None)
            .await
            .expect("the faucet's UTXOs");
        let mut built = x::base_tx(
            &cx,
            &utxos,
            &Payer::new(vec![faucet.address()], now()),
            &payments,
        )
        .expect("the split builds");
        built.sign(&faucet_keys).expect("the faucet signs");
        let tx = built.signed().expect("signed");
        let id = x::issue(&node, &tx)
            .await
            .expect("the split is taken")
            .wait_for(PATIENCE)
            .await
            .expect("the split is accepted");
        heads.extend(super::outputs_to(&tx, id, avax, load.address()));
    }
    heads.truncate(chains);

    // Every chain's transfers, signed ahead: round r of chain j spends round r - 1's change.
    let load_keys = Keychain::from_keys([load.clone()]);
    let mut signed: Vec<Vec<(Id, Vec<u8>)>> = vec![Vec::with_capacity(chains); rounds];
    for head in heads {
        let mut current = head;
        for round in signed.iter_mut() {
            let mut built = x::base_tx(
                &cx,
                std::slice::from_ref(&current),
                &Payer::new(vec![load.address()], now()),
                &[],
            )
            .expect("a transfer builds");
            built.sign(&load_keys).expect("the load key signs");
            let tx = built.signed().expect("signed");
            current = super::next_utxo(&tx, avax);
            let bytes = tx.to_bytes().expect("encodes");
            round.push((tx.id().expect("encodes"), bytes));
        }
    }
    eprintln!(
        "funded and signed {chains} chains x {rounds} transfers in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    let mut accepted = 0usize;
    let run = Instant::now();
    for round in signed {
        if run.elapsed() >= Duration::from_secs(seconds) {
            break;
        }
        let round = Arc::new(round);
        let mut tasks = Vec::new();
        for c in 0..concurrency {
            let (node, round) = (node.clone(), round.clone());
            tasks.push(tokio::spawn(async move {
                let x = node.avm("X");
                let mine: Vec<&(Id, Vec<u8>)> = round.iter().skip(c).step_by(concurrency).collect();
                for (_, bytes) in &mine {
                    if let Err(e) = x
                        .issue_tx(IssueTxParams::new(HexBytes::with_checksum(bytes)))
                        .await
                    {
                        return Err(format!("avm.issueTx refused a transfer: {e}"));
                    }
                }
                for (id, _) in &mine {
                    let since = Instant::now();
                    while x.get_tx(GetTxParams::new(*id)).await.is_err() {
                        if since.elapsed() > PATIENCE {
                            return Err(format!("{id} not accepted within {PATIENCE:?}"));
                        }
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
                }
                Ok(mine.len())
            }));
        }
        for t in tasks {
            accepted += t.await.expect("a task").unwrap_or_else(|e| panic!("{e}"));
        }
    }
    let elapsed = run.elapsed();
    let rate = accepted as f64 / elapsed.as_secs_f64();
    let address = Address::new(Some("X"), &cx.hrp, *load.address().as_bytes()).expect("an address");
    println!(
        "{accepted} transfers accepted in {:.1} s: {rate:.0} transfers/s ({chains} chains, {concurrency} connections)",
        elapsed.as_secs_f64()
    );
    println!(
        "RESULT accepted={accepted} transfers_per_s={rate:.0} utxos={chains} address={address}"
    );
}
