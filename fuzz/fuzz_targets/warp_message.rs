#![no_main]
//! Decodes `warp::Message` from arbitrary bytes: see the crate's checks.

avalanche_rpc_fuzz::target!(avalanche_rpc::codec::warp::Message);
