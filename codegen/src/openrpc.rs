//! OpenRPC 1.3.2 documents, one per interface and one for the whole node, from the same model
//! as the Rust bindings.
//!
//! Choices, so that readers of the documents know what they mean:
//!
//! - **Schemas describe what a client reads.** A wire type written as a string that the node
//!   also reads as a number (`u64`, …) is `oneOf` a patterned string and a bounded integer. A
//!   result or named schema with `also-accepts` forms is `oneOf` its canonical form (first) and
//!   each alternative: `bare` is the field's type, `wrapped-in` an object holding exactly that
//!   key. Every spec example validates against its method's schemas, client-only forms included.
//! - **Objects allow unknown members** (`additionalProperties: true`): the node adds members in
//!   new releases and ignores unknown request members, and the generated client ignores unknown
//!   reply members, so a closed schema would reject replies every client handles.
//! - **Aliases** (other spellings the client and server read) are extra optional properties whose
//!   description names the canonical member. A required member with aliases is required as "one
//!   of its spellings" (`anyOf` of `required`), so that an alias-spelled reply validates. A
//!   parameter's aliases are listed in its description and in the `x-aliases` extension.
//! - **Nullable members** are required and `oneOf` their type and `{"type": "null"}`.
//! - **Members newer than the oldest supported node** (`since`) are not required: an older
//!   node's reply lacks them; their description and `x-since` say from which version on.
//!   Members a later node removed (`removed`) are not required either; `x-removed` on a
//!   method, param or member names the first node version without it, and `x-still-served`
//!   (`{by, why}`, the spec's `still-served`) on a removed method names a server that keeps
//!   serving it on purpose and why.
//! - **Node version.** By default a document describes every node version from the oldest
//!   supported one on. Generated for one node version (`AVALANCHE_RPC_NODE_VERSION`, or the
//!   CLI's `--node-version`), it leaves out what that version did not serve and says which
//!   version it describes in `info.x-node-version` and in `info.description`.
//! - **Components.** Wire types and named schemas live in `components/schemas` and are used by
//!   `$ref`. Interface-local schemas keep their name in their interface's document and are
//!   prefixed with the interface in the combined document (`info.Peer`), so that two interfaces
//!   may define the same name. Method results are inline in their method.
//! - **Errors.** Each method lists the spec's handler errors (code and message; when they
//!   happen is in the method description, as an error object has no description) and then
//!   `$ref`s to the shared JSON-RPC errors in `components/errors` that this project's server
//!   sends for any method: -32700, -32600, -32601, -32602, -32603 and the generic -32000.
//! - **Examples.** One pairing per spec example. Params are listed in the order of the method's
//!   params (those the example gives). A result written in a form only the client reads keeps
//!   that form and carries the normalized value (what the server sends) in `x-normalized`.
//! - **Servers** are `http://127.0.0.1:9650` plus the interface path (the node's default HTTP
//!   port), then each `also-served-at` path. Path variables (`/ext/bc/{chain}`) are server
//!   `variables` whose default is the spec's default or first example (the examples also as
//!   `x-examples`). In the combined document
//!   the servers are per method, with the path also in `x-path`, and the node's flag without
//!   which it does not serve the path (`enabled-by`) in `x-enabled-by`.

use crate::codec::model::{
    Codec, Codecs, ExtraValue, JsonForm, Layout, Struct as CodecStruct, TypeRef as CodecTypeRef,
};
use crate::common::{COMBINED, JSON_RPC_ERRORS, NODE_URL};
use crate::expr::path_vars;
use crate::model::*;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// The OpenRPC version of every document.
pub const OPENRPC_VERSION: &str = "1.3.2";

/// Every document: `<interface>.json` for each interface (in spec order), then `openrpc.json`.
pub fn documents(spec: &Spec) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = spec
        .interfaces
        .iter()
        .filter(|i| format!("{}.json", i.name) != COMBINED)
        .map(|i| (format!("{}.json", i.name), interface_document(spec, i)))
        .collect();
    out.push((COMBINED.to_string(), combined_document(spec)));
    out
}

/// A document as written to disk: pretty-printed with two spaces, and a final newline.
pub fn to_text(doc: &Value) -> String {
    let mut s = serde_json::to_string_pretty(doc).expect("a JSON value always serializes");
    s.push('\n');
    s
}

