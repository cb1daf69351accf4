//! Per-connection deadlines: which phase of an HTTP/1 exchange a connection is in, the deadline
//! that phase has, and the hooks that move it along.
//!
//! The phases, and what moves a connection from one to the next:
//!
//! | Phase | Deadline | Left when |
//! |---|---|---|
//! | `Idle` (before the first request, or after a reply) | accept + min(read header, read) for the first request; reply sent + idle after one | a byte arrives ([`TimedIo`]) |
//! | `Head` | request start + min(read header, read) | hyper has parsed the head and calls the service ([`Clock::request_started`]) |
//! | `Body` | request start + read, while the handler waits for the body; none while it does not ask for it | the body has been read to its end ([`RequestBody`]) |
//! | `Handling` | none: handlers take the time they take | the handler's reply is ready ([`Clock::reply_ready`]) |
//! | `Replying` | reply ready + write | the reply body is done ([`ReplyBody`]) and flushed to the socket ([`TimedIo`]) |
//!
//! A request "starts" at its first byte, or at accept for a connection's first request (as the
//! node's Go `net/http` server counts). [`supervise`] drops the connection when the current
//! phase's deadline passes. The phases change only while the connection is being polled, and
//! the supervisor reads the deadline after every poll, so no wake-up is needed when it moves.
//!
//! When the server is at its connection cap, a connection may be [evicted](Clock::evict) to
//! make room for a new one: the supervisor is woken and drops it. A connection in `Idle` may
//! be, and one in `Head` once its head has taken longer than the head grace (a head stalled
//! or trickled, as slowloris sends), counted from the request's start; in `Body`, `Handling`
//! or `Replying` (a body under way, a request being handled) never. The server is told
//! whenever a connection becomes evictable: when it goes idle after a reply, and when its
//! head outlives the grace (the supervisor's timer), so a new connection waiting for room
//! need not poll.

use bytes::Bytes;
use hyper::body::{Body, Frame, Incoming, SizeHint};
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Notify;
use tokio::time::{Instant, Sleep};

/// The four timeouts, and the head grace; `None` is no limit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timeouts {
    pub(crate) read_header: Option<Duration>,
    pub(crate) read: Option<Duration>,
    pub(crate) write: Option<Duration>,
    pub(crate) idle: Option<Duration>,
    /// How long a request head is safe from eviction, counted from the request's start;
    /// `None`: always.
    pub(crate) head_grace: Option<Duration>,
}

#[derive(Clone, Copy, Debug)]
enum Phase {
    Idle {
        since: Instant,
        first: bool,
    },
    Head {
        start: Instant,
    },
    /// `waiting`: the handler asked for more of the body and has not got it yet.
    Body {
        start: Instant,
        waiting: bool,
    },
    Handling,
    Replying {
        ready: Instant,
        body_done: bool,
    },
}

#[derive(Debug)]
struct State {
    timeouts: Timeouts,
    phase: Phase,
    /// Set by [`Clock::evict`]; the supervisor then drops the connection.
    evicted: bool,
    /// The supervisor's, to wake it on eviction.
    waker: Option<Waker>,
    /// Told (one waiter) whenever the connection becomes evictable after its start: idle after
    /// a reply, or its head past the grace. For a server waiting for room.
    evictable: Option<Arc<Notify>>,
}

impl State {
    /// See [`Clock::evictable_since`].
    fn evictable_since(&self, now: Instant) -> Option<Instant> {
        if self.evicted {
            return None;
        }
        match self.phase {
            Phase::Idle { since, .. } => Some(since),
            Phase::Head { start } => {
                let stale = after(start, self.timeouts.head_grace)?;
                (stale <= now).then_some(start)
            }
            Phase::Body { .. } | Phase::Handling | Phase::Replying { .. } => None,
        }
    }
}

/// One connection's phase, shared by its IO, its service and its bodies.
#[derive(Clone, Debug)]
pub(crate) struct Clock(Arc<Mutex<State>>);

/// `start + limit`; `None` if there is no limit or it is too far away to represent.
fn after(start: Instant, limit: Option<Duration>) -> Option<Instant> {
    limit.and_then(|d| start.checked_add(d))
}

