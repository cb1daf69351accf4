#![no_main]
//! Decodes `warp::SubnetToL1ConversionData` from arbitrary bytes: see the crate's checks.

avalanche_rpc_fuzz::target!(avalanche_rpc::codec::warp::SubnetToL1ConversionData);
