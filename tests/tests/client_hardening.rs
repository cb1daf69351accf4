//! The client against misbehaving servers: bodies over the limit, replies that break a rule
//! of JSON-RPC 2.0, redirects, and servers that never connect or never answer.
//! The 100 MB body's memory use is measured alone, in `client_memory.rs`.

mod common;
mod misbehaving;

use avalanche_rpc::info::{GetNetworkIdParams, InfoClient};
use avalanche_rpc::rpc::{ClientError, HttpTransport, Node, ReplyProblem, RetryPolicy, Transport};
use axum::body::Bytes;
use axum::http::{Method, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{any, post};
use common::scripted;
use misbehaving::{MB, serve_stalling, serve_streaming};
use std::sync::{Arc, Mutex};
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
    let err = bounded(node.info().get_node_id(Default::default()))
        .await
        .unwrap_err();
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
    let err = bounded(Node::new(transport).info().get_node_id(Default::default()))
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
        let reply = bounded(Node::new(at).info().get_network_name(Default::default()))
            .await
            .unwrap();
        assert_eq!(reply.network_name, "local");
        let under = HttpTransport::builder(&base)
            .max_response_bytes(len - 1)
            .build()
            .unwrap();
        let err = bounded(Node::new(under).info().get_network_name(Default::default()))
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
    let err = bounded(Node::new(transport).info().get_node_id(Default::default()))
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
    let err = bounded(
        Node::new(transport)
            .info()
            .get_network_name(Default::default()),
    )
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
        let err = bounded(node.info().get_network_name(Default::default()))
            .await
            .unwrap_err();
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
    let reply = bounded(node.info().get_network_name(Default::default()))
        .await
        .unwrap();
    assert_eq!(reply.network_name, "x");

    // `"result": null` is present (and then does not fit the result type).
    let node = node_answering(r#"{"jsonrpc":"2.0","result":null,"id":1}"#).await;
    let err = bounded(node.info().get_network_name(Default::default()))
        .await
        .unwrap_err();
    assert!(matches!(err, ClientError::Decode { .. }), "{err:?}");

    // An error reply with the request's id is the node's error.
    let node = node_answering(
        r#"{"jsonrpc":"2.0","error":{"code":-32601,"message":"nope","data":null},"id":1}"#,
    )
    .await;
    let err = bounded(node.info().get_network_name(Default::default()))
        .await
        .unwrap_err();
    assert_eq!(err.rpc_code(), Some(-32601));
}

#[tokio::test]
async fn a_long_body_is_cut_short_in_the_error() {
    let body: &'static str =
        Box::leak(format!("<html>{}</html>", "x".repeat(100_000)).into_boxed_str());
    let node = node_answering(body).await;
    let err = bounded(node.info().get_network_name(Default::default()))
        .await
        .unwrap_err();
    let ClientError::InvalidResponse { body: excerpt, .. } = &err else {
        panic!("expected InvalidResponse, got {err:?}");
    };
    assert_eq!(excerpt.chars().count(), 201, "{excerpt}");
    assert!(excerpt.ends_with('…'), "{excerpt}");
    assert!(err.to_string().len() < 400, "{err}");
}

// ---------------------------------------------------------------------------------------------
// Redirects

/// What a server's `/moved` (or `/ext/info` of the other server) received.
#[derive(Clone, Default)]
struct Hits(Arc<Mutex<Vec<(Method, Bytes)>>>);

impl Hits {
    fn take(&self) -> Vec<(Method, Bytes)> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// A route that records the request and answers the JSON-RPC call with `networkName: moved`.
fn recording(hits: Hits) -> axum::routing::MethodRouter {
    any(move |method: Method, body: Bytes| {
        let hits = hits.clone();
        async move {
            let id = serde_json::from_slice::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| v.get("id").cloned())
                .unwrap_or_default();
            hits.0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((method, body));
            let reply =
                serde_json::json!({"jsonrpc": "2.0", "result": {"networkName": "moved"}, "id": id});
            (
                [(header::CONTENT_TYPE, "application/json")],
                reply.to_string(),
            )
        }
    })
}

/// A server whose `/ext/info` records the request and redirects with `status` to `location`,
/// and whose `/moved` records and answers; returns its base URL.
async fn redirecting(status: u16, location: String, sent: Hits, moved: Hits) -> String {
    let router = axum::Router::new()
        .route(
            "/ext/info",
            post(move |body: Bytes| {
                let sent = sent.clone();
                let location = location.clone();
                async move {
                    sent.0
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((Method::POST, body));
                    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::IM_A_TEAPOT);
                    (status, [(header::LOCATION, location)], "moved elsewhere").into_response()
                }
            }),
        )
        .route("/moved", recording(moved));
    common::serve(router).await
}

