//! The client side: a transport moves bytes, an [`Endpoint`] speaks JSON-RPC over it.

mod failure;
pub mod paging;
mod retry;

pub use failure::{FailureKind, TransportFailure};
pub use retry::{RetryPolicy, parse_retry_after};

use crate::rpc::catalog::{MethodInfo, normalize};
use crate::rpc::envelope::{self, Envelope};
use crate::rpc::error::{ClientError, ReplyProblem, RpcError, snippet, strip_position};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a transport got back: the HTTP status and the body.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct HttpReply {
    /// HTTP status code.
    pub status: u16,
    /// Response body.
    pub body: bytes::Bytes,
    /// The `Location` of a redirect (3xx) that was not followed, if it had one.
    pub location: Option<String>,
    /// The wait a `Retry-After` header asked for (on a 429 or 503), if it had one.
    pub retry_after: Option<Duration>,
}

impl HttpReply {
    /// A reply with `status` and `body`.
    pub fn new(status: u16, body: impl Into<bytes::Bytes>) -> Self {
        Self {
            status,
            body: body.into(),
            location: None,
            retry_after: None,
        }
    }

    /// The same reply with the `Location` of a redirect that was not followed.
    pub fn with_location(mut self, location: impl Into<String>) -> Self {
        self.location = Some(location.into());
        self
    }

    /// The same reply with the wait its `Retry-After` header asked for.
    pub fn with_retry_after(mut self, wait: Duration) -> Self {
        self.retry_after = Some(wait);
        self
    }
}

/// Error of a transport.
pub type TransportError = Box<dyn std::error::Error + Send + Sync>;

/// Moves one request body to a path of a node and brings back the reply. Everything about
/// JSON-RPC (ids, envelopes, errors) is the [`Endpoint`]'s, so a transport stays small: the
/// bundled [`HttpTransport`], or your own (in-process, recorded, with retries or auth).
///
/// A transport that refuses a body for its size should fail with [`ResponseTooLarge`]: the
/// endpoint turns it into [`ClientError::ResponseTooLarge`].
pub trait Transport: Send + Sync {
    /// POSTs `body` (JSON) to `path` (e.g. `/ext/info`).
    fn post(
        &self,
        path: &str,
        body: Vec<u8>,
    ) -> impl Future<Output = Result<HttpReply, TransportError>> + Send;

    /// When the endpoint tries a call again (see [`RetryPolicy`]); `None` (the default):
    /// never.
    fn retry_policy(&self) -> Option<&RetryPolicy> {
        None
    }

    /// The id of the next request: increasing for each request through this transport (and
    /// its clones, for [`HttpTransport`]). The default counts for the whole process.
    fn next_id(&self) -> u64 {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        NEXT.fetch_add(1, Ordering::Relaxed)
    }
}

/// A transport's error for a response body over its limit; read no further than the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the response body exceeds the limit of {limit} bytes")]
pub struct ResponseTooLarge {
    /// The limit, in bytes.
    pub limit: u64,
}

/// JSON-RPC over HTTP POST: a base URL, a `reqwest::Client` and a limit on response bodies.
///
/// Built by [`HttpTransport::new`] (the defaults) or [`HttpTransport::builder`]: an overall
/// timeout of 30 s, a connect timeout of 10 s, bodies of at most 64 MiB, and no redirects
/// followed. A redirect that is not followed ends the call in [`ClientError::Http`] with its
/// status and `Location`.
#[derive(Clone, Debug)]
pub struct HttpTransport {
    client: reqwest::Client,
    base: Arc<str>,
    max_response_bytes: u64,
    retry: Option<RetryPolicy>,
    /// Sent with every request (values marked sensitive).
    headers: Arc<reqwest::header::HeaderMap>,
    /// Shared by clones: every endpoint of one node numbers its requests from one counter.
    ids: Arc<AtomicU64>,
}

/// A transport could not be built.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(String);

