//! The client against misbehaving servers: replies that break a rule of JSON-RPC 2.0.

mod common;

use avalanche_rpc::info::InfoClient;
use avalanche_rpc::rpc::{ClientError, Node, ReplyProblem};
use axum::http::header;
use axum::routing::post;
use std::time::Duration;

/// Every call here ends well within this.
const BOUND: Duration = Duration::from_secs(20);

/// Runs `call`, failing the test if it takes longer than [`BOUND`].
async fn bounded<F: std::future::Future>(call: F) -> F::Output {
    tokio::time::timeout(BOUND, call)
        .await
        .expect("the call did not end in time")
}

/// A node whose `/ext/info` answers 200 with `body`.
async fn node_answering(body: &'static str) -> Node {
    let reply = move || async move { ([(header::CONTENT_TYPE, "application/json")], body) };
    let router = axum::Router::new().route("/ext/info", post(reply));
    Node::http(&common::serve(router).await).expect("client")
}

// ---------------------------------------------------------------------------------------------
// The rules of a reply

#[tokio::test]
async fn each_broken_rule_of_a_reply_is_its_own_error() {
    use ReplyProblem::*;
    let err = |reason: &str| NotJson {
        reason: reason.into(),
    };
    let cases: Vec<(&'static str, ReplyProblem)> = vec![
        (
            r#"{"jsonrpc":"2.0","result":{"networkName":"x"},"id":1"#,
            err("EOF while parsing an object"),
        ),
        ("[1,", err("EOF while parsing a value")),
        ("<html>", err("expected value")),
        (
            r#"[{"jsonrpc":"2.0","result":{"networkName":"x"},"id":1}]"#,
            NotAnObject { found: "an array" },
        ),
        (r#""2.0""#, NotAnObject { found: "a string" }),
        ("null", NotAnObject { found: "null" }),
        (
            r#"{"jsonrpc":"2.0","result":{"networkName":"x"},"id":1,"id":1}"#,
            DuplicateMember { name: "id" },
        ),
        (r#"{"result":{"networkName":"x"},"id":1}"#, MissingVersion),
        (
            r#"{"jsonrpc":"1.0","result":{"networkName":"x"},"id":1}"#,
            WrongVersion {
                found: r#""1.0""#.into(),
            },
        ),
        (
            r#"{"jsonrpc":2.0,"result":{"networkName":"x"},"id":1}"#,
            WrongVersion {
                found: "2.0".into(),
            },
        ),
        (
            r#"{"jsonrpc":"2.0","result":{"networkName":"x"}}"#,
            MissingId,
        ),
        (
            r#"{"jsonrpc":"2.0","result":{"networkName":"x"},"id":null}"#,
            NullId,
        ),
        (
            r#"{"jsonrpc":"2.0","result":{"networkName":"x"},"id":2}"#,
            IdMismatch {
                sent: 1,
                received: "2".into(),
            },
        ),
        (
            r#"{"jsonrpc":"2.0","result":{"networkName":"x"},"id":"1"}"#,
            IdMismatch {
                sent: 1,
                received: r#""1""#.into(),
            },
        ),
        (
            r#"{"jsonrpc":"2.0","result":{"networkName":"x"},"error":{"code":-32000,"message":"no"},"id":1}"#,
            BothResultAndError,
        ),
        (
            r#"{"jsonrpc":"2.0","result":{"networkName":"x"},"error":null,"id":1}"#,
            BothResultAndError,
        ),
        (r#"{"jsonrpc":"2.0","id":1}"#, NeitherResultNorError),
        (
            r#"{"jsonrpc":"2.0","error":"boom","id":1}"#,
            MalformedError {
                reason: "invalid type: string \"boom\", expected struct RpcError".into(),
            },
        ),
    ];
    let mut kinds = std::collections::HashSet::new();
    for (body, expected) in cases {
        let node = node_answering(body).await;
        let err = bounded(node.info().get_network_name()).await.unwrap_err();
        match &err {
            ClientError::InvalidResponse {
                method,
                status,
                problem,
                body: excerpt,
            } => {
                assert_eq!(method, "info.getNetworkName", "{body}");
                assert_eq!(*status, 200, "{body}");
                assert_eq!(problem, &expected, "{body}");
                assert_eq!(excerpt, body);
                let message = err.to_string();
                assert!(
                    message.starts_with(&format!(
                        "info.getNetworkName: not a valid JSON-RPC 2.0 reply: {problem}; HTTP 200, body: "
                    )),
                    "{message}"
                );
            }
            other => panic!("{body}: expected InvalidResponse, got {other:?}"),
        }
        kinds.insert(std::mem::discriminant(&expected));
    }
    // Every rule, each its own variant.
    assert_eq!(kinds.len(), 11);
}

#[tokio::test]
async fn a_valid_reply_may_carry_other_members_and_a_null_result_is_a_result() {
    let node = node_answering(
        r#"{"id":1,"extra":[1,{"result":2}],"result":{"networkName":"x","more":true},"jsonrpc":"2.0"}"#,
    )
    .await;
    let reply = bounded(node.info().get_network_name()).await.unwrap();
    assert_eq!(reply.network_name, "x");

    // `"result": null` is present (and then does not fit the result type).
    let node = node_answering(r#"{"jsonrpc":"2.0","result":null,"id":1}"#).await;
    let err = bounded(node.info().get_network_name()).await.unwrap_err();
    assert!(matches!(err, ClientError::Decode { .. }), "{err:?}");

    // An error reply with the request's id is the node's error.
    let node = node_answering(
        r#"{"jsonrpc":"2.0","error":{"code":-32601,"message":"nope","data":null},"id":1}"#,
    )
    .await;
    let err = bounded(node.info().get_network_name()).await.unwrap_err();
    assert_eq!(err.rpc_code(), Some(-32601));
}

#[tokio::test]
async fn a_long_body_is_cut_short_in_the_error() {
    let body: &'static str =
        Box::leak(format!("<html>{}</html>", "x".repeat(100_000)).into_boxed_str());
    let node = node_answering(body).await;
    let err = bounded(node.info().get_network_name()).await.unwrap_err();
    let ClientError::InvalidResponse { body: excerpt, .. } = &err else {
        panic!("expected InvalidResponse, got {err:?}");
    };
    assert_eq!(excerpt.chars().count(), 201, "{excerpt}");
    assert!(excerpt.ends_with('…'), "{excerpt}");
    assert!(err.to_string().len() < 400, "{err}");
}