/// The OpenRPC document of one interface.
pub fn interface_document(spec: &Spec, i: &Interface) -> Value {
    let cx = Cx {
        spec,
        combined: false,
    };
    let methods: Vec<Value> = i.methods.iter().map(|m| cx.method(i, m)).collect();
    let mut doc = Map::new();
    doc.insert("openrpc".into(), json!(OPENRPC_VERSION));
    doc.insert(
        "info".into(),
        info(spec, json!(i.title), interface_description(i)),
    );
    doc.insert("servers".into(), Value::Array(servers(i)));
    let methods = Value::Array(methods);
    let schemas = cx.components(std::slice::from_ref(i), &methods);
    doc.insert("methods".into(), methods);
    doc.insert(
        "components".into(),
        json!({ "schemas": schemas, "errors": error_components() }),
    );
    Value::Object(doc)
}

/// The OpenRPC document of the whole node: every interface's methods, each with its servers.
pub fn combined_document(spec: &Spec) -> Value {
    let cx = Cx {
        spec,
        combined: true,
    };
    let methods: Vec<Value> = spec
        .methods()
        .map(|(i, m)| cx.method(i, m))
        .collect::<Vec<_>>();
    let mut description = String::from(
        "Every JSON-RPC 2.0 method of an avalanchego node, generated from the avalanche-rpc spec. \
         The methods are served at different paths: each method's `servers` (and its `x-path` \
         extension) give its path; the top-level server is the node itself.\n\nInterfaces:\n",
    );
    for i in &spec.interfaces {
        description.push_str(&format!(
            "\n- `{}` ({}), at `{}`: {}",
            i.namespace,
            i.title,
            i.path,
            i.summary.trim_end()
        ));
    }
    let tags: Map<String, Value> = spec
        .interfaces
        .iter()
        .map(|i| {
            (
                i.name.clone(),
                json!({
                    "name": i.name,
                    "description": format!("{}: {}", i.title, i.summary.trim_end()),
                }),
            )
        })
        .collect();
    let methods = Value::Array(methods);
    let schemas = cx.components(&spec.interfaces, &methods);
    json!({
        "openrpc": OPENRPC_VERSION,
        "info": info(spec, json!("Avalanche node JSON-RPC API"), description),
        "servers": [{
            "name": "local node",
            "url": NODE_URL,
            "description": "An avalanchego node on this machine, default HTTP port. Each method's own servers add its path.",
        }],
        "methods": methods,
        "components": {
            "schemas": schemas,
            "errors": error_components(),
            "tags": tags,
        },
    })
}

fn error_components() -> Value {
    Value::Object(
        JSON_RPC_ERRORS
            .iter()
            .map(|(name, code, message)| {
                (
                    name.to_string(),
                    json!({ "code": code, "message": message }),
                )
            })
            .collect(),
    )
}

/// The `info` object: title, the crate's version, the description, and, for a model of one
/// node version, which (`x-node-version`, also said in the description).
fn info(spec: &Spec, title: Value, mut description: String) -> Value {
    let mut info = Map::new();
    info.insert("title".into(), title);
    info.insert("version".into(), json!(env!("CARGO_PKG_VERSION")));
    if let Some(v) = &spec.node_version {
        description.push_str(&format!(
            "\n\nDescribes node version {v}: the methods, params and members it did not serve are left out."
        ));
    }
    info.insert("description".into(), json!(description));
    if let Some(v) = &spec.node_version {
        info.insert("x-node-version".into(), json!(v.to_string()));
    }
    Value::Object(info)
}

/// Info description of an interface: summary, description, path variables, other paths.
fn interface_description(i: &Interface) -> String {
    let mut parts = vec![i.summary.trim_end().to_string()];
    if let Some(d) = &i.description {
        parts.push(d.trim_end().to_string());
    }
    parts.push(format!(
        "Served at `{}`; methods are `{}.<name>`.",
        i.path, i.namespace
    ));
    if !i.path_params.is_empty() {
        let mut s = String::from("Path variables:");
        for p in &i.path_params {
            s.push_str(&format!("\n- `{}`: {}", p.name, p.summary.trim_end()));
            if !p.examples.is_empty() {
                s.push_str(&format!(" Examples: {}.", code_list(&p.examples)));
            }
        }
        parts.push(s);
    }
    if !i.also_served_at.is_empty() {
        parts.push(format!(
            "The node also serves it at {}.",
            code_list(&i.also_served_at)
        ));
    }
    parts.join("\n\n")
}

