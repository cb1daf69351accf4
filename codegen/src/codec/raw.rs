//! The codec files as written: package files (`types:`) and `codecs.yaml` (`codecs:`).

use serde::Deserialize;
use std::collections::BTreeMap;

/// A package file: the types of one package of the node (`secp256k1fx`, `avm`, …).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Package {
    pub package: String,
    pub summary: String,
    /// Where the node defines these types (a folder of its repository).
    #[serde(default)]
    pub source: Option<String>,
    pub types: Vec<Type>,
}

/// A struct: its fields in wire order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Type {
    pub name: String,
    pub summary: String,
    #[serde(default)]
    pub description: Option<String>,
    pub fields: Vec<Field>,
}

/// One field, in wire order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub summary: String,
    /// The member's name in the node's JSON form, when it differs from `name`.
    #[serde(default)]
    pub json: Option<String>,
    /// The struct's fields sit at this place, without a name of their own (Go embedding).
    #[serde(default)]
    pub inline: bool,
    /// The order a list's elements must be in.
    #[serde(default)]
    pub order: Option<String>,
    #[serde(default)]
    pub min: Option<u64>,
    #[serde(default)]
    pub max: Option<u64>,
    #[serde(default, rename = "max-len")]
    pub max_len: Option<u64>,
    #[serde(default)]
    pub len: Option<u64>,
}

/// `codecs.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodecsFile {
    pub codecs: Vec<Codec>,
}

/// One codec: its type numbering, its slots and its roots.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Codec {
    pub name: String,
    pub summary: String,
    #[serde(default)]
    pub source: Option<String>,
    pub version: u16,
    #[serde(rename = "max-size")]
    pub max_size: u64,
    /// Type ID → qualified type name; `~` for an ID the codec skips.
    #[serde(rename = "type-ids")]
    pub type_ids: BTreeMap<u32, Option<String>>,
    /// Slot name → the qualified names of the types it may hold.
    pub slots: BTreeMap<String, Vec<String>>,
    pub roots: Vec<Root>,
}

/// A value that travels on its own, framed by the codec version.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Root {
    #[serde(rename = "type")]
    pub ty: String,
    pub summary: String,
    /// A larger limit than the codec's (the genesis codecs).
    #[serde(default, rename = "max-size")]
    pub max_size: Option<u64>,
}
