//! What changed between two versions of the spec, and whom it breaks: every change with its
//! place, a stable kind, the crate's semver bump under its conventions (non-exhaustive
//! structs built with `new(required…)` and `with_…` setters, optional members as `Option`,
//! open enums, default trait bodies) and who is affected: code calling the generated client,
//! code implementing the generated server traits, and the wire (a peer speaking the old
//! form). Reads the model, and the Rust names `emit::names` gives its items: a change is a
//! signature change when a generated Rust name, type or argument order changes, a wire change
//! when what a peer sends or reads does.

use crate::codec::model::{Codecs, Struct};
use crate::emit::names;
use crate::model::*;
use std::fmt::Write as _;

/// How much a change moves the crate's version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bump {
    None,
    Patch,
    Minor,
    Major,
}

impl Bump {
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::None => "none",
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }
}

impl std::str::FromStr for Bump {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "major" => Ok(Bump::Major),
            "minor" => Ok(Bump::Minor),
            "patch" => Ok(Bump::Patch),
            other => Err(format!(
                "`{other}` is not a bump: use major, minor or patch"
            )),
        }
    }
}

/// Whom a change breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Breaks {
    /// Code calling the generated client.
    ClientCallers,
    /// Code implementing the generated server traits.
    ServerImplementers,
    /// A peer speaking the old form.
    Wire,
}

impl Breaks {
    pub fn as_str(self) -> &'static str {
        match self {
            Breaks::ClientCallers => "client-callers",
            Breaks::ServerImplementers => "server-implementers",
            Breaks::Wire => "wire",
        }
    }
}

/// One change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Where: `info.getNodeID params.nodeID`, `schema Owner.threshold`.
    pub place: String,
    /// What, in words.
    pub change: String,
    /// A stable identifier of the kind of change (`param-added-required`).
    pub kind: &'static str,
    pub bump: Bump,
    pub breaks: Vec<Breaks>,
}

/// The largest bump of `changes` (`None` when there are none).
pub fn bump(changes: &[Change]) -> Bump {
    changes.iter().map(|c| c.bump).max().unwrap_or(Bump::None)
}

use Breaks::{ClientCallers as C, ServerImplementers as S, Wire as W};

/// What a list of members belongs to, which decides whom a change breaks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A method's params: the client builds them, the server reads them.
    Params,
    /// A method's result: the server builds it, the client reads it.
    Result,
    /// A named schema, which may be used either way.
    Schema,
}

struct Out(Vec<Change>);

impl Out {
    fn push(
        &mut self,
        place: impl Into<String>,
        change: impl Into<String>,
        kind: &'static str,
        bump: Bump,
        breaks: &[Breaks],
    ) {
        self.0.push(Change {
            place: place.into(),
            change: change.into(),
            kind,
            bump,
            breaks: breaks.to_vec(),
        });
    }
}

/// The two specs, and the types the new one calls by another name with nothing else
/// changed: the Rust name of a schema changes (`schema-renamed`), that of a wire type does
/// not (its `rust:` does the naming); the wire is the same, so a member of a renamed type has
/// not changed type.
struct Cx<'a> {
    old: &'a Spec,
    new: &'a Spec,
    /// (old name, new name).
    wire_types_renamed: Vec<(String, String)>,
    /// (old scope, old name, new name).
    schemas_renamed: Vec<(Scope, String, String)>,
}

impl<'a> Cx<'a> {
    fn new(old: &'a Spec, new: &'a Spec) -> Cx<'a> {
        let same_form = |o: &WireType, w: &WireType| {
            (&o.json, &o.accepts, &o.pattern, o.max, &o.rust)
                == (&w.json, &w.accepts, &w.pattern, w.max, &w.rust)
        };
        let pairs = pair(
            &old.wire_types,
            &new.wire_types,
            &[&|(_, o), (_, w)| o.name == w.name, &|(_, o), (_, w)| {
                same_form(o, w)
            }],
        );
        let wire_types_renamed = renamed(&pairs, &old.wire_types, &new.wire_types, |w| &w.name);
        let mut cx = Cx {
            old,
            new,
            wire_types_renamed,
            schemas_renamed: Vec::new(),
        };
        cx.find_renamed_schemas(&old.schemas, &new.schemas, Scope::Shared);
        for (i, o) in new.interfaces.iter().zip(interface_pairs(old, new)) {
            if let Some(o) = o.map(|j| &old.interfaces[j]) {
                cx.find_renamed_schemas(&o.schemas, &i.schemas, Scope::Interface(o.name.clone()));
            }
        }
        cx
    }

    /// A schema the new list has and the old one has not, with the shape (members, their
    /// types, optionality, values…) of one the old list has and the new one has not.
    fn find_renamed_schemas(&mut self, os: &[Schema], ns: &[Schema], scope: Scope) {
        let pairs = pair(
            os,
            ns,
            &[&|(_, o), (_, n)| o.name == n.name, &|(_, o), (_, n)| {
                let mut scratch = Out(Vec::new());
                body(self, o, n, "", Role::Schema, &mut scratch);
                scratch.0.iter().all(|c| c.bump <= Bump::Patch)
            }],
        );
        for (a, b) in renamed(&pairs, os, ns, |s| &s.name) {
            self.schemas_renamed.push((scope.clone(), a, b));
        }
    }

    /// An old type as the new spec writes it when only names changed.
    fn ty(&self, t: &TypeRef) -> String {
        match t {
            TypeRef::Wire(n) => self
                .wire_types_renamed
                .iter()
                .find(|(a, _)| a == n)
                .map_or_else(|| n.clone(), |(_, b)| b.clone()),
            TypeRef::Schema { name, scope } => self
                .schemas_renamed
                .iter()
                .find(|(s, a, _)| s == scope && a == name)
                .map_or_else(|| name.clone(), |(_, _, b)| b.clone()),
            TypeRef::List(t) => format!("list<{}>", self.ty(t)),
            TypeRef::Map(k, v) => format!("map<{}, {}>", self.ty(k), self.ty(v)),
        }
    }

    /// The new name of an old type of this name, when it has another.
    fn renamed_schema(&self, scope: &Scope, name: &str) -> Option<&str> {
        self.schemas_renamed
            .iter()
            .find(|(s, a, _)| s == scope && a == name)
            .map(|(_, _, b)| b.as_str())
    }
}

