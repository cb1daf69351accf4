//! The order a method's replies meet their identifiers in, so that the text cache is read in
//! order rather than at random.
//!
//! A server writing the same validators reply after reply looks the same keys up in the same
//! order, and each lookup in the [text cache](super::table) is a random read of a table
//! larger than the processor's caches: about one trip to memory per identifier, which costs
//! about what the cache saves. A trail keeps the (key, text) pairs of one method's last reply
//! in the order they were met. While the next reply is written, each lookup first checks the
//! next few pairs of the trail (a window of [`WINDOW`], so an inserted or removed identifier
//! does not lose the thread) and only then the table. Reading the trail is a sequential read,
//! which the processor fetches ahead.
//!
//! A trail is only a faster path to the same text: a pair is taken only when its whole key is
//! the key asked for, and a pair enters a trail only from the table or from `make`. Once the
//! reply is written, its trail becomes the order it actually met (rebuilt when it differed).
//!
//! Each method has a small pool of trails ([`Trails`], one per reply being written at once).
//! All trails together hold at most as many pairs as the text cache has entries (about 128
//! bytes each): a trail that cannot get room stops recording, and a reply past that looks the
//! rest up in the table. Rebuilding a trail briefly holds its old and new pairs together.
//!
//! The server runtime starts trails for the replies it writes (`SizeHint` in
//! `rpc/server/write/buffers.rs`). The client starts them, the same way, for the large replies it reads
//! ([`while_reading`], from `rpc/client/mod.rs`): there a lookup goes the other way, from a text to
//! its key, so that reading the same validators again takes each identifier's bytes from the
//! pair met last time instead of decoding its base58 or bech32 and verifying its checksum
//! again. Such a pair is only ever taken for a text equal to the one that was decoded and
//! checked in full, and only canonical texts (the one text an identifier has) are kept, so a
//! pair is right in both directions. Reading trails have a budget of their own
//! ([`limit_read_trails`]), with no table behind them: a text not in the trail is decoded.
#![cfg_attr(not(all(feature = "server", feature = "client")), allow(dead_code))]

use super::key::{KEY_BYTES, Text, words_of};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// How many pairs from the expected one a lookup checks: enough to step over a validator
/// taken out of a reply (its ID, node ID and reward addresses).
const WINDOW: usize = 8;

/// The least room a trail asks for at a time.
const FIRST_ROOM: usize = 64;

/// One key (its length and its bytes as zero-padded words) and its text.
#[derive(Clone, Copy)]
struct Pair {
    len: u8,
    words: [u64; KEY_BYTES / 8],
    text: Text,
}

/// Pairs that all trails may still hold.
pub(crate) struct Budget(AtomicUsize);

impl Budget {
    const fn new(pairs: usize) -> Self {
        Self(AtomicUsize::new(pairs))
    }

    /// Takes room for up to `want` pairs; returns how many it got.
    fn take(&self, want: usize) -> usize {
        let mut got = 0;
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                got = want.min(left);
                Some(left - got)
            });
        got
    }

    fn give(&self, pairs: usize) {
        self.0.fetch_add(pairs, Ordering::Relaxed);
    }
}

/// The room of the trails of every method, set once by
/// [`enable_text_cache`](super::enable_text_cache).
static BUDGET: Budget = Budget::new(0);

/// Whether the text cache is on, so that the server's replies keep trails: set with the
/// budget, by the same call.
static WRITING: AtomicBool = AtomicBool::new(false);

/// Sets the room of all trails and turns them on (the first call of `enable_text_cache`
/// makes it, as it allocates the table).
pub(super) fn set_budget(pairs: usize) {
    BUDGET.0.store(pairs, Ordering::Relaxed);
    WRITING.store(true, Ordering::Release);
}

/// The pairs all reading trails hold by default: the identifiers and addresses of a reply of
/// about 2,500 validators (six or seven each), in about 2 MiB.
pub const DEFAULT_READ_PAIRS: usize = 16_384;

/// The room of the reading trails, and the limit set once.
static READ_BUDGET: Budget = Budget::new(0);
static READ_LIMIT: OnceLock<usize> = OnceLock::new();

/// Replies shorter than this are read without a trail: they hold few identifiers, and
/// taking a trail would cost more than it saves.
const READ_TRAIL_FROM: usize = 8 * 1024;

