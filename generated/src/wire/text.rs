//! Serde plumbing shared by the scalars whose JSON form is their `Display`/`FromStr` text.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, Deserializer, Visitor};

use super::WireError;

/// Visitor that parses a JSON string with `T::from_str`; `expecting` names `T` in type errors.
struct FromStrVisitor<T>(&'static str, PhantomData<T>);

impl<T: FromStr<Err = WireError>> Visitor<'_> for FromStrVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        v.parse().map_err(E::custom)
    }
}

/// Deserializes `T` from a JSON string (also a map key) through its `FromStr`.
pub(crate) fn deserialize_from_str<'de, D, T>(d: D, expecting: &'static str) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr<Err = WireError>,
{
    d.deserialize_str(FromStrVisitor(expecting, PhantomData))
}

/// Implements `Serialize` (the `Display` text) and `Deserialize` (via `FromStr`) for each type.
macro_rules! string_serde {
    ($($ty:ty => $expecting:expr),* $(,)?) => {$(
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::wire::text::deserialize_from_str(d, $expecting)
            }
        }
    )*};
}

pub(crate) use string_serde;

/// Visitor that reads a JSON string into an open enumeration through its `From<&str>`, which
/// keeps a value it does not know instead of failing.
struct EnumVisitor<T>(&'static str, PhantomData<T>);

impl<T: for<'a> From<&'a str>> Visitor<'_> for EnumVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        Ok(T::from(v))
    }
}

/// Deserializes a spec enumeration (generated with an `Unrecognized(String)` variant) from its
/// wire text; only a value that is not a string is an error.
pub(crate) fn deserialize_enum<'de, D, T>(d: D, expecting: &'static str) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: for<'a> From<&'a str>,
{
    d.deserialize_str(EnumVisitor(expecting, PhantomData))
}
