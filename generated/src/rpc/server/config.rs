//! [`ServerConfig`]: the one configuration of a server, routers and HTTP server alike.

use std::time::Duration;

/// Everything a server is configured with, in one place: what each request may be (body
/// limit, batch limits: read by the routers, [`router_with`](super::router_with)) and what the
/// HTTP server allows (timeouts, connections, the budget of bodies in flight, the text cache:
/// read by [`serve`](super::serve)). [`Default`] is the node's defaults (see the tables in
/// [`crate::rpc::server`]); change them with the setters, each named as its field:
///
/// ```
/// use avalanche_rpc::rpc::ServerConfig;
/// use std::time::Duration;
/// let config = ServerConfig::default()
///     .read_timeout(Duration::from_secs(10))
///     .idle_timeout(None)
///     .max_connections(2_000)
///     .head_grace(Duration::from_secs(5))
///     .body_budget(64 * 1024 * 1024)
///     .max_body_bytes(16 * 1024 * 1024)
///     .max_batch_len(64);
/// assert_eq!(config.read_header_timeout, Some(Duration::from_secs(30)));
/// assert_eq!(config.idle_timeout, None);
/// assert_eq!(config.head_grace, Some(Duration::from_secs(5)));
/// assert!(config.evict_idle);
/// assert_eq!(config.max_batch_reply_bytes, 4 * 1024 * 1024);
/// ```
///
/// Give the same value to the routers (`router_with`) and to `serve`: each reads its own
/// fields, and the generated `router`s use the defaults of the router's fields.
///
/// A timeout of `None` is no limit (where the node spells it `0`). Every timeout ends with the
/// connection closed, without a reply, as the node does.
///
/// It replaces `ServerConfig` (limits of a router) and `ServeConfig` (limits of [`serve`](super::serve)) of
/// earlier versions, whose names are kept for one release: `ServeConfig` is a deprecated
/// alias of this type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerConfig {
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
    /// The most connections open at once. The node has no cap. 512 by default: half the usual
    /// soft limit of 1,024 open files, so a flood of idle connections cannot exhaust the
    /// process's descriptors, leaving the rest for everything else it opens. What happens to
    /// one more: see [`evict_idle`](Self::evict_idle).
    pub max_connections: usize,
    /// With the cap reached, a new connection that sends a request makes room by closing the
    /// connection idle the longest: one that has sent nothing yet, or nothing of a next
    /// request since its last reply, or whose request head is still arriving after
    /// [`head_grace`](Self::head_grace) (idle since its request's start), oldest first. A
    /// connection whose body is under way, or whose request is being handled or answered, is
    /// never closed for this; when no connection may be closed, the new connection waits
    /// until one ends or may be. Until it sends something, a new connection waits beside the
    /// served ones (see [`max_waiting`](Self::max_waiting)). So a flood of silent sockets, or
    /// of sockets that send part of a request head and stall, cannot make a caller wait for
    /// their timeouts. On by default.
    /// Off, a new connection waits (accepted, holding one descriptor; the ones after it wait
    /// unaccepted in the listener's backlog) until a connection closes.
    pub evict_idle: bool,
    /// With [`evict_idle`](Self::evict_idle) and the cap reached, how long a request head may
    /// take before its connection may be closed to make room, as an idle one is: 2 s by
    /// default, counted as [`read_header_timeout`](Self::read_header_timeout) is. Below the
    /// cap, a head has the whole header timeout. A caller's head arrives in one segment, at
    /// once; 2 s leaves room for several round trips and one lost segment sent again after
    /// TCP's initial retransmission timeout of 1 s (RFC 6298), and is short beside the 30 s a
    /// stalled head would otherwise hold its place (nginx and HAProxy likewise meet slowloris
    /// with short header timeouts). `None`: a head is never closed for room (then a flood of
    /// half-sent heads locks callers out until the header timeout). The node has no cap, so
    /// no such grace.
    pub head_grace: Option<Duration>,
    /// With [`evict_idle`](Self::evict_idle), how many connections beyond the cap may be
    /// accepted and wait for their first byte (4,096 by default, as many as the kernel's
    /// backlog holds by default). A waiting connection holds a descriptor and a few hundred
    /// bytes, no buffers; once it sends something it takes the place of an idle connection,
    /// so silent ones never displace anyone, and callers (who send at once) are served first
    /// however many silent sockets there are. When the waiting room is full, the connection
    /// waiting the longest is closed for the next. Its timeouts count from accept.
    pub max_waiting: usize,
    /// The most bytes of request bodies held at once, across all connections: 32 MiB by
    /// default. The first 64 KiB of each body do not count, so small calls are served while
    /// large bodies hold the whole budget. A request announcing a length that does not fit
    /// in what is left gets HTTP 503 with `Retry-After: 1` at once, its body unread; one
    /// without a length gets the same when its bytes stop fitting. What a request took is
    /// given back when its reply is ready. The node has no such budget (each body is limited
    /// on its own). So bodies hold at most this plus 64 KiB per connection.
    pub body_budget: usize,
    /// Entries of the text cache ([`wire::enable_text_cache`](crate::wire::enable_text_cache))
    /// that [`serve`](super::serve) turns on: the text of every ID, node ID and address the server writes is
    /// computed once (SHA-256 and base58, or bech32) and then found by its bytes, read in the
    /// order of the method's last reply. 32,768 by default, 128 bytes each (4 MiB), and the
    /// methods' trails of (ID, text) pairs up to as many again, about 128 bytes each, held
    /// only as replies need them; 0 leaves the cache as it is. The node has no such cache.
    pub text_cache_entries: usize,
    /// Largest request body accepted, in bytes (8 MiB by default); a larger one gets HTTP
    /// 413. Read by the routers.
    pub max_body_bytes: usize,
    /// Most requests in one batch (256 by default). Read by the routers.
    pub max_batch_len: usize,
    /// Most bytes the replies to one batch may add up to (4 MiB by default). Once a reply
    /// would pass it, that request and every later one get a
    /// [`RESPONSE_TOO_LARGE`](crate::rpc::codes::RESPONSE_TOO_LARGE) error, and the later ones
    /// are not run. Read by the routers.
    pub max_batch_reply_bytes: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            read_header_timeout: Some(Duration::from_secs(30)),
            read_timeout: Some(Duration::from_secs(30)),
            write_timeout: Some(Duration::from_secs(30)),
            idle_timeout: Some(Duration::from_secs(120)),
            max_connections: 512,
            evict_idle: true,
            head_grace: Some(Duration::from_secs(2)),
            max_waiting: 4_096,
            body_budget: 32 * 1024 * 1024,
            text_cache_entries: crate::wire::TEXT_CACHE_ENTRIES,
            max_body_bytes: 8 * 1024 * 1024,
            max_batch_len: 256,
            max_batch_reply_bytes: 4 * 1024 * 1024,
        }
    }
}

