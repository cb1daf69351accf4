//! Server traits, the dispatcher that routes wire names to them, and the axum router.

use super::{doc, ident, method_doc};
use crate::model::*;
use crate::naming;
use proc_macro2::TokenStream;
use quote::quote;

/// `<Iface>Server` (the trait to implement), `<Iface>Service<S>` (its dispatcher) and `router`.
pub fn interface(i: &Interface) -> TokenStream {
    let base = naming::pascal(&i.name);
    let trait_name = ident(&format!("{base}Server"));
    let service = ident(&format!("{base}Service"));

    let decls = i.methods.iter().map(|m| {
        let sig = signature(m);
        let d = doc(&format!(
            "{}\n\nUnless implemented, answers -32601 saying this server does not implement `{}`.",
            method_doc(m),
            m.wire_name
        ));
        let konst = ident(&naming::screaming(&m.name));

        quote! {
            #d
            #sig {
                let _ = params;
                std::future::ready(Err(RpcError::not_implemented(methods::#konst.name)))
            }
        }
    });
    let arms = i.methods.iter().map(|m| {
        let wire = &m.wire_name;
        let name = ident(&naming::snake(&m.name));
        quote!(#wire => Box::pin(async move {
            let params = params.parse()?;
            crate::rpc::reply(server.#name(params).await)
        }),)
    });

    let vars: Vec<syn::Ident> = i
        .path_params
        .iter()
        .map(|p| ident(&naming::snake(&p.name)))
        .collect();
    let var_names: Vec<&str> = i.path_params.iter().map(|p| p.name.as_str()).collect();
    let also = &i.also_served_at;
    let paths = if vars.is_empty() {
        quote!(vec![PATH.to_string() #(, #also.to_string())*])
    } else {
        quote!(vec![crate::rpc::fill_path(PATH, &[#((#var_names, #vars)),*])])
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
        "The {} as a server implements it: one method per `{}.*` call. Mount it with [`router`].\n\nImplement the methods you serve; the others answer -32601 saying this server does not implement them. A handler returns its result or an [`RpcError`]; malformed params never reach it, because the dispatcher answers them with -32602 naming the field.",
        i.title, i.namespace
    ));
    let service_doc = doc(&format!(
        "Routes `{}.*` calls to a [`{trait_name}`].",
        i.namespace
    ));
    quote! {
        #trait_doc
        pub trait #trait_name: Send + Sync + 'static {
            #(#decls)*
        }

        #service_doc
        pub struct #service<S>(pub S);

        impl<S: #trait_name> Dispatch for #service<S> {
            fn dispatch<'a>(&'a self, method: &str, params: Params) -> Option<BoxFuture<'a, Reply>> {
                let server = &self.0;
                Some(match method {
                    #(#arms)*
                    _ => return None,
                })
            }
        }

        #router_doc
        pub fn router<S: #trait_name>(server: S #(, #vars: &str)*) -> axum::Router {
            crate::rpc::server::router(#paths, #service(server))
        }
    }
}

/// The handler's signature, shared with the spec-example double in `mock`.
pub(super) fn signature(m: &Method) -> TokenStream {
    let name = ident(&naming::snake(&m.name));
    let result = ident(&m.result.name);
    let params = ident(&naming::params_type(&m.name));
    quote!(fn #name(&self, params: #params) -> impl Future<Output = Result<#result, RpcError>> + Send)
}
