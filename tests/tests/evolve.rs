//! Additive spec changes break no code written the README's way; breaking ones do.
//!
//! The test copies `spec/`, edits the copy, regenerates the bindings from it
//! (`AVALANCHE_RPC_SPEC_DIR`) and type-checks the examples (the README's client and server
//! come from them) and the end-to-end tests against them, with a cargo of its own in
//! `target/evolve`. It takes a minute or two with a cold cache, so it is ignored by default:
//!
//! ```sh
//! cargo test -p avalanche-rpc-tests --test evolve -- --ignored
//! ```
//!
//! `.ci/run` runs it.

use serde_yaml::{Mapping, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the workspace")
        .to_path_buf()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read spec dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A spec copy in a fresh folder under `target/evolve/`.
fn spec_copy(name: &str) -> PathBuf {
    let dir = workspace().join("target/evolve/specs").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&workspace().join("spec"), &dir);
    dir
}

fn read(dir: &Path, file: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(file)).expect("read");
    serde_yaml::from_str(&text).expect("yaml")
}

fn write(dir: &Path, file: &str, value: &Value) {
    std::fs::write(dir.join(file), serde_yaml::to_string(value).expect("yaml")).expect("write");
}

fn yaml(text: &str) -> Value {
    serde_yaml::from_str(text).expect("yaml literal")
}

/// The method `name` of an interface file.
fn method<'a>(iface: &'a mut Value, name: &str) -> &'a mut Mapping {
    iface["methods"]
        .as_sequence_mut()
        .expect("methods")
        .iter_mut()
        .find(|m| m["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("no method {name}"))
        .as_mapping_mut()
        .expect("a method is a mapping")
}

fn push(list: &mut Value, item: Value) {
    list.as_sequence_mut().expect("a list").push(item);
}

/// Adds an optional result member and an optional param to `method` of `file`.
fn add_optional_members(dir: &Path, file: &str, name: &str) {
    let mut iface = read(dir, file);
    let m = method(&mut iface, name);
    push(
        &mut m["result"]["fields"],
        yaml("{ name: evolvedResultMember, type: string, optional: true, summary: Added later. }"),
    );
    let params = m
        .entry("params".into())
        .or_insert(Value::Sequence(Vec::new()));
    push(
        params,
        yaml("{ name: evolvedParam, type: u64, optional: true, summary: Added later. }"),
    );
    write(dir, file, &iface);
}

/// `cargo check` of the examples and the end-to-end tests against the bindings of `spec`.
fn check_against(spec: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO"))
        .current_dir(workspace())
        .args([
            "check",
            "--quiet",
            "-p",
            "avalanche-rpc-examples",
            "--examples",
            "-p",
            "avalanche-rpc-tests",
            "--tests",
        ])
        .env("AVALANCHE_RPC_SPEC_DIR", spec)
        .env("CARGO_TARGET_DIR", workspace().join("target/evolve/target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run cargo");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.success(), stderr)
}

#[test]
#[ignore = "builds the workspace against edited specs; run with --ignored (CI does)"]
fn additive_changes_break_nothing_and_breaking_ones_do() {
    // Additive: optional members and params, a new enumeration value, a new optional member of
    // a shared schema, a new method.
    let dir = spec_copy("additive");
    for (file, name) in [
        ("interfaces/wallet.yaml", "issueTx"),
        ("interfaces/info.yaml", "getNodeID"),
        ("interfaces/info.yaml", "getNetworkID"),
        ("interfaces/info.yaml", "getNetworkName"),
        ("interfaces/platform.yaml", "getHeight"),
        ("interfaces/platform.yaml", "getTxStatus"),
        ("interfaces/platform.yaml", "getCurrentValidators"),
    ] {
        add_optional_members(&dir, file, name);
    }
    let mut platform = read(&dir, "interfaces/platform.yaml");
    push(
        &mut platform["schemas"]["TxStatus"]["values"],
        yaml("{ value: Finalized, summary: A status a newer node writes. }"),
    );
    write(&dir, "interfaces/platform.yaml", &platform);
    let mut common = read(&dir, "schemas/common.yaml");
    push(
        &mut common["Owner"]["fields"],
        yaml("{ name: evolvedOwnerMember, type: u32, optional: true, summary: Added later. }"),
    );
    write(&dir, "schemas/common.yaml", &common);
    let mut info = read(&dir, "interfaces/info.yaml");
    push(
        &mut info["methods"],
        yaml(
            "{ name: getEvolved, summary: A method added later., params: [],
               result: { fields: [{ name: value, type: u64, summary: A value. }] },
               examples: [{ name: One, params: {}, result: { value: \"1\" } }] }",
        ),
    );
    write(&dir, "interfaces/info.yaml", &info);

    let (ok, stderr) = check_against(&dir);
    assert!(
        ok,
        "an additive spec change broke code written the README's way:\n{stderr}"
    );

    // Breaking (the control: the check can fail): a new required member of a result that
    // the example server builds with `new(...)`.
    let dir = spec_copy("breaking");
    let mut wallet = read(&dir, "interfaces/wallet.yaml");
    let m = method(&mut wallet, "issueTx");
    push(
        &mut m["result"]["fields"],
        yaml("{ name: requiredLater, type: string, summary: A member every reply now has. }"),
    );
    for ex in m["examples"].as_sequence_mut().expect("examples") {
        ex["result"]["requiredLater"] = Value::String("x".into());
    }
    write(&dir, "interfaces/wallet.yaml", &wallet);
    let (ok, stderr) = check_against(&dir);
    assert!(
        !ok,
        "a new required result member should break the README-style server"
    );
    assert!(
        stderr.contains("wallet_server") && stderr.contains("IssueTxResult::new"),
        "the break is where the server builds the result:\n{stderr}"
    );
}
