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
//! serves is a `removed-but-served` notice, which fails the check only with `--strict`. A
//! method the document says a server keeps serving on purpose (`x-still-served`, the spec's
//! `still-served`: the devnet's `avm.buildGenesis`) stays a notice, with the reason, even with
//! `--strict`, once the server is found to be that one (it answers at its own interface's
//! path); against any other server it is drift with `--strict`.
//!
//! A method is checked once one reply of it was validated. An argument is taken from the
//! replies of the same chain first (a `txID` from the X-chain's UTXOs for `avm.getTx`, a
//! `blockID` from a block's bytes), an address of another chain is given on the method's
//! chain, and a method answered with an error is tried again with the other values replies
//! gave and at the other example paths (`/ext/index/X/block` after `/ext/index/X/tx`), at
//! most twelve calls a round. A method no reply of which could be checked is `not checked`, and fails
//! the check like drift: a node that answers only errors cannot pass.
//!
//! The calls go through the crate's transport (`HttpTransport`): replies over 64 MiB are
//! refused, each call is bounded by `--timeout`, nothing is retried.

use super::harvest::Harvest;
use avalanche_rpc::rpc::Transport;
use clap::Args;
use regex::Regex;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

/// The spec's combined OpenRPC document, as `avalanche-rpc` was built (its feature `openrpc`).
const DOCUMENT: &str = avalanche_rpc::OPENRPC;

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
    /// that it still serves (`removed-but-served`), as drift (exit 1) rather than notices;
    /// except a method the spec says this server keeps serving on purpose (`still-served`, as
    /// the devnet does `avm.buildGenesis`), which stays a notice with the reason.
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
    /// For a `removed-but-served` method: the server it is, which the spec says keeps serving
    /// it on purpose, and why (`x-still-served`). Such a notice stays one with `--strict`.
    on_purpose: Option<String>,
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
    /// Methods whose replies were checked against the spec.
    checked: usize,
    /// Methods the node's version does not serve, as the spec says (newer, or removed at or
    /// before it), and why.
    absent: Vec<(String, String)>,
    /// Methods no reply of which could be checked (only errors, no argument), and why: the
    /// check fails while there is one.
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
        let (kept, drift): (Vec<Drift>, Vec<Drift>) = std::mem::take(&mut report.notices)
            .into_iter()
            .partition(|n| n.on_purpose.is_some());
        report.notices = kept;
        report.drift.extend(drift);
    }
    // A method answered only with errors says nothing of the node's replies: the check
    // fails, as it does on drift, so a node that answers nothing cannot pass.
    let failed = !report.drift.is_empty() || !report.skipped.is_empty();
    let text = if a.json {
        as_json(&report)
    } else {
        as_table(&report)
    };
    Ok((text, failed))
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
    /// The paths to try, the first with each variable at its default (`/ext/bc/{chain}` →
    /// `/ext/bc/X`), then with the variables' other examples (`/ext/index/X/block`, …).
    paths: Vec<String>,
    /// The node versions that serve it (`x-since`, `x-removed`).
    versions: Versions<'a>,
    /// The node's flag without which its path answers HTTP 404 (`x-enabled-by`).
    enabled_by: Option<&'a str>,
    /// Name, whether required, the node versions that read it, and the pattern a string
    /// value of it must match (its schema's, or its wire type's): a value another reply gave
    /// under the same name but of another kind (an `X-…` address for `eth_getBalance`'s
    /// `0x…` one) is not sent.
    params: Vec<(&'a str, bool, Versions<'a>, Option<regex::Regex>)>,
    /// The spec's first example's arguments: used for a required argument no reply gave
    /// (chain aliases and the like; an example ID the node does not know gets an error, and
    /// the method is then not checked).
    example: BTreeMap<&'a str, &'a Value>,
    /// The params travel as an array in declared order (`paramStructure: by-position`, the
    /// `eth_` calls).
    positional: bool,
    result: &'a Value,
}

