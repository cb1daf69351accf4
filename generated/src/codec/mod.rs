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

pub mod container;
mod error;
pub mod json;
mod primitives;
mod read;
pub mod rules;
mod write;

pub use container::{ContainerError, Root};
pub use error::{DecodeError, DecodeProblem, FieldPath, RuleError, RuleProblem, Step};
pub use json::{
    FromJson, FromJsonMembers, JsonContext, JsonError, JsonMembers, OldestJson, ToJson,
};
pub use read::Reader;
pub use rules::Order;
pub use write::Writer;

/// Writes a value in the node's binary format (without the codec version).
pub trait Encode {
    /// Appends the value's bytes; a value over the codec's limits (a list, string or bytes
    /// too long for its length prefix) is a [`RuleError`] naming the field.
    fn encode(&self, w: &mut Writer) -> Result<(), RuleError>;
}

/// Reads a value in the node's binary format (without the codec version).
pub trait Decode: Sized {
    /// Reads one value.
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError>;
}

/// Checks the rules the node enforces on a value beyond its layout (its syntactic
/// verification): sorted and unique inputs, outputs, addresses and signature indices,
/// bounds, maximum lengths. Decoding does not check them, as the node's codec does not: its
/// own test vectors include values its VM refuses.
pub trait Verify {
    /// The first rule the value breaks, with the field that breaks it.
    fn verify(&self) -> Result<(), RuleError>;
}

/// `bytes` as a value that travels on its own: at most `max_size` bytes, the 2-byte codec
/// `version`, the value, nothing after it.
pub fn from_framed<T: Decode>(
    bytes: &[u8],
    version: u16,
    max_size: usize,
) -> Result<T, DecodeError> {
    if bytes.len() > max_size {
        return Err(DecodeError::new(
            0,
            format!(
                "{} bytes exceed the codec's limit of {max_size}",
                bytes.len()
            ),
        ));
    }
    let mut r = Reader::new(bytes);
    let found = r.u16().map_err(|_| {
        DecodeError::new(0, "too short for the 2-byte codec version").of_kind(DecodeProblem::Short)
    })?;
    if found != version {
        return Err(
            DecodeError::new(0, format!("unknown codec version {found}"))
                .of_kind(DecodeProblem::Version(found)),
        );
    }
    let value = T::decode(&mut r)?;
    r.finish()?;
    Ok(value)
}

/// `value` as it travels on its own: the codec `version`, then the value, at most `max_size`
/// bytes in all.
pub fn to_framed<T: Encode>(
    value: &T,
    version: u16,
    max_size: usize,
) -> Result<Vec<u8>, RuleError> {
    let mut w = Writer::new();
    w.u16(version);
    value.encode(&mut w)?;
    if w.len() > max_size {
        return Err(RuleError::new(format!(
            "{} bytes exceed the codec's limit of {max_size}",
            w.len()
        )));
    }
    Ok(w.into_bytes())
}

include!(concat!(env!("OUT_DIR"), "/codec.rs"));
