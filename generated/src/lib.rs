//! Typed bindings for the Avalanche node JSON-RPC API, generated at build time from the YAML
//! spec in `spec/`.
//!
//! - [`wire`]: one type per wire scalar (`U64` as a decimal string, cb58 `Id`, `NodeId`,
//!   `Address`, checksummed hex, RFC 3339 `Timestamp`, …).
//! - One module per interface ([`info`], [`platform`], [`avm`], [`avm_static`], [`wallet`],
//!   [`index`], [`proposervm`]), each with its params and result types, a client trait with its
//!   implementation (`InfoClient`, `InfoEndpoint`), a server trait (`InfoServer`) and a
//!   `router` that mounts it on axum; [`types`] holds the shapes they share.
//! - [`rpc`]: the runtime: JSON-RPC envelope and errors, [`rpc::Node`], transports, the
//!   server, and [`rpc::SpecExamples`], a server answering from the spec's examples.
//!
//! Run `cargo run -p avalanche-rpc-codegen -- rust --out bindings.rs` to read the generated
//! code.

pub mod rpc;
pub mod wire;

#[doc(hidden)]
pub use rpc::__private;

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
