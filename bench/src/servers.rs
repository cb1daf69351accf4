//! The four servers, each run as its own process (`avalanche-rpc-bench serve VARIANT`) on a
//! single-threaded tokio runtime, so that pinning the process pins the server to one core.
//!
//! All four answer `info.getNetworkID` (small reply) and `platform.getCurrentValidators`
//! (large reply; the second large reply, all signers, when the params' `subnetID` is
//! [`Fixtures::all_signers_subnet`]) with the same result bytes; the typed ones clone their
//! prebuilt result for every request, as the generated trait (which returns an owned result)
//! requires. All set TCP_NODELAY on their connections.

use std::convert::Infallible;
use std::io::Write;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::serve::ListenerExt;
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use avalanche_rpc::info::{self, GetNetworkIdParams, GetNetworkIdResult, InfoServer};
use avalanche_rpc::platform::{
    self, GetCurrentValidatorsParams, GetCurrentValidatorsResult, PlatformServer,
};
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::wire::Id;

use crate::data::Fixtures;
use crate::hand;

/// The server variants, in the order each repetition runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Generated,
    Bare,
    Hand,
    Jsonrpsee,
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::Generated,
        Variant::Bare,
        Variant::Hand,
        Variant::Jsonrpsee,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Generated => "generated",
            Variant::Bare => "bare",
            Variant::Hand => "hand",
            Variant::Jsonrpsee => "jsonrpsee",
        }
    }

    /// How the tables name it.
    pub fn label(self) -> &'static str {
        match self {
            Variant::Generated => "avalanche-rpc",
            Variant::Bare => "bare axum, pre-serialized bytes",
            Variant::Hand => "axum + hand-written serde structs",
            Variant::Jsonrpsee => "jsonrpsee HTTP server + hand-written structs",
        }
    }

    pub fn parse(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }
}

pub const SMALL_PATH: &str = "/ext/info";
pub const LARGE_PATH: &str = "/ext/bc/P";
pub const SMALL_METHOD: &str = "info.getNetworkID";
pub const LARGE_METHOD: &str = "platform.getCurrentValidators";

/// The params that ask for the second large reply (all signers).
pub fn all_signers_params(f: &Fixtures) -> String {
    format!(r#"{{"subnetID":"{}"}}"#, f.all_signers_subnet)
}

/// Runs `variant` on 127.0.0.1 (an ephemeral port, printed as `listening PORT` on stdout)
/// until stdin closes, i.e. until the process that started it goes away.
pub fn serve(variant: Variant) -> Result<(), String> {
    let fixtures = Fixtures::build();
    fixtures.check()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the tokio runtime: {e}"))?;
    std::thread::spawn(|| {
        let mut sink = Vec::new();
        let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut sink);
        std::process::exit(0);
    });
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
        let port = listener
            .local_addr()
            .map_err(|e| format!("no local address: {e}"))?
            .port();
        let router = match variant {
            Variant::Generated => Some(generated_router(&fixtures)),
            Variant::Bare => Some(bare_router(&fixtures)),
            Variant::Hand => Some(hand_router(&fixtures)),
            Variant::Jsonrpsee => None,
        };
        match router {
            Some(router) => {
                announce(port)?;
                // TCP_NODELAY, as jsonrpsee sets by default: without it a reply's last
                // segment can wait for a delayed ACK.
                let listener = listener.tap_io(|tcp| {
                    let _ = tcp.set_nodelay(true);
                });
                axum::serve(listener, router)
                    .await
                    .map_err(|e| format!("server failed: {e}"))
            }
            None => run_jsonrpsee(listener, &fixtures).await,
        }
    })
}

fn announce(port: u16) -> Result<(), String> {
    let mut out = std::io::stdout();
    writeln!(out, "listening {port}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to stdout: {e}"))
}

const JSON: &str = "application/json; charset=utf-8";

// --- the project's generated server ---------------------------------------------------

#[derive(Clone)]
struct Generated {
    network_id: GetNetworkIdResult,
    validators: Arc<GetCurrentValidatorsResult>,
    all_signers: Arc<GetCurrentValidatorsResult>,
    all_signers_subnet: Id,
}

impl InfoServer for Generated {
    async fn get_network_id(
        &self,
        _params: GetNetworkIdParams,
    ) -> Result<GetNetworkIdResult, RpcError> {
        Ok(self.network_id.clone())
    }
}

impl PlatformServer for Generated {
    async fn get_current_validators(
        &self,
        params: GetCurrentValidatorsParams,
    ) -> Result<GetCurrentValidatorsResult, RpcError> {
        if params.subnet_id == Some(self.all_signers_subnet) {
            Ok((*self.all_signers).clone())
        } else {
            Ok((*self.validators).clone())
        }
    }
}

