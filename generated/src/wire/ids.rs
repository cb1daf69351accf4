//! cb58 and the fixed-size identifiers [`Id`], [`ShortId`] and [`NodeId`].

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};

use super::WireError;
use super::base58::{self, ShortText};
use crate::text_cache::{self, KEY_BYTES, Text, text_of_padded};

/// The 4-byte checksum used by cb58 and checksummed hex: the last 4 bytes of SHA-256(`bytes`).
pub(crate) fn checksum(bytes: &[u8]) -> [u8; 4] {
    let digest = Sha256::digest(bytes);
    [digest[28], digest[29], digest[30], digest[31]]
}

/// Encodes `bytes` as cb58: base58 (Bitcoin alphabet) of `bytes` followed by their 4-byte checksum.
pub fn cb58_encode(bytes: &[u8]) -> String {
    let mut buf = Vec::with_capacity(bytes.len() + 4);
    buf.extend_from_slice(bytes);
    buf.extend_from_slice(&checksum(bytes));
    base58::encode(&buf)
}

/// The cb58 text of a fixed-size identifier (at most 36 bytes with the checksum), built on
/// the stack.
fn cb58_short<const N: usize>(bytes: &[u8; N]) -> ShortText {
    let mut buf = [0u8; 40];
    buf[..N].copy_from_slice(bytes);
    buf[N..N + 4].copy_from_slice(&checksum(bytes));
    ShortText::encode(&buf[..N + 4])
}

/// The key of a fixed-size identifier in the text cache and the trails: a kind byte (the size,
/// and whether there is a prefix), then the bytes.
fn id_key<const N: usize>(prefix: &str, bytes: &[u8; N]) -> [u8; KEY_BYTES] {
    let mut key = [0u8; KEY_BYTES];
    key[0] = id_kind(N, prefix);
    key[1..=N].copy_from_slice(bytes);
    key
}

const fn id_kind(n: usize, prefix: &str) -> u8 {
    n as u8 | if prefix.is_empty() { 0 } else { 0x80 }
}

/// `prefix` and the cb58 of `bytes`.
fn make_id_text<const N: usize>(prefix: &str, bytes: &[u8; N]) -> Option<Text> {
    let mut text = Text::new();
    let fits = text.push(prefix.as_bytes()) && text.push(cb58_short(bytes).as_str().as_bytes());
    fits.then_some(text)
}

/// The text of a fixed-size identifier: `prefix` and the cb58 of `bytes`, from the text
/// cache when it is on.
fn id_text<const N: usize>(prefix: &str, bytes: &[u8; N]) -> Text {
    text_of_padded(&id_key(prefix, bytes), N + 1, || {
        make_id_text(prefix, bytes)
    })
    .unwrap_or_else(Text::new)
}

/// The bytes of `s` when it is the canonical text of an `N`-byte identifier (`prefix`, then
/// the cb58 of the bytes and their checksum): from the trail of the reply being read when it
/// met this text, else decoded on the stack, its checksum verified, and kept in that trail.
/// `None` for anything else, which the caller decodes again to say what is wrong.
fn id_of_text<const N: usize>(prefix: &str, s: &str) -> Option<[u8; N]> {
    let kind = id_kind(N, prefix);
    if let Some((_, key)) = text_cache::key_of(s.as_bytes(), |k| k == kind) {
        return key[1..=N].try_into().ok();
    }
    let raw = base58::decode_exact(s.strip_prefix(prefix)?, N + 4)?;
    if raw[N..N + 4] != checksum(&raw[..N]) {
        return None;
    }
    let bytes: [u8; N] = raw[..N].try_into().ok()?;
    // Base58 has one text for each byte string, so this text is the identifier's own.
    text_cache::remember(|| {
        let mut text = Text::new();
        text.push(s.as_bytes())
            .then(|| (N + 1, id_key(prefix, &bytes), text))
    });
    Some(bytes)
}

