//! Server throughput and CPU per request: each server in its own process on the server core,
//! the load generator on this process's core; variants alternate within each repetition.

use std::collections::HashMap;
use std::rc::Rc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::child::ServerProcess;
use crate::data::{self, Fixtures};
use crate::load::{self, Conn};
use crate::report::{Row, Target, Unit};
use crate::servers::{LARGE_METHOD, LARGE_PATH, SMALL_METHOD, SMALL_PATH, Variant};

pub struct Settings {
    pub reps: usize,
    pub warmup: Duration,
    pub measure: Duration,
    pub small_connections: usize,
    pub large_connections: usize,
    pub server_cpus: Option<Vec<usize>>,
}

#[derive(Deserialize)]
struct Probe<'a> {
    jsonrpc: Option<String>,
    #[serde(borrow)]
    result: Option<&'a RawValue>,
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    error: Option<serde_json::Value>,
}

/// Asks `server` once and checks that the result's bytes are `expected`.
async fn check_reply(
    server: &ServerProcess,
    path: &str,
    method: &str,
    expected: &str,
) -> Result<usize, String> {
    let name = server.variant.name();
    let mut conn = Conn::open(server.addr).await?;
    let request = load::request(server.addr, path, &load::rpc_body(method));
    let reply = conn.round_trip(&request, true).await?;
    if reply.status != 200 {
        return Err(format!("{name}: {method} answered HTTP {}", reply.status));
    }
    let probe: Probe = serde_json::from_slice(&reply.body)
        .map_err(|e| format!("{name}: {method}: the reply is not a JSON-RPC reply: {e}"))?;
    if let Some(error) = probe.error {
        return Err(format!("{name}: {method} answered an error: {error}"));
    }
    if probe.jsonrpc.as_deref() != Some("2.0") || probe.id.map(RawValue::get) != Some("1") {
        return Err(format!(
            "{name}: {method}: wrong jsonrpc or id in the reply"
        ));
    }
    match probe.result {
        Some(r) if r.get() == expected => Ok(reply.body.len()),
        Some(r) => Err(format!(
            "{name}: {method}: the result differs from the generated types' JSON ({} bytes, expected {})",
            r.get().len(),
            expected.len()
        )),
        None => Err(format!("{name}: {method}: no result")),
    }
}

#[derive(Default)]
struct Series {
    throughput: Vec<f64>,
    cpu_per_request: Vec<f64>,
    utilization: Vec<f64>,
    client_utilization: Vec<f64>,
}

pub struct ServerResults {
    pub rows: Vec<Row>,
    pub notes: Vec<String>,
}

