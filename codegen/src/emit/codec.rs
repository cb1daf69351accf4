//! The binary codec (`crate::codec`): for every struct of `spec/codec/`, a Rust struct with
//! `Encode` and `Decode`; for every slot of every codec, an enum with one variant per type the
//! codec allows there, read and written with its type ID; `from_bytes`/`to_bytes` on every
//! root. A struct that holds a slot is emitted once per codec that reaches it, in that codec's
//! module; every other struct once, in its package's module.

use super::names::{CodecNames, Names, SlotNames, codec_field, codec_module};
use super::tokens::{doc, format, ident};
use crate::codec::model::{
    Codec, Codecs, ExtraPlace, ExtraValue, Field, JsonForm, Layout, Order, Root, RootId, Struct,
    TypeRef,
};
use crate::model::Spec;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use std::collections::BTreeMap;

/// Generates the codec modules, formatted (empty when the spec has no layouts).
pub fn codec(spec: &Spec) -> String {
    let c = &spec.codec;
    let names = Names::of(spec);
    // module name → (its doc, its items)
    let mut modules: BTreeMap<String, (Vec<String>, Vec<TokenStream>)> = BTreeMap::new();
    for p in &c.packages {
        let independent: Vec<&Struct> = p
            .types
            .iter()
            .filter(|s| !c.codecs.iter().any(|k| k.codec_bound.contains(&s.name)))
            .collect();
        if independent.is_empty() {
            continue;
        }
        let entry = modules.entry(codec_module(&p.name)).or_default();
        entry.0.push(format!("Package `{}`: {}", p.name, p.summary));
        for s in independent {
            entry.1.push(structure(c, None, s));
        }
    }
    for k in &c.codecs {
        let entry = modules.entry(codec_module(&k.name)).or_default();
        entry.0.push(format!(
            "Codec `{}` (version {}, at most {} bytes): {}",
            k.name, k.version, k.max_size, k.summary
        ));
        for t in &k.codec_bound {
            if let Some(s) = c.get(t) {
                entry.1.push(structure(c, Some(k), s));
            }
        }
        let kn = names.of_codec(k);
        for slot in &kn.slots {
            entry.1.push(slot_enum(c, k, slot));
        }
        for root in &k.roots {
            entry.1.push(root_impl(c, k, kn, root));
        }
    }
    let mods = modules.into_iter().map(|(name, (docs, items))| {
        let id = ident(&name);
        let d = doc(&docs.join("\n\n"));
        quote! {
            #d
            pub mod #id {
                #(#items)*
            }
        }
    });
    format(quote!(#(#mods)*))
}

/// The Rust path of struct `t` as seen from codec `k` (or from no codec).
fn struct_path(k: Option<&Codec>, t: &TypeRef) -> TokenStream {
    let name = ident(&t.name);
    let bound = k.filter(|k| k.codec_bound.contains(t));
    let module = ident(&codec_module(match bound {
        Some(k) => &k.name,
        None => &t.package,
    }));
    quote!(crate::codec::#module::#name)
}

fn rust_type(k: Option<&Codec>, l: &Layout) -> TokenStream {
    match l {
        Layout::U8 => quote!(u8),
        Layout::U16 => quote!(u16),
        Layout::U32 => quote!(u32),
        Layout::U64 => quote!(u64),
        Layout::I64 => quote!(i64),
        Layout::Bool => quote!(bool),
        Layout::Id => quote!(crate::wire::Id),
        Layout::ShortId => quote!(crate::wire::ShortId),
        Layout::NodeId => quote!(crate::wire::NodeId),
        Layout::EvmAddress => quote!(crate::wire::EvmAddress),
        Layout::Bytes => quote!(::std::vec::Vec<u8>),
        Layout::FixedBytes(n) => {
            let n = Literal::usize_unsuffixed(*n);
            quote!([u8; #n])
        }
        Layout::String => quote!(::std::string::String),
        Layout::List(inner) => {
            let inner = rust_type(k, inner);
            quote!(::std::vec::Vec<#inner>)
        }
        Layout::Struct(t) => struct_path(k, t),
        Layout::Slot(s) => {
            let module = ident(&codec_module(
                k.map(|k| k.name.as_str()).unwrap_or_default(),
            ));
            let name = ident(s);
            quote!(crate::codec::#module::#name)
        }
    }
}

/// The fewest bytes a value of `l` takes in codec `k`.
fn min_size(c: &Codecs, k: Option<&Codec>, l: &Layout, depth: usize) -> usize {
    if depth > 64 {
        return 0;
    }
    match l {
        Layout::U8 | Layout::Bool => 1,
        Layout::U16 => 2,
        Layout::U32 => 4,
        Layout::U64 | Layout::I64 => 8,
        Layout::Id => 32,
        Layout::ShortId | Layout::NodeId | Layout::EvmAddress => 20,
        Layout::Bytes | Layout::List(_) => 4,
        Layout::FixedBytes(n) => *n,
        Layout::String => 2,
        Layout::Struct(t) => c
            .get(t)
            .map(|s| {
                s.fields
                    .iter()
                    .map(|f| min_size(c, k, &f.layout, depth + 1))
                    .sum()
            })
            .unwrap_or(0),
        Layout::Slot(name) => {
            let types = k
                .and_then(|k| k.slot(name))
                .map(|s| s.types.as_slice())
                .unwrap_or(&[]);
            4 + types
                .iter()
                .map(|t| min_size(c, k, &Layout::Struct(t.clone()), depth + 1))
                .min()
                .unwrap_or(0)
        }
    }
}

/// The expression reading one value of `l` from `r` (a `Result`).
fn read_expr(c: &Codecs, k: Option<&Codec>, l: &Layout) -> TokenStream {
    match l {
        Layout::U8
        | Layout::U16
        | Layout::U32
        | Layout::U64
        | Layout::I64
        | Layout::Bool
        | Layout::Bytes
        | Layout::String => {
            let m = ident(&l.spec_text());
            quote!(r.#m())
        }
        Layout::Id => quote!(r.id()),
        Layout::ShortId => quote!(r.short_id()),
        Layout::NodeId => quote!(r.node_id()),
        Layout::EvmAddress => quote!(r.evm_address()),
        Layout::FixedBytes(n) => {
            let n = Literal::usize_unsuffixed(*n);
            quote!(r.array::<#n>())
        }
        Layout::List(inner) => {
            let min = min_size(c, k, inner, 0);
            let item = read_expr(c, k, inner);
            quote!(r.list(#min, |r| #item))
        }
        // The type follows from the field's.
        Layout::Struct(_) | Layout::Slot(_) => quote!(crate::codec::Decode::decode(r)),
    }
}

/// The checks of field `f` (the rules the spec gives it, then the rules inside it), or
/// nothing when it has none.
fn verify_stmts(c: &Codecs, f: &Field) -> Option<TokenStream> {
    let id = ident(&codec_field(&f.name));
    let r = &f.rules;
    let mut checks = Vec::new();
    if r.min.is_some() || r.max.is_some() {
        let (min, max) = (opt(r.min), opt(r.max));
        checks.push(quote!(crate::codec::rules::bounds(self.#id, #min, #max)?;));
    }
    if r.len.is_some() || r.max_len.is_some() {
        let (len, max) = (opt(r.len), opt(r.max_len));
        checks.push(quote!(crate::codec::rules::length(self.#id.len(), #len, #max)?;));
    }
    match &r.order {
        Some(Order::Sorted) => checks
            .push(quote!(crate::codec::rules::ordered(&self.#id, crate::codec::Order::Sorted)?;)),
        Some(Order::StrictlyIncreasing) => checks.push(
            quote!(crate::codec::rules::ordered(&self.#id, crate::codec::Order::StrictlyIncreasing)?;),
        ),
        Some(Order::StrictlyIncreasingBy(member)) => {
            // One field, or several compared in turn (`address assetID`).
            let keys: Vec<_> = member
                .split_whitespace()
                .map(|m| ident(&codec_field(m)))
                .collect();
            checks.push(quote!(crate::codec::rules::increasing_by(&self.#id, #member, |a, b| ::std::cmp::Ord::cmp(&(#(&a.#keys,)*), &(#(&b.#keys,)*)))?;));
        }
        None => {}
    }
    match &f.layout {
        Layout::Struct(t) if has_rules(c, &Layout::Struct(t.clone()), &mut Vec::new()) => {
            checks.push(quote!(crate::codec::Verify::verify(&self.#id)?;))
        }
        Layout::Slot(_) => checks.push(quote!(crate::codec::Verify::verify(&self.#id)?;)),
        Layout::List(inner)
            if matches!(inner.as_ref(), Layout::Slot(_))
                || has_rules(c, inner, &mut Vec::new()) =>
        {
            if matches!(inner.as_ref(), Layout::Struct(_) | Layout::Slot(_)) {
                checks.push(quote!(crate::codec::rules::each(&self.#id)?;))
            }
        }
        _ => {}
    }
    if checks.is_empty() {
        return None;
    }
    let wire = &f.name;
    Some(
        quote!(crate::codec::rules::field(#wire, || { #(#checks)* ::std::result::Result::Ok(()) })?;),
    )
}

/// Whether a value of `l` has a rule anywhere inside (slots always may).
fn has_rules(c: &Codecs, l: &Layout, seen: &mut Vec<TypeRef>) -> bool {
    match l {
        Layout::List(inner) => has_rules(c, inner, seen),
        Layout::Slot(_) => true,
        Layout::Struct(t) => {
            if seen.contains(t) {
                return false;
            }
            seen.push(t.clone());
            c.get(t).is_some_and(|s| {
                s.fields
                    .iter()
                    .any(|f| f.rules != Default::default() || has_rules(c, &f.layout, seen))
            })
        }
        _ => false,
    }
}

/// Writing a value of `l`, given as `value` (a copy) and `place` (a reference): a
/// statement when it cannot fail, or a `Result` expression when it can (`true`).
fn write_code(l: &Layout, value: TokenStream, place: TokenStream) -> (bool, TokenStream) {
    match l {
        Layout::U8 | Layout::U16 | Layout::U32 | Layout::U64 | Layout::I64 | Layout::Bool => {
            let m = ident(&l.spec_text());
            (false, quote!(w.#m(#value);))
        }
        Layout::Id => (false, quote!(w.id(#place);)),
        Layout::ShortId => (false, quote!(w.short_id(#place);)),
        Layout::NodeId => (false, quote!(w.node_id(#place);)),
        Layout::EvmAddress => (false, quote!(w.evm_address(#place);)),
        Layout::FixedBytes(_) => (false, quote!(w.raw(#place);)),
        Layout::Bytes => (true, quote!(w.bytes(#place))),
        Layout::String => (true, quote!(w.string(#place))),
        Layout::List(inner) => {
            let item = match write_code(inner, quote!(*e), quote!(e)) {
                (true, expr) => expr,
                (false, stmt) => quote!({ #stmt ::std::result::Result::Ok(()) }),
            };
            (true, quote!(w.list(#place, |w, e| #item)))
        }
        Layout::Struct(_) | Layout::Slot(_) => {
            (true, quote!(crate::codec::Encode::encode(#place, w)))
        }
    }
}

fn opt(v: Option<u64>) -> TokenStream {
    match v {
        Some(v) => {
            let v = Literal::u64_unsuffixed(v);
            quote!(::std::option::Option::Some(#v))
        }
        None => quote!(::std::option::Option::None),
    }
}

fn field_doc(f: &Field) -> String {
    let mut d = format!("{}\n\nWire: `{}`", f.summary, f.layout.spec_text());
    if f.inline {
        d.push_str(", inline");
    }
    let r = &f.rules;
    match &r.order {
        Some(Order::Sorted) => d.push_str(", sorted by encoding"),
        Some(Order::StrictlyIncreasing) => d.push_str(", strictly increasing by encoding"),
        Some(Order::StrictlyIncreasingBy(m)) => {
            d.push_str(&format!(", strictly increasing by `{m}`"))
        }
        None => {}
    }
    if let Some(v) = r.min {
        d.push_str(&format!(", at least {v}"));
    }
    if let Some(v) = r.max {
        d.push_str(&format!(", at most {v}"));
    }
    if let Some(v) = r.len {
        d.push_str(&format!(", length {v}"));
    }
    if let Some(v) = r.max_len {
        d.push_str(&format!(", length at most {v}"));
    }
    if f.json != f.name {
        d.push_str(&format!(". JSON: `{}`", f.json));
    }
    d.push('.');
    d
}

/// A struct with `new`, `Encode` and `Decode`.
fn structure(c: &Codecs, k: Option<&Codec>, s: &Struct) -> TokenStream {
    let name = ident(&s.name.name);
    let mut d = format!("{} (`{}`)", s.summary, s.name);
    if let Some(k) = k {
        d.push_str(&format!(", in codec `{}`", k.name));
    }
    if let Some(desc) = &s.description {
        d.push_str("\n\n");
        d.push_str(desc);
    }
    let d = doc(&d);
    let idents: Vec<_> = s
        .fields
        .iter()
        .map(|f| ident(&codec_field(&f.name)))
        .collect();
    let types: Vec<_> = s.fields.iter().map(|f| rust_type(k, &f.layout)).collect();
    let docs = s.fields.iter().map(|f| doc(&field_doc(f)));
    let wire: Vec<_> = s.fields.iter().map(|f| f.name.as_str()).collect();
    let reads = s.fields.iter().map(|f| read_expr(c, k, &f.layout));
    let checks = s.fields.iter().filter_map(|f| verify_stmts(c, f));
    let json = struct_json(c, k, s);
    let prefix_id = match &s.prefix_id {
        Some((id, index)) => {
            let (id, index) = (ident(&codec_field(id)), ident(&codec_field(index)));
            quote! {
                /// The ID: SHA-256 of the index as 8 big-endian bytes, then the ID (the node's
                /// `Prefix`).
                pub fn id(&self) -> crate::wire::Id {
                    self.#id.prefix(u64::from(self.#index))
                }
            }
        }
        None => quote!(),
    };
    let from_json = struct_from_json(c, k, s);
    let oldest_json = struct_oldest_json(c, k, s);
    let writes = s.fields.iter().zip(&idents).map(|(f, id)| {
        let wire = &f.name;
        match write_code(&f.layout, quote!(self.#id), quote!(&self.#id)) {
            (true, expr) => quote!(w.field(#wire, |w| #expr)?;),
            (false, stmt) => stmt,
        }
    });
    let (r_arg, w_arg, default) = if s.fields.is_empty() {
        (quote!(_r), quote!(_w), quote!(Default,))
    } else {
        (quote!(r), quote!(w), quote!())
    };
    quote! {
        #d
        #[derive(Debug, Clone, #default PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub struct #name {
            #( #docs pub #idents: #types, )*
        }

        impl #name {
            #prefix_id

            /// A value with every field given, in wire order.
            #[allow(clippy::too_many_arguments)]
            pub fn new(#( #idents: #types ),*) -> Self {
                Self { #( #idents ),* }
            }
        }

        impl crate::codec::Encode for #name {
            fn encode(&self, #w_arg: &mut crate::codec::Writer) -> ::std::result::Result<(), crate::codec::RuleError> {
                #( #writes )*
                ::std::result::Result::Ok(())
            }
        }

        impl crate::codec::Decode for #name {
            fn decode(#r_arg: &mut crate::codec::Reader<'_>) -> ::std::result::Result<Self, crate::codec::DecodeError> {
                #( let #idents = r.field(#wire, |r| #reads)?; )*
                ::std::result::Result::Ok(Self { #( #idents ),* })
            }
        }

        impl crate::codec::Verify for #name {
            fn verify(&self) -> ::std::result::Result<(), crate::codec::RuleError> {
                #( #checks )*
                ::std::result::Result::Ok(())
            }
        }

        #json
        #from_json
        #oldest_json
    }
}

/// The JSON value of `v` (an expression of a reference) of layout `l`.
fn json_value(l: &Layout, form: Option<JsonForm>, v: TokenStream) -> TokenStream {
    match l {
        Layout::U8 | Layout::U16 | Layout::U32 | Layout::U64 | Layout::I64 | Layout::Bool => {
            quote!(crate::codec::json::number(#v))
        }
        Layout::Id | Layout::NodeId | Layout::EvmAddress => quote!(crate::codec::json::text(#v)),
        Layout::ShortId if form == Some(JsonForm::Cb58) => quote!(crate::codec::json::text(#v)),
        Layout::ShortId => quote!(crate::codec::json::address(cx, #v)),
        Layout::Bytes | Layout::FixedBytes(_) => match form {
            Some(JsonForm::Base64) => quote!(crate::codec::json::base64(#v)),
            Some(JsonForm::Numbers) => quote!(crate::codec::json::numbers(#v)),
            _ => quote!(crate::codec::json::hex(#v)),
        },
        Layout::String => {
            quote!(::serde_json::Value::String(::std::string::ToString::to_string(#v)))
        }
        // A function that takes the element as it is: passed by name.
        Layout::List(inner)
            if matches!(
                inner.as_ref(),
                Layout::Id | Layout::NodeId | Layout::EvmAddress
            ) || (matches!(inner.as_ref(), Layout::ShortId) && form == Some(JsonForm::Cb58)) =>
        {
            quote!(::serde_json::Value::Array(::std::iter::IntoIterator::into_iter(#v).map(crate::codec::json::text).collect()))
        }
        Layout::List(inner) if inner.is_integer() || matches!(inner.as_ref(), Layout::Bool) => {
            quote!(::serde_json::Value::Array(::std::iter::IntoIterator::into_iter(#v).map(crate::codec::json::number).collect()))
        }
        Layout::List(inner) => {
            let item = json_value(inner, form, quote!(e));
            quote!(::serde_json::Value::Array(::std::iter::IntoIterator::into_iter(#v).map(|e| #item).collect()))
        }
        Layout::Struct(_) | Layout::Slot(_) => quote!(crate::codec::ToJson::to_json(#v, cx)),
    }
}

fn innermost(l: &Layout) -> &Layout {
    match l {
        Layout::List(inner) => innermost(inner),
        other => other,
    }
}

/// The codec whose numbering a struct's JSON-only members use: the one it is bound to, or
/// the first whose roots reach it.
fn codec_of<'a>(c: &'a Codecs, k: Option<&'a Codec>, t: &TypeRef) -> Option<&'a Codec> {
    k.or_else(|| c.codecs.iter().find(|k| k.reached.contains(t)))
}

/// The expression of a JSON-only member's value.
fn extra_value(c: &Codecs, k: Option<&Codec>, s: &Struct, value: &ExtraValue) -> TokenStream {
    match value {
        // A codec whose node never sets the fx IDs writes the zero ID.
        ExtraValue::FxOf(_) if k.is_some_and(|k| k.zero_fx_ids) => {
            quote!(crate::codec::json::text(&crate::wire::Id::ZERO))
        }
        ExtraValue::FxOf(field) => {
            let id = ident(&codec_field(field));
            quote!(crate::codec::json::fx_id(self.#id.fx_name()))
        }
        ExtraValue::FxAt(field) => {
            let id = ident(&codec_field(field));
            let fxs = codec_of(c, k, &s.name)
                .map(|k| k.fxs.clone())
                .unwrap_or_default();
            quote!(crate::codec::json::fx_at(&[#(#fxs),*], u64::from(self.#id)))
        }
        ExtraValue::Id => {
            let Some(k) = codec_of(c, k, &s.name) else {
                return quote!(::serde_json::Value::Null);
            };
            let version = k.version;
            let root_slot = k.roots.iter().any(|r| match &r.layout {
                Layout::Slot(name) => k.slot(name).is_some_and(|sl| sl.types.contains(&s.name)),
                _ => false,
            });
            match k.type_id(&s.name).filter(|_| root_slot) {
                Some(t) => {
                    quote!(crate::codec::json::id_of(self, #version, ::std::option::Option::Some(#t)))
                }
                None => {
                    quote!(crate::codec::json::id_of(self, #version, ::std::option::Option::None))
                }
            }
        }
    }
}

/// `JsonMembers` and `ToJson` of a struct.
fn struct_json(c: &Codecs, k: Option<&Codec>, s: &Struct) -> TokenStream {
    let name = ident(&s.name.name);
    let extra = |place: &ExtraPlace| -> Vec<TokenStream> {
        s.json_extra
            .iter()
            .filter(|x| &x.place == place)
            .map(|x| {
                let key = &x.name;
                let v = extra_value(c, k, s, &x.value);
                quote!(m.insert(#key.into(), #v);)
            })
            .collect()
    };
    let mut stmts = Vec::new();
    for f in &s.fields {
        stmts.extend(extra(&ExtraPlace::Before(f.name.clone())));
        let id = ident(&codec_field(&f.name));
        if f.inline {
            stmts.push(quote!(crate::codec::JsonMembers::json_members(&self.#id, cx, m);));
        } else {
            let key = &f.json;
            let v = json_value(&f.layout, f.json_form, quote!(&self.#id));
            stmts.push(quote!(m.insert(#key.into(), #v);));
        }
        stmts.extend(extra(&ExtraPlace::After(f.name.clone())));
    }
    stmts.extend(extra(&ExtraPlace::End));
    let needs_cx = s.fields.iter().any(|f| {
        f.inline
            || match innermost(&f.layout) {
                Layout::ShortId => f.json_form != Some(JsonForm::Cb58),
                Layout::Struct(_) | Layout::Slot(_) => true,
                _ => false,
            }
    });
    let cx_arg = if needs_cx { quote!(cx) } else { quote!(_cx) };
    let m_arg = if stmts.is_empty() {
        quote!(_m)
    } else {
        quote!(m)
    };
    let body = if s.json_alphabetical {
        quote!(crate::codec::json::sorted_members(#m_arg, |m| { #(#stmts)* });)
    } else {
        quote!(#(#stmts)*)
    };
    quote! {
        impl crate::codec::JsonMembers for #name {
            fn json_members(&self, #cx_arg: &crate::codec::JsonContext, #m_arg: &mut ::serde_json::Map<::std::string::String, ::serde_json::Value>) {
                #body
            }
        }

        impl crate::codec::ToJson for #name {
            fn to_json(&self, cx: &crate::codec::JsonContext) -> ::serde_json::Value {
                crate::codec::json::object(false, |m| crate::codec::JsonMembers::json_members(self, cx, m))
            }
        }
    }
}

/// Every JSON member name a struct reads or writes: its fields' (an inlined struct's
/// members in its place), then its JSON-only members.
fn json_keys(c: &Codecs, s: &Struct, depth: usize) -> Vec<String> {
    let mut keys = Vec::new();
    for f in &s.fields {
        match (&f.layout, f.inline) {
            (Layout::Struct(t), true) if depth < 16 => {
                if let Some(inner) = c.get(t) {
                    keys.extend(json_keys(c, inner, depth + 1));
                }
            }
            _ => keys.push(f.json.clone()),
        }
    }
    keys.extend(s.json_extra.iter().map(|x| x.name.clone()));
    keys
}

/// The JSON member names of a struct that nodes newer than the oldest supported one added:
/// its fields' and JSON-only members' with such a `since`, an inlined struct's in its place.
fn json_newer(c: &Codecs, s: &Struct, depth: usize) -> Vec<String> {
    let mut keys = Vec::new();
    for f in &s.fields {
        match (&f.layout, f.inline) {
            (Layout::Struct(t), true) if depth < 16 => {
                if let Some(inner) = c.get(t) {
                    keys.extend(json_newer(c, inner, depth + 1));
                }
            }
            _ if f.newer_than_oldest => keys.push(f.json.clone()),
            _ => {}
        }
    }
    keys.extend(
        s.json_extra
            .iter()
            .filter(|x| x.newer_than_oldest)
            .map(|x| x.name.clone()),
    );
    keys
}

/// Whether the JSON form of a codec root the spec names (`platform any<Block>`) holds, at any
/// depth, a member that nodes newer than the oldest supported one added.
pub fn root_reaches_newer(spec: &Spec, r: &crate::model::CodecRef) -> bool {
    let c = &spec.codec;
    c.codecs
        .iter()
        .find(|k| k.name == r.codec)
        .is_some_and(|k| {
            k.roots
                .iter()
                .find(|x| x.layout.spec_text() == r.root)
                .is_some_and(|x| reaches_newer(c, Some(k), &x.layout, &mut Vec::new()))
        })
}

/// Whether a value of layout `l` (in codec `k`) holds, at any depth, a JSON member that
/// nodes newer than the oldest supported one added.
fn reaches_newer(c: &Codecs, k: Option<&Codec>, l: &Layout, seen: &mut Vec<TypeRef>) -> bool {
    match l {
        Layout::List(inner) => reaches_newer(c, k, inner, seen),
        Layout::Struct(t) => {
            if seen.contains(t) {
                return false;
            }
            seen.push(t.clone());
            let found = c.get(t).is_some_and(|s| {
                s.json_extra.iter().any(|x| x.newer_than_oldest)
                    || s.fields
                        .iter()
                        .any(|f| f.newer_than_oldest || reaches_newer(c, k, &f.layout, seen))
            });
            seen.pop();
            found
        }
        Layout::Slot(name) => k.and_then(|k| k.slot(name)).is_some_and(|slot| {
            slot.types
                .iter()
                .any(|t| reaches_newer(c, k, &Layout::Struct(t.clone()), seen))
        }),
        _ => false,
    }
}

/// The statement dropping the newer members from `v` (a `&mut Value`) of layout `l`, or
/// nothing when it holds none.
fn drop_newer(c: &Codecs, k: Option<&Codec>, l: &Layout, v: TokenStream) -> Option<TokenStream> {
    if !reaches_newer(c, k, l, &mut Vec::new()) {
        return None;
    }
    Some(match l {
        Layout::List(inner) => {
            let each = drop_newer(c, k, inner, quote!(e))?;
            quote!(crate::codec::json::each_item(#v, |e| { #each });)
        }
        _ => {
            let ty = rust_type(k, l);
            quote!(<#ty as crate::codec::OldestJson>::drop_newer(#v);)
        }
    })
}

/// `OldestJson` of a struct that holds a newer member, or nothing.
fn struct_oldest_json(c: &Codecs, k: Option<&Codec>, s: &Struct) -> TokenStream {
    if !reaches_newer(c, k, &Layout::Struct(s.name.clone()), &mut Vec::new()) {
        return quote!();
    }
    let name = ident(&s.name.name);
    let mut stmts = Vec::new();
    let own: Vec<&str> = s
        .fields
        .iter()
        .filter(|f| f.newer_than_oldest)
        .map(|f| f.json.as_str())
        .chain(
            s.json_extra
                .iter()
                .filter(|x| x.newer_than_oldest)
                .map(|x| x.name.as_str()),
        )
        .collect();
    for key in own {
        stmts.push(quote!(m.remove(#key);));
    }
    for f in s.fields.iter().filter(|f| !f.newer_than_oldest) {
        if f.inline {
            if reaches_newer(c, k, &f.layout, &mut Vec::new()) {
                let ty = rust_type(k, &f.layout);
                stmts.push(quote!(<#ty as crate::codec::OldestJson>::drop_newer_members(m);));
            }
        } else if let Some(drop) = drop_newer(c, k, &f.layout, quote!(x)) {
            let key = &f.json;
            stmts.push(quote!(if let ::std::option::Option::Some(x) = m.get_mut(#key) { #drop }));
        }
    }
    quote! {
        impl crate::codec::OldestJson for #name {
            fn drop_newer_members(m: &mut ::serde_json::Map<::std::string::String, ::serde_json::Value>) {
                #(#stmts)*
            }
        }
    }
}

/// What reads a value of layout `l` from a JSON value: a function, or a closure where the
/// reader needs more than the value (`fx` is the fx hint passed to slots).
fn json_reader(l: &Layout, form: Option<JsonForm>, fx: &TokenStream) -> TokenStream {
    match l {
        Layout::U8 | Layout::U16 | Layout::U32 | Layout::U64 => {
            quote!(crate::codec::json::read_uint)
        }
        Layout::I64 => quote!(crate::codec::json::read_i64),
        Layout::Bool => quote!(crate::codec::json::read_bool),
        Layout::String => quote!(crate::codec::json::read_string),
        Layout::Id | Layout::NodeId | Layout::EvmAddress => quote!(crate::codec::json::read_text),
        Layout::ShortId if form == Some(JsonForm::Cb58) => quote!(crate::codec::json::read_text),
        Layout::ShortId => quote!(crate::codec::json::read_address),
        Layout::Bytes => match form {
            Some(JsonForm::Base64) => quote!(crate::codec::json::read_base64),
            Some(JsonForm::Numbers) => quote!(crate::codec::json::read_numbers),
            _ => quote!(crate::codec::json::read_hex),
        },
        Layout::FixedBytes(n) => {
            let n = Literal::usize_unsuffixed(*n);
            let form = match form {
                Some(JsonForm::Base64) => "base64",
                Some(JsonForm::Numbers) => "numbers",
                _ => "hex",
            };
            quote!(|v| crate::codec::json::read_array::<#n>(v, #form))
        }
        Layout::List(inner) => {
            let item = json_reader(inner, form, fx);
            quote!(|v| crate::codec::json::read_list(v, #item))
        }
        Layout::Struct(_) => {
            quote!(|v| crate::codec::FromJson::from_json(v, ::std::option::Option::None))
        }
        Layout::Slot(_) => quote!(|v| crate::codec::FromJson::from_json(v, #fx)),
    }
}

/// `FromJsonMembers` and `FromJson` of a struct.
fn struct_from_json(c: &Codecs, k: Option<&Codec>, s: &Struct) -> TokenStream {
    let name = ident(&s.name.name);
    let keys = json_keys(c, s, 0);
    let newer = json_newer(c, s, 0);
    let newer = if newer.is_empty() {
        quote!()
    } else {
        quote!(const JSON_NEWER: &'static [&'static str] = &[#(#newer),*];)
    };
    let all_fxs: Vec<String> = c
        .packages
        .iter()
        .filter(|p| p.fx)
        .map(|p| p.name.clone())
        .collect();
    let fx_at = s.json_extra.iter().find_map(|x| match &x.value {
        ExtraValue::FxAt(f) => Some(f.clone()),
        _ => None,
    });
    let reads = s.fields.iter().map(|f| {
        let id = ident(&codec_field(&f.name));
        if f.inline {
            return quote!(let #id = crate::codec::FromJsonMembers::from_json_members(m)?;);
        }
        let fx_of = s
            .json_extra
            .iter()
            .find(|x| x.value == ExtraValue::FxOf(f.name.clone()));
        let fx = match (fx_of, &fx_at) {
            (Some(x), _) => {
                let key = &x.name;
                quote!(crate::codec::json::fx_named(m, #key, &[#(#all_fxs),*]))
            }
            (None, Some(index)) => {
                let index = s
                    .fields
                    .iter()
                    .find(|g| &g.name == index)
                    .map(|g| g.json.clone())
                    .unwrap_or_default();
                let fxs = codec_of(c, k, &s.name)
                    .map(|k| k.fxs.clone())
                    .unwrap_or_default();
                quote!(crate::codec::json::fx_index(m, #index, &[#(#fxs),*]))
            }
            (None, None) => quote!(::std::option::Option::None),
        };
        let key = &f.json;
        let read = json_reader(&f.layout, f.json_form, &quote!(fx));
        let uses_fx = matches!(innermost(&f.layout), Layout::Slot(_));
        let bind = if uses_fx {
            quote!(let fx = #fx;)
        } else {
            quote!()
        };
        // Older nodes leave it out of the JSON form: then it is empty.
        let member = if f.newer_than_oldest {
            quote!(member_or_default)
        } else {
            quote!(member)
        };
        quote!(let #id = { #bind crate::codec::json::#member(m, #key, #read)? };)
    });
    let idents: Vec<_> = s
        .fields
        .iter()
        .map(|f| ident(&codec_field(&f.name)))
        .collect();
    let m_arg = if s.fields.is_empty() {
        quote!(_m)
    } else {
        quote!(m)
    };
    quote! {
        impl crate::codec::FromJsonMembers for #name {
            const JSON_KEYS: &'static [&'static str] = &[#(#keys),*];
            #newer

            fn from_json_members(#m_arg: &::serde_json::Map<::std::string::String, ::serde_json::Value>) -> ::std::result::Result<Self, crate::codec::JsonError> {
                #(#reads)*
                ::std::result::Result::Ok(Self { #(#idents),* })
            }
        }

        impl crate::codec::FromJson for #name {
            fn from_json(v: &::serde_json::Value, _fx: ::std::option::Option<&str>) -> ::std::result::Result<Self, crate::codec::JsonError> {
                let m = crate::codec::json::members(v, <Self as crate::codec::FromJsonMembers>::JSON_KEYS)?;
                crate::codec::FromJsonMembers::from_json_members(m)
            }
        }
    }
}

/// Roughly how many bytes a Rust value of `l` takes (a `Vec` 24, a slot value 24).
fn rust_size(c: &Codecs, l: &Layout, depth: usize) -> usize {
    match l {
        Layout::U8 | Layout::Bool => 1,
        Layout::U16 => 2,
        Layout::U32 => 4,
        Layout::U64 | Layout::I64 => 8,
        Layout::Id => 32,
        Layout::ShortId | Layout::NodeId | Layout::EvmAddress => 20,
        Layout::FixedBytes(n) => *n,
        Layout::Bytes | Layout::String | Layout::List(_) | Layout::Slot(_) => 24,
        Layout::Struct(t) if depth < 16 => c
            .get(t)
            .map(|s| {
                s.fields
                    .iter()
                    .map(|f| rust_size(c, &f.layout, depth + 1))
                    .sum()
            })
            .unwrap_or(0),
        Layout::Struct(_) => 0,
    }
}

/// A slot's variant holds a type larger than this behind a `Box`, so that the enum, and a
/// list of it, stays small: decoding a list of small encodings of a large type would
/// otherwise reserve many times the input.
const BOX_ABOVE: usize = 64;

/// A slot: an enum read and written with the type ID of its variant.
fn slot_enum(c: &Codecs, k: &Codec, slot: &SlotNames) -> TokenStream {
    let name = slot.spec_name.as_str();
    let id = ident(name);
    let types: Vec<TypeRef> = slot.variants.iter().map(|v| v.ty.clone()).collect();
    let types = types.as_slice();
    let vids: Vec<_> = slot.variants.iter().map(|v| ident(&v.ident)).collect();
    let type_names: Vec<_> = slot.variants.iter().map(|v| v.type_name.as_str()).collect();
    let paths: Vec<_> = types.iter().map(|t| struct_path(Some(k), t)).collect();
    let boxed: Vec<bool> = types
        .iter()
        .map(|t| rust_size(c, &Layout::Struct(t.clone()), 0) > BOX_ABOVE)
        .collect();
    let held: Vec<_> = paths
        .iter()
        .zip(&boxed)
        .map(|(p, b)| {
            if *b {
                quote!(::std::boxed::Box<#p>)
            } else {
                quote!(#p)
            }
        })
        .collect();
    let fx_names: Vec<_> = types
        .iter()
        .map(|t| match c.get(t).and_then(|s| s.fx.as_deref()) {
            Some(fx) => quote!(::std::option::Option::Some(#fx)),
            None => quote!(::std::option::Option::None),
        })
        .collect();
    let positions: Vec<_> = (0..types.len()).map(Literal::usize_unsuffixed).collect();
    let wrap: Vec<_> = boxed
        .iter()
        .map(|b| {
            if *b {
                quote!(::std::boxed::Box::new(v))
            } else {
                quote!(v)
            }
        })
        .collect();
    let type_ids: Vec<_> = types
        .iter()
        .map(|t| k.type_id(t).unwrap_or_default())
        .collect();
    let docs = types
        .iter()
        .zip(&type_ids)
        .map(|(t, n)| doc(&format!("`{t}`, type ID {n}.")));
    let allowed = types
        .iter()
        .zip(&type_ids)
        .map(|(t, n)| format!("{n} ({})", t.name))
        .collect::<Vec<_>>()
        .join(", ");
    let mut d = format!(
        "What slot `{name}` holds in codec `{}`: a `u32` type ID, then the type's fields. Allowed: {allowed}.",
        k.name
    );
    if !slot.accessors.is_empty() {
        let list = slot
            .accessors
            .iter()
            .map(|a| {
                format!(
                    "[`{}`](Self::{})",
                    a.ident.trim_start_matches("r#"),
                    a.ident
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        d.push_str(&format!(
            "\n\nA member that two or more of its types have, with one layout in all of them, is read by the method named after it: `&T` when every type has it, `Option<&T>` when only some do. Here: {list}."
        ));
    }
    let d = doc(&d);
    let accessors = accessors(k, slot);
    let oldest_json = if reaches_newer(c, Some(k), &Layout::Slot(name.to_string()), &mut Vec::new())
    {
        let drops = types.iter().map(|t| {
            drop_newer(c, Some(k), &Layout::Struct(t.clone()), quote!(v)).unwrap_or_default()
        });
        quote! {
            impl crate::codec::OldestJson for #id {
                // A slot of one type is a match of one arm.
                #[allow(clippy::single_match)]
                fn drop_newer(v: &mut ::serde_json::Value) {
                    // The variant, from the members as they are.
                    let ::std::result::Result::Ok(at) = crate::codec::json::variant_among(v, Self::JSON_CANDIDATES, ::std::option::Option::None) else {
                        return;
                    };
                    match at {
                        #( #positions => { #drops } )*
                        _ => {}
                    }
                }
            }
        }
    } else {
        quote!()
    };
    let not_allowed = format!("type ID {{}} is not allowed here (allowed: {allowed})");
    quote! {
        #d
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum #id {
            #( #docs #vids(#held), )*
        }

        impl #id {
            /// The type ID written before the value.
            pub fn type_id(&self) -> u32 {
                match self {
                    #( Self::#vids(_) => #type_ids, )*
                }
            }

            /// The name of the value's type as the spec writes it, without its package
            /// (`AddPermissionlessValidatorTx`, `MintOutput`).
            pub fn type_name(&self) -> &'static str {
                match self {
                    #( Self::#vids(_) => #type_names, )*
                }
            }

            #accessors
        }

        impl crate::codec::Encode for #id {
            fn encode(&self, w: &mut crate::codec::Writer) -> ::std::result::Result<(), crate::codec::RuleError> {
                w.u32(self.type_id());
                match self {
                    #( Self::#vids(v) => crate::codec::Encode::encode(v, w), )*
                }
            }
        }

        impl crate::codec::Decode for #id {
            fn decode(r: &mut crate::codec::Reader<'_>) -> ::std::result::Result<Self, crate::codec::DecodeError> {
                let at = r.offset();
                match r.u32()? {
                    #( #type_ids => ::std::result::Result::Ok(Self::#vids(crate::codec::Decode::decode(r)?)), )*
                    other => ::std::result::Result::Err(crate::codec::DecodeError::new(at, ::std::format!(#not_allowed, other)).of_kind(crate::codec::DecodeProblem::UnknownType(other))),
                }
            }
        }

        impl #id {
            /// The fx of the value (its package's, or the one the spec names), if it has one.
            pub fn fx_name(&self) -> ::std::option::Option<&'static str> {
                match self {
                    #( Self::#vids(_) => #fx_names, )*
                }
            }
        }

        impl crate::codec::ToJson for #id {
            fn to_json(&self, cx: &crate::codec::JsonContext) -> ::serde_json::Value {
                match self {
                    #( Self::#vids(v) => crate::codec::ToJson::to_json(v, cx), )*
                }
            }
        }

        impl #id {
            /// Each variant's JSON members, those older nodes leave out, and its fx: what
            /// tells the variants apart in JSON.
            const JSON_CANDIDATES: &'static [(&'static [&'static str], &'static [&'static str], ::std::option::Option<&'static str>)] = &[
                #( (<#paths as crate::codec::FromJsonMembers>::JSON_KEYS, <#paths as crate::codec::FromJsonMembers>::JSON_NEWER, #fx_names), )*
            ];
        }

        #oldest_json

        impl crate::codec::FromJson for #id {
            fn from_json(v: &::serde_json::Value, fx: ::std::option::Option<&str>) -> ::std::result::Result<Self, crate::codec::JsonError> {
                match crate::codec::json::variant_among(v, Self::JSON_CANDIDATES, fx)? {
                    #( #positions => ::std::result::Result::Ok(Self::#vids(crate::codec::FromJson::from_json(v, fx)?)), )*
                    other => ::std::result::Result::Err(crate::codec::JsonError::new(::std::format!("no variant {other}"))),
                }
            }
        }

        impl crate::codec::Verify for #id {
            fn verify(&self) -> ::std::result::Result<(), crate::codec::RuleError> {
                match self {
                    #( Self::#vids(v) => crate::codec::Verify::verify(v), )*
                }
            }
        }

        #(
            impl ::std::convert::From<#paths> for #id {
                fn from(v: #paths) -> Self {
                    Self::#vids(#wrap)
                }
            }
        )*
    }
}

/// The methods of a slot enum reading the members its variants share
/// ([`shared_members`](super::names::shared_members)).
fn accessors(k: &Codec, slot: &SlotNames) -> TokenStream {
    let methods = slot.accessors.iter().map(|a| {
        let id = ident(&a.ident);
        let t = rust_type(Some(k), &a.layout);
        let wire = format!("`{}` (`{}`)", a.spec_name, a.layout.spec_text());
        let vids = slot.variants.iter().map(|v| ident(&v.ident));
        if a.in_every_variant() {
            let d = doc(&format!("The {wire} member, which every variant has."));
            quote! {
                #d
                pub fn #id(&self) -> &#t {
                    match self {
                        #( Self::#vids(v) => &v.#id, )*
                    }
                }
            }
        } else {
            let having = slot
                .variants
                .iter()
                .zip(&a.present)
                .filter(|(_, p)| **p)
                .map(|(v, _)| format!("`{}`", v.ident))
                .collect::<Vec<_>>()
                .join(", ");
            let d = doc(&format!(
                "The {wire} member of the variants that have it ({having}); `None` for the others."
            ));
            let arms = slot.variants.iter().zip(&a.present).map(|(v, p)| {
                let vid = ident(&v.ident);
                if *p {
                    quote!(Self::#vid(v) => ::std::option::Option::Some(&v.#id),)
                } else {
                    quote!(Self::#vid(_) => ::std::option::Option::None,)
                }
            });
            quote! {
                #d
                pub fn #id(&self) -> ::std::option::Option<&#t> {
                    match self {
                        #( #arms )*
                    }
                }
            }
        }
    });
    quote!(#(#methods)*)
}

/// A root's `id()`, by the rule the spec gives it.
fn root_id(c: &Codecs, kn: &CodecNames, root: &Root) -> TokenStream {
    let whole = quote! {
        /// The ID: SHA-256 of the bytes.
        pub fn id(&self) -> ::std::result::Result<crate::wire::Id, crate::codec::RuleError> {
            self.to_bytes().map(|b| crate::wire::Id::from_sha256(&b))
        }
    };
    match (root.id, &root.layout) {
        (None, _) => quote!(),
        (Some(RootId::Sha256), _) => whole,
        (Some(RootId::Sha256Unsigned), Layout::Slot(name)) => {
            let arms = kn.of_slot(name).variants.iter().map(|v| {
                let (t, v) = (&v.ty, ident(&v.ident));
                let signed = c
                    .get(t)
                    .and_then(|s| s.fields.last())
                    .is_some_and(|f| f.name == "signature" && f.layout == Layout::Bytes);
                if signed {
                    quote!(Self::#v(b) => 4 + b.signature.len(),)
                } else {
                    quote!(Self::#v(_) => 0,)
                }
            });
            quote! {
                /// The ID: SHA-256 of the bytes without the trailing signature field (its
                /// length prefix included), where the value has one.
                pub fn id(&self) -> ::std::result::Result<crate::wire::Id, crate::codec::RuleError> {
                    let bytes = self.to_bytes()?;
                    let tail = match self {
                        #(#arms)*
                    };
                    ::std::result::Result::Ok(crate::wire::Id::from_sha256(&bytes[..bytes.len() - tail]))
                }
            }
        }
        (Some(RootId::Sha256Unsigned), _) => whole,
    }
}

/// `from_bytes` and `to_bytes` on a root.
fn root_impl(c: &Codecs, k: &Codec, kn: &CodecNames, root: &Root) -> TokenStream {
    let (l, max_size, summary) = (&root.layout, root.max_size, root.summary.as_str());
    let t = rust_type(Some(k), l);
    let id = root_id(c, kn, root);
    let version = k.version;
    let max = Literal::u64_unsuffixed(max_size);
    let from = doc(&format!(
        "Decodes {} from its bytes as the node sends them: codec version {version}, the value, nothing after it, at most {max_size} bytes in all.",
        lower_first(summary)
    ));
    quote! {
        impl #t {
            #from
            pub fn from_bytes(bytes: &[u8]) -> ::std::result::Result<Self, crate::codec::DecodeError> {
                crate::codec::from_framed(bytes, #version, #max)
            }

            /// The bytes as the node writes them: the codec version, then the value.
            pub fn to_bytes(&self) -> ::std::result::Result<::std::vec::Vec<u8>, crate::codec::RuleError> {
                crate::codec::to_framed(self, #version, #max)
            }

            #id
        }

        impl crate::codec::Root for #t {
            fn decode_root(bytes: &[u8]) -> ::std::result::Result<Self, crate::codec::DecodeError> {
                Self::from_bytes(bytes)
            }

            fn encode_root(&self) -> ::std::result::Result<::std::vec::Vec<u8>, crate::codec::RuleError> {
                self.to_bytes()
            }
        }
    }
}

fn lower_first(s: &str) -> String {
    let s = s.trim_end_matches('.');
    let mut c = s.chars();
    match c.next() {
        Some(f) if !s.starts_with("UTXO") => f.to_lowercase().collect::<String>() + c.as_str(),
        _ => s.to_string(),
    }
}