fn code_list(items: &[String]) -> String {
    items
        .iter()
        .map(|x| format!("`{x}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The servers of an interface: its path, then every `also-served-at` path.
fn servers(i: &Interface) -> Vec<Value> {
    let mut out = vec![server(i, &i.path, "local node", None)];
    for p in &i.also_served_at {
        out.push(server(
            i,
            p,
            &format!("local node, {p}"),
            Some("The node serves the same interface at this path too."),
        ));
    }
    out
}

fn server(i: &Interface, path: &str, name: &str, description: Option<&str>) -> Value {
    let mut s = Map::new();
    s.insert("name".into(), json!(name));
    s.insert("url".into(), json!(format!("{NODE_URL}{path}")));
    if let Some(d) = description {
        s.insert("description".into(), json!(d));
    }
    let vars = path_vars(path).unwrap_or_default();
    if !vars.is_empty() {
        let mut variables = Map::new();
        for v in vars {
            let p = i.path_params.iter().find(|p| p.name == v);
            let default = p
                .and_then(|p| p.default.clone().or_else(|| p.examples.first().cloned()))
                .unwrap_or_default();
            let mut var = Map::new();
            var.insert("default".into(), json!(default));
            if let Some(p) = p {
                let mut d = p.summary.trim_end().to_string();
                if !p.examples.is_empty() {
                    d.push_str(&format!(" Examples: {}.", code_list(&p.examples)));
                    // The same, as data: `avax-rpc conformance` tries a method at each.
                    var.insert("x-examples".into(), json!(p.examples));
                }
                var.insert("description".into(), json!(d));
            }
            variables.insert(v, Value::Object(var));
        }
        s.insert("variables".into(), Value::Object(variables));
    }
    Value::Object(s)
}

/// The text for a field or parameter beyond its summary: description, default, aliases,
/// deprecation and the node note.
pub fn field_details(f: &Field) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(d) = &f.description {
        parts.push(d.trim_end().to_string());
    }
    if let Some(d) = &f.default {
        parts.push(format!("Default: `{d}`."));
    }
    if !f.aliases.is_empty() {
        parts.push(format!("Also read as {}.", code_list(&f.aliases)));
    }
    if let Some(sentence) = f.deprecation() {
        parts.push(sentence);
    }
    if let Some(n) = &f.note {
        parts.push(format!("Node: {}", n.trim_end()));
    }
    if let Some(v) = &f.since {
        parts.push(format!("Since node {v}; older nodes leave it out."));
    }
    if let Some(c) = &f.codec {
        parts.push(format!(
            "Holds a `{}` of codec `{}` (its layout and JSON form: `spec/codec/`; Rust: `{}()`).",
            c.root,
            c.codec,
            crate::emit::names::decoded_accessor(f)
        ));
    }
    parts
}

struct Cx<'a> {
    spec: &'a Spec,
    /// Local schema names get their interface as prefix.
    combined: bool,
}

impl Cx<'_> {
    /// The component name of a named schema or wire type.
    fn key(&self, name: &str, scope: &Scope) -> String {
        match scope {
            Scope::Interface(i) if self.combined => format!("{i}.{name}"),
            _ => name.to_string(),
        }
    }

    fn reference(&self, key: &str) -> Value {
        json!({ "$ref": format!("#/components/schemas/{key}") })
    }

    /// The schema of a type expression: a `$ref` for names, inline for lists and maps.
    fn ty(&self, t: &TypeRef) -> Value {
        match t {
            TypeRef::Wire(n) => self.reference(n),
            TypeRef::Schema { name, scope } => self.reference(&self.key(name, scope)),
            TypeRef::List(inner) => json!({ "type": "array", "items": self.ty(inner) }),
            TypeRef::Map(k, v) => json!({
                "type": "object",
                "propertyNames": self.ty(k),
                "additionalProperties": self.ty(v),
            }),
        }
    }

    /// Whether a type already admits every JSON value (then `null` needs no alternative).
    fn is_any(&self, t: &TypeRef) -> bool {
        match t {
            TypeRef::Wire(n) => self.spec.wire(n).is_some_and(|w| w.json == JsonKind::Any),
            TypeRef::Schema { name, scope } => self.spec.schema(name, scope).is_some_and(|s| {
                s.also_accepts.is_empty() && matches!(&s.body, Body::Alias(t) if self.is_any(t))
            }),
            _ => false,
        }
    }

    /// A field's type with `null` allowed when it is nullable, and its default; a member
    /// whose JSON may be a codec value (`codec:` on a hex-or-JSON member) is that value's JSON
    /// form or its hex.
    fn field_type(&self, f: &Field) -> Value {
        let mut base = self.ty(&f.ty);
        if let (Some(c), TypeRef::Wire(w)) = (&f.codec, &f.ty)
            && self.spec.wire(w).is_some_and(|w| w.rust == "HexOrJson")
            && let Some(key) = codec_root_key(&self.spec.codec, c)
        {
            base = json!({ "anyOf": [self.reference("hex-checksum"), self.reference(&key)] });
        }
        let mut s = Map::new();
        if f.nullable && !self.is_any(&f.ty) {
            s.insert("oneOf".into(), json!([base, { "type": "null" }]));
        } else if f.default.is_some() && base.get("$ref").is_some() {
            // Siblings of `$ref` are ignored in draft 7; wrap it to carry the default.
            s.insert("allOf".into(), json!([base]));
        } else {
            return match (&f.default, base) {
                (Some(d), Value::Object(mut m)) => {
                    m.insert("default".into(), d.clone());
                    Value::Object(m)
                }
                (_, base) => base,
            };
        }
        if let Some(d) = &f.default {
            s.insert("default".into(), d.clone());
        }
        Value::Object(s)
    }

    /// A member of an object: its type plus a description (and `deprecated`).
    fn property(&self, f: &Field, description: String) -> Value {
        let t = self.field_type(f);
        let mut s = Map::new();
        s.insert("description".into(), json!(description));
        match t {
            Value::Object(m) if m.contains_key("$ref") => {
                s.insert("allOf".into(), json!([Value::Object(m)]));
            }
            Value::Object(m) => s.extend(m),
            other => {
                s.insert("allOf".into(), json!([other]));
            }
        }
        if f.deprecated.is_some() {
            s.insert("deprecated".into(), json!(true));
        }
        if let Some(v) = &f.since {
            s.insert("x-since".into(), json!(v.to_string()));
        }
        if let Some(v) = &f.removed {
            s.insert("x-removed".into(), json!(v.to_string()));
        }
        Value::Object(s)
    }

    fn object(&self, fields: &[Field]) -> Value {
        let mut properties = Map::new();
        let mut required = Vec::new();
        let mut either = Vec::new();
        for f in fields {
            let mut d = vec![f.summary.trim_end().to_string()];
            d.extend(field_details(f));
            properties.insert(f.name.clone(), self.property(f, d.join("\n\n")));
            for a in &f.aliases {
                properties.insert(
                    a.clone(),
                    self.property(
                        f,
                        format!(
                            "Another spelling of `{}`, read by the client and the server; only `{}` is written.",
                            f.name, f.name
                        ),
                    ),
                );
            }
            // A member newer than the oldest supported node may be absent: its reply is valid.
            if !f.optional && !f.absent_from_some_node() {
                if f.aliases.is_empty() {
                    required.push(json!(f.name));
                } else {
                    let spellings: Vec<Value> = std::iter::once(&f.name)
                        .chain(&f.aliases)
                        .map(|n| json!({ "required": [n] }))
                        .collect();
                    either.push(json!({ "anyOf": spellings }));
                }
            }
        }
        let mut s = Map::new();
        s.insert("type".into(), json!("object"));
        s.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() {
            s.insert("required".into(), Value::Array(required));
        }
        if !either.is_empty() {
            s.insert("allOf".into(), Value::Array(either));
        }
        s.insert("additionalProperties".into(), json!(true));
        Value::Object(s)
    }

    /// A named schema or a method result: its canonical form, then its `also-accepts` forms.
    fn schema(&self, s: &Schema) -> Value {
        let mut description = s.summary.trim_end().to_string();
        if let Some(d) = &s.description {
            description.push_str("\n\n");
            description.push_str(d.trim_end());
        }
        let canonical = match &s.body {
            Body::Object(fields) => self.object(fields),
            Body::Enum(values) => {
                description.push_str("\n\nValues:");
                for v in values {
                    description.push_str(&format!("\n- `{}`: {}", v.value, v.summary.trim_end()));
                }
                json!({
                    "type": "string",
                    "enum": values.iter().map(|v| v.value.clone()).collect::<Vec<_>>(),
                })
            }
            Body::Alias(t) => self.ty(t),
        };
        let mut out = Map::new();
        out.insert("title".into(), json!(s.name));
        if s.also_accepts.is_empty() {
            out.insert("description".into(), json!(description));
            match canonical {
                Value::Object(m) if !m.contains_key("$ref") => out.extend(m),
                other => {
                    out.insert("allOf".into(), json!([other]));
                }
            }
            return Value::Object(out);
        }
        description.push_str(
            "\n\nThe first form is what the node writes; the others are older or documented forms \
             that the client also reads.",
        );
        out.insert("description".into(), json!(description));
        let mut forms = vec![canonical.clone()];
        for alt in &s.also_accepts {
            forms.push(match alt {
                Alternative::Bare(field) => {
                    let ty = match &s.body {
                        Body::Object(fields) => fields
                            .iter()
                            .find(|f| &f.name == field)
                            .map(|f| self.ty(&f.ty))
                            .unwrap_or_else(|| json!({})),
                        _ => json!({}),
                    };
                    json!({
                        "description": format!("The bare value of `{field}`."),
                        "allOf": [ty],
                    })
                }
                Alternative::WrappedIn(key) => json!({
                    "description": format!("Wrapped as `{{\"{key}\": …}}`."),
                    "type": "object",
                    "properties": { key: canonical },
                    "required": [key],
                    "additionalProperties": false,
                }),
            });
        }
        out.insert("oneOf".into(), Value::Array(forms));
        Value::Object(out)
    }

    fn wire(&self, w: &WireType) -> Value {
        let mut out = Map::new();
        out.insert("title".into(), json!(w.name));
        out.insert("description".into(), json!(w.summary.trim_end()));
        let forms: Vec<Value> = std::iter::once(w.json)
            .chain(w.accepts.iter().copied().filter(|k| *k != w.json))
            .map(|k| match k {
                JsonKind::String => match &w.pattern {
                    Some(p) => json!({ "type": "string", "pattern": p }),
                    None => json!({ "type": "string" }),
                },
                JsonKind::Number => match w.max {
                    Some(max) => json!({ "type": "integer", "minimum": 0, "maximum": max }),
                    None => json!({ "type": "integer", "minimum": 0 }),
                },
                JsonKind::Boolean => json!({ "type": "boolean" }),
                JsonKind::Any => json!({}),
            })
            .collect();
        if forms
            .iter()
            .any(|f| f.as_object().is_some_and(|m| m.is_empty()))
        {
            // Any JSON value: nothing to constrain.
        } else if let [one] = forms.as_slice() {
            out.extend(one.as_object().cloned().unwrap_or_default());
        } else {
            out.insert("oneOf".into(), Value::Array(forms));
        }
        out.insert("examples".into(), json!([w.example]));
        Value::Object(out)
    }

    /// `components/schemas`: every wire type and named schema the methods use (all of them in
    /// the combined document), in spec order: vocabulary, shared schemas, local schemas.
    fn components(&self, interfaces: &[Interface], methods: &Value) -> Value {
        let mut all: Vec<(String, Value)> = Vec::new();
        for w in &self.spec.wire_types {
            all.push((w.name.clone(), self.wire(w)));
        }
        for s in &self.spec.schemas {
            all.push((self.key(&s.name, &Scope::Shared), self.schema(s)));
        }
        for i in interfaces {
            for s in &i.schemas {
                all.push((
                    self.key(&s.name, &Scope::Interface(i.name.clone())),
                    self.schema(s),
                ));
            }
        }
        all.extend(codec_schemas(&self.spec.codec));
        if self.combined {
            return Value::Object(all.into_iter().collect());
        }
        // Only what is reachable from the methods.
        let mut used = BTreeSet::new();
        let mut todo = Vec::new();
        refs(methods, &mut todo);
        while let Some(key) = todo.pop() {
            if used.insert(key.clone())
                && let Some((_, v)) = all.iter().find(|(k, _)| *k == key)
            {
                refs(v, &mut todo);
            }
        }
        Value::Object(all.into_iter().filter(|(k, _)| used.contains(k)).collect())
    }

    fn method(&self, i: &Interface, m: &Method) -> Value {
        let mut o = Map::new();
        o.insert("name".into(), json!(m.wire_name));
        if self.combined {
            o.insert(
                "tags".into(),
                json!([{ "$ref": format!("#/components/tags/{}", i.name) }]),
            );
        }
        o.insert("summary".into(), json!(m.summary.trim_end()));
        o.insert(
            "description".into(),
            json!(method_description(i, m, self.combined)),
        );
        if self.combined {
            o.insert("servers".into(), Value::Array(servers(i)));
            o.insert("x-path".into(), json!(i.path));
            if let Some(flag) = &i.enabled_by {
                o.insert("x-enabled-by".into(), json!(flag));
            }
        }
        if m.is_devnet_only() {
            o.insert("x-source".into(), json!("devnet"));
        }
        if m.is_node_only() {
            o.insert("x-source".into(), json!("node"));
        }
        if m.changes_state {
            o.insert("x-changes-state".into(), json!(true));
        }
        if let Some(v) = &m.since {
            o.insert("x-since".into(), json!(v.to_string()));
        }
        if let Some(v) = &m.removed {
            o.insert("x-removed".into(), json!(v.to_string()));
        }
        if let Some(s) = &m.still_served {
            o.insert("x-still-served".into(), json!({"by": s.by, "why": s.why}));
        }
        if let Some(p) = &m.pagination {
            o.insert("x-pagination".into(), pagination(p));
        }
        // OpenRPC: required params come before optional ones; positional params keep their
        // declared order, which is their place on the wire.
        let params: Vec<Value> = if m.positional {
            o.insert("paramStructure".into(), json!("by-position"));
            m.params.iter().map(|p| self.param(p)).collect()
        } else {
            o.insert("paramStructure".into(), json!("by-name"));
            m.params_required_first().map(|p| self.param(p)).collect()
        };
        o.insert("params".into(), Value::Array(params));
        let mut result = Map::new();
        result.insert("name".into(), json!(m.result.name));
        result.insert("summary".into(), json!(m.result.summary));
        if let Some(d) = &m.result.description {
            result.insert("description".into(), json!(d.trim_end()));
        }
        result.insert("schema".into(), self.schema(&m.result));
        o.insert("result".into(), Value::Object(result));
        let mut errors: Vec<Value> = m
            .errors
            .iter()
            .map(|e| json!({ "code": e.code, "message": e.message }))
            .collect();
        errors.extend(
            JSON_RPC_ERRORS
                .iter()
                .map(|(name, _, _)| json!({ "$ref": format!("#/components/errors/{name}") })),
        );
        o.insert("errors".into(), Value::Array(errors));
        if m.deprecated.is_some() {
            o.insert("deprecated".into(), json!(true));
        }
        let examples: Vec<Value> = m.examples.iter().map(|e| example(m, e)).collect();
        o.insert("examples".into(), Value::Array(examples));
        Value::Object(o)
    }

    fn param(&self, p: &Field) -> Value {
        let mut o = Map::new();
        o.insert("name".into(), json!(p.name));
        o.insert("summary".into(), json!(p.summary.trim_end()));
        let details = field_details(p);
        if !details.is_empty() {
            o.insert("description".into(), json!(details.join("\n\n")));
        }
        o.insert("required".into(), json!(!p.optional));
        if p.deprecated.is_some() {
            o.insert("deprecated".into(), json!(true));
        }
        o.insert("schema".into(), self.field_type(p));
        if !p.aliases.is_empty() {
            o.insert("x-aliases".into(), json!(p.aliases));
        }
        if let Some(v) = &p.since {
            o.insert("x-since".into(), json!(v.to_string()));
        }
        if let Some(v) = &p.removed {
            o.insert("x-removed".into(), json!(v.to_string()));
        }
        Value::Object(o)
    }
}

