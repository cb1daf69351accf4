//! A node answering every method of every interface from the spec's examples, at the node's
//! own paths: `cargo run -p avalanche-rpc-examples --example serve [-- ADDR]` (default
//! 127.0.0.1:9650). A stand-in to develop a client against, until the devnet exists.

use avalanche_rpc::rpc::{ServerConfig, SpecExamples, serve};
use avalanche_rpc::{METHODS, avm, avm_static, index, info, platform, proposervm, wallet};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:9650".into());
    let s = SpecExamples;
    let mut router = axum::Router::new()
        .merge(info::router(s))
        .merge(platform::router(s))
        .merge(avm::router(s, "X"))
        .merge(avm_static::router(s))
        .merge(wallet::router(s, "X"))
        .merge(avalanche_rpc::avax::router(s, "C"))
        .merge(avalanche_rpc::eth::router(s, "C"));
    for (chain, kind) in [
        ("X", "tx"),
        ("X", "block"),
        ("X", "vtx"),
        ("P", "block"),
        ("C", "block"),
    ] {
        router = router.merge(index::router(s, chain, kind));
    }
    for chain in ["P", "X", "C"] {
        router = router.merge(proposervm::router(s, chain));
    }
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let addr = listener.local_addr()?;
    println!(
        "serving {} methods from the spec's examples on http://{addr}",
        METHODS.len()
    );
    println!("try: curl -s http://{addr}/ext/info -H 'content-type: application/json' \\");
    println!("       -d '{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"info.getNodeID\"}}'");
    println!("  or: cargo run -p avalanche-rpc-examples --example client -- http://{addr}");
    // The node's timeouts and a cap on open connections; `axum::serve` has neither.
    serve(listener, router, ServerConfig::default()).await
}
