//! Server throughput and CPU per request: each server in its own process on the server core,
//! the load generator on this process's core. For each reply, every server is first warmed up
//! until its rate is steady (see [`load::Plan`]; the warm-up is reported), then all are
//! measured in one-second slices taken in turn (A B C D A B C D …), so that whatever the
//! machine's speed does meanwhile (other tenants, frequency) falls on every server alike and
//! the ratios of one repetition compare like with like.

use std::collections::HashMap;
use std::rc::Rc;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::child::ServerProcess;
use crate::data::{self, Fixtures};
use crate::load::{self, Conn};
use crate::report::{Row, Target, Unit};
use crate::servers::{LARGE_METHOD, LARGE_PATH, SMALL_METHOD, SMALL_PATH, Variant};

pub struct Settings {
    pub reps: usize,
    /// The warm-up rule (its `measure` is the seconds each server is measured in all, in
    /// one-second slices).
    pub plan: load::Plan,
    pub small_connections: usize,
    pub large_connections: usize,
    pub server_cpus: Option<Vec<usize>>,
}

/// The replies measured, in the order each repetition runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Reply {
    Small,
    Large,
    /// The second large reply: every validator with a signer, percentages with all digits.
    AllSigners,
}

impl Reply {
    const ALL: [Reply; 3] = [Reply::Small, Reply::Large, Reply::AllSigners];

    fn name(self) -> &'static str {
        match self {
            Reply::Small => "small",
            Reply::Large => "large",
            Reply::AllSigners => "large2",
        }
    }

    fn path(self) -> &'static str {
        match self {
            Reply::Small => SMALL_PATH,
            Reply::Large | Reply::AllSigners => LARGE_PATH,
        }
    }

    fn method(self) -> &'static str {
        match self {
            Reply::Small => SMALL_METHOD,
            Reply::Large | Reply::AllSigners => LARGE_METHOD,
        }
    }

    fn body(self, f: &Fixtures) -> String {
        match self {
            Reply::Small | Reply::Large => load::rpc_body(self.method()),
            Reply::AllSigners => {
                load::rpc_body_with(LARGE_METHOD, &crate::servers::all_signers_params(f))
            }
        }
    }

    /// The result's JSON, as every server must send it.
    fn expected(self, f: &Fixtures) -> String {
        match self {
            Reply::Small => f.small_json(),
            Reply::Large => f.large_json(),
            Reply::AllSigners => f.large_all_signers_json(),
        }
    }

    fn connections(self, s: &Settings) -> usize {
        match self {
            Reply::Small => s.small_connections,
            Reply::Large | Reply::AllSigners => s.large_connections,
        }
    }
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
    body: &str,
    expected: &str,
) -> Result<usize, String> {
    let name = server.variant.name();
    let mut conn = Conn::open(server.addr).await?;
    let request = load::request(server.addr, path, body);
    let method = format!("{path} {body}");
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
    /// Seconds of warm-up before each figure.
    warmup: Vec<f64>,
    /// Figures whose warm-up hit the cap before two windows agreed.
    cut: usize,
    /// Times the rate moved during a measurement and the warm-up resumed.
    moves: usize,
}

/// One server's slices added up.
#[derive(Clone, Default)]
struct Sums {
    requests: u64,
    elapsed: f64,
    server_ticks: u64,
    client_ticks: u64,
    /// Other processes' cores, added over the slices.
    foreign: f64,
    /// Each slice's rate.
    rates: Vec<f64>,
}

impl Sums {
    fn add(&mut self, o: &load::Outcome, ticks: f64) {
        let secs = o.elapsed.as_secs_f64();
        self.requests += o.requests;
        self.elapsed += secs;
        self.server_ticks += o.server_ticks;
        self.client_ticks += o.client_ticks;
        self.foreign += o.foreign_ticks as f64 / ticks / secs;
        self.rates.push(o.requests as f64 / secs);
    }
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
    let mut servers = Vec::new();
    for v in Variant::ALL {
        servers.push(ServerProcess::start(v, s.server_cpus.clone())?);
    }
    let mut sizes: HashMap<Reply, usize> = HashMap::new();
    for server in &servers {
        for reply in Reply::ALL {
            let body = reply.body(fixtures);
            let size = check_reply(server, reply.path(), &body, &reply.expected(fixtures)).await?;
            sizes.insert(reply, size);
        }
    }
    let size = |r: Reply| sizes.get(&r).copied().unwrap_or(0);
    println!(
        "  the 4 servers send byte-identical results (large reply bodies: {} and {} bytes; \
         the second, all signers, for params {})",
        size(Reply::Large),
        size(Reply::AllSigners),
        crate::servers::all_signers_params(fixtures)
    );

