//! The P-chain from its genesis, through the generated client: every read method agrees with
//! the others and with the genesis the devnet documents.

use crate::common::{self, Devnet, keychain, one, p_codec};
use avalanche_devnet::context::sign;
use avalanche_devnet::genesis::{AVAX, staking, test_keys};
use avalanche_rpc::codec::{avm as codec_avm, platform as codec};
use avalanche_rpc::index::IndexClient;
use avalanche_rpc::info::*;
use avalanche_rpc::platform::*;
use avalanche_rpc::transact::p;
use avalanche_rpc::wire::{Address, Encoding, Height, HexOrJson, Id};
use std::collections::BTreeSet;

fn p_address(a: avalanche_rpc::wire::ShortId) -> Address {
    Address::new(Some("P"), "local", *a.as_bytes()).unwrap()
}

#[tokio::test]
async fn validators_stake_and_supply_agree() {
    let d = Devnet::start(common::options()).await;
    let p = d.node.platform();
    let current = p
        .get_current_validators(GetCurrentValidatorsParams::new())
        .await
        .unwrap()
        .validators;
    assert_eq!(current.len(), 5);
    // Weights sum to the total stake; each validator's BLS proof of possession verifies.
    let total: u64 = current.iter().map(|v| v.weight.get()).sum();
    let stake = p.get_total_stake(GetTotalStakeParams::new()).await.unwrap();
    assert_eq!(stake.weight.get(), total);
    assert_eq!(stake.stake.map(|s| s.get()), Some(total));
    let min = p.get_min_stake(GetMinStakeParams::new()).await.unwrap();
    let mut rewards = 0u64;
    for v in &current {
        assert!(v.weight.get() >= min.min_validator_stake.get());
        let signer = v.signer.as_ref().expect("a BLS key");
        let pk: [u8; 48] = signer.public_key.0.as_slice().try_into().unwrap();
        let pop: [u8; 96] = signer.proof_of_possession.0.as_slice().try_into().unwrap();
        avalanche_rpc::bls::verify_proof_of_possession(&pk, &pop).unwrap();
        assert_eq!(v.connected, Some(true));
        let reward = v.potential_reward.unwrap().get();
        assert!(reward > 0);
        rewards += reward;
        // The staking tx is stored, committed, and reads back in both forms.
        let tx_id = v.tx_id.unwrap();
        let status = p
            .get_tx_status(GetTxStatusParams::new(tx_id))
            .await
            .unwrap();
        assert_eq!(status.status, TxStatus::Committed);
        let tx = p
            .get_tx(GetTxParams::new(tx_id).with_encoding(Encoding::Json))
            .await
            .unwrap();
        let HexOrJson::Json(json) = &tx.tx else {
            panic!()
        };
        assert_eq!(
            json["unsignedTx"]["validator"]["nodeID"],
            v.node_id.to_string()
        );
        assert_eq!(json["id"], tx_id.to_string());
    }
    // The supply is the genesis supply plus every potential reward, under the cap.
    let supply = p
        .get_current_supply(GetCurrentSupplyParams::new())
        .await
        .unwrap();
    let genesis_supply = d.devnet.genesis.p.initial_supply;
    assert_eq!(supply.supply.get(), genesis_supply + rewards);
    assert!(supply.supply.get() <= staking::SUPPLY_CAP);
    // The validator set at height 0 and at the proposed height: the same nodes, weights, keys.
    for h in [Height::Number(0), Height::Proposed] {
        let set = p
            .get_validators_at(GetValidatorsAtParams::new().with_height(h))
            .await
            .unwrap();
        assert_eq!(set.len(), 5);
        for v in &current {
            let at = &set[&v.node_id];
            assert_eq!(at.weight, v.weight);
            assert_eq!(
                at.public_key.as_ref(),
                Some(&v.signer.as_ref().unwrap().public_key)
            );
        }
    }
    let e = p
        .get_validators_at(GetValidatorsAtParams::new().with_height(Height::Number(1)))
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("requested P-Chain height (1)"),
        "{e}"
    );
    let all = p
        .get_all_validators_at(GetAllValidatorsAtParams::new().with_height(Height::Number(0)))
        .await
        .unwrap();
    assert_eq!(all.validator_sets[&Id::ZERO].total_weight.get(), total);
    // Sampling returns validators, sorted.
    let sample = p
        .sample_validators(SampleValidatorsParams::new(3u16))
        .await
        .unwrap()
        .validators;
    assert_eq!(sample.len(), 3);
    assert!(sample.windows(2).all(|w| w[0] <= w[1]));
    let ids: BTreeSet<_> = current.iter().map(|v| v.node_id).collect();
    assert!(sample.iter().all(|n| ids.contains(n)));
    // This node and its four peers are the validators.
    let me = d
        .node
        .info()
        .get_node_id(GetNodeIdParams::new())
        .await
        .unwrap();
    let peers = d.node.info().peers(PeersParams::new()).await.unwrap();
    let mut nodes: BTreeSet<_> = peers.peers.iter().map(|p| p.node_id).collect();
    nodes.insert(me.node_id);
    assert_eq!(nodes, ids);
    // getStake: each key staked 2,000,000 AVAX; the outputs decode.
    let keys = test_keys();
    for k in &keys {
        let s = p
            .get_stake(GetStakeParams::new(vec![p_address(k.address())]))
            .await
            .unwrap();
        assert_eq!(s.staked.get(), 2_000_000 * AVAX);
        for o in &s.staked_outputs {
            codec::TransferableOutput::from_bytes(o.strip_checksum().unwrap()).unwrap();
        }
    }
}

