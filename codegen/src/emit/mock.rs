//! The spec-example test double: `SpecExamples` implements every server trait by answering
//! each call with the result of the spec example whose params match.

use super::{ident, server};
use crate::model::*;
use crate::naming;
use proc_macro2::TokenStream;
use quote::quote;

pub fn interface(i: &Interface) -> TokenStream {
    let trait_name = ident(&format!("{}Server", naming::pascal(&i.name)));
    let methods = i.methods.iter().map(|m| {
        let sig = server::signature(m);
        let konst = ident(&naming::screaming(&m.name));
        quote!(#sig { self.answer(&methods::#konst, params) })
    });
    quote! {
        impl #trait_name for crate::rpc::SpecExamples {
            #(#methods)*
        }
    }
}
