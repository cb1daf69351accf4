//! Lowering the parsed files into the model: decoding each entry into its `raw` shape,
//! resolving type names, and checking what one entry can tell on its own (names, versions,
//! summaries, paths). Every node of the model keeps where it was written ([`Origin`]).
//!
//! The rules here are the spec's own, whatever the target language; the Rust emitter's naming
//! rules are in `emit::names`.

use crate::error::{SpecError, did_you_mean};
use crate::expr::{
    TypeExpr, is_type_name, is_wire_ident, is_wire_type_name, parse_type, path_vars,
};
use crate::model::*;
use crate::positions::Path;
use crate::raw;
use crate::yaml::Doc;
use std::collections::BTreeMap;

/// Who may serve a method: the node and the description (the default), the node only, or
/// this project's devnet only.
const SOURCES: [&str; 3] = ["node", "description", "devnet"];

/// The parsed files of a spec.
#[derive(Debug, Default)]
pub struct Docs {
    pub versions: Option<Doc>,
    pub wire_types: Option<Doc>,
    pub schemas: Vec<Doc>,
    pub interfaces: Vec<Doc>,
    /// Names of shared schemas in files that did not parse: they exist, so a reference to one
    /// is not reported again.
    pub unparsed_shared: Vec<String>,
}

/// The model of `docs`, and every problem found on the way (the model is complete only when
/// there is none).
pub fn lower(docs: &Docs) -> (Spec, Vec<SpecError>) {
    let mut cx = Cx::default();
    if let Some(doc) = &docs.versions {
        cx.versions(doc);
    }
    let wire_types = docs
        .wire_types
        .as_ref()
        .map(|d| cx.wire_types(d))
        .unwrap_or_default();
    let wire_names: Vec<String> = match &docs.wire_types {
        Some(d) => match &d.value {
            serde_yaml::Value::Mapping(m) => m
                .keys()
                .filter_map(|k| k.as_str().map(String::from))
                .collect(),
            _ => Vec::new(),
        },
        None => Vec::new(),
    };

    // The names of every shared schema, to resolve references before building.
    let mut shared_names: BTreeMap<String, String> = BTreeMap::new(); // name -> file
    let mut shared_entries: Vec<(&Doc, String)> = Vec::new();
    for doc in &docs.schemas {
        let Some(map) = cx.decode::<raw::OrderedMap<serde::de::IgnoredAny>>(doc, &Path::root())
        else {
            continue;
        };
        for (name, _) in map.0 {
            let path = Path::root().at(name.as_str());
            if let Some(first) = shared_names.get(&name) {
                cx.errors
                    .push(doc.err(&path, format!("defined twice (also in {first})")));
                continue;
            }
            if wire_names.contains(&name) {
                cx.errors
                    .push(doc.err(&path, "has the name of a wire type; rename one"));
            }
            shared_names.insert(name.clone(), doc.file.clone());
            shared_entries.push((doc, name));
        }
    }
    let names = Names {
        wire: wire_names,
        shared: shared_names
            .keys()
            .cloned()
            .chain(docs.unparsed_shared.iter().cloned())
            .collect(),
    };

    let mut schemas = Vec::new();
    for (doc, name) in shared_entries {
        let path = Path::root().at(name.as_str());
        schemas.extend(cx.schema(doc, &path, name, &names, None));
    }

    let mut interfaces: Vec<Interface> = Vec::new();
    for doc in &docs.interfaces {
        if let Some(iface) = cx.interface(doc, &names) {
            if let Some(other) = interfaces.iter().find(|o| o.name == iface.name) {
                cx.errors.push(SpecError::new(
                    &iface.origin,
                    format!(
                        "interface name `{}` is also used by {}",
                        iface.name, other.file
                    ),
                ));
                continue;
            }
            interfaces.push(iface);
        }
    }
    cx.report_unknown_types();
    let spec = Spec {
        versions: cx.versions_model.clone(),
        wire_types,
        schemas,
        interfaces,
        codec: Default::default(),
        node_version: None,
    };
    (spec, cx.errors)
}

struct Names {
    wire: Vec<String>,
    shared: Vec<String>,
}

/// A type name no file defines, where it was first used and how often.
struct Unknown {
    name: String,
    /// The first use, and the message for it.
    first: SpecError,
    more: usize,
}

