//! Reading the node's binary format: big-endian integers, fixed and length-prefixed bytes,
//! lists, with every length checked against the bytes left before anything is allocated.

use super::error::{DecodeError, DecodeProblem, Step};
use crate::wire::{EvmAddress, Id, NodeId, ShortId};

/// A cursor over the input.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the first byte of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    /// How many bytes have been read.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// How many bytes are left.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// An error at the current offset.
    pub fn error(&self, reason: impl Into<String>) -> DecodeError {
        DecodeError::new(self.pos, reason)
    }

    /// Fails unless every byte was read.
    pub fn finish(&self) -> Result<(), DecodeError> {
        match self.remaining() {
            0 => Ok(()),
            n => Err(self
                .error(format!("{n} byte(s) after the end of the value"))
                .of_kind(DecodeProblem::Trailing)),
        }
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], DecodeError> {
        if n > self.remaining() {
            return Err(self
                .error(format!(
                    "{what} needs {n} byte(s), {} left",
                    self.remaining()
                ))
                .of_kind(DecodeProblem::Short));
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// Exactly `N` bytes.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, "the value")?);
        Ok(out)
    }

    /// A big-endian `u8`.
    pub fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.array::<1>()?[0])
    }

    /// A big-endian `u16`.
    pub fn u16(&mut self) -> Result<u16, DecodeError> {
        self.array().map(u16::from_be_bytes)
    }

    /// A big-endian `u32`.
    pub fn u32(&mut self) -> Result<u32, DecodeError> {
        self.array().map(u32::from_be_bytes)
    }

    /// A big-endian `u64`.
    pub fn u64(&mut self) -> Result<u64, DecodeError> {
        self.array().map(u64::from_be_bytes)
    }

    /// A big-endian two's-complement `i64`.
    pub fn i64(&mut self) -> Result<i64, DecodeError> {
        self.array().map(i64::from_be_bytes)
    }

    /// One byte, `00` (false) or `01` (true).
    pub fn bool(&mut self) -> Result<bool, DecodeError> {
        let at = self.pos;
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(DecodeError::new(
                at,
                format!("a bool is 00 or 01, not {b:02x}"),
            )),
        }
    }

    /// A 32-byte ID.
    pub fn id(&mut self) -> Result<Id, DecodeError> {
        self.array().map(Id::new)
    }

    /// A 20-byte short ID (an address).
    pub fn short_id(&mut self) -> Result<ShortId, DecodeError> {
        self.array().map(ShortId::new)
    }

    /// A 20-byte node ID.
    pub fn node_id(&mut self) -> Result<NodeId, DecodeError> {
        self.array().map(NodeId::new)
    }

    /// A 20-byte EVM address.
    pub fn evm_address(&mut self) -> Result<EvmAddress, DecodeError> {
        self.array().map(EvmAddress::new)
    }

    /// A `u32` length, then that many bytes.
    pub fn bytes(&mut self) -> Result<Vec<u8>, DecodeError> {
        let n = self.u32()? as usize;
        Ok(self.take(n, "the bytes")?.to_vec())
    }

    /// A `u16` length, then that many bytes of UTF-8.
    ///
    /// The node does not check that a string is UTF-8; this decoder refuses one that is not.
    pub fn string(&mut self) -> Result<String, DecodeError> {
        let n = usize::from(self.u16()?);
        let at = self.pos;
        let raw = self.take(n, "the string")?;
        String::from_utf8(raw.to_vec())
            .map_err(|e| DecodeError::new(at, format!("the string is not UTF-8: {e}")))
    }

    /// Runs `read` for the field `name`: a problem inside it names the field.
    pub fn field<T>(
        &mut self,
        name: &'static str,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<T, DecodeError> {
        read(self).map_err(|e| e.within(Step::Field(name)))
    }

    /// A `u32` count, then that many elements read by `read`, each at least `min_size`
    /// bytes long. A count the bytes left cannot hold is an error before anything is
    /// allocated.
    pub fn list<T>(
        &mut self,
        min_size: usize,
        mut read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        let at = self.pos;
        let count = self.u32()? as usize;
        if count > i32::MAX as usize {
            return Err(DecodeError::new(
                at,
                format!("a list holds at most 2147483647 elements, not {count}"),
            ));
        }
        // Every element takes at least one byte (an element of none is refused below).
        let most = self.remaining() / min_size.max(1);
        if count > most {
            return Err(DecodeError::new(
                at,
                format!(
                    "{count} element(s) of at least {} byte(s) cannot fit in the {} byte(s) left",
                    min_size.max(1),
                    self.remaining()
                ),
            )
            .of_kind(DecodeProblem::Short));
        }
        let mut out = Vec::with_capacity(count);
        for i in 0..count {
            let start = self.pos;
            let item = read(self).map_err(|e| e.within(Step::Index(i)))?;
            if self.pos == start {
                return Err(DecodeError::new(start, "a list of values of zero bytes")
                    .within(Step::Index(i)));
            }
            out.push(item);
        }
        Ok(out)
    }
}
