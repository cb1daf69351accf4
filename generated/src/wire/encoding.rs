//! The `encoding` request parameter and the byte encodings it selects.

use std::fmt;
use std::str::FromStr;

use super::text::string_serde;
use super::{HexBytes, WireError};

/// How bytes are written on the wire (Go `formatting.Encoding`).
///
/// Written lower-case; read case-insensitively (`"HEX"` is accepted, `""` is not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// `hex` (the default): `0x` + hex of the bytes followed by their 4-byte checksum.
    #[default]
    Hex,
    /// `hexc`: identical to [`Encoding::Hex`].
    HexC,
    /// `hexnc`: `0x` + hex of the bytes, without checksum.
    HexNc,
    /// `json`: a structured JSON object; only some methods support it, never as a byte encoding.
    Json,
}

impl Encoding {
    /// Every encoding, in wire-name order.
    const ALL: [Encoding; 4] = [
        Encoding::Hex,
        Encoding::HexC,
        Encoding::HexNc,
        Encoding::Json,
    ];

    /// The lower-case wire name: `hex`, `hexc`, `hexnc` or `json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Hex => "hex",
            Encoding::HexC => "hexc",
            Encoding::HexNc => "hexnc",
            Encoding::Json => "json",
        }
    }

    fn unsupported(self) -> WireError {
        WireError::new("encoding", self.as_str(), "unsupported encoding in method")
    }

    /// Encodes `bytes` as the node does: `hex`/`hexc` append the checksum, `hexnc` does not, and
    /// `json` fails with `unsupported encoding in method`.
    pub fn encode(self, bytes: &[u8]) -> Result<HexBytes, WireError> {
        match self {
            Encoding::Hex | Encoding::HexC => Ok(HexBytes::with_checksum(bytes)),
            Encoding::HexNc => Ok(HexBytes(bytes.to_vec())),
            Encoding::Json => Err(self.unsupported()),
        }
    }

    /// Decodes `s` with the node's rules: `""` is empty bytes (for every encoding); otherwise `0x` hex
    /// is required, `hex`/`hexc` verify and strip the checksum, `hexnc` takes the bytes as they are
    /// and `json` fails with `unsupported encoding in method`.
    pub fn decode(self, s: &str) -> Result<Vec<u8>, WireError> {
        if s.is_empty() {
            return Ok(Vec::new());
        }
        match self {
            Encoding::Hex | Encoding::HexC => {
                let hex: HexBytes = s.parse()?;
                let payload = hex
                    .strip_checksum()
                    .map_err(|e| WireError::new("hex", s, e.reason()))?;
                Ok(payload.to_vec())
            }
            Encoding::HexNc => Ok(s.parse::<HexBytes>()?.0),
            Encoding::Json => Err(self.unsupported()),
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Encoding {
    type Err = WireError;

    /// Matches the wire names case-insensitively.
    fn from_str(s: &str) -> Result<Self, WireError> {
        Self::ALL
            .into_iter()
            .find(|e| e.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                WireError::new(
                    "encoding",
                    s,
                    r#"expected one of "hex", "hexc", "hexnc", "json""#,
                )
            })
    }
}

string_serde!(Encoding => "an encoding name");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for e in Encoding::ALL {
            assert_eq!(e.as_str().parse::<Encoding>(), Ok(e));
            assert_eq!(e.as_str().to_uppercase().parse::<Encoding>(), Ok(e));
            let json = serde_json::to_string(&e).unwrap();
            assert_eq!(json, format!("\"{}\"", e.as_str()));
            assert_eq!(serde_json::from_str::<Encoding>(&json).unwrap(), e);
        }
        assert_eq!(
            serde_json::from_str::<Encoding>(r#""HexNC""#).unwrap(),
            Encoding::HexNc
        );
        assert_eq!(
            serde_json::from_str::<Encoding>(r#""Json""#).unwrap(),
            Encoding::Json
        );
        assert_eq!(Encoding::default(), Encoding::Hex);
        assert_eq!(Encoding::HexC.to_string(), "hexc");
        assert_eq!(
            "".parse::<Encoding>().unwrap_err().to_string(),
            r#"invalid encoding "": expected one of "hex", "hexc", "hexnc", "json""#
        );
        assert!(serde_json::from_str::<Encoding>(r#""base58""#).is_err());
        assert!(serde_json::from_str::<Encoding>("0").is_err());
    }

    #[test]
    fn encode() {
        assert_eq!(
            Encoding::Hex.encode(&[0]).unwrap().to_string(),
            "0x0017afa01d"
        );
        assert_eq!(
            Encoding::HexC.encode(&[]).unwrap().to_string(),
            "0x7852b855"
        );
        assert_eq!(
            Encoding::HexNc.encode(&[0, 1]).unwrap().to_string(),
            "0x0001"
        );
        assert_eq!(
            Encoding::Json.encode(&[1]).unwrap_err().to_string(),
            r#"invalid encoding "json": unsupported encoding in method"#
        );
    }

    #[test]
    fn decode() {
        let v = "0x00010203040506070809ff4482539c";
        let payload = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xff];
        assert_eq!(Encoding::Hex.decode(v).unwrap(), payload);
        assert_eq!(
            Encoding::HexC
                .decode(&v.to_uppercase().replace("0X", "0x"))
                .unwrap(),
            payload
        );
        assert_eq!(Encoding::HexNc.decode("0x0001").unwrap(), [0, 1]);
        assert_eq!(
            Encoding::Hex.decode("0x7852b855").unwrap(),
            Vec::<u8>::new()
        );
        for e in Encoding::ALL {
            assert_eq!(e.decode("").unwrap(), Vec::<u8>::new());
            assert_eq!(
                e.decode(&e.encode(&payload).unwrap_or_default().to_string())
                    .is_ok(),
                e != Encoding::Json
            );
        }
        let err = |e: Encoding, s: &str| e.decode(s).unwrap_err().to_string();
        assert_eq!(
            err(Encoding::Hex, "0017afa01d"),
            r#"invalid hex "0017afa01d": missing 0x prefix"#
        );
        assert_eq!(
            err(Encoding::Hex, "0x0017afa01e"),
            r#"invalid hex "0x0017afa01e": invalid input checksum"#
        );
        assert_eq!(
            err(Encoding::HexC, "0x00"),
            r#"invalid hex "0x00": input is smaller than the checksum size"#
        );
        assert!(err(Encoding::HexNc, "0x0").contains("odd length hex string"));
        assert_eq!(
            err(Encoding::Json, "0x00"),
            r#"invalid encoding "json": unsupported encoding in method"#
        );
    }
}
