//! The client against misbehaving servers: bodies over the limit, replies that break a rule
//! of JSON-RPC 2.0, and servers that never connect or never answer.
//! The 100 MB body's memory use is measured alone, in `client_memory.rs`.

mod common;
mod misbehaving;

use avalanche_rpc::info::InfoClient;
use avalanche_rpc::rpc::{ClientError, HttpTransport, Node, ReplyProblem};
use axum::http::header;
use axum::routing::post;
use misbehaving::{MB, serve_stalling, serve_streaming};
use std::time::{Duration, Instant};

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

/// The `reqwest::Error` somewhere in the chain of a transport error.
fn reqwest_error(err: &ClientError) -> &reqwest::Error {
    let ClientError::Transport { source, .. } = err else {
        panic!("expected Transport, got {err:?}");
    };
    let mut e: Option<&(dyn std::error::Error + 'static)> = Some(source.as_ref());
    while let Some(inner) = e {
        if let Some(r) = inner.downcast_ref::<reqwest::Error>() {
            return r;
        }
        e = inner.source();
    }
    panic!("no reqwest::Error in {err:?}");
}

// ---------------------------------------------------------------------------------------------
// The limit on response bodies

#[tokio::test]
async fn a_streamed_body_over_the_limit_is_refused_and_not_read_to_the_end() {
    let (base, sent) = serve_streaming(100 * MB, false).await;
    let transport = HttpTransport::builder(&base)
        .max_response_bytes(1 << 20)
        .build()
        .unwrap();
    let node = Node::new(transport);
    let err = bounded(node.info().get_node_id()).await.unwrap_err();
    match &err {
        ClientError::ResponseTooLarge { method, limit } => {
            assert_eq!(method, "info.getNodeID");
            assert_eq!(*limit, 1 << 20);
        }
        other => panic!("expected ResponseTooLarge, got {other:?}"),
    }
    assert_eq!(
        err.to_string(),
        "info.getNodeID: the response body exceeds the limit of 1048576 bytes"
    );
    // The client hung up: the server could not write the whole body.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(sent.finished(), 0);
    assert!(sent.bytes() < 100 * MB, "{} bytes sent", sent.bytes());
}

#[tokio::test]
async fn a_content_length_over_the_limit_is_refused_before_reading() {
    // The head promises 100 MB, then nothing comes: reading would hang until the timeout.
    let base = serve_stalling(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000000\r\n\r\n{",
    )
    .await;
    let transport = HttpTransport::builder(&base)
        .timeout(BOUND)
        .max_response_bytes(1 << 20)
        .build()
        .unwrap();
    let started = Instant::now();
    let err = bounded(Node::new(transport).info().get_node_id())
        .await
        .unwrap_err();
    assert!(
        matches!(err, ClientError::ResponseTooLarge { limit, .. } if limit == 1 << 20),
        "{err:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_body_at_the_limit_is_read_and_one_byte_more_is_not() {
    const REPLY: &str = r#"{"jsonrpc":"2.0","result":{"networkName":"local"},"id":1}"#;
    let len = REPLY.len() as u64;
    // Once with a Content-Length, once chunked (in several chunks, to exercise the counting).
    let router = axum::Router::new().route(
        "/ext/info",
        post(|| async { ([(header::CONTENT_TYPE, "application/json")], REPLY) }),
    );
    let sized = common::serve(router).await;
    let chunked = misbehaving::serve_raw(|mut stream| async move {
        use tokio::io::AsyncWriteExt;
        if misbehaving::read_request(&mut stream).await.is_err() {
            return;
        }
        let mut out = String::from("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n");
        for piece in REPLY.as_bytes().chunks(7) {
            let piece = std::str::from_utf8(piece).unwrap_or_default();
            out.push_str(&format!("{:x}\r\n{piece}\r\n", piece.len()));
        }
        out.push_str("0\r\n\r\n");
        let _ = stream.write_all(out.as_bytes()).await;
        // Let the client read in several chunks before the connection goes.
        tokio::time::sleep(Duration::from_millis(100)).await;
    })
    .await;
    for base in [sized, chunked] {
        let at = HttpTransport::builder(&base)
            .max_response_bytes(len)
            .build()
            .unwrap();
        let reply = bounded(Node::new(at).info().get_network_name())
            .await
            .unwrap();
        assert_eq!(reply.network_name, "local");
        let under = HttpTransport::builder(&base)
            .max_response_bytes(len - 1)
            .build()
            .unwrap();
        let err = bounded(Node::new(under).info().get_network_name())
            .await
            .unwrap_err();
        assert!(
            matches!(err, ClientError::ResponseTooLarge { limit, .. } if limit == len - 1),
            "{base}: {err:?}"
        );
    }
}

#[tokio::test]
async fn your_own_client_still_gets_the_limit_and_the_reply_rules() {
    let (base, _) = serve_streaming(10 * MB, false).await;
    let transport = HttpTransport::with_client(&base, reqwest::Client::new())
        .unwrap()
        .with_max_response_bytes(1000);
    assert_eq!(transport.max_response_bytes(), 1000);
    let err = bounded(Node::new(transport).info().get_node_id())
        .await
        .unwrap_err();
    assert!(
        matches!(err, ClientError::ResponseTooLarge { limit: 1000, .. }),
        "{err:?}"
    );

    let router = axum::Router::new().route(
        "/ext/info",
        post(|| async { r#"[{"jsonrpc":"2.0","result":{"networkName":"x"},"id":1}]"# }),
    );
    let base = common::serve(router).await;
    let transport = HttpTransport::with_client(&base, reqwest::Client::new()).unwrap();
    assert_eq!(
        transport.max_response_bytes(),
        HttpTransport::DEFAULT_MAX_RESPONSE_BYTES
    );
    let err = bounded(Node::new(transport).info().get_network_name())
        .await
        .unwrap_err();
    assert_eq!(
        err.reply_problem(),
        Some(&ReplyProblem::NotAnObject { found: "an array" })
    );
}

#[test]
fn the_defaults_are_documented_values() {
    assert_eq!(HttpTransport::DEFAULT_MAX_RESPONSE_BYTES, 64 * 1024 * 1024);
    assert_eq!(HttpTransport::DEFAULT_TIMEOUT, Duration::from_secs(30));
    assert_eq!(
        HttpTransport::DEFAULT_CONNECT_TIMEOUT,
        Duration::from_secs(10)
    );
    let t = HttpTransport::new("http://127.0.0.1:9650/").unwrap();
    assert_eq!(t.max_response_bytes(), 64 << 20);
    assert_eq!(t.base_url(), "http://127.0.0.1:9650");
    let err = HttpTransport::builder("ftp://x").build().unwrap_err();
    assert!(err.to_string().contains("invalid base URL"), "{err}");
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

// ---------------------------------------------------------------------------------------------
// Timeouts

#[tokio::test]
async fn the_connect_timeout_is_honoured() {
    let (addr, _queue) = misbehaving::unanswered_connect();
    let transport = HttpTransport::builder(&format!("http://{addr}"))
        .connect_timeout(Duration::from_millis(300))
        .timeout(BOUND)
        .build()
        .unwrap();
    let started = Instant::now();
    let err = bounded(Node::new(transport).info().get_node_id())
        .await
        .unwrap_err();
    let elapsed = started.elapsed();
    let e = reqwest_error(&err);
    assert!(e.is_connect() && e.is_timeout(), "{err:?}");
    assert!(
        elapsed >= Duration::from_millis(300) && elapsed < Duration::from_secs(5),
        "{elapsed:?}"
    );
}

#[tokio::test]
async fn the_overall_timeout_is_honoured_while_waiting_for_the_head() {
    let base = serve_stalling("").await;
    let transport = HttpTransport::builder(&base)
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let started = Instant::now();
    let err = bounded(Node::new(transport).info().get_node_id())
        .await
        .unwrap_err();
    let elapsed = started.elapsed();
    assert!(reqwest_error(&err).is_timeout(), "{err:?}");
    assert!(
        err.to_string()
            .starts_with("info.getNodeID: transport failed"),
        "{err}"
    );
    assert!(
        elapsed >= Duration::from_millis(300) && elapsed < Duration::from_secs(5),
        "{elapsed:?}"
    );
}

#[tokio::test]
async fn the_overall_timeout_is_honoured_while_reading_the_body() {
    let base = serve_stalling(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"jsonrpc\":",
    )
    .await;
    let transport = HttpTransport::builder(&base)
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let started = Instant::now();
    let err = bounded(Node::new(transport).info().get_node_id())
        .await
        .unwrap_err();
    let elapsed = started.elapsed();
    assert!(reqwest_error(&err).is_timeout(), "{err:?}");
    assert!(
        elapsed >= Duration::from_millis(300) && elapsed < Duration::from_secs(5),
        "{elapsed:?}"
    );
}
