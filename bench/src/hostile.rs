//! `avalanche-rpc-bench hostile --devnet PATH [--small]`: the devnet (a release build) under
//! hostile load, on 127.0.0.1, with a legit caller's latency and the devnet's memory measured
//! meanwhile. Scenarios, each on a fresh devnet with default settings:
//!
//! - `silent`: 2,000 sockets held open and silent (each one the server closes is reopened at
//!   once, as a prober would), then 100 legit calls in a row, each on a new connection.
//! - `bodies`: 64 peers each send 7 MB of an 8 MB body (half announce the length, half send
//!   it chunked) and stall; legit calls meanwhile; RSS before, at its peak and after the
//!   peers close.
//!
//! - `batch`: an address funded 1,030 times; 8 peers each send a batch of 256 `avm.getUTXOs`
//!   calls for 1,024 of its UTXOs and do not read the reply (a tiny receive buffer); the
//!   reply's size (read once by a reading peer) and RSS before, at the peak and after.
//! - `soak`: 10 minutes of `devnet.fund` (one `issueTx` each) at 10 per second plus 256
//!   keep-alive connections of mixed reads (of an address funded 100 times before, so that
//!   every read costs the same all along), the store on disk with a 1 MiB page cache (full
//!   within the first minute, so that what grows after it is the server's); failed calls, and
//!   RSS every 10 s.
//!
//! `--small` runs a tenth of the sockets, peers and soak time (a smoke test).
//!
//! The soak's knobs, for finding what grows: `--soak-seconds N` (its length), `--soak-funds N`
//! (funds per second, 0 for reads only) and `--soak-reads M1,M2` (only the reads whose method
//! is named, `none` for funds only).

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::load;

const MIB: f64 = 1024.0 * 1024.0;

