//! The mempools' admission rules, the same on every chain. Two transactions spending one UTXO,
//! each sent from many connections at once while blocks are being built, round after round:
//! `issueTx` acknowledges only what is then accepted, exactly one of the two is accepted each
//! round, and the balances are exact. A pool holds at most its byte cap.

use crate::common::{Devnet, keychain, one};
use avalanche_devnet::context::{self, sign};
use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_devnet::ledger::{self, Chain};
use avalanche_rpc::avm::{AvmClient, AvmTxStatus, GetTxStatusParams, IssueTxParams};
use avalanche_rpc::platform::{self, PlatformClient, TxStatus};
use avalanche_rpc::rpc::{HttpTransport, Node};
use avalanche_rpc::transact::{Payer, p, x};
use avalanche_rpc::wire::{Address, HexBytes, Id, ShortId};
use std::sync::Arc;
use std::time::Duration;

const ROUNDS: usize = 100;
/// Connections sending each of the two transactions.
const SENDERS: usize = 16;

/// Sends `a` and `b` (hex with checksum) from `SENDERS` connections each, all released at
/// once; the IDs acknowledged as success.
async fn race(url: &str, chain: char, a: Vec<u8>, b: Vec<u8>) -> Vec<Id> {
    let start = Arc::new(tokio::sync::Barrier::new(2 * SENDERS));
    let mut tasks = Vec::new();
    for i in 0..2 * SENDERS {
        let bytes = HexBytes::with_checksum(if i % 2 == 0 { &a } else { &b });
        // A node of its own: its own connection.
        let node: Node<HttpTransport> = Node::http(url).unwrap();
        let start = start.clone();
        tasks.push(tokio::spawn(async move {
            start.wait().await;
            match chain {
                'X' => node
                    .avm("X")
                    .issue_tx(IssueTxParams::new(bytes))
                    .await
                    .ok()
                    .map(|r| r.tx_id),
                _ => node
                    .platform()
                    .issue_tx(platform::IssueTxParams::new(bytes))
                    .await
                    .ok()
                    .map(|r| r.tx_id),
            }
        }));
    }
    let mut acknowledged = Vec::new();
    for t in tasks {
        if let Some(id) = t.await.unwrap() {
            acknowledged.push(id);
        }
    }
    acknowledged.sort();
    acknowledged.dedup();
    acknowledged
}

