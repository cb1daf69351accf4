//! A node serving every interface from the spec's examples, on 127.0.0.1.

#![allow(dead_code)]

use avalanche_rpc::rpc::{Node, ServeConfig, SpecExamples};
use avalanche_rpc::{avm, avm_static, index, info, platform, proposervm, wallet};

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
        .merge(wallet::router(s, "X"));
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
    serve_with(router, ServeConfig::default()).await
}

/// Serves `router` on an ephemeral 127.0.0.1 port with `config`; returns the base URL.
pub async fn serve_with(router: axum::Router, config: ServeConfig) -> String {
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
