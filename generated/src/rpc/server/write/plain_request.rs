//! The usual request, read in one pass by hand: a JSON object of `"jsonrpc":"2.0"`, a
//! `method`, and optionally `id` and `params`, each once, in any order, with JSON whitespace
//! between tokens, no escape in a name or string and an integer, string or null `id`.
//!
//! Anything else is left to [`envelope::read`](crate::rpc::envelope::read) (serde_json), which
//! reads every request and says what is wrong with it; for the requests read here it gives
//! the same members, and `server`'s tests compare the two on generated requests. The
//! `params` value, when it is not `{}`, `[]` or `null`, is read by serde_json too, so it is
//! checked as JSON exactly as before.

use super::json_write::word_escapes;
use serde::Deserialize;
use serde_json::value::RawValue;

/// The members of a usual request, borrowed from its body.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Plain<'a> {
    /// The `id`'s JSON text; `None` for a notification.
    pub(crate) id: Option<&'a str>,
    /// The method's name.
    pub(crate) method: &'a str,
    /// The JSON text of `params`, if given.
    pub(crate) params: Option<&'a str>,
}

/// `body` read as a usual request, or `None` when it is anything else (including anything
/// malformed). An `id` longer than `max_id` bytes is left to the full reader, which refuses it.
pub(crate) fn read(body: &str, max_id: usize) -> Option<Plain<'_>> {
    let mut s = Scan { text: body, at: 0 };
    s.expect(b'{')?;
    let (mut two, mut method, mut id, mut params) = (false, None, None, None);
    loop {
        s.skip_space();
        // The four names, told apart by their first letter, then each compared whole.
        let (name, member) = match s.text.as_bytes().get(s.at + 1)? {
            b'j' => (r#""jsonrpc""#, Member::Jsonrpc),
            b'm' => (r#""method""#, Member::Method),
            b'i' => (r#""id""#, Member::Id),
            b'p' => (r#""params""#, Member::Params),
            _ => return None,
        };
        s.literal(name)?;
        s.expect(b':')?;
        s.skip_space();
        match member {
            Member::Jsonrpc if !two => {
                s.literal(r#""2.0""#)?;
                two = true;
            }
            Member::Method if method.is_none() => method = Some(s.string()?),
            Member::Id if id.is_none() => id = Some(s.id(max_id)?),
            Member::Params if params.is_none() => params = Some(s.value()?),
            // A member given twice.
            _ => return None,
        }
        s.skip_space();
        match s.next()? {
            b',' => {}
            b'}' => break,
            _ => return None,
        }
    }
    s.skip_space();
    if !two || s.at != body.len() {
        return None;
    }
    let method = method?;
    Some(Plain {
        id,
        method: &method[1..method.len() - 1],
        params,
    })
}

/// The members read here.
enum Member {
    Jsonrpc,
    Method,
    Id,
    Params,
}

/// A cursor over the body.
struct Scan<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Skips whitespace, then takes `byte`.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_space();
        (self.next()? == byte).then_some(())
    }

    /// The text `from` the start up to the cursor.
    fn since(&self, from: usize) -> &'a str {
        // Both ends sit next to ASCII bytes, so on character boundaries.
        self.text.get(from..self.at).unwrap_or_default()
    }

    /// A string with no escape or control character, quotes included, at the cursor.
    fn string(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let from = self.at;
        if bytes.get(from) != Some(&b'"') {
            return None;
        }
        let rest = bytes.get(from + 1..)?;
        // Eight bytes at a time; the last few padded with spaces, which end nothing.
        let mut word = 0;
        let len = loop {
            let found = match rest.get(word..word + 8) {
                Some(eight) => word_escapes(u64::from_le_bytes(eight.try_into().ok()?)),
                None => {
                    let tail = rest.get(word..)?;
                    let mut eight = [b' '; 8];
                    eight.get_mut(..tail.len())?.copy_from_slice(tail);
                    match word_escapes(u64::from_le_bytes(eight)) {
                        0 => return None,
                        found => found,
                    }
                }
            };
            if found != 0 {
                break word + found.trailing_zeros() as usize / 8;
            }
            word += 8;
        };
        if rest.get(len) != Some(&b'"') {
            return None;
        }
        self.at = from + len + 2;
        Some(self.since(from))
    }

    /// An `id` at the cursor: a string as [`string`](Self::string) reads it, `null`, or an
    /// integer (a `-`, then `0` or digits not starting with `0`), at most `max` bytes.
    fn id(&mut self, max: usize) -> Option<&'a str> {
        let from = self.at;
        match self.peek()? {
            b'"' => {
                self.string()?;
            }
            b'n' => self.literal("null")?,
            _ => {
                if self.peek() == Some(b'-') {
                    self.at += 1;
                }
                match self.next()? {
                    b'0' => {}
                    b'1'..=b'9' => {
                        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                            self.at += 1;
                        }
                    }
                    _ => return None,
                }
                // A fraction or an exponent is read by the full reader.
                if matches!(self.peek(), Some(b'.' | b'e' | b'E' | b'0'..=b'9')) {
                    return None;
                }
            }
        }
        let text = self.since(from);
        (text.len() <= max).then_some(text)
    }

    fn literal(&mut self, word: &str) -> Option<()> {
        let end = self.at + word.len();
        (self.text.as_bytes().get(self.at..end)? == word.as_bytes()).then(|| self.at = end)
    }

    /// An opening bracket, whitespace and `close`, taken; else nothing is.
    fn empty(&mut self, close: u8) -> bool {
        let from = self.at;
        self.at += 1;
        self.skip_space();
        if self.peek() == Some(close) {
            self.at += 1;
            return true;
        }
        self.at = from;
        false
    }

    /// Any JSON value at the cursor: `{}`, `[]` and `null` read here, others by serde_json.
    fn value(&mut self) -> Option<&'a str> {
        let from = self.at;
        let done = match self.peek()? {
            b'{' => self.empty(b'}'),
            b'[' => self.empty(b']'),
            b'n' => self.literal("null").is_some(),
            _ => false,
        };
        if !done {
            let rest = self.text.get(from..)?;
            let mut de = serde_json::Deserializer::from_str(rest);
            let raw = <&RawValue>::deserialize(&mut de).ok()?.get();
            // The value is borrowed from `rest`: its end is its offset plus its length.
            let offset = (raw.as_ptr() as usize).checked_sub(rest.as_ptr() as usize)?;
            self.at = from + offset + raw.len();
        }
        Some(self.since(from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(body: &str) -> Option<(Option<&str>, &str, Option<&str>)> {
        read(body, 128).map(|p| (p.id, p.method, p.params))
    }

    #[test]
    fn reads_the_usual_shapes() {
        assert_eq!(
            plain(r#"{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":{}}"#),
            Some((Some("1"), "info.getNetworkID", Some("{}")))
        );
        assert_eq!(
            plain(
                " {\n \"method\" : \"a.b\" ,\"params\":[ ] , \"jsonrpc\":\"2.0\", \"id\": \"x y\" }\r\n"
            ),
            Some((Some(r#""x y""#), "a.b", Some("[ ]")))
        );
        assert_eq!(
            plain(r#"{"jsonrpc":"2.0","method":"m","params":{"a":[1,{"b":"\u0041"}]},"id":-0}"#),
            Some((Some("-0"), "m", Some(r#"{"a":[1,{"b":"\u0041"}]}"#)))
        );
        assert_eq!(
            plain(r#"{"jsonrpc":"2.0","method":"m","id":null,"params":null}"#),
            Some((Some("null"), "m", Some("null")))
        );
        assert_eq!(
            plain(r#"{"jsonrpc":"2.0","method":"m"}"#),
            Some((None, "m", None))
        );
        assert_eq!(
            plain(r#"{"jsonrpc":"2.0","method":"é","params":"x","id":"ü"}"#),
            Some((Some(r#""ü""#), "é", Some(r#""x""#)))
        );
    }

    #[test]
    fn a_string_ends_at_its_quote_wherever_it_falls_in_a_word() {
        for len in 0..40 {
            let name = "m".repeat(len);
            let body = format!(r#"{{"jsonrpc":"2.0","method":"{name}","id":"{name}"}}"#);
            let quoted = format!("\"{name}\"");
            assert_eq!(
                plain(&body),
                Some((Some(quoted.as_str()), name.as_str(), None))
            );
            for at in 0..len {
                for odd in ['\\', '\t', '\u{1f}'] {
                    let mut bad = name.clone();
                    bad.replace_range(at..=at, &odd.to_string());
                    let body = format!(r#"{{"jsonrpc":"2.0","method":"{bad}"}}"#);
                    assert_eq!(read(&body, 128), None, "{body:?}");
                }
            }
        }
    }

    #[test]
    fn leaves_everything_else_to_the_full_reader() {
        for body in [
            "",
            "{}",
            "[]",
            r#"{"method":"m"}"#,
            r#"{"jsonrpc":"1.0","method":"m"}"#,
            r#"{"jsonrpc":"2\u002e0","method":"m"}"#,
            r#"{"jsonrpc":"2.0","method":"m\u0041"}"#,
            r#"{"jsonrpc":"2.0","method":"m","method":"m"}"#,
            r#"{"jsonrpc":"2.0","jsonrpc":"2.0","method":"m"}"#,
            r#"{"jsonrpc":"2.0","method":"m","extra":1}"#,
            r#"{"jsonrp\u0063":"2.0","method":"m"}"#,
            r#"{"jsonrpc":"2.0","method":"m","id":1.5}"#,
            r#"{"jsonrpc":"2.0","method":"m","id":1e3}"#,
            r#"{"jsonrpc":"2.0","method":"m","id":01}"#,
            r#"{"jsonrpc":"2.0","method":"m","id":-}"#,
            r#"{"jsonrpc":"2.0","method":"m","id":true}"#,
            r#"{"jsonrpc":"2.0","method":"m","id":{}}"#,
            r#"{"jsonrpc":"2.0","method":"m","id":nul}"#,
            r#"{"jsonrpc":"2.0","method":"m","params":{"a":}}"#,
            r#"{"jsonrpc":"2.0","method":"m","params":{}"#,
            r#"{"jsonrpc":"2.0","method":"m"} x"#,
            r#"{"jsonrpc":"2.0","method":"abc"#,
            r#"{"jsonrpc":"2.0","method":"info.getNetworkID"#,
            r#"{"jsonrpc":"2.0","method":"m",}"#,
            r#"{"jsonrpc":"2.0" "method":"m"}"#,
            "{\"jsonrpc\":\"2.0\",\"method\":\"m\t\"}",
            "\u{feff}{\"jsonrpc\":\"2.0\",\"method\":\"m\"}",
        ] {
            assert_eq!(read(body, 128), None, "{body}");
        }
        let long = format!(
            r#"{{"jsonrpc":"2.0","method":"m","id":"{}"}}"#,
            "x".repeat(127)
        );
        assert_eq!(read(&long, 128), None);
        assert!(read(&long, 129).is_some());
    }
}
