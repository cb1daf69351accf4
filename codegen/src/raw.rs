//! The spec files exactly as written: serde structs that reject unknown keys.
//!
//! Nothing here is checked beyond YAML shape; `lower` turns these into the model. Named
//! schemas, wire types and methods are decoded one at a time (`IgnoredAny` marks where), so
//! that one malformed entry neither hides the problems of the others nor the names it defines.

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::Value;
use std::fmt;

/// A YAML mapping that keeps its order and rejects duplicate keys.
#[derive(Debug, Clone)]
pub struct OrderedMap<V>(pub Vec<(String, V)>);

impl<V> Default for OrderedMap<V> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for OrderedMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V2<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for V2<V> {
            type Value = OrderedMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out: Vec<(String, V)> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if out.iter().any(|(k, _)| *k == key) {
                        return Err(serde::de::Error::custom(format!("duplicate key `{key}`")));
                    }
                    let value = map.next_value()?;
                    out.push((key, value));
                }
                Ok(OrderedMap(out))
            }
        }
        d.deserialize_map(V2(std::marker::PhantomData))
    }
}

/// What JSON a wire type is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JsonKind {
    String,
    Number,
    Boolean,
    Any,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireType {
    pub summary: String,
    pub json: JsonKind,
    #[serde(default)]
    pub accepts: Vec<JsonKind>,
    pub pattern: Option<String>,
    pub max: Option<u64>,
    pub rust: String,
    pub example: Value,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deprecated {
    pub since: String,
    /// Not allowed here: `removed` sits next to `since` on the method or member. Read only to
    /// say so.
    pub removed: Option<IgnoredAny>,
    pub note: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "AlternativeKeys")]
pub enum Alternative {
    /// The value may arrive as the bare value of this field.
    Bare(String),
    /// The value may arrive wrapped as `{key: value}`.
    WrappedIn(String),
}

/// `{ bare: f }` or `{ wrapped-in: k }` as written (serde_yaml reads enums only from tags).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct AlternativeKeys {
    bare: Option<String>,
    wrapped_in: Option<String>,
}

impl TryFrom<AlternativeKeys> for Alternative {
    type Error = String;
    fn try_from(k: AlternativeKeys) -> std::result::Result<Self, String> {
        match (k.bare, k.wrapped_in) {
            (Some(f), None) => Ok(Alternative::Bare(f)),
            (None, Some(w)) => Ok(Alternative::WrappedIn(w)),
            _ => Err("an alternative is either `{ bare: FIELD }` or `{ wrapped-in: KEY }`".into()),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub summary: String,
    pub description: Option<String>,
    #[serde(default)]
    pub optional: bool,
    pub default: Option<Value>,
    #[serde(default)]
    pub nullable: bool,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub deprecated: Option<Deprecated>,
    pub note: Option<String>,
    /// The node version that added this member (`v1.10.19`); absent when every supported
    /// node version has it.
    pub since: Option<String>,
    /// The first node version that no longer has this member.
    pub removed: Option<String>,
    /// The bytes (or JSON form) hold a value of the codec: `<codec> <root>`, e.g.
    /// `platform platform.Tx`.
    pub codec: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumValue {
    pub value: String,
    pub summary: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schema {
    pub summary: String,
    pub description: Option<String>,
    pub fields: Option<Vec<Field>>,
    pub values: Option<Vec<EnumValue>>,
    #[serde(rename = "type")]
    pub ty: Option<String>,
    #[serde(default, rename = "also-accepts")]
    pub also_accepts: Vec<Alternative>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MethodResult {
    pub description: Option<String>,
    pub fields: Option<Vec<Field>>,
    #[serde(rename = "type")]
    pub ty: Option<String>,
    #[serde(default, rename = "also-accepts")]
    pub also_accepts: Vec<Alternative>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorCase {
    pub code: Option<i64>,
    pub message: String,
    pub when: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    pub name: String,
    pub summary: Option<String>,
    #[serde(default = "empty_object")]
    pub params: Value,
    pub result: Value,
    pub normalized: Option<Value>,
}

fn empty_object() -> Value {
    Value::Object(Default::default())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Method {
    pub name: String,
    pub summary: String,
    pub description: Option<String>,
    pub deprecated: Option<Deprecated>,
    pub source: Option<String>,
    /// The node version that added this method; absent when every supported version serves it.
    pub since: Option<String>,
    /// The first node version that no longer serves this method.
    pub removed: Option<String>,
    /// A server that keeps serving it after `removed` on purpose, and why.
    #[serde(rename = "still-served")]
    pub still_served: Option<StillServed>,
    /// The method changes the node's state (issues a transaction): tools that only look, as
    /// the conformance check, never call it.
    #[serde(default, rename = "changes-state")]
    pub changes_state: bool,
    /// The method returns a list one page at a time: how to ask for the next page.
    pub pagination: Option<Pagination>,
    #[serde(default)]
    pub params: Vec<Field>,
    pub result: MethodResult,
    #[serde(default)]
    pub errors: Vec<ErrorCase>,
    #[serde(default)]
    pub examples: Vec<Example>,
}

/// `still-served:` of a removed method: which server (a `source` with an interface of its
/// own: `devnet`) keeps serving it on purpose, and why.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StillServed {
    pub by: String,
    pub why: String,
}

/// `pagination:` of a method: which result member holds a page's items and how the next
/// page is asked for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Pagination {
    /// The result member whose list is the page.
    pub items: String,
    /// The param that sets a page's size, and the node's largest page.
    pub page_size: Option<PageSize>,
    /// The param that says where the next page starts.
    pub cursor: Option<PageCursor>,
    /// An item may come again on a later page.
    #[serde(default)]
    pub may_repeat: bool,
    /// Errors (messages of `errors:`) that mean "no more pages" after a full page.
    #[serde(default)]
    pub ends_with: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageSize {
    pub param: String,
    pub max: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageCursor {
    pub param: String,
    /// The result member the next page's `param` is copied from.
    pub from: Option<String>,
    /// The next page's `param` is this page's plus the number of items.
    #[serde(default)]
    pub offset: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathParam {
    pub summary: String,
    pub default: Option<String>,
    #[serde(default)]
    pub examples: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Interface {
    pub name: String,
    pub title: String,
    pub namespace: String,
    /// What joins the namespace and a method's name on the wire: `.` (default) or `_`
    /// (`eth_chainId`).
    pub separator: Option<String>,
    /// How the methods take their params: `by-name` (default, an object) or `positional`
    /// (an array, in the order the params are declared).
    pub params: Option<String>,
    pub path: String,
    #[serde(default)]
    pub path_params: OrderedMap<PathParam>,
    #[serde(default)]
    pub also_served_at: Vec<String>,
    /// Who serves every method of the interface (`devnet`), unless a method says otherwise.
    pub source: Option<String>,
    /// The node's flag without which it does not serve the interface at all (answers HTTP
    /// 404 at its path): `--api-admin-enabled`, `--index-enabled`.
    pub enabled_by: Option<String>,
    pub summary: String,
    pub description: Option<String>,
    /// Each a [`Schema`], decoded on its own.
    #[serde(default)]
    pub schemas: OrderedMap<IgnoredAny>,
    /// Each a [`Method`], decoded on its own.
    pub methods: Vec<IgnoredAny>,
}

/// `versions.yaml`: which node versions the spec describes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Versions {
    /// The oldest node version whose replies the client must decode.
    pub oldest_supported: String,
    /// The node version the spec was last checked against.
    pub checked_against: String,
}