#[tokio::test]
async fn balances_utxos_blocks_and_chains_agree() {
    let d = Devnet::start(common::options()).await;
    let p = d.node.platform();
    let keys = test_keys();
    // Key 1: a million unlocked and 500,000 AVAX stakeable-locked for a year.
    let a = p_address(keys[1].address());
    let b = p
        .get_balance(GetBalanceParams::new().with_addresses(vec![a.clone()]))
        .await
        .unwrap();
    assert_eq!(b.unlocked.get(), 1_000_000 * AVAX);
    assert_eq!(b.locked_stakeable.get(), 500_000 * AVAX);
    assert_eq!(b.locked_not_stakeable.get(), 0);
    assert_eq!(b.balance.get(), 1_500_000 * AVAX);
    let utxos = p
        .get_utxos(GetUtxosParams::new(vec![a.clone()]))
        .await
        .unwrap();
    assert_eq!(utxos.num_fetched.get(), 2);
    let mut sum = 0;
    for u in &utxos.utxos {
        let u = codec::Utxo::from_bytes(u.strip_checksum().unwrap()).unwrap();
        sum += match &u.output {
            codec::UtxoOutput::TransferOutput(o) => o.amount,
            codec::UtxoOutput::LockOut(l) => match &l.output {
                codec::LockedOut::TransferOutput(o) => o.amount,
                _ => panic!(),
            },
            _ => panic!(),
        };
    }
    assert_eq!(sum, b.balance.get());
    assert_eq!(b.utxo_ids.unwrap().len(), 2);
    // An X-chain address is refused here.
    let x = Address::new(Some("X"), "local", *keys[1].address().as_bytes()).unwrap();
    assert!(p.get_utxos(GetUtxosParams::new(vec![x])).await.is_err());

    // The genesis block: height 0, an ApricotCommitBlock, by height and by ID alike.
    assert_eq!(
        p.get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        0
    );
    let by_height = p
        .get_block_by_height(GetBlockByHeightParams::new().with_height(0u64))
        .await
        .unwrap();
    let HexOrJson::Hex(h) = &by_height.block else {
        panic!()
    };
    let bytes = h.strip_checksum().unwrap();
    let codec::Block::ApricotCommitBlock(g) = codec::Block::from_bytes(bytes).unwrap() else {
        panic!("the genesis block is an ApricotCommitBlock")
    };
    assert_eq!(g.parent_id, Id::from_sha256(&d.devnet.genesis.p_bytes));
    let by_id = p
        .get_block(GetBlockParams::new(Id::from_sha256(bytes)).with_encoding(Encoding::Json))
        .await
        .unwrap();
    let HexOrJson::Json(j) = &by_id.block else {
        panic!()
    };
    assert_eq!(j["height"], 0);
    let ts = p.get_timestamp(GetTimestampParams::new()).await.unwrap();
    assert_eq!(ts.timestamp.unix_seconds() as u64, d.devnet.genesis.time);

    // The chains: X and C on the Primary Network, with the IDs info and the X-chain know.
    let chains = p
        .get_blockchains(GetBlockchainsParams::new())
        .await
        .unwrap()
        .blockchains;
    let names: Vec<&str> = chains.iter().map(|c| c.name.as_str()).collect();
    let names: BTreeSet<&str> = names.into_iter().collect();
    assert_eq!(names, BTreeSet::from(["X-Chain", "C-Chain"]));
    let validates = p
        .validates(ValidatesParams::new())
        .await
        .unwrap()
        .blockchain_ids;
    for c in &chains {
        assert!(validates.contains(&c.id));
        let by = p.validated_by(ValidatedByParams::new(c.id)).await.unwrap();
        assert_eq!(by.subnet_id, Id::ZERO);
        let alias = if c.name == "X-Chain" { "X" } else { "C" };
        let id = d
            .node
            .info()
            .get_blockchain_id(GetBlockchainIdParams::new(alias))
            .await
            .unwrap();
        assert_eq!(id.blockchain_id, c.id);
    }
    // The X-chain's genesis in its CreateChainTx is the genesis the X-chain started from.
    let x_id = d.devnet.genesis.x_chain_id;
    let create = p.get_tx(GetTxParams::new(x_id)).await.unwrap();
    let HexOrJson::Hex(h) = &create.tx else {
        panic!()
    };
    let tx = codec::Tx::from_bytes(h.strip_checksum().unwrap()).unwrap();
    let codec::UnsignedTx::CreateChainTx(c) = &tx.unsigned else {
        panic!()
    };
    let genesis = codec_avm::Genesis::from_bytes(&c.genesis_data).unwrap();
    assert_eq!(genesis.txs.len(), d.devnet.genesis.assets.len());
    // Statuses: the X-chain runs here, the C-chain exists but does not, P has the node's quirk.
    let status = |id: &str| {
        let p = p.clone();
        let id = id.to_string();
        async move {
            p.get_blockchain_status(GetBlockchainStatusParams::new(id))
                .await
                .map(|s| s.status)
        }
    };
    assert_eq!(status("X").await.unwrap(), BlockchainStatus::Validating);
    assert_eq!(status("C").await.unwrap(), BlockchainStatus::Created);
    assert_eq!(status("P").await.unwrap(), BlockchainStatus::Syncing);
    assert_eq!(
        status(&Id::from_sha256(b"no chain").to_string())
            .await
            .unwrap(),
        BlockchainStatus::Unknown
    );
    assert!(
        status("")
            .await
            .unwrap_err()
            .to_string()
            .contains("argument 'blockchainID' not given")
    );
    // Subnets: only the Primary Network, which is not a Subnet to getSubnet.
    let subnets = p
        .get_subnets(GetSubnetsParams::new())
        .await
        .unwrap()
        .subnets
        .unwrap();
    assert_eq!(subnets.len(), 1);
    assert_eq!(subnets[0].id, Id::ZERO);
    let e = p
        .get_subnet(GetSubnetParams::new(Id::ZERO))
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("the primary network isn't a subnet"),
        "{e}"
    );
    let asset = p
        .get_staking_asset_id(GetStakingAssetIdParams::new())
        .await
        .unwrap();
    assert_eq!(asset.asset_id, d.devnet.genesis.avax_asset_id);
}

