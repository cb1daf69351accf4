//! `Encode` for the values lists hold, so that a list's order can be checked by encoding;
//! `Encode`, `Decode` and `Verify` through a `Box`.

use super::{Encode, RuleError, Writer};
use crate::wire::{EvmAddress, Id, NodeId, ShortId};

macro_rules! encode_with {
    ($($t:ty => $m:ident),* $(,)?) => {$(
        impl Encode for $t {
            fn encode(&self, w: &mut Writer) -> Result<(), RuleError> {
                w.$m(*self);
                Ok(())
            }
        }
    )*};
}

encode_with!(u8 => u8, u16 => u16, u32 => u32, u64 => u64, i64 => i64, bool => bool);

macro_rules! encode_by_ref {
    ($($t:ty => $m:ident),* $(,)?) => {$(
        impl Encode for $t {
            fn encode(&self, w: &mut Writer) -> Result<(), RuleError> {
                w.$m(self);
                Ok(())
            }
        }
    )*};
}

encode_by_ref!(Id => id, ShortId => short_id, NodeId => node_id, EvmAddress => evm_address);

impl<const N: usize> Encode for [u8; N] {
    fn encode(&self, w: &mut Writer) -> Result<(), RuleError> {
        w.raw(self);
        Ok(())
    }
}

impl Encode for String {
    fn encode(&self, w: &mut Writer) -> Result<(), RuleError> {
        w.string(self)
    }
}

impl Encode for Vec<u8> {
    fn encode(&self, w: &mut Writer) -> Result<(), RuleError> {
        w.bytes(self)
    }
}

/// A large slot value is boxed; it reads and writes as the value.
impl<T: Encode> Encode for Box<T> {
    fn encode(&self, w: &mut Writer) -> Result<(), RuleError> {
        T::encode(self, w)
    }
}

impl<T: super::Decode> super::Decode for Box<T> {
    fn decode(r: &mut super::Reader<'_>) -> Result<Self, super::DecodeError> {
        T::decode(r).map(Box::new)
    }
}

impl<T: super::Verify> super::Verify for Box<T> {
    fn verify(&self) -> Result<(), super::RuleError> {
        T::verify(self)
    }
}
