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
//! `--small` runs a tenth of the sockets and peers (a smoke test).

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
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--devnet" => devnet = Some(it.next().ok_or("--devnet needs a path")?.clone()),
            "--small" => small = true,
            "--only" => only = Some(it.next().ok_or("--only needs a scenario")?.clone()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let devnet = devnet.ok_or("hostile needs --devnet PATH (a release build of avalanche-devnet)")?;
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
    Ok(())
}

/// A devnet on a free port, stopped on drop.
struct Devnet {
    child: Child,
    addr: SocketAddr,
}

impl Devnet {
    fn start(path: &str) -> Result<Devnet, String> {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
            l.local_addr().map_err(|e| e.to_string())?.port()
        };
        let child = Command::new(path)
            .args(["--in-memory", "--history=false", "--http-port", &port.to_string()])
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
        Err(format!("{path} did not listen on {} within 60 s", node.addr))
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
                let (connected, reopened, stop) = (connected.clone(), reopened.clone(), stop.clone());
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
    println!("## bodies: {peers} peers each send {SENT} bytes of a {ANNOUNCED}-byte body and stall");
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
    println!(
        "RSS: {:.1} MiB before, {:.1} MiB while held (peak {:.1} MiB, +{:.1} MiB), {:.1} MiB 3 s after the peers closed ({:+.1} MiB)",
        before as f64 / MIB,
        during as f64 / MIB,
        peak as f64 / MIB,
        (peak as f64 - before as f64) / MIB,
        after as f64 / MIB,
        (after as f64 - before as f64) / MIB
    );
    Ok(())
}
