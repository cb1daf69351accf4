//! The spec-example test double: `SpecExamples` implements every server trait by answering
//! each call with the result of the spec example whose params match.

use super::tokens::{Rust, handler_signature, ident};
use crate::model::*;
use proc_macro2::TokenStream;
use quote::quote;

pub fn interface(r: &Rust, i: &Interface) -> TokenStream {
    let n = r.of(i);
    let trait_name = ident(&n.server);
    let methods = i.methods.iter().map(|m| {
        let mn = n.of_method(m);
        let sig = handler_signature(&mn.ident, &mn.params, &mn.result);
        let konst = ident(&mn.konst);
        quote!(#sig { self.answer(&methods::#konst, params) })
    });
    quote! {
        impl #trait_name for crate::rpc::SpecExamples {
            #(#methods)*
        }
    }
}
