//! `wallet`: addresses, balances, sends, exports and imports between the X- and P-chains,
//! and Primary Network staking, with `avalanche_rpc::transact`. Keys come from a file
//! (`--key-file`) or an environment variable (`--key-env`, `AVAX_PRIVATE_KEY` by default),
//! never from the command line, and are never printed.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use avalanche_rpc::avm::AvmClient;
use avalanche_rpc::bls;
use avalanche_rpc::codec::{JsonContext, ToJson, avm, platform};
use avalanche_rpc::info::InfoClient;
use avalanche_rpc::platform::PlatformClient;
use avalanche_rpc::rpc::Node;
use avalanche_rpc::transact::p::{self as pb, Stake, ValidatorRequest};
use avalanche_rpc::transact::x as xb;
use avalanche_rpc::transact::{self, BuildError, Context, Keychain, Payer, WalletError};
use avalanche_rpc::wire::{Address, HexBytes, Id, NodeId, ShortId};
use clap::{Args, Subcommand};
use serde_json::{Value, json};
use zeroize::Zeroizing;

use super::codec::Chain;
use super::units::{self, Amount, End, Unit};

mod file;

/// Writes a line to standard output; a closed pipe (`| head -1`) is not an error: the
/// transaction may already be issued, and waiting for it goes on.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// The devnet's address (`cargo run -p avalanche-devnet`), and a local node's.
pub const DEFAULT_URL: &str = file::DEFAULT_URL;
/// The environment variable keys are read from when no `--key-file` is given.
const DEFAULT_KEY_ENV: &str = "AVAX_PRIVATE_KEY";

#[derive(Args)]
pub struct Wallet {
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    action: Action,
}

/// What every wallet command takes. There is no flag that takes a key: keys are read from a
/// file or an environment variable, where the process list and shell history do not show
/// them.
#[derive(Args)]
struct Common {
    /// The node's base URL, from the subcommand's `--url` (`wallet sign`, `combine` and
    /// `show` have none: they never call a node).
    #[arg(skip = DEFAULT_URL.to_string())]
    url: String,
    /// A file of keys, one per line: `PrivateKey-…` or 64 hex digits (`#` starts a comment).
    #[arg(
        long,
        global = true,
        help_heading = "Node and keys",
        value_name = "PATH",
        conflicts_with = "key_env"
    )]
    key_file: Option<PathBuf>,
    /// The environment variable holding the keys (as a key file's lines), read when no
    /// --key-file is given.
    #[arg(long, global = true, help_heading = "Node and keys", value_name = "NAME", default_value = DEFAULT_KEY_ENV)]
    key_env: String,
}

/// What every transaction takes.
#[derive(Args)]
struct Issue {
    #[command(flatten)]
    node: file::NodeUrl,
    /// Build with the node and write the portable partially-signed transaction to FILE
    /// instead of signing and issuing (`wallet sign`, `combine`, `show`, `issue` take it on).
    #[arg(long, value_name = "FILE", conflicts_with = "dry_run")]
    out: Option<PathBuf>,
    /// With --out: the addresses that pay (repeat it; those of the keys when not given). No
    /// key is needed to build for them.
    #[arg(long, value_name = "ADDRESS", requires = "out")]
    from: Vec<String>,
    /// Build and sign, print the signed transaction's JSON form (as the node writes it) with
    /// its fee and the AVAX it burns, and issue nothing.
    #[arg(long)]
    dry_run: bool,
    /// How long to wait for acceptance after issuing: `30s`, `2m`, or seconds (at least 1);
    /// 0 issues and does not wait (the txID is printed; exit 0 once the node took it).
    #[arg(long, value_name = "PERIOD", default_value = "30s", value_parser = units::parse_timeout)]
    timeout: Duration,
}

#[derive(Subcommand)]
enum Action {
    /// The keys' X- and P-chain addresses, one key a line.
    Address(AddressArgs),
    /// What the keys hold, per chain and asset: spendable now, and locked (until a time, or
    /// stakeable only), read from every page of getUTXOs.
    Balance(BalanceArgs),
    /// Send an asset (AVAX by default) to an address on the X- or P-chain: the chain of the
    /// recipient's address (`X-…`, `P-…`).
    Send(SendArgs),
    /// Export AVAX from one chain to another of X, P and C (the keys' EVM accounts); import it
    /// there next.
    Export(ExportArgs),
    /// Import every UTXO exported to a chain (X, P, or C into an EVM account) from another that
    /// the keys can spend.
    Import(ImportArgs),
    /// Add a Primary Network validator (AddPermissionlessValidatorTx) with a BLS key.
    Stake(StakeArgs),
    /// Delegate to a Primary Network validator (AddPermissionlessDelegatorTx).
    Delegate(DelegateArgs),
    /// Create a chain on a Subnet (CreateChainTx), authorized by the Subnet's owner.
    CreateChain(CreateChainArgs),
    /// Sign a portable transaction file with the keys given or a signer command; never calls
    /// a node.
    Sign(file::SignArgs),
    /// Combine the signatures of files of the same transaction signed apart.
    Combine(file::CombineArgs),
    /// Show what a portable transaction does, for a co-signer to review: who pays whom how
    /// much, the fee, the burn, who has signed.
    Show(file::ShowArgs),
    /// Issue a fully signed portable transaction.
    Issue(file::IssueArgs),
}

#[derive(Args)]
struct CreateChainArgs {
    /// The Subnet (its owner, read from the node, authorizes).
    #[arg(long, value_name = "ID")]
    subnet: Id,
    /// The chain's name.
    #[arg(long)]
    name: String,
    /// The VM it runs.
    #[arg(long, value_name = "ID")]
    vm_id: Id,
    /// A file holding its genesis (`{}` when not given).
    #[arg(long, value_name = "FILE")]
    genesis: Option<PathBuf>,
    /// The Subnet owner's addresses that authorize (repeat it; the paying addresses when not
    /// given).
    #[arg(long, value_name = "ADDRESS")]
    subnet_signer: Vec<String>,
    #[command(flatten)]
    issue: Issue,
}

