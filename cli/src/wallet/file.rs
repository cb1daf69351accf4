//! Portable partially-signed transactions (`transact::portable`) on the command line:
//! `--out FILE` on a transaction's subcommand builds it with a node and writes the file;
//! `sign` signs it where the keys are (the key options, or a signer command: an HSM, a KMS,
//! `openssl pkeyutl`) and never calls a node; `combine` takes the signatures of files signed
//! apart; `show` is what a co-signer reviews; `issue` sends a fully signed one.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use avalanche_rpc::codec::{avm, platform};
use avalanche_rpc::network;
use avalanche_rpc::rpc::Node;
use avalanche_rpc::transact::portable::{Built, PartiallySigned};
use avalanche_rpc::transact::{self, Context, ExternalSigner, Keychain, Signer, SignerError};
use avalanche_rpc::wire::{Address, Id, ShortId};
use clap::Args;

use crate::units;

/// The devnet's address (`cargo run -p avalanche-devnet`), and a local node's.
pub(super) const DEFAULT_URL: &str = "http://127.0.0.1:9650";

/// The largest file read (a transaction is at most 64 KiB on the P-chain, its UTXOs more).
const MAX_FILE: u64 = 16 << 20;

/// The node, for the subcommands that call one.
#[derive(Args)]
pub(super) struct NodeUrl {
    /// The node's base URL.
    #[arg(long, help_heading = "Node and keys", value_name = "URL", default_value = DEFAULT_URL)]
    pub(super) url: String,
}

#[derive(Args)]
pub(super) struct SignArgs {
    /// The portable transaction file.
    file: PathBuf,
    /// Where to write the signed file (the file itself when not given).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// A program that signs for --signer-address: run with `sh -c`, given the 32-byte digest
    /// as hex on standard input, as `$1` and in AVAX_SIGN_DIGEST, and the address as `$2` and
    /// in AVAX_SIGN_ADDRESS; it prints the signature as DER, 64 bytes r‖s or 65 bytes r‖s‖v, raw
    /// or in hex (normalized to low s, the recovery ID found).
    #[arg(long, value_name = "CMD", requires = "signer_address")]
    signer_command: Option<String>,
    /// An address the signer command signs for (repeat it).
    #[arg(long, value_name = "ADDRESS", requires = "signer_command")]
    signer_address: Vec<String>,
}

