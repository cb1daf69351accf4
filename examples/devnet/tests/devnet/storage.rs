//! A damaged store is refused, never opened half-way, panicked on or replaced by a new chain:
//! the binary exits with code 1 and one line naming the file and what is wrong, and leaves
//! the file as it was.

use std::path::{Path, PathBuf};
use std::process::Command;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!(
            "avalanche-devnet-storage-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A store with a chain in it (genesis and the start history), closed.
fn make_store(dir: &Path) {
    let d = avalanche_devnet::Devnet::open(avalanche_devnet::Options {
        db_dir: Some(dir.to_path_buf()),
        ..crate::common::options()
    })
    .expect("a new store opens");
    drop(d);
}

/// Runs the binary on `dir`: its exit code and what it wrote to stderr.
fn run(dir: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_avalanche-devnet"))
        .args(["--http-port", "0", "--history=false", "--db-dir"])
        .arg(dir)
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Damages the store with `damage`, then checks the refusal: exit code 1, one line naming
/// the file and containing `says`, the file byte for byte as damaged.
fn refused_after(name: &str, damage: impl FnOnce(&mut Vec<u8>), says: &str) {
    let dir = TempDir::new(name);
    make_store(&dir.0);
    let file = dir.0.join("devnet.redb");
    let mut bytes = std::fs::read(&file).unwrap();
    damage(&mut bytes);
    std::fs::write(&file, &bytes).unwrap();
    let (code, stderr) = run(&dir.0);
    assert_eq!(code, Some(1), "{name}: exit code; stderr: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{name}: one line, not {stderr}");
    assert!(
        lines[0].contains("devnet.redb"),
        "{name}: names the file: {stderr}"
    );
    assert!(lines[0].contains(says), "{name}: says {says:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        bytes,
        "{name}: the file is untouched"
    );
}

#[test]
fn a_store_cut_short_by_one_byte_is_refused() {
    refused_after(
        "cut",
        |b| {
            b.pop();
        },
        "cut short",
    );
}

#[test]
fn an_empty_store_is_refused_not_replaced_by_a_new_chain() {
    refused_after("empty", |b| b.clear(), "is empty");
}

#[test]
fn a_store_cut_short_by_whole_pages_is_refused() {
    refused_after(
        "pages",
        |b| b.truncate(b.len() - 3 * 4096),
        "cannot be opened",
    );
}
