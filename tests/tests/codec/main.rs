//! The generated codec against the byte vectors of the node's own tests (`vectors.rs`, each
//! with its source): every vector decodes, re-encodes to the same bytes and yields the IDs
//! the node's tests assert (or, where marked, derives with the node's rules); and bad bytes
//! are refused with the offset and the field.

mod api;
mod atomic;
mod bls;
mod json;
mod keys;
mod properties;
mod slots;
mod vectors;

use avalanche_rpc::codec::{DecodeError, RuleError, Verify};
use avalanche_rpc::codec::{avm, platform, secp256k1fx, warp, warp_l1, warp_payload};
use avalanche_rpc::wire::{Id, ShortId};
use vectors::*;

fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

/// The ID of `bytes`: SHA-256, in cb58.
fn id_of(bytes: &[u8]) -> String {
    Id::from_sha256(bytes).to_string()
}

/// Decodes `vector`, checks that it re-encodes to the same bytes, returns the value.
#[track_caller]
fn round_trip<T>(
    vector: &str,
    from: fn(&[u8]) -> Result<T, DecodeError>,
    to: fn(&T) -> Result<Vec<u8>, RuleError>,
) -> T {
    let bytes = unhex(vector);
    let value = from(&bytes).unwrap_or_else(|e| panic!("does not decode: {e}"));
    assert_eq!(hex(&to(&value).unwrap()), vector, "re-encoding differs");
    value
}

#[test]
fn x_base_tx_unsigned_and_signed() {
    // Source: vms/avm/txs/base_tx_test.go TestBaseTxSerialization.
    let tx = round_trip(X_BASE_TX_UNSIGNED, avm::Tx::from_bytes, avm::Tx::to_bytes);
    assert_eq!(
        id_of(&unhex(X_BASE_TX_UNSIGNED)),
        "zeqT8FTnRAxes7QQQYkaWhNkHavd9d6aCdH8TQu2Mx5KEydEz"
    );
    let avm::UnsignedTx::BaseTx(base) = &tx.unsigned else {
        panic!("not a BaseTx: {:?}", tx.unsigned)
    };
    let b = &base.base;
    assert_eq!(b.network_id, 10);
    assert_eq!(b.outputs.len(), 1);
    let avm::TransferableOut::TransferOutput(out) = &b.outputs[0].output else {
        panic!()
    };
    assert_eq!(out.amount, 12345);
    assert_eq!((out.owners.locktime, out.owners.threshold), (0, 1));
    assert_eq!(
        out.owners.addresses,
        ["Q4MzFZZDPHRPAHFeDs3NiyyaZDvxHKivf"
            .parse::<ShortId>()
            .unwrap()]
    );
    let input = &b.inputs[0];
    assert_eq!(input.utxo_id.output_index, 1);
    let avm::TransferableIn::TransferInput(i) = &input.input else {
        panic!()
    };
    assert_eq!(
        (i.amount, i.input.signature_indices.as_slice()),
        (54321, &[2][..])
    );
    assert_eq!(b.memo, [0, 1, 2, 3]);
    assert!(tx.credentials.is_empty());

    // The unsigned bytes are the signed bytes before the credential count; their SHA-256
    // is what is signed.
    let unsigned = tx.unsigned.to_bytes().unwrap();
    let whole = unhex(X_BASE_TX_UNSIGNED);
    assert_eq!(unsigned, whole[..whole.len() - 4]);
    assert_eq!(
        hex(Id::from_sha256(&unsigned).as_bytes()),
        "e165cd75942f72b960b97d71366034b7223c2ea4a6cfbe4a799d66417e426063"
    );

    let signed = round_trip(X_BASE_TX_SIGNED, avm::Tx::from_bytes, avm::Tx::to_bytes);
    assert_eq!(
        id_of(&unhex(X_BASE_TX_SIGNED)),
        "QnTUuie2qe6BKyYrC2jqd73bJ828QNhYnZbdA2HWsnVRPjBfV"
    );
    assert_eq!(signed.unsigned, tx.unsigned);
    assert_eq!(signed.credentials.len(), 2);
    let sig = "7d898ee98af8335d37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff26d18484f29b289644968fedffeb23e030665d736d94fc80bc735f51c806d74300";
    for c in &signed.credentials {
        let avm::Credential::Secp256k1fxCredential(c) = &c.credential else {
            panic!("{c:?}")
        };
        assert_eq!(c.signatures.len(), 2);
        assert!(c.signatures.iter().all(|s| hex(s) == sig));
    }
}

