//! `call METHOD [FLAGS]`: any method of the spec, with one flag per param, built at run time
//! from the generated catalog (`avalanche_rpc::METHODS`: params with their types, JSON kinds,
//! defaults and summaries; path variables; examples).
//!
//! ```sh
//! avax-rpc call --list
//! avax-rpc call platform.getBalance --help
//! avax-rpc call platform.getBalance --addresses P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u
//! avax-rpc call avm.getTx --chain X --txID 2o… --encoding json --raw
//! avax-rpc call index.getLastAccepted --chain X --kind block
//! avax-rpc call info.peers --params '{"nodeIDs": []}'
//! ```
//!
//! How a flag's text becomes JSON (`value` below), by the JSON the spec writes the param as:
//! a string (IDs, addresses, decimal integers such as `u64`, enums) takes the text as it is
//! (a JSON string literal, `'"…"'`, is read as that string); a number, a boolean, an object
//! or an untyped value takes the text as JSON when it parses as JSON of that kind, and as a
//! string otherwise (so the typed check below says what is wrong with it). A list takes the
//! flag once per element (repeated), elements separated by commas, or a whole JSON array
//! (`'[…]'`); an element that is an object is always one JSON object. `--params '{…}'` gives
//! the whole params object; flags then set members of it.
//!
//! The params are checked by decoding them into the method's generated params type before
//! anything is sent; a problem names the flag it came from (`--addresses: …`), or `--params`
//! and the member's path. The output is the `result` of the node's reply as the node wrote
//! it. Exit status: 0, the result printed; 1, the node answered with a JSON-RPC error (code,
//! message and data on standard error) or could not be reached; 2, a usage problem (unknown
//! method or flag, a param refused: nothing was sent); 3, the result was printed but does not
//! decode as the spec's result type (the problem on standard error).
//!
//! `METHOD --help` shows the spec's first example filled from the node at `--url` (the
//! devnet's URL by default) where a value must exist there: an address of its network, an ID
//! its chain has, a height it has, the index path that holds containers (`harvest.rs`, by
//! param name, a few seconds at most). When no node answers it says so in one line and shows
//! the spec's example.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use avalanche_rpc::rpc::{
    ClientError, HttpReply, HttpTransport, JsonKind, MethodInfo, Node, ParamInfo, Transport,
    TransportError,
};
use avalanche_rpc::{
    METHODS, admin, avax, avm, avm_static, devnet, eth, health, index, info, platform, proposervm,
    wallet,
};
use clap::{Arg, ArgAction, ArgMatches, Args, Command};
use serde_json::{Map, Value};

use super::wallet::DEFAULT_URL;

/// `avax-rpc call`: the rest of the command line is read at run time, once the method is
/// known.
#[derive(Args)]
#[command(disable_help_flag = true)]
pub struct Call {
    /// A method's wire name (`platform.getBalance`), then its flags: `--list` lists the
    /// methods, `METHOD --help` shows a method's params and an example.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        num_args = 0..,
        value_name = "METHOD [FLAGS]"
    )]
    args: Vec<String>,
}

/// Flags every method has; a param or path variable of the same name gets a prefixed flag.
const FIXED: [&str; 5] = ["url", "raw", "params", "timeout", "help"];

const USAGE: &str = "usage: avax-rpc call METHOD [--url URL] [--PARAM VALUE]… [--params JSON] [--raw]\n       \
     avax-rpc call --list                the methods, each with its summary\n       \
     avax-rpc call METHOD --help         a method's params, path variables and an example";

/// What went wrong, and the exit status it gives.
enum Failure {
    /// Nothing was sent: unknown method or flag, a param refused (2).
    Usage(String),
    /// The node's JSON-RPC error, or no reply (1).
    Call(String),
    /// The result, printed, does not decode as the method's result type (3).
    Drift(String),
}

