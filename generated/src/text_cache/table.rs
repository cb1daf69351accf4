//! The text of identifiers, computed once: a bounded cache from an identifier's bytes to its
//! text (cb58 with its SHA-256 checksum, bech32 with its checksum), so that a server writing
//! the same IDs, node IDs and addresses on every reply pays for their text once.
//!
//! Off until [`enable_text_cache`](super::enable_text_cache) is called (the server runtime, [`rpc::serve`], calls it
//! unless told not to); then every [`Id`](crate::wire::Id), [`NodeId`](crate::wire::NodeId),
//! [`ShortId`](crate::wire::ShortId) and bech32 [`Address`](crate::wire::Address) written through
//! `Display` or serde looks its text up first. `Id` stays 32 bytes and `Copy`: the text lives
//! in the cache, not in the value.
//!
//! The cache is a fixed table of 128-byte entries (two cache lines: the key in the first, the
//! text in the second), four-way set-associative, allocated and written when it is enabled:
//! memory never grows past it. An entry is found only by all
//! its key bytes (a kind byte, the identifier and, for an address, its chain and HRP), so a
//! text is never given for the wrong value; a miss computes the text as before and keeps it.
//! Entries are read without a lock: each is a sequence of atomic words guarded by a version
//! (a sequence lock), so readers on several threads never write to a shared cache line; a
//! reader that meets an entry being written treats it as a miss.
//!
//! Each lookup is a random read of the table, about one trip to memory when the table is
//! larger than the processor's caches; a server's reply first looks in the trail of its
//! method's last reply, read in order ([`trail`](super::trail)).
//!
//! [`rpc::serve`]: crate::rpc::serve

use super::key::{KEY_BYTES, TEXT_BYTES, Text, words_of};
use super::trail;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering, fence};

/// Entries per set.
const WAYS: usize = 4;

/// Words of an entry: the version, the lengths, the key, the text.
const WORDS: usize = 16;
const KEY_AT: usize = 2;
const TEXT_AT: usize = KEY_AT + KEY_BYTES / 8;

/// One entry: word 0 its version (odd while being written, 0 while empty), word 1 the key's
/// length and the text's, then the key's words, then the text's.
#[repr(align(64))]
struct Entry([AtomicU64; WORDS]);

static SETS: OnceLock<Box<[[Entry; WAYS]]>> = OnceLock::new();

/// Allocates and writes the table with room for `entries` texts (rounded up to a power of two,
/// at least 4), unless it is already there; `on_first` is given the entries when it is
/// allocated now. Returns the number of entries.
pub(super) fn allocate(entries: usize, on_first: impl FnOnce(usize)) -> usize {
    let sets = SETS.get_or_init(|| {
        let sets = (entries.max(WAYS) / WAYS).next_power_of_two();
        on_first(sets * WAYS);
        (0..sets)
            .map(|_| std::array::from_fn(|_| Entry(std::array::from_fn(|_| AtomicU64::new(0)))))
            .collect()
    });
    sets.len() * WAYS
}

/// Whether the table is there.
pub(super) fn allocated() -> bool {
    SETS.get().is_some()
}

/// [`text_of_padded`] for a key of any length (more than [`KEY_BYTES`]: made every time).
#[cfg(test)]
pub(crate) fn text_of(key: &[u8], make: impl FnOnce() -> Option<Text>) -> Option<Text> {
    let mut padded = [0u8; KEY_BYTES];
    match padded.get_mut(..key.len()) {
        Some(room) => room.copy_from_slice(key),
        None => return make(),
    }
    text_of_padded(&padded, key.len(), make)
}

/// The text for the key that is the first `len` bytes of `key` (every byte after them 0):
/// from the trail of the reply being written or the cache, or made by `make` (and kept)
/// when the cache is on and does not hold it. `make` returns `None` when there is no text to
/// keep. The key comes padded so that its words are read with fixed-size loads.
pub(crate) fn text_of_padded(
    key: &[u8; KEY_BYTES],
    len: usize,
    make: impl FnOnce() -> Option<Text>,
) -> Option<Text> {
    debug_assert!(
        key.get(len..)
            .is_some_and(|rest| rest.iter().all(|&b| b == 0))
    );
    let Some(sets) = SETS.get().filter(|_| len <= KEY_BYTES) else {
        return make();
    };
    let words = words_of(key);
    if let Some(text) = trail::next(len, &words) {
        return Some(text);
    }
    let set = &sets[hash(&words, len) as usize & (sets.len() - 1)];
    for entry in set {
        if let Some(text) = entry.read(len, &words) {
            trail::record(len, &words, &text);
            return Some(text);
        }
    }
    let text = make()?;
    trail::record(len, &words, &text);
    // The way written the longest ago (an empty one has version 0).
    if let Some(oldest) = set.iter().min_by_key(|e| e.0[0].load(Ordering::Relaxed)) {
        oldest.write(len, &words, &text);
    }
    Some(text)
}