/// Sets how many (text, identifier) pairs the client's reading trails hold in all, across
/// methods and threads (about 128 bytes each; [`DEFAULT_READ_PAIRS`] unless set), and returns
/// the limit in force. `0` turns them off. The first call, or the first large reply read,
/// decides; later calls change nothing.
///
/// With them on, a client that reads a method's large reply again (the validator set, say)
/// takes the bytes of each ID, node ID and address whose text is the same as in the last
/// reply, at the same place or a few places on, from that reply instead of decoding the text
/// and verifying its checksum anew: a text is only ever matched in full against one that was
/// decoded and checked, so every identifier read is still one whose checksum held.
pub fn limit_read_trails(pairs: usize) -> usize {
    *READ_LIMIT.get_or_init(|| {
        READ_BUDGET.give(pairs);
        pairs
    })
}

/// Runs `f`, the reading of one reply of `method` (`body_len` bytes), with a trail of the
/// identifiers met in its last large reply, when the reply is large and reading trails are on.
pub(crate) fn while_reading<R>(method: &'static str, body_len: usize, f: impl FnOnce() -> R) -> R {
    if body_len < READ_TRAIL_FROM || limit_read_trails(DEFAULT_READ_PAIRS) == 0 {
        return f();
    }
    static POOLS: OnceLock<Mutex<HashMap<&'static str, &'static Trails>>> = OnceLock::new();
    // One pool per method, for the life of the process: the methods are the catalog's.
    let pool = POOLS
        .get_or_init(Default::default)
        .lock()
        .ok()
        .map(|mut pools| {
            *pools.entry(method).or_insert_with(|| {
                Box::leak(Box::new(Trails {
                    idle: Mutex::new(Vec::new()),
                    budget: Some(&READ_BUDGET),
                    reading: true,
                }))
            })
        });
    match pool {
        Some(pool) => pool.in_order(f),
        None => f(),
    }
}

/// Pairs in order, each with a tag: a word that differs between most pairs looked up the
/// same way, checked before the pair itself so that a lookup's candidates are read from one
/// or two cache lines of tags rather than from as many pairs.
#[derive(Default)]
struct Pairs {
    pairs: Vec<Pair>,
    tags: Vec<u64>,
}

impl Pairs {
    fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Room for `more` pairs beyond those held.
    fn reserve_exact(&mut self, more: usize) {
        self.pairs.reserve_exact(more);
        self.tags.reserve_exact(more);
    }

    fn clear(&mut self) {
        self.pairs.clear();
        self.tags.clear();
    }

    fn push(&mut self, pair: Pair, tag: u64) {
        self.pairs.push(pair);
        self.tags.push(tag);
    }

    /// The pair at `i` and its tag.
    fn get(&self, i: usize) -> Option<(Pair, u64)> {
        Some((*self.pairs.get(i)?, *self.tags.get(i)?))
    }
}

/// The tag of a pair looked up by its key: all the key's words and its length, folded.
fn key_tag(len: u8, words: &[u64; KEY_BYTES / 8]) -> u64 {
    words.iter().fold(u64::from(len), |tag, w| tag ^ w)
}

/// The tag of a pair looked up by its text: the text's last eight bytes (checksum
/// characters, for an identifier) and its length.
fn text_tag(text: &[u8]) -> u64 {
    text.last_chunk::<8>().map_or(0, |w| u64::from_le_bytes(*w)) ^ text.len() as u64
}

/// The trail of one reply: the pairs of the last one in order, and what this one met.
struct Trail {
    /// The last reply's pairs, in order.
    seq: Pairs,
    /// Where in `seq` the next lookup is expected.
    cursor: usize,
    /// Lookups missed since the last one the trail gave.
    misses: usize,
    /// What this reply met, in order: an index into `seq`, or `seq.len()` plus one into
    /// `fresh`.
    order: Vec<u32>,
    /// Pairs this reply met that `seq` did not hold where it was expected.
    fresh: Pairs,
    /// Whether this reply's order differs from `seq`.
    changed: bool,
    /// Room taken from `budget`, in pairs (the capacities of `seq` and `fresh`).
    held: usize,
    budget: &'static Budget,
    /// Whether it serves a reply being read (lookups by text) rather than written (by key).
    reading: bool,
}

impl Trail {
    fn new(budget: &'static Budget, reading: bool) -> Self {
        Self {
            reading,
            seq: Pairs::default(),
            cursor: 0,
            misses: 0,
            order: Vec::new(),
            fresh: Pairs::default(),
            changed: false,
            held: 0,
            budget,
        }
    }