/// Settings of an [`HttpTransport`], from [`HttpTransport::builder`].
#[derive(Clone, Debug)]
#[must_use]
pub struct HttpTransportBuilder {
    base: String,
    timeout: Duration,
    connect_timeout: Duration,
    max_response_bytes: u64,
    same_origin_redirects: bool,
    retry: Option<RetryPolicy>,
    headers: Vec<(String, String)>,
}

impl HttpTransportBuilder {
    /// The longest a call may take, from connecting to the last byte of the body (default
    /// 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The longest connecting may take (default 10 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// The largest response body read, in bytes (default 64 MiB). A larger one ends the call
    /// in [`ClientError::ResponseTooLarge`], as soon as its `Content-Length` says so or, without
    /// one, as soon as more than that many bytes have arrived: the body held never grows past
    /// the limit.
    pub fn max_response_bytes(mut self, limit: u64) -> Self {
        self.max_response_bytes = limit;
        self
    }

    /// Whether to follow redirects to the same origin (scheme, host and port) that keep the
    /// method and body (307 and 308); default `false`, no redirect is followed. A redirect to
    /// another origin, and a 301, 302 or 303 (which would turn the POST into a GET), is never
    /// followed.
    pub fn same_origin_redirects(mut self, follow: bool) -> Self {
        self.same_origin_redirects = follow;
        self
    }

    /// Tries a call again when the node is busy or unreachable (HTTP 429, 502, 503, 504 or a
    /// transport error), as `policy` says, for methods the spec does not mark
    /// `changes-state`: never an `issueTx`. Default: no retries.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = Some(policy);
        self
    }

    /// A header sent with every request, e.g. a hosted endpoint's API key
    /// (`.header("x-api-key", key)`). Its value is marked sensitive: it is left out of the
    /// transport's `Debug` output. A name or value HTTP does not allow fails
    /// [`build`](Self::build), naming the header (never the value).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The transport; fails on a base URL that is not `http` or `https`, a header HTTP does
    /// not allow, or a client that cannot be built.
    pub fn build(self) -> Result<HttpTransport, ConfigError> {
        let mut headers = reqwest::header::HeaderMap::new();
        for (name, value) in &self.headers {
            let key = reqwest::header::HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| ConfigError(format!("invalid header name {name:?}")))?;
            let mut value = reqwest::header::HeaderValue::from_str(value).map_err(|_| {
                ConfigError(format!(
                    "invalid value of header {name:?}: only visible ASCII and spaces are allowed"
                ))
            })?;
            value.set_sensitive(true);
            headers.append(key, value);
        }
        let client = reqwest::Client::builder()
            .timeout(self.timeout)
            .connect_timeout(self.connect_timeout)
            .redirect(HttpTransport::redirect_policy(self.same_origin_redirects))
            .build()
            .map_err(|e| ConfigError(format!("cannot build the HTTP client: {e}")))?;
        let mut transport = HttpTransport::with_client(&self.base, client)?
            .with_max_response_bytes(self.max_response_bytes);
        transport.retry = self.retry;
        transport.headers = Arc::new(headers);
        Ok(transport)
    }
}

/// The most redirects followed in one call (same-origin 307/308 only).
const MAX_REDIRECTS: usize = 5;

impl HttpTransport {
    /// The default overall timeout of a call: 30 s.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
    /// The default connect timeout: 10 s.
    pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default limit on a response body: 64 MiB.
    pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 64 << 20;

    /// A transport to `base_url` (e.g. `http://127.0.0.1:9650`) with the defaults.
    pub fn new(base_url: &str) -> Result<Self, ConfigError> {
        Self::builder(base_url).build()
    }

