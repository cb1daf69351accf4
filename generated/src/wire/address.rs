//! Addresses: `<chain>-<hrp>1<data>` bech32 strings or raw cb58 short IDs.

use std::borrow::Cow;
use std::error::Error;
use std::fmt;
use std::str::FromStr;

use bech32::primitives::decode::CheckedHrpstring;
use bech32::{Bech32, Hrp};
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::text::deserialize_from_str;
use super::{ShortId, WireError};
use crate::text_cache::{self, KEY_BYTES, Text, text_of_padded};

/// Number of bech32 data characters (5 bits each) that hold exactly 20 bytes.
const PAYLOAD_CHARS: usize = 32;

/// An address holding a 20-byte payload (RIPEMD-160 of SHA-256 of a public key).
///
/// The node writes `<chain>-<hrp>1<data>` (`X-avax1…`, `P-fuji1…`); genesis data uses the bare bech32
/// form without chain (`avax1…`); as input the node also accepts a raw cb58 short ID. Parsing tries
/// the short ID first when the string has no `-`; otherwise it splits at the first `-` and decodes
/// classic bech32 (BIP-173, not bech32m), which must carry exactly 20 bytes. `Display` writes the
/// canonical form (the bech32 part lower-case). The chain alias and HRP are not checked against a
/// network here; that is up to the caller. A short ID and a bech32 address with the same payload
/// are different values: compare [`Address::payload`] to compare the bytes.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Address {
    /// `<chain>-<hrp>1<data>`, or `<hrp>1<data>` when `chain` is `None`.
    Bech32 {
        /// The chain alias before the first `-` (`X`, `P`, `C`, a chain ID…), if any.
        /// Borrowed for the usual aliases, so reading an address allocates nothing for it.
        chain: Option<Cow<'static, str>>,
        /// The lower-case human-readable part (`avax`, `fuji`, `local`, `custom`…).
        /// Borrowed for the networks' HRPs.
        hrp: Cow<'static, str>,
        /// The 20 address bytes.
        payload: [u8; 20],
    },
    /// A raw cb58 short ID.
    Short(ShortId),
}

/// `e` and all its sources, joined with `: `.
fn error_chain(e: &dyn Error) -> String {
    let mut msg = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        msg = format!("{msg}: {s}");
        source = s.source();
    }
    msg
}

/// The chain aliases and HRPs an address usually holds, kept without an allocation.
const USUAL_NAMES: [&str; 7] = ["X", "P", "C", "avax", "fuji", "local", "custom"];

/// `name` as an address keeps it: borrowed when it is one of [`USUAL_NAMES`], else owned.
fn kept(name: &str) -> Cow<'static, str> {
    match USUAL_NAMES.iter().find(|usual| **usual == name) {
        Some(usual) => Cow::Borrowed(usual),
        None => Cow::Owned(name.to_owned()),
    }
}

/// The key of a bech32 address in the text cache and the trails, and its length; `None` when
/// the chain and HRP are too long for one. The kind (an address, with or without a chain), the
/// chain's length and the chain, the HRP and a 0 byte after it (which an HRP never holds), the
/// payload last.
fn bech32_key(
    chain: Option<&str>,
    hrp: &str,
    payload: &[u8; 20],
) -> Option<([u8; KEY_BYTES], usize)> {
    let c = chain.unwrap_or("").as_bytes();
    let len = 2 + c.len() + hrp.len() + 1 + payload.len();
    if len > KEY_BYTES {
        return None;
    }
    let mut key = [0u8; KEY_BYTES];
    key[0] = BECH32_KIND | u8::from(chain.is_some());
    key[1] = c.len() as u8;
    key[2..2 + c.len()].copy_from_slice(c);
    let at = 2 + c.len();
    key[at..at + hrp.len()].copy_from_slice(hrp.as_bytes());
    key[at + hrp.len() + 1..len].copy_from_slice(payload);
    Some((key, len))
}

/// The kind byte of a bech32 address's key (its low bit says whether it has a chain).
const BECH32_KIND: u8 = 0x40;