pub fn run(args: &[String]) -> Result<(), String> {
    let mut devnet = None;
    let mut small = false;
    let mut only: Option<String> = None;
    let mut soak_options = SoakOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--devnet" => devnet = Some(it.next().ok_or("--devnet needs a path")?.clone()),
            "--small" => small = true,
            "--only" => only = Some(it.next().ok_or("--only needs a scenario")?.clone()),
            "--soak-seconds" => {
                soak_options.seconds = Some(number(it.next(), "--soak-seconds")?);
            }
            "--soak-funds" => soak_options.funds_per_second = number(it.next(), "--soak-funds")?,
            "--soak-reads" => {
                let list = it.next().ok_or("--soak-reads needs a list of methods")?;
                soak_options.reads = Some(
                    list.split(',')
                        .filter(|m| !m.is_empty() && *m != "none")
                        .map(str::to_string)
                        .collect(),
                );
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let devnet =
        devnet.ok_or("hostile needs --devnet PATH (a release build of avalanche-devnet)")?;
    raise_fd_limit()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let scale = if small { 10 } else { 1 };
    let wants = |s: &str| only.as_deref().is_none_or(|o| o == s);
    if wants("silent") {
        let node = Devnet::start(&devnet)?;
        runtime.block_on(silent(node.addr, 2_000 / scale, 100))?;
    }
    if wants("bodies") {
        let node = Devnet::start(&devnet)?;
        runtime.block_on(bodies(&node, 64 / scale))?;
    }
    if wants("batch") {
        let node = Devnet::start(&devnet)?;
        runtime.block_on(batch(&node))?;
    }
    if wants("soak") {
        // On disk, as a node keeps its chain: the soak measures the server's memory, not the
        // chain's growth (an in-memory store grows by every transaction).
        let (node, _dir) = Devnet::start_on_disk(&devnet)?;
        let seconds = soak_options.seconds.unwrap_or(600 / scale as u64);
        runtime.block_on(soak(&node, Duration::from_secs(seconds), &soak_options))?;
    }
    Ok(())
}

fn number(arg: Option<&String>, flag: &str) -> Result<u64, String> {
    arg.and_then(|a| a.parse().ok())
        .ok_or_else(|| format!("{flag} needs a whole number"))
}

/// What the soak runs: its length, the funding rate and which reads.
struct SoakOptions {
    /// Seconds (default 600, a tenth with `--small`).
    seconds: Option<u64>,
    funds_per_second: u64,
    /// The methods of the reads kept (default: all of them).
    reads: Option<Vec<String>>,
}

impl Default for SoakOptions {
    fn default() -> Self {
        SoakOptions {
            seconds: None,
            funds_per_second: 10,
            reads: None,
        }
    }
}

/// A devnet on a free port, stopped on drop.
struct Devnet {
    child: Child,
    addr: SocketAddr,
}

impl Devnet {
    fn start(path: &str) -> Result<Devnet, String> {
        Self::start_with(path, &["--in-memory"])
    }

    /// As [`start`](Self::start), with the store in a fresh directory: what grows with the
    /// chain (blocks, UTXOs, the index) is then on disk, not in RSS.
    fn start_on_disk(path: &str) -> Result<(Devnet, TempDir), String> {
        let dir = TempDir::new()?;
        // A small page cache, full within the first minute: what is left to grow is the
        // server's. redb fills its read cache (nine tenths of this) only with the live pages
        // it writes and reads: at 10 funds a second, 4 MiB filled over about three minutes
        // (3 MiB more RSS between the first and the third minute with funds alone), 1 MiB
        // within the first 40 s.
        let node = Self::start_with(
            path,
            &[
                "--db-dir",
                dir.0.to_str().unwrap_or_default(),
                "--db-cache-bytes",
                "1048576",
            ],
        )?;
        Ok((node, dir))
    }

    fn start_with(path: &str, store: &[&str]) -> Result<Devnet, String> {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
            l.local_addr().map_err(|e| e.to_string())?.port()
        };
        let child = Command::new(path)
            .args(store)
            .args(["--history=false", "--http-port", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {path}: {e}"))?;
        let node = Devnet {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
        };
        let until = Instant::now() + Duration::from_secs(60);
        while Instant::now() < until {
            if std::net::TcpStream::connect(node.addr).is_ok() {
                return Ok(node);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(format!(
            "{path} did not listen on {} within 60 s",
            node.addr
        ))
    }

    /// Resident memory, in bytes.
    fn rss(&self) -> u64 {
        rss(self.child.id())
    }
}

impl Drop for Devnet {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A directory removed on drop.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new() -> Result<TempDir, String> {
        let dir = std::env::temp_dir().join(format!(
            "avalanche-rpc-hostile-{}-{}",
            std::process::id(),
            Instant::now().elapsed().as_nanos()
        ));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn rss(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// The highest RSS of `pid` until `stop`, sampled every 20 ms on a thread of its own.
struct RssPeak {
    peak: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl RssPeak {
    fn watch(pid: u32) -> RssPeak {
        let peak = Arc::new(AtomicU64::new(rss(pid)));
        let stop = Arc::new(AtomicBool::new(false));
        let (p, s) = (peak.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                p.fetch_max(rss(pid), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        RssPeak {
            peak,
            stop,
            thread: Some(thread),
        }
    }

    fn finish(mut self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.peak.load(Ordering::Relaxed)
    }
}

fn raise_fd_limit() -> Result<(), String> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return Err("getrlimit failed".into());
        }
        limit.rlim_cur = limit.rlim_max;
        if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
            return Err("setrlimit failed".into());
        }
    }
    if limit.rlim_cur < 8_192 {
        return Err(format!(
            "the open-file limit is {}; the silent scenario needs more than 2,100",
            limit.rlim_cur
        ));
    }
    Ok(())
}

/// One legit call on a new connection: its time to the whole reply.
async fn legit(addr: SocketAddr) -> Result<Duration, String> {
    let request = load::request(addr, "/ext/info", &load::rpc_body("info.getNetworkID"));
    let since = Instant::now();
    let mut conn = load::Conn::open(addr).await?;
    let reply = conn.round_trip(&request, true).await?;
    if reply.status != 200 || !String::from_utf8_lossy(&reply.body).contains("\"networkID\"") {
        return Err(format!(
            "a legit call got {}: {}",
            reply.status,
            String::from_utf8_lossy(&reply.body)
        ));
    }
    Ok(since.elapsed())
}

fn summary(mut times: Vec<Duration>) -> String {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!(
        "median {:.2} ms, max {:.2} ms ({} calls)",
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1]),
        times.len()
    )
}

async fn silent(addr: SocketAddr, sockets: usize, calls: usize) -> Result<(), String> {
    println!("## silent: {sockets} silent sockets, then {calls} legit calls in a row");
    let mut quiet = Vec::new();
    for _ in 0..20 {
        quiet.push(legit(addr).await?);
    }
    println!("unloaded: {}", summary(quiet));
    let local = tokio::task::LocalSet::new();
    let connected = Rc::new(AtomicUsize::new(0));
    let reopened = Rc::new(AtomicUsize::new(0));
    let stop = Rc::new(AtomicBool::new(false));
    local
        .run_until(async {
            for _ in 0..sockets {
                let (connected, reopened, stop) =
                    (connected.clone(), reopened.clone(), stop.clone());
                tokio::task::spawn_local(async move {
                    let mut first = true;
                    while !stop.load(Ordering::Relaxed) {
                        let Ok(mut s) = TcpStream::connect(addr).await else {
                            tokio::time::sleep(Duration::from_millis(10)).await;
                            continue;
                        };
                        if first {
                            connected.fetch_add(1, Ordering::Relaxed);
                            first = false;
                        } else {
                            reopened.fetch_add(1, Ordering::Relaxed);
                        }
                        // Silent until the server closes it (or the scenario ends).
                        let mut buf = [0u8; 64];
                        loop {
                            tokio::select! {
                                r = s.read(&mut buf) => if matches!(r, Ok(0) | Err(_)) { break },
                                () = tokio::time::sleep(Duration::from_millis(200)) => {
                                    if stop.load(Ordering::Relaxed) { return; }
                                }
                            }
                        }
                    }
                });
            }
            let since = Instant::now();
            while connected.load(Ordering::Relaxed) < sockets {
                if since.elapsed() > Duration::from_secs(60) {
                    return Err(format!(
                        "only {} of {sockets} sockets connected in 60 s",
                        connected.load(Ordering::Relaxed)
                    ));
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            println!(
                "{sockets} sockets connected in {:.1} s",
                since.elapsed().as_secs_f64()
            );
            tokio::time::sleep(Duration::from_secs(1)).await;
            let mut times = Vec::new();
            for _ in 0..calls {
                times.push(legit(addr).await?);
            }
            println!("under the silent sockets: {}", summary(times));
            println!(
                "sockets the server closed and the prober reopened meanwhile: {}",
                reopened.load(Ordering::Relaxed)
            );
            stop.store(true, Ordering::Relaxed);
            Ok(())
        })
        .await
}

async fn bodies(node: &Devnet, peers: usize) -> Result<(), String> {
    const ANNOUNCED: usize = 8_000_000;
    const SENT: usize = 7_000_000;
    let addr = node.addr;
    println!(
        "## bodies: {peers} peers each send {SENT} bytes of a {ANNOUNCED}-byte body and stall"
    );
    for _ in 0..50 {
        legit(addr).await?;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = node.rss();
    let peak = RssPeak::watch(node.child.id());
    let mut held = Vec::new();
    let mut refused = 0;
    let mut accepted = 0;
    let chunk = vec![b' '; 64 * 1024];
    for i in 0..peers {
        let chunked = i % 2 == 1;
        let mut s = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        let head = if chunked {
            format!(
                "POST /ext/info HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
                 Transfer-Encoding: chunked\r\n\r\n"
            )
        } else {
            format!(
                "POST /ext/info HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
                 Content-Length: {ANNOUNCED}\r\n\r\n"
            )
        };
        let mut ok = s.write_all(head.as_bytes()).await.is_ok();
        let mut sent = 0;
        while ok && sent < SENT {
            let n = chunk.len().min(SENT - sent);
            let frame = if chunked {
                let mut frame = format!("{n:x}\r\n").into_bytes();
                frame.extend_from_slice(&chunk[..n]);
                frame.extend_from_slice(b"\r\n");
                frame
            } else {
                chunk[..n].to_vec()
            };
            // A refused peer's socket is closed under it; a write may also block once the
            // server stops reading (it does not for an accepted body).
            ok = matches!(
                tokio::time::timeout(Duration::from_secs(2), s.write_all(&frame)).await,
                Ok(Ok(()))
            );
            sent += n;
            let mut probe = [0u8; 1];
            if let Ok(Ok(1..)) = tokio::time::timeout(Duration::ZERO, s.peek(&mut probe)).await {
                ok = false;
            }
        }
        let mut head = [0u8; 12];
        match tokio::time::timeout(Duration::from_millis(200), s.read(&mut head)).await {
            Ok(Ok(n)) if n >= 12 && &head[9..12] == b"503" => refused += 1,
            Ok(Ok(0) | Err(_)) => refused += 1,
            _ => accepted += 1,
        }
        held.push(s);
    }
    let mut times = Vec::new();
    for _ in 0..50 {
        times.push(legit(addr).await?);
    }
    let during = node.rss();
    println!("{accepted} bodies held, {refused} refused with 503");
    println!("legit calls meanwhile: {}", summary(times));
    drop(held);
    tokio::time::sleep(Duration::from_secs(3)).await;
    for _ in 0..10 {
        legit(addr).await?;
    }
    let after = node.rss();
    let peak = peak.finish();
    report_rss("while held", [before, during, peak, after]);
    Ok(())
}

/// Prints RSS `before`, `during` (as `while`), at its `peak` and `after` the peers closed.
fn report_rss(while_: &str, [before, during, peak, after]: [u64; 4]) {
    let mib = |b: u64| b as f64 / MIB;
    println!(
        "RSS: {:.1} MiB before, {:.1} MiB {while_} (peak {:.1} MiB, +{:.1} MiB), {:.1} MiB 3 s after the peers closed ({:+.1} MiB)",
        mib(before),
        mib(during),
        mib(peak),
        mib(peak) - mib(before),
        mib(after),
        mib(after) - mib(before)
    );
}

/// One JSON-RPC call on its own connection; the reply's body.
async fn rpc(addr: SocketAddr, path: &str, body: &str) -> Result<Vec<u8>, String> {
    let mut conn = load::Conn::open(addr).await?;
    let reply = conn
        .round_trip(&load::request(addr, path, body), true)
        .await?;
    if reply.status != 200 || reply.body.windows(8).any(|w| w == b"\"error\":") {
        return Err(format!(
            "{path} {body}: {} {}",
            reply.status,
            String::from_utf8_lossy(&reply.body)
        ));
    }
    Ok(reply.body)
}

fn address(byte: u8) -> String {
    avalanche_rpc::wire::Address::new(Some("X"), "local", [byte; 20])
        .map(|a| a.to_string())
        .unwrap_or_default()
}

fn fund_body(to: &str, amount: u64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"devnet.fund","params":{{"address":"{to}","amount":"{amount}"}}}}"#
    )
}

async fn batch(node: &Devnet) -> Result<(), String> {
    const UTXOS: usize = 1_030;
    const CALLS: usize = 256;
    const PEERS: usize = 8;
    let addr = node.addr;
    let to = address(0xa1);
    println!(
        "## batch: {PEERS} peers send a batch of {CALLS} avm.getUTXOs (1,024 each) and do not read"
    );
    let since = Instant::now();
    for i in 0..UTXOS {
        rpc(addr, "/ext/devnet", &fund_body(&to, 1_000 + i as u64)).await?;
    }
    println!(
        "{to} funded {UTXOS} times in {:.1} s",
        since.elapsed().as_secs_f64()
    );
    let calls: Vec<String> = (0..CALLS)
        .map(|i| {
            format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"avm.getUTXOs","params":{{"addresses":["{to}"],"limit":1024}}}}"#
            )
        })
        .collect();
    let body = format!("[{}]", calls.join(","));
    let request = load::request(addr, "/ext/bc/X", &body);
    let mut reader = load::Conn::open(addr).await?;
    let reply = reader.round_trip(&request, true).await?;
    let text = String::from_utf8_lossy(&reply.body);
    let limited = text.matches("-32003").count();
    println!(
        "a {} KB batch: a {:.2} MB reply ({} calls answered, {limited} got -32003)",
        body.len() / 1000,
        reply.body.len() as f64 / 1e6,
        CALLS - limited
    );
    drop(reader);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = node.rss();
    let peak = RssPeak::watch(node.child.id());
    let mut peers = Vec::new();
    for _ in 0..PEERS {
        let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
        socket
            .set_recv_buffer_size(4096)
            .map_err(|e| e.to_string())?;
        let mut s = socket.connect(addr).await.map_err(|e| e.to_string())?;
        s.write_all(&request).await.map_err(|e| e.to_string())?;
        peers.push(s);
    }
    let mut times = Vec::new();
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        times.push(legit(addr).await?);
    }
    let during = node.rss();
    println!("legit calls meanwhile: {}", summary(times));
    drop(peers);
    tokio::time::sleep(Duration::from_secs(3)).await;
    legit(addr).await?;
    let after = node.rss();
    let peak = peak.finish();
    report_rss("with the replies unread", [before, during, peak, after]);
    Ok(())
}

