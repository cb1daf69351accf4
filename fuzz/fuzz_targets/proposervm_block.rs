#![no_main]
//! Decodes `proposervm::Block` from arbitrary bytes: see the crate's checks.

avalanche_rpc_fuzz::target!(avalanche_rpc::codec::proposervm::Block);