/// The address whose text `s` the trail of the reply being read met last time, if it holds it
/// next (the payload from the key; the chain and HRP, which the text holds as they are, from
/// the text).
fn bech32_from_trail(s: &str) -> Option<Address> {
    let (len, key) = text_cache::key_of(s.as_bytes(), |k| k & !1 == BECH32_KIND)?;
    let payload = key.get(len.checked_sub(20)?..len)?.try_into().ok()?;
    let (chain, bech) = match key[0] & 1 {
        1 => s.split_once('-').map(|(c, b)| (Some(c), b))?,
        _ => (None, s),
    };
    // The separator and the 38 characters of data and checksum follow the HRP.
    let hrp = bech.get(..bech.len().checked_sub(PAYLOAD_CHARS + 7)?)?;
    Some(Address::Bech32 {
        chain: chain.map(kept),
        hrp: kept(hrp),
        payload,
    })
}

impl Address {
    /// A bech32 address. `chain` must be non-empty ASCII letters and digits, `hrp` a valid bech32
    /// human-readable part (stored lower-case).
    pub fn new(chain: Option<&str>, hrp: &str, payload: [u8; 20]) -> Result<Address, WireError> {
        if let Some(c) =
            chain.filter(|c| c.is_empty() || !c.bytes().all(|b| b.is_ascii_alphanumeric()))
        {
            return Err(WireError::new(
                "chain alias",
                c,
                "expected ASCII letters and digits",
            ));
        }
        let parsed =
            Hrp::parse(hrp).map_err(|e| WireError::new("bech32 hrp", hrp, error_chain(&e)))?;
        Ok(Address::Bech32 {
            chain: chain.map(kept),
            hrp: kept(&parsed.to_lowercase()),
            payload,
        })
    }

    /// The chain alias, if the address has one.
    pub fn chain(&self) -> Option<&str> {
        match self {
            Address::Bech32 { chain, .. } => chain.as_deref(),
            Address::Short(_) => None,
        }
    }

    /// The bech32 human-readable part; `None` for a short ID.
    pub fn hrp(&self) -> Option<&str> {
        match self {
            Address::Bech32 { hrp, .. } => Some(hrp),
            Address::Short(_) => None,
        }
    }

    /// The 20 address bytes (for a short ID, its bytes).
    pub fn payload(&self) -> [u8; 20] {
        match self {
            Address::Bech32 { payload, .. } => *payload,
            Address::Short(id) => *id.as_bytes(),
        }
    }

    /// The canonical text of a bech32 address from the text cache (made and kept on a miss),
    /// when its chain and HRP are short enough to be a key; `None` otherwise.
    fn cached_text(&self) -> Option<Text> {
        let Address::Bech32 {
            chain,
            hrp,
            payload,
        } = self
        else {
            return None;
        };
        let (key, len) = bech32_key(chain.as_deref(), hrp, payload)?;
        text_of_padded(&key, len, || {
            let text = self.to_canonical().ok()?;
            let mut kept = Text::new();
            kept.push(text.as_bytes()).then_some(kept)
        })
    }

    /// The canonical string; fails only for a hand-built `Bech32` value with an invalid HRP.
    fn to_canonical(&self) -> Result<String, WireError> {
        let (chain, hrp, payload) = match self {
            Address::Short(id) => return Ok(id.to_string()),
            Address::Bech32 {
                chain,
                hrp,
                payload,
            } => (chain, hrp, payload),
        };
        let mut out = String::with_capacity(64);
        if let Some(c) = chain {
            out.push_str(c);
            out.push('-');
        }
        if super::bech32_fast::encode_into(hrp, payload, &mut out) {
            return Ok(out);
        }
        // An HRP the fast path does not take: the crate encodes it or says why not.
        let fail = |e: &dyn Error| WireError::new("bech32 hrp", hrp, error_chain(e));
        let parsed = Hrp::parse(hrp).map_err(|e| fail(&e))?;
        bech32::encode_lower_to_fmt::<Bech32, _>(&mut out, parsed, payload)
            .map_err(|e| fail(&e))?;
        Ok(out)
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(text) = self.cached_text() {
            return f.write_str(text.as_str());
        }
        match self.to_canonical() {
            Ok(s) => f.write_str(&s),
            Err(e) => write!(f, "<{e}>"),
        }
    }
}

