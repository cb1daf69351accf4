//! The text of identifiers, computed once, and the order replies meet them in: the
//! process-wide state behind the `Display` and serde of [`Id`](crate::wire::Id),
//! [`NodeId`](crate::wire::NodeId), [`ShortId`](crate::wire::ShortId) and bech32
//! [`Address`](crate::wire::Address).
//!
//! - `key.rs`: the key of an identifier's text and the text, shared by the other two.
//! - `table.rs`: the cache, a fixed table from a key to its text.
//! - `trail.rs`: the (key, text) pairs of a method's last reply, in order, so that the next
//!   one reads the table in order (writing), or takes each identifier's bytes from the pair
//!   met last time (reading).
//!
//! The global switches, all here, each set once per process (the first call decides):
//!
//! - [`enable_text_cache`]: the table and the trails of the replies a server writes. Only
//!   the server turns it on: [`rpc::serve`](crate::rpc::serve) calls it with
//!   [`ServerConfig::text_cache_entries`](crate::rpc::ServerConfig::text_cache_entries)
//!   (0 leaves it off). A client never does, and its output is the same with it on or off.
//! - [`limit_read_trails`]: the trails of the large replies a client reads, with a budget of
//!   their own and no table behind them ([`DEFAULT_READ_PAIRS`] unless the client asks for
//!   another; 0 turns them off). The server's switch does not touch it.
#![cfg_attr(
    not(any(feature = "server", feature = "client")),
    allow(unused_imports)
)]

mod key;
mod table;
mod trail;

pub(crate) use key::{KEY_BYTES, Text};
pub(crate) use table::text_of_padded;
#[cfg(feature = "server")]
pub(crate) use trail::Trails;
#[cfg(feature = "client")]
pub(crate) use trail::while_reading;
pub use trail::{DEFAULT_READ_PAIRS, limit_read_trails};
pub(crate) use trail::{key_of, remember};

/// Turns the text cache on with room for `entries` texts (rounded up to a power of two, at
/// least 4; 128 bytes each), allocated and written now (so its memory counts from the
/// start), and lets the server's replies keep trails of up to `entries` (key, text) pairs in
/// all (about 128 bytes each, taken as replies need them; see `trail.rs`). The first
/// call decides the sizes; later calls change nothing. Returns the number of entries.
pub fn enable_text_cache(entries: usize) -> usize {
    // The trails get as many pairs as the table holds entries, once rounded.
    table::allocate(entries, trail::set_budget)
}

/// Whether the cache is on.
pub fn text_cache_enabled() -> bool {
    table::allocated()
}

/// The entries the cache holds by default, in 4 MiB: room for the IDs, node IDs and reward
/// addresses of several thousand validators with few collisions (about 10,000 keys fill a
/// quarter of it; a set overflows for under 1 % of them).
pub const DEFAULT_ENTRIES: usize = 32_768;