#[derive(Args)]
struct AddressArgs {
    #[command(flatten)]
    node: file::NodeUrl,
    /// Write the addresses with this HRP (`avax`, `fuji`, `local`, …) without asking the node.
    #[arg(long)]
    hrp: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct BalanceArgs {
    #[command(flatten)]
    node: file::NodeUrl,
    /// Only this chain (both by default).
    #[arg(long, value_enum)]
    chain: Option<Chain>,
    /// Print JSON (amounts in base units: nAVAX for AVAX).
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct SendArgs {
    /// The chain, X or P; the recipient's address says it (`X-…`, `P-…`), and when given it
    /// must agree.
    #[arg(long, value_enum)]
    chain: Option<Chain>,
    /// The recipient, an address of the X- or P-chain on the node's network (`X-local1…`):
    /// the transaction is sent on its chain.
    #[arg(long, value_name = "ADDRESS")]
    to: String,
    /// How much, in whole units of the asset (its denomination read from the node): `5` (of
    /// --asset, AVAX by default), `1.5AVAX`, `0.25 AVAX`, `5DVT`; nAVAX only with its unit
    /// (`250000000nAVAX`).
    #[arg(long, value_parser = units::parse_amount, allow_hyphen_values = true)]
    amount: Amount,
    /// The asset: `AVAX`, a symbol of an asset the keys hold (`DVT`), an asset ID, or an
    /// alias the X-chain knows. AVAX by default, or the symbol written after --amount.
    #[arg(long)]
    asset: Option<String>,
    #[command(flatten)]
    issue: Issue,
}

#[derive(Args)]
struct ExportArgs {
    /// The chain the AVAX leaves: X, P, or C (the keys' EVM accounts).
    #[arg(long, value_enum)]
    from_chain: Shared,
    /// The chain it goes to: another of X, P and C.
    #[arg(long, value_enum)]
    to_chain: Shared,
    /// How much AVAX: `10` or `10AVAX` (whole AVAX, up to 9 decimal places), or nAVAX with
    /// its unit (`250000000nAVAX`).
    #[arg(long, value_parser = units::parse_amount, allow_hyphen_values = true)]
    amount: Amount,
    /// Who may import it, an address of the destination chain (`X-…`, `P-…`, `C-…`; the
    /// first key's by default).
    #[arg(long, value_name = "ADDRESS")]
    to: Option<String>,
    #[command(flatten)]
    issue: Issue,
}

#[derive(Args)]
struct ImportArgs {
    /// The chain importing: X, P, or C (into an EVM account).
    #[arg(long, value_enum)]
    to_chain: Shared,
    /// The chain the UTXOs were exported from: another of X, P and C.
    #[arg(long, value_enum)]
    from_chain: Shared,
    /// Who receives the imported funds, an address of the importing chain (on C an EVM
    /// address, `0x…`; the first key's by default).
    #[arg(long, value_name = "ADDRESS")]
    to: Option<String>,
    #[command(flatten)]
    issue: Issue,
}

#[derive(Args)]
struct StakeArgs {
    /// The node to validate (`NodeID-…`).
    #[arg(long)]
    node_id: NodeId,
    /// The stake in AVAX: `2000` or `2000AVAX`, or nAVAX with its unit.
    #[arg(long, value_parser = units::parse_amount, allow_hyphen_values = true)]
    weight: Amount,
    /// When validation ends: a period from now (`30d`, `1d12h`) or a Unix time.
    #[arg(long, value_parser = units::parse_end)]
    end: End,
    /// The delegation fee: a percentage (`2%`) or millionths (`20000`); the network's minimum
    /// by default.
    #[arg(long, value_parser = units::parse_shares)]
    shares: Option<u32>,
    /// The node's BLS secret key: its 32 bytes (the node's `signer.key`) or 64 hex digits.
    #[arg(long, value_name = "FILE", conflicts_with = "save_bls_key")]
    bls_key_file: Option<PathBuf>,
    /// Make a fresh BLS key from the OS's randomness and write its secret to FILE (32 bytes,
    /// the node's `signer.key` form; the file must not exist). Never printed.
    #[arg(long, value_name = "FILE")]
    save_bls_key: Option<PathBuf>,
    /// Who receives the rewards and delegation fees, a P-chain address (the first key's by
    /// default).
    #[arg(long, value_name = "ADDRESS")]
    reward_to: Option<String>,
    #[command(flatten)]
    issue: Issue,
}

#[derive(Args)]
struct DelegateArgs {
    /// The validator (`NodeID-…`), read with platform.getCurrentValidators.
    #[arg(long)]
    node_id: NodeId,
    /// The stake in AVAX: `25` or `25AVAX`, or nAVAX with its unit.
    #[arg(long, value_parser = units::parse_amount, allow_hyphen_values = true)]
    weight: Amount,
    /// When the delegation ends (at or before the validator's end): a period from now
    /// (`14d`) or a Unix time.
    #[arg(long, value_parser = units::parse_end)]
    end: End,
    /// Who receives the reward, a P-chain address (the first key's by default).
    #[arg(long, value_name = "ADDRESS")]
    reward_to: Option<String>,
    #[command(flatten)]
    issue: Issue,
}

/// The chains that share memory, between which `export` and `import` move AVAX.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Shared {
    /// The X-chain.
    #[value(name = "X", alias = "x")]
    X,
    /// The P-chain.
    #[value(name = "P", alias = "p")]
    P,
    /// The C-chain's atomic side: AVAX to and from the keys' EVM accounts.
    #[value(name = "C", alias = "c")]
    C,
}

impl Shared {
    fn letter(self) -> &'static str {
        match self {
            Shared::X => "X",
            Shared::P => "P",
            Shared::C => "C",
        }
    }

    fn id(self, ctx: &Context) -> Id {
        match self {
            Shared::X => ctx.x_chain_id,
            Shared::P => ctx.p_chain_id,
            Shared::C => ctx.c_chain_id,
        }
    }
}

/// Runs a wallet command: its output on standard output, an error on standard error with
/// exit status 1.
pub fn run(w: Wallet) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("avax-rpc: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(dispatch(w)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            super::secrets::report(&format!("avax-rpc: {e}"));
            ExitCode::FAILURE
        }
    }
}

async fn dispatch(w: Wallet) -> Result<(), String> {
    let mut c = w.common;
    if let Some(url) = w.action.url() {
        c.url = url.to_string();
    }
    let c = &c;
    match w.action {
        Action::Address(a) => address(c, a).await,
        Action::Balance(a) => balance(c, a).await,
        Action::Send(a) => send(c, a).await,
        Action::Export(a) => export(c, a).await,
        Action::Import(a) => import(c, a).await,
        Action::Stake(a) => stake(c, a).await,
        Action::Delegate(a) => delegate(c, a).await,
        Action::CreateChain(a) => create_chain(c, a).await,
        Action::Sign(a) => {
            let given = c.key_file.is_some() || std::env::var_os(&c.key_env).is_some();
            file::sign(a, || given.then(|| keys(c)).transpose()).await
        }
        Action::Combine(a) => file::combine(a),
        Action::Show(a) => file::show(a),
        Action::Issue(a) => {
            let open = |url: &str| Node::http(url).map_err(|e| format!("`--url`: {e}"));
            file::issue(a, open, wallet_error).await
        }
    }
}