#[test]
fn x_export_import_and_create_asset() {
    // Sources: vms/avm/txs/{export,import,create_asset}_tx_test.go.
    let tx = round_trip(X_EXPORT_TX, avm::Tx::from_bytes, avm::Tx::to_bytes);
    assert!(matches!(tx.unsigned, avm::UnsignedTx::ExportTx(_)));
    assert_eq!(
        id_of(&unhex(X_EXPORT_TX)),
        "2PKJE4TrKYpgynBFCpNPpV3GHK7d9QTgrL5mpYG6abHKDvNBG3"
    );

    let tx = round_trip(X_IMPORT_TX, avm::Tx::from_bytes, avm::Tx::to_bytes);
    let avm::UnsignedTx::ImportTx(import) = &tx.unsigned else {
        panic!()
    };
    assert_eq!(import.imported_inputs.len(), 1);
    assert_eq!(
        id_of(&unhex(X_IMPORT_TX)),
        "9wdPb5rsThXYLX4WxkNeyYrNMfDE5cuWLgifSjxKiA2dCmgCZ"
    );

    let tx = round_trip(X_CREATE_ASSET_TX, avm::Tx::from_bytes, avm::Tx::to_bytes);
    let avm::UnsignedTx::CreateAssetTx(create) = &tx.unsigned else {
        panic!()
    };
    assert_eq!(
        (
            create.name.as_str(),
            create.symbol.as_str(),
            create.denomination
        ),
        ("Volatility Index", "VIX", 2)
    );
    assert_eq!(create.initial_states.len(), 1);
    // Derived: the asset ID is the tx ID.
    assert_eq!(
        id_of(&unhex(X_CREATE_ASSET_TX)),
        "2EM3NugwnYGzYbe3VTvMAzbsgi6gswwP6suacDa4Q4onBtMX6w"
    );

    let tx = round_trip(
        X_CREATE_ASSET_TX_AGAIN,
        avm::Tx::from_bytes,
        avm::Tx::to_bytes,
    );
    let avm::UnsignedTx::CreateAssetTx(create) = &tx.unsigned else {
        panic!()
    };
    assert_eq!(create.base.outputs.len(), 3);
    assert_eq!(
        id_of(&unhex(X_CREATE_ASSET_TX_AGAIN)),
        "2u7omJZaZi7WT2LkbpspFPvH64FCxQ6TrrWCoJhqodWpxQfidk"
    );
}

#[test]
fn utxo_in_the_chain_codecs() {
    // Source: vms/components/avax/utxo_test.go TestUTXOSerialize, whose codec numbers
    // TransferOutput 1: the chains' codecs refuse that ID, at the offset of the type ID.
    let e = avm::Utxo::from_bytes(&unhex(UTXO_TEST_CODEC)).unwrap_err();
    assert_eq!(e.offset(), 70);
    assert_eq!(e.path().to_string(), "output");
    assert!(e.reason().contains("type ID 1 is not allowed here"), "{e}");
    // As the X-chain or P-chain writes it (type 7), derived: SHA-256 221947d6…
    let mut bytes = unhex(UTXO_TEST_CODEC);
    bytes[73] = 7;
    let x = avm::Utxo::from_bytes(&bytes).unwrap();
    assert_eq!(x.to_bytes().unwrap(), bytes);
    let p = platform::Utxo::from_bytes(&bytes).unwrap();
    assert_eq!(p.to_bytes().unwrap(), bytes);
    assert_eq!(
        hex(Id::from_sha256(&bytes).as_bytes()),
        "221947d6ce7332da0f5817ff9583f193405f30342e03b8fde9487080ec09a893"
    );
    let utxo = avm::Utxo::from_bytes(&bytes).unwrap();
    assert_eq!(utxo.utxo_id.output_index, 0);
    let avm::UtxoOutput::Secp256k1fxTransferOutput(out) = &utxo.output else {
        panic!()
    };
    assert_eq!((out.amount, out.owners.locktime), (12345, 54321));
}

