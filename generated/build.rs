//! Generates the bindings from `spec/` into `$OUT_DIR/bindings.rs`.

use std::path::{Path, PathBuf};

fn main() {
    let spec_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
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
