//! Method descriptors: wire name, deprecation, the rules that normalize the forms only the
//! client reads, the spec's examples, and typed round-trip checks.

use super::ident;
use crate::model::*;
use crate::naming;
use proc_macro2::TokenStream;
use quote::quote;

/// `pub mod methods { pub const GET_TX: MethodInfo = …; pub const ALL: … }`.
pub fn interface(spec: &Spec, i: &Interface) -> TokenStream {
    let consts = i.methods.iter().map(|m| method(spec, i, m));
    let names = i.methods.iter().map(|m| ident(&naming::screaming(&m.name)));
    let d = super::doc(&format!(
        "Descriptors of the `{}.*` methods, with the spec's examples.",
        i.namespace
    ));
    quote! {
        #d
        pub mod methods {
            use super::*;
            use crate::rpc::{Example, Form, MethodInfo, Rule, Step};

            #(#consts)*

            /// Every method of this interface, in spec order.
            pub const ALL: &[&MethodInfo] = &[#(&#names),*];
        }
    }
}

fn method(spec: &Spec, i: &Interface, m: &Method) -> TokenStream {
    let konst = ident(&naming::screaming(&m.name));
    let wire = &m.wire_name;
    let iface = &i.name;
    let deprecated = m.deprecated.is_some();
    let params = ident(&naming::params_type(&m.name));
    let result = ident(&m.result.name);
    let rules = rules(spec, &m.result).into_iter().map(|(path, alt)| {
        let steps = steps(&path);
        let form = match alt {
            Alternative::Bare(f) => quote!(Form::Bare(#f)),
            Alternative::WrappedIn(k) => quote!(Form::WrappedIn(#k)),
        };
        quote!(Rule { path: &[#steps], form: #form })
    });
    let examples = m.examples.iter().map(|e| {
        let name = &e.name;
        let p = e.params.to_string();
        let r = e.result.to_string();
        let n = match &e.normalized {
            Some(n) => {
                let n = n.to_string();
                quote!(Some(#n))
            }
            None => quote!(None),
        };
        quote!(Example { name: #name, params: #p, result: #r, normalized: #n })
    });
    let newer = newer_members(spec, &m.result).into_iter().map(|path| {
        let steps = steps(&path);
        quote!(&[#steps])
    });
    let since = match &m.since {
        Some(v) => {
            let v = v.to_string();
            quote!(Some(#v))
        }
        None => quote!(None),
    };
    let d = super::doc(&format!("`{wire}`: {}", m.summary));
    quote! {
        #d
        pub const #konst: MethodInfo = MethodInfo {
            name: #wire,
            interface: #iface,
            deprecated: #deprecated,
            since: #since,
            rules: &[#(#rules),*],
            newer_members: &[#(#newer),*],
            examples: &[#(#examples),*],
            check_params: crate::rpc::roundtrip::<#params>,
            check_result: crate::rpc::roundtrip_result::<#result>,
        };
    }
}

fn steps(path: &[Step]) -> TokenStream {
    let steps = path.iter().map(|s| match s {
        Step::Field(f) => quote!(Step::Field(#f)),
        Step::Items => quote!(Step::Items),
        Step::Values => quote!(Step::Values),
    });
    quote!(#(#steps),*)
}

/// One step into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
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
pub fn rules(spec: &Spec, result: &Schema) -> Vec<(Vec<Step>, Alternative)> {
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
pub fn newer_members(spec: &Spec, result: &Schema) -> Vec<Vec<Step>> {
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

fn walk_schema<'a>(
    spec: &'a Spec,
    s: &'a Schema,
    path: &mut Vec<Step>,
    seen: &mut Vec<String>,
    visit: &mut impl FnMut(&[Step], Visit<'a>),
) {
    visit(path, Visit::Schema(s));
    match &s.body {
        Body::Object(fields) => {
            for f in fields {
                path.push(Step::Field(f.name.clone()));
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
    path: &mut Vec<Step>,
    seen: &mut Vec<String>,
    visit: &mut impl FnMut(&[Step], Visit<'a>),
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
            path.push(Step::Items);
            walk_type(spec, inner, path, seen, visit);
            path.pop();
        }
        TypeRef::Map(_, v) => {
            path.push(Step::Values);
            walk_type(spec, v, path, seen, visit);
            path.pop();
        }
    }
}

/// `METHODS`: every method of every interface.
pub fn all_methods(spec: &Spec) -> TokenStream {
    let refs = spec.methods().map(|(i, m)| {
        let module = ident(&naming::snake(&i.name));
        let konst = ident(&naming::screaming(&m.name));
        quote!(&#module::methods::#konst)
    });
    quote! {
        /// Every method of every interface, in spec order.
        pub const METHODS: &[&crate::rpc::MethodInfo] = &[#(#refs),*];
    }
}
