//! Staking on the P-chain: an AddPermissionlessValidatorTx through issueTx adds a validator
//! that every method then reports, with the node's rules refusing what it would refuse.

use crate::common::{self, Devnet, PBuild, lenient, one};
use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_devnet::ledger::Chain;
use avalanche_devnet::pchain;
use avalanche_rpc::platform::*;
use avalanche_rpc::transact::bls_signer;
use avalanche_rpc::transact::p::{self, Stake, ValidatorRequest};
use avalanche_rpc::wire::{Address, Height, NodeId};

#[tokio::test]
async fn a_new_validator_joins_with_its_stake_and_reward() {
    let d = Devnet::start(common::options()).await;
    let p = d.node.platform();
    let keys = test_keys();
    let key = &keys[4];
    let addr = Address::new(Some("P"), "local", *key.address().as_bytes()).unwrap();
    let node = NodeId::new(
        *avalanche_rpc::keys::PrivateKey::from_bytes(&[9; 32])
            .unwrap()
            .address()
            .as_bytes(),
    );
    let bls = avalanche_rpc::bls::SecretKey::from_seed(&[9; 32]).unwrap();
    let before_stake = p
        .get_total_stake(GetTotalStakeParams::new())
        .await
        .unwrap()
        .weight
        .get();
    let before_supply = p
        .get_current_supply(GetCurrentSupplyParams::new())
        .await
        .unwrap()
        .supply
        .get();
    let end = d.devnet.engine.clock.now() + 2 * 24 * 3600;
    let stake = |weight: u64, end: u64, node: NodeId| -> PBuild<'_> {
        let req = ValidatorRequest {
            stake: Stake {
                node_id: node,
                start: 0,
                end,
                weight,
            },
            signer: Some(bls_signer(&bls)),
            validator_rewards: one(key.address()),
            delegator_rewards: one(key.address()),
            shares: 50_000,
        };
        Box::new(move |c, u, p| p::add_permissionless_validator_tx(c, u, p, &req))
    };
    let tx = d.p_tx(key, stake(2_000 * AVAX, end, node)).await;
    let dv = d.devnet.clone();
    let bytes = tx.to_bytes().unwrap();
    let id = tokio::task::spawn_blocking(move || dv.accept_now(Chain::P, bytes))
        .await
        .unwrap()
        .unwrap();

    let validators = p
        .get_current_validators(GetCurrentValidatorsParams::new().with_node_ids(vec![node]))
        .await
        .unwrap()
        .validators;
    assert_eq!(validators.len(), 1);
    let v = &validators[0];
    assert_eq!(v.tx_id, Some(id));
    assert_eq!(v.weight.get(), 2_000 * AVAX);
    assert_eq!(v.end_time.map(|t| t.get()), Some(end));
    assert_eq!(
        v.delegators.as_ref().map(Vec::len),
        Some(0),
        "one node asked: its delegators listed"
    );
    let reward = v.potential_reward.unwrap().get();
    assert!(reward > 0);
    assert_eq!(
        p.get_total_stake(GetTotalStakeParams::new())
            .await
            .unwrap()
            .weight
            .get(),
        before_stake + 2_000 * AVAX
    );
    assert_eq!(
        p.get_current_supply(GetCurrentSupplyParams::new())
            .await
            .unwrap()
            .supply
            .get(),
        before_supply + reward
    );
    // The set at the new height has six validators and the new key; at genesis, five.
    let height = p
        .get_height(GetHeightParams::new())
        .await
        .unwrap()
        .height
        .get();
    let now = p
        .get_validators_at(GetValidatorsAtParams::new().with_height(Height::Number(height)))
        .await
        .unwrap();
    assert_eq!(now.len(), 6);
    assert_eq!(
        now[&node].public_key.as_ref().map(|k| k.0.clone()),
        Some(bls.public_key().to_vec())
    );
    let genesis = p
        .get_validators_at(GetValidatorsAtParams::new().with_height(Height::Number(0)))
        .await
        .unwrap();
    assert_eq!(genesis.len(), 5);
    let staked = p
        .get_stake(GetStakeParams::new(vec![addr.clone()]))
        .await
        .unwrap();
    assert_eq!(staked.staked.get(), 2_002_000 * AVAX);

    // What the node refuses (built with the builders' own checks relaxed).
    let issue = |tx: avalanche_rpc::codec::platform::Tx| {
        let p = p.clone();
        async move {
            p.issue_tx(IssueTxParams::new(
                avalanche_rpc::wire::HexBytes::with_checksum(&tx.to_bytes().unwrap()),
            ))
            .await
            .unwrap_err()
            .to_string()
        }
    };
    let e = issue(d.p_tx(key, stake(2_000 * AVAX, end, node)).await).await;
    assert!(
        e.contains("failed execution: duplicate validator: NodeID-"),
        "{e}"
    );
    let other = NodeId::new([8; 20]);
    let cx = lenient(d.context());
    let e = issue(d.p_tx_in(&cx, key, stake(AVAX, end, other)).await).await;
    assert!(
        e.contains("`unsignedTx.validator.weight` is 1000000000"),
        "{e}"
    );
    let soon = d.devnet.engine.clock.now() + 60;
    let e = issue(d.p_tx_in(&cx, key, stake(2_000 * AVAX, soon, other)).await).await;
    assert!(e.contains("must last from 86400"), "{e}");

    // The period ends on the devnet's clock: a proposal block rewards it, its commit pays.
    let balance = |p: PlatformEndpoint<_>| {
        let a = addr.clone();
        async move {
            p.get_balance(GetBalanceParams::new().with_addresses(vec![a]))
                .await
                .unwrap()
                .unlocked
                .get()
        }
    };
    let before = balance(p.clone()).await;
    use avalanche_rpc::devnet::DevnetClient;
    let control = d.node.devnet();
    control
        .advance_clock(avalanche_rpc::devnet::AdvanceClockParams::new(
            2 * 24 * 3600 + 10u64,
        ))
        .await
        .unwrap();
    let gone = p
        .get_current_validators(GetCurrentValidatorsParams::new().with_node_ids(vec![node]))
        .await
        .unwrap()
        .validators;
    assert!(gone.is_empty(), "the validator left");
    let rewards = p
        .get_reward_utxos(GetRewardUtxosParams::new(id))
        .await
        .unwrap();
    assert_eq!(rewards.num_fetched.get(), 1);
    // Its stream: one call, the same UTXOs.
    let streamed = avalanche_rpc::rpc::paging::collect(
        p.get_reward_utxos_stream(GetRewardUtxosParams::new(id)),
    )
    .await
    .unwrap();
    assert_eq!(streamed, rewards.utxos_decoded().unwrap());
    let r = avalanche_rpc::codec::platform::Utxo::from_bytes(
        rewards.utxos[0].strip_checksum().unwrap(),
    )
    .unwrap();
    let avalanche_rpc::codec::platform::UtxoOutput::TransferOutput(o) = &r.output else {
        panic!()
    };
    assert_eq!(o.amount, reward);
    assert_eq!(o.owners.addresses, vec![key.address()]);
    assert_eq!(balance(p.clone()).await, before + 2_000 * AVAX + reward);
    let after_height = p
        .get_height(GetHeightParams::new())
        .await
        .unwrap()
        .height
        .get();
    assert_eq!(after_height, height + 2, "a proposal block and its commit");
    let commit = p
        .get_block_by_height(GetBlockByHeightParams::new().with_height(after_height))
        .await
        .unwrap();
    let avalanche_rpc::wire::HexOrJson::Hex(h) = &commit.block else {
        panic!()
    };
    assert!(matches!(
        avalanche_rpc::codec::platform::Block::from_bytes(h.strip_checksum().unwrap()).unwrap(),
        avalanche_rpc::codec::platform::Block::BanffCommitBlock(_)
    ));
    let set = p
        .get_validators_at(GetValidatorsAtParams::new().with_height(Height::Proposed))
        .await
        .unwrap();
    assert_eq!(set.len(), 5);
    assert_eq!(
        p.get_current_supply(GetCurrentSupplyParams::new())
            .await
            .unwrap()
            .supply
            .get(),
        before_supply + reward,
        "the reward was counted in the supply when the validator joined"
    );
    // The index holds the proposal and, on it, the commit as a proposervm option.
    use avalanche_rpc::index::IndexClient;
    let last = d
        .node
        .index("P", "block")
        .get_last_accepted(avalanche_rpc::index::GetLastAcceptedParams::new())
        .await
        .unwrap();
    let avalanche_rpc::codec::proposervm::Block::Option(option) =
        avalanche_rpc::codec::proposervm::Block::from_bytes(last.bytes.strip_checksum().unwrap())
            .unwrap()
    else {
        panic!("the commit is wrapped as an option")
    };
    assert_eq!(option.inner_bytes, h.strip_checksum().unwrap());
}

