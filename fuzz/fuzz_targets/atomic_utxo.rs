#![no_main]
//! Decodes `atomic::Utxo` (the C-chain's shared-memory UTXOs) from arbitrary bytes: see the
//! crate's checks.

avalanche_rpc_fuzz::target!(avalanche_rpc::codec::atomic::Utxo);
