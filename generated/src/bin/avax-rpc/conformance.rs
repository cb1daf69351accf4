//! `conformance --url URL`: calls every method a node serves that only reads (no `issueTx`),
//! first those that need no argument, then those whose arguments earlier replies supply (an
//! ID, a height, an address of the same name), and checks each reply strictly against the
//! spec's OpenRPC document: members the spec lacks, members it requires that are missing,
//! JSON kinds and patterns that differ, enum values it does not know, methods not served.
//!
//! The node's version (`info.getNodeVersion`, asked first) decides what the node should serve,
//! from the document's `x-since` and `x-removed` (the spec's `since` and `removed`) on methods,
//! params and result members: a method newer than the node is not called, nor a param newer
//! than it sent, and a member newer than it may be missing; a method or param the node's
//! version no longer has is not expected (a method is still called, to see whether it answers),
//! and a method or member that a release before the node's removed but that the node still
//! serves is a `removed-but-served` notice, which fails the check only with `--strict`.

use clap::Args;
use regex::Regex;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

/// The spec's combined OpenRPC document, written by the build script.
const DOCUMENT: &str = include_str!(concat!(env!("OUT_DIR"), "/openrpc.json"));

#[derive(Args)]
pub struct Conformance {
    /// The node's base URL, e.g. `http://127.0.0.1:9650`.
    #[arg(long)]
    url: String,
    /// Print JSON rather than a table.
    #[arg(long)]
    json: bool,
    /// Allow a URL that is not on this machine (the check sends dozens of requests).
    #[arg(long)]
    allow_remote: bool,
    /// Seconds to wait for each reply.
    #[arg(long, default_value_t = 10)]
    timeout: u64,
    /// At most this many calls in all.
    #[arg(long, default_value_t = 400)]
    max_calls: usize,
    /// Count methods and members that the spec says the node's version no longer has, but
    /// that it still serves (`removed-but-served`), as drift (exit 1) rather than notices.
    #[arg(long)]
    strict: bool,
}

/// One difference between what the node sent and what the spec says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drift {
    method: String,
    path: String,
    kind: &'static str,
    detail: String,
}

/// What the node still serves although the spec says its version no longer has it: a notice,
/// or drift with `--strict`.
const REMOVED_BUT_SERVED: &str = "removed-but-served";

/// What the check found.
pub struct Report {
    url: String,
    /// The version the node reported, as `info.getNodeVersion` wrote it.
    node_version: Option<String>,
    calls: usize,
    drift: Vec<Drift>,
    /// Findings that are not drift (`removed-but-served` without `--strict`).
    notices: Vec<Drift>,
    /// Methods not called, and why.
    skipped: Vec<(String, String)>,
}

/// Runs the check; `Err` for a usage or connection problem (exit status 2).
pub fn run(a: Conformance) -> Result<(String, bool), String> {
    let base = a.url.trim_end_matches('/').to_string();
    if !a.allow_remote && !is_loopback(&base) {
        return Err(format!(
            "{base} is not on this machine: pass --allow-remote to check a remote node"
        ));
    }
    let doc: Value =
        serde_json::from_str(DOCUMENT).map_err(|e| format!("the built-in document: {e}"))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let mut report = runtime.block_on(check(&doc, &base, a.timeout, a.max_calls))?;
    if a.strict {
        let notices = std::mem::take(&mut report.notices);
        report.drift.extend(notices);
    }
    let drift = !report.drift.is_empty();
    let text = if a.json {
        as_json(&report)
    } else {
        as_table(&report)
    };
    Ok((text, drift))
}

fn is_loopback(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?']).next().unwrap_or("");
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(h, _)| h),
    };
    host == "localhost"
        || host == "::1"
        || host
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// A method of the document, with what calling it needs.
struct Method<'a> {
    name: &'a str,
    path: String,
    /// The node versions that serve it (`x-since`, `x-removed`).
    versions: Versions<'a>,
    /// Name, whether required, and the node versions that read it.
    params: Vec<(&'a str, bool, Versions<'a>)>,
    /// The spec's first example's arguments: used for a required argument no reply gave
    /// (chain aliases and the like; an example ID the node does not know gets an error, which
    /// is reported as not checked, not as drift).
    example: BTreeMap<&'a str, &'a Value>,
    result: &'a Value,
}

