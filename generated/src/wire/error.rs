//! The error type shared by every wire scalar.

use std::fmt::Display;

/// Longest input (in characters) quoted verbatim in an error message.
const MAX_SHOWN: usize = 80;

/// A wire value that could not be parsed, converted or encoded.
///
/// The message names the kind of value, the offending input (quoted when it was a string, bare when
/// it was a JSON number; cut to 80 characters) and the reason, e.g.
/// `invalid u64 "abc": expected a decimal string or a non-negative integer`.
///
/// Deserialize impls turn it into a serde error with `serde::de::Error::custom`, so the same text
/// reaches the caller of `serde_json::from_str`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {what} {input}: {reason}")]
pub struct WireError {
    what: &'static str,
    input: String,
    reason: String,
}

impl WireError {
    /// An error about the string `input`, shown quoted (and truncated).
    pub(crate) fn new(what: &'static str, input: &str, reason: impl Into<String>) -> Self {
        let shown = match input.char_indices().nth(MAX_SHOWN) {
            Some((cut, _)) => format!("{:?}… ({} bytes)", &input[..cut], input.len()),
            None => format!("{input:?}"),
        };
        Self {
            what,
            input: shown,
            reason: reason.into(),
        }
    }

    /// An error about a non-string input (a JSON number, a byte count, …), shown bare.
    pub(crate) fn value(
        what: &'static str,
        input: impl Display,
        reason: impl Into<String>,
    ) -> Self {
        let mut shown = input.to_string();
        if let Some((cut, _)) = shown.char_indices().nth(MAX_SHOWN) {
            shown.truncate(cut);
            shown.push('…');
        }
        Self {
            what,
            input: shown,
            reason: reason.into(),
        }
    }

    /// The kind of value that was expected, e.g. `u64`, `ID`, `address`.
    pub fn what(&self) -> &'static str {
        self.what
    }

    /// The offending input as shown in the message (quoted if it was a string, possibly truncated).
    pub fn input(&self) -> &str {
        &self.input
    }

    /// Why the input was rejected, e.g. `invalid input checksum`.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_shape() {
        let e = WireError::new(
            "u64",
            "abc",
            "expected a decimal string or a non-negative integer",
        );
        assert_eq!(
            e.to_string(),
            r#"invalid u64 "abc": expected a decimal string or a non-negative integer"#
        );
        assert_eq!(e.what(), "u64");
        assert_eq!(e.input(), r#""abc""#);
        assert_eq!(
            e.reason(),
            "expected a decimal string or a non-negative integer"
        );
        assert_eq!(
            WireError::value("u8", -1, "negative").to_string(),
            "invalid u8 -1: negative"
        );
    }

    #[test]
    fn long_inputs_are_truncated() {
        let long = "x".repeat(500);
        let msg = WireError::new("ID", &long, "bad").to_string();
        assert!(msg.len() < 140, "{msg}");
        assert!(msg.contains("(500 bytes)"));
        // Multi-byte characters are cut on a character boundary.
        let wide = "é".repeat(100);
        assert!(WireError::new("ID", &wide, "bad").to_string().contains('…'));
        assert!(WireError::value("ID", &long, "bad").to_string().len() < 120);
    }
}
