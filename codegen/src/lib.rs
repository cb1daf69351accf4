//! avalanche-rpc code generator: loads the YAML spec into one model and emits Rust bindings
//! (types, client traits, server traits) and OpenRPC documents from it.
//!
//! ```no_run
//! let spec = avalanche_rpc_codegen::load_dir(std::path::Path::new("spec")).unwrap();
//! let rust: String = avalanche_rpc_codegen::emit::rust(&spec);
//! ```

pub mod common;
pub mod conform;
pub mod docs;
pub mod emit;
pub mod html;
pub mod load;
pub mod model;
pub mod naming;
pub mod openrpc;
pub mod raw;
pub mod report;

pub use load::{Sources, SpecError, SpecErrors, load, load_dir};
pub use model::Spec;
