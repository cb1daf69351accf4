//! Transactions, UTXOs, blocks, genesis and Warp messages in the node's binary format,
//! generated from the layouts in `spec/codec/`.
//!
//! One module per package of the node holds its types that every codec shares
//! ([`secp256k1fx`], [`nftfx`], [`propertyfx`], [`avax`], …); one module per codec holds the
//! types whose form depends on the codec ([`avm`] for the X-chain, [`platform`] for the
//! P-chain, …): the interface slots as enums, one variant per type the codec allows there,
//! and the structs that hold a slot. A slot enum names its value's type (`type_name()`,
//! `type_id()`) and reads the members two or more of its types share with one layout
//! through a method named after the member (`platform::UnsignedTx::base()`): `&T` when every
//! type has it, `Option<&T>` when only some do. The values that travel on their own (a signed
//! transaction, a block, a UTXO, a genesis) have `from_bytes` and `to_bytes`: the 2-byte codec
//! version, the value, nothing after it, within the codec's size limit.
//!
//! Decoding never panics and never allocates more than the input justifies: every length is
//! checked against the bytes left first; an error names the byte offset and the field path.
//! Like the node's codec, decoding and encoding check the layout and the codec's limits only;
//! [`Verify`] checks the rules the node enforces on top (sorted and unique inputs, outputs
//! and signature indices, bounds, maximum lengths), naming the field that breaks one. So a
//! test can build, encode and decode a value the node would refuse.
//!
//! ```
//! use avalanche_rpc::codec::{Verify, platform};
//!
//! fn inspect(bytes: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
//!     let tx = platform::Tx::from_bytes(bytes)?; // codec version, layout, size limit
//!     tx.verify()?; // the node's rules: sorted unique inputs, bounds, lengths
//!     println!("a {}", tx.unsigned.type_name()); // "AdvanceTimeTx"
//!     if let Some(base) = tx.unsigned.base() {
//!         println!("{} outputs", base.outputs.len()); // the kinds with common fields
//!     }
//!     assert_eq!(tx.to_bytes()?, bytes);
//!     Ok(())
//! }
//! // An AdvanceTimeTx: codec version 0, type ID 19, the time, no credentials.
//! let bytes = [0, 0, 0, 0, 0, 19, 0, 0, 0, 0, 0x66, 0xa5, 0x6f, 0xe7, 0, 0, 0, 0];
//! inspect(&bytes).unwrap();
//! ```

mod binary;
pub mod container;
mod error;
pub mod json;
mod primitives;
mod read;
pub mod rules;
mod write;

pub use binary::{Decode, Encode, Verify, from_framed, to_framed};
pub use container::{ContainerError, Root};
pub use error::{DecodeError, DecodeProblem, FieldPath, RuleError, RuleProblem, Step};
pub use json::{
    FromJson, FromJsonMembers, JsonContext, JsonError, JsonMembers, OldestJson, ToJson,
};
pub use read::Reader;
pub use rules::Order;
pub use write::Writer;

include!(concat!(env!("OUT_DIR"), "/codec.rs"));