    /// Settings for a transport to `base_url`, starting from the defaults.
    ///
    /// ```no_run
    /// use avalanche_rpc::rpc::{HttpTransport, Node};
    /// use std::time::Duration;
    /// # fn main() -> Result<(), avalanche_rpc::rpc::ConfigError> {
    /// let transport = HttpTransport::builder("http://127.0.0.1:9650")
    ///     .timeout(Duration::from_secs(10))
    ///     .connect_timeout(Duration::from_secs(2))
    ///     .max_response_bytes(16 << 20)
    ///     .same_origin_redirects(true)
    ///     .build()?;
    /// let node = Node::new(transport);
    /// # Ok(())
    /// # }
    /// ```
    pub fn builder(base_url: &str) -> HttpTransportBuilder {
        HttpTransportBuilder {
            base: base_url.to_string(),
            timeout: Self::DEFAULT_TIMEOUT,
            connect_timeout: Self::DEFAULT_CONNECT_TIMEOUT,
            max_response_bytes: Self::DEFAULT_MAX_RESPONSE_BYTES,
            same_origin_redirects: false,
            retry: None,
            headers: Vec::new(),
        }
    }

    /// A transport to `base_url` over your own client (proxies, TLS, pooling, headers). The
    /// limit on bodies (64 MiB; see [`with_max_response_bytes`](Self::with_max_response_bytes))
    /// and the checks on replies still apply; timeouts and redirects are the client's. A
    /// `reqwest::Client` follows up to 10 redirects by default, to any origin, re-sending the
    /// POST on a 307 or 308: build it with
    /// `.redirect(HttpTransport::redirect_policy(false))` to follow none.
    pub fn with_client(base_url: &str, client: reqwest::Client) -> Result<Self, ConfigError> {
        let url = reqwest::Url::parse(base_url)
            .map_err(|e| ConfigError(format!("invalid base URL {base_url:?}: {e}")))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(ConfigError(format!(
                "invalid base URL {base_url:?}: the scheme must be http or https"
            )));
        }
        Ok(Self {
            client,
            base: base_url.trim_end_matches('/').into(),
            max_response_bytes: Self::DEFAULT_MAX_RESPONSE_BYTES,
            retry: None,
            headers: Arc::default(),
            ids: Arc::new(AtomicU64::new(1)),
        })
    }

    /// The same transport with a retry policy (see [`HttpTransportBuilder::retry`]).
    pub fn with_retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = Some(policy);
        self
    }

    /// The same transport with another limit on response bodies, in bytes.
    pub fn with_max_response_bytes(mut self, limit: u64) -> Self {
        self.max_response_bytes = limit;
        self
    }

    /// The redirect policy of transports from [`builder`](Self::builder), for your own client:
    /// with `same_origin` false none is followed; with it true, only 307 and 308 to the
    /// scheme, host and port of the request, at most 5 in a row.
    pub fn redirect_policy(same_origin: bool) -> reqwest::redirect::Policy {
        if !same_origin {
            return reqwest::redirect::Policy::none();
        }
        reqwest::redirect::Policy::custom(|attempt| {
            let keeps_method = matches!(attempt.status().as_u16(), 307 | 308);
            let same_origin = attempt
                .previous()
                .first()
                .is_some_and(|first| first.origin() == attempt.url().origin());
            if keeps_method && same_origin && attempt.previous().len() <= MAX_REDIRECTS {
                attempt.follow()
            } else {
                attempt.stop()
            }
        })
    }

    /// The base URL, without a trailing `/`.
    pub fn base_url(&self) -> &str {
        &self.base
    }

    /// The limit on response bodies, in bytes.
    pub fn max_response_bytes(&self) -> u64 {
        self.max_response_bytes
    }
}