fn transport(base: &str, same_origin_redirects: bool) -> HttpTransport {
    HttpTransport::builder(base)
        .timeout(BOUND)
        .same_origin_redirects(same_origin_redirects)
        .build()
        .unwrap()
}

/// Expects the call to end in the redirect itself, not followed.
fn assert_not_followed(err: &ClientError, status: u16, location: &str) {
    match err {
        ClientError::Http {
            status: s,
            location: l,
            body,
            ..
        } => {
            assert_eq!(*s, status);
            assert_eq!(l.as_deref(), Some(location));
            assert_eq!(body, "moved elsewhere");
        }
        other => panic!("expected Http {status}, got {other:?}"),
    }
    assert_eq!(
        err.to_string(),
        format!(
            "info.getNetworkName: HTTP {status} (redirect to {location} not followed): moved elsewhere"
        )
    );
}

#[tokio::test]
async fn a_cross_origin_redirect_is_never_followed() {
    let other = Hits::default();
    let other_base =
        common::serve(axum::Router::new().route("/ext/info", recording(other.clone()))).await;
    for status in [307, 308] {
        for opt_in in [false, true] {
            let location = format!("{other_base}/ext/info");
            let sent = Hits::default();
            let base = redirecting(status, location.clone(), sent.clone(), Hits::default()).await;
            let err = bounded(
                Node::new(transport(&base, opt_in))
                    .info()
                    .get_network_name(Default::default()),
            )
            .await
            .unwrap_err();
            assert_not_followed(&err, status, &location);
            assert_eq!(sent.take().len(), 1);
            assert!(
                other.take().is_empty(),
                "{status} followed to another origin"
            );
        }
    }
    // The same port on another host name is another origin too.
    let moved = Hits::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let location = format!("http://localhost:{port}/moved");
    let base = redirecting(307, location.clone(), Hits::default(), moved.clone()).await;
    let err = bounded(
        Node::new(transport(&base, true))
            .info()
            .get_network_name(Default::default()),
    )
    .await
    .unwrap_err();
    assert_not_followed(&err, 307, &location);
    assert!(moved.take().is_empty());
}

#[tokio::test]
async fn no_redirect_is_followed_by_default() {
    for status in [301, 302, 303, 307, 308] {
        let moved = Hits::default();
        let base = redirecting(status, "/moved".into(), Hits::default(), moved.clone()).await;
        let err = bounded(
            Node::new(transport(&base, false))
                .info()
                .get_network_name(Default::default()),
        )
        .await
        .unwrap_err();
        assert_not_followed(&err, status, "/moved");
        assert!(moved.take().is_empty(), "{status} followed");
        // `Node::http` is the same default.
        let err = bounded(
            Node::http(&base)
                .unwrap()
                .info()
                .get_network_name(Default::default()),
        )
        .await
        .unwrap_err();
        assert_not_followed(&err, status, "/moved");
        assert!(moved.take().is_empty(), "{status} followed");
    }
}

#[tokio::test]
async fn a_redirect_that_would_turn_the_post_into_a_get_is_never_followed() {
    for status in [301, 302, 303] {
        let moved = Hits::default();
        let base = redirecting(status, "/moved".into(), Hits::default(), moved.clone()).await;
        let err = bounded(
            Node::new(transport(&base, true))
                .info()
                .get_network_name(Default::default()),
        )
        .await
        .unwrap_err();
        assert_not_followed(&err, status, "/moved");
        assert!(moved.take().is_empty(), "{status} followed");
    }
}