/// The pattern of a param's schema, or of the schema it refers to (`#/components/schemas/…`).
fn pattern_of(doc: &Value, schema: &Value) -> Option<regex::Regex> {
    let schema = match schema["$ref"].as_str() {
        Some(r) => {
            let name = r.strip_prefix("#/components/schemas/")?;
            &doc["components"]["schemas"][name]
        }
        None => schema,
    };
    regex::Regex::new(schema["pattern"].as_str()?).ok()
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
        let template = m["x-path"].as_str().unwrap_or("").to_string();
        let mut paths = vec![template];
        if let Some(vars) = m["servers"][0]["variables"].as_object() {
            for (k, v) in vars {
                let var = format!("{{{k}}}");
                let default = v["default"].as_str().unwrap_or("");
                let mut values = vec![default];
                values.extend(
                    v["x-examples"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .filter(|x| *x != default),
                );
                let var = var.as_str();
                paths = paths
                    .iter()
                    .flat_map(|p| values.iter().map(move |x| p.replace(var, x)))
                    .collect();
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
                    pattern_of(doc, &p["schema"]),
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
            paths,
            versions: Versions::of(m),
            enabled_by: m["x-enabled-by"].as_str(),
            params,
            example,
            positional: m["paramStructure"] == json!("by-position"),
            result: &m["result"]["schema"],
        });
    }
    out
}

/// How one method came out.
enum Outcome {
    /// A reply was checked against the spec.
    Checked,
    /// Not served, as the spec says of the node's version.
    Absent(String),
    /// No reply could be checked, and why.
    NotChecked(String),
}

/// The most calls made for one method in a round (its paths times the candidates of its first
/// required param), so that an endpoint answering only errors costs a bounded number of calls.
const ATTEMPTS: usize = 12;

/// The most values of a param tried at one path.
const CANDIDATES: usize = 3;

