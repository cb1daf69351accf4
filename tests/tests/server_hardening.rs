//! The hardened server (`avalanche_rpc::rpc::serve`) against raw-socket peers on 127.0.0.1:
//! each timeout closes what it should, when it should (short timeouts here), error replies stay
//! small whatever was sent, the connection cap makes room from idle connections and stalled
//! heads (floods of 2,000 sockets included), and the budget for bodies in flight refuses what
//! does not fit with 503, never more memory.

mod common;

use avalanche_rpc::rpc::{ServerConfig, SpecExamples, server};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::{Instant, sleep, timeout};

const HEADER: Duration = Duration::from_millis(300);
const READ: Duration = Duration::from_millis(600);
const WRITE: Duration = Duration::from_millis(400);
const IDLE: Duration = Duration::from_millis(900);
/// How late a close may come (the machine may be busy).
const SLACK: Duration = Duration::from_millis(500);
/// How early: timers never fire early, but the server's clock starts a little after ours.
const EARLY: Duration = Duration::from_millis(30);
/// Replies to bad input must stay under this, whatever the input's size.
const SMALL: usize = 4096;

fn config() -> ServerConfig {
    ServerConfig::default()
        .read_header_timeout(HEADER)
        .read_timeout(READ)
        .write_timeout(WRITE)
        .idle_timeout(IDLE)
}

async fn start(router: axum::Router, config: ServerConfig) -> SocketAddr {
    let base = common::serve_with(router, config).await;
    base.trim_start_matches("http://")
        .parse()
        .expect("the base URL holds the address")
}

async fn start_node() -> SocketAddr {
    start(common::router(), config()).await
}

async fn connect(addr: SocketAddr) -> TcpStream {
    TcpStream::connect(addr).await.expect("connect")
}

fn post(path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Reads until the server closes the connection (or resets it); returns what came and when
/// the close came, measured from `since`. Fails if it is still open after `limit`.
async fn read_until_closed(
    stream: &mut TcpStream,
    since: Instant,
    limit: Duration,
) -> (Vec<u8>, Duration) {
    let mut got = Vec::new();
    let mut buf = vec![0; 64 * 1024];
    let outcome = timeout(limit, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(
        outcome.is_ok(),
        "still open {limit:?} after the start; got {} bytes",
        got.len()
    );
    (got, since.elapsed())
}

/// Asserts a close came at `expected`, not before it and not much after.
fn assert_closed_at(what: &str, elapsed: Duration, expected: Duration) {
    assert!(
        elapsed + EARLY >= expected,
        "{what}: closed after {elapsed:?}, before the timeout of {expected:?}"
    );
    assert!(
        elapsed <= expected + SLACK,
        "{what}: closed after {elapsed:?}, long after the timeout of {expected:?}"
    );
}

/// An HTTP reply: status, head and body (read by `Content-Length`).
struct Reply {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
}

async fn read_reply(stream: &mut TcpStream) -> Reply {
    timeout(Duration::from_secs(10), async {
        let mut got = Vec::new();
        let mut buf = vec![0; 64 * 1024];
        let head_end = loop {
            if let Some(i) = got.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            let n = stream.read(&mut buf).await.expect("read the reply head");
            assert!(
                n > 0,
                "closed before a reply: {:?}",
                String::from_utf8_lossy(&got)
            );
            got.extend_from_slice(&buf[..n]);
        };
        let head = String::from_utf8_lossy(&got[..head_end]).to_string();
        let status = head
            .get(9..12)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status: {head}"));
        let length: usize = head
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse().ok())?
            })
            .unwrap_or_else(|| panic!("no content-length: {head}"));
        let mut body = got.split_off(head_end);
        while body.len() < length {
            let n = stream.read(&mut buf).await.expect("read the reply body");
            assert!(n > 0, "closed after {} of {length} body bytes", body.len());
            body.extend_from_slice(&buf[..n]);
        }
        Reply { status, head, body }
    })
    .await
    .expect("a reply within 10 s")
}

async fn call(addr: SocketAddr, path: &str, body: &str) -> Reply {
    let mut s = connect(addr).await;
    s.write_all(&post(path, body)).await.expect("send");
    read_reply(&mut s).await
}

// --- Timeouts ---------------------------------------------------------------------------

#[tokio::test]
async fn a_silent_connection_is_closed_at_the_read_header_timeout() {
    let addr = start_node().await;
    let since = Instant::now();
    let mut s = connect(addr).await;
    let (got, elapsed) = read_until_closed(&mut s, since, HEADER + SLACK * 2).await;
    assert!(got.is_empty(), "{got:?}");
    assert_closed_at("silent", elapsed, HEADER);
}

#[tokio::test]
async fn half_a_header_line_is_closed_at_the_read_header_timeout() {
    let addr = start_node().await;
    let since = Instant::now();
    let mut s = connect(addr).await;
    s.write_all(b"POST /ext/info HT").await.expect("send");
    let (_, elapsed) = read_until_closed(&mut s, since, HEADER + SLACK * 2).await;
    assert_closed_at("half a header line", elapsed, HEADER);
}