impl Action {
    /// The node's URL, for the subcommands that call one.
    fn url(&self) -> Option<&str> {
        let node = match self {
            Action::Address(a) => &a.node,
            Action::Balance(a) => &a.node,
            Action::Send(a) => &a.issue.node,
            Action::Export(a) => &a.issue.node,
            Action::Import(a) => &a.issue.node,
            Action::Stake(a) => &a.issue.node,
            Action::Delegate(a) => &a.issue.node,
            Action::CreateChain(a) => &a.issue.node,
            Action::Issue(a) => &a.node,
            Action::Sign(_) | Action::Combine(_) | Action::Show(_) => return None,
        };
        Some(&node.url)
    }
}

fn letter(c: Chain) -> &'static str {
    match c {
        Chain::X => "X",
        Chain::P => "P",
    }
}

/// A builder's field as the flag that sets it, so an error names what to change.
fn flag_of(field: &str) -> Option<&'static str> {
    Some(match field {
        "weight" => "--weight",
        "end" => "--end",
        "shares" => "--shares",
        "validatorRewards" | "delegatorRewards" | "rewards" => "--reward-to",
        "to" => "--to",
        _ => return None,
    })
}

fn build_error(e: BuildError) -> String {
    match e {
        BuildError::Invalid { field, problem } => match flag_of(&field) {
            Some(flag) => BuildError::invalid(flag, problem).to_string(),
            None => BuildError::Invalid { field, problem }.to_string(),
        },
        other => other.to_string(),
    }
}

fn wallet_error(e: WalletError) -> String {
    match e {
        WalletError::Build(b) => build_error(b),
        other => other.to_string(),
    }
}

/// The keys, from `--key-file` or the environment variable `--key-env` names. (A key given
/// where the file's path or the variable's name goes never gets here: `secrets::screen`
/// refuses it first.)
fn keys(c: &Common) -> Result<Keychain, String> {
    if let Some(path) = &c.key_file {
        warn_if_open_to_others(path);
        return Keychain::from_file(path).map_err(|e| e.to_string());
    }
    let name = c.key_env.as_str();
    if name.is_empty()
        || name.starts_with(|c: char| c.is_ascii_digit())
        || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return Err(format!(
            "`--key-env`: `{name}` is not an environment variable's name (letters, digits, `_`)"
        ));
    }
    if std::env::var_os(name).is_none() {
        return Err(format!(
            "no keys: give --key-file PATH, or set the environment variable {name} (one key a \
             line, `PrivateKey-…` or 64 hex digits; --key-env NAME reads another variable)"
        ));
    }
    Keychain::from_env(name).map_err(|e| e.to_string())
}

