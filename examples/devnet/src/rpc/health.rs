//! `health.*` at `/ext/health`, and the plain forms of the three answers as the node routes
//! them (`node/node.go`, initHealthAPI; `api/health/handler.go`, NewGetHandler: `?tag=` per
//! tag, 503 when unhealthy): a GET of `/ext/health` (health), and any request to
//! `/ext/health/readiness`, `/ext/health/health` and `/ext/health/liveness` (the node's
//! handler there answers every HTTP method alike, a POST's body unread).

use crate::health::Set;
use crate::serving::Serving;
use avalanche_rpc::health::*;
use avalanche_rpc::rpc::RpcError;
use axum::body::Body;
use axum::http::{Method, Request, Response, StatusCode, header};
use axum::middleware::Next;
use std::sync::Arc;

pub struct Health(pub Arc<Serving>);

impl HealthServer for Health {
    async fn health(&self, p: HealthParams) -> Result<HealthResult, RpcError> {
        let (checks, healthy) = self
            .0
            .health
            .results(Set::Health, &p.tags.unwrap_or_default());
        Ok(HealthResult::new(checks, healthy))
    }

    async fn readiness(&self, p: ReadinessParams) -> Result<ReadinessResult, RpcError> {
        let (checks, healthy) = self
            .0
            .health
            .results(Set::Readiness, &p.tags.unwrap_or_default());
        Ok(ReadinessResult::new(checks, healthy))
    }

    async fn liveness(&self, p: LivenessParams) -> Result<LivenessResult, RpcError> {
        let (checks, healthy) = self
            .0
            .health
            .results(Set::Liveness, &p.tags.unwrap_or_default());
        Ok(LivenessResult::new(checks, healthy))
    }
}

/// The health interface at its path, with the plain forms.
pub fn router(serving: Arc<Serving>) -> axum::Router {
    let s = serving.clone();
    let mut r = avalanche_rpc::health::router(Health(serving.clone())).layer(
        axum::middleware::from_fn(move |req, next| get(s.clone(), req, next)),
    );
    for (path, set) in [
        ("/ext/health/readiness", Set::Readiness),
        ("/ext/health/health", Set::Health),
        ("/ext/health/liveness", Set::Liveness),
    ] {
        let s = serving.clone();
        r = r.route(
            path,
            axum::routing::any(move |req: Request<Body>| {
                let s = s.clone();
                async move { plain(&s, set, req.uri().query()) }
            }),
        );
    }
    r
}

/// A GET of `/ext/health`: the plain answer. Other methods go on to JSON-RPC.
async fn get(serving: Arc<Serving>, req: Request<Body>, next: Next) -> Response<Body> {
    if req.method() != Method::GET {
        return next.run(req).await;
    }
    plain(&serving, Set::Health, req.uri().query())
}

/// The answer of `set` as plain JSON, 200 when healthy, 503 when not.
fn plain(serving: &Serving, set: Set, query: Option<&str>) -> Response<Body> {
    let tags = tags(query.unwrap_or(""));
    let (checks, healthy) = serving.health.results(set, &tags);
    let body = serde_json::json!({ "checks": checks, "healthy": healthy });
    let mut r = Response::new(Body::from(format!("{body}\n")));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    if !healthy {
        *r.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    }
    r
}

/// Every `tag` of a query string, percent-decoded (`+` is a space), as Go's
/// `URL.Query()["tag"]`: a pair with a bad escape is left out.
fn tags(query: &str) -> Vec<String> {
    query
        .split('&')
        .filter_map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k)? == "tag").then(|| decode(v)).flatten()
        })
        .collect()
}

fn decode(s: &str) -> Option<String> {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let pair = bytes
            .get(i + 1)
            .zip(bytes.get(i + 2))
            .and_then(|(&h, &l)| Some(hex(h)? * 16 + hex(l)?));
        match (bytes[i], pair) {
            (b'+', _) => out.push(b' '),
            (b'%', Some(b)) => {
                out.push(b);
                i += 2;
            }
            (b'%', None) => return None,
            (b, _) => out.push(b),
        }
        i += 1;
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    #[test]
    fn tags_as_go_reads_them() {
        assert_eq!(
            super::tags("tag=a&x=1&tag=b%20c&tag=d+e"),
            ["a", "b c", "d e"]
        );
        assert_eq!(super::tags(""), Vec::<String>::new());
        assert_eq!(super::tags("tag=%zz&tag=%4&tag=ok"), ["ok"]);
    }
}
