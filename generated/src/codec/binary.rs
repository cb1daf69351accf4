//! The binary form's traits ([`Encode`], [`Decode`], [`Verify`]) and the frame of a value
//! that travels on its own (codec version, value, nothing after it, a size limit).

use super::error::{DecodeError, DecodeProblem, RuleError};
use super::read::Reader;
use super::write::Writer;

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
