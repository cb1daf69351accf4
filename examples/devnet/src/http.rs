//! The node's HTTP gatekeeping around the API: allowed hosts (`--http-allowed-hosts`) and
//! CORS (`--http-allowed-origins`), as the node does them (`api/server/allowed_hosts.go`,
//! rs/cors).

use axum::body::Body;
use axum::http::{HeaderValue, Method, Request, Response, StatusCode, header};
use axum::middleware::Next;
use std::sync::Arc;

/// Who may call.
#[derive(Debug, Clone)]
pub struct Gate {
    /// Host names accepted in the `Host` header, lower-case; `*` accepts every host.
    pub hosts: Vec<String>,
    /// Origins allowed by CORS; `*` allows every origin.
    pub origins: Vec<String>,
}

impl Gate {
    /// Whether a request with this `Host` header may be served. As the node: an empty host
    /// or an IP address is always accepted; a name must be listed (without its port).
    pub fn host_allowed(&self, host: &str) -> bool {
        if self.hosts.iter().any(|h| h == "*") || host.is_empty() {
            return true;
        }
        let name = match host.strip_prefix('[') {
            // [::1]:9650
            Some(rest) => {
                return rest
                    .split(']')
                    .next()
                    .is_some_and(|ip| ip.parse::<std::net::Ipv6Addr>().is_ok());
            }
            None => host.rsplit_once(':').map_or(host, |(h, _)| h),
        };
        name.parse::<std::net::IpAddr>().is_ok()
            || self.hosts.iter().any(|h| h.eq_ignore_ascii_case(name))
    }

    fn origin_allowed(&self, origin: &str) -> bool {
        self.origins
            .iter()
            .any(|o| o == "*" || o.eq_ignore_ascii_case(origin))
    }
}

/// Refuses hosts not allowed (403) and answers CORS preflights; adds the CORS headers to
/// replies to allowed origins.
pub async fn gate(gate: Arc<Gate>, req: Request<Body>, next: Next) -> Response<Body> {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
        .to_string();
    if !gate.host_allowed(&host) {
        let mut r = Response::new(Body::from("invalid host specified\n"));
        *r.status_mut() = StatusCode::FORBIDDEN;
        return r;
    }
    let origin = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .map(str::to_string);
    let allowed = origin
        .as_deref()
        .filter(|o| gate.origin_allowed(o))
        .map(str::to_string);
    if req.method() == Method::OPTIONS
        && req
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD)
    {
        let mut r = Response::new(Body::empty());
        *r.status_mut() = StatusCode::NO_CONTENT;
        if let Some(o) = &allowed {
            let h = r.headers_mut();
            cors_origin(h, &gate, o);
            h.insert(
                header::ACCESS_CONTROL_ALLOW_METHODS,
                HeaderValue::from_static("GET, POST, OPTIONS"),
            );
            if let Some(asked) = req.headers().get(header::ACCESS_CONTROL_REQUEST_HEADERS) {
                h.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, asked.clone());
            }
        }
        return r;
    }
    let mut r = next.run(req).await;
    if let Some(o) = &allowed {
        cors_origin(r.headers_mut(), &gate, o);
    }
    r
}

fn cors_origin(h: &mut axum::http::HeaderMap, gate: &Gate, origin: &str) {
    let value = if gate.origins.iter().any(|o| o == "*") {
        HeaderValue::from_static("*")
    } else {
        match HeaderValue::from_str(origin) {
            Ok(v) => v,
            Err(_) => return,
        }
    };
    h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, value);
    h.insert(header::VARY, HeaderValue::from_static("Origin"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_as_the_node_checks_them() {
        let g = Gate {
            hosts: vec!["localhost".into()],
            origins: vec!["*".into()],
        };
        assert!(g.host_allowed("localhost:9650"));
        assert!(g.host_allowed("LOCALHOST"));
        assert!(g.host_allowed("127.0.0.1:9650"));
        assert!(g.host_allowed("[::1]:9650"));
        assert!(g.host_allowed(""));
        assert!(!g.host_allowed("evil.example:9650"));
        assert!(!g.host_allowed("localhost.evil.example"));
    }
}
