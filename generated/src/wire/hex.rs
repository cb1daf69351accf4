//! `0x` hex bytes ([`HexBytes`], optionally checksummed) and [`HexOrJson`] containers.

use std::fmt;
use std::str::FromStr;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::WireError;
use super::ids::checksum;

/// Bytes written as `0x` followed by lower-case hex (signatures, keys, memos, encoded containers).
///
/// Parsing requires the `0x` prefix and an even number of hex digits in either case; `"0x"` is the
/// empty byte string. Whether the bytes end in a checksum is up to the field: see
/// [`HexBytes::with_checksum`], [`HexBytes::strip_checksum`] and [`Encoding`](super::Encoding).
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct HexBytes(pub Vec<u8>);

impl HexBytes {
    /// `payload` followed by its 4-byte checksum (the last 4 bytes of SHA-256(`payload`)), as the
    /// node writes it for the `hex`/`hexc` encodings.
    pub fn with_checksum(payload: &[u8]) -> HexBytes {
        let mut bytes = Vec::with_capacity(payload.len() + 4);
        bytes.extend_from_slice(payload);
        bytes.extend_from_slice(&checksum(payload));
        HexBytes(bytes)
    }

    /// Verifies the trailing 4-byte checksum and returns the payload before it.
    pub fn strip_checksum(&self) -> Result<&[u8], WireError> {
        let fail = |reason| WireError::value("checksummed hex", self, reason);
        let split = self
            .0
            .len()
            .checked_sub(4)
            .ok_or_else(|| fail("input is smaller than the checksum size"))?;
        let (payload, sum) = self.0.split_at(split);
        if sum == checksum(payload) {
            Ok(payload)
        } else {
            Err(fail("invalid input checksum"))
        }
    }
}

impl From<Vec<u8>> for HexBytes {
    fn from(bytes: Vec<u8>) -> Self {
        HexBytes(bytes)
    }
}

impl From<HexBytes> for Vec<u8> {
    fn from(hex: HexBytes) -> Self {
        hex.0
    }
}

impl AsRef<[u8]> for HexBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// Each byte's two lower-case hex digits.
const PAIRS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut t = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = [DIGITS[i >> 4], DIGITS[i & 0xf]];
        i += 1;
    }
    t
};

/// Writes `0x` and the digits of `bytes` into `out`, which holds exactly `2 + 2 * bytes.len()`.
fn write_hex(bytes: &[u8], out: &mut [u8]) {
    out[..2].copy_from_slice(b"0x");
    for (pair, &b) in out[2..].chunks_exact_mut(2).zip(bytes) {
        pair.copy_from_slice(&PAIRS[usize::from(b)]);
    }
}

/// Bytes written as hex on the stack (keys and signatures); longer ones use the heap.
const STACK_HEX: usize = 127;

impl HexBytes {
    /// The `0x` text, written in one pass.
    pub fn to_hex(&self) -> String {
        let mut out = vec![0u8; 2 + 2 * self.0.len()];
        write_hex(&self.0, &mut out);
        // Only ASCII digits were written.
        String::from_utf8(out).unwrap_or_default()
    }
}

impl fmt::Display for HexBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// Prints the `0x` string form.
impl fmt::Debug for HexBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HexBytes({self})")
    }
}

/// The value of each hex digit (either case), or 0xff.
const HEX_VALUES: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// The four bytes that eight hex digits (either case) spell, and whether all eight were hex
/// digits, worked out on the eight at once in a `u64`.
fn eight_digits(eight: &[u8]) -> ([u8; 4], bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x80 * ONES;
    let mut word = [0u8; 8];
    word.copy_from_slice(eight);
    let v = u64::from_le_bytes(word);
    // With every byte below 0x80, adding `0x80 - k` sets a byte's top bit exactly when the
    // byte is at least `k`, and never carries into the next byte (a byte from 0x80 up makes
    // the whole word invalid, whatever its sums).
    let at_least = |x: u64, k: u64| x.wrapping_add((0x80 - k) * ONES);
    let digit = at_least(v, 0x30) & !at_least(v, 0x3a);
    let folded = v | (0x20 * ONES);
    let letter = at_least(folded, 0x61) & !at_least(folded, 0x67);
    let ok = v & HIGH == 0 && (digit | letter) & HIGH == HIGH;
    // A digit's value is its low four bits; a letter's, its low four bits plus 9.
    let nibbles = (v & (0x0f * ONES)) + ((letter & HIGH) >> 7) * 9;
    // Each even byte takes its nibble high and the next byte's low; then the even bytes are
    // packed together.
    let pairs = ((nibbles << 4) | (nibbles >> 8)) & 0x00ff_00ff_00ff_00ff;
    let pairs = (pairs | (pairs >> 8)) & 0x0000_ffff_0000_ffff;
    let pairs = (pairs | (pairs >> 16)) & 0xffff_ffff;
    let b = pairs.to_le_bytes();
    ([b[0], b[1], b[2], b[3]], ok)
}

