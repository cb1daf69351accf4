//! A damaged store is refused, never opened half-way, panicked on or replaced by a new chain:
//! the binary exits with code 1 and one line naming the file and what is wrong, and leaves
//! the file as it was. The advice follows the cause: only damage is met with "remove it"; a
//! store in use by another devnet, or read-only, is a sound chain and is never to be removed.

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
    assert!(
        lines[0].contains("restore it from a copy, or remove it to start a new chain"),
        "{name}: damage, so the advice is to restore or remove: {stderr}"
    );
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

/// The one line of a refusal of a sound store: names the file, says `says`, and never
/// advises removing it.
fn refused_sound(name: &str, code: Option<i32>, stderr: &str, says: &str) {
    assert_eq!(code, Some(1), "{name}: exit code; stderr: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{name}: one line, not {stderr}");
    assert!(lines[0].contains("devnet.redb"), "{name}: {stderr}");
    assert!(lines[0].contains(says), "{name}: says {says:?}: {stderr}");
    assert!(
        lines[0].contains("not damaged: do not remove it") && !lines[0].contains("remove it to"),
        "{name}: a sound chain is never to be removed: {stderr}"
    );
}

#[test]
fn a_store_in_use_by_another_devnet_is_refused_and_not_to_be_removed() {
    use std::io::BufRead;
    let dir = TempDir::new("in-use");
    make_store(&dir.0);
    let before = std::fs::read(dir.0.join("devnet.redb")).unwrap();
    // The first devnet: up once its banner is out.
    let mut first = Command::new(env!("CARGO_BIN_EXE_avalanche-devnet"))
        .args(["--http-port", "0", "--history=false", "--db-dir"])
        .arg(&dir.0)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut banner = String::new();
    std::io::BufReader::new(first.stdout.take().unwrap())
        .read_line(&mut banner)
        .unwrap();
    assert!(banner.starts_with("avalanche-devnet"), "{banner}");
    let (code, stderr) = run(&dir.0);
    let _ = first.kill();
    let _ = first.wait();
    refused_sound("in use", code, &stderr, "in use by another process");
    assert!(stderr.contains("another --db-dir"), "{stderr}");
    // Once the first has stopped, the chain opens again.
    let d = avalanche_devnet::Devnet::open(avalanche_devnet::Options {
        db_dir: Some(dir.0.clone()),
        ..crate::common::options()
    });
    assert!(d.is_ok(), "the store opens again");
    assert!(!before.is_empty());
}

/// Makes a file read-only for this process, even for root (which ignores mode bits): mode
/// 0444, and when that is not enough the immutable attribute (`chattr +i`), taken off again
/// when dropped. `None` when neither can make it read-only here.
struct ReadOnly(PathBuf, bool);

impl ReadOnly {
    fn new(file: &Path) -> Option<ReadOnly> {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o444)).unwrap();
        let writable = || std::fs::OpenOptions::new().write(true).open(file).is_ok();
        if !writable() {
            return Some(ReadOnly(file.to_path_buf(), false));
        }
        let immutable = Command::new("chattr")
            .arg("+i")
            .arg(file)
            .status()
            .is_ok_and(|s| s.success());
        let guard = ReadOnly(file.to_path_buf(), immutable);
        (immutable && !writable()).then_some(guard)
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if self.1 {
            let _ = Command::new("chattr").arg("-i").arg(&self.0).status();
        }
    }
}

#[test]
fn a_read_only_store_is_refused_and_not_to_be_removed() {
    let dir = TempDir::new("read-only");
    make_store(&dir.0);
    let file = dir.0.join("devnet.redb");
    let before = std::fs::read(&file).unwrap();
    let Some(guard) = ReadOnly::new(&file) else {
        // Checked in-process instead: `store::tests::advice_follows_the_cause`.
        eprintln!("note: this file system lets this user write a read-only file; skipped");
        return;
    };
    let (code, stderr) = run(&dir.0);
    drop(guard);
    refused_sound("read-only", code, &stderr, "read-only");
    assert!(stderr.contains("chmod u+w"), "{stderr}");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the file is untouched"
    );
}
