//! [`excerpt`]: the one way request text is quoted back in an error.

use std::borrow::Cow;

/// Most characters of request text an error quotes back, the `…` included.
pub const EXCERPT_CHARS: usize = 100;

/// Characters kept from the end of a long text, so the tail of a message (serde's
/// `expected …`, a closing quote) survives.
const TAIL_CHARS: usize = 30;

/// `text` if it is at most [`EXCERPT_CHARS`] characters long; otherwise its first 69 and last
/// 30 characters joined by `…`. Every error this crate's server builds from request text
/// (serde's messages with the offending value, field paths, method names, media types) goes
/// through it, so an error reply never carries more than a short excerpt of what was sent.
/// Handlers may use it for their own messages.
///
/// ```
/// use avalanche_rpc::rpc::{EXCERPT_CHARS, excerpt};
/// assert_eq!(excerpt("short"), "short");
/// let long = format!("invalid type: string \"{}\", expected u64", "x".repeat(10_000));
/// let cut = excerpt(&long);
/// assert_eq!(cut.chars().count(), EXCERPT_CHARS);
/// assert!(cut.starts_with("invalid type: string \"xxx") && cut.contains('…'));
/// assert!(cut.ends_with("xxx\", expected u64"));
/// ```
pub fn excerpt(text: &str) -> Cow<'_, str> {
    excerpt_to(text, EXCERPT_CHARS)
}

/// `text` if it is at most `max` characters long; otherwise its head and its last
/// [`TAIL_CHARS`] characters joined by `…`, `max` characters in all.
fn excerpt_to(text: &str, max: usize) -> Cow<'_, str> {
    let Some((head_end, _)) = text.char_indices().nth(max) else {
        return Cow::Borrowed(text);
    };
    let head_chars = max - TAIL_CHARS - 1;
    let head_end = text
        .char_indices()
        .nth(head_chars)
        .map_or(head_end, |(i, _)| i);
    let tail_start = text
        .char_indices()
        .rev()
        .nth(TAIL_CHARS - 1)
        .map_or(head_end, |(i, _)| i);
    Cow::Owned(format!("{}…{}", &text[..head_end], &text[tail_start..]))
}

/// Most characters of a message built around quoted request text, once each quote is cut.
pub const MESSAGE_CHARS: usize = 1_000;

/// A message that quotes request text, with each quoted run (between `"` or `` ` ``, an
/// unclosed one running to the end) longer than [`EXCERPT_CHARS`] cut to an [`excerpt`]: the
/// message's own words stay whole, what it quotes is short. A message still longer than
/// [`MESSAGE_CHARS`] (many quotes) is cut as a whole, so an error stays small whatever was sent.
///
/// ```
/// use avalanche_rpc::rpc::excerpt_quotes;
/// let long = format!("couldn't parse address \"X-{}\": expected hrp \"local\" but got \"avax\"", "a".repeat(500));
/// let cut = excerpt_quotes(&long);
/// assert!(cut.starts_with("couldn't parse address \"X-aaa") && cut.contains('…'));
/// assert!(cut.ends_with("\": expected hrp \"local\" but got \"avax\""));
/// ```
pub fn excerpt_quotes(text: &str) -> Cow<'_, str> {
    if text.chars().count() <= EXCERPT_CHARS {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(4 * MESSAGE_CHARS));
    let mut rest = text;
    while let Some(open) = rest.find(['"', '`']) {
        let quote = rest.as_bytes()[open] as char;
        out.push_str(&rest[..=open]);
        let inner = &rest[open + 1..];
        let (quoted, after) = match inner.find(quote) {
            Some(close) => (&inner[..close], &inner[close..]),
            None => (inner, ""),
        };
        out.push_str(&excerpt(quoted));
        match after.strip_prefix(quote) {
            Some(tail) => {
                out.push(quote);
                rest = tail;
            }
            None => rest = after,
        }
        if out.len() > 4 * MESSAGE_CHARS {
            break;
        }
    }
    // What is left is cut before it is copied: the final cut keeps only the head, which
    // `out` or this cut's head holds, and the last characters, which this cut keeps.
    out.push_str(&excerpt_to(rest, MESSAGE_CHARS));
    match excerpt_to(&out, MESSAGE_CHARS) {
        Cow::Borrowed(_) => Cow::Owned(out),
        Cow::Owned(cut) => Cow::Owned(cut),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_cut_and_words_kept() {
        let q = "q".repeat(5_000);
        let text =
            format!("invalid type: string \"{q}\", expected `{q}` or nothing, said the server");
        let cut = excerpt_quotes(&text);
        assert!(cut.starts_with("invalid type: string \"qqq"), "{cut}");
        assert!(
            cut.contains("\", expected `qq") && cut.ends_with("` or nothing, said the server"),
            "{cut}"
        );
        assert_eq!(cut.matches('…').count(), 2, "{cut}");
        // An unclosed quote runs to the end; many quotes still give a bounded message.
        assert!(excerpt_quotes(&format!("bad \"{q}")).chars().count() < 120);
        let many = format!("\"{}\" ", "a".repeat(90)).repeat(1_000);
        assert_eq!(excerpt_quotes(&many).chars().count(), MESSAGE_CHARS);
        assert!(matches!(excerpt_quotes("short \"x\""), Cow::Borrowed(_)));
    }

    #[test]
    fn short_text_is_kept() {
        let exact = "é".repeat(EXCERPT_CHARS);
        assert!(matches!(excerpt(&exact), Cow::Borrowed(_)));
        assert_eq!(excerpt(""), "");
    }

    #[test]
    fn long_text_keeps_head_and_tail() {
        let text = format!("{}{}", "a".repeat(500), "b".repeat(500));
        let cut = excerpt(&text);
        assert_eq!(cut.chars().count(), EXCERPT_CHARS);
        assert_eq!(cut, format!("{}…{}", "a".repeat(69), "b".repeat(30)));
    }

    #[test]
    fn multibyte_characters_are_not_split() {
        let text = "é🦀".repeat(1_000_000);
        let cut = excerpt(&text);
        assert_eq!(cut.chars().count(), EXCERPT_CHARS);
        assert!(cut.len() < 4 * EXCERPT_CHARS);
    }

    #[test]
    fn one_over_the_limit_is_cut() {
        let text = "x".repeat(EXCERPT_CHARS + 1);
        assert_eq!(excerpt(&text).chars().count(), EXCERPT_CHARS);
    }
}
