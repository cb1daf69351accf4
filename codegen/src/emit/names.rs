//! The Rust names of the generated items, computed once: module, trait, struct, method and
//! constant names per interface and method, and the names of fields, setters and enum variants.
//! Every Rust emitter takes its names from here.
//!
//! [`check`] holds the Rust naming rules: two spec names that become one Rust name, names the
//! generated crate keeps for itself, and keywords. The generated code writes every outside
//! item by its full path (`::std::option::Option`, `crate::wire::U64`), so no other name is
//! taken.

use crate::error::SpecError;
use crate::model::*;
use crate::naming;

/// The names of every interface, in spec order.
#[derive(Debug, Clone)]
pub struct Names {
    pub interfaces: Vec<InterfaceNames>,
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
}

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
                        module: naming::snake(&i.name),
                        client: format!("{base}Client"),
                        endpoint: format!("{base}Endpoint"),
                        server: format!("{base}Server"),
                        service: format!("{base}Service"),
                        path_vars: i
                            .path_params
                            .iter()
                            .map(|p| naming::snake(&p.name))
                            .collect(),
                        methods: i
                            .methods
                            .iter()
                            .map(|m| MethodNames {
                                spec_name: m.name.clone(),
                                ident: naming::snake(&m.name),
                                konst: naming::screaming(&m.name),
                                params: naming::params_type(&m.name),
                                result: m.result.name.clone(),
                            })
                            .collect(),
                    }
                })
                .collect(),
        }
    }

    /// The names of interface `i`.
    pub fn of_interface(&self, i: &Interface) -> &InterfaceNames {
        self.interfaces
            .iter()
            .find(|n| n.spec_name == i.name)
            .expect("every interface of the spec has names")
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

/// A struct member's name: `txID` → `tx_id`, `type` → `r#type`, `self` → `self_`.
pub fn field(f: &Field) -> String {
    naming::snake(&f.name)
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
