//! The validated codec model: packages of structs, and codecs that number them.

use crate::positions::Origin;
use crate::version::Version;

/// Everything in `spec/codec/`; empty when the spec has no such folder.
#[derive(Debug, Clone, Default)]
pub struct Codecs {
    pub packages: Vec<Package>,
    pub codecs: Vec<Codec>,
}

/// The types of one package of the node.
#[derive(Debug, Clone)]
pub struct Package {
    pub name: String,
    pub summary: String,
    pub source: Option<String>,
    /// The package is a feature extension: its ID is its name, zero-padded to 32 bytes.
    pub fx: bool,
    pub types: Vec<Struct>,
}

/// A type, named `package.Name`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypeRef {
    pub package: String,
    pub name: String,
}

impl std::fmt::Display for TypeRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.package, self.name)
    }
}

/// A struct: fields in wire order, no prefix, no padding.
#[derive(Debug, Clone)]
pub struct Struct {
    pub name: TypeRef,
    pub summary: String,
    pub description: Option<String>,
    pub fields: Vec<Field>,
    /// The fx the type belongs to (its package's, or the one the spec names).
    pub fx: Option<String>,
    /// JSON-only members.
    pub json_extra: Vec<JsonExtra>,
    /// The node writes the JSON members in alphabetical order.
    pub json_alphabetical: bool,
    /// `prefix <id field> <index field>`: the value's ID is SHA-256(index as 8 bytes ‖ id).
    pub prefix_id: Option<(String, String)>,
    pub origin: Origin,
}

/// A member of the node's JSON form that is not on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonExtra {
    pub name: String,
    pub value: ExtraValue,
    pub place: ExtraPlace,
    /// The first node version whose JSON form has it.
    pub since: Option<Version>,
    /// Added after the oldest supported node version: an older node's JSON lacks it.
    pub newer_than_oldest: bool,
}

/// What a JSON-only member holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExtraValue {
    /// The fx ID of the slot value in this field.
    FxOf(String),
    /// The fx ID at the index this integer field gives, in the codec's fx list.
    FxAt(String),
    /// The ID of the value: SHA-256 of its bytes as its codec frames it.
    Id,
}

/// Where a JSON-only member goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExtraPlace {
    Before(String),
    After(String),
    End,
}

/// How the node writes a field in JSON, when not the default for its layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonForm {
    /// Short IDs as cb58 rather than chain-qualified addresses.
    Cb58,
    /// Bytes as `0x` hex (the default for bytes).
    Hex,
    /// Bytes as base64 (Go's default for `[]byte`).
    Base64,
    /// Bytes as an array of numbers (Go's default for a byte array).
    Numbers,
}

/// One field.
#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    /// The member's name in the node's JSON form.
    pub json: String,
    pub summary: String,
    pub layout: Layout,
    /// The struct's fields sit here without a name of their own.
    pub inline: bool,
    pub rules: Rules,
    /// How the node writes it in JSON, when not the default for its layout.
    pub json_form: Option<JsonForm>,
    /// The first node version whose JSON form has the member (the bytes always hold it).
    pub since: Option<Version>,
    /// Added to the JSON form after the oldest supported node version: an older node's JSON
    /// lacks it, and reading such JSON takes the layout's empty value.
    pub newer_than_oldest: bool,
    pub origin: Origin,
}

/// How a value is laid out in bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    /// Big-endian unsigned integers of 1, 2, 4 and 8 bytes.
    U8,
    U16,
    U32,
    U64,
    /// A big-endian two's-complement 8-byte integer.
    I64,
    /// One byte, `00` or `01`.
    Bool,
    /// 32 bytes.
    Id,
    /// 20 bytes.
    ShortId,
    /// 20 bytes.
    NodeId,
    /// 20 bytes: an Ethereum address (the C-chain's `common.Address`).
    EvmAddress,
    /// `u32` length, then the bytes.
    Bytes,
    /// Exactly N bytes, no length.
    FixedBytes(usize),
    /// `u16` length, then the bytes.
    String,
    /// `u32` count, then the elements.
    List(Box<Layout>),
    /// A struct's fields, no type ID.
    Struct(TypeRef),
    /// `u32` type ID, then the fields of one of the slot's types.
    Slot(String),
}

