//! [`serve`]: accepting connections and serving a router on them, with the node's timeouts, a
//! cap on open connections (making room from idle ones and from stalled request heads) and a
//! budget for request bodies in flight. Use it instead of `axum::serve`, which has no timeouts.

mod budget;
mod deadline;

use crate::rpc::server::config::ServerConfig;
use crate::rpc::server::dispatch::BoxFuture;
use axum::Router;
use axum::http::{HeaderValue, Request, Response, StatusCode, header};
use budget::{Budget, CountedBody, Tally};
use deadline::{Clock, ReplyBody, RequestBody, TimedIo, Timeouts, supervise};
use hyper::body::{Body, Incoming};
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::io;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::Poll;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, oneshot};
use tokio::time::Instant;

/// How long to wait before accepting again after an error that is not about one connection
/// (such as running out of file descriptors), as `axum::serve` does.
const ACCEPT_BACKOFF: Duration = Duration::from_secs(1);

/// The deadlines of each stage of a connection, from `config`'s timeouts.
fn timeouts(config: &ServerConfig) -> Timeouts {
    Timeouts {
        read_header: config.read_header_timeout,
        read: config.read_timeout,
        write: config.write_timeout,
        idle: config.idle_timeout,
        head_grace: config.head_grace,
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
/// use avalanche_rpc::rpc::{ServerConfig, SpecExamples, serve};
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:9650").await?;
/// serve(listener, avalanche_rpc::info::router(SpecExamples), ServerConfig::default()).await
/// # }
/// ```
///
/// # Errors
///
/// [`io::ErrorKind::InvalidInput`] at once if `config.max_connections` is 0 or more than
/// tokio's semaphore can count.
pub async fn serve(listener: TcpListener, router: Router, config: ServerConfig) -> io::Result<()> {
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
    if config.evict_idle && (config.max_waiting == 0 || config.max_waiting > Semaphore::MAX_PERMITS)
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "max_waiting is {}; it must be from 1 to {}",
                config.max_waiting,
                Semaphore::MAX_PERMITS
            ),
        ));
    }
    if config.text_cache_entries > 0 {
        crate::wire::enable_text_cache(config.text_cache_entries);
    }
    let mut http = http1::Builder::new();
    // hyper's own header timer restarts as soon as a keep-alive connection goes idle, so it
    // would close idle connections after the header timeout, not the idle one; the clock
    // enforces both.
    http.header_read_timeout(None::<Duration>).keep_alive(true);
    let server = Arc::new(Server {
        router,
        http,
        timeouts: timeouts(&config),
        slots: Arc::new(Semaphore::new(config.max_connections)),
        open: Open::default(),
        budget: Budget::new(config.body_budget),
    });
    if !config.evict_idle {
        loop {
            // Wait for a free slot before accepting, so excess connections queue in the
            // backlog.
            let Ok(slot) = server.slots.clone().acquire_owned().await else {
                return Ok(());
            };
            if let Some(stream) = accept(&listener).await {
                let clock = server.clock(Instant::now());
                server.spawn_served(stream, slot, clock);
            }
        }
    }
    let waiting = Arc::new(Open::default());
    let waiting_slots = Arc::new(Semaphore::new(config.max_waiting));
    loop {
        let Some(stream) = accept(&listener).await else {
            continue;
        };
        let accepted = Instant::now();
        if let Ok(slot) = server.slots.clone().try_acquire_owned() {
            server.spawn_served(stream, slot, server.clock(accepted));
            continue;
        }
        // Full: it waits for its first byte without a slot. When the waiting room is full
        // too, the connection waiting the longest makes room; if every waiting one has sent
        // something (and waits for a slot), this one waits for room before the next accept,
        // so at most max_connections + max_waiting + 1 connections are ever accepted.
        let wait_slot = room(&waiting_slots, &waiting).await;
        // Once it sends something, an idle connection (or a stalled head) makes room for it.
        // A silent one never displaces anyone.
        let clock = server.clock(accepted);
        let entry = waiting.insert(clock.clone());
        let (server, waiting) = (server.clone(), waiting.clone());
        tokio::spawn(async move {
            let sent = first_byte(&stream, &clock).await;
            let heir = waiting.remove(entry);
            if !sent || heir.is_some() {
                pass_on(wait_slot, heir);
                return;
            }
            // Its request has started (at accept): from now on it is a head under way, which
            // a waiting newcomer may close only after the grace.
            clock.bytes_read(Instant::now());
            let slot = room(&server.slots, &server.open).await;
            drop(wait_slot);
            server.spawn_served(stream, slot, clock);
        });
    }
}

