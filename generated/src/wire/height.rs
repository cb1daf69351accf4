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
/// "proposed". Written as a decimal string or `"proposed"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Height {
    /// A block height.
    Number(u64),
    /// The node's current proposer-VM height.
    Proposed,
}

impl Decimal for Height {
    const WHAT: &'static str = "height";
    const EXPECTED: &'static str =
        r#"expected a decimal string, a non-negative integer or "proposed""#;
    const MAX: u64 = u64::MAX - 1;

    fn from_checked(v: u64) -> Self {
        Height::Number(v)
    }

    fn from_keyword(s: &str) -> Option<Self> {
        (s == "proposed").then_some(Height::Proposed)
    }
}

impl From<u64> for Height {
    fn from(v: u64) -> Self {
        Height::Number(v)
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
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
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
        assert_eq!(Height::from(7), Height::Number(7));
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
}