/// The (old, new) names of the pairs whose names differ.
fn renamed<T>(
    pairs: &[Option<usize>],
    a: &[T],
    b: &[T],
    name: impl Fn(&T) -> &String,
) -> Vec<(String, String)> {
    b.iter()
        .zip(pairs)
        .filter_map(|(n, j)| {
            let o = &a[(*j)?];
            (name(o) != name(n)).then(|| (name(o).clone(), name(n).clone()))
        })
        .collect()
}

/// An interface of another name at the same path and namespace is the same interface on the
/// wire, under other Rust names (interface names are lower-case words joined by `-`, so
/// another name is another module).
fn interface_pairs(old: &Spec, new: &Spec) -> Vec<Option<usize>> {
    pair(
        &old.interfaces,
        &new.interfaces,
        &[&|(_, o), (_, i)| o.name == i.name, &|(_, o), (_, i)| {
            o.path == i.path && o.namespace == i.namespace
        }],
    )
}

/// Every change from `old` to `new`, in the new spec's order (removals where they were).
pub fn diff(old: &Spec, new: &Spec) -> Vec<Change> {
    let mut out = Out(Vec::new());
    let (a, b) = (&old.versions, &new.versions);
    if a.oldest_supported != b.oldest_supported || a.checked_against != b.checked_against {
        // Members it makes an `Option` or no longer are reported each where it is.
        out.push(
            "versions",
            format!(
                "oldest supported node version {} (was {}), checked against {} (was {})",
                b.oldest_supported,
                a.oldest_supported,
                b.checked_against
                    .map_or_else(|| "none".to_string(), |v| v.to_string()),
                a.checked_against
                    .map_or_else(|| "none".to_string(), |v| v.to_string()),
            ),
            "versions-changed",
            Bump::Patch,
            &[],
        );
    }
    let cx = Cx::new(old, new);
    wire_types(&cx, &mut out);
    schemas(
        &cx,
        &old.schemas,
        &new.schemas,
        &Scope::Shared,
        "schema ",
        &mut out,
    );
    let pairs = interface_pairs(old, new);
    for (i, o) in new.interfaces.iter().zip(&pairs) {
        let Some(o) = o.map(|j| &old.interfaces[j]) else {
            out.push(
                format!("interface {}", i.name),
                format!("interface `{}` added ({})", i.name, i.path),
                "interface-added",
                Bump::Minor,
                &[],
            );
            continue;
        };
        if o.name != i.name {
            let (a, b) = (
                names::interface_module(&o.name),
                names::interface_module(&i.name),
            );
            out.push(
                format!("interface {}", i.name),
                format!(
                    "interface `{}` renamed to `{}`: module `{a}` is now `{b}` (with its traits and `Node::{b}`); the wire is the same",
                    o.name, i.name
                ),
                "interface-renamed",
                Bump::Major,
                &[C, S],
            );
        }
        interface(&cx, o, i, &mut out);
    }
    for (j, o) in old.interfaces.iter().enumerate() {
        if !pairs.contains(&Some(j)) {
            out.push(
                format!("interface {}", o.name),
                format!("interface `{}` removed", o.name),
                "interface-removed",
                Bump::Major,
                &[C, S, W],
            );
        }
    }
    codec(&old.codec, &new.codec, &mut out);
    out.0
}

