//! The Rust names of the generated items, computed once: module, trait, struct, method and
//! constant names per interface and method, and the names of fields, setters and enum variants;
//! for the binary codec, the module of each codec and package, and per slot the variants, the
//! type names they answer and the accessors of the members they share.
//! Every Rust emitter takes its names from here.
//!
//! [`check`] holds the Rust naming rules: two spec names that become one Rust name, names the
//! generated crate keeps for itself, and keywords. The generated code writes every outside
//! item by its full path (`::std::option::Option`, `crate::wire::U64`), so no other name is
//! taken.

use crate::codec::model::{Codec, Codecs, Layout, TypeRef};
use crate::error::SpecError;
use crate::model::*;
use crate::naming;

/// The names of every interface and every codec, in spec order.
#[derive(Debug, Clone)]
pub struct Names {
    pub interfaces: Vec<InterfaceNames>,
    pub codecs: Vec<CodecNames>,
}

/// The items of one interface module.
#[derive(Debug, Clone)]
pub struct InterfaceNames {
    /// The interface's spec name, `avm-static`.
    pub spec_name: String,
    /// Its module, and the `Node` accessor of the same name: `avm_static`.
    pub module: String,
    pub client: String,
    pub endpoint: String,
    pub server: String,
    pub service: String,
    /// The path variables as function parameters, in path order.
    pub path_vars: Vec<String>,
    pub methods: Vec<MethodNames>,
}

/// The items of one method.
#[derive(Debug, Clone)]
pub struct MethodNames {
    /// The method's spec name, `getUTXOs`.
    pub spec_name: String,
    /// Its trait method: `get_utxos`.
    pub ident: String,
    /// Its descriptor in `methods`: `GET_UTXOS`.
    pub konst: String,
    /// Its params struct: `GetUtxosParams`.
    pub params: String,
    /// Its result type: `GetUtxosResult`.
    pub result: String,
    /// Its stream of items, for a paged method: `get_utxos_stream`.
    pub stream: Option<String>,
}

/// The items of one codec's module (`crate::codec::platform`).
#[derive(Debug, Clone)]
pub struct CodecNames {
    /// The codec's spec name, `warp-l1`.
    pub spec_name: String,
    /// Its module: `warp_l1`.
    pub module: String,
    /// Its slots, in spec order.
    pub slots: Vec<SlotNames>,
}

/// The enum of one slot of a codec.
#[derive(Debug, Clone)]
pub struct SlotNames {
    /// The slot's spec name, `UnsignedTx`; also the enum's name.
    pub spec_name: String,
    /// One per type the slot allows, in spec order.
    pub variants: Vec<VariantNames>,
    /// The accessors of the members its variants share (see [`shared_members`]).
    pub accessors: Vec<Accessor>,
}

/// One variant of a slot enum.
#[derive(Debug, Clone)]
pub struct VariantNames {
    /// The type it holds.
    pub ty: TypeRef,
    /// The variant: the type's name, or package and name where two types of the slot share
    /// a name (`Secp256k1fxMintOutput`, `NftfxMintOutput`).
    pub ident: String,
    /// What its `type_name()` answers: the type's name as the spec writes it, without its
    /// package (`AddPermissionlessValidatorTx`, `MintOutput`).
    pub type_name: String,
}

/// A method of a slot enum reading a member that several of its variants hold.
#[derive(Debug, Clone)]
pub struct Accessor {
    /// The method, and the field it reads: `base`, `subnet_id`.
    pub ident: String,
    /// The member's spec name: `subnetID`.
    pub spec_name: String,
    /// Its layout, the same in every variant that has it.
    pub layout: Layout,
    /// Per variant, in order: whether it has the member.
    pub present: Vec<bool>,
}

impl Accessor {
    /// Every variant has the member (the accessor returns `&T`, else `Option<&T>`).
    pub fn in_every_variant(&self) -> bool {
        self.present.iter().all(|p| *p)
    }
}

/// The methods a slot enum has of its own or through the traits it implements: no accessor
/// takes their names (an inherent method would hide a trait's).
const SLOT_METHODS: [&str; 31] = [
    // Its own, and a root's.
    "type_id",
    "type_name",
    "fx_name",
    "from_bytes",
    "to_bytes",
    "id",
    // The codec's traits.
    "encode",
    "decode",
    "verify",
    "to_json",
    "from_json",
    "decode_root",
    "encode_root",
    // The derived and blanket traits.
    "clone",
    "clone_from",
    "fmt",
    "eq",
    "ne",
    "partial_cmp",
    "lt",
    "le",
    "gt",
    "ge",
    "cmp",
    "max",
    "min",
    "clamp",
    "hash",
    "from",
    "into",
    "to_owned",
];

