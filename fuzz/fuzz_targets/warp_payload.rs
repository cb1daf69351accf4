#![no_main]
//! Decodes `warp_payload::Payload` from arbitrary bytes: see the crate's checks.

avalanche_rpc_fuzz::target!(avalanche_rpc::codec::warp_payload::Payload);