fn interface(cx: &Cx, o: &Interface, i: &Interface, out: &mut Out) {
    let place = format!("interface {}", i.name);
    if o.path != i.path {
        out.push(
            &place,
            format!("path changed from `{}` to `{}`", o.path, i.path),
            "path-changed",
            Bump::Major,
            &[W],
        );
    }
    if o.namespace != i.namespace {
        out.push(
            &place,
            format!(
                "namespace changed from `{}` to `{}`: every method is called another way (`{}.…`); the Rust names stay",
                o.namespace, i.namespace, i.namespace
            ),
            "namespace-changed",
            Bump::Major,
            &[W],
        );
    }
    if o.title != i.title || o.summary != i.summary || o.description != i.description {
        out.push(
            &place,
            "title, summary or description changed",
            "docs-changed",
            Bump::Patch,
            &[],
        );
    }
    schemas(
        cx,
        &o.schemas,
        &i.schemas,
        &Scope::Interface(o.name.clone()),
        &format!("{} schema ", i.namespace),
        out,
    );
    // A method called another way whose Rust names stay (`getUTXOs` → `getUtxos`, both
    // `get_utxos`) is the same method to the code.
    let rust = |m: &Method| {
        let n = names::MethodNames::of(m);
        (n.ident, n.konst, n.params, n.result)
    };
    let pairs = pair(
        &o.methods,
        &i.methods,
        &[&|(_, x), (_, m)| x.name == m.name, &|(_, x), (_, m)| {
            rust(x) == rust(m)
        }],
    );
    for (m, om) in i.methods.iter().zip(&pairs) {
        let full = m.wire_name.clone();
        match om.map(|j| &o.methods[j]) {
            None => out.push(
                &full,
                format!("method `{full}` added"),
                "method-added",
                Bump::Minor,
                &[],
            ),
            Some(om) => {
                if om.name != m.name {
                    let n = names::MethodNames::of(m);
                    out.push(
                        &full,
                        format!(
                            "called `{full}` instead of `{}`; the Rust names (`{}`, `{}`) stay",
                            om.wire_name, n.ident, n.params
                        ),
                        "wire-name-changed",
                        Bump::Major,
                        &[W],
                    );
                }
                method(cx, om, m, &full, out)
            }
        }
    }
    for (j, om) in o.methods.iter().enumerate() {
        if !pairs.contains(&Some(j)) {
            let full = om.wire_name.clone();
            out.push(
                &full,
                format!("method `{full}` removed"),
                "method-removed",
                Bump::Major,
                &[C, S, W],
            );
        }
    }
    if let Some((x, y)) = reordered(&pairs) {
        out.push(
            &place,
            format!(
                "methods in another order (`methods::ALL`): `{}` now comes before `{}`",
                i.methods[x].name, i.methods[y].name
            ),
            "order-changed",
            Bump::Patch,
            &[],
        );
    }
}

/// Of the items both sides have (`pairs` as [`pair`] gives them), the first two (their new
/// indices) that the new side has in another order.
fn reordered(pairs: &[Option<usize>]) -> Option<(usize, usize)> {
    let both: Vec<(usize, usize)> = pairs
        .iter()
        .enumerate()
        .filter_map(|(k, j)| j.map(|j| (j, k)))
        .collect();
    both.iter().enumerate().find_map(|(x, &(j1, k1))| {
        both[x + 1..]
            .iter()
            .find(|&&(j2, _)| j2 < j1)
            .map(|&(_, k2)| (k2, k1))
    })
}

fn method(cx: &Cx, o: &Method, m: &Method, full: &str, out: &mut Out) {
    if o.deprecated.is_none() && m.deprecated.is_some() {
        out.push(full, "deprecated", "method-deprecated", Bump::Minor, &[]);
    }
    if o.since != m.since || o.removed != m.removed {
        out.push(
            full,
            format!(
                "node versions changed from {} to {}",
                versions(o.since, o.removed),
                versions(m.since, m.removed)
            ),
            "method-versions-changed",
            Bump::Patch,
            &[],
        );
    }
    if o.summary != m.summary || o.description != m.description {
        out.push(
            full,
            "summary or description changed",
            "docs-changed",
            Bump::Patch,
            &[],
        );
    }
    pagination(cx, o, m, full, out);
    fields(
        cx,
        &o.params,
        &m.params,
        &format!("{full} params."),
        Role::Params,
        out,
    );
    body(
        cx,
        &o.result,
        &m.result,
        &format!("{full} result"),
        Role::Result,
        out,
    );
    let names = |e: &[Example]| {
        e.iter()
            .map(|x| (x.name.clone(), x.params.clone(), x.result.clone()))
            .collect::<Vec<_>>()
    };
    if names(&o.examples) != names(&m.examples) {
        out.push(
            full,
            "examples changed",
            "examples-changed",
            Bump::Patch,
            &[],
        );
    }
}