/// Every `#/components/schemas/…` name referenced inside `v`.
fn refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("$ref", Value::String(r)) => {
                        if let Some(name) = r.strip_prefix("#/components/schemas/") {
                            out.push(name.to_string());
                        }
                    }
                    _ => refs(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
        _ => {}
    }
}

/// Every schema component that refers to itself, directly or through other components, as
/// `name -> … -> name` paths. Empty for a well-formed document.
pub fn self_references(doc: &Value) -> Vec<String> {
    let Some(schemas) = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
    else {
        return Vec::new();
    };
    let direct = |name: &str| -> Vec<String> {
        let mut r = Vec::new();
        if let Some(v) = schemas.get(name) {
            refs(v, &mut r);
        }
        r
    };
    let mut out = Vec::new();
    for start in schemas.keys() {
        // Depth-first search for a path back to `start`.
        let mut seen = BTreeSet::new();
        let mut stack: Vec<Vec<String>> = vec![vec![start.clone()]];
        while let Some(path) = stack.pop() {
            let last = path.last().cloned().unwrap_or_default();
            for next in direct(&last) {
                if next == *start {
                    let mut p = path.clone();
                    p.push(next);
                    out.push(p.join(" -> "));
                    stack.clear();
                    break;
                }
                if seen.insert(next.clone()) {
                    let mut p = path.clone();
                    p.push(next);
                    stack.push(p);
                }
            }
        }
    }
    out
}

