//! Named schemas, params and results as serde types.

use super::names;
use super::tokens::{Rust, codec_read, codec_root_type, doc, encoding_of, ident, rust_type};
use crate::model::*;
use proc_macro2::TokenStream;
use quote::quote;

/// Every schema of a list, in spec order.
pub fn schemas(r: &Rust, list: &[Schema]) -> TokenStream {
    let items = list.iter().map(|s| schema(r.spec, s, &schema_doc(s)));
    quote!(#(#items)*)
}

fn schema_doc(s: &Schema) -> String {
    let mut d = s.summary.clone();
    if let Some(x) = &s.description {
        d.push_str("\n\n");
        d.push_str(x);
    }
    for alt in &s.also_accepts {
        d.push_str(&match alt {
            Alternative::Bare(f) => {
                format!("\n\nThe client also reads the bare value of `{f}` as this object.")
            }
            Alternative::WrappedIn(k) => {
                format!("\n\nThe client also reads this value wrapped as `{{\"{k}\": …}}`.")
            }
        });
    }
    d
}

/// The params struct and result type of a method. A method that takes no params still gets
/// an (empty) params struct, so that adding an optional param later breaks no caller and no
/// implementer.
pub fn method_types(r: &Rust, i: &Interface, m: &Method) -> TokenStream {
    let spec = r.spec;
    let name = ident(&r.of(i).of_method(m).params);
    let text = if m.params.is_empty() {
        format!(
            "Parameters of `{}`: none today (any params object is accepted); the struct lets the method gain optional ones without breaking callers.",
            m.wire_name
        )
    } else {
        format!("Parameters of `{}`.", m.wire_name)
    };
    let params = object(spec, &name, &m.params, doc(&text));
    let result = schema(spec, &m.result, &result_doc(m));
    quote!(#params #result)
}

fn result_doc(m: &Method) -> String {
    let mut d = format!("Result of `{}`.", m.wire_name);
    if let Some(x) = &m.result.description {
        d.push_str("\n\n");
        d.push_str(x);
    }
    for alt in &m.result.also_accepts {
        d.push_str(&match alt {
            Alternative::Bare(f) => {
                format!("\n\nThe client also reads a result that is the bare value of `{f}`.")
            }
            Alternative::WrappedIn(k) => {
                format!("\n\nThe client also reads a result wrapped as `{{\"{k}\": …}}`.")
            }
        });
    }
    d
}

fn schema(spec: &Spec, s: &Schema, text: &str) -> TokenStream {
    let name = ident(&s.name);
    let d = doc(text);
    match &s.body {
        Body::Object(fields) => object(spec, &name, fields, d),
        Body::Alias(t) => {
            let t = rust_type(spec, t);
            quote!(#d pub type #name = #t;)
        }
        Body::Enum(values) => enumeration(&name, values, d),
    }
}

fn object(spec: &Spec, name: &syn::Ident, fields: &[Field], d: TokenStream) -> TokenStream {
    let members = fields.iter().map(|f| field(spec, f));
    // `new()` would take nothing: `Default` says the same.
    let default = if fields.iter().all(|f| !f.is_required()) {
        quote!(Default,)
    } else {
        quote!()
    };
    let ctor = constructor(spec, name, fields);
    let decoded = decoded_accessors(spec, name, fields);
    quote! {
        #d
        #[derive(Clone, Debug, #default PartialEq, serde::Serialize, serde::Deserialize)]
        #[non_exhaustive]
        pub struct #name {
            #(#members)*
        }
        #ctor
        #decoded
    }
}

/// For each member whose bytes hold a codec value (`codec:` in the spec), an accessor that
/// reads it into the codec's type: from its hex (checksum per the sibling `encoding`, when
/// the struct has one) or its JSON form.
fn decoded_accessors(spec: &Spec, name: &syn::Ident, fields: &[Field]) -> TokenStream {
    let encoding = encoding_of(fields, quote!(self));
    let accessors: Vec<TokenStream> = fields
        .iter()
        .filter_map(|f| {
            let c = f.codec.as_ref()?;
            let root = codec_root_type(spec, c)?;
            let id = ident(&names::field(f));
            let getter = ident(&names::decoded_accessor(f));
            let (list, inner) = match &f.ty {
                TypeRef::List(inner) => (true, inner.as_ref()),
                t => (false, t),
            };
            let read = codec_read(spec, inner, quote!(v), encoding.clone());
            let (ty, body) = match (list, f.is_option()) {
                (true, false) => (
                    quote!(::std::vec::Vec<#root>),
                    quote!(crate::codec::container::each(&self.#id, |v| #read)),
                ),
                (true, true) => (
                    quote!(::std::option::Option<::std::vec::Vec<#root>>),
                    quote!(self.#id.as_ref().map(|l| crate::codec::container::each(l, |v| #read)).transpose()),
                ),
                (false, false) => (quote!(#root), quote!({ let v = &self.#id; #read })),
                (false, true) => (
                    quote!(::std::option::Option<#root>),
                    quote!(self.#id.as_ref().map(|v| #read).transpose()),
                ),
            };
            let d = doc(&format!(
                "`{}` read into [`{}`](crate::codec): from its bytes (per `encoding`) or its JSON form.",
                f.name,
                c.root
            ));
            Some(quote! {
                #d
                pub fn #getter(&self) -> ::std::result::Result<#ty, crate::codec::ContainerError> {
                    #body
                }
            })
        })
        .collect();
    if accessors.is_empty() {
        return quote!();
    }
    quote! {
        impl #name {
            #(#accessors)*
        }
    }
}

fn field(spec: &Spec, f: &Field) -> TokenStream {
    let rust = names::field(f);
    let id = ident(&rust);
    let mut attrs = Vec::new();
    if rust.trim_start_matches("r#") != f.name {
        let n = &f.name;
        attrs.push(quote!(rename = #n));
    }
    for a in &f.aliases {
        attrs.push(quote!(alias = #a));
    }
    if f.nullable {
        // Always written; `None` is `null`.
        attrs.push(quote!(default));
    } else if f.is_option() {
        attrs.push(quote!(
            default,
            skip_serializing_if = "::std::option::Option::is_none"
        ));
    }
    let serde = if attrs.is_empty() {
        quote!()
    } else {
        quote!(#[serde(#(#attrs),*)])
    };
    let deprecated = match &f.deprecated {
        Some(dep) => {
            let note = dep.note.clone().unwrap_or_default();
            let since = dep.since.number();
            quote!(#[deprecated(since = #since, note = #note)])
        }
        None => quote!(),
    };
    let ty = rust_type(spec, &f.ty);
    let ty = if f.is_option() {
        quote!(::std::option::Option<#ty>)
    } else {
        ty
    };
    let d = doc(&field_doc(f));
    quote! {
        #d
        #deprecated
        #serde
        pub #id: #ty,
    }
}

fn field_doc(f: &Field) -> String {
    let mut d = f.summary.clone();
    if let Some(x) = &f.description {
        d.push_str("\n\n");
        d.push_str(x);
    }
    if let Some(def) = &f.default {
        d.push_str(&format!("\n\nWhen absent the node uses `{def}`."));
    }
    if !f.aliases.is_empty() {
        let list: Vec<String> = f.aliases.iter().map(|a| format!("`{a}`")).collect();
        d.push_str(&format!("\n\nAlso read when spelled {}.", list.join(", ")));
    }
    if let Some(n) = &f.note {
        d.push_str("\n\nNote: ");
        d.push_str(n.trim_end());
    }
    d.push_str(&format!("\n\nWire: `{}` `{}`", f.name, f.ty));
    d.push_str(match (f.optional, f.nullable) {
        (true, _) => ", optional.",
        (_, true) => ", may be null.",
        _ => ".",
    });
    if let Some(v) = &f.since {
        d.push_str(&format!(" Since node {v}"));
        d.push_str(if f.newer_than_oldest && !f.optional && !f.nullable {
            ": older nodes leave it out (`None`); a server always writes it."
        } else {
            "."
        });
    }
    if let Some(v) = &f.removed {
        d.push_str(&format!(" Removed from the node in {v}"));
        d.push_str(if !f.optional && !f.nullable {
            ": newer nodes leave it out (`None`); a server always writes it."
        } else {
            "."
        });
    }
    d
}

/// `new(required...)` taking the members the node always writes, in spec order, and a
/// `with_<member>` setter per optional one: code built this way keeps compiling when the spec
/// gains an optional member (the struct is `#[non_exhaustive]`).
fn constructor(spec: &Spec, name: &syn::Ident, fields: &[Field]) -> TokenStream {
    let required: Vec<&Field> = fields.iter().filter(|f| f.is_required()).collect();
    let args = required.iter().map(|f| {
        let id = ident(&names::field(f));
        let ty = rust_type(spec, &f.ty);
        quote!(#id: impl ::std::convert::Into<#ty>)
    });
    let inits = fields.iter().map(|f| {
        let id = ident(&names::field(f));
        match (f.is_required(), f.is_option()) {
            (true, true) => {
                quote!(#id: ::std::option::Option::Some(::std::convert::Into::into(#id)))
            }
            (true, false) => quote!(#id: ::std::convert::Into::into(#id)),
            _ => quote!(#id: ::std::option::Option::None),
        }
    });
    let setters = fields.iter().filter(|f| !f.is_required()).map(|f| {
        let id = ident(&names::field(f));
        let setter = ident(&names::setter(f));
        let ty = rust_type(spec, &f.ty);
        let d = doc(&format!("Sets `{}`.", f.name));
        quote! {
            #d
            pub fn #setter(mut self, #id: impl ::std::convert::Into<#ty>) -> Self {
                self.#id = ::std::option::Option::Some(::std::convert::Into::into(#id));
                self
            }
        }
    });
    let d = if required.is_empty() {
        doc("Builds the value with every optional member unset (as [`Default`]).")
    } else {
        let list: Vec<String> = required.iter().map(|f| format!("`{}`", f.name)).collect();
        let rest = if required.len() < fields.len() {
            "; optional members start unset"
        } else {
            ""
        };
        doc(&format!("Builds the value from {}{rest}.", list.join(", ")))
    };
    let many = if required.len() > 7 {
        quote!(#[allow(clippy::too_many_arguments)])
    } else {
        quote!()
    };
    quote! {
        #[allow(deprecated)]
        impl #name {
            #d
            #many
            pub fn new(#(#args),*) -> Self {
                Self { #(#inits),* }
            }
            #(#setters)*
        }
    }
}

/// An open enumeration: the values the spec lists, and `Unrecognized` keeping the text of a
/// value a newer node sends.
fn enumeration(name: &syn::Ident, values: &[EnumValue], d: TokenStream) -> TokenStream {
    let variants = values.iter().map(|v| {
        let id = ident(&names::variant(v));
        let vd = doc(&v.summary);
        quote!(#vd #id,)
    });
    let to_wire = values.iter().map(|v| {
        let id = ident(&names::variant(v));
        let wire = &v.value;
        quote!(Self::#id => #wire,)
    });
    let from_wire = values.iter().map(|v| {
        let id = ident(&names::variant(v));
        let wire = &v.value;
        quote!(#wire => Self::#id,)
    });
    let expecting = format!("a {name} string");
    quote! {
        #d
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum #name {
            #(#variants)*
            /// A value these bindings do not know (e.g. from a newer node), kept as sent.
            Unrecognized(::std::string::String),
        }
        impl #name {
            /// The value as written on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    #(#to_wire)*
                    Self::Unrecognized(text) => text,
                }
            }
        }
        impl ::std::convert::From<&str> for #name {
            fn from(text: &str) -> Self {
                match text {
                    #(#from_wire)*
                    other => Self::Unrecognized(::std::string::ToString::to_string(other)),
                }
            }
        }
        impl ::std::fmt::Display for #name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> ::std::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::std::result::Result<Self, D::Error> {
                crate::wire::text::deserialize_enum(d, #expecting)
            }
        }
    }
}