impl Transport for HttpTransport {
    fn post(
        &self,
        path: &str,
        body: Vec<u8>,
    ) -> impl Future<Output = Result<HttpReply, TransportError>> + Send {
        let url = format!("{}{path}", self.base);
        let mut request = self.client.post(&url);
        if !self.headers.is_empty() {
            request = request.headers((*self.headers).clone());
        }
        let request = request
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body);
        let limit = self.max_response_bytes;
        async move {
            let failed = |e| -> TransportError { Box::new(TransportFailure::new(&url, e)) };
            let response = request.send().await.map_err(failed)?;
            let status = response.status();
            let location = if status.is_redirection() {
                response
                    .headers()
                    .get(reqwest::header::LOCATION)
                    .map(|l| String::from_utf8_lossy(l.as_bytes()).into_owned())
            } else {
                None
            };
            let retry_after = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| parse_retry_after(v, std::time::SystemTime::now()));
            let body = read_body(response, limit).await.map_err(|e| match e {
                BodyError::TooLarge(e) => e as TransportError,
                BodyError::Broken(e) => failed(e),
            })?;
            Ok(HttpReply {
                status: status.as_u16(),
                body,
                location,
                retry_after,
            })
        }
    }

    fn retry_policy(&self) -> Option<&RetryPolicy> {
        self.retry.as_ref()
    }

    fn next_id(&self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed)
    }
}

/// Why a body was not read: over the limit, or the connection broke.
enum BodyError {
    TooLarge(Box<ResponseTooLarge>),
    Broken(reqwest::Error),
}

/// Reads a body of at most `limit` bytes: refused at once when its `Content-Length` is larger,
/// otherwise counted chunk by chunk and dropped as soon as it passes the limit. A body that
/// comes in one chunk is not copied.
async fn read_body(mut response: reqwest::Response, limit: u64) -> Result<bytes::Bytes, BodyError> {
    let too_large = || BodyError::TooLarge(Box::new(ResponseTooLarge { limit }));
    let declared = response.content_length();
    if declared.is_some_and(|n| n > limit) {
        return Err(too_large());
    }
    let Some(first) = response.chunk().await.map_err(BodyError::Broken)? else {
        return Ok(bytes::Bytes::new());
    };
    if first.len() as u64 > limit {
        return Err(too_large());
    }
    let Some(second) = response.chunk().await.map_err(BodyError::Broken)? else {
        return Ok(first);
    };
    // The limit bounds every allocation: usize::MAX when it is wider than memory anyway.
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let declared = declared.map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let mut body = Vec::new();
    let mut next = Some(second);
    body.reserve_exact(declared.max(first.len() * 2).min(limit));
    body.extend_from_slice(&first);
    drop(first);
    while let Some(chunk) = next {
        let len = body.len().saturating_add(chunk.len());
        if len > limit {
            return Err(too_large());
        }
        if len > body.capacity() {
            // Grow by doubling, but never past the limit.
            let target = body.capacity().saturating_mul(2).max(len).min(limit);
            body.reserve_exact(target - body.len());
        }
        body.extend_from_slice(&chunk);
        next = response.chunk().await.map_err(BodyError::Broken)?;
    }
    Ok(body.into())
}

/// A node: a transport shared by one accessor per interface (`node.info()`,
/// `node.avm("X")`, `node.index("X", "block")`, …), generated from the spec.
#[derive(Clone, Debug)]
pub struct Node<T = HttpTransport> {
    transport: T,
}

impl Node<HttpTransport> {
    /// A node at `base_url` over HTTP with the defaults of [`HttpTransport::new`], e.g.
    /// `Node::http("http://127.0.0.1:9650")`. For other timeouts, limit or redirects, build
    /// the transport: `Node::new(HttpTransport::builder(base_url).timeout(d).build()?)`.
    pub fn http(base_url: &str) -> Result<Self, ConfigError> {
        Ok(Self::new(HttpTransport::new(base_url)?))
    }
}

impl<T> Node<T> {
    /// A node behind any transport.
    pub fn new(transport: T) -> Self {
        Self { transport }
    }

    /// The transport.
    pub fn transport(&self) -> &T {
        &self.transport
    }
}

/// One interface of one node: a transport and a path. Its requests take their ids from the
/// transport ([`Transport::next_id`]); each call is a `tracing` span (see
/// [`Endpoint::call`]).
#[derive(Clone, Debug)]
pub struct Endpoint<T> {
    transport: T,
    path: String,
}