    /// The first of the next pairs with `tag` that `matches`, taken as the one met: one of
    /// the [`WINDOW`] pairs from where this lookup is expected, or, after that many lookups
    /// or more missed in a row (a run of identifiers replaced by others), from as far past it.
    fn next_where(&mut self, tag: u64, matches: impl Fn(&Pair) -> bool) -> Option<&Pair> {
        let seq = &self.seq;
        let within = |from: usize| {
            let to = (from + WINDOW).min(seq.len());
            (from..to).find(|&i| seq.tags[i] == tag && matches(&seq.pairs[i]))
        };
        let found = within(self.cursor).or_else(|| {
            (self.misses >= WINDOW)
                .then(|| within(self.cursor + self.misses))
                .flatten()
        });
        let Some(at) = found else {
            self.misses += 1;
            return None;
        };
        self.changed |= at != self.cursor;
        self.cursor = at + 1;
        self.misses = 0;
        self.order.push(at as u32);
        Some(&self.seq.pairs[at])
    }

    /// The text of the key if one of the next pairs holds it.
    fn next(&mut self, len: u8, words: &[u64; KEY_BYTES / 8]) -> Option<Text> {
        self.next_where(key_tag(len, words), |p| p.len == len && p.words == *words)
            .map(|p| p.text)
    }

    /// Keeps a pair the trail did not give, if there is room for it.
    fn record(&mut self, len: u8, words: &[u64; KEY_BYTES / 8], text: &Text) {
        self.changed = true;
        if self.fresh.len() == self.fresh.pairs.capacity() {
            let got = self.budget.take(
                self.fresh
                    .pairs
                    .capacity()
                    .max(FIRST_ROOM)
                    .min(u32::MAX as usize / 4),
            );
            if got == 0 {
                return;
            }
            self.fresh.reserve_exact(got);
            self.held += got;
        }
        let index = self.seq.len() + self.fresh.len();
        let Ok(index) = u32::try_from(index) else {
            return;
        };
        let tag = if self.reading {
            text_tag(text.as_bytes())
        } else {
            key_tag(len, words)
        };
        let pair = Pair {
            len,
            words: *words,
            text: *text,
        };
        self.fresh.push(pair, tag);
        self.order.push(index);
    }

    /// Ready for a reply.
    fn begin(&mut self) {
        self.cursor = 0;
        self.misses = 0;
        self.changed = false;
        self.order.clear();
    }

    /// The reply is written: the trail becomes the order it met.
    fn finish(&mut self) {
        if !self.changed && self.cursor == self.seq.len() {
            return;
        }
        let order = std::mem::take(&mut self.order);
        let first_fresh = self.seq.len();
        let all_fresh = order.len() == self.fresh.len()
            && order
                .iter()
                .zip(first_fresh..)
                .all(|(&i, k)| i as usize == k);
        if all_fresh {
            // Nothing of the last reply met, the new pairs in the order kept: they become the
            // trail as they stand, and the old one's room holds the next reply's new pairs
            // (a reply whose identifiers are all new costs no copy and no allocation).
            std::mem::swap(&mut self.seq, &mut self.fresh);
            self.fresh.clear();
        } else {
            // Every index of `order` is used once and points into `seq` or `fresh`, so the
            // new sequence fits in the room they hold, which is given back first.
            self.budget.give(self.held);
            let room = self.budget.take(order.len());
            let (seq, fresh) = (&self.seq, &self.fresh);
            let mut rebuilt = Pairs::default();
            rebuilt.reserve_exact(room);
            for &i in order.iter().take(room) {
                let i = i as usize;
                if let Some((pair, tag)) = seq.get(i).or_else(|| fresh.get(i - seq.len())) {
                    rebuilt.push(pair, tag);
                }
            }
            self.seq = rebuilt;
            self.fresh = Pairs::default();
            self.held = room;
        }
        self.order = order;
        self.order.clear();
        self.cursor = 0;
    }
}

impl Drop for Trail {
    fn drop(&mut self) {
        self.budget.give(self.held);
    }
}

thread_local! {
    /// The trail of the reply this thread is writing, if any.
    static ACTIVE: RefCell<Option<Trail>> = const { RefCell::new(None) };
}

/// The trails of one method: one per reply of it being written at once.
pub(crate) struct Trails {
    idle: Mutex<Vec<Trail>>,
    budget: Option<&'static Budget>,
    reading: bool,
}

impl std::fmt::Debug for Trails {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trails").finish_non_exhaustive()
    }
}

impl Default for Trails {
    fn default() -> Self {
        Self::new()
    }
}