#[tokio::test]
async fn a_trickled_head_is_closed_at_the_read_header_timeout_all_the_same() {
    let addr = start_node().await;
    let since = Instant::now();
    let mut s = connect(addr).await;
    let trickle = async {
        for b in b"POST /ext/info HTTP/1.1\r\nHost: test\r\nX-Slow: "
            .iter()
            .cycle()
        {
            if s.write_all(&[*b]).await.is_err() {
                return;
            }
            sleep(Duration::from_millis(20)).await;
        }
    };
    timeout(HEADER + SLACK * 2, trickle)
        .await
        .expect("the server stops the trickle");
    let (_, elapsed) = read_until_closed(&mut s, since, HEADER + SLACK * 2).await;
    assert_closed_at("trickled head", elapsed, HEADER);
}

#[tokio::test]
async fn half_a_body_is_closed_at_the_read_timeout() {
    let addr = start_node().await;
    let since = Instant::now();
    let mut s = connect(addr).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}"#;
    let head = "POST /ext/info HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
                Content-Length: 1000\r\n\r\n";
    s.write_all(head.as_bytes()).await.expect("send the head");
    s.write_all(body.as_bytes())
        .await
        .expect("send half the body");
    let (got, elapsed) = read_until_closed(&mut s, since, READ + SLACK * 2).await;
    assert!(
        got.is_empty(),
        "no reply: {:?}",
        String::from_utf8_lossy(&got)
    );
    // The read timeout counts the whole request, head and body, so not the header timeout.
    assert_closed_at("half a body", elapsed, READ);
}

#[tokio::test]
async fn keep_alive_waits_the_idle_timeout_not_the_header_one() {
    let addr = start_node().await;
    let mut s = connect(addr).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"info.getNetworkName"}"#;
    s.write_all(&post("/ext/info", body)).await.expect("send");
    let reply = read_reply(&mut s).await;
    assert_eq!(reply.json()["result"]["networkName"], "mainnet");
    // Longer than the header and write timeouts, shorter than the idle one.
    sleep(HEADER.max(WRITE) + Duration::from_millis(150)).await;
    s.write_all(&post("/ext/info", body))
        .await
        .expect("send again");
    let reply = read_reply(&mut s).await;
    assert_eq!(reply.status, 200, "{}", reply.head);
    // Then, left idle, it is closed at the idle timeout after the reply.
    let since = Instant::now();
    let (got, elapsed) = read_until_closed(&mut s, since, IDLE + SLACK * 2).await;
    assert!(got.is_empty(), "{got:?}");
    assert_closed_at("idle keep-alive", elapsed, IDLE);
}

const BIG: usize = 8 * 1024 * 1024;

fn big_reply_router() -> axum::Router {
    axum::Router::new().route("/big", axum::routing::post(|| async { vec![b'x'; BIG] }))
}

/// A connection whose receive buffer is small, so a big reply stalls at once if unread.
async fn connect_small_buffer(addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("SO_RCVBUF");
    socket.connect(addr).await.expect("connect")
}

#[tokio::test]
async fn a_peer_that_never_reads_a_large_reply_is_cut_off_at_the_write_timeout() {
    let addr = start(big_reply_router(), config()).await;
    let mut s = connect_small_buffer(addr).await;
    s.write_all(&post("/big", "{}")).await.expect("send");
    sleep(WRITE + SLACK).await;
    // The server gave up: what is left in the kernel's buffers drains, then the end.
    let since = Instant::now();
    let (got, _) = read_until_closed(&mut s, since, Duration::from_secs(5)).await;
    assert!(
        got.len() < BIG,
        "the whole reply ({} bytes) was still being sent",
        got.len()
    );
}

#[tokio::test]
async fn a_peer_that_reads_a_large_reply_in_time_gets_all_of_it() {
    let addr = start(big_reply_router(), config()).await;
    let mut s = connect_small_buffer(addr).await;
    s.write_all(&post("/big", "{}")).await.expect("send");
    sleep(WRITE / 4).await;
    let reply = read_reply(&mut s).await;
    assert_eq!((reply.status, reply.body.len()), (200, BIG));
}

#[tokio::test]
async fn a_slow_handler_is_not_cut_off() {
    let slow = axum::Router::new().route(
        "/slow",
        axum::routing::post(|| async {
            sleep(READ + WRITE).await;
            "done"
        }),
    );
    let addr = start(slow, config()).await;
    let reply = call(addr, "/slow", "{}").await;
    assert_eq!((reply.status, reply.body.as_slice()), (200, &b"done"[..]));
}

// --- Small error replies ----------------------------------------------------------------

/// An 8 MB string (the body limit is 8 MiB).
fn eight_mb() -> String {
    "a".repeat(8_000_000)
}

fn request(method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}}}"#)
}

fn assert_small(what: &str, reply: &Reply) {
    assert!(
        reply.body.len() < SMALL,
        "{what}: a {}-byte reply: {}…",
        reply.body.len(),
        String::from_utf8_lossy(&reply.body[..reply.body.len().min(300)])
    );
}

