//! A small HTTP/1.1 load generator (in the spirit of wrk): N keep-alive connections on a
//! single-threaded runtime, each sending the same prebuilt request as soon as the previous
//! reply has been read, until the rate is steady and then for a fixed time (see [`Plan`]).

use std::cell::Cell;
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A POST of `body` to `path`, as bytes on the wire.
pub fn request(addr: SocketAddr, path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A JSON-RPC request body for `method` with `{}` params and id 1.
pub fn rpc_body(method: &str) -> String {
    rpc_body_with(method, "{}")
}

/// A JSON-RPC request body for `method` with `params` (JSON text) and id 1.
pub fn rpc_body_with(method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}}}"#)
}

/// One keep-alive connection.
pub struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
}

/// A reply: status and body.
pub struct Reply {
    pub status: u16,
    pub body: Vec<u8>,
}

impl Conn {
    pub async fn open(addr: SocketAddr) -> Result<Conn, String> {
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
        stream
            .set_nodelay(true)
            .map_err(|e| format!("set_nodelay: {e}"))?;
        Ok(Conn {
            stream,
            buf: Vec::with_capacity(64 * 1024),
        })
    }

    /// Sends `request` and reads the reply; keeps the body only if `keep_body`.
    pub async fn round_trip(&mut self, request: &[u8], keep_body: bool) -> Result<Reply, String> {
        self.stream
            .write_all(request)
            .await
            .map_err(|e| format!("write: {e}"))?;
        self.read_reply(keep_body).await
    }

    async fn fill(&mut self) -> Result<(), String> {
        if self.buf.capacity() - self.buf.len() < 16 * 1024 {
            self.buf.reserve(64 * 1024);
        }
        let n = self
            .stream
            .read_buf(&mut self.buf)
            .await
            .map_err(|e| format!("read: {e}"))?;
        if n == 0 {
            return Err("the server closed the connection".into());
        }
        Ok(())
    }

    async fn read_reply(&mut self, keep_body: bool) -> Result<Reply, String> {
        let head_end = loop {
            if let Some(i) = find(&self.buf, b"\r\n\r\n") {
                break i + 4;
            }
            self.fill().await?;
        };
        let head = std::str::from_utf8(&self.buf[..head_end])
            .map_err(|_| "the reply's head is not UTF-8".to_string())?;
        let status: u16 = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("bad status line: {:?}", head.lines().next()))?;
        let length: usize = head
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse().ok())?
            })
            .ok_or_else(|| {
                "the reply has no Content-Length (chunked replies are not supported)".to_string()
            })?;
        self.buf.drain(..head_end);
        let mut body = Vec::new();
        let mut missing = length;
        loop {
            let take = missing.min(self.buf.len());
            if keep_body {
                body.extend_from_slice(&self.buf[..take]);
            }
            self.buf.drain(..take);
            missing -= take;
            if missing == 0 {
                break;
            }
            self.fill().await?;
        }
        Ok(Reply { status, body })
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// How a load run warms up and measures: the rate is read every `window`; the warm-up ends
/// when two consecutive windows agree within `agree`, then `measure` is measured (in whole
/// windows). A window of the measurement whose rate is off the steady rate by more than
/// `shift` means the rate moved (an allocator settling, say): the warm-up resumes from there.
/// Past `max_warmup` the measurement starts (or goes on) whatever the windows say, and the
/// outcome says so.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub window: Duration,
    pub agree: f64,
    pub shift: f64,
    pub max_warmup: Duration,
    pub measure: Duration,
}

impl Plan {
    /// Windows in the measurement (at least one).
    fn measured_windows(&self) -> usize {
        (self.measure.as_secs_f64() / self.window.as_secs_f64())
            .round()
            .max(1.0) as usize
    }
}

