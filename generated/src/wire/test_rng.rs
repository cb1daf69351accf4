//! A small deterministic generator for the wire tests (xorshift64), so that failures
//! reproduce.

pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    /// The next 64 bits (the seed must not be 0).
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// `N` bytes, eight at a time.
    pub(crate) fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        for chunk in out.chunks_mut(8) {
            chunk.copy_from_slice(&self.next_u64().to_le_bytes()[..chunk.len()]);
        }
        out
    }
}
