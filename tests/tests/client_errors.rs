//! What the generated client returns when a node misbehaves: every failure is an `Err`
//! saying what happened, with the status, a piece of the body, or the field path.

mod common;

use avalanche_rpc::info::InfoClient;
use avalanche_rpc::platform::PlatformClient;
use avalanche_rpc::rpc::{ClientError, Node, ReplyProblem};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::post;

/// A node whose `/ext/info` and `/ext/bc/P` always answer `status` with `body`.
async fn node_answering(status: u16, body: &'static str) -> Node {
    let reply = move || async move {
        let mut r = (StatusCode::from_u16(status).expect("status"), body).into_response();
        r.headers_mut()
            .insert("content-type", "application/json".parse().expect("header"));
        r
    };
    let router = axum::Router::new()
        .route("/ext/info", post(reply))
        .route("/ext/bc/P", post(reply));
    Node::http(&common::serve(router).await).expect("client")
}

#[tokio::test]
async fn a_json_rpc_error_is_an_err_with_code_message_and_data() {
    let node = node_answering(
        200,
        r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"not found","data":{"x":1}},"id":1}"#,
    )
    .await;
    let err = node
        .info()
        .get_node_id(Default::default())
        .await
        .unwrap_err();
    match &err {
        ClientError::Rpc { method, error } => {
            assert_eq!(method, "info.getNodeID");
            assert_eq!((error.code, error.message.as_str()), (-32000, "not found"));
            assert_eq!(error.data, Some(serde_json::json!({"x": 1})));
        }
        other => panic!("expected Rpc, got {other:?}"),
    }
    assert_eq!(err.rpc_code(), Some(-32000));
    assert_eq!(
        err.to_string(),
        "info.getNodeID: JSON-RPC error -32000: not found"
    );
}

#[tokio::test]
async fn an_http_failure_carries_the_status_and_the_body() {
    let node = node_answering(
        503,
        "API call rejected because chain is not done bootstrapping\n",
    )
    .await;
    let err = node
        .platform()
        .get_height(Default::default())
        .await
        .unwrap_err();
    match err {
        ClientError::Http {
            method,
            status,
            location,
            body,
        } => {
            assert_eq!(method, "platform.getHeight");
            assert_eq!(status, 503);
            assert_eq!(location, None);
            assert_eq!(
                body,
                "API call rejected because chain is not done bootstrapping"
            );
        }
        other => panic!("expected Http, got {other:?}"),
    }
}

#[tokio::test]
async fn a_body_that_is_not_json_rpc_is_an_invalid_response() {
    let node = node_answering(200, "<html>gateway says hi</html>").await;
    let err = node
        .info()
        .get_node_id(Default::default())
        .await
        .unwrap_err();
    match err {
        ClientError::InvalidResponse {
            status,
            body,
            problem,
            ..
        } => {
            assert_eq!(status, 200);
            assert_eq!(body, "<html>gateway says hi</html>");
            match problem {
                ReplyProblem::NotJson { reason } => {
                    assert!(reason.contains("expected value"), "{reason}")
                }
                other => panic!("expected NotJson, got {other:?}"),
            }
        }
        other => panic!("expected InvalidResponse, got {other:?}"),
    }
    let node = node_answering(200, r#"{"jsonrpc":"2.0","id":1}"#).await;
    let err = node
        .info()
        .get_node_id(Default::default())
        .await
        .unwrap_err();
    assert_eq!(
        err.reply_problem(),
        Some(&ReplyProblem::NeitherResultNorError)
    );
    assert_eq!(
        err.to_string(),
        r#"info.getNodeID: not a valid JSON-RPC 2.0 reply: it has neither `result` nor `error`; HTTP 200, body: {"jsonrpc":"2.0","id":1}"#
    );
    let node = node_answering(
        200,
        r#"{"jsonrpc":"2.0","result":{"networkName":"x"},"id":99}"#,
    )
    .await;
    let err = node
        .info()
        .get_network_name(Default::default())
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("the reply is for id 99 but the request had id 1"),
        "{err}"
    );
}