/// What one load run measured.
pub struct Outcome {
    /// Replies completed inside the measuring window.
    pub requests: u64,
    /// The window's length.
    pub elapsed: Duration,
    /// CPU ticks the server used in the window.
    pub server_ticks: u64,
    /// CPU ticks this process (the load generator) used in the window.
    pub client_ticks: u64,
    /// CPU ticks all other processes (not the server, not this process) used in the window.
    pub foreign_ticks: u64,
    /// From the first request to the start of the measuring window.
    pub warmup: Duration,
    /// Whether two consecutive windows agreed before `max_warmup` (else the warm-up was cut).
    pub converged: bool,
    /// Each time the rate moved during a measurement and the warm-up resumed: the steady
    /// rate, then the window's, in requests per second.
    pub moves: Vec<(f64, f64)>,
    /// The rate in each window of the measurement, requests per second.
    pub windows: Vec<f64>,
}

/// What a window's rate led to.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// Still warming up.
    Warming,
    /// The measurement starts at the end of this window.
    Start,
    /// The window was measured; more to come.
    Measuring,
    /// The window was measured and was the last.
    Done,
}

/// The warm-up and measurement rule of [`Plan`], fed one window's rate at a time.
struct Steady {
    plan: Plan,
    /// Warming up: the last window's rate.
    last: Option<f64>,
    /// Measuring: the steady rate the measurement started at.
    measuring: Option<f64>,
    converged: bool,
    moves: Vec<(f64, f64)>,
    windows: Vec<f64>,
}

impl Steady {
    fn new(plan: Plan) -> Steady {
        Steady {
            plan,
            last: None,
            measuring: None,
            converged: false,
            moves: Vec::new(),
            windows: Vec::new(),
        }
    }

    /// Takes the rate of the window that ended `warmed` after the load started.
    fn push(&mut self, rate: f64, warmed: Duration) -> Step {
        let plan = self.plan;
        match self.measuring {
            None => {
                let agree = self
                    .last
                    .filter(|l| (rate - l).abs() <= plan.agree * rate.max(*l));
                if agree.is_none() && warmed < plan.max_warmup {
                    self.last = Some(rate);
                    return Step::Warming;
                }
                self.converged = agree.is_some();
                self.measuring = Some(agree.map_or(rate, |l| (rate + l) / 2.0));
                self.windows.clear();
                Step::Start
            }
            Some(steady) => {
                let moved = (rate - steady).abs() > plan.shift * steady;
                if moved && self.converged && warmed < plan.max_warmup {
                    self.moves.push((steady, rate));
                    self.measuring = None;
                    self.last = Some(rate);
                    return Step::Warming;
                }
                self.windows.push(rate);
                if self.windows.len() >= plan.measured_windows() {
                    Step::Done
                } else {
                    Step::Measuring
                }
            }
        }
    }
}

#[derive(Clone, Copy)]
struct Snap {
    at: Instant,
    completed: u64,
    server: u64,
    client: u64,
    busy: u64,
}