#[test]
fn p_chain_unsigned_txs() {
    // Sources: vms/platformvm/txs/base_tx_test.go, convert_subnet_to_l1_tx_test.go ("simple").
    for (vector, digest) in [
        (
            P_BASE_TX_UNSIGNED,
            "866683a9c5d268b840d094fa6b7ba7d16f88e9dee7cd5d9a7ec3dbac9f3aaf65",
        ),
        (
            P_CONVERT_UNSIGNED,
            "c3f57b26f647b3ddf6c82d0a0398523a22b0640b4369984cb9c03b27598002b3",
        ),
    ] {
        round_trip(
            vector,
            platform::UnsignedTx::from_bytes,
            platform::UnsignedTx::to_bytes,
        );
        assert_eq!(hex(Id::from_sha256(&unhex(vector)).as_bytes()), digest);
    }
    let tx = platform::UnsignedTx::from_bytes(&unhex(P_CONVERT_UNSIGNED)).unwrap();
    let platform::UnsignedTx::ConvertSubnetToL1Tx(c) = tx else {
        panic!()
    };
    assert!(c.validators.is_empty());
    assert_eq!(c.address, unhex("000000000000000000000000000000000000dead"));
    let platform::Auth::Input(auth) = &c.subnet_auth else {
        panic!()
    };
    assert_eq!(auth.input.signature_indices, [3]);
}

#[test]
fn p_chain_signed_txs_and_their_ids() {
    // Source: vms/platformvm/txs/fee/calculator_test.go; the IDs are derived (SHA-256).
    for (vector, len, id) in [
        (
            P_ADVANCE_TIME_TX,
            18,
            "wNkq1syVMyavgqNLxchKvNumueP9BQdyu1dUoFiwKC1gEHd2q",
        ),
        (
            P_REWARD_VALIDATOR_TX,
            42,
            "fbt5Rw6Q5MLBrtaaNH9Fx9gMezowx6Ggd8zcxvKXjxkWK8qqU",
        ),
        (
            P_BASE_TX,
            399,
            "2sR8dCksM6hF3D49xexHscKPdQADbbLQtuCAZNs35AczyFTNhq",
        ),
        (
            P_CONVERT_TX,
            656,
            "NEDXHk9nctWRwUV6bGv2ayHJQkkwbohqigUV2b682yEy9Goo7",
        ),
        (
            P_REGISTER_L1_VALIDATOR_TX,
            710,
            "Rw36WQhTit36bWHeBwS6mBaTYDzABo1DcYEvoo5JychMAuHvz",
        ),
    ] {
        round_trip(vector, platform::Tx::from_bytes, platform::Tx::to_bytes);
        assert_eq!(unhex(vector).len(), len);
        assert_eq!(id_of(&unhex(vector)), id);
    }
    let tx = platform::Tx::from_bytes(&unhex(P_BASE_TX)).unwrap();
    let platform::UnsignedTx::BaseTx(base) = &tx.unsigned else {
        panic!()
    };
    assert_eq!(base.base.network_id, 12345);
    assert_eq!(base.base.outputs.len(), 2);
    assert_eq!(tx.credentials.len(), 1);
}