#[derive(Serialize)]
struct Request<'a, P> {
    jsonrpc: &'static str,
    id: u64,
    method: &'a str,
    params: &'a P,
}

/// At most 40 characters of a piece of JSON, for a [`ReplyProblem`].
fn short(json: &str) -> String {
    match json.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &json[..i]),
        None => json.to_string(),
    }
}

/// Checks the envelope's rules in order; the outcome (`result` or `error`) of a valid one.
fn check_envelope(body: &[u8], id: u64) -> Result<Result<&RawValue, RpcError>, ReplyProblem> {
    let members = match envelope::read(
        serde_json::de::SliceRead::new(body),
        ["jsonrpc", "result", "error", "id"],
    ) {
        Ok(Envelope::Object(members)) => members,
        Ok(Envelope::Other(found)) => return Err(ReplyProblem::NotAnObject { found }),
        Err(e) => {
            return Err(ReplyProblem::NotJson {
                reason: strip_position(e.to_string()),
            });
        }
    };
    if let Some(name) = members.repeated {
        return Err(ReplyProblem::DuplicateMember { name });
    }
    let [jsonrpc, result, error, reply_id] = members.values;
    match jsonrpc.map(RawValue::get) {
        None => return Err(ReplyProblem::MissingVersion),
        Some(r#""2.0""#) => {}
        Some(other) => {
            return Err(ReplyProblem::WrongVersion {
                found: short(other),
            });
        }
    }
    match reply_id.map(RawValue::get) {
        None => return Err(ReplyProblem::MissingId),
        Some("null") => return Err(ReplyProblem::NullId),
        Some(got) if got.parse::<u64>() == Ok(id) => {}
        Some(got) => {
            return Err(ReplyProblem::IdMismatch {
                sent: id,
                received: short(got),
            });
        }
    }
    match (result, error) {
        (Some(_), Some(_)) => Err(ReplyProblem::BothResultAndError),
        (None, None) => Err(ReplyProblem::NeitherResultNorError),
        (Some(result), None) => Ok(Ok(result)),
        (None, Some(error)) => match serde_json::from_str::<RpcError>(error.get()) {
            Ok(error) => Ok(Err(error)),
            Err(e) => Err(ReplyProblem::MalformedError {
                reason: strip_position(e.to_string()),
            }),
        },
    }
}

impl<T> Endpoint<T> {
    /// An endpoint at `path` (already filled, e.g. `/ext/bc/X`).
    pub fn new(transport: T, path: String) -> Self {
        Self { transport, path }
    }

    /// The path requests go to.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The transport.
    pub fn transport(&self) -> &T {
        &self.transport
    }
}

impl<T: Transport> Endpoint<T> {
    /// Calls `method` with `params` and decodes its result.
    ///
    /// The params are encoded before the future is returned, so it holds only `&self`. When
    /// the node is busy or unreachable, a method the spec does not mark `changes-state` is
    /// tried again as the transport's [`RetryPolicy`] says (same request, same id).
    ///
    /// Each call is a `tracing` span `rpc.call` at level DEBUG, with the fields `method`,
    /// `path`, `id`, and when it ends `attempts`, `status` (the last HTTP status),
    /// `duration_ms` and `outcome` (`ok`, `rpc_error`, `http_error`, `invalid_response`,
    /// `too_large`, `decode_error`, `transport_error`, `invalid_params`). Params, results and
    /// headers are never in it.
    pub fn call<P: Serialize, R: DeserializeOwned>(
        &self,
        method: &'static MethodInfo,
        params: P,
    ) -> impl Future<Output = Result<R, ClientError>> + Send + '_ {
        let id = self.transport.next_id();
        let invalid = |e: serde_json::Error| ClientError::InvalidParams {
            method: method.name.into(),
            path: ".".into(),
            message: e.to_string(),
        };
        let body = if method.positional {
            // An array in declared order (`eth_getBalance`: `["0x…", "latest"]`).
            serde_json::to_value(&params)
                .map(|v| method.wire_params(v))
                .and_then(|params| {
                    serde_json::to_vec(&Request {
                        jsonrpc: "2.0",
                        id,
                        method: method.name,
                        params: &params,
                    })
                })
                .map_err(invalid)
        } else {
            serde_json::to_vec(&Request {
                jsonrpc: "2.0",
                id,
                method: method.name,
                params: &params,
            })
            .map_err(invalid)
        };
        let span = tracing::debug_span!(
            "rpc.call",
            method = method.name,
            path = self.path.as_str(),
            id,
            attempts = tracing::field::Empty,
            status = tracing::field::Empty,
            duration_ms = tracing::field::Empty,
            outcome = tracing::field::Empty,
        );
        let fields = span.clone();
        let call = async move {
            let started = Instant::now();
            let (result, attempts, status) = match body {
                Ok(body) => self.attempts(method, id, body, started).await,
                Err(e) => (Err(e), 0, None),
            };
            let span = fields;
            span.record("attempts", attempts);
            if let Some(status) = status {
                span.record("status", status);
            }
            span.record(
                "duration_ms",
                u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            );
            span.record("outcome", outcome(&result));
            result
        };
        tracing::Instrument::instrument(call, span)
    }

    /// Posts `body` until a reply counts or the retry policy gives up: the result, the
    /// attempts made and the last HTTP status.
    async fn attempts<R: DeserializeOwned>(
        &self,
        method: &'static MethodInfo,
        id: u64,
        body: Vec<u8>,
        started: Instant,
    ) -> (Result<R, ClientError>, u32, Option<u16>) {
        let finish = |reply: Result<HttpReply, TransportError>, made| {
            let status = reply.as_ref().ok().map(|r| r.status);
            let result = match reply {
                Ok(reply) => decode_reply(method, id, &reply),
                Err(source) => Err(transport_error(method, source)),
            };
            (result, made, status)
        };
        let policy = match method.changes_state {
            true => None,
            false => self.transport.retry_policy(),
        };
        let Some(policy) = policy else {
            return finish(self.transport.post(&self.path, body).await, 1);
        };
        let mut made = 0;
        loop {
            made += 1;
            let reply = self.transport.post(&self.path, body.clone()).await;
            let (busy, retry_after) = match &reply {
                Ok(r) => (matches!(r.status, 429 | 502 | 503 | 504), r.retry_after),
                Err(e) => (!e.is::<ResponseTooLarge>(), None),
            };
            let wait = match busy {
                true => policy.wait(made, started.elapsed(), retry_after),
                false => None,
            };
            let Some(wait) = wait else {
                return finish(reply, made);
            };
            tracing::debug!(
                attempt = made,
                wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                "the node is busy or unreachable; trying again"
            );
            tokio::time::sleep(wait).await;
        }
    }
}

