//! SIGKILL while blocks are being produced, restart on the same `--db-dir`, 20 times: every
//! transaction reported accepted before the kill is still accepted, heights have no gaps and
//! the block index has no gaps (container n wraps the block at height n + 1).

use crate::common::{keychain, one, x_codec};
use avalanche_devnet::context;
use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_devnet::xchain::Utxo;
use avalanche_rpc::avm::*;
use avalanche_rpc::codec::{avm as codec_avm, proposervm};
use avalanche_rpc::index::*;
use avalanche_rpc::rpc::{HttpTransport, Node};
use avalanche_rpc::transact::{Payer, x};
use avalanche_rpc::wire::{Address, HexBytes, Id};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the binary on an ephemeral port; its URL, read from the banner.
fn start(dir: &std::path::Path) -> (Process, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_avalanche-devnet"))
        .args(["--http-port", "0", "--history=false", "--db-dir"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the devnet starts");
    let out = child.stdout.take().unwrap();
    let mut lines = BufReader::new(out).lines();
    let url = loop {
        let line = lines.next().expect("the banner").unwrap();
        if let Some(rest) = line.strip_prefix("Serving on ") {
            break rest.trim_end_matches(':').to_string();
        }
    };
    // Keep draining stdout so the process never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (Process(child), url)
}

async fn utxos(node: &Node<HttpTransport>, a: &Address) -> Vec<Utxo> {
    node.avm("X")
        .get_utxos(GetUtxosParams::new(vec![a.clone()]))
        .await
        .unwrap()
        .utxos
        .iter()
        .map(|u| Utxo::decode(u.strip_checksum().unwrap()).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_while_producing_loses_nothing_acknowledged() {
    let dir = std::env::temp_dir().join(format!("avalanche-devnet-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let keys = test_keys();
    // The context of the binary's devnet (the same genesis), for every round: a burst is
    // rebuilt with the same bytes.
    let cx =
        context::of(&avalanche_devnet::Devnet::open(crate::common::options()).unwrap()).unwrap();
    let mut acknowledged: Vec<Id> = Vec::new();
    // Every transfer to key 4 that was issued: (tx, amount); and how the bursts ended.
    // (A burst lost to a kill is rebuilt identically next round: same bytes, same ID.)
    let mut paid: std::collections::BTreeMap<Id, u64> = std::collections::BTreeMap::new();
    let (mut survived, mut lost) = (0, 0);
    let mut last_burst: Vec<Id> = Vec::new();
    for round in 0..20u64 {
        let (process, url) = start(&dir);
        let node = Node::http(&url).unwrap();
        let x = node.avm("X");
        // Everything acknowledged before earlier kills is still accepted.
        for id in &acknowledged {
            let s = x.get_tx_status(GetTxStatusParams::new(*id)).await.unwrap();
            assert_eq!(
                s.status,
                AvmTxStatus::Accepted,
                "round {round}: tx {id} was lost"
            );
        }
        // Each transfer issued before a kill is accepted or unknown, never half there, and key
        // 4's balance is its genesis million plus exactly the accepted ones, in its UTXOs.
        let mut expected = 1_000_000 * AVAX;
        for (id, amount) in &paid {
            match x
                .get_tx_status(GetTxStatusParams::new(*id))
                .await
                .unwrap()
                .status
            {
                AvmTxStatus::Accepted => expected += amount,
                AvmTxStatus::Unknown => {}
                other => panic!("round {round}: tx {id} is {other:?}"),
            }
        }
        let to = Address::new(Some("X"), "local", *keys[4].address().as_bytes()).unwrap();
        let held: u64 = utxos(&node, &to)
            .await
            .iter()
            .filter(|u| u.utxo.asset_id == cx.avax_asset_id)
            .filter_map(Utxo::amount)
            .sum();
        assert_eq!(held, expected, "round {round}: key 4's UTXOs");
        for id in last_burst.drain(..) {
            match x
                .get_tx_status(GetTxStatusParams::new(id))
                .await
                .unwrap()
                .status
            {
                AvmTxStatus::Accepted => survived += 1,
                _ => lost += 1,
            }
        }
        // Heights and the index have no gaps.
        let height = x
            .get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get();
        let index = node.index("X", "block");
        let mut n = 0u64;
        while n < height {
            let r = index
                .get_container_range(GetContainerRangeParams::new(1024u64).with_start_index(n))
                .await
                .unwrap();
            for c in &r.containers {
                assert_eq!(c.index.get(), n, "round {round}: a gap in the index");
                let w = proposervm::Block::from_bytes(c.bytes.strip_checksum().unwrap()).unwrap();
                let codec_avm::Block::StandardBlock(b) =
                    codec_avm::Block::from_bytes(w.block().expect("a proposer block")).unwrap()
                else {
                    panic!()
                };
                assert_eq!(
                    b.height,
                    n + 1,
                    "round {round}: container {n} wraps height {}",
                    b.height
                );
                n += 1;
            }
        }
        assert_eq!(
            n, height,
            "round {round}: every block after genesis is indexed"
        );
        // Produce: one acknowledged transfer, then a burst the kill interrupts.
        let from = &keys[1 + (round as usize % 3)];
        let a = Address::new(Some("X"), "local", *from.address().as_bytes()).unwrap();
        let pay = |utxos: &[Utxo], amount: u64| {
            let out = [x::output(cx.avax_asset_id, amount, one(keys[4].address()))];
            let payer = Payer::new(vec![from.address()], u64::MAX / 2);
            let built = x::base_tx(&cx, &x_codec(utxos), &payer, &out);
            context::sign(built, &keychain()).unwrap()
        };
        let tx = pay(&utxos(&node, &a).await, AVAX + round);
        let id = x
            .issue_tx(IssueTxParams::new(HexBytes::with_checksum(
                &tx.to_bytes().unwrap(),
            )))
            .await
            .unwrap()
            .tx_id;
        let mut accepted = false;
        for _ in 0..500 {
            if x.get_tx_status(GetTxStatusParams::new(id))
                .await
                .unwrap()
                .status
                == AvmTxStatus::Accepted
            {
                accepted = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(accepted, "round {round}: the transfer was not accepted");
        acknowledged.push(id);
        paid.insert(id, AVAX + round);
        // A burst from another key, then SIGKILL at a moment that moves with the round.
        let other = &keys[0];
        let b = Address::new(Some("X"), "local", *other.address().as_bytes()).unwrap();
        let mut spendable = utxos(&node, &b).await;
        let mut burst = Vec::new();
        for k in 0..3u64 {
            // ewoq's outputs run out within a round (its change comes back once accepted).
            let out = [x::output(
                cx.avax_asset_id,
                AVAX + k,
                one(keys[4].address()),
            )];
            let payer = Payer::new(vec![other.address()], u64::MAX / 2);
            let built = x::base_tx(&cx, &x_codec(&spendable), &payer, &out);
            let Ok(tx) = context::sign(built, &keychain()) else {
                break;
            };
            let bytes = tx.to_bytes().unwrap();
            if x.issue_tx(IssueTxParams::new(HexBytes::with_checksum(&bytes)))
                .await
                .is_ok()
            {
                paid.insert(Id::from_sha256(&bytes), AVAX + k);
                burst.push(Id::from_sha256(&bytes));
            }
            spendable.retain(|u| !tx.unsigned_inputs().iter().any(|i| i.utxo_id.id() == u.id));
        }
        tokio::time::sleep(Duration::from_millis(round % 7)).await;
        drop(process); // SIGKILL
        // Whether the burst made it is seen after the restart; counted for the report.
        last_burst = burst;
    }
    eprintln!("bursts interrupted: {lost} lost, {survived} accepted before the kill");
    std::fs::remove_dir_all(&dir).unwrap();
}

trait Inputs {
    fn unsigned_inputs(&self) -> Vec<avalanche_rpc::codec::avm::TransferableInput>;
}

impl Inputs for codec_avm::Tx {
    fn unsigned_inputs(&self) -> Vec<avalanche_rpc::codec::avm::TransferableInput> {
        match &self.unsigned {
            codec_avm::UnsignedTx::BaseTx(b) => b.base.inputs.clone(),
            _ => Vec::new(),
        }
    }
}
