//! Method descriptors and the normalization of forms only the client reads.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Everything the runtime needs to know of one method, generated from the spec.
#[derive(Debug)]
#[non_exhaustive]
pub struct MethodInfo {
    /// Wire name, e.g. `info.getNodeID`.
    pub name: &'static str,
    /// The interface (spec file) it belongs to, e.g. `info`.
    pub interface: &'static str,
    /// The spec's one-line summary.
    pub summary: &'static str,
    /// The spec's longer description, if it has one.
    pub description: Option<&'static str>,
    /// Deprecated in the spec.
    pub deprecated: bool,
    /// It changes the node's state (`changes-state` in the spec, e.g. `issueTx`): a client
    /// never sends it twice on its own.
    pub changes_state: bool,
    /// Its params travel as a JSON array in the order of [`params`](Self::params) (spec
    /// `params: positional`, the Ethereum calls `eth_…`), not as an object.
    pub positional: bool,
    /// The node version that first served it (`v1.14.0`), when that is newer than every
    /// supported version; `None` when every supported node serves it.
    pub since: Option<&'static str>,
    /// The first node version that no longer serves it (`v1.13.1`); `None` while current
    /// nodes serve it.
    pub removed: Option<&'static str>,
    /// Served by this project's devnet only (spec `source: devnet`), by no node.
    pub devnet_only: bool,
    /// The path of its interface, with `{variables}` (`/ext/bc/{chain}`).
    pub path: &'static str,
    /// The variables of [`path`](Self::path), in the spec's order.
    pub path_params: &'static [PathParam],
    /// Its params (members of the params object), in the spec's order.
    pub params: &'static [ParamInfo],
    /// Rewrites applied to a result before decoding, for forms the node no longer sends.
    pub rules: &'static [Rule],
    /// Where the result members are that a node newer than the oldest supported one added
    /// (each path ends with the member's name): what an older node's reply lacks.
    pub newer_members: &'static [&'static [ResultStep]],
    /// Where in a result a codec value's JSON form may be (a member the spec reads with
    /// `codec:`) whose type holds members that nodes newer than the oldest supported one
    /// added to the JSON form (the `id` of a transaction or block), and what drops them.
    pub newer_in_codec_json: &'static [CodecJson],
    /// The spec's examples.
    pub examples: &'static [Example],
    /// Decodes JSON params into the params type and encodes them again.
    pub check_params: fn(&Value) -> Result<Value, JsonDecodeError>,
    /// Normalizes a JSON result, decodes it into the result type and encodes it again.
    pub check_result: fn(&[Rule], &Value) -> Result<Value, JsonDecodeError>,
}

impl MethodInfo {
    /// The params as they travel: `value` itself for a method that takes an object; for a
    /// [`positional`](Self::positional) one, the members of the object `value` as an array
    /// in the declared order (a member left out in the middle as `null`, trailing ones
    /// dropped). A value that is not an object is returned as it is.
    pub fn wire_params(&self, value: Value) -> Value {
        if !self.positional {
            return value;
        }
        let Value::Object(mut members) = value else {
            return value;
        };
        let mut items: Vec<Value> = self
            .params
            .iter()
            .map(|p| members.remove(p.name).unwrap_or(Value::Null))
            .collect();
        while items.last().is_some_and(Value::is_null) {
            items.pop();
        }
        Value::Array(items)
    }

    /// `value` as the typed params, re-encoded: what a server would see.
    pub fn roundtrip_params(&self, value: &Value) -> Result<Value, JsonDecodeError> {
        (self.check_params)(value)
    }

    /// `result` as the oldest supported node would write it: without the members newer
    /// nodes added ([`newer_members`](Self::newer_members)), also inside the JSON form of codec
    /// values ([`newer_in_codec_json`](Self::newer_in_codec_json)).
    pub fn oldest_shape(&self, result: &Value) -> Value {
        let mut value = result.clone();
        for path in self.newer_members {
            if let Some((ResultStep::Field(member), parent)) = path.split_last() {
                remove_member(&mut value, parent, member);
            }
        }
        for c in self.newer_in_codec_json {
            at_path(&mut value, c.path, c.drop_newer);
        }
        value
    }

    /// `value` as the typed result, re-encoded: what a client would see.
    pub fn roundtrip_result(&self, value: &Value) -> Result<Value, JsonDecodeError> {
        (self.check_result)(self.rules, value)
    }
}