/// Decodes a cb58 string and verifies and removes its 4-byte checksum.
///
/// The empty string, invalid base58, fewer than 4 decoded bytes and a wrong checksum are errors.
pub fn cb58_decode(s: &str) -> Result<Vec<u8>, WireError> {
    let fail = |reason: String| WireError::new("cb58", s, reason);
    if s.is_empty() {
        return Err(fail("zero length string".into()));
    }
    let mut raw = Vec::with_capacity(s.len());
    base58::decode_into(s, &mut raw).map_err(|e| fail(e.to_string()))?;
    let Some(split) = raw.len().checked_sub(4) else {
        return Err(fail("input is smaller than the checksum size".into()));
    };
    if raw[split..] != checksum(&raw[..split]) {
        return Err(fail("invalid input checksum".into()));
    }
    raw.truncate(split);
    Ok(raw)
}

/// Defines a fixed-size identifier written as an optional prefix followed by cb58.
macro_rules! id_type {
    ($($(#[$doc:meta])* $name:ident([u8; $len:literal]) = $what:literal, prefix $prefix:literal;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name([u8; $len]);

        impl $name {
            /// The all-zero value (what the node uses when the field is omitted or `null`).
            pub const ZERO: Self = Self([0; $len]);

            /// Wraps raw bytes.
            pub const fn new(bytes: [u8; $len]) -> Self {
                Self(bytes)
            }

            /// The raw bytes.
            pub fn as_bytes(&self) -> &[u8; $len] {
                &self.0
            }
        }

        impl From<[u8; $len]> for $name {
            fn from(bytes: [u8; $len]) -> Self {
                Self(bytes)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(id_text($prefix, &self.0).as_str())
            }
        }

        /// Prints the string form, as `Display` does.
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(self, f)
            }
        }

        impl FromStr for $name {
            type Err = WireError;

            fn from_str(s: &str) -> Result<Self, WireError> {
                // The usual case on the stack or from the reply's trail; anything wrong is
                // decoded again to say what.
                if let Some(bytes) = id_of_text::<$len>($prefix, s) {
                    return Ok(Self(bytes));
                }
                let body = s.strip_prefix($prefix).ok_or_else(|| {
                    WireError::new($what, s, concat!("missing \"", $prefix, "\" prefix"))
                })?;
                let bytes = cb58_decode(body).map_err(|e| WireError::new($what, s, e.reason()))?;
                <[u8; $len]>::try_from(bytes.as_slice()).map(Self).map_err(|_| {
                    WireError::new($what, s, format!("expected {} bytes, got {}", $len, bytes.len()))
                })
            }
        }

        /// Written as its text in one piece, built on the stack (or found in the text cache).
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                // A prefix and base58 digits: ASCII.
                super::ascii::serialize(id_text($prefix, &self.0).as_str(), s)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                super::text::deserialize_from_str(d, concat!("a ", $what, " string"))
            }
        }
    )*};
}

id_type! {
    /// A 32-byte ID (block, transaction, asset, blockchain, Subnet, UTXO), written in cb58.
    ///
    /// The zero ID is `11111111111111111111111111111111LpoYY`.
    Id([u8; 32]) = "ID", prefix "";
    /// A 20-byte short ID (a raw address), written in cb58 without prefix.
    ShortId([u8; 20]) = "short ID", prefix "";
    /// A 20-byte node ID, written as `NodeID-` followed by cb58 (the prefix is required when parsing).
    NodeId([u8; 20]) = "node ID", prefix "NodeID-";
}

impl Id {
    /// The ID of `data`: its SHA-256 digest (how tx, block and many derived IDs are computed).
    pub fn from_sha256(data: &[u8]) -> Id {
        Id(Sha256::digest(data).into())
    }

    /// SHA-256(`n` as 8 big-endian bytes ‖ this ID): the node's `Prefix` (a UTXO's ID from
    /// its transaction's ID and output index).
    pub fn prefix(&self, n: u64) -> Id {
        let mut h = Sha256::new();
        h.update(n.to_be_bytes());
        h.update(self.0);
        Id(h.finalize().into())
    }

