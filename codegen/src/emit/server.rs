//! Server traits, the dispatcher that routes wire names to them, and the axum router.

use super::tokens::{Rust, doc, handler_signature as signature, ident, method_doc};
use crate::model::*;
use proc_macro2::TokenStream;
use quote::quote;

/// `<Iface>Server` (the trait to implement), `<Iface>Service<S>` (its dispatcher) and `router`.
pub fn interface(r: &Rust, i: &Interface) -> TokenStream {
    let n = r.of(i);
    let trait_name = ident(&n.server);
    let service = ident(&n.service);

    let decls = i.methods.iter().map(|m| {
        let mn = n.of_method(m);
        let sig = signature(&mn.ident, &mn.params, &mn.result);
        let d = doc(&format!(
            "{}\n\nUnless implemented, answers -32601 saying this server does not implement `{}`.",
            method_doc(m),
            m.wire_name
        ));
        let konst = ident(&mn.konst);

        quote! {
            #d
            #sig {
                let _ = params;
                ::std::future::ready(::std::result::Result::Err(crate::rpc::RpcError::not_implemented(methods::#konst.name)))
            }
        }
    });
    let arms = i.methods.iter().map(|m| {
        let wire = &m.wire_name;
        let name = ident(&n.of_method(m).ident);
        let parse = if m.positional {
            let konst = ident(&n.of_method(m).konst);
            quote!(params.parse_positional(&methods::#konst)?)
        } else {
            quote!(params.parse()?)
        };
        quote!(#wire => {
            static SIZE: crate::__private::SizeHint = crate::__private::SizeHint::new();
            ::std::boxed::Box::pin(async move {
                let params = #parse;
                crate::__private::reply_sized(&SIZE, server.#name(params).await)
            })
        })
    });
    // An interface without methods routes nothing.
    let body = if i.methods.is_empty() {
        quote! {
            let _ = (method, params, &self.0);
            ::std::option::Option::None
        }
    } else {
        quote! {
            let server = &self.0;
            ::std::option::Option::Some(match method {
                #(#arms)*
                _ => return ::std::option::Option::None,
            })
        }
    };

    let vars: Vec<syn::Ident> = n.path_vars.iter().map(|v| ident(v)).collect();
    let var_names: Vec<&str> = i.path_params.iter().map(|p| p.name.as_str()).collect();
    let also = &i.also_served_at;
    let paths = if vars.is_empty() {
        quote!(
            ::std::vec![::std::string::ToString::to_string(PATH) #(, ::std::string::ToString::to_string(#also))*]
        )
    } else {
        quote!(::std::vec![crate::__private::fill_path(PATH, &[#((#var_names, #vars)),*])])
    };
    let mut router_text = format!(
        "An axum router serving `server` as the {} at `{}`",
        i.title, i.path
    );
    if vars.is_empty() && !also.is_empty() {
        router_text.push_str(" and at the node's other paths for it");
    }
    router_text.push_str(
        ".\n\nIt speaks JSON-RPC 2.0 as described in [`crate::rpc::server`]; merge it with other routers to build a node.",
    );
    let router_doc = doc(&router_text);
    let trait_doc = doc(&format!(
        "The {} as a server implements it: one method per `{}.*` call. Mount it with [`router`].\n\nImplement the methods you serve; the others answer -32601 saying this server does not implement them. A handler returns its result or an [`RpcError`](crate::rpc::RpcError); malformed params never reach it, because the dispatcher answers them with -32602 naming the field.",
        i.title, i.namespace
    ));
    let service_doc = doc(&format!(
        "Routes `{}.*` calls to a [`{trait_name}`].",
        i.namespace
    ));
    quote! {
        #trait_doc
        pub trait #trait_name: ::std::marker::Send + ::std::marker::Sync + 'static {
            #(#decls)*
        }

        #service_doc
        pub struct #service<S>(pub S);

        impl<S: #trait_name> crate::__private::Dispatch for #service<S> {
            fn dispatch<'a>(&'a self, method: &str, params: crate::__private::Params<'a>) -> ::std::option::Option<crate::__private::BoxFuture<'a, crate::__private::Reply>> {
                #body
            }
        }

        #router_doc
        pub fn router<S: #trait_name>(server: S #(, #vars: &str)*) -> ::axum::Router {
            crate::rpc::server::router(#paths, #service(server))
        }
    }
}