impl FromStr for HexBytes {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        let fail = |reason: String| WireError::new("hex", s, reason);
        let digits = s
            .strip_prefix("0x")
            .ok_or_else(|| fail("missing 0x prefix".into()))?;
        // One pass: decode every pair and remember whether any digit was not hex; the slow
        // path below says which.
        let d = digits.as_bytes();
        let mut out = vec![0u8; d.len() / 2];
        let mut invalid = 0u8;
        // Eight digits at a time while they last, then pair by pair.
        let whole = d.len() / 8;
        for (bytes, eight) in out.chunks_exact_mut(4).zip(d.chunks_exact(8)) {
            let (value, ok) = eight_digits(eight);
            bytes.copy_from_slice(&value);
            invalid |= if ok { 0 } else { 0xf0 };
        }
        let (out_rest, d_rest) = (&mut out[whole * 4..], &d[whole * 8..]);
        for (byte, pair) in out_rest.iter_mut().zip(d_rest.chunks_exact(2)) {
            let (hi, lo) = (
                HEX_VALUES[usize::from(pair[0])],
                HEX_VALUES[usize::from(pair[1])],
            );
            invalid |= hi | lo;
            *byte = (hi << 4) | (lo & 0x0f);
        }
        if let Some(&last) = d_rest.chunks_exact(2).remainder().first() {
            invalid |= HEX_VALUES[usize::from(last)];
        }
        if invalid & 0xf0 != 0 {
            let (pos, c) = digits
                .char_indices()
                .find(|(_, c)| !c.is_ascii_hexdigit())
                .unwrap_or((0, '?'));
            return Err(fail(format!(
                "invalid hex digit {c:?} at position {}",
                pos + 2
            )));
        }
        if d.len() % 2 != 0 {
            return Err(fail("odd length hex string".into()));
        }
        Ok(HexBytes(out))
    }
}

/// Written as its text in one piece (on the stack up to 127 bytes).
impl Serialize for HexBytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.len() <= STACK_HEX {
            let mut buf = [0u8; 2 + 2 * STACK_HEX];
            let text = &mut buf[..2 + 2 * self.0.len()];
            write_hex(&self.0, text);
            // Only ASCII digits were written.
            return super::ascii::serialize(std::str::from_utf8(text).unwrap_or_default(), s);
        }
        super::ascii::serialize(&self.to_hex(), s)
    }
}

impl<'de> Deserialize<'de> for HexBytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        super::text::deserialize_from_str(d, "a 0x-prefixed hex string")
    }
}

/// An encoded container: `0x` hex for the byte encodings, or a JSON value when `encoding` is `json`.
///
/// Deserializing a JSON string yields [`HexOrJson::Hex`] (it must be valid `0x` hex); any other JSON
/// value yields [`HexOrJson::Json`]. Each variant serializes back to its own form.
#[derive(Clone, Debug, PartialEq)]
pub enum HexOrJson {
    /// Hex bytes (with a checksum unless the encoding is `hexnc`).
    Hex(HexBytes),
    /// A structured object (encoding `json`).
    Json(Value),
}

