//! The buffers replies are written in: sized from what the method's last reply needed, handed
//! to hyper without a copy, and reused across requests through a small bounded pool.
//!
//! A reply of a few megabytes written into a fresh buffer costs more in the allocator than in
//! serializing: glibc serves such a size with `mmap`, and every page of it is faulted in anew
//! on every request. A buffer from the pool is already mapped. The pool holds at most
//! [`POOLED_BYTES`] and no buffer over [`LARGEST_POOLED`], so an idle server keeps no more
//! than that; a buffer under [`SMALLEST_POOLED`] never enters it (the allocator's own caches
//! serve those sizes well).

use crate::text_cache::Trails;
use bytes::Bytes;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Most bytes of capacity the pool holds, all buffers together.
pub const POOLED_BYTES: usize = 16 << 20;
/// Largest buffer the pool keeps; a larger one goes back to the allocator.
pub const LARGEST_POOLED: usize = 8 << 20;
/// Smallest buffer the pool keeps.
pub const SMALLEST_POOLED: usize = 16 << 10;

/// The idle buffers, the most recently returned last, and their capacity in all.
static POOL: Mutex<Pool> = Mutex::new(Pool {
    buffers: Vec::new(),
    bytes: 0,
});

struct Pool {
    buffers: Vec<Vec<u8>>,
    bytes: usize,
}

/// What one method's replies need, learnt from its last reply: the buffer of the next one
/// starts that large (with a little room), so a reply is written without growing its buffer;
/// and the order its identifiers came in, so the text cache is read in that order (see
/// `text_cache/trail.rs`).
#[derive(Debug, Default)]
pub struct SizeHint(AtomicUsize, Trails);

/// The length of a method's last reply from which its next one is written with a trail.
const TRAIL_FROM: usize = 4 * 1024;

impl SizeHint {
    /// A hint that knows nothing yet.
    pub const fn new() -> Self {
        Self(AtomicUsize::new(0), Trails::new())
    }

    /// Runs `f`, the writing of one reply, with the identifier order of this method's
    /// earlier replies; without, when its last reply was short (a few identifiers at most,
    /// which taking a trail would cost more than it saves).
    pub(crate) fn in_order<R>(&self, f: impl FnOnce() -> R) -> R {
        if self.0.load(Ordering::Relaxed) < TRAIL_FROM {
            return f();
        }
        self.1.in_order(f)
    }

    /// The capacity to start a reply with: the last one's length and a sixteenth more.
    pub(crate) fn capacity(&self) -> usize {
        let last = self.0.load(Ordering::Relaxed);
        last.saturating_add(last / 16).max(256)
    }

    /// Records the length of a reply just written.
    pub(crate) fn record(&self, len: usize) {
        self.0.store(len, Ordering::Relaxed);
    }
}

/// An empty buffer of at least `capacity` bytes, from the pool when it holds one that large.
pub(crate) fn take(capacity: usize) -> Vec<u8> {
    if capacity >= SMALLEST_POOLED
        && let Ok(mut pool) = POOL.lock()
        && let Some(at) = pool.buffers.iter().rposition(|b| b.capacity() >= capacity)
    {
        let buffer = pool.buffers.swap_remove(at);
        pool.bytes -= buffer.capacity();
        return buffer;
    }
    Vec::with_capacity(capacity)
}

/// Keeps `buffer` for a later reply if the pool has room for it.
fn give_back(mut buffer: Vec<u8>) {
    let size = buffer.capacity();
    if !(SMALLEST_POOLED..=LARGEST_POOLED).contains(&size) {
        return;
    }
    buffer.clear();
    if let Ok(mut pool) = POOL.lock()
        && pool.bytes + size <= POOLED_BYTES
    {
        pool.bytes += size;
        pool.buffers.push(buffer);
    }
}

/// `buffer` as a response body; it returns to the pool once hyper has sent it (or the
/// connection has gone).
pub(crate) fn into_bytes(buffer: Vec<u8>) -> Bytes {
    Bytes::from_owner(Returned(buffer))
}

/// A buffer that goes back to the pool when dropped.
struct Returned(Vec<u8>);

impl AsRef<[u8]> for Returned {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Drop for Returned {
    fn drop(&mut self) {
        give_back(std::mem::take(&mut self.0));
    }
}

/// The capacity the pool holds now, in bytes (for tests).
#[cfg(test)]
fn pooled_bytes() -> usize {
    POOL.lock().map(|p| p.bytes).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    // One test, because the pool is shared by the whole process.
    #[test]
    fn buffers_come_back_bounded_and_are_reused() {
        let size = 1 << 20;
        let mut first = take(size);
        assert!(first.capacity() >= size);
        first.extend_from_slice(b"{\"jsonrpc\":\"2.0\"}");
        let first_ptr = first.as_ptr();
        let body = into_bytes(first);
        assert_eq!(&body[..], b"{\"jsonrpc\":\"2.0\"}");
        let before = pooled_bytes();
        drop(body);
        assert!(pooled_bytes() >= before + size, "the buffer went back");
        // The next reply of that size gets the same memory, empty.
        let again = take(size);
        assert_eq!(again.as_ptr(), first_ptr);
        assert!(again.is_empty());
        drop(again);

        // Small and huge buffers never enter the pool.
        let before = pooled_bytes();
        drop(into_bytes(Vec::with_capacity(SMALLEST_POOLED - 1)));
        drop(into_bytes(Vec::with_capacity(LARGEST_POOLED + 1)));
        assert_eq!(pooled_bytes(), before);

        // However many come back, the pool holds at most POOLED_BYTES.
        let many: Vec<Bytes> = (0..40)
            .map(|_| into_bytes(Vec::with_capacity(LARGEST_POOLED / 2)))
            .collect();
        drop(many);
        assert!(pooled_bytes() <= POOLED_BYTES, "{}", pooled_bytes());
        assert!(pooled_bytes() >= POOLED_BYTES - LARGEST_POOLED / 2);
    }

    #[test]
    fn a_hint_starts_the_next_reply_a_little_larger_than_the_last() {
        let hint = SizeHint::new();
        assert_eq!(hint.capacity(), 256);
        hint.record(1_600_000);
        assert_eq!(hint.capacity(), 1_700_000);
    }
}
