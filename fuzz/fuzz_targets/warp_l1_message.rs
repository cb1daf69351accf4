#![no_main]
//! Decodes `warp_l1::L1Message` from arbitrary bytes: see the crate's checks.

avalanche_rpc_fuzz::target!(avalanche_rpc::codec::warp_l1::L1Message);
