//! The server side: JSON-RPC 2.0 over HTTP POST, on axum. Serve the routers with
//! [`serve`](crate::rpc::serve), not `axum::serve`, which has no timeouts.
//!
//! What a request gets, and where this server deliberately differs from the node:
//!
//! | Request | Reply | The node |
//! |---|---|---|
//! | not POST | HTTP 405, `Allow: POST` | 405 |
//! | no `Content-Type`, or not `application/json` (parameters such as `charset` are ignored) | HTTP 415 | 415 |
//! | body over the limit ([`ServerConfig::max_body_bytes`], 8 MiB by default) | HTTP 413 with a -32600 error body, as soon as the limit is passed, without reading the rest | no limit stated |
//! | body not JSON, or JSON followed by more text | -32700 | -32700; trailing text ignored |
//! | body not valid UTF-8 anywhere, even inside a member that is never read | -32700 saying at which byte; a batch gets one for the whole body | Go's decoder substitutes U+FFFD for each bad byte in a string and answers |
//! | `jsonrpc` not `"2.0"`, `method` missing or not a string, `id` an object, array or boolean | -32600 naming the member | -32600 for `jsonrpc`; -32000 or anything goes for the rest |
//! | `id` longer than [`MAX_ID_BYTES`] (128) bytes of JSON text | -32600 with `"id": null`, so it is not echoed | echoed whatever its size |
//! | unknown method | -32601 naming it | -32000 `rpc: can't find method` |
//! | `params` not an object, `[object]`, `[]` or null; or a member of the wrong type | -32602 naming the field and what was wrong | -32000 with one generic text |
//! | request text in an error: serde's message quoting the bad value, a field path, a method name, a `Content-Type`, an HTTP method | cut to an [`excerpt`](crate::rpc::excerpt): at most 100 characters, `…` in the middle | quoted in full |
//! | a handler's error | its code (handlers use -32000) | -32000 |
//! | a handler panics | -32603 | connection dropped |
//! | no `id` member (a notification) | the method runs; HTTP 200 with an empty body | same |
//! | `"id": null` | answered with `"id": null`, as JSON-RPC 2.0 says | treated as a notification |
//! | a batch (JSON array) | a JSON array of replies, in order (none for notifications); `[]` is -32600 | none: -32700 for any batch |
//! | a batch of more than [`ServerConfig::max_batch_len`] (256) requests | one -32600 naming the limit; none is run | none: -32700 for any batch |
//! | a batch whose replies add up to more than [`ServerConfig::max_batch_reply_bytes`] (4 MiB) | the replies that fit; then the request whose reply did not fit and every later one get -32003 ([`RESPONSE_TOO_LARGE`](codes::RESPONSE_TOO_LARGE)) naming the limit, with their own ids (a notification gets none), and the later ones are not run | none: -32700 for any batch |
//!
//! JSON-RPC errors come with HTTP 200, as from the node. Unknown members of `params` are
//! ignored, as the node does; only the spellings the spec declares (`aliases`) are read
//! besides the wire names, not any letter case.
//!
//! What a connection gets from [`serve`](crate::rpc::serve) with
//! [`ServeConfig::default()`](crate::rpc::ServeConfig), the node's defaults (its flags in
//! avalanchego `config/flags.go:234-237`, handed to Go's `net/http` server in
//! `api/server/server.go:127-130`). A timeout closes the connection without a reply, as the
//! node's server does:
//!
//! | Connection | Here | The node |
//! |---|---|---|
//! | sends nothing, or not a whole request head, within [`read_header_timeout`](crate::rpc::ServeConfig::read_header_timeout) of the request's start: accept for a connection's first request, the first byte for later ones | closed at 30 s | `--http-read-header-timeout`, 30 s: the same |
//! | sends a request, head and body, slower than [`read_timeout`](crate::rpc::ServeConfig::read_timeout), counted from the same start (a half-sent body) | closed at 30 s, if the handler is waiting for the body | `--http-read-timeout`, 30 s: the same |
//! | does not read its reply within [`write_timeout`](crate::rpc::ServeConfig::write_timeout) of the handler returning it (a slow or stalled reader) | closed at 30 s; the reply is dropped | `--http-write-timeout`, 30 s, counted from the end of the request head, so a handler's own time counts too |
//! | keeps a keep-alive connection open without a next request for [`idle_timeout`](crate::rpc::ServeConfig::idle_timeout) after a reply | closed at 120 s | `--http-idle-timeout`, 120 s: the same |
//! | one more than [`max_connections`](crate::rpc::ServeConfig::max_connections) open | accepted, and waits for its first byte beside the others (at most [`max_waiting`](crate::rpc::ServeConfig::max_waiting), 4,096, of them; the one waiting the longest is closed for the next); once it sends, the connection idle the longest (sent nothing yet, nothing since its last reply, or a request head still arriving after [`head_grace`](crate::rpc::ServeConfig::head_grace), 2 s, from the request's start) is closed to make room; if every one has a body under way or a request being handled, it waits for one to end or become idle. Silent sockets and stalled heads (slowloris) thus never delay a caller for long ([`evict_idle`](crate::rpc::ServeConfig::evict_idle) off: waits in the listen backlog until one closes) | no cap: connections are accepted until the process runs out of file descriptors (`--fd-limit`, 32,768, `config/flags.go:84`) |
//! | a body that does not fit in what is left of [`body_budget`](crate::rpc::ServeConfig::body_budget) (32 MiB across connections; the first 64 KiB of each body are free) | HTTP 503, `Retry-After: 1`, a -32000 error body, the connection closed: at once if the length was announced, else when its bytes stop fitting | no budget |
//! | a request head over hyper's read buffer (about 400 KiB) or with over 100 header lines | HTTP 431 | 431 over Go's 1 MiB `MaxHeaderBytes` |
//!
//! `None` disables a timeout (the node's `0`). hyper's own `header_read_timeout` is not used:
//! it restarts the moment a keep-alive connection goes idle, so it would close idle connections
//! at the header timeout rather than the idle one; the connection's clock enforces all four.
//!
//! Memory, per connection, whatever the peer does: the head is at most hyper's read buffer;
//! the body is read from the socket only as fast as the handler asks for it and at most
//! [`ServerConfig::max_body_bytes`] of it is kept (a half-sent body holds what has arrived, at
//! most that, until the read timeout); decoding holds a few more copies of it while the
//! handler runs; an error reply is a few hundred bytes. A reply is held until it is written or
//! the write timeout passes, one at a time (HTTP/1 answers a connection's requests in turn): a
//! single call's reply is as large as its result; a batch's is at most
//! [`ServerConfig::max_batch_reply_bytes`] of replies, plus an error reply for each request
//! past that limit (at most [`ServerConfig::max_batch_len`]), and while it is built, one more
//! call's reply (the one that does not fit). So a connection holds at most a small multiple of
//! the body limit plus the larger of one call's reply and the batch limit, at most
//! `max_connections` connections are open, and request bodies in flight hold at most
//! [`body_budget`](crate::rpc::ServeConfig::body_budget) plus 64 KiB per connection. With the
//! defaults, 8 peers that each send a batch of large replies (`avm.getUTXOs` of full pages,
//! say) and do not read hold 8 × 4 MiB = 32 MiB of replies until the write timeout, not the
//! 65 MB each an unbounded batch reply could take.