impl Trails {
    /// No trail yet; room from the budget of all trails.
    pub(crate) const fn new() -> Self {
        Self {
            idle: Mutex::new(Vec::new()),
            budget: None,
            reading: false,
        }
    }

    /// Runs `f` (the writing of one reply) with one of these trails, so the text cache's
    /// lookups in it follow the order of an earlier reply. Without the text cache, just `f`
    /// (a pool with a budget of its own is always used).
    pub(crate) fn in_order<R>(&self, f: impl FnOnce() -> R) -> R {
        if self.budget.is_none() && !WRITING.load(Ordering::Acquire) {
            return f();
        }
        let budget = self.budget.unwrap_or(&BUDGET);
        let mut trail = self
            .idle
            .lock()
            .ok()
            .and_then(|mut idle| idle.pop())
            .unwrap_or_else(|| Trail::new(budget, self.reading));
        trail.begin();
        let _active = Active {
            pool: self,
            outer: ACTIVE.with(|a| a.try_borrow_mut().ok()?.replace(trail)),
        };
        f()
    }
}

/// While a reply is written: puts the trail back in its pool at the end, even if the
/// writing panics, and gives the thread back the trail of any reply it was writing before.
struct Active<'a> {
    pool: &'a Trails,
    outer: Option<Trail>,
}

impl Drop for Active<'_> {
    fn drop(&mut self) {
        let outer = self.outer.take();
        let Some(mut trail) = ACTIVE.with(|a| match a.try_borrow_mut() {
            Ok(mut active) => std::mem::replace(&mut *active, outer),
            Err(_) => None,
        }) else {
            return;
        };
        trail.finish();
        if let Ok(mut idle) = self.pool.idle.lock() {
            idle.push(trail);
        }
    }
}

/// `f` with the trail of the reply this thread is reading (`reading`) or writing, if any.
fn with_active<R>(reading: bool, f: impl FnOnce(&mut Trail) -> Option<R>) -> Option<R> {
    ACTIVE.with(|a| {
        let mut active = a.try_borrow_mut().ok()?;
        f(active.as_mut().filter(|t| t.reading == reading)?)
    })
}

/// The text of the key from the trail of the reply being written, if it holds it next.
pub(crate) fn next(len: usize, words: &[u64; KEY_BYTES / 8]) -> Option<Text> {
    with_active(false, |trail| trail.next(len as u8, words))
}

/// Keeps a pair that the table or `make` gave in the trail of the reply being written.
pub(crate) fn record(len: usize, words: &[u64; KEY_BYTES / 8], text: &Text) {
    with_active(false, |trail| {
        trail.record(len as u8, words, text);
        Some(())
    });
}

/// The key (its length and bytes) whose text is `text`, if the trail of the reply being read
/// holds it next under a key whose kind byte passes `kind`.
pub(crate) fn key_of(text: &[u8], kind: impl Fn(u8) -> bool) -> Option<(usize, [u8; KEY_BYTES])> {
    with_active(true, |trail| {
        let tag = text_tag(text);
        let pair =
            trail.next_where(tag, |p| p.text.as_bytes() == text && kind(p.words[0] as u8))?;
        let mut key = [0u8; KEY_BYTES];
        for (bytes, word) in key.chunks_exact_mut(8).zip(&pair.words) {
            bytes.copy_from_slice(&word.to_le_bytes());
        }
        Some((usize::from(pair.len), key))
    })
}

/// Keeps the pair `make` gives (a key's length and bytes, and its canonical text) in the trail
/// of the reply being read, if there is one; `make` is called only then.
pub(crate) fn remember(make: impl FnOnce() -> Option<(usize, [u8; KEY_BYTES], Text)>) {
    with_active(true, |trail| {
        let (len, key, text) = make()?;
        trail.record(len as u8, &words_of(&key), &text);
        Some(())
    });
}

#[cfg(test)]
mod tests {
    use super::super::table::text_of;
    use super::super::{DEFAULT_ENTRIES, enable_text_cache};
    use super::*;
    use std::cell::Cell;

    /// A key that no other test uses: a 0x3c byte (no identifier kind) and `n`.
    fn key(n: u32) -> [u8; 9] {
        let mut k = [0x3c; 9];
        k[1..5].copy_from_slice(&n.to_le_bytes());
        k
    }

    fn want(n: u32) -> String {
        format!("text of {n}")
    }

    /// Looks each key up; returns the texts.
    fn lookups(keys: &[u32]) -> Vec<String> {
        keys.iter()
            .map(|&n| {
                text_of(&key(n), || {
                    let mut t = Text::new();
                    t.push(want(n).as_bytes()).then_some(t)
                })
                .unwrap()
                .as_str()
                .to_owned()
            })
            .collect()
    }