impl Serialize for HexOrJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            HexOrJson::Hex(hex) => hex.serialize(s),
            HexOrJson::Json(value) => value.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for HexOrJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => s.parse().map(HexOrJson::Hex).map_err(D::Error::custom),
            other => Ok(HexOrJson::Json(other)),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn hex(s: &str) -> HexBytes {
        s.parse().unwrap()
    }

    #[test]
    fn round_trip() {
        let h = HexBytes(vec![0x00, 0xab, 0xff]);
        assert_eq!(h.to_string(), "0x00abff");
        assert_eq!(serde_json::to_string(&h).unwrap(), r#""0x00abff""#);
        assert_eq!(
            serde_json::from_str::<HexBytes>(r#""0x00ABff""#).unwrap(),
            h
        );
        assert_eq!(hex("0x"), HexBytes::default());
        assert_eq!(HexBytes::default().to_string(), "0x");
        assert_eq!(format!("{h:?}"), "HexBytes(0x00abff)");
        assert_eq!(h.as_ref(), &[0x00, 0xab, 0xff]);
        assert_eq!(Vec::from(HexBytes::from(vec![1])), vec![1]);
    }

    #[test]
    fn parse_errors() {
        let err = |s: &str| s.parse::<HexBytes>().unwrap_err().to_string();
        assert_eq!(err("abcd"), r#"invalid hex "abcd": missing 0x prefix"#);
        assert_eq!(err("0X00"), r#"invalid hex "0X00": missing 0x prefix"#);
        assert_eq!(
            err("0xabc"),
            r#"invalid hex "0xabc": odd length hex string"#
        );
        assert_eq!(
            err("0x012g45"),
            r#"invalid hex "0x012g45": invalid hex digit 'g' at position 5"#
        );
        assert!(err("0x0é").contains("invalid hex digit 'é' at position 3"));
        assert!(err("0x+1").contains("invalid hex digit '+'"));
        assert!(serde_json::from_str::<HexBytes>("12").is_err());
    }

    #[test]
    fn eight_at_a_time_reads_as_pair_by_pair_does() {
        // Every byte value in every position, in both cases, and every non-digit refused.
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut bytes = [0x5a, 0xc3, 0x07, 0xf0, 0x11, 0xee, 0x80, 0x3d];
                bytes[at] = b;
                let lower: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                for text in [lower.clone(), lower.to_uppercase()] {
                    assert_eq!(hex(&format!("0x{text}")).0, bytes, "{text}");
                }
            }
        }
        for c in 0..=255u8 {
            let valid = c.is_ascii_hexdigit();
            for at in [0, 3, 7, 8, 10] {
                let mut digits = *b"0123456789abcdef0a";
                digits[at] = c;
                let text = format!("0x{}", String::from_utf8_lossy(&digits));
                assert_eq!(text.parse::<HexBytes>().is_ok(), valid, "{text:?}");
            }
        }
    }

    #[test]
    fn checksum_vectors() {
        for (payload, encoded) in [
            ("", "0x7852b855"),
            ("00", "0x0017afa01d"),
            ("00010203040506070809ff", "0x00010203040506070809ff4482539c"),
            (
                "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
                "0x0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20b7a612c9",
            ),
        ] {
            let payload = hex(&format!("0x{payload}"));
            let with = HexBytes::with_checksum(&payload.0);
            assert_eq!(with.to_string(), encoded);
            assert_eq!(hex(encoded).strip_checksum().unwrap(), payload.0.as_slice());
        }
    }

    #[test]
    fn checksum_errors() {
        assert_eq!(
            hex("0x7852b8").strip_checksum().unwrap_err().to_string(),
            "invalid checksummed hex 0x7852b8: input is smaller than the checksum size"
        );
        assert_eq!(
            hex("0x0017afa01e").strip_checksum().unwrap_err().reason(),
            "invalid input checksum"
        );
    }

    #[test]
    fn hex_or_json() {
        let h: HexOrJson = serde_json::from_str(r#""0x0017afa01d""#).unwrap();
        assert_eq!(h, HexOrJson::Hex(hex("0x0017afa01d")));
        assert_eq!(serde_json::to_string(&h).unwrap(), r#""0x0017afa01d""#);
        let j: HexOrJson = serde_json::from_str(r#"{"unsignedTx":{"networkID":1}}"#).unwrap();
        assert_eq!(j, HexOrJson::Json(json!({"unsignedTx": {"networkID": 1}})));
        assert_eq!(
            serde_json::to_string(&j).unwrap(),
            r#"{"unsignedTx":{"networkID":1}}"#
        );
        assert_eq!(
            serde_json::from_value::<HexOrJson>(json!(null)).unwrap(),
            HexOrJson::Json(Value::Null)
        );
        let e = serde_json::from_str::<HexOrJson>(r#""nothex""#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing 0x prefix"), "{e}");
    }
}