/// Warns, as ssh does, when a file of secrets can be read or written by others than its
/// owner (the keys are still read: the warning says how to close it).
pub fn warn_if_open_to_others(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = std::fs::metadata(path) {
            let mode = meta.permissions().mode() & 0o777;
            if meta.is_file() && mode & 0o077 != 0 {
                eprintln!(
                    "avax-rpc: warning: {} holds keys and is open to others (mode {mode:04o}): \
                     `chmod 600 {}` keeps it to its owner",
                    path.display(),
                    path.display()
                );
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

fn node(c: &Common) -> Result<Node, String> {
    Node::http(&c.url).map_err(|e| format!("`--url`: {e}"))
}

/// The time transactions are built for: this machine's clock, or the P-chain's when it is
/// ahead (a devnet whose clock was advanced).
async fn now(node: &Node) -> Result<u64, String> {
    let wall = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let chain = node
        .platform()
        .get_timestamp(Default::default())
        .await
        .map_err(|e| format!("platform.getTimestamp: {e}"))?
        .timestamp
        .unix_seconds();
    Ok(wall.max(u64::try_from(chain).unwrap_or(0)))
}

/// What a transaction needs: the node, the keys, the context and the time.
struct Session {
    node: Node,
    keys: Keychain,
    ctx: Context,
    time: u64,
    /// The addresses that pay: the keys', or `--from`'s.
    from: Vec<ShortId>,
    /// The UTXOs read, which a portable file carries.
    seen_x: std::cell::RefCell<Vec<avm::Utxo>>,
    seen_p: std::cell::RefCell<Vec<platform::Utxo>>,
}

impl Session {
    async fn open(c: &Common, issue: Option<&Issue>) -> Result<Session, String> {
        let given = issue.map_or(&[][..], |i| &i.from[..]);
        // Building a file for addresses given needs no key.
        let keys = if given.is_empty() {
            keys(c)?
        } else {
            Keychain::new()
        };
        let node = node(c)?;
        let ctx = Context::from_node(&node).await.map_err(wallet_error)?;
        let time = now(&node).await?;
        let from = if given.is_empty() {
            keys.addresses()
        } else {
            given
                .iter()
                .map(|t| file::parse_address(&ctx, "--from", t))
                .collect::<Result<_, _>>()?
        };
        Ok(Session {
            node,
            keys,
            ctx,
            time,
            from,
            seen_x: Default::default(),
            seen_p: Default::default(),
        })
    }

    fn payer(&self) -> Payer {
        Payer::new(self.from.clone(), self.time)
    }

    /// The owner of what the keys receive: `text` (an address of `chain`, read naming `flag`)
    /// or the first key's address.
    fn owner(
        &self,
        flag: &str,
        chain: Chain,
        text: Option<&str>,
    ) -> Result<avalanche_rpc::codec::secp256k1fx::OutputOwners, String> {
        let address = match text {
            Some(t) => self
                .ctx
                .parse_address(flag, letter(chain), t)
                .map_err(|e| e.to_string())?,
            None => self.from[0],
        };
        transact::owners(flag, &[address], 1, 0).map_err(build_error)
    }

    /// The owner of what is exported to `chain`: `text` (an address of that chain, `C-…` on
    /// the C-chain's shared memory) or the first key's address.
    fn owner_on(
        &self,
        flag: &str,
        chain: Shared,
        text: Option<&str>,
    ) -> Result<avalanche_rpc::codec::secp256k1fx::OutputOwners, String> {
        let address = match text {
            Some(t) => self
                .ctx
                .parse_address(flag, chain.letter(), t)
                .map_err(|e| e.to_string())?,
            None => self.from[0],
        };
        transact::owners(flag, &[address], 1, 0).map_err(build_error)
    }

    /// Builds a P-chain transaction with the fee state last read. (A transaction over the
    /// capacity left waits in the node's mempool until the chain has refilled; only one over
    /// the chain's maximum is refused.)
    async fn build_p(
        &mut self,
        build: impl Fn(&Context, &Payer) -> Result<pb::Unsigned, BuildError>,
    ) -> Result<pb::Unsigned, String> {
        build(&self.ctx, &self.payer()).map_err(build_error)
    }

    async fn x_utxos(&self, source: Option<&str>) -> Result<Vec<avm::Utxo>, String> {
        let utxos = transact::x::utxos(&self.node, &self.ctx, &self.from, source)
            .await
            .map_err(wallet_error)?;
        self.seen_x.borrow_mut().extend(utxos.iter().cloned());
        Ok(utxos)
    }

    async fn p_utxos(&self, source: Option<&str>) -> Result<Vec<platform::Utxo>, String> {
        let utxos = transact::p::utxos(&self.node, &self.ctx, &self.from, source)
            .await
            .map_err(wallet_error)?;
        self.seen_p.borrow_mut().extend(utxos.iter().cloned());
        Ok(utxos)
    }

    /// Signs, then prints the dry run or issues, waits and prints the outcome.
    async fn finish_x(&self, mut u: xb::Unsigned, issue: &Issue) -> Result<(), String> {
        if let Some(path) = &issue.out {
            let f = transact::PartiallySigned::x(&self.ctx, &u, &self.seen_x.borrow())
                .map_err(|e| e.to_string())?;
            return file::write(path, &f);
        }
        u.sign(&self.keys).map_err(|e| e.to_string())?;
        let tx = u.signed().map_err(|e| e.to_string())?;
        if issue.dry_run {
            let json = tx.to_json(&JsonContext::new("X", self.ctx.hrp.clone()));
            return dry_run("X", json, u.fee(), u.burned());
        }
        let pending = xb::issue(&self.node, &tx).await.map_err(wallet_error)?;
        self.settle(pending, u.fee(), u.burned(), issue.timeout)
            .await
    }

    async fn finish_p(&self, mut u: pb::Unsigned, issue: &Issue) -> Result<(), String> {
        if let Some(path) = &issue.out {
            let f = transact::PartiallySigned::p(&self.ctx, &u, &self.seen_p.borrow(), None)
                .map_err(|e| e.to_string())?;
            return file::write(path, &f);
        }
        u.sign(&self.keys).map_err(|e| e.to_string())?;
        let tx = u.signed().map_err(|e| e.to_string())?;
        if issue.dry_run {
            let json = tx.to_json(&JsonContext::new("P", self.ctx.hrp.clone()));
            return dry_run("P", json, u.fee(), u.burned());
        }
        let pending = pb::issue(&self.node, &tx).await.map_err(wallet_error)?;
        self.settle(pending, u.fee(), u.burned(), issue.timeout)
            .await
    }

    /// Signs with the keys, then prints the dry run or issues, waits and prints the outcome.
    /// (A portable file holds X- and P-chain transactions only.)
    async fn finish_c(&self, mut u: transact::c::Unsigned, issue: &Issue) -> Result<(), String> {
        if issue.out.is_some() {
            return Err(
                "`--out`: a portable file holds X- and P-chain transactions; sign the \
                        C-chain's atomic ones here, with the keys of its accounts or UTXOs"
                    .into(),
            );
        }
        u.sign(&self.keys).map_err(|e| e.to_string())?;
        let tx = u.signed().map_err(|e| e.to_string())?;
        if issue.dry_run {
            // The node writes atomic transactions' owners without a chain's context.
            return dry_run("C", tx.to_json(&JsonContext::bare()), u.fee(), u.burned());
        }
        let pending = transact::c::issue(&self.node, &tx)
            .await
            .map_err(wallet_error)?;
        self.settle(pending, u.fee(), u.burned(), issue.timeout)
            .await
    }

    async fn settle(
        &self,
        pending: transact::Pending<avalanche_rpc::rpc::HttpTransport>,
        fee: u64,
        burned: u64,
        timeout: Duration,
    ) -> Result<(), String> {
        let id = pending.tx_id();
        say!("txID: {id}");
        say!(
            "fee: {fee} nAVAX ({}), burned {burned} nAVAX",
            units::avax(fee)
        );
        let _ = std::io::stdout().flush();
        let (c, word) = match pending.chain() {
            transact::IssuedTo::P => ("P", "committed"),
            transact::IssuedTo::C => ("C", "accepted"),
            _ => ("X", "accepted"),
        };
        if timeout.is_zero() {
            // Issued, and not waited for: a script that retries on failure must not send
            // twice, so this is a success.
            eprintln!("issued; not waiting for it on the {c}-chain (--timeout 0)");
            return Ok(());
        }
        let start = Instant::now();
        let progress = Progress::start(format!("waiting for {id} on the {c}-chain"), timeout);
        let outcome = pending.wait_for(timeout).await;
        progress.stop();
        outcome.map_err(wallet_error)?;
        say!(
            "{word} on the {c}-chain in {:.1} s",
            start.elapsed().as_secs_f64()
        );
        Ok(())
    }
}

fn dry_run(chain: &str, tx: Value, fee: u64, burned: u64) -> Result<(), String> {
    let out = json!({
        "chain": chain,
        "txID": tx.get("id").cloned().unwrap_or(Value::Null),
        "fee": fee,
        "burned": burned,
        "tx": tx,
    });
    say!(
        "{}",
        serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
    );
    eprintln!("dry run: nothing was issued");
    Ok(())
}

/// Progress while waiting: a spinner on standard error when it is a terminal, one plain line
/// otherwise.
struct Progress {
    spinner: Option<(Arc<AtomicBool>, std::thread::JoinHandle<()>)>,
}

impl Progress {
    fn start(message: String, timeout: Duration) -> Progress {
        let limit = units::format_period(timeout.as_secs());
        if !std::io::stderr().is_terminal() {
            eprintln!("{message} (timeout {limit})");
            return Progress { spinner: None };
        }
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            let start = Instant::now();
            let frames = ['|', '/', '-', '\\'];
            let mut i = 0;
            while !flag.load(Ordering::Relaxed) {
                let mut err = std::io::stderr().lock();
                let _ = write!(
                    err,
                    "\r{} {message} ({:.1} s of {limit})",
                    frames[i % frames.len()],
                    start.elapsed().as_secs_f64()
                );
                let _ = err.flush();
                drop(err);
                i += 1;
                std::thread::sleep(Duration::from_millis(100));
            }
            // Clear the line.
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
        });
        Progress {
            spinner: Some((stop, handle)),
        }
    }

    fn stop(self) {
        if let Some((stop, handle)) = self.spinner {
            stop.store(true, Ordering::Relaxed);
            let _ = handle.join();
        }
    }
}

async fn address(c: &Common, a: AddressArgs) -> Result<(), String> {
    let keys = keys(c)?;
    let hrp = match a.hrp {
        // A network's short name; never repeated when it is not one (a long value may be
        // text pasted by mistake).
        Some(h)
            if h.is_empty()
                || h.len() > 16
                || !h
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) =>
        {
            return Err(format!(
                "`--hrp`: not a network's HRP (1 to 16 lower-case letters and digits: avax, \
                 fuji, local, custom); {} characters were given",
                h.chars().count()
            ));
        }
        Some(h) => h,
        None => {
            let id = node(c)?
                .info()
                .get_network_id(Default::default())
                .await
                .map_err(|e| format!("info.getNetworkID: {e}"))?
                .network_id
                .0;
            avalanche_rpc::network::hrp(id).to_string()
        }
    };
    let mut rows = Vec::new();
    for a in keys.addresses() {
        let of = |chain: &str| {
            Address::new(Some(chain), &hrp, *a.as_bytes())
                .map(|a| a.to_string())
                .map_err(|e| format!("`--hrp`: {e}"))
        };
        rows.push((of("X")?, of("P")?));
    }
    if a.json {
        let v: Vec<Value> = rows.iter().map(|(x, p)| json!({"X": x, "P": p})).collect();
        say!("{}", Value::Array(v));
    } else {
        for (x, p) in rows {
            say!("{x}  {p}");
        }
    }
    Ok(())
}