pub fn run(c: Call) -> ExitCode {
    match call(c.args) {
        Ok(text) => {
            out(&text);
            ExitCode::SUCCESS
        }
        Err(Failure::Usage(e)) => {
            super::secrets::report(&format!("avax-rpc call: {e}"));
            ExitCode::from(2)
        }
        Err(Failure::Call(e)) => {
            super::secrets::report(&format!("avax-rpc call: {e}"));
            ExitCode::FAILURE
        }
        Err(Failure::Drift(e)) => {
            super::secrets::report(&format!("avax-rpc call: {e}"));
            ExitCode::from(3)
        }
    }
}

/// A line on standard output; a closed pipe (`| head`) is not an error.
fn out(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

fn call(args: Vec<String>) -> Result<String, Failure> {
    let Some(first) = args.first() else {
        return Err(Failure::Usage(USAGE.into()));
    };
    match first.as_str() {
        "--list" if args.len() == 1 => return Ok(list()),
        "--list" => {
            return Err(Failure::Usage(
                "--list takes nothing else: avax-rpc call --list".into(),
            ));
        }
        "-h" | "--help" => return Ok(format!("Calls a method of the node's API.\n\n{USAGE}")),
        f if f.starts_with('-') => {
            return Err(Failure::Usage(format!(
                "the method comes first, then its flags (`{f}` came first)\n{USAGE}"
            )));
        }
        _ => {}
    }
    let method = find(first).map_err(Failure::Usage)?;
    let mut flags = Flags::of(method);
    if args[1..].iter().any(|a| a == "--help" || a == "-h") {
        flags.help_url = url_given(&args[1..]);
        flags.filled = filled(method, flags.help_url.clone());
    }
    let matches = match flags.command().try_get_matches_from(
        std::iter::once(format!("avax-rpc call {}", method.name)).chain(args.into_iter().skip(1)),
    ) {
        Ok(m) => m,
        Err(e) => {
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp => Ok(e.render().to_string()),
                clap::error::ErrorKind::UnknownArgument => Err(Failure::Usage(format!(
                    "{}\n{}",
                    e.render().to_string().trim_end(),
                    flags.names()
                ))),
                _ => Err(Failure::Usage(e.render().to_string())),
            };
        }
    };
    let (params, by_flags) = flags.params(&matches).map_err(Failure::Usage)?;
    let url = matches
        .get_one::<String>("url")
        .cloned()
        .unwrap_or_else(|| DEFAULT_URL.into());
    let timeout: u64 = *matches.get_one::<u64>("timeout").unwrap_or(&30);
    let vars: BTreeMap<&str, String> = flags
        .path_vars
        .iter()
        .filter_map(|(var, id)| Some((*var, matches.get_one::<String>(id)?.clone())))
        .collect();
    let raw = matches.get_flag("raw");

    let transport = HttpTransport::builder(url.trim_end_matches('/'))
        .timeout(Duration::from_secs(timeout))
        .build()
        .map_err(|e| Failure::Usage(format!("--url: {e}")))?;
    let recorder = Recorder {
        inner: transport,
        last: Arc::new(Mutex::new(None)),
    };
    let node = Node::new(recorder.clone());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Call(format!("cannot start the runtime: {e}")))?;
    let outcome = runtime.block_on(dispatch(&node, method, &vars, params));
    // The result as the node wrote it (the typed one is the same after decoding, but may
    // order or spell some members otherwise).
    let written = recorder
        .last
        .lock()
        .ok()
        .and_then(|last| last.clone())
        .and_then(|body| serde_json::from_slice::<Value>(&body).ok())
        .and_then(|mut reply| reply.get_mut("result").map(Value::take));
    let show = |v: &Value| {
        if raw {
            v.to_string()
        } else {
            serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
        }
    };
    match outcome {
        Ok(typed) => Ok(show(written.as_ref().unwrap_or(&typed))),
        Err(ClientError::Rpc { method, error }) => {
            let mut text = format!(
                "{method}: the node answered with error {}: {}",
                error.code, error.message
            );
            if let Some(data) = &error.data {
                text.push_str(&format!("\ndata: {data}"));
            }
            Err(Failure::Call(text))
        }
        Err(ClientError::Decode {
            method,
            path,
            message,
        }) => match written {
            Some(result) => {
                out(&show(&result));
                Err(Failure::Drift(format!(
                    "{method}: the result above does not match the spec at `{path}`: {message}"
                )))
            }
            None => Err(Failure::Call(format!(
                "{method}: cannot decode the result at `{path}`: {message}"
            ))),
        },
        Err(ClientError::InvalidParams { path, message, .. }) => {
            Err(Failure::Usage(flags.blame(&path, &message, &by_flags)))
        }
        Err(e) => Err(Failure::Call(e.to_string())),
    }
}

