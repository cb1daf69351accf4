//! What every fuzz target checks on its input, for one root of the codec:
//!
//! - decoding never panics;
//! - while decoding, live heap memory never exceeds [`LIMIT_FACTOR`] times the input plus
//!   [`LIMIT_SLACK`] (a length prefix larger than the input allocates nothing);
//! - what decodes re-encodes to exactly the input (the encoding is canonical), and checking
//!   its rules never panics.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Live heap bytes may reach this many times the input's length …
pub const LIMIT_FACTOR: usize = 16;
/// … plus this many bytes.
pub const LIMIT_SLACK: usize = 64 * 1024;

/// Counts live and peak heap bytes.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

/// Runs `decode` on `data` and checks the properties above; `encode` re-encodes the value,
/// `verify` checks its rules.
pub fn check<T>(
    data: &[u8],
    decode: impl Fn(&[u8]) -> Result<T, avalanche_rpc::codec::DecodeError>,
    encode: impl Fn(&T) -> Result<Vec<u8>, avalanche_rpc::codec::RuleError>,
    verify: impl Fn(&T),
) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let decoded = decode(data);
    let peak = PEAK.load(Ordering::Relaxed) - base;
    let limit = LIMIT_FACTOR * data.len() + LIMIT_SLACK;
    assert!(
        peak <= limit,
        "decoding {} bytes used {peak} bytes of heap, over the limit of {limit}",
        data.len()
    );
    if let Ok(value) = decoded {
        let again = encode(&value).expect("a decoded value encodes");
        assert_eq!(again, data, "the encoding is not canonical");
        verify(&value);
    }
}

/// A fuzz target for the root type `$t`.
#[macro_export]
macro_rules! target {
    ($t:ty) => {
        #[global_allocator]
        static ALLOC: $crate::Counting = $crate::Counting;

        libfuzzer_sys::fuzz_target!(|data: &[u8]| {
            $crate::check(data, <$t>::from_bytes, <$t>::to_bytes, |v| {
                let _ = avalanche_rpc::codec::Verify::verify(v);
            });
        });
    };
}
