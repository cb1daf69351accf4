//! The history the devnet starts with: made by the activity generator through issueTx, so the
//! chains, balances and the index agree with it.

#![allow(deprecated)]

mod common;

use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_rpc::avm::*;
use avalanche_rpc::index::{GetContainerRangeParams, IndexClient};
use avalanche_rpc::platform::{GetBalanceParams as PBalance, PlatformClient};
use avalanche_rpc::wire::Address;
use common::Devnet;

#[tokio::test]
async fn the_start_history_is_consistent() {
    let d = Devnet::start(common::options()).await;
    let dv = d.devnet.clone();
    let h = tokio::task::spawn_blocking(move || avalanche_devnet::activity::seed(&dv))
        .await
        .unwrap()
        .unwrap();
    let x = d.node.avm("X");
    assert_eq!(
        x.get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        4
    );
    for id in &h.x_txs {
        let s = x.get_tx_status(GetTxStatusParams::new(*id)).await.unwrap();
        assert_eq!(s.status, AvmTxStatus::Accepted);
    }
    // The created asset describes itself; its holders have it.
    let dcl = x
        .get_asset_description(GetAssetDescriptionParams::new(h.new_asset.to_string()))
        .await
        .unwrap();
    assert_eq!((dcl.symbol.as_str(), dcl.denomination.get()), ("DCL", 0));
    let keys = test_keys();
    let xa = |i: usize| Address::new(Some("X"), "local", *keys[i].address().as_bytes()).unwrap();
    let id = h.new_asset.to_string();
    assert_eq!(d.balance(&xa(1), &id).await, 100);
    assert_eq!(d.balance(&xa(2), &id).await, 50);
    // The minted MNT and the DVT sent reached key 3; key 1 got its AVAX and paid two fees.
    assert_eq!(d.balance(&xa(3), "MNT").await, 100_000);
    assert_eq!(
        d.balance(&xa(3), "DVT").await,
        1_000_000_000_000 + 1_000_000
    );
    assert_eq!(
        d.balance(&xa(1), "AVAX").await,
        1_001_000 * AVAX - d.devnet.rules.create_asset_tx_fee
    );
    // The P-chain transfer: key 4 has 10 AVAX more.
    let pa = Address::new(Some("P"), "local", *keys[4].address().as_bytes()).unwrap();
    let b = d
        .node
        .platform()
        .get_balance(PBalance::new().with_addresses(vec![pa]))
        .await
        .unwrap();
    assert_eq!(b.unlocked.get(), 1_000_010 * AVAX);
    // Every block is indexed, on both chains.
    for (chain, n) in [("X", 4), ("P", 1)] {
        let r = d
            .node
            .index(chain, "block")
            .get_container_range(GetContainerRangeParams::new(10u64))
            .await
            .unwrap();
        assert_eq!(r.containers.len(), n, "{chain}");
    }
}

#[tokio::test]
async fn the_activity_generator_keeps_both_chains_moving() {
    let d = Devnet::start(common::options()).await;
    let generator = tokio::spawn(avalanche_devnet::activity::run(
        d.devnet.clone(),
        std::time::Duration::from_millis(50),
    ));
    let x = d.node.avm("X");
    let p = d.node.platform();
    let mut heights = (0, 0);
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        heights = (
            x.get_height(GetHeightParams::new())
                .await
                .unwrap()
                .height
                .get(),
            p.get_height(avalanche_rpc::platform::GetHeightParams::new())
                .await
                .unwrap()
                .height
                .get(),
        );
        if heights.0 >= 6 && heights.1 >= 1 {
            break;
        }
    }
    generator.abort();
    assert!(heights.0 >= 6 && heights.1 >= 1, "{heights:?}");
}