/// Calls `method` through its interface's `call_json` (which decodes the params into the
/// generated type before sending anything).
async fn dispatch<T: Transport + Clone>(
    node: &Node<T>,
    method: &MethodInfo,
    vars: &BTreeMap<&str, String>,
    params: Value,
) -> Result<Value, ClientError> {
    let var = |name: &str| vars.get(name).map(String::as_str).unwrap_or_default();
    let name = method.name;
    match method.interface {
        "info" => info::call_json(&node.info(), name, params).await,
        "platform" => platform::call_json(&node.platform(), name, params).await,
        "avm" => avm::call_json(&node.avm(var("chain")), name, params).await,
        "avm-static" => avm_static::call_json(&node.avm_static(), name, params).await,
        "wallet" => wallet::call_json(&node.wallet(var("chain")), name, params).await,
        "index" => index::call_json(&node.index(var("chain"), var("kind")), name, params).await,
        "proposervm" => proposervm::call_json(&node.proposervm(var("chain")), name, params).await,
        "devnet" => devnet::call_json(&node.devnet(), name, params).await,
        "avax" => avax::call_json(&node.avax(var("chain")), name, params).await,
        "eth" => eth::call_json(&node.eth(var("chain")), name, params).await,
        "health" => health::call_json(&node.health(), name, params).await,
        "admin" => admin::call_json(&node.admin(), name, params).await,
        other => Err(ClientError::UnknownMethod {
            method: format!("{name} (its interface `{other}` is not wired into `avax-rpc call`)"),
        }),
    }
}

/// The HTTP transport, keeping the last reply's body: what is printed is the node's JSON.
#[derive(Clone)]
struct Recorder {
    inner: HttpTransport,
    last: Arc<Mutex<Option<bytes::Bytes>>>,
}

impl Transport for Recorder {
    fn post(
        &self,
        path: &str,
        body: Vec<u8>,
    ) -> impl Future<Output = Result<HttpReply, TransportError>> + Send {
        let sent = self.inner.post(path, body);
        let last = self.last.clone();
        async move {
            let reply = sent.await?;
            if let Ok(mut last) = last.lock() {
                *last = Some(reply.body.clone());
            }
            Ok(reply)
        }
    }
}

// ---- the methods ----

/// The method of that wire name, or an error with the closest names.
fn find(name: &str) -> Result<&'static MethodInfo, String> {
    if let Some(m) = METHODS.iter().find(|m| m.name == name) {
        return Ok(m);
    }
    let suggestions = suggest(name);
    let hint = match suggestions.as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean `{one}`?"),
        many => format!(
            "; did you mean one of {}?",
            many.iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Err(format!(
        "no method `{name}` in the spec{hint} (`avax-rpc call --list` lists them)"
    ))
}

