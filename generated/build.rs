//! Generates the bindings from the spec into `$OUT_DIR/bindings.rs`.
//!
//! The spec is `spec/` inside this package: in the repository a link to the workspace's
//! `spec/` (the one place people edit), in the published package a copy of it. Set
//! `AVALANCHE_RPC_SPEC_DIR` to build the bindings from another spec folder (e.g. a copy you
//! changed, to see what your change breaks).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=AVALANCHE_RPC_SPEC_DIR");
    let spec_dir = match std::env::var_os("AVALANCHE_RPC_SPEC_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec"),
    };
    println!("cargo:rerun-if-changed={}", spec_dir.display());
    let sources = match avalanche_rpc_codegen::Sources::read_dir(&spec_dir) {
        Ok(s) => s,
        Err(e) => fail(&e.to_string()),
    };
    for file in sources.file_names() {
        println!("cargo:rerun-if-changed={}", spec_dir.join(file).display());
    }
    let spec = match avalanche_rpc_codegen::load(&sources) {
        Ok(s) => s,
        Err(e) => fail(&e.to_string()),
    };
    let out =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("bindings.rs");
    let code = avalanche_rpc_codegen::emit::rust(&spec);
    if let Err(e) = std::fs::write(&out, code) {
        fail(&format!("cannot write {}: {e}", out.display()));
    }
}

fn fail(message: &str) -> ! {
    for line in message.lines() {
        println!("cargo:warning={line}");
    }
    eprintln!("{message}");
    std::process::exit(1);
}