pub async fn run(
    fixtures: &Fixtures,
    s: &Settings,
    quiet: &crate::quiet::Quiet,
) -> Result<ServerResults, String> {
    let small = fixtures.small_json();
    let large = fixtures.large_json();
    let mut servers = Vec::new();
    for v in Variant::ALL {
        servers.push(ServerProcess::start(v, s.server_cpus.clone())?);
    }
    let mut large_bytes = 0;
    for server in &servers {
        check_reply(server, SMALL_PATH, SMALL_METHOD, &small).await?;
        large_bytes = check_reply(server, LARGE_PATH, LARGE_METHOD, &large).await?;
    }
    println!("  the 4 servers send byte-identical results (large reply body: {large_bytes} bytes)");

    let ticks = crate::sys::clock_ticks();
    let mut series: HashMap<(bool, Variant), Series> = HashMap::new();
    let mut foreign = Vec::new();
    let pids: Vec<u32> = servers.iter().map(ServerProcess::pid).collect();
    for rep in 0..s.reps {
        for is_large in [false, true] {
            let (path, method, conns) = if is_large {
                (LARGE_PATH, LARGE_METHOD, s.large_connections)
            } else {
                (SMALL_PATH, SMALL_METHOD, s.small_connections)
            };
            for server in &servers {
                let request: Rc<[u8]> =
                    load::request(server.addr, path, &load::rpc_body(method)).into();
                let mut best: Option<(load::Outcome, f64)> = None;
                loop {
                    quiet.wait(&pids);
                    let o = load::run(
                        server.addr,
                        request.clone(),
                        conns,
                        s.warmup,
                        s.measure,
                        server.pid(),
                    )
                    .await
                    .map_err(|e| format!("{} server, {method}: {e}", server.variant.name()))?;
                    let others = o.foreign_ticks as f64 / ticks / o.elapsed.as_secs_f64();
                    if best.as_ref().is_none_or(|(_, b)| others < *b) {
                        best = Some((o, others));
                    }
                    if !quiet.retry(others) {
                        break;
                    }
                }
                let Some((o, others)) = best else { continue };
                quiet.keep(others);
                let secs = o.elapsed.as_secs_f64();
                let cpu = o.server_ticks as f64 / ticks;
                let e = series.entry((is_large, server.variant)).or_default();
                e.throughput.push(o.requests as f64 / secs);
                e.cpu_per_request.push(if o.requests > 0 {
                    cpu / o.requests as f64
                } else {
                    f64::NAN
                });
                e.utilization.push(cpu / secs);
                e.client_utilization
                    .push(o.client_ticks as f64 / ticks / secs);
                foreign.push(others);
                println!(
                    "    {} {}: {:.0} req/s, server {:.0} %, client {:.0} %, others {:.2} cores",
                    server.variant.name(),
                    if is_large { "large" } else { "small" },
                    o.requests as f64 / secs,
                    cpu / secs * 100.0,
                    o.client_ticks as f64 / ticks / secs * 100.0,
                    others
                );
            }
        }
        println!("  repetition {}/{} done", rep + 1, s.reps);
    }
    drop(servers);

    let mut take = |large: bool, v: Variant| series.remove(&(large, v)).unwrap_or_default();
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for is_large in [false, true] {
        let (label, conns) = if is_large {
            (
                format!(
                    "large reply (`{LARGE_METHOD}`, {} validators, {:.2} MB)",
                    data::VALIDATORS,
                    large_bytes as f64 / 1e6
                ),
                s.large_connections,
            )
        } else {
            (
                format!("small reply (`{SMALL_METHOD}`)"),
                s.small_connections,
            )
        };
        let ours = take(is_large, Variant::Generated);
        let others: Vec<(Variant, Series)> = [Variant::Bare, Variant::Hand, Variant::Jsonrpsee]
            .into_iter()
            .map(|v| (v, take(is_large, v)))
            .collect();
        let util = |s: &Series| {
            let m = |v: &[f64]| crate::report::summarize(v).median * 100.0;
            format!(
                "{:.0} % / {:.0} %",
                m(&s.utilization),
                m(&s.client_utilization)
            )
        };
        notes.push(format!(
            "Server core / load-generator core busy during the {} runs (medians): avalanche-rpc {}, {}.",
            if is_large { "large" } else { "small" },
            util(&ours),
            others
                .iter()
                .map(|(v, s)| format!("{} {}", v.name(), util(s)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        for (v, base) in &others {
            let target = match (is_large, v) {
                (false, Variant::Bare) => Some(Target::AtLeast(0.9)),
                (true, Variant::Hand) => Some(Target::AtLeast(1.0)),
                (true, Variant::Jsonrpsee) => Some(Target::AtLeast(2.0)),
                _ => None,
            };
            let mut row = Row::new(
                format!("Server throughput, {label}, {conns} connections (req/s)"),
                Unit::PerSecond,
                ours.throughput.clone(),
            )
            .against(v.label(), base.throughput.clone());
            if let Some(t) = target {
                row = row.target(t);
            }
            rows.push(row);
        }
        for (v, base) in &others {
            rows.push(
                Row::new(
                    format!("Server CPU per request, {label}"),
                    Unit::Seconds,
                    ours.cpu_per_request.clone(),
                )
                .against(v.label(), base.cpu_per_request.clone()),
            );
        }
    }
    let f = crate::report::summarize(&foreign);
    notes.push(format!(
        "Other processes on the machine during the server runs: {:.2} cores on average (median of runs; min {:.2}, max {:.2}).",
        f.median, f.min, f.max
    ));
    Ok(ServerResults { rows, notes })
}