/// The names closest to `name`: the same but for case, the same method in another
/// interface or without its namespace, or within a few edits.
fn suggest(name: &str) -> Vec<&'static str> {
    let lower = name.to_lowercase();
    let short = lower.rsplit('.').next().unwrap_or(&lower).to_string();
    let mut scored: Vec<(usize, &'static str)> = METHODS
        .iter()
        .filter_map(|m| {
            let candidate = m.name.to_lowercase();
            let method = candidate.rsplit('.').next().unwrap_or(&candidate);
            let d = if candidate == lower {
                0
            } else if method == short {
                1
            } else {
                edit_distance(&lower, &candidate)
            };
            let limit = (lower.chars().count() / 5).clamp(2, 4);
            (d <= limit).then_some((d, m.name))
        })
        .collect();
    scored.sort();
    let best = scored.first().map(|(d, _)| *d);
    scored
        .into_iter()
        .filter(|(d, _)| Some(*d) == best || (*d <= 1 && best != Some(0)))
        .map(|(_, n)| n)
        .take(5)
        .collect()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(row[j]).min(row[j + 1])
            };
            prev = here;
        }
    }
    row[b.len()]
}

/// `--list`: every method, its summary, and what limits it.
fn list() -> String {
    let width = METHODS.iter().map(|m| m.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for m in METHODS {
        let marks = marks(m);
        let marks = if marks.is_empty() {
            String::new()
        } else {
            format!(" [{}]", marks.join("; "))
        };
        out.push_str(&format!("{:width$}  {}{marks}\n", m.name, m.summary));
    }
    out.push_str(&format!(
        "\n{} methods; `avax-rpc call METHOD --help` for one's params.",
        METHODS.len()
    ));
    out
}

/// `deprecated`, `removed in v1.13.1`, `devnet only`, `since v1.14.0`, `changes state`.
fn marks(m: &MethodInfo) -> Vec<String> {
    let mut marks = Vec::new();
    if let Some(v) = m.removed {
        marks.push(format!("removed in {v}"));
    } else if m.deprecated {
        marks.push("deprecated".into());
    }
    if m.devnet_only {
        marks.push("devnet only".into());
    }
    if let Some(v) = m.since {
        marks.push(format!("since {v}"));
    }
    if m.changes_state {
        marks.push("changes state".into());
    }
    marks
}

// ---- the flags of one method ----

/// The flags of one method: one per path variable and one per param.
struct Flags {
    method: &'static MethodInfo,
    /// Path variable → its flag's name.
    path_vars: Vec<(&'static str, String)>,
    /// Param → its flag's name.
    params: Vec<(&'static ParamInfo, String)>,
    /// For `--help`: the example filled from the node at `--url`, or why not.
    filled: Filled,
    /// For `--help`: `--url`'s value, which the example names unless it is the default.
    help_url: String,
}

/// The example `--help` shows: the spec's first example with the values a node at `--url`
/// has where one must exist there (an address of its network, an ID from its index, a height
/// it has): from [`harvest`](super::harvest), by param name.
enum Filled {
    /// Not asked for (no `--help`), or nothing to fill (no params, no example).
    Spec,
    /// No node answered at the URL.
    NoNode(String),
    /// The node at the URL answered: the params, and the names of those its replies gave.
    Node {
        url: String,
        /// The path variables: those of the first path at which the node answered.
        path_values: BTreeMap<&'static str, String>,
        params: Value,
        from_node: Vec<&'static str>,
    },
}

/// The value of `--url` in `args` (`--url URL` or `--url=URL`), else the default.
fn url_given(args: &[String]) -> String {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--url" {
            if let Some(u) = it.next() {
                return u.clone();
            }
        } else if let Some(u) = a.strip_prefix("--url=") {
            return u.to_string();
        }
    }
    DEFAULT_URL.to_string()
}

/// Seconds each call of the harvest for `--help` may take, and all of them together.
const HELP_CALL_TIMEOUT: u64 = 2;
const HELP_TIMEOUT: u64 = 8;

/// The spec's first example of `m` (or its required params) filled from the node at `url`.
fn filled(m: &'static MethodInfo, url: String) -> Filled {
    use super::harvest;
    let example = m
        .examples
        .first()
        .map_or_else(|| Value::Object(Map::new()), |e| e.params());
    let Some(object) = example.as_object() else {
        return Filled::Spec;
    };
    let wanted: Vec<&'static ParamInfo> = m
        .params
        .iter()
        .filter(|p| !p.optional || object.contains_key(p.name))
        .collect();
    if wanted.is_empty() {
        return Filled::Spec;
    }
    let base = url.trim_end_matches('/').to_string();
    let Ok(transport) = HttpTransport::builder(&base)
        .timeout(Duration::from_secs(HELP_CALL_TIMEOUT))
        .build()
    else {
        return Filled::Spec;
    };
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return Filled::Spec;
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(HELP_TIMEOUT);
    // A value of the path's chain first (an X-chain transaction for `avm.getTx`), else any.
    let fill = |h: &harvest::Harvested, own_chain_only: bool| {
        let path = h.path(m);
        let mut params = object.clone();
        let mut from_node = Vec::new();
        for p in &wanted {
            let e = object.get(p.name);
            // An unsigned Warp message: the node's network and one of its chains as source.
            let warp = || e.and_then(|e| harvest::warp_message(&h.values, e));
            let v = harvest::value_for(&h.values, m, p, &path, e, &params, true).or_else(warp);
            let v = v.or_else(|| {
                (!own_chain_only)
                    .then(|| harvest::value_for(&h.values, m, p, &path, e, &params, false))
                    .flatten()
            });
            if let Some(v) = v {
                params.insert(p.name.to_string(), v);
                from_node.push(p.name);
            }
        }
        (path, params, from_node)
    };
    let enough = |h: &harvest::Harvested| fill(h, true).2.len() == wanted.len();
    let Ok(h) = runtime.block_on(harvest::from_node(&transport, enough, deadline)) else {
        return Filled::NoNode(base);
    };
    let (path, params, from_node) = fill(&h, false);
    Filled::Node {
        url: base,
        path_values: harvest::path_values(m, &path),
        params: Value::Object(params),
        from_node,
    }
}

impl Flags {
    fn of(method: &'static MethodInfo) -> Flags {
        let params: Vec<(&ParamInfo, String)> = method
            .params
            .iter()
            .map(|p| {
                let flag = if FIXED.contains(&p.name) {
                    format!("param-{}", p.name)
                } else {
                    p.name.to_string()
                };
                (p, flag)
            })
            .collect();
        let path_vars = method
            .path_params
            .iter()
            .map(|v| {
                let taken = FIXED.contains(&v.name) || params.iter().any(|(_, f)| f == v.name);
                let flag = if taken {
                    format!("path-{}", v.name)
                } else {
                    v.name.to_string()
                };
                (v.name, flag)
            })
            .collect();
        Flags {
            method,
            path_vars,
            params,
            filled: Filled::Spec,
            help_url: DEFAULT_URL.to_string(),
        }
    }

    fn command(&self) -> Command {
        let m = self.method;
        let mut about = m.summary.to_string();
        let marks = marks(m);
        if !marks.is_empty() {
            about.push_str(&format!(" [{}]", marks.join("; ")));
        }
        let mut long_about = about.clone();
        if let Some(d) = m.description {
            long_about.push_str("\n\n");
            long_about.push_str(d.trim_end());
        }
        long_about.push_str(&format!("\n\nServed at `{}`.", m.path));
        let mut cmd =
            Command::new(format!("avax-rpc call {}", m.name))
                .about(about)
                .long_about(long_about)
                .disable_version_flag(true)
                .after_help(self.after_help())
                .arg(
                    Arg::new("url")
                        .long("url")
                        .value_name("URL")
                        .default_value(DEFAULT_URL)
                        .help("The node's base URL (the devnet's and a local node's by default)"),
                )
                .arg(
                    Arg::new("raw")
                        .long("raw")
                        .action(ArgAction::SetTrue)
                        .help("Print the result on one line rather than indented"),
                )
                .arg(
                    Arg::new("timeout")
                        .long("timeout")
                        .value_name("SECONDS")
                        .value_parser(clap::value_parser!(u64).range(1..))
                        .default_value("30")
                        .help(
                            "Seconds to wait for the reply, at least 1 (a request that could \
                             not wait would fail after the node may have acted on it)",
                        ),
                )
                .arg(Arg::new("params").long("params").value_name("JSON").help(
                    "The whole params object as JSON; a param's flag sets that member of it",
                ));
        for (var, flag) in &self.path_vars {
            let v = m
                .path_params
                .iter()
                .find(|p| p.name == *var)
                .expect("a path variable of this method");
            let mut help = format!("Path variable `{{{var}}}` of `{}`: {}", m.path, v.summary);
            if !v.examples.is_empty() {
                help.push_str(&format!(" (e.g. {})", v.examples.join(", ")));
            }
            let mut arg = Arg::new(flag.clone())
                .long(flag.clone())
                .value_name(var.to_uppercase())
                .help(help);
            arg = match v.default {
                Some(d) => arg.default_value(d),
                None => arg.required(true),
            };
            cmd = cmd.arg(arg);
        }
        for (p, flag) in &self.params {
            let list = p.kind == JsonKind::Array;
            let value_name = match (list, p.ty.strip_prefix("list<")) {
                (true, Some(inner)) => inner.strip_suffix('>').unwrap_or(inner).to_string(),
                _ => p.ty.to_string(),
            };
            let mut short = p.summary.to_string();
            let mut tags = Vec::new();
            if !p.optional {
                tags.push("required".to_string());
            }
            if let Some(d) = p.default {
                tags.push(format!("default: {d}"));
            } else if p.optional {
                tags.push("optional".to_string());
            }
            if p.deprecated {
                tags.push("deprecated".to_string());
            }
            short.push_str(&format!(" [{}]", tags.join("; ")));
            let mut long = format!("{}\nType `{}`", p.summary, p.ty);
            if list {
                long.push_str(
                    " (repeat the flag, separate elements with commas, or give a JSON array)",
                );
            }
            long.push_str(&format!(
                "; {}",
                if p.optional { "optional" } else { "required" }
            ));
            if let Some(d) = p.default {
                long.push_str(&format!(", the node's default {d}"));
            }
            long.push('.');
            if p.deprecated {
                long.push_str(" Deprecated.");
            }
            if let Some(d) = p.description {
                long.push('\n');
                long.push_str(d.trim_end());
            }
            let mut arg = Arg::new(flag.clone())
                .long(flag.clone())
                .value_name(value_name)
                .allow_negative_numbers(true)
                .help(short)
                .long_help(long);
            if list {
                arg = arg.action(ArgAction::Append);
            }
            cmd = cmd.arg(arg);
        }
        cmd
    }

    /// An example built from the spec's first example (filled from the node at `--url`
    /// when one answers), and how values are read.
    fn after_help(&self) -> String {
        let mut text = String::new();
        let spec = self.method.examples.first();
        match &self.filled {
            Filled::Node {
                url,
                path_values,
                params,
                from_node,
            } => {
                let own = if from_node.is_empty() {
                    "no value of its params in its replies".to_string()
                } else {
                    format!("{} from its replies", from_node.join(", "))
                };
                let rest = spec.map_or(String::new(), |e| {
                    format!("; the rest from the spec's \"{}\"", e.name)
                });
                text.push_str(&format!(
                    "Example (for the node at {url}: {own}{rest}):\n  {}\n\n",
                    self.example(params, url, path_values)
                ));
            }
            Filled::NoNode(url) => {
                text.push_str(&format!(
                    "No node answers at {url}: the example is the spec's, with the values of its network.\n"
                ));
            }
            Filled::Spec => {}
        }
        if let (Some(e), false) = (spec, matches!(self.filled, Filled::Node { .. })) {
            text.push_str(&format!(
                "Example (the spec's \"{}\"):\n  {}\n\n",
                e.name,
                self.example(&e.params(), &self.help_url, &BTreeMap::new())
            ));
        }
        text.push_str(
            "Values: a param written as a JSON string (IDs, addresses, decimal integers, enums) \
             takes the text as it is; a number, boolean or object takes JSON; a list takes \
             the flag repeated, commas, or a JSON array. The params are checked against the \
             spec before anything is sent.",
        );
        text
    }

    /// `avax-rpc call METHOD [--url URL] [--VAR value]… --PARAM value…` for `params` (a JSON
    /// object); `--url` unless `url` is the default; path variables from `path_values`, else
    /// their defaults.
    fn example(
        &self,
        params: &Value,
        url: &str,
        path_values: &BTreeMap<&'static str, String>,
    ) -> String {
        let m = self.method;
        let mut words = vec!["avax-rpc".to_string(), "call".into(), m.name.into()];
        if url.trim_end_matches('/') != DEFAULT_URL.trim_end_matches('/') {
            words.push("--url".into());
            words.push(shell_word(url));
        }
        for (var, flag) in &self.path_vars {
            let v = m.path_params.iter().find(|p| p.name == *var);
            let value = path_values.get(var).map(String::as_str);
            if let Some(value) = value.or(v.and_then(|v| v.default.or(v.examples.first().copied())))
            {
                words.push(format!("--{flag}"));
                words.push(shell_word(value));
            }
        }
        let Some(object) = params.as_object() else {
            return words.join(" ");
        };
        for (name, value) in object {
            match self.params.iter().find(|(p, _)| p.name == name) {
                Some((p, flag)) => {
                    for text in flag_texts(p, value) {
                        words.push(format!("--{flag}"));
                        words.push(shell_word(&text));
                    }
                }
                // A member under an alias: given whole.
                None => {
                    let mut one = Map::new();
                    one.insert(name.clone(), value.clone());
                    words.push("--params".into());
                    words.push(shell_word(&Value::Object(one).to_string()));
                }
            }
        }
        words.join(" ")
    }

    /// The params object the flags give (`--params`, then each flag's member), and the
    /// params set by their own flags.
    fn params(&self, matches: &ArgMatches) -> Result<(Value, Vec<&'static str>), String> {
        let mut object = match matches.get_one::<String>("params") {
            Some(text) => match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(o)) => o,
                Ok(other) => {
                    return Err(format!(
                        "--params: a JSON object of the params, not {}",
                        kind_name(&other)
                    ));
                }
                Err(e) => return Err(format!("--params: not JSON: {e}")),
            },
            None => Map::new(),
        };
        let from_params: Vec<String> = object.keys().cloned().collect();
        for key in &from_params {
            if !self.param_named(key) {
                let names: Vec<&str> = self.method.params.iter().map(|p| p.name).collect();
                return Err(format!(
                    "--params: `{}` takes no member `{key}`{}",
                    self.method.name,
                    if names.is_empty() {
                        " (it takes no params)".to_string()
                    } else {
                        format!("; its params are {}", names.join(", "))
                    }
                ));
            }
        }
        let mut by_flags = Vec::new();
        for (p, flag) in &self.params {
            let Some(values) = matches.get_many::<String>(flag) else {
                continue;
            };
            by_flags.push(p.name);
            // The flag replaces the member, under whichever name `--params` gave it.
            for alias in p.aliases {
                object.remove(*alias);
            }
            let texts: Vec<&String> = values.collect();
            let value = if p.kind == JsonKind::Array {
                let mut items = Vec::new();
                for text in texts {
                    items.extend(list_items(p, text));
                }
                Value::Array(items)
            } else {
                value(p.kind, texts[texts.len() - 1])
            };
            object.insert(p.name.to_string(), value);
        }
        for (p, flag) in &self.params {
            let given =
                object.contains_key(p.name) || p.aliases.iter().any(|a| object.contains_key(*a));
            if !p.optional && !given {
                return Err(format!(
                    "--{flag} is required: {} (type `{}`)",
                    p.summary, p.ty
                ));
            }
        }
        let params = Value::Object(object);
        // The generated params type decodes them, as `call_json` will: nothing is sent
        // unless they fit.
        self.method
            .roundtrip_params(&params)
            .map_err(|e| self.blame(&e.path, &e.message, &by_flags))?;
        Ok((params, by_flags))
    }

    /// `The flags of METHOD: --a, --b (and --url, …)`.
    fn names(&self) -> String {
        let own: Vec<String> = self
            .path_vars
            .iter()
            .map(|(_, f)| f)
            .chain(self.params.iter().map(|(_, f)| f))
            .map(|f| format!("--{f}"))
            .collect();
        let own = if own.is_empty() {
            "none".to_string()
        } else {
            own.join(", ")
        };
        format!(
            "The flags of {}: {own} (and --url, --raw, --timeout, --params, --help).",
            self.method.name
        )
    }

    /// Whether `key` names a param (or one of its aliases).
    fn param_named(&self, key: &str) -> bool {
        self.method
            .params
            .iter()
            .any(|p| p.name == key || p.aliases.contains(&key))
    }

    /// A decoding problem at `path` of the params, named by the flag it came from:
    /// `--PARAM` for the params in `by_flags`, else `--params`.
    fn blame(&self, path: &str, message: &str, by_flags: &[&str]) -> String {
        let member = path
            .split(['.', '['])
            .next()
            .filter(|m| !m.is_empty())
            .unwrap_or(path);
        match self
            .params
            .iter()
            .find(|(p, _)| by_flags.contains(&p.name) && p.name == member)
        {
            Some((p, flag)) if path == p.name => {
                format!("--{flag}: {message} (type `{}`)", p.ty)
            }
            Some((p, flag)) => format!("--{flag}: at `{path}`: {message} (type `{}`)", p.ty),
            None => format!("--params: at `{path}`: {message}"),
        }
    }
}

