//! `avalanche-devnet`: a local Avalanche node for developers. Flags use the node's names.

use avalanche_devnet::http::Gate;
use avalanche_devnet::logs::{Level, Levels, Logs};
use avalanche_devnet::serving::Serving;
use avalanche_devnet::{Devnet, Options, genesis, rpc};
use clap::Parser;
use std::path::PathBuf;
use std::sync::Arc;

/// A local Avalanche node for developers: the X- and P-chains, the index, info and the devnet
/// controls (/ext/devnet) answered from real, consistent state, with funded test keys. Flags
/// use the node's names.
#[derive(Parser, Debug)]
#[command(name = "avalanche-devnet", version)]
struct Flags {
    /// Address to listen on for the HTTP API.
    #[arg(long, default_value = "127.0.0.1")]
    http_host: String,
    /// Port of the HTTP API.
    #[arg(long, default_value_t = 9650)]
    http_port: u16,
    /// Port reported as this node's staking port (`info.getNodeIP`); the devnet opens none.
    #[arg(long, default_value_t = 9651)]
    staking_port: u16,
    /// The network's ID (12345: `local`, addresses `X-local1…`). With `--genesis-file`, the
    /// file's `networkID` (this flag, if given, must agree).
    #[arg(long)]
    network_id: Option<u32>,
    /// Start a fresh chain from this genesis, in the node's genesis-file format (as its
    /// `genesis_local.json`), instead of the built-in one; the start history is then left
    /// out. The file is kept with the chain, so a restart on the same `--db-dir` needs no
    /// flag. Unlike the node, any network ID may be given one, the local network's included.
    #[arg(long)]
    genesis_file: Option<PathBuf>,
    /// The upgrades' schedule, in the node's format (a JSON `upgrade.Config`): Helicon at a
    /// time of your choosing enables ACP-236's auto-renewed validators on the P-chain. As
    /// the node, only on a network other than mainnet, fuji and local (`--network-id`); the
    /// upgrades up to Granite must be active by the genesis time. Given at each start.
    #[arg(long)]
    upgrade_file: Option<PathBuf>,
    /// Keep the chain in this directory, across restarts. Without it the devnet runs in
    /// memory and starts from genesis each time.
    #[arg(long, conflicts_with = "in_memory")]
    db_dir: Option<PathBuf>,
    /// Keep everything in memory (the default when `--db-dir` is not given).
    #[arg(long)]
    in_memory: bool,
    /// Serve the index API (`/ext/index/...`). On by default here, unlike the node, because
    /// explorers and indexers are what a devnet is for; `--index-enabled=false` turns it off.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    index_enabled: bool,
    /// Start even though indexing was on before and is off now (the index will miss the
    /// containers accepted meanwhile until it is turned on again, which catches it up).
    #[arg(long)]
    index_allow_incomplete: bool,
    /// The most bytes of transactions each chain's mempool holds (the node's 64 MiB by
    /// default); a transaction that does not fit is refused with `mempool is full`.
    #[arg(long, default_value_t = avalanche_devnet::engine::pool::MAX_BYTES)]
    mempool_bytes: usize,
    /// The page cache of the store on disk (with --db-dir), in bytes: what of the chain the
    /// process keeps in memory at most.
    #[arg(long, default_value_t = avalanche_devnet::store::CACHE_BYTES)]
    db_cache_bytes: usize,
    /// P-chain blocks are a second apart in chain time, as the node's minimum block delay
    /// makes them; the devnet does not wait that second but lets the chain's time run ahead
    /// of the clock, by at most this many seconds (the node's sync bound by default), after
    /// which it waits as the node does. Larger keeps a test that issues many P-chain
    /// transactions in a row fast.
    #[arg(long, default_value_t = avalanche_devnet::LEAD)]
    p_chain_lead: u64,
    /// Host names accepted in the `Host` header, comma-separated; `*` for any. IP addresses
    /// and an empty host are always accepted.
    #[arg(long, default_value = "localhost", value_delimiter = ',')]
    http_allowed_hosts: Vec<String>,
    /// Origins allowed by CORS, comma-separated; `*` for any.
    #[arg(long, default_value = "*", value_delimiter = ',')]
    http_allowed_origins: Vec<String>,
    /// The longest a request head may take to arrive (a Go duration: 30s, 2m, 0 for no
    /// limit), from the request's first byte (from accept for a connection's first request).
    #[arg(long, default_value = "30s", value_parser = timeout)]
    http_read_header_timeout: Timeout,
    /// The longest a whole request, head and body, may take to arrive.
    #[arg(long, default_value = "30s", value_parser = timeout)]
    http_read_timeout: Timeout,
    /// The longest a reply may take to be written, from when it is ready.
    #[arg(long, default_value = "30s", value_parser = timeout)]
    http_write_timeout: Timeout,
    /// The longest a keep-alive connection may wait for its next request.
    #[arg(long, default_value = "120s", value_parser = timeout)]
    http_idle_timeout: Timeout,
    /// The most HTTP connections open at once (the node has no cap).
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..))]
    http_max_connections: u32,
    /// With the cap reached, make room for a new connection by closing the one idle the
    /// longest (never one with a request under way); `false`: new ones wait.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    http_evict_idle: bool,
    /// With --http-evict-idle, how many connections beyond the cap may wait for their first
    /// byte (silent ones; the one waiting the longest is closed for the next).
    #[arg(long, default_value_t = 4_096, value_parser = clap::value_parser!(u32).range(1..))]
    http_max_waiting: u32,
    /// The most bytes of request bodies held at once, across connections (the first 64 KiB of
    /// each do not count); a body that does not fit gets HTTP 503 with Retry-After.
    #[arg(long, default_value_t = 32 * 1024 * 1024)]
    http_body_budget: usize,
    /// Behave as a public API server: `info.getNodeID`, `info.getNodeIP` and `info.getVMs`
    /// are not served.
    #[arg(long)]
    public: bool,
    /// On a fresh chain, start with a short history made by the activity generator (transfers
    /// on X and P, an asset created, a token minted), so every method has something to show.
    /// `--history=false` starts from bare genesis.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    history: bool,
    /// Keep the activity generator running: a transfer between the test keys every
    /// `--block-interval` on the X-chain, and every third one on the P-chain.
    #[arg(long)]
    activity: bool,
    /// Seconds between the activity generator's transfers (with `--activity`).
    #[arg(long, default_value_t = 2.0)]
    block_interval: f64,
    /// Serve the admin API (`/ext/admin`: aliases, logger levels, the configuration). Off by
    /// default, as on the node.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    api_admin_enabled: bool,
    /// What the loggers write to their files in `--log-dir` (the node's levels: off, fatal,
    /// error, warn, info, trace, debug, verbo).
    #[arg(long, default_value = "info", value_parser = level)]
    log_level: Level,
    /// What the loggers print; by default `--log-level`.
    #[arg(long, value_parser = level)]
    log_display_level: Option<Level>,
    /// Write each logger's lines to `<dir>/<logger>.log` too. Without it nothing is written
    /// to files (the node's default is ~/.avalanchego/logs).
    #[arg(long)]
    log_dir: Option<PathBuf>,
}

