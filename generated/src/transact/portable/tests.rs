//! The file written from a builder reads back; every claim that disagrees with the bytes is
//! refused naming its field; signing, combining and what is missing.

use serde_json::{Value, json};

use crate::codec::{avax, avm, platform, secp256k1fx};
use crate::keys::PrivateKey;
use crate::wire::{Id, ShortId};

use super::super::p::{self, Authority};
use super::super::{Context, FeeConfig, FeeState, Keychain, Payer, StakingRules, owners, x};
use super::{PartiallySigned, PortableError};

const AVAX: u64 = 1_000_000_000;
const NOW: u64 = 1_750_000_000;

fn key(i: u8) -> PrivateKey {
    PrivateKey::from_bytes(&[i; 32]).unwrap()
}

fn ctx() -> Context {
    Context {
        network_id: 12345,
        hrp: "local".into(),
        x_chain_id: Id::new([1; 32]),
        p_chain_id: Id::ZERO,
        c_chain_id: Id::new([2; 32]),
        avax_asset_id: Id::new([3; 32]),
        x_tx_fee: 1_000_000,
        x_create_asset_tx_fee: 10_000_000,
        p_fee_config: FeeConfig::ETNA,
        p_fee_state: FeeState {
            capacity: 1_000_000,
            excess: 0,
            price: 1,
        },
        validator_fee_config: Default::default(),
        staking: StakingRules::of_network(12345),
    }
}

fn two_of_three() -> secp256k1fx::OutputOwners {
    let mut a: Vec<ShortId> = (1..=3).map(|i| key(i).address()).collect();
    a.sort();
    owners("owners", &a, 2, 0).unwrap()
}

/// A 2-of-3 X-chain send of 2 AVAX from a 5 AVAX UTXO, as a file.
fn x_file() -> PartiallySigned {
    let c = ctx();
    let utxos = vec![avm::Utxo::new(
        avax::UtxoId::new(Id::new([9; 32]), 1),
        c.avax_asset_id,
        secp256k1fx::TransferOutput::new(5 * AVAX, two_of_three()).into(),
    )];
    let from: Vec<ShortId> = (1..=3).map(|i| key(i).address()).collect();
    let to = owners("to", &[key(7).address()], 1, 0).unwrap();
    let mut payer = Payer::new(from, NOW);
    payer.change_threshold = 2;
    let u = x::base_tx(
        &c,
        &utxos,
        &payer,
        &[x::output(c.avax_asset_id, 2 * AVAX, to)],
    )
    .unwrap();
    PartiallySigned::x(&c, &u, &utxos).unwrap()
}

/// A P-chain CreateChainTx on a Subnet owned 2-of-3, paid by key 4.
fn p_file() -> PartiallySigned {
    let c = ctx();
    let payer_key = key(4).address();
    let utxos = vec![platform::Utxo::new(
        avax::UtxoId::new(Id::new([8; 32]), 0),
        c.avax_asset_id,
        secp256k1fx::TransferOutput::new(3 * AVAX, owners("o", &[payer_key], 1, 0).unwrap()).into(),
    )];
    let subnet = Authority {
        owner: two_of_three(),
        signers: Some((1..=3).map(|i| key(i).address()).collect()),
    };
    let req = p::ChainRequest {
        subnet_id: Id::new([6; 32]),
        name: "portable",
        vm_id: Id::new([5; 32]),
        fx_ids: vec![],
        genesis: b"{}",
    };
    let u =
        p::create_chain_tx(&c, &utxos, &Payer::new(vec![payer_key], NOW), &subnet, &req).unwrap();
    PartiallySigned::p(&c, &u, &utxos, Some(&subnet.owner)).unwrap()
}

/// The file with `edit` applied to its JSON, read back.
fn edited(
    f: &PartiallySigned,
    edit: impl FnOnce(&mut Value),
) -> Result<PartiallySigned, PortableError> {
    let mut v: Value = serde_json::from_str(&f.to_json()).unwrap();
    edit(&mut v);
    PartiallySigned::from_json(&v.to_string())
}

fn refused(f: &PartiallySigned, field: &str, edit: impl FnOnce(&mut Value)) -> String {
    let e = edited(f, edit).expect_err(field);
    assert_eq!(e.field, field, "{e}");
    e.to_string()
}