/// Whether `id` is accepted, waiting up to 5 s for an acknowledged one.
async fn accepted(d: &Devnet, chain: char, id: &Id, wait: bool) -> bool {
    for _ in 0..if wait { 500 } else { 1 } {
        let done = match chain {
            'X' => {
                d.node
                    .avm("X")
                    .get_tx_status(GetTxStatusParams::new(*id))
                    .await
                    .unwrap()
                    .status
                    == AvmTxStatus::Accepted
            }
            _ => {
                d.node
                    .platform()
                    .get_tx_status(platform::GetTxStatusParams::new(*id))
                    .await
                    .unwrap()
                    .status
                    == TxStatus::Committed
            }
        };
        if done {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

/// Checks one round: every acknowledged ID accepted, exactly one of the two.
async fn settle(d: &Devnet, chain: char, round: usize, ids: [Id; 2], acked: &[Id]) -> usize {
    assert!(
        !acked.is_empty(),
        "{chain} round {round}: neither acknowledged"
    );
    for id in acked {
        assert!(
            ids.contains(id) && accepted(d, chain, id, true).await,
            "{chain} round {round}: {id} was acknowledged but is not accepted"
        );
    }
    // Whatever the other became, it is not accepted, now or after another block.
    d.devnet.build_now().unwrap();
    let mut winners = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        if accepted(d, chain, id, false).await {
            winners.push(i);
        }
    }
    assert_eq!(
        winners.len(),
        1,
        "{chain} round {round}: exactly one accepted"
    );
    winners[0]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_of_two_conflicting_x_transactions_is_acknowledged_and_accepted() {
    let d = Devnet::start(crate::common::options()).await;
    let keys = test_keys();
    let (payer, to) = (&keys[1], [keys[2].address(), keys[3].address()]);
    let x = |a: ShortId| Address::new(Some("X"), "local", *a.as_bytes()).unwrap();
    let before = [
        d.balance(&x(to[0]), "AVAX").await,
        d.balance(&x(to[1]), "AVAX").await,
    ];
    let mut paid = [0u64; 2];
    for round in 0..ROUNDS {
        let utxo = d
            .utxos(&x(payer.address()))
            .await
            .into_iter()
            .filter(|u| u.utxo.asset_id == d.devnet.genesis.avax_asset_id)
            .max_by_key(|u| u.amount().unwrap_or(0))
            .unwrap();
        let cx = d.context();
        let tx = |i: usize| {
            let out = [x::output(
                cx.avax_asset_id,
                (i as u64 + 1) * AVAX,
                one(to[i]),
            )];
            let built = x::base_tx(&cx, std::slice::from_ref(&utxo.utxo), &d.payer(payer), &out);
            sign(built, &keychain()).unwrap().to_bytes().unwrap()
        };
        let (a, b) = (tx(0), tx(1));
        let ids = [Id::from_sha256(&a), Id::from_sha256(&b)];
        let acked = race(&d.url, 'X', a, b).await;
        let winner = settle(&d, 'X', round, ids, &acked).await;
        paid[winner] += (winner as u64 + 1) * AVAX;
    }
    for i in 0..2 {
        assert_eq!(d.balance(&x(to[i]), "AVAX").await, before[i] + paid[i]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_of_two_conflicting_p_transactions_is_acknowledged_and_committed() {
    let d = Devnet::start(crate::common::options()).await;
    let keys = test_keys();
    let (payer, to) = (&keys[1], [keys[2].address(), keys[3].address()]);
    let p_balance = |k: usize| {
        let d = &d;
        let key = keys[k].clone();
        async move {
            d.p_utxos(&key)
                .await
                .iter()
                .filter_map(|u| u.transfer().filter(|(_, lock)| lock.is_none()))
                .map(|(o, _)| o.amount)
                .sum::<u64>()
        }
    };
    let before = [p_balance(2).await, p_balance(3).await];
    let mut paid = [0u64; 2];
    for round in 0..ROUNDS {
        let utxo = d
            .p_utxos(payer)
            .await
            .into_iter()
            .filter(|u| matches!(u.transfer(), Some((_, None))))
            .max_by_key(|u| u.transfer().map(|(o, _)| o.amount))
            .unwrap();
        let cx = d.context();
        let tx = |i: usize| {
            let out = [p::output(
                cx.avax_asset_id,
                (i as u64 + 1) * AVAX,
                one(to[i]),
            )];
            let built = p::base_tx(&cx, std::slice::from_ref(&utxo.utxo), &d.payer(payer), &out);
            sign(built, &keychain()).unwrap().to_bytes().unwrap()
        };
        let (a, b) = (tx(0), tx(1));
        let ids = [Id::from_sha256(&a), Id::from_sha256(&b)];
        let acked = race(&d.url, 'P', a, b).await;
        let winner = settle(&d, 'P', round, ids, &acked).await;
        paid[winner] += (winner as u64 + 1) * AVAX;
    }
    assert_eq!(
        [p_balance(2).await, p_balance(3).await],
        [before[0] + paid[0], before[1] + paid[1]]
    );
}

/// Two transfers on `chain` from two payers (no conflict), signed against `d`'s state.
fn two_transfers(d: &avalanche_devnet::Devnet, chain: char) -> [Vec<u8>; 2] {
    let keys = test_keys();
    let cx = context::of(d).unwrap();
    let r = d.engine.store.read().unwrap();
    let pay = |payer: &avalanche_rpc::keys::PrivateKey| {
        let a = payer.address();
        let from = Payer::new(vec![a], d.engine.clock.now());
        let to = one(keys[4].address());
        match chain {
            'X' => {
                let utxos = avalanche_devnet::xchain::all_utxos_of(&r, a.as_bytes()).unwrap();
                let utxos: Vec<_> = utxos.into_iter().map(|u| u.utxo).collect();
                let out = [x::output(cx.avax_asset_id, AVAX, to)];
                sign(x::base_tx(&cx, &utxos, &from, &out), &keychain())
                    .unwrap()
                    .to_bytes()
            }
            _ => {
                let utxos = avalanche_devnet::pchain::utxos_of(&r, a.as_bytes(), None, usize::MAX);
                let utxos: Vec<_> = utxos.unwrap().into_iter().map(|u| u.utxo).collect();
                let out = [p::output(cx.avax_asset_id, AVAX, to)];
                sign(p::base_tx(&cx, &utxos, &from, &out), &keychain())
                    .unwrap()
                    .to_bytes()
            }
        }
        .unwrap()
    };
    [pay(&keys[1]), pay(&keys[2])]
}

#[test]
fn each_chain_s_mempool_holds_at_most_its_byte_cap() {
    for chain in ['X', 'P'] {
        // The sizes (the same whatever the chain's IDs), from a devnet of their own.
        let probe = avalanche_devnet::Devnet::open(crate::common::options()).unwrap();
        let size: usize = two_transfers(&probe, chain).iter().map(Vec::len).sum();
        drop(probe);
        // Room for the first, one byte short for both.
        let d = avalanche_devnet::Devnet::open(avalanche_devnet::Options {
            mempool_bytes: size - 1,
            ..crate::common::options()
        })
        .unwrap();
        let [a, b] = two_transfers(&d, chain);
        assert_eq!(a.len() + b.len(), size);
        let issue = |bytes: Vec<u8>| match chain {
            'X' => d.issue_x(bytes),
            _ => d.issue_p(bytes),
        };
        let a_id = issue(a).unwrap();
        let e = issue(b.clone()).unwrap_err().to_string();
        let b_id = Id::from_sha256(&b);
        let expected = format!(
            "mempool is full: {b_id} size ({}) > available space ({})",
            b.len(),
            b.len() - 1
        );
        assert!(e.ends_with(&expected), "{chain}: {e}");
        if chain == 'P' {
            assert!(e.starts_with("couldn't issue tx: "), "{e}");
        }
        assert_eq!(d.pending(), 1, "{chain}: the refused one is not pending");
        // A block takes the first (a P-chain block once its gas capacity allows); then the
        // second fits.
        for _ in 0..100 {
            d.build_now().unwrap();
            if d.pending() == 0 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert_eq!(d.pending(), 0, "{chain}: accepted within 5 s");
        let r = d.engine.store.read().unwrap();
        let ch = if chain == 'X' { Chain::X } else { Chain::P };
        assert!(ledger::tx(&r, ch, &a_id).unwrap().is_some(), "{chain}");
        drop(r);
        assert_eq!(issue(b).unwrap(), b_id, "{chain}: room again");
    }
}