/// What every connection of one [`serve`] shares.
struct Server {
    router: Router,
    http: http1::Builder,
    timeouts: Timeouts,
    /// One permit per connection being served.
    slots: Arc<Semaphore>,
    /// The connections being served.
    open: Open,
    budget: Arc<Budget>,
}

impl Server {
    /// The clock of a connection accepted at `accepted`.
    fn clock(&self, accepted: Instant) -> Clock {
        Clock::with_evictable_notice(self.timeouts, accepted, self.open.evictable.clone())
    }

    /// Serves `stream` on a task of its own until it ends, then gives back its slot (to the
    /// connection that evicted it, if one did).
    fn spawn_served(self: &Arc<Self>, stream: TcpStream, slot: OwnedSemaphorePermit, clock: Clock) {
        // As Go sets on every TCP connection; a failure only costs latency.
        let _ = stream.set_nodelay(true);
        let entry = self.open.insert(clock.clone());
        let service = ConnService {
            router: self.router.clone(),
            clock: clock.clone(),
            budget: self.budget.clone(),
        };
        let io = TokioIo::new(TimedIo::new(stream, clock.clone()));
        let connection = self.http.serve_connection(io, service);
        let server = self.clone();
        tokio::spawn(async move {
            supervise(connection, clock).await;
            pass_on(slot, server.open.remove(entry));
        });
    }
}

/// Waits for a waiting connection's first byte: `false` if it closed, was evicted or its
/// request's deadline (counted from accept) passed first.
async fn first_byte(stream: &TcpStream, clock: &Clock) -> bool {
    let deadline = clock.deadline();
    let timer = async {
        match deadline {
            Some(at) => tokio::time::sleep_until(at).await,
            None => std::future::pending().await,
        }
    };
    let evicted = std::future::poll_fn(|cx| {
        if clock.evicted(cx.waker()) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    });
    let mut byte = [0u8; 1];
    tokio::select! {
        peeked = stream.peek(&mut byte) => matches!(peeked, Ok(1..)),
        () = evicted => false,
        () = timer => false,
    }
}

/// Accepts one connection; `None` after an error (the next accept may work; when the process
/// is out of file descriptors, after a pause).
async fn accept(listener: &TcpListener) -> Option<TcpStream> {
    match listener.accept().await {
        Ok((stream, _)) => Some(stream),
        Err(e) if is_about_one_connection(&e) => None,
        Err(_) => {
            tokio::time::sleep(ACCEPT_BACKOFF).await;
            None
        }
    }
}

/// A slot for a new connection: a free one, or the one of the connection evicted for it (idle
/// the longest, or a head stalled the longest), or the first to free up or become evictable.
async fn room(slots: &Arc<Semaphore>, open: &Open) -> OwnedSemaphorePermit {
    loop {
        if let Ok(slot) = slots.clone().try_acquire_owned() {
            return slot;
        }
        let heir = {
            // Registered before looking, so a connection becoming evictable meanwhile is not
            // missed. Each such connection tells one waiter (a notice this one does not use
            // passes on to the next as it is dropped), so a stalled head is not a stampede.
            let evictable = open.evictable.notified();
            let mut evictable = std::pin::pin!(evictable);
            evictable.as_mut().enable();
            match open.evict_oldest(Instant::now()) {
                Some(heir) => heir,
                None => {
                    tokio::select! {
                        slot = slots.clone().acquire_owned() => {
                            if let Ok(slot) = slot {
                                return slot;
                            }
                        }
                        () = evictable => {}
                    }
                    continue;
                }
            }
        };
        // The evicted connection's task hands its slot to this one as it ends (not to the
        // first in the semaphore's queue, who may be waiting for the same reason).
        if let Ok(slot) = heir.await {
            return slot;
        }
    }
}

/// Where an evicted connection's slot goes: to the connection that evicted it.
type Heir = oneshot::Sender<OwnedSemaphorePermit>;

/// Gives `slot` to `heir`, or back to its semaphore if there is none (or it is gone).
fn pass_on(slot: OwnedSemaphorePermit, heir: Option<Heir>) {
    if let Some(heir) = heir {
        // A refused slot comes back in the error and is dropped: back to the semaphore.
        let _ = heir.send(slot);
    }
}

/// The open connections' clocks, to find the one to evict.
#[derive(Default)]
struct Open {
    entries: Mutex<Entries>,
    /// Told (one waiter) when a connection becomes evictable: idle after a reply, or its head
    /// past the grace.
    evictable: Arc<Notify>,
}