/// `pagination:` is the client's stream of the method (`<method>_stream`, a provided method
/// of the client trait, yielding the `items` list's elements) and `impl Paged` for its
/// params: no wire at all.
fn pagination(cx: &Cx, o: &Method, m: &Method, full: &str, out: &mut Out) {
    let stream = names::MethodNames::of(m)
        .stream
        .or(names::MethodNames::of(o).stream)
        .unwrap_or_default();
    match (&o.pagination, &m.pagination) {
        (None, None) => {}
        (None, Some(_)) => out.push(
            full,
            format!("comes in pages: the client gains `{stream}`"),
            "pagination-added",
            Bump::Minor,
            &[],
        ),
        (Some(_), None) => out.push(
            full,
            format!("no longer comes in pages: the client's `{stream}` goes"),
            "pagination-removed",
            Bump::Major,
            &[C],
        ),
        (Some(a), Some(b)) => {
            let x = stream_item(o, a).map(|t| cx.ty(t));
            let y = stream_item(m, b).map(|t| t.to_string());
            if a.items != b.items && x != y {
                out.push(
                    full,
                    format!(
                        "`{stream}` yields the items of `{}` (`{}`) instead of `{}` (`{}`)",
                        b.items,
                        y.unwrap_or_default(),
                        a.items,
                        x.unwrap_or_default()
                    ),
                    "pagination-item-changed",
                    Bump::Major,
                    &[C],
                );
            } else if a.items != b.items
                || a.page_size.as_ref().map(|p| (&p.param, p.max))
                    != b.page_size.as_ref().map(|p| (&p.param, p.max))
                || a.cursor.as_ref().map(cursor) != b.cursor.as_ref().map(cursor)
                || a.may_repeat != b.may_repeat
                || a.ends_with != b.ends_with
            {
                out.push(
                    full,
                    format!("`{stream}` asks for its pages another way"),
                    "pagination-changed",
                    Bump::Patch,
                    &[],
                );
            }
        }
    }
}

/// What a paged method's stream yields: the elements of its `items` member.
fn stream_item<'m>(m: &'m Method, p: &Pagination) -> Option<&'m TypeRef> {
    let Body::Object(fields) = &m.result.body else {
        return None;
    };
    fields
        .iter()
        .find(|f| f.name == p.items)
        .map(|f| match &f.ty {
            TypeRef::List(t) => t.as_ref(),
            t => t,
        })
}

fn cursor(c: &PageCursor) -> (&str, Option<&str>) {
    match c {
        PageCursor::FromResult { param, member } => (param, Some(member)),
        PageCursor::Offset { param } => (param, None),
    }
}

fn versions(since: Option<Version>, removed: Option<Version>) -> String {
    match (since, removed) {
        (None, None) => "every version".into(),
        (Some(s), None) => format!("since {s}"),
        (None, Some(r)) => format!("until {r}"),
        (Some(s), Some(r)) => format!("{s} to {r}"),
    }
}

fn schemas(cx: &Cx, os: &[Schema], ns: &[Schema], scope: &Scope, prefix: &str, out: &mut Out) {
    let pairs = pair(
        os,
        ns,
        &[&|(_, o), (_, s)| o.name == s.name, &|(_, o), (_, s)| {
            cx.renamed_schema(scope, &o.name) == Some(&s.name)
        }],
    );
    for (s, o) in ns.iter().zip(&pairs) {
        let place = format!("{prefix}{}", s.name);
        match o.map(|j| &os[j]) {
            None => out.push(
                &place,
                format!("schema `{}` added", s.name),
                "schema-added",
                Bump::Minor,
                &[],
            ),
            Some(o) => {
                if o.name != s.name {
                    out.push(
                        &place,
                        format!(
                            "schema `{}` renamed to `{}`: code naming the type stops compiling; the wire is the same",
                            o.name, s.name
                        ),
                        "schema-renamed",
                        Bump::Major,
                        &[C, S],
                    );
                }
                if o.summary != s.summary || o.description != s.description {
                    out.push(
                        &place,
                        "summary or description changed",
                        "docs-changed",
                        Bump::Patch,
                        &[],
                    );
                }
                body(cx, o, s, &place, Role::Schema, out);
            }
        }
    }
    for (j, o) in os.iter().enumerate() {
        if !pairs.contains(&Some(j)) {
            out.push(
                format!("{prefix}{}", o.name),
                format!("schema `{}` removed", o.name),
                "schema-removed",
                Bump::Major,
                &[C, S],
            );
        }
    }
}

