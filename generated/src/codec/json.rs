//! The node's JSON form of codec values (`getTx`, `getBlock` with `encoding: json`): numbers
//! bare, IDs in cb58, bytes in `0x` hex, addresses qualified with the chain's alias and the
//! network's HRP, the fx ID of each output, input, operation and credential, and the ID of
//! each transaction and block. Generated `ToJson` impls call these helpers.

use serde_json::{Map, Value};

use crate::wire::{Address, HexBytes, ShortId};

/// What the JSON form needs beyond the value: the chain's alias (`X`, `P`) and the network's
/// human-readable part (`avax`, `fuji`, `local`), for addresses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonContext {
    chain: String,
    hrp: String,
}

impl JsonContext {
    /// Addresses written `<chain>-<hrp>1…`.
    pub fn new(chain: impl Into<String>, hrp: impl Into<String>) -> Self {
        Self {
            chain: chain.into(),
            hrp: hrp.into(),
        }
    }

    /// Addresses written as bare cb58 short IDs: what the node writes for an output it holds
    /// without a chain's context (the exported outputs of the C-chain's atomic transactions).
    pub fn bare() -> Self {
        Self::new("", "")
    }

    /// The context of `chain` on the network `network_id`, with the node's HRP for it
    /// ([`crate::network::hrp`]: 1 `avax`, 5 `fuji`, 10 `testing`, 12345 `local`, …, any
    /// other `custom`).
    pub fn for_network(chain: impl Into<String>, network_id: u32) -> Self {
        Self::new(chain, crate::network::hrp(network_id))
    }
}

/// A value in the node's JSON form.
pub trait ToJson {
    /// The JSON value.
    fn to_json(&self, cx: &JsonContext) -> Value;
}

/// A struct's members in the node's JSON form, written into an object (a struct inlined in
/// another writes its members into the other's object).
pub trait JsonMembers {
    /// Appends the members to `m`.
    fn json_members(&self, cx: &JsonContext, m: &mut Map<String, Value>);
}

impl<T: ToJson> ToJson for Box<T> {
    fn to_json(&self, cx: &JsonContext) -> Value {
        T::to_json(self, cx)
    }
}

/// The object of a struct's members; sorted by name where the node writes them through a map.
pub fn object(alphabetical: bool, write: impl FnOnce(&mut Map<String, Value>)) -> Value {
    let mut m = Map::new();
    write(&mut m);
    if alphabetical {
        sort(&mut m);
    }
    Value::Object(m)
}

/// Appends members written by `write` to `m`, sorted by name among themselves.
pub fn sorted_members(m: &mut Map<String, Value>, write: impl FnOnce(&mut Map<String, Value>)) {
    let mut own = Map::new();
    write(&mut own);
    sort(&mut own);
    m.extend(own);
}

fn sort(m: &mut Map<String, Value>) {
    let mut entries: Vec<(String, Value)> = std::mem::take(m).into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    m.extend(entries);
}

/// A number or a boolean, bare.
pub fn number<T: Copy + Into<Value>>(v: &T) -> Value {
    (*v).into()
}

/// A value written as its text (IDs in cb58, node IDs with their prefix).
pub fn text(v: &impl std::fmt::Display) -> Value {
    Value::String(v.to_string())
}

/// An address, qualified with the chain's alias and the network's HRP.
pub fn address(cx: &JsonContext, v: &ShortId) -> Value {
    match Address::new(Some(&cx.chain), &cx.hrp, *v.as_bytes()) {
        Ok(a) => Value::String(a.to_string()),
        // A bare context (no HRP), or a hand-made one with an invalid HRP: the bytes in cb58.
        Err(_) => text(v),
    }
}

/// Bytes in `0x` hex, without a checksum (`"0x"` when empty).
pub fn hex(v: &[u8]) -> Value {
    Value::String(HexBytes(v.to_vec()).to_hex())
}