/// The crate-root and `Node` names the generated crate keeps for itself.
const RESERVED_MODULES: [&str; 7] = [
    "types",
    "rpc",
    "wire",
    "new",
    "http",
    "transport",
    "__private",
];

impl Names {
    pub fn of(spec: &Spec) -> Names {
        Names {
            interfaces: spec
                .interfaces
                .iter()
                .map(|i| {
                    let base = naming::pascal(&i.name);
                    InterfaceNames {
                        spec_name: i.name.clone(),
                        module: interface_module(&i.name),
                        client: format!("{base}Client"),
                        endpoint: format!("{base}Endpoint"),
                        server: format!("{base}Server"),
                        service: format!("{base}Service"),
                        path_vars: i
                            .path_params
                            .iter()
                            .map(|p| naming::snake(&p.name))
                            .collect(),
                        methods: i.methods.iter().map(MethodNames::of).collect(),
                    }
                })
                .collect(),
            codecs: spec
                .codec
                .codecs
                .iter()
                .map(|k| codec_names(&spec.codec, k))
                .collect(),
        }
    }

    /// The names of codec `k`.
    pub fn of_codec(&self, k: &Codec) -> &CodecNames {
        self.codecs
            .iter()
            .find(|n| n.spec_name == k.name)
            .expect("every codec of the spec has names")
    }

    /// The names of interface `i`.
    pub fn of_interface(&self, i: &Interface) -> &InterfaceNames {
        self.interfaces
            .iter()
            .find(|n| n.spec_name == i.name)
            .expect("every interface of the spec has names")
    }
}

impl MethodNames {
    /// The names of method `m`.
    pub fn of(m: &Method) -> MethodNames {
        MethodNames {
            spec_name: m.name.clone(),
            ident: naming::snake(&m.name),
            konst: naming::screaming(&m.name),
            params: naming::params_type(&m.name),
            result: m.result.name.clone(),
            stream: m
                .pagination
                .as_ref()
                .map(|_| format!("{}_stream", naming::snake(&m.name))),
        }
    }
}

impl InterfaceNames {
    /// The names of method `m` of this interface.
    pub fn of_method(&self, m: &Method) -> &MethodNames {
        self.methods
            .iter()
            .find(|n| n.spec_name == m.name)
            .expect("every method of the spec has names")
    }
}

impl CodecNames {
    /// The names of slot `name` of this codec.
    pub fn of_slot(&self, name: &str) -> &SlotNames {
        self.slots
            .iter()
            .find(|n| n.spec_name == name)
            .expect("every slot of the codec has names")
    }
}

/// The module of an interface, and its `Node` accessor: `avm-static` → `avm_static`.
pub fn interface_module(name: &str) -> String {
    naming::snake(name)
}

/// The result type of a method: `getUTXOs` → `GetUtxosResult`.
pub fn result_type(method: &str) -> String {
    format!("{}Result", naming::pascal(method))
}

/// The module of a codec or a package of `spec/codec/` (`warp-l1` → `warp_l1`).
pub fn codec_module(name: &str) -> String {
    naming::snake(name)
}

/// A codec struct's field, and the accessor of a shared member: `subnetID` → `subnet_id`.
pub fn codec_field(name: &str) -> String {
    naming::snake(name)
}

fn codec_names(c: &Codecs, k: &Codec) -> CodecNames {
    CodecNames {
        spec_name: k.name.clone(),
        module: codec_module(&k.name),
        slots: k
            .slots
            .iter()
            .map(|slot| SlotNames {
                spec_name: slot.name.clone(),
                variants: slot
                    .types
                    .iter()
                    .map(|t| VariantNames {
                        ty: t.clone(),
                        ident: if slot.types.iter().filter(|o| o.name == t.name).count() > 1 {
                            format!("{}{}", naming::pascal(&t.package), t.name)
                        } else {
                            t.name.clone()
                        },
                        type_name: t.name.clone(),
                    })
                    .collect(),
                accessors: shared_members(c, &slot.types),
            })
            .collect(),
    }
}