#[tokio::test]
async fn an_8_mb_invalid_param_gets_a_reply_under_4_kb() {
    let addr = start_node().await;
    let big = eight_mb();
    let cases = [
        // serde quotes the value: `unknown variant "aaa…"`.
        (
            "/ext/bc/X",
            request(
                "avm.getTx",
                &format!(
                    r#"{{"txID":"11111111111111111111111111111111LpoYY","encoding":"{big}"}}"#
                ),
            ),
            -32602,
        ),
        // serde quotes the value: `invalid type: string "aaa…", expected struct …`.
        (
            "/ext/bc/P",
            request(
                "platform.getUTXOs",
                &format!(
                    r#"{{"addresses":["P-avax1wst8jt3z3fm9ce0z6akj3266zmgccdp03hjlaj"],"startIndex":"{big}"}}"#
                ),
            ),
            -32602,
        ),
        // A wire type's own error.
        (
            "/ext/bc/P",
            request(
                "platform.getBlockByHeight",
                &format!(r#"{{"height":"{big}"}}"#),
            ),
            -32602,
        ),
        // A valid string the handler does not know: the spec-example server's error
        // carries the params as `data`.
        (
            "/ext/info",
            request("info.isBootstrapped", &format!(r#"{{"chain":"{big}"}}"#)),
            -32000,
        ),
    ];
    for (path, body, code) in cases {
        let what = &body[..60];
        let reply = call(addr, path, &body).await;
        assert_eq!(reply.status, 200, "{what}: {}", reply.head);
        eprintln!(
            "{what}…: {} bytes in, {} bytes out",
            body.len(),
            reply.body.len()
        );
        assert_small(what, &reply);
        let v = reply.json();
        assert_eq!(v["error"]["code"], code, "{what}: {v}");
        assert!(v.to_string().contains('…'), "{what}: not cut: {v}");
    }
}

#[tokio::test]
async fn a_huge_method_name_is_cut_in_the_reply() {
    let addr = start_node().await;
    let method = format!("info.{}", eight_mb());
    let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}"}}"#);
    let reply = call(addr, "/ext/info", &body).await;
    assert_small("method", &reply);
    let v = reply.json();
    assert_eq!(v["error"]["code"], -32601, "{v}");
    let shown = v["error"]["data"]["method"].as_str().expect("data.method");
    assert!(
        shown.starts_with("info.aaa") && shown.contains('…'),
        "{shown}"
    );
    assert_eq!(shown.chars().count(), avalanche_rpc::rpc::EXCERPT_CHARS);
}

#[tokio::test]
async fn a_huge_id_is_refused_not_echoed() {
    let addr = start_node().await;
    let limit = server::MAX_ID_BYTES;
    let huge_string = format!("\"{}\"", eight_mb());
    let huge_number = "9".repeat(1_000_000);
    let over = format!("\"{}\"", "i".repeat(limit - 1));
    for id in [&huge_string, &huge_number, &over] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"info.getNodeID"}}"#);
        let reply = call(addr, "/ext/info", &body).await;
        assert_small("id", &reply);
        let v = reply.json();
        assert_eq!(v["error"]["code"], -32600, "{v}");
        assert_eq!(v["id"], Value::Null, "{v}");
        let message = v["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(&format!("the limit is {limit}")),
            "{message}"
        );
    }
    // At the limit, the id is echoed exactly.
    let at = format!("\"{}\"", "i".repeat(limit - 2));
    let body = format!(r#"{{"jsonrpc":"2.0","id":{at},"method":"info.getNodeID"}}"#);
    let v = call(addr, "/ext/info", &body).await.json();
    assert_eq!(v["id"].to_string(), at, "{v}");
    assert!(v["result"]["nodeID"].is_string(), "{v}");
}

#[tokio::test]
async fn http_level_errors_do_not_echo_long_input() {
    let addr = start_node().await;
    let long = "x".repeat(64 * 1024);
    let mut s = connect(addr).await;
    let head = format!(
        "POST /ext/info HTTP/1.1\r\nHost: test\r\nContent-Type: text/{long}\r\n\
         Content-Length: 2\r\n\r\n{{}}"
    );
    s.write_all(head.as_bytes()).await.expect("send");
    let reply = read_reply(&mut s).await;
    assert_eq!(reply.status, 415, "{}", reply.head);
    assert_small("content-type", &reply);
    let mut s = connect(addr).await;
    let head = format!(
        "{} /ext/info HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\r\n",
        long.to_uppercase()
    );
    s.write_all(head.as_bytes()).await.expect("send");
    let reply = read_reply(&mut s).await;
    assert_eq!(reply.status, 405, "{}", reply.head);
    assert_small("method", &reply);
}

#[tokio::test]
async fn a_batch_of_bad_requests_gets_small_replies_each() {
    let addr = start_node().await;
    let name = "m".repeat(30_000);
    let one = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{name}"}}"#);
    let batch = format!("[{}]", vec![one; 256].join(","));
    let reply = call(addr, "/ext/info", &batch).await;
    let replies = reply.json();
    let replies = replies.as_array().expect("a batch reply");
    assert_eq!(replies.len(), 256);
    assert!(
        reply.body.len() < 256 * 400,
        "{} bytes for {} bytes in",
        reply.body.len(),
        batch.len()
    );
}

// --- Batches within bounds --------------------------------------------------------------

