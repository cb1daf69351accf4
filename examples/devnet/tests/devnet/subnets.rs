//! Subnets through `platform.issueTx`: a permissioned Subnet's whole life (created, a chain
//! on it, a validator added, its owner changed, the validator removed by the new owner,
//! another one leaving at its end) and an L1's (converted, its validator paying the
//! continuous fee until it runs out, refilled, disabled); with the node's refusals at each
//! step, and every method reporting it.

use crate::common::{self, Devnet, PBuild, authority, one};
use avalanche_devnet::genesis::{name_id, test_keys};
use avalanche_rpc::bls::SecretKey;
use avalanche_rpc::codec::platform as codec;
use avalanche_rpc::devnet::{AdvanceClockParams, DevnetClient};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::platform::*;
use avalanche_rpc::transact::p::{self, ChainRequest, Stake};
use avalanche_rpc::transact::warp::l1_message;
use avalanche_rpc::wire::{Address, Height, HexBytes, HexOrJson, Id, NodeId};

/// A Subnet owned by `owner` alone.
fn create_subnet(owner: &PrivateKey) -> PBuild<'static> {
    let owner = one(owner.address());
    Box::new(move |c, u, p| p::create_subnet_tx(c, u, p, &owner))
}

/// A chain of `vm` on `subnet` (no fx), authorized by `auth` as its owner.
fn create_chain<'a>(
    subnet: Id,
    name: &'a str,
    vm: &str,
    genesis: &'a [u8],
    auth: &PrivateKey,
) -> PBuild<'a> {
    let req = ChainRequest {
        subnet_id: subnet,
        name,
        vm_id: name_id(vm),
        fx_ids: Vec::new(),
        genesis,
    };
    let auth = authority(auth);
    Box::new(move |c, u, p| p::create_chain_tx(c, u, p, &auth, &req))
}

/// A first validator of an L1: `node` with its BLS key, weight and balance, `owner` owning
/// what is left of the balance and deactivating it.
fn l1_validator(
    node: NodeId,
    bls: &SecretKey,
    (weight, balance): (u64, u64),
    owner: &PrivateKey,
) -> codec::ConvertSubnetToL1Validator {
    let owner = codec::PChainOwner::new(1, vec![owner.address()]);
    codec::ConvertSubnetToL1Validator::new(
        node.as_bytes().to_vec(),
        weight,
        balance,
        codec::ProofOfPossession::new(bls.public_key(), bls.proof_of_possession()),
        owner.clone(),
        owner,
    )
}

/// `subnet` converted to an L1 managed from `address` on `chain`, with `validators`,
/// authorized by `auth` as its owner.
fn convert<'a>(
    subnet: Id,
    (chain, address): (Id, &'a [u8]),
    validators: &'a [codec::ConvertSubnetToL1Validator],
    auth: &PrivateKey,
) -> PBuild<'a> {
    let auth = authority(auth);
    Box::new(move |c, u, p| {
        p::convert_subnet_to_l1_tx(c, u, p, subnet, &auth, (chain, address), validators)
    })
}

