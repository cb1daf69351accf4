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
//! | a batch (JSON array) | a JSON array of replies (none for notifications); `[]` is -32600 | -32700 |
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
//! | one more than [`max_connections`](crate::rpc::ServeConfig::max_connections) open | waits, unaccepted, in the listen backlog until a connection closes; its timeouts start at accept | no cap: connections are accepted until the process runs out of file descriptors (`--fd-limit`, 32,768, `config/flags.go:84`) |
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
//! handler runs; an error reply is a few hundred bytes (a batch: one per request, at most
//! [`ServerConfig::max_batch_len`]); a reply is held until it is written or the write timeout
//! passes. So a connection holds at most a small multiple of the body limit plus its reply, and
//! at most `max_connections` connections are open.

use super::envelope::{self, Envelope};
use super::error::{RpcError, strip_position};
use super::excerpt::excerpt;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::de::StrRead;
use serde_json::value::RawValue;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// A boxed, sendable future.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A handler's outcome, encoded.
pub type Reply = Result<Box<RawValue>, RpcError>;

/// Routes a wire method name to a handler. Generated per interface (`InfoService`, …).
pub trait Dispatch: Send + Sync + 'static {
    /// The handler's future for `method`, or `None` if this interface has no such method.
    fn dispatch<'a>(&'a self, method: &str, params: Params) -> Option<BoxFuture<'a, Reply>>;
}

/// A request's params: the object, or nothing.
#[derive(Debug, Default)]
pub struct Params(Option<Box<RawValue>>);

impl Params {
    /// Params from the JSON text of an object (or nothing).
    pub fn new(object: Option<Box<RawValue>>) -> Self {
        Self(object)
    }

    /// Decodes the params into `T`; absent params decode as `{}`. A failure is -32602
    /// naming the field path and the problem.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, RpcError> {
        let text = self.0.as_deref().map(RawValue::get).unwrap_or("{}");
        serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(text)).map_err(
            |e| {
                let path = e.path().to_string();
                let field = if path == "." { "" } else { path.as_str() };
                RpcError::invalid_params(field, strip_position(e.inner().to_string()))
            },
        )
    }
}

/// Encodes a handler's result.
pub fn reply<R: Serialize>(result: Result<R, RpcError>) -> Reply {
    let value = result?;
    serde_json::value::to_raw_value(&value)
        .map_err(|e| RpcError::internal(format!("cannot encode the result: {e}")))
}

/// Limits of a server.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Largest request body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Most requests in one batch.
    pub max_batch_len: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            max_body_bytes: 8 * 1024 * 1024,
            max_batch_len: 256,
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
        Some(Some(t)) if t == "application/json" => {}
        Some(t) => {
            let shown = t.unwrap_or_else(|| "(not text)".into());
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
    match handle(&*shared.dispatch, &body, &shared.config).await {
        Some(text) => json_response(StatusCode::OK, text),
        None => StatusCode::OK.into_response(),
    }
}

fn media_type(value: &HeaderValue) -> Option<String> {
    let text = value.to_str().ok()?;
    Some(
        text.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase(),
    )
}

fn json_response(status: StatusCode, mut text: String) -> Response {
    text.push('\n');
    let mut response = (status, text).into_response();
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
    if !body
        .trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('[')
    {
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
    let mut replies = Vec::new();
    for item in &items {
        if let Some(r) = handle_one(dispatch, item.get()).await {
            replies.push(r);
        }
    }
    (!replies.is_empty()).then(|| format!("[{}]", replies.join(",")))
}

async fn handle_one(dispatch: &dyn Dispatch, body: &str) -> Option<String> {
    // A member given twice counts with its last value.
    let [jsonrpc, method, params, id] =
        match envelope::read(StrRead::new(body), ["jsonrpc", "method", "params", "id"]) {
            Ok(Envelope::Object(members)) => members.values,
            Ok(Envelope::Other(_)) => {
                return Some(error_reply(
                    "null",
                    &RpcError::invalid_request("a request is a JSON object"),
                ));
            }
            Err(e) => {
                return Some(error_reply(
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
            return Some(error_reply("null", &err));
        }
        Some(raw)
            if raw.starts_with(['"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
                || raw == "null" =>
        {
            raw
        }
        Some(_) => {
            let err = RpcError::invalid_request("`id` must be a string, a number or null");
            return Some(error_reply("null", &err));
        }
    };
    let outcome = run(dispatch, jsonrpc, method, params).await;
    match (id, outcome) {
        (None, Ok(_)) => None,
        // A notification gets no reply, unless the request itself was malformed.
        (None, Err(e)) if e.code != super::error::codes::INVALID_REQUEST => None,
        (_, Ok(result)) => {
            // One copy of the result, with room for the envelope and the closing newline.
            let result = result.get();
            let mut text = String::with_capacity(result.len() + reply_id.len() + 40);
            text.push_str(r#"{"jsonrpc":"2.0","result":"#);
            text.push_str(result);
            text.push_str(r#","id":"#);
            text.push_str(reply_id);
            text.push('}');
            Some(text)
        }
        (_, Err(e)) => Some(error_reply(reply_id, &e)),
    }
}

async fn run(
    dispatch: &dyn Dispatch,
    jsonrpc: Option<&RawValue>,
    method: Option<&RawValue>,
    params: Option<&RawValue>,
) -> Reply {
    let is_two = |raw: &RawValue| {
        raw.get() == r#""2.0""#
            || serde_json::from_str::<String>(raw.get()).is_ok_and(|v| v == "2.0")
    };
    if !jsonrpc.is_some_and(is_two) {
        return Err(RpcError::invalid_request(r#"`jsonrpc` must be "2.0""#));
    }
    let method: std::borrow::Cow<'_, str> = match method.map(RawValue::get) {
        None => return Err(RpcError::invalid_request("`method` is missing")),
        Some(text) => match serde_json::from_str::<&str>(text) {
            Ok(m) => m.into(),
            // Escapes in the name need an owned copy.
            Err(_) => match serde_json::from_str::<String>(text) {
                Ok(m) => m.into(),
                Err(_) => return Err(RpcError::invalid_request("`method` must be a string")),
            },
        },
    };
    let params = match params {
        None => Params(None),
        Some(raw) if raw.get() == "null" => Params(None),
        Some(raw) if raw.get().starts_with('{') => Params(Some(raw.to_owned())),
        Some(raw) if raw.get().starts_with('[') => {
            match serde_json::from_str::<Vec<Box<RawValue>>>(raw.get()) {
                Ok(items) if items.is_empty() => Params(None),
                Ok(mut items) if items.len() == 1 && items[0].get().starts_with('{') => {
                    Params(items.pop())
                }
                _ => {
                    return Err(RpcError::invalid_params(
                        "",
                        "`params` must be an object, or an array holding one object",
                    ));
                }
            }
        }
        Some(_) => {
            return Err(RpcError::invalid_params(
                "",
                "`params` must be an object, or an array holding one object",
            ));
        }
    };
    match dispatch.dispatch(&method, params) {
        Some(future) => CatchUnwind(future).await,
        None => Err(RpcError::method_not_found(&method)),
    }
}

fn error_reply(id: &str, error: &RpcError) -> String {
    let error = serde_json::to_string(error)
        .unwrap_or_else(|_| r#"{"code":-32603,"message":"internal error","data":null}"#.into());
    format!(r#"{{"jsonrpc":"2.0","error":{error},"id":{id}}}"#)
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