/// The description of a method: its text, deprecation, origin, the node notes of its params
/// and result members, its errors, and (in the combined document) its path.
fn method_description(i: &Interface, m: &Method, combined: bool) -> String {
    let mut parts = Vec::new();
    if let Some(d) = &m.description {
        parts.push(d.trim_end().to_string());
    }
    if let Some(sentence) = m.deprecation() {
        parts.push(format!("**{sentence}**"));
    }
    if m.is_node_only() {
        parts.push("Served by the node but absent from the API description.".into());
    }
    if let Some(v) = &m.since {
        parts.push(format!("Served since node {v}."));
    }
    let mut notes = Vec::new();
    for p in &m.params {
        if let Some(n) = &p.note {
            notes.push(format!("- param `{}`: {}", p.name, n.trim_end()));
        }
    }
    if let Body::Object(fields) = &m.result.body {
        for f in fields {
            if let Some(n) = &f.note {
                notes.push(format!("- result `{}`: {}", f.name, n.trim_end()));
            }
        }
    }
    if !notes.is_empty() {
        parts.push(format!(
            "Where the node differs from the description:\n{}",
            notes.join("\n")
        ));
    }
    if !m.errors.is_empty() {
        let lines: Vec<String> = m
            .errors
            .iter()
            .map(|e| {
                let code = if e.code == -32000 {
                    String::new()
                } else {
                    format!(" ({})", e.code)
                };
                match &e.when {
                    Some(w) => format!("- `{}`{code}: {}", e.message, w.trim_end()),
                    None => format!("- `{}`{code}", e.message),
                }
            })
            .collect();
        parts.push(format!(
            "Errors (code -32000 unless given):\n{}",
            lines.join("\n")
        ));
    }
    if combined {
        let mut s = format!("Served at `{}`", i.path);
        if !i.also_served_at.is_empty() {
            s.push_str(&format!(" (also at {})", code_list(&i.also_served_at)));
        }
        s.push('.');
        parts.push(s);
    }
    parts.join("\n\n")
}

