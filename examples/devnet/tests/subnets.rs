//! Subnets through `platform.issueTx`: a permissioned Subnet's whole life (created, a chain
//! on it, a validator added, its owner changed, the validator removed by the new owner,
//! another one leaving at its end) and an L1's (converted, its validator paying the
//! continuous fee until it runs out, refilled, disabled); with the node's refusals at each
//! step, and every method reporting it.

#![allow(deprecated)]

mod common;

use avalanche_devnet::genesis::{name_id, test_keys};
use avalanche_devnet::wallet::PKind;
use avalanche_rpc::codec::platform as codec;
use avalanche_rpc::devnet::{AdvanceClockParams, DevnetClient};
use avalanche_rpc::platform::*;
use avalanche_rpc::wire::{Address, Height, HexOrJson, Id, NodeId};
use common::Devnet;

#[tokio::test]
async fn a_subnet_lives_its_whole_life() {
    let d = Devnet::start(common::options()).await;
    let p = d.node.platform();
    let keys = test_keys();
    let (owner, other) = (&keys[2], &keys[3]);
    let pa = |k: &avalanche_rpc::keys::PrivateKey| {
        Address::new(Some("P"), "local", *k.address().as_bytes()).unwrap()
    };
    let subnet = d
        .p_issue(
            &d.p_tx(
                owner,
                PKind::CreateSubnet {
                    owner: owner.address(),
                },
            )
            .await,
        )
        .await
        .unwrap();
    let info = p.get_subnet(GetSubnetParams::new(subnet)).await.unwrap();
    assert_eq!(info.control_keys, vec![pa(owner)]);
    assert!(info.is_permissioned);

    // A chain: the owner's signature is needed.
    let chain = |auth| PKind::CreateChain {
        subnet,
        name: "Test Chain",
        vm: name_id("timestampvm"),
        genesis: b"genesis",
        auth,
    };
    let e = d
        .p_issue(&d.p_tx(owner, chain(other)).await)
        .await
        .unwrap_err();
    assert!(
        e.contains("unsignedTx.subnetAuthorization") && e.contains("not by the owner"),
        "{e}"
    );
    let chain_id = d.p_issue(&d.p_tx(owner, chain(owner)).await).await.unwrap();
    assert_eq!(
        p.validates(ValidatesParams::new().with_subnet_id(subnet))
            .await
            .unwrap()
            .blockchain_ids,
        vec![chain_id]
    );
    let listed = p
        .get_blockchains(GetBlockchainsParams::new())
        .await
        .unwrap();
    assert!(
        listed.blockchains.iter().any(|b| b.id == chain_id
            && b.subnet_id == subnet
            && b.vm_id == name_id("timestampvm"))
    );

    // Validators: only Primary Network validators, within their period, once.
    let now = d.devnet.clock.now();
    let add = |node: NodeId, end: u64, auth| PKind::AddSubnetValidator {
        subnet,
        node,
        weight: 7,
        end,
        auth,
    };
    let (n1, n2) = (d.devnet.nodes[1].id, d.devnet.nodes[2].id);
    let e = d
        .p_issue(
            &d.p_tx(owner, add(NodeId::new([5; 20]), now + 2 * 86_400, owner))
                .await,
        )
        .await
        .unwrap_err();
    assert!(e.contains("must validate the Primary Network"), "{e}");
    let e = d
        .p_issue(
            &d.p_tx(owner, add(n1, now + 364 * 86_400 + 86_000, owner))
                .await,
        )
        .await
        .unwrap_err();
    assert!(
        e.contains("after the node's Primary Network validation ends"),
        "{e}"
    );
    let added = d
        .p_issue(&d.p_tx(owner, add(n1, now + 10 * 86_400, owner)).await)
        .await
        .unwrap();
    let e = d
        .p_issue(&d.p_tx(owner, add(n1, now + 10 * 86_400, owner)).await)
        .await
        .unwrap_err();
    assert!(e.contains("already a validator of Subnet"), "{e}");
    let v = p
        .get_current_validators(GetCurrentValidatorsParams::new().with_subnet_id(subnet))
        .await
        .unwrap()
        .validators;
    assert_eq!(v.len(), 1);
    assert_eq!(
        (v[0].node_id, v[0].weight.get(), v[0].tx_id),
        (n1, 7, Some(added))
    );
    assert_eq!(
        v[0].potential_reward, None,
        "a permissioned validator earns nothing"
    );

    // The owner changes: the old owner's authorization no longer counts.
    d.p_issue(
        &d.p_tx(
            owner,
            PKind::TransferSubnetOwnership {
                subnet,
                owner: other.address(),
                auth: owner,
            },
        )
        .await,
    )
    .await
    .unwrap();
    assert_eq!(
        p.get_subnet(GetSubnetParams::new(subnet))
            .await
            .unwrap()
            .control_keys,
        vec![pa(other)]
    );
    let remove = |auth| PKind::RemoveSubnetValidator {
        subnet,
        node: n1,
        auth,
    };
    let e = d
        .p_issue(&d.p_tx(owner, remove(owner)).await)
        .await
        .unwrap_err();
    assert!(e.contains("not by the owner"), "{e}");
    d.p_issue(&d.p_tx(owner, remove(other)).await)
        .await
        .unwrap();
    let set = p
        .get_validators_at(
            GetValidatorsAtParams::new()
                .with_subnet_id(subnet)
                .with_height(Height::Proposed),
        )
        .await
        .unwrap();
    assert!(set.is_empty(), "{set:?}");
    let e = d
        .p_issue(&d.p_tx(owner, remove(other)).await)
        .await
        .unwrap_err();
    assert!(e.contains("isn't a validator of subnet"), "{e}");

    // Another validator leaves at its end, in a block that only moves the chain time.
    d.p_issue(&d.p_tx(owner, add(n2, now + 2 * 86_400, other)).await)
        .await
        .unwrap();
    let height = p
        .get_height(GetHeightParams::new())
        .await
        .unwrap()
        .height
        .get();
    d.node
        .devnet()
        .advance_clock(AdvanceClockParams::new(2 * 86_400 + 10u64))
        .await
        .unwrap();
    assert!(
        p.get_current_validators(GetCurrentValidatorsParams::new().with_subnet_id(subnet))
            .await
            .unwrap()
            .validators
            .is_empty()
    );
    let after = p
        .get_height(GetHeightParams::new())
        .await
        .unwrap()
        .height
        .get();
    assert_eq!(after, height + 1, "one block");
    let b = p
        .get_block_by_height(GetBlockByHeightParams::new().with_height(after))
        .await
        .unwrap();
    let HexOrJson::Hex(h) = &b.block else {
        panic!()
    };
    let codec::Block::BanffStandardBlock(b) =
        codec::Block::from_bytes(h.strip_checksum().unwrap()).unwrap()
    else {
        panic!("a standard block")
    };
    assert!(b.txs.is_empty());
    assert_eq!(b.time, now + 2 * 86_400);
    // The chain and the Subnet stay.
    assert_eq!(
        p.validated_by(ValidatedByParams::new(chain_id))
            .await
            .unwrap()
            .subnet_id,
        subnet
    );
    assert_ne!(subnet, Id::ZERO);
}