fn body(cx: &Cx, o: &Schema, n: &Schema, place: &str, role: Role, out: &mut Out) {
    match (&o.body, &n.body) {
        (Body::Object(a), Body::Object(b)) => fields(cx, a, b, &format!("{place}."), role, out),
        (Body::Alias(a), Body::Alias(b)) => {
            if cx.ty(a) != b.to_string() {
                out.push(
                    place,
                    format!("type changed from `{a}` to `{b}`"),
                    "type-changed",
                    Bump::Major,
                    &[C, S, W],
                );
            }
        }
        (Body::Enum(a), Body::Enum(b)) => {
            // A value written another way whose variant stays (`Up` → `UP`, both `Up`).
            let pairs = pair(
                a,
                b,
                &[&|(_, x), (_, v)| x.value == v.value, &|(_, x), (_, v)| {
                    names::variant(x) == names::variant(v)
                }],
            );
            for (v, x) in b.iter().zip(&pairs) {
                match x.map(|j| &a[j]) {
                    None => out.push(
                        place,
                        format!("value `{}` added", v.value),
                        "enum-value-added",
                        Bump::Minor,
                        &[],
                    ),
                    Some(x) if x.value != v.value => out.push(
                        place,
                        format!(
                            "value `{}` written as `{}`; the variant `{}` stays",
                            x.value,
                            v.value,
                            names::variant(v)
                        ),
                        "wire-name-changed",
                        Bump::Major,
                        &[W],
                    ),
                    Some(_) => {}
                }
            }
            for (j, v) in a.iter().enumerate() {
                if !pairs.contains(&Some(j)) {
                    out.push(
                        place,
                        format!("value `{}` removed", v.value),
                        "enum-value-removed",
                        Bump::Major,
                        &[C, S, W],
                    );
                }
            }
            if let Some((x, y)) = reordered(&pairs) {
                out.push(
                    place,
                    format!(
                        "values in another order: `{}` now comes before `{}`",
                        b[x].value, b[y].value
                    ),
                    "order-changed",
                    Bump::Patch,
                    &[],
                );
            }
        }
        _ => out.push(
            place,
            "shape changed (object, type or enumeration)",
            "shape-changed",
            Bump::Major,
            &[C, S, W],
        ),
    }
}

/// Who builds a value of this role must give a new required member; who reads it sees its
/// type change when its optionality does.
fn fields(cx: &Cx, a: &[Field], b: &[Field], prefix: &str, role: Role, out: &mut Out) {
    let (builders, readers): (&[Breaks], &[Breaks]) = match role {
        Role::Params => (&[C], &[S]),
        Role::Result => (&[S], &[C]),
        Role::Schema => (&[C, S], &[C, S]),
    };
    let both: &[Breaks] = &[C, S];
    let pairs = pair_members(cx, a, b);
    for (f, o) in b.iter().zip(&pairs) {
        let place = format!("{prefix}{}", f.name);
        let Some(o) = o.map(|j| &a[j]) else {
            if f.is_required() {
                let mut breaks = builders.to_vec();
                if role == Role::Params {
                    breaks.push(W);
                }
                out.push(
                    &place,
                    format!("required member `{}` added", f.name),
                    "member-added-required",
                    Bump::Major,
                    &breaks,
                );
            } else {
                out.push(
                    &place,
                    format!("optional member `{}` added", f.name),
                    "member-added-optional",
                    Bump::Minor,
                    &[],
                );
            }
            continue;
        };
        if o.name != f.name {
            let still = if f.aliases.contains(&o.name) {
                format!(" (`{}` is still read)", o.name)
            } else {
                String::new()
            };
            if names::field(o) == names::field(f) {
                // The code is the same; peers see another spelling.
                out.push(
                    &place,
                    format!(
                        "written as `{}` instead of `{}`{still}; the Rust name `{}` stays",
                        f.name,
                        o.name,
                        names::field(f)
                    ),
                    "wire-name-changed",
                    Bump::Major,
                    &[W],
                );
            } else {
                out.push(
                    &place,
                    format!("`{}` renamed to `{}`{still}", o.name, f.name),
                    "member-renamed",
                    Bump::Major,
                    &[C, S, W],
                );
            }
        }
        member(cx, o, f, &place, builders, readers, both, out);
    }
    for (j, o) in a.iter().enumerate() {
        if !pairs.contains(&Some(j)) {
            out.push(
                format!("{prefix}{}", o.name),
                format!("member `{}` removed", o.name),
                "member-removed",
                Bump::Major,
                &[C, S, W],
            );
        }
    }
    member_order(a, b, &pairs, prefix.trim_end_matches('.'), builders, out);
}

/// For each member of `b`, the member of `a` it continues: the one of the same name; else
/// (a rename) one that `b` no longer has and that was read in a spelling `b`'s member is read
/// in (a name and an alias swapped, or the old name kept as an alias), or that has its Rust
/// name (`txID` → `txId`, both `tx_id`), or that was at the same position with the same type.
fn pair_members(cx: &Cx, a: &[Field], b: &[Field]) -> Vec<Option<usize>> {
    let spellings = |f: &Field| -> Vec<String> {
        std::iter::once(&f.name)
            .chain(&f.aliases)
            .cloned()
            .collect()
    };
    pair(
        a,
        b,
        &[
            &|(_, o), (_, f)| o.name == f.name,
            &|(_, o), (_, f)| spellings(o).iter().any(|x| spellings(f).contains(x)),
            &|(_, o), (_, f)| names::field(o) == names::field(f),
            &|(j, o), (k, f)| j == k && cx.ty(&o.ty) == f.ty.to_string(),
        ],
    )
}