/// A place of a result that may hold a codec value's JSON form, and what drops from that form
/// the members nodes newer than the oldest supported one added.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct CodecJson {
    /// Where: steps from the top of the result (a hex string there is left alone).
    pub path: &'static [ResultStep],
    /// Drops the newer members (the codec type's
    /// [`OldestJson::drop_newer`](crate::codec::OldestJson::drop_newer)).
    pub drop_newer: fn(&mut Value),
}

/// One variable of an interface's path (`chain` in `/ext/bc/{chain}`).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct PathParam {
    /// Its name in the path template.
    pub name: &'static str,
    /// The spec's one-line summary.
    pub summary: &'static str,
    /// The usual value (`X`), when the spec gives one.
    pub default: Option<&'static str>,
    /// Values the spec lists as examples.
    pub examples: &'static [&'static str],
}

/// One param of a method: a member of its params object.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ParamInfo {
    /// Wire name (`addresses`).
    pub name: &'static str,
    /// Other names the node also reads for it (`networkId`).
    pub aliases: &'static [&'static str],
    /// The spec's type expression (`list<address>`, `u64`, `UtxoIndex`).
    pub ty: &'static str,
    /// The JSON it is written as.
    pub kind: JsonKind,
    /// For a list, the JSON each element is written as.
    pub items: Option<JsonKind>,
    /// The spec's one-line summary.
    pub summary: &'static str,
    /// The spec's longer description, if it has one.
    pub description: Option<&'static str>,
    /// The caller may leave it out.
    pub optional: bool,
    /// What the node does when it is left out, as JSON text.
    pub default: Option<&'static str>,
    /// Deprecated in the spec.
    pub deprecated: bool,
}

/// The JSON a param (or a list's element) is written as, from the spec's wire types and
/// schemas: numbers written as decimal strings (`u64`) are `String`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonKind {
    /// A JSON string (IDs, addresses, decimal integers, enums).
    String,
    /// A JSON number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// A JSON object (a schema's fields, or a map).
    Object,
    /// A JSON array (a list).
    Array,
    /// Any JSON value.
    Any,
}

/// One example of the spec: params and result as JSON text.
#[derive(Debug, Clone, Copy)]
pub struct Example {
    /// Its name in the spec.
    pub name: &'static str,
    /// Params, as JSON.
    pub params: &'static str,
    /// Result, as JSON.
    pub result: &'static str,
    /// When `result` is a form only the client reads: what it reads as.
    pub normalized: Option<&'static str>,
}

impl Example {
    /// The params as a JSON value.
    pub fn params(&self) -> Value {
        parse(self.params)
    }

    /// The result as a JSON value.
    pub fn result(&self) -> Value {
        parse(self.result)
    }

    /// What the client reads the result as: `normalized` if set, else the result itself.
    pub fn expected(&self) -> Value {
        parse(self.normalized.unwrap_or(self.result))
    }
}

// The texts were written by serde_json from parsed YAML, so they always parse.
fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// A rewrite of the values found at `path`.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// Where: steps from the top of the result.
    pub path: &'static [ResultStep],
    /// What to accept there.
    pub form: Form,
}