/// Bytes in standard base64 with padding (Go's default for `[]byte`).
pub fn base64(v: &[u8]) -> Value {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(v.len().div_ceil(3) * 4);
    for chunk in v.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(A[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    Value::String(out)
}

/// Bytes as an array of numbers (Go's default for a byte array).
pub fn numbers(v: &[u8]) -> Value {
    Value::Array(v.iter().map(|b| Value::from(*b)).collect())
}

/// The ID of an fx: its name, zero-padded to 32 bytes, in cb58; `null` for none.
pub fn fx_id(name: Option<&str>) -> Value {
    match name {
        Some(name) => {
            let mut bytes = [0u8; 32];
            let n = name.len().min(32);
            bytes[..n].copy_from_slice(&name.as_bytes()[..n]);
            text(&crate::wire::Id::new(bytes))
        }
        None => Value::Null,
    }
}

/// The ID of the fx at `index` of a chain's fx list; `null` past its end.
pub fn fx_at(fxs: &[&str], index: u64) -> Value {
    fx_id(
        usize::try_from(index)
            .ok()
            .and_then(|i| fxs.get(i))
            .copied(),
    )
}

/// The ID of a value as its codec frames it: SHA-256 of the codec version, the type ID when
/// the value sits in a slot, and its bytes.
pub fn id_of(value: &impl super::binary::Encode, version: u16, type_id: Option<u32>) -> Value {
    let mut w = super::write::Writer::new();
    w.u16(version);
    if let Some(t) = type_id {
        w.u32(t);
    }
    match value.encode(&mut w) {
        Ok(()) => text(&crate::wire::Id::from_sha256(&w.into_bytes())),
        Err(_) => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_standard_with_padding() {
        for (input, out) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foobar", "Zm9vYmFy"),
            (&[0xfb, 0xff][..], "+/8="),
        ] {
            assert_eq!(base64(input), Value::String(out.into()));
        }
    }

    #[test]
    fn fx_ids_are_their_padded_names() {
        assert_eq!(
            fx_id(Some("secp256k1fx")),
            Value::String("spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ".into())
        );
        assert_eq!(
            fx_at(&["secp256k1fx", "nftfx", "propertyfx"], 2),
            Value::String("rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy".into())
        );
        assert_eq!(fx_at(&["secp256k1fx"], 1), Value::Null);
    }
}

/// JSON that is not the node's form of a value: which member and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    path: super::FieldPath,
    reason: String,
}

impl JsonError {
    pub(crate) fn new(reason: impl Into<String>) -> Self {
        Self {
            path: super::FieldPath::default(),
            reason: reason.into(),
        }
    }

    /// The same error, inside `step`.
    pub fn within(mut self, step: super::Step) -> Self {
        self.path.push_outer(step);
        self
    }

    /// The member the problem is in (JSON names; empty at the top).
    pub fn path(&self) -> &super::FieldPath {
        &self.path
    }

    /// What is wrong.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.steps().next().is_none() {
            f.write_str(&self.reason)
        } else {
            write!(f, "`{}`: {}", self.path, self.reason)
        }
    }
}

impl std::error::Error for JsonError {}

/// A value read from the node's JSON form.
pub trait FromJson: Sized {
    /// Reads the value; `fx` is the fx its parent names (what tells apart outputs whose JSON
    /// members are the same in two fxs).
    fn from_json(v: &Value, fx: Option<&str>) -> Result<Self, JsonError>;
}

/// A struct read from the members of an object (a struct inlined in another reads from the
/// other's object).
pub trait FromJsonMembers: Sized {
    /// Every member name the struct reads or writes, inlined structs' and JSON-only ones
    /// included.
    const JSON_KEYS: &'static [&'static str];

    /// The members of [`JSON_KEYS`](Self::JSON_KEYS) that nodes newer than the oldest
    /// supported one added (`since` in the spec): an older node's JSON lacks them. A field
    /// among them reads as its empty value when absent.
    const JSON_NEWER: &'static [&'static str] = &[];

    /// Reads the struct's members from `m`.
    fn from_json_members(m: &Map<String, Value>) -> Result<Self, JsonError>;
}

impl<T: FromJson> FromJson for Box<T> {
    fn from_json(v: &Value, fx: Option<&str>) -> Result<Self, JsonError> {
        T::from_json(v, fx).map(Box::new)
    }
}

