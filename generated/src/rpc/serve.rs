//! [`serve`]: accepting connections and serving a router on them, with the node's timeouts and
//! a cap on open connections. Use it instead of `axum::serve`, which has no timeouts.

use super::deadline::{Clock, ReplyBody, RequestBody, TimedIo, Timeouts, supervise};
use super::server::BoxFuture;
use axum::Router;
use axum::http::{Request, Response};
use hyper::body::{Body, Incoming};
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::io;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::time::Instant;

/// How long to wait before accepting again after an error that is not about one connection
/// (such as running out of file descriptors), as `axum::serve` does.
const ACCEPT_BACKOFF: Duration = Duration::from_secs(1);

/// Timeouts and limits of [`serve`]. [`Default`] is the node's defaults (see the table in
/// [`crate::rpc::server`]); change them with the setters:
///
/// ```
/// use avalanche_rpc::rpc::ServeConfig;
/// use std::time::Duration;
/// let config = ServeConfig::default()
///     .read_timeout(Duration::from_secs(10))
///     .idle_timeout(None)
///     .max_connections(2_000);
/// assert_eq!(config.read_header_timeout, Some(Duration::from_secs(30)));
/// assert_eq!(config.idle_timeout, None);
/// ```
///
/// A timeout of `None` is no limit (where the node spells it `0`). Every timeout ends with the
/// connection closed, without a reply, as the node does.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServeConfig {
    /// The longest a request head may take to arrive, counted from the request's first byte
    /// (from accept, for a connection's first request). Node: `--http-read-header-timeout`,
    /// 30 s.
    pub read_header_timeout: Option<Duration>,
    /// The longest a whole request, head and body, may take to arrive, counted as
    /// [`read_header_timeout`](Self::read_header_timeout) is. Node: `--http-read-timeout`,
    /// 30 s.
    pub read_timeout: Option<Duration>,
    /// The longest a reply may take to be written to the socket, counted from when the
    /// handler returns it. Node: `--http-write-timeout`, 30 s, counted from the end of the
    /// request head (so there a handler's own time counts too).
    pub write_timeout: Option<Duration>,
    /// The longest a keep-alive connection may wait for its next request, counted from when
    /// the last reply was written. Node: `--http-idle-timeout`, 120 s.
    pub idle_timeout: Option<Duration>,
    /// The most connections open at once. Further ones wait in the listener's backlog (the
    /// kernel queues them, unaccepted, holding no file descriptor here) until one closes; the
    /// timeouts above start when a connection is accepted. The node has no cap. 512 by
    /// default: half the usual soft limit of 1,024 open files, so a flood of idle connections
    /// cannot exhaust the process's descriptors, leaving the rest for everything else it opens.
    pub max_connections: usize,
}

impl Default for ServeConfig {
    fn default() -> Self {
        Self {
            read_header_timeout: Some(Duration::from_secs(30)),
            read_timeout: Some(Duration::from_secs(30)),
            write_timeout: Some(Duration::from_secs(30)),
            idle_timeout: Some(Duration::from_secs(120)),
            max_connections: 512,
        }
    }
}

impl ServeConfig {
    /// Sets [`read_header_timeout`](Self::read_header_timeout) (`None`: no limit).
    pub fn read_header_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.read_header_timeout = timeout.into();
        self
    }

    /// Sets [`read_timeout`](Self::read_timeout) (`None`: no limit).
    pub fn read_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.read_timeout = timeout.into();
        self
    }

    /// Sets [`write_timeout`](Self::write_timeout) (`None`: no limit).
    pub fn write_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.write_timeout = timeout.into();
        self
    }

    /// Sets [`idle_timeout`](Self::idle_timeout) (`None`: no limit).
    pub fn idle_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.idle_timeout = timeout.into();
        self
    }

    /// Sets [`max_connections`](Self::max_connections) (at least 1).
    pub fn max_connections(mut self, max: usize) -> Self {
        self.max_connections = max;
        self
    }

    fn timeouts(&self) -> Timeouts {
        Timeouts {
            read_header: self.read_header_timeout,
            read: self.read_timeout,
            write: self.write_timeout,
            idle: self.idle_timeout,
        }
    }
}