    /// Writes one "reply" of `keys` with `trails`; returns how many lookups the trail served.
    fn reply(trails: &Trails, keys: &[u32]) -> usize {
        let served = Cell::new(0);
        let texts = trails.in_order(|| {
            let before = ACTIVE.with(|a| a.borrow().as_ref().map_or(0, |t| t.order.len()));
            let texts = lookups(keys);
            let trail_hits = ACTIVE.with(|a| {
                let a = a.borrow();
                let t = a.as_ref().unwrap();
                t.order[before..]
                    .iter()
                    .filter(|&&i| (i as usize) < t.seq.len())
                    .count()
            });
            served.set(trail_hits);
            texts
        });
        let expected: Vec<String> = keys.iter().map(|&n| want(n)).collect();
        assert_eq!(texts, expected);
        served.get()
    }

    fn own_budget(pairs: usize) -> &'static Budget {
        Box::leak(Box::new(Budget::new(pairs)))
    }

    fn trails(budget: &'static Budget) -> Trails {
        Trails {
            idle: Mutex::new(Vec::new()),
            budget: Some(budget),
            reading: false,
        }
    }

    fn reading_trails(budget: &'static Budget) -> Trails {
        Trails {
            reading: true,
            ..trails(budget)
        }
    }

    #[test]
    fn the_same_keys_in_the_same_order_come_from_the_trail() {
        enable_text_cache(DEFAULT_ENTRIES);
        let t = trails(own_budget(1_000));
        let keys: Vec<u32> = (0..100).collect();
        assert_eq!(reply(&t, &keys), 0);
        assert_eq!(reply(&t, &keys), 100);
        assert_eq!(reply(&t, &keys), 100);
    }

    #[test]
    fn insertions_removals_reversals_and_repeats_give_each_key_its_own_text() {
        enable_text_cache(DEFAULT_ENTRIES);
        let t = trails(own_budget(1_000));
        let base: Vec<u32> = (100..200).collect();
        reply(&t, &base);
        // One inserted: the trail serves all the others, and the next reply all.
        let mut inserted = base.clone();
        inserted.insert(50, 5_000);
        assert_eq!(reply(&t, &inserted), 100);
        assert_eq!(reply(&t, &inserted), 101);
        // Two removed in a row: within the window.
        let removed: Vec<u32> = inserted
            .iter()
            .copied()
            .filter(|&n| n != 130 && n != 131)
            .collect();
        assert_eq!(reply(&t, &removed), 99);
        assert_eq!(reply(&t, &removed), 99);
        // Reversed: texts still right; the trail learns the new order.
        let reversed: Vec<u32> = removed.iter().rev().copied().collect();
        reply(&t, &reversed);
        assert_eq!(reply(&t, &reversed), 99);
        // The same key again and again.
        let repeated = [7, 7, 7, 8, 7];
        reply(&t, &repeated);
        assert_eq!(reply(&t, &repeated), 5);
        // A key swapped for a neighbour's bytes is never taken for it.
        reply(&t, &[300, 301, 302]);
        assert_eq!(reply(&t, &[300, 303, 302]), 2);
    }

    #[test]
    fn all_trails_hold_no_more_than_their_budget_and_give_it_back() {
        enable_text_cache(DEFAULT_ENTRIES);
        let budget = own_budget(100);
        let keys: Vec<u32> = (1_000..1_500).collect();
        {
            let t = trails(budget);
            reply(&t, &keys);
            assert!(budget.0.load(Ordering::Relaxed) <= 100);
            // Only what fits is served from the trail; the rest is still right.
            let served = reply(&t, &keys);
            assert!((1..=100).contains(&served), "served {served}");
            // Two replies at once (one inside the other) share the same room.
            t.in_order(|| {
                assert_eq!(reply(&t, &keys[..50]), 0);
                lookups(&keys[50..]);
            });
            assert!(budget.0.load(Ordering::Relaxed) <= 100);
        }
        assert_eq!(budget.0.load(Ordering::Relaxed), 100);
    }

    #[test]
    fn a_reply_that_panics_puts_its_trail_back_and_leaves_none_active() {
        enable_text_cache(DEFAULT_ENTRIES);
        let t = trails(own_budget(1_000));
        let keys: Vec<u32> = (2_000..2_010).collect();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            t.in_order(|| {
                lookups(&keys);
                panic!("the writer failed");
            })
        }));
        assert!(caught.is_err());
        assert!(ACTIVE.with(|a| a.borrow().is_none()));
        assert_eq!(t.idle.lock().unwrap().len(), 1);
        assert_eq!(reply(&t, &keys), 10);
    }

    /// Reads `texts` (an ID, node ID, bech32 address and short ID in turn) as one reply with
    /// `trails`; returns what each gave (its `Debug` form or the error) and how many came from
    /// the trail.
    fn read(trails: &Trails, texts: &[String]) -> (Vec<String>, usize) {
        use crate::wire::{Address, Id, NodeId, ShortId};
        fn shown<T: std::fmt::Debug, E: std::fmt::Display>(r: Result<T, E>) -> String {
            r.map_or_else(|e| format!("error: {e}"), |v| format!("{v:?}"))
        }
        trails.in_order(|| {
            let values = texts
                .iter()
                .enumerate()
                .map(|(i, t)| match i % 4 {
                    0 => shown(t.parse::<Id>()),
                    1 => shown(t.parse::<NodeId>()),
                    2 => shown(t.parse::<Address>()),
                    _ => shown(t.parse::<ShortId>()),
                })
                .collect();
            let served = ACTIVE.with(|a| {
                let a = a.borrow();
                let t = a.as_ref().unwrap();
                t.order
                    .iter()
                    .filter(|&&i| (i as usize) < t.seq.len())
                    .count()
            });
            (values, served)
        })
    }

    fn texts(from: u8, to: u8) -> Vec<String> {
        use crate::wire::{Address, Id, NodeId, ShortId};
        (from..to)
            .flat_map(|b| {
                [
                    Id::new([b; 32]).to_string(),
                    NodeId::new([b; 20]).to_string(),
                    Address::new(Some("P"), "fuji", [b; 20])
                        .unwrap()
                        .to_string(),
                    ShortId::new([b; 20]).to_string(),
                ]
            })
            .collect()
    }

    #[test]
    fn a_reply_read_again_takes_its_identifiers_from_the_trail_and_only_for_the_same_text() {
        // With the text cache on, the `Debug` of what was read (inside the reply, in `read`)
        // must not take the reading trail for a writing one.
        enable_text_cache(DEFAULT_ENTRIES);
        let t = reading_trails(own_budget(1_000));
        let base = texts(0, 25);
        let (first, served) = read(&t, &base);
        assert_eq!(served, 0);
        assert!(first.iter().all(|v| !v.starts_with("error")), "{first:?}");
        let (again, served) = read(&t, &base);
        assert_eq!((again.as_slice(), served), (first.as_slice(), 100));
        // A checksum character changed in each kind: refused, though the trail holds the text
        // it was at that place; the rest still come from the trail.
        let mut changed = base.clone();
        for i in [40, 41, 42, 43] {
            let last = changed[i].pop().unwrap();
            changed[i].push(if last == '2' { '3' } else { '2' });
        }
        let (values, served) = read(&t, &changed);
        for (i, v) in values.iter().enumerate() {
            if (40..44).contains(&i) {
                assert!(v.starts_with("error") && v.contains("checksum"), "{i}: {v}");
            } else {
                assert_eq!(v, &first[i]);
            }
        }
        assert_eq!(served, 96);
        // A run of four taken out, and another of eight replaced: the rest from the trail.
        read(&t, &base);
        let mut edited = base.clone();
        edited.drain(20..24);
        edited.splice(40..48, texts(100, 102));
        let (values, served) = read(&t, &edited);
        assert!(values.iter().all(|v| !v.starts_with("error")));
        assert_eq!(served, 88);
        read(&t, &base);
        // Upper-case bech32 is the same address but not its text: decoded, never kept.
        let mut upper = base.clone();
        upper[2] = upper[2].to_uppercase();
        let (values, _) = read(&t, &upper);
        assert_eq!(values, first);
        let (values, served) = read(&t, &upper);
        assert_eq!((values, served), (first.clone(), 99));
        // Texts of one kind are never taken for another: the IDs as short IDs fail to read.
        let ids_as_short: Vec<String> = base
            .iter()
            .step_by(4)
            .flat_map(|id| ["x".into(), "x".into(), "x".into(), id.clone()])
            .collect();
        let (values, _) = read(&t, &ids_as_short);
        assert!(
            values
                .iter()
                .skip(3)
                .step_by(4)
                .all(|v| v.starts_with("error")),
            "{values:?}"
        );
    }
}