/// Prints the string form, as `Display` does.
impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Address {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        if let Some(address) = bech32_from_trail(s) {
            return Ok(address);
        }
        let fail = |reason: String| WireError::new("address", s, reason);
        let (chain, bech) = match s.split_once('-') {
            Some((chain, bech)) => (Some(chain), bech),
            None => match s.parse::<ShortId>() {
                Ok(id) => return Ok(Address::Short(id)),
                Err(_) => (None, s),
            },
        };
        let chain_ok =
            chain.is_none_or(|c| !c.is_empty() && c.bytes().all(|b| b.is_ascii_alphanumeric()));
        if chain_ok && let Some((hrp, payload)) = super::bech32_fast::decode(bech) {
            // A valid chain alias and a checked lower-case HRP: what `Address::new` stores,
            // and the text is its canonical one.
            text_cache::remember(|| {
                let (key, len) = bech32_key(chain, hrp, &payload)?;
                let mut text = Text::new();
                text.push(s.as_bytes()).then_some((len, key, text))
            });
            return Ok(Address::Bech32 {
                chain: chain.map(kept),
                hrp: kept(hrp),
                payload,
            });
        }
        let checked = CheckedHrpstring::new::<Bech32>(bech).map_err(|e| {
            let kind = if chain.is_some() {
                "invalid bech32"
            } else {
                "neither a cb58 short ID nor bech32"
            };
            fail(format!("{kind}: {}", error_chain(&e)))
        })?;
        let data = checked.data_part_ascii_no_checksum();
        if data.len() != PAYLOAD_CHARS {
            return Err(fail(format!(
                "expected a 20-byte payload ({PAYLOAD_CHARS} data characters), got {} characters",
                data.len()
            )));
        }
        let mut payload = [0u8; 20];
        payload
            .iter_mut()
            .zip(checked.byte_iter())
            .for_each(|(dst, b)| *dst = b);
        Address::new(chain, checked.hrp().as_str(), payload)
            .map_err(|e| fail(format!("{} {}: {}", e.what(), e.input(), e.reason())))
    }
}

impl Serialize for Address {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let cached = self.cached_text();
        let text = match &cached {
            Some(text) => text.as_str().into(),
            None => Cow::Owned(self.to_canonical().map_err(S::Error::custom)?),
        };
        // The data part is bech32's alphabet and a short ID is base58's; a chain alias or HRP
        // in a hand-built value could hold anything, so only theirs is looked at.
        let plain = |part: &str| part.bytes().all(|b| b.is_ascii_alphanumeric());
        let marked = match self {
            Address::Bech32 { chain, hrp, .. } => chain.as_deref().is_none_or(plain) && plain(hrp),
            Address::Short(_) => true,
        };
        if marked {
            super::ascii::serialize(&text, s)
        } else {
            s.serialize_str(&text)
        }
    }
}

impl<'de> Deserialize<'de> for Address {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_from_str(d, "an address string")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_through_the_text_cache_are_written_as_without_it() {
        crate::wire::enable_text_cache(crate::wire::TEXT_CACHE_ENTRIES);
        for byte in 0..=255u8 {
            let payload = [byte; 20];
            // The same payload under other chains and HRPs, and as a short ID: each its own.
            let addresses = [
                Address::new(Some("P"), "avax", payload).unwrap(),
                Address::new(Some("X"), "avax", payload).unwrap(),
                Address::new(None, "avax", payload).unwrap(),
                Address::new(Some("P"), "fuji", payload).unwrap(),
                Address::new(Some("P"), "custom", payload).unwrap(),
                Address::Short(ShortId::new(payload)),
            ];
            for _ in 0..2 {
                for a in &addresses {
                    assert_eq!(a.to_string(), a.to_canonical().unwrap());
                    let json = serde_json::to_string(a).unwrap();
                    assert_eq!(json, format!("\"{}\"", a.to_canonical().unwrap()));
                }
            }
        }
    }