async fn check(doc: &Value, base: &str, timeout: u64, max_calls: usize) -> Result<Report, String> {
    // The crate's transport, as `call`, `wallet` and `export` use: its reply size cap (64 MiB)
    // and time limit, no redirects, no retries.
    let transport = avalanche_rpc::rpc::HttpTransport::builder(base)
        .timeout(Duration::from_secs(timeout))
        .build()
        .map_err(|e| e.to_string())?;
    let mut report = Report {
        url: base.to_string(),
        node_version: None,
        calls: 0,
        drift: Vec::new(),
        notices: Vec::new(),
        skipped: Vec::new(),
        absent: Vec::new(),
        checked: 0,
    };
    let methods = methods(doc);
    let mut harvest = Harvest::default();
    let mut done: Vec<&str> = Vec::new();
    // The last error each method met, for the report when none of its calls could be checked.
    let mut errors: BTreeMap<&str, String> = BTreeMap::new();
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
                report.absent.push((
                    m.name.to_string(),
                    format!("served since {since}, after the node's version"),
                ));
                continue;
            }
            // A method the node's version no longer has: called all the same, to see whether
            // the node still serves it.
            let gone = m.versions.gone(node_version);
            // The calls to try: each path, and for each the candidates of the first required
            // param that has several; in the last round, the spec's example for what no reply
            // gave.
            let mut attempts: Vec<(String, Map<String, Value>)> = Vec::new();
            let mut missing = None;
            for path in &m.paths {
                let mut params = Map::new();
                let mut varied: Option<(&str, Vec<Value>)> = None;
                for (name, required, versions, pattern) in &m.params {
                    // A param the node does not read is not sent.
                    if !required || !versions.served(node_version) {
                        continue;
                    }
                    // The first round takes values of the method's own chain only: one another
                    // chain gave may name nothing here (an X-chain transaction's ID for the
                    // C-chain's `avax.getAtomicTx`), and a later round still tries it.
                    let mut found = harvest.candidates(name, path, round == 0);
                    if let Some(re) = pattern {
                        found.retain(|v| v.as_str().is_none_or(|s| re.is_match(s)));
                    }
                    if found.is_empty()
                        && round == 2
                        && let Some(v) = m.example.get(name)
                    {
                        found.push((*v).clone());
                    }
                    match found.first() {
                        None => missing = Some(*name),
                        Some(v) => {
                            params.insert((*name).to_string(), v.clone());
                            if found.len() > 1 && varied.is_none() {
                                varied = Some((*name, found));
                            }
                        }
                    }
                }
                if missing.is_some() {
                    break;
                }
                match varied {
                    None => attempts.push((path.clone(), params)),
                    Some((name, values)) => {
                        for v in values.into_iter().take(CANDIDATES) {
                            let mut p = params.clone();
                            p.insert(name.to_string(), v);
                            attempts.push((path.clone(), p));
                        }
                    }
                }
            }
            if missing.is_some() {
                continue;
            }
            done.push(m.name);
            let mut outcome = None;
            for (i, (path, params)) in attempts.iter().take(ATTEMPTS).enumerate() {
                if report.calls >= max_calls {
                    break;
                }
                let first = i == 0;
                report.calls += 1;
                let params = if m.positional {
                    // In declared order; only required params are sent, so none is missing
                    // before the last.
                    Value::Array(
                        m.params
                            .iter()
                            .filter_map(|(name, ..)| params.get(*name).cloned())
                            .collect(),
                    )
                } else {
                    Value::Object(params.clone())
                };
                let body = json!({"jsonrpc": "2.0", "id": report.calls, "method": m.name, "params": params});
                let reply = transport
                    .post(path, body.to_string().into_bytes())
                    .await
                    .map_err(|e| {
                        match e.downcast_ref::<avalanche_rpc::rpc::TransportFailure>() {
                            // It names the URL itself (without its credentials).
                            Some(_) => format!("{}: {e}", m.name),
                            None => format!("{} at {base}{path}: {e}", m.name),
                        }
                    })?;
                let reply: Value = match serde_json::from_slice(&reply.body) {
                    Ok(v) => v,
                    // A path other than the default may not exist (`/ext/index/P/tx`).
                    Err(_) if reply.status == 404 && !first => continue,
                    Err(_) if reply.status == 404 => {
                        if let Some(removed) = gone {
                            outcome = Some(Outcome::Absent(not_served_as_expected(removed)));
                            break;
                        }
                        // An API the node serves only when a flag enables it (admin, index).
                        if let Some(flag) = m.enabled_by {
                            outcome = Some(Outcome::Absent(format!(
                                "not enabled: HTTP 404 at {path}, which the node serves only with {flag}"
                            )));
                            break;
                        }
                        drift(
                            &mut report,
                            m.name,
                            "",
                            "method-not-served",
                            format!("HTTP 404 at {path}"),
                        );
                        outcome = Some(Outcome::NotChecked(format!("HTTP 404 at {path}")));
                        break;
                    }
                    Err(e) => {
                        let what = format!("HTTP {}: {e}", reply.status);
                        drift(&mut report, m.name, "", "not-json-rpc", what.clone());
                        outcome = Some(Outcome::NotChecked(what));
                        break;
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
                            outcome = Some(Outcome::Absent(not_served_as_expected(removed)));
                            break;
                        }
                        if first {
                            drift(
                                &mut report,
                                m.name,
                                "",
                                "method-not-served",
                                format!("{code}: {message}"),
                            );
                            outcome = Some(Outcome::NotChecked(format!("{code}: {message}")));
                            break;
                        }
                    }
                    errors.insert(
                        m.name,
                        format!("the node answered {code}: {message} (at {path})"),
                    );
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
                    outcome = Some(Outcome::NotChecked("neither result nor error".into()));
                    break;
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
                for (at, kind, detail) in found {
                    drift(&mut report, m.name, &at, kind, detail);
                }
                harvest.collect(result, path);
                outcome = Some(Outcome::Checked);
                break;
            }
            // Answered only with errors: a later round may have other values to try.
            if outcome.is_none() && round < 2 && report.calls < max_calls {
                done.retain(|d| *d != m.name);
                continue;
            }
            match outcome {
                Some(Outcome::Checked) => report.checked += 1,
                Some(Outcome::Absent(why)) => report.absent.push((m.name.to_string(), why)),
                Some(Outcome::NotChecked(why)) => report.skipped.push((m.name.to_string(), why)),
                None => report.skipped.push((
                    m.name.to_string(),
                    errors
                        .remove(m.name)
                        .unwrap_or_else(|| "the call limit was reached".into()),
                )),
            }
        }
    }
    for m in &methods {
        if !done.contains(&m.name) {
            let needs: Vec<&str> = m
                .params
                .iter()
                .filter(|(_, r, v, _)| *r && v.served(node_version))
                .map(|(n, ..)| *n)
                .collect();
            report.skipped.push((
                m.name.to_string(),
                format!("no reply gave {}", needs.join(", ")),
            ));
        }
    }
    still_served(doc, &transport, &mut report).await;
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
        on_purpose: None,
    });
}