#[tokio::test]
async fn a_result_that_does_not_fit_names_the_method_and_the_field_path() {
    let node = node_answering(
        200,
        r#"{"jsonrpc":"2.0","result":{"validators":[{"txID":"11111111111111111111111111111111LpoYY","startTime":"1","endTime":"2","weight":"-5","nodeID":"NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"}]},"id":1}"#,
    )
    .await;
    let params = avalanche_rpc::platform::GetCurrentValidatorsParams::default();
    let err = node
        .platform()
        .get_current_validators(params)
        .await
        .unwrap_err();
    match err {
        ClientError::Decode {
            method,
            path,
            message,
        } => {
            assert_eq!(method, "platform.getCurrentValidators");
            assert_eq!(path, "validators[0].weight");
            assert!(message.contains("invalid u64 \"-5\""), "{message}");
        }
        other => panic!("expected Decode, got {other:?}"),
    }
}

#[tokio::test]
async fn a_refused_connection_is_a_transport_error() {
    // Bind and drop a listener to get a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let node = Node::http(&format!("http://127.0.0.1:{port}")).unwrap();
    let err = node
        .info()
        .get_node_id(Default::default())
        .await
        .unwrap_err();
    assert!(matches!(err, ClientError::Transport { .. }), "{err:?}");
    // The cause down to the operating system's, and what to try: the exact text a user sees.
    assert_eq!(
        err.to_string(),
        format!(
            "info.getNodeID: transport failed: http://127.0.0.1:{port}/ext/info: client error \
             (Connect): tcp connect error: Connection refused (os error 111) (nothing is \
             listening at 127.0.0.1:{port}: is the node running, and on this port?)"
        )
    );
    let ClientError::Transport { source, .. } = &err else {
        unreachable!()
    };
    let failure = source
        .downcast_ref::<avalanche_rpc::rpc::TransportFailure>()
        .expect("a TransportFailure");
    assert_eq!(failure.kind(), avalanche_rpc::rpc::FailureKind::Refused);
    // Credentials in the URL (a user and password, an API key in the query) are not shown.
    let node = Node::http(&format!("http://alice:pa55word@127.0.0.1:{port}")).unwrap();
    let err = node
        .info()
        .get_node_id(Default::default())
        .await
        .unwrap_err();
    let text = format!("{err} {err:?}");
    assert!(
        !text.contains("pa55word") && !text.contains("alice"),
        "{text}"
    );
    assert!(
        text.contains(&format!("http://127.0.0.1:{port}/ext/info")),
        "{text}"
    );
}

#[test]
fn a_bad_base_url_is_refused() {
    for url in ["not a url", "ftp://127.0.0.1:9650"] {
        let err = Node::http(url).unwrap_err();
        assert!(err.to_string().contains("invalid base URL"), "{err}");
    }
}

#[tokio::test]
async fn the_client_reads_the_forms_only_the_description_shows() {
    // index.getContainerRange as a bare array, platform.getTimestamp as `time`,
    // platform.getValidatorsAt as `{"validators": {id: weight}}`.
    let node = node_answering(
        200,
        r#"{"jsonrpc":"2.0","result":{"time":"2024-01-01T00:00:00Z"},"id":1}"#,
    )
    .await;
    let r = node
        .platform()
        .get_timestamp(Default::default())
        .await
        .unwrap();
    assert_eq!(r.timestamp.as_str(), "2024-01-01T00:00:00Z");

    let node = node_answering(200, r#"{"jsonrpc":"2.0","result":{"validators":{"NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg":2000}},"id":1}"#).await;
    let r = node
        .platform()
        .get_validators_at(avalanche_rpc::platform::GetValidatorsAtParams::default())
        .await
        .unwrap();
    let (id, v) = r.iter().next().expect("one validator");
    assert_eq!(id.to_string(), "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg");
    assert_eq!(v.weight.get(), 2000);
    assert_eq!(v.public_key, None);
}

#[tokio::test]
async fn a_height_the_node_refuses_is_never_sent() {
    // The node refuses the numeric height 2^64-1; the client fails before sending it.
    let node = node_answering(200, r#"{"jsonrpc":"2.0","result":{},"id":1}"#).await;
    let params = avalanche_rpc::platform::GetValidatorsAtParams::default()
        .with_height(avalanche_rpc::wire::Height::Number(u64::MAX));
    let err = node.platform().get_validators_at(params).await.unwrap_err();
    match err {
        ClientError::InvalidParams {
            method, message, ..
        } => {
            assert_eq!(method, "platform.getValidatorsAt");
            assert!(
                message.contains("out of range (max 18446744073709551614)"),
                "{message}"
            );
        }
        other => panic!("expected InvalidParams, got {other:?}"),
    }
    assert!(avalanche_rpc::wire::Height::try_from(u64::MAX).is_err());
}