#[tokio::test]
async fn the_genesis_validators_are_paid_when_their_year_ends() {
    use avalanche_rpc::devnet::DevnetClient;
    use avalanche_rpc::info::InfoClient;
    let d = Devnet::start(common::options()).await;
    let p = d.node.platform();
    let validators = p
        .get_current_validators(GetCurrentValidatorsParams::new())
        .await
        .unwrap()
        .validators;
    assert_eq!(validators.len(), 5);
    assert!(
        d.node
            .info()
            .uptime(avalanche_rpc::info::UptimeParams::new())
            .await
            .is_ok()
    );
    d.node
        .devnet()
        .advance_clock(avalanche_rpc::devnet::AdvanceClockParams::new(
            31_536_000u64 + 10,
        ))
        .await
        .unwrap();
    assert!(
        p.get_current_validators(GetCurrentValidatorsParams::new())
            .await
            .unwrap()
            .validators
            .is_empty()
    );
    // Each was paid its potential reward, to its owner; five proposal and commit pairs.
    for v in &validators {
        let r = p
            .get_reward_utxos(GetRewardUtxosParams::new(v.tx_id.unwrap()))
            .await
            .unwrap();
        assert_eq!(r.num_fetched.get(), 1);
        let u =
            avalanche_rpc::codec::platform::Utxo::from_bytes(r.utxos[0].strip_checksum().unwrap())
                .unwrap();
        let avalanche_rpc::codec::platform::UtxoOutput::TransferOutput(o) = &u.output else {
            panic!()
        };
        assert_eq!(o.amount, v.potential_reward.unwrap().get());
    }
    assert_eq!(
        p.get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        10
    );
    // This node no longer validates: no uptime, and the X-chain is syncing, not validating.
    let e = d
        .node
        .info()
        .uptime(avalanche_rpc::info::UptimeParams::new())
        .await
        .unwrap_err();
    assert!(e.to_string().contains("node is not a validator"), "{e}");
    let s = p
        .get_blockchain_status(GetBlockchainStatusParams::new("X"))
        .await
        .unwrap();
    assert_eq!(s.status, BlockchainStatus::Syncing);
}

