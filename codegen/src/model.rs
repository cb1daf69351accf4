//! The validated spec: one model that every emitter reads.

pub use crate::raw::{Alternative, Deprecated, JsonKind};
use serde_json::Value;

/// The whole API.
#[derive(Debug)]
pub struct Spec {
    pub wire_types: Vec<WireType>,
    /// Schemas shared by several interfaces (`spec/schemas/`).
    pub schemas: Vec<Schema>,
    pub interfaces: Vec<Interface>,
}

/// One entry of the wire vocabulary.
#[derive(Debug)]
pub struct WireType {
    pub name: String,
    pub summary: String,
    pub json: JsonKind,
    pub accepts: Vec<JsonKind>,
    pub pattern: Option<String>,
    pub regex: Option<regex::Regex>,
    pub max: Option<u64>,
    pub rust: String,
    pub example: Value,
}

/// Where a named schema is defined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    Shared,
    /// Local to the interface of this name.
    Interface(String),
}

/// A type expression, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeRef {
    Wire(String),
    Schema { name: String, scope: Scope },
    List(Box<TypeRef>),
    Map(Box<TypeRef>, Box<TypeRef>),
}

impl std::fmt::Display for TypeRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TypeRef::Wire(n) | TypeRef::Schema { name: n, .. } => f.write_str(n),
            TypeRef::List(t) => write!(f, "list<{t}>"),
            TypeRef::Map(k, v) => write!(f, "map<{k}, {v}>"),
        }
    }
}

#[derive(Debug)]
pub struct Schema {
    pub name: String,
    /// The file it is defined in, relative to the spec folder.
    pub file: String,
    pub summary: String,
    pub description: Option<String>,
    pub body: Body,
    pub also_accepts: Vec<Alternative>,
}

#[derive(Debug)]
pub enum Body {
    Object(Vec<Field>),
    Enum(Vec<EnumValue>),
    Alias(TypeRef),
}

#[derive(Debug)]
pub struct EnumValue {
    pub value: String,
    pub summary: String,
}

#[derive(Debug)]
pub struct Field {
    pub name: String,
    pub ty: TypeRef,
    pub summary: String,
    pub description: Option<String>,
    /// May be absent.
    pub optional: bool,
    /// Present but may be `null`.
    pub nullable: bool,
    pub default: Option<Value>,
    pub aliases: Vec<String>,
    pub deprecated: Option<Deprecated>,
    pub note: Option<String>,
}

impl Field {
    /// Carried as `Option<T>` in Rust.
    pub fn is_option(&self) -> bool {
        self.optional || self.nullable
    }
}

#[derive(Debug)]
pub struct PathParam {
    pub name: String,
    pub summary: String,
    pub default: Option<String>,
    pub examples: Vec<String>,
}

#[derive(Debug)]
pub struct Interface {
    pub name: String,
    pub title: String,
    pub namespace: String,
    /// May hold `{variables}`, listed in `path_params` in order of appearance.
    pub path: String,
    pub path_params: Vec<PathParam>,
    pub also_served_at: Vec<String>,
    pub summary: String,
    pub description: Option<String>,
    pub schemas: Vec<Schema>,
    pub methods: Vec<Method>,
    /// The file it came from, relative to the spec folder.
    pub file: String,
}

#[derive(Debug)]
pub struct Method {
    /// Name without the namespace: `getNodeID`.
    pub name: String,
    /// Name on the wire: `info.getNodeID`.
    pub wire_name: String,
    pub summary: String,
    pub description: Option<String>,
    pub deprecated: Option<Deprecated>,
    /// `node` when the node serves it but the description lacks it.
    pub source: Option<String>,
    pub params: Vec<Field>,
    /// The result as a schema named `<Method>Result` (an object, or an alias of a type).
    pub result: Schema,
    pub errors: Vec<ErrorCase>,
    pub examples: Vec<Example>,
}

#[derive(Debug)]
pub struct ErrorCase {
    pub code: i64,
    pub message: String,
    pub when: Option<String>,
}

#[derive(Debug)]
pub struct Example {
    pub name: String,
    pub summary: Option<String>,
    pub params: Value,
    pub result: Value,
    /// Set when `result` is a form only the client reads; what it reads as.
    pub normalized: Option<Value>,
}

impl Deprecated {
    /// "Deprecated since v1.9.12; removed from the node in v1.13.1. Note."
    pub fn sentence(&self) -> String {
        let mut s = format!("Deprecated since {}", self.since);
        if let Some(r) = &self.removed {
            s.push_str(&format!("; removed from the node in {r}"));
        }
        s.push('.');
        if let Some(n) = &self.note {
            s.push(' ');
            s.push_str(n.trim_end());
        }
        s
    }
}

impl Method {
    /// Served by the node but absent from the API description (`source: node`).
    pub fn is_node_only(&self) -> bool {
        self.source.as_deref() == Some("node")
    }
}

impl Spec {
    pub fn wire(&self, name: &str) -> Option<&WireType> {
        self.wire_types.iter().find(|w| w.name == name)
    }

    pub fn schema(&self, name: &str, scope: &Scope) -> Option<&Schema> {
        match scope {
            Scope::Shared => self.schemas.iter().find(|s| s.name == name),
            Scope::Interface(i) => self
                .interfaces
                .iter()
                .find(|x| &x.name == i)?
                .schemas
                .iter()
                .find(|s| s.name == name),
        }
    }

    pub fn methods(&self) -> impl Iterator<Item = (&Interface, &Method)> {
        self.interfaces
            .iter()
            .flat_map(|i| i.methods.iter().map(move |m| (i, m)))
    }
}