#[test]
fn the_warp_message_inside_a_register_l1_validator_tx_parses_on_request() {
    // The tx keeps the message as bytes; parsing it is a separate, explicit step.
    let tx = platform::Tx::from_bytes(&unhex(P_REGISTER_L1_VALIDATOR_TX)).unwrap();
    let platform::UnsignedTx::RegisterL1ValidatorTx(reg) = &tx.unsigned else {
        panic!()
    };
    let message = warp::Message::from_bytes(&reg.message).unwrap();
    assert_eq!(message.to_bytes().unwrap(), reg.message);
    assert_eq!(message.network_id, 12345);
    let warp_payload::Payload::AddressedCall(call) =
        warp_payload::Payload::from_bytes(&message.payload).unwrap()
    else {
        panic!("not an AddressedCall")
    };
    let warp_l1::L1Message::RegisterL1Validator(inner) =
        warp_l1::L1Message::from_bytes(&call.payload).unwrap()
    else {
        panic!("not a RegisterL1Validator")
    };
    assert_eq!(inner.node_id.len(), 20);
}

#[test]
fn p_chain_blocks() {
    // Source: vms/platformvm/block/serialization_test.go TestBanffBlockSerialization.
    let b = round_trip(
        P_BANFF_PROPOSAL_BLOCK,
        platform::Block::from_bytes,
        platform::Block::to_bytes,
    );
    let platform::Block::BanffProposalBlock(b) = b else {
        panic!()
    };
    assert!(matches!(
        b.tx.unsigned,
        platform::UnsignedTx::AdvanceTimeTx(_)
    ));
    let b = round_trip(
        P_BANFF_COMMIT_BLOCK,
        platform::Block::from_bytes,
        platform::Block::to_bytes,
    );
    assert!(matches!(b, platform::Block::BanffCommitBlock(_)));
    let b = round_trip(
        P_BANFF_ABORT_BLOCK,
        platform::Block::from_bytes,
        platform::Block::to_bytes,
    );
    assert!(matches!(b, platform::Block::BanffAbortBlock(_)));
    let b = round_trip(
        P_BANFF_STANDARD_BLOCK,
        platform::Block::from_bytes,
        platform::Block::to_bytes,
    );
    assert!(matches!(b, platform::Block::BanffStandardBlock(_)));
}

#[test]
fn warp_l1_messages_and_the_conversion_id() {
    // Source: vms/platformvm/warp/message/payload_test.go TestParse.
    for v in [
        WARP_SUBNET_TO_L1_CONVERSION,
        WARP_REGISTER_L1_VALIDATOR,
        WARP_L1_VALIDATOR_REGISTRATION,
        WARP_L1_VALIDATOR_WEIGHT,
    ] {
        round_trip(
            v,
            warp_l1::L1Message::from_bytes,
            warp_l1::L1Message::to_bytes,
        );
    }
    // Derived (§4.4): the validation ID is the SHA-256 of the RegisterL1Validator payload.
    assert_eq!(
        id_of(&unhex(WARP_REGISTER_L1_VALIDATOR)),
        "2Mopz2HR8hLXcUjVeev39BHM6bMUSv5tsRa7kDJDyPmxLAPTKY"
    );
    let m = warp_l1::L1Message::from_bytes(&unhex(WARP_L1_VALIDATOR_REGISTRATION)).unwrap();
    let warp_l1::L1Message::L1ValidatorRegistration(r) = m else {
        panic!()
    };
    assert!(!r.registered);
    // Source: subnet_to_l1_conversion_test.go TestSubnetToL1ConversionID.
    let data = round_trip(
        WARP_CONVERSION_DATA,
        warp::SubnetToL1ConversionData::from_bytes,
        warp::SubnetToL1ConversionData::to_bytes,
    );
    assert_eq!(data.manager_address, [0x41]);
    assert_eq!(
        id_of(&unhex(WARP_CONVERSION_DATA)),
        "th3VdihpqwY7QH2hDjme9wDYtNuJUkzuHBVhJFEwcZo4eLCMv"
    );
}

