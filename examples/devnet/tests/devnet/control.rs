//! The devnet's own controls through the generated `devnet` client: the clock, building
//! blocks, funding, and snapshots of the whole state.

use crate::common::{self, Devnet};
use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_rpc::avm::{AvmClient, GetHeightParams, GetTxStatusParams};
use avalanche_rpc::devnet::*;
use avalanche_rpc::index::{GetLastAcceptedParams, IndexClient};
use avalanche_rpc::platform::{GetBalanceParams, PlatformClient};
use avalanche_rpc::wire::{Address, Id};

#[tokio::test]
async fn the_clock_moves_and_blocks_follow_it() {
    let d = Devnet::start(common::options()).await;
    let c = d.node.devnet();
    let before = d.devnet.engine.clock.now();
    let r = c
        .advance_clock(AdvanceClockParams::new(86_400u64))
        .await
        .unwrap();
    let after = r.time.unix_seconds() as u64;
    assert!(
        (before + 86_400..before + 86_410).contains(&after),
        "{before} {after}"
    );
    let e = c
        .advance_clock(AdvanceClockParams::new(315_360_001u64))
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("seconds must be at most 315360000"),
        "{e}"
    );
    // The next block is stamped with the new time.
    let keys = test_keys();
    d.transfer(&keys[1], keys[2].address(), AVAX).await;
    let x = d.node.avm("X");
    let b = x
        .get_block_by_height(avalanche_rpc::avm::GetBlockByHeightParams::new().with_height(1u64))
        .await
        .unwrap();
    let avalanche_rpc::wire::HexOrJson::Hex(h) = &b.block else {
        panic!()
    };
    let avalanche_rpc::codec::avm::Block::StandardBlock(b) =
        avalanche_rpc::codec::avm::Block::from_bytes(h.strip_checksum().unwrap()).unwrap()
    else {
        panic!()
    };
    assert!(b.time >= after);
    // Nothing waits: no block is built.
    let built = c.build_blocks(BuildBlocksParams::new()).await.unwrap();
    assert_eq!((built.x_block_id, built.p_block_id), (None, None));
}

#[tokio::test]
async fn fund_pays_from_the_faucet_on_either_chain() {
    let d = Devnet::start(common::options()).await;
    let c = d.node.devnet();
    // A fresh address, on both chains.
    let fresh = avalanche_rpc::keys::PrivateKey::from_bytes(&[7; 32])
        .unwrap()
        .address();
    let x = Address::new(Some("X"), "local", *fresh.as_bytes()).unwrap();
    let p = Address::new(Some("P"), "local", *fresh.as_bytes()).unwrap();
    assert_eq!(d.balance(&x, "AVAX").await, 0);
    let tx = c
        .fund(FundParams::new(x.clone(), 3 * AVAX))
        .await
        .unwrap()
        .tx_id;
    assert_eq!(d.balance(&x, "AVAX").await, 3 * AVAX);
    let s = d
        .node
        .avm("X")
        .get_tx_status(GetTxStatusParams::new(tx))
        .await
        .unwrap();
    assert_eq!(s.status, avalanche_rpc::avm::AvmTxStatus::Accepted);
    c.fund(FundParams::new(p.clone(), 5 * AVAX)).await.unwrap();
    let b = d
        .node
        .platform()
        .get_balance(GetBalanceParams::new().with_addresses(vec![p]))
        .await
        .unwrap();
    assert_eq!(b.unlocked.get(), 5 * AVAX);
    let e = c.fund(FundParams::new(x, 0u64)).await.unwrap_err();
    assert!(e.to_string().contains("amount must be at least 1"), "{e}");
}