/// One step into a method's JSON result, in the paths of [`Rule`]s and of
/// [`MethodInfo::newer_members`]: a member, or every element or value. (A step of the field
/// path of a codec error is [`codec::Step`](crate::codec::Step).)
#[derive(Debug, Clone, Copy)]
pub enum ResultStep {
    /// Into this member of an object.
    Field(&'static str),
    /// Into every element of an array.
    Items,
    /// Into every value of an object.
    Values,
}

/// A form the client also reads.
#[derive(Debug, Clone, Copy)]
pub enum Form {
    /// A value that is not an object is read as `{field: value}`.
    Bare(&'static str),
    /// An object `{key: inner}` with only that member is read as `inner`.
    WrappedIn(&'static str),
}

/// Applies `rules` in order.
pub fn normalize(value: &mut Value, rules: &[Rule]) {
    for rule in rules {
        apply(value, rule.path, rule.form);
    }
}

fn apply(value: &mut Value, path: &[ResultStep], form: Form) {
    match path.split_first() {
        None => match form {
            Form::Bare(field) => {
                if !value.is_object() {
                    let inner = value.take();
                    let mut map = serde_json::Map::new();
                    map.insert(field.to_string(), inner);
                    *value = Value::Object(map);
                }
            }
            Form::WrappedIn(key) => {
                if let Value::Object(map) = value
                    && map.len() == 1
                    && let Some(inner) = map.remove(key)
                {
                    *value = inner;
                }
            }
        },
        Some((ResultStep::Field(f), rest)) => {
            if let Some(v) = value.get_mut(*f) {
                apply(v, rest, form);
            }
        }
        Some((ResultStep::Items, rest)) => {
            if let Value::Array(items) = value {
                items.iter_mut().for_each(|v| apply(v, rest, form));
            }
        }
        Some((ResultStep::Values, rest)) => {
            if let Value::Object(map) = value {
                map.values_mut().for_each(|v| apply(v, rest, form));
            }
        }
    }
}

/// Applies `f` to every value found at `path`.
fn at_path(value: &mut Value, path: &[ResultStep], f: fn(&mut Value)) {
    match path.split_first() {
        None => f(value),
        Some((ResultStep::Field(name), rest)) => {
            if let Some(v) = value.get_mut(*name) {
                at_path(v, rest, f);
            }
        }
        Some((ResultStep::Items, rest)) => {
            if let Value::Array(items) = value {
                items.iter_mut().for_each(|v| at_path(v, rest, f));
            }
        }
        Some((ResultStep::Values, rest)) => {
            if let Value::Object(map) = value {
                map.values_mut().for_each(|v| at_path(v, rest, f));
            }
        }
    }
}

fn remove_member(value: &mut Value, path: &[ResultStep], member: &str) {
    match path.split_first() {
        None => {
            if let Value::Object(map) = value {
                map.remove(member);
            }
        }
        Some((ResultStep::Field(f), rest)) => {
            if let Some(v) = value.get_mut(*f) {
                remove_member(v, rest, member);
            }
        }
        Some((ResultStep::Items, rest)) => {
            if let Value::Array(items) = value {
                items
                    .iter_mut()
                    .for_each(|v| remove_member(v, rest, member));
            }
        }
        Some((ResultStep::Values, rest)) => {
            if let Value::Object(map) = value {
                map.values_mut()
                    .for_each(|v| remove_member(v, rest, member));
            }
        }
    }
}

/// JSON that does not decode into a method's params or result type: where, and why. (Bytes
/// that are not a codec value are a [`codec::DecodeError`](crate::codec::DecodeError).)
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at `{path}`: {message}")]
pub struct JsonDecodeError {
    /// Path in the value (`.` for the top).
    pub path: String,
    /// What was wrong.
    pub message: String,
}

/// Decodes `value` as `T`, naming the path of any failure.
pub fn decode<T: DeserializeOwned>(value: &Value) -> Result<T, JsonDecodeError> {
    serde_path_to_error::deserialize(value).map_err(|e| JsonDecodeError {
        path: e.path().to_string(),
        message: super::error::strip_position(e.inner().to_string()),
    })
}

/// Decodes `value` as `T` and encodes it again.
pub fn roundtrip<T: Serialize + DeserializeOwned>(value: &Value) -> Result<Value, JsonDecodeError> {
    let typed: T = decode(value)?;
    // In the crate's tests, every typed value decoded here is also written by our own JSON
    // writer and checked against serde_json's bytes.
    #[cfg(all(test, feature = "server"))]
    super::server::write::json_write::assert_same_as_serde_json(&typed);
    serde_json::to_value(&typed).map_err(|e| JsonDecodeError {
        path: ".".into(),
        message: e.to_string(),
    })
}

/// Normalizes `value` by `rules`, then [`roundtrip`]s it as `T`.
pub fn roundtrip_result<T: Serialize + DeserializeOwned>(
    rules: &[Rule],
    value: &Value,
) -> Result<Value, JsonDecodeError> {
    let mut value = value.clone();
    normalize(&mut value, rules);
    roundtrip::<T>(&value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bare_and_wrapped_forms_are_rewritten() {
        let rules = [
            Rule {
                path: &[],
                form: Form::WrappedIn("validators"),
            },
            Rule {
                path: &[ResultStep::Values],
                form: Form::Bare("weight"),
            },
        ];
        let mut v = json!({"validators": {"NodeID-a": 5, "NodeID-b": {"weight": "6"}}});
        normalize(&mut v, &rules);
        assert_eq!(
            v,
            json!({"NodeID-a": {"weight": 5}, "NodeID-b": {"weight": "6"}})
        );

        let rules = [Rule {
            path: &[],
            form: Form::Bare("containers"),
        }];
        let mut v = json!([1, 2]);
        normalize(&mut v, &rules);
        assert_eq!(v, json!({"containers": [1, 2]}));
        // The canonical form is left alone.
        let mut v = json!({"containers": [1]});
        normalize(&mut v, &rules);
        assert_eq!(v, json!({"containers": [1]}));
    }
}
