//! JSON-RPC errors (what a server sends) and client errors (everything a call can end in).

use super::excerpt::{excerpt, excerpt_quotes};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The JSON-RPC 2.0 error codes this crate uses. The generated documents list the same
/// errors (the generator's `common::JSON_RPC_ERRORS`; `tests/tests/conventions.rs` keeps the
/// two equal).
pub mod codes {
    /// The body is not valid JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// The body is JSON but not a valid request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// No such method at this path.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// The params do not fit the method.
    pub const INVALID_PARAMS: i64 = -32602;
    /// The server failed (e.g. a handler panicked).
    pub const INTERNAL_ERROR: i64 = -32603;
    /// A handler's own error, as the node sends every error.
    pub const SERVER_ERROR: i64 = -32000;
    /// The replies to a batch reached the server's limit (`ServerConfig::max_batch_reply_bytes`):
    /// the request whose reply did not fit and every later one of the batch get this, and the
    /// later ones are not run. -32003 is go-ethereum's code for the same case
    /// (`errcodeResponseTooLarge`), apart from -32000, which handlers send.
    pub const RESPONSE_TOO_LARGE: i64 = -32003;
}

/// A JSON-RPC error object: `{"code", "message", "data"}`. `data` is always written (`null`
/// when empty), as the node does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("JSON-RPC error {code}: {message}")]
pub struct RpcError {
    /// The error code (see [`codes`]).
    pub code: i64,
    /// A human-readable message.
    pub message: String,
    /// Extra structured detail, if any.
    #[serde(default)]
    pub data: Option<Value>,
}

impl RpcError {
    /// An error with any code.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// A handler error (-32000), the code the node uses for every failure.
    pub fn server(message: impl Into<String>) -> Self {
        Self::new(codes::SERVER_ERROR, message)
    }

    /// -32602, naming the field (a path such as `startIndex.address`, empty for the whole
    /// params) and what was wrong with it. `data` is `{"field", "reason"}`. The field is cut
    /// to an [`excerpt`] and what the reason quotes to one each ([`excerpt_quotes`]): the
    /// reason's own words are kept.
    pub fn invalid_params(field: &str, reason: impl Into<String>) -> Self {
        let field = excerpt(field);
        let reason = excerpt_quotes(&reason.into()).into_owned();
        let message = if field.is_empty() {
            format!("invalid params: {reason}")
        } else {
            format!("invalid params: `{field}`: {reason}")
        };
        Self {
            code: codes::INVALID_PARAMS,
            message,
            data: Some(serde_json::json!({ "field": field, "reason": reason })),
        }
    }

    /// -32601 for a method this server's interface has but the implementation leaves out
    /// (the default body of every generated server method).
    pub fn not_implemented(method: &str) -> Self {
        let method = excerpt(method);
        Self {
            code: codes::METHOD_NOT_FOUND,
            message: format!("method not implemented: this server does not implement `{method}`"),
            data: Some(serde_json::json!({ "method": method })),
        }
    }

    /// -32601 for `method` (cut to an [`excerpt`]).
    pub fn method_not_found(method: &str) -> Self {
        let method = excerpt(method);
        Self {
            code: codes::METHOD_NOT_FOUND,
            message: format!("method not found: `{method}`"),
            data: Some(serde_json::json!({ "method": method })),
        }
    }

    /// -32600 with a reason (what it quotes cut, [`excerpt_quotes`]).
    pub fn invalid_request(reason: impl Into<String>) -> Self {
        Self::new(
            codes::INVALID_REQUEST,
            format!("invalid request: {}", excerpt_quotes(&reason.into())),
        )
    }

    /// -32700 with the parser's message (what it quotes cut, [`excerpt_quotes`]).
    pub fn parse_error(reason: impl Into<String>) -> Self {
        Self::new(
            codes::PARSE_ERROR,
            format!("parse error: {}", excerpt_quotes(&reason.into())),
        )
    }

    /// -32603 with a reason.
    pub fn internal(reason: impl Into<String>) -> Self {
        Self::new(
            codes::INTERNAL_ERROR,
            format!("internal error: {}", reason.into()),
        )
    }

