//! The order a method's replies meet their identifiers in, so that the text cache is read in
//! order rather than at random.
//!
//! A server writing the same validators reply after reply looks the same keys up in the same
//! order, and each lookup in the [text cache](super::text_cache) is a random read of a table
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
//! All trails together hold at most as many pairs as the text cache has entries (about 120
//! bytes each): a trail that cannot get room stops recording, and a reply past that looks the
//! rest up in the table. Rebuilding a trail briefly holds its old and new pairs together.
//!
//! Only the server runtime starts trails (`SizeHint` in `rpc/buffers.rs`); without the
//! `server` feature no lookup ever finds one active.
#![cfg_attr(not(feature = "server"), allow(dead_code))]

use super::text_cache::{KEY_BYTES, Text, text_cache_enabled};
use std::cell::RefCell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many pairs past the expected one a lookup checks.
const WINDOW: usize = 4;

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

/// Sets the room of all trails (the first call of `enable_text_cache` makes it).
pub(crate) fn set_budget(pairs: usize) {
    BUDGET.0.store(pairs, Ordering::Relaxed);
}

/// The trail of one reply: the pairs of the last one in order, and what this one met.
struct Trail {
    /// The last reply's pairs, in order.
    seq: Vec<Pair>,
    /// Where in `seq` the next lookup is expected.
    cursor: usize,
    /// What this reply met, in order: an index into `seq`, or `seq.len()` plus one into
    /// `fresh`.
    order: Vec<u32>,
    /// Pairs this reply met that `seq` did not hold where it was expected.
    fresh: Vec<Pair>,
    /// Whether this reply's order differs from `seq`.
    changed: bool,
    /// Room taken from `budget`, in pairs (the capacity of `seq` and `fresh`).
    held: usize,
    budget: &'static Budget,
}

impl Trail {
    fn new(budget: &'static Budget) -> Self {
        Self {
            seq: Vec::new(),
            cursor: 0,
            order: Vec::new(),
            fresh: Vec::new(),
            changed: false,
            held: 0,
            budget,
        }
    }

    /// The text of the key if one of the next pairs holds it.
    fn next(&mut self, len: u8, words: &[u64; KEY_BYTES / 8]) -> Option<Text> {
        let from = self.cursor;
        let to = (from + WINDOW).min(self.seq.len());
        let at = (from..to).find(|&i| self.seq[i].len == len && self.seq[i].words == *words)?;
        self.changed |= at != from;
        self.cursor = at + 1;
        self.order.push(at as u32);
        Some(self.seq[at].text)
    }

    /// Keeps a pair the trail did not give, if there is room for it.
    fn record(&mut self, len: u8, words: &[u64; KEY_BYTES / 8], text: &Text) {
        self.changed = true;
        if self.fresh.len() == self.fresh.capacity() {
            let got = self.budget.take(
                self.fresh
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
        self.fresh.push(Pair {
            len,
            words: *words,
            text: *text,
        });
        self.order.push(index);
    }

    /// Ready for a reply.
    fn begin(&mut self) {
        self.cursor = 0;
        self.changed = false;
        self.order.clear();
    }

    /// The reply is written: the trail becomes the order it met.
    fn finish(&mut self) {
        if !self.changed && self.cursor == self.seq.len() {
            return;
        }
        let order = std::mem::take(&mut self.order);
        let (seq, fresh) = (&self.seq, &self.fresh);
        let pair = |&i: &u32| {
            let i = i as usize;
            seq.get(i).or_else(|| fresh.get(i - seq.len())).copied()
        };
        // Every index of `order` is used once and points into `seq` or `fresh`, so the new
        // sequence fits in the room they hold, which is given back first.
        self.budget.give(self.held);
        let room = self.budget.take(order.len());
        let mut rebuilt = Vec::with_capacity(room);
        rebuilt.extend(order.iter().take(room).filter_map(pair));
        self.seq = rebuilt;
        self.fresh = Vec::new();
        self.held = room;
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
        }
    }

    /// Runs `f` (the writing of one reply) with one of these trails, so the text cache's
    /// lookups in it follow the order of an earlier reply. Without the text cache, just `f`.
    pub(crate) fn in_order<R>(&self, f: impl FnOnce() -> R) -> R {
        if !text_cache_enabled() {
            return f();
        }
        let budget = self.budget.unwrap_or(&BUDGET);
        let mut trail = self
            .idle
            .lock()
            .ok()
            .and_then(|mut idle| idle.pop())
            .unwrap_or_else(|| Trail::new(budget));
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

/// The text of the key from the trail of the reply being written, if it holds it next.
pub(crate) fn next(len: usize, words: &[u64; KEY_BYTES / 8]) -> Option<Text> {
    ACTIVE.with(|a| a.try_borrow_mut().ok()?.as_mut()?.next(len as u8, words))
}

/// Keeps a pair that the table or `make` gave in the trail of the reply being written.
pub(crate) fn record(len: usize, words: &[u64; KEY_BYTES / 8], text: &Text) {
    ACTIVE.with(|a| {
        if let Ok(mut active) = a.try_borrow_mut()
            && let Some(trail) = active.as_mut()
        {
            trail.record(len as u8, words, text);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::super::text_cache::{DEFAULT_ENTRIES, enable_text_cache, text_of};
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
}
