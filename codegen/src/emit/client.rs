//! Client traits, their implementation over a transport, and the `Node` accessors.

use super::tokens::{Rust, codec_read, codec_root_type, doc, encoding_of, ident, method_doc};
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
    let streams = i.methods.iter().filter_map(|m| stream_method(r, i, m));
    let paged = i.methods.iter().filter_map(|m| paged_impl(r, i, m));
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
            #(#streams)*
        }

        #(#paged)*

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

/// The stream of a paged method: a provided method of the client trait, so a test double
/// that implements the method gets its stream too.
fn stream_method(r: &Rust, i: &Interface, m: &Method) -> Option<TokenStream> {
    let paging = m.pagination.as_ref()?;
    let mn = r.of(i).of_method(m);
    let stream = ident(mn.stream.as_ref()?);
    let call = ident(&mn.ident);
    let params = ident(&mn.params);
    let (item, _) = output_type(r, m, paging)?;
    let mut text = format!(
        "Every item of `{}` (the result's `{}`), page after page, as a stream (see [`paging`](crate::rpc::paging)).",
        m.wire_name, paging.items
    );
    if let Some(c) = m
        .result
        .member(&paging.items)
        .and_then(|f| f.codec.as_ref())
    {
        text.push_str(&format!(
            " Each item is read into its codec value (`{}`), the hex's checksum checked and stripped; one that does not read ends the stream with an error naming it.",
            c.root
        ));
    }
    match (&paging.page_size, &paging.cursor) {
        (Some(size), Some(cursor)) => {
            text.push_str(&format!(
                "\n\nPages hold the params' `{}` items when it is 1 to {max}, otherwise {max} (the node's largest page); a shorter page is the last. ",
                size.param,
                max = size.max
            ));
            match cursor {
                PageCursor::FromResult { param, member } => text.push_str(&format!(
                    "The next page starts at the reply's `{member}` (as `{param}`)."
                )),
                PageCursor::Offset { param } => text.push_str(&format!(
                    "The next page's `{param}` is the page's plus its number of items."
                )),
            }
        }
        _ => text.push_str("\n\nOne reply holds every item: the stream makes one call."),
    }
    if paging.may_repeat {
        text.push_str(" An item may come again on a later page; the stream yields it once.");
    }
    let d = doc(&text);
    let deprecated = m.deprecated.as_ref().map(|dep| {
        let since = dep.since.number();
        let note = format!("{} is deprecated", m.wire_name);
        quote!(#[deprecated(since = #since, note = #note)])
    });
    Some(quote! {
        #d
        #deprecated
        #[allow(deprecated)]
        fn #stream(&self, params: #params) -> crate::rpc::paging::PagedStream<#item>
        where
            Self: ::std::clone::Clone + ::std::marker::Send + ::std::marker::Sync + 'static,
        {
            let client = ::std::clone::Clone::clone(self);
            crate::rpc::paging::stream(params, move |p| {
                let client = ::std::clone::Clone::clone(&client);
                async move { client.#call(p).await }
            })
        }
    })
}

/// What a paged method's stream yields, and how [`Paged::output`] makes it from an item: the
/// codec value of an item with `codec:` (read per the params' `encoding`), else the item.
fn output_type(r: &Rust, m: &Method, paging: &Pagination) -> Option<(TokenStream, TokenStream)> {
    let field = m.result.member(&paging.items)?;
    let TypeRef::List(inner) = &field.ty else {
        return None;
    };
    Some(
        match field
            .codec
            .as_ref()
            .and_then(|c| codec_root_type(r.spec, c))
        {
            Some(root) => {
                let encoding = encoding_of(&m.params, quote!(self));
                (root, codec_read(r.spec, inner, quote!(&item), encoding))
            }
            None => (
                item_type(r, m, paging)?,
                quote!(::std::result::Result::Ok(item)),
            ),
        },
    )
}

/// The element type of a paged method's `items`.
fn item_type(r: &Rust, m: &Method, paging: &Pagination) -> Option<TokenStream> {
    match &m.result.member(&paging.items)?.ty {
        TypeRef::List(t) => Some(super::tokens::rust_type(r.spec, t)),
        _ => None,
    }
}

/// `impl Paged for <Method>Params`: the page size, the items and cursor of a page, and
/// seeking, as the method's `pagination:` says.
fn paged_impl(r: &Rust, i: &Interface, m: &Method) -> Option<TokenStream> {
    let paging = m.pagination.as_ref()?;
    let mn = r.of(i).of_method(m);
    let params = ident(&mn.params);
    let result = ident(&mn.result);
    let konst = ident(&mn.konst);
    let item = item_type(r, m, paging)?;
    let (output, read) = output_type(r, m, paging)?;
    let items_name = &paging.items;
    let param = |name: &str| m.params.iter().find(|f| f.name == name);
    let member_ident = |f: &Field| ident(&super::names::field(f));

    let items_field = m.result.member(&paging.items)?;
    let items = member_ident(items_field);
    let items = if items_field.is_option() {
        quote!(page.#items.unwrap_or_default())
    } else {
        quote!(page.#items)
    };
    let max = match &paging.page_size {
        Some(size) => {
            let max = size.max;
            quote!(::std::option::Option::Some(#max))
        }
        None => quote!(::std::option::Option::None),
    };
    let (page_size, set_page_size) = match &paging.page_size {
        Some(size) => {
            let f = param(&size.param)?;
            let field = member_ident(f);
            let ty = super::tokens::rust_type(r.spec, &f.ty);
            let (read, value) = match &f.ty {
                TypeRef::Wire(w) if w == "u32" => {
                    (quote!(u64::from(n.0)), quote!(#ty(size as u32)))
                }
                _ => (quote!(n.0), quote!(#ty(size))),
            };
            if f.is_option() {
                (
                    quote!(self.#field.as_ref().map(|n| #read)),
                    quote!(self.#field = ::std::option::Option::Some(#value);),
                )
            } else {
                (
                    quote!({ let n = &self.#field; ::std::option::Option::Some(#read) }),
                    quote!(self.#field = #value;),
                )
            }
        }
        None => (quote!(::std::option::Option::None), quote!()),
    };
    let (cursor_ty, split, seek) = match &paging.cursor {
        None => (
            quote!(()),
            quote!((#items, ::std::option::Option::None)),
            quote!(),
        ),
        Some(cursor) => {
            let f = param(cursor.param())?;
            let field = member_ident(f);
            let ty = super::tokens::rust_type(r.spec, &f.ty);
            let seek = if f.is_option() {
                quote!(self.#field = ::std::option::Option::Some(cursor);)
            } else {
                quote!(self.#field = cursor;)
            };
            let split = match cursor {
                PageCursor::FromResult { member, .. } => {
                    let mf = m.result.member(member)?;
                    let mi = member_ident(mf);
                    let next = if mf.is_option() {
                        quote!(page.#mi)
                    } else {
                        quote!(::std::option::Option::Some(page.#mi))
                    };
                    quote!({
                        let next = #next;
                        (#items, next)
                    })
                }
                PageCursor::Offset { .. } => {
                    let start = if f.is_option() {
                        quote!(self.#field.as_ref().map_or(0, |n| n.0))
                    } else {
                        quote!(self.#field.0)
                    };
                    quote!({
                        let items: ::std::vec::Vec<#item> = #items;
                        let next = #ty(#start.saturating_add(items.len() as u64));
                        (items, ::std::option::Option::Some(next))
                    })
                }
            };
            (ty, split, seek)
        }
    };
    let may_repeat = paging.may_repeat;
    let ends_with = &paging.ends_with;
    // A one-page method ignores both.
    let size_arg = if paging.page_size.is_some() {
        quote!(size)
    } else {
        quote!(_)
    };
    let cursor_arg = if paging.cursor.is_some() {
        quote!(cursor)
    } else {
        quote!(_)
    };
    Some(quote! {
        #[allow(deprecated)]
        impl crate::rpc::paging::Paged for #params {
            type Page = #result;
            type Item = #item;
            type Cursor = #cursor_ty;
            type Output = #output;
            const PAGING: crate::rpc::paging::Paging = crate::rpc::paging::Paging::new(&methods::#konst, #items_name, #max, #may_repeat, &[#(#ends_with),*]);
            fn page_size(&self) -> ::std::option::Option<u64> {
                #page_size
            }
            fn set_page_size(&mut self, #size_arg: u64) {
                #set_page_size
            }
            fn split(&self, page: #result) -> (::std::vec::Vec<#item>, ::std::option::Option<#cursor_ty>) {
                #split
            }
            fn seek(&mut self, #cursor_arg: #cursor_ty) {
                #seek
            }
            fn output(&self, item: #item) -> ::std::result::Result<#output, crate::codec::ContainerError> {
                #read
            }
        }
    })
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
