//! Reading the spec folder and turning it into the model, with every problem reported.

use crate::conform::{Mode, conform, conform_params, conform_schema};
use crate::model::*;
use crate::naming;
use crate::raw;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// One problem in the spec: which file, where in it, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    pub file: String,
    /// e.g. "method `info.peers`, param `nodeIDs`"; empty for file-level problems.
    pub at: String,
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}: {}: {}", self.file, self.at, self.message)
        }
    }
}

/// Every problem found, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecErrors(pub Vec<SpecError>);

impl fmt::Display for SpecErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "the spec has {} problem(s):", self.0.len())?;
        for e in &self.0 {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SpecErrors {}

/// The spec's files as text, named relative to the spec folder.
#[derive(Debug, Default, Clone)]
pub struct Sources {
    /// `versions.yaml`, when the folder has one.
    pub versions: Option<(String, String)>,
    pub wire_types: (String, String),
    pub schemas: Vec<(String, String)>,
    pub interfaces: Vec<(String, String)>,
}

impl Sources {
    /// Reads `wire-types.yaml`, `schemas/*.yaml` and `interfaces/*.yaml` (sorted by name).
    pub fn read_dir(dir: &Path) -> Result<Sources, SpecErrors> {
        let fail = |file: &str, message: String| {
            SpecErrors(vec![SpecError {
                file: file.to_string(),
                at: String::new(),
                message,
            }])
        };
        let read = |rel: &str| {
            std::fs::read_to_string(dir.join(rel))
                .map_err(|e| fail(rel, format!("cannot read {}: {e}", dir.join(rel).display())))
        };
        let list = |sub: &str| -> Result<Vec<(String, String)>, SpecErrors> {
            let path = dir.join(sub);
            let entries = std::fs::read_dir(&path)
                .map_err(|e| fail(sub, format!("cannot list {}: {e}", path.display())))?;
            let mut names: Vec<String> = entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml"))
                .collect();
            names.sort();
            names
                .into_iter()
                .map(|n| {
                    let rel = format!("{sub}/{n}");
                    read(&rel).map(|text| (rel, text))
                })
                .collect()
        };
        let versions = if dir.join("versions.yaml").exists() {
            Some(("versions.yaml".to_string(), read("versions.yaml")?))
        } else {
            None
        };
        Ok(Sources {
            versions,
            wire_types: ("wire-types.yaml".to_string(), read("wire-types.yaml")?),
            schemas: list("schemas")?,
            interfaces: list("interfaces")?,
        })
    }

    /// Every file, for build scripts that re-run when one changes.
    pub fn file_names(&self) -> impl Iterator<Item = &str> {
        self.versions
            .iter()
            .map(|(n, _)| n.as_str())
            .chain(std::iter::once(self.wire_types.0.as_str()))
            .chain(self.schemas.iter().map(|(n, _)| n.as_str()))
            .chain(self.interfaces.iter().map(|(n, _)| n.as_str()))
    }
}

/// Loads and validates the spec folder.
pub fn load_dir(dir: &Path) -> Result<Spec, SpecErrors> {
    load(&Sources::read_dir(dir)?)
}

/// Validates the sources into one model.
pub fn load(sources: &Sources) -> Result<Spec, SpecErrors> {
    let mut cx = Cx::default();

    // 1. Parse every file.
    let wire_raw: Option<raw::OrderedMap<raw::WireType>> =
        cx.parse(&sources.wire_types.0, &sources.wire_types.1);
    let schema_files: Vec<(String, raw::OrderedMap<raw::Schema>)> = sources
        .schemas
        .iter()
        .filter_map(|(f, t)| cx.parse(f, t).map(|m| (f.clone(), m)))
        .collect();
    let iface_files: Vec<(String, raw::Interface)> = sources
        .interfaces
        .iter()
        .filter_map(|(f, t)| cx.parse(f, t).map(|i| (f.clone(), i)))
        .collect();
    let Some(wire_raw) = wire_raw else {
        return Err(SpecErrors(cx.errors));
    };
    if let Some((file, text)) = &sources.versions
        && let Some(v) = cx.parse::<raw::Versions>(file, text)
    {
        let oldest = cx.version(file, "oldest-supported", &v.oldest_supported);
        let checked = cx.version(file, "checked-against", &v.checked_against);
        cx.versions = Versions {
            oldest_supported: oldest.unwrap_or_default(),
            checked_against: checked,
        };
    }

    // 2. The vocabulary.
    let mut wire_types = Vec::new();
    for (name, w) in wire_raw.0 {
        let file = &sources.wire_types.0;
        let regex = match &w.pattern {
            Some(p) => match regex::Regex::new(p) {
                Ok(r) => Some(r),
                Err(e) => {
                    cx.err(
                        file,
                        format!("wire type `{name}`"),
                        format!("bad pattern: {e}"),
                    );
                    None
                }
            },
            None => None,
        };
        if !is_wire_type_name(&name) {
            cx.err(
                file,
                format!("wire type `{name}`"),
                "names are lower-case words joined by `-`".into(),
            );
        }
        if !is_wire_ident(&w.rust) {
            cx.err(
                file,
                format!("wire type `{name}`"),
                format!(
                    "`rust: {}` must name a runtime type (letters, digits and `_`)",
                    w.rust
                ),
            );
        }
        wire_types.push(WireType {
            name,
            summary: w.summary,
            json: json_kind(w.json),
            accepts: w.accepts.into_iter().map(json_kind).collect(),
            pattern: w.pattern,
            regex,
            max: w.max,
            rust: w.rust,
            example: w.example,
        });
    }

    // 3. Names of every schema, to resolve references before building.
    let mut shared_names: BTreeMap<String, String> = BTreeMap::new(); // name -> file
    for (file, map) in &schema_files {
        for (name, _) in &map.0 {
            if let Some(first) = shared_names.get(name) {
                cx.err(
                    file,
                    format!("schema `{name}`"),
                    format!("defined twice (also in {first})"),
                );
            } else {
                shared_names.insert(name.clone(), file.clone());
            }
        }
    }
    let names = Names {
        wire: wire_types.iter().map(|w| w.name.clone()).collect(),
        shared: shared_names.keys().cloned().collect(),
        taken: TAKEN_RUST_NAMES
            .iter()
            .map(|n| n.to_string())
            .chain(wire_types.iter().map(|w| w.rust.clone()))
            .collect(),
    };

    let mut schemas = Vec::new();
    for (file, map) in schema_files {
        for (name, s) in map.0 {
            if names.wire.contains(&name) {
                cx.err(
                    &file,
                    format!("schema `{name}`"),
                    "has the name of a wire type".into(),
                );
            }
            schemas.extend(cx.schema(&file, &format!("schema `{name}`"), name, s, &names, None));
        }
    }

    // 4. Interfaces.
    let mut interfaces: Vec<Interface> = Vec::new();
    for (file, i) in iface_files {
        if let Some(iface) = cx.interface(&file, i, &names) {
            if let Some(other) = interfaces.iter().find(|o| o.name == iface.name) {
                cx.err(
                    &file,
                    String::new(),
                    format!(
                        "interface name `{}` is also used by {}",
                        iface.name, other.file
                    ),
                );
                continue;
            }
            interfaces.push(iface);
        }
    }
    let spec = Spec {
        versions: cx.versions.clone(),
        wire_types,
        schemas,
        interfaces,
    };
    if !cx.errors.is_empty() {
        return Err(SpecErrors(cx.errors));
    }

    // 5. Checks that need the whole model: references, alternatives, examples.
    check_model(&mut cx, &spec);
    if !cx.errors.is_empty() {
        return Err(SpecErrors(cx.errors));
    }
    Ok(spec)
}

struct Names {
    wire: Vec<String>,
    shared: Vec<String>,
    /// Rust names the generated modules already use: a schema of that name would shadow them.
    taken: Vec<String>,
}

/// Types and imports every generated module refers to (besides the wire types' own names).
const TAKEN_RUST_NAMES: &[&str] = &[
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "Vec",
    "String",
    "Box",
    "BTreeMap",
    "Future",
    "Value",
    "BoxFuture",
    "ClientError",
    "Dispatch",
    "Endpoint",
    "NoParams",
    "Params",
    "Reply",
    "RpcError",
    "Transport",
    "MethodInfo",
    "Example",
    "Rule",
    "Step",
    "Form",
    "SpecExamples",
];

#[derive(Default)]
struct Cx {
    errors: Vec<SpecError>,
    versions: Versions,
}

impl Cx {
    /// A node version, or an error naming where it was written.
    fn version(&mut self, file: &str, at: &str, text: &str) -> Option<Version> {
        match text.parse::<Version>() {
            Ok(v) => Some(v),
            Err(e) => {
                self.err(file, at.to_string(), e);
                None
            }
        }
    }

    fn err(&mut self, file: &str, at: String, message: String) {
        self.errors.push(SpecError {
            file: file.to_string(),
            at,
            message,
        });
    }

    fn parse<T: serde::de::DeserializeOwned>(&mut self, file: &str, text: &str) -> Option<T> {
        // A first pass into YAML values rejects duplicate keys everywhere, also inside
        // examples and defaults, where a JSON value would silently keep the last one.
        let parsed = serde_yaml::from_str::<serde_yaml::Value>(text)
            .and_then(|_| serde_yaml::from_str(text));
        match parsed {
            Ok(v) => Some(v),
            Err(e) => {
                let at = e
                    .location()
                    .map(|l| format!("line {}, column {}", l.line(), l.column()))
                    .unwrap_or_default();
                let msg = e.to_string();
                // serde_yaml appends " at line X column Y"; keep the message short.
                let msg = match msg.find(" at line ") {
                    Some(i) => msg[..i].to_string(),
                    None => msg,
                };
                self.err(file, at, msg);
                None
            }
        }
    }

    fn ty(
        &mut self,
        file: &str,
        at: &str,
        text: &str,
        names: &Names,
        local: Option<(&str, &[String])>,
    ) -> Option<TypeRef> {
        match parse_type(text, &|n| {
            if names.wire.iter().any(|w| w == n) {
                Some(TypeRef::Wire(n.to_string()))
            } else if let Some((iface, locals)) = local.filter(|(_, l)| l.iter().any(|x| x == n)) {
                let _ = locals;
                Some(TypeRef::Schema {
                    name: n.to_string(),
                    scope: Scope::Interface(iface.to_string()),
                })
            } else if names.shared.iter().any(|s| s == n) {
                Some(TypeRef::Schema {
                    name: n.to_string(),
                    scope: Scope::Shared,
                })
            } else {
                None
            }
        }) {
            Ok(t) => Some(t),
            Err(e) => {
                self.err(file, at.to_string(), e);
                None
            }
        }
    }

    fn fields(
        &mut self,
        file: &str,
        at: &str,
        raw: Vec<raw::Field>,
        names: &Names,
        local: Option<(&str, &[String])>,
    ) -> Vec<Field> {
        let mut out: Vec<Field> = Vec::new();
        let mut rust_names: BTreeMap<String, String> = BTreeMap::new();
        for f in raw {
            let fat = format!("{at}, field `{}`", f.name);
            if !is_wire_ident(&f.name) {
                self.err(
                    file,
                    fat.clone(),
                    "a field name is letters, digits and `_`, not starting with a digit".into(),
                );
            }
            for spelled in std::iter::once(&f.name).chain(&f.aliases) {
                if out
                    .iter()
                    .any(|o| o.name == *spelled || o.aliases.contains(spelled))
                {
                    self.err(
                        file,
                        fat.clone(),
                        format!("the name `{spelled}` is used twice"),
                    );
                }
            }
            let rust = naming::snake(&f.name);
            // The same wire name twice is reported above.
            if let Some(other) = rust_names.insert(rust.clone(), f.name.clone())
                && other != f.name
            {
                self.err(
                    file,
                    fat.clone(),
                    format!(
                        "`{}` and `{other}` both become the Rust name `{rust}`",
                        f.name
                    ),
                );
            }
            if f.summary.trim().is_empty() {
                self.err(file, fat.clone(), "summary is empty".into());
            }
            if (f.optional || f.default.is_some()) && f.nullable {
                self.err(
                    file,
                    fat.clone(),
                    "is both `optional` (or has a `default`) and `nullable`; choose the one the node does".into(),
                );
            }
            if let Some(d) = &f.deprecated
                && d.since.trim().is_empty()
            {
                self.err(file, fat.clone(), "deprecated without `since`".into());
            }
            let since = f
                .since
                .as_deref()
                .and_then(|v| self.version(file, &format!("{fat}, since"), v));
            let Some(ty) = self.ty(file, &fat, &f.ty, names, local) else {
                continue;
            };
            out.push(Field {
                newer_than_oldest: since.is_some_and(|v| v > self.versions.oldest_supported),
                since,
                name: f.name,
                ty,
                summary: f.summary,
                description: f.description,
                optional: f.optional || f.default.is_some(),
                nullable: f.nullable,
                default: f.default,
                aliases: f.aliases,
                deprecated: f.deprecated.map(deprecated),
                note: f.note,
            });
        }
        out
    }

    fn schema(
        &mut self,
        file: &str,
        at: &str,
        name: String,
        s: raw::Schema,
        names: &Names,
        local: Option<(&str, &[String])>,
    ) -> Option<Schema> {
        if names.taken.contains(&name) {
            self.err(
                file,
                at.to_string(),
                format!(
                    "`{name}` is a Rust type the generated code already uses; choose another name"
                ),
            );
        }
        if !is_type_name(&name) {
            self.err(
                file,
                at.to_string(),
                "schema names are PascalCase (`Owner`, `TxStatus`) and not `Self`".into(),
            );
        }
        if s.summary.trim().is_empty() {
            self.err(file, at.to_string(), "summary is empty".into());
        }
        let body = self.body(file, at, s.fields, s.values, s.ty, names, local)?;
        Some(Schema {
            name,
            file: file.to_string(),
            summary: s.summary,
            description: s.description,
            body,
            also_accepts: s.also_accepts.into_iter().map(alternative).collect(),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn body(
        &mut self,
        file: &str,
        at: &str,
        fields: Option<Vec<raw::Field>>,
        values: Option<Vec<raw::EnumValue>>,
        ty: Option<String>,
        names: &Names,
        local: Option<(&str, &[String])>,
    ) -> Option<Body> {
        match (fields, values, ty) {
            (Some(f), None, None) => Some(Body::Object(self.fields(file, at, f, names, local))),
            (None, Some(v), None) => {
                if v.is_empty() {
                    self.err(
                        file,
                        at.to_string(),
                        "an enumeration needs at least one value".into(),
                    );
                }
                let mut seen = Vec::new();
                for e in &v {
                    let variant = naming::variant(&e.value);
                    if variant.is_empty()
                        || !variant
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_')
                    {
                        self.err(
                            file,
                            at.to_string(),
                            format!(
                                "enum value `{}` has no Rust name: use letters, digits and `_`, `-`, `.` or spaces between words",
                                e.value
                            ),
                        );
                    }
                    if seen.contains(&variant) {
                        self.err(
                            file,
                            at.to_string(),
                            format!("enum value `{}` is listed twice", e.value),
                        );
                    }
                    if variant == "Unrecognized" {
                        self.err(
                            file,
                            at.to_string(),
                            format!(
                                "enum value `{}` takes the Rust name `Unrecognized`, which every enumeration keeps for values it does not know",
                                e.value
                            ),
                        );
                    }
                    seen.push(variant);
                }
                Some(Body::Enum(
                    v.into_iter()
                        .map(|e| EnumValue {
                            value: e.value,
                            summary: e.summary,
                        })
                        .collect(),
                ))
            }
            (None, None, Some(t)) => self.ty(file, at, &t, names, local).map(Body::Alias),
            _ => {
                self.err(
                    file,
                    at.to_string(),
                    "give exactly one of `fields`, `values` or `type`".into(),
                );
                None
            }
        }
    }

    fn interface(&mut self, file: &str, i: raw::Interface, names: &Names) -> Option<Interface> {
        let stem = Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if i.name != stem {
            self.err(
                file,
                String::new(),
                format!(
                    "interface `{}` should live in interfaces/{}.yaml",
                    i.name, i.name
                ),
            );
        }
        if !is_wire_type_name(&i.name) {
            self.err(
                file,
                String::new(),
                "interface names are lower-case words joined by `-`".into(),
            );
        }
        // The generated crate already has these modules and `Node` methods.
        if matches!(
            naming::snake(&i.name).as_str(),
            "types" | "rpc" | "wire" | "new" | "http" | "transport"
        ) {
            self.err(
                file,
                String::new(),
                format!(
                    "the interface name `{}` is taken in the generated crate (`types`, `rpc`, `wire`, `Node::new`, `Node::http`, `Node::transport`)",
                    i.name
                ),
            );
        }
        if !is_wire_ident(&i.namespace) {
            self.err(
                file,
                String::new(),
                format!("namespace `{}` is not an identifier", i.namespace),
            );
        }
        // Path and its variables.
        let vars = path_vars(&i.path);
        match &vars {
            Err(e) => self.err(file, "path".into(), e.clone()),
            Ok(vars) => {
                for v in vars {
                    // Generated functions take the variables next to these parameters.
                    if matches!(naming::snake(v).as_str(), "transport" | "server") {
                        self.err(
                            file,
                            "path".into(),
                            format!("`{{{v}}}` is taken by a generated parameter; rename it"),
                        );
                    }
                    if !i.path_params.0.iter().any(|(n, _)| n == v) {
                        self.err(
                            file,
                            "path".into(),
                            format!("`{{{v}}}` has no entry in `path-params`"),
                        );
                    }
                }
                for (n, _) in &i.path_params.0 {
                    if !vars.contains(n) {
                        self.err(
                            file,
                            "path-params".into(),
                            format!("`{n}` does not appear in the path"),
                        );
                    }
                }
            }
        }
        for p in std::iter::once(&i.path).chain(&i.also_served_at) {
            if !p.starts_with('/') {
                self.err(file, "path".into(), format!("`{p}` must start with `/`"));
            }
        }
        let vars = vars.unwrap_or_default();
        let path_params = vars
            .iter()
            .filter_map(|v| i.path_params.0.iter().find(|(n, _)| n == v))
            .map(|(n, p)| PathParam {
                name: n.clone(),
                summary: p.summary.clone(),
                default: p.default.clone(),
                examples: p.examples.clone(),
            })
            .collect();

        let local_names: Vec<String> = i.schemas.0.iter().map(|(n, _)| n.clone()).collect();
        for n in &local_names {
            if names.shared.contains(n) {
                self.err(
                    file,
                    format!("schema `{n}`"),
                    "is also a shared schema in schemas/; rename one".into(),
                );
            }
            if names.wire.contains(n) {
                self.err(
                    file,
                    format!("schema `{n}`"),
                    "has the name of a wire type".into(),
                );
            }
        }
        let local = Some((i.name.as_str(), local_names.as_slice()));
        let mut schemas = Vec::new();
        for (name, s) in i.schemas.0 {
            let at = format!("schema `{name}`");
            schemas.extend(self.schema(file, &at, name, s, names, local));
        }

        let mut methods: Vec<Method> = Vec::new();
        let mut rust_names: BTreeMap<String, String> = BTreeMap::new();
        for m in i.methods {
            let wire_name = format!("{}.{}", i.namespace, m.name);
            let at = format!("method `{wire_name}`");
            if !is_wire_ident(&m.name) || m.name.starts_with(|c: char| c.is_ascii_uppercase()) {
                self.err(
                    file,
                    at.clone(),
                    "method names start with a lower-case letter and hold letters and digits"
                        .into(),
                );
            }
            if naming::screaming(&m.name) == "ALL" {
                self.err(
                    file,
                    at.clone(),
                    "the name is taken by the generated list `methods::ALL`".into(),
                );
            }
            if methods.iter().any(|o| o.name == m.name) {
                self.err(file, at.clone(), "is defined twice".into());
                continue;
            }
            let rust = naming::snake(&m.name);
            if let Some(other) = rust_names.insert(rust.clone(), m.name.clone()) {
                self.err(
                    file,
                    at.clone(),
                    format!(
                        "`{}` and `{other}` both become the Rust name `{rust}`",
                        m.name
                    ),
                );
            }
            let result_name = format!("{}Result", naming::pascal(&m.name));
            let params_name = naming::params_type(&m.name);
            if let Some(n) = [&result_name, &params_name]
                .into_iter()
                .find(|n| names.shared.contains(n))
            {
                self.err(
                    file,
                    at.clone(),
                    format!("the shared schema `{n}` has the name this method's type takes"),
                );
            }
            if local_names.contains(&result_name) || local_names.contains(&params_name) {
                self.err(
                    file,
                    at.clone(),
                    format!("a local schema takes the name `{result_name}` or its Params twin"),
                );
            }
            if m.summary.trim().is_empty() {
                self.err(file, at.clone(), "summary is empty".into());
            }
            if let Some(src) = &m.source
                && src != "node"
                && src != "description"
            {
                self.err(
                    file,
                    at.clone(),
                    format!("`source` is `node` or `description`, not `{src}`"),
                );
            }
            if let Some(d) = &m.deprecated
                && d.since.trim().is_empty()
            {
                self.err(file, at.clone(), "deprecated without `since`".into());
            }
            if m.examples.is_empty() {
                self.err(file, at.clone(), "needs at least one example".into());
            }
            let since = m
                .since
                .as_deref()
                .and_then(|v| self.version(file, &format!("{at}, since"), v));
            let params = self.fields(file, &format!("{at}, params"), m.params, names, local);
            let result_at = format!("{at}, result");
            let Some(body) = self.body(
                file,
                &result_at,
                m.result.fields,
                None,
                m.result.ty,
                names,
                local,
            ) else {
                continue;
            };
            let result = Schema {
                name: result_name,
                file: file.to_string(),
                summary: format!("Result of `{wire_name}`."),
                description: m.result.description,
                body,
                also_accepts: m.result.also_accepts.into_iter().map(alternative).collect(),
            };
            methods.push(Method {
                name: m.name,
                wire_name,
                summary: m.summary,
                description: m.description,
                deprecated: m.deprecated.map(deprecated),
                source: m.source,
                since,
                params,
                result,
                errors: m
                    .errors
                    .into_iter()
                    .map(|e| ErrorCase {
                        code: e.code.unwrap_or(-32000),
                        message: e.message,
                        when: e.when,
                    })
                    .collect(),
                examples: m
                    .examples
                    .into_iter()
                    .map(|e| Example {
                        name: e.name,
                        summary: e.summary,
                        params: e.params,
                        result: e.result,
                        normalized: e.normalized,
                    })
                    .collect(),
            });
        }
        Some(Interface {
            name: i.name,
            title: i.title,
            namespace: i.namespace,
            path: i.path,
            path_params,
            also_served_at: i.also_served_at,
            summary: i.summary,
            description: i.description,
            schemas,
            methods,
            file: file.to_string(),
        })
    }
}

fn check_model(cx: &mut Cx, spec: &Spec) {
    let file = "wire-types.yaml";
    for w in &spec.wire_types {
        for e in conform(
            spec,
            &w.example,
            &TypeRef::Wire(w.name.clone()),
            Mode::Canonical,
        ) {
            cx.err(file, format!("wire type `{}`, example", w.name), e);
        }
    }
    // Map keys must be written as strings.
    let check_schema = |cx: &mut Cx, file: &str, at: &str, s: &Schema| {
        let mut types: Vec<&TypeRef> = Vec::new();
        match &s.body {
            Body::Object(fields) => {
                types.extend(fields.iter().map(|f| &f.ty));
                for f in fields {
                    if let Some(d) = &f.default {
                        for e in conform(spec, d, &f.ty, Mode::Canonical) {
                            cx.err(file, format!("{at}, field `{}`, default", f.name), e);
                        }
                    }
                }
            }
            Body::Alias(t) => types.push(t),
            Body::Enum(_) => {}
        }
        for t in types {
            check_map_keys(cx, spec, file, at, t);
        }
        for alt in &s.also_accepts {
            match (alt, &s.body) {
                (Alternative::Bare(f), Body::Object(fields)) => {
                    if !fields.iter().any(|x| &x.name == f) {
                        cx.err(
                            file,
                            at.to_string(),
                            format!("also-accepts `bare: {f}` names no field of this object"),
                        );
                    }
                }
                (Alternative::Bare(_), _) => cx.err(
                    file,
                    at.to_string(),
                    "also-accepts `bare` only applies to an object with fields".into(),
                ),
                (Alternative::WrappedIn(k), Body::Object(fields))
                    if fields.iter().any(|x| &x.name == k) =>
                {
                    cx.err(
                        file,
                        at.to_string(),
                        format!(
                            "also-accepts `wrapped-in: {k}` would be ambiguous: `{k}` is a field"
                        ),
                    );
                }
                (Alternative::WrappedIn(_), _) => {}
            }
        }
    };
    for s in &spec.schemas {
        check_schema(cx, &s.file, &format!("schema `{}`", s.name), s);
    }
    for i in &spec.interfaces {
        for s in &i.schemas {
            check_schema(cx, &i.file, &format!("schema `{}`", s.name), s);
        }
        for m in &i.methods {
            let at = format!("method `{}`", m.wire_name);
            check_schema(cx, &i.file, &format!("{at}, result"), &m.result);
            for p in &m.params {
                check_map_keys(cx, spec, &i.file, &at, &p.ty);
                if let Some(d) = &p.default {
                    for e in conform(spec, d, &p.ty, Mode::Canonical) {
                        cx.err(&i.file, format!("{at}, param `{}`, default", p.name), e);
                    }
                }
            }
            for ex in &m.examples {
                let eat = format!("{at}, example `{}`", ex.name);
                for e in conform_params(spec, &ex.params, &m.params) {
                    cx.err(&i.file, format!("{eat}, params"), e);
                }
                let mode = if ex.normalized.is_some() {
                    Mode::Alternatives
                } else {
                    Mode::Canonical
                };
                for e in conform_schema(spec, &ex.result, &m.result, mode) {
                    cx.err(&i.file, format!("{eat}, result"), e);
                }
                if let Some(n) = &ex.normalized {
                    for e in conform_schema(spec, n, &m.result, Mode::Canonical) {
                        cx.err(&i.file, format!("{eat}, normalized"), e);
                    }
                }
            }
        }
    }
}

fn check_map_keys(cx: &mut Cx, spec: &Spec, file: &str, at: &str, t: &TypeRef) {
    match t {
        TypeRef::List(inner) => check_map_keys(cx, spec, file, at, inner),
        TypeRef::Map(k, v) => {
            let ok = matches!(&**k, TypeRef::Wire(n) if spec.wire(n).is_some_and(|w| w.json == JsonKind::String));
            if !ok {
                cx.err(
                    file,
                    at.to_string(),
                    format!("map keys must be a wire type written as a string, not `{k}`"),
                );
            }
            check_map_keys(cx, spec, file, at, v);
        }
        _ => {}
    }
}

/// Parses `name`, `list<T>` or `map<K, V>`; `resolve` turns a name into a type.
pub fn parse_type(
    text: &str,
    resolve: &dyn Fn(&str) -> Option<TypeRef>,
) -> Result<TypeRef, String> {
    fn go(s: &str, resolve: &dyn Fn(&str) -> Option<TypeRef>) -> Result<TypeRef, String> {
        let s = s.trim();
        if let Some(inner) = s.strip_prefix("list<").and_then(|r| r.strip_suffix('>')) {
            return Ok(TypeRef::List(Box::new(go(inner, resolve)?)));
        }
        if let Some(inner) = s.strip_prefix("map<").and_then(|r| r.strip_suffix('>')) {
            // Split at the first top-level comma.
            let mut depth = 0usize;
            for (i, c) in inner.char_indices() {
                match c {
                    '<' => depth += 1,
                    '>' => depth = depth.saturating_sub(1),
                    ',' if depth == 0 => {
                        return Ok(TypeRef::Map(
                            Box::new(go(&inner[..i], resolve)?),
                            Box::new(go(&inner[i + 1..], resolve)?),
                        ));
                    }
                    _ => {}
                }
            }
            return Err(format!(
                "`map<{inner}>` needs a key type and a value type: `map<K, V>`"
            ));
        }
        if s.is_empty() {
            return Err("empty type".into());
        }
        if s.contains(['<', '>', ',', ' ']) {
            return Err(format!(
                "cannot read the type `{s}`: write `name`, `list<T>` or `map<K, V>`"
            ));
        }
        resolve(s).ok_or_else(|| {
            format!("unknown type `{s}`: not a wire type (wire-types.yaml) nor a schema")
        })
    }
    go(text, resolve).map_err(|e| {
        if e.contains(text) {
            e
        } else {
            format!("in type `{text}`: {e}")
        }
    })
}

/// `{name}` variables of a path, in order.
pub fn path_vars(path: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| format!("unclosed `{{` in `{path}`"))?
            + open;
        let name = &rest[open + 1..close];
        if !is_wire_ident(name) {
            return Err(format!("bad path variable `{{{name}}}` in `{path}`"));
        }
        out.push(name.to_string());
        rest = &rest[close + 1..];
    }
    if rest.contains('}') {
        return Err(format!("stray `}}` in `{path}`"));
    }
    Ok(out)
}

fn is_wire_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_ascii_alphabetic() || f == '_')
        && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
        // `_` alone (or `__`) has no Rust name: `snake` drops the underscores.
        && s.chars().any(|c| c.is_ascii_alphanumeric())
}

fn is_type_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_ascii_uppercase())
        && c.all(|c| c.is_ascii_alphanumeric())
        // A keyword, and not one that can be a raw identifier.
        && s != "Self"
}

fn is_wire_type_name(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

fn json_kind(k: raw::JsonKind) -> JsonKind {
    match k {
        raw::JsonKind::String => JsonKind::String,
        raw::JsonKind::Number => JsonKind::Number,
        raw::JsonKind::Boolean => JsonKind::Boolean,
        raw::JsonKind::Any => JsonKind::Any,
    }
}

fn deprecated(d: raw::Deprecated) -> Deprecated {
    Deprecated {
        since: d.since,
        removed: d.removed,
        note: d.note,
    }
}

fn alternative(a: raw::Alternative) -> Alternative {
    match a {
        raw::Alternative::Bare(f) => Alternative::Bare(f),
        raw::Alternative::WrappedIn(k) => Alternative::WrappedIn(k),
    }
}
