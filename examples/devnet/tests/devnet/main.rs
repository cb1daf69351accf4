//! The devnet's end-to-end tests: one module per concern, all in one test binary, so that the
//! crate's dependencies are linked once rather than once per file. Run one concern with
//! `cargo test -p avalanche-devnet --test devnet subnets::`.

// The tests call the deprecated methods too: every method of the spec is served.
#![allow(deprecated)]

mod common;

mod atomic;
mod cchain;

mod context;
mod control;
mod crash;
mod genesis;
mod health_admin;
mod helicon;
mod history;
mod mempool;
mod methods;
mod networks;
mod nft;
mod node;
mod paging;
mod pchain;
mod staking;
mod storage;
mod subnets;
mod tampered;
mod xchain;
