//! A node serving every interface from the spec's examples, on 127.0.0.1.

#![allow(dead_code)]

use avalanche_rpc::rpc::{Node, ServerConfig, SpecExamples};
use avalanche_rpc::{avm, avm_static, index, info, platform, proposervm, wallet};
use axum::response::IntoResponse;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The index paths the node serves.
pub const INDEXES: [(&str, &str); 5] = [
    ("X", "tx"),
    ("X", "block"),
    ("X", "vtx"),
    ("P", "block"),
    ("C", "block"),
];

/// The chains whose proposer VM interface the node serves here (every chain, on a real node).
pub const PROPOSERVM_CHAINS: [&str; 3] = ["P", "X", "C"];

/// Every interface at the node's paths, answered by [`SpecExamples`].
pub fn router() -> axum::Router {
    let s = SpecExamples;
    let mut r = axum::Router::new()
        .merge(info::router(s))
        .merge(platform::router(s))
        .merge(avm::router(s, "X"))
        .merge(avm_static::router(s))
        .merge(avalanche_rpc::devnet::router(s))
        .merge(wallet::router(s, "X"))
        .merge(avalanche_rpc::avax::router(s, "C"))
        .merge(avalanche_rpc::eth::router(s, "C"))
        .merge(avalanche_rpc::health::router(s))
        .merge(avalanche_rpc::admin::router(s));
    for (chain, kind) in INDEXES {
        r = r.merge(index::router(s, chain, kind));
    }
    for chain in PROPOSERVM_CHAINS {
        r = r.merge(proposervm::router(s, chain));
    }
    r
}

/// Serves `router` on an ephemeral 127.0.0.1 port with the default config; returns the base
/// URL.
pub async fn serve(router: axum::Router) -> String {
    serve_with(router, ServerConfig::default()).await
}

/// Serves `router` on an ephemeral 127.0.0.1 port with `config`; returns the base URL.
pub async fn serve_with(router: axum::Router, config: ServerConfig) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1");
    let addr = listener.local_addr().expect("local addr");
    tokio::spawn(async move {
        avalanche_rpc::rpc::serve(listener, router, config)
            .await
            .expect("serve");
    });
    format!("http://{addr}")
}

/// A client of the spec-example node.
pub async fn node() -> (Node, String) {
    let base = serve(router()).await;
    (Node::http(&base).expect("client"), base)
}

/// What a scripted server saw of each request: when it came and its headers.
pub type Seen = Arc<Mutex<Vec<(Instant, axum::http::HeaderMap)>>>;

/// A server at `path` answering its `k`th request (from 0) as `script(k)` says: a status, a
/// `Retry-After` if any, and a result (the reply then carries the request's id).
pub async fn scripted(
    path: &'static str,
    script: fn(usize) -> (u16, Option<&'static str>, &'static str),
) -> (String, Seen) {
    let seen: Seen = Arc::default();
    let log = seen.clone();
    let answer = move |headers: axum::http::HeaderMap, body: axum::body::Bytes| {
        let log = log.clone();
        async move {
            let k = {
                let mut log = log.lock().unwrap();
                log.push((Instant::now(), headers));
                log.len() - 1
            };
            let (status, retry_after, result) = script(k);
            let id: serde_json::Value = serde_json::from_slice::<serde_json::Value>(&body)
                .map(|v| v["id"].clone())
                .unwrap_or_default();
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#);
            let mut r = (axum::http::StatusCode::from_u16(status).unwrap(), body).into_response();
            if let Some(after) = retry_after {
                r.headers_mut()
                    .insert(axum::http::header::RETRY_AFTER, after.parse().unwrap());
            }
            r
        }
    };
    let router = axum::Router::new().route(path, axum::routing::post(answer));
    (serve(router).await, seen)
}