use super::buffers;
pub use super::buffers::SizeHint;
use super::envelope::{self, Envelope};
use super::error::{RpcError, codes, strip_position};
use super::excerpt::excerpt;
use super::json_write;
use super::plain_request;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::de::StrRead;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// A boxed, sendable future.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A handler's outcome, encoded.
pub type Reply = Result<Encoded, RpcError>;

/// A handler's result, encoded: the start of its reply (`{"jsonrpc":"2.0","result":` and the
/// result), in the one buffer the whole reply is written to and sent from.
#[derive(Debug)]
pub struct Encoded(Vec<u8>);

/// The reply's text before the result.
const RESULT_PREFIX: &[u8] = br#"{"jsonrpc":"2.0","result":"#;

/// Room left after the result for the rest of the reply: `,"id":`, an `id` of up to
/// [`MAX_ID_BYTES`], `}` and the closing newline.
const AFTER_RESULT: usize = MAX_ID_BYTES + 16;

/// Routes a wire method name to a handler. Generated per interface (`InfoService`, …).
pub trait Dispatch: Send + Sync + 'static {
    /// The handler's future for `method`, or `None` if this interface has no such method.
    fn dispatch<'a>(&'a self, method: &str, params: Params<'a>) -> Option<BoxFuture<'a, Reply>>;
}

/// A request's params: the JSON text of the object, borrowed from the request, or nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct Params<'a>(Option<&'a str>);

