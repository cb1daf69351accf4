//! The avalanche-rpc benchmark suite. `bench/run` builds it and runs `all`; see README.md.

mod call_bench;
mod child;
mod codec_bench;
mod data;
mod decode;
mod gen_bench;
mod hand;
mod hostile;
mod load;
mod quiet;
mod report;
mod server_bench;
mod servers;
mod sys;
mod wallet_bench;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use report::Row;

const USAGE: &str = "\
usage: avalanche-rpc-bench all [--quick] [--only GROUPS] [--reps N] [--measure SECONDS]
                               [--no-pin] [--boost] [--out FILE]
       avalanche-rpc-bench serve generated|bare|hand|jsonrpsee
       avalanche-rpc-bench hostile --devnet PATH [--small] [--only silent|bodies|batch|soak]
                   [--soak-seconds N] [--soak-funds N] [--soak-reads M1,M2|none]

  all        run the benchmarks and print one table (also written to bench/results/latest.md)
  --quick    fewer and shorter repetitions (a smoke test, about 3 minutes)
  --only     comma-separated groups among server,decode,codec,call,wallet,generator,build
             (default: all; `wallet` needs Node.js and `npm ci` in bench/wallet)
  --reps     repetitions (default 5, 3 with --quick)
  --measure  seconds measured per server figure once its rate is steady (default 5, 2 with
             --quick), e.g. 30 to check the default against a long run
  --no-pin   do not pin the servers and the load generator to separate cores
  --boost    run the servers and clients at nice -10 (needs root), so that other processes
             (builds) disturb them less; it slows those processes down while it runs
  --out      where to write the Markdown table
  serve      run one server (used by `all`; prints `listening PORT`, stops when stdin closes)
  hostile    the devnet (a release build at PATH) under hostile load: silent sockets, stalled
             bodies, unread batch replies, a soak; a legit caller's latency and the devnet's RSS
             (see src/hostile.rs)";

const GROUPS: [&str; 7] = [
    "server",
    "decode",
    "codec",
    "call",
    "wallet",
    "generator",
    "build",
];

struct Options {
    quick: bool,
    reps: Option<usize>,
    measure: Option<f64>,
    groups: Vec<String>,
    pin: bool,
    boost: bool,
    out: PathBuf,
}