/// One line of `balance`.
struct Holding {
    chain: &'static str,
    asset: Id,
    symbol: String,
    denomination: u32,
    spendable: u64,
    locked: u64,
}

async fn balance(c: &Common, a: BalanceArgs) -> Result<(), String> {
    let s = Session::open(c, None).await?;
    let owners = s.keys.addresses();
    let avax = s.ctx.avax_asset_id;
    let mut rows = Vec::new();
    if a.chain != Some(Chain::P) {
        let utxos = s.x_utxos(None).await?;
        let x = s.node.avm("X");
        for b in transact::balance::of_x(avax, &utxos, &owners, s.time) {
            let (symbol, denomination) = if b.asset == avax {
                ("AVAX".to_string(), 9)
            } else {
                match x
                    .get_asset_description(avalanche_rpc::avm::GetAssetDescriptionParams::new(
                        b.asset.to_string(),
                    ))
                    .await
                {
                    Ok(d) => (d.symbol, u32::from(d.denomination.0)),
                    Err(_) => (String::new(), 0),
                }
            };
            rows.push(Holding {
                chain: "X",
                asset: b.asset,
                symbol,
                denomination,
                spendable: b.spendable,
                locked: b.locked,
            });
        }
    }
    if a.chain != Some(Chain::X) {
        let utxos = s.p_utxos(None).await?;
        for b in transact::balance::of_p(avax, &utxos, &owners, s.time) {
            // An asset other than AVAX came from the X-chain, which describes it.
            let (symbol, denomination) = if b.asset == avax {
                ("AVAX".to_string(), 9)
            } else {
                match s.describe(&b.asset.to_string()).await {
                    Ok(d) => (d.symbol, d.denomination),
                    Err(_) => (String::new(), 0),
                }
            };
            rows.push(Holding {
                chain: "P",
                asset: b.asset,
                symbol,
                denomination,
                spendable: b.spendable,
                locked: b.locked,
            });
        }
    }
    if a.json {
        let v: Vec<Value> = rows
            .iter()
            .map(|h| {
                json!({
                    "chain": h.chain,
                    "asset": h.symbol,
                    "assetID": h.asset.to_string(),
                    "denomination": h.denomination,
                    "spendable": h.spendable,
                    "locked": h.locked,
                })
            })
            .collect();
        say!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    let table: Vec<[String; 5]> = rows
        .iter()
        .map(|h| {
            [
                h.chain.to_string(),
                if h.symbol.is_empty() {
                    "?".into()
                } else {
                    h.symbol.clone()
                },
                units::format_units(h.spendable, h.denomination),
                units::format_units(h.locked, h.denomination),
                h.asset.to_string(),
            ]
        })
        .collect();
    let head = ["CHAIN", "ASSET", "SPENDABLE", "LOCKED", "ASSET ID"];
    let width = |i: usize| {
        table
            .iter()
            .map(|r| r[i].len())
            .chain([head[i].len()])
            .max()
            .unwrap_or(0)
    };
    let w: Vec<usize> = (0..5).map(width).collect();
    let line = |r: [&str; 5]| {
        format!(
            "{:<w0$}  {:<w1$}  {:>w2$}  {:>w3$}  {}",
            r[0],
            r[1],
            r[2],
            r[3],
            r[4],
            w0 = w[0],
            w1 = w[1],
            w2 = w[2],
            w3 = w[3]
        )
    };
    say!("{}", line(head));
    for r in &table {
        say!("{}", line([&r[0], &r[1], &r[2], &r[3], &r[4]]));
    }
    Ok(())
}

/// An asset as the X-chain describes it.
struct Asset {
    id: Id,
    symbol: String,
    denomination: u32,
    /// The network's AVAX (not merely an asset of that symbol).
    avax: bool,
}

impl Asset {
    /// `DVT (2Z…)`, or `AVAX`.
    fn named(&self) -> String {
        if self.avax {
            "AVAX".into()
        } else {
            format!("{} ({})", self.symbol, self.id)
        }
    }
}

/// The chain `wallet send` sends on: that of the recipient's address (`X-…`, `P-…`), which
/// `--chain`, when given, must be. Checked before anything is asked of a node.
fn send_chain(given: Option<Chain>, to: &str) -> Result<Chain, String> {
    let t = to.trim();
    let prefix = t.split_once('-').map_or("", |(p, _)| p);
    // Quoted only when it is an address: what else was pasted here (a key?) is not repeated.
    let shown = if t.parse::<Address>().is_ok() {
        t.to_string()
    } else if prefix.len() == 1 {
        format!(
            "{prefix}-… (not an address, {} characters)",
            t.chars().count()
        )
    } else {
        format!("({} characters)", t.chars().count())
    };
    let of = if prefix.eq_ignore_ascii_case("X") {
        Chain::X
    } else if prefix.eq_ignore_ascii_case("P") {
        Chain::P
    } else if prefix.eq_ignore_ascii_case("C") || t.starts_with("0x") || t.starts_with("0X") {
        // An EVM address is not quoted: 40 hex digits are hidden from output as a key might be.
        let what = if prefix.is_empty() {
            "an EVM address (`0x…`)".to_string()
        } else {
            shown
        };
        return Err(format!(
            "`--to`: {what} is on the C-chain, and `wallet send` sends on the X- and P-chains \
             only; to move AVAX to the C-chain, export it there and import it: `avax-rpc wallet \
             export --from-chain X --to-chain C --amount 5`, then `avax-rpc wallet import \
             --to-chain C --from-chain X --to 0x…`"
        ));
    } else {
        return Err(format!(
            "`--to` {shown} names no chain: write the recipient as `X-…` or `P-…`, an address \
             of the node's network (`wallet address` prints the keys')"
        ));
    };
    match given {
        Some(g) if g != of => Err(format!(
            "`--chain` {} and `--to` {shown} disagree: the recipient's address is on the \
             {}-chain; leave out --chain to send there, or give an address of the {}-chain",
            letter(g),
            letter(of),
            letter(g)
        )),
        _ => Ok(of),
    }
}

/// An amount of AVAX (a stake, an export): whole AVAX, or nAVAX with its unit.
fn avax_units(flag: &str, what: &str, amount: &Amount) -> Result<u64, String> {
    if let Some(symbol) = amount.other_symbol() {
        return Err(format!(
            "`{flag}` {}: {what} is in AVAX, not {symbol}: write `{}` or `{}AVAX`",
            amount.text(),
            amount.number(),
            amount.number()
        ));
    }
    amount
        .units(units::AVAX_DENOMINATION, "AVAX")
        .map_err(|e| format!("`{flag}`: {e}"))
}

impl Session {
    fn avax(&self) -> Asset {
        Asset {
            id: self.ctx.avax_asset_id,
            symbol: "AVAX".into(),
            denomination: units::AVAX_DENOMINATION,
            avax: true,
        }
    }

    /// `avm.getAssetDescription` of an asset ID or alias.
    async fn describe(&self, text: &str) -> Result<Asset, String> {
        let d = self
            .node
            .avm("X")
            .get_asset_description(avalanche_rpc::avm::GetAssetDescriptionParams::new(text))
            .await
            .map_err(|e| e.to_string())?;
        Ok(Asset {
            avax: d.asset_id == self.ctx.avax_asset_id,
            id: d.asset_id,
            symbol: d.symbol,
            denomination: u32::from(d.denomination.0),
        })
    }

    /// The asset `text` names (read from the flag `label` names, with its value: `` `--amount`
    /// 5DVT ``): `AVAX`, an asset ID, the symbol of an asset the keys hold (`held`, on
    /// `chain`), or an alias the X-chain knows.
    async fn asset_named(
        &self,
        label: &str,
        chain: Chain,
        text: &str,
        held: &[Id],
    ) -> Result<Asset, String> {
        let shown = avalanche_rpc::rpc::excerpt(text);
        if text.eq_ignore_ascii_case("AVAX") {
            return Ok(self.avax());
        }
        if let Ok(id) = text.parse::<Id>() {
            if id == self.ctx.avax_asset_id {
                return Ok(self.avax());
            }
            return self.describe(text).await.map_err(|e| {
                format!(
                    "{label}: {shown} is no asset the X-chain knows (avm.getAssetDescription: {e})"
                )
            });
        }
        let mut matches = Vec::new();
        let mut symbols = vec!["AVAX".to_string()];
        for id in held.iter().filter(|id| **id != self.ctx.avax_asset_id) {
            if let Ok(a) = self.describe(&id.to_string()).await {
                symbols.push(a.symbol.clone());
                if a.symbol.eq_ignore_ascii_case(text) {
                    matches.push(a);
                }
            }
        }
        if matches.len() > 1 {
            let mut ids: Vec<String> = matches.iter().map(|a| a.id.to_string()).collect();
            ids.sort();
            return Err(format!(
                "{label}: {shown} is ambiguous: the keys hold {} assets with the symbol {} on \
                 the {}-chain, {}; name one by its ID with --asset",
                matches.len(),
                matches[0].symbol,
                letter(chain),
                ids.join(" and ")
            ));
        }
        if let Some(a) = matches.pop() {
            return Ok(a);
        }
        // Not held: an alias the X-chain knows (`DVT` on the devnet).
        if let Ok(a) = self.describe(text).await {
            return Ok(a);
        }
        symbols.sort();
        symbols.dedup();
        Err(format!(
            "{label}: {shown} is no asset: not the symbol of one the keys hold on the {}-chain \
             ({}), nor an asset ID or alias the X-chain knows",
            letter(chain),
            symbols.join(", ")
        ))
    }

    /// The asset `wallet send` sends, from `--asset` and the unit written after `--amount`,
    /// and the amount in its base units.
    async fn sending(
        &self,
        chain: Chain,
        asset: Option<&str>,
        amount: &Amount,
        held: &[Id],
    ) -> Result<(Id, u64), String> {
        let named = match asset {
            Some(t) => Some(self.asset_named("`--asset`", chain, t, held).await?),
            None => None,
        };
        let asset = match (&amount.unit, named) {
            (Unit::NanoAvax, Some(n)) if n.id != self.ctx.avax_asset_id => {
                return Err(format!(
                    "`--amount` {}: nAVAX are AVAX's base units, but `--asset` is {}: write the \
                     amount in {} (`{}`, `{}{}`)",
                    amount.text(),
                    n.named(),
                    n.symbol,
                    amount.number(),
                    amount.number(),
                    n.symbol
                ));
            }
            (Unit::NanoAvax, _) => self.avax(),
            (Unit::Symbol(symbol), named) => {
                let label = format!("`--amount` {}", amount.text());
                let by_unit = self.asset_named(&label, chain, symbol, held).await?;
                if let Some(n) = named
                    && n.id != by_unit.id
                {
                    return Err(format!(
                        "`--amount` {} is in {}, but `--asset` is {}: name the asset once, or \
                         the same in both",
                        amount.text(),
                        by_unit.named(),
                        n.named()
                    ));
                }
                by_unit
            }
            (Unit::Asset, Some(n)) => n,
            (Unit::Asset, None) => self.avax(),
        };
        let units = amount
            .units(asset.denomination, &asset.symbol)
            .map_err(|e| format!("`--amount`: {e}"))?;
        Ok((asset.id, units))
    }
}

/// The assets of `ids`, each once.
fn distinct(ids: impl Iterator<Item = Id>) -> Vec<Id> {
    let mut out: Vec<Id> = Vec::new();
    for id in ids {
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

async fn send(c: &Common, a: SendArgs) -> Result<(), String> {
    let chain = send_chain(a.chain, &a.to)?;
    // An amount of AVAX is checked before anything is asked of the node.
    if a.asset
        .as_deref()
        .is_none_or(|t| t.eq_ignore_ascii_case("AVAX"))
        && a.amount.other_symbol().is_none()
    {
        avax_units("--amount", "it", &a.amount)?;
    }
    let mut s = Session::open(c, Some(&a.issue)).await?;
    let to = s.owner("--to", chain, Some(&a.to))?;
    let payer = s.payer();
    match chain {
        Chain::X => {
            let utxos = s.x_utxos(None).await?;
            let held = distinct(utxos.iter().map(|u| u.asset_id));
            let (asset, amount) = s
                .sending(chain, a.asset.as_deref(), &a.amount, &held)
                .await?;
            let u = xb::base_tx(&s.ctx, &utxos, &payer, &[xb::output(asset, amount, to)])
                .map_err(build_error)?;
            s.finish_x(u, &a.issue).await
        }
        Chain::P => {
            let utxos = s.p_utxos(None).await?;
            let held = distinct(utxos.iter().map(|u| u.asset_id));
            let (asset, amount) = s
                .sending(chain, a.asset.as_deref(), &a.amount, &held)
                .await?;
            let outputs = [pb::output(asset, amount, to)];
            let u = s
                .build_p(|ctx, payer| pb::base_tx(ctx, &utxos, payer, &outputs))
                .await?;
            s.finish_p(u, &a.issue).await
        }
    }
}

/// `--from-chain` and `--to-chain` name two different chains.
fn two_chains(flag: &str, from: Shared, to: Shared) -> Result<(), String> {
    if from == to {
        return Err(format!(
            "`{flag}`: both chains are the {}-chain; move AVAX between two of X, P and C",
            from.letter()
        ));
    }
    Ok(())
}

async fn export(c: &Common, a: ExportArgs) -> Result<(), String> {
    two_chains("--to-chain", a.from_chain, a.to_chain)?;
    let amount = avax_units("--amount", "an export", &a.amount)?;
    let mut s = Session::open(c, Some(&a.issue)).await?;
    let avax = s.ctx.avax_asset_id;
    let destination = a.to_chain.id(&s.ctx);
    let to = s.owner_on("--to", a.to_chain, a.to.as_deref())?;
    match a.from_chain {
        Shared::X => {
            let utxos = s.x_utxos(None).await?;
            let u = xb::export_tx(
                &s.ctx,
                &utxos,
                &s.payer(),
                destination,
                &[xb::output(avax, amount, to)],
            )
            .map_err(build_error)?;
            s.finish_x(u, &a.issue).await?;
        }
        Shared::P => {
            let utxos = s.p_utxos(None).await?;
            let outputs = [pb::output(avax, amount, to)];
            let u = s
                .build_p(|ctx, payer| pb::export_tx(ctx, &utxos, payer, destination, &outputs))
                .await?;
            s.finish_p(u, &a.issue).await?;
        }
        Shared::C => {
            let accounts = transact::c::accounts(&s.node, &s.keys.public_keys())
                .await
                .map_err(wallet_error)?;
            let base_fee = transact::c::base_fee(&s.node).await.map_err(wallet_error)?;
            let out = avalanche_rpc::codec::secp256k1fx::TransferOutput::new(amount, to);
            let u = transact::c::export_tx(&s.ctx, &accounts, destination, &[out], base_fee)
                .map_err(build_error)?;
            s.finish_c(u, &a.issue).await?;
        }
    }
    if !a.issue.dry_run && a.issue.out.is_none() {
        say!(
            "next: avax-rpc wallet import --to-chain {} --from-chain {}",
            a.to_chain.letter(),
            a.from_chain.letter()
        );
    }
    Ok(())
}

async fn import(c: &Common, a: ImportArgs) -> Result<(), String> {
    two_chains("--from-chain", a.to_chain, a.from_chain)?;
    let mut s = Session::open(c, Some(&a.issue)).await?;
    let payer = s.payer();
    let source = a.from_chain.letter();
    let source_id = a.from_chain.id(&s.ctx);
    match a.to_chain {
        Shared::X => {
            let to = s.owner_on("--to", Shared::X, a.to.as_deref())?;
            let atomic = s.x_utxos(Some(source)).await?;
            let local = s.x_utxos(None).await?;
            let u = xb::import_tx(&s.ctx, &atomic, &local, &payer, source_id, &to)
                .map_err(build_error)?;
            s.finish_x(u, &a.issue).await
        }
        Shared::P => {
            let to = s.owner_on("--to", Shared::P, a.to.as_deref())?;
            let atomic = s.p_utxos(Some(source)).await?;
            let local = s.p_utxos(None).await?;
            let u = s
                .build_p(|ctx, payer| pb::import_tx(ctx, &atomic, &local, payer, source_id, &to))
                .await?;
            s.finish_p(u, &a.issue).await
        }
        Shared::C => {
            let to = match a.to.as_deref() {
                Some(t) => t
                    .parse::<avalanche_rpc::wire::EvmAddress>()
                    .map_err(|e| format!("`--to`: an EVM address (`0x` and 40 hex digits): {e}"))?,
                None => s
                    .keys
                    .public_keys()
                    .first()
                    .map(|k| k.evm_address())
                    .ok_or("`--to`: give the EVM address to credit (no key here to derive it)")?,
            };
            let atomic = transact::c::utxos(&s.node, &s.ctx, &s.from, source)
                .await
                .map_err(wallet_error)?;
            let base_fee = transact::c::base_fee(&s.node).await.map_err(wallet_error)?;
            let u = transact::c::import_tx(&s.ctx, &atomic, &payer, source_id, to, base_fee)
                .map_err(build_error)?;
            s.finish_c(u, &a.issue).await
        }
    }
}

/// A BLS secret key read from a file: 32 bytes, or 64 hex digits (with or without `0x`). The
/// file is read as a key file is: a regular file, bounded (`keychain::read_key_file`).
fn read_bls_key(path: &Path) -> Result<bls::SecretKey, String> {
    let flag = "`--bls-key-file`";
    warn_if_open_to_others(path);
    let raw = transact::keychain::read_key_file(path).map_err(|e| match e {
        BuildError::Invalid { problem, .. } => format!("{flag}: {problem}"),
        other => format!("{flag}: {other}"),
    })?;
    let mut bytes = Zeroizing::new([0u8; 32]);
    if raw.len() == 32 {
        bytes.copy_from_slice(&raw);
    } else {
        let text = std::str::from_utf8(&raw).map(str::trim).unwrap_or("");
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let hex = text.strip_prefix("0x").unwrap_or(text);
        if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "{flag}: {} holds neither 32 bytes nor 64 hex digits",
                path.display()
            ));
        }
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap_or(0);
        }
    }
    bls::SecretKey::from_bytes(&bytes).map_err(|e| format!("{flag}: {e}"))
}