impl Layout {
    /// How the spec writes it.
    pub fn spec_text(&self) -> String {
        match self {
            Layout::U8 => "u8".into(),
            Layout::U16 => "u16".into(),
            Layout::U32 => "u32".into(),
            Layout::U64 => "u64".into(),
            Layout::I64 => "i64".into(),
            Layout::Bool => "bool".into(),
            Layout::Id => "id".into(),
            Layout::ShortId => "short-id".into(),
            Layout::NodeId => "node-id".into(),
            Layout::EvmAddress => "evm-address".into(),
            Layout::Bytes => "bytes".into(),
            Layout::FixedBytes(n) => format!("bytes<{n}>"),
            Layout::String => "string".into(),
            Layout::List(t) => format!("list<{}>", t.spec_text()),
            Layout::Struct(t) => t.to_string(),
            Layout::Slot(s) => format!("any<{s}>"),
        }
    }

    /// Whether it is an integer (where `min` and `max` apply).
    pub fn is_integer(&self) -> bool {
        matches!(
            self,
            Layout::U8 | Layout::U16 | Layout::U32 | Layout::U64 | Layout::I64
        )
    }
}

/// What the node requires of a value beyond its layout.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    pub order: Option<Order>,
    pub min: Option<u64>,
    pub max: Option<u64>,
    /// At most this many bytes (bytes, string) or elements (list).
    pub max_len: Option<u64>,
    /// Exactly this many bytes or elements.
    pub len: Option<u64>,
}

/// The order a list's elements must be in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Order {
    /// Non-decreasing by encoding.
    Sorted,
    /// Strictly increasing by encoding (so also unique).
    StrictlyIncreasing,
    /// Strictly increasing by the encoding of one field of the element.
    StrictlyIncreasingBy(String),
}

/// One codec: the numbering of its types, its slots and its roots.
#[derive(Debug, Clone)]
pub struct Codec {
    pub name: String,
    pub summary: String,
    pub source: Option<String>,
    pub version: u16,
    pub max_size: u64,
    /// Every ID in order; `None` for an ID the codec skips.
    pub type_ids: Vec<(u32, Option<TypeRef>)>,
    pub slots: Vec<Slot>,
    pub roots: Vec<Root>,
    /// The chain's fx packages in order (what an `fxIndex` counts).
    pub fxs: Vec<String>,
    /// The node's JSON form writes every `fxID` as the zero ID (`json-fx-ids: zero`).
    pub zero_fx_ids: bool,
    /// The structs values of this codec reach from its roots, in the order first reached.
    pub reached: Vec<TypeRef>,
    /// Of those, the ones that hold a slot at some depth: their Rust form is one per codec.
    pub codec_bound: Vec<TypeRef>,
    pub origin: Origin,
}

impl Codec {
    /// The type ID of `ty` in this codec.
    pub fn type_id(&self, ty: &TypeRef) -> Option<u32> {
        self.type_ids
            .iter()
            .find(|(_, t)| t.as_ref() == Some(ty))
            .map(|(id, _)| *id)
    }

    /// The slot named `name`.
    pub fn slot(&self, name: &str) -> Option<&Slot> {
        self.slots.iter().find(|s| s.name == name)
    }
}

/// An interface slot of a codec: the types it may hold.
#[derive(Debug, Clone)]
pub struct Slot {
    pub name: String,
    pub types: Vec<TypeRef>,
}

/// A value that travels on its own: `u16` codec version, then the value, nothing after it.
#[derive(Debug, Clone)]
pub struct Root {
    /// A struct or a slot.
    pub layout: Layout,
    pub summary: String,
    pub max_size: u64,
    /// How the value's ID follows from its bytes.
    pub id: Option<RootId>,
}

/// How a root's ID follows from its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootId {
    /// SHA-256 of all the bytes (transactions, blocks).
    Sha256,
    /// SHA-256 of the bytes without a trailing `signature` field, where the type has one
    /// (proposer blocks).
    Sha256Unsigned,
}

impl Codecs {
    /// The struct named `ty`.
    pub fn get(&self, ty: &TypeRef) -> Option<&Struct> {
        self.packages
            .iter()
            .find(|p| p.name == ty.package)?
            .types
            .iter()
            .find(|t| t.name.name == ty.name)
    }

    /// Every struct, package by package.
    pub fn structs(&self) -> impl Iterator<Item = &Struct> {
        self.packages.iter().flat_map(|p| &p.types)
    }
}