#[derive(Args)]
pub(super) struct CombineArgs {
    /// Files of the same transaction, signed apart.
    #[arg(required = true, num_args = 2..)]
    files: Vec<PathBuf>,
    /// Where to write the combined file (standard output when not given).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Args)]
pub(super) struct ShowArgs {
    /// The portable transaction file.
    file: PathBuf,
}

#[derive(Args)]
pub(super) struct IssueArgs {
    #[command(flatten)]
    pub(super) node: NodeUrl,
    /// The fully signed portable transaction file.
    file: PathBuf,
    /// Wait until the chain accepts it.
    #[arg(long)]
    wait: bool,
    /// How long --wait waits: `30s`, `2m`, or seconds.
    #[arg(long, value_name = "PERIOD", default_value = "30s", value_parser = units::parse_timeout)]
    timeout: Duration,
}

/// An address of the context's network, on either chain (or a bare cb58 short ID).
pub(super) fn parse_address(ctx: &Context, flag: &str, text: &str) -> Result<ShortId, String> {
    parse_for(&ctx.hrp, flag, text)
}

fn parse_for(hrp: &str, flag: &str, text: &str) -> Result<ShortId, String> {
    let a: Address = text
        .parse()
        .map_err(|e| format!("`{flag}`: `{text}` is not an address: {e}"))?;
    match a.hrp() {
        Some(h) if h != hrp => Err(format!(
            "`{flag}`: `{text}` is an address of `{h}`, not of this network's `{hrp}`"
        )),
        _ => Ok(ShortId::new(a.payload())),
    }
}

/// Reads and checks a file; an error names the file and the field.
fn read(path: &Path) -> Result<PartiallySigned, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("{shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{shown}: not a regular file"));
    }
    if meta.len() > MAX_FILE {
        return Err(format!(
            "{shown}: {} bytes; a portable transaction is at most {MAX_FILE}",
            meta.len()
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    PartiallySigned::from_json(&text).map_err(|e| format!("{shown}: {e}"))
}

/// Writes a file whole (a temporary beside it, renamed), and says what it holds.
pub(super) fn write(path: &Path, f: &PartiallySigned) -> Result<(), String> {
    let shown = path.display();
    let tmp = path.with_extension("partial-tmp");
    std::fs::write(&tmp, f.to_json()).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{shown}: {e}"))?;
    eprintln!(
        "wrote {shown}: {}-chain {}, {} signature(s) missing",
        f.chain(),
        f.kind(),
        f.missing().len()
    );
    Ok(())
}

fn missing_text(f: &PartiallySigned) -> String {
    f.missing()
        .iter()
        .map(|(s, i, a)| format!("slots[{s}].signatures[{i}] ({a})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs the signer command for one digest; its answer as bytes (hex, or raw).
fn run_signer(command: &str, address: &str, digest: &[u8]) -> Result<Vec<u8>, SignerError> {
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        // `$1` and `$2` in the command.
        .arg("avax-rpc-signer")
        .arg(&hex)
        .arg(address)
        .env("AVAX_SIGN_DIGEST", &hex)
        .env("AVAX_SIGN_ADDRESS", address)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| SignerError::new(format!("the signer command did not start: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A command that does not read its input is not an error.
        let _ = writeln!(stdin, "{hex}");
    }
    let out = child
        .wait_with_output()
        .map_err(|e| SignerError::new(format!("the signer command: {e}")))?;
    if !out.status.success() {
        return Err(SignerError::new(format!(
            "the signer command failed ({})",
            out.status
        )));
    }
    // Hex may be wrapped (`xxd -p`, `od`): whitespace anywhere is dropped.
    let text: String = String::from_utf8_lossy(&out.stdout)
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    let digits = text.strip_prefix("0x").unwrap_or(&text);
    if !digits.is_empty()
        && digits.len().is_multiple_of(2)
        && digits.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return Ok((0..digits.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).expect("hex digits"))
            .collect());
    }
    if out.stdout.is_empty() {
        return Err(SignerError::new("the signer command printed nothing"));
    }
    Ok(out.stdout)
}

/// Signs a file with the keys given and the signer command; no node is called.
/// `keys` reads the keys given (`None` when none are: no --key-file, no variable).
pub(super) async fn sign(
    a: SignArgs,
    keys: impl FnOnce() -> Result<Option<Keychain>, String>,
) -> Result<(), String> {
    let mut f = read(&a.file)?;
    let hrp = network::hrp(f.file().network_id);
    let keychain = keys()?;
    if keychain.is_none() && a.signer_command.is_none() {
        return Err(
            "no keys: give --key-file PATH, set the variable --key-env names \
             (AVAX_PRIVATE_KEY by default), or --signer-command"
                .into(),
        );
    }
    let mut external = Vec::new();
    if let Some(command) = &a.signer_command {
        for text in &a.signer_address {
            let address = parse_for(hrp, "--signer-address", text)?;
            let command = command.clone();
            let shown = text.clone();
            external.push(ExternalSigner::digest(vec![address], move |digest| {
                let answer = run_signer(&command, &shown, &digest);
                std::future::ready(answer)
            }));
        }
    }
    let mut signers: Vec<&dyn Signer> = Vec::new();
    if let Some(k) = &keychain {
        signers.push(k);
    }
    for e in &external {
        signers.push(e);
    }
    let before = f.missing().len();
    let signed = f.sign_with(&signers).await.map_err(|e| e.to_string())?;
    if signed == 0 && before > 0 {
        return Err(format!(
            "no missing signature is for these keys; missing: {}",
            missing_text(&f)
        ));
    }
    eprintln!("signed {signed} slot signature(s)");
    write(a.out.as_deref().unwrap_or(&a.file), &f)
}

/// Combines files of one transaction.
pub(super) fn combine(a: CombineArgs) -> Result<(), String> {
    let mut first = read(&a.files[0])?;
    for path in &a.files[1..] {
        let other = read(path)?;
        let n = first
            .combine(&other)
            .map_err(|e| format!("{} and {}: {e}", a.files[0].display(), path.display()))?;
        eprintln!("{}: took {n} signature(s)", path.display());
    }
    match &a.out {
        Some(path) => write(path, &first),
        None => {
            let _ = std::io::stdout()
                .lock()
                .write_all(first.to_json().as_bytes());
            Ok(())
        }
    }
}

/// An amount: AVAX in whole units and nAVAX; another asset in its smallest units.
fn amount(avax: Id, asset: Id, n: u64) -> String {
    if asset == avax {
        format!("{} ({n} nAVAX)", units::avax(n))
    } else {
        format!("{n} of asset {asset}")
    }
}

fn owners_text(
    letter: &str,
    hrp: &str,
    o: &avalanche_rpc::codec::secp256k1fx::OutputOwners,
) -> String {
    let a: Vec<String> = o
        .addresses
        .iter()
        .map(|a| {
            Address::new(Some(letter), hrp, *a.as_bytes())
                .map(|a| a.to_string())
                .unwrap_or_else(|_| a.to_string())
        })
        .collect();
    let mut text = format!("{} of [{}]", o.threshold, a.join(", "));
    if o.locktime > 0 {
        text += &format!(", locked until {}", o.locktime);
    }
    text
}

/// What a co-signer reviews.
pub(super) fn show(a: ShowArgs) -> Result<(), String> {
    let f = read(&a.file)?;
    let file = f.file();
    let letter = f.chain();
    let hrp = network::hrp(file.network_id);
    let avax = file.avax_asset_id;
    let mut out = String::new();
    let mut line = |s: String| {
        out += &s;
        out.push('\n');
    };
    line(format!(
        "{letter}-chain {} on network {} ({}), blockchain {}",
        f.kind(),
        file.network_id,
        network::name(file.network_id),
        file.blockchain_id
    ));
    line(format!("unsigned digest: {}", f.digest()));
    line("spends:".into());
    let mut spent: Vec<(Id, u64)> = Vec::new();
    for (i, slot) in file.slots.iter().enumerate() {
        if let Some(u) = &slot.utxo {
            let owners: Vec<String> = u.addresses.iter().map(|a| a.to_string()).collect();
            line(format!(
                "  slots[{i}]: {} from UTXO {}:{} owned {} of [{}]",
                amount(avax, u.asset_id, u.amount.0),
                u.tx_id,
                u.output_index,
                u.threshold,
                owners.join(", ")
            ));
            match spent.iter_mut().find(|(a, _)| *a == u.asset_id) {
                Some((_, n)) => *n = n.saturating_add(u.amount.0),
                None => spent.push((u.asset_id, u.amount.0)),
            }
        }
        if let Some(auth) = &slot.authorization {
            let owners: Vec<String> = auth.addresses.iter().map(|a| a.to_string()).collect();
            line(format!(
                "  slots[{i}]: authorizes for Subnet {}, owned {} of [{}] (the owner is the chain's: the node checks it)",
                auth.subnet_id,
                auth.threshold,
                owners.join(", ")
            ));
        }
    }
    line("pays:".into());
    for flow in f.flows() {
        let mut text = format!(
            "  {}: {} to {}",
            flow.kind,
            amount(avax, flow.asset, flow.amount),
            owners_text(letter, hrp, &flow.owners)
        );
        if flow.stakeable_until > 0 {
            text += &format!(", stakeable only until {}", flow.stakeable_until);
        }
        line(text);
    }
    for (asset, n) in &spent {
        let produced: u64 = f
            .flows()
            .iter()
            .filter(|x| x.asset == *asset)
            .map(|x| x.amount)
            .fold(0, u64::saturating_add);
        if *asset != avax && produced < *n {
            line(format!("  burned: {}", amount(avax, *asset, n - produced)));
        }
    }
    line(format!("fee: {}", amount(avax, avax, file.fee.0)));
    line(format!("burned: {}", amount(avax, avax, file.burned.0)));
    line("signatures:".into());
    for (i, slot) in file.slots.iter().enumerate() {
        for (j, sig) in slot.signatures.iter().enumerate() {
            line(format!(
                "  slots[{i}].signatures[{j}]: {} {}",
                sig.address,
                if sig.signature.is_some() {
                    "signed"
                } else {
                    "missing"
                }
            ));
        }
    }
    let missing = f.missing().len();
    line(if missing == 0 {
        "complete: ready to issue".into()
    } else {
        format!("{missing} signature(s) missing")
    });
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    Ok(())
}

/// Issues a fully signed file.
pub(super) async fn issue(
    a: IssueArgs,
    node: impl FnOnce(&str) -> Result<Node, String>,
    wallet_error: fn(transact::WalletError) -> String,
) -> Result<(), String> {
    let f = read(&a.file)?;
    let bytes = f
        .signed_bytes()
        .map_err(|e| format!("{}: {e}", a.file.display()))?;
    let node = node(&a.node.url)?;
    let pending = match f.built() {
        Built::X(_) => {
            let tx = avm::Tx::from_bytes(&bytes).map_err(|e| e.to_string())?;
            transact::x::issue(&node, &tx).await
        }
        Built::P(_) => {
            let tx = platform::Tx::from_bytes(&bytes).map_err(|e| e.to_string())?;
            transact::p::issue(&node, &tx).await
        }
    }
    .map_err(wallet_error)?;
    let id = pending.tx_id();
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "txID: {id}");
    let _ = stdout.flush();
    if !a.wait {
        return Ok(());
    }
    let start = Instant::now();
    let letter = f.chain();
    let word = match f.built() {
        Built::X(_) => "accepted",
        Built::P(_) => "committed",
    };
    pending.wait_for(a.timeout).await.map_err(wallet_error)?;
    let _ = writeln!(
        stdout,
        "{word} on the {letter}-chain in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
