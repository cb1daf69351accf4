#![no_main]
//! Decodes `platform::Genesis` from arbitrary bytes: see the crate's checks.

avalanche_rpc_fuzz::target!(avalanche_rpc::codec::platform::Genesis);
