//! The conventions that let the bindings evolve without breaking their users: partial servers,
//! partial client doubles, constructors, and enumerations that keep values they do not know;
//! and the JSON-RPC errors the documents list are the codes the server sends.

mod common;

use avalanche_rpc::info::{self, GetNetworkIdParams, GetNetworkIdResult, InfoClient, InfoServer};
use avalanche_rpc::platform::{GetTxStatusResult, TxStatus};
use avalanche_rpc::rpc::{ClientError, Node, RpcError, codes};
use serde_json::json;

/// A server that implements one method of `InfoServer` and nothing else.
struct OnlyNetworkId;

impl InfoServer for OnlyNetworkId {
    async fn get_network_id(&self, _: GetNetworkIdParams) -> Result<GetNetworkIdResult, RpcError> {
        Ok(GetNetworkIdResult::new(12345u32))
    }
}

#[tokio::test]
async fn a_server_implementing_one_method_serves_it_and_answers_32601_for_the_others() {
    let base = common::serve(info::router(OnlyNetworkId)).await;
    let node = Node::http(&base).expect("client");

    let id = node
        .info()
        .get_network_id(Default::default())
        .await
        .expect("served");
    assert_eq!(id.network_id.get(), 12345);

    let err = node
        .info()
        .get_node_id(Default::default())
        .await
        .unwrap_err();
    let ClientError::Rpc { error, .. } = &err else {
        panic!("expected a JSON-RPC error, got {err:?}");
    };
    assert_eq!(error.code, codes::METHOD_NOT_FOUND);
    assert!(
        error.message.contains("`info.getNodeID`") && error.message.contains("not implement"),
        "the message names the method and says it is not implemented: {}",
        error.message
    );
    assert_eq!(error.data, Some(json!({"method": "info.getNodeID"})));

    // A method the interface does not have at all is still "not found", not "not implemented".
    let body = reqwest::Client::new()
        .post(format!("{base}/ext/info"))
        .header("content-type", "application/json")
        .body(r#"{"jsonrpc":"2.0","id":7,"method":"info.noSuchMethod"}"#)
        .send()
        .await
        .expect("post")
        .bytes()
        .await
        .expect("body");
    let raw: serde_json::Value = serde_json::from_slice(&body).expect("json");
    assert_eq!(raw["error"]["code"], json!(-32601));
    assert!(
        !raw["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("not implement"),
        "{raw}"
    );
}

/// A client test double implementing one method.
struct FakeInfo;

impl InfoClient for FakeInfo {
    async fn get_network_id(
        &self,
        _: GetNetworkIdParams,
    ) -> Result<GetNetworkIdResult, ClientError> {
        Ok(GetNetworkIdResult::new(5u32))
    }
}

#[tokio::test]
async fn a_client_double_implementing_one_method_gets_a_typed_error_for_the_others() {
    assert_eq!(
        FakeInfo
            .get_network_id(Default::default())
            .await
            .unwrap()
            .network_id
            .get(),
        5
    );
    let err = FakeInfo
        .get_node_version(Default::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ClientError::NotImplemented { method } if method == "info.getNodeVersion"),
        "{err:?}"
    );
    assert_eq!(err.method(), "info.getNodeVersion");
    assert_eq!(
        err.to_string(),
        "info.getNodeVersion: not implemented by this client"
    );
}

#[test]
fn an_enumeration_keeps_a_value_it_does_not_know() {
    let known: GetTxStatusResult =
        serde_json::from_value(json!({"status": "Committed"})).expect("known value");
    assert_eq!(known.status, TxStatus::Committed);

    let newer: GetTxStatusResult =
        serde_json::from_value(json!({"status": "Finalized", "reason": "x"})).expect("new value");
    assert_eq!(newer.status, TxStatus::Unrecognized("Finalized".into()));
    assert_eq!(newer.status.as_str(), "Finalized");
    // It goes back on the wire as it came.
    assert_eq!(
        serde_json::to_value(&newer).unwrap(),
        json!({"status": "Finalized", "reason": "x"})
    );
    // Text parses to the known variant when there is one.
    assert_eq!(TxStatus::from("Dropped"), TxStatus::Dropped);
    // Only a value that is not a string is an error.
    let err = serde_json::from_value::<GetTxStatusResult>(json!({"status": 3})).unwrap_err();
    assert!(err.to_string().contains("TxStatus"), "{err}");
}

#[test]
fn constructors_take_required_members_and_setters_the_optional_ones() {
    let result = GetTxStatusResult::new(TxStatus::Dropped).with_reason("fee too low");
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({"status": "Dropped", "reason": "fee too low"})
    );
    // `new` converts with `Into`: a string is a status too.
    assert_eq!(
        GetTxStatusResult::new("Processing").status,
        TxStatus::Processing
    );
}

