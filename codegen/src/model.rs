//! The validated spec: one model that every emitter reads.

pub use crate::positions::Origin;
pub use crate::version::Version;
use serde_json::Value;

/// What JSON a wire type is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    String,
    Number,
    Boolean,
    Any,
}

/// A deprecation: since which node version, and what to use instead.
#[derive(Debug, Clone)]
pub struct Deprecated {
    pub since: Version,
    pub note: Option<String>,
}

/// A form of a value that the client also reads (`also-accepts`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Alternative {
    /// The value may arrive as the bare value of this field.
    Bare(String),
    /// The value may arrive wrapped as `{key: value}`.
    WrappedIn(String),
}

/// The whole API.
#[derive(Debug)]
pub struct Spec {
    /// Which node versions the spec describes (`versions.yaml`).
    pub versions: Versions,
    pub wire_types: Vec<WireType>,
    /// Schemas shared by several interfaces (`spec/schemas/`).
    pub schemas: Vec<Schema>,
    pub interfaces: Vec<Interface>,
    /// The binary layouts (`spec/codec/`); empty when the spec has none.
    pub codec: crate::codec::model::Codecs,
    /// The one node version this model describes (`for_node`): what that version did not
    /// serve is left out. `None`: every version, each method and member with its versions.
    pub node_version: Option<Version>,
}

/// Which node versions the spec describes.
#[derive(Debug, Clone, Default)]
pub struct Versions {
    /// The client decodes replies of this node version and every later one: a member or
    /// method added after it (`since`) is optional to the client.
    pub oldest_supported: Version,
    /// The node version the spec was last checked against, if stated.
    pub checked_against: Option<Version>,
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
    pub origin: Origin,
    /// Where `example` is written.
    pub example_origin: Origin,
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
    /// Where each of `also_accepts` is written.
    pub also_accepts_origins: Vec<Origin>,
    pub origin: Origin,
}

impl Schema {
    /// The member named `name` (its wire name), when the schema is an object.
    pub fn member(&self, name: &str) -> Option<&Field> {
        match &self.body {
            Body::Object(fields) => fields.iter().find(|f| f.name == name),
            _ => None,
        }
    }
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
    pub origin: Origin,
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
    /// The node version that added it; `None` when every supported version has it.
    pub since: Option<Version>,
    /// The first node version that no longer has it; `None` while current nodes have it.
    pub removed: Option<Version>,
    /// Added after the oldest supported node version: an older node leaves it out, so the
    /// client reads it as optional although the server always writes it.
    pub newer_than_oldest: bool,
    /// The bytes (or JSON form) hold a value of this codec root.
    pub codec: Option<CodecRef>,
    pub origin: Origin,
    /// Where `default` is written.
    pub default_origin: Option<Origin>,
}

/// A root of a codec of `spec/codec/`: the codec's name and the root as the codec file writes
/// it (`platform.Tx`, `any<Block>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodecRef {
    pub codec: String,
    pub root: String,
}

impl Field {
    /// Carried as `Option<T>` in Rust: the node may leave it out or write `null`, or an
    /// older supported node does not know it.
    pub fn is_option(&self) -> bool {
        self.optional || self.nullable || self.absent_from_some_node()
    }

    /// A supported node leaves it out although current nodes write it (or did): it was added
    /// after the oldest supported version, or removed since.
    pub fn absent_from_some_node(&self) -> bool {
        self.newer_than_oldest || self.removed.is_some()
    }

    /// Must be given to build a value (`new(...)` takes it): the node always writes it.
    pub fn is_required(&self) -> bool {
        !self.optional && !self.nullable
    }
}

#[derive(Debug)]
pub struct PathParam {
    pub name: String,
    pub summary: String,
    pub default: Option<String>,
    pub examples: Vec<String>,
    pub origin: Origin,
}

#[derive(Debug)]
pub struct Interface {
    pub name: String,
    pub title: String,
    pub namespace: String,
    /// What joins the namespace and a method's name on the wire (`.`, or `_` for `eth_`).
    pub separator: String,
    /// The methods take their params as a JSON array in declared order (`params:
    /// positional`), not as an object.
    pub positional: bool,
    /// May hold `{variables}`, listed in `path_params` in order of appearance.
    pub path: String,
    pub path_params: Vec<PathParam>,
    pub also_served_at: Vec<String>,
    /// The node's flag without which it answers HTTP 404 at the interface's path
    /// (`--api-admin-enabled`).
    pub enabled_by: Option<String>,
    pub summary: String,
    pub description: Option<String>,
    pub schemas: Vec<Schema>,
    pub methods: Vec<Method>,
    /// The file it came from, relative to the spec folder.
    pub file: String,
    /// Where its `name` is written.
    pub origin: Origin,
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
    /// The node version that added it; `None` when every supported version serves it.
    pub since: Option<Version>,
    /// The first node version that no longer serves it; `None` while current nodes do.
    pub removed: Option<Version>,
    /// A server that keeps serving it after `removed` on purpose, and why.
    pub still_served: Option<StillServed>,
    /// The method changes the node's state (issues a transaction).
    pub changes_state: bool,
    /// Its params travel as a JSON array in declared order (its interface's `params:
    /// positional`).
    pub positional: bool,
    /// The method returns a list one page at a time.
    pub pagination: Option<Pagination>,
    pub params: Vec<Field>,
    /// The result as a schema named `<Method>Result` (an object, or an alias of a type).
    pub result: Schema,
    pub errors: Vec<ErrorCase>,
    pub examples: Vec<Example>,
    pub origin: Origin,
}