/// Serves `router` over HTTP/1.1 on every connection `listener` accepts, with the timeouts and
/// the connection cap of `config` (what each does: the second table in
/// [`crate::rpc::server`]). Runs until the future is dropped; an error accepting a connection
/// is not returned (the peer is skipped; when the process is out of file descriptors,
/// accepting pauses for a second). HTTP/2 and protocol upgrades are not offered; the
/// JSON-RPC routers need neither.
///
/// ```no_run
/// # async fn run() -> std::io::Result<()> {
/// use avalanche_rpc::rpc::{SpecExamples, ServeConfig, serve};
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:9650").await?;
/// serve(listener, avalanche_rpc::info::router(SpecExamples), ServeConfig::default()).await
/// # }
/// ```
///
/// # Errors
///
/// [`io::ErrorKind::InvalidInput`] at once if `config.max_connections` is 0 or more than
/// tokio's semaphore can count.
pub async fn serve(listener: TcpListener, router: Router, config: ServeConfig) -> io::Result<()> {
    if config.max_connections == 0 || config.max_connections > Semaphore::MAX_PERMITS {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "max_connections is {}; it must be from 1 to {}",
                config.max_connections,
                Semaphore::MAX_PERMITS
            ),
        ));
    }
    let slots = Arc::new(Semaphore::new(config.max_connections));
    let timeouts = config.timeouts();
    let mut http = http1::Builder::new();
    // hyper's own header timer restarts as soon as a keep-alive connection goes idle, so it
    // would close idle connections after the header timeout, not the idle one; the clock
    // enforces both.
    http.header_read_timeout(None::<Duration>).keep_alive(true);
    loop {
        // Wait for a free slot before accepting, so excess connections queue in the backlog.
        let Ok(slot) = slots.clone().acquire_owned().await else {
            // Only a closed semaphore fails, and this one is never closed.
            return Ok(());
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) if is_about_one_connection(&e) => continue,
            Err(_) => {
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        // As Go sets on every TCP connection; a failure only costs latency.
        let _ = stream.set_nodelay(true);
        let clock = Clock::new(timeouts, Instant::now());
        let service = ConnService {
            router: router.clone(),
            clock: clock.clone(),
        };
        let io = TokioIo::new(TimedIo::new(stream, clock.clone()));
        let connection = http.serve_connection(io, service);
        tokio::spawn(async move {
            supervise(connection, clock).await;
            drop(slot);
        });
    }
}

/// Errors `accept` returns for a connection the peer gave up on, after which accepting the
/// next one works.
fn is_about_one_connection(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionRefused
            | io::ErrorKind::Interrupted
    )
}

/// The router, as hyper calls it on one connection: tells the connection's clock when a
/// request starts and when its reply is ready.
#[derive(Clone)]
struct ConnService {
    router: Router,
    clock: Clock,
}

impl hyper::service::Service<Request<Incoming>> for ConnService {
    type Response = Response<ReplyBody>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<ReplyBody>, Infallible>>;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        self.clock
            .request_started(Instant::now(), request.body().is_end_stream());
        let clock = self.clock.clone();
        let request = request.map(|body| RequestBody::new(body, clock.clone()));
        let mut router = self.router.clone();
        Box::pin(async move {
            std::future::poll_fn(|cx| {
                tower_service::Service::<Request<RequestBody>>::poll_ready(&mut router, cx)
            })
            .await?;
            let response = tower_service::Service::call(&mut router, request).await?;
            clock.reply_ready(Instant::now());
            Ok(response.map(|body| ReplyBody::new(body, clock)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_nodes() {
        let c = ServeConfig::default();
        let s = |n| Some(Duration::from_secs(n));
        assert_eq!(
            (
                c.read_header_timeout,
                c.read_timeout,
                c.write_timeout,
                c.idle_timeout
            ),
            (s(30), s(30), s(30), s(120))
        );
        assert_eq!(c.max_connections, 512);
    }

    #[tokio::test]
    async fn no_connections_allowed_is_refused_clearly() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let e = serve(
            listener,
            Router::new(),
            ServeConfig::default().max_connections(0),
        )
        .await
        .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("max_connections is 0"), "{e}");
    }
}
