//! What every Rust emitter shares: the model with its names ([`Rust`]), the Rust type of a
//! type expression, identifiers, doc attributes, handler signatures, feature gates, and the
//! formatting of the generated file.

use crate::model::*;
use proc_macro2::{Span, TokenStream};
use quote::quote;

use super::names::{self, InterfaceNames, Names};

/// What every Rust emitter reads: the model and the names of its items.
pub struct Rust<'a> {
    pub spec: &'a Spec,
    pub names: Names,
}

impl<'a> Rust<'a> {
    pub fn new(spec: &'a Spec) -> Rust<'a> {
        Rust {
            spec,
            names: Names::of(spec),
        }
    }

    /// The names of interface `i`.
    pub fn of(&self, i: &Interface) -> &InterfaceNames {
        self.names.of_interface(i)
    }
}

/// The rustdoc of a method, from the spec.
pub fn method_doc(m: &Method) -> String {
    let mut s = format!("`{}`: {}", m.wire_name, m.summary);
    if let Some(d) = &m.description {
        s.push_str("\n\n");
        s.push_str(d.trim_end());
    }
    if let Some(sentence) = m.deprecation() {
        s.push_str("\n\n");
        s.push_str(&sentence);
    }
    if m.is_node_only() {
        s.push_str("\n\nServed by the node but absent from the API description.");
    }
    if !m.errors.is_empty() {
        s.push_str("\n\nErrors the node returns:");
        for e in &m.errors {
            match &e.when {
                Some(w) => s.push_str(&format!("\n- `{}`: {}", e.message, w.trim_end())),
                None => s.push_str(&format!("\n- `{}`", e.message)),
            }
        }
    }
    s
}

/// A server handler's signature, for the server traits (`server`) and the spec-example double
/// (`mock`).
pub fn handler_signature(name: &str, params: &str, result: &str) -> TokenStream {
    let (name, params, result) = (ident(name), ident(params), ident(result));
    quote!(fn #name(&self, params: #params) -> impl ::std::future::Future<Output = ::std::result::Result<#result, crate::rpc::RpcError>> + ::std::marker::Send)
}

/// `items`, each compiled only with the crate feature `feature` (`client` or `server`), so a
/// client-only build needs no server dependencies and the reverse.
pub fn gated(feature: &str, items: TokenStream) -> TokenStream {
    let file: syn::File = match syn::parse2(items.clone()) {
        Ok(f) => f,
        // Left for `format` to report.
        Err(_) => return items,
    };
    let items = file.items.into_iter().map(|item| {
        quote! {
            #[cfg(feature = #feature)]
            #item
        }
    });
    quote!(#(#items)*)
}

/// `#[doc]` attributes, one per line.
pub fn doc(text: &str) -> TokenStream {
    let lines = text.trim_end().lines().map(|l| {
        let l = if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        };
        quote!(#[doc = #l])
    });
    quote!(#(#lines)*)
}

/// An identifier, raw when it is a keyword (`r#type`).
pub fn ident(s: &str) -> syn::Ident {
    match s.strip_prefix("r#") {
        Some(raw) => syn::Ident::new_raw(raw, Span::call_site()),
        None => syn::Ident::new(s, Span::call_site()),
    }
}

/// The Rust type of a root of a codec of `spec/codec/` (the same path `emit::codec` gives
/// it): a struct bound to its codec or in its package's module, a slot in its codec's.
pub fn codec_root_type(spec: &Spec, c: &CodecRef) -> Option<TokenStream> {
    use crate::codec::model::Layout;
    let k = spec.codec.codecs.iter().find(|k| k.name == c.codec)?;
    let root = k.roots.iter().find(|r| r.layout.spec_text() == c.root)?;
    let module = |name: &str| ident(&names::codec_module(name));
    match &root.layout {
        Layout::Slot(slot) => {
            let (m, n) = (module(&k.name), ident(slot));
            Some(quote!(crate::codec::#m::#n))
        }
        Layout::Struct(t) => {
            let home = if k.codec_bound.contains(t) {
                &k.name
            } else {
                &t.package
            };
            let (m, n) = (module(home), ident(&t.name));
            Some(quote!(crate::codec::#m::#n))
        }
        _ => None,
    }
}

/// How a member that carries a codec value (`codec:`) is read into it: `value` (a
/// `&HexBytes`, or a `&HexOrJson` for a `hex-or-json` element) with `encoding` (an
/// `Option<&Encoding>`: a checksum unless `hexnc`). The element type is `inner` (the list's,
/// for a list).
pub fn codec_read(
    spec: &Spec,
    inner: &TypeRef,
    value: TokenStream,
    encoding: TokenStream,
) -> TokenStream {
    match inner {
        TypeRef::Wire(w) if spec.wire(w).is_some_and(|w| w.rust == "HexOrJson") => {
            quote!(crate::codec::container::from_hex_or_json(#value, #encoding))
        }
        _ => quote!(crate::codec::container::from_hex(#value, #encoding)),
    }
}

/// The `encoding` member among `fields` (a param or result member of wire type `encoding`), as
/// an `Option<&Encoding>` read from `owner` (`self`, `page`); `None` when there is none.
pub fn encoding_of(fields: &[Field], owner: TokenStream) -> TokenStream {
    fields
        .iter()
        .find(|f| f.name == "encoding" && matches!(&f.ty, TypeRef::Wire(w) if w == "encoding"))
        .map(|f| {
            let id = ident(&names::field(f));
            if f.is_option() {
                quote!(#owner.#id.as_ref())
            } else {
                quote!(::std::option::Option::Some(&#owner.#id))
            }
        })
        .unwrap_or_else(|| quote!(::std::option::Option::None))
}

/// The Rust type of a type expression, by its full path: wire types from the runtime's `wire`
/// module (`crate::wire::U64`; primitives and `String` from the language), shared schemas from
/// `crate::types`, an interface's own schemas by name (the code using them is in the same
/// module).
pub fn rust_type(spec: &Spec, t: &TypeRef) -> TokenStream {
    match t {
        TypeRef::Wire(name) => {
            let rust = spec.wire(name).map(|w| w.rust.as_str()).unwrap_or("Value");
            wire_type(rust)
        }
        TypeRef::Schema { name, scope } => {
            let id = ident(name);
            match scope {
                Scope::Shared => quote!(crate::types::#id),
                Scope::Interface(_) => quote!(#id),
            }
        }
        TypeRef::List(inner) => {
            let inner = rust_type(spec, inner);
            quote!(::std::vec::Vec<#inner>)
        }
        TypeRef::Map(k, v) => {
            let (k, v) = (rust_type(spec, k), rust_type(spec, v));
            quote!(::std::collections::BTreeMap<#k, #v>)
        }
    }
}

/// The path of a wire type's `rust:` name.
fn wire_type(rust: &str) -> TokenStream {
    const PRIMITIVES: [&str; 15] = [
        "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32",
        "i64", "i128", "isize",
    ];
    let id = ident(rust);
    if PRIMITIVES.contains(&rust) {
        quote!(#id)
    } else if rust == "String" {
        quote!(::std::string::String)
    } else {
        quote!(crate::wire::#id)
    }
}

/// Formats tokens with prettyplease, with a blank line between items.
pub fn format(tokens: TokenStream) -> String {
    let file: syn::File = match syn::parse2(tokens) {
        Ok(f) => f,
        // Generated tokens always parse; if they do not, show them rather than panic.
        Err(e) => return format!("compile_error!({:?});\n", e.to_string()),
    };
    let text = prettyplease::unparse(&file);
    let mut out = String::from(
        "// @generated by avalanche-rpc-codegen from spec/. Do not edit: change the spec and rebuild.\n\n",
    );
    out.push_str(&space_out(&text));
    out
}

/// Puts a blank line between consecutive items, as a person would (prettyplease does not).
fn space_out(text: &str) -> String {
    const ITEM_STARTS: [&str; 12] = [
        "///", "#[", "pub ", "impl", "fn ", "const ", "type ", "struct ", "enum ", "trait ",
        "mod ", "async ",
    ];
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    // Inside an inner attribute written over several lines (`#![allow(\n…\n)]`).
    let mut inner_attr = false;
    for (i, line) in lines.iter().enumerate() {
        out.push_str(line);
        out.push('\n');
        let Some(next) = lines.get(i + 1) else {
            continue;
        };
        let (this, following) = (line.trim_start(), next.trim_start());
        let ends_inner_attr = inner_attr && this == ")]";
        if this.starts_with("#![") && !this.ends_with(']') {
            inner_attr = true;
        } else if ends_inner_attr {
            inner_attr = false;
        }
        let same_indent = line.len() - this.len() == next.len() - following.len();
        let ends_use_block = this.starts_with("use ") && !following.starts_with("use ");
        let is_code = !this.starts_with("//");
        let ends_item = ends_inner_attr
            || this == "}"
            || (this.starts_with("pub struct ") && this.ends_with("{}"))
            || this == "};"
            || (is_code && this.ends_with(';') && !this.starts_with("use "));
        if same_indent
            && (ends_item || ends_use_block)
            && ITEM_STARTS.iter().any(|s| following.starts_with(s))
        {
            out.push('\n');
        }
    }
    out
}