#[tokio::test]
async fn a_delegator_is_rewarded_and_its_validator_paid_its_fee() {
    use avalanche_rpc::devnet::DevnetClient;
    let d = Devnet::start(common::options()).await;
    let p = d.node.platform();
    let keys = test_keys();
    let (validator, delegator) = (&keys[4], &keys[3]);
    let node = NodeId::new([7; 20]);
    let bls = avalanche_rpc::bls::SecretKey::from_seed(&[7; 32]).unwrap();
    let now = d.devnet.engine.clock.now();
    let req = ValidatorRequest {
        stake: Stake {
            node_id: node,
            start: 0,
            end: now + 3 * 86_400,
            weight: 2_000 * AVAX,
        },
        signer: Some(bls_signer(&bls)),
        validator_rewards: one(validator.address()),
        delegator_rewards: one(validator.address()),
        shares: 100_000,
    };
    let validation = d
        .p_do(validator, |c, u, p| {
            p::add_permissionless_validator_tx(c, u, p, &req)
        })
        .await
        .unwrap();
    let delegate = |node_id: NodeId, weight: u64, end: u64| -> PBuild<'_> {
        let stake = Stake {
            node_id,
            start: 0,
            end,
            weight,
        };
        let rewards = one(delegator.address());
        Box::new(move |c, u, p| p::add_permissionless_delegator_tx(c, u, p, stake, &rewards, None))
    };
    // What the node refuses: too little, too long, too much, nobody to delegate to (built
    // with the builders' own checks relaxed).
    let cx = lenient(d.context());
    for (build, why) in [
        (
            delegate(node, 10 * AVAX, now + 2 * 86_400),
            "a delegator stakes at least",
        ),
        (
            delegate(node, 500 * AVAX, now + 4 * 86_400),
            "after the validator's period ends",
        ),
        (
            delegate(node, 8_001 * AVAX, now + 2 * 86_400),
            "over delegated",
        ),
        (
            delegate(NodeId::new([6; 20]), 500 * AVAX, now + 2 * 86_400),
            "is not a current validator",
        ),
    ] {
        let tx = d.p_tx_in(&cx, delegator, build).await;
        let e = d.p_issue(&tx).await.unwrap_err();
        assert!(e.contains(why), "{e}");
    }
    let delegation = d
        .p_do(delegator, delegate(node, 500 * AVAX, now + 2 * 86_400))
        .await
        .unwrap();
    let listed = p
        .get_current_validators(GetCurrentValidatorsParams::new().with_node_ids(vec![node]))
        .await
        .unwrap()
        .validators;
    let v = &listed[0];
    assert_eq!(v.delegator_weight.map(|w| w.get()), Some(500 * AVAX));
    let ds = v.delegators.as_ref().unwrap();
    assert_eq!(ds[0].tx_id, delegation);
    let potential = ds[0].potential_reward.unwrap().get();
    let validator_reward = v.potential_reward.unwrap().get();
    assert!(potential > 0);
    // The validator set weighs both.
    let set = p
        .get_validators_at(GetValidatorsAtParams::new().with_height(Height::Proposed))
        .await
        .unwrap();
    assert_eq!(set[&node].weight.get(), 2_500 * AVAX);

    // The delegation ends first: its stake back and 90 % of its reward to the delegator, the
    // 10 % fee accrued to the validator.
    d.node
        .devnet()
        .advance_clock(avalanche_rpc::devnet::AdvanceClockParams::new(
            2 * 86_400 + 10u64,
        ))
        .await
        .unwrap();
    let (fee, own) = pchain::reward::split(potential, 100_000);
    assert_eq!(fee + own, potential);
    assert_eq!(
        own,
        potential * 900_000 / 1_000_000,
        "the delegator's 90 %, rounded down"
    );
    let rewards = p
        .get_reward_utxos(GetRewardUtxosParams::new(delegation))
        .await
        .unwrap();
    assert_eq!(rewards.num_fetched.get(), 1);
    let amount = |u: &avalanche_rpc::wire::HexBytes| {
        let u =
            avalanche_rpc::codec::platform::Utxo::from_bytes(u.strip_checksum().unwrap()).unwrap();
        let avalanche_rpc::codec::platform::UtxoOutput::TransferOutput(o) = u.output else {
            panic!()
        };
        (o.amount, o.owners.addresses)
    };
    assert_eq!(amount(&rewards.utxos[0]), (own, vec![delegator.address()]));
    let v = &p
        .get_current_validators(GetCurrentValidatorsParams::new().with_node_ids(vec![node]))
        .await
        .unwrap()
        .validators[0];
    assert_eq!(v.delegator_count.map(|c| c.get()), Some(0));
    assert_eq!(v.accrued_delegatee_reward.map(|r| r.get()), Some(fee));

    // Then the validator: its own reward and the accrued fee, both to its owners.
    d.node
        .devnet()
        .advance_clock(avalanche_rpc::devnet::AdvanceClockParams::new(86_400u64))
        .await
        .unwrap();
    let rewards = p
        .get_reward_utxos(GetRewardUtxosParams::new(validation))
        .await
        .unwrap();
    let mut paid: Vec<u64> = rewards.utxos.iter().map(|u| amount(u).0).collect();
    paid.sort();
    let mut want = vec![validator_reward, fee];
    want.sort();
    assert_eq!(paid, want);
}