/// The earlier of two optional deadlines.
fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl Clock {
    /// The clock of a connection accepted at `now`.
    pub(crate) fn new(timeouts: Timeouts, now: Instant) -> Self {
        Self(Arc::new(Mutex::new(State {
            timeouts,
            phase: Phase::Idle {
                since: now,
                first: true,
            },
            evicted: false,
            waker: None,
            evictable: None,
        })))
    }

    /// As [`new`](Self::new), telling `evictable` (one waiter) each time the connection becomes
    /// evictable: a reply has been written and it waits for its next request, or its request
    /// head has taken longer than the grace.
    pub(crate) fn with_evictable_notice(
        timeouts: Timeouts,
        now: Instant,
        evictable: Arc<Notify>,
    ) -> Self {
        let clock = Self::new(timeouts, now);
        clock.lock().evictable = Some(evictable);
        clock
    }

    /// Since when the connection may be evicted at `now`: since it went idle (sent nothing of
    /// a next request), or since its request started if the head is still arriving after the
    /// grace. `None` while it may not (a head within its grace, a body under way, a request
    /// being handled or answered), and once evicted.
    pub(crate) fn evictable_since(&self, now: Instant) -> Option<Instant> {
        self.lock().evictable_since(now)
    }

    /// When a head still arriving passes its grace (and the connection becomes evictable);
    /// `None` outside the `Head` phase or without a grace.
    fn head_stale_at(&self) -> Option<Instant> {
        let state = self.lock();
        match state.phase {
            Phase::Head { start } => after(start, state.timeouts.head_grace),
            _ => None,
        }
    }

    /// Tells the server the connection became evictable.
    fn tell_evictable(&self) {
        if let Some(notify) = &self.lock().evictable {
            notify.notify_one();
        }
    }

    /// Drops the connection if it is [evictable](Self::evictable_since) at `now`: `true` if it
    /// was (its supervisor is woken to close it), `false` if it has moved on meanwhile (a
    /// request started, a head completed), which is never cut short for this.
    pub(crate) fn evict(&self, now: Instant) -> bool {
        let mut state = self.lock();
        if state.evictable_since(now).is_none() {
            return false;
        }
        state.evicted = true;
        if let Some(waker) = state.waker.take() {
            waker.wake();
        }
        true
    }

    /// Whether the connection was evicted; if not, `waker` is woken when it is.
    pub(crate) fn evicted(&self, waker: &Waker) -> bool {
        let mut state = self.lock();
        if state.evicted {
            return true;
        }
        match &mut state.waker {
            Some(w) if w.will_wake(waker) => {}
            slot => *slot = Some(waker.clone()),
        }
        false
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing panics while the lock is held; if something ever did, the phase is still valid.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// When the connection is to be dropped unless its phase moves on first.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        let state = self.lock();
        let t = state.timeouts;
        match state.phase {
            Phase::Idle { since, first: true } => {
                earliest(after(since, t.read_header), after(since, t.read))
            }
            Phase::Idle {
                since,
                first: false,
            } => after(since, t.idle),
            Phase::Head { start } => earliest(after(start, t.read_header), after(start, t.read)),
            Phase::Body {
                start,
                waiting: true,
            } => after(start, t.read),
            Phase::Body { waiting: false, .. } => None,
            Phase::Handling => None,
            Phase::Replying { ready, .. } => after(ready, t.write),
        }
    }

    /// Bytes arrived: an idle connection starts a request.
    pub(crate) fn bytes_read(&self, now: Instant) {
        let mut state = self.lock();
        if let Phase::Idle { since, first } = state.phase {
            let start = if first { since } else { now };
            state.phase = Phase::Head { start };
        }
    }

    /// hyper parsed a request head and calls the service; `body_empty` if no body follows.
    pub(crate) fn request_started(&self, now: Instant, body_empty: bool) {
        let mut state = self.lock();
        let start = match state.phase {
            Phase::Head { start } => start,
            // The head was already buffered (pipelined), or the first byte came with it.
            Phase::Idle { since, first: true } => since,
            _ => now,
        };
        state.phase = if body_empty {
            Phase::Handling
        } else {
            Phase::Body {
                start,
                waiting: false,
            }
        };
    }

    /// The handler waits for more of the body (`true`), or got some (`false`).
    fn request_body_waiting(&self, waiting: bool) {
        let mut state = self.lock();
        if let Phase::Body { start, .. } = state.phase {
            state.phase = Phase::Body { start, waiting };
        }
    }

    /// The request body has been read to its end (or failed).
    fn request_body_done(&self) {
        let mut state = self.lock();
        if let Phase::Body { .. } = state.phase {
            state.phase = Phase::Handling;
        }
    }

    /// The handler's reply is ready; it is to be written by the write timeout.
    pub(crate) fn reply_ready(&self, now: Instant) {
        self.lock().phase = Phase::Replying {
            ready: now,
            body_done: false,
        };
    }

    /// hyper has taken the reply body's last bytes (or dropped the body).
    fn reply_body_done(&self) {
        let mut state = self.lock();
        if let Phase::Replying { ready, .. } = state.phase {
            state.phase = Phase::Replying {
                ready,
                body_done: true,
            };
        }
    }

    /// Everything hyper wrote has reached the socket.
    fn flushed(&self, now: Instant) {
        let mut state = self.lock();
        if let Phase::Replying {
            body_done: true, ..
        } = state.phase
        {
            state.phase = Phase::Idle {
                since: now,
                first: false,
            };
            if let Some(notify) = &state.evictable {
                notify.notify_one();
            }
        }
    }
}

