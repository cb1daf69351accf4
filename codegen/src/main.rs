//! `avalanche-rpc-codegen`: a thin command line over the codegen library.

use avalanche_rpc_codegen::{Sources, Spec, diff, docs, emit, html, load_for, openrpc, report};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: avalanche-rpc-codegen <command> [--spec DIR] [--out PATH] [--node-version VERSION]

commands:
  check           validate the spec and list every method with its fields and a total
  rust            write the generated Rust (to --out FILE, or standard output)
  openrpc         write the OpenRPC documents (every one into --out DIR, or the combined one
                  to standard output)
  html            write the HTML API reference (to --out FILE, or standard output)
  docs            write the OpenRPC documents and the HTML reference where they are committed
                  (generated/openrpc/*.json, generated/docs/api.html; --out DIR replaces
                  generated/)
  diff OLD NEW    list what changed between two spec folders, whom each change breaks and
                  the crate's semver bump; `diff --git REV [NEW]` compares the repository's
                  spec/ at REV with NEW (default: the working spec/). Options: --json,
                  --fail-on major|minor|patch (exit 1 when the bump is at least that)
  help            show this text

--spec DIR defaults to the repository's spec/ folder.
--node-version v1.10.0 generates for that node version: what it did not serve is left out
(default: every version the spec covers).";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("diff") {
        return match diff_command(&args[1..]) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(2)
            }
        };
    }
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let mut command = None;
    let mut spec_dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec"));
    let mut out: Option<PathBuf> = None;
    let mut node_version = None;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--spec" => spec_dir = it.next().ok_or("--spec needs a folder")?.into(),
            "--out" => out = Some(it.next().ok_or("--out needs a path")?.into()),
            "--node-version" => {
                let v = it
                    .next()
                    .ok_or("--node-version needs a version such as v1.10.0")?;
                node_version = Some(v.parse()?);
            }
            "-h" | "--help" | "help" => {
                return {
                    println!("{USAGE}");
                    Ok(())
                };
            }
            c if command.is_none() && !c.starts_with('-') => command = Some(c.to_string()),
            other => return Err(format!("unexpected argument `{other}`\n\n{USAGE}")),
        }
    }
    let load = || -> Result<Spec, String> {
        let sources = Sources::read_dir(&spec_dir).map_err(|e| e.to_string())?;
        load_for(&sources, node_version).map_err(|e| e.to_string())
    };
    match command.as_deref() {
        Some("check") => {
            let spec = load()?;
            print!("{}", report::listing(&spec));
            Ok(())
        }
        Some("rust") => {
            let code = emit::rust(&load()?);
            write(out, &code)
        }
        Some("openrpc") => {
            let spec = load()?;
            match out {
                Some(dir) => {
                    std::fs::create_dir_all(&dir)
                        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                    for (name, doc) in openrpc::documents(&spec) {
                        write(Some(dir.join(name)), &openrpc::to_text(&doc))?;
                    }
                    Ok(())
                }
                None => write(None, &openrpc::to_text(&openrpc::combined_document(&spec))),
            }
        }
        Some("html") => write(out, &html::page(&load()?)),
        Some("docs") => {
            let spec = load()?;
            let dir = out.unwrap_or_else(|| {
                let repo = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
                repo.canonicalize().unwrap_or(repo).join("generated")
            });
            for rel in docs::write_outputs(&spec, &dir)? {
                eprintln!("wrote {}", dir.join(rel).display());
            }
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{USAGE}")),
        None => Err(USAGE.to_string()),
    }
}

fn write(out: Option<PathBuf>, text: &str) -> Result<(), String> {
    match out {
        Some(path) => {
            std::fs::write(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!("wrote {}", path.display());
            Ok(())
        }
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// `diff OLD NEW` or `diff --git REV [NEW]`, with `--json` and `--fail-on BUMP`.
fn diff_command(args: &[String]) -> Result<ExitCode, String> {
    let repo = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let (mut json, mut fail_on, mut git, mut folders) = (false, None, None, Vec::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--fail-on" => {
                let b = it.next().ok_or("--fail-on needs major, minor or patch")?;
                fail_on = Some(b.parse::<diff::Bump>()?);
            }
            "--git" => git = Some(it.next().ok_or("--git needs a revision")?.clone()),
            f if !f.starts_with('-') => folders.push(PathBuf::from(f)),
            other => return Err(format!("unexpected argument `{other}`\n\n{USAGE}")),
        }
    }
    let extracted;
    let (old_dir, new_dir) = match (git, folders.as_slice()) {
        (Some(rev), rest) if rest.len() <= 1 => {
            extracted = spec_at(&repo, &rev)?;
            let new = rest.first().cloned().unwrap_or_else(|| repo.join("spec"));
            (extracted.path().join("spec"), new)
        }
        (None, [old, new]) => (old.clone(), new.clone()),
        _ => return Err(format!("diff takes OLD NEW, or --git REV [NEW]\n\n{USAGE}")),
    };
    let load = |side: &str, dir: &PathBuf| -> Result<Spec, String> {
        let sources = Sources::read_dir(dir)
            .map_err(|e| format!("the {side} spec ({}): {e}", dir.display()))?;
        avalanche_rpc_codegen::load(&sources)
            .map_err(|e| format!("the {side} spec ({}) has problems:\n{e}", dir.display()))
    };
    let old = load("old", &old_dir)?;
    let new = load("new", &new_dir)?;
    let changes = diff::diff(&old, &new);
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&diff::json(&changes)).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", diff::table(&changes));
    }
    Ok(match fail_on {
        Some(limit) if diff::bump(&changes) >= limit => ExitCode::FAILURE,
        _ => ExitCode::SUCCESS,
    })
}

/// The repository's `spec/` at `rev`, extracted into a temporary folder.
fn spec_at(repo: &std::path::Path, rev: &str) -> Result<TempDir, String> {
    let dir = TempDir::new()?;
    let archive = std::process::Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["archive", "--format=tar", rev, "spec"])
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !archive.status.success() {
        return Err(format!(
            "git archive {rev} spec: {}",
            String::from_utf8_lossy(&archive.stderr).trim()
        ));
    }
    let mut tar = std::process::Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(dir.path())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run tar: {e}"))?;
    use std::io::Write as _;
    tar.stdin
        .take()
        .ok_or("tar has no input")?
        .write_all(&archive.stdout)
        .map_err(|e| format!("cannot feed tar: {e}"))?;
    let status = tar.wait().map_err(|e| format!("tar: {e}"))?;
    if !status.success() {
        return Err(format!("tar could not extract the spec at {rev}"));
    }
    Ok(dir)
}

/// A folder removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<TempDir, String> {
        let base = std::env::temp_dir().join(format!(
            "avalanche-rpc-diff-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or_default()
        ));
        std::fs::create_dir_all(&base)
            .map_err(|e| format!("cannot create {}: {e}", base.display()))?;
        Ok(TempDir(base))
    }

    fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
