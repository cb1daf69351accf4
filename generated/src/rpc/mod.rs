//! The hand-written runtime the generated code stands on: JSON-RPC envelope and errors, the
//! client over a [`Transport`], the server on axum and [`serve`], its hardened HTTP server,
//! method descriptors and the spec-example test double.

mod catalog;
#[cfg(feature = "client")]
mod client;
#[cfg(any(feature = "client", feature = "server"))]
mod envelope;
mod error;
mod excerpt;
mod path;
#[cfg(feature = "server")]
pub mod server;

pub use catalog::{
    CodecJson, Example, Form, JsonDecodeError, JsonKind, MethodInfo, ParamInfo, PathParam,
    ResultStep, Rule, decode, normalize,
};
#[cfg(feature = "client")]
pub use client::{
    ConfigError, Endpoint, FailureKind, HttpReply, HttpTransport, HttpTransportBuilder, Node,
    ResponseTooLarge, RetryPolicy, Transport, TransportError, TransportFailure, decode_reply,
    paging, parse_retry_after,
};
pub use error::{ClientError, ReplyProblem, RpcError, codes};
pub use excerpt::{EXCERPT_CHARS, MESSAGE_CHARS, excerpt, excerpt_quotes};
#[cfg(feature = "server")]
pub use server::{ServerConfig, SpecExamples, serve};

/// The configuration of [`serve`], now [`ServerConfig`], which holds the routers' limits too.
#[cfg(feature = "server")]
#[deprecated(note = "use `ServerConfig`, which now holds `serve`'s settings too")]
pub type ServeConfig = ServerConfig;

/// What the generated code needs from the runtime and users do not: no part of the API, and
/// free to change. The crate root re-exports it as `__private`.
#[doc(hidden)]
pub mod __private {
    pub use super::catalog::{roundtrip, roundtrip_result};
    #[cfg(feature = "client")]
    pub use super::client::decode_reply;
    pub use super::path::fill_path;
    #[cfg(feature = "server")]
    pub use super::server::{BoxFuture, Dispatch, Params, Reply, SizeHint, reply_sized};
    #[cfg(feature = "client")]
    pub use futures_core::Stream;

    use super::{ClientError, MethodInfo, decode};
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use serde_json::Value;

    /// Decodes JSON params for `method` (for the interfaces' `call_json`); `null` counts as
    /// `{}`.
    pub fn from_json<P: DeserializeOwned>(
        method: &MethodInfo,
        params: Value,
    ) -> Result<P, ClientError> {
        let params = if params.is_null() {
            Value::Object(Default::default())
        } else {
            params
        };
        decode(&params).map_err(|e| ClientError::InvalidParams {
            method: method.name.into(),
            path: e.path,
            message: e.message,
        })
    }

    /// Encodes a typed result as JSON (for the interfaces' `call_json`).
    pub fn to_json<R: Serialize>(
        method: &MethodInfo,
        result: Result<R, ClientError>,
    ) -> Result<Value, ClientError> {
        serde_json::to_value(result?).map_err(|e| ClientError::Decode {
            method: method.name.into(),
            path: ".".into(),
            message: e.to_string(),
        })
    }
}