/// Drives `connection` until it ends, its clock's deadline passes or it is evicted, whichever
/// comes first; dropping it closes the socket. Tells the server when the connection's head
/// outlives its grace.
pub(crate) async fn supervise<F: Future>(connection: F, clock: Clock) {
    let mut connection = std::pin::pin!(connection);
    let mut timer: Option<Pin<Box<Sleep>>> = None;
    // The moment a stale head was told, so it is told once.
    let mut told: Option<Instant> = None;
    std::future::poll_fn(|cx| {
        if connection.as_mut().poll(cx).is_ready() || clock.evicted(cx.waker()) {
            return Poll::Ready(());
        }
        loop {
            let deadline = clock.deadline();
            let stale_at = clock.head_stale_at().filter(|&at| told != Some(at));
            let Some(wake) = earliest(deadline, stale_at) else {
                return Poll::Pending;
            };
            let timer = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(wake)));
            if timer.deadline() != wake {
                timer.as_mut().reset(wake);
            }
            if timer.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            // The phase stayed the same: past its deadline, the connection is dropped; past the
            // head's grace, it is told and kept.
            if deadline == Some(wake) {
                return Poll::Ready(());
            }
            clock.tell_evictable();
            told = stale_at;
        }
    })
    .await
}

/// A TCP stream that tells the clock when a request's first byte arrives and when a reply has
/// been flushed.
#[derive(Debug)]
pub(crate) struct TimedIo {
    stream: TcpStream,
    clock: Clock,
}

impl TimedIo {
    pub(crate) fn new(stream: TcpStream, clock: Clock) -> Self {
        Self { stream, clock }
    }
}

impl AsyncRead for TimedIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.clock.bytes_read(Instant::now());
        }
        polled
    }
}

impl AsyncWrite for TimedIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_flush(cx);
        // hyper flushes the socket only once its own write buffer is empty.
        if matches!(polled, Poll::Ready(Ok(()))) {
            this.clock.flushed(Instant::now());
        }
        polled
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// A request body that tells the clock when it has been read to its end.
#[derive(Debug)]
pub(crate) struct RequestBody {
    inner: Incoming,
    clock: Clock,
}

impl RequestBody {
    pub(crate) fn new(inner: Incoming, clock: Clock) -> Self {
        Self { inner, clock }
    }
}

impl Body for RequestBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(None | Some(Err(_))) => this.clock.request_body_done(),
            Poll::Ready(Some(Ok(_))) if this.inner.is_end_stream() => {
                this.clock.request_body_done()
            }
            Poll::Ready(Some(Ok(_))) => this.clock.request_body_waiting(false),
            Poll::Pending => this.clock.request_body_waiting(true),
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A reply body that tells the clock when hyper has taken all of it (or dropped it).
#[derive(Debug)]
pub(crate) struct ReplyBody {
    inner: axum::body::Body,
    clock: Clock,
}

impl ReplyBody {
    pub(crate) fn new(inner: axum::body::Body, clock: Clock) -> Self {
        Self { inner, clock }
    }
}

