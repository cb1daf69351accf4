#![no_main]
//! Decodes `platform::TransferableOutput` (a `getStake` staked output) from arbitrary bytes:
//! see the crate's checks.

avalanche_rpc_fuzz::target!(avalanche_rpc::codec::platform::TransferableOutput);