#[test]
fn a_written_file_reads_back_with_its_slots_fee_and_burn() {
    let f = x_file();
    let back = PartiallySigned::from_json(&f.to_json()).unwrap();
    assert_eq!(back.file(), f.file());
    let file = f.file();
    assert_eq!(file.format, "avalanche-rpc/partially-signed-tx");
    assert_eq!(file.version, 1);
    assert_eq!(file.network_id, 12345);
    assert_eq!(file.slots.len(), 1);
    let utxo = file.slots[0].utxo.as_ref().unwrap();
    assert_eq!(utxo.amount.0, 5 * AVAX);
    assert_eq!(utxo.threshold, 2);
    assert_eq!(file.slots[0].signatures.len(), 2);
    assert_eq!(file.fee.0, 1_000_000);
    assert_eq!(file.burned.0, 1_000_000);
    assert_eq!(f.missing().len(), 2);
    assert!(f.to_json().contains("\"signature\": null"));
    assert_eq!(f.kind(), "BaseTx");
    assert!(
        f.flows()
            .iter()
            .any(|x| x.amount == 2 * AVAX && x.owners.addresses == vec![key(7).address()])
    );

    let p = p_file();
    let back = PartiallySigned::from_json(&p.to_json()).unwrap();
    assert_eq!(back.file(), p.file());
    assert_eq!(p.file().slots.len(), 2);
    let auth = p.file().slots[1].authorization.as_ref().unwrap();
    assert_eq!(auth.subnet_id, Id::new([6; 32]));
    assert_eq!(auth.threshold, 2);
}

#[test]
fn each_claim_that_disagrees_with_the_bytes_is_refused_naming_its_field() {
    let f = x_file();
    let e = refused(&f, "slots[0].utxo.amount", |v| {
        v["slots"][0]["utxo"]["amount"] = json!("4000000000")
    });
    assert!(
        e.contains("the file says 4000000000 but the UTXO's bytes say 5000000000"),
        "{e}"
    );
    let other = crate::wire::Address::new(Some("X"), "local", *key(9).address().as_bytes())
        .unwrap()
        .to_string();
    let o = other.clone();
    refused(&f, "slots[0].utxo.addresses", move |v| {
        v["slots"][0]["utxo"]["addresses"][1] = json!(o)
    });
    // The right key, written for another network.
    let payload = f.file().slots[0].signatures[1].address.payload();
    let fuji = crate::wire::Address::new(Some("X"), "fuji", payload)
        .unwrap()
        .to_string();
    let e = refused(&f, "slots[0].signatures[1].address", move |v| {
        v["slots"][0]["signatures"][1]["address"] = json!(fuji)
    });
    assert!(
        e.contains("not written as this network's X-chain address"),
        "{e}"
    );
    refused(&f, "slots[0].utxo.threshold", |v| {
        v["slots"][0]["utxo"]["threshold"] = json!(1)
    });
    refused(&f, "slots[0].utxo.assetID", |v| {
        v["slots"][0]["utxo"]["assetID"] = json!(Id::new([4; 32]).to_string())
    });
    let o = other.clone();
    refused(&f, "slots[0].signatures[0].address", move |v| {
        v["slots"][0]["signatures"][0]["address"] = json!(o)
    });
    refused(&f, "burned", |v| v["burned"] = json!("2000000"));
    refused(&f, "fee", |v| v["fee"] = json!("2000000"));
    refused(&f, "networkID", |v| v["networkID"] = json!(5));
    refused(&f, "blockchainID", |v| {
        v["blockchainID"] = json!(Id::new([2; 32]).to_string())
    });
    refused(&f, "chain", |v| v["chain"] = json!("C"));
    refused(&f, "unsignedTx", |v| {
        let s = v["unsignedTx"].as_str().unwrap();
        v["unsignedTx"] = json!(s[..s.len() - 2].to_string());
    });
    refused(&f, "slots[0].utxo.bytes", |v| {
        v["slots"][0]["utxo"]["bytes"] = json!("0x0000")
    });
    refused(&f, "slots", |v| v["slots"] = json!([]));
    refused(&f, "version", |v| v["version"] = json!(2));
    refused(&f, "format", |v| v["format"] = json!("psbt"));
    // A UTXO's bytes swapped for another UTXO's.
    let p = p_file();
    let theirs = p.file().slots[0].utxo.clone().unwrap();
    refused(&f, "slots[0].utxo.bytes", move |v| {
        v["slots"][0]["utxo"]["bytes"] = json!(theirs.bytes.to_hex())
    });
    // The Subnet and its owner.
    refused(&p, "slots[1].authorization.subnetID", |v| {
        v["slots"][1]["authorization"]["subnetID"] = json!(Id::new([7; 32]).to_string())
    });
    refused(&p, "slots[1].authorization.threshold", |v| {
        v["slots"][1]["authorization"]["threshold"] = json!(1)
    });
    refused(&p, "slots[1].authorization", |v| {
        v["slots"][1]
            .as_object_mut()
            .unwrap()
            .remove("authorization");
    });
}

