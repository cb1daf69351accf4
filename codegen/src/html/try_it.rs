//! The data of the page's "Try it" forms: one JSON object, in a
//! `<script type="application/json" id="try-data">`, from which `try.js` builds a form per
//! method. Kept as data rather than markup because 72 forms of inputs would repeat the same
//! HTML 72 times, and a page without its script cannot send anyway.
//!
//! ```json
//! {"paths": {"/ext/bc/{chain}": [{"name": "chain", "value": "X", "examples": ["X", "2oY…"]}]},
//!  "methods": {"avm.getBalance": {"path": "/ext/bc/{chain}",
//!    "params": [{"name": "address", "type": "Address", "string": true,
//!                "example": "X-avax1…"}], "changesState": true}}}
//! ```
//!
//! `paths` holds each interface path with `{variables}`, its variables prefilled with their
//! default (else their first example). A param's `example` is its value in the method's first
//! example (absent when that example leaves it out); `string` marks params whose JSON is a
//! string (a wire type written as a string, or an enum), which the form takes bare;
//! `optional`, `changesState` (`changes-state` in the spec) and `positional` (params sent as an
//! array in declared order, `params: positional`) appear only when true.
//!
//! "Fill forms" (`harvest.js`, the same harvest as `cli/src/harvest.rs`) reads this data too: the
//! methods without `changesState` are the ones it calls, first those with no param lacking
//! `optional` at every path `paths` gives (each variable at its `value`, then its `examples`),
//! then the others with values of their params' `name`s; a form's param takes a harvested
//! value when it has an `example` of the same form (or is required), `string` and `type`
//! (`list<…>`) deciding how the value is written.

use crate::model::{Body, JsonKind, Method, Spec, TypeRef};
use serde_json::{Map, Value, json};

/// The JSON text, safe inside a `<script>` element (every `<` escaped as `\u003c`, which
/// only strings can hold).
pub(super) fn data(spec: &Spec) -> String {
    let mut paths = Map::new();
    let mut methods = Map::new();
    for i in &spec.interfaces {
        if !i.path_params.is_empty() {
            let vars: Vec<Value> = i
                .path_params
                .iter()
                .map(|v| {
                    let value = v.default.as_ref().or(v.examples.first());
                    json!({ "name": v.name, "value": value.cloned().unwrap_or_default(), "examples": v.examples })
                })
                .collect();
            paths.insert(i.path.clone(), Value::Array(vars));
        }
        for m in &i.methods {
            methods.insert(m.wire_name.clone(), method(spec, &i.path, m));
        }
    }
    let text = json!({ "paths": paths, "methods": methods }).to_string();
    text.replace('<', "\\u003c")
}

fn method(spec: &Spec, path: &str, m: &Method) -> Value {
    let example = m.examples.first().map(|e| &e.params);
    let params: Vec<Value> = m
        .params
        .iter()
        .map(|p| {
            let mut o = Map::new();
            o.insert("name".into(), json!(p.name));
            o.insert("type".into(), json!(p.ty.to_string()));
            if is_string(spec, &p.ty) {
                o.insert("string".into(), json!(true));
            }
            if p.optional {
                o.insert("optional".into(), json!(true));
            }
            if let Some(v) = example.and_then(|e| e.get(&p.name)) {
                o.insert("example".into(), v.clone());
            }
            Value::Object(o)
        })
        .collect();
    let mut o = Map::new();
    o.insert("path".into(), json!(path));
    o.insert("params".into(), Value::Array(params));
    if m.positional {
        o.insert("positional".into(), json!(true));
    }
    if m.changes_state {
        o.insert("changesState".into(), json!(true));
    }
    Value::Object(o)
}

/// The value is a JSON string: a wire type written as one, an enum, or an alias of either.
fn is_string(spec: &Spec, t: &TypeRef) -> bool {
    match t {
        TypeRef::Wire(n) => spec.wire(n).is_some_and(|w| w.json == JsonKind::String),
        TypeRef::Schema { name, scope } => {
            spec.schema(name, scope).is_some_and(|s| match &s.body {
                Body::Enum(_) => true,
                Body::Alias(t) => is_string(spec, t),
                Body::Object(_) => false,
            })
        }
        TypeRef::List(_) | TypeRef::Map(..) => false,
    }
}
