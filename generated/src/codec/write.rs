//! Writing the node's binary format.

use super::error::{RuleError, Step};
use crate::wire::{EvmAddress, Id, NodeId, ShortId};

/// The output, growing.
#[derive(Debug, Default)]
pub struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// How many bytes have been written.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Raw bytes, no length.
    pub fn raw(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// A `u8`.
    pub fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }

    /// A big-endian `u16`.
    pub fn u16(&mut self, v: u16) {
        self.raw(&v.to_be_bytes());
    }

    /// A big-endian `u32`.
    pub fn u32(&mut self, v: u32) {
        self.raw(&v.to_be_bytes());
    }

    /// A big-endian `u64`.
    pub fn u64(&mut self, v: u64) {
        self.raw(&v.to_be_bytes());
    }

    /// A big-endian `i64`.
    pub fn i64(&mut self, v: i64) {
        self.raw(&v.to_be_bytes());
    }

    /// `00` or `01`.
    pub fn bool(&mut self, v: bool) {
        self.u8(u8::from(v));
    }

    /// A 32-byte ID.
    pub fn id(&mut self, v: &Id) {
        self.raw(v.as_bytes());
    }

    /// A 20-byte short ID.
    pub fn short_id(&mut self, v: &ShortId) {
        self.raw(v.as_bytes());
    }

    /// A 20-byte node ID.
    pub fn node_id(&mut self, v: &NodeId) {
        self.raw(v.as_bytes());
    }

    /// A 20-byte EVM address.
    pub fn evm_address(&mut self, v: &EvmAddress) {
        self.raw(v.as_bytes());
    }

    /// A `u32` length, then the bytes.
    pub fn bytes(&mut self, v: &[u8]) -> Result<(), RuleError> {
        let n = u32::try_from(v.len())
            .ok()
            .filter(|&n| n <= i32::MAX as u32)
            .ok_or_else(|| {
                RuleError::new(format!("{} bytes exceed the limit of 2147483647", v.len()))
            })?;
        self.u32(n);
        self.raw(v);
        Ok(())
    }

    /// A `u16` length, then the string's bytes.
    pub fn string(&mut self, v: &str) -> Result<(), RuleError> {
        let n = u16::try_from(v.len()).map_err(|_| {
            RuleError::new(format!(
                "a string holds at most 65535 bytes, not {}",
                v.len()
            ))
        })?;
        self.u16(n);
        self.raw(v.as_bytes());
        Ok(())
    }

    /// Runs `write` for the field `name`: a problem inside it names the field.
    pub fn field(
        &mut self,
        name: &'static str,
        write: impl FnOnce(&mut Self) -> Result<(), RuleError>,
    ) -> Result<(), RuleError> {
        write(self).map_err(|e| e.within(Step::Field(name)))
    }

    /// A `u32` count, then each element written by `write`.
    pub fn list<T>(
        &mut self,
        items: &[T],
        mut write: impl FnMut(&mut Self, &T) -> Result<(), RuleError>,
    ) -> Result<(), RuleError> {
        let n = u32::try_from(items.len())
            .ok()
            .filter(|&n| n <= i32::MAX as u32)
            .ok_or_else(|| {
                RuleError::new(format!(
                    "a list holds at most 2147483647 elements, not {}",
                    items.len()
                ))
            })?;
        self.u32(n);
        for (i, item) in items.iter().enumerate() {
            write(self, item).map_err(|e| e.within(Step::Index(i)))?;
        }
        Ok(())
    }
}
