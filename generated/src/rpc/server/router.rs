//! The axum side: a router serving a [`Dispatch`] at its paths over HTTP POST (method,
//! `Content-Type` and body limit checked here, the rest in [`dispatch`](super::dispatch)).

use super::config::ServerConfig;
use super::dispatch::{Dispatch, error_reply, handle_bytes};
use super::write::buffers;
use crate::rpc::error::RpcError;
use crate::rpc::excerpt::excerpt;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use std::sync::Arc;

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
        r.route(p, any(answer_post).with_state(shared.clone()))
    })
}

/// Answers one HTTP request to a router's path: POST with a JSON body, or an HTTP error.
async fn answer_post(State(shared): State<Arc<Shared>>, request: Request) -> Response {
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
