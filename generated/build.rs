//! Generates the bindings from the spec into `$OUT_DIR/bindings.rs` and the binary codec into
//! `$OUT_DIR/codec.rs`.
//!
//! The spec is `spec/` inside this package: in the repository a link to the workspace's
//! `spec/` (the one place people edit), in the published package a copy of it. Set
//! `AVALANCHE_RPC_SPEC_DIR` to build the bindings from another spec folder (e.g. a copy you
//! changed, to see what your change breaks), and `AVALANCHE_RPC_NODE_VERSION` (`v1.10.0`) to
//! build them for one node version: the methods and members that version did not serve are
//! left out.
//!
//! When the spec has problems, each is one `cargo:warning` line (`file:line:column: place:
//! message`, the file under the spec folder) and the build fails; nothing else is printed.

use std::path::PathBuf;

fn main() {
    let spec_dir = match std::env::var_os("AVALANCHE_RPC_SPEC_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec"),
    };
    let node_version = match std::env::var("AVALANCHE_RPC_NODE_VERSION") {
        Ok(v) if !v.trim().is_empty() => match v.trim().parse() {
            Ok(v) => Some(v),
            Err(e) => fail(&[format!("AVALANCHE_RPC_NODE_VERSION: {e}")]),
        },
        _ => None,
    };
    let sources = match avalanche_rpc_codegen::Sources::read_dir(&spec_dir) {
        Ok(s) => s,
        Err(e) => fail(&lines(&spec_dir, &e)),
    };
    let spec = match avalanche_rpc_codegen::load_for(&sources, node_version) {
        Ok(s) => s,
        Err(e) => fail(&lines(&spec_dir, &e)),
    };
    let out =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("bindings.rs");
    let code = avalanche_rpc_codegen::emit::rust(&spec);
    if let Err(e) = std::fs::write(&out, code) {
        fail(&[format!("cannot write {}: {e}", out.display())]);
    }
    // `OPENRPC` (feature `openrpc`): the `avax-rpc` tool checks nodes against it.
    if std::env::var_os("CARGO_FEATURE_OPENRPC").is_some() {
        let doc = avalanche_rpc_codegen::openrpc::combined_document(&spec);
        let path = out.with_file_name("openrpc.json");
        if let Err(e) = std::fs::write(&path, avalanche_rpc_codegen::openrpc::to_text(&doc)) {
            fail(&[format!("cannot write {}: {e}", path.display())]);
        }
    }
    let codec = out.with_file_name("codec.rs");
    if let Err(e) = std::fs::write(&codec, avalanche_rpc_codegen::emit::codec::codec(&spec)) {
        fail(&[format!("cannot write {}: {e}", codec.display())]);
    }
    // Only once the bindings are written: a failed build script runs again anyway, and these
    // lines would bury the problems in cargo's output of a failed build.
    println!("cargo:rerun-if-env-changed=AVALANCHE_RPC_SPEC_DIR");
    println!("cargo:rerun-if-env-changed=AVALANCHE_RPC_NODE_VERSION");
    println!("cargo:rerun-if-changed={}", spec_dir.display());
    for file in sources.file_names() {
        println!("cargo:rerun-if-changed={}", spec_dir.join(file).display());
    }
}

/// One line per problem, each naming its file under the spec folder.
fn lines(spec_dir: &std::path::Path, errors: &avalanche_rpc_codegen::SpecErrors) -> Vec<String> {
    errors
        .0
        .iter()
        .map(|e| format!("{}/{e}", spec_dir.display()))
        .collect()
}

fn fail(problems: &[String]) -> ! {
    for p in problems {
        println!("cargo:warning={p}");
    }
    eprintln!(
        "the avalanche-rpc spec has {} problem(s), listed above",
        problems.len()
    );
    std::process::exit(1);
}
