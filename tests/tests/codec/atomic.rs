//! The C-chain's atomic transactions (codec `atomic`) against vectors made by the node's own
//! code: coreth v1.14.2 `plugin/evm/atomic` (`atomic.Codec`, `Tx.Sign`, `encoding/json`), run
//! on the structs below (see `atomic_vectors.go` beside this file). Its tests build
//! transactions from structs only and assert no bytes, so these were printed by that program:
//! the signed and unsigned bytes, the ID and the Go JSON of one import and one export, each
//! signed with the private key 0x0102…20.

use avalanche_rpc::codec::{FromJson, JsonContext, ToJson, Verify, atomic};
use avalanche_rpc::wire::{EvmAddress, Id};
use serde_json::Value;

use super::{hex, id_of, round_trip, unhex};

/// An import of 5,000,000 nAVAX from UTXO (0x77…, 1) of chain 0x0a03… to
/// 0x8db9…52fc, 4,000,000 credited; network 12345, C-chain 0xc102…, asset 0xa50102….
const IMPORT_SIGNED: &str = concat!(
    "00000000000000003039c1020000000000000000000000000000000000000000000000000000000000000a0300000000",
    "000000000000000000000000000000000000000000000000000000000001770000000000000000000000000000000000",
    "000000000000000000000000000000000001a50102000000000000000000000000000000000000000000000000000000",
    "00000000000500000000004c4b400000000100000000000000018db97c7cece249c2b98bdc0226cc4c2a57bf52fc0000",
    "0000003d0900a50102000000000000000000000000000000000000000000000000000000000000000001000000090000",
    "0001a0a84c55069b0e02bea4f95367f678a69d2c85d14a64394cdc3d6b9883d75a1156304dca23d828e66626e47ff925",
    "25f54d9ed4b9604d823f77e3c556b9c6f41d01",
);
const IMPORT_UNSIGNED: &str = concat!(
    "00000000000000003039c1020000000000000000000000000000000000000000000000000000000000000a0300000000",
    "000000000000000000000000000000000000000000000000000000000001770000000000000000000000000000000000",
    "000000000000000000000000000000000001a50102000000000000000000000000000000000000000000000000000000",
    "00000000000500000000004c4b400000000100000000000000018db97c7cece249c2b98bdc0226cc4c2a57bf52fc0000",
    "0000003d0900a501020000000000000000000000000000000000000000000000000000000000",
);
const IMPORT_ID: &str = "2esmQo7HaKrmDtz6tQ3ULpSb9fhpytje4UndVKgGxfGf683J12";
const IMPORT_JSON: &str = r#"{"unsignedTx":{"networkID":12345,"blockchainID":"2U18HGiMG2aR1i5KouBKxaWBT6XvfzpNgbFMYPeqfgkUxVyLSw","sourceChain":"5QjgdVjhM2gbsJSrxPZisocd7TdWefiq2TisWqpKgia5NVQBW","importedInputs":[{"txID":"uQhKwU9FR8EqB1DD1CJnaPEpFnsNvz95KT1gqTD5JQ9MMqDjy","outputIndex":1,"assetID":"2Ffoe1jatQUXtCsg8i2iBAkmmWHNAzJN6eNr9XftWh43jbwtUZ","fxID":"11111111111111111111111111111111LpoYY","input":{"amount":5000000,"signatureIndices":[0]}}],"outputs":[{"address":"0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc","amount":4000000,"assetID":"2Ffoe1jatQUXtCsg8i2iBAkmmWHNAzJN6eNr9XftWh43jbwtUZ"}]},"credentials":[{"signatures":["0xa0a84c55069b0e02bea4f95367f678a69d2c85d14a64394cdc3d6b9883d75a1156304dca23d828e66626e47ff92525f54d9ed4b9604d823f77e3c556b9c6f41d01"]}]}"#;