    let ticks = crate::sys::clock_ticks();
    // The warm-up: the plan's rule, with one window measured once the rate is steady.
    let warm = load::Plan {
        measure: s.plan.window,
        ..s.plan
    };
    // A slice: half a second to open the connections and fill them, then one second.
    let slice = load::Plan {
        window: std::time::Duration::from_millis(500),
        agree: 1.0,
        shift: f64::INFINITY,
        max_warmup: std::time::Duration::ZERO,
        measure: std::time::Duration::from_secs(1),
    };
    let rounds = (s.plan.measure.as_secs_f64() / slice.measure.as_secs_f64())
        .round()
        .max(1.0) as usize;
    let mut series: HashMap<(Reply, Variant), Series> = HashMap::new();
    let mut foreign = Vec::new();
    let pids: Vec<u32> = servers.iter().map(ServerProcess::pid).collect();
    for rep in 0..s.reps {
        for reply in Reply::ALL {
            let body = reply.body(fixtures);
            let requests: Vec<Rc<[u8]>> = servers
                .iter()
                .map(|server| load::request(server.addr, reply.path(), &body).into())
                .collect();
            // One load run against `server`, once the machine is quiet.
            let load = async |server: &ServerProcess, request: &Rc<[u8]>, plan: load::Plan| {
                quiet.wait(&pids);
                load::run(
                    server.addr,
                    request.clone(),
                    reply.connections(s),
                    plan,
                    server.pid(),
                )
                .await
                .map_err(|e| {
                    format!(
                        "{} server, {} reply: {e}",
                        server.variant.name(),
                        reply.name()
                    )
                })
            };
            // Each server warmed up until its rate is steady (one window measured to show it).
            let mut warmups = Vec::new();
            for (server, request) in servers.iter().zip(&requests) {
                warmups.push(load(server, request, warm).await?);
            }
            // Then all of them, a slice each in turn.
            let mut sums = vec![Sums::default(); servers.len()];
            for _ in 0..rounds {
                for ((server, request), sum) in servers.iter().zip(&requests).zip(&mut sums) {
                    sum.add(&load(server, request, slice).await?, ticks);
                }
            }
            for ((server, o), sum) in servers.iter().zip(&warmups).zip(&sums) {
                let secs = sum.elapsed;
                let cpu = sum.server_ticks as f64 / ticks;
                let rate = sum.requests as f64 / secs;
                let others = sum.foreign / rounds as f64;
                quiet.keep(others);
                let e = series.entry((reply, server.variant)).or_default();
                e.throughput.push(rate);
                e.cpu_per_request.push(if sum.requests > 0 {
                    cpu / sum.requests as f64
                } else {
                    f64::NAN
                });
                e.utilization.push(cpu / secs);
                e.client_utilization
                    .push(sum.client_ticks as f64 / ticks / secs);
                e.warmup.push(o.warmup.as_secs_f64());
                e.cut += usize::from(!o.converged);
                e.moves += o.moves.len();
                foreign.push(others);
                println!(
                    "    {} {}: {:.0} req/s ({} slices of {:.0} s, ±{:.1} %; steady alone: {:.0} req/s), {}, server {:.0} %, client {:.0} %, others {:.2} cores",
                    server.variant.name(),
                    reply.name(),
                    rate,
                    rounds,
                    slice.measure.as_secs_f64(),
                    spread(&sum.rates) * 100.0,
                    o.windows.first().copied().unwrap_or(f64::NAN),
                    warmup_text(o, s.plan),
                    cpu / secs * 100.0,
                    sum.client_ticks as f64 / ticks / secs * 100.0,
                    others
                );
            }
        }
        println!("  repetition {}/{} done", rep + 1, s.reps);
    }
    drop(servers);

