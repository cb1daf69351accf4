//! `avalanche-rpc-codegen`: a thin command line over the codegen library.

use avalanche_rpc_codegen::{Sources, Spec, docs, emit, html, load_for, openrpc, report};
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
  help            show this text

--spec DIR defaults to the repository's spec/ folder.
--node-version v1.10.0 generates for that node version: what it did not serve is left out
(default: every version the spec covers).";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
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