#[tokio::test]
async fn a_same_origin_307_or_308_is_followed_when_opted_in_keeping_the_post_and_its_body() {
    for status in [307, 308] {
        let (sent, moved) = (Hits::default(), Hits::default());
        let base = redirecting(status, "/moved".into(), sent.clone(), moved.clone()).await;
        let reply = bounded(
            Node::new(transport(&base, true))
                .info()
                .get_network_name(Default::default()),
        )
        .await
        .unwrap();
        assert_eq!(reply.network_name, "moved");
        let sent = sent.take();
        let moved = moved.take();
        assert_eq!(moved.len(), 1, "{status}");
        assert_eq!(moved[0].0, Method::POST, "{status}");
        assert_eq!(moved[0].1, sent[0].1, "{status}: the body changed");
        let body: serde_json::Value = serde_json::from_slice(&moved[0].1).unwrap();
        assert_eq!(body["method"], "info.getNetworkName");

        // An absolute URL of the same origin too.
        let moved = Hits::default();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let router = axum::Router::new()
            .route(
                "/ext/info",
                post(move || async move {
                    (
                        StatusCode::from_u16(status).unwrap_or(StatusCode::IM_A_TEAPOT),
                        [(header::LOCATION, format!("http://{addr}/moved"))],
                    )
                }),
            )
            .route("/moved", recording(moved.clone()));
        tokio::spawn(async move { axum::serve(listener, router).await });
        let reply = bounded(
            Node::new(transport(&format!("http://{addr}"), true))
                .info()
                .get_network_name(Default::default()),
        )
        .await
        .unwrap();
        assert_eq!(reply.network_name, "moved");
        assert_eq!(moved.take().len(), 1);
    }
}