#[tokio::test]
async fn a_subnet_lives_its_whole_life() {
    let d = Devnet::start(common::options()).await;
    let p = d.node.platform();
    let keys = test_keys();
    let (owner, other) = (&keys[2], &keys[3]);
    let pa = |k: &avalanche_rpc::keys::PrivateKey| {
        Address::new(Some("P"), "local", *k.address().as_bytes()).unwrap()
    };
    let subnet = d.p_do(owner, create_subnet(owner)).await.unwrap();
    let info = p.get_subnet(GetSubnetParams::new(subnet)).await.unwrap();
    assert_eq!(info.control_keys, vec![pa(owner)]);
    assert!(info.is_permissioned);

    // A chain: the owner's signature is needed.
    let chain = |auth| create_chain(subnet, "Test Chain", "timestampvm", b"genesis", auth);
    let e = d.p_do(owner, chain(other)).await.unwrap_err();
    assert!(
        e.contains("unsignedTx.subnetAuthorization") && e.contains("not by the owner"),
        "{e}"
    );
    let chain_id = d.p_do(owner, chain(owner)).await.unwrap();
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
    let now = d.devnet.engine.clock.now();
    let add = |node_id: NodeId, end: u64, auth: &PrivateKey| -> PBuild<'static> {
        let stake = Stake {
            node_id,
            start: 0,
            end,
            weight: 7,
        };
        let auth = authority(auth);
        Box::new(move |c, u, p| p::add_subnet_validator_tx(c, u, p, subnet, &auth, stake))
    };
    let (n1, n2) = (d.devnet.nodes[1].id, d.devnet.nodes[2].id);
    let e = d
        .p_do(owner, add(NodeId::new([5; 20]), now + 2 * 86_400, owner))
        .await
        .unwrap_err();
    assert!(e.contains("must validate the Primary Network"), "{e}");
    let e = d
        .p_do(owner, add(n1, now + 364 * 86_400 + 86_000, owner))
        .await
        .unwrap_err();
    assert!(
        e.contains("after the node's Primary Network validation ends"),
        "{e}"
    );
    let added = d
        .p_do(owner, add(n1, now + 10 * 86_400, owner))
        .await
        .unwrap();
    let e = d
        .p_do(owner, add(n1, now + 10 * 86_400, owner))
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
    let new_owner = one(other.address());
    d.p_do(owner, |c, u, p| {
        p::transfer_subnet_ownership_tx(c, u, p, subnet, &authority(owner), &new_owner)
    })
    .await
    .unwrap();
    assert_eq!(
        p.get_subnet(GetSubnetParams::new(subnet))
            .await
            .unwrap()
            .control_keys,
        vec![pa(other)]
    );
    let remove = |auth: &PrivateKey| -> PBuild<'static> {
        let auth = authority(auth);
        Box::new(move |c, u, p| p::remove_subnet_validator_tx(c, u, p, subnet, &auth, n1))
    };
    let e = d.p_do(owner, remove(owner)).await.unwrap_err();
    assert!(e.contains("not by the owner"), "{e}");
    d.p_do(owner, remove(other)).await.unwrap();
    let set = p
        .get_validators_at(
            GetValidatorsAtParams::new()
                .with_subnet_id(subnet)
                .with_height(Height::Proposed),
        )
        .await
        .unwrap();
    assert!(set.is_empty(), "{set:?}");
    let e = d.p_do(owner, remove(other)).await.unwrap_err();
    assert!(e.contains("isn't a validator of subnet"), "{e}");

    // Another validator leaves at its end, in a block that only moves the chain time.
    d.p_do(owner, add(n2, now + 2 * 86_400, other))
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
    let d = Devnet::start(common::options()).await;
    let p = d.node.platform();
    let keys = test_keys();
    let (owner, other) = (&keys[2], &keys[3]);
    let subnet = d.p_do(owner, create_subnet(owner)).await.unwrap();
    let bls = SecretKey::from_seed(&[11; 32]).unwrap();
    let node = NodeId::new([11; 20]);
    let validators = [l1_validator(node, &bls, (40, 100), other)];
    let manager = (Id::new([1; 32]), &[0xaau8; 20] as &[u8]);
    let e = d
        .p_do(owner, convert(subnet, manager, &validators, other))
        .await
        .unwrap_err();
    assert!(e.contains("not by the owner"), "{e}");
    d.p_do(owner, convert(subnet, manager, &validators, owner))
        .await
        .unwrap();
    // Converted: its owner no longer acts on it.
    let e = d
        .p_do(
            owner,
            create_chain(subnet, "Late", "timestampvm", b"", owner),
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
    d.p_do(other, |c, u, p| {
        p::increase_l1_validator_balance_tx(c, u, p, id, 1_000_000)
    })
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
    let disable = |auth: &PrivateKey| -> PBuild<'static> {
        let auth = authority(auth);
        Box::new(move |c, u, p| p::disable_l1_validator_tx(c, u, p, id, &auth))
    };
    let e = d.p_do(owner, disable(owner)).await.unwrap_err();
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