/// The JSON for a flag's text, by the JSON the param is written as.
fn value(kind: JsonKind, text: &str) -> Value {
    let parsed = serde_json::from_str::<Value>(text).ok();
    let fits = |v: &Value| match kind {
        JsonKind::String => v.is_string(),
        JsonKind::Number => v.is_number(),
        JsonKind::Boolean => v.is_boolean(),
        JsonKind::Object => v.is_object(),
        JsonKind::Array => v.is_array(),
        _ => true,
    };
    match parsed {
        Some(v) if fits(&v) => v,
        _ => Value::String(text.to_string()),
    }
}

/// The elements one occurrence of a list flag gives: a JSON array's, one JSON object, or
/// the comma-separated pieces.
fn list_items(p: &ParamInfo, text: &str) -> Vec<Value> {
    let item = p.items.unwrap_or(JsonKind::Any);
    if text.trim_start().starts_with('[')
        && let Ok(Value::Array(items)) = serde_json::from_str(text)
    {
        return items;
    }
    if matches!(item, JsonKind::Object | JsonKind::Array | JsonKind::Any) {
        return vec![value(item, text)];
    }
    text.split(',')
        .map(str::trim)
        .filter(|piece| !piece.is_empty())
        .map(|piece| value(item, piece))
        .collect()
}

/// The flag texts that give `value` for param `p` (one per occurrence): the inverse of
/// [`value`] and [`list_items`], for the example in the help.
fn flag_texts(p: &ParamInfo, value: &Value) -> Vec<String> {
    if p.kind == JsonKind::Array
        && let Value::Array(items) = value
    {
        let item = p.items.unwrap_or(JsonKind::Any);
        let each: Vec<String> = items.iter().map(|v| text_of(item, v)).collect();
        let one_each = !items.is_empty()
            && items
                .iter()
                .zip(&each)
                .all(|(v, t)| list_items(p, t) == [v.clone()]);
        return if one_each {
            each
        } else {
            vec![value.to_string()]
        };
    }
    vec![text_of(p.kind, value)]
}

/// The text that [`value`] reads as `v`.
fn text_of(kind: JsonKind, v: &Value) -> String {
    if let Value::String(s) = v
        && value(kind, s) == *v
    {
        return s.clone();
    }
    v.to_string()
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `text` as one shell word: as it is when that is safe, else in single quotes.
fn shell_word(text: &str) -> String {
    let safe = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@%+=,".contains(c));
    if safe {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}
