//! Misbehaving HTTP servers on 127.0.0.1, written on raw TCP so that every byte is under the
//! test's control: bodies streamed chunk by chunk (never held whole), lying `Content-Length`s,
//! servers that never answer or never accept.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One MB, as in "a 100 MB body".
pub const MB: u64 = 1_000_000;

/// Reads one HTTP/1.1 request: its head and a `Content-Length` body.
pub async fn read_request(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut request = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            return Ok(request);
        }
        request.extend_from_slice(&buf[..n]);
        if let Some(end) = request.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&request[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            while request.len() < end + 4 + length {
                let n = stream.read(&mut buf).await?;
                if n == 0 {
                    break;
                }
                request.extend_from_slice(&buf[..n]);
            }
            return Ok(request);
        }
    }
}

/// A server answering every connection with `respond`; returns its base URL.
pub async fn serve_raw<F, Fut>(respond: F) -> String
where
    F: Fn(TcpStream) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("local addr");
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(respond(stream));
        }
    });
    format!("http://{addr}")
}

/// How many body bytes a streaming server wrote, and whether it wrote them all.
#[derive(Clone, Default)]
pub struct Sent {
    bytes: Arc<AtomicU64>,
    finished: Arc<AtomicU64>,
}

impl Sent {
    /// Body bytes written so far (to all connections).
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::SeqCst)
    }

    /// Connections whose whole body was written.
    pub fn finished(&self) -> u64 {
        self.finished.load(Ordering::SeqCst)
    }
}

/// A server answering 200 with a body of `total` bytes of spaces, generated 64 KiB at a time
/// from one static buffer and written as it is generated; with `declare_length` the head has
/// `Content-Length: total`, otherwise the body is chunked. Stops when the client hangs up.
pub async fn serve_streaming(total: u64, declare_length: bool) -> (String, Sent) {
    static CHUNK: [u8; 64 * 1024] = [b' '; 64 * 1024];
    let sent = Sent::default();
    let counter = sent.clone();
    let base = serve_raw(move |mut stream| {
        let sent = counter.clone();
        async move {
            if read_request(&mut stream).await.is_err() {
                return;
            }
            let head = if declare_length {
                format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {total}\r\n\r\n"
                )
            } else {
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n".to_string()
            };
            if stream.write_all(head.as_bytes()).await.is_err() {
                return;
            }
            let mut left = total;
            while left > 0 {
                let n = left.min(CHUNK.len() as u64) as usize;
                let written = if declare_length {
                    stream.write_all(&CHUNK[..n]).await
                } else {
                    let size = format!("{n:x}\r\n");
                    async {
                        stream.write_all(size.as_bytes()).await?;
                        stream.write_all(&CHUNK[..n]).await?;
                        stream.write_all(b"\r\n").await
                    }
                    .await
                };
                if written.is_err() {
                    return;
                }
                sent.bytes.fetch_add(n as u64, Ordering::SeqCst);
                left -= n as u64;
            }
            if !declare_length && stream.write_all(b"0\r\n\r\n").await.is_err() {
                return;
            }
            sent.finished.fetch_add(1, Ordering::SeqCst);
        }
    })
    .await;
    (base, sent)
}

/// A server that reads the request, writes `head_and_start` and then neither writes nor
/// closes for a minute.
pub async fn serve_stalling(head_and_start: &'static str) -> String {
    serve_raw(move |mut stream| async move {
        if read_request(&mut stream).await.is_err() {
            return;
        }
        if stream.write_all(head_and_start.as_bytes()).await.is_err() {
            return;
        }
        tokio::time::sleep(Duration::from_secs(60)).await;
        drop(stream);
    })
    .await
}

/// A listener that never accepts, with its accept queue full: a further connection attempt
/// gets no answer (Linux drops the SYN), so connecting hangs. Keep the returned value alive.
pub fn unanswered_connect() -> (SocketAddr, impl Sized) {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind("127.0.0.1:0".parse().expect("addr"))
        .expect("bind");
    let listener = socket.listen(0).expect("listen");
    let addr = listener.local_addr().expect("local addr");
    let mut queued = Vec::new();
    for _ in 0..16 {
        match std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(300)) {
            Ok(stream) => queued.push(stream),
            // The queue is full: this attempt hung.
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                return (addr, (listener, queued));
            }
            Err(e) => panic!("filling the accept queue: {e}"),
        }
    }
    panic!("the accept queue of a listener with backlog 0 never filled");
}

/// Reads a `kB` line (`VmRSS`, `VmHWM`) of /proc/self/status, in bytes.
pub fn proc_status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().strip_suffix("kB")?.trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"))
}
