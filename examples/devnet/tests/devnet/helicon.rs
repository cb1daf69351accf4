//! Helicon on the devnet: `--upgrade-file` in the node's format schedules it (on a custom
//! network, as the node allows), `info.upgrades` reports the schedule, and the P-chain
//! refuses ACP-236's transaction kinds with the node's error until Helicon is active.

use crate::common::{self, Devnet, one};
use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_devnet::upgrade::{GRANITE_EPOCH_NS, TIMES};
use avalanche_rpc::devnet::{AdvanceClockParams, DevnetClient};
use avalanche_rpc::info::{InfoClient, UpgradesParams};
use avalanche_rpc::transact::bls_signer;
use avalanche_rpc::transact::p::{self, Authority, AutoRenewedValidatorRequest};
use avalanche_rpc::wire::{Id, NodeId, Timestamp};

/// An upgrade file: every upgrade up to Granite initially active, Helicon at `helicon`.
fn upgrade_file(helicon: u64) -> String {
    let mut m = serde_json::Map::new();
    for n in &TIMES[..14] {
        m.insert((*n).into(), "2020-12-05T05:00:00Z".into());
    }
    m.insert(
        "heliconTime".into(),
        Timestamp::from_unix(helicon as i64, 0).as_str().into(),
    );
    m.insert("graniteEpochDuration".into(), GRANITE_EPOCH_NS.into());
    serde_json::Value::Object(m).to_string()
}

#[tokio::test]
async fn an_upgrade_file_is_refused_on_the_local_network_as_the_node_does() {
    let options = avalanche_devnet::Options {
        upgrade_file: Some(upgrade_file(2_000_000_000)),
        ..common::options()
    };
    let Err(e) = avalanche_devnet::Devnet::open(options) else {
        panic!("the local network took an upgrade file")
    };
    assert!(
        e.to_string()
            .starts_with("--upgrade-file: cannot configure upgrades for networkID: local"),
        "{e}"
    );
}

#[tokio::test]
async fn acp236_kinds_are_refused_with_the_nodes_error_until_helicon() {
    let now = avalanche_devnet::clock::Clock::default().now();
    let helicon = now + 3 * 24 * 3600;
    let d = Devnet::start(avalanche_devnet::Options {
        network_id: 1337,
        upgrade_file: Some(upgrade_file(helicon)),
        ..common::options()
    })
    .await;
    let u = d.node.info().upgrades(UpgradesParams::new()).await.unwrap();
    assert_eq!(u.helicon_time.unwrap().unix_seconds(), helicon as i64);
    assert_eq!(u.granite_time.unwrap().as_str(), "2020-12-05T05:00:00Z");
    // The local network's schedule otherwise: Helicon unscheduled.
    let local = Devnet::start(common::options()).await;
    let l = local
        .node
        .info()
        .upgrades(UpgradesParams::new())
        .await
        .unwrap();
    assert_eq!(l.helicon_time.unwrap().as_str(), "9999-12-01T00:00:00Z");
    local.stop().await;

    let keys = test_keys();
    let key = &keys[4];
    let bls = avalanche_rpc::bls::SecretKey::from_seed(&[36; 32]).unwrap();
    let req = AutoRenewedValidatorRequest {
        node_id: NodeId::new([36; 20]),
        weight: 2_000 * AVAX,
        signer: bls_signer(&bls),
        validator_rewards: one(key.address()),
        delegator_rewards: one(key.address()),
        validator_authority: one(key.address()),
        shares: 50_000,
        auto_compound_reward_shares: 500_000,
        period: 2 * 24 * 3600,
    };
    let add = d
        .p_tx(key, |c, u, p| {
            p::add_auto_renewed_validator_tx(c, u, p, &req)
        })
        .await;
    let e = d.p_issue(&add).await.unwrap_err();
    assert!(
        e.contains("attempting to use a Helicon-upgrade feature prior to activation"),
        "{e}"
    );
    let set = d
        .p_tx(key, |c, u, p| {
            p::set_auto_renewed_validator_config_tx(
                c,
                u,
                p,
                Id::new([7; 32]),
                &Authority::new(one(key.address())),
                0,
                0,
            )
        })
        .await;
    let e = d.p_issue(&set).await.unwrap_err();
    assert!(
        e.contains("attempting to use a Helicon-upgrade feature prior to activation"),
        "{e}"
    );

    // Past Helicon (time travel), the refusal is no longer Helicon's. Another validator:
    // the mempool remembers why it dropped the first (as the node's does).
    d.node
        .devnet()
        .advance_clock(AdvanceClockParams::new(3 * 24 * 3600 + 60u64))
        .await
        .unwrap();
    let req = AutoRenewedValidatorRequest {
        node_id: NodeId::new([37; 20]),
        ..req
    };
    let add = d
        .p_tx(key, |c, u, p| {
            p::add_auto_renewed_validator_tx(c, u, p, &req)
        })
        .await;
    let e = d.p_issue(&add).await.unwrap_err();
    assert!(!e.contains("Helicon"), "{e}");
    d.stop().await;
}