#[tokio::test]
async fn an_l1_validator_pays_its_fee_runs_out_is_refilled_and_disabled() {
    use avalanche_devnet::wallet::L1Validator;
    let d = Devnet::start(common::options()).await;
    let p = d.node.platform();
    let keys = test_keys();
    let (owner, other) = (&keys[2], &keys[3]);
    let subnet = d
        .p_issue(
            &d.p_tx(
                owner,
                PKind::CreateSubnet {
                    owner: owner.address(),
                },
            )
            .await,
        )
        .await
        .unwrap();
    let bls = avalanche_rpc::bls::SecretKey::from_seed(&[11; 32]).unwrap();
    let node = NodeId::new([11; 20]);
    let validators = [L1Validator {
        node,
        bls: &bls,
        weight: 40,
        balance: 100,
        owner: other.address(),
    }];
    let convert = |auth| PKind::ConvertToL1 {
        subnet,
        chain: Id::new([1; 32]),
        address: &[0xaa; 20],
        validators: &validators,
        auth,
    };
    let e = d
        .p_issue(&d.p_tx(owner, convert(other)).await)
        .await
        .unwrap_err();
    assert!(e.contains("not by the owner"), "{e}");
    d.p_issue(&d.p_tx(owner, convert(owner)).await)
        .await
        .unwrap();
    // Converted: its owner no longer acts on it.
    let e = d
        .p_issue(
            &d.p_tx(
                owner,
                PKind::CreateChain {
                    subnet,
                    name: "Late",
                    vm: name_id("timestampvm"),
                    genesis: b"",
                    auth: owner,
                },
            )
            .await,
        )
        .await
        .unwrap_err();
    assert!(e.contains("is immutable"), "{e}");
    let l1 = |p: PlatformEndpoint<_>| async move {
        p.get_current_validators(GetCurrentValidatorsParams::new().with_subnet_id(subnet))
            .await
            .unwrap()
            .validators
            .remove(0)
    };
    let v = l1(p.clone()).await;
    let id = v.validation_id.unwrap();
    assert_eq!(v.balance.map(|b| b.get()), Some(100));
    let fees = p
        .get_validator_fee_state(GetValidatorFeeStateParams::new())
        .await
        .unwrap();
    assert_eq!(
        fees.price, 1,
        "one active validator: no excess, the minimum price"
    );

    // 100 nAVAX at 1 nAVAX a second: after 100 s it is out, in a block made then; its
    // weight stays in the set under the empty node ID.
    let height = p
        .get_height(GetHeightParams::new())
        .await
        .unwrap()
        .height
        .get();
    d.node
        .devnet()
        .advance_clock(AdvanceClockParams::new(150u64))
        .await
        .unwrap();
    let v = l1(p.clone()).await;
    assert_eq!(v.balance.map(|b| b.get()), Some(0));
    assert_eq!(
        p.get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        height + 1
    );
    let set = p
        .get_validators_at(
            GetValidatorsAtParams::new()
                .with_subnet_id(subnet)
                .with_height(Height::Proposed),
        )
        .await
        .unwrap();
    assert_eq!(set.len(), 1);
    let empty = NodeId::new([0; 20]);
    assert_eq!(set[&empty].weight.get(), 40);
    assert!(set[&empty].public_key.is_none());

    // Refilled: active again under its own node ID and key.
    d.p_issue(
        &d.p_tx(
            other,
            PKind::IncreaseL1Balance {
                validation_id: id,
                amount: 1_000_000,
            },
        )
        .await,
    )
    .await
    .unwrap();
    let v = l1(p.clone()).await;
    let balance = v.balance.unwrap().get();
    assert!(balance <= 1_000_000 && balance > 999_000, "{balance}");
    let set = p
        .get_validators_at(
            GetValidatorsAtParams::new()
                .with_subnet_id(subnet)
                .with_height(Height::Proposed),
        )
        .await
        .unwrap();
    assert_eq!(set[&node].weight.get(), 40);
    assert_eq!(
        set[&node].public_key.as_ref().map(|k| k.0.clone()),
        Some(bls.public_key().to_vec())
    );

    // Disabled by its deactivation owner alone; what is left goes to its remaining balance
    // owner as the tx's last output.
    let disable = |auth| PKind::DisableL1Validator {
        validation_id: id,
        auth,
    };
    let e = d
        .p_issue(&d.p_tx(owner, disable(owner)).await)
        .await
        .unwrap_err();
    assert!(
        e.contains("unsignedTx.disableAuthorization") && e.contains("not by the owner"),
        "{e}"
    );
    let tx = d.p_tx(owner, disable(other)).await;
    let disabled = d.p_issue(&tx).await.unwrap();
    let v = l1(p.clone()).await;
    assert_eq!(v.balance.map(|b| b.get()), Some(0));
    let codec::UnsignedTx::DisableL1ValidatorTx(t) = &tx.unsigned else {
        panic!()
    };
    let refund = avalanche_rpc::codec::avax::UtxoId::new(disabled, t.base.outputs.len() as u32);
    let pa = Address::new(Some("P"), "local", *other.address().as_bytes()).unwrap();
    let utxos = p
        .get_utxos(GetUtxosParams::new(vec![pa]))
        .await
        .unwrap()
        .utxos;
    let paid = utxos
        .iter()
        .map(|u| codec::Utxo::from_bytes(u.strip_checksum().unwrap()).unwrap())
        .find(|u| u.utxo_id.id() == refund.id())
        .expect("the remaining balance was paid");
    let codec::UtxoOutput::TransferOutput(o) = &paid.output else {
        panic!()
    };
    assert!(o.amount > 999_000 && o.amount <= balance, "{}", o.amount);
    assert_eq!(o.owners.addresses, vec![other.address()]);
}
