//! Values the API carries as bytes (`encoding: hex`, `hexc`, `hexnc`) or in their JSON form
//! (`encoding: json`), read into the codec's types with one call: the generated `…_decoded`
//! accessors of results call these.

use super::{DecodeError, FromJson, JsonError};
use crate::wire::{Encoding, HexBytes, HexOrJson, WireError};

/// A value that travels on its own: it reads from its bytes (codec version, the value, nothing
/// after it) and from the node's JSON form.
pub trait Root: Sized + FromJson + super::ToJson {
    /// Reads the value from its bytes.
    fn decode_root(bytes: &[u8]) -> Result<Self, DecodeError>;

    /// Its bytes: the codec version, then the value.
    fn encode_root(&self) -> Result<Vec<u8>, super::RuleError>;
}

/// Why a value the API carries does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ContainerError {
    /// The hex's checksum is wrong (encodings `hex` and `hexc`).
    #[error("{0}")]
    Checksum(WireError),
    /// The bytes are not a value of the type.
    #[error("the bytes do not decode: {0}")]
    Bytes(DecodeError),
    /// The JSON is not the node's form of a value of the type.
    #[error("the JSON form does not read: {0}")]
    Json(JsonError),
    /// An element of a list does not read.
    #[error("element {index}: {error}")]
    Element {
        /// Its position.
        index: usize,
        /// Why.
        error: Box<ContainerError>,
    },
}

/// The value in hex bytes: with a checksum unless `encoding` is `hexnc`.
pub fn from_hex<T: Root>(h: &HexBytes, encoding: Option<&Encoding>) -> Result<T, ContainerError> {
    let bytes = match encoding {
        Some(Encoding::HexNc) => h.0.as_slice(),
        _ => h.strip_checksum().map_err(ContainerError::Checksum)?,
    };
    T::decode_root(bytes).map_err(ContainerError::Bytes)
}

/// The value in hex bytes or in its JSON form.
pub fn from_hex_or_json<T: Root>(
    v: &HexOrJson,
    encoding: Option<&Encoding>,
) -> Result<T, ContainerError> {
    match v {
        HexOrJson::Hex(h) => from_hex(h, encoding),
        HexOrJson::Json(j) => T::from_json(j, None).map_err(ContainerError::Json),
    }
}

/// Each element read by `read`; a failure names the element.
pub fn each<V, T>(
    items: &[V],
    mut read: impl FnMut(&V) -> Result<T, ContainerError>,
) -> Result<Vec<T>, ContainerError> {
    items
        .iter()
        .enumerate()
        .map(|(index, v)| {
            read(v).map_err(|e| ContainerError::Element {
                index,
                error: Box::new(e),
            })
        })
        .collect()
}