impl Body for ReplyBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        let done = match &polled {
            Poll::Ready(None | Some(Err(_))) => true,
            Poll::Ready(Some(Ok(_))) => this.inner.is_end_stream(),
            Poll::Pending => false,
        };
        if done {
            this.clock.reply_body_done();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        let end = self.inner.is_end_stream();
        if end {
            self.clock.reply_body_done();
        }
        end
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for ReplyBody {
    fn drop(&mut self) {
        self.clock.reply_body_done();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(seconds: u64) -> Option<Duration> {
        Some(Duration::from_secs(seconds))
    }

    fn clock(now: Instant) -> Clock {
        Clock::new(
            Timeouts {
                read_header: secs(2),
                read: secs(3),
                write: secs(5),
                idle: secs(7),
                head_grace: secs(1),
            },
            now,
        )
    }

    #[test]
    fn a_keep_alive_exchange_moves_through_every_phase() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let c = clock(t0);
        // The first request is counted from accept, even if its first byte comes late.
        assert_eq!(c.deadline(), Some(at(2)));
        c.bytes_read(at(1));
        assert_eq!(c.deadline(), Some(at(2)));
        c.request_started(at(1), false);
        // The body's deadline holds only while the handler waits for it.
        assert_eq!(c.deadline(), None);
        c.request_body_waiting(true);
        assert_eq!(c.deadline(), Some(at(3)));
        c.request_body_waiting(false);
        assert_eq!(c.deadline(), None);
        c.request_body_waiting(true);
        c.request_body_done();
        assert_eq!(c.deadline(), None);
        c.reply_ready(at(10));
        assert_eq!(c.deadline(), Some(at(15)));
        // A flush before the body is done is not the end of the reply.
        c.flushed(at(11));
        assert_eq!(c.deadline(), Some(at(15)));
        c.reply_body_done();
        c.flushed(at(12));
        assert_eq!(c.deadline(), Some(at(19)));
        // The next request is counted from its first byte.
        c.bytes_read(at(13));
        assert_eq!(c.deadline(), Some(at(15)));
        c.bytes_read(at(14));
        assert_eq!(c.deadline(), Some(at(15)));
        c.request_started(at(14), true);
        assert_eq!(c.deadline(), None);
    }

    #[test]
    fn only_an_idle_connection_or_a_head_past_its_grace_may_be_evicted() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let c = clock(t0);
        // Silent since accept.
        assert_eq!(c.evictable_since(at(0)), Some(t0));
        // Part of a head: its start is accept, and it is safe for the grace (1 s).
        c.bytes_read(at(100));
        assert_eq!(c.evictable_since(at(999)), None);
        assert!(!c.evict(at(999)));
        assert_eq!(c.head_stale_at(), Some(at(1000)));
        assert_eq!(c.evictable_since(at(1000)), Some(t0));
        // A body under way, a request handled, a reply written: never.
        c.request_started(at(1100), false);
        assert_eq!(c.head_stale_at(), None);
        c.request_body_waiting(true);
        assert_eq!(c.evictable_since(at(60_000)), None);
        c.request_body_done();
        assert_eq!(c.evictable_since(at(60_000)), None);
        c.reply_ready(at(1200));
        assert_eq!(c.evictable_since(at(60_000)), None);
        c.reply_body_done();
        c.flushed(at(1300));
        // Idle after the reply, since it was written.
        assert_eq!(c.evictable_since(at(1300)), Some(at(1300)));
        // A next head counts from its first byte.
        c.bytes_read(at(2000));
        assert_eq!(c.evictable_since(at(2999)), None);
        assert!(c.evict(at(3000)));
        // Once evicted, it is not offered again.
        assert_eq!(c.evictable_since(at(3000)), None);
        assert!(!c.evict(at(3000)));
    }

    #[test]
    fn without_a_grace_a_head_is_never_evicted() {
        let now = Instant::now();
        let c = Clock::new(
            Timeouts {
                read_header: secs(30),
                read: secs(30),
                write: None,
                idle: None,
                head_grace: None,
            },
            now,
        );
        c.bytes_read(now);
        assert_eq!(c.head_stale_at(), None);
        assert!(!c.evict(now + Duration::from_secs(3600)));
    }

    #[test]
    fn no_limit_and_far_limits_mean_no_deadline() {
        let now = Instant::now();
        let c = Clock::new(
            Timeouts {
                read_header: None,
                read: Some(Duration::MAX),
                write: None,
                idle: None,
                head_grace: None,
            },
            now,
        );
        assert_eq!(c.deadline(), None);
        c.reply_ready(now);
        assert_eq!(c.deadline(), None);
    }

    #[test]
    fn the_read_timeout_caps_the_head_too() {
        let now = Instant::now();
        let c = Clock::new(
            Timeouts {
                read_header: secs(30),
                read: secs(3),
                write: None,
                idle: None,
                head_grace: None,
            },
            now,
        );
        assert_eq!(c.deadline(), Some(now + Duration::from_secs(3)));
    }
}