/// The object `v`, with no member but `keys`.
pub fn members<'a>(v: &'a Value, keys: &[&str]) -> Result<&'a Map<String, Value>, JsonError> {
    let m = v
        .as_object()
        .ok_or_else(|| JsonError::new(format!("expected an object, found {}", kind(v))))?;
    if let Some(extra) = m.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(JsonError::new(format!(
            "unknown member `{extra}` (the members are {})",
            keys.iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(m)
}

/// Member `name` of `m`, read by `read`; a problem names the member.
pub fn member<T>(
    m: &Map<String, Value>,
    name: &'static str,
    read: impl FnOnce(&Value) -> Result<T, JsonError>,
) -> Result<T, JsonError> {
    let v = m
        .get(name)
        .ok_or_else(|| JsonError::new(format!("missing member `{name}`")))?;
    read(v).map_err(|e| e.within(super::Step::Field(name)))
}

/// Member `name` of `m`, read by `read`, or the empty value when `m` lacks it: a member
/// that older nodes leave out of the JSON form.
pub fn member_or_default<T: Default>(
    m: &Map<String, Value>,
    name: &'static str,
    read: impl FnOnce(&Value) -> Result<T, JsonError>,
) -> Result<T, JsonError> {
    if m.contains_key(name) {
        member(m, name, read)
    } else {
        Ok(T::default())
    }
}

/// The fx a member holding an fx ID names (`fxID`), or the fx at index `fx_index` of `fxs`.
pub fn fx_named(
    m: &Map<String, Value>,
    name: &str,
    known: &[&'static str],
) -> Option<&'static str> {
    let id = m.get(name)?.as_str()?;
    known
        .iter()
        .copied()
        .find(|fx| fx_id(Some(fx)).as_str() == Some(id))
}

/// The fx at `index` of `fxs`.
pub fn fx_index(m: &Map<String, Value>, name: &str, fxs: &[&'static str]) -> Option<&'static str> {
    let i = usize::try_from(m.get(name)?.as_u64()?).ok()?;
    fxs.get(i).copied()
}

/// Which of a slot's variants the object `v` is: the one whose members are exactly the
/// object's, of the fx `fx` when given; the first of several that fit equally.
pub fn variant(
    v: &Value,
    candidates: &[(&'static [&'static str], Option<&'static str>)],
    fx: Option<&str>,
) -> Result<usize, JsonError> {
    let with_newer: Vec<_> = candidates
        .iter()
        .map(|(keys, of)| (*keys, &[] as &'static [&'static str], *of))
        .collect();
    variant_among(v, &with_newer, fx)
}

/// As [`variant`], with each candidate's members that older nodes leave out (its
/// [`FromJsonMembers::JSON_NEWER`]): a candidate whose members are exactly the object's comes
/// first, then one whose members are the object's and some of those.
pub fn variant_among(
    v: &Value,
    candidates: &[(
        &'static [&'static str],
        &'static [&'static str],
        Option<&'static str>,
    )],
    fx: Option<&str>,
) -> Result<usize, JsonError> {
    let m = v
        .as_object()
        .ok_or_else(|| JsonError::new(format!("expected an object, found {}", kind(v))))?;
    let exactly =
        |keys: &[&str]| m.len() == keys.len() && m.keys().all(|k| keys.contains(&k.as_str()));
    let older = |keys: &[&str], newer: &[&str]| {
        m.keys().all(|k| keys.contains(&k.as_str()))
            && keys.iter().all(|k| m.contains_key(*k) || newer.contains(k))
    };
    let of_fx = |of: &Option<&str>| fx.is_none() || *of == fx;
    candidates
        .iter()
        .position(|(keys, _, of)| exactly(keys) && of_fx(of))
        .or_else(|| candidates.iter().position(|(keys, _, _)| exactly(keys)))
        .or_else(|| {
            candidates
                .iter()
                .position(|(keys, newer, of)| older(keys, newer) && of_fx(of))
        })
        .or_else(|| {
            candidates
                .iter()
                .position(|(keys, newer, _)| older(keys, newer))
        })
        .ok_or_else(|| {
            let mut have: Vec<&str> = m.keys().map(String::as_str).collect();
            have.sort_unstable();
            JsonError::new(format!(
                "no type this slot holds has exactly the members {}",
                have.iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

/// A value's JSON form as the oldest supported node writes it: without the members that newer
/// nodes added (`since` in the spec), at any depth. Implemented by the codec's types that hold
/// such a member, or a value that does.
pub trait OldestJson {
    /// Removes the members newer nodes added from `m`, the members of this struct (inlined
    /// structs' included).
    fn drop_newer_members(_m: &mut Map<String, Value>) {}

    /// Removes the members newer nodes added from `v`, this type's JSON form; leaves any
    /// other value (the hex form) alone.
    fn drop_newer(v: &mut Value) {
        if let Value::Object(m) = v {
            Self::drop_newer_members(m);
        }
    }
}

/// Applies `f` to each element of `v` when it is an array (for [`OldestJson`]).
pub fn each_item(v: &mut Value, f: impl FnMut(&mut Value)) {
    if let Value::Array(items) = v {
        items.iter_mut().for_each(f);
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// An unsigned integer of type `T`, as a bare number.
pub fn read_uint<T: TryFrom<u64>>(v: &Value) -> Result<T, JsonError> {
    let n = v.as_u64().ok_or_else(|| {
        JsonError::new(format!(
            "expected a non-negative integer, found {}",
            kind(v)
        ))
    })?;
    T::try_from(n).map_err(|_| {
        JsonError::new(format!(
            "{n} is out of range ({} bits)",
            std::mem::size_of::<T>() * 8
        ))
    })
}

/// A signed 64-bit integer, as a bare number.
pub fn read_i64(v: &Value) -> Result<i64, JsonError> {
    v.as_i64()
        .ok_or_else(|| JsonError::new(format!("expected an integer, found {}", kind(v))))
}

/// A boolean.
pub fn read_bool(v: &Value) -> Result<bool, JsonError> {
    v.as_bool()
        .ok_or_else(|| JsonError::new(format!("expected a boolean, found {}", kind(v))))
}

/// A string.
pub fn read_string(v: &Value) -> Result<String, JsonError> {
    v.as_str()
        .map(str::to_owned)
        .ok_or_else(|| JsonError::new(format!("expected a string, found {}", kind(v))))
}

/// A value parsed from its text (IDs, node IDs, cb58 short IDs).
pub fn read_text<T: std::str::FromStr>(v: &Value) -> Result<T, JsonError>
where
    T::Err: std::fmt::Display,
{
    let s = v
        .as_str()
        .ok_or_else(|| JsonError::new(format!("expected a string, found {}", kind(v))))?;
    s.parse().map_err(|e: T::Err| JsonError::new(e.to_string()))
}

/// An address in any form the node reads (chain-qualified or bare bech32, or cb58): its bytes.
pub fn read_address(v: &Value) -> Result<ShortId, JsonError> {
    let a: Address = read_text(v)?;
    Ok(ShortId::new(a.payload()))
}

/// Bytes in `0x` hex (no checksum); `null` is empty.
pub fn read_hex(v: &Value) -> Result<Vec<u8>, JsonError> {
    if v.is_null() {
        return Ok(Vec::new());
    }
    let h: HexBytes = read_text(v)?;
    Ok(h.0)
}

/// Exactly `N` bytes in `0x` hex, base64 or an array of numbers, by `form`.
pub fn read_array<const N: usize>(v: &Value, form: &str) -> Result<[u8; N], JsonError> {
    let bytes = match form {
        "numbers" => read_numbers(v)?,
        "base64" => read_base64(v)?,
        _ => read_hex(v)?,
    };
    let n = bytes.len();
    bytes
        .try_into()
        .map_err(|_| JsonError::new(format!("expected {N} bytes, found {n}")))
}

/// Bytes as an array of numbers.
pub fn read_numbers(v: &Value) -> Result<Vec<u8>, JsonError> {
    let a = v.as_array().ok_or_else(|| {
        JsonError::new(format!("expected an array of numbers, found {}", kind(v)))
    })?;
    a.iter()
        .enumerate()
        .map(|(i, b)| read_uint::<u8>(b).map_err(|e| e.within(super::Step::Index(i))))
        .collect()
}

/// Bytes in standard base64 (padding optional).
pub fn read_base64(v: &Value) -> Result<Vec<u8>, JsonError> {
    let s = v
        .as_str()
        .ok_or_else(|| JsonError::new(format!("expected a base64 string, found {}", kind(v))))?;
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, c) in s.trim_end_matches('=').bytes().enumerate() {
        let d = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => {
                return Err(JsonError::new(format!(
                    "not base64: {:?} at {i}",
                    char::from(c)
                )));
            }
        };
        acc = (acc << 6) | u32::from(d);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}

/// A list, each element read by `read`; a problem names the element.
pub fn read_list<T>(
    v: &Value,
    mut read: impl FnMut(&Value) -> Result<T, JsonError>,
) -> Result<Vec<T>, JsonError> {
    // The node writes an empty list of a value decoded from bytes as `[]`; `null` reads as empty.
    if v.is_null() {
        return Ok(Vec::new());
    }
    let a = v
        .as_array()
        .ok_or_else(|| JsonError::new(format!("expected an array, found {}", kind(v))))?;
    a.iter()
        .enumerate()
        .map(|(i, e)| read(e).map_err(|err| err.within(super::Step::Index(i))))
        .collect()
}