/// A transport's error as the call's: a body over the limit, or the transport's own.
fn transport_error(method: &MethodInfo, source: TransportError) -> ClientError {
    match source.downcast::<ResponseTooLarge>() {
        Ok(e) => ClientError::ResponseTooLarge {
            method: method.name.into(),
            limit: e.limit,
        },
        Err(source) => ClientError::Transport {
            method: method.name.into(),
            source,
        },
    }
}

/// How a call ended, for its span.
fn outcome<R>(result: &Result<R, ClientError>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(ClientError::Rpc { .. }) => "rpc_error",
        Err(ClientError::Http { .. }) => "http_error",
        Err(ClientError::InvalidResponse { .. }) => "invalid_response",
        Err(ClientError::ResponseTooLarge { .. }) => "too_large",
        Err(ClientError::Decode { .. }) => "decode_error",
        Err(ClientError::Transport { .. }) => "transport_error",
        Err(ClientError::InvalidParams { .. }) => "invalid_params",
        Err(_) => "error",
    }
}

/// Turns an HTTP reply into the method's result or the error it carries.
///
/// Only a status of 200 and a body that is a JSON object with `"jsonrpc": "2.0"`, the `id`
/// of the request and exactly one of `result` and `error` count as a reply; anything else is
/// [`ClientError::Http`] or [`ClientError::InvalidResponse`] naming the rule broken.
///
/// [`Endpoint`] calls it for every reply; call it yourself when you move the bytes another
/// way (your own batching, a recorded reply) and want the same checks and decoding.
pub fn decode_reply<R: DeserializeOwned>(
    method: &MethodInfo,
    id: u64,
    reply: &HttpReply,
) -> Result<R, ClientError> {
    let name = || method.name.to_string();
    if reply.status != 200 {
        return Err(ClientError::Http {
            method: name(),
            status: reply.status,
            location: reply.location.clone(),
            body: snippet(&reply.body),
        });
    }
    // A large reply is read with the identifiers met in this method's last one (see
    // `wire::limit_read_trails`).
    if method.rules.is_empty()
        && let Some(result) =
            crate::text_cache::while_reading(method.name, reply.body.len(), || {
                envelope::read_success(&reply.body, id)
            })
    {
        return Ok(result);
    }
    // Anything but a plain success, or a result that does not decode: read again, member by
    // member, to say what is wrong.
    let raw = match check_envelope(&reply.body, id) {
        Ok(Ok(result)) => result,
        Ok(Err(error)) => {
            return Err(ClientError::Rpc {
                method: name(),
                error: Box::new(error),
            });
        }
        Err(problem) => {
            return Err(ClientError::InvalidResponse {
                method: name(),
                status: reply.status,
                problem,
                body: snippet(&reply.body),
            });
        }
    };
    let fail = |e: serde_path_to_error::Error<serde_json::Error>| ClientError::Decode {
        method: name(),
        path: e.path().to_string(),
        message: strip_position(e.inner().to_string()),
    };
    if method.rules.is_empty() {
        // One typed pass; only a reply that fails is decoded again to name the path.
        return serde_json::from_str(raw.get()).map_err(|_| {
            let again: Result<R, _> = serde_path_to_error::deserialize(
                &mut serde_json::Deserializer::from_str(raw.get()),
            );
            match again {
                Err(e) => fail(e),
                // Unreachable for deterministic types; say so rather than invent a path.
                Ok(_) => ClientError::Decode {
                    method: name(),
                    path: ".".into(),
                    message: "the result failed to decode once and not the second time".into(),
                },
            }
        });
    }
    let mut value: serde_json::Value =
        serde_json::from_str(raw.get()).map_err(|e| ClientError::Decode {
            method: name(),
            path: ".".into(),
            message: strip_position(e.to_string()),
        })?;
    normalize(&mut value, method.rules);
    R::deserialize(&value).or_else(|_| serde_path_to_error::deserialize(value).map_err(fail))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(body: &str) -> Option<ReplyProblem> {
        check_envelope(body.as_bytes(), 7).err()
    }

    #[test]
    fn a_valid_envelope_gives_its_result_or_error() {
        let ok = check_envelope(br#"{"jsonrpc":"2.0","id":7,"result":[1, 2]}"#, 7);
        assert!(matches!(ok, Ok(Ok(raw)) if raw.get() == "[1, 2]"));
        let ok = check_envelope(
            br#"{"id":7,"error":{"code":-32000,"message":"m"},"jsonrpc":"2.0","x":{}}"#,
            7,
        );
        assert!(matches!(ok, Ok(Err(e)) if e.code == -32000 && e.message == "m"));
        // Escaped member names are member names.
        let ok = check_envelope(br#"{"json\u0072pc":"2.0","id":7,"result":null}"#, 7);
        assert!(matches!(ok, Ok(Ok(raw)) if raw.get() == "null"));
    }

    #[test]
    fn the_rules_are_checked_in_order() {
        // Every rule broken at once: the first one is reported.
        assert_eq!(
            problem(r#"{"jsonrpc":"1.0","id":1,"id":2}"#),
            Some(ReplyProblem::DuplicateMember { name: "id" })
        );
        assert_eq!(
            problem(r#"{"jsonrpc":"1.0","id":1}"#),
            Some(ReplyProblem::WrongVersion {
                found: r#""1.0""#.into()
            })
        );
        assert_eq!(
            problem(r#"{"jsonrpc":"2.0","id":1}"#).map(|p| p.to_string()),
            Some("the reply is for id 1 but the request had id 7".into())
        );
        assert_eq!(
            problem("true"),
            Some(ReplyProblem::NotAnObject { found: "a boolean" })
        );
        assert_eq!(
            problem("-1.5"),
            Some(ReplyProblem::NotAnObject { found: "a number" })
        );
        assert!(matches!(
            problem("{} x"),
            Some(ReplyProblem::NotJson { .. })
        ));
    }

    #[test]
    fn long_values_are_cut_short() {
        let id = format!("\"{}\"", "a".repeat(1000));
        let body = format!(r#"{{"jsonrpc":"2.0","result":1,"id":{id}}}"#);
        match problem(&body) {
            Some(ReplyProblem::IdMismatch { sent: 7, received }) => {
                assert_eq!(received.chars().count(), 41, "{received}");
                assert!(received.ends_with('…'));
            }
            other => panic!("{other:?}"),
        }
        let big = vec![b'x'; 10 << 20];
        assert_eq!(snippet(&big).chars().count(), 201);
    }

    /// The body of a `platform.getCurrentValidators` reply with `n` validators, the `bad`-th
    /// (if any) with the last character of its node ID changed.
    fn validators_body(n: u8, bad: Option<u8>) -> String {
        use crate::wire::{Address, Id, NodeId};
        let validators: Vec<serde_json::Value> = (0..n)
            .map(|i| {
                let mut node = NodeId::new([i; 20]).to_string();
                if bad == Some(i) {
                    let last = node.pop().unwrap_or('1');
                    node.push(if last == '2' { '3' } else { '2' });
                }
                let owner = serde_json::json!({
                    "locktime": "0",
                    "threshold": "1",
                    "addresses": [Address::new(Some("P"), "avax", [i; 20]).unwrap().to_string()],
                });
                serde_json::json!({
                    "txID": Id::new([i; 32]).to_string(),
                    "nodeID": node,
                    "startTime": "1",
                    "endTime": "2",
                    "weight": "2000000000000",
                    "validationRewardOwner": owner,
                    "delegationRewardOwner": owner,
                })
            })
            .collect();
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"validators": validators}})
            .to_string()
    }

    #[test]
    fn a_large_reply_read_again_gives_the_same_values_and_a_changed_checksum_is_still_refused() {
        use crate::platform::{GetCurrentValidatorsResult, methods::GET_CURRENT_VALIDATORS};
        let read = |body: String| {
            assert!(body.len() > 8 * 1024, "large enough for a trail");
            decode_reply::<GetCurrentValidatorsResult>(
                &GET_CURRENT_VALIDATORS,
                1,
                &HttpReply::new(200, body),
            )
        };
        let first = read(validators_body(100, None)).unwrap();
        assert_eq!(first.validators.len(), 100);
        // Read again (from the trail of the first) and again: the same values.
        for _ in 0..2 {
            assert_eq!(read(validators_body(100, None)).unwrap(), first);
        }
        // One node ID's checksum broken where the trail holds the right one: refused, at
        // its path, every time.
        for _ in 0..2 {
            match read(validators_body(100, Some(40))) {
                Err(ClientError::Decode { path, message, .. }) => {
                    assert_eq!(path, "validators[40].nodeID");
                    assert!(message.contains("checksum"), "{message}");
                }
                other => panic!("{other:?}"),
            }
        }
        // Fewer validators: the rest still right.
        let fewer = read(validators_body(60, None)).unwrap();
        assert_eq!(fewer.validators[..], first.validators[..60]);
    }
}