/// One example pairing: params in the order of the method's params, the result as given.
fn example(m: &Method, e: &Example) -> Value {
    let params: Vec<Value> = m
        .params_required_first()
        .filter_map(|p| {
            e.params
                .get(&p.name)
                .map(|v| json!({ "name": p.name, "value": v }))
        })
        .collect();
    let mut result = Map::new();
    result.insert("name".into(), json!(m.result.name));
    result.insert("value".into(), e.result.clone());
    let mut o = Map::new();
    o.insert("name".into(), json!(e.name));
    let mut description = e.summary.clone().unwrap_or_default();
    if let Some(n) = &e.normalized {
        if !description.is_empty() {
            description.push_str("\n\n");
        }
        description.push_str(
            "The result is in a form only the client reads; `x-normalized` holds what the client \
             turns it into, which is what the server sends.",
        );
        result.insert("x-normalized".into(), n.clone());
    }
    if !description.is_empty() {
        o.insert("description".into(), json!(description));
    }
    o.insert("params".into(), Value::Array(params));
    o.insert("result".into(), Value::Object(result));
    Value::Object(o)
}

/// The component key of a codec type: `codec.<module>.<Name>`, the module being the codec's
/// for a struct bound to it, else the package's.
fn codec_key(c: &Codecs, k: Option<&Codec>, t: &CodecTypeRef) -> String {
    let bound = k.filter(|k| k.codec_bound.contains(t));
    let _ = c;
    format!(
        "codec.{}.{}",
        bound.map_or(t.package.as_str(), |k| k.name.as_str()),
        t.name
    )
}

