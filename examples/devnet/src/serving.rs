//! What the devnet serves across its start: `/ext/health` from the first moment (readiness
//! failing until the devnet has started), `/ext/admin` when `--api-admin-enabled`, every
//! other interface once started (HTTP 503 before), the aliases of `admin.alias` and
//! `admin.aliasChain` resolved before routing, each request logged on the `http` logger.

use crate::devnet::Devnet;
use crate::health::Health;
use crate::logs::{Level, Logs};
use axum::body::Body;
use axum::http::{Request, Response, StatusCode, Uri};
use axum::middleware::Next;
use std::sync::{Arc, OnceLock, RwLock};

/// The node-wide state of the served API.
pub struct Serving {
    pub health: Health,
    pub logs: Arc<Logs>,
    /// `Some` when the admin API is on (`--api-admin-enabled`): the devnet's configuration,
    /// as `admin.getConfig` gives it.
    pub admin: Option<serde_json::Value>,
    /// Endpoint aliases of `admin.alias`: `ext/<alias>` serves `ext/<endpoint>` (both
    /// without `/ext/`), in order.
    pub aliases: RwLock<Vec<(String, String)>>,
    /// Every interface but health and admin, once started.
    full: OnceLock<axum::Router>,
}

impl Serving {
    pub fn new(logs: Arc<Logs>, admin: Option<serde_json::Value>) -> Serving {
        Serving {
            health: Health::default(),
            logs,
            admin,
            aliases: RwLock::new(Vec::new()),
            full: OnceLock::new(),
        }
    }

    /// The devnet has started: its interfaces (`full`, every one but health and admin) are
    /// served, readiness passes.
    pub fn started(&self, devnet: Arc<Devnet>, full: axum::Router) {
        let _ = self.full.set(full);
        self.health.started(devnet);
    }

    /// The devnet, once started.
    pub fn devnet(&self) -> Option<&Arc<Devnet>> {
        self.health.devnet()
    }

    /// The path a request for `path` is served at: an endpoint alias (`/ext/<alias>/…` →
    /// `/ext/<endpoint>/…`) or a chain alias (`/ext/bc/<alias>/…` → `/ext/bc/X/…`) resolved,
    /// several times over when an alias names another; `None` when no alias applies.
    pub fn resolve(&self, path: &str) -> Option<String> {
        let mut current = path.to_string();
        let mut changed = false;
        for _ in 0..8 {
            let Some(rest) = current.strip_prefix("/ext/") else {
                break;
            };
            let next = self.endpoint_alias(rest).or_else(|| self.chain_alias(rest));
            match next {
                Some(n) => {
                    current = format!("/ext/{n}");
                    changed = true;
                }
                None => break,
            }
        }
        changed.then_some(current)
    }

    fn endpoint_alias(&self, rest: &str) -> Option<String> {
        let aliases = self.aliases.read().unwrap_or_else(|e| e.into_inner());
        aliases
            .iter()
            .filter_map(|(alias, endpoint)| {
                let tail = rest.strip_prefix(alias.as_str())?;
                (tail.is_empty() || tail.starts_with('/')).then_some((alias.len(), endpoint, tail))
            })
            .max_by_key(|(len, _, _)| *len)
            .map(|(_, endpoint, tail)| format!("{endpoint}{tail}"))
    }

    fn chain_alias(&self, rest: &str) -> Option<String> {
        let devnet = self.devnet()?;
        let after = rest.strip_prefix("bc/")?;
        let (alias, tail) = match after.split_once('/') {
            Some((a, t)) => (a, format!("/{t}")),
            None => (after, String::new()),
        };
        let added = devnet
            .chain_aliases
            .read()
            .unwrap_or_else(|e| e.into_inner());
        let letter = added.iter().find(|(a, _)| a == alias).map(|(_, l)| *l)?;
        Some(format!("bc/{letter}{tail}"))
    }
}

/// The whole HTTP API across the devnet's start, behind the host and CORS checks: `inner`
/// (health, and admin when on) first, then every other interface once started (503 before).
pub fn app(serving: Arc<Serving>, inner: axum::Router, gate: crate::http::Gate) -> axum::Router {
    let s = serving.clone();
    let inner = inner.fallback(move |req: Request<Body>| {
        let s = s.clone();
        async move {
            match s.full.get() {
                Some(full) => {
                    let mut full = full.clone();
                    match tower_service::Service::call(&mut full, req).await {
                        Ok(r) => r,
                        Err(never) => match never {},
                    }
                }
                None => {
                    let mut r = Response::new(Body::from(
                        "the devnet is starting: only /ext/health answers yet\n",
                    ));
                    *r.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
                    r
                }
            }
        }
    });
    let gate = Arc::new(gate);
    axum::Router::new()
        .fallback_service(inner)
        .layer(axum::middleware::from_fn(move |req, next| {
            aliased(serving.clone(), req, next)
        }))
        .layer(axum::middleware::from_fn(move |req, next| {
            crate::http::gate(gate.clone(), req, next)
        }))
}

/// Logs the request on the `http` logger and serves it at the path its aliases resolve to.
async fn aliased(serving: Arc<Serving>, mut req: Request<Body>, next: Next) -> Response<Body> {
    let path = req.uri().path().to_string();
    if serving.logs.enabled("http", Level::Debug) {
        serving.logs.log(
            "http",
            Level::Debug,
            &format!("{} {}", req.method(), crate::http::shown(&path)),
        );
    }
    if let Some(to) = serving.resolve(&path) {
        let mut parts = req.uri().clone().into_parts();
        let query = req
            .uri()
            .query()
            .map(|q| format!("?{q}"))
            .unwrap_or_default();
        match format!("{to}{query}").parse() {
            Ok(pq) => {
                parts.path_and_query = Some(pq);
                if let Ok(uri) = Uri::from_parts(parts) {
                    *req.uri_mut() = uri;
                }
            }
            Err(_) => {
                let mut r = Response::new(Body::from("the alias resolves to no valid path\n"));
                *r.status_mut() = StatusCode::NOT_FOUND;
                return r;
            }
        }
    }
    next.run(req).await
}