fn level(text: &str) -> Result<Level, String> {
    Level::parse(text)
}

impl Flags {
    /// The configuration `admin.getConfig` gives: every flag, by the node's name.
    fn config(&self) -> serde_json::Value {
        serde_json::json!({
            "httpHost": self.http_host,
            "httpPort": self.http_port,
            "stakingPort": self.staking_port,
            "networkID": self.network_id,
            "genesisFile": self.genesis_file,
            "dbDir": self.db_dir,
            "inMemory": self.in_memory || self.db_dir.is_none(),
            "indexEnabled": self.index_enabled,
            "indexAllowIncomplete": self.index_allow_incomplete,
            "mempoolBytes": self.mempool_bytes,
            "dbCacheBytes": self.db_cache_bytes,
            "pChainLead": self.p_chain_lead,
            "httpAllowedHosts": self.http_allowed_hosts,
            "httpAllowedOrigins": self.http_allowed_origins,
            "httpReadHeaderTimeout": self.http_read_header_timeout.0.map(|d| d.as_secs_f64()),
            "httpReadTimeout": self.http_read_timeout.0.map(|d| d.as_secs_f64()),
            "httpWriteTimeout": self.http_write_timeout.0.map(|d| d.as_secs_f64()),
            "httpIdleTimeout": self.http_idle_timeout.0.map(|d| d.as_secs_f64()),
            "httpMaxConnections": self.http_max_connections,
            "httpEvictIdle": self.http_evict_idle,
            "httpMaxWaiting": self.http_max_waiting,
            "httpBodyBudget": self.http_body_budget,
            "public": self.public,
            "history": self.history,
            "activity": self.activity,
            "blockInterval": self.block_interval,
            "apiAdminEnabled": self.api_admin_enabled,
            "logLevel": self.log_level.name(),
            "logDisplayLevel": self.log_display_level.unwrap_or(self.log_level).name(),
            "logDir": self.log_dir,
        })
    }
}

fn main() {
    // Before any other thread exists, so the limit holds for all of them.
    avalanche_devnet::os::limit_arenas();
    let flags = Flags::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("avalanche-devnet: cannot start the async runtime: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = runtime.block_on(run(flags)) {
        eprintln!("avalanche-devnet: {e}");
        std::process::exit(1);
    }
}