/// A server that keeps serving a removed method on purpose (`still-served:`): a conformance
/// check against that server reports the method as a documented notice, not drift.
#[derive(Debug, Clone)]
pub struct StillServed {
    /// The server: a `source` whose own interface the spec describes (`devnet`).
    pub by: String,
    /// Why it does.
    pub why: String,
}

/// How a method's list comes page by page (`pagination:`), checked against its params and
/// result.
#[derive(Debug, Clone)]
pub struct Pagination {
    /// The result member (wire name) whose list is the page; `list<T>`, maybe nullable.
    pub items: String,
    /// The param (wire name, a `u32` or `u64`) that sets a page's size, and the node's
    /// largest page, the streams' default. `None`: one reply holds every item.
    pub page_size: Option<PageSize>,
    /// How the next page is asked for; `None`: one reply holds every item.
    pub cursor: Option<PageCursor>,
    /// An item may come again on a later page (streams drop repeats).
    pub may_repeat: bool,
    /// Messages of the method's `errors` that, after a full page, mean there is no next one.
    pub ends_with: Vec<String>,
    pub origin: Origin,
}

#[derive(Debug, Clone)]
pub struct PageSize {
    pub param: String,
    pub max: u64,
}

/// Where the next page starts.
#[derive(Debug, Clone)]
pub enum PageCursor {
    /// `param` takes the value of the result member `member` (`startIndex` ← `endIndex`).
    FromResult { param: String, member: String },
    /// `param` (a number) grows by the number of items of the page.
    Offset { param: String },
}

impl PageCursor {
    /// The param that carries the cursor.
    pub fn param(&self) -> &str {
        match self {
            PageCursor::FromResult { param, .. } | PageCursor::Offset { param } => param,
        }
    }
}

#[derive(Debug)]
pub struct ErrorCase {
    pub code: i64,
    pub message: String,
    pub when: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Example {
    pub name: String,
    pub summary: Option<String>,
    pub params: Value,
    pub result: Value,
    /// Set when `result` is a form only the client reads; what it reads as.
    pub normalized: Option<Value>,
    pub origin: Origin,
    /// Where `params`, `result` and `normalized` are written.
    pub params_origin: Origin,
    pub result_origin: Origin,
    pub normalized_origin: Origin,
}

impl Deprecated {
    /// "Deprecated since v1.9.12; removed from the node in v1.13.1. Note."
    pub fn sentence(&self, removed: Option<Version>) -> String {
        let mut s = format!("Deprecated since {}", self.since);
        if let Some(r) = removed {
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
    /// The params with the required ones first, each group in spec order: the order a
    /// by-position listing must use (OpenRPC requires it).
    pub fn params_required_first(&self) -> impl Iterator<Item = &Field> {
        let required = self.params.iter().filter(|p| !p.optional);
        required.chain(self.params.iter().filter(|p| p.optional))
    }

    /// Served by the node but absent from the API description (`source: node`).
    pub fn is_node_only(&self) -> bool {
        self.source.as_deref() == Some("node")
    }

    /// Served only by this project's devnet, not by a node (`source: devnet`).
    pub fn is_devnet_only(&self) -> bool {
        self.source.as_deref() == Some("devnet")
    }

    /// "Deprecated since v1.9.12; removed from the node in v1.13.1. Note.", or "Removed from
    /// the node in v1.13.1." when it was removed without a deprecation.
    pub fn deprecation(&self) -> Option<String> {
        deprecation(self.deprecated.as_ref(), self.removed)
    }
}

impl Field {
    /// As [`Method::deprecation`], for a member.
    pub fn deprecation(&self) -> Option<String> {
        deprecation(self.deprecated.as_ref(), self.removed)
    }
}

fn deprecation(d: Option<&Deprecated>, removed: Option<Version>) -> Option<String> {
    match (d, removed) {
        (Some(d), r) => Some(d.sentence(r)),
        (None, Some(r)) => Some(format!("Removed from the node in {r}.")),
        (None, None) => None,
    }
}

/// Did node `version` serve something added in `since` and removed in `removed`?
pub fn served_by(version: Version, since: Option<Version>, removed: Option<Version>) -> bool {
    since.is_none_or(|s| s <= version) && removed.is_none_or(|r| version < r)
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
