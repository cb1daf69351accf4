//! Runnable examples: see the `examples/` targets.
//!
//! This crate also compiles the Rust blocks of the repository's Markdown as doctests (it has
//! every feature they use: the client, the server and the wallet): `cargo test -p
//! avalanche-rpc-examples --doc`. A block that needs a running node is `no_run`, which still
//! compiles it.

#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
mod readme {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/client.md")]
mod docs_client {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/server.md")]
mod docs_server {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/wallet.md")]
mod docs_wallet {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/command-line.md")]
mod docs_command_line {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/devnet.md")]
mod docs_devnet {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/api-evolution.md")]
mod docs_api_evolution {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/testing.md")]
mod docs_testing {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/dependencies.md")]
mod docs_dependencies {}

/// Every page of `docs/` is compiled above: a page added without its doctest module fails here.
#[cfg(test)]
mod tests {
    #[test]
    fn every_docs_page_is_a_doctest() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        let lib = include_str!("lib.rs");
        let mut pages = 0;
        for entry in std::fs::read_dir(format!("{root}/docs")).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".md") {
                pages += 1;
                let line = format!("include_str!(\"../../docs/{name}\")");
                assert!(
                    lib.contains(&line),
                    "docs/{name} is not compiled: add `{line}`"
                );
            }
        }
        assert!(pages > 0, "no pages found in {root}/docs");
    }
}