    let mut take = |r: Reply, v: Variant| series.remove(&(r, v)).unwrap_or_default();
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut cut = 0;
    let mut moves = 0;
    for reply in Reply::ALL {
        let conns = reply.connections(s);
        let label = match reply {
            Reply::Small => format!("small reply (`{SMALL_METHOD}`)"),
            Reply::Large => format!(
                "large reply (`{LARGE_METHOD}`, {} validators, {:.2} MB)",
                data::VALIDATORS,
                size(reply) as f64 / 1e6
            ),
            Reply::AllSigners => format!(
                "large reply, all signers (`{LARGE_METHOD}`, {} validators, {:.2} MB)",
                data::VALIDATORS,
                size(reply) as f64 / 1e6
            ),
        };
        let ours = take(reply, Variant::Generated);
        let others: Vec<(Variant, Series)> = [Variant::Bare, Variant::Hand, Variant::Jsonrpsee]
            .into_iter()
            .map(|v| (v, take(reply, v)))
            .collect();
        cut += ours.cut + others.iter().map(|(_, s)| s.cut).sum::<usize>();
        moves += ours.moves + others.iter().map(|(_, s)| s.moves).sum::<usize>();
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
            reply.name(),
            util(&ours),
            others
                .iter()
                .map(|(v, s)| format!("{} {}", v.name(), util(s)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        for (v, base) in &others {
            let target = match (reply, v) {
                (Reply::Small, Variant::Bare) => Some(Target::AtLeast(0.9)),
                (Reply::Large | Reply::AllSigners, Variant::Hand) => Some(Target::AtLeast(1.0)),
                (Reply::Large | Reply::AllSigners, Variant::Jsonrpsee) => {
                    Some(Target::AtLeast(2.0))
                }
                _ => None,
            };
            let mut row = Row::new(
                format!("Server throughput, {label}, {conns} connections (req/s)"),
                Unit::PerSecond,
                ours.throughput.clone(),
            )
            .against(v.label(), base.throughput.clone())
            .warmup(ours.warmup.clone(), base.warmup.clone());
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
                .against(v.label(), base.cpu_per_request.clone())
                .warmup(ours.warmup.clone(), base.warmup.clone()),
            );
        }
    }
    let p = s.plan;
    notes.push(format!(
        "Warm-up (the table's column, seconds, min..max over the repetitions): for each reply, each server's load ran until two \
         consecutive {:.0} s windows agreed within {:.0} %, at most {:.0} s (a window more than {:.0} % off the steady rate \
         resumed it: {moves} time(s) in this run; {cut} warm-up(s) reached the cap, see the progress lines). Then the servers \
         were measured {:.0} s each, in 1 s slices taken in turn (each after half a second of load), so that the machine's \
         drift falls on all of them alike; a figure is its slices' requests over their seconds.",
        p.window.as_secs_f64(),
        p.agree * 100.0,
        p.max_warmup.as_secs_f64(),
        p.shift * 100.0,
        p.measure.as_secs_f64(),
    ));
    let f = crate::report::summarize(&foreign);
    notes.push(format!(
        "Other processes on the machine during the server runs: {:.2} cores on average (median of runs; min {:.2}, max {:.2}).",
        f.median, f.min, f.max
    ));
    Ok(ServerResults { rows, notes })
}

/// Half the range of the windows' rates, relative to their mean.
fn spread(windows: &[f64]) -> f64 {
    let s = crate::report::summarize(windows);
    let mean = windows.iter().sum::<f64>() / windows.len().max(1) as f64;
    if mean > 0.0 {
        (s.max - s.min) / 2.0 / mean
    } else {
        f64::NAN
    }
}

/// `warm-up 4 s`, and what happened on the way.
fn warmup_text(o: &load::Outcome, plan: load::Plan) -> String {
    let mut t = format!("warm-up {:.0} s", o.warmup.as_secs_f64());
    if !o.converged {
        t.push_str(&format!(
            " (cut at {:.0} s: no two windows agreed)",
            plan.max_warmup.as_secs_f64()
        ));
    }
    for (from, to) in &o.moves {
        t.push_str(&format!(
            " (moved {from:.0} → {to:.0} req/s, warmed up again)"
        ));
    }
    t
}