#[tokio::test]
async fn revert_restores_the_whole_state() {
    let d = Devnet::start(common::options()).await;
    let c = d.node.devnet();
    let keys = test_keys();
    let to = Address::new(Some("X"), "local", *keys[2].address().as_bytes()).unwrap();
    d.transfer(&keys[1], keys[2].address(), AVAX).await;
    let snap = c.snapshot(SnapshotParams::new()).await.unwrap().id;
    let balance = d.balance(&to, "AVAX").await;
    let index = d.node.index("X", "block");
    let last = index
        .get_last_accepted(GetLastAcceptedParams::new())
        .await
        .unwrap();
    // Two more blocks and a clock advance, then back.
    c.advance_clock(AdvanceClockParams::new(3_600u64))
        .await
        .unwrap();
    let later = d.transfer(&keys[1], keys[2].address(), 2 * AVAX).await;
    d.transfer(&keys[3], keys[2].address(), 3 * AVAX).await;
    let x = d.node.avm("X");
    assert_eq!(
        x.get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        3
    );
    let clock_before_revert = d.devnet.engine.clock.now();
    assert!(c.revert(RevertParams::new(snap)).await.unwrap().reverted);
    assert_eq!(
        x.get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        1
    );
    assert_eq!(d.balance(&to, "AVAX").await, balance);
    let again = index
        .get_last_accepted(GetLastAcceptedParams::new())
        .await
        .unwrap();
    assert_eq!((again.id, again.index), (last.id, last.index));
    let s = x
        .get_tx_status(GetTxStatusParams::new(later))
        .await
        .unwrap();
    assert_eq!(s.status, avalanche_rpc::avm::AvmTxStatus::Unknown);
    assert!(
        d.devnet.engine.clock.now() + 3_000 < clock_before_revert,
        "the clock's advance is reverted too"
    );
    // The snapshot is used up; an unknown one is not an error.
    assert!(!c.revert(RevertParams::new(snap)).await.unwrap().reverted);
    assert!(!c.revert(RevertParams::new(999u64)).await.unwrap().reverted);
    // The chain goes on from the reverted state.
    let id = d.transfer(&keys[1], keys[2].address(), 4 * AVAX).await;
    assert_ne!(id, Id::ZERO);
    assert_eq!(
        x.get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        2
    );
}

/// `devnet.fund` while the activity generator runs every 2 ms: the faucet's payments never
/// conflict with the generator's transfers nor with each other (they did about once in a
/// thousand calls when the generator also paid from the faucet). 300 calls here;
/// `FUND_CALLS=10000 cargo test --release -p avalanche-devnet --test devnet fund_calls`
/// for the ten thousand of the issue.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fund_calls_under_activity_all_succeed() {
    const CALLERS: usize = 4;
    let calls: usize = std::env::var("FUND_CALLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300);
    let d = Devnet::start(common::options()).await;
    let activity = tokio::spawn(avalanche_devnet::activity::run(
        d.devnet.clone(),
        std::time::Duration::from_millis(2),
    ));
    let start = std::time::Instant::now();
    let mut callers = Vec::new();
    for caller in 0..CALLERS {
        let c = d.node.devnet();
        callers.push(tokio::spawn(async move {
            let mut failed = Vec::new();
            for i in 0..calls / CALLERS {
                let mut seed = [1u8; 32];
                seed[..8].copy_from_slice(&((caller * calls + i) as u64).to_be_bytes());
                let to = avalanche_rpc::keys::PrivateKey::from_bytes(&seed)
                    .unwrap()
                    .address();
                // Every tenth on P, the rest on X.
                let chain = if i % 10 == 9 { "P" } else { "X" };
                let to = Address::new(Some(chain), "local", *to.as_bytes()).unwrap();
                if let Err(e) = c.fund(FundParams::new(to, 1_000u64)).await {
                    failed.push(e.to_string());
                }
            }
            failed
        }));
    }
    let mut failed = Vec::new();
    for c in callers {
        failed.extend(c.await.unwrap());
    }
    activity.abort();
    eprintln!(
        "{calls} fund calls under activity in {:?}: {} failed",
        start.elapsed(),
        failed.len()
    );
    // Each distinct refusal (IDs cut off) with how often it came.
    let mut why: std::collections::BTreeMap<String, usize> = Default::default();
    for f in &failed {
        *why.entry(f.chars().take(90).collect()).or_default() += 1;
    }
    assert!(failed.is_empty(), "{} failed: {why:#?}", failed.len());
}
