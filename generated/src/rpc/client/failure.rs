//! Why an HTTP request got no reply, in words a user can act on: the URL (without the parts
//! that may hold secrets), every cause down to the operating system's, and what to try.

use std::error::Error;
use std::fmt;

/// A request that got no reply (or lost it midway): the URL asked, the causes in order (the
/// client's, then the connection's, then the operating system's), and a hint when the cause
/// says what to try.
///
/// The URL is written without its user, password and query (where credentials and API keys
/// travel); the reqwest error it came from is its [`source`](Error::source), without the URL.
#[derive(Debug)]
pub struct TransportFailure {
    url: String,
    causes: Vec<String>,
    hint: Option<String>,
    kind: FailureKind,
    error: reqwest::Error,
}

/// What kind of failure it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailureKind {
    /// Nothing accepted the connection (no node listening on that port).
    Refused,
    /// The host name did not resolve.
    Dns,
    /// No reply within the timeout.
    Timeout,
    /// The TLS handshake failed (an `https` URL to a plain HTTP port, a bad certificate).
    Tls,
    /// The connection broke after it was made (reset, closed early).
    Broken,
    /// Anything else.
    Other,
}

impl TransportFailure {
    /// The failure of a request to `url`.
    pub fn new(url: &str, error: reqwest::Error) -> TransportFailure {
        let error = error.without_url();
        let mut causes: Vec<String> = Vec::new();
        let mut io_kind = None;
        let mut source = error.source();
        while let Some(e) = source {
            if let Some(io) = e.downcast_ref::<std::io::Error>() {
                io_kind = Some(io.kind());
            }
            let text = e.to_string();
            // Each layer tends to repeat the one below it in parentheses: keep new words only.
            if !text.is_empty()
                && !causes
                    .iter()
                    .any(|c| c.contains(&text) || text.contains(c.as_str()))
            {
                causes.push(text);
            } else if let Some(last) = causes.last_mut()
                && text.len() > last.len()
                && text.contains(last.as_str())
            {
                *last = text;
            }
            source = e.source();
        }
        let chain = causes.join(": ").to_ascii_lowercase();
        let kind = if io_kind == Some(std::io::ErrorKind::ConnectionRefused)
            || chain.contains("connection refused")
        {
            FailureKind::Refused
        } else if error.is_timeout() || io_kind == Some(std::io::ErrorKind::TimedOut) {
            FailureKind::Timeout
        } else if chain.contains("dns error") || chain.contains("failed to lookup address") {
            FailureKind::Dns
        } else if chain.contains("tls")
            || chain.contains("certificate")
            || chain.contains("handshake")
        {
            FailureKind::Tls
        } else if matches!(
            io_kind,
            Some(
                std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionAborted
                    | std::io::ErrorKind::BrokenPipe
                    | std::io::ErrorKind::UnexpectedEof
            )
        ) || error.is_body()
            || error.is_decode()
        {
            FailureKind::Broken
        } else {
            FailureKind::Other
        };
        if causes.is_empty() {
            causes.push(error.to_string());
        }
        let url = shown(url);
        let host = host_of(&url);
        let hint = match kind {
            FailureKind::Refused => Some(format!(
                "nothing is listening at {host}: is the node running, and on this port?"
            )),
            FailureKind::Dns => Some(format!(
                "the host of {host} does not resolve: check its name"
            )),
            FailureKind::Timeout => Some(
                "no reply in time: the node may be busy or the address unreachable from here"
                    .to_string(),
            ),
            FailureKind::Tls => Some(
                "the TLS handshake failed: an `https` URL to a plain HTTP port (a local node \
                 serves `http`), or a certificate this machine does not trust"
                    .to_string(),
            ),
            FailureKind::Broken => {
                Some("the connection broke before the reply was complete: try again".to_string())
            }
            FailureKind::Other => None,
        };
        TransportFailure {
            url,
            causes,
            hint,
            kind,
            error,
        }
    }

    /// The URL asked, without its user, password and query.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// What kind of failure it was.
    pub fn kind(&self) -> FailureKind {
        self.kind
    }

    /// What to try, when the cause says.
    pub fn hint(&self) -> Option<&str> {
        self.hint.as_deref()
    }
}

impl fmt::Display for TransportFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.url, self.causes.join(": "))?;
        if let Some(hint) = &self.hint {
            write!(f, " ({hint})")?;
        }
        Ok(())
    }
}

impl Error for TransportFailure {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&self.error)
    }
}

/// `url` without its user, password, query and fragment.
fn shown(url: &str) -> String {
    let Ok(mut u) = reqwest::Url::parse(url) else {
        // Not a URL (it did not get this far in practice): up to the first `?`, no userinfo.
        let head = url.split(['?', '#']).next().unwrap_or_default();
        return match head.split_once("://") {
            Some((scheme, rest)) => match rest.split_once('@') {
                Some((_, host)) => format!("{scheme}://{host}"),
                None => head.to_string(),
            },
            None => head.to_string(),
        };
    };
    let _ = u.set_username("");
    let _ = u.set_password(None);
    u.set_query(None);
    u.set_fragment(None);
    u.to_string()
}

/// `host:port` of a URL as [`shown`] writes it.
fn host_of(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(u) => match (u.host_str(), u.port_or_known_default()) {
            (Some(h), Some(p)) => format!("{h}:{p}"),
            (Some(h), None) => h.to_string(),
            _ => url.to_string(),
        },
        Err(_) => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_loses_its_credentials() {
        assert_eq!(
            shown("https://user:s3cret@node.example:9650/ext/info?apikey=s3cret#x"),
            "https://node.example:9650/ext/info"
        );
        assert_eq!(shown("not a url?key=1"), "not a url");
        assert_eq!(
            host_of("http://127.0.0.1:29999/ext/info"),
            "127.0.0.1:29999"
        );
        assert_eq!(host_of("https://node.example/ext/info"), "node.example:443");
    }
}