/// The accessors of a slot enum: one per field (by its Rust name) that at least two of the
/// slot's types have, with one layout in every type that has it, unless the enum keeps the
/// name for a method of its own (`SLOT_METHODS`). In the order the fields first appear.
/// Fields of one layout have one Rust type within a codec, so the accessor returns `&T`
/// when every type has the field, and `Option<&T>` when only some do.
pub fn shared_members(c: &Codecs, types: &[TypeRef]) -> Vec<Accessor> {
    let structs: Vec<_> = types.iter().map(|t| c.get(t)).collect();
    let mut out: Vec<Accessor> = Vec::new();
    // Names two types hold with different layouts: no accessor.
    let mut refused: Vec<String> = Vec::new();
    for (k, s) in structs.iter().enumerate() {
        for f in s.iter().flat_map(|s| &s.fields) {
            let ident = codec_field(&f.name);
            if refused.contains(&ident) || out.iter().any(|a| a.ident == ident) {
                continue;
            }
            let mut present = vec![false; types.len()];
            let mut same = true;
            for (j, other) in structs.iter().enumerate().skip(k) {
                if let Some(g) = other
                    .iter()
                    .flat_map(|o| &o.fields)
                    .find(|g| codec_field(&g.name) == ident)
                {
                    present[j] = true;
                    same &= g.layout == f.layout;
                }
            }
            if !same {
                refused.push(ident);
            } else if present.iter().filter(|p| **p).count() >= 2
                && !SLOT_METHODS.contains(&ident.trim_start_matches("r#"))
            {
                out.push(Accessor {
                    ident,
                    spec_name: f.name.clone(),
                    layout: f.layout.clone(),
                    present,
                });
            }
        }
    }
    out
}

/// A struct member's name: `txID` → `tx_id`, `type` → `r#type`, `self` → `self_`.
pub fn field(f: &Field) -> String {
    naming::snake(&f.name)
}

/// The accessor that decodes a member holding a codec value: `tx_decoded`.
pub fn decoded_accessor(f: &Field) -> String {
    format!("{}_decoded", field(f).trim_start_matches("r#"))
}

/// A member's setter: `with_tx_id`, `with_type`, `with_self`.
pub fn setter(f: &Field) -> String {
    format!(
        "with_{}",
        field(f).trim_start_matches("r#").trim_end_matches('_')
    )
}

/// An enumeration value's variant: `Committed`, `Self_`.
pub fn variant(v: &EnumValue) -> String {
    naming::variant(&v.value)
}