/// A slab: connections by entry, and the free entries.
#[derive(Default)]
struct Entries {
    open: Vec<Option<Entry>>,
    free: Vec<usize>,
}

struct Entry {
    clock: Clock,
    /// Set when the connection is evicted: who gets its slot.
    heir: Option<Heir>,
}

impl Open {
    fn lock(&self) -> MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn insert(&self, clock: Clock) -> usize {
        let mut s = self.lock();
        let entry = Some(Entry { clock, heir: None });
        match s.free.pop() {
            Some(i) => {
                s.open[i] = entry;
                i
            }
            None => {
                s.open.push(entry);
                s.open.len() - 1
            }
        }
    }

    /// Forgets a connection; who gets its slot, if it was evicted.
    fn remove(&self, entry: usize) -> Option<Heir> {
        let mut s = self.lock();
        let removed = s.open[entry].take();
        s.free.push(entry);
        removed?.heir
    }

    /// Evicts the connection evictable the longest at `now` (idle, or with a stalled head);
    /// `None` if none may be evicted, else where its slot will come.
    fn evict_oldest(&self, now: Instant) -> Option<oneshot::Receiver<OwnedSemaphorePermit>> {
        let mut s = self.lock();
        loop {
            let (_, oldest) = s
                .open
                .iter()
                .enumerate()
                .filter_map(|(i, e)| Some((e.as_ref()?.clock.evictable_since(now)?, i)))
                .min()?;
            let entry = s.open[oldest].as_mut()?;
            if entry.clock.evict(now) {
                let (heir, slot) = oneshot::channel();
                entry.heir = Some(heir);
                return Some(slot);
            }
            // It moved on (a request started, a head completed) since it was looked at: look
            // again.
        }
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
/// request starts and when its reply is ready, and counts its body against the budget.
#[derive(Clone)]
struct ConnService {
    router: Router,
    clock: Clock,
    budget: Arc<Budget>,
}

impl ConnService {
    fn budget_bytes(&self) -> usize {
        self.budget.capacity()
    }
}

/// HTTP 503 for a body over the budget: a JSON-RPC error (id null, as for a body over the size
/// limit), `Retry-After: 1`, and the connection closed (its body is not read).
fn busy(budget: usize) -> Response<axum::body::Body> {
    let text = format!(
        "{{\"jsonrpc\":\"2.0\",\"error\":{{\"code\":-32000,\"message\":\"the server is busy: \
         request bodies in flight would pass its budget of {budget} bytes; retry after 1 s\",\
         \"data\":null}},\"id\":null}}\n"
    );
    let mut response = Response::new(axum::body::Body::from(text));
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json; charset=utf-8"),
    );
    h.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    h.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

impl hyper::service::Service<Request<Incoming>> for ConnService {
    type Response = Response<ReplyBody>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<ReplyBody>, Infallible>>;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        self.clock
            .request_started(Instant::now(), request.body().is_end_stream());
        let clock = self.clock.clone();
        let tally = match Tally::new(&self.budget, request.body().size_hint().exact()) {
            Ok(tally) => tally,
            Err(()) => {
                clock.reply_ready(Instant::now());
                let busy = busy(self.budget_bytes());
                return Box::pin(async move { Ok(busy.map(|body| ReplyBody::new(body, clock))) });
            }
        };
        let request = request
            .map(|body| CountedBody::new(RequestBody::new(body, clock.clone()), tally.clone()));
        let mut router = self.router.clone();
        let budget = self.budget_bytes();
        Box::pin(async move {
            std::future::poll_fn(|cx| {
                tower_service::Service::<Request<CountedBody<RequestBody>>>::poll_ready(
                    &mut router,
                    cx,
                )
            })
            .await?;
            let mut response = tower_service::Service::call(&mut router, request).await?;
            if tally.over() {
                response = busy(budget);
            }
            // The body's bytes are no longer held.
            drop(tally);
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
        let c = ServerConfig::default();
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
        assert!(c.evict_idle);
        assert_eq!(c.head_grace, s(2));
        assert_eq!(c.body_budget, 32 * 1024 * 1024);
    }

    #[tokio::test]
    async fn no_connections_allowed_is_refused_clearly() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let e = serve(
            listener,
            Router::new(),
            ServerConfig::default().max_connections(0),
        )
        .await
        .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("max_connections is 0"), "{e}");
    }
}