    #[test]
    fn with_the_text_cache_on_addresses_are_still_read_in_full_and_their_checksums_checked() {
        crate::wire::enable_text_cache(crate::wire::TEXT_CACHE_ENTRIES);
        for byte in 0..=255u8 {
            let payload = [byte; 20];
            for (chain, hrp) in [
                (Some("P"), "avax"),
                (Some("X"), "avax"),
                (None, "avax"),
                (Some("P"), "fuji"),
                (
                    Some("2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5"),
                    "custom",
                ),
            ] {
                let address = Address::new(chain, hrp, payload).unwrap();
                let text = address.to_string();
                // The last character (a checksum character) changed: refused every time.
                let (head, last) = text.split_at(text.len() - 1);
                let bad = format!("{head}{}", if last == "q" { "p" } else { "q" });
                for _ in 0..2 {
                    assert_eq!(text.parse::<Address>().unwrap(), address);
                    let err = bad.parse::<Address>().unwrap_err();
                    assert!(err.reason().contains("checksum"), "{bad}: {err}");
                }
                // The same text upper-case (which bech32 allows) is the same address.
                if let Some(chain) = chain {
                    let (_, bech) = text.split_once('-').unwrap();
                    let upper = format!("{chain}-{}", bech.to_uppercase());
                    assert_eq!(upper.parse::<Address>().unwrap(), address);
                }
            }
        }
    }

    #[cfg(feature = "server")]
    #[test]
    fn a_hand_built_chain_or_hrp_that_needs_escaping_is_still_valid_json_from_the_server() {
        let odd = Address::Bech32 {
            chain: Some("a\"b".into()),
            hrp: "avax".into(),
            payload: EWOQ,
        };
        let plain = Address::new(Some("P"), "avax", EWOQ).unwrap();
        for address in [odd, plain] {
            let ours = crate::rpc::server::write::json_write::to_vec(&address).unwrap();
            assert_eq!(ours, serde_json::to_vec(&address).unwrap());
            let back: String = serde_json::from_slice(&ours).unwrap();
            assert_eq!(back, address.to_string());
        }
    }

    /// The ewoq key's address (`3cb7d384…b29c`).
    const EWOQ: [u8; 20] = [
        0x3c, 0xb7, 0xd3, 0x84, 0x2e, 0x8c, 0xee, 0x6a, 0x0e, 0xbd, 0x09, 0xf1, 0xfe, 0x88, 0x4f,
        0x68, 0x61, 0xe1, 0xb2, 0x9c,
    ];

    fn addr(s: &str) -> Address {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn ewoq_under_every_hrp() {
        for (hrp, s) in [
            ("avax", "avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5"),
            ("fuji", "fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t"),
            ("local", "local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"),
            ("testing", "testing18jma8ppw3nhx5r4ap8clazz0dps7rv5umpc36y"),
            ("custom", "custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p"),
        ] {
            let a = addr(s);
            assert_eq!((a.chain(), a.hrp(), a.payload()), (None, Some(hrp), EWOQ));
            assert_eq!(a.to_string(), s);
            assert_eq!(Address::new(None, hrp, EWOQ).unwrap(), a);
        }
    }

    #[test]
    fn chain_prefixed() {
        for chain in ["X", "P"] {
            let s = format!("{chain}-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u");
            let a = addr(&s);
            assert_eq!(
                (a.chain(), a.hrp(), a.payload()),
                (Some(chain), Some("local"), EWOQ)
            );
            assert_eq!(a.to_string(), s);
            assert_eq!(format!("{a:?}"), s);
            assert_eq!(serde_json::to_string(&a).unwrap(), format!("\"{s}\""));
            assert_eq!(
                serde_json::from_str::<Address>(&format!("\"{s}\"")).unwrap(),
                a
            );
            assert_eq!(Address::new(Some(chain), "local", EWOQ).unwrap(), a);
        }
        // Key 0..2 and vmRQ from the codec test vectors.
        for (s, hex) in [
            (
                "local1lnk637g0edwnqc2tn8tel39652fswa3xzmew5p",
                "fceda8f90fcb5d30614b99d79fc4baa293077626",
            ),
            (
                "local1d6kkj0qh4wcmus3tk59npwt3rluc6en77ajgr4",
                "6ead693c17abb1be422bb50b30b9711ff98d667e",
            ),
            (
                "local17fpqs358de5lgu7a5ftpw2t8axf0pm333ftzrw",
                "f2420846876e69f473dda256172967e992f0ee31",
            ),
            (
                "local1g65uqn6t77p656w64023nh8nd9updzmxyymev2",
                "46a9c04f4bf783aa69daabd519dcf36978168b66",
            ),
        ] {
            let got: String = addr(&format!("C-{s}"))
                .payload()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(got, hex);
        }
    }

    #[test]
    fn upper_case_is_canonicalised() {
        let a = addr("X-AVAX18JMA8PPW3NHX5R4AP8CLAZZ0DPS7RV5UKULRE5");
        assert_eq!(
            a.to_string(),
            "X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5"
        );
    }

    #[test]
    fn short_id_form() {
        let a = addr("6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV");
        assert_eq!(a, Address::Short(ShortId::new(EWOQ)));
        assert_eq!((a.chain(), a.hrp(), a.payload()), (None, None, EWOQ));
        assert_eq!(a.to_string(), "6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV");
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            "\"6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV\""
        );
    }

