//! Named schemas, params and results as serde types.

use super::{doc, ident, rust_type};
use crate::model::*;
use crate::naming;
use proc_macro2::TokenStream;
use quote::quote;

/// Every schema of a list, in spec order.
pub fn schemas(spec: &Spec, list: &[Schema]) -> TokenStream {
    let items = list.iter().map(|s| schema(spec, s, &schema_doc(s)));
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

/// The params struct and result type of a method.
pub fn method_types(spec: &Spec, m: &Method) -> TokenStream {
    let params = if m.params.is_empty() {
        quote!()
    } else {
        let name = ident(&format!("{}Params", naming::pascal(&m.name)));
        let d = doc(&format!("Parameters of `{}`.", m.wire_name));
        let st = object(spec, &name, &m.params, d);
        let ctor = constructor(spec, &name, &m.params);
        quote!(#st #ctor)
    };
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
    let default = if fields.iter().all(Field::is_option) {
        quote!(Default,)
    } else {
        quote!()
    };
    quote! {
        #d
        #[derive(Clone, Debug, #default PartialEq, serde::Serialize, serde::Deserialize)]
        pub struct #name {
            #(#members)*
        }
    }
}

fn field(spec: &Spec, f: &Field) -> TokenStream {
    let rust = naming::snake(&f.name);
    let id = ident(&rust);
    let mut attrs = Vec::new();
    if rust.trim_start_matches("r#") != f.name {
        let n = &f.name;
        attrs.push(quote!(rename = #n));
    }
    for a in &f.aliases {
        attrs.push(quote!(alias = #a));
    }
    if f.optional {
        attrs.push(quote!(default, skip_serializing_if = "Option::is_none"));
    } else if f.nullable {
        attrs.push(quote!(default));
    }
    let serde = if attrs.is_empty() {
        quote!()
    } else {
        quote!(#[serde(#(#attrs),*)])
    };
    let deprecated = match &f.deprecated {
        Some(dep) => {
            let note = dep.note.clone().unwrap_or_default();
            let since = dep.since.trim_start_matches('v');
            quote!(#[deprecated(since = #since, note = #note)])
        }
        None => quote!(),
    };
    let ty = rust_type(spec, &f.ty);
    let ty = if f.is_option() {
        quote!(Option<#ty>)
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
    d
}

/// `new(required...)` for params structs, so callers name only what they must.
fn constructor(spec: &Spec, name: &syn::Ident, fields: &[Field]) -> TokenStream {
    let required: Vec<&Field> = fields.iter().filter(|f| !f.is_option()).collect();
    let args = required.iter().map(|f| {
        let id = ident(&naming::snake(&f.name));
        let ty = rust_type(spec, &f.ty);
        quote!(#id: #ty)
    });
    let inits = fields.iter().map(|f| {
        let id = ident(&naming::snake(&f.name));
        if f.is_option() {
            quote!(#id: None)
        } else {
            quote!(#id)
        }
    });
    let setters = fields.iter().filter(|f| f.is_option()).map(|f| {
        let id = ident(&naming::snake(&f.name));
        let setter = ident(&format!(
            "with_{}",
            naming::snake(&f.name)
                .trim_start_matches("r#")
                .trim_end_matches('_')
        ));
        let ty = rust_type(spec, &f.ty);
        let d = doc(&format!("Sets `{}`.", f.name));
        quote! {
            #d
            pub fn #setter(mut self, #id: #ty) -> Self {
                self.#id = Some(#id);
                self
            }
        }
    });
    let d = doc("Builds the parameters from the required ones; optional ones start unset.");
    quote! {
        #[allow(deprecated)]
        impl #name {
            #d
            pub fn new(#(#args),*) -> Self {
                Self { #(#inits),* }
            }
            #(#setters)*
        }
    }
}

fn enumeration(name: &syn::Ident, values: &[EnumValue], d: TokenStream) -> TokenStream {
    let variants = values.iter().map(|v| {
        let id = ident(&naming::variant(&v.value));
        let wire = &v.value;
        let vd = doc(&v.summary);
        let rename = if naming::variant(wire) != *wire {
            quote!(#[serde(rename = #wire)])
        } else {
            quote!()
        };
        quote!(#vd #rename #id,)
    });
    let arms = values.iter().map(|v| {
        let id = ident(&naming::variant(&v.value));
        let wire = &v.value;
        quote!(Self::#id => #wire,)
    });
    quote! {
        #d
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum #name {
            #(#variants)*
        }
        impl #name {
            /// The value as written on the wire.
            pub const fn as_str(self) -> &'static str {
                match self {
                    #(#arms)*
                }
            }
        }
        impl std::fmt::Display for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    }
}
