//! Method descriptors: wire name, summary, deprecation, versions, path and params (name, type,
//! JSON kind, optional, default, summary), the rules that normalize the forms only the client
//! reads, the spec's examples, and typed round-trip checks.

use super::tokens::{Rust, ident};
use crate::model::*;
use proc_macro2::TokenStream;
use quote::quote;

/// `pub mod methods { pub const GET_TX: MethodInfo = …; pub const ALL: … }`.
pub fn interface(r: &Rust, i: &Interface) -> TokenStream {
    let consts = i.methods.iter().map(|m| method(r, i, m));
    let names = i.methods.iter().map(|m| ident(&r.of(i).of_method(m).konst));
    let d = super::tokens::doc(&format!(
        "Descriptors of the `{}.*` methods, with the spec's examples.",
        i.namespace
    ));
    quote! {
        #d
        pub mod methods {
            #(#consts)*

            /// Every method of this interface, in spec order.
            pub const ALL: &[&crate::rpc::MethodInfo] = &[#(&#names),*];
        }
    }
}

fn method(r: &Rust, i: &Interface, m: &Method) -> TokenStream {
    let spec = r.spec;
    let mn = r.of(i).of_method(m);
    let konst = ident(&mn.konst);
    let wire = &m.wire_name;
    let iface = &i.name;
    let deprecated = m.deprecated.is_some();
    let params = ident(&mn.params);
    let result = ident(&mn.result);
    let rules = rules(spec, &m.result).into_iter().map(|(path, alt)| {
        let steps = steps(&path);
        let form = match alt {
            Alternative::Bare(f) => quote!(crate::rpc::Form::Bare(#f)),
            Alternative::WrappedIn(k) => quote!(crate::rpc::Form::WrappedIn(#k)),
        };
        quote!(crate::rpc::Rule { path: &[#steps], form: #form })
    });
    let examples = m.examples.iter().map(|e| {
        let name = &e.name;
        let p = json_text(&e.params);
        let r = json_text(&e.result);
        let n = match &e.normalized {
            Some(n) => {
                let n = json_text(n);
                quote!(::std::option::Option::Some(#n))
            }
            None => quote!(::std::option::Option::None),
        };
        quote!(crate::rpc::Example { name: #name, params: #p, result: #r, normalized: #n })
    });
    let newer = newer_members(spec, &m.result).into_iter().map(|path| {
        let steps = steps(&path);
        quote!(&[#steps])
    });
    let newer_in_codec = newer_in_codec_json(spec, &m.result)
        .into_iter()
        .map(|(path, root)| {
            let steps = steps(&path);
            quote!(crate::rpc::CodecJson { path: &[#steps], drop_newer: <#root as crate::codec::OldestJson>::drop_newer })
        });
    let since = match &m.since {
        Some(v) => {
            let v = v.to_string();
            quote!(::std::option::Option::Some(#v))
        }
        None => quote!(::std::option::Option::None),
    };
    let removed = match &m.removed {
        Some(v) => {
            let v = v.to_string();
            quote!(::std::option::Option::Some(#v))
        }
        None => quote!(::std::option::Option::None),
    };
    let summary = &m.summary;
    let description = opt_str(m.description.as_deref());
    let devnet_only = m.source.as_deref() == Some("devnet");
    let changes_state = m.changes_state;
    let positional = m.positional;
    let path = &i.path;
    let path_params = i.path_params.iter().map(|p| {
        let name = &p.name;
        let summary = &p.summary;
        let default = opt_str(p.default.as_deref());
        let examples = &p.examples;
        quote!(crate::rpc::PathParam { name: #name, summary: #summary, default: #default, examples: &[#(#examples),*] })
    });
    let param_infos = m.params.iter().map(|f| param(spec, f));
    let d = super::tokens::doc(&format!("`{wire}`: {}", m.summary));
    quote! {
        #d
        pub const #konst: crate::rpc::MethodInfo = crate::rpc::MethodInfo {
            name: #wire,
            interface: #iface,
            deprecated: #deprecated,
            since: #since,
            removed: #removed,
            summary: #summary,
            description: #description,
            devnet_only: #devnet_only,
            changes_state: #changes_state,
            positional: #positional,
            path: #path,
            path_params: &[#(#path_params),*],
            params: &[#(#param_infos),*],
            rules: &[#(#rules),*],
            newer_members: &[#(#newer),*],
            newer_in_codec_json: &[#(#newer_in_codec),*],
            examples: &[#(#examples),*],
            check_params: crate::__private::roundtrip::<super::#params>,
            check_result: crate::__private::roundtrip_result::<super::#result>,
        };
    }
}

fn opt_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(::std::option::Option::Some(#s)),
        None => quote!(::std::option::Option::None),
    }
}

/// One param's descriptor (the runtime's `rpc::ParamInfo`).
fn param(spec: &Spec, f: &Field) -> TokenStream {
    let name = &f.name;
    let ty = f.ty.to_string();
    let kind = json_kind(kind_of(spec, &f.ty, &mut Vec::new()));
    let items = match &f.ty {
        TypeRef::List(inner) => {
            let k = json_kind(kind_of(spec, inner, &mut Vec::new()));
            quote!(::std::option::Option::Some(#k))
        }
        _ => quote!(::std::option::Option::None),
    };
    let summary = &f.summary;
    let description = opt_str(f.description.as_deref());
    let optional = f.optional || f.default.is_some();
    let default = match &f.default {
        Some(v) => {
            let v = json_text(v);
            quote!(::std::option::Option::Some(#v))
        }
        None => quote!(::std::option::Option::None),
    };
    let deprecated = f.deprecated.is_some();
    let aliases = &f.aliases;
    quote! {
        crate::rpc::ParamInfo {
            name: #name,
            aliases: &[#(#aliases),*],
            ty: #ty,
            kind: #kind,
            items: #items,
            summary: #summary,
            description: #description,
            optional: #optional,
            default: #default,
            deprecated: #deprecated,
        }
    }
}

/// The JSON a value of a type is written as (the runtime's `rpc::JsonKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    String,
    Number,
    Boolean,
    Object,
    Array,
    Any,
}

fn kind_of(spec: &Spec, t: &TypeRef, seen: &mut Vec<String>) -> Kind {
    match t {
        TypeRef::Wire(name) => match spec.wire(name).map(|w| w.json) {
            Some(JsonKind::String) => Kind::String,
            Some(JsonKind::Number) => Kind::Number,
            Some(JsonKind::Boolean) => Kind::Boolean,
            Some(JsonKind::Any) | None => Kind::Any,
        },
        TypeRef::List(_) => Kind::Array,
        TypeRef::Map(..) => Kind::Object,
        TypeRef::Schema { name, scope } => {
            // An alias of an alias of itself would recurse forever.
            if seen.contains(name) {
                return Kind::Any;
            }
            match spec.schema(name, scope).map(|s| &s.body) {
                Some(Body::Object(_)) => Kind::Object,
                Some(Body::Enum(_)) => Kind::String,
                Some(Body::Alias(inner)) => {
                    seen.push(name.clone());
                    let k = kind_of(spec, inner, seen);
                    seen.pop();
                    k
                }
                None => Kind::Any,
            }
        }
    }
}

fn json_kind(k: Kind) -> TokenStream {
    match k {
        Kind::String => quote!(crate::rpc::JsonKind::String),
        Kind::Number => quote!(crate::rpc::JsonKind::Number),
        Kind::Boolean => quote!(crate::rpc::JsonKind::Boolean),
        Kind::Object => quote!(crate::rpc::JsonKind::Object),
        Kind::Array => quote!(crate::rpc::JsonKind::Array),
        Kind::Any => quote!(crate::rpc::JsonKind::Any),
    }
}

/// A JSON value as the text of a string constant: its compact form (as `serde_json` writes
/// it), in a raw string literal, and cut into a `concat!` of pieces when long, so that no line
/// of the generated file is much longer than the formatter's width.
fn json_text(v: &serde_json::Value) -> TokenStream {
    const PIECE: usize = 80;
    let text = v.to_string();
    let mut pieces: Vec<String> = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        current.push(c);
        let n = current.chars().count();
        if (n >= PIECE * 3 / 4 && matches!(c, ',' | '{' | '[')) || n >= PIECE {
            pieces.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() || pieces.is_empty() {
        pieces.push(current);
    }
    let literals: Vec<TokenStream> = pieces.iter().map(|p| raw_str(p)).collect();
    match literals.as_slice() {
        [one] => one.clone(),
        many => quote!(::std::concat!(#(#many),*)),
    }
}

/// `text` as a raw string literal with as few `#` as it needs.
fn raw_str(text: &str) -> TokenStream {
    let mut hashes = String::new();
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{text}\"{hashes}")
        .parse()
        .expect("a raw string literal is one token")
}

fn steps(path: &[ResultStep]) -> TokenStream {
    let steps = path.iter().map(|s| match s {
        ResultStep::Field(f) => quote!(crate::rpc::ResultStep::Field(#f)),
        ResultStep::Items => quote!(crate::rpc::ResultStep::Items),
        ResultStep::Values => quote!(crate::rpc::ResultStep::Values),
    });
    quote!(#(#steps),*)
}

/// One step into a method's result (the runtime's `rpc::ResultStep`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultStep {
    Field(String),
    Items,
    Values,
}

/// What the walk of a result type meets.
enum Visit<'a> {
    /// A named schema (or the result itself) at this path.
    Schema(&'a Schema),
    /// A member; the path ends with its name.
    Member(&'a Field),
}

/// Where in a result the forms of `also-accepts` may appear, outermost first.
pub fn rules(spec: &Spec, result: &Schema) -> Vec<(Vec<ResultStep>, Alternative)> {
    let mut out = Vec::new();
    walk_schema(
        spec,
        result,
        &mut Vec::new(),
        &mut Vec::new(),
        &mut |path, v| {
            if let Visit::Schema(s) = v {
                out.extend(s.also_accepts.iter().map(|a| (path.to_vec(), a.clone())));
            }
        },
    );
    out.sort_by_key(|(path, _)| path.len());
    out
}

/// Where in a result the members that a node newer than the oldest supported one added are:
/// what an older node's reply lacks.
pub fn newer_members(spec: &Spec, result: &Schema) -> Vec<Vec<ResultStep>> {
    let mut out = Vec::new();
    walk_schema(
        spec,
        result,
        &mut Vec::new(),
        &mut Vec::new(),
        &mut |path, v| {
            if let Visit::Member(f) = v
                && f.newer_than_oldest
            {
                out.push(path.to_vec());
            }
        },
    );
    out
}

/// Where in a result a codec value's JSON form may be whose type holds members newer than
/// the oldest supported node, with the codec type's Rust path.
pub fn newer_in_codec_json(spec: &Spec, result: &Schema) -> Vec<(Vec<ResultStep>, TokenStream)> {
    let mut out = Vec::new();
    walk_schema(
        spec,
        result,
        &mut Vec::new(),
        &mut Vec::new(),
        &mut |path, v| {
            if let Visit::Member(f) = v
                && let Some(c) = &f.codec
                && super::codec::root_reaches_newer(spec, c)
                && let Some(root) = super::tokens::codec_root_type(spec, c)
            {
                let mut path = path.to_vec();
                if matches!(f.ty, TypeRef::List(_)) {
                    path.push(ResultStep::Items);
                }
                out.push((path, root));
            }
        },
    );
    out
}

fn walk_schema<'a>(
    spec: &'a Spec,
    s: &'a Schema,
    path: &mut Vec<ResultStep>,
    seen: &mut Vec<String>,
    visit: &mut impl FnMut(&[ResultStep], Visit<'a>),
) {
    visit(path, Visit::Schema(s));
    match &s.body {
        Body::Object(fields) => {
            for f in fields {
                path.push(ResultStep::Field(f.name.clone()));
                visit(path, Visit::Member(f));
                walk_type(spec, &f.ty, path, seen, visit);
                path.pop();
            }
        }
        Body::Alias(t) => walk_type(spec, t, path, seen, visit),
        Body::Enum(_) => {}
    }
}

fn walk_type<'a>(
    spec: &'a Spec,
    t: &'a TypeRef,
    path: &mut Vec<ResultStep>,
    seen: &mut Vec<String>,
    visit: &mut impl FnMut(&[ResultStep], Visit<'a>),
) {
    match t {
        TypeRef::Wire(_) => {}
        TypeRef::Schema { name, scope } => {
            // A schema reached again along the same path would recurse forever.
            if seen.contains(name) {
                return;
            }
            if let Some(s) = spec.schema(name, scope) {
                seen.push(name.clone());
                walk_schema(spec, s, path, seen, visit);
                seen.pop();
            }
        }
        TypeRef::List(inner) => {
            path.push(ResultStep::Items);
            walk_type(spec, inner, path, seen, visit);
            path.pop();
        }
        TypeRef::Map(_, v) => {
            path.push(ResultStep::Values);
            walk_type(spec, v, path, seen, visit);
            path.pop();
        }
    }
}

/// `METHODS`: every method of every interface.
pub fn all_methods(r: &Rust) -> TokenStream {
    let refs = r.spec.methods().map(|(i, m)| {
        let n = r.of(i);
        let module = ident(&n.module);
        let konst = ident(&n.of_method(m).konst);
        quote!(&#module::methods::#konst)
    });
    quote! {
        /// Every method of every interface, in spec order.
        pub const METHODS: &[&crate::rpc::MethodInfo] = &[#(#refs),*];
    }
}
