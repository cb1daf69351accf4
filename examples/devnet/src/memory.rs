//! Giving memory back after a burst. glibc's allocator keeps what large requests freed (its
//! mmap threshold rises to the largest block freed, so later blocks of that size come from
//! the heap, and a heap shrinks only from its top): after peers that sent 8 MB bodies are
//! gone, the devnet would keep tens of MiB it no longer uses. A thread calls `malloc_trim`
//! every [`PERIOD`], which returns free pages anywhere in the heaps; it costs well under a
//! millisecond when there is little to return. Other allocators and other C libraries need
//! nothing here. This is the devnet's choice: the crate imposes no allocator on servers.

use std::time::Duration;

/// How often freed memory is handed back.
pub const PERIOD: Duration = Duration::from_secs(2);

/// Starts the thread (glibc on Linux only; elsewhere nothing).
pub fn start_trimming() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    std::thread::Builder::new()
        .name("malloc-trim".into())
        .spawn(|| {
            loop {
                std::thread::sleep(PERIOD);
                // SAFETY: malloc_trim only walks the allocator's own free lists.
                unsafe {
                    libc::malloc_trim(0);
                }
            }
        })
        .map(drop)
        .unwrap_or_else(|e| eprintln!("avalanche-devnet: no memory-trimming thread: {e}"));
}
