//! Does a JSON value conform to a type of the spec? Used to check examples and defaults.
//!
//! The check is structural (JSON kinds, fields, enum values) plus each wire type's pattern
//! and range. Deeper checks (cb58 and hex checksums) are the runtime's: the generated crate's
//! tests decode every example with the real wire types.

use crate::model::*;
use serde_json::Value;

/// Which forms are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Only what the node writes.
    Canonical,
    /// Also the forms declared with `also-accepts` (what the client reads).
    Alternatives,
}

/// Problems of `value` as a `ty`, each naming its JSON path.
pub fn conform(spec: &Spec, value: &Value, ty: &TypeRef, mode: Mode) -> Vec<String> {
    let mut out = Vec::new();
    Walker {
        spec,
        mode,
        out: &mut out,
    }
    .ty(value, ty, "$");
    out
}

/// Problems of `value` as the schema `schema` (used for method results).
pub fn conform_schema(spec: &Spec, value: &Value, schema: &Schema, mode: Mode) -> Vec<String> {
    let mut out = Vec::new();
    Walker {
        spec,
        mode,
        out: &mut out,
    }
    .schema(value, schema, "$");
    out
}

/// Problems of `value` as a method's params object.
pub fn conform_params(spec: &Spec, value: &Value, params: &[Field]) -> Vec<String> {
    let mut out = Vec::new();
    Walker {
        spec,
        mode: Mode::Canonical,
        out: &mut out,
    }
    .object(value, params, "$");
    out
}

struct Walker<'a> {
    spec: &'a Spec,
    mode: Mode,
    out: &'a mut Vec<String>,
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}

