//! The generator: loading, validating and emitting the whole spec in-process, and the
//! incremental `cargo build -p avalanche-rpc` after one field's summary changed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::report::{Row, Unit};

pub fn run_generator(spec_dir: &Path, reps: usize) -> Result<Vec<Row>, String> {
    let load = || {
        let sources = avalanche_rpc_codegen::Sources::read_dir(spec_dir)
            .map_err(|e| format!("cannot read the spec at {}: {e}", spec_dir.display()))?;
        avalanche_rpc_codegen::load(&sources).map_err(|e| format!("the spec is invalid: {e}"))
    };
    let spec = load()?; // warm-up, and fail early on a bad spec
    let mut code_len = avalanche_rpc_codegen::emit::rust(&spec).len();
    let (mut loads, mut emits, mut totals) = (vec![], vec![], vec![]);
    for _ in 0..reps {
        let t0 = Instant::now();
        let spec = load()?;
        let t1 = Instant::now();
        code_len = std::hint::black_box(avalanche_rpc_codegen::emit::rust(&spec)).len();
        let t2 = Instant::now();
        loads.push((t1 - t0).as_secs_f64());
        emits.push((t2 - t1).as_secs_f64());
        totals.push((t2 - t0).as_secs_f64());
    }
    Ok(vec![
        Row::new(
            "Generator: read, parse and validate the whole spec (`Sources::read_dir` + `load`)",
            Unit::Seconds,
            loads,
        ),
        Row::new(
            format!(
                "Generator: emit the Rust bindings (`emit::rust`, {} KB of code)",
                code_len / 1000
            ),
            Unit::Seconds,
            emits,
        ),
        Row::new(
            "Generator: load, validate and emit, total",
            Unit::Seconds,
            totals,
        ),
    ])
}

/// Where the incremental build keeps its target directory and its copy of the spec.
pub struct BuildSetup {
    pub repo: PathBuf,
    pub target_dir: PathBuf,
    pub reps: usize,
    /// CPUs the build may use (all this process may use, not the pinned one).
    pub cpus: Vec<usize>,
}

const EDITED_FILE: &str = "interfaces/info.yaml";
const MARK: &str = " (bench edit ";

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        // Follow links (the spec folder may be one).
        if std::fs::metadata(entry.path())?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// A digest of every file under `dir`, to tell whether the copy is still current.
fn digest_dir(dir: &Path) -> std::io::Result<String> {
    use sha2::{Digest, Sha256};
    fn walk(dir: &Path, base: &Path, h: &mut Sha256) -> std::io::Result<()> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let path = e.path();
            if std::fs::metadata(&path)?.is_dir() {
                walk(&path, base, h)?;
            } else {
                h.update(
                    path.strip_prefix(base)
                        .unwrap_or(&path)
                        .to_string_lossy()
                        .as_bytes(),
                );
                h.update(std::fs::read(&path)?);
            }
        }
        Ok(())
    }
    let mut h = Sha256::new();
    walk(dir, dir, &mut h)?;
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Changes one field's summary in the copy: the `networkID` field of `info.getNetworkID`, or
/// else the first plain one-line field summary of the file.
fn edit_summary(spec_copy: &Path, n: u128) -> Result<(), String> {
    let path = spec_copy.join(EDITED_FILE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let plain_field_summary = |l: &str| {
        let t = l.trim_start();
        l.len() - t.len() >= 8
            && t.strip_prefix("summary: ")
                .is_some_and(|v| !v.starts_with(['>', '|', '"', '\'']))
    };
    let after_network_id = lines
        .iter()
        .position(|l| l.trim() == "- name: networkID")
        .and_then(|i| (i + 1..lines.len().min(i + 4)).find(|&j| plain_field_summary(&lines[j])));
    let at = after_network_id
        .or_else(|| lines.iter().position(|l| plain_field_summary(l)))
        .ok_or_else(|| format!("no field summary to edit in {}", path.display()))?;
    let line = &mut lines[at];
    if let Some(i) = line.find(MARK) {
        line.truncate(i);
    }
    line.push_str(&format!("{MARK}{n})"));
    let mut out = lines.join("\n");
    out.push('\n');
    std::fs::write(&path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Runs `cargo build -p avalanche-rpc` on the spec copy; its wall time.
fn cargo_build(setup: &BuildSetup, spec_copy: &Path, limit: Duration) -> Result<f64, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(&cargo);
    command
        .args([
            "build",
            "-q",
            "--locked",
            "-p",
            "avalanche-rpc",
            "--manifest-path",
        ])
        .arg(setup.repo.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &setup.target_dir)
        .env("AVALANCHE_RPC_SPEC_DIR", spec_copy)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    crate::sys::pin_command(&mut command, setup.cpus.clone());
    crate::sys::normal_priority_command(&mut command);
    let start = Instant::now();
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    let stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut s) = stderr {
            let _ = std::io::Read::read_to_string(&mut s, &mut text);
        }
        text
    });
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let elapsed = start.elapsed().as_secs_f64();
                let text = reader.join().unwrap_or_default();
                return if status.success() {
                    Ok(elapsed)
                } else {
                    Err(format!("cargo build failed ({status}):\n{text}"))
                };
            }
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "cargo build took longer than {} s; stopped",
                    limit.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(format!("cannot wait for cargo: {e}")),
        }
    }
}

pub fn run_incremental(setup: &BuildSetup) -> Result<Vec<Row>, String> {
    let spec = setup.repo.join("spec");
    let spec_copy = setup.target_dir.join("spec");
    let stamp = setup.target_dir.join("spec.source-digest");
    let digest = digest_dir(&spec).map_err(|e| format!("cannot read {}: {e}", spec.display()))?;
    let current = std::fs::read_to_string(&stamp).ok();
    if current.as_deref() != Some(digest.as_str()) || !spec_copy.exists() {
        let _ = std::fs::remove_dir_all(&spec_copy);
        copy_dir(&spec, &spec_copy)
            .and_then(|()| std::fs::write(&stamp, &digest))
            .map_err(|e| format!("cannot copy the spec to {}: {e}", spec_copy.display()))?;
    }
    let seeded = setup.target_dir.join("debug").exists();
    println!(
        "  {} {} (not timed)…",
        if seeded {
            "bringing up to date"
        } else {
            "seeding, once, which takes a few minutes:"
        },
        setup.target_dir.display()
    );
    let warm = cargo_build(setup, &spec_copy, Duration::from_secs(1800))?;
    println!("  warm-up build: {warm:.1} s");
    let mut times = Vec::new();
    for rep in 0..setup.reps {
        let n = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(rep as u128, |d| d.as_nanos());
        edit_summary(&spec_copy, n)?;
        let t = cargo_build(setup, &spec_copy, Duration::from_secs(600))?;
        println!("  incremental build {}/{}: {t:.1} s", rep + 1, setup.reps);
        times.push(t);
    }
    Ok(vec![Row::new(
        "Incremental `cargo build -p avalanche-rpc` (debug) after one field's summary changed",
        Unit::Seconds,
        times,
    )])
}