/// Whether old item `(index, item)` and new item `(index, item)` are one item.
type Same<'a, T> = &'a dyn Fn((usize, &T), (usize, &T)) -> bool;

/// For each item of `b`, the index of the item of `a` it continues: the first test pairs
/// every item it can, then the next one the items left, and so on; an item of `a` pairs
/// with one item of `b` at most.
fn pair<T>(a: &[T], b: &[T], tests: &[Same<T>]) -> Vec<Option<usize>> {
    let mut pairs: Vec<Option<usize>> = vec![None; b.len()];
    for same in tests {
        for (k, f) in b.iter().enumerate() {
            if pairs[k].is_some() {
                continue;
            }
            let j = a
                .iter()
                .enumerate()
                .position(|(j, o)| !pairs.contains(&Some(j)) && same((j, o), (k, f)));
            pairs[k] = j;
        }
    }
    pairs
}

/// The order of the members that both sides have. `new()` takes the required ones in spec
/// order (`emit::types::constructor`): when their order changes, calls stop compiling or,
/// where two of them have one Rust type, compile with the values swapped; the wire is the
/// same (members go by name). Any other new order shows only in the order the members are
/// written (JSON, `Debug`) and documented.
fn member_order(
    a: &[Field],
    b: &[Field],
    pairs: &[Option<usize>],
    place: &str,
    builders: &[Breaks],
    out: &mut Out,
) {
    // (old index, new index) of the members both sides have, in the new order.
    let both: Vec<(usize, usize)> = pairs
        .iter()
        .enumerate()
        .filter_map(|(k, j)| j.map(|j| (j, k)))
        .collect();
    let required: Vec<(usize, usize)> = both
        .iter()
        .copied()
        .filter(|&(j, k)| a[j].is_required() && b[k].is_required())
        .collect();
    let in_order = |v: &[(usize, usize)]| v.windows(2).all(|w| w[0].0 < w[1].0);
    if !in_order(&required) {
        let mut before = required.clone();
        before.sort();
        let args = |v: &[(usize, usize)]| {
            v.iter()
                .map(|&(_, k)| names::field(&b[k]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        // Two members that changed places and have one type: calls still compile.
        let mut swapped = Vec::new();
        for (x, &(j1, k1)) in required.iter().enumerate() {
            for &(j2, k2) in &required[x + 1..] {
                if j1 > j2 && b[k1].ty.to_string() == b[k2].ty.to_string() {
                    swapped.push(format!(
                        "`{}` and `{}`",
                        names::field(&b[k2]),
                        names::field(&b[k1])
                    ));
                }
            }
        }
        let mut change = format!(
            "`new({})` now takes its arguments as `new({})`",
            args(&before),
            args(&required)
        );
        if !swapped.is_empty() {
            change.push_str(&format!(
                "; {} have one type: calls still compile, with the values swapped",
                swapped.join(", ")
            ));
        }
        out.push(
            place,
            change,
            "required-order-changed",
            Bump::Major,
            builders,
        );
    } else if let Some((x, y)) = reordered(pairs) {
        out.push(
            place,
            format!(
                "members in another order: `{}` now comes before `{}`; `new()` is the same",
                b[x].name, b[y].name
            ),
            "order-changed",
            Bump::Patch,
            &[],
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn member(
    cx: &Cx,
    o: &Field,
    f: &Field,
    place: &str,
    builders: &[Breaks],
    readers: &[Breaks],
    both: &[Breaks],
    out: &mut Out,
) {
    if cx.ty(&o.ty) != f.ty.to_string() {
        out.push(
            place,
            format!("type changed from `{}` to `{}`", o.ty, f.ty),
            "type-changed",
            Bump::Major,
            &[C, S, W],
        );
    }
    match (o.is_required(), f.is_required()) {
        (false, true) => {
            let mut breaks = builders.to_vec();
            breaks.extend_from_slice(readers);
            breaks.push(W);
            out.push(
                place,
                "made required",
                "member-made-required",
                Bump::Major,
                &dedup(breaks),
            );
        }
        (true, false) => out.push(
            place,
            "made optional",
            "member-made-optional",
            Bump::Major,
            both,
        ),
        _ => {}
    }
    if o.nullable != f.nullable && o.is_required() == f.is_required() {
        // The Rust type is `Option` either way; what may be on the wire changes.
        out.push(
            place,
            if f.nullable {
                "may now be null"
            } else {
                "may no longer be null"
            },
            "nullable-changed",
            Bump::Major,
            &[W],
        );
    }
    if o.default != f.default {
        out.push(
            place,
            "default changed",
            "default-changed",
            Bump::Minor,
            &[],
        );
    }
    // The spellings read, name and aliases together: a name that becomes an alias (or the
    // reverse) is still read. A name no longer read is the rename, reported with it.
    let read = |f: &Field, x: &String| f.name == *x || f.aliases.contains(x);
    for alias in &f.aliases {
        if !read(o, alias) {
            out.push(
                place,
                format!("alias `{alias}` added"),
                "alias-added",
                Bump::Minor,
                &[],
            );
        }
    }
    for alias in &o.aliases {
        if !read(f, alias) {
            out.push(
                place,
                format!("alias `{alias}` removed"),
                "alias-removed",
                Bump::Major,
                &[W],
            );
        }
    }
    if o.deprecated.is_none() && f.deprecated.is_some() {
        out.push(place, "deprecated", "member-deprecated", Bump::Minor, &[]);
    }
    let versions_changed = (o.since, o.removed) != (f.since, f.removed);
    // Only where the Rust type changes does it break code: a member the node always writes
    // is an `Option` when a supported node leaves it out, which its `since` and `removed`
    // decide, and so does the oldest supported node version (`versions.yaml`).
    if o.is_option() != f.is_option() && o.is_required() == f.is_required() {
        let now = if f.is_option() {
            "it is now an `Option`"
        } else {
            "it is no longer an `Option`"
        };
        out.push(
            place,
            if versions_changed {
                format!(
                    "node versions changed from {} to {}: {now}",
                    versions(o.since, o.removed),
                    versions(f.since, f.removed)
                )
            } else {
                format!(
                    "the oldest supported node version changed from {} to {}: {now}",
                    cx.old.versions.oldest_supported, cx.new.versions.oldest_supported
                )
            },
            "member-versions-changed-type",
            Bump::Major,
            readers,
        );
    } else if versions_changed {
        out.push(
            place,
            format!(
                "node versions changed from {} to {}",
                versions(o.since, o.removed),
                versions(f.since, f.removed)
            ),
            "member-versions-changed",
            Bump::Patch,
            &[],
        );
    }
    match (&o.codec, &f.codec) {
        (None, Some(c)) => out.push(
            place,
            format!(
                "now read as codec `{} {}` (a new `…_decoded` accessor)",
                c.codec, c.root
            ),
            "member-codec-added",
            Bump::Minor,
            &[],
        ),
        (Some(_), None) => out.push(
            place,
            "no longer read as a codec value (its `…_decoded` accessor goes)",
            "member-codec-removed",
            Bump::Major,
            readers,
        ),
        (Some(a), Some(b)) if a != b => out.push(
            place,
            format!(
                "read as codec `{} {}` instead of `{} {}`",
                b.codec, b.root, a.codec, a.root
            ),
            "member-codec-changed",
            Bump::Major,
            readers,
        ),
        _ => {}
    }
    if o.summary != f.summary || o.description != f.description || o.note != f.note {
        out.push(
            place,
            "summary, description or note changed",
            "docs-changed",
            Bump::Patch,
            &[],
        );
    }
}

fn dedup(mut v: Vec<Breaks>) -> Vec<Breaks> {
    v.sort();
    v.dedup();
    v
}

fn wire_types(cx: &Cx, out: &mut Out) {
    let (old, new) = (cx.old, cx.new);
    let renamed = |o: &WireType, w: &WireType| {
        cx.wire_types_renamed
            .iter()
            .any(|(a, b)| *a == o.name && *b == w.name)
    };
    let pairs = pair(
        &old.wire_types,
        &new.wire_types,
        &[&|(_, o), (_, w)| o.name == w.name, &|(_, o), (_, w)| {
            renamed(o, w)
        }],
    );
    for (w, o) in new.wire_types.iter().zip(&pairs) {
        let place = format!("wire type {}", w.name);
        let Some(o) = o.map(|j| &old.wire_types[j]) else {
            out.push(
                &place,
                format!("wire type `{}` added", w.name),
                "wire-type-added",
                Bump::Minor,
                &[],
            );
            continue;
        };
        let before = out.0.len();
        if o.name != w.name {
            // Its Rust type is `rust:`'s, not its name's: only the spec and the documents
            // call it another way.
            out.push(
                &place,
                format!(
                    "`{}` renamed to `{}`; its Rust type (`{}`) and JSON are the same",
                    o.name, w.name, w.rust
                ),
                "wire-type-renamed",
                Bump::Patch,
                &[],
            );
        }
        if o.json != w.json {
            out.push(
                &place,
                "its JSON form changed",
                "wire-type-changed",
                Bump::Major,
                &[C, S, W],
            );
        } else {
            if o.rust != w.rust {
                out.push(
                    &place,
                    format!(
                        "its Rust type changed from `{}` to `{}`; the JSON is the same",
                        o.rust, w.rust
                    ),
                    "wire-type-rust-changed",
                    Bump::Major,
                    &[C, S],
                );
            }
            if o.pattern != w.pattern || o.accepts != w.accepts || o.max != w.max {
                out.push(
                    &place,
                    "the values it accepts changed",
                    "wire-type-values-changed",
                    Bump::Major,
                    &[W],
                );
            }
        }
        if out.0.len() == before && o.summary != w.summary {
            out.push(&place, "summary changed", "docs-changed", Bump::Patch, &[]);
        }
    }
    for (j, o) in old.wire_types.iter().enumerate() {
        if !pairs.contains(&Some(j)) {
            out.push(
                format!("wire type {}", o.name),
                format!("wire type `{}` removed", o.name),
                "wire-type-removed",
                Bump::Major,
                &[C, S],
            );
        }
    }
}

fn codec(old: &Codecs, new: &Codecs, out: &mut Out) {
    let layout = |s: &Struct| {
        s.fields
            .iter()
            .map(|f| (f.name.clone(), f.layout.spec_text()))
            .collect::<Vec<_>>()
    };
    for s in new.structs() {
        let place = format!("codec type {}", s.name);
        match old.get(&s.name) {
            None => out.push(
                &place,
                format!("codec type `{}` added", s.name),
                "codec-type-added",
                Bump::Minor,
                &[],
            ),
            Some(o) if layout(o) != layout(s) => out.push(
                &place,
                "its fields or their layout changed",
                "codec-layout-changed",
                Bump::Major,
                &[C, S, W],
            ),
            Some(o)
                if o.fields
                    .iter()
                    .map(|f| (&f.rules, &f.json))
                    .ne(s.fields.iter().map(|f| (&f.rules, &f.json))) =>
            {
                out.push(
                    &place,
                    "its rules or JSON names changed",
                    "codec-rules-changed",
                    Bump::Major,
                    &[W],
                )
            }
            Some(o) => {
                // When the node's JSON form gained a member: the reader's leniency, the
                // schema's `required` and `x-since`; no Rust item changes.
                let since = |s: &Struct| {
                    s.fields
                        .iter()
                        .map(|f| (f.json.clone(), f.since))
                        .chain(s.json_extra.iter().map(|x| (x.name.clone(), x.since)))
                        .collect::<Vec<_>>()
                };
                let (a, b) = (since(o), since(s));
                for (name, v) in &b {
                    let was = a.iter().find(|(n, _)| n == name).and_then(|(_, v)| *v);
                    if was != *v {
                        out.push(
                            &place,
                            format!(
                                "JSON member `{name}`: node versions changed from {} to {}",
                                versions(was, None),
                                versions(*v, None)
                            ),
                            "member-versions-changed",
                            Bump::Patch,
                            &[],
                        );
                    }
                }
            }
        }
    }
    for o in old.structs() {
        if new.get(&o.name).is_none() {
            out.push(
                format!("codec type {}", o.name),
                format!("codec type `{}` removed", o.name),
                "codec-type-removed",
                Bump::Major,
                &[C, S, W],
            );
        }
    }
    for k in &new.codecs {
        if let Some(o) = old.codecs.iter().find(|o| o.name == k.name)
            && o.type_ids != k.type_ids
        {
            out.push(
                format!("codec {}", k.name),
                "its type IDs changed",
                "codec-type-ids-changed",
                Bump::Major,
                &[W],
            );
        }
    }
}

/// The changes as an aligned table, the bump last.
pub fn table(changes: &[Change]) -> String {
    let mut out = String::new();
    let breaks = |c: &Change| {
        if c.breaks.is_empty() {
            "-".to_string()
        } else {
            c.breaks
                .iter()
                .map(|b| b.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let w0 = changes
        .iter()
        .map(|c| c.place.len())
        .max()
        .unwrap_or(0)
        .max(5);
    let w1 = changes
        .iter()
        .map(|c| c.change.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let _ = writeln!(
        out,
        "{:<w0$}  {:<w1$}  {:<5}  breaks",
        "place", "change", "bump"
    );
    for c in changes {
        let _ = writeln!(
            out,
            "{:<w0$}  {:<w1$}  {:<5}  {}",
            c.place,
            c.change,
            c.bump.as_str(),
            breaks(c)
        );
    }
    let _ = writeln!(
        out,
        "\n{} change(s); bump: {}",
        changes.len(),
        bump(changes).as_str()
    );
    out
}

/// The changes as JSON: `{"bump": …, "changes": [{"place", "change", "kind", "bump", "breaks"}]}`.
pub fn json(changes: &[Change]) -> serde_json::Value {
    serde_json::json!({
        "bump": bump(changes).as_str(),
        "changes": changes.iter().map(|c| serde_json::json!({
            "place": c.place,
            "change": c.change,
            "kind": c.kind,
            "bump": c.bump.as_str(),
            "breaks": c.breaks.iter().map(|b| b.as_str()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}