fn methods(doc: &Value) -> Vec<Method<'_>> {
    let mut out = Vec::new();
    for m in doc["methods"].as_array().into_iter().flatten() {
        // This project's devnet serves its own methods; a node does not.
        if m["x-source"] == json!("devnet") {
            continue;
        }
        if m["x-changes-state"] == json!(true) {
            continue;
        }
        let Some(name) = m["name"].as_str() else {
            continue;
        };
        // The path with each variable at its default (`/ext/bc/{chain}` → `/ext/bc/X`).
        let mut path = m["x-path"].as_str().unwrap_or("").to_string();
        if let Some(vars) = m["servers"][0]["variables"].as_object() {
            for (k, v) in vars {
                path = path.replace(&format!("{{{k}}}"), v["default"].as_str().unwrap_or(""));
            }
        }
        let params = m["params"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| {
                Some((
                    p["name"].as_str()?,
                    p["required"] == json!(true),
                    Versions::of(p),
                ))
            })
            .collect();
        let example = m["examples"][0]["params"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| Some((p["name"].as_str()?, &p["value"])))
            .collect();
        out.push(Method {
            name,
            path,
            versions: Versions::of(m),
            params,
            example,
            result: &m["result"]["schema"],
        });
    }
    out
}

async fn check(doc: &Value, base: &str, timeout: u64, max_calls: usize) -> Result<Report, String> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(timeout))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let mut report = Report {
        url: base.to_string(),
        node_version: None,
        calls: 0,
        drift: Vec::new(),
        notices: Vec::new(),
        skipped: Vec::new(),
    };
    let methods = methods(doc);
    // Values earlier replies gave, by member name.
    let mut harvest: BTreeMap<String, Value> = BTreeMap::new();
    let mut done: Vec<&str> = Vec::new();
    let mut node_version: Option<Version> = None;
    // The node's version first: what it serves follows from it.
    let order: Vec<&Method> = {
        let mut v: Vec<&Method> = methods.iter().collect();
        v.sort_by_key(|m| m.name != "info.getNodeVersion");
        v
    };
    for round in 0..3 {
        for m in &order {
            if done.contains(&m.name) || report.calls >= max_calls {
                continue;
            }
            // A method newer than the node: the node never had it.
            if let Some(since) = m.versions.not_yet(node_version) {
                done.push(m.name);
                report.skipped.push((
                    m.name.to_string(),
                    format!("served since {since}, after the node's version"),
                ));
                continue;
            }
            // A method the node's version no longer has: called all the same, to see whether
            // the node still serves it.
            let gone = m.versions.gone(node_version);
            let mut params = Map::new();
            let mut missing = None;
            for (name, required, versions) in &m.params {
                // A param the node does not read is not sent.
                if !required || !versions.served(node_version) {
                    continue;
                }
                match harvest.get(*name) {
                    Some(v) => {
                        params.insert((*name).to_string(), v.clone());
                    }
                    None => missing = Some(*name),
                }
            }
            // Replies first; in the last round, the spec's example for what none gave.
            if missing.is_some() && round == 2 {
                missing = None;
                for (name, required, versions) in &m.params {
                    if *required && versions.served(node_version) && !params.contains_key(*name) {
                        match m.example.get(name) {
                            Some(v) => {
                                params.insert((*name).to_string(), (*v).clone());
                            }
                            None => missing = Some(*name),
                        }
                    }
                }
            }
            if missing.is_some() {
                continue;
            }
            done.push(m.name);
            report.calls += 1;
            let body =
                json!({"jsonrpc": "2.0", "id": report.calls, "method": m.name, "params": params});
            let reply = client
                .post(format!("{base}{}", m.path))
                .header("content-type", "application/json")
                .body(body.to_string())
                .send()
                .await
                .map_err(|e| format!("cannot reach {base}{}: {e}", m.path))?;
            let status = reply.status();
            let text = reply
                .bytes()
                .await
                .map_err(|e| format!("reading the reply of {}: {e}", m.name))?;
            let reply: Value = match serde_json::from_slice(&text) {
                Ok(v) => v,
                Err(_) if status == reqwest::StatusCode::NOT_FOUND => {
                    if let Some(removed) = gone {
                        report
                            .skipped
                            .push((m.name.to_string(), not_served_as_expected(removed)));
                        continue;
                    }
                    drift(
                        &mut report,
                        m.name,
                        "",
                        "method-not-served",
                        format!("HTTP 404 at {}", m.path),
                    );
                    continue;
                }
                Err(e) => {
                    drift(
                        &mut report,
                        m.name,
                        "",
                        "not-json-rpc",
                        format!("HTTP {status}: {e}"),
                    );
                    continue;
                }
            };
            if let Some(err) = reply.get("error") {
                let code = err["code"].as_i64().unwrap_or(0);
                let message = err["message"].as_str().unwrap_or("");
                if code == -32601
                    || message.contains("can't find method")
                    || message.contains("method not found")
                {
                    if let Some(removed) = gone {
                        report
                            .skipped
                            .push((m.name.to_string(), not_served_as_expected(removed)));
                        continue;
                    }
                    drift(
                        &mut report,
                        m.name,
                        "",
                        "method-not-served",
                        format!("{code}: {message}"),
                    );
                } else {
                    report.skipped.push((
                        m.name.to_string(),
                        format!("the node answered {code}: {message}"),
                    ));
                }
                continue;
            }
            let Some(result) = reply.get("result") else {
                drift(
                    &mut report,
                    m.name,
                    "",
                    "not-json-rpc",
                    "neither result nor error".into(),
                );
                continue;
            };
            if m.name == "info.getNodeVersion" {
                report.node_version = result["version"].as_str().map(str::to_string);
                node_version = result["version"].as_str().and_then(version_of);
            }
            let mut found = Vec::new();
            if let Some(removed) = gone {
                found.push((
                    String::new(),
                    REMOVED_BUT_SERVED,
                    format!("removed in {removed}, yet the node answers"),
                ));
            }
            validate(doc, result, m.result, "", node_version, &mut found);
            for (path, kind, detail) in found {
                drift(&mut report, m.name, &path, kind, detail);
            }
            collect(result, &mut harvest);
        }
    }
    for m in &methods {
        if !done.contains(&m.name) {
            let needs: Vec<&str> = m
                .params
                .iter()
                .filter(|(_, r, v)| *r && v.served(node_version))
                .map(|(n, _, _)| *n)
                .collect();
            report.skipped.push((
                m.name.to_string(),
                format!("no reply gave {}", needs.join(", ")),
            ));
        }
    }
    Ok(report)
}

