//! A small HTTP/1.1 load generator (in the spirit of wrk): N keep-alive connections on a
//! single-threaded runtime, each sending the same prebuilt request as soon as the previous
//! reply has been read, for a fixed time.

use std::cell::Cell;
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A POST of `body` to `path`, as bytes on the wire.
pub fn request(addr: SocketAddr, path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A JSON-RPC request body for `method` with `{}` params and id 1.
pub fn rpc_body(method: &str) -> String {
    rpc_body_with(method, "{}")
}

/// A JSON-RPC request body for `method` with `params` (JSON text) and id 1.
pub fn rpc_body_with(method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}}}"#)
}

/// One keep-alive connection.
pub struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
}

/// A reply: status and body.
pub struct Reply {
    pub status: u16,
    pub body: Vec<u8>,
}

impl Conn {
    pub async fn open(addr: SocketAddr) -> Result<Conn, String> {
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
        stream
            .set_nodelay(true)
            .map_err(|e| format!("set_nodelay: {e}"))?;
        Ok(Conn {
            stream,
            buf: Vec::with_capacity(64 * 1024),
        })
    }

    /// Sends `request` and reads the reply; keeps the body only if `keep_body`.
    pub async fn round_trip(&mut self, request: &[u8], keep_body: bool) -> Result<Reply, String> {
        self.stream
            .write_all(request)
            .await
            .map_err(|e| format!("write: {e}"))?;
        self.read_reply(keep_body).await
    }

    async fn fill(&mut self) -> Result<(), String> {
        if self.buf.capacity() - self.buf.len() < 16 * 1024 {
            self.buf.reserve(64 * 1024);
        }
        let n = self
            .stream
            .read_buf(&mut self.buf)
            .await
            .map_err(|e| format!("read: {e}"))?;
        if n == 0 {
            return Err("the server closed the connection".into());
        }
        Ok(())
    }

    async fn read_reply(&mut self, keep_body: bool) -> Result<Reply, String> {
        let head_end = loop {
            if let Some(i) = find(&self.buf, b"\r\n\r\n") {
                break i + 4;
            }
            self.fill().await?;
        };
        let head = std::str::from_utf8(&self.buf[..head_end])
            .map_err(|_| "the reply's head is not UTF-8".to_string())?;
        let status: u16 = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("bad status line: {:?}", head.lines().next()))?;
        let length: usize = head
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse().ok())?
            })
            .ok_or_else(|| {
                "the reply has no Content-Length (chunked replies are not supported)".to_string()
            })?;
        self.buf.drain(..head_end);
        let mut body = Vec::new();
        let mut missing = length;
        loop {
            let take = missing.min(self.buf.len());
            if keep_body {
                body.extend_from_slice(&self.buf[..take]);
            }
            self.buf.drain(..take);
            missing -= take;
            if missing == 0 {
                break;
            }
            self.fill().await?;
        }
        Ok(Reply { status, body })
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// What one load run measured.
pub struct Outcome {
    /// Replies completed inside the measuring window.
    pub requests: u64,
    /// The window's length.
    pub elapsed: Duration,
    /// CPU ticks the server used in the window.
    pub server_ticks: u64,
    /// CPU ticks this process (the load generator) used in the window.
    pub client_ticks: u64,
    /// CPU ticks all other processes (not the server, not this process) used in the window.
    pub foreign_ticks: u64,
}

/// Drives `connections` connections at `addr` for `warmup` then `measure`; reads the CPU
/// time of `server_pid` at the window's edges.
pub async fn run(
    addr: SocketAddr,
    request: Rc<[u8]>,
    connections: usize,
    warmup: Duration,
    measure: Duration,
    server_pid: u32,
) -> Result<Outcome, String> {
    let completed = Rc::new(Cell::new(0u64));
    let stop = Rc::new(Cell::new(false));
    let failure: Rc<Cell<Option<String>>> = Rc::new(Cell::new(None));
    let mut conns = Vec::with_capacity(connections);
    for _ in 0..connections {
        conns.push(Conn::open(addr).await?);
    }
    let local = tokio::task::LocalSet::new();
    let outcome = local
        .run_until(async {
            let mut tasks = Vec::new();
            for mut conn in conns {
                let (completed, stop, failure, request) = (
                    completed.clone(),
                    stop.clone(),
                    failure.clone(),
                    request.clone(),
                );
                tasks.push(tokio::task::spawn_local(async move {
                    while !stop.get() {
                        match conn.round_trip(&request, false).await {
                            Ok(r) if r.status == 200 => completed.set(completed.get() + 1),
                            Ok(r) => {
                                failure.set(Some(format!("HTTP {}", r.status)));
                                stop.set(true);
                            }
                            Err(e) => {
                                failure.set(Some(e));
                                stop.set(true);
                            }
                        }
                    }
                }));
            }
            tokio::time::sleep(warmup).await;
            let snap = || -> Result<(Instant, u64, u64, u64, u64), String> {
                let err = |e: std::io::Error| format!("cannot read /proc: {e}");
                Ok((
                    Instant::now(),
                    completed.get(),
                    crate::sys::process_ticks(server_pid).map_err(err)?,
                    crate::sys::self_ticks().map_err(err)?,
                    crate::sys::machine_busy_ticks().map_err(err)?,
                ))
            };
            let start = snap()?;
            tokio::time::sleep(measure).await;
            let end = snap()?;
            stop.set(true);
            for t in tasks {
                let _ = t.await;
            }
            if let Some(e) = failure.take() {
                return Err(format!("load run failed: {e}"));
            }
            let server_ticks = end.2 - start.2;
            let own = end.3 - start.3;
            let busy = end.4 - start.4;
            Ok(Outcome {
                requests: end.1 - start.1,
                elapsed: end.0 - start.0,
                server_ticks,
                client_ticks: own,
                foreign_ticks: busy.saturating_sub(server_ticks + own),
            })
        })
        .await?;
    Ok(outcome)
}