fn repo_dir() -> PathBuf {
    let bench = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    bench.parent().map(PathBuf::from).unwrap_or(bench)
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        quick: false,
        reps: None,
        measure: None,
        groups: GROUPS.iter().map(|g| g.to_string()).collect(),
        pin: true,
        boost: false,
        out: repo_dir().join("bench/results/latest.md"),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => o.quick = true,
            "--no-pin" => o.pin = false,
            "--boost" => o.boost = true,
            "--only" => {
                let list = it.next().ok_or("--only needs a list of groups")?;
                o.groups = list.split(',').map(|g| g.trim().to_string()).collect();
                if let Some(bad) = o.groups.iter().find(|g| !GROUPS.contains(&g.as_str())) {
                    return Err(format!(
                        "unknown group {bad:?}; the groups are {}",
                        GROUPS.join(",")
                    ));
                }
            }
            "--out" => o.out = it.next().ok_or("--out needs a file")?.into(),
            "--reps" => {
                let n = it.next().ok_or("--reps needs a number")?;
                o.reps = Some(
                    n.parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("--reps needs a positive number, not {n:?}"))?,
                );
            }
            "--measure" => {
                let v = it.next().ok_or("--measure needs seconds")?;
                o.measure = Some(
                    v.parse()
                        .ok()
                        .filter(|&s: &f64| (1.0..=3600.0).contains(&s))
                        .ok_or_else(|| format!("--measure needs 1 to 3600 seconds, not {v:?}"))?,
                );
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(o)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => match args.get(1).and_then(|v| servers::Variant::parse(v)) {
            Some(v) if args.len() == 2 => servers::serve(v),
            _ => Err(format!("serve needs one variant\n{USAGE}")),
        },
        Some("all") => parse(&args[1..]).and_then(|o| run_all(&o)),
        Some("hostile") => hostile::run(&args[1..]),
        Some("profile") => profile(
            args.get(1).map(String::as_str),
            args.get(2).and_then(|n| n.parse().ok()),
        ),
        Some("-h" | "--help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Loops one of this project's paths for a few seconds, for `perf record`: `serialize`
/// (the large result), `decode` (the large reply) or `utxos` (the 1,024-UTXO reply).
/// Runs one in-process operation for 5 s (or `times` times, for a tool that counts
/// instructions) and prints how many ran.
fn profile(what: Option<&str>, times: Option<u64>) -> Result<(), String> {
    use avalanche_rpc::avm::GetUtxosResult;
    use avalanche_rpc::platform::GetCurrentValidatorsResult;
    let fixtures = data::Fixtures::build();
    let large = data::reply_body(&fixtures.large_json());
    let utxos = data::reply_body(&fixtures.utxos_json());
    let other = data::reply_body(&data::Fixtures::large_other_json());
    let until = Instant::now() + Duration::from_secs(5);
    let mut n = 0u64;
    let mut runs = 0u64;
    let started = Instant::now();
    while times.map_or(Instant::now() < until, |t| runs < t) {
        runs += 1;
        match what {
            Some("serialize") => {
                let bytes = serde_json::to_vec(&fixtures.validators).map_err(|e| e.to_string())?;
                n += bytes.len() as u64;
            }
            // What each server does per large request: clone what it holds, encode it.
            Some("reply" | "reply-cached") => {
                if what == Some("reply-cached") && n == 0 {
                    avalanche_rpc::wire::enable_text_cache(avalanche_rpc::wire::TEXT_CACHE_ENTRIES);
                }
                let reply = avalanche_rpc::rpc::server::reply(Ok(fixtures.validators.clone()));
                n += u64::from(reply.is_ok());
            }
            Some("hand") => {
                let bytes = serde_json::to_vec(&fixtures.hand_validators.clone())
                    .map_err(|e| e.to_string())?;
                n += u64::from(!bytes.is_empty());
            }
            Some("decode") => {
                let r: GetCurrentValidatorsResult = decode::generated_decode(
                    &avalanche_rpc::platform::methods::GET_CURRENT_VALIDATORS,
                    &large,
                )
                .map_err(|e| e.to_string())?;
                n += r.validators.len() as u64;
            }
            // Two replies with no identifier in common, in turn: every identifier new (with
            // the reading trails on, or off).
            Some("decode-new" | "decode-new-off") => {
                if what == Some("decode-new-off") && n == 0 {
                    avalanche_rpc::wire::limit_read_trails(0);
                }
                let body = if runs.is_multiple_of(2) { &large } else { &other };
                let r: GetCurrentValidatorsResult = decode::generated_decode(
                    &avalanche_rpc::platform::methods::GET_CURRENT_VALIDATORS,
                    body,
                )
                .map_err(|e| e.to_string())?;
                n += r.validators.len() as u64;
            }
            Some("decode-hand") => {
                let r: hand::Reply<hand::Validators> =
                    serde_json::from_slice(&large).map_err(|e| e.to_string())?;
                n += r.result.validators.len() as u64;
            }
            Some("decode-ignored") => {
                let r: serde::de::IgnoredAny =
                    serde_json::from_slice(&large).map_err(|e| e.to_string())?;
                n += u64::from(std::hint::black_box(r) == serde::de::IgnoredAny);
            }
            Some("utxos") => {
                let r: GetUtxosResult =
                    decode::generated_decode(&avalanche_rpc::avm::methods::GET_UTXOS, &utxos)
                        .map_err(|e| e.to_string())?;
                n += r.utxos.len() as u64;
            }
            _ => return Err(
                "profile serialize|reply|reply-cached|hand|decode|decode-new|decode-new-off|decode-hand|decode-ignored|utxos"
                    .into(),
            ),
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{n} in {secs:.1} s ({:.3} ms each)",
        secs * 1e3 / runs.max(1) as f64
    );
    Ok(())
}

/// The CPUs for the servers and for this process (the load generator and clients).
fn choose_cpus(pin: bool) -> Result<(Option<Vec<usize>>, Vec<usize>), String> {
    let all = sys::allowed_cpus().map_err(|e| format!("cannot read the CPU affinity: {e}"))?;
    if !pin {
        return Ok((None, all));
    }
    if all.len() < 2 {
        return Err(format!(
            "pinning needs two CPUs, this process may use {} ({all:?}); run with --no-pin",
            all.len()
        ));
    }
    let (server, client) = (all[0], all[1]);
    sys::pin(&[client])
        .map_err(|e| format!("cannot pin this process to CPU {client}: {e}; run with --no-pin"))?;
    Ok((Some(vec![server]), all))
}

fn run_all(o: &Options) -> Result<(), String> {
    let started = Instant::now();
    let machine = sys::machine();
    let load_before = sys::load_average();
    let (server_cpus, all_cpus) = choose_cpus(o.pin)?;
    let _boost = if o.boost {
        sys::raise_priority(-10)
            .map_err(|e| format!("--boost cannot raise the priority (needs root): {e}"))?;
        Some(sys::AutogroupBoost::raise(-10).map_err(|e| {
            format!("--boost cannot raise the session's priority (needs root): {e}")
        })?)
    } else {
        None
    };
    let mode = if o.quick { "quick" } else { "full" };
    let (reps, max_warmup, measure, decode_budget, call_budget, build_reps) = if o.quick {
        (3, 10.0, 2.0, 0.25, 0.5, 1)
    } else {
        (5, 20.0, 5.0, 1.0, 2.0, 5)
    };
    let reps = o.reps.unwrap_or(reps);
    let measure = o.measure.unwrap_or(measure);
    let secs = Duration::from_secs_f64;
    let quiet = if o.quick {
        quiet::Quiet::new(0.3, secs(5.0), secs(20.0), 6)
    } else {
        quiet::Quiet::new(0.3, secs(20.0), secs(120.0), 20)
    };
    println!("avalanche-rpc benchmarks ({mode} mode) on {machine}");
    match &server_cpus {
        Some(s) => println!(
            "servers on CPU {s:?}, load generator and clients on CPU {:?}",
            all_cpus.get(1)
        ),
        None => println!("not pinned (--no-pin)"),
    }

    println!("building the data…");
    let fixtures = data::Fixtures::build();
    fixtures.check()?;

    let mut rows: Vec<Row> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the tokio runtime: {e}"))?;
    let want = |g: &str| o.groups.iter().any(|x| x == g);

    let settings = server_bench::Settings {
        reps,
        plan: load::Plan {
            window: secs(1.0),
            agree: 0.03,
            shift: 0.10,
            max_warmup: secs(max_warmup),
            measure: secs(measure),
        },
        small_connections: 8,
        large_connections: 4,
        server_cpus: server_cpus.clone(),
    };
    // A group that fails is reported and the others still run.
    let mut failed: Vec<String> = Vec::new();
    let mut record = |group: &str, result: Result<Vec<Row>, String>| match result {
        Ok(r) => rows.extend(r),
        Err(e) => {
            eprintln!("error in group {group}: {e}");
            failed.push(format!("Group `{group}` failed: {}", e.replace('\n', " ")));
        }
    };
    let steady = format!(
        "warmed up until two consecutive {:.0} s windows agree within {:.0} % (at most {max_warmup} s), then {measure} s measured in 1 s slices taken in turn with the other servers",
        settings.plan.window.as_secs_f64(),
        settings.plan.agree * 100.0
    );
    if want("server") {
        println!("server throughput: {reps} repetitions × 4 servers × 3 replies, each {steady}");
        let r = runtime.block_on(server_bench::run(&fixtures, &settings, &quiet));
        record(
            "server",
            r.map(|r| {
                notes.extend(r.notes);
                r.rows
            }),
        );
    }
    if want("decode") {
        println!("client decode: {reps} repetitions, {decode_budget} s per figure");
        record(
            "decode",
            decode::run(&fixtures, reps, secs(decode_budget), &quiet),
        );
    }
    if want("codec") {
        println!("codec: {reps} repetitions, {decode_budget} s per figure");
        record(
            "codec",
            codec_bench::run(&fixtures, reps, secs(decode_budget), &quiet),
        );
    }
    if want("call") {
        println!("client call overhead: {reps} repetitions, {call_budget} s per figure");
        let r = runtime.block_on(call_bench::run(
            reps,
            secs(call_budget),
            server_cpus.clone(),
            &quiet,
        ));
        record("call", r);
    }
    if want("wallet") {
        println!(
            "wallet against AvalancheJS in Node: {reps} repetitions, {call_budget} s per figure"
        );
        record(
            "wallet",
            wallet_bench::run(&repo_dir(), reps, secs(call_budget), &quiet),
        );
    }
    if want("generator") {
        println!("generator: {reps} repetitions");
        record(
            "generator",
            gen_bench::run_generator(&repo_dir().join("spec"), reps),
        );
    }
    if want("build") {
        println!("incremental build: {build_reps} repetition(s)");
        let setup = gen_bench::BuildSetup {
            repo: repo_dir(),
            target_dir: repo_dir().join("bench/target-incremental"),
            reps: build_reps,
            cpus: all_cpus.clone(),
        };
        record("build", gen_bench::run_incremental(&setup));
    }
    notes.extend(failed.iter().cloned());
    notes.extend(quiet.summary());

    let load_after = sys::load_average();
    let header = format!(
        "Machine: {machine}. Mode: {mode} ({reps} repetitions; server runs {steady}, \
         {} and {} keep-alive connections for the small and large reply; servers pinned to one core, \
         the load generator to another: {}; priority boost: {}). Load average before/after: {load_before} / {load_after}. \
         Took {:.0} s.",
        settings.small_connections,
        settings.large_connections,
        if server_cpus.is_some() { "yes" } else { "no" },
        if o.boost { "nice -10" } else { "no" },
        started.elapsed().as_secs_f64(),
    );
    let mut md = String::new();
    md.push_str("# avalanche-rpc benchmarks\n\n");
    md.push_str(&header);
    md.push_str("\n\nEach figure: median (min..max) over the repetitions. Ratio: this project's figure over the baseline's, \
                 per repetition, then median (min..max); for req/s higher is better, for times lower is better. \
                 Targets apply to the median ratio.\n\n");
    md.push_str(&report::table(&rows));
    if !notes.is_empty() {
        md.push('\n');
        for n in &notes {
            md.push_str(&format!("- {n}\n"));
        }
    }
    println!("\n{md}");
    if let Some(dir) = o.out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    std::fs::write(&o.out, &md).map_err(|e| format!("cannot write {}: {e}", o.out.display()))?;
    println!("written to {}", o.out.display());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("{} group(s) failed (see above)", failed.len()))
    }
}