/// The component key of a codec's root named in the spec (`platform platform.Tx`).
fn codec_root_key(c: &Codecs, r: &CodecRef) -> Option<String> {
    let k = c.codecs.iter().find(|k| k.name == r.codec)?;
    let root = k.roots.iter().find(|x| x.layout.spec_text() == r.root)?;
    match &root.layout {
        Layout::Struct(t) => Some(codec_key(c, Some(k), t)),
        Layout::Slot(s) => Some(format!("codec.{}.{s}", k.name)),
        _ => None,
    }
}

/// The JSON forms of the codec's types, as the node writes them (`encoding: json`): one
/// object per struct (inlined structs' members in its place, JSON-only members included, no
/// other member), one `anyOf` per slot of each codec.
fn codec_schemas(c: &Codecs) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = Vec::new();
    let mut push = |key: String, v: Value| {
        if !out.iter().any(|(k, _)| *k == key) {
            out.push((key, v));
        }
    };
    for k in &c.codecs {
        for t in &k.reached {
            if let Some(s) = c.get(t) {
                push(codec_key(c, Some(k), t), codec_struct(c, k, s));
            }
        }
        for slot in &k.slots {
            let forms: Vec<Value> = slot
                .types
                .iter()
                .map(|t| json!({ "$ref": format!("#/components/schemas/{}", codec_key(c, Some(k), t)) }))
                .collect();
            push(
                format!("codec.{}.{}", k.name, slot.name),
                json!({
                    "description": format!("What slot `{}` holds in codec `{}`, in its JSON form: one of its types, told apart by their members (some, as the fxs' credentials, have the same).", slot.name, k.name),
                    "anyOf": forms,
                }),
            );
        }
    }
    out
}