#[test]
fn local_x_chain_genesis_gives_the_avax_asset_id() {
    // Derived from genesis/genesis_local.json; the asset ID equals genesis_test.go's.
    let g = round_trip(
        X_GENESIS_LOCAL,
        avm::Genesis::from_bytes,
        avm::Genesis::to_bytes,
    );
    assert_eq!(g.txs.len(), 1);
    let asset = &g.txs[0];
    assert_eq!(asset.alias, "AVAX");
    assert_eq!(
        (asset.tx.name.as_str(), asset.tx.symbol.as_str()),
        ("Avalanche", "AVAX")
    );
    // The asset's tx is the CreateAssetTx with no credentials; its ID is the asset ID.
    let tx = avm::Tx::new(asset.tx.clone().into(), Vec::new());
    assert_eq!(
        id_of(&tx.to_bytes().unwrap()),
        "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe"
    );
    // And the local X-chain genesis block (derived, §9.13).
    let block = round_trip(
        X_GENESIS_BLOCK_LOCAL,
        avm::Block::from_bytes,
        avm::Block::to_bytes,
    );
    let avm::Block::StandardBlock(b) = &block else {
        panic!()
    };
    assert_eq!((b.height, b.time), (0, 1_607_144_400));
    assert_eq!(
        id_of(&unhex(X_GENESIS_BLOCK_LOCAL)),
        "7Rmt49TnhLg7uYyCbLX1qmeWVibpJXPrv3y7jBCZG3rKzBAh4"
    );
}

#[test]
fn bad_bytes_are_refused_with_the_offset_and_the_field() {
    let good = unhex(X_BASE_TX_UNSIGNED);
    // Cut inside the credential count at the end.
    let e = avm::Tx::from_bytes(&good[..good.len() - 2]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "at byte 226, `credentials`: the value needs 4 byte(s), 2 left"
    );
    // Cut inside the first output: its list cannot hold one output in what is left, which
    // is said at the list's count, before anything is allocated.
    let e = avm::Tx::from_bytes(&good[..85]).unwrap_err();
    assert_eq!(e.offset(), 42);
    assert_eq!(e.path().to_string(), "unsigned.base.outputs");
    assert_eq!(
        e.reason(),
        "1 element(s) of at least 60 byte(s) cannot fit in the 39 byte(s) left"
    );
    // A huge count: the same, without allocating.
    let mut huge = good.clone();
    huge[42..46].copy_from_slice(&0x7fff_ffffu32.to_be_bytes());
    let e = avm::Tx::from_bytes(&huge).unwrap_err();
    assert_eq!(
        (e.offset(), e.path().to_string()),
        (42, "unsigned.base.outputs".to_string())
    );
    // A byte after the end.
    let mut long = good.clone();
    long.push(0);
    let e = avm::Tx::from_bytes(&long).unwrap_err();
    assert_eq!(
        (e.offset(), e.reason()),
        (230, "1 byte(s) after the end of the value")
    );
    // Another codec version.
    let mut v1 = good.clone();
    v1[1] = 1;
    assert_eq!(
        avm::Tx::from_bytes(&v1).unwrap_err().reason(),
        "unknown codec version 1"
    );
    // Past the codec's size limit, refused before reading.
    let e = avm::Tx::from_bytes(&vec![0u8; 262_145]).unwrap_err();
    assert!(
        e.reason().contains("exceed the codec's limit of 262144"),
        "{e}"
    );
    // A type ID the slot does not allow (a block where a tx belongs).
    let mut block = good.clone();
    block[5] = 20;
    let e = avm::Tx::from_bytes(&block).unwrap_err();
    assert_eq!(e.offset(), 2);
    assert_eq!(e.path().to_string(), "unsigned");
    assert!(
        e.reason()
            .starts_with("type ID 20 is not allowed here (allowed: 0 (BaseTx), 1 (CreateAssetTx)"),
        "{e}"
    );
}