async fn soak(node: &Devnet, length: Duration, options: &SoakOptions) -> Result<(), String> {
    const READERS: usize = 256;
    let funds_per_second = options.funds_per_second;
    let addr = node.addr;
    println!(
        "## soak: {} s of devnet.fund at {funds_per_second}/s plus {READERS} connections of mixed reads",
        length.as_secs()
    );
    // The reads ask about an address of a fixed number of UTXOs, the funds go to another: the
    // chain grows all along but every read costs the same from start to end. (Read at the
    // funded address, `avm.getBalance` answers every UTXO ID, 68 bytes more per fund: a
    // 200 KB reply after 3,000 funds, and reads 5 times slower at the end than at the start.)
    let to = address(0xb7);
    let read_at = address(0xb6);
    const READ_UTXOS: u64 = 100;
    // Also a first block on X, so that every read below has something to answer (an empty
    // index answers "no containers have been accepted", an error).
    for i in 0..READ_UTXOS {
        rpc(addr, "/ext/devnet", &fund_body(&read_at, 1_000 + i)).await?;
    }
    let reads: Vec<(&str, String)> = vec![
        ("/ext/info", load::rpc_body("info.getNetworkID")),
        ("/ext/bc/P", load::rpc_body("platform.getHeight")),
        ("/ext/bc/P", load::rpc_body("platform.getCurrentValidators")),
        (
            "/ext/bc/X",
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"avm.getUTXOs","params":{{"addresses":["{read_at}"],"limit":100}}}}"#),
        ),
        (
            "/ext/bc/X",
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"avm.getBalance","params":{{"address":"{read_at}","assetID":"AVAX"}}}}"#),
        ),
        (
            "/ext/index/X/block",
            r#"{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted","params":{"encoding":"hex"}}"#.to_string(),
        ),
    ];
    let reads: Vec<(&str, String)> = match &options.reads {
        None => reads,
        Some(kept) => reads
            .into_iter()
            .filter(|(_, body)| kept.iter().any(|m| body.contains(&format!("\"{m}\""))))
            .collect(),
    };
    if let Some(kept) = &options.reads {
        println!("reads kept: {kept:?} ({} of the mix)", reads.len());
    }
    let requests: Rc<Vec<Vec<u8>>> = Rc::new(
        reads
            .iter()
            .map(|(path, body)| load::request(addr, path, body))
            .collect(),
    );
    let stop = Rc::new(AtomicBool::new(false));
    let reads_done = Rc::new(AtomicU64::new(0));
    let failures = Rc::new(AtomicU64::new(0));
    let funds_done = Rc::new(AtomicU64::new(0));
    let pid = node.child.id();
    let local = tokio::task::LocalSet::new();
    local
        .run_until(async {
            for r in (0..READERS).filter(|_| !requests.is_empty()) {
                let (requests, stop, done, failures) =
                    (requests.clone(), stop.clone(), reads_done.clone(), failures.clone());
                tokio::task::spawn_local(async move {
                    let mut conn = None;
                    let mut k = r;
                    while !stop.load(Ordering::Relaxed) {
                        if conn.is_none() {
                            conn = load::Conn::open(addr).await.ok();
                        }
                        let Some(c) = conn.as_mut() else {
                            failures.fetch_add(1, Ordering::Relaxed);
                            continue;
                        };
                        let request = &requests[k % requests.len()];
                        k += 1;
                        match c.round_trip(request, true).await {
                            Ok(reply)
                                if reply.status == 200
                                    && !reply.body.windows(8).any(|w| w == b"\"error\":") =>
                            {
                                done.fetch_add(1, Ordering::Relaxed);
                            }
                            outcome => {
                                if failures.fetch_add(1, Ordering::Relaxed) < 5 {
                                    eprintln!(
                                        "read failed: {}",
                                        match outcome {
                                            Ok(reply) => String::from_utf8_lossy(&reply.body)
                                                .chars()
                                                .take(300)
                                                .collect(),
                                            Err(e) => e,
                                        }
                                    );
                                }
                                conn = None;
                            }
                        }
                        // A mixed-read client, not a flood: about 20 calls a second each.
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                });
            }
            if funds_per_second > 0 {
                let (stop, done, failures, to) =
                    (stop.clone(), funds_done.clone(), failures.clone(), to.clone());
                tokio::task::spawn_local(async move {
                    let mut tick =
                        tokio::time::interval(Duration::from_secs_f64(1.0 / funds_per_second as f64));
                    let mut n = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        tick.tick().await;
                        n += 1;
                        match rpc(addr, "/ext/devnet", &fund_body(&to, 1_000 + n)).await {
                            Ok(_) => done.fetch_add(1, Ordering::Relaxed),
                            Err(e) => {
                                eprintln!("fund failed: {e}");
                                failures.fetch_add(1, Ordering::Relaxed)
                            }
                        };
                    }
                });
            }
            let since = Instant::now();
            let mut samples = Vec::new();
            while since.elapsed() < length {
                tokio::time::sleep(Duration::from_secs(10).min(length)).await;
                let r = rss(pid);
                samples.push((since.elapsed().as_secs(), r));
                println!(
                    "{:>4} s: RSS {:.1} MiB, {} reads, {} funds, {} failed",
                    since.elapsed().as_secs(),
                    r as f64 / MIB,
                    reads_done.load(Ordering::Relaxed),
                    funds_done.load(Ordering::Relaxed),
                    failures.load(Ordering::Relaxed)
                );
            }
            stop.store(true, Ordering::Relaxed);
            let after_first_minute: Vec<u64> = samples
                .iter()
                .filter(|(t, _)| *t >= 60.min(length.as_secs() / 2))
                .map(|(_, r)| *r)
                .collect();
            if let (Some(lo), Some(hi)) = (
                after_first_minute.iter().min(),
                after_first_minute.iter().max(),
            ) {
                println!(
                    "RSS after the first minute: {:.1} to {:.1} MiB ({:.1} % spread); {} reads, {} funds, {} failed calls",
                    *lo as f64 / MIB,
                    *hi as f64 / MIB,
                    (*hi as f64 - *lo as f64) / *lo as f64 * 100.0,
                    reads_done.load(Ordering::Relaxed),
                    funds_done.load(Ordering::Relaxed),
                    failures.load(Ordering::Relaxed)
                );
            }
            Ok(())
        })
        .await
}