/// Drives `connections` connections at `addr` until the rate is steady, then for the
/// measurement (see [`Plan`]); reads the CPU time of `server_pid` at the window's edges.
pub async fn run(
    addr: SocketAddr,
    request: Rc<[u8]>,
    connections: usize,
    plan: Plan,
    server_pid: u32,
) -> Result<Outcome, String> {
    let completed = Rc::new(Cell::new(0u64));
    let stop = Rc::new(Cell::new(false));
    let failure: Rc<Cell<Option<String>>> = Rc::new(Cell::new(None));
    let mut conns = Vec::with_capacity(connections);
    for _ in 0..connections {
        conns.push(Conn::open(addr).await?);
    }
    let local = tokio::task::LocalSet::new();
    let outcome = local
        .run_until(async {
            let mut tasks = Vec::new();
            for mut conn in conns {
                let (completed, stop, failure, request) = (
                    completed.clone(),
                    stop.clone(),
                    failure.clone(),
                    request.clone(),
                );
                tasks.push(tokio::task::spawn_local(async move {
                    while !stop.get() {
                        match conn.round_trip(&request, false).await {
                            Ok(r) if r.status == 200 => completed.set(completed.get() + 1),
                            Ok(r) => {
                                failure.set(Some(format!("HTTP {}", r.status)));
                                stop.set(true);
                            }
                            Err(e) => {
                                failure.set(Some(e));
                                stop.set(true);
                            }
                        }
                    }
                }));
            }
            let snap = || -> Result<Snap, String> {
                let err = |e: std::io::Error| format!("cannot read /proc: {e}");
                Ok(Snap {
                    at: Instant::now(),
                    completed: completed.get(),
                    server: crate::sys::process_ticks(server_pid).map_err(err)?,
                    client: crate::sys::self_ticks().map_err(err)?,
                    busy: crate::sys::machine_busy_ticks().map_err(err)?,
                })
            };
            let measured = async {
                let mut ticker = tokio::time::interval(plan.window);
                ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                ticker.tick().await; // the first tick is now
                let began = snap()?;
                let mut previous = began;
                let mut start = began;
                let mut steady = Steady::new(plan);
                loop {
                    ticker.tick().await;
                    if stop.get() {
                        return Err("stopped".to_string());
                    }
                    let now = snap()?;
                    let secs = (now.at - previous.at).as_secs_f64().max(1e-3);
                    let rate = (now.completed - previous.completed) as f64 / secs;
                    previous = now;
                    match steady.push(rate, now.at - began.at) {
                        Step::Warming | Step::Measuring => {}
                        Step::Start => start = now,
                        Step::Done => return Ok((began, start, now, steady)),
                    }
                }
            };
            let result = measured.await;
            stop.set(true);
            for t in tasks {
                let _ = t.await;
            }
            if let Some(e) = failure.take() {
                return Err(format!("load run failed: {e}"));
            }
            let (began, start, end, steady) = result?;
            let server_ticks = end.server - start.server;
            let own = end.client - start.client;
            let busy = end.busy - start.busy;
            Ok(Outcome {
                requests: end.completed - start.completed,
                elapsed: end.at - start.at,
                server_ticks,
                client_ticks: own,
                foreign_ticks: busy.saturating_sub(server_ticks + own),
                warmup: start.at - began.at,
                converged: steady.converged,
                moves: steady.moves,
                windows: steady.windows,
            })
        })
        .await?;
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::{Duration, Plan, Steady, Step};

    fn plan(measure: f64) -> Plan {
        Plan {
            window: Duration::from_secs(1),
            agree: 0.03,
            shift: 0.1,
            max_warmup: Duration::from_secs(20),
            measure: Duration::from_secs_f64(measure),
        }
    }

    /// Feeds one-second windows; returns the steps and the rule's state.
    fn feed(plan: Plan, rates: &[f64]) -> (Vec<Step>, Steady) {
        let mut s = Steady::new(plan);
        let steps = rates
            .iter()
            .enumerate()
            .map(|(i, &r)| s.push(r, Duration::from_secs(i as u64 + 1)))
            .collect();
        (steps, s)
    }

    #[test]
    fn measured_windows() {
        assert_eq!(plan(5.0).measured_windows(), 5);
        assert_eq!(plan(0.2).measured_windows(), 1);
        assert_eq!(plan(30.0).measured_windows(), 30);
    }

    #[test]
    fn measures_once_two_windows_agree() {
        let (steps, s) = feed(plan(2.0), &[100.0, 150.0, 200.0, 202.0, 199.0, 201.0]);
        use Step::*;
        assert_eq!(steps, [Warming, Warming, Warming, Start, Measuring, Done]);
        assert!(s.converged);
        assert_eq!(s.windows, [199.0, 201.0]);
    }

    #[test]
    fn a_plateau_then_a_move_warms_up_again() {
        // The allocator's first seconds: steady at 300, then 480 for good.
        let rates = [300.0, 302.0, 301.0, 480.0, 485.0, 482.0, 479.0, 484.0];
        let (steps, s) = feed(plan(3.0), &rates);
        use Step::*;
        assert_eq!(
            steps,
            [
                Warming, Start, Measuring, Warming, Start, Measuring, Measuring, Done
            ]
        );
        assert_eq!(s.moves, [(301.0, 480.0)]);
        assert_eq!(s.windows, [482.0, 479.0, 484.0]);
    }

    #[test]
    fn the_warm_up_is_capped() {
        let mut p = plan(1.0);
        p.max_warmup = Duration::from_secs(3);
        let (steps, s) = feed(p, &[100.0, 200.0, 100.0, 200.0]);
        use Step::*;
        assert_eq!(steps, [Warming, Warming, Start, Done]);
        assert!(!s.converged);
    }
}
