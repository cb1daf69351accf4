//! avalanche-rpc code generator: loads the YAML spec into one model and emits Rust bindings
//! (types, client traits, server traits) and OpenRPC documents from it.
//!
//! ```no_run
//! let spec = avalanche_rpc_codegen::load_dir(std::path::Path::new("spec")).unwrap();
//! let rust: String = avalanche_rpc_codegen::emit::rust(&spec);
//! ```

pub mod check;
pub mod codec;
pub mod common;
pub mod conform;
pub mod diff;
pub mod docs;
pub mod emit;
pub mod error;
pub mod expr;
pub mod html;
pub mod load;
pub mod lower;
pub mod model;
pub mod naming;
pub mod openrpc;
pub mod positions;
pub mod raw;
pub mod report;
pub mod source;
pub mod target;
pub mod version;
pub mod yaml;

pub use error::{SpecError, SpecErrors};
pub use model::Spec;
pub use source::Sources;

/// Loads and validates the spec folder for every output of this crate.
pub fn load_dir(dir: &std::path::Path) -> Result<Spec, SpecErrors> {
    load(&Sources::read_dir(dir)?)
}

/// Validates the sources into one model for every output of this crate: the spec's own
/// rules ([`load::load`]) and the Rust emitter's naming rules ([`emit::names::check`]).
pub fn load(sources: &Sources) -> Result<Spec, SpecErrors> {
    let spec = load::load(sources)?;
    let problems = emit::names::check(&spec);
    if problems.is_empty() {
        Ok(spec)
    } else {
        Err(load::sorted(sources, problems))
    }
}

/// As [`load()`], then, with a `node_version`, the model of what that node version serves
/// ([`target::for_node`]); without one, every version's, as [`load()`] gives it.
pub fn load_for(
    sources: &Sources,
    node_version: Option<model::Version>,
) -> Result<Spec, SpecErrors> {
    let spec = load(sources)?;
    let Some(version) = node_version else {
        return Ok(spec);
    };
    target::for_node(spec, version).map_err(|message| {
        SpecErrors(vec![SpecError {
            file: sources
                .versions
                .as_ref()
                .map(|(f, _)| f.clone())
                .unwrap_or_else(|| "versions.yaml".into()),
            pos: positions::Pos { line: 1, column: 1 },
            at: "oldest-supported".into(),
            message,
        }])
    })
}
