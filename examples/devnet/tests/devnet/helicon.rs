//! Helicon on the devnet: `--upgrade-file` in the node's format schedules it (on a custom
//! network, as the node allows), `info.upgrades` reports the schedule, and the P-chain
//! refuses ACP-236's transaction kinds with the node's error until Helicon is active; then an
//! auto-renewed validator is added, its configuration changed, renewed at the end of its
//! period and, with a next period of 0, let go at the end of the next.

use crate::common::{self, Devnet, one};
use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_devnet::upgrade::{GRANITE_EPOCH_NS, TIMES};
use avalanche_rpc::devnet::{AdvanceClockParams, DevnetClient};
use avalanche_rpc::info::{InfoClient, UpgradesParams};
use avalanche_rpc::platform::{
    GetBalanceParams, GetCurrentSupplyParams, GetCurrentValidatorsParams, GetRewardUtxosParams,
    PlatformClient,
};
use avalanche_rpc::transact::bls_signer;
use avalanche_rpc::transact::p::{self, Authority, AutoRenewedValidatorRequest, Stake};
use avalanche_rpc::wire::{Address, Id, NodeId, Timestamp};

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

    // Past Helicon (time travel), it is accepted. Another validator: the mempool remembers
    // why it dropped the first (as the node's does).
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
    d.p_issue(&add).await.unwrap();
    d.stop().await;
}

/// An address on the custom network 1337 (hrp `custom`).
fn p_address(a: avalanche_rpc::wire::ShortId) -> Address {
    Address::new(Some("P"), "custom", *a.as_bytes()).unwrap()
}

