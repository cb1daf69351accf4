//! Typed bindings for the Avalanche node JSON-RPC API, generated at build time from the YAML
//! spec in `spec/`.
//!
//! - [`wire`]: one type per wire scalar (`U64` as a decimal string, cb58 `Id`, `NodeId`,
//!   `Address`, checksummed hex, RFC 3339 `Timestamp`, …).
//! - One module per interface ([`info`], [`platform`], [`avm`], [`avm_static`], [`wallet`],
//!   [`index`], [`proposervm`]), each with its params and result types, a client trait with its
//!   implementation (`InfoClient`, `InfoEndpoint`), a server trait (`InfoServer`) and a
//!   `router` that mounts it on axum; [`types`] holds the shapes they share.
//! - [`codec`]: transactions, UTXOs, blocks, genesis and Warp messages in the node's binary
//!   format (`avm::Tx::from_bytes`, `platform::Block::from_bytes`, …), generated from the
//!   layouts in `spec/codec/`, with the node's rules (`Verify`).
//! - `bls` (feature `bls`): BLS12-381 keys, proofs of possession and signatures as the
//!   node's validators use them.
//! - `keys` (feature `keys`): secp256k1 private and public keys, addresses, signing and
//!   public key recovery as the node does them.
//! - `transact` (feature `transact`): a wallet: keys, a context read from a node, builders
//!   of every X- and P-chain transaction (UTXOs chosen as AvalancheJS chooses them, the
//!   node's fees), signing (also partial), issuing and waiting for acceptance.
//! - [`network`]: the networks the node names (IDs, names, address HRPs) and the primary
//!   network's chain aliases, one table each.
//! - [`rpc`]: the runtime: JSON-RPC envelope and errors, [`rpc::Node`], transports, the
//!   server, and [`rpc::SpecExamples`], a server answering from the spec's examples.
//!
//! Run `cargo run -p avalanche-rpc-codegen -- rust --out bindings.rs` to read the generated
//! code.
//!
//! # Build-time settings
//!
//! Two environment variables, read when the crate is built:
//!
//! - `AVALANCHE_RPC_NODE_VERSION` (e.g. `v1.10.0`): bindings for that node version only. The
//!   methods, params and members it did not serve (`since` newer than it, or `removed` at or
//!   before it in the spec) are absent, so a call to one of them does not compile. Unset: every
//!   version the spec describes, from `oldest-supported` on, each method and member with its
//!   versions in its docs.
//! - `AVALANCHE_RPC_SPEC_DIR`: build from another spec folder than the one in the package.

// On docs.rs (built with `--cfg docsrs` on nightly, `[package.metadata.docs.rs]`), every item
// behind a feature is labelled with it: `doc_cfg` does it by itself since it took in
// `doc_auto_cfg`. Stable builds never see the attribute.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "bls")]
pub mod bls;
pub mod codec;
#[cfg(feature = "keys")]
pub mod keys;
pub mod network;
pub mod rpc;
mod text_cache;
#[cfg(feature = "transact")]
pub mod transact;
pub mod wire;

#[doc(hidden)]
pub use rpc::__private;

/// The spec's combined OpenRPC document (JSON), for the node version and spec folder the
/// crate was built with (see [Build-time settings](crate#build-time-settings)): the methods,
/// params and results the bindings have, as a document other tools read. The `avax-rpc` tool
/// checks nodes against it. Feature `openrpc`.
#[cfg(feature = "openrpc")]
pub const OPENRPC: &str = include_str!(concat!(env!("OUT_DIR"), "/openrpc.json"));

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