#[tokio::test]
async fn a_p_chain_transfer_pays_the_dynamic_fee_and_moves_the_fee_state() {
    let d = Devnet::start(common::options()).await;
    let p = d.node.platform();
    let keys = test_keys();
    let (from, to) = (p_address(keys[3].address()), p_address(keys[4].address()));
    let before = p.get_fee_state(GetFeeStateParams::new()).await.unwrap();
    assert_eq!(
        (before.capacity, before.excess, before.price),
        (0, 0, 1),
        "the node's initial state"
    );
    let utxos: Vec<avalanche_devnet::pchain::Utxo> = p
        .get_utxos(GetUtxosParams::new(vec![from.clone()]))
        .await
        .unwrap()
        .utxos
        .iter()
        .map(|u| avalanche_devnet::pchain::Utxo::decode(u.strip_checksum().unwrap()).unwrap())
        .collect();
    // Built at the price now (not the devnet's margin): the fee is exactly the gas.
    let mut cx = d.context();
    cx.p_fee_state.price = before.price;
    let pay = [p::output(
        cx.avax_asset_id,
        7 * AVAX,
        one(keys[4].address()),
    )];
    let built = p::base_tx(&cx, &p_codec(&utxos), &d.payer(&keys[3]), &pay);
    let tx = sign(built, &keychain()).unwrap();
    let bytes = tx.to_bytes().unwrap();
    let id = p
        .issue_tx(IssueTxParams::new(
            avalanche_rpc::wire::HexBytes::with_checksum(&bytes),
        ))
        .await
        .unwrap()
        .tx_id;
    assert_eq!(id, Id::from_sha256(&bytes));
    let mut status = TxStatus::Unknown;
    for _ in 0..500 {
        status = p
            .get_tx_status(GetTxStatusParams::new(id))
            .await
            .unwrap()
            .status;
        if status == TxStatus::Committed {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(status, TxStatus::Committed);
    // The fee is the gas at the price; its bandwidth is the signed tx's length (§8.2).
    let codec::UnsignedTx::BaseTx(base) = &tx.unsigned else {
        panic!()
    };
    let complexity = avalanche_rpc::transact::fee::base(&base.base);
    assert_eq!(complexity[0], bytes.len() as u64);
    let gas = avalanche_devnet::pchain::fee::gas(&tx.unsigned).unwrap();
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
    assert_eq!(
        balance(from.clone()).await,
        1_000_000 * AVAX - 7 * AVAX - gas
    );
    assert_eq!(balance(to.clone()).await, 1_000_000 * AVAX + 7 * AVAX);
    // The block: a Banff standard block at height 1 holding the tx; the fee state consumed
    // its gas; the P block index holds its proposervm wrapper.
    assert_eq!(
        p.get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        1
    );
    let block = p
        .get_block_by_height(GetBlockByHeightParams::new().with_height(1u64))
        .await
        .unwrap();
    let HexOrJson::Hex(h) = &block.block else {
        panic!()
    };
    let codec::Block::BanffStandardBlock(b) =
        codec::Block::from_bytes(h.strip_checksum().unwrap()).unwrap()
    else {
        panic!("a Banff standard block")
    };
    assert_eq!(b.txs, vec![tx]);
    let after = p.get_fee_state(GetFeeStateParams::new()).await.unwrap();
    assert_eq!(after.excess, gas, "the excess grew by the block's gas");
    assert_eq!(after.timestamp.unix_seconds() as u64, b.time);
    let last = d
        .node
        .index("P", "block")
        .get_last_accepted(avalanche_rpc::index::GetLastAcceptedParams::new())
        .await
        .unwrap();
    assert_eq!(last.index.get(), 0);
    // The first block after genesis: the proposer VM's StatelessBlock, as the node's first.
    let w =
        avalanche_rpc::codec::proposervm::Block::from_bytes(last.bytes.strip_checksum().unwrap())
            .unwrap();
    assert_eq!(w.type_name(), "StatelessBlock");
    assert_eq!(w.block().unwrap(), h.strip_checksum().unwrap());
    // Spending the same UTXOs again is refused and reported as dropped.
    cx.p_fee_state.price = after.price;
    let built = p::base_tx(&cx, &p_codec(&utxos), &d.payer(&keys[3]), &[]);
    let again = sign(built, &keychain()).unwrap();
    let e = p
        .issue_tx(IssueTxParams::new(
            avalanche_rpc::wire::HexBytes::with_checksum(&again.to_bytes().unwrap()),
        ))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("couldn't issue tx"), "{e}");
    let s = p
        .get_tx_status(GetTxStatusParams::new(again.id().unwrap()))
        .await
        .unwrap();
    assert_eq!(s.status, TxStatus::Dropped);
    // The node's words: `vms/platformvm/utxo/verifier.go`.
    let reason = s.reason.unwrap();
    assert!(
        reason.contains("failed to read consumed UTXO") && reason.contains("due to: not found"),
        "{reason}"
    );
}

/// P-chain blocks are a second apart in chain time, as the node's minimum block delay makes
/// them, so the gas capacity refills between them; the chain's time runs ahead of the clock
/// by at most the lead (the node's sync bound by default), after which blocks wait.
#[tokio::test]
async fn p_chain_blocks_are_a_second_apart_and_run_ahead_at_most_the_lead() {
    let d = Devnet::start(avalanche_devnet::Options {
        p_chain_lead: avalanche_devnet::LEAD,
        upgrade_file: None,
        ..common::options()
    })
    .await;
    let p = d.node.platform();
    let keys = test_keys();
    let to = keys[4].address();
    let start = d.devnet.engine.clock.now();
    let mut times = Vec::new();
    // More blocks in a row than the lead has seconds.
    for _ in 0..avalanche_devnet::LEAD + 3 {
        d.p_do(&keys[3], |c, u, pay| {
            p::base_tx(c, u, pay, &[p::output(c.avax_asset_id, AVAX, one(to))])
        })
        .await
        .unwrap();
        let now = d.devnet.engine.clock.now();
        let chain = p
            .get_timestamp(GetTimestampParams::new())
            .await
            .unwrap()
            .timestamp
            .unix_seconds() as u64;
        assert!(
            chain <= now + avalanche_devnet::LEAD,
            "the chain's time {chain} is more than the lead past the clock's {now}"
        );
        times.push(chain);
    }
    assert!(
        times.windows(2).all(|w| w[1] > w[0]),
        "blocks a second apart: {times:?}"
    );
    // Thirteen blocks took less than thirteen seconds of the clock: only the ones past the
    // lead waited.
    assert!(
        d.devnet.engine.clock.now() - start < avalanche_devnet::LEAD + 3,
        "{} s",
        d.devnet.engine.clock.now() - start
    );
    // The capacity refilled between blocks: at least a second's worth each time.
    let fee = p.get_fee_state(GetFeeStateParams::new()).await.unwrap();
    assert!(fee.capacity >= 100_000, "{}", fee.capacity);
}
