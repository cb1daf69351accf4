//! Client traits, their implementation over a transport, and the `Node` accessors.

use super::{doc, ident, method_doc};
use crate::model::*;
use crate::naming;
use proc_macro2::TokenStream;
use quote::quote;

/// `<Iface>Client` (the trait), `<Iface>Endpoint<T>` (its implementation) and `call_json`.
pub fn interface(i: &Interface) -> TokenStream {
    let base = naming::pascal(&i.name);
    let trait_name = ident(&format!("{base}Client"));
    let endpoint = ident(&format!("{base}Endpoint"));

    let decls = i.methods.iter().map(|m| {
        let sig = signature(m);
        let d = doc(&method_doc(m));
        let konst = ident(&naming::screaming(&m.name));

        let deprecated = match &m.deprecated {
            Some(dep) => {
                let since = dep.since.trim_start_matches('v');
                let note = dep
                    .note
                    .clone()
                    .unwrap_or_else(|| format!("{} is deprecated", m.wire_name));
                quote!(#[deprecated(since = #since, note = #note)])
            }
            None => quote!(),
        };
        quote! {
            #d
            #deprecated
            #sig {
                let _ = params;
                std::future::ready(Err(ClientError::NotImplemented { method: methods::#konst.name.into() }))
            }
        }
    });
    let impls = i.methods.iter().map(|m| {
        let sig = signature(m);
        let konst = ident(&naming::screaming(&m.name));
        quote!(#sig { self.0.call(&methods::#konst, params) })
    });

    let vars: Vec<syn::Ident> = i
        .path_params
        .iter()
        .map(|p| ident(&naming::snake(&p.name)))
        .collect();
    let var_names: Vec<&str> = i.path_params.iter().map(|p| p.name.as_str()).collect();
    let new_doc = if vars.is_empty() {
        doc(&format!(
            "The {} at `{}` of the node behind `transport`.",
            i.title, i.path
        ))
    } else {
        let list: Vec<String> = i
            .path_params
            .iter()
            .map(|p| format!("`{}`: {}", p.name, p.summary))
            .collect();
        doc(&format!(
            "The {} at `{}` of the node behind `transport`.\n\n{}",
            i.title,
            i.path,
            list.join("\n\n")
        ))
    };
    let path_expr = if vars.is_empty() {
        quote!(PATH.to_string())
    } else {
        quote!(crate::rpc::fill_path(PATH, &[#((#var_names, #vars)),*]))
    };
    let trait_doc = doc(&format!(
        "Typed calls of the {} (`{}.*`). Implemented by [`{endpoint}`] over any transport; implement it yourself for a test double: every method you leave out returns [`ClientError::NotImplemented`], so a method added to the spec breaks no implementer.",
        i.title, i.namespace
    ));
    let endpoint_doc = doc(&format!("The {} of one node, over transport `T`.", i.title));
    let call_json = call_json(i, &trait_name);
    quote! {
        #trait_doc
        pub trait #trait_name {
            #(#decls)*
        }

        #endpoint_doc
        #[derive(Clone, Debug)]
        pub struct #endpoint<T = crate::rpc::HttpTransport>(Endpoint<T>);

        impl<T: Transport> #endpoint<T> {
            #new_doc
            pub fn new(transport: T #(, #vars: &str)*) -> Self {
                Self(Endpoint::new(transport, #path_expr))
            }

            /// The underlying endpoint (transport and path).
            pub fn endpoint(&self) -> &Endpoint<T> {
                &self.0
            }
        }

        impl<T: Transport> #trait_name for #endpoint<T> {
            #(#impls)*
        }

        #call_json
    }
}

fn signature(m: &Method) -> TokenStream {
    let name = ident(&naming::snake(&m.name));
    let result = ident(&m.result.name);
    let params = ident(&naming::params_type(&m.name));
    quote!(fn #name(&self, params: #params) -> impl Future<Output = Result<#result, ClientError>> + Send)
}

/// Calls a method by wire name with JSON params, through the typed client: params are checked
/// against the method's types before anything is sent, and the result is re-encoded as JSON.
fn call_json(i: &Interface, trait_name: &syn::Ident) -> TokenStream {
    let arms = i.methods.iter().map(|m| {
        let wire = &m.wire_name;
        let name = ident(&naming::snake(&m.name));
        let konst = ident(&naming::screaming(&m.name));
        quote!(#wire => crate::rpc::to_json(&methods::#konst, client.#name(crate::rpc::from_json(&methods::#konst, params)?).await),)
    });
    let d = doc(&format!(
        "Calls a `{}.*` method by its wire name with JSON params, through [`{trait_name}`]: the params are checked against the method's types before anything is sent, and the typed result comes back as JSON.",
        i.namespace
    ));
    quote! {
        #d
        #[allow(deprecated)]
        pub async fn call_json<C: #trait_name + Sync>(client: &C, method: &str, params: Value) -> Result<Value, ClientError> {
            match method {
                #(#arms)*
                _ => Err(ClientError::UnknownMethod { method: method.to_string() }),
            }
        }
    }
}

/// `Node::info()`, `Node::avm(chain)`, … : one accessor per interface.
pub fn node_accessors(spec: &Spec) -> TokenStream {
    let accessors = spec.interfaces.iter().map(|i| {
        let module = ident(&naming::snake(&i.name));
        let fname = ident(&naming::snake(&i.name));
        let endpoint = ident(&format!("{}Endpoint", naming::pascal(&i.name)));
        let vars: Vec<syn::Ident> = i
            .path_params
            .iter()
            .map(|p| ident(&naming::snake(&p.name)))
            .collect();
        let mut text = format!("The {} (`{}`).", i.title, i.path);
        for p in &i.path_params {
            text.push_str(&format!("\n\n`{}`: {}", p.name, p.summary));
            if let Some(d) = &p.default {
                text.push_str(&format!(" Usually `{d}`."));
            }
        }
        let d = doc(&text);
        quote! {
            #d
            pub fn #fname(&self #(, #vars: &str)*) -> #module::#endpoint<T> {
                #module::#endpoint::new(self.transport().clone() #(, #vars)*)
            }
        }
    });
    quote! {
        impl<T: crate::rpc::Transport + Clone> crate::rpc::Node<T> {
            #(#accessors)*
        }
    }
}
