//! The conventions that let the bindings evolve without breaking their users: partial servers,
//! partial client doubles, constructors, and enumerations that keep values they do not know.

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