#[test]
fn the_fast_wire_types_still_reject_bad_checksums_on_the_clients_decode_path() {
    use avalanche_rpc::rpc::{HttpReply, decode_reply};
    let decode = |m, body: &str| {
        let reply = HttpReply::new(200, body.as_bytes().to_vec());
        decode_reply::<serde_json::Value>(m, 1, &reply).map(|_| ())
    };
    // A valid ID, then the same ID with its last character changed (the checksum breaks).
    let good = r#"{"jsonrpc":"2.0","id":1,"result":{"blockchainID":"2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"}}"#;
    let bad = good.replace("6FByM\"", "6FByN\"");
    let method = &info::methods::GET_BLOCKCHAIN_ID;
    let typed = |body: &str| {
        let reply = HttpReply::new(200, body.as_bytes().to_vec());
        decode_reply::<avalanche_rpc::info::GetBlockchainIdResult>(method, 1, &reply)
    };
    assert!(decode(method, good).is_ok());
    typed(good).expect("a valid ID decodes");
    let err = typed(&bad).unwrap_err();
    assert!(
        matches!(&err, ClientError::Decode { path, message, .. }
            if path == "blockchainID" && message.contains("checksum")),
        "{err}"
    );
    // Checksummed hex and bech32 addresses likewise.
    let hex: avalanche_rpc::wire::HexBytes = "0x00010203c0ffee".parse().unwrap();
    assert!(hex.strip_checksum().is_err());
    let addr = "X-avax1lnk637g0edwnqc2tn8tel39652fswa3xmgyghf";
    assert!(addr.parse::<avalanche_rpc::wire::Address>().is_ok());
    let broken = "X-avax1lnk637g0edwnqc2tn8tel39652fswa3xmgyghg";
    assert!(broken.parse::<avalanche_rpc::wire::Address>().is_err());
}

/// The JSON-RPC errors the generated documents list (the generator's
/// `common::JSON_RPC_ERRORS`, in the OpenRPC documents and on the API page) are exactly the
/// codes of `rpc::codes`, name for name: a code added to one and not the other fails here.
/// The generator cannot depend on the crate it generates, so the constants are read from
/// the runtime's source.
#[test]
fn the_documented_json_rpc_errors_are_the_codes_the_server_sends() {
    use avalanche_rpc_codegen::common::JSON_RPC_ERRORS;
    use avalanche_rpc_codegen::naming::screaming;
    use std::collections::BTreeMap;

    let source = include_str!("../../generated/src/rpc/error.rs");
    let start = source
        .find("pub mod codes {")
        .expect("rpc/error.rs has `pub mod codes`");
    let block = &source[start..];
    let block = &block[..block.find("\n}").expect("the module ends")];
    let mut sent = BTreeMap::new();
    for line in block.lines().skip(1).map(str::trim) {
        if line.is_empty() || line.starts_with("///") || line.starts_with("//") {
            continue;
        }
        let constant = line
            .strip_prefix("pub const ")
            .and_then(|l| l.strip_suffix(';'))
            .and_then(|l| l.split_once(": i64 = "))
            .unwrap_or_else(|| {
                panic!("`rpc::codes` holds only `pub const NAME: i64 = CODE;`, not {line:?}")
            });
        let code: i64 = constant.1.parse().expect("a literal code");
        sent.insert(constant.0.to_string(), code);
    }
    // What was read is the compiled module.
    assert_eq!(sent.get("METHOD_NOT_FOUND"), Some(&codes::METHOD_NOT_FOUND));
    assert_eq!(sent.get("SERVER_ERROR"), Some(&codes::SERVER_ERROR));

    let documented: BTreeMap<String, i64> = JSON_RPC_ERRORS
        .iter()
        .map(|(name, code, _)| (screaming(name), *code))
        .collect();
    assert_eq!(
        documented, sent,
        "codegen/src/common.rs JSON_RPC_ERRORS (left) and generated/src/rpc/error.rs `codes` (right) must list the same errors"
    );
}