impl Entry {
    /// The text if this entry holds `key` and is not being written.
    fn read(&self, key_len: usize, key: &[u64; KEY_BYTES / 8]) -> Option<Text> {
        let w = &self.0;
        let version = w[0].load(Ordering::Acquire);
        if version == 0 || version & 1 == 1 {
            return None;
        }
        let lens = w[1].load(Ordering::Relaxed);
        if lens & 0xff != key_len as u64 {
            return None;
        }
        if (0..KEY_BYTES / 8).any(|i| w[KEY_AT + i].load(Ordering::Relaxed) != key[i]) {
            return None;
        }
        let mut text = Text::new();
        for i in 0..TEXT_BYTES / 8 {
            let word = w[TEXT_AT + i].load(Ordering::Relaxed).to_le_bytes();
            text.bytes[i * 8..i * 8 + 8].copy_from_slice(&word);
        }
        text.len = ((lens >> 8) & 0xff).min(TEXT_BYTES as u64) as u8;
        // Everything read above happened before this second look at the version: if it did
        // not change, no writer touched the entry meanwhile.
        fence(Ordering::Acquire);
        (w[0].load(Ordering::Relaxed) == version).then_some(text)
    }

    /// Writes `key` and `text` into the entry, unless another writer holds it.
    fn write(&self, key_len: usize, key: &[u64; KEY_BYTES / 8], text: &Text) {
        let w = &self.0;
        let version = w[0].load(Ordering::Relaxed);
        if version & 1 == 1
            || w[0]
                .compare_exchange(version, version + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        // No write below may be seen before the odd version.
        fence(Ordering::Release);
        w[1].store(key_len as u64 | u64::from(text.len) << 8, Ordering::Relaxed);
        for (i, word) in key.iter().enumerate() {
            w[KEY_AT + i].store(*word, Ordering::Relaxed);
        }
        for (i, chunk) in text.bytes.chunks_exact(8).enumerate() {
            let mut b = [0u8; 8];
            b.copy_from_slice(chunk);
            w[TEXT_AT + i].store(u64::from_le_bytes(b), Ordering::Relaxed);
        }
        // Even again, and newer than the other way's: it was written last.
        w[0].store(next_version(version + 2), Ordering::Release);
    }
}

/// Versions grow by a process-wide counter so the ways of a set tell which was written last;
/// `version` is only a floor.
fn next_version(version: u64) -> u64 {
    static CLOCK: AtomicU64 = AtomicU64::new(2);
    let now = CLOCK.fetch_add(2, Ordering::Relaxed) + 2;
    now.max(version)
}

/// A fast hash of the key's words.
fn hash(words: &[u64; KEY_BYTES / 8], len: usize) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15 ^ len as u64;
    for &w in words {
        h = (h ^ w).wrapping_mul(0x5851_f42d_4c95_7f2d);
        h ^= h >> 29;
    }
    h ^ (h >> 32)
}

#[cfg(test)]
mod tests {
    use super::super::{DEFAULT_ENTRIES, enable_text_cache};
    use super::*;

    fn text(s: &str) -> Text {
        let mut t = Text::new();
        assert!(t.push(s.as_bytes()));
        t
    }

    #[test]
    fn a_text_is_made_once_and_found_only_by_all_its_key() {
        enable_text_cache(DEFAULT_ENTRIES);
        let mut made = 0;
        let key = [7u8; 33];
        for _ in 0..3 {
            let t = text_of(&key, || {
                made += 1;
                Some(text("seven"))
            });
            assert_eq!(t.map(|t| t.as_str().to_owned()).as_deref(), Some("seven"));
        }
        assert_eq!(made, 1);
        // One byte different, or one byte shorter (the padding is zero): not the same entry.
        let mut other = key;
        other[32] = 8;
        assert_eq!(
            text_of(&other, || Some(text("eight"))).unwrap().as_str(),
            "eight"
        );
        let mut zero_end = key;
        zero_end[32] = 0;
        assert_eq!(
            text_of(&zero_end, || Some(text("zero"))).unwrap().as_str(),
            "zero"
        );
        assert_eq!(
            text_of(&key[..32], || Some(text("short")))
                .unwrap()
                .as_str(),
            "short"
        );
        assert_eq!(
            text_of(&key, || Some(text("again"))).unwrap().as_str(),
            "seven"
        );
        // A key too long for the cache is made every time.
        let long = [1u8; KEY_BYTES + 1];
        let mut made = 0;
        for _ in 0..2 {
            text_of(&long, || {
                made += 1;
                Some(text("long"))
            });
        }
        assert_eq!(made, 2);
    }

    #[test]
    fn many_keys_on_many_threads_always_get_their_own_text() {
        enable_text_cache(DEFAULT_ENTRIES);
        // More keys than entries, so entries are replaced while others read them.
        let keys = DEFAULT_ENTRIES * 2;
        std::thread::scope(|s| {
            for t in 0..4u32 {
                s.spawn(move || {
                    for round in 0..3u32 {
                        for i in 0..keys as u32 {
                            let k = (i.wrapping_mul(2_654_435_761) ^ t ^ round) % keys as u32;
                            let mut key = [0u8; 32];
                            key[..4].copy_from_slice(&k.to_le_bytes());
                            key[31] = 0xee;
                            let want = format!("text-{k}");
                            let got = text_of(&key, || Some(text(&want))).unwrap();
                            assert_eq!(got.as_str(), want);
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn texts_longer_than_the_room_are_refused() {
        let mut t = Text::new();
        assert!(t.push(&[b'a'; TEXT_BYTES]));
        assert!(!t.push(b"b"));
        assert_eq!(t.as_str().len(), TEXT_BYTES);
    }
}
