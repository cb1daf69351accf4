//! A permissioned Subnet's whole life through `platform.issueTx`: created, a chain on it, a
//! validator added, its owner changed, the validator removed by the new owner, another one
//! leaving at its end; with the node's refusals at each step, and every method reporting it.

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