/// A fresh BLS key from 64 bytes of the OS's randomness.
fn fresh_bls_key() -> Result<bls::SecretKey, String> {
    let mut seed = Zeroizing::new([0u8; 64]);
    getrandom::getrandom(&mut seed[..])
        .map_err(|e| format!("cannot read the OS's randomness: {e}"))?;
    bls::SecretKey::from_seed(&seed[..]).map_err(|e| e.to_string())
}

/// Writes the secret (32 bytes) to a new file only its owner can read.
fn save_bls_key(path: &Path, key: &bls::SecretKey) -> Result<(), String> {
    let flag = "`--save-bls-key`";
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            format!(
                "{flag}: {} exists; a key file is never overwritten: name a new file",
                path.display()
            )
        } else {
            format!("{flag}: cannot create {}: {e}", path.display())
        }
    })?;
    let secret = Zeroizing::new(key.to_bytes());
    file.write_all(&secret[..])
        .and_then(|()| file.sync_all())
        .map_err(|e| format!("{flag}: cannot write {}: {e}", path.display()))
}

async fn stake(c: &Common, a: StakeArgs) -> Result<(), String> {
    let weight = avax_units("--weight", "a stake", &a.weight)?;
    if a.bls_key_file.is_none() && a.save_bls_key.is_none() && !a.issue.dry_run {
        return Err(
            "a validator needs its node's BLS key: give --bls-key-file FILE (the node's \
                    signer key), or --save-bls-key FILE to make a fresh one and keep it"
                .into(),
        );
    }
    let key = match &a.bls_key_file {
        Some(path) => read_bls_key(path)?,
        None => fresh_bls_key()?,
    };
    let mut s = Session::open(c, Some(&a.issue)).await?;
    let rewards = s.owner("--reward-to", Chain::P, a.reward_to.as_deref())?;
    let end = a.end.at(s.time);
    let (public_key, pop) = transact::bls_signer(&key);
    let req = ValidatorRequest {
        stake: Stake {
            node_id: a.node_id,
            start: s.time,
            end,
            weight,
        },
        signer: Some((public_key, pop)),
        validator_rewards: rewards.clone(),
        delegator_rewards: rewards,
        shares: a.shares.unwrap_or(s.ctx.staking.min_delegation_fee),
    };
    let utxos = s.p_utxos(None).await?;
    let u = s
        .build_p(|ctx, payer| pb::add_permissionless_validator_tx(ctx, &utxos, payer, &req))
        .await?;
    // Kept before the key is used: a registered key is never lost.
    if let Some(path) = &a.save_bls_key {
        save_bls_key(path, &key)?;
        eprintln!("BLS secret key written to {}", path.display());
    }
    drop(key);
    if !a.issue.dry_run {
        say!("node: {}", a.node_id);
        say!("BLS public key: {}", HexBytes(public_key.to_vec()).to_hex());
        say!("proof of possession: {}", HexBytes(pop.to_vec()).to_hex());
        say!(
            "stake: {} until {end} ({} from now)",
            units::avax(weight),
            units::format_period(end.saturating_sub(s.time))
        );
    }
    s.finish_p(u, &a.issue).await
}