async fn run(flags: Flags) -> Result<(), Box<dyn std::error::Error>> {
    if !(flags.block_interval > 0.0 && flags.block_interval.is_finite()) {
        return Err(format!(
            "--block-interval must be a positive number of seconds, not {}",
            flags.block_interval
        )
        .into());
    }
    if let Some(dir) = &flags.log_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("--log-dir {}: {e}", dir.display()))?;
    }
    let logs = Arc::new(Logs::new(
        Levels {
            log: flags.log_level,
            display: flags.log_display_level.unwrap_or(flags.log_level),
        },
        flags.log_dir.clone(),
    ));
    let serving = Arc::new(Serving::new(
        logs.clone(),
        flags.api_admin_enabled.then(|| flags.config()),
    ));
    // Serve /ext/health from the first moment: readiness fails until the devnet has started.
    let gate = Gate {
        hosts: flags
            .http_allowed_hosts
            .iter()
            .map(|h| h.to_lowercase())
            .collect(),
        origins: flags.http_allowed_origins.clone(),
    };
    let app = avalanche_devnet::serving_app(serving.clone(), gate);
    let listener = listen(&flags.http_host, flags.http_port)
        .await
        .map_err(|e| bind_error(&flags.http_host, flags.http_port, &e))?;
    let addr = listener.local_addr()?;
    avalanche_devnet::os::start_trimming();
    let fds = avalanche_devnet::os::raise_fd_limit();
    let wanted = u64::from(flags.http_max_connections) + u64::from(flags.http_max_waiting) + 64;
    if let Some(fds) = fds.filter(|&fds| fds < wanted) {
        eprintln!(
            "avalanche-devnet: the open-file limit is {fds}, under the {wanted} that \
             --http-max-connections and --http-max-waiting may use; raise it (ulimit -n) or \
             lower them"
        );
    }
    let serve = avalanche_rpc::rpc::ServerConfig::default()
        .read_header_timeout(flags.http_read_header_timeout.0)
        .read_timeout(flags.http_read_timeout.0)
        .write_timeout(flags.http_write_timeout.0)
        .idle_timeout(flags.http_idle_timeout.0)
        .max_connections(flags.http_max_connections as usize)
        .evict_idle(flags.http_evict_idle)
        .max_waiting(flags.http_max_waiting as usize)
        .body_budget(flags.http_body_budget);
    let server = tokio::spawn(avalanche_rpc::rpc::serve(listener, app, serve));
    logs.log(
        "main",
        Level::Debug,
        &format!("starting; /ext/health answers on http://{addr}"),
    );
    let genesis = match &flags.genesis_file {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| format!("--genesis-file {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let network_id = match (&genesis, flags.network_id) {
        (Some(json), given) => {
            let now = avalanche_devnet::clock::Clock::default().now();
            avalanche_devnet::genesis_file::parse(json, given, now)
                .map_err(|e| format!("--genesis-file: {e}"))?
                .genesis
                .network_id
        }
        (None, given) => given.unwrap_or(genesis::LOCAL_NETWORK_ID),
    };
    let options = Options {
        network_id,
        db_dir: flags.db_dir.clone(),
        index_enabled: flags.index_enabled,
        index_allow_incomplete: flags.index_allow_incomplete,
        staking_port: flags.staking_port,
        genesis,
        mempool_bytes: flags.mempool_bytes,
        db_cache_bytes: flags.db_cache_bytes,
        p_chain_lead: flags.p_chain_lead,
        upgrade_file: match &flags.upgrade_file {
            Some(path) => Some(std::fs::read_to_string(path).map_err(|e| {
                format!(
                    "--upgrade-file {}: unable to read upgrade file: {e}",
                    path.display()
                )
            })?),
            None => None,
        },
    };
    let devnet = Arc::new(tokio::task::spawn_blocking(move || Devnet::open(options)).await??);
    if devnet.fresh && flags.history && devnet.options.genesis.is_none() {
        let d = devnet.clone();
        let h = tokio::task::spawn_blocking(move || avalanche_devnet::activity::seed(&d)).await??;
        println!(
            "History: {} X-chain and {} P-chain transactions made at start (asset DCL {}, \
             Subnet {} with chain {}, L1 {} with chain {})",
            h.x_txs.len(),
            h.p_txs.len(),
            h.new_asset,
            h.subnet,
            h.chain,
            h.l1,
            h.l1_chain
        );
    }
    tokio::spawn(avalanche_devnet::devnet::build_blocks(devnet.clone()));
    if flags.activity {
        let every = std::time::Duration::from_secs_f64(flags.block_interval);
        tokio::spawn(avalanche_devnet::activity::run(devnet.clone(), every));
    }
    serving.started(devnet.clone(), rpc::router(devnet.clone(), flags.public));
    // The banner first: its first line says the devnet is up (tests wait for it).
    print_banner(&devnet, &addr.to_string(), &flags);
    logs.log(
        "main",
        Level::Info,
        "started: every interface answers, readiness passes",
    );
    server.await??;
    Ok(())
}