impl<'a> Params<'a> {
    /// Params from the JSON text of an object (or nothing).
    pub fn new(object: Option<&'a str>) -> Self {
        Self(object)
    }

    /// Decodes the params into `T`; absent params decode as `{}`. A failure is -32602
    /// naming the field path and the problem.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, RpcError> {
        let text = self.0.unwrap_or("{}");
        // One typed pass; only params that fail are read again to name the path.
        serde_json::from_str(text).or_else(|_| {
            serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(text)).map_err(
                |e| {
                    let path = e.path().to_string();
                    let field = if path == "." { "" } else { path.as_str() };
                    RpcError::invalid_params(field, strip_position(e.inner().to_string()))
                },
            )
        })
    }
}

/// Encodes a handler's result.
pub fn reply<R: Serialize>(result: Result<R, RpcError>) -> Reply {
    static UNKNOWN: SizeHint = SizeHint::new();
    reply_sized(&UNKNOWN, result)
}

/// Encodes a handler's result into a buffer sized by `hint` (what this method's last reply
/// needed), which then learns this reply's size. The generated dispatchers keep one hint per
/// method.
pub fn reply_sized<R: Serialize>(hint: &SizeHint, result: Result<R, RpcError>) -> Reply {
    let value = result?;
    let mut out = buffers::take(hint.capacity().saturating_add(AFTER_RESULT));
    out.extend_from_slice(RESULT_PREFIX);
    hint.in_order(|| json_write::write(&mut out, &value))
        .map_err(|e| RpcError::internal(format!("cannot encode the result: {e}")))?;
    hint.record(out.len());
    Ok(Encoded(out))
}

/// Limits of a server.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Largest request body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Most requests in one batch.
    pub max_batch_len: usize,
    /// Most bytes the replies to one batch may add up to. Once a reply would pass it, that
    /// request and every later one get a [`RESPONSE_TOO_LARGE`](codes::RESPONSE_TOO_LARGE)
    /// error, and the later ones are not run.
    pub max_batch_reply_bytes: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            max_body_bytes: 8 * 1024 * 1024,
            max_batch_len: 256,
            max_batch_reply_bytes: 4 * 1024 * 1024,
        }
    }
}

struct Shared {
    dispatch: Arc<dyn Dispatch>,
    config: ServerConfig,
}

/// An axum router serving `dispatch` at every path in `paths`, with default limits.
pub fn router(paths: Vec<String>, dispatch: impl Dispatch) -> Router {
    router_with(paths, dispatch, ServerConfig::default())
}

/// As [`router`], with your limits.
pub fn router_with(paths: Vec<String>, dispatch: impl Dispatch, config: ServerConfig) -> Router {
    let shared = Arc::new(Shared {
        dispatch: Arc::new(dispatch),
        config,
    });
    paths.iter().fold(Router::new(), |r, p| {
        r.route(p, any(serve).with_state(shared.clone()))
    })
}

async fn serve(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    if request.method() != Method::POST {
        let text = format!(
            "only POST is allowed here, not {}\n",
            excerpt(request.method().as_str())
        );
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "POST")],
            text,
        )
            .into_response();
    }
    match request.headers().get(header::CONTENT_TYPE).map(media_type) {
        Some(Some(t)) if t.eq_ignore_ascii_case("application/json") => {}
        Some(t) => {
            let shown = t.map_or_else(|| "(not text)".into(), str::to_ascii_lowercase);
            let text = format!(
                "unsupported Content-Type {:?}: send application/json\n",
                excerpt(&shown)
            );
            return (StatusCode::UNSUPPORTED_MEDIA_TYPE, text).into_response();
        }
        None => {
            let text = "missing Content-Type: send application/json\n";
            return (StatusCode::UNSUPPORTED_MEDIA_TYPE, text).into_response();
        }
    }
    let limit = shared.config.max_body_bytes;
    let body = match axum::body::to_bytes(request.into_body(), limit).await {
        Ok(b) => b,
        Err(e) => {
            let too_large = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
            if too_large {
                let err = RpcError::invalid_request(format!(
                    "the body is larger than the limit of {limit} bytes"
                ));
                return json_response(StatusCode::PAYLOAD_TOO_LARGE, error_reply("null", &err));
            }
            return (
                StatusCode::BAD_REQUEST,
                format!("cannot read the body: {e}\n"),
            )
                .into_response();
        }
    };
    match handle_bytes(&*shared.dispatch, &body, &shared.config).await {
        Some(text) => json_response(StatusCode::OK, text),
        None => StatusCode::OK.into_response(),
    }
}

