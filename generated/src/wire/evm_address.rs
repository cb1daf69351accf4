//! [`EvmAddress`]: a 20-byte Ethereum address, as the C-chain writes it.

use std::fmt;
use std::str::FromStr;

use super::WireError;

const WHAT: &str = "EVM address";

/// A 20-byte Ethereum address (go-ethereum's `common.Address`), written `0x` and 40 lower-case
/// hex digits, as the node's JSON writes it (go-ethereum's `MarshalText` is lower-case hex, not
/// the EIP-55 checksum case).
///
/// Parsing takes `0x` (or `0X`) and exactly 40 hex digits in any case; the mixed case of EIP-55
/// is read, not checked.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct EvmAddress([u8; 20]);

impl EvmAddress {
    /// The zero address.
    pub const ZERO: Self = Self([0; 20]);

    /// Wraps raw bytes.
    pub const fn new(bytes: [u8; 20]) -> Self {
        Self(bytes)
    }

    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8; 20] {
        &self.0
    }
}

impl From<[u8; 20]> for EvmAddress {
    fn from(bytes: [u8; 20]) -> Self {
        Self(bytes)
    }
}

impl fmt::Display for EvmAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut text = [0u8; 42];
        text[0] = b'0';
        text[1] = b'x';
        for (i, b) in self.0.iter().enumerate() {
            text[2 + 2 * i] = DIGITS[usize::from(b >> 4)];
            text[3 + 2 * i] = DIGITS[usize::from(b & 0x0f)];
        }
        // ASCII by construction.
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

/// Prints the string form, as `Display` does.
impl fmt::Debug for EvmAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

fn digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

impl FromStr for EvmAddress {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        let fail = |reason: String| WireError::new(WHAT, s, reason);
        let digits = s
            .strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .ok_or_else(|| {
                fail("expected \"0x\" and 40 hex digits: missing \"0x\" prefix".into())
            })?;
        if let Some((at, c)) = digits.char_indices().find(|&(_, c)| !c.is_ascii_hexdigit()) {
            return Err(fail(format!(
                "{c:?} at position {} is not a hex digit",
                at + 2
            )));
        }
        if digits.len() != 40 {
            return Err(fail(format!(
                "expected 40 hex digits (20 bytes) after \"0x\", got {}",
                digits.len()
            )));
        }
        let mut bytes = [0u8; 20];
        for (b, pair) in bytes.iter_mut().zip(digits.as_bytes().chunks_exact(2)) {
            match (digit(pair[0]), digit(pair[1])) {
                (Some(hi), Some(lo)) => *b = hi << 4 | lo,
                _ => return Err(fail("not hex".into())),
            }
        }
        Ok(Self(bytes))
    }
}

/// Written as its text: `0x` and 40 lower-case hex digits.
impl serde::Serialize for EvmAddress {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for EvmAddress {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        super::text::deserialize_from_str(d, "an EVM address string (0x and 40 hex digits)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc";
    const BYTES: [u8; 20] = [
        0x8d, 0xb9, 0x7c, 0x7c, 0xec, 0xe2, 0x49, 0xc2, 0xb9, 0x8b, 0xdc, 0x02, 0x26, 0xcc, 0x4c,
        0x2a, 0x57, 0xbf, 0x52, 0xfc,
    ];

    #[test]
    fn writes_lower_case_hex() {
        let a = EvmAddress::new(BYTES);
        assert_eq!(a.to_string(), TEXT);
        assert_eq!(format!("{a:?}"), TEXT);
        assert_eq!(serde_json::to_string(&a).unwrap(), format!("\"{TEXT}\""));
        assert_eq!(
            EvmAddress::ZERO.to_string(),
            "0x0000000000000000000000000000000000000000"
        );
    }

    #[test]
    fn reads_any_case() {
        for s in [
            TEXT,
            "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC",
            "0X8DB97C7CECE249C2B98BDC0226CC4C2A57BF52FC",
        ] {
            assert_eq!(
                s.parse::<EvmAddress>().unwrap(),
                EvmAddress::new(BYTES),
                "{s}"
            );
        }
        let a: EvmAddress = serde_json::from_str(&format!("\"{TEXT}\"")).unwrap();
        assert_eq!(a, EvmAddress::new(BYTES));
    }

    #[test]
    fn refuses_what_is_not_an_address() {
        let e = "8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"
            .parse::<EvmAddress>()
            .unwrap_err();
        assert_eq!(e.what(), "EVM address");
        assert!(e.reason().contains("missing \"0x\" prefix"), "{e}");
        let e = "0x8db97c7c".parse::<EvmAddress>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid EVM address \"0x8db97c7c\": expected 40 hex digits (20 bytes) after \"0x\", got 8"
        );
        let e = format!("{TEXT}00").parse::<EvmAddress>().unwrap_err();
        assert!(e.reason().contains("got 42"), "{e}");
        let e = "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fg"
            .parse::<EvmAddress>()
            .unwrap_err();
        assert!(e.reason().contains("'g' at position 41"), "{e}");
        let e = "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52é"
            .parse::<EvmAddress>()
            .unwrap_err();
        assert!(e.reason().contains("is not a hex digit"), "{e}");
        let e = serde_json::from_str::<EvmAddress>("\"0x12\"").unwrap_err();
        assert!(
            e.to_string().contains("invalid EVM address \"0x12\""),
            "{e}"
        );
    }
}
