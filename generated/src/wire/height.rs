//! [`Height`]: a block height or the keyword `proposed`.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::WireError;
use super::numbers::{Decimal, DecimalVisitor, parse_decimal};

/// A block height, or `proposed` for this node's proposer-VM height (`platform.getValidatorsAt`).
///
/// Read from a decimal string, a bare non-negative integer, or exactly `"proposed"` (lower-case).
/// `18446744073709551615` (`u64::MAX`) is rejected because the node uses it internally to mean
/// "proposed" and refuses it as a number. Written as a decimal string or `"proposed"`.
///
/// Build a numeric height with [`Height::number`] or `Height::try_from(u64)`, which refuse
/// `u64::MAX`. A `Height::Number(u64::MAX)` written out by hand cannot be sent either:
/// serializing it is an error, so the client reports it before anything reaches the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Height {
    /// A block height, at most [`Height::MAX`].
    Number(u64),
    /// The node's current proposer-VM height.
    Proposed,
}

impl Decimal for Height {
    const WHAT: &'static str = "height";
    const EXPECTED: &'static str =
        r#"expected a decimal string, a non-negative integer or "proposed""#;
    const MAX: u64 = Height::MAX;

    fn from_checked(v: u64) -> Self {
        Height::Number(v)
    }

    fn from_keyword(s: &str) -> Option<Self> {
        (s == "proposed").then_some(Height::Proposed)
    }
}

impl Height {
    /// The largest numeric height the node accepts, `18446744073709551614`.
    pub const MAX: u64 = u64::MAX - 1;

    /// A numeric height; `u64::MAX` is an error, as it is for the node.
    pub fn number(v: u64) -> Result<Self, WireError> {
        if v <= Self::MAX {
            Ok(Height::Number(v))
        } else {
            Err(WireError::value(
                <Self as Decimal>::WHAT,
                v,
                format!("out of range (max {})", Self::MAX),
            ))
        }
    }
}

impl TryFrom<u64> for Height {
    type Error = WireError;

    fn try_from(v: u64) -> Result<Self, WireError> {
        Height::number(v)
    }
}

impl fmt::Display for Height {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Height::Number(n) => fmt::Display::fmt(n, f),
            Height::Proposed => f.write_str("proposed"),
        }
    }
}

impl FromStr for Height {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        parse_decimal(s)
    }
}

impl Serialize for Height {
    /// Fails for `Height::Number(u64::MAX)`, which the node refuses.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let Height::Number(n) = *self {
            Height::number(n).map_err(serde::ser::Error::custom)?;
        }
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Height {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DecimalVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn de(json: &str) -> Result<Height, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn forms() {
        assert_eq!(de(r#""100""#), Ok(Height::Number(100)));
        assert_eq!(de("100"), Ok(Height::Number(100)));
        assert_eq!(de(r#""0""#), Ok(Height::Number(0)));
        assert_eq!(de(r#""proposed""#), Ok(Height::Proposed));
        assert_eq!(de("18446744073709551614"), Ok(Height::Number(u64::MAX - 1)));
        assert_eq!(
            serde_json::to_string(&Height::Number(100)).unwrap(),
            r#""100""#
        );
        assert_eq!(
            serde_json::to_string(&Height::Proposed).unwrap(),
            r#""proposed""#
        );
        assert_eq!(Height::try_from(7), Ok(Height::Number(7)));
        assert_eq!(
            Height::number(Height::MAX),
            Ok(Height::Number(u64::MAX - 1))
        );
        assert_eq!("proposed".parse::<Height>(), Ok(Height::Proposed));
        for h in [
            Height::Number(0),
            Height::Number(u64::MAX - 1),
            Height::Proposed,
        ] {
            assert_eq!(de(&serde_json::to_string(&h).unwrap()), Ok(h));
        }
    }

    #[test]
    fn rejections() {
        for bad in [
            r#""Proposed""#,
            r#""PROPOSED""#,
            r#""""#,
            r#""-1""#,
            r#""1.0""#,
            r#""18446744073709551615""#,
            "18446744073709551615",
            "-1",
            "1.5",
            "null",
            "true",
        ] {
            assert!(de(bad).is_err(), "{bad} accepted");
        }
        assert!(
            de(r#""Proposed""#)
                .unwrap_err()
                .contains(r#"invalid height "Proposed": expected a decimal string, a non-negative integer or "proposed""#)
        );
        assert!(
            de("18446744073709551615")
                .unwrap_err()
                .contains("out of range (max 18446744073709551614)")
        );
    }

    /// The node refuses the numeric height 2^64-1 (M6): it cannot be built through the
    /// constructors, and a hand-built `Height::Number(u64::MAX)` fails to serialize, so a
    /// client never sends it.
    #[test]
    fn u64_max_cannot_be_sent() {
        let e = Height::number(u64::MAX).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid height 18446744073709551615: out of range (max 18446744073709551614)"
        );
        assert_eq!(Height::try_from(u64::MAX), Err(e));
        let err = serde_json::to_string(&Height::Number(u64::MAX)).unwrap_err();
        assert!(
            err.to_string()
                .contains("out of range (max 18446744073709551614)"),
            "{err}"
        );
        // Nor inside a params object.
        let params = serde_json::json!({ "height": 1 });
        let mut p: std::collections::BTreeMap<String, Height> =
            serde_json::from_value(params).unwrap();
        p.insert("height".into(), Height::Number(u64::MAX));
        assert!(serde_json::to_value(&p).is_err());
        assert!(serde_json::to_string(&Height::Number(Height::MAX)).is_ok());
    }
}
