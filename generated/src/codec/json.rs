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

    /// The context of `chain` on the network `network_id`, with the node's HRPs (1 `avax`,
    /// 5 `fuji`, 12345 `local`, 10 `testing`, …, any other `custom`).
    pub fn for_network(chain: impl Into<String>, network_id: u32) -> Self {
        let hrp = match network_id {
            1 => "avax",
            2 => "cascade",
            3 => "denali",
            4 => "everest",
            5 => "fuji",
            10 => "testing",
            12345 => "local",
            _ => "custom",
        };
        Self::new(chain, hrp)
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
        // Only a hand-made context with an invalid HRP gets here: say what the bytes are.
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
pub fn id_of(value: &impl super::Encode, version: u16, type_id: Option<u32>) -> Value {
    let mut w = super::Writer::new();
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