impl Walker<'_> {
    fn fail(&mut self, path: &str, msg: String) {
        self.out.push(format!("at {path}: {msg}"));
    }

    fn ty(&mut self, v: &Value, ty: &TypeRef, path: &str) {
        match ty {
            TypeRef::Wire(name) => self.wire(v, name, path),
            TypeRef::Schema { name, scope } => match self.spec.schema(name, scope) {
                Some(s) => self.schema(v, s, path),
                None => self.fail(path, format!("unknown schema `{name}`")),
            },
            TypeRef::List(inner) => match v {
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        self.ty(item, inner, &format!("{path}[{i}]"));
                    }
                }
                other => self.fail(
                    path,
                    format!("expected an array ({ty}), got {}", kind_of(other)),
                ),
            },
            TypeRef::Map(k, val) => match v {
                Value::Object(map) => {
                    for (key, item) in map {
                        self.ty(
                            &Value::String(key.clone()),
                            k,
                            &format!("{path} key {key:?}"),
                        );
                        self.ty(item, val, &format!("{path}.{key}"));
                    }
                }
                other => self.fail(
                    path,
                    format!("expected an object ({ty}), got {}", kind_of(other)),
                ),
            },
        }
    }

    fn wire(&mut self, v: &Value, name: &str, path: &str) {
        let Some(w) = self.spec.wire(name) else {
            return self.fail(path, format!("unknown wire type `{name}`"));
        };
        let allowed = |k: JsonKind| w.json == k || w.accepts.contains(&k);
        match v {
            _ if w.json == JsonKind::Any => {}
            Value::String(s) if allowed(JsonKind::String) => {
                if let Some(re) = &w.regex
                    && !re.is_match(s)
                {
                    return self.fail(
                        path,
                        format!("{s:?} is not a valid `{name}` ({})", w.summary),
                    );
                }
                if let (Some(max), true) = (
                    w.max,
                    s.bytes().all(|b| b.is_ascii_digit()) && !s.is_empty(),
                ) && s.parse::<u64>().map_or(true, |n| n > max)
                {
                    self.fail(
                        path,
                        format!("{s} is above the maximum of `{name}` ({max})"),
                    );
                }
            }
            Value::Number(n) if allowed(JsonKind::Number) => match n.as_u64() {
                Some(x) if w.max.is_none_or(|m| x <= m) => {}
                Some(x) => self.fail(path, format!("{x} is above the maximum of `{name}`")),
                None => self.fail(
                    path,
                    format!("{n} is not a non-negative integer (`{name}`)"),
                ),
            },
            Value::Bool(_) if allowed(JsonKind::Boolean) => {}
            other => {
                let want = match w.json {
                    JsonKind::String if w.accepts.contains(&JsonKind::Number) => {
                        "a string (or a number)"
                    }
                    JsonKind::String => "a string",
                    JsonKind::Number => "a number",
                    JsonKind::Boolean => "a boolean",
                    JsonKind::Any => "anything",
                };
                self.fail(
                    path,
                    format!(
                        "`{name}` is {want}, got {} {}",
                        kind_of(other),
                        short(other)
                    ),
                );
            }
        }
    }

    fn schema(&mut self, v: &Value, s: &Schema, path: &str) {
        let mut v = v;
        let unwrapped;
        let wrapped;
        if self.mode == Mode::Alternatives {
            for alt in &s.also_accepts {
                match alt {
                    Alternative::WrappedIn(key) => {
                        if let Value::Object(m) = v
                            && m.len() == 1
                            && m.contains_key(key)
                        {
                            unwrapped = m[key].clone();
                            v = &unwrapped;
                            break;
                        }
                    }
                    Alternative::Bare(field) => {
                        if !v.is_object() {
                            let mut m = serde_json::Map::new();
                            m.insert(field.clone(), v.clone());
                            wrapped = Value::Object(m);
                            v = &wrapped;
                            break;
                        }
                    }
                }
            }
        }
        match &s.body {
            Body::Object(fields) => self.object(v, fields, path),
            Body::Alias(t) => self.ty(v, t, path),
            Body::Enum(values) => match v {
                Value::String(x) if values.iter().any(|e| &e.value == x) => {}
                other => self.fail(
                    path,
                    format!(
                        "{} is not one of the values of `{}` ({})",
                        short(other),
                        s.name,
                        values
                            .iter()
                            .map(|e| e.value.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ),
            },
        }
    }

    fn object(&mut self, v: &Value, fields: &[Field], path: &str) {
        let Value::Object(map) = v else {
            return self.fail(
                path,
                format!("expected an object, got {} {}", kind_of(v), short(v)),
            );
        };
        for f in fields {
            let found = std::iter::once(&f.name)
                .chain(&f.aliases)
                .find_map(|k| map.get(k).map(|x| (k, x)));
            let fpath = format!("{path}.{}", f.name);
            match found {
                None if f.optional => {}
                // A node older than the member's `since`, or newer than its `removed`, leaves it out.
                None if f.absent_from_some_node() => {}
                // The client reads a missing nullable member as null.
                None if f.nullable && self.mode == Mode::Alternatives => {}
                None => self.fail(&fpath, "required member is missing".into()),
                Some((_, Value::Null)) if f.nullable => {}
                Some((_, Value::Null)) => self.fail(
                    &fpath,
                    "is null but not `nullable` (leave it out if it is optional)".into(),
                ),
                Some((k, x)) => {
                    if k != &f.name && self.mode == Mode::Canonical {
                        self.fail(
                            &fpath,
                            format!(
                                "spelled `{k}`, which only the client reads; the node writes `{}`",
                                f.name
                            ),
                        );
                    }
                    self.ty(x, &f.ty, &fpath);
                }
            }
        }
        for key in map.keys() {
            if !fields
                .iter()
                .any(|f| &f.name == key || f.aliases.contains(key))
            {
                let hint = crate::error::did_you_mean(
                    key,
                    fields
                        .iter()
                        .flat_map(|f| std::iter::once(&f.name).chain(&f.aliases))
                        .map(String::as_str),
                );
                self.fail(
                    &format!("{path}.{key}"),
                    format!("is not a declared member{hint}"),
                );
            }
        }
    }
}
