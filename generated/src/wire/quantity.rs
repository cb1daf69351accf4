//! [`Quantity`]: an Ethereum JSON-RPC QUANTITY (`0x`-prefixed hex, no leading zeros).

use std::fmt;
use std::str::FromStr;

use super::WireError;

const WHAT: &str = "hex quantity";

/// An unsigned integer as Ethereum's JSON-RPC writes a QUANTITY (go-ethereum's `hexutil.Big`
/// and `hexutil.Uint64`): `0x` and big-endian hex digits in lower case, without leading zeros
/// (`0x0`, `0x5`, `0xa86a`).
///
/// Carried as a `u128`: a C-chain balance in wei (1 nAVAX = 10⁹ wei; AVAX's whole supply,
/// 7.2 × 10²⁶ wei, fits with room to spare). go-ethereum's values go up to 256 bits; a value
/// above `u128::MAX` (more than 32 significant hex digits) is refused naming its length
/// rather than cut.
///
/// Parsing is go-ethereum's: `0x` (or `0X`) is required, at least one digit, digits in any
/// case, and no leading zero (`0x01` is refused, as the node does).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Quantity(pub u128);

impl Quantity {
    /// The value.
    pub const fn get(self) -> u128 {
        self.0
    }
}

impl From<u128> for Quantity {
    fn from(v: u128) -> Self {
        Self(v)
    }
}

impl From<u64> for Quantity {
    fn from(v: u64) -> Self {
        Self(u128::from(v))
    }
}

impl From<Quantity> for u128 {
    fn from(q: Quantity) -> Self {
        q.0
    }
}

impl TryFrom<Quantity> for u64 {
    type Error = WireError;
    fn try_from(q: Quantity) -> Result<Self, WireError> {
        u64::try_from(q.0).map_err(|_| WireError::value(WHAT, q, "exceeds a 64-bit integer"))
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

/// Prints the string form, as `Display` does.
impl fmt::Debug for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Quantity {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        let fail = |reason: String| WireError::new(WHAT, s, reason);
        let digits = s
            .strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .ok_or_else(|| fail("expected \"0x\" and hex digits: missing \"0x\" prefix".into()))?;
        if digits.is_empty() {
            return Err(fail("no hex digits after \"0x\"".into()));
        }
        if let Some((at, c)) = digits.char_indices().find(|&(_, c)| !c.is_ascii_hexdigit()) {
            return Err(fail(format!(
                "{c:?} at position {} is not a hex digit",
                at + 2
            )));
        }
        if digits.len() > 1 && digits.starts_with('0') {
            return Err(fail(
                "a quantity has no leading zero digits (write 0x0 for zero)".into(),
            ));
        }
        if digits.len() > 32 {
            return Err(fail(format!(
                "{} hex digits exceed 128 bits (32 digits at most)",
                digits.len()
            )));
        }
        u128::from_str_radix(digits, 16)
            .map(Self)
            .map_err(|e| fail(e.to_string()))
    }
}

/// Written as its text: `0x` and lower-case hex digits.
impl serde::Serialize for Quantity {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Quantity {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        super::text::deserialize_from_str(d, "a hex quantity string (0x and hex digits)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_minimal_lower_case_hex() {
        assert_eq!(Quantity(0).to_string(), "0x0");
        assert_eq!(Quantity(43112).to_string(), "0xa868");
        assert_eq!(
            Quantity(u128::MAX).to_string(),
            format!("0x{}", "f".repeat(32))
        );
    }

    #[test]
    fn reads_what_go_ethereum_reads() {
        assert_eq!("0x0".parse::<Quantity>().unwrap(), Quantity(0));
        assert_eq!("0XA868".parse::<Quantity>().unwrap(), Quantity(43112));
        let wei = 50_000_000_000_000_000_000_000_000u128;
        assert_eq!(
            format!("{:#x}", wei).parse::<Quantity>().unwrap(),
            Quantity(wei)
        );
    }

    #[test]
    fn refusals_say_what_is_wrong() {
        let e = |s: &str| s.parse::<Quantity>().unwrap_err().to_string();
        assert!(e("12").contains("missing \"0x\""), "{}", e("12"));
        assert!(e("0x").contains("no hex digits"), "{}", e("0x"));
        assert!(e("0x01").contains("leading zero"), "{}", e("0x01"));
        assert!(e("0x1g").contains("'g' at position 3"), "{}", e("0x1g"));
        let long = format!("0x1{}", "0".repeat(32));
        assert!(
            e(&long).contains("33 hex digits exceed 128 bits"),
            "{}",
            e(&long)
        );
        assert!(u64::try_from(Quantity(u128::from(u64::MAX) + 1)).is_err());
    }
}