/// The media type of a `Content-Type` value (before any `;`, trimmed; compared without case),
/// or `None` when the value is not visible ASCII.
fn media_type(value: &HeaderValue) -> Option<&str> {
    // What clients send, without a look for parameters.
    if value.as_bytes().eq_ignore_ascii_case(b"application/json") {
        return Some("application/json");
    }
    let text = value.to_str().ok()?;
    Some(text.split(';').next().unwrap_or("").trim())
}

fn json_response(status: StatusCode, mut text: Vec<u8>) -> Response {
    text.push(b'\n');
    let mut response = (status, axum::body::Body::from(buffers::into_bytes(text))).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json; charset=utf-8"),
    );
    response
}

/// Longest `id` accepted, in bytes of its JSON text; a longer one is -32600, so a reply never
/// echoes more than this of it.
pub const MAX_ID_BYTES: usize = 128;

/// Handles one body (a request or a batch) and returns the reply text, or `None` when
/// nothing is to be sent (notifications).
pub async fn handle(dispatch: &dyn Dispatch, body: &[u8], config: &ServerConfig) -> Option<String> {
    let text = handle_bytes(dispatch, body, config).await?;
    // Every reply is written from `str`s and serde_json, so it is UTF-8.
    Some(
        String::from_utf8(text)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    )
}

/// As [`handle`], the reply's UTF-8 bytes, in the buffer they were written to.
async fn handle_bytes(
    dispatch: &dyn Dispatch,
    body: &[u8],
    config: &ServerConfig,
) -> Option<Vec<u8>> {
    // The whole body, once: serde_json does not check the strings it skips (unknown members).
    let body = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(e) => {
            let err = RpcError::parse_error(format!(
                "the body is not valid UTF-8 at byte {}",
                e.valid_up_to()
            ));
            return Some(error_reply("null", &err));
        }
    };
    let first = body
        .bytes()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    if first != Some(b'[') {
        return handle_one(dispatch, body).await;
    }
    // Each request borrowed from the body, not copied.
    let items: Vec<&RawValue> = match serde_json::from_str(body) {
        Ok(items) => items,
        Err(e) => {
            return Some(error_reply(
                "null",
                &RpcError::parse_error(strip_position(e.to_string())),
            ));
        }
    };
    if items.is_empty() {
        return Some(error_reply(
            "null",
            &RpcError::invalid_request("an empty batch"),
        ));
    }
    if items.len() > config.max_batch_len {
        let err = RpcError::invalid_request(format!(
            "a batch of {} requests is over the limit of {}",
            items.len(),
            config.max_batch_len
        ));
        return Some(error_reply("null", &err));
    }
    let limit = config.max_batch_reply_bytes;
    // Room for every reply: the limit, and an error reply for each request past it.
    let ceiling = limit.saturating_add(items.len().saturating_mul(ERROR_REPLY_ROOM));
    let mut text = Vec::with_capacity(items.len().saturating_mul(128).min(ceiling));
    text.push(b'[');
    let mut full = false;
    for item in items {
        let item = item.get();
        let reply = if full {
            // Past the limit: read for its id, not run.
            refuse(item, &batch_full(limit, false))
        } else {
            match handle_one(dispatch, item).await {
                // With a `,` before it and the closing `]`.
                Some(r) if text.len() + r.len() + 2 <= limit => Some(r),
                Some(_) => {
                    full = true;
                    refuse(item, &batch_full(limit, true))
                }
                None => None,
            }
        };
        if let Some(r) = reply {
            if text.len() > 1 {
                append(&mut text, b",", ceiling);
            }
            append(&mut text, &r, ceiling);
        }
    }
    if text.len() == 1 {
        return None;
    }
    text.push(b']');
    Some(text)
}

/// Bytes allowed for the capacity of a batch's reply for each error reply past the limit (one
/// is about 300 bytes, with an `id` of [`MAX_ID_BYTES`]).
const ERROR_REPLY_ROOM: usize = 512;

