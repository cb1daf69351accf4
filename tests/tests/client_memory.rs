//! A 100 MB body is refused at the limit without being held: the process's memory grows by
//! about the limit, not the body. Alone in its test binary, so that nothing else allocates
//! while it measures.

mod misbehaving;

use avalanche_rpc::info::InfoClient;
use avalanche_rpc::rpc::{ClientError, HttpTransport, Node};
use misbehaving::{MB, proc_status_bytes, serve_streaming};
use std::time::Duration;

const MIB: u64 = 1 << 20;

/// Calls a node streaming 100 MB with a limit of `limit` bytes; returns how much the peak
/// resident memory rose over the resident memory before the call (an upper bound of what the
/// call held at once).
async fn peak_growth(base: &str, limit: u64) -> u64 {
    let transport = HttpTransport::builder(base)
        .max_response_bytes(limit)
        .build()
        .expect("transport");
    let node = Node::new(transport);
    let before = proc_status_bytes("VmRSS");
    let err = tokio::time::timeout(
        Duration::from_secs(120),
        node.info().get_node_id(Default::default()),
    )
    .await
    .expect("the call did not end in time")
    .unwrap_err();
    let peak = proc_status_bytes("VmHWM");
    assert!(
        matches!(err, ClientError::ResponseTooLarge { limit: l, .. } if l == limit),
        "{err:?}"
    );
    peak.saturating_sub(before)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_100_mb_body_fails_at_the_limit_and_memory_stays_far_below_it() {
    // Chunked, so that only counting while reading can stop it.
    let (base, sent) = serve_streaming(100 * MB, false).await;
    // Warm up: the runtime, the connection pool and the client's buffers.
    peak_growth(&base, 64 * 1024).await;

    let growth = peak_growth(&base, 4 * MIB).await;
    eprintln!(
        "limit 4 MiB: peak resident memory rose {:.1} MiB",
        growth as f64 / MIB as f64
    );
    assert!(growth < 32 * MIB, "grew {growth} bytes");

    // The default limit: the body is held up to 64 MiB, never more, and never doubled.
    let growth = peak_growth(&base, HttpTransport::DEFAULT_MAX_RESPONSE_BYTES).await;
    eprintln!(
        "limit 64 MiB: peak resident memory rose {:.1} MiB",
        growth as f64 / MIB as f64
    );
    assert!(growth < 80 * MIB, "grew {growth} bytes");

    // No connection got its whole body out: each was cut off at its limit.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(sent.finished(), 0);
    assert!(sent.bytes() < 3 * 100 * MB, "{} bytes sent", sent.bytes());
}