#[tokio::test]
async fn a_redirect_loop_ends_in_the_redirect() {
    let hits = Hits::default();
    let counter = hits.clone();
    let router = axum::Router::new().route(
        "/ext/info",
        post(move |body: Bytes| {
            let hits = counter.clone();
            async move {
                hits.0
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((Method::POST, body));
                (
                    StatusCode::TEMPORARY_REDIRECT,
                    [(header::LOCATION, "/ext/info")],
                    "moved elsewhere",
                )
            }
        }),
    );
    let base = common::serve(router).await;
    let err = bounded(
        Node::new(transport(&base, true))
            .info()
            .get_network_name(Default::default()),
    )
    .await
    .unwrap_err();
    assert_not_followed(&err, 307, "/ext/info");
    // The first request and at most 5 redirects.
    assert_eq!(hits.take().len(), 6);
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
    let err = bounded(Node::new(transport).info().get_node_id(Default::default()))
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
    let err = bounded(Node::new(transport).info().get_node_id(Default::default()))
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
    let err = bounded(Node::new(transport).info().get_node_id(Default::default()))
        .await
        .unwrap_err();
    let elapsed = started.elapsed();
    assert!(reqwest_error(&err).is_timeout(), "{err:?}");
    assert!(
        elapsed >= Duration::from_millis(300) && elapsed < Duration::from_secs(5),
        "{elapsed:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Retries, headers and spans

/// A node at `base` retrying with `policy`.
fn retrying(base: &str, policy: RetryPolicy) -> Node {
    Node::new(HttpTransport::builder(base).retry(policy).build().unwrap())
}

const NETWORK: &str = r#"{"networkID":"12345"}"#;

#[tokio::test]
async fn a_busy_node_is_asked_again_and_the_call_succeeds() {
    let (base, seen) = scripted("/ext/info", |k| match k {
        0 => (503, None, "null"),
        1 => (502, None, "null"),
        _ => (200, None, NETWORK),
    })
    .await;
    let node = retrying(&base, RetryPolicy::default());
    let got = bounded(node.info().get_network_id(GetNetworkIdParams::new()))
        .await
        .unwrap();
    assert_eq!(got.network_id.get(), 12345);
    assert_eq!(seen.lock().unwrap().len(), 3);
    // Without a policy, the first 503 is the answer.
    let (base, seen) = scripted("/ext/info", |_| (503, None, "null")).await;
    let err = bounded(
        Node::http(&base)
            .unwrap()
            .info()
            .get_network_id(GetNetworkIdParams::new()),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(err, ClientError::Http { status: 503, .. }),
        "{err}"
    );
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn retry_after_is_waited_as_the_node_asks() {
    let (base, seen) = scripted("/ext/info", |k| match k {
        0 => (429, Some("1"), "null"),
        _ => (200, None, NETWORK),
    })
    .await;
    let node = retrying(&base, RetryPolicy::default());
    bounded(node.info().get_network_id(GetNetworkIdParams::new()))
        .await
        .unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2);
    let waited = seen[1].0 - seen[0].0;
    assert!(
        waited >= Duration::from_millis(950) && waited < Duration::from_secs(5),
        "waited {waited:?} for Retry-After: 1"
    );
}

#[tokio::test]
async fn retries_stop_at_the_attempts_and_at_the_time() {
    let (base, seen) = scripted("/ext/info", |_| (503, None, "null")).await;
    let policy = RetryPolicy::default()
        .max_attempts(3)
        .backoff(Duration::from_millis(1), Duration::from_millis(2));
    let err = bounded(
        retrying(&base, policy)
            .info()
            .get_network_id(GetNetworkIdParams::new()),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(err, ClientError::Http { status: 503, .. }),
        "{err}"
    );
    assert_eq!(seen.lock().unwrap().len(), 3);
    // A Retry-After past the time left ends the call at once, with the node's answer.
    let (base, seen) = scripted("/ext/info", |_| (429, Some("3600"), "null")).await;
    let started = Instant::now();
    let err = bounded(
        retrying(&base, RetryPolicy::default())
            .info()
            .get_network_id(GetNetworkIdParams::new()),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(err, ClientError::Http { status: 429, .. }),
        "{err}"
    );
    assert_eq!(seen.lock().unwrap().len(), 1);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn a_method_that_changes_state_is_never_sent_twice() {
    use avalanche_rpc::avm::{AvmClient, IssueTxParams};
    use avalanche_rpc::wire::HexBytes;
    let (base, seen) = scripted("/ext/bc/X", |_| (503, Some("0"), "null")).await;
    let policy = RetryPolicy::default().backoff(Duration::from_millis(1), Duration::from_millis(2));
    let node = retrying(&base, policy);
    let err = bounded(
        node.avm("X")
            .issue_tx(IssueTxParams::new(HexBytes::with_checksum(&[0; 8]))),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(err, ClientError::Http { status: 503, .. }),
        "{err}"
    );
    assert_eq!(seen.lock().unwrap().len(), 1, "issueTx was sent once");
    // A read on the same node is retried.
    let _ = bounded(
        node.avm("X")
            .get_height(avalanche_rpc::avm::GetHeightParams::new()),
    )
    .await;
    assert_eq!(seen.lock().unwrap().len(), 1 + 4);
}

#[tokio::test]
async fn custom_headers_arrive_on_every_request_and_are_never_shown() {
    let (base, seen) = scripted("/ext/info", |_| (200, None, NETWORK)).await;
    let transport = HttpTransport::builder(&base)
        .header("x-api-key", "k-0123456789")
        .header("x-tenant", "a")
        .header("x-tenant", "b")
        .build()
        .unwrap();
    assert!(!format!("{transport:?}").contains("k-0123456789"));
    let node = Node::new(transport);
    for _ in 0..2 {
        bounded(node.info().get_network_id(GetNetworkIdParams::new()))
            .await
            .unwrap();
    }
    for (_, headers) in seen.lock().unwrap().iter() {
        assert_eq!(headers["x-api-key"], "k-0123456789");
        let tenants: Vec<_> = headers.get_all("x-tenant").iter().collect();
        assert_eq!(tenants, ["a", "b"]);
    }
    // A value HTTP does not allow is refused, naming the header and not the value.
    let err = HttpTransport::builder(&base)
        .header("x-api-key", "line\nbreak-secret")
        .build()
        .unwrap_err()
        .to_string();
    assert!(err.contains("\"x-api-key\""), "{err}");
    assert!(!err.contains("secret"), "{err}");
    let err = HttpTransport::builder(&base)
        .header("bad header", "v")
        .build()
        .unwrap_err()
        .to_string();
    assert!(err.contains("invalid header name \"bad header\""), "{err}");
}

#[tokio::test]
async fn request_ids_increase_across_the_endpoints_of_a_transport() {
    let (base, _) = scripted("/ext/info", |_| (200, None, NETWORK)).await;
    let transport = HttpTransport::new(&base).unwrap();
    let node = Node::new(transport.clone());
    let first = transport.next_id();
    bounded(node.info().get_network_id(GetNetworkIdParams::new()))
        .await
        .unwrap();
    bounded(node.info().get_network_id(GetNetworkIdParams::new()))
        .await
        .unwrap();
    assert_eq!(
        transport.next_id(),
        first + 3,
        "two requests between, from any clone"
    );
}
