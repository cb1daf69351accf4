//! The spec-example test double: `SpecExamples` implements every server trait by answering
//! each call with the result of the spec example whose params match.

use super::ident;
use crate::model::*;
use crate::naming;
use proc_macro2::TokenStream;
use quote::quote;

pub fn interface(i: &Interface) -> TokenStream {
    let trait_name = ident(&format!("{}Server", naming::pascal(&i.name)));
    let methods = i.methods.iter().map(|m| {
        let name = ident(&naming::snake(&m.name));
        let result = ident(&m.result.name);
        let konst = ident(&naming::screaming(&m.name));
        if m.params.is_empty() {
            quote! {
                fn #name(&self) -> impl Future<Output = Result<#result, RpcError>> + Send {
                    self.answer(&methods::#konst, NoParams {})
                }
            }
        } else {
            let params = ident(&format!("{}Params", naming::pascal(&m.name)));
            quote! {
                fn #name(&self, params: #params) -> impl Future<Output = Result<#result, RpcError>> + Send {
                    self.answer(&methods::#konst, params)
                }
            }
        }
    });
    quote! {
        impl #trait_name for crate::rpc::SpecExamples {
            #(#methods)*
        }
    }
}
