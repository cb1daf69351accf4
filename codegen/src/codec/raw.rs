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
    /// The package is a feature extension (fx): its ID is its name, zero-padded to 32 bytes.
    #[serde(default)]
    pub fx: bool,
    /// The node writes the JSON members of this package's types in alphabetical order.
    #[serde(default, rename = "json-order")]
    pub json_order: Option<String>,
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
    /// The fx the type belongs to, when its package is not one (a stakeable lock wrapping a
    /// secp256k1fx value).
    #[serde(default)]
    pub fx: Option<String>,
    /// Members of the node's JSON form that are not on the wire.
    #[serde(default, rename = "json-extra")]
    pub json_extra: Vec<JsonExtra>,
    /// The value's ID, from two of its fields: `prefix <id field> <index field>` is
    /// SHA-256(index as 8 bytes ‖ id), the node's `Prefix` (a UTXO's ID).
    #[serde(default)]
    pub id: Option<String>,
    pub fields: Vec<Field>,
}

/// A JSON-only member: its name, what it holds, and where it goes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonExtra {
    pub name: String,
    /// `fx-of <field>` (the fx ID of the slot value in the field), `fx-at <field>` (the fx
    /// ID at that index of the codec's fx list) or `id` (the ID of the value's bytes).
    pub value: String,
    /// Written just before this field's members (default: after all of them).
    #[serde(default)]
    pub before: Option<String>,
    /// Written just after this field's members.
    #[serde(default)]
    pub after: Option<String>,
    /// The first node release whose JSON form has the member (`v1.10.1`).
    #[serde(default)]
    pub since: Option<String>,
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
    /// How the node writes the value in JSON when it is not the default for the type:
    /// `cb58` (a short ID as cb58, not an address), `base64`, `numbers` (bytes as an array of
    /// numbers), `hex`.
    #[serde(default, rename = "json-form")]
    pub json_form: Option<String>,
    /// The first node release whose JSON form has the member (`v1.10.18`); older nodes leave
    /// it out of the JSON form (the bytes always hold the field).
    #[serde(default)]
    pub since: Option<String>,
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
    /// The chain's fx packages in order (what an `fxIndex` counts).
    #[serde(default)]
    pub fxs: Vec<String>,
    /// `zero`: the node's JSON form writes every `fxID` as the zero ID (it never sets them:
    /// the C-chain's atomic transactions).
    #[serde(default, rename = "json-fx-ids")]
    pub json_fx_ids: Option<String>,
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
    /// How the value's ID follows from its bytes: `sha256` (of all of them) or
    /// `sha256-unsigned` (of all but a trailing `signature` field).
    #[serde(default)]
    pub id: Option<String>,
}