/// The HTTP listener, with a backlog as deep as the system allows (the kernel caps it at
/// `net.core.somaxconn`, 4,096 by default; Go's `net.Listen`, so the node, asks for that
/// too): under a flood of connections the ones waiting to be accepted queue there rather than
/// have their SYN dropped and retried a second later. tokio's `bind` asks for 1,024.
async fn listen(host: &str, port: u16) -> std::io::Result<tokio::net::TcpListener> {
    let mut last = None;
    for addr in tokio::net::lookup_host((host, port)).await? {
        let socket = if addr.is_ipv4() {
            tokio::net::TcpSocket::new_v4()?
        } else {
            tokio::net::TcpSocket::new_v6()?
        };
        socket.set_reuseaddr(true)?;
        match socket.bind(addr).and_then(|()| socket.listen(65_535)) {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::AddrNotAvailable,
            format!("{host} resolves to no address"),
        )
    }))
}

/// Why the HTTP port could not be taken, and what to do about it.
fn bind_error(host: &str, port: u16, e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::AddrInUse => format!(
            "cannot serve on {host}:{port}: the port is in use (another devnet or node?); \
             stop it, or choose another port with --http-port"
        ),
        std::io::ErrorKind::PermissionDenied => format!(
            "cannot serve on {host}:{port}: permission denied (ports below 1024 need \
             privileges); choose another port with --http-port"
        ),
        _ => format!("cannot serve on {host}:{port}: {e} (--http-host, --http-port)"),
    }
}

/// A timeout flag's value: `None` is no limit (the node's `0`).
#[derive(Clone, Copy, Debug)]
struct Timeout(Option<std::time::Duration>);

fn timeout(text: &str) -> Result<Timeout, String> {
    avalanche_devnet::duration::parse_timeout(text).map(Timeout)
}

fn print_banner(devnet: &Devnet, addr: &str, flags: &Flags) {
    let g = &devnet.genesis;
    let hrp = avalanche_rpc::network::hrp(g.network_id);
    println!(
        "avalanche-devnet {} (node API v{})",
        env!("CARGO_PKG_VERSION"),
        rpc::NODE_VERSION
    );
    println!(
        "network {} ({}), {}",
        g.network_id,
        avalanche_rpc::network::name(g.network_id),
        match &flags.db_dir {
            Some(d) => format!("chain kept in {}", d.display()),
            None => "in memory".to_string(),
        }
    );
    println!();
    if devnet.options.genesis.is_some() {
        println!("Test keys (funded only where the genesis file allocates to them):");
    } else {
        println!("Test keys (funded on the X-chain; never use them elsewhere):");
    }
    let mut first = String::new();
    for (i, k) in genesis::test_keys().iter().enumerate() {
        let a = avalanche_rpc::wire::Address::new(Some("X"), hrp, *k.address().as_bytes())
            .map(|a| a.to_string())
            .unwrap_or_default();
        println!("  ({i}) {a}  {k}");
        if i == 0 {
            first = a;
        }
    }
    println!();
    println!(
        "Assets: {}",
        g.assets
            .iter()
            .map(|a| format!("{} {}", a.alias, a.id))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!("X-chain {}  C-chain {}", g.x_chain_id, g.c_chain_id);
    println!();
    println!("Serving on http://{addr}:");
    println!("  /ext/info               info.*");
    println!(
        "  /ext/bc/X               avm.*   (also /ext/bc/{})",
        g.x_chain_id
    );
    println!("  /ext/bc/X/wallet        wallet.issueTx");
    if devnet.options.index_enabled {
        println!("  /ext/index/X/block      index.*  (also X/tx, X/vtx, P/block, C/block)");
    }
    println!("  /ext/health             health.*  (GET too: /ext/health, /readiness, /liveness)");
    if flags.api_admin_enabled {
        println!("  /ext/admin              admin.*");
    }
    println!();
    println!("Try:");
    println!(
        "  curl -s -X POST -H 'content-type: application/json' --data '{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"avm.getBalance\",\"params\":{{\"address\":\"{first}\",\"assetID\":\"AVAX\"}}}}' http://{addr}/ext/bc/X"
    );
}