#[derive(Default)]
struct Cx {
    errors: Vec<SpecError>,
    versions_model: Versions,
    unknown: Vec<Unknown>,
}

impl Cx {
    fn decode<T: serde::de::DeserializeOwned>(&mut self, doc: &Doc, path: &Path) -> Option<T> {
        match doc.decode(path) {
            Ok(v) => Some(v),
            Err(e) => {
                self.errors.push(e);
                None
            }
        }
    }

    /// A node version written at `path`, or an error there.
    fn version(&mut self, doc: &Doc, path: &Path, text: &str) -> Option<Version> {
        match text.parse::<Version>() {
            Ok(v) => Some(v),
            Err(e) => {
                self.errors.push(doc.err(path, e));
                None
            }
        }
    }

    fn versions(&mut self, doc: &Doc) {
        let Some(v) = self.decode::<raw::Versions>(doc, &Path::root()) else {
            return;
        };
        let oldest = self.version(
            doc,
            &Path::root().at("oldest-supported"),
            &v.oldest_supported,
        );
        let checked = self.version(doc, &Path::root().at("checked-against"), &v.checked_against);
        self.versions_model = Versions {
            oldest_supported: oldest.unwrap_or_default(),
            checked_against: checked,
        };
    }

    fn wire_types(&mut self, doc: &Doc) -> Vec<WireType> {
        let Some(map) = self.decode::<raw::OrderedMap<serde::de::IgnoredAny>>(doc, &Path::root())
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (name, _) in map.0 {
            let path = Path::root().at(name.as_str());
            let Some(w) = self.decode::<raw::WireType>(doc, &path) else {
                continue;
            };
            let regex = match &w.pattern {
                Some(p) => match regex::Regex::new(p) {
                    Ok(r) => Some(r),
                    Err(e) => {
                        self.errors
                            .push(doc.err(&path.at("pattern"), format!("bad pattern: {e}")));
                        None
                    }
                },
                None => None,
            };
            if !is_wire_type_name(&name) {
                self.errors
                    .push(doc.err(&path, "names are lower-case words joined by `-`"));
            }
            out.push(WireType {
                origin: doc.origin(&path),
                example_origin: doc.origin(&path.at("example")),
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
        out
    }

    /// Resolves the type written at `path`; an unknown name is reported once per name, at its
    /// first use, however often it is used.
    fn ty(
        &mut self,
        doc: &Doc,
        path: &Path,
        text: &str,
        names: &Names,
        local: Option<(&str, &[String])>,
    ) -> Option<TypeRef> {
        let expr: TypeExpr = match parse_type(text) {
            Ok(e) => e,
            Err(e) => {
                self.errors.push(doc.err(path, e));
                return None;
            }
        };
        let resolve = |n: &str| {
            if names.wire.iter().any(|w| w == n) {
                Some(TypeRef::Wire(n.to_string()))
            } else if let Some((iface, _)) = local.filter(|(_, l)| l.iter().any(|x| x == n)) {
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
        };
        match expr.resolve(&resolve) {
            Ok(t) => Some(t),
            Err(unknown) => {
                for name in unknown {
                    if let Some(u) = self.unknown.iter_mut().find(|u| u.name == name) {
                        u.more += 1;
                        continue;
                    }
                    let visible = names
                        .wire
                        .iter()
                        .chain(&names.shared)
                        .chain(local.map(|(_, l)| l).unwrap_or_default())
                        .map(String::as_str);
                    let hint = did_you_mean(&name, visible);
                    let inside = if text.trim() == name {
                        String::new()
                    } else {
                        format!("in type `{text}`: ")
                    };
                    self.unknown.push(Unknown {
                        first: doc.err(
                            path,
                            format!(
                                "{inside}unknown type `{name}`: not a wire type (wire-types.yaml) nor a schema{hint}"
                            ),
                        ),
                        name,
                        more: 0,
                    });
                }
                None
            }
        }
    }

    fn report_unknown_types(&mut self) {
        for u in std::mem::take(&mut self.unknown) {
            let mut e = u.first;
            if u.more > 0 {
                e.message.push_str(&format!(
                    " (also used in {} more place{}, not reported again)",
                    u.more,
                    if u.more == 1 { "" } else { "s" }
                ));
            }
            self.errors.push(e);
        }
    }

    fn fields(
        &mut self,
        doc: &Doc,
        path: &Path,
        raw: Vec<raw::Field>,
        names: &Names,
        local: Option<(&str, &[String])>,
    ) -> Vec<Field> {
        let mut out: Vec<Field> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for (k, f) in raw.into_iter().enumerate() {
            let fpath = path.at(k);
            if !is_wire_ident(&f.name) {
                self.errors.push(doc.err(
                    &fpath.at("name"),
                    "a field name is letters, digits and `_`, not starting with a digit",
                ));
            }
            for spelled in std::iter::once(&f.name).chain(&f.aliases) {
                if seen.contains(spelled) {
                    self.errors
                        .push(doc.err(&fpath, format!("the name `{spelled}` is used twice")));
                }
            }
            seen.push(f.name.clone());
            seen.extend(f.aliases.iter().cloned());
            if f.summary.trim().is_empty() {
                self.errors
                    .push(doc.err(&fpath.at("summary"), "summary is empty"));
            }
            if (f.optional || f.default.is_some()) && f.nullable {
                self.errors.push(doc.err(
                    &fpath,
                    "is both `optional` (or has a `default`) and `nullable`; choose the one the node does",
                ));
            }
            let deprecated = self.deprecated(doc, &fpath.at("deprecated"), f.deprecated);
            let since = f
                .since
                .as_deref()
                .and_then(|v| self.version(doc, &fpath.at("since"), v));
            let removed = f
                .removed
                .as_deref()
                .and_then(|v| self.version(doc, &fpath.at("removed"), v));
            self.since_before_removed(doc, &fpath, since, removed);
            let Some(ty) = self.ty(doc, &fpath.at("type"), &f.ty, names, local) else {
                continue;
            };
            let codec = match f.codec.as_deref().map(|c| c.trim().split_once(' ')) {
                None => None,
                Some(Some((codec, root))) => Some(CodecRef {
                    codec: codec.to_string(),
                    root: root.trim().to_string(),
                }),
                Some(None) => {
                    self.errors.push(doc.err(
                        &fpath.at("codec"),
                        "`codec` names a codec and one of its roots: `platform platform.Tx`",
                    ));
                    None
                }
            };
            out.push(Field {
                codec,
                newer_than_oldest: since.is_some_and(|v| v > self.versions_model.oldest_supported),
                since,
                removed,
                name: f.name,
                ty,
                summary: f.summary,
                description: f.description,
                optional: f.optional || f.default.is_some(),
                nullable: f.nullable,
                default_origin: f.default.as_ref().map(|_| doc.origin(&fpath.at("default"))),
                default: f.default,
                aliases: f.aliases,
                deprecated,
                note: f.note,
                origin: doc.origin(&fpath),
            });
        }
        out
    }

    fn since_before_removed(
        &mut self,
        doc: &Doc,
        path: &Path,
        since: Option<Version>,
        removed: Option<Version>,
    ) {
        if let (Some(s), Some(r)) = (since, removed)
            && r <= s
        {
            self.errors.push(doc.err(
                &path.at("removed"),
                format!("removed in {r}, not after its `since` ({s})"),
            ));
        }
    }

    fn deprecated(
        &mut self,
        doc: &Doc,
        path: &Path,
        d: Option<raw::Deprecated>,
    ) -> Option<Deprecated> {
        let d = d?;
        if d.removed.is_some() {
            self.errors.push(doc.err(
                &path.at("removed"),
                "`removed` goes next to `since` on the method or member itself, not inside `deprecated`",
            ));
        }
        if d.since.trim().is_empty() {
            self.errors
                .push(doc.err(&path.at("since"), "deprecated without `since`"));
            return None;
        }
        let since = self.version(doc, &path.at("since"), &d.since)?;
        Some(Deprecated {
            since,
            note: d.note,
        })
    }

    fn schema(
        &mut self,
        doc: &Doc,
        path: &Path,
        name: String,
        names: &Names,
        local: Option<(&str, &[String])>,
    ) -> Option<Schema> {
        let s = self.decode::<raw::Schema>(doc, path)?;
        if !is_type_name(&name) {
            self.errors
                .push(doc.err(path, "schema names are PascalCase (`Owner`, `TxStatus`)"));
        }
        if s.summary.trim().is_empty() {
            self.errors
                .push(doc.err(&path.at("summary"), "summary is empty"));
        }
        let body = self.body(doc, path, s.fields, s.values, s.ty, names, local)?;
        Some(Schema {
            name,
            file: doc.file.clone(),
            summary: s.summary,
            description: s.description,
            body,
            also_accepts_origins: (0..s.also_accepts.len())
                .map(|k| doc.origin(&path.at("also-accepts").at(k)))
                .collect(),
            also_accepts: s.also_accepts.into_iter().map(alternative).collect(),
            origin: doc.origin(path),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn body(
        &mut self,
        doc: &Doc,
        path: &Path,
        fields: Option<Vec<raw::Field>>,
        values: Option<Vec<raw::EnumValue>>,
        ty: Option<String>,
        names: &Names,
        local: Option<(&str, &[String])>,
    ) -> Option<Body> {
        match (fields, values, ty) {
            (Some(f), None, None) => Some(Body::Object(self.fields(
                doc,
                &path.at("fields"),
                f,
                names,
                local,
            ))),
            (None, Some(v), None) => {
                if v.is_empty() {
                    self.errors.push(doc.err(
                        &path.at("values"),
                        "an enumeration needs at least one value",
                    ));
                }
                let mut out: Vec<EnumValue> = Vec::new();
                for (k, e) in v.into_iter().enumerate() {
                    let vpath = path.at("values").at(k);
                    if out.iter().any(|o| o.value == e.value) {
                        self.errors.push(
                            doc.err(&vpath, format!("enum value `{}` is listed twice", e.value)),
                        );
                        continue;
                    }
                    out.push(EnumValue {
                        value: e.value,
                        summary: e.summary,
                        origin: doc.origin(&vpath),
                    });
                }
                Some(Body::Enum(out))
            }
            (None, None, Some(t)) => self
                .ty(doc, &path.at("type"), &t, names, local)
                .map(Body::Alias),
            _ => {
                self.errors
                    .push(doc.err(path, "give exactly one of `fields`, `values` or `type`"));
                None
            }
        }
    }

    fn interface(&mut self, doc: &Doc, names: &Names) -> Option<Interface> {
        let root = Path::root();
        let i = self.decode::<raw::Interface>(doc, &root)?;
        let file = &doc.file;
        let name_path = root.at("name");
        let stem = std::path::Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if i.name != stem {
            self.errors.push(doc.err(
                &name_path,
                format!(
                    "interface `{}` should live in interfaces/{}.yaml",
                    i.name, i.name
                ),
            ));
        }
        if !is_wire_type_name(&i.name) {
            self.errors.push(doc.err(
                &name_path,
                "interface names are lower-case words joined by `-`",
            ));
        }
        if !is_wire_ident(&i.namespace) {
            self.errors.push(doc.err(
                &root.at("namespace"),
                format!("namespace `{}` is not an identifier", i.namespace),
            ));
        }
        let separator = i.separator.clone().unwrap_or_else(|| ".".to_string());
        if separator != "." && separator != "_" {
            self.errors.push(doc.err(
                &root.at("separator"),
                format!("`separator` is `.` (the default) or `_`, not `{separator}`"),
            ));
        }
        let positional = match i.params.as_deref() {
            None | Some("by-name") => false,
            Some("positional") => true,
            Some(other) => {
                let hint = did_you_mean(other, ["by-name", "positional"]);
                self.errors.push(doc.err(
                    &root.at("params"),
                    format!(
                        "`params` is `by-name` (the default) or `positional`, not `{other}`{hint}"
                    ),
                ));
                false
            }
        };
        // Path and its variables.
        let vars = path_vars(&i.path);
        match &vars {
            Err(e) => self.errors.push(doc.err(&root.at("path"), e.clone())),
            Ok(vars) => {
                for v in vars {
                    if !i.path_params.0.iter().any(|(n, _)| n == v) {
                        self.errors.push(doc.err(
                            &root.at("path"),
                            format!("`{{{v}}}` has no entry in `path-params`"),
                        ));
                    }
                }
                for (n, _) in &i.path_params.0 {
                    if !vars.contains(n) {
                        self.errors.push(doc.err(
                            &root.at("path-params").at(n.as_str()),
                            format!("`{n}` does not appear in the path"),
                        ));
                    }
                }
            }
        }
        for (k, p) in std::iter::once(&i.path)
            .chain(&i.also_served_at)
            .enumerate()
        {
            if !p.starts_with('/') {
                let at = if k == 0 {
                    root.at("path")
                } else {
                    root.at("also-served-at").at(k - 1)
                };
                self.errors
                    .push(doc.err(&at, format!("`{p}` must start with `/`")));
            }
        }
        let vars = vars.unwrap_or_default();
        let path_params = vars
            .iter()
            .filter_map(|v| i.path_params.0.iter().find(|(n, _)| n == v))
            .map(|(n, p)| PathParam {
                origin: doc.origin(&root.at("path-params").at(n.as_str())),
                name: n.clone(),
                summary: p.summary.clone(),
                default: p.default.clone(),
                examples: p.examples.clone(),
            })
            .collect();

        let local_names: Vec<String> = i.schemas.0.iter().map(|(n, _)| n.clone()).collect();
        for n in &local_names {
            let at = root.at("schemas").at(n.as_str());
            if names.shared.contains(n) {
                self.errors
                    .push(doc.err(&at, "is also a shared schema in schemas/; rename one"));
            }
            if names.wire.contains(n) {
                self.errors
                    .push(doc.err(&at, "has the name of a wire type; rename one"));
            }
        }
        let local = Some((i.name.as_str(), local_names.as_slice()));
        let mut schemas = Vec::new();
        for n in &local_names {
            let at = root.at("schemas").at(n.as_str());
            schemas.extend(self.schema(doc, &at, n.clone(), names, local));
        }

        if let Some(src) = &i.source
            && !SOURCES.contains(&src.as_str())
        {
            let hint = did_you_mean(src, SOURCES);
            self.errors.push(doc.err(
                &root.at("source"),
                format!("`source` is `node`, `description` or `devnet`, not `{src}`{hint}"),
            ));
        }
        let mut methods: Vec<Method> = Vec::new();
        for k in 0..i.methods.len() {
            let mpath = root.at("methods").at(k);
            let Some(mut m) = self.decode::<raw::Method>(doc, &mpath) else {
                continue;
            };
            // A method is served by whom its interface says, unless it says otherwise.
            if m.source.is_none() {
                m.source = i.source.clone();
            }
            let prefix = format!("{}{separator}", i.namespace);
            if let Some(m) = self.method(
                doc,
                &mpath,
                (&prefix, positional),
                m,
                names,
                local,
                &methods,
            ) {
                methods.push(m);
            }
        }
        Some(Interface {
            name: i.name,
            title: i.title,
            namespace: i.namespace,
            separator,
            positional,
            path: i.path,
            path_params,
            also_served_at: i.also_served_at,
            enabled_by: i.enabled_by,
            summary: i.summary,
            description: i.description,
            schemas,
            methods,
            file: file.clone(),
            origin: doc.origin(&name_path),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn method(
        &mut self,
        doc: &Doc,
        path: &Path,
        (prefix, positional): (&str, bool),
        m: raw::Method,
        names: &Names,
        local: Option<(&str, &[String])>,
        earlier: &[Method],
    ) -> Option<Method> {
        let wire_name = format!("{prefix}{}", m.name);
        if !is_wire_ident(&m.name) || m.name.starts_with(|c: char| c.is_ascii_uppercase()) {
            self.errors.push(doc.err(
                &path.at("name"),
                "method names start with a lower-case letter and hold letters and digits",
            ));
        }
        if let Some(first) = earlier.iter().find(|o| o.name == m.name) {
            self.errors.push(doc.err(
                path,
                format!(
                    "is defined twice (first at line {}, column {})",
                    first.origin.pos.line, first.origin.pos.column
                ),
            ));
            return None;
        }
        if m.summary.trim().is_empty() {
            self.errors
                .push(doc.err(&path.at("summary"), "summary is empty"));
        }
        if let Some(src) = &m.source
            && !SOURCES.contains(&src.as_str())
        {
            let hint = did_you_mean(src, SOURCES);
            self.errors.push(doc.err(
                &path.at("source"),
                format!("`source` is `node`, `description` or `devnet`, not `{src}`{hint}"),
            ));
        }
        let deprecated = self.deprecated(doc, &path.at("deprecated"), m.deprecated);
        if m.examples.is_empty() {
            self.errors
                .push(doc.err(path, "needs at least one example"));
        }
        let since = m
            .since
            .as_deref()
            .and_then(|v| self.version(doc, &path.at("since"), v));
        let removed = m
            .removed
            .as_deref()
            .and_then(|v| self.version(doc, &path.at("removed"), v));
        self.since_before_removed(doc, path, since, removed);
        let still_served = m.still_served.and_then(|s| {
            let at = path.at("still-served");
            if removed.is_none() {
                self.errors.push(doc.err(
                    &at,
                    "`still-served` says who serves a removed method on purpose: the method has no `removed`",
                ));
                return None;
            }
            if s.by != "devnet" {
                self.errors.push(doc.err(
                    &at.at("by"),
                    format!(
                        "`by` is `devnet` (a server with an interface of its own), not `{}`",
                        s.by
                    ),
                ));
                return None;
            }
            if s.why.trim().is_empty() {
                self.errors.push(doc.err(&at.at("why"), "`why` is empty"));
                return None;
            }
            Some(StillServed {
                by: s.by,
                why: s.why.trim_end().to_string(),
            })
        });
        let params = self.fields(doc, &path.at("params"), m.params, names, local);
        // A param's place is its position: one the caller may leave out cannot come before one
        // it must give.
        if positional
            && let Some(k) = params.iter().position(|p| p.optional)
            && let Some(j) = params[k..].iter().position(|p| !p.optional)
        {
            self.errors.push(doc.err(
                &path.at("params").at(k + j),
                format!(
                    "`{}` is required but follows the optional `{}`: positional params list the required ones first",
                    params[k + j].name, params[k].name
                ),
            ));
        }
        let rpath = path.at("result");
        let body = self.body(
            doc,
            &rpath,
            m.result.fields,
            None,
            m.result.ty,
            names,
            local,
        )?;
        let result = Schema {
            name: crate::emit::names::result_type(&m.name),
            file: doc.file.clone(),
            summary: format!("Result of `{wire_name}`."),
            description: m.result.description,
            body,
            also_accepts_origins: (0..m.result.also_accepts.len())
                .map(|k| doc.origin(&rpath.at("also-accepts").at(k)))
                .collect(),
            also_accepts: m.result.also_accepts.into_iter().map(alternative).collect(),
            origin: doc.origin(&rpath),
        };
        let pagination = m.pagination.and_then(|raw| {
            self.pagination(
                doc,
                &path.at("pagination"),
                raw,
                &params,
                &result,
                &m.errors,
            )
        });
        let examples = m
            .examples
            .into_iter()
            .enumerate()
            .map(|(k, e)| {
                let epath = path.at("examples").at(k);
                Example {
                    origin: doc.origin(&epath),
                    params_origin: doc.origin(&epath.at("params")),
                    result_origin: doc.origin(&epath.at("result")),
                    normalized_origin: doc.origin(&epath.at("normalized")),
                    name: e.name,
                    summary: e.summary,
                    params: e.params,
                    result: e.result,
                    normalized: e.normalized,
                }
            })
            .collect();
        Some(Method {
            origin: doc.origin(path),
            name: m.name,
            wire_name,
            summary: m.summary,
            description: m.description,
            deprecated,
            source: m.source,
            since,
            removed,
            still_served,
            changes_state: m.changes_state,
            positional,
            pagination,
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
            examples,
        })
    }

    /// `pagination:` checked against the method's params, result and errors.
    fn pagination(
        &mut self,
        doc: &Doc,
        path: &Path,
        raw: raw::Pagination,
        params: &[Field],
        result: &Schema,
        errors: &[raw::ErrorCase],
    ) -> Option<Pagination> {
        let before = self.errors.len();
        let param = |name: &str| params.iter().find(|f| f.name == name);
        let member = |name: &str| result.member(name);
        let is_count = |f: &Field| matches!(&f.ty, TypeRef::Wire(w) if w == "u32" || w == "u64");
        match member(&raw.items) {
            Some(f) if matches!(f.ty, TypeRef::List(_)) => {}
            Some(f) => self.errors.push(doc.err(
                &path.at("items"),
                format!("`{}` is `{}`, not a list", raw.items, f.ty),
            )),
            None => self.errors.push(doc.err(
                &path.at("items"),
                format!("the result has no member `{}`", raw.items),
            )),
        }
        if let Some(size) = &raw.page_size {
            match param(&size.param) {
                Some(f) if is_count(f) => {}
                Some(f) => self.errors.push(doc.err(
                    &path.at("page-size").at("param"),
                    format!(
                        "`{}` is `{}`; a page size is a `u32` or `u64`",
                        size.param, f.ty
                    ),
                )),
                None => self.errors.push(doc.err(
                    &path.at("page-size").at("param"),
                    format!("the method has no param `{}`", size.param),
                )),
            }
            if size.max == 0 {
                self.errors
                    .push(doc.err(&path.at("page-size").at("max"), "`max` is at least 1"));
            }
        }
        let cursor = raw.cursor.as_ref().and_then(|c| {
            let cpath = path.at("cursor");
            let Some(p) = param(&c.param) else {
                self.errors.push(doc.err(
                    &cpath.at("param"),
                    format!("the method has no param `{}`", c.param),
                ));
                return None;
            };
            match (&c.from, c.offset) {
                (Some(from), false) => match member(from) {
                    Some(m) if m.ty == p.ty => Some(PageCursor::FromResult {
                        param: c.param.clone(),
                        member: from.clone(),
                    }),
                    Some(m) => {
                        self.errors.push(doc.err(
                            &cpath.at("from"),
                            format!("`{from}` is `{}` but the param `{}` is `{}`", m.ty, c.param, p.ty),
                        ));
                        None
                    }
                    None => {
                        self.errors.push(doc.err(
                            &cpath.at("from"),
                            format!("the result has no member `{from}`"),
                        ));
                        None
                    }
                },
                (None, true) => {
                    let starts_at_zero = !p.optional
                        || p.default.as_ref().is_some_and(|d| d == "0" || d == 0);
                    let is_u64 = matches!(&p.ty, TypeRef::Wire(w) if w == "u64");
                    if !is_u64 || !starts_at_zero {
                        self.errors.push(doc.err(
                            &cpath.at("param"),
                            format!("an offset is a `u64` param, required or with default \"0\"; `{}` is not", c.param),
                        ));
                        return None;
                    }
                    Some(PageCursor::Offset { param: c.param.clone() })
                }
                _ => {
                    self.errors.push(doc.err(
                        &cpath,
                        "a cursor has either `from: <result member>` or `offset: true`",
                    ));
                    None
                }
            }
        });
        if raw.cursor.is_some() != raw.page_size.is_some() {
            self.errors.push(doc.err(
                path,
                "`cursor` and `page-size` come together: a short page is how the last one is known",
            ));
        }
        for (k, message) in raw.ends_with.iter().enumerate() {
            if !errors.iter().any(|e| &e.message == message) {
                self.errors.push(doc.err(
                    &path.at("ends-with").at(k),
                    format!("`{message}` is not among the method's `errors`"),
                ));
            }
        }
        if self.errors.len() > before {
            return None;
        }
        Some(Pagination {
            items: raw.items,
            page_size: raw.page_size.map(|s| PageSize {
                param: s.param,
                max: s.max,
            }),
            cursor,
            may_repeat: raw.may_repeat,
            ends_with: raw.ends_with,
            origin: doc.origin(path),
        })
    }
}

fn json_kind(k: raw::JsonKind) -> JsonKind {
    match k {
        raw::JsonKind::String => JsonKind::String,
        raw::JsonKind::Number => JsonKind::Number,
        raw::JsonKind::Boolean => JsonKind::Boolean,
        raw::JsonKind::Any => JsonKind::Any,
    }
}

fn alternative(a: raw::Alternative) -> Alternative {
    match a {
        raw::Alternative::Bare(f) => Alternative::Bare(f),
        raw::Alternative::WrappedIn(k) => Alternative::WrappedIn(k),
    }
}