async fn delegate(c: &Common, a: DelegateArgs) -> Result<(), String> {
    let weight = avax_units("--weight", "a stake", &a.weight)?;
    let mut s = Session::open(c, Some(&a.issue)).await?;
    let rewards = s.owner("--reward-to", Chain::P, a.reward_to.as_deref())?;
    let end = a.end.at(s.time);
    let validators = s
        .node
        .platform()
        .get_current_validators(
            avalanche_rpc::platform::GetCurrentValidatorsParams::new()
                .with_node_ids(vec![a.node_id]),
        )
        .await
        .map_err(|e| format!("platform.getCurrentValidators: {e}"))?
        .validators;
    let v = validators
        .iter()
        .find(|v| v.node_id == a.node_id)
        .ok_or_else(|| {
            format!(
                "`--node-id`: {} is not a current validator of the Primary Network \
                 (platform.getCurrentValidators)",
                a.node_id
            )
        })?;
    if let Some(v_end) = v.end_time
        && end > v_end.0
    {
        return Err(format!(
            "`--end`: {end} is after the validator's end, {}; a delegation ends at or before it \
             (at most {} from now)",
            v_end.0,
            units::format_period(v_end.0.saturating_sub(s.time))
        ));
    }
    let delegated = match v.delegator_weight {
        Some(w) => w.0,
        None => v
            .delegators
            .iter()
            .flatten()
            .map(|d| d.weight.0)
            .fold(0, u64::saturating_add),
    };
    let room = pb::delegation_room(&s.ctx, v.weight.0, delegated);
    let stake = Stake {
        node_id: a.node_id,
        start: s.time,
        end,
        weight,
    };
    let utxos = s.p_utxos(None).await?;
    let u = s
        .build_p(|ctx, payer| {
            pb::add_permissionless_delegator_tx(ctx, &utxos, payer, stake, &rewards, Some(room))
        })
        .await?;
    if !a.issue.dry_run {
        say!(
            "validator: {} (room for {} more)",
            a.node_id,
            units::avax(room)
        );
        say!(
            "stake: {} until {end} ({} from now)",
            units::avax(weight),
            units::format_period(end.saturating_sub(s.time))
        );
    }
    s.finish_p(u, &a.issue).await
}