/// `test.pad` answers a string of `bytes` bytes; every call that runs is counted.
#[derive(Clone, Default)]
struct Padded(Arc<AtomicUsize>);

impl server::Dispatch for Padded {
    fn dispatch<'a>(
        &'a self,
        method: &str,
        params: server::Params<'a>,
    ) -> Option<server::BoxFuture<'a, server::Reply>> {
        #[derive(serde::Deserialize)]
        struct Pad {
            bytes: usize,
        }
        (method == "test.pad").then(|| -> server::BoxFuture<'a, server::Reply> {
            Box::pin(async move {
                self.0.fetch_add(1, Ordering::SeqCst);
                let pad: Pad = params.parse()?;
                server::reply(Ok("x".repeat(pad.bytes)))
            })
        })
    }
}

/// Serves [`Padded`] at `/test` with `config`; its counter.
async fn start_padded(config: ServerConfig) -> (SocketAddr, Arc<AtomicUsize>) {
    let padded = Padded::default();
    let calls = padded.0.clone();
    let router = server::router_with(vec!["/test".into()], padded, config);
    (start(router, self::config()).await, calls)
}

/// A batch of `test.pad` calls of `bytes` each; the ids are the positions, but the positions in
/// `notifications` have none.
fn pad_batch(n: usize, bytes: usize, notifications: &[usize]) -> String {
    let calls: Vec<String> = (0..n)
        .map(|i| {
            let id = if notifications.contains(&i) {
                String::new()
            } else {
                format!(r#","id":{i}"#)
            };
            format!(r#"{{"jsonrpc":"2.0","method":"test.pad","params":{{"bytes":{bytes}}}{id}}}"#)
        })
        .collect();
    format!("[{}]", calls.join(","))
}

const REPLY_CAP: usize = 64 * 1024;

#[tokio::test]
async fn a_batch_whose_replies_pass_the_cap_stops_running_and_says_which_limit() {
    let (addr, calls) =
        start_padded(ServerConfig::default().max_batch_reply_bytes(REPLY_CAP)).await;
    // 40 replies of 10 kB, 400 kB in all: six fit in 64 KiB. A notification before the limit
    // (runs, answers nothing) and one past it (neither).
    let (n, bytes) = (40, 10_000);
    let notifications = [2, 20];
    let reply = call(addr, "/test", &pad_batch(n, bytes, &notifications)).await;
    assert_eq!(reply.status, 200);
    assert!(
        reply.body.len() <= REPLY_CAP + n * 300,
        "a {}-byte reply",
        reply.body.len()
    );
    let replies = reply.json();
    let replies = replies.as_array().expect("a batch reply");
    let ids: Vec<usize> = (0..n).filter(|i| !notifications.contains(i)).collect();
    let got: Vec<usize> = replies
        .iter()
        .map(|r| r["id"].as_u64().expect("every reply has its request's id") as usize)
        .collect();
    assert_eq!(got, ids, "one reply for each request with an id, in order");
    // 0, 1, 3, 4, 5, 6 fit; 7 ran but its reply did not fit; the rest did not run.
    let fit = 6;
    for r in &replies[..fit] {
        assert_eq!(
            r["result"].as_str().map(str::len),
            Some(bytes),
            "{}",
            r["id"]
        );
    }
    for (k, r) in replies[fit..].iter().enumerate() {
        let e = &r["error"];
        assert_eq!(e["code"], -32003, "{r}");
        let message = e["message"].as_str().expect("a message");
        assert!(
            message.starts_with(&format!(
                "the batch's replies reached the limit of {REPLY_CAP} bytes; "
            )),
            "{message}"
        );
        assert!(message.ends_with("send it again on its own or in a smaller batch"));
        assert_eq!(e["data"]["limit"], REPLY_CAP, "{r}");
        assert_eq!(e["data"]["ran"], k == 0, "{r}");
    }
    assert!(
        replies[fit]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("this call ran, but its reply did not fit")
    );
    assert!(
        replies[fit + 1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("this call was not run")
    );
    // Positions 0 to 7 ran (the notification at 2 among them), nothing after.
    assert_eq!(calls.load(Ordering::SeqCst), 8);
}

#[tokio::test]
async fn a_batch_under_the_caps_is_answered_whole() {
    let (addr, calls) =
        start_padded(ServerConfig::default().max_batch_reply_bytes(REPLY_CAP)).await;
    // Five replies of 12 kB: about 60 kB, under 64 KiB.
    let reply = call(addr, "/test", &pad_batch(5, 12_000, &[3])).await;
    let replies = reply.json();
    let replies = replies.as_array().expect("a batch reply");
    let got: Vec<(u64, usize)> = replies
        .iter()
        .map(|r| {
            (
                r["id"].as_u64().unwrap(),
                r["result"].as_str().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(got, [(0, 12_000), (1, 12_000), (2, 12_000), (4, 12_000)]);
    assert_eq!(calls.load(Ordering::SeqCst), 5);
    // A batch of notifications only answers nothing, however large their results.
    let reply = call(
        addr,
        "/test",
        &pad_batch(8, 20_000, &[0, 1, 2, 3, 4, 5, 6, 7]),
    )
    .await;
    assert_eq!((reply.status, reply.body.len()), (200, 0));
    assert_eq!(calls.load(Ordering::SeqCst), 13);
}

#[tokio::test]
async fn a_batch_over_the_count_cap_runs_nothing_and_names_the_limit() {
    let (addr, calls) = start_padded(ServerConfig::default().max_batch_len(2)).await;
    let reply = call(addr, "/test", &pad_batch(3, 10, &[])).await;
    let v = reply.json();
    assert_eq!(v["error"]["code"], -32600, "{v}");
    assert_eq!(
        v["error"]["message"],
        "invalid request: a batch of 3 requests is over the limit of 2"
    );
    assert_eq!(v["id"], Value::Null);
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

// --- Memory and the connection cap ------------------------------------------------------

#[tokio::test]
async fn a_body_over_the_limit_is_refused_before_it_ends() {
    let config = ServerConfig::default().max_body_bytes(64 * 1024);
    let router = server::router_with(
        vec!["/ext/info".into()],
        avalanche_rpc::info::InfoService(SpecExamples),
        config,
    );
    let addr = start(router, self::config()).await;
    let mut s = connect(addr).await;
    // A gigabyte announced, a quarter of a megabyte sent: the server answers without
    // waiting for (or buffering) the rest.
    let head = "POST /ext/info HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
                Content-Length: 1000000000\r\n\r\n";
    s.write_all(head.as_bytes()).await.expect("send the head");
    s.write_all(&vec![b' '; 256 * 1024])
        .await
        .expect("send part of the body");
    let since = Instant::now();
    let reply = read_reply(&mut s).await;
    assert_eq!(reply.status, 413, "{}", reply.head);
    assert!(since.elapsed() < READ, "{:?}", since.elapsed());
    let (_, elapsed) = read_until_closed(&mut s, since, SLACK * 2).await;
    assert!(elapsed < READ, "closed after {elapsed:?}");
}

#[tokio::test]
async fn without_eviction_a_caller_waits_until_idle_connections_time_out() {
    const CAP: usize = 3;
    let addr = start(
        common::router(),
        config().max_connections(CAP).evict_idle(false),
    )
    .await;
    let since = Instant::now();
    let mut idle = Vec::new();
    for _ in 0..CAP {
        idle.push(connect(addr).await);
    }
    // Accepted by the kernel, not yet by the server: the request waits in the backlog.
    let mut caller = connect(addr).await;
    let body = r#"{"jsonrpc":"2.0","id":7,"method":"info.getNetworkName"}"#;
    caller
        .write_all(&post("/ext/info", body))
        .await
        .expect("send");
    let reply = read_reply(&mut caller).await;
    let answered = since.elapsed();
    assert_eq!(reply.json()["id"], 7);
    assert_closed_at("answered once a slot freed", answered, HEADER);
    for mut s in idle {
        let (got, elapsed) = read_until_closed(&mut s, since, HEADER + SLACK).await;
        assert!(got.is_empty());
        assert_closed_at("idle under the cap", elapsed, HEADER);
    }
}

const NETWORK_NAME: &str = r#"{"jsonrpc":"2.0","id":7,"method":"info.getNetworkName"}"#;

/// Whether the server has closed `stream` (read returns end or an error within `wait`).
async fn closed_within(stream: &mut TcpStream, wait: Duration) -> bool {
    let mut buf = [0u8; 256];
    matches!(
        timeout(wait, stream.read(&mut buf)).await,
        Ok(Ok(0) | Err(_))
    )
}

/// Defaults with a cap of `cap` connections and timeouts of 60 s: nothing in a test using it
/// may be closed by a timeout.
fn long(cap: usize) -> ServerConfig {
    let long = Duration::from_secs(60);
    ServerConfig::default()
        .read_header_timeout(long)
        .read_timeout(long)
        .idle_timeout(long)
        .max_connections(cap)
}

#[tokio::test]
async fn with_the_cap_reached_the_connection_idle_the_longest_makes_room() {
    const CAP: usize = 3;
    let addr = start(common::router(), long(CAP)).await;
    // The oldest: silent since it connected.
    let mut silent = connect(addr).await;
    sleep(Duration::from_millis(50)).await;
    // Mid-request: half a head, not to be closed for room within its grace (2 s by default;
    // this test takes a fraction of it).
    let mut half = connect(addr).await;
    half.write_all(b"POST /ext/info HTTP/1.1\r\nHost: te")
        .await
        .expect("send half a head");
    sleep(Duration::from_millis(50)).await;
    // Idle between keep-alive requests, after one answered.
    let mut kept = connect(addr).await;
    kept.write_all(&post("/ext/info", NETWORK_NAME))
        .await
        .expect("send");
    assert_eq!(read_reply(&mut kept).await.json()["id"], 7);

    // Full: a new caller is answered at once, and the silent connection made room.
    let since = Instant::now();
    // Kept open (idle after its reply), so the server stays full.
    let mut first = connect(addr).await;
    first
        .write_all(&post("/ext/info", NETWORK_NAME))
        .await
        .expect("send");
    assert_eq!(read_reply(&mut first).await.json()["id"], 7);
    assert!(
        since.elapsed() < Duration::from_secs(2),
        "{:?}",
        since.elapsed()
    );
    assert!(closed_within(&mut silent, Duration::from_secs(2)).await);
    // The next makes room from the keep-alive one (idle since its reply, before the first
    // caller's); the half-sent request is left alone and can still finish.
    let second = call(addr, "/ext/info", NETWORK_NAME).await;
    assert_eq!(second.json()["id"], 7);
    assert!(closed_within(&mut kept, Duration::from_secs(2)).await);
    assert!(!closed_within(&mut first, Duration::from_millis(200)).await);
    half.write_all(
        format!(
            "st\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{NETWORK_NAME}",
            NETWORK_NAME.len()
        )
        .as_bytes(),
    )
    .await
    .expect("finish the request");
    assert_eq!(read_reply(&mut half).await.json()["id"], 7);
}

#[tokio::test]
async fn with_every_connection_mid_body_a_new_one_waits_for_one_to_end() {
    const CAP: usize = 2;
    // A grace shorter than any timeout: a body under way is not a head, however old.
    let config = config().max_connections(CAP).head_grace(HEADER / 2);
    let addr = start(common::router(), config).await;
    let since = Instant::now();
    let mut busy = Vec::new();
    for _ in 0..CAP {
        let mut s = connect(addr).await;
        s.write_all(format!("{}{{\"jsonrpc\"", head_with_length(1000)).as_bytes())
            .await
            .expect("send a head and part of a body");
        busy.push(s);
    }
    sleep(Duration::from_millis(100)).await;
    let reply = call(addr, "/ext/info", NETWORK_NAME).await;
    assert_eq!(reply.json()["id"], 7);
    // Served once a half-sent body timed out, not before.
    assert_closed_at("answered once a slot freed", since.elapsed(), READ);
}

#[tokio::test]
async fn below_the_cap_a_head_trickled_over_3_s_is_served() {
    // The default grace (2 s) applies only at the cap: here 1 of 4 slots is taken.
    let addr = start(common::router(), long(4)).await;
    let since = Instant::now();
    let mut slow = connect(addr).await;
    let request = post("/ext/info", NETWORK_NAME);
    let (head, body) = request.split_at(request.len() - NETWORK_NAME.len());
    // Eight pieces, 450 ms apart: the head's last byte comes after 3.15 s.
    for piece in head.chunks(head.len().div_ceil(8)) {
        slow.write_all(piece)
            .await
            .expect("send a piece of the head");
        sleep(Duration::from_millis(450)).await;
    }
    let head_took = since.elapsed();
    slow.write_all(body).await.expect("send the body");
    assert_eq!(read_reply(&mut slow).await.json()["id"], 7);
    eprintln!("a head trickled over {head_took:?}: served");
    assert!(head_took > Duration::from_secs(3), "{head_took:?}");
}

#[tokio::test]
async fn at_the_cap_a_caller_waits_no_longer_than_the_grace_of_a_stalled_head() {
    const GRACE: Duration = Duration::from_millis(400);
    let addr = start(common::router(), long(1).head_grace(GRACE)).await;
    let since = Instant::now();
    // The only slot: part of a head, then nothing.
    let mut stalled = connect(addr).await;
    stalled
        .write_all(b"POST /ext/info HTT")
        .await
        .expect("send part of a head");
    // Time for the server to read it: until then, it is a silent connection.
    sleep(Duration::from_millis(50)).await;
    // A caller at once: the head is within its grace, so the caller waits for it to pass
    // (told by the stalled connection's own timer), then takes its place.
    let reply = call(addr, "/ext/info", NETWORK_NAME).await;
    assert_eq!(reply.json()["id"], 7);
    let answered = since.elapsed();
    eprintln!("answered after {answered:?} (grace {GRACE:?})");
    assert_closed_at("answered once the head's grace passed", answered, GRACE);
    assert!(closed_within(&mut stalled, Duration::from_secs(2)).await);
    // Past its grace, a stalled head makes room at once.
    let mut stalled = connect(addr).await;
    stalled
        .write_all(b"POST /ext/info HTTP/1.1\r\nHost: te")
        .await
        .expect("send part of a head");
    sleep(GRACE + Duration::from_millis(100)).await;
    let since = Instant::now();
    let reply = call(addr, "/ext/info", NETWORK_NAME).await;
    assert_eq!(reply.json()["id"], 7);
    assert!(
        since.elapsed() < Duration::from_millis(200),
        "{:?}",
        since.elapsed()
    );
    assert!(closed_within(&mut stalled, Duration::from_secs(2)).await);
}

#[tokio::test]
async fn at_the_cap_a_body_under_way_is_never_closed_for_room() {
    const GRACE: Duration = Duration::from_millis(200);
    let addr = start(common::router(), long(1).head_grace(GRACE)).await;
    // The only slot: a head, and part of its body; then nothing for longer than the grace.
    let mut body = connect(addr).await;
    let request = post("/ext/info", NETWORK_NAME);
    let (first, rest) = request.split_at(request.len() - 10);
    body.write_all(first)
        .await
        .expect("send a head and part of its body");
    sleep(GRACE * 2).await;
    // A caller: nothing may make room, so it waits, and the body is left alone.
    let mut caller = connect(addr).await;
    caller
        .write_all(&post("/ext/info", NETWORK_NAME))
        .await
        .expect("send");
    let mut byte = [0u8; 1];
    assert!(
        timeout(GRACE * 3, caller.peek(&mut byte)).await.is_err(),
        "the caller got something before a slot freed"
    );
    // The body ends: its request is answered, then its connection (idle) makes room.
    body.write_all(rest).await.expect("send the rest");
    assert_eq!(read_reply(&mut body).await.json()["id"], 7);
    assert_eq!(read_reply(&mut caller).await.json()["id"], 7);
    assert!(closed_within(&mut body, Duration::from_secs(2)).await);
}

#[tokio::test]
async fn hundreds_of_silent_sockets_do_not_delay_a_caller() {
    const CAP: usize = 16;
    const SILENT: usize = 200;
    let addr = start(common::router(), long(CAP)).await;
    let mut silent = Vec::new();
    for _ in 0..SILENT {
        silent.push(connect(addr).await);
    }
    let mut worst = Duration::ZERO;
    for _ in 0..20 {
        let since = Instant::now();
        let reply = call(addr, "/ext/info", NETWORK_NAME).await;
        assert_eq!(reply.json()["id"], 7);
        worst = worst.max(since.elapsed());
    }
    // Timeouts are 60 s here: without eviction each call would wait for them.
    assert!(
        worst < Duration::from_secs(2),
        "the slowest call took {worst:?}"
    );
}

fn head_with_length(length: usize) -> String {
    format!(
        "POST /ext/info HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
         Content-Length: {length}\r\n\r\n"
    )
}

#[tokio::test]
async fn a_body_that_does_not_fit_the_budget_gets_503_and_small_calls_are_still_served() {
    const MIB: usize = 1024 * 1024;
    let config = long(ServerConfig::default().max_connections).body_budget(MIB);
    let addr = start(common::router(), config).await;
    // A peer announces 900 KiB (over the free 64 KiB) and stalls after a part: the budget
    // holds it.
    let mut staller = connect(addr).await;
    staller
        .write_all(head_with_length(900 * 1024).as_bytes())
        .await
        .expect("send the head");
    staller
        .write_all(&vec![b' '; 100 * 1024])
        .await
        .expect("send part of the body");
    sleep(Duration::from_millis(100)).await;
    // Another announcing 400 KiB does not fit: 503 at once, Retry-After, closed.
    let mut refused = connect(addr).await;
    refused
        .write_all(head_with_length(400 * 1024).as_bytes())
        .await
        .expect("send the head");
    let reply = read_reply(&mut refused).await;
    assert_eq!(reply.status, 503, "{}", reply.head);
    let head = reply.head.to_ascii_lowercase();
    assert!(head.contains("retry-after: 1\r\n"), "{}", reply.head);
    assert!(head.contains("connection: close\r\n"), "{}", reply.head);
    let error = &reply.json()["error"];
    assert_eq!(error["code"], -32000);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("budget of 1048576 bytes"),
        "{error}"
    );
    assert!(closed_within(&mut refused, Duration::from_secs(2)).await);
    // Without a length (chunked), the same once its bytes stop fitting.
    let mut chunked = connect(addr).await;
    chunked
        .write_all(
            b"POST /ext/info HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
              Transfer-Encoding: chunked\r\n\r\n",
        )
        .await
        .expect("send the head");
    let chunk = vec![b' '; 64 * 1024];
    let mut sent = 0;
    let reply = loop {
        let mut frame = format!("{:x}\r\n", chunk.len()).into_bytes();
        frame.extend_from_slice(&chunk);
        frame.extend_from_slice(b"\r\n");
        if chunked.write_all(&frame).await.is_err() || sent > 2 * MIB {
            break read_reply(&mut chunked).await;
        }
        sent += chunk.len();
        // The reply comes as soon as the budget is passed.
        let mut probe = [0u8; 1];
        if let Ok(Ok(1..)) = timeout(Duration::from_millis(5), chunked.peek(&mut probe)).await {
            break read_reply(&mut chunked).await;
        }
    };
    assert_eq!(reply.status, 503, "{}", reply.head);
    assert!(sent < 2 * MIB, "read {sent} bytes before refusing");
    // A small call is served all along.
    assert_eq!(call(addr, "/ext/info", NETWORK_NAME).await.json()["id"], 7);
    // Once the staller is gone, what it held is back: a large body fits again.
    drop(staller);
    sleep(Duration::from_millis(200)).await;
    let mut body = " ".repeat(700 * 1024);
    body.push_str(NETWORK_NAME);
    assert_eq!(call(addr, "/ext/info", &body).await.json()["id"], 7);
}

#[tokio::test]
async fn silent_newcomers_wait_without_displacing_anyone_and_the_waiting_room_is_bounded() {
    const CAP: usize = 2;
    let config = long(CAP).max_waiting(3);
    let addr = start(common::router(), config).await;
    // Two keep-alive callers, idle after a reply: the server is full.
    let mut callers = Vec::new();
    for _ in 0..CAP {
        let mut s = connect(addr).await;
        s.write_all(&post("/ext/info", NETWORK_NAME))
            .await
            .expect("send");
        assert_eq!(read_reply(&mut s).await.json()["id"], 7);
        callers.push(s);
    }
    // Four silent newcomers: they wait (three at most; the first is closed for the fourth)
    // and close no one.
    let mut silent = Vec::new();
    for _ in 0..4 {
        silent.push(connect(addr).await);
        sleep(Duration::from_millis(30)).await;
    }
    for c in &mut callers {
        assert!(!closed_within(c, Duration::from_millis(200)).await);
    }
    assert!(closed_within(&mut silent[0], Duration::from_secs(2)).await);
    for s in &mut silent[1..] {
        assert!(!closed_within(s, Duration::from_millis(100)).await);
    }
    // A waiting one that sends a request takes the place of the caller idle the longest.
    let mut late = silent.pop().expect("a waiting connection");
    late.write_all(&post("/ext/info", NETWORK_NAME))
        .await
        .expect("send");
    assert_eq!(read_reply(&mut late).await.json()["id"], 7);
    assert!(closed_within(&mut callers[0], Duration::from_secs(2)).await);
    assert!(!closed_within(&mut callers[1], Duration::from_millis(200)).await);
}

// --- Floods of 2,000 sockets --------------------------------------------------------------

/// Sockets in a flood: more than the default cap of 512 served connections, fewer than the
/// cap and the waiting room (4,096) together, so the server accepts every one.
const FLOOD: usize = 2_000;
/// Calls timed through a flood, one after the other.
const CALLS: usize = 100;
/// The longest any of them may take. The timeouts are 60 s, so without eviction a call waits
/// for them (the reason for the bound, not a target: each call takes a few milliseconds).
const CALL_BOUND: Duration = Duration::from_secs(2);

/// Raises the soft limit on open files to the hard one: a flood holds two descriptors per
/// socket in this process (ours and the server's), more than the usual soft limit of 1,024.
/// The limit then in force, if known (Linux; elsewhere nothing).
fn raise_fd_limit() -> Option<u64> {
    #[cfg(target_os = "linux")]
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
    #[cfg(not(target_os = "linux"))]
    None
}

/// Opens [`FLOOD`] connections that each send `sent` (perhaps nothing), then nothing more.
async fn flood(addr: SocketAddr, sent: &[u8]) -> Vec<TcpStream> {
    // Two floods may run at once (tests run in parallel), each with the server's side too.
    let needed = (4 * FLOOD + 1_000) as u64;
    if let Some(limit) = raise_fd_limit() {
        assert!(
            limit >= needed,
            "the open-file limit is {limit}; these tests need {needed} (raise `ulimit -Hn`)"
        );
    }
    let mut sockets = Vec::with_capacity(FLOOD);
    for _ in 0..FLOOD {
        let mut s = connect(addr).await;
        if !sent.is_empty() {
            s.write_all(sent).await.expect("send");
        }
        sockets.push(s);
    }
    sockets
}

/// Makes [`CALLS`] calls one after the other, each on a new connection, and prints their
/// times; fails as soon as one is not answered within [`CALL_BOUND`].
async fn time_calls(what: &str, addr: SocketAddr) {
    let mut times = Vec::with_capacity(CALLS);
    for i in 0..CALLS {
        let since = Instant::now();
        let Ok(reply) = timeout(CALL_BOUND, call(addr, "/ext/info", NETWORK_NAME)).await else {
            panic!(
                "{what}: call {i} not answered within {CALL_BOUND:?} (the ones before: {times:?})"
            );
        };
        times.push(since.elapsed());
        assert_eq!(reply.json()["id"], 7, "{what}: call {i}");
    }
    times.sort();
    eprintln!(
        "{what}: {CALLS} calls through {FLOOD} sockets: median {:?}, max {:?}",
        times[CALLS / 2],
        times[CALLS - 1]
    );
}

// On two threads, as a server runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_thousand_silent_sockets_do_not_delay_callers() {
    let addr = start(
        common::router(),
        long(ServerConfig::default().max_connections),
    )
    .await;
    let silent = flood(addr, b"").await;
    time_calls("silent sockets", addr).await;
    drop(silent);
}

// On two threads, as a server runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_thousand_half_sent_heads_do_not_lock_callers_out() {
    let addr = start(
        common::router(),
        long(ServerConfig::default().max_connections),
    )
    .await;
    let grace = ServerConfig::default()
        .head_grace
        .expect("a grace by default");
    let stalled = flood(addr, b"POST /ext/info HTT").await;
    let flooded = Instant::now();
    // A call at once: the heads are within their grace (2 s), so it waits for the first
    // ones to pass it, and for the newcomers that sent part of a head before it.
    let since = Instant::now();
    let reply = timeout(grace + CALL_BOUND, call(addr, "/ext/info", NETWORK_NAME))
        .await
        .expect("the first call answered once the heads' grace passed");
    assert_eq!(reply.json()["id"], 7);
    eprintln!(
        "half-sent heads: a call at once after the flood: {:?} (grace {grace:?})",
        since.elapsed()
    );
    // Then the heads have stalled past their grace: the calls are answered at once.
    tokio::time::sleep_until(flooded + grace + Duration::from_millis(500)).await;
    time_calls("half-sent heads", addr).await;
    drop(stalled);
}
