//! The client side: a transport moves bytes, an [`Endpoint`] speaks JSON-RPC over it.

use super::catalog::{MethodInfo, normalize};
use super::error::{ClientError, RpcError, snippet, strip_position};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// What a transport got back: the HTTP status and the body.
#[derive(Debug, Clone)]
pub struct HttpReply {
    /// HTTP status code.
    pub status: u16,
    /// Response body.
    pub body: bytes::Bytes,
}

/// Error of a transport.
pub type TransportError = Box<dyn std::error::Error + Send + Sync>;

/// Moves one request body to a path of a node and brings back the reply. Everything about
/// JSON-RPC (ids, envelopes, errors) is the [`Endpoint`]'s, so a transport stays small: the
/// bundled [`HttpTransport`], or your own (in-process, recorded, with retries or auth).
pub trait Transport: Send + Sync {
    /// POSTs `body` (JSON) to `path` (e.g. `/ext/info`).
    fn post(
        &self,
        path: &str,
        body: Vec<u8>,
    ) -> impl Future<Output = Result<HttpReply, TransportError>> + Send;
}

/// A base URL plus a `reqwest::Client` (yours, or one with a 30 s timeout).
#[derive(Clone, Debug)]
pub struct HttpTransport {
    client: reqwest::Client,
    base: Arc<str>,
}

/// A transport could not be built.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(String);

impl HttpTransport {
    /// A transport to `base_url` (e.g. `http://127.0.0.1:9650`) with its own client.
    pub fn new(base_url: &str) -> Result<Self, ConfigError> {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| ConfigError(format!("cannot build the HTTP client: {e}")))?;
        Self::with_client(base_url, client)
    }

    /// A transport to `base_url` over your own client (timeouts, proxies, TLS, pooling).
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
        })
    }

    /// The base URL, without a trailing `/`.
    pub fn base_url(&self) -> &str {
        &self.base
    }
}

impl Transport for HttpTransport {
    fn post(
        &self,
        path: &str,
        body: Vec<u8>,
    ) -> impl Future<Output = Result<HttpReply, TransportError>> + Send {
        let request = self
            .client
            .post(format!("{}{path}", self.base))
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body);
        async move {
            let response = request.send().await?;
            let status = response.status().as_u16();
            let body = response.bytes().await?;
            Ok(HttpReply { status, body })
        }
    }
}

/// A node: a transport shared by one accessor per interface (`node.info()`,
/// `node.avm("X")`, `node.index("X", "block")`, …), generated from the spec.
#[derive(Clone, Debug)]
pub struct Node<T = HttpTransport> {
    transport: T,
}

impl Node<HttpTransport> {
    /// A node at `base_url` over HTTP, e.g. `Node::http("http://127.0.0.1:9650")`.
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

/// One interface of one node: a transport and a path. Numbers its requests 1, 2, 3, …
#[derive(Debug)]
pub struct Endpoint<T> {
    transport: T,
    path: String,
    next_id: AtomicU64,
}

impl<T: Clone> Clone for Endpoint<T> {
    fn clone(&self) -> Self {
        Self::new(self.transport.clone(), self.path.clone())
    }
}

#[derive(Serialize)]
struct Request<'a, P> {
    jsonrpc: &'static str,
    id: u64,
    method: &'a str,
    params: &'a P,
}

#[derive(Deserialize)]
struct Response<'a> {
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
    #[serde(default)]
    error: Option<RpcError>,
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
}

impl<T> Endpoint<T> {
    /// An endpoint at `path` (already filled, e.g. `/ext/bc/X`).
    pub fn new(transport: T, path: String) -> Self {
        Self {
            transport,
            path,
            next_id: AtomicU64::new(1),
        }
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
    /// The params are encoded before the future is returned, so it holds only `&self`.
    pub fn call<P: Serialize, R: DeserializeOwned>(
        &self,
        method: &'static MethodInfo,
        params: P,
    ) -> impl Future<Output = Result<R, ClientError>> + Send + '_ {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let request = Request {
            jsonrpc: "2.0",
            id,
            method: method.name,
            params: &params,
        };
        let body = serde_json::to_vec(&request).map_err(|e| ClientError::InvalidParams {
            method: method.name.into(),
            path: ".".into(),
            message: e.to_string(),
        });
        async move {
            let reply = self
                .transport
                .post(&self.path, body?)
                .await
                .map_err(|source| ClientError::Transport {
                    method: method.name.into(),
                    source,
                })?;
            decode_reply(method, id, &reply)
        }
    }
}

/// Turns an HTTP reply into the method's result or the error it carries.
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
            body: snippet(&reply.body),
        });
    }
    let invalid = |reason: String| ClientError::InvalidResponse {
        method: name(),
        status: reply.status,
        reason,
        body: snippet(&reply.body),
    };
    let response: Response =
        serde_json::from_slice(&reply.body).map_err(|e| invalid(strip_position(e.to_string())))?;
    if let Some(got) = response.id
        && got.get() != id.to_string()
        && got.get() != "null"
    {
        return Err(invalid(format!(
            "the reply is for id {} but the request had id {id}",
            got.get()
        )));
    }
    if let Some(error) = response.error {
        return Err(ClientError::Rpc {
            method: name(),
            error: Box::new(error),
        });
    }
    let raw = response
        .result
        .ok_or_else(|| invalid("it has neither `result` nor `error`".into()))?;
    let decoded = if method.rules.is_empty() {
        serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(raw.get()))
    } else {
        let mut value: serde_json::Value =
            serde_json::from_str(raw.get()).map_err(|e| invalid(strip_position(e.to_string())))?;
        normalize(&mut value, method.rules);
        serde_path_to_error::deserialize(value)
    };
    decoded.map_err(|e| ClientError::Decode {
        method: name(),
        path: e.path().to_string(),
        message: strip_position(e.inner().to_string()),
    })
}