/// A CreateChainTx authorized by the Subnet's owner (read with `platform.getSubnet`).
async fn create_chain(c: &Common, a: CreateChainArgs) -> Result<(), String> {
    let genesis = match &a.genesis {
        Some(path) => std::fs::read(path).map_err(|e| format!("`--genesis`: {e}"))?,
        None => b"{}".to_vec(),
    };
    let mut s = Session::open(c, Some(&a.issue)).await?;
    let subnet = s
        .node
        .platform()
        .get_subnet(avalanche_rpc::platform::GetSubnetParams::new(a.subnet))
        .await
        .map_err(|e| format!("platform.getSubnet: {e}"))?;
    let keys: Vec<ShortId> = subnet
        .control_keys
        .iter()
        .map(|k| ShortId::new(k.payload()))
        .collect();
    let owner = transact::owners("--subnet", &keys, subnet.threshold.0, subnet.locktime.0)
        .map_err(build_error)?;
    let signers = if a.subnet_signer.is_empty() {
        None
    } else {
        Some(
            a.subnet_signer
                .iter()
                .map(|t| file::parse_address(&s.ctx, "--subnet-signer", t))
                .collect::<Result<Vec<_>, _>>()?,
        )
    };
    let authority = pb::Authority {
        owner: owner.clone(),
        signers,
    };
    let req = pb::ChainRequest {
        subnet_id: a.subnet,
        name: &a.name,
        vm_id: a.vm_id,
        fx_ids: Vec::new(),
        genesis: &genesis,
    };
    let utxos = s.p_utxos(None).await?;
    let u = s
        .build_p(|ctx, payer| pb::create_chain_tx(ctx, &utxos, payer, &authority, &req))
        .await?;
    if let Some(path) = &a.issue.out {
        let f = transact::PartiallySigned::p(&s.ctx, &u, &utxos, Some(&owner))
            .map_err(|e| e.to_string())?;
        return file::write(path, &f);
    }
    s.finish_p(u, &a.issue).await
}
