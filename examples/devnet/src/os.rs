//! What the devnet asks of the operating system: enough file descriptors for its connection
//! cap and waiting room, and memory given back after a burst.
//!
//! Descriptors: the soft limit is often 1,024, fewer than 512 served plus 4,096 waiting
//! connections need; [`raise_fd_limit`] lifts it to the hard limit at start, as Go's runtime
//! does for the node (and the node's `--fd-limit` asks for 32,768).
//!
//! Memory: glibc's allocator keeps what large requests freed (its
//! mmap threshold rises to the largest block freed, so later blocks of that size come from
//! the heap, and a heap shrinks only from its top): after peers that sent 8 MB bodies are
//! gone, the devnet would keep tens of MiB it no longer uses. A thread calls `malloc_trim`
//! every [`PERIOD`], which returns free pages anywhere in the heaps; it costs well under a
//! millisecond when there is little to return. And glibc gives each thread that allocates
//! while another holds the lock an arena of its own (up to eight per core), each keeping its
//! own free memory: under a steady load of many connections the devnet's RSS crept up in
//! half-MiB steps across six arenas (17.1 to 19.0 MiB over a 10-minute soak), and with two
//! arenas it stayed flat (15.2 to 15.9 MiB). [`limit_arenas`] sets that limit. Other
//! allocators and other C libraries need nothing here. This is the devnet's choice: the crate
//! imposes no allocator on servers.

use std::time::Duration;

/// How often freed memory is handed back.
pub const PERIOD: Duration = Duration::from_secs(2);

/// The most glibc arenas (`M_ARENA_MAX`); the default is eight per core.
pub const ARENAS: i32 = 2;

/// Limits glibc to [`ARENAS`] arenas (glibc on Linux only; elsewhere nothing). Call it first
/// thing in `main`, before other threads exist.
pub fn limit_arenas() {
    // SAFETY: mallopt only sets a parameter of the allocator.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, ARENAS);
    }
}

/// Starts the trimming thread (glibc on Linux only; elsewhere nothing).
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

/// Raises the soft limit on open files to the hard limit (Linux; elsewhere nothing). Returns
/// the limit now in force, if known.
pub fn raise_fd_limit() -> Option<u64> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write the struct passed.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return None;
            }
            if limit.rlim_cur < limit.rlim_max {
                let raised = libc::rlimit {
                    rlim_cur: limit.rlim_max,
                    rlim_max: limit.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    limit = raised;
                }
            }
        }
        Some(limit.rlim_cur)
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    None
}
