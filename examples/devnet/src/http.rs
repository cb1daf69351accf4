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
    /// or an IP address is always accepted; a name must be listed (without its port, in any
    /// letter case). The header must be a host: an IPv6 address in brackets, or a name or an
    /// IPv4 address, followed by nothing or by `:` and 1 to 5 digits; anything else
    /// (`[::1]evil.example`, `localhost:`, `[::1`) is refused unless `*` is listed. (The node
    /// splits with Go's `net.SplitHostPort`, which also takes an empty port.)
    pub fn host_allowed(&self, host: &str) -> bool {
        if self.hosts.iter().any(|h| h == "*") || host.is_empty() {
            return true;
        }
        // An IPv6 address without brackets is still an address, as the node reads it.
        if host.parse::<std::net::IpAddr>().is_ok() {
            return true;
        }
        let Some(name) = host_name(host) else {
            return false;
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

/// The host of a `Host` header, without its port (and an IPv6 address without its brackets):
/// `None` unless the header is an IPv6 address in brackets, or anything without `:`, `[` or
/// `]`, followed by nothing or by `:` and 1 to 5 digits.
fn host_name(host: &str) -> Option<&str> {
    let (name, port) = match host.strip_prefix('[') {
        Some(rest) => {
            let (ip, after) = rest.split_once(']')?;
            ip.parse::<std::net::Ipv6Addr>().ok()?;
            let port = match after {
                "" => None,
                _ => Some(after.strip_prefix(':')?),
            };
            (ip, port)
        }
        None => match host.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        },
    };
    let port_ok =
        port.is_none_or(|p| (1..=5).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()));
    let name_ok = !name.is_empty() && (host.starts_with('[') || !name.contains(['[', ']']));
    (port_ok && name_ok).then_some(name)
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

/// A request's path as the logs show it: at most 100 characters, control characters escaped.
pub fn shown(path: &str) -> String {
    let mut out: String = path
        .chars()
        .take(100)
        .flat_map(char::escape_default)
        .collect();
    if path.chars().count() > 100 {
        out.push('…');
    }
    out
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
        for (host, allowed) in [
            ("localhost", true),
            ("localhost:9650", true),
            ("LOCALHOST", true),
            ("LOCALHOST:9650", true),
            ("127.0.0.1", true),
            ("127.0.0.1:9650", true),
            ("10.0.0.7:1", true),
            ("[::1]", true),
            ("[::1]:9650", true),
            ("[2001:db8::7]:65535", true),
            // A bare IPv6 address is an address, as the node reads it.
            ("::1", true),
            ("", true),
            ("evil.example", false),
            ("evil.example:9650", false),
            ("localhost.evil.example", false),
            // Not a host: trailing text, an empty or non-digit or over-long port, a bracket
            // without its pair, or something other than an IPv6 address in brackets.
            ("[::1]evil.example", false),
            ("[::1].evil.example:9650", false),
            ("[::1]:", false),
            ("[::1]:abc", false),
            ("[::1]:123456", false),
            ("[::1]:9650:1", false),
            ("[::1", false),
            ("::1]", false),
            ("[localhost]", false),
            ("[127.0.0.1]", false),
            ("[]", false),
            ("localhost:", false),
            ("localhost:+1", false),
            ("localhost:9650x", false),
            ("localhost:96:50", false),
            ("localhost]", false),
            (":9650", false),
        ] {
            assert_eq!(g.host_allowed(host), allowed, "{host:?}");
        }
        // `*` lets anything through, hosts that are not hosts too.
        let any = Gate {
            hosts: vec!["*".into()],
            origins: vec![],
        };
        for host in ["evil.example", "[::1]evil.example", "localhost:"] {
            assert!(any.host_allowed(host), "{host:?}");
        }
    }
}
