//! `--genesis-file`: the devnet started from the node's own local genesis file serves the
//! node's local IDs and balances, keeps the file with the chain, and refuses another.

use crate::common::{self, Devnet};
use avalanche_rpc::avm::{AvmClient, GetAssetDescriptionParams};
use avalanche_rpc::info::{GetBlockchainIdParams, InfoClient};
use avalanche_rpc::platform::{GetBalanceParams, GetCurrentValidatorsParams, PlatformClient};
use avalanche_rpc::wire::Address;

const LOCAL: &str = include_str!("data/genesis_local.json");
const AVAX: u64 = 1_000_000_000;

fn options(dir: &std::path::Path, genesis: Option<&str>) -> avalanche_devnet::Options {
    avalanche_devnet::Options {
        db_dir: Some(dir.to_path_buf()),
        genesis: genesis.map(str::to_string),
        ..common::options()
    }
}

#[tokio::test]
async fn the_node_s_local_genesis_file_gives_the_node_s_local_network() {
    let dir = std::env::temp_dir().join(format!("devnet-genesis-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = Devnet::start(options(&dir, Some(LOCAL))).await;
    let x = d
        .node
        .info()
        .get_blockchain_id(GetBlockchainIdParams::new("X"))
        .await
        .unwrap();
    assert_eq!(
        x.blockchain_id.to_string(),
        "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed"
    );
    let avax = d
        .node
        .avm("X")
        .get_asset_description(GetAssetDescriptionParams::new("AVAX"))
        .await
        .unwrap();
    assert_eq!(
        avax.asset_id.to_string(),
        "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe"
    );
    // ewoq: 300,000,000 AVAX on X; on P its two unlock entries (the later one unlocked
    // before the genesis time, so not stakeable-locked).
    let ewoq = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
    assert_eq!(
        d.balance(&ewoq.parse().unwrap(), "AVAX").await,
        300_000_000 * AVAX
    );
    let p_ewoq: Address = ewoq.replacen("X-", "P-", 1).parse().unwrap();
    let b = d
        .node
        .platform()
        .get_balance(GetBalanceParams::new().with_addresses(vec![p_ewoq]))
        .await
        .unwrap();
    assert_eq!(b.unlocked.get(), 30_000_000 * AVAX);
    // The five initial stakers, this node the first.
    let info = d.node.info();
    let me = info
        .get_node_id(avalanche_rpc::info::GetNodeIdParams::new())
        .await
        .unwrap();
    assert_eq!(
        me.node_id.to_string(),
        "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"
    );
    // The file's genesis time is in 2024 and its stakers' year is over: the first blocks
    // reward all five (a proposal and its commit each), as the node would.
    let dv = d.devnet.clone();
    tokio::task::spawn_blocking(move || dv.reward_stakers())
        .await
        .unwrap()
        .unwrap();
    let p = d.node.platform();
    assert!(
        p.get_current_validators(GetCurrentValidatorsParams::new())
            .await
            .unwrap()
            .validators
            .is_empty()
    );
    assert_eq!(
        p.get_height(avalanche_rpc::platform::GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        10
    );
    d.stop().await;

    // The file is kept with the chain: a restart needs no flag; another file is refused.
    let d = Devnet::start(options(&dir, None)).await;
    assert_eq!(
        d.node
            .info()
            .get_blockchain_id(GetBlockchainIdParams::new("X"))
            .await
            .unwrap()
            .blockchain_id,
        x.blockchain_id
    );
    d.stop().await;
    let other = LOCAL.replace("{{ fun_quote }}", "another message");
    let e = avalanche_devnet::Devnet::open(options(&dir, Some(&other)))
        .err()
        .expect("another genesis file is refused");
    assert!(e.to_string().contains("another genesis file"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