/// Every place where the spec's names do not make valid, distinct Rust names.
pub fn check(spec: &Spec) -> Vec<SpecError> {
    let names = Names::of(spec);
    let mut out = Vec::new();
    for w in &spec.wire_types {
        if !is_rust_ident(&w.rust) {
            out.push(SpecError::new(
                &w.origin,
                format!(
                    "`rust: {}` must name a runtime type (letters, digits and `_`)",
                    w.rust
                ),
            ));
        }
    }
    for s in &spec.schemas {
        schema(s, &mut out);
    }
    let mut modules: Vec<(&str, &Interface)> = Vec::new();
    for (i, n) in spec.interfaces.iter().zip(&names.interfaces) {
        if RESERVED_MODULES.contains(&n.module.as_str()) {
            out.push(SpecError::new(
                &i.origin,
                format!(
                    "the interface name `{}` is taken in the generated crate (`types`, `rpc`, `wire`, `Node::new`, `Node::http`, `Node::transport`)",
                    i.name
                ),
            ));
        }
        match modules.iter().find(|(m, _)| *m == n.module) {
            Some((_, other)) => out.push(SpecError::new(
                &i.origin,
                format!(
                    "`{}` and `{}` both become the Rust module `{}`",
                    i.name, other.name, n.module
                ),
            )),
            None => modules.push((&n.module, i)),
        }
        for (p, var) in i.path_params.iter().zip(&n.path_vars) {
            // Generated functions take the variables next to these parameters.
            if matches!(var.as_str(), "transport" | "server") {
                out.push(SpecError::new(
                    &p.origin,
                    format!(
                        "`{{{}}}` is taken by a generated parameter; rename it",
                        p.name
                    ),
                ));
            }
        }
        // The types of the module: local schemas, then each method's params and result, then
        // the client and server items.
        let mut types: Vec<(String, &Origin, String)> = Vec::new();
        for s in &i.schemas {
            schema(s, &mut out);
            types.push((
                s.name.clone(),
                &s.origin,
                format!("the schema `{}`", s.name),
            ));
        }
        let mut idents: Vec<(&str, &Method)> = Vec::new();
        for (m, mn) in i.methods.iter().zip(&n.methods) {
            object(&m.params, &mut out);
            schema(&m.result, &mut out);
            match idents.iter().find(|(x, _)| *x == mn.ident) {
                Some((_, other)) => {
                    // Their types collide too: one problem, reported once.
                    out.push(SpecError::new(
                        &m.origin,
                        format!(
                            "`{}` and `{}` both become the Rust name `{}`",
                            m.name, other.name, mn.ident
                        ),
                    ));
                    continue;
                }
                None => idents.push((&mn.ident, m)),
            }
            let what = format!("a type of `{}`", m.wire_name);
            types.push((mn.params.clone(), &m.origin, what.clone()));
            types.push((mn.result.clone(), &m.origin, what));
            // (Two methods with one constant have one Rust name too: reported above.)
            if mn.konst == "ALL" {
                out.push(SpecError::new(
                    &m.origin,
                    "the name is taken by the generated list `methods::ALL`",
                ));
            }
        }
        for (m, mn) in i.methods.iter().zip(&n.methods) {
            if let Some(stream) = &mn.stream
                && let Some((_, other)) = idents.iter().find(|(x, _)| x == stream)
            {
                out.push(SpecError::new(
                    &other.origin,
                    format!(
                        "the Rust name `{stream}` is taken by the stream of the paged method `{}`",
                        m.name
                    ),
                ));
            }
        }
        for (item, what) in [
            (&n.client, "the client trait"),
            (&n.endpoint, "the client endpoint"),
            (&n.server, "the server trait"),
            (&n.service, "the server dispatcher"),
        ] {
            types.push((item.clone(), &i.origin, what.to_string()));
        }
        for (k, (name, origin, what)) in types.iter().enumerate() {
            if let Some((_, _, first)) = types[..k].iter().find(|(x, _, _)| x == name) {
                out.push(SpecError::new(
                    origin,
                    format!(
                        "{what} and {first} would both be the Rust type `{}::{name}`; rename one",
                        n.module
                    ),
                ));
            }
        }
    }
    out
}

fn schema(s: &Schema, out: &mut Vec<SpecError>) {
    if s.name == "Self" {
        out.push(SpecError::new(
            &s.origin,
            "`Self` is a Rust keyword and cannot name a type; choose another name",
        ));
    }
    match &s.body {
        Body::Object(fields) => object(fields, out),
        Body::Enum(values) => {
            let mut seen: Vec<(String, &EnumValue)> = Vec::new();
            for v in values {
                let id = variant(v);
                if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    out.push(SpecError::new(
                        &v.origin,
                        format!(
                            "enum value `{}` has no Rust name: use letters, digits and `_`, `-`, `.` or spaces between words",
                            v.value
                        ),
                    ));
                    continue;
                }
                if id == "Unrecognized" {
                    out.push(SpecError::new(
                        &v.origin,
                        format!(
                            "enum value `{}` takes the Rust name `Unrecognized`, which every enumeration keeps for values it does not know",
                            v.value
                        ),
                    ));
                }
                match seen.iter().find(|(x, _)| *x == id) {
                    Some((_, other)) => out.push(SpecError::new(
                        &v.origin,
                        format!(
                            "enum values `{}` and `{}` both become the Rust variant `{id}`",
                            v.value, other.value
                        ),
                    )),
                    None => seen.push((id, v)),
                }
            }
        }
        Body::Alias(_) => {}
    }
}

fn object(fields: &[Field], out: &mut Vec<SpecError>) {
    let mut seen: Vec<(String, &Field)> = Vec::new();
    for f in fields {
        let id = field(f);
        match seen.iter().find(|(x, _)| *x == id) {
            Some((_, other)) => out.push(SpecError::new(
                &f.origin,
                format!(
                    "`{}` and `{}` both become the Rust name `{id}`",
                    f.name, other.name
                ),
            )),
            None => seen.push((id, f)),
        }
    }
}

fn is_rust_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_ascii_alphabetic() || f == '_')
        && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
