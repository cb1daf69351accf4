//! The RPC layer: nothing but implementations of the generated server traits, each method
//! reading the devnet's state or handing a transaction to it. `router` mounts them at the
//! node's paths.

mod admin;
mod avax;
mod avm;
mod avm_static;
mod common;
mod devnet;
mod error;
mod eth;
mod health;
mod index;
mod info;
mod platform;
mod proposervm;
mod wallet;

pub use info::NODE_VERSION;

use crate::devnet::Devnet;
use crate::ledger::Chain;
use std::sync::Arc;

/// `health.*` at its paths, with their GET forms: served from the devnet's first moment.
pub fn health_router(serving: Arc<crate::serving::Serving>) -> axum::Router {
    health::router(serving)
}

/// `admin.*` at `/ext/admin` (mounted only with `--api-admin-enabled`).
pub fn admin_router(serving: Arc<crate::serving::Serving>) -> axum::Router {
    avalanche_rpc::admin::router(admin::Admin(serving))
}

/// Every interface the devnet serves once started but health and admin, at the node's paths.
pub fn router(devnet: Arc<Devnet>, public: bool) -> axum::Router {
    let x = avm::XChain(devnet.clone());
    let x_id = devnet.genesis.x_chain_id.to_string();
    let mut r = axum::Router::new()
        .merge(avalanche_rpc::avm::router(x.clone(), "X"))
        .merge(avalanche_rpc::avm::router(x, &x_id))
        .merge(avalanche_rpc::wallet::router(
            wallet::Wallet(devnet.clone()),
            "X",
        ))
        .merge(avalanche_rpc::avm_static::router(avm_static::AvmStatic))
        .merge(avalanche_rpc::devnet::router(devnet::Control(
            devnet.clone(),
        )))
        .merge(avalanche_rpc::platform::router(platform::PChain(
            devnet.clone(),
        )))
        .merge(avalanche_rpc::info::router(info::Info {
            devnet: devnet.clone(),
            public,
        }));
    // The C-chain's atomic side, at its alias and its ID.
    let c_id = devnet.genesis.c_chain_id.to_string();
    for alias in ["C", c_id.as_str()] {
        r = r
            .merge(avalanche_rpc::avax::router(
                avax::CChain(devnet.clone()),
                alias,
            ))
            .merge(avalanche_rpc::eth::router(eth::Eth(devnet.clone()), alias));
    }
    for (chain, alias) in [(Chain::X, "X"), (Chain::P, "P"), (Chain::C, "C")] {
        let server = proposervm::Proposer {
            devnet: devnet.clone(),
            chain,
        };
        r = r.merge(avalanche_rpc::proposervm::router(server, alias));
    }
    if devnet.options.index_enabled {
        for kind in crate::index::IndexKind::ALL {
            let (chain, k) = kind.path();
            r = r.merge(avalanche_rpc::index::router(
                index::Index {
                    devnet: devnet.clone(),
                    kind,
                },
                chain,
                k,
            ));
        }
    }
    r
}