/// An export of 3,000,000 from 0x8db9…52fc (nonce 7), 2,000,000 to the key's X address.
const EXPORT_SIGNED: &str = concat!(
    "00000000000100003039c1020000000000000000000000000000000000000000000000000000000000000a0300000000",
    "0000000000000000000000000000000000000000000000000000000000018db97c7cece249c2b98bdc0226cc4c2a57bf",
    "52fc00000000002dc6c0a501020000000000000000000000000000000000000000000000000000000000000000000000",
    "000700000001a5010200000000000000000000000000000000000000000000000000000000000000000700000000001e",
    "848000000000000000000000000100000001587c9bfc87a837a056f716c2f9de891adbc46c9000000001000000090000",
    "0001857a838bc99d59395430be32781b45841336009239c1fc5c104d6c0297bb580a40e4073621be77e0bd58ccbef50d",
    "e1e8309861feb04c8f13cf5b85b9d59836b300",
);
const EXPORT_UNSIGNED: &str = concat!(
    "00000000000100003039c1020000000000000000000000000000000000000000000000000000000000000a0300000000",
    "0000000000000000000000000000000000000000000000000000000000018db97c7cece249c2b98bdc0226cc4c2a57bf",
    "52fc00000000002dc6c0a501020000000000000000000000000000000000000000000000000000000000000000000000",
    "000700000001a5010200000000000000000000000000000000000000000000000000000000000000000700000000001e",
    "848000000000000000000000000100000001587c9bfc87a837a056f716c2f9de891adbc46c90",
);
const EXPORT_ID: &str = "2rPcGa4BfVx97visLG97rfQ2bL2JbhE6nfcT3m9ypp1xr7erWa";
const EXPORT_JSON: &str = r#"{"unsignedTx":{"networkID":12345,"blockchainID":"2U18HGiMG2aR1i5KouBKxaWBT6XvfzpNgbFMYPeqfgkUxVyLSw","destinationChain":"5QjgdVjhM2gbsJSrxPZisocd7TdWefiq2TisWqpKgia5NVQBW","inputs":[{"address":"0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc","amount":3000000,"assetID":"2Ffoe1jatQUXtCsg8i2iBAkmmWHNAzJN6eNr9XftWh43jbwtUZ","nonce":7}],"exportedOutputs":[{"assetID":"2Ffoe1jatQUXtCsg8i2iBAkmmWHNAzJN6eNr9XftWh43jbwtUZ","fxID":"11111111111111111111111111111111LpoYY","output":{"addresses":["94sjtY7LtC3P886FTepA5Q42VGqnDUQrG"],"amount":2000000,"locktime":0,"threshold":1}}]},"credentials":[{"signatures":["0x857a838bc99d59395430be32781b45841336009239c1fc5c104d6c0297bb580a40e4073621be77e0bd58ccbef50de1e8309861feb04c8f13cf5b85b9d59836b300"]}]}"#;

#[test]
fn an_import_round_trips_and_has_the_nodes_id() {
    let tx = round_trip(IMPORT_SIGNED, atomic::Tx::from_bytes, atomic::Tx::to_bytes);
    assert_eq!(tx.id().unwrap().to_string(), IMPORT_ID);
    assert_eq!(id_of(&unhex(IMPORT_SIGNED)), IMPORT_ID);
    tx.verify().unwrap();
    let atomic::UnsignedTx::UnsignedImportTx(import) = &tx.unsigned else {
        panic!("not an import: {:?}", tx.unsigned)
    };
    assert_eq!(tx.unsigned.type_id(), 0);
    assert_eq!(import.network_id, 12345);
    assert_eq!(import.imported_inputs.len(), 1);
    assert_eq!(import.imported_inputs[0].utxo_id.output_index, 1);
    let out = &import.outputs[0];
    assert_eq!(
        out.address.to_string(),
        "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"
    );
    assert_eq!(out.amount, 4_000_000);
    assert_eq!(tx.credentials.len(), 1);

    // The unsigned bytes: the slot value alone, framed.
    let unsigned = round_trip(
        IMPORT_UNSIGNED,
        atomic::UnsignedTx::from_bytes,
        atomic::UnsignedTx::to_bytes,
    );
    assert_eq!(unsigned, tx.unsigned);
}

#[test]
fn an_export_round_trips_and_has_the_nodes_id() {
    let tx = round_trip(EXPORT_SIGNED, atomic::Tx::from_bytes, atomic::Tx::to_bytes);
    assert_eq!(tx.id().unwrap().to_string(), EXPORT_ID);
    tx.verify().unwrap();
    let atomic::UnsignedTx::UnsignedExportTx(export) = &tx.unsigned else {
        panic!("not an export: {:?}", tx.unsigned)
    };
    assert_eq!(tx.unsigned.type_id(), 1);
    assert_eq!(export.inputs[0].nonce, 7);
    assert_eq!(export.inputs[0].amount, 3_000_000);
    assert_eq!(export.exported_outputs.len(), 1);
    let unsigned = round_trip(
        EXPORT_UNSIGNED,
        atomic::UnsignedTx::from_bytes,
        atomic::UnsignedTx::to_bytes,
    );
    assert_eq!(unsigned, tx.unsigned);
}

#[test]
fn the_json_form_is_the_nodes() {
    // The node writes the structs' JSON without a chain context: addresses in bare cb58, and
    // fx IDs it never set (the zero ID).
    let cx = JsonContext::bare();
    for (bytes, json) in [(IMPORT_SIGNED, IMPORT_JSON), (EXPORT_SIGNED, EXPORT_JSON)] {
        let tx = atomic::Tx::from_bytes(&unhex(bytes)).unwrap();
        let expected: Value = serde_json::from_str(json).unwrap();
        let got = tx.to_json(&cx);
        assert_eq!(
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&expected).unwrap(),
            "members or their order differ"
        );
        // Amounts are JSON numbers (the Go fields are plain uint64).
        assert!(got["unsignedTx"].to_string().contains("\"amount\":"));
        let read = atomic::Tx::from_json(&expected, None).unwrap();
        assert_eq!(read, tx);
        assert_eq!(hex(&read.to_bytes().unwrap()), bytes);
    }
    // With a chain's context, the exported output's owner is an X-chain address.
    let tx = atomic::Tx::from_bytes(&unhex(EXPORT_SIGNED)).unwrap();
    let json = tx.to_json(&JsonContext::for_network("X", 12345));
    let owner = &json["unsignedTx"]["exportedOutputs"][0]["output"]["addresses"][0];
    assert!(owner.as_str().unwrap().starts_with("X-local1"), "{owner}");
    assert_eq!(atomic::Tx::from_json(&json, None).unwrap(), tx);
}