/// Appends `piece` to `text`, growing it by doubling but not past `ceiling` while the text
/// fits under it, so that a reply of nearly the limit does not hold twice its size.
fn append(text: &mut Vec<u8>, piece: &[u8], ceiling: usize) {
    let needed = text.len() + piece.len();
    if needed > text.capacity() {
        if needed <= ceiling {
            let target = text.capacity().saturating_mul(2).clamp(needed, ceiling);
            text.reserve_exact(target - text.len());
        } else {
            text.reserve(piece.len());
        }
    }
    text.extend_from_slice(piece);
}

/// The error for a request of a batch whose replies reached `limit`: whether this one `ran`
/// (its reply is the one that did not fit) or was not run.
fn batch_full(limit: usize, ran: bool) -> RpcError {
    let what = if ran {
        "this call ran, but its reply did not fit"
    } else {
        "this call was not run"
    };
    RpcError::new(
        codes::RESPONSE_TOO_LARGE,
        format!(
            "the batch's replies reached the limit of {limit} bytes; {what}: send it again on its \
             own or in a smaller batch"
        ),
    )
    .with_data(serde_json::json!({ "limit": limit, "ran": ran }))
}

async fn handle_one(dispatch: &dyn Dispatch, body: &str) -> Option<Vec<u8>> {
    let call = match read_call(body) {
        Ok(call) => call,
        Err(reply) => return Some(reply),
    };
    let outcome = run(dispatch, &call).await;
    answer(&call, outcome)
}

/// The reply to a request that is not run, with `error` if it is a valid request: the same
/// reply a malformed one always gets, none for a notification.
fn refuse(body: &str, error: &RpcError) -> Option<Vec<u8>> {
    match read_call(body) {
        Ok(call) => {
            let refusal = call.method.as_ref().err().unwrap_or(error).clone();
            answer(&call, Err(refusal))
        }
        Err(reply) => Some(reply),
    }
}

/// A request's envelope, read and checked.
struct Call<'a> {
    /// The `id` as sent; `None` for a notification.
    id: Option<&'a str>,
    /// The `id` to answer with.
    reply_id: &'a str,
    /// The method's name, or why the request is not valid (`jsonrpc` or `method`).
    method: Result<Cow<'a, str>, RpcError>,
    /// The JSON text of `params`, if given.
    params: Option<&'a str>,
}

/// Reads a request's members and checks its `id`; the error reply if it has none to answer.
fn read_call(body: &str) -> Result<Call<'_>, Vec<u8>> {
    // The usual request in one pass; anything else by serde_json, which says what is wrong.
    if let Some(plain) = plain_request::read(body, MAX_ID_BYTES) {
        return Ok(Call {
            id: plain.id,
            reply_id: plain.id.unwrap_or("null"),
            method: Ok(Cow::Borrowed(plain.method)),
            params: plain.params,
        });
    }
    read_any_call(body)
}

