//! Client traits, their implementation over a transport, and the `Node` accessors.

use super::{Rust, doc, ident, method_doc};
use crate::model::*;
use proc_macro2::TokenStream;
use quote::quote;

/// `<Iface>Client` (the trait), `<Iface>Endpoint<T>` (its implementation) and `call_json`.
pub fn interface(r: &Rust, i: &Interface) -> TokenStream {
    let n = r.of(i);
    let trait_name = ident(&n.client);
    let endpoint = ident(&n.endpoint);

    let decls = i.methods.iter().map(|m| {
        let mn = n.of_method(m);
        let sig = signature(&mn.ident, &mn.params, &mn.result);
        let d = doc(&method_doc(m));
        let konst = ident(&mn.konst);

        let deprecated = match &m.deprecated {
            Some(dep) => {
                let since = dep.since.number();
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
                ::std::future::ready(::std::result::Result::Err(crate::rpc::ClientError::NotImplemented { method: ::std::convert::Into::into(methods::#konst.name) }))
            }
        }
    });
    let impls = i.methods.iter().map(|m| {
        let mn = n.of_method(m);
        let sig = signature(&mn.ident, &mn.params, &mn.result);
        let konst = ident(&mn.konst);
        quote!(#sig { self.0.call(&methods::#konst, params) })
    });

    let vars: Vec<syn::Ident> = n.path_vars.iter().map(|v| ident(v)).collect();
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
        quote!(::std::string::ToString::to_string(PATH))
    } else {
        quote!(crate::__private::fill_path(PATH, &[#((#var_names, #vars)),*]))
    };
    let trait_doc = doc(&format!(
        "Typed calls of the {} (`{}.*`). Implemented by [`{endpoint}`] over any transport; implement it yourself for a test double: every method you leave out returns [`ClientError::NotImplemented`](crate::rpc::ClientError::NotImplemented), so a method added to the spec breaks no implementer.",
        i.title, i.namespace
    ));
    let endpoint_doc = doc(&format!("The {} of one node, over transport `T`.", i.title));
    let call_json = call_json(r, i, &trait_name);
    quote! {
        #trait_doc
        pub trait #trait_name {
            #(#decls)*
        }

        #endpoint_doc
        #[derive(Clone, Debug)]
        pub struct #endpoint<T = crate::rpc::HttpTransport>(crate::rpc::Endpoint<T>);

        impl<T: crate::rpc::Transport> #endpoint<T> {
            #new_doc
            pub fn new(transport: T #(, #vars: &str)*) -> Self {
                Self(crate::rpc::Endpoint::new(transport, #path_expr))
            }

            /// The underlying endpoint (transport and path).
            pub fn endpoint(&self) -> &crate::rpc::Endpoint<T> {
                &self.0
            }
        }

        impl<T: crate::rpc::Transport> #trait_name for #endpoint<T> {
            #(#impls)*
        }

        #call_json
    }
}

fn signature(name: &str, params: &str, result: &str) -> TokenStream {
    let (name, params, result) = (ident(name), ident(params), ident(result));
    quote!(fn #name(&self, params: #params) -> impl ::std::future::Future<Output = ::std::result::Result<#result, crate::rpc::ClientError>> + ::std::marker::Send)
}

/// Calls a method by wire name with JSON params, through the typed client: params are checked
/// against the method's types before anything is sent, and the result is re-encoded as JSON.
fn call_json(r: &Rust, i: &Interface, trait_name: &syn::Ident) -> TokenStream {
    let n = r.of(i);
    let arms = i.methods.iter().map(|m| {
        let mn = n.of_method(m);
        let wire = &m.wire_name;
        let name = ident(&mn.ident);
        let konst = ident(&mn.konst);
        quote!(#wire => crate::__private::to_json(&methods::#konst, client.#name(crate::__private::from_json(&methods::#konst, params)?).await),)
    });
    let d = doc(&format!(
        "Calls a `{}.*` method by its wire name with JSON params, through [`{trait_name}`]: the params are checked against the method's types before anything is sent, and the typed result comes back as JSON.",
        i.namespace
    ));
    // An interface without methods has nothing to call.
    let unused = if i.methods.is_empty() {
        quote!(let _ = (client, params);)
    } else {
        quote!()
    };
    quote! {
        #d
        #[allow(deprecated)]
        pub async fn call_json<C: #trait_name + ::std::marker::Sync>(client: &C, method: &str, params: crate::wire::Value) -> ::std::result::Result<crate::wire::Value, crate::rpc::ClientError> {
            #unused
            match method {
                #(#arms)*
                _ => ::std::result::Result::Err(crate::rpc::ClientError::UnknownMethod { method: ::std::string::ToString::to_string(method) }),
            }
        }
    }
}

/// `Node::info()`, `Node::avm(chain)`, … : one accessor per interface.
pub fn node_accessors(r: &Rust) -> TokenStream {
    let accessors = r.spec.interfaces.iter().map(|i| {
        let n = r.of(i);
        let module = ident(&n.module);
        let endpoint = ident(&n.endpoint);
        let vars: Vec<syn::Ident> = n.path_vars.iter().map(|v| ident(v)).collect();
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
            pub fn #module(&self #(, #vars: &str)*) -> #module::#endpoint<T> {
                #module::#endpoint::new(::std::clone::Clone::clone(self.transport()) #(, #vars)*)
            }
        }
    });
    quote! {
        impl<T: crate::rpc::Transport + ::std::clone::Clone> crate::rpc::Node<T> {
            #(#accessors)*
        }
    }
}
