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
#[cfg(test)]
mod test_rng;
pub(crate) mod text;
mod text_cache;
mod text_trail;
mod time;

pub use address::Address;
pub use encoding::Encoding;
pub use error::WireError;
pub use evm_address::EvmAddress;
pub use height::Height;
pub use hex::{HexBytes, HexOrJson};
pub use ids::{Id, NodeId, ShortId, cb58_decode, cb58_encode};
pub use numbers::{Percent, U8, U16, U32, U64};
pub use serde_json::Value;
pub use text_cache::{
    DEFAULT_ENTRIES as TEXT_CACHE_ENTRIES, enable_text_cache, text_cache_enabled,
};
#[cfg(feature = "server")]
pub(crate) use text_trail::Trails;
#[cfg(feature = "client")]
pub(crate) use text_trail::while_reading;
pub use text_trail::{DEFAULT_READ_PAIRS, limit_read_trails};
pub use time::Timestamp;
