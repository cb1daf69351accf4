//! Wire scalars: one type per entry of `spec/wire-types.yaml`.
//!
//! Each type reads what the node accepts and writes what the node writes; parse failures are
//! [`WireError`]s naming the kind of value, the input and the reason.

mod address;
pub(crate) mod ascii;
mod base58;
mod bech32_fast;
mod encoding;
mod error;
mod evm_address;
mod height;
mod hex;
mod ids;
mod numbers;
mod quantity;
#[cfg(test)]
mod test_rng;
pub(crate) mod text;
mod time;

pub use address::Address;
pub use encoding::Encoding;
pub use error::WireError;
pub use evm_address::EvmAddress;
pub use height::Height;
pub use hex::{HexBytes, HexOrJson};
pub use ids::{Id, NodeId, ShortId, cb58_decode, cb58_encode};
pub use numbers::{Percent, U8, U16, U32, U64};
pub use quantity::Quantity;
pub use serde_json::Value;
// The text cache's switches keep their paths here.
pub use crate::text_cache::{
    DEFAULT_ENTRIES as TEXT_CACHE_ENTRIES, DEFAULT_READ_PAIRS, enable_text_cache,
    limit_read_trails, text_cache_enabled,
};
pub use time::Timestamp;
