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
    let Some((head_end, _)) = text.char_indices().nth(EXCERPT_CHARS) else {
        return Cow::Borrowed(text);
    };
    let head_chars = EXCERPT_CHARS - TAIL_CHARS - 1;
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

#[cfg(test)]
mod tests {
    use super::*;

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
