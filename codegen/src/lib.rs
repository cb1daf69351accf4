//! avalanche-rpc code generator: loads the YAML spec into one model and emits Rust bindings
//! (types, client traits, server traits) and OpenRPC documents from it.
//!
//! ```no_run
//! let spec = avalanche_rpc_codegen::load_dir(std::path::Path::new("spec")).unwrap();
//! let rust: String = avalanche_rpc_codegen::emit::rust(&spec);
//! ```

pub mod check;
pub mod common;
pub mod conform;
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