fn codec_struct(c: &Codecs, k: &Codec, s: &CodecStruct) -> Value {
    let mut properties = Map::new();
    codec_members(c, k, s, &mut properties, 0);
    for x in &s.json_extra {
        let d = match &x.value {
            ExtraValue::Id => "The ID: SHA-256 of the bytes.",
            _ => "The ID of the fx the value belongs to.",
        };
        let mut p = json!({ "description": d, "allOf": [{ "$ref": "#/components/schemas/id" }] });
        codec_since(&mut p, x.since);
        properties.insert(x.name.clone(), p);
    }
    // A member newer than the oldest supported node may be absent: its JSON is valid.
    let mut newer = Vec::new();
    codec_newer(c, s, &mut newer, 0);
    let required: Vec<Value> = properties
        .keys()
        .filter(|k| !newer.contains(k))
        .map(|k| json!(k))
        .collect();
    json!({
        "title": s.name.to_string(),
        "description": s.summary,
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

fn codec_members(c: &Codecs, k: &Codec, s: &CodecStruct, m: &mut Map<String, Value>, depth: usize) {
    for f in &s.fields {
        match (&f.layout, f.inline) {
            (Layout::Struct(t), true) if depth < 16 => {
                if let Some(inner) = c.get(t) {
                    codec_members(c, k, inner, m, depth + 1);
                }
            }
            _ => {
                let mut v = codec_value(c, k, &f.layout, f.json_form);
                if v.get("$ref").is_some() {
                    v = json!({ "allOf": [v] });
                }
                if let Value::Object(o) = &mut v {
                    o.insert("description".into(), json!(f.summary));
                }
                codec_since(&mut v, f.since);
                m.insert(f.json.clone(), v);
            }
        }
    }
}

/// The JSON members of a struct that nodes newer than the oldest supported one added (an
/// inlined struct's included).
fn codec_newer(c: &Codecs, s: &CodecStruct, out: &mut Vec<String>, depth: usize) {
    for f in &s.fields {
        match (&f.layout, f.inline) {
            (Layout::Struct(t), true) if depth < 16 => {
                if let Some(inner) = c.get(t) {
                    codec_newer(c, inner, out, depth + 1);
                }
            }
            _ if f.newer_than_oldest => out.push(f.json.clone()),
            _ => {}
        }
    }
    out.extend(
        s.json_extra
            .iter()
            .filter(|x| x.newer_than_oldest)
            .map(|x| x.name.clone()),
    );
}

/// A codec member's `since`: a sentence of its description and `x-since`.
fn codec_since(p: &mut Value, since: Option<Version>) {
    if let (Some(v), Value::Object(o)) = (since, p) {
        let d = o.get("description").and_then(Value::as_str).unwrap_or("");
        let d = format!("{d} Since node {v}; older nodes leave it out of the JSON form.");
        o.insert("description".into(), json!(d.trim_start()));
        o.insert("x-since".into(), json!(v.to_string()));
    }
}

fn codec_value(c: &Codecs, k: &Codec, l: &Layout, form: Option<JsonForm>) -> Value {
    let wire = |name: &str| json!({ "$ref": format!("#/components/schemas/{name}") });
    match l {
        Layout::U8 => json!({ "type": "integer", "minimum": 0, "maximum": 255 }),
        Layout::U16 => json!({ "type": "integer", "minimum": 0, "maximum": 65535 }),
        Layout::U32 => json!({ "type": "integer", "minimum": 0, "maximum": 4294967295u64 }),
        Layout::U64 => json!({ "type": "integer", "minimum": 0 }),
        Layout::I64 => json!({ "type": "integer" }),
        Layout::Bool => json!({ "type": "boolean" }),
        Layout::Id => wire("id"),
        Layout::NodeId => wire("node-id"),
        Layout::EvmAddress => wire("evm-address"),
        Layout::ShortId if form == Some(JsonForm::Cb58) => wire("short-id"),
        Layout::ShortId => wire("address"),
        Layout::Bytes | Layout::FixedBytes(_) => match form {
            Some(JsonForm::Base64) => json!({ "type": "string", "contentEncoding": "base64" }),
            Some(JsonForm::Numbers) => {
                json!({ "type": "array", "items": { "type": "integer", "minimum": 0, "maximum": 255 } })
            }
            _ => wire("hex"),
        },
        Layout::String => json!({ "type": "string" }),
        Layout::List(inner) => json!({ "type": "array", "items": codec_value(c, k, inner, form) }),
        Layout::Struct(t) => {
            json!({ "$ref": format!("#/components/schemas/{}", codec_key(c, Some(k), t)) })
        }
        Layout::Slot(s) => json!({ "$ref": format!("#/components/schemas/codec.{}.{s}", k.name) }),
    }
}

/// `x-pagination`: the spec's `pagination:` with camel-case keys.
fn pagination(p: &Pagination) -> Value {
    let mut o = Map::new();
    o.insert("items".into(), json!(p.items));
    if let Some(size) = &p.page_size {
        o.insert(
            "pageSize".into(),
            json!({ "param": size.param, "max": size.max }),
        );
    }
    match &p.cursor {
        Some(PageCursor::FromResult { param, member }) => {
            o.insert("cursor".into(), json!({ "param": param, "from": member }));
        }
        Some(PageCursor::Offset { param }) => {
            o.insert("cursor".into(), json!({ "param": param, "offset": true }));
        }
        None => {}
    }
    if p.may_repeat {
        o.insert("mayRepeat".into(), json!(true));
    }
    if !p.ends_with.is_empty() {
        o.insert("endsWith".into(), json!(p.ends_with));
    }
    Value::Object(o)
}
