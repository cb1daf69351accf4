//! A local Avalanche node for developers: every API method answered from real, consistent
//! state, built by implementing the generated server traits of `avalanche-rpc`.
//!
//! Layers: [`store`] (redb tables) ← [`xchain`] (state, verification) and [`index`] ←
//! [`devnet`] (genesis, mempool, blocks: the one acceptance path) ← [`rpc`] (the generated
//! traits, nothing else). `main.rs` reads flags and serves.

pub mod activity;
pub mod clock;
pub mod control;
pub mod devnet;
pub mod genesis;
pub mod genesis_file;
pub mod http;
pub mod index;
pub mod ledger;
pub mod mempool;
pub mod network;
pub mod pchain;
pub mod proposer;
pub mod rpc;
pub mod secp;
pub mod store;
pub mod wallet;
pub mod xchain;

pub use devnet::{Devnet, Options, StartError};

/// The whole HTTP API: every interface behind the host and CORS checks.
pub fn app(devnet: std::sync::Arc<Devnet>, public: bool, gate: http::Gate) -> axum::Router {
    let gate = std::sync::Arc::new(gate);
    rpc::router(devnet, public).layer(axum::middleware::from_fn(move |req, next| {
        http::gate(gate.clone(), req, next)
    }))
}