fn generated_router(f: &Fixtures) -> Router {
    // As `rpc::serve` does by default; this server runs on `axum::serve`, as the others do.
    avalanche_rpc::wire::enable_text_cache(avalanche_rpc::wire::TEXT_CACHE_ENTRIES);
    let server = Generated {
        network_id: f.network_id.clone(),
        validators: Arc::new(f.validators.clone()),
        all_signers: Arc::new(f.validators_all_signers.clone()),
        all_signers_subnet: f.all_signers_subnet,
    };
    info::router(server.clone()).merge(platform::router(server))
}

// --- bare axum: the reply bytes made once, the request's id spliced in ------------------

struct Prebuilt {
    /// `{"jsonrpc":"2.0","result":…,"id":`
    head: Bytes,
    /// The head sent instead when the request's body holds these bytes (the second large
    /// reply's subnet ID).
    alternate: Option<(Vec<u8>, Bytes)>,
}

fn bare_router(f: &Fixtures) -> Router {
    let head = |json: String| -> Bytes {
        format!("{{\"jsonrpc\":\"2.0\",\"result\":{json},\"id\":").into()
    };
    let small = Arc::new(Prebuilt {
        head: head(f.small_json()),
        alternate: None,
    });
    let large = Arc::new(Prebuilt {
        head: head(f.large_json()),
        alternate: Some((
            f.all_signers_subnet.to_string().into_bytes(),
            head(f.large_all_signers_json()),
        )),
    });
    Router::new()
        .route(SMALL_PATH, post(bare_handler).with_state(small))
        .route(LARGE_PATH, post(bare_handler).with_state(large))
}

async fn bare_handler(State(pre): State<Arc<Prebuilt>>, body: Bytes) -> Response {
    let head = match &pre.alternate {
        Some((needle, alternate)) if body.windows(needle.len()).any(|w| w == &needle[..]) => {
            alternate.clone()
        }
        _ => pre.head.clone(),
    };
    let mut tail = Vec::with_capacity(24);
    tail.extend_from_slice(raw_id(&body));
    tail.extend_from_slice(b"}\n");
    let mut response = Response::new(axum::body::Body::new(TwoParts(
        Some(head),
        Some(tail.into()),
    )));
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(JSON));
    response
}

/// The raw text of the request's `id` (compact JSON as clients send it), or `null`.
fn raw_id(body: &[u8]) -> &[u8] {
    let key = b"\"id\":";
    let Some(at) = body.windows(key.len()).position(|w| w == key) else {
        return b"null";
    };
    let rest = &body[at + key.len()..];
    let end = rest
        .iter()
        .position(|&b| b == b',' || b == b'}')
        .unwrap_or(rest.len());
    let id = rest[..end].trim_ascii();
    if id.is_empty() { b"null" } else { id }
}

/// A body of two frames with an exact size, so hyper writes a Content-Length.
struct TwoParts(Option<Bytes>, Option<Bytes>);

impl http_body::Body for TwoParts {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        let next = self.0.take().or_else(|| self.1.take());
        Poll::Ready(next.map(|b| Ok(http_body::Frame::data(b))))
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_none() && self.1.is_none()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        let len = self.0.as_ref().map_or(0, Bytes::len) + self.1.as_ref().map_or(0, Bytes::len);
        http_body::SizeHint::with_exact(len as u64)
    }
}

// --- axum with hand-written serde structs ------------------------------------------------

struct HandData {
    network_id: hand::NetworkId,
    validators: hand::Validators,
    all_signers: hand::ValidatorsFull,
    all_signers_subnet: String,
}

impl HandData {
    fn new(f: &Fixtures) -> HandData {
        HandData {
            network_id: f.hand_network_id.clone(),
            validators: f.hand_validators.clone(),
            all_signers: f.hand_validators_all_signers.clone(),
            all_signers_subnet: f.all_signers_subnet.to_string(),
        }
    }

    /// Whether `params` ask for the second large reply.
    fn wants_all_signers(&self, params: &hand::ValidatorsParams) -> bool {
        params.subnet_id.as_deref() == Some(self.all_signers_subnet.as_str())
    }
}

/// Either large reply, as the jsonrpsee method returns it.
#[derive(Clone, Serialize)]
#[serde(untagged)]
enum LargeReply {
    Mixed(hand::Validators),
    AllSigners(hand::ValidatorsFull),
}

