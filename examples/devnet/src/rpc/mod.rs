//! The RPC layer: nothing but implementations of the generated server traits, each method
//! reading the devnet's state or handing a transaction to it. `router` mounts them at the
//! node's paths.

mod avm;
mod index;
mod info;
mod wallet;

pub use info::NODE_VERSION;

use crate::devnet::Devnet;
use crate::store::StoreError;
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::wire::{Address, Encoding, HexBytes};
use std::sync::Arc;

/// Every interface the devnet serves, at the node's paths.
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
        .merge(avalanche_rpc::info::router(info::Info {
            devnet: devnet.clone(),
            public,
        }));
    if devnet.options.index_enabled {
        for kind in crate::index::Kind::ALL {
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

/// A storage failure, as the node reports a database error.
fn internal(e: StoreError) -> RpcError {
    RpcError::server(e.to_string())
}

/// Bytes in a byte encoding (`json` refused as the node does).
fn encode(encoding: Encoding, bytes: &[u8]) -> Result<HexBytes, RpcError> {
    encoding
        .encode(bytes)
        .map_err(|e| RpcError::invalid_params("encoding", e.to_string()))
}

/// An X-chain address of this network (`X-local1…`), or its 20 bytes as raw cb58.
fn x_address(devnet: &Devnet, field: &str, a: &Address) -> Result<[u8; 20], RpcError> {
    check_address(
        devnet,
        field,
        a,
        &["X", "avm", &devnet.genesis.x_chain_id.to_string()],
    )
}

fn check_address(
    devnet: &Devnet,
    field: &str,
    a: &Address,
    aliases: &[&str],
) -> Result<[u8; 20], RpcError> {
    let hrp = crate::genesis::hrp(devnet.options.network_id);
    if let Some(chain) = a.chain()
        && !aliases.contains(&chain)
    {
        return Err(RpcError::invalid_params(
            field,
            format!(
                "couldn't parse address \"{a}\": the chain `{chain}` is not this chain (`{}`)",
                aliases[0]
            ),
        ));
    }
    if let Some(h) = a.hrp()
        && h != hrp
    {
        return Err(RpcError::invalid_params(
            field,
            format!("couldn't parse address \"{a}\": expected hrp \"{hrp}\" but got \"{h}\""),
        ));
    }
    Ok(a.payload())
}

/// The chain-qualified form of an address.
fn format_address(devnet: &Devnet, chain: &str, payload: [u8; 20]) -> String {
    Address::new(
        Some(chain),
        &crate::genesis::hrp(devnet.options.network_id),
        payload,
    )
    .map(|a| a.to_string())
    .unwrap_or_default()
}