fn not_served_as_expected(removed: &str) -> String {
    format!("not served, as expected: removed in {removed}, at or before the node's version")
}

fn drift(r: &mut Report, method: &str, path: &str, kind: &'static str, detail: String) {
    let list = if kind == REMOVED_BUT_SERVED {
        &mut r.notices
    } else {
        &mut r.drift
    };
    list.push(Drift {
        method: method.to_string(),
        path: if path.is_empty() {
            "(reply)".into()
        } else {
            path.to_string()
        },
        kind,
        detail,
    });
}

/// A node version: (major, minor, patch).
type Version = (u32, u32, u32);

/// Which node versions have a method, param or member: the document's `x-since` (the first
/// that has it) and `x-removed` (the first that no longer has it).
#[derive(Clone, Copy)]
struct Versions<'a> {
    since: Option<&'a str>,
    removed: Option<&'a str>,
}

impl<'a> Versions<'a> {
    fn of(v: &'a Value) -> Self {
        Versions {
            since: v["x-since"].as_str(),
            removed: v["x-removed"].as_str(),
        }
    }

    /// `since`, when it is newer than the node: the node never had it.
    fn not_yet(&self, node: Option<Version>) -> Option<&'a str> {
        self.since
            .filter(|s| matches!((version_of(s), node), (Some(s), Some(n)) if s > n))
    }

    /// `removed`, when the node's version is that or newer: the node no longer has it.
    fn gone(&self, node: Option<Version>) -> Option<&'a str> {
        self.removed
            .filter(|r| matches!((version_of(r), node), (Some(r), Some(n)) if r <= n))
    }

    /// The node's version has it (or the node's version is unknown).
    fn served(&self, node: Option<Version>) -> bool {
        self.not_yet(node).is_none() && self.gone(node).is_none()
    }
}

