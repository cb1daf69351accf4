#![no_main]
//! Decodes `platform::Block` from arbitrary bytes: see the crate's checks.

avalanche_rpc_fuzz::target!(avalanche_rpc::codec::platform::Block);