#[derive(Deserialize)]
struct HandRequest<'a> {
    #[serde(borrow)]
    jsonrpc: &'a str,
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: &'a str,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
}

#[derive(Serialize)]
struct HandResponse<'a, T> {
    jsonrpc: &'static str,
    result: T,
    id: &'a RawValue,
}

#[derive(Serialize)]
struct HandError<'a> {
    jsonrpc: &'static str,
    error: ErrorBody<'a>,
    id: &'a RawValue,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    code: i32,
    message: &'a str,
}

fn hand_router(f: &Fixtures) -> Router {
    let data = Arc::new(HandData::new(f));
    Router::new()
        .route(SMALL_PATH, post(hand_handler))
        .route(LARGE_PATH, post(hand_handler))
        .with_state(data)
}

async fn hand_handler(State(data): State<Arc<HandData>>, body: Bytes) -> Response {
    let null = RawValue::NULL;
    let text = match serde_json::from_slice::<HandRequest>(&body) {
        Err(e) => hand_error(null, -32700, &e.to_string()),
        Ok(req) if req.jsonrpc != "2.0" => hand_error(null, -32600, "jsonrpc must be 2.0"),
        Ok(req) => {
            let id = req.id.unwrap_or(null);
            match req.method {
                SMALL_METHOD => hand_reply(id, data.network_id.clone()),
                LARGE_METHOD => {
                    let params = req.params.map_or("{}", RawValue::get);
                    match serde_json::from_str::<hand::ValidatorsParams>(params) {
                        Ok(p) if data.wants_all_signers(&p) => {
                            hand_reply(id, data.all_signers.clone())
                        }
                        Ok(_) => hand_reply(id, data.validators.clone()),
                        Err(e) => hand_error(id, -32602, &e.to_string()),
                    }
                }
                other => hand_error(id, -32601, &format!("no method {other}")),
            }
        }
    };
    ([(header::CONTENT_TYPE, JSON)], text).into_response()
}

fn hand_reply<T: Serialize>(id: &RawValue, result: T) -> Vec<u8> {
    let response = HandResponse {
        jsonrpc: "2.0",
        result,
        id,
    };
    match serde_json::to_vec(&response) {
        Ok(mut v) => {
            v.push(b'\n');
            v
        }
        Err(e) => hand_error(id, -32603, &e.to_string()),
    }
}

fn hand_error(id: &RawValue, code: i32, message: &str) -> Vec<u8> {
    let response = HandError {
        jsonrpc: "2.0",
        error: ErrorBody { code, message },
        id,
    };
    let mut v = serde_json::to_vec(&response).unwrap_or_default();
    v.push(b'\n');
    v
}

// --- jsonrpsee -----------------------------------------------------------------------------

async fn run_jsonrpsee(listener: tokio::net::TcpListener, f: &Fixtures) -> Result<(), String> {
    use jsonrpsee::RpcModule;
    use jsonrpsee::server::{Server, ServerConfig};
    use jsonrpsee::types::ErrorObjectOwned;

    let data = HandData::new(f);
    let mut module = RpcModule::new(data);
    module
        .register_method(SMALL_METHOD, |_params, data, _ext| {
            Ok::<_, ErrorObjectOwned>(data.network_id.clone())
        })
        .map_err(|e| e.to_string())?;
    module
        .register_method(LARGE_METHOD, |params, data, _ext| {
            let p: hand::ValidatorsParams = params.parse()?;
            Ok::<_, ErrorObjectOwned>(if data.wants_all_signers(&p) {
                LargeReply::AllSigners(data.all_signers.clone())
            } else {
                LargeReply::Mixed(data.validators.clone())
            })
        })
        .map_err(|e| e.to_string())?;
    let config = ServerConfig::builder()
        .http_only()
        .max_response_body_size(64 << 20)
        .build();
    let listener = listener
        .into_std()
        .map_err(|e| format!("cannot hand the socket to jsonrpsee: {e}"))?;
    let server = Server::builder()
        .set_config(config)
        .build_from_tcp(listener)
        .map_err(|e| format!("jsonrpsee cannot listen: {e}"))?;
    let port = server
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?
        .port();
    let handle = server.start(module);
    announce(port)?;
    handle.stopped().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn raw_id() {
        assert_eq!(
            super::raw_id(br#"{"jsonrpc":"2.0","id":17,"method":"m"}"#),
            b"17"
        );
        assert_eq!(super::raw_id(br#"{"method":"m","id":"a"}"#), br#""a""#);
        assert_eq!(super::raw_id(br#"{"method":"m"}"#), b"null");
    }
}