    #[test]
    fn rejections() {
        let err = |s: &str| s.parse::<Address>().unwrap_err().to_string();
        // Last checksum character changed.
        assert!(err("X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre6").contains("invalid bech32"));
        assert!(
            err("avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre6")
                .contains("neither a cb58 short ID nor bech32")
        );
        assert!(err("").starts_with(r#"invalid address "": "#));
        assert!(err("X-").contains("invalid bech32"));
        assert!(err("-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5").contains("chain alias \"\""));
        assert!(
            err("X_Y-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5").contains("letters and digits")
        );
        assert!(err("X-Avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5").contains("mixed-case"));
        // 32-byte payload under a valid checksum.
        let long = bech32::encode::<Bech32>(Hrp::parse("avax").unwrap(), &[7; 32]).unwrap();
        assert!(
            err(&long).contains("expected a 20-byte payload"),
            "{}",
            err(&long)
        );
        // bech32m checksum of the same payload is not accepted.
        let m = bech32::encode::<bech32::Bech32m>(Hrp::parse("avax").unwrap(), &EWOQ).unwrap();
        assert!(err(&format!("X-{m}")).contains("invalid bech32"));
        assert!(serde_json::from_str::<Address>("1").is_err());
    }

    #[test]
    fn the_usual_chain_aliases_and_hrps_are_borrowed_and_others_owned() {
        for chain in ["X", "P", "C"] {
            for hrp in ["avax", "fuji", "local", "custom"] {
                let text = Address::new(Some(chain), hrp, EWOQ).unwrap().to_string();
                let read: Address = text.parse().unwrap();
                assert!(
                    matches!(
                        &read,
                        Address::Bech32 {
                            chain: Some(Cow::Borrowed(c)),
                            hrp: Cow::Borrowed(h),
                            ..
                        } if *c == chain && *h == hrp
                    ),
                    "{text}"
                );
            }
        }
        let chain_id = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM";
        let text = Address::new(Some(chain_id), "avax", EWOQ)
            .unwrap()
            .to_string();
        let read: Address = text.parse().unwrap();
        assert!(matches!(
            &read,
            Address::Bech32 { chain: Some(Cow::Owned(c)), .. } if c == chain_id
        ));
        assert_eq!(read.to_string(), text);
    }

    #[test]
    fn constructor_errors() {
        assert!(
            Address::new(None, "", EWOQ)
                .unwrap_err()
                .to_string()
                .starts_with(r#"invalid bech32 hrp "": "#)
        );
        assert!(Address::new(None, "a b", EWOQ).is_err());
        assert!(Address::new(Some("X-"), "avax", EWOQ).is_err());
        let hand_built = Address::Bech32 {
            chain: None,
            hrp: "a b".into(),
            payload: EWOQ,
        };
        assert!(hand_built.to_string().starts_with("<invalid bech32 hrp"));
        assert!(serde_json::to_string(&hand_built).is_err());
    }
}