    /// The same error with `data` set.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}

/// Everything a client call can end in other than its result.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The node answered with a JSON-RPC error.
    #[error("{method}: {error}")]
    Rpc {
        /// The method called.
        method: String,
        /// The error object as sent (boxed: it is large and rare).
        error: Box<RpcError>,
    },
    /// The HTTP status was not 200 (e.g. 404 for an index the node does not serve, or a
    /// redirect that was not followed).
    #[error("{method}: HTTP {status}{}: {body}", redirect_note(.location))]
    Http {
        /// The method called.
        method: String,
        /// The HTTP status code.
        status: u16,
        /// Where a redirect (3xx) pointed, when it was not followed.
        location: Option<String>,
        /// The start of the body.
        body: String,
    },
    /// The body is not a valid JSON-RPC 2.0 reply to the request sent; `problem` says which
    /// rule it broke.
    #[error("{method}: not a valid JSON-RPC 2.0 reply: {problem}; HTTP {status}, body: {body}")]
    InvalidResponse {
        /// The method called.
        method: String,
        /// The HTTP status code.
        status: u16,
        /// The rule the reply broke.
        problem: ReplyProblem,
        /// The start of the body.
        body: String,
    },
    /// The response body is larger than the transport's limit (see
    /// [`HttpTransportBuilder::max_response_bytes`](crate::rpc::HttpTransportBuilder::max_response_bytes));
    /// it was not read past the limit.
    #[error("{method}: the response body exceeds the limit of {limit} bytes")]
    ResponseTooLarge {
        /// The method called.
        method: String,
        /// The limit, in bytes.
        limit: u64,
    },
    /// The result does not fit the method's result type.
    #[error("{method}: cannot decode the result at `{path}`: {message}")]
    Decode {
        /// The method called.
        method: String,
        /// Where in the result (`validators[0].weight`; `.` for the whole result).
        path: String,
        /// What was wrong.
        message: String,
    },
    /// The params do not fit the method (only from the interfaces' dynamic `call_json`; typed
    /// calls cannot build them).
    #[error("{method}: invalid params at `{path}`: {message}")]
    InvalidParams {
        /// The method called.
        method: String,
        /// Where in the params.
        path: String,
        /// What was wrong.
        message: String,
    },
    /// The transport failed (connection refused, timeout, TLS, …).
    #[error("{method}: transport failed: {source}")]
    Transport {
        /// The method called.
        method: String,
        /// The transport's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A stream over a paged method could not go on: the node answered a cursor it had
    /// answered before (following it would loop).
    #[error("{method}: paging stopped: {problem}")]
    Paging {
        /// The method called.
        method: String,
        /// What went wrong.
        problem: String,
    },
    /// A dynamic call named a method this interface does not have.
    #[error("unknown method `{method}`")]
    UnknownMethod {
        /// The name given.
        method: String,
    },
    /// A client (e.g. a test double) does not implement this method: the default body of
    /// every generated client method.
    #[error("{method}: not implemented by this client")]
    NotImplemented {
        /// The method called.
        method: String,
    },
}

impl ClientError {
    /// The JSON-RPC error code, when the node answered with an error.
    pub fn rpc_code(&self) -> Option<i64> {
        match self {
            ClientError::Rpc { error, .. } => Some(error.code),
            _ => None,
        }
    }

    /// The method the failed call was for.
    pub fn method(&self) -> &str {
        match self {
            ClientError::Rpc { method, .. }
            | ClientError::Http { method, .. }
            | ClientError::InvalidResponse { method, .. }
            | ClientError::ResponseTooLarge { method, .. }
            | ClientError::Decode { method, .. }
            | ClientError::InvalidParams { method, .. }
            | ClientError::Transport { method, .. }
            | ClientError::Paging { method, .. }
            | ClientError::UnknownMethod { method }
            | ClientError::NotImplemented { method } => method,
        }
    }

    /// The rule a reply broke, when the body was not a valid JSON-RPC 2.0 reply.
    pub fn reply_problem(&self) -> Option<&ReplyProblem> {
        match self {
            ClientError::InvalidResponse { problem, .. } => Some(problem),
            _ => None,
        }
    }
}

/// ` (redirect to … not followed)` when a redirect's `Location` is known.
fn redirect_note(location: &Option<String>) -> String {
    match location {
        Some(location) => format!(" (redirect to {location} not followed)"),
        None => String::new(),
    }
}

/// Which rule of a JSON-RPC 2.0 reply a body broke. A reply is accepted only if it is a JSON
/// object with `"jsonrpc": "2.0"`, the id the request had, and exactly one of `result` and
/// `error`; the rules are checked in the order of the variants.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplyProblem {
    /// The body is not JSON.
    #[error("the body is not JSON: {reason}")]
    NotJson {
        /// What the parser said.
        reason: String,
    },
    /// The body is JSON but not an object (e.g. a batch reply, an array).
    #[error("the body is {found}, not an object")]
    NotAnObject {
        /// What it is instead: `an array`, `a string`, `a number`, `a boolean` or `null`.
        found: &'static str,
    },
    /// A member of the envelope appears twice.
    #[error("the member `{name}` appears more than once")]
    DuplicateMember {
        /// The member: `jsonrpc`, `result`, `error` or `id`.
        name: &'static str,
    },
    /// There is no `jsonrpc` member.
    #[error("`jsonrpc` is missing (it must be \"2.0\")")]
    MissingVersion,
    /// `jsonrpc` is not `"2.0"`.
    #[error("`jsonrpc` is {found}, not \"2.0\"")]
    WrongVersion {
        /// The value found, as JSON (cut short).
        found: String,
    },
    /// There is no `id` member.
    #[error("`id` is missing")]
    MissingId,
    /// `id` is `null`, the id of a reply to a request the server could not read (this client
    /// sends only valid requests, each with a numeric id).
    #[error("`id` is null but the request had an id")]
    NullId,
    /// `id` is not the id of the request.
    #[error("the reply is for id {received} but the request had id {sent}")]
    IdMismatch {
        /// The id the request had.
        sent: u64,
        /// The id of the reply, as JSON (cut short).
        received: String,
    },
    /// Both `result` and `error` are present.
    #[error("it has both `result` and `error`")]
    BothResultAndError,
    /// Neither `result` nor `error` is present.
    #[error("it has neither `result` nor `error`")]
    NeitherResultNorError,
    /// `error` is not an error object (`{"code", "message", "data"}`).
    #[error("`error` is not a JSON-RPC error object: {reason}")]
    MalformedError {
        /// What the parser said.
        reason: String,
    },
}

/// At most 200 characters of a body, for error messages.
#[cfg(feature = "client")]
pub(crate) fn snippet(body: &[u8]) -> String {
    // 200 characters take at most 800 bytes: never convert more of a large body.
    let text = String::from_utf8_lossy(&body[..body.len().min(800)]);
    let text = text.trim();
    match text.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// A serde message without serde_json's " at line 1 column 7" suffix.
pub(crate) fn strip_position(message: String) -> String {
    match message.find(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message,
    }
}
