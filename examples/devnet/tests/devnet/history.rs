//! The history the devnet starts with: made by the activity generator through issueTx, so the
//! chains, balances and the index agree with it.

use crate::common::{self, Devnet};
use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_rpc::avm::*;
use avalanche_rpc::codec::warp;
use avalanche_rpc::index::{GetContainerRangeParams, IndexClient};
use avalanche_rpc::platform::{
    BlockchainStatus, GetBalanceParams as PBalance, GetBlockchainStatusParams,
    GetBlockchainsParams, GetCurrentValidatorsParams, GetL1ValidatorParams, GetStakeParams,
    GetSubnetParams, GetSubnetsParams, GetTotalStakeParams, GetValidatorsAtParams, PlatformClient,
    ValidatedByParams, ValidatesParams,
};
use avalanche_rpc::wire::{Address, Height, Id};

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
        6,
        "five blocks of X history and the import of what ewoq's C account exported"
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
        1_001_000 * AVAX - d.devnet.x.vm.rules.create_asset_tx_fee
    );
    // The P-chain transfer: key 4 has 10 AVAX more, less the fees of its eight Subnet and L1
    // txs (a few thousand gas each at the minimum price) and the three L1 validators'
    // balances.
    let pa = |i: usize| Address::new(Some("P"), "local", *keys[i].address().as_bytes()).unwrap();
    let p = d.node.platform();
    let b = p
        .get_balance(PBalance::new().with_addresses(vec![pa(4)]))
        .await
        .unwrap();
    let fees = 1_000_010 * AVAX - 3 * (AVAX / 10) - b.unlocked.get();
    assert!(fees > 0 && fees < AVAX / 1_000, "{fees}");
    // Key 1's delegation to node 1 (besides the 2,000,000 AVAX key 1 stakes for genesis
    // validator 1): staked, counted and listed.
    let node1 = d.devnet.nodes[1].id;
    let stake = p.get_stake(GetStakeParams::new(vec![pa(1)])).await.unwrap();
    assert_eq!(stake.staked.get(), 2_001_000 * AVAX);
    assert_eq!(stake.staked_outputs.len(), 2);
    let v = p
        .get_current_validators(GetCurrentValidatorsParams::new().with_node_ids(vec![node1]))
        .await
        .unwrap();
    let v = &v.validators[0];
    assert_eq!(v.delegator_count.map(|c| c.get()), Some(1));
    assert_eq!(v.delegator_weight.map(|c| c.get()), Some(1_000 * AVAX));
    let delegators = v
        .delegators
        .as_ref()
        .expect("one node asked: delegators listed");
    assert_eq!(delegators.len(), 1);
    assert_eq!(delegators[0].tx_id, h.p_txs[2]);
    assert_eq!(delegators[0].weight.get(), 1_000 * AVAX);
    assert!(delegators[0].potential_reward.is_some_and(|r| r.get() > 0));
    let all = p
        .get_current_validators(GetCurrentValidatorsParams::new())
        .await
        .unwrap();
    let own: u64 = all.validators.iter().map(|v| v.weight.get()).sum();
    let total = p.get_total_stake(GetTotalStakeParams::new()).await.unwrap();
    assert_eq!(total.weight.get(), own + 1_000 * AVAX);
    // Key 4's Subnet: owned by key 4, with its chain and node 2 validating it.
    let subnet = p.get_subnet(GetSubnetParams::new(h.subnet)).await.unwrap();
    assert!(subnet.is_permissioned);
    assert_eq!(subnet.control_keys, vec![pa(4)]);
    assert_eq!(subnet.threshold.get(), 1);
    let subnets = p.get_subnets(GetSubnetsParams::new()).await.unwrap();
    let mut ids: Vec<Id> = subnets.subnets.unwrap().iter().map(|s| s.id).collect();
    assert_eq!(ids.pop(), Some(Id::ZERO), "the Primary Network last");
    ids.sort();
    let mut want = vec![h.subnet, h.l1];
    want.sort();
    assert_eq!(ids, want);
    let chains = p
        .validates(ValidatesParams::new().with_subnet_id(h.subnet))
        .await
        .unwrap();
    assert_eq!(chains.blockchain_ids, vec![h.chain]);
    assert_eq!(
        p.validated_by(ValidatedByParams::new(h.chain))
            .await
            .unwrap()
            .subnet_id,
        h.subnet
    );
    let listed = p
        .get_blockchains(GetBlockchainsParams::new())
        .await
        .unwrap();
    let names: Vec<(Id, &str)> = listed
        .blockchains
        .iter()
        .map(|b| (b.id, b.name.as_str()))
        .collect();
    assert!(
        names.contains(&(h.chain, "Devnet Subnet Chain")),
        "{names:?}"
    );
    assert!(
        names.contains(&(h.l1_chain, "Devnet L1 Chain")),
        "{names:?}"
    );
    assert_eq!(
        listed.blockchains.last().map(|b| b.subnet_id),
        Some(Id::ZERO),
        "the Primary Network's chains last"
    );
    assert_eq!(
        p.get_blockchain_status(GetBlockchainStatusParams::new(h.chain.to_string()))
            .await
            .unwrap()
            .status,
        BlockchainStatus::Created
    );
    let sv = p
        .get_current_validators(GetCurrentValidatorsParams::new().with_subnet_id(h.subnet))
        .await
        .unwrap();
    assert_eq!(sv.validators.len(), 1);
    assert_eq!(sv.validators[0].node_id, d.devnet.nodes[2].id);
    assert_eq!(sv.validators[0].weight.get(), 20);
    assert_eq!(sv.validators[0].tx_id, Some(h.p_txs[6]));
    let at = p
        .get_validators_at(
            GetValidatorsAtParams::new()
                .with_subnet_id(h.subnet)
                .with_height(Height::Proposed),
        )
        .await
        .unwrap();
    assert_eq!(
        at.get(&d.devnet.nodes[2].id).map(|v| v.weight.get()),
        Some(20)
    );
    // The L1: converted, its conversion ID the hash of what the validators say it covers.
    let l1 = p.get_subnet(GetSubnetParams::new(h.l1)).await.unwrap();
    assert!(!l1.is_permissioned);
    assert_eq!(l1.manager_chain_id, Some(h.l1_chain));
    assert_eq!(
        l1.manager_address.as_ref().map(|a| a.0.clone()),
        Some(avalanche_devnet::activity::VALIDATOR_MANAGER.to_vec())
    );
    let vs = p
        .get_current_validators(GetCurrentValidatorsParams::new().with_subnet_id(h.l1))
        .await
        .unwrap()
        .validators;
    assert_eq!(vs.len(), 3);
    // The one registered by a Warp message, reweighted from 20 to 30.
    let registered = vs
        .iter()
        .find(|v| v.node_id.as_bytes() == &avalanche_devnet::activity::L1_VALIDATOR)
        .expect("the registered validator");
    assert_eq!(
        (
            registered.weight.get(),
            registered.min_nonce.map(|n| n.get())
        ),
        (30, Some(1))
    );
    let mut covered = Vec::new();
    for v in vs.iter().filter(|v| v.node_id != registered.node_id) {
        assert_eq!(v.weight.get(), 100);
        let balance = v.balance.unwrap().get();
        assert!(balance > 0 && balance <= AVAX / 10, "{balance}");
        let one = p
            .get_l1_validator(GetL1ValidatorParams::new(v.validation_id.unwrap()))
            .await
            .unwrap();
        assert_eq!((one.node_id, one.subnet_id), (v.node_id, h.l1));
        assert_eq!(Some(&one.public_key), v.public_key.as_ref());
        covered.push(warp::SubnetToL1ConversionValidator::new(
            v.node_id.as_bytes().to_vec(),
            one.public_key.0.clone().try_into().unwrap(),
            100,
        ));
    }
    covered.sort_by(|a, b| a.node_id.cmp(&b.node_id));
    let data = warp::SubnetToL1ConversionData::new(
        h.l1,
        h.l1_chain,
        avalanche_devnet::activity::VALIDATOR_MANAGER.to_vec(),
        covered,
    );
    assert_eq!(
        l1.conversion_id,
        Some(Id::from_sha256(&data.to_bytes().unwrap()))
    );
    let set = p
        .get_validators_at(
            GetValidatorsAtParams::new()
                .with_subnet_id(h.l1)
                .with_height(Height::Proposed),
        )
        .await
        .unwrap();
    assert_eq!(set.len(), 3);
    assert_eq!(
        set.values().map(|v| v.weight.get()).sum::<u64>(),
        230,
        "two of 100 and one of 30"
    );
    assert!(set.values().all(|v| v.public_key.is_some()));
    // Every block is indexed, on both chains.
    // Key 2's 50 AVAX moved to the P-chain; key 3's validator is current.
    let k2 = p
        .get_balance(PBalance::new().with_addresses(vec![pa(2)]))
        .await
        .unwrap();
    assert!(
        k2.unlocked.get() > 1_000_049 * AVAX && k2.unlocked.get() < 1_000_050 * AVAX,
        "{}",
        k2.unlocked.get()
    );
    let v = p
        .get_current_validators(GetCurrentValidatorsParams::new().with_node_ids(vec![
            avalanche_rpc::wire::NodeId::new(avalanche_devnet::activity::HISTORY_VALIDATOR),
        ]))
        .await
        .unwrap()
        .validators;
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].weight.get(), 2_000 * AVAX);
    // The C-chain's atomic side: one block (ewoq's export to X), imported on X.
    for (chain, n) in [("X", 6), ("P", 13), ("C", 1)] {
        let r = d
            .node
            .index(chain, "block")
            .get_container_range(GetContainerRangeParams::new(100u64))
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