#[test]
fn verify_names_the_rule_and_the_field_decoding_does_not_check() {
    // The node's own vector has unsorted outputs: its codec takes them, its VM would not.
    let tx = round_trip(
        X_CREATE_ASSET_TX_AGAIN,
        avm::Tx::from_bytes,
        avm::Tx::to_bytes,
    );
    let e = tx.verify().unwrap_err();
    assert_eq!(e.path().to_string(), "unsigned.base.outputs[1]");
    assert_eq!(
        e.reason(),
        "the elements must be sorted by their encoding; it comes before the previous one"
    );
    // The other vectors keep the rules.
    for v in [
        X_BASE_TX_SIGNED,
        X_EXPORT_TX,
        X_IMPORT_TX,
        X_CREATE_ASSET_TX,
    ] {
        avm::Tx::from_bytes(&unhex(v)).unwrap().verify().unwrap();
    }
    for v in [P_BASE_TX, P_CONVERT_TX, P_REGISTER_L1_VALIDATOR_TX] {
        platform::Tx::from_bytes(&unhex(v))
            .unwrap()
            .verify()
            .unwrap();
    }

    // The same input twice: not strictly increasing by UTXO.
    let tx = avm::Tx::from_bytes(&unhex(X_BASE_TX_UNSIGNED)).unwrap();
    let avm::UnsignedTx::BaseTx(base) = tx.unsigned.clone() else {
        panic!()
    };
    let mut b = base.base.clone();
    b.inputs.push(b.inputs[0].clone());
    let twice = avm::Tx::new(avm::BaseTx::new(b).into(), Vec::new());
    // Encoding and decoding take it …
    let again = avm::Tx::from_bytes(&twice.to_bytes().unwrap()).unwrap();
    // … and verifying names the rule and the element.
    let e = again.verify().unwrap_err();
    assert_eq!(e.path().to_string(), "unsigned.base.inputs[1]");
    assert_eq!(
        e.reason(),
        "the elements must be strictly increasing by `utxoID`; element 1 is not above element 0"
    );

    // Signature indices out of order, a zero amount, a memo too long.
    let e = secp256k1fx::Input::new(vec![2, 1]).verify().unwrap_err();
    assert_eq!(
        e.to_string(),
        "`signatureIndices[1]`: the elements must be strictly increasing by their encoding (sorted, no duplicates); it comes before the previous one"
    );
    let owners = secp256k1fx::OutputOwners::new(0, 1, Vec::new());
    let e = secp256k1fx::TransferOutput::new(0, owners)
        .verify()
        .unwrap_err();
    assert_eq!(e.to_string(), "`amount`: 0 is below the minimum, 1");
    let mut b = base.base.clone();
    b.memo = vec![0; 257];
    let e = avm::BaseTx::new(b).verify().unwrap_err();
    assert_eq!(
        e.to_string(),
        "`base.memo`: the length must be at most 256, not 257"
    );
}