#[test]
#[allow(deprecated)]
fn the_former_names_still_name_the_built_transactions() {
    let f = x_file();
    let super::Built::X(u) = f.built() else {
        panic!("an X file")
    };
    let old: &x::XUnsigned = u;
    assert_eq!(old.fee(), 1_000_000);
    let _: Option<p::PUnsigned> = None;
}

#[test]
fn a_signature_must_recover_to_its_slots_address() {
    let mut f = x_file();
    let digest = *f.digest().as_bytes();
    let first = f.file().slots[0].signatures[0].address.payload();
    // Key 9 signs: it owns no slot.
    let e = refused(&f, "slots[0].signatures[0].signature", |v| {
        v["slots"][0]["signatures"][0]["signature"] =
            json!(crate::wire::HexBytes(key(9).sign_hash(&digest).to_vec()).to_hex())
    });
    assert!(e.contains("not to the slot's address"), "{e}");
    refused(&f, "slots[0].signatures[0].signature", |v| {
        v["slots"][0]["signatures"][0]["signature"] = json!("0x0102")
    });
    // The right key over other bytes.
    let k = (1..=3)
        .map(key)
        .find(|k| k.address().as_bytes() == &first)
        .unwrap();
    let e = refused(&f, "slots[0].signatures[0].signature", |v| {
        v["slots"][0]["signatures"][0]["signature"] =
            json!(crate::wire::HexBytes(k.sign_hash(&[0; 32]).to_vec()).to_hex())
    });
    assert!(e.contains("recovers"), "{e}");
    // Signed by its key, it reads back.
    let keys = Keychain::from_keys([k]);
    assert_eq!(f.sign(&keys).unwrap(), 1);
    let back = PartiallySigned::from_json(&f.to_json()).unwrap();
    assert_eq!(back.missing().len(), 1);
}

#[test]
fn two_files_signed_apart_combine_and_a_file_of_another_transaction_is_refused() {
    let f = x_file();
    let mut a = f.clone();
    let mut b = PartiallySigned::from_json(&f.to_json()).unwrap();
    let slot = f.file().slots[0].signatures.clone();
    let holder = |i: usize| {
        (1..=3)
            .map(key)
            .find(|k| k.address().as_bytes() == &slot[i].address.payload())
            .unwrap()
    };
    a.sign(&Keychain::from_keys([holder(0)])).unwrap();
    b.sign(&Keychain::from_keys([holder(1)])).unwrap();
    let e = a.signed_bytes().unwrap_err();
    assert_eq!(e.field, "slots");
    assert!(e.reason.contains("slots[0].signatures[1]"), "{e}");
    assert_eq!(a.combine(&b).unwrap(), 1);
    assert!(a.missing().is_empty());
    let signed = avm::Tx::from_bytes(&a.signed_bytes().unwrap()).unwrap();
    assert_eq!(signed.credentials.len(), 1);
    let back = PartiallySigned::from_json(&a.to_json()).unwrap();
    assert!(back.missing().is_empty());

    let e = a.combine(&p_file()).unwrap_err();
    assert_eq!(e.field, "blockchainID", "{e}");
    // The same chain, another transaction.
    let c = ctx();
    let utxos = vec![avm::Utxo::new(
        avax::UtxoId::new(Id::new([9; 32]), 1),
        c.avax_asset_id,
        secp256k1fx::TransferOutput::new(5 * AVAX, two_of_three()).into(),
    )];
    let to = owners("to", &[key(8).address()], 1, 0).unwrap();
    let from: Vec<ShortId> = (1..=3).map(|i| key(i).address()).collect();
    let u = x::base_tx(
        &c,
        &utxos,
        &Payer::new(from, NOW),
        &[x::output(c.avax_asset_id, AVAX, to)],
    )
    .unwrap();
    let other = PartiallySigned::x(&c, &u, &utxos).unwrap();
    let e = a.combine(&other).unwrap_err();
    assert_eq!(e.field, "unsignedTx", "{e}");
    assert!(e.reason.contains("different transactions"), "{e}");
}

#[test]
fn writing_needs_every_utxo_spent_and_the_subnets_owner() {
    let c = ctx();
    let f = x_file();
    let crate::transact::portable::Built::X(u) = f.built() else {
        panic!("an X file")
    };
    let e = PartiallySigned::x(&c, u, &[]).unwrap_err();
    assert_eq!(e.field, "slots");
    assert!(e.reason.contains("not among those given"), "{e}");
    let p = p_file();
    let crate::transact::portable::Built::P(u) = p.built() else {
        panic!("a P file")
    };
    let utxos: Vec<platform::Utxo> = vec![
        platform::Utxo::from_bytes(&p.file().slots[0].utxo.as_ref().unwrap().bytes.0).unwrap(),
    ];
    let e = PartiallySigned::p(&c, u, &utxos, None).unwrap_err();
    assert_eq!(e.field, "slots[1].authorization", "{e}");
}