#[tokio::test]
async fn l1_validators_are_registered_and_reweighted_by_warp_messages_the_l1_signs() {
    use avalanche_rpc::codec::{platform as p_codec, warp, warp_l1};
    use avalanche_rpc::devnet::SignWarpMessageParams;
    let d = Devnet::start(common::options()).await;
    let p = d.node.platform();
    let control = d.node.devnet();
    let keys = test_keys();
    let owner = &keys[2];
    let subnet = d.p_do(owner, create_subnet(owner)).await.unwrap();
    let chain = d
        .p_do(
            owner,
            create_chain(subnet, "Manager", "subnetevm", b"{}", owner),
        )
        .await
        .unwrap();
    let manager = [0x42u8; 20];
    // The devnet's nodes 3 and 4 validate it: the devnet can sign as the L1.
    let first: Vec<_> = d.devnet.nodes[3..5]
        .iter()
        .map(|n| l1_validator(n.id, n.bls.as_ref().unwrap(), (50, 1_000_000), owner))
        .collect();
    d.p_do(owner, convert(subnet, (chain, &manager), &first, owner))
        .await
        .unwrap();
    // The P-chain verifies Warp messages at its epoch's height, which does not hold the
    // conversion yet: there is no validator set to sign for until the next epoch.
    let early = control
        .sign_warp_message(SignWarpMessageParams::new(HexBytes(
            l1_message(
                12345,
                chain,
                &manager,
                &warp_l1::L1Message::L1ValidatorWeight(warp::L1ValidatorWeight::new(
                    Id::ZERO,
                    0,
                    1,
                )),
            )
            .unwrap(),
        )))
        .await
        .unwrap_err()
        .to_string();
    assert!(early.contains("the validator set is empty"), "{early}");
    d.next_epoch(owner).await;

    let sign = |unsigned: Vec<u8>| {
        let control = control.clone();
        async move {
            control
                .sign_warp_message(SignWarpMessageParams::new(HexBytes(unsigned)))
                .await
                .map(|r| r.signed_message.0)
                .map_err(|e| e.to_string())
        }
    };
    let bls = SecretKey::from_seed(&[12; 32]).unwrap();
    let node = NodeId::new([12; 20]);
    let pchain_owner = p_codec::PChainOwner::new(1, vec![owner.address()]);
    let register = |address: &[u8], expiry: u64| {
        l1_message(
            12345,
            chain,
            address,
            &warp_l1::L1Message::RegisterL1Validator(Box::new(warp::RegisterL1Validator::new(
                subnet,
                node.as_bytes().to_vec(),
                bls.public_key(),
                expiry,
                pchain_owner.clone(),
                pchain_owner.clone(),
                30,
            ))),
        )
        .unwrap()
    };
    let expiry = d.devnet.engine.clock.now() + 3_600;
    let signed = sign(register(&manager, expiry)).await.unwrap();
    fn registration<'m>(message: &'m [u8], bls: &SecretKey) -> PBuild<'m> {
        let pop = bls.proof_of_possession();
        Box::new(move |c, u, p| p::register_l1_validator_tx(c, u, p, 5_000, pop, message))
    }
    fn reweigh(message: &[u8]) -> PBuild<'_> {
        Box::new(move |c, u, p| p::set_l1_validator_weight_tx(c, u, p, message))
    }

    // Refused: a tampered signature, another sender, a message expiring too late.
    let mut tampered = signed.clone();
    let last = tampered.len() - 1;
    tampered[last] ^= 1;
    let e = d
        .p_do(owner, registration(&tampered, &bls))
        .await
        .unwrap_err();
    assert!(e.contains("`unsignedTx.message`'s signature"), "{e}");
    let elsewhere = sign(register(&[0x43; 20], expiry)).await.unwrap();
    let e = d
        .p_do(owner, registration(&elsewhere, &bls))
        .await
        .unwrap_err();
    assert!(e.contains("comes from address"), "{e}");
    let late = sign(register(&manager, expiry + 2 * 86_400)).await.unwrap();
    let e = d.p_do(owner, registration(&late, &bls)).await.unwrap_err();
    assert!(e.contains("the limit is a day"), "{e}");

    let reg_tx = d.p_do(owner, registration(&signed, &bls)).await.unwrap();
    let inner = warp_l1::L1Message::RegisterL1Validator(Box::new(warp::RegisterL1Validator::new(
        subnet,
        node.as_bytes().to_vec(),
        bls.public_key(),
        expiry,
        pchain_owner.clone(),
        pchain_owner.clone(),
        30,
    )));
    let validation_id = Id::from_sha256(&inner.to_bytes().unwrap());
    let v = p
        .get_l1_validator(GetL1ValidatorParams::new(validation_id))
        .await
        .unwrap();
    assert_eq!(
        (v.node_id, v.weight.get(), v.balance.get()),
        (node, 30, 5_000)
    );
    assert_ne!(reg_tx, Id::ZERO);
    // Accepted once.
    let e = d
        .p_do(owner, registration(&signed, &bls))
        .await
        .unwrap_err();
    assert!(e.contains("already issued"), "{e}");

    // Reweighted with nonce 0; the nonce is then used up. (The devnet's nodes keep more than
    // 67 % of the weight, so it can still sign as the L1.)
    let weight = |nonce: u64, w: u64| {
        l1_message(
            12345,
            chain,
            &manager,
            &warp_l1::L1Message::L1ValidatorWeight(warp::L1ValidatorWeight::new(
                validation_id,
                nonce,
                w,
            )),
        )
        .unwrap()
    };
    let m = sign(weight(0, 40)).await.unwrap();
    d.p_do(owner, reweigh(&m)).await.unwrap();
    let v = p
        .get_l1_validator(GetL1ValidatorParams::new(validation_id))
        .await
        .unwrap();
    assert_eq!((v.weight.get(), v.min_nonce.get()), (40, 1));
    let stale = sign(weight(0, 80)).await.unwrap();
    let e = d.p_do(owner, reweigh(&stale)).await.unwrap_err();
    assert!(e.contains("nonce 0 is stale"), "{e}");
    let set = p
        .get_validators_at(
            GetValidatorsAtParams::new()
                .with_subnet_id(subnet)
                .with_height(Height::Proposed),
        )
        .await
        .unwrap();
    assert_eq!(set[&node].weight.get(), 40);

    // Weight 0 removes it; what is left of its balance comes back.
    let m = sign(weight(1, 0)).await.unwrap();
    let removal = d.p_tx(owner, reweigh(&m)).await;
    let removed = d.p_issue(&removal).await.unwrap();
    let e = p
        .get_l1_validator(GetL1ValidatorParams::new(validation_id))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("not found"), "{e}");
    let codec::UnsignedTx::SetL1ValidatorWeightTx(t) = &removal.unsigned else {
        panic!()
    };
    let refund = avalanche_rpc::codec::avax::UtxoId::new(removed, t.base.outputs.len() as u32);
    let pa = Address::new(Some("P"), "local", *owner.address().as_bytes()).unwrap();
    let utxos = p
        .get_utxos(GetUtxosParams::new(vec![pa]))
        .await
        .unwrap()
        .utxos;
    assert!(
        utxos
            .iter()
            .map(|u| codec::Utxo::from_bytes(u.strip_checksum().unwrap()).unwrap())
            .any(|u| u.utxo_id.id() == refund.id()),
        "the remaining balance was paid"
    );

    // The devnet cannot sign for an L1 whose validators it does not run.
    let stranger = SecretKey::from_seed(&[13; 32]).unwrap();
    let other = d.p_do(owner, create_subnet(owner)).await.unwrap();
    let other_chain = d
        .p_do(
            owner,
            create_chain(other, "Other", "subnetevm", b"{}", owner),
        )
        .await
        .unwrap();
    let theirs = [l1_validator(
        NodeId::new([13; 20]),
        &stranger,
        (1, 0),
        owner,
    )];
    d.p_do(
        owner,
        convert(other, (other_chain, &manager), &theirs, owner),
    )
    .await
    .unwrap();
    d.next_epoch(owner).await;
    let unsigned = l1_message(
        12345,
        other_chain,
        &manager,
        &warp_l1::L1Message::L1ValidatorWeight(warp::L1ValidatorWeight::new(Id::ZERO, 0, 1)),
    )
    .unwrap();
    let e = sign(unsigned).await.unwrap_err();
    assert!(
        e.contains("the devnet cannot sign: the keys carry 0 of the validator set's weig"),
        "{e}"
    );
}
