//! A local Avalanche node for developers: every API method answered from real, consistent
//! state, built by implementing the generated server traits of `avalanche-rpc`.
//!
//! Layers, each importing only those before it: [`store`] (redb tables), [`ledger`],
//! [`index`], [`proposer`] ← [`engine`] (the one acceptance path: admission, mempools, block
//! building, the block tail; a chain plugs in through [`engine::Vm`]) ← [`xchain`],
//! [`pchain`], [`cchain`] (each chain's state, verification and VM; the C-chain's atomic
//! side only) ← [`view`] (the read side) ← [`devnet`] (opening the store,
//! the three chains on the engine) ← [`context`] (the devnet as `avalanche_rpc::transact`'s
//! builders see it) ← [`control`], [`activity`], [`rpc`] (the generated traits, nothing
//! else). `main.rs` reads flags and serves.

pub mod activity;
pub mod cchain;
pub mod clock;
pub mod context;
pub mod control;
pub mod devnet;
pub mod duration;
pub mod engine;
pub mod flow;
pub mod genesis;
pub mod genesis_file;
pub mod health;
pub mod http;
pub mod index;
pub mod ledger;
pub mod logs;

pub mod network;
pub mod os;
pub mod pchain;
pub mod proposer;
pub mod refusal;
pub mod rpc;
pub mod secp;
pub mod serving;
pub mod store;
pub mod upgrade;
pub mod view;
pub mod xchain;

pub use devnet::{Devnet, LEAD, Options, StartError};

/// The whole HTTP API of a started devnet, as the tests and benchmarks serve it: every
/// interface behind the host and CORS checks, health and admin included (as with
/// `--api-admin-enabled`; `getConfig` gives its options), the loggers at INFO (printing).
/// The binary serves [`serving_app`], from before the start and admin only when asked.
pub fn app(devnet: std::sync::Arc<Devnet>, public: bool, gate: http::Gate) -> axum::Router {
    let info = logs::Levels {
        log: logs::Level::Info,
        display: logs::Level::Info,
    };
    let o = &devnet.options;
    let config = serde_json::json!({
        "networkID": o.network_id,
        "dbDir": o.db_dir,
        "indexEnabled": o.index_enabled,
        "indexAllowIncomplete": o.index_allow_incomplete,
        "stakingPort": o.staking_port,
        "genesisFile": o.genesis.is_some(),
        "mempoolBytes": o.mempool_bytes,
        "dbCacheBytes": o.db_cache_bytes,
        "pChainLead": o.p_chain_lead,
        "public": public,
        "apiAdminEnabled": true,
    });
    let serving = std::sync::Arc::new(serving::Serving::new(
        std::sync::Arc::new(logs::Logs::new(info, None)),
        Some(config),
    ));
    serving.started(devnet.clone(), rpc::router(devnet, public));
    serving_app(serving, gate)
}

/// The whole HTTP API across the devnet's start (see [`serving`]): health from the first
/// moment, admin when its configuration is given, every other interface once
/// [`serving::Serving::started`].
pub fn serving_app(serving: std::sync::Arc<serving::Serving>, gate: http::Gate) -> axum::Router {
    let mut inner = rpc::health_router(serving.clone());
    if serving.admin.is_some() {
        inner = inner.merge(rpc::admin_router(serving.clone()));
    }
    serving::app(serving, inner, gate)
}

/// Serves `devnet` with the crate's hardened server on an ephemeral port of 127.0.0.1, every
/// host and origin allowed, as the benchmarks do: its URL and the server's task.
pub async fn serve_ephemeral(
    devnet: std::sync::Arc<Devnet>,
) -> std::io::Result<(String, tokio::task::JoinHandle<()>)> {
    let gate = http::Gate {
        hosts: vec!["*".into()],
        origins: vec!["*".into()],
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let app = app(devnet, false, gate);
    let server = tokio::spawn(async move {
        let _ = avalanche_rpc::rpc::serve(listener, app, Default::default()).await;
    });
    Ok((url, server))
}
