//! The key of an identifier's text and the text itself: what the table and the trails share
//! (so neither imports the other for it).

/// Longest key, in bytes.
pub(crate) const KEY_BYTES: usize = 48;
/// Longest text kept, in bytes.
pub(crate) const TEXT_BYTES: usize = 64;

/// A text of at most [`TEXT_BYTES`] ASCII bytes, on the stack.
#[derive(Clone, Copy)]
pub(crate) struct Text {
    pub(super) len: u8,
    pub(super) bytes: [u8; TEXT_BYTES],
}

impl Text {
    /// The empty text.
    pub(crate) const fn new() -> Self {
        Self {
            len: 0,
            bytes: [0; TEXT_BYTES],
        }
    }

    /// Appends `piece`; `false` (and nothing appended) if it does not fit.
    pub(crate) fn push(&mut self, piece: &[u8]) -> bool {
        let at = usize::from(self.len);
        let Some(end) = at.checked_add(piece.len()).filter(|&e| e <= TEXT_BYTES) else {
            return false;
        };
        self.bytes[at..end].copy_from_slice(piece);
        self.len = end as u8;
        true
    }

    /// The text's bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The text. Only ASCII is ever pushed (identifier alphabets, chain aliases, HRPs).
    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

/// The key's words: the bytes of `key` (zero past the key's length) read eight at a time.
pub(crate) fn words_of(key: &[u8; KEY_BYTES]) -> [u64; KEY_BYTES / 8] {
    std::array::from_fn(|i| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&key[i * 8..i * 8 + 8]);
        u64::from_le_bytes(word)
    })
}