/// As [`read_call`], for any request, with serde_json.
fn read_any_call(body: &str) -> Result<Call<'_>, Vec<u8>> {
    // A member given twice counts with its last value.
    let [jsonrpc, method, params, id] =
        match envelope::read(StrRead::new(body), ["jsonrpc", "method", "params", "id"]) {
            Ok(Envelope::Object(members)) => members.values,
            Ok(Envelope::Other(_)) => {
                return Err(error_reply(
                    "null",
                    &RpcError::invalid_request("a request is a JSON object"),
                ));
            }
            Err(e) => {
                return Err(error_reply(
                    "null",
                    &RpcError::parse_error(strip_position(e.to_string())),
                ));
            }
        };
    let id = id.map(RawValue::get);
    let reply_id = match id {
        None => "null",
        Some(raw) if raw.len() > MAX_ID_BYTES => {
            let err = RpcError::invalid_request(format!(
                "`id` is {} bytes long; the limit is {MAX_ID_BYTES}",
                raw.len()
            ));
            return Err(error_reply("null", &err));
        }
        Some(raw)
            if raw.starts_with(['"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
                || raw == "null" =>
        {
            raw
        }
        Some(_) => {
            let err = RpcError::invalid_request("`id` must be a string, a number or null");
            return Err(error_reply("null", &err));
        }
    };
    Ok(Call {
        id,
        reply_id,
        method: check(jsonrpc, method),
        params: params.map(RawValue::get),
    })
}

/// The reply to `call` with its `outcome`; `None` when nothing is to be sent.
fn answer(call: &Call<'_>, outcome: Reply) -> Option<Vec<u8>> {
    let reply_id = call.reply_id;
    match (call.id, outcome) {
        (None, Ok(_)) => None,
        // A notification gets no reply, unless the request itself was malformed.
        (None, Err(e)) if e.code != codes::INVALID_REQUEST => None,
        (_, Ok(Encoded(mut text))) => {
            // The rest of the reply after the result, in the room left for it.
            text.extend_from_slice(br#","id":"#);
            text.extend_from_slice(reply_id.as_bytes());
            text.push(b'}');
            Some(text)
        }
        (_, Err(e)) => Some(error_reply(reply_id, &e)),
    }
}

/// Checks `jsonrpc` and `method`; the method's name.
fn check<'a>(
    jsonrpc: Option<&RawValue>,
    method: Option<&'a RawValue>,
) -> Result<Cow<'a, str>, RpcError> {
    let is_two = |raw: &RawValue| {
        raw.get() == r#""2.0""#
            || serde_json::from_str::<String>(raw.get()).is_ok_and(|v| v == "2.0")
    };
    if !jsonrpc.is_some_and(is_two) {
        return Err(RpcError::invalid_request(r#"`jsonrpc` must be "2.0""#));
    }
    match method.map(RawValue::get) {
        None => Err(RpcError::invalid_request("`method` is missing")),
        Some(text) => match serde_json::from_str::<&str>(text) {
            Ok(m) => Ok(m.into()),
            // Escapes in the name need an owned copy.
            Err(_) => match serde_json::from_str::<String>(text) {
                Ok(m) => Ok(m.into()),
                Err(_) => Err(RpcError::invalid_request("`method` must be a string")),
            },
        },
    }
}

async fn run(dispatch: &dyn Dispatch, call: &Call<'_>) -> Reply {
    let method = call.method.as_ref().map_err(Clone::clone)?;
    let params = match call.params {
        None | Some("null") => Params(None),
        Some(raw) if raw.starts_with('{') => Params(Some(raw)),
        Some(raw) if raw.starts_with('[') => match serde_json::from_str::<Vec<&RawValue>>(raw) {
            Ok(items) if items.is_empty() => Params(None),
            Ok(items) if items.len() == 1 && items[0].get().starts_with('{') => {
                Params(Some(items[0].get()))
            }
            _ => {
                return Err(RpcError::invalid_params(
                    "",
                    "`params` must be an object, or an array holding one object",
                ));
            }
        },
        Some(_) => {
            return Err(RpcError::invalid_params(
                "",
                "`params` must be an object, or an array holding one object",
            ));
        }
    };
    match dispatch.dispatch(method, params) {
        Some(future) => CatchUnwind(future).await,
        None => Err(RpcError::method_not_found(method)),
    }
}

fn error_reply(id: &str, error: &RpcError) -> Vec<u8> {
    let mut text = Vec::with_capacity(256);
    text.extend_from_slice(br#"{"jsonrpc":"2.0","error":"#);
    if serde_json::to_writer(&mut text, error).is_err() {
        text.truncate(br#"{"jsonrpc":"2.0","error":"#.len());
        text.extend_from_slice(br#"{"code":-32603,"message":"internal error","data":null}"#);
    }
    text.extend_from_slice(br#","id":"#);
    text.extend_from_slice(id.as_bytes());
    text.push(b'}');
    text
}

/// Turns a handler's panic into -32603, so one bad handler cannot drop connections.
struct CatchUnwind<'a>(BoxFuture<'a, Reply>);

impl Future for CatchUnwind<'_> {
    type Output = Reply;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Reply> {
        let future = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(poll) => poll,
            Err(_) => Poll::Ready(Err(RpcError::internal("the handler panicked"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{Id, NodeId, cb58_encode};

    /// The IDs and node IDs of `order`, as a reply's result, and the text serde_json gives
    /// for them with every cb58 computed anew (no cache, no trail).
    fn result(order: &[u32]) -> (Vec<(Id, NodeId)>, Vec<u8>) {
        let bytes = |n: u32| {
            let mut b = [0x5a; 32];
            b[..4].copy_from_slice(&n.to_le_bytes());
            b
        };
        let value: Vec<(Id, NodeId)> = order
            .iter()
            .map(|&n| {
                let short: [u8; 20] = bytes(n)[..20].try_into().unwrap_or_default();
                (Id::new(bytes(n)), NodeId::new(short))
            })
            .collect();
        let items: Vec<String> = order
            .iter()
            .map(|&n| {
                let b = bytes(n);
                format!(
                    "[\"{}\",\"NodeID-{}\"]",
                    cb58_encode(&b),
                    cb58_encode(&b[..20])
                )
            })
            .collect();
        let mut want = RESULT_PREFIX.to_vec();
        want.extend_from_slice(format!("[{}]", items.join(",")).as_bytes());
        (value, want)
    }

    #[test]
    fn the_usual_requests_read_in_one_pass_give_what_serde_json_gives() {
        const SPACE: [&str; 4] = ["", " ", "\n\t", "\r\n "];
        const NAMES: [&str; 6] = ["jsonrpc", "method", "id", "params", "x", "jsonrp\\u0063"];
        const VALUES: [&[&str]; 6] = [
            &[r#""2.0""#, r#""1.0""#, r#""2\u002e0""#, "2"],
            &[
                r#""info.getNetworkID""#,
                r#""a\u0062""#,
                r#""é""#,
                "1",
                r#""""#,
            ],
            &[
                "1",
                "-0",
                "01",
                "1.5",
                "7e2",
                r#""x""#,
                "null",
                "true",
                "{}",
                "-",
                "123456789012345678901234567890",
            ],
            &[
                "{}",
                "[ ]",
                "null",
                r#"{"a":[1,{"b":"\u0041"}]}"#,
                "[{}]",
                r#"[{"a":1}]"#,
                r#""s""#,
                r#"{"a":}"#,
                "[1,",
                "{ }",
            ],
            &["0", r#"{"y":[]}"#],
            &[r#""2.0""#],
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut pick = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut fast, mut full) = (0, 0);
        for _ in 0..20_000 {
            let mut body = String::from(SPACE[pick(4)]);
            body.push('{');
            // Mostly the four members, each once, in a random order; sometimes one missing,
            // another or one given twice.
            let mut order = vec![0, 1, 2, 3];
            for i in (1..4).rev() {
                order.swap(i, pick(i + 1));
            }
            let mut members = Vec::new();
            for n in order {
                if pick(6) != 0 {
                    members.push(n);
                }
                if pick(8) == 0 {
                    members.push(pick(6));
                }
            }
            for (m, &n) in members.iter().enumerate() {
                if m > 0 {
                    body.push_str(SPACE[pick(4)]);
                    body.push(',');
                }
                let values = VALUES[n];
                let value = if pick(3) == 0 {
                    values[pick(values.len())]
                } else {
                    values[0]
                };
                let space = SPACE[pick(4)];
                body.push_str(&format!("{space}\"{}\"{space}:{space}{value}", NAMES[n]));
            }
            body.push_str(SPACE[pick(4)]);
            body.push('}');
            match pick(16) {
                0 => body.push_str(" x"),
                1 => {
                    let mut end = pick(body.len() + 1);
                    while !body.is_char_boundary(end) {
                        end -= 1;
                    }
                    body.truncate(end);
                }
                _ => {}
            }
            let Some(plain) = plain_request::read(&body, MAX_ID_BYTES) else {
                full += 1;
                continue;
            };
            fast += 1;
            let Ok(call) = read_any_call(&body) else {
                panic!("read in one pass, refused by serde_json: {body}");
            };
            assert_eq!(call.id, plain.id, "{body}");
            assert_eq!(call.params, plain.params, "{body}");
            assert_eq!(call.method.ok().as_deref(), Some(plain.method), "{body}");
        }
        assert!(
            fast > 1_000 && full > 1_000,
            "{fast} read in one pass, {full} not"
        );
    }

    #[test]
    fn replies_in_the_order_of_earlier_ones_or_not_are_the_bytes_computed_anew() {
        crate::wire::enable_text_cache(crate::wire::TEXT_CACHE_ENTRIES);
        let hint = SizeHint::new();
        let base: Vec<u32> = (0..500).collect();
        let mut inserted = base.clone();
        inserted.insert(250, 9_999);
        let thinned: Vec<u32> = base.iter().copied().filter(|n| n % 3 != 1).collect();
        let reversed: Vec<u32> = base.iter().rev().copied().collect();
        let repeated = vec![7; 50];
        for order in [
            &base, &base, &inserted, &inserted, &thinned, &base, &reversed, &reversed, &repeated,
            &base,
        ] {
            let (value, want) = result(order);
            let Ok(Encoded(got)) = reply_sized(&hint, Ok(value)) else {
                panic!("the reply was not written");
            };
            assert!(got == want, "a reply of {} items differs", order.len());
        }
    }
}