#[test]
fn derived_ids() {
    // Signed tx IDs (asserted by the node's tests) through the typed value.
    let tx = avm::Tx::from_bytes(&unhex(X_BASE_TX_SIGNED)).unwrap();
    assert_eq!(
        tx.id().unwrap().to_string(),
        "QnTUuie2qe6BKyYrC2jqd73bJ828QNhYnZbdA2HWsnVRPjBfV"
    );
    let block = avm::Block::from_bytes(&unhex(X_GENESIS_BLOCK_LOCAL)).unwrap();
    assert_eq!(
        block.id().unwrap().to_string(),
        "7Rmt49TnhLg7uYyCbLX1qmeWVibpJXPrv3y7jBCZG3rKzBAh4"
    );
    // UTXO IDs (derived, §4.2 and §9.13): the local P-chain genesis UTXOs (tx ID zero).
    for (index, id) in [
        (0, "LUC1cmcxnfNR9LdkACS2ccGKLEK7SYqB4gLLTycQfg1koyfSq"),
        (1, "TtF4d2QWbk5vzQGTEPrN48x6vwgAoAmKQ9cbp79inpQmcRKES"),
        (2, "2mcwQKiD8VEspmMJpL1dc7okQQ5dDVAWeCBZ7FWBFAbxpv3t7w"),
    ] {
        assert_eq!(Id::ZERO.prefix(index).to_string(), id);
    }
    // The UTXO of §9.5 as a typed value.
    let mut bytes = unhex(UTXO_TEST_CODEC);
    bytes[73] = 7;
    let utxo = avm::Utxo::from_bytes(&bytes).unwrap();
    assert_eq!(
        utxo.utxo_id.id().to_string(),
        "24cPY8aoC5MWxGtcAhVRudVYTX1uyt6Td3vP8noJ9Tsq3nJPq4"
    );
    // The local X-chain genesis AVAX UTXOs: tx ID = the AVAX asset ID.
    let avax: Id = "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe"
        .parse()
        .unwrap();
    assert_eq!(
        avax.prefix(0).to_string(),
        "poAkNdHbbY1vtHWvs9TYKLzuLMMkVFDe6ERXRE6VtVZdDLiGZ"
    );
    assert_eq!(
        avax.prefix(1).to_string(),
        "Gqdc55Wu2egMkQABwJb74h6UydveDxHCMo1uEEUKeEVvPeoUc"
    );
    // Validation ID of validator 0 of a conversion of Subnet 0102…1f20 (§9.13).
    let subnet = Id::new(std::array::from_fn(|i| i as u8 + 1));
    assert_eq!(
        hex(subnet.append(0).as_bytes()),
        "a01cbdb97fb71ca9f479708dfe8f8157c1817e1214222a83a127e5b3961b20e8"
    );
}

#[test]
fn the_local_x_chain_id_is_the_id_of_its_create_chain_tx() {
    // Derived (§4.3) and asserted by genesis/genesis_test.go: the X-chain's ID is the ID of the
    // P-chain genesis CreateChainTx carrying the X-chain genesis, unsigned, no credentials.
    let name_id = |name: &str| {
        let mut b = [0u8; 32];
        b[..name.len()].copy_from_slice(name.as_bytes());
        Id::new(b)
    };
    let base = platform::Base::new(12345, Id::ZERO, Vec::new(), Vec::new(), Vec::new());
    let create = platform::CreateChainTx::new(
        base,
        Id::ZERO,
        "X-Chain".into(),
        name_id("avm"),
        vec![
            name_id("secp256k1fx"),
            name_id("nftfx"),
            name_id("propertyfx"),
        ],
        unhex(X_GENESIS_LOCAL),
        platform::Input::new(secp256k1fx::Input::new(Vec::new())).into(),
    );
    let tx = platform::Tx::new(create.into(), Vec::new());
    assert_eq!(
        tx.id().unwrap().to_string(),
        "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed"
    );
    // Genesis transactions are not verified, and this one would not pass: its fx IDs are in
    // the chain's fx order, not sorted.
    let e = tx.verify().unwrap_err();
    assert_eq!(e.path().to_string(), "unsigned.fxIDs[1]");
}

#[test]
fn a_proposer_block_id_leaves_out_its_signature() {
    use avalanche_rpc::codec::proposervm;
    let inner = unhex(X_GENESIS_BLOCK_LOCAL);
    let signed = proposervm::StatelessBlock::new(
        Id::ZERO,
        1_700_000_000,
        7,
        vec![1, 2, 3],
        inner.clone(),
        vec![9; 64],
    );
    let block = proposervm::Block::from(signed);
    let bytes = block.to_bytes().unwrap();
    // The ID covers everything but the signature field (4-byte length and 64 bytes).
    assert_eq!(
        block.id().unwrap(),
        Id::from_sha256(&bytes[..bytes.len() - 68])
    );
    assert_eq!(proposervm::Block::from_bytes(&bytes).unwrap(), block);
    // An option's ID covers all its bytes.
    let option = proposervm::Block::from(proposervm::Option::new(Id::ZERO, inner));
    assert_eq!(
        option.id().unwrap(),
        Id::from_sha256(&option.to_bytes().unwrap())
    );
}