/// Marks the `removed-but-served` notices of methods the document says a server keeps
/// serving on purpose (`x-still-served`), when this is that server, with the reason.
async fn still_served(
    doc: &Value,
    transport: &avalanche_rpc::rpc::HttpTransport,
    report: &mut Report,
) {
    let mut known: BTreeMap<String, bool> = BTreeMap::new();
    for i in 0..report.notices.len() {
        let n = &report.notices[i];
        if n.kind != REMOVED_BUT_SERVED || n.path != "(reply)" {
            continue;
        }
        let Some(m) = doc["methods"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|m| m["name"].as_str() == Some(n.method.as_str()))
        else {
            continue;
        };
        let kept = &m["x-still-served"];
        let (Some(by), Some(why)) = (kept["by"].as_str(), kept["why"].as_str()) else {
            continue;
        };
        let is = match known.get(by) {
            Some(is) => *is,
            None => {
                let is = is_server(doc, transport, by, &mut report.calls).await;
                known.insert(by.to_string(), is);
                is
            }
        };
        if is {
            report.notices[i].on_purpose = Some(format!("served on purpose by the {by}: {why}"));
        }
    }
}

/// Whether the server is `source` (`devnet`), which has an interface of its own: it answers a
/// method of that interface that changes nothing (with no params) at the interface's path
/// with anything but "method not found" (a node answers HTTP 404 there).
async fn is_server(
    doc: &Value,
    transport: &avalanche_rpc::rpc::HttpTransport,
    source: &str,
    calls: &mut usize,
) -> bool {
    let Some((name, path)) = doc["methods"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["x-source"].as_str() == Some(source) && m["x-changes-state"] != json!(true))
        .find_map(|m| Some((m["name"].as_str()?, m["x-path"].as_str()?)))
    else {
        return false;
    };
    *calls += 1;
    let body = json!({"jsonrpc": "2.0", "id": *calls, "method": name, "params": {}});
    let Ok(reply) = transport.post(path, body.to_string().into_bytes()).await else {
        return false;
    };
    let Ok(reply) = serde_json::from_slice::<Value>(&reply.body) else {
        return false;
    };
    if reply.get("result").is_some() {
        return true;
    }
    let Some(err) = reply.get("error") else {
        return false;
    };
    let message = err["message"].as_str().unwrap_or("");
    err["code"].as_i64() != Some(-32601)
        && !message.contains("can't find method")
        && !message.contains("method not found")
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
        let _ = write!(
            out,
            "notice: {} {} {}: {}",
            d.method, d.path, d.kind, d.detail
        );
        if let Some(why) = &d.on_purpose {
            let _ = write!(out, "; {why}");
        }
        out.push('\n');
    }
    for (m, why) in &r.absent {
        let _ = writeln!(out, "absent: {m} ({why})");
    }
    for (m, why) in &r.skipped {
        let _ = writeln!(out, "NOT CHECKED: {m} ({why})");
    }
    let _ = write!(
        out,
        "{} ({}): {} call(s), {} method(s) checked, {} absent as the spec says, {} not checked, {} drift(s) from the spec, {} notice(s)",
        r.url,
        r.node_version.as_deref().unwrap_or("version unknown"),
        r.calls,
        r.checked,
        r.absent.len(),
        r.skipped.len(),
        r.drift.len(),
        r.notices.len()
    );
    out
}

fn as_json(r: &Report) -> String {
    let list = |l: &[Drift]| {
        l.iter()
            .map(|d| {
                let mut v =
                    json!({"method": d.method, "path": d.path, "kind": d.kind, "detail": d.detail});
                if let Some(why) = &d.on_purpose {
                    v["onPurpose"] = json!(why);
                }
                v
            })
            .collect::<Vec<_>>()
    };
    let v = json!({
        "url": r.url,
        "nodeVersion": r.node_version,
        "calls": r.calls,
        "drift": list(&r.drift),
        "notices": list(&r.notices),
        "checked": r.checked,
        "absent": r.absent.iter().map(|(m, why)| json!({"method": m, "why": why})).collect::<Vec<_>>(),
        "notChecked": r.skipped.iter().map(|(m, why)| json!({"method": m, "why": why})).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}