/// `avalanchego/1.14.2` (`avalanche/1.10.0` before v1.10.18), `v1.14.2` → (1, 14, 2).
fn version_of(text: &str) -> Option<Version> {
    let v = text.rsplit('/').next()?.trim_start_matches('v');
    let mut parts = v.split(['.', '-']).map(|p| p.parse::<u32>().ok());
    Some((parts.next()??, parts.next()??, parts.next()??))
}

/// Remembers every scalar and list member of a reply by name, for later calls' arguments.
fn collect(v: &Value, out: &mut BTreeMap<String, Value>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(_) | Value::Number(_) => {
                        out.entry(k.clone()).or_insert_with(|| x.clone());
                    }
                    Value::Array(items)
                        if items.iter().all(|i| i.is_string()) && !items.is_empty() =>
                    {
                        out.entry(k.clone()).or_insert_with(|| x.clone());
                    }
                    _ => {}
                }
                collect(x, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect(i, out)),
        _ => {}
    }
}

fn resolve<'a>(doc: &'a Value, s: &'a Value) -> &'a Value {
    match s
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
    {
        Some(name) => resolve(doc, &doc["components"]["schemas"][name]),
        None => s,
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Checks `v` against `schema`, adding (path, kind, detail) for each difference.
fn validate(
    doc: &Value,
    v: &Value,
    schema: &Value,
    path: &str,
    node: Option<Version>,
    out: &mut Vec<(String, &'static str, String)>,
) {
    let s = resolve(doc, schema);
    for part in s["allOf"].as_array().into_iter().flatten() {
        validate(doc, v, part, path, node, out);
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(forms) = s[key].as_array() {
            // A form fits when it finds nothing but notices; its notices stand.
            let fits = forms.iter().find_map(|f| {
                let mut inner = Vec::new();
                validate(doc, v, f, path, node, &mut inner);
                inner
                    .iter()
                    .all(|(_, kind, _)| *kind == REMOVED_BUT_SERVED)
                    .then_some(inner)
            });
            if let Some(notices) = fits {
                out.extend(notices);
            } else {
                // The first form's differences say most.
                let mut first = Vec::new();
                if let Some(f) = forms.first() {
                    validate(doc, v, f, path, node, &mut first);
                }
                out.extend(first);
            }
        }
    }
    if let Some(t) = s.get("type") {
        let have = kind_of(v);
        let ok = |t: &str| t == have || (t == "number" && have == "integer");
        let fits = match t {
            Value::String(t) => ok(t),
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(ok),
            _ => true,
        };
        if !fits {
            out.push((
                path.to_string(),
                "type-mismatch",
                format!("expected {t}, found {have} {}", short(v)),
            ));
            return;
        }
    }
    if let (Some(values), false) = (s["enum"].as_array(), v.is_null())
        && !values.contains(v)
    {
        out.push((
            path.to_string(),
            "unknown-enum-value",
            format!(
                "{} is not one of {}",
                short(v),
                Value::Array(values.clone())
            ),
        ));
    }

    if let (Some(p), Some(text)) = (s["pattern"].as_str(), v.as_str())
        && let Ok(re) = Regex::new(p)
        && !re.is_match(text)
    {
        out.push((
            path.to_string(),
            "pattern-mismatch",
            format!("{} does not match {p}", short(v)),
        ));
    }
    if let (Some(min), Some(n)) = (s["minimum"].as_f64(), v.as_f64())
        && n < min
    {
        out.push((
            path.to_string(),
            "type-mismatch",
            format!("{n} is below {min}"),
        ));
    }
    if let (Some(max), Some(n)) = (s["maximum"].as_f64(), v.as_f64())
        && n > max
    {
        out.push((
            path.to_string(),
            "type-mismatch",
            format!("{n} is above {max}"),
        ));
    }
    if let Some(items) = s.get("items")
        && let Some(list) = v.as_array()
    {
        for (i, x) in list.iter().enumerate() {
            validate(doc, x, items, &format!("{path}[{i}]"), node, out);
        }
    }
    if let Some(m) = v.as_object() {
        let at = |k: &str| {
            if path.is_empty() {
                k.to_string()
            } else {
                format!("{path}.{k}")
            }
        };
        let props = s["properties"].as_object();
        if let Some(props) = props {
            for req in s["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                // What the node's version does not have may be missing.
                let served = props.get(req).is_none_or(|p| Versions::of(p).served(node));
                if !m.contains_key(req) && served {
                    out.push((at(req), "missing-member", "the spec requires it".into()));
                }
            }
            for (k, x) in m {
                match props.get(k) {
                    Some(p) => {
                        if let Some(removed) = Versions::of(p).gone(node) {
                            out.push((
                                at(k),
                                REMOVED_BUT_SERVED,
                                format!("removed in {removed}, yet the node writes it"),
                            ));
                        }
                        validate(doc, x, p, &at(k), node, out)
                    }
                    None => out.push((
                        at(k),
                        "extra-member",
                        format!("the spec has no member `{k}`: {}", short(x)),
                    )),
                }
            }
        } else if let Some(values) = s.get("additionalProperties").filter(|a| a.is_object()) {
            // A map: every value has the schema.
            for (k, x) in m {
                validate(doc, x, values, &at(k), node, out);
            }
        }
        if let Some(names) = s.get("propertyNames") {
            for k in m.keys() {
                validate(doc, &Value::String(k.clone()), names, &at(k), node, out);
            }
        }
    }
}

fn short(v: &Value) -> String {
    let t = v.to_string();
    if t.len() > 60 {
        format!(
            "{}…",
            &t[..t
                .char_indices()
                .take_while(|(i, _)| *i < 60)
                .last()
                .map_or(0, |(i, c)| i + c.len_utf8())]
        )
    } else {
        t
    }
}

fn as_table(r: &Report) -> String {
    let mut out = String::new();
    if !r.drift.is_empty() {
        let w0 = r
            .drift
            .iter()
            .map(|d| d.method.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let w1 = r
            .drift
            .iter()
            .map(|d| d.path.len())
            .max()
            .unwrap_or(4)
            .max(4);
        let w2 = r
            .drift
            .iter()
            .map(|d| d.kind.len())
            .max()
            .unwrap_or(4)
            .max(4);
        let _ = writeln!(
            out,
            "{:<w0$}  {:<w1$}  {:<w2$}  detail",
            "method", "path", "kind"
        );
        for d in &r.drift {
            let _ = writeln!(
                out,
                "{:<w0$}  {:<w1$}  {:<w2$}  {}",
                d.method, d.path, d.kind, d.detail
            );
        }
        out.push('\n');
    }
    for d in &r.notices {
        let _ = writeln!(
            out,
            "notice: {} {} {}: {}",
            d.method, d.path, d.kind, d.detail
        );
    }
    for (m, why) in &r.skipped {
        let _ = writeln!(out, "not checked: {m} ({why})");
    }
    let _ = write!(
        out,
        "{} ({}): {} call(s), {} drift(s) from the spec, {} notice(s)",
        r.url,
        r.node_version.as_deref().unwrap_or("version unknown"),
        r.calls,
        r.drift.len(),
        r.notices.len()
    );
    out
}

fn as_json(r: &Report) -> String {
    let list = |l: &[Drift]| {
        l.iter()
            .map(
                |d| json!({"method": d.method, "path": d.path, "kind": d.kind, "detail": d.detail}),
            )
            .collect::<Vec<_>>()
    };
    let v = json!({
        "url": r.url,
        "nodeVersion": r.node_version,
        "calls": r.calls,
        "drift": list(&r.drift),
        "notices": list(&r.notices),
        "notChecked": r.skipped.iter().map(|(m, why)| json!({"method": m, "why": why})).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}