    /// SHA-256(this ID ‖ `n` as 4 big-endian bytes): the node's `Append` (the validation ID of
    /// the n-th validator of a ConvertSubnetToL1Tx, from the Subnet's ID).
    pub fn append(&self, n: u32) -> Id {
        let mut h = Sha256::new();
        h.update(self.0);
        h.update(n.to_be_bytes());
        Id(h.finalize().into())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn ids_through_the_text_cache_are_written_as_without_it() {
        crate::wire::enable_text_cache(crate::wire::TEXT_CACHE_ENTRIES);
        let mut rng = super::super::test_rng::XorShift(0x243f_6a88_85a3_08d3);
        for _ in 0..2_000 {
            let bytes: [u8; 32] = rng.bytes();
            let short: [u8; 20] = bytes[..20].try_into().unwrap();
            // The same 20 bytes as a short ID and as a node ID: two texts, never mixed up.
            let (id, short_id, node) = (Id::new(bytes), ShortId::new(short), NodeId::new(short));
            for _ in 0..2 {
                assert_eq!(id.to_string(), cb58_encode(&bytes));
                assert_eq!(short_id.to_string(), cb58_encode(&short));
                assert_eq!(node.to_string(), format!("NodeID-{}", cb58_encode(&short)));
                assert_eq!(
                    serde_json::to_string(&node).unwrap(),
                    format!("\"NodeID-{}\"", cb58_encode(&short))
                );
            }
        }
    }

    #[test]
    fn with_the_text_cache_on_ids_are_still_read_in_full_and_their_checksums_checked() {
        crate::wire::enable_text_cache(crate::wire::TEXT_CACHE_ENTRIES);
        let mut rng = super::super::test_rng::XorShift(0x1319_8a2e_0370_7344);
        // The last character changed to the next one of the alphabet: the same length, and a
        // checksum that no longer holds.
        let tampered = |text: &str| {
            let (head, last) = text.split_at(text.len() - 1);
            let next = if last == "z" { "y" } else { "z" };
            format!("{head}{next}")
        };
        for _ in 0..2_000 {
            // Written first, so that each text is in the cache when it is read.
            let bytes: [u8; 32] = rng.bytes();
            let short: [u8; 20] = bytes[..20].try_into().unwrap();
            let (id_text, short_text) = (cb58_encode(&bytes), cb58_encode(&short));
            let node_text = format!("NodeID-{short_text}");
            let written = (Id::new(bytes).to_string(), NodeId::new(short).to_string());
            assert_eq!(written, (id_text.clone(), node_text.clone()));
            for _ in 0..2 {
                assert_eq!(id_text.parse::<Id>().unwrap(), Id::new(bytes));
                assert_eq!(short_text.parse::<ShortId>().unwrap(), ShortId::new(short));
                assert_eq!(node_text.parse::<NodeId>().unwrap(), NodeId::new(short));
                // Each type reads its own length only, whatever the cache holds.
                assert!(id_text.parse::<ShortId>().is_err());
                assert!(short_text.parse::<Id>().is_err());
                assert!(short_text.parse::<NodeId>().is_err());
                for bad in [tampered(&id_text), tampered(&short_text)] {
                    let err = bad.parse::<Id>().unwrap_err();
                    assert!(err.reason().contains("checksum"), "{bad}: {err}");
                }
                let err = tampered(&node_text).parse::<NodeId>().unwrap_err();
                assert!(err.reason().contains("checksum"), "{err}");
            }
        }
    }

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn cb58_vectors() {
        for (hex, cb58) in [
            ("", "45PJLL"),
            ("00", "1c7hwa"),
            ("00010203040506070809ff", "1NVSVezva3bAtJesnUj"),
            (
                "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
                "SkB92YpWm4Q2ijQHH34cqbKkCZWszsiQgHVjtNeFF2HdvDQU",
            ),
        ] {
            assert_eq!(cb58_encode(&unhex(hex)), cb58);
            assert_eq!(cb58_decode(cb58).unwrap(), unhex(hex));
        }
    }

    #[test]
    fn cb58_errors() {
        assert_eq!(
            cb58_decode("").unwrap_err().to_string(),
            r#"invalid cb58 "": zero length string"#
        );
        assert!(
            cb58_decode("45PJLM")
                .unwrap_err()
                .reason()
                .contains("invalid input checksum")
        );
        assert!(
            cb58_decode("1")
                .unwrap_err()
                .reason()
                .contains("smaller than the checksum")
        );
        assert!(cb58_decode("0OIl").is_err());
    }

    #[test]
    fn id_vectors() {
        assert_eq!(
            Id::ZERO.to_string(),
            "11111111111111111111111111111111LpoYY"
        );
        assert_eq!(Id::default(), Id::ZERO);
        for (hex, s) in [
            (
                "1800000000000000000000000000000000000000000000000000000000000000",
                "Ba3mm8Ra8JYYebeZ9p7zw1ayorDbeD1euwxhgzSLsncKqGoNt",
            ),
            (
                "617661206c616273000000000000000000000000000000000000000000000000",
                "jvYi6Tn9idMi7BaymUVi9zWjg5tpmW7trfKG1AYJLKZJ2fsU7",
            ),
            (
                "21e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff",
                "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
            ),
        ] {
            let id: Id = s.parse().unwrap();
            assert_eq!(id.as_bytes().as_slice(), unhex(hex).as_slice());
            assert_eq!(id.to_string(), s);
            assert_eq!(format!("{id:?}"), s);
            assert_eq!(serde_json::to_string(&id).unwrap(), format!("\"{s}\""));
            assert_eq!(serde_json::from_str::<Id>(&format!("\"{s}\"")).unwrap(), id);
        }
    }

    #[test]
    fn node_and_short_ids() {
        assert_eq!(
            NodeId::ZERO.to_string(),
            "NodeID-111111111111111111116DBWJs"
        );
        assert_eq!(ShortId::ZERO.to_string(), "111111111111111111116DBWJs");
        let mut b = [0u8; 20];
        b[0] = 0x18;
        assert_eq!(
            NodeId::new(b).to_string(),
            "NodeID-3BuDc2d1Efme5Apba6SJ8w3Tz7qeh6mHt"
        );
        let n: NodeId = "NodeID-9tLMkeWFhWXd8QZc4rSiS5meuVXF5kRsz".parse().unwrap();
        assert_eq!(&n.as_bytes()[..8], b"ava labs");
        // Key0 and ewoq addresses as short IDs.
        let s: ShortId = "Q4MzFZZDPHRPAHFeDs3NiyyaZDvxHKivf".parse().unwrap();
        assert_eq!(
            s.as_bytes().as_slice(),
            unhex("fceda8f90fcb5d30614b99d79fc4baa293077626")
        );
        let s: ShortId = "6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV".parse().unwrap();
        assert_eq!(
            s.as_bytes().as_slice(),
            unhex("3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c")
        );
    }

    #[test]
    fn id_errors() {
        let e = "111111111111111111116DBWJs".parse::<NodeId>().unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"invalid node ID "111111111111111111116DBWJs": missing "NodeID-" prefix"#
        );
        let e = "111111111111111111116DBWJs".parse::<Id>().unwrap_err();
        assert!(e.to_string().contains("expected 32 bytes, got 20"), "{e}");
        let e = "11111111111111111111111111111111LpoYY"
            .parse::<ShortId>()
            .unwrap_err();
        assert!(e.to_string().contains("expected 20 bytes, got 32"), "{e}");
        assert!(
            "11111111111111111111111111111111LpoYZ"
                .parse::<Id>()
                .is_err()
        );
        assert!(
            serde_json::from_str::<Id>(r#""""#)
                .unwrap_err()
                .to_string()
                .contains("zero length")
        );
        assert!(serde_json::from_str::<Id>("5").is_err());
    }

    #[test]
    fn map_keys_and_hash() {
        let json = r#"{"NodeID-111111111111111111116DBWJs":1}"#;
        let m: BTreeMap<NodeId, u8> = serde_json::from_str(json).unwrap();
        assert_eq!(m[&NodeId::ZERO], 1);
        assert_eq!(serde_json::to_string(&m).unwrap(), json);
        let v: BTreeMap<Id, u8> =
            serde_json::from_value(serde_json::json!({"11111111111111111111111111111111LpoYY": 2}))
                .unwrap();
        assert_eq!(v[&Id::ZERO], 2);
    }

    #[test]
    fn from_sha256() {
        // SHA-256 of the local X-chain genesis block (codec §9.13) is its block ID.
        let block = unhex(
            "00000000001400000000000000000000000000000000000000000000000000000000000000000000000000000000000000005fcb13d0000000000000000000000000000000000000000000000000000000000000000000000000",
        );
        assert_eq!(block.len(), 90);
        assert_eq!(
            Id::from_sha256(&block).to_string(),
            "7Rmt49TnhLg7uYyCbLX1qmeWVibpJXPrv3y7jBCZG3rKzBAh4"
        );
    }
}