#[test]
fn a_bad_evm_address_is_refused_naming_the_field() {
    let mut bad: Value = serde_json::from_str(IMPORT_JSON).unwrap();
    bad["unsignedTx"]["outputs"][0]["address"] = Value::String("0x8db97c7c".into());
    let e = atomic::Tx::from_json(&bad, None).unwrap_err();
    assert_eq!(e.path().to_string(), "unsignedTx.outputs[0].address");
    assert!(
        e.reason()
            .contains("expected 40 hex digits (20 bytes) after \"0x\", got 8"),
        "{e}"
    );

    let mut bad: Value = serde_json::from_str(EXPORT_JSON).unwrap();
    bad["unsignedTx"]["inputs"][0]["address"] =
        Value::String("8db97c7cece249c2b98bdc0226cc4c2a57bf52fc".into());
    let e = atomic::Tx::from_json(&bad, None).unwrap_err();
    assert_eq!(e.path().to_string(), "unsignedTx.inputs[0].address");
    assert!(e.reason().contains("missing \"0x\" prefix"), "{e}");

    // Any case is read; the node's lower case is written.
    let mut mixed: Value = serde_json::from_str(IMPORT_JSON).unwrap();
    mixed["unsignedTx"]["outputs"][0]["address"] =
        Value::String("0x8DB97C7CECE249C2B98BDC0226CC4C2A57BF52FC".into());
    let tx = atomic::Tx::from_json(&mixed, None).unwrap();
    assert_eq!(hex(&tx.to_bytes().unwrap()), IMPORT_SIGNED);
}

#[test]
fn verify_holds_the_nodes_syntactic_rules() {
    let tx = atomic::Tx::from_bytes(&unhex(IMPORT_SIGNED)).unwrap();
    let atomic::UnsignedTx::UnsignedImportTx(import) = &tx.unsigned else {
        unreachable!()
    };

    // Outputs strictly increasing by (address, asset ID): a duplicate is refused, whatever
    // its amount.
    let mut twice = import.clone();
    let mut again = twice.outputs[0].clone();
    again.amount = 1;
    twice.outputs.push(again);
    let e = twice.verify().unwrap_err();
    assert_eq!(e.path().to_string(), "outputs[1]");
    assert!(
        e.to_string()
            .contains("strictly increasing by `address assetID`"),
        "{e}"
    );
    // Same address, a larger asset ID: in order.
    let mut other = twice.clone();
    let mut asset = *other.outputs[0].asset_id.as_bytes();
    asset[31] = 1;
    other.outputs[1].asset_id = Id::new(asset);
    other.verify().unwrap();
    // A smaller address after a larger one: out of order, though its asset is larger.
    let mut swapped = other.clone();
    swapped.outputs[1].address = EvmAddress::ZERO;
    assert_eq!(
        swapped.verify().unwrap_err().path().to_string(),
        "outputs[1]"
    );

    // A zero amount is refused.
    let mut zero = import.clone();
    zero.outputs[0].amount = 0;
    assert_eq!(
        zero.verify().unwrap_err().path().to_string(),
        "outputs[0].amount"
    );

    // Imported inputs strictly increasing by UTXO.
    let mut inputs = import.clone();
    inputs
        .imported_inputs
        .push(inputs.imported_inputs[0].clone());
    assert_eq!(
        inputs.verify().unwrap_err().path().to_string(),
        "importedInputs[1]"
    );

    // The export's EVM inputs, likewise.
    let tx = atomic::Tx::from_bytes(&unhex(EXPORT_SIGNED)).unwrap();
    let atomic::UnsignedTx::UnsignedExportTx(export) = &tx.unsigned else {
        unreachable!()
    };
    let mut ins = export.clone();
    ins.inputs.push(ins.inputs[0].clone());
    assert_eq!(ins.verify().unwrap_err().path().to_string(), "inputs[1]");
}

#[test]
fn the_codec_numbers_types_as_the_node() {
    // codec.go: 0 UnsignedImportTx, 1 UnsignedExportTx, 3 skipped, 5 TransferInput, 1 skipped,
    // 7 TransferOutput, 1 skipped, 9 Credential (10 Input, 11 OutputOwners reach no slot).
    let bytes = unhex(EXPORT_SIGNED);
    // The type ID of the exported output (after the version, the tx's type ID, networkID,
    // two IDs, one EVM input of 20 + 8 + 32 + 8 bytes, the outputs' count and asset ID).
    let at = 2 + 4 + 4 + 32 + 32 + 4 + 68 + 4 + 32;
    assert_eq!(bytes[at..at + 4], [0, 0, 0, 7]);
    // A type ID the codec skips is refused.
    let mut skipped = bytes.clone();
    skipped[at + 3] = 6;
    let e = atomic::Tx::from_bytes(&skipped).unwrap_err();
    assert!(e.to_string().contains('6'), "{e}");
}