impl ServerConfig {
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

    /// Sets [`text_cache_entries`](Self::text_cache_entries) (0: leave the cache as it is).
    pub fn text_cache_entries(mut self, entries: usize) -> Self {
        self.text_cache_entries = entries;
        self
    }

    /// Sets [`max_connections`](Self::max_connections) (at least 1).
    pub fn max_connections(mut self, max: usize) -> Self {
        self.max_connections = max;
        self
    }

    /// Sets [`evict_idle`](Self::evict_idle).
    pub fn evict_idle(mut self, evict: bool) -> Self {
        self.evict_idle = evict;
        self
    }

    /// Sets [`head_grace`](Self::head_grace) (`None`: a head is never closed for room).
    pub fn head_grace(mut self, grace: impl Into<Option<Duration>>) -> Self {
        self.head_grace = grace.into();
        self
    }

    /// Sets [`max_waiting`](Self::max_waiting) (at least 1).
    pub fn max_waiting(mut self, max: usize) -> Self {
        self.max_waiting = max;
        self
    }

    /// Sets [`body_budget`](Self::body_budget), in bytes.
    pub fn body_budget(mut self, bytes: usize) -> Self {
        self.body_budget = bytes;
        self
    }

    /// Sets [`max_body_bytes`](Self::max_body_bytes).
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// Sets [`max_batch_len`](Self::max_batch_len).
    pub fn max_batch_len(mut self, max: usize) -> Self {
        self.max_batch_len = max;
        self
    }

    /// Sets [`max_batch_reply_bytes`](Self::max_batch_reply_bytes).
    pub fn max_batch_reply_bytes(mut self, bytes: usize) -> Self {
        self.max_batch_reply_bytes = bytes;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::ServerConfig;
    use std::time::Duration;

    #[test]
    #[allow(deprecated)]
    fn the_old_name_builds_the_one_config() {
        let old = crate::rpc::ServeConfig::default()
            .read_timeout(Duration::from_secs(5))
            .body_budget(1024);
        let new = ServerConfig::default()
            .read_timeout(Duration::from_secs(5))
            .body_budget(1024);
        assert_eq!(old, new);
        // What the routers read and what `serve` reads, side by side in one value.
        let both = new.max_body_bytes(64).max_batch_len(2);
        assert_eq!((both.max_body_bytes, both.max_batch_len), (64, 2));
        assert_eq!(both.read_timeout, Some(Duration::from_secs(5)));
    }
}
