//! Rust emitters: one module per concern, all reading the same model.
//!
//! - `types`: params, results and named schemas as serde structs and enums;
//! - `client`: one client trait per interface and its implementation over a transport;
//! - `server`: one server trait per interface, its dispatcher and axum router;
//! - `catalog`: method descriptors (wire name, deprecation, normalization rules, examples);
//! - `mock`: the spec-example test double implementing every server trait.
//!
//! - `names`: the Rust names of every item, computed once, and the Rust naming rules.
//!
//! Generated code leans on the hand-written runtime (`crate::rpc`, `crate::wire`, and the
//! plumbing in `crate::__private`) so that each method costs a few lines. It imports nothing and
//! writes every outside item by its full path (`::std::option::Option`, `crate::rpc::RpcError`),
//! so a schema may take any name the module does not define itself.

pub mod catalog;
pub mod client;
pub mod codec;
pub mod mock;
pub mod names;
pub mod server;
pub mod tokens;
pub mod types;

use crate::model::*;
use proc_macro2::TokenStream;
use quote::quote;
use tokens::{Rust, doc, format, gated, ident};

/// Generates the whole Rust file for `spec`, formatted.
pub fn rust(spec: &Spec) -> String {
    let r = Rust::new(spec);
    let shared = types::schemas(&r, &spec.schemas);
    let modules = spec.interfaces.iter().map(|i| interface_module(&r, i));
    let accessors = gated("client", client::node_accessors(&r));
    let all = catalog::all_methods(&r);
    let file: TokenStream = quote! {
        /// Schemas shared by several interfaces (`spec/schemas/`).
        pub mod types {
            #![allow(rustdoc::broken_intra_doc_links, rustdoc::bare_urls, rustdoc::invalid_html_tags)]
            #shared
        }
        #(#modules)*
        #accessors
        #all
    };
    format(file)
}

fn interface_module(r: &Rust, i: &Interface) -> TokenStream {
    let module = ident(&r.of(i).module);
    let doc = doc(&interface_doc(i));
    let path = &i.path;
    let local = types::schemas(r, &i.schemas);
    let methods = i.methods.iter().map(|m| types::method_types(r, i, m));
    let client = gated("client", client::interface(r, i));
    let server = gated("server", server::interface(r, i));
    let catalog = catalog::interface(r, i);
    let mock = gated("server", mock::interface(r, i));
    quote! {
        #doc
        pub mod #module {
            #![allow(rustdoc::broken_intra_doc_links, rustdoc::bare_urls, rustdoc::invalid_html_tags)]

            /// The path this interface is served at; `{variables}` are filled per instance.
            pub const PATH: &str = #path;

            #local
            #(#methods)*
            #client
            #server
            #catalog
            #mock
        }
    }
}

fn interface_doc(i: &Interface) -> String {
    let mut s = format!(
        "{}: `{}` at `{}`.\n\n{}",
        i.title, i.namespace, i.path, i.summary
    );
    if let Some(d) = &i.description {
        s.push_str("\n\n");
        s.push_str(d);
    }
    if !i.path_params.is_empty() {
        s.push_str("\n\nPath variables:");
        for p in &i.path_params {
            s.push_str(&format!("\n- `{}`: {}", p.name, p.summary));
            if let Some(d) = &p.default {
                s.push_str(&format!(" (usually `{d}`)"));
            }
        }
    }
    if !i.also_served_at.is_empty() {
        s.push_str(&format!(
            "\n\nThe node also serves it at {}.",
            i.also_served_at
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    s
}