#[tokio::test]
async fn an_auto_renewed_validator_renews_at_its_period_end_then_leaves() {
    const DAY: u64 = 24 * 3600;
    let now = avalanche_devnet::clock::Clock::default().now();
    let d = Devnet::start(avalanche_devnet::Options {
        network_id: 1337,
        upgrade_file: Some(upgrade_file(now + 60)),
        ..common::options()
    })
    .await;
    let control = d.node.devnet();
    control
        .advance_clock(AdvanceClockParams::new(120u64))
        .await
        .unwrap();
    let p = d.node.platform();
    let keys = test_keys();
    let key = &keys[4];
    // The rewards go to an address of their own, so what is paid shows in its balance.
    let payee = avalanche_rpc::keys::PrivateKey::from_bytes(&[77; 32])
        .unwrap()
        .address();
    let node = NodeId::new([38; 20]);
    let bls = avalanche_rpc::bls::SecretKey::from_seed(&[38; 32]).unwrap();
    let req = AutoRenewedValidatorRequest {
        node_id: node,
        weight: 2_000 * AVAX,
        signer: bls_signer(&bls),
        validator_rewards: one(payee),
        delegator_rewards: one(payee),
        validator_authority: one(key.address()),
        shares: 50_000,
        auto_compound_reward_shares: 500_000,
        period: 2 * DAY,
    };
    let add = d
        .p_tx(key, |c, u, p| {
            p::add_auto_renewed_validator_tx(c, u, p, &req)
        })
        .await;
    let add_id = d.p_issue(&add).await.unwrap();
    let current = || {
        let p = p.clone();
        async move {
            p.get_current_validators(GetCurrentValidatorsParams::new().with_node_ids(vec![node]))
                .await
                .unwrap()
                .validators
        }
    };
    let balance = |a: Address| {
        let p = p.clone();
        async move {
            p.get_balance(GetBalanceParams::new().with_addresses(vec![a]))
                .await
                .unwrap()
                .unlocked
                .get()
        }
    };
    let v = current().await.remove(0);
    let start = v.start_time.get();
    let end = v.end_time.unwrap().get();
    assert_eq!(v.tx_id, Some(add_id));
    assert_eq!(end, start + 2 * DAY, "its end is its start plus its period");
    assert_eq!(v.weight.get(), 2_000 * AVAX);
    assert_eq!(v.next_period.unwrap().get(), 2 * DAY);
    assert_eq!(v.auto_compound_reward_shares.unwrap().get(), 500_000);
    let authority = v.validator_authority.unwrap();
    assert_eq!(authority.threshold.get(), 1);
    assert_eq!(authority.addresses, vec![p_address(key.address())]);
    assert_eq!(
        v.validation_reward_owner.unwrap().addresses,
        vec![p_address(payee)]
    );
    let first_reward = v.potential_reward.unwrap().get();
    assert!(first_reward > 0);
    // The same node again, and a stake below the minimum, are refused with the node's words.
    let again = d
        .p_tx(key, |c, u, p| {
            p::add_auto_renewed_validator_tx(c, u, p, &req)
        })
        .await;
    let e = d.p_issue(&again).await.unwrap_err();
    assert!(e.contains(&format!("duplicate validator: {node}")), "{e}");
    let small = AutoRenewedValidatorRequest {
        node_id: NodeId::new([39; 20]),
        weight: AVAX,
        ..req.clone()
    };
    let lenient = common::lenient(d.context());
    let small = d
        .p_tx_in(&lenient, key, |c, u, p| {
            p::add_auto_renewed_validator_tx(c, u, p, &small)
        })
        .await;
    let e = d.p_issue(&small).await.unwrap_err();
    assert!(e.contains("weight of this validator is too low"), "{e}");

    // Its authority changes its next period and restaked share.
    let cx = common::lenient(d.context());
    let set = |period: u64, share: u32| {
        d.p_tx_in(&cx, key, move |c, u, p| {
            p::set_auto_renewed_validator_config_tx(
                c,
                u,
                p,
                add_id,
                &Authority::new(one(key.address())),
                share,
                period,
            )
        })
    };
    d.p_issue(&set(3 * DAY, 250_000).await).await.unwrap();
    let v = current().await.remove(0);
    assert_eq!(v.next_period.unwrap().get(), 3 * DAY);
    assert_eq!(v.auto_compound_reward_shares.unwrap().get(), 250_000);
    assert_eq!(
        v.end_time.unwrap().get(),
        end,
        "this cycle's end is unchanged"
    );
    // Another key is not its authority.
    let stranger = &keys[3];
    let forged = d
        .p_tx(stranger, |c, u, p| {
            p::set_auto_renewed_validator_config_tx(
                c,
                u,
                p,
                add_id,
                &Authority::new(one(stranger.address())),
                0,
                0,
            )
        })
        .await;
    let e = d.p_issue(&forged).await.unwrap_err();
    assert!(e.contains("unauthorized"), "{e}");
    // A tx ID that added nothing.
    let unknown = d
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
    let e = d.p_issue(&unknown).await.unwrap_err();
    assert!(e.contains("getting staker tx: not found"), "{e}");
    // A next period below the minimum (which the builder refuses too) is refused with the
    // node's words.
    let e = d.p_issue(&set(3600, 0).await).await.unwrap_err();
    assert!(e.contains("staking period is too short"), "{e}");

    // A delegation to it for the rest of its cycle: rewarded first at the cycle's end, its
    // 5 % fee the validator's delegatee reward.
    let delegation = Stake {
        node_id: node,
        start: 0,
        end,
        weight: 500 * AVAX,
    };
    d.p_do(stranger, |c, u, p| {
        p::add_permissionless_delegator_tx(c, u, p, delegation, &one(stranger.address()), None)
    })
    .await
    .unwrap();
    let v = current().await.remove(0);
    assert_eq!(v.delegator_weight.unwrap().get(), 500 * AVAX);
    let delegated = v.delegators.unwrap()[0].potential_reward.unwrap().get();
    let fee = avalanche_devnet::pchain::reward::split(delegated, 50_000).0;
    assert!(fee > 0);

    // Past its end (time travel): renewed from its old end for the next period, a quarter
    // of its rewards (its own and its fee) restaked, the rest paid to its reward owners by
    // the reward tx.
    let supply = || {
        let p = p.clone();
        async move {
            p.get_current_supply(GetCurrentSupplyParams::new())
                .await
                .unwrap()
                .supply
                .get()
        }
    };
    let supply_before = supply().await;
    let travel = end + 10 - d.devnet.engine.clock.now();
    control
        .advance_clock(AdvanceClockParams::new(travel))
        .await
        .unwrap();
    let restaked = avalanche_devnet::pchain::reward::split(first_reward, 250_000).0;
    // `reward.Split`: the withdrawn part rounded down, the restaked part the rest.
    assert_eq!(restaked, first_reward - first_reward * 750_000 / 1_000_000);
    let fee_restaked = fee - fee * 750_000 / 1_000_000;
    let v = current().await.remove(0);
    assert_eq!(v.tx_id, Some(add_id), "it keeps its tx ID across cycles");
    assert_eq!(v.start_time.get(), end);
    assert_eq!(v.end_time.unwrap().get(), end + 3 * DAY);
    assert_eq!(v.weight.get(), 2_000 * AVAX + restaked + fee_restaked);
    assert_eq!(
        v.accrued_delegatee_reward.unwrap().get(),
        0,
        "a new cycle's"
    );
    let second_reward = v.potential_reward.unwrap().get();
    assert!(
        second_reward > first_reward,
        "a longer period, a larger stake"
    );
    assert_eq!(
        supply().await,
        supply_before + second_reward,
        "the supply counts the next cycle's reward at once"
    );
    assert_eq!(
        balance(p_address(payee)).await,
        first_reward - restaked + fee - fee_restaked
    );
    let reward_tx = |at: u64| {
        let tx = avalanche_rpc::codec::platform::Tx::new(
            avalanche_rpc::codec::platform::RewardAutoRenewedValidatorTx::new(add_id, at).into(),
            Vec::new(),
        );
        Id::from_sha256(&tx.to_bytes().unwrap())
    };
    let paid = p
        .get_reward_utxos(GetRewardUtxosParams::new(reward_tx(end)))
        .await
        .unwrap();
    assert_eq!(
        paid.num_fetched.get(),
        2,
        "the validation and the delegatee reward"
    );

    // Next period 0: at the next end the stake comes back and every reward is paid (this
    // cycle's and the one restaked before).
    d.p_issue(&set(0, 0).await).await.unwrap();
    let v = current().await.remove(0);
    assert_eq!(v.next_period.unwrap().get(), 0);
    let staker = p_address(key.address());
    let before = balance(staker.clone()).await;
    let travel = end + 3 * DAY + 10 - d.devnet.engine.clock.now();
    control
        .advance_clock(AdvanceClockParams::new(travel))
        .await
        .unwrap();
    assert!(current().await.is_empty(), "it left");
    assert_eq!(balance(staker).await, before + 2_000 * AVAX);
    assert_eq!(
        balance(p_address(payee)).await,
        first_reward + second_reward + fee,
        "this cycle's reward and every reward restaked before"
    );
    let paid = p
        .get_reward_utxos(GetRewardUtxosParams::new(reward_tx(end + 3 * DAY)))
        .await
        .unwrap();
    assert_eq!(paid.num_fetched.get(), 2);
    d.stop().await;
}
