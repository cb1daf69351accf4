//! The codec files into the codec model, with their checks: every type name resolves (with
//! the closest known one when it does not), rules fit the layout they are on, every type a
//! codec numbers exists, every slot a codec's values reach is defined there and holds only
//! types the codec numbers, and no struct contains itself.

use super::model::{
    Codec, Codecs, ExtraPlace, ExtraValue, Field, JsonExtra, JsonForm, Layout, Order, Package,
    Root, RootId, Rules, Slot, Struct, TypeRef,
};
use super::raw;
use crate::error::{SpecError, did_you_mean};
use crate::model::Version;
use crate::positions::Path;
use crate::yaml::Doc;
use std::collections::{BTreeMap, BTreeSet};

/// The type names that exist: those declared, and any name of a package whose file did not
/// parse (its problem is reported once, not again at each use).
#[derive(Default)]
pub struct Known {
    pub types: BTreeSet<TypeRef>,
    pub unparsed_packages: BTreeSet<String>,
}

impl Known {
    fn contains(&self, r: &TypeRef) -> bool {
        self.types.contains(r) || self.unparsed_packages.contains(&r.package)
    }

    fn iter(&self) -> impl Iterator<Item = &TypeRef> {
        self.types.iter()
    }
}

/// Lowers the package files and `codecs.yaml` (when there is one); `unparsed_packages` are
/// the packages of files that did not parse.
pub fn lower(
    packages: &[Doc],
    codecs: Option<&Doc>,
    unparsed_packages: BTreeSet<String>,
    oldest_supported: Version,
) -> (Codecs, Vec<SpecError>) {
    let mut errors = Vec::new();
    let mut known = Known {
        unparsed_packages,
        ..Known::default()
    };
    let mut raw_packages = Vec::new();
    for doc in packages {
        match doc.decode::<raw::Package>(&Path::root()) {
            Ok(p) => raw_packages.push((doc, p)),
            Err(e) => {
                if let Some(serde_yaml::Value::String(name)) = doc.get(&Path::root().at("package"))
                {
                    known.unparsed_packages.insert(name.clone());
                }
                errors.push(e);
            }
        }
    }
    // Every type name, so that a reference resolves whatever the file order.
    let mut seen_packages: BTreeMap<&str, &Doc> = BTreeMap::new();
    for (doc, p) in &raw_packages {
        if seen_packages.insert(&p.package, doc).is_some() {
            errors.push(doc.err(
                &Path::root().at("package"),
                format!("package `{}` is declared by another file too", p.package),
            ));
        }
        for (i, t) in p.types.iter().enumerate() {
            let r = TypeRef {
                package: p.package.clone(),
                name: t.name.clone(),
            };
            if !known.types.insert(r.clone()) {
                errors.push(doc.err(
                    &Path::root().at("types").at(i).at("name"),
                    format!("type `{r}` is declared twice"),
                ));
            }
        }
    }
    let mut model = Codecs::default();
    for (doc, p) in &raw_packages {
        let mut types = Vec::new();
        for (i, t) in p.types.iter().enumerate() {
            let at = Path::root().at("types").at(i);
            let mut fields = Vec::new();
            for (j, f) in t.fields.iter().enumerate() {
                let fat = at.at("fields").at(j);
                match field(doc, &fat, &p.package, f, &known, oldest_supported) {
                    Ok(f) => fields.push(f),
                    Err(e) => errors.push(e),
                }
            }
            let mut json_extra = Vec::new();
            for (j, x) in t.json_extra.iter().enumerate() {
                match json_extra_of(
                    doc,
                    &at.at("json-extra").at(j),
                    x,
                    &fields,
                    oldest_supported,
                ) {
                    Ok(x) => json_extra.push(x),
                    Err(e) => errors.push(e),
                }
            }
            let fx = match (&t.fx, p.fx) {
                (Some(_), true) => {
                    errors.push(doc.err(
                        &at.at("fx"),
                        "the package is an fx already: its types belong to it",
                    ));
                    None
                }
                (Some(fx), false) => Some(fx.clone()),
                (None, true) => Some(p.package.clone()),
                (None, false) => None,
            };
            let prefix_id = match t
                .id
                .as_deref()
                .map(|v| v.split_whitespace().collect::<Vec<_>>())
            {
                None => None,
                Some(words) => match words.as_slice() {
                    ["prefix", id, index]
                        if fields
                            .iter()
                            .any(|f| f.name == *id && f.layout == Layout::Id)
                            && fields
                                .iter()
                                .any(|f| f.name == *index && f.layout.is_integer()) =>
                    {
                        Some((id.to_string(), index.to_string()))
                    }
                    _ => {
                        errors.push(doc.err(
                            &at.at("id"),
                            "`id` is `prefix <id field> <integer field>`, naming an `id` field and an integer field of the type",
                        ));
                        None
                    }
                },
            };
            types.push(Struct {
                prefix_id,
                name: TypeRef {
                    package: p.package.clone(),
                    name: t.name.clone(),
                },
                summary: t.summary.clone(),
                description: t.description.clone(),
                fields,
                fx,
                json_extra,
                json_alphabetical: p.json_order.as_deref() == Some("alphabetical"),
                origin: doc.origin(&at),
            });
        }
        if let Some(order) = p.json_order.as_deref()
            && order != "alphabetical"
        {
            errors.push(doc.err(
                &Path::root().at("json-order"),
                format!("`{order}` is not a JSON order: the one there is, is `alphabetical`"),
            ));
        }
        model.packages.push(Package {
            name: p.package.clone(),
            summary: p.summary.clone(),
            source: p.source.clone(),
            fx: p.fx,
            types,
        });
    }
    // With a package missing, whole-model checks would only echo its absence.
    let complete = known.unparsed_packages.is_empty();
    if complete {
        check_orders(&model, &mut errors);
    }
    check_cycles(&model, &mut errors);
    if let Some(doc) = codecs {
        match doc.decode::<raw::CodecsFile>(&Path::root()) {
            Ok(file) => {
                for (i, c) in file.codecs.iter().enumerate() {
                    let at = Path::root().at("codecs").at(i);
                    if let Some(codec) = codec(doc, &at, c, &model, &known, &mut errors) {
                        model.codecs.push(codec);
                    }
                }
                if complete {
                    check_slots_used(&model, doc, &mut errors);
                }
            }
            Err(e) => errors.push(e),
        }
    } else if !model.packages.is_empty() {
        errors.push(SpecError {
            file: "codec/codecs.yaml".into(),
            pos: crate::positions::Pos { line: 1, column: 1 },
            at: String::new(),
            message: "the codec folder has types but no codecs.yaml to number them".into(),
        });
    }
    (model, errors)
}

/// One field: its layout and rules.
fn field(
    doc: &Doc,
    at: &Path,
    package: &str,
    f: &raw::Field,
    known: &Known,
    oldest_supported: Version,
) -> Result<Field, SpecError> {
    let layout = parse_layout(&f.ty, package, known).map_err(|m| doc.err(&at.at("type"), m))?;
    let since = since(doc, at, f.since.as_deref())?;
    let newer_than_oldest = since.is_some_and(|v| v > oldest_supported);
    // An older node's JSON lacks the member: reading it takes the layout's empty value.
    if newer_than_oldest
        && (f.inline
            || !matches!(
                layout,
                Layout::List(_)
                    | Layout::Bytes
                    | Layout::String
                    | Layout::U8
                    | Layout::U16
                    | Layout::U32
                    | Layout::U64
                    | Layout::I64
                    | Layout::Bool
            ))
    {
        return Err(doc.err(
            &at.at("since"),
            "a field the JSON form of older nodes lacks reads as its empty value there: it must be a list, bytes, a string, an integer or a bool, not inline",
        ));
    }
    if f.inline && !matches!(layout, Layout::Struct(_)) {
        return Err(doc.err(
            &at.at("inline"),
            format!("only a struct can be inline, and `{}` is not one", f.ty),
        ));
    }
    let order = match f.order.as_deref() {
        None => None,
        Some(_) if !matches!(layout, Layout::List(_)) => {
            return Err(doc.err(&at.at("order"), "`order` applies to lists only"));
        }
        Some("sorted") => Some(Order::Sorted),
        Some("strictly-increasing") => Some(Order::StrictlyIncreasing),
        Some(other) => match other.strip_prefix("strictly-increasing-by ") {
            Some(members) => Some(Order::StrictlyIncreasingBy(
                members.split_whitespace().collect::<Vec<_>>().join(" "),
            )),
            None => {
                return Err(doc.err(
                    &at.at("order"),
                    format!(
                        "`{other}` is not an order: use `sorted`, `strictly-increasing` or `strictly-increasing-by <field>`"
                    ),
                ));
            }
        },
    };
    if (f.min.is_some() || f.max.is_some()) && !layout.is_integer() {
        let key = if f.min.is_some() { "min" } else { "max" };
        return Err(doc.err(&at.at(key), format!("`{key}` applies to integers only")));
    }
    if let (Some(min), Some(max)) = (f.min, f.max)
        && min > max
    {
        return Err(doc.err(&at.at("min"), format!("`min` {min} is above `max` {max}")));
    }
    let sized = matches!(layout, Layout::Bytes | Layout::String | Layout::List(_));
    for (key, v) in [("max-len", f.max_len), ("len", f.len)] {
        if v.is_some() && !sized {
            return Err(doc.err(
                &at.at(key),
                format!("`{key}` applies to bytes, strings and lists only"),
            ));
        }
    }
    if layout == Layout::String && f.max_len.is_some_and(|n| n > u64::from(u16::MAX)) {
        return Err(doc.err(
            &at.at("max-len"),
            "a string's length is a u16: `max-len` cannot exceed 65535",
        ));
    }
    let json_form = match f.json_form.as_deref() {
        None => None,
        Some(form) => {
            let (form, fits) = match form {
                "cb58" => (
                    JsonForm::Cb58,
                    matches!(innermost(&layout), Layout::ShortId),
                ),
                "hex" => (JsonForm::Hex, is_bytes(&layout)),
                "base64" => (JsonForm::Base64, is_bytes(&layout)),
                "numbers" => (JsonForm::Numbers, is_bytes(&layout)),
                other => {
                    return Err(doc.err(
                        &at.at("json-form"),
                        format!(
                            "`{other}` is not a JSON form: use `cb58`, `hex`, `base64` or `numbers`{}",
                            did_you_mean(other, ["cb58", "hex", "base64", "numbers"])
                        ),
                    ));
                }
            };
            if !fits {
                return Err(doc.err(
                    &at.at("json-form"),
                    format!(
                        "a `{}` cannot be written as `{}`",
                        f.ty,
                        f.json_form.as_deref().unwrap_or_default()
                    ),
                ));
            }
            Some(form)
        }
    };
    Ok(Field {
        json_form,
        name: f.name.clone(),
        json: f.json.clone().unwrap_or_else(|| f.name.clone()),
        summary: f.summary.clone(),
        layout,
        inline: f.inline,
        since,
        newer_than_oldest,
        rules: Rules {
            order,
            min: f.min,
            max: f.max,
            max_len: f.max_len,
            len: f.len,
        },
        origin: doc.origin(at),
    })
}

/// `u32`, `bytes<48>`, `list<T>`, `any<Slot>`, `Name` (this package) or `package.Name`.
pub fn parse_layout(text: &str, package: &str, known: &Known) -> Result<Layout, String> {
    let t = text.trim();
    let scalar = match t {
        "u8" => Some(Layout::U8),
        "u16" => Some(Layout::U16),
        "u32" => Some(Layout::U32),
        "u64" => Some(Layout::U64),
        "i64" => Some(Layout::I64),
        "bool" => Some(Layout::Bool),
        "id" => Some(Layout::Id),
        "short-id" => Some(Layout::ShortId),
        "node-id" => Some(Layout::NodeId),
        "evm-address" => Some(Layout::EvmAddress),
        "bytes" => Some(Layout::Bytes),
        "string" => Some(Layout::String),
        _ => None,
    };
    if let Some(s) = scalar {
        return Ok(s);
    }
    if let Some(n) = t.strip_prefix("bytes<").and_then(|r| r.strip_suffix('>')) {
        return match n.trim().parse::<usize>() {
            Ok(n) if n > 0 => Ok(Layout::FixedBytes(n)),
            _ => Err(format!(
                "`{t}`: the length of `bytes<N>` is a positive number"
            )),
        };
    }
    if let Some(inner) = t.strip_prefix("list<").and_then(|r| r.strip_suffix('>')) {
        return Ok(Layout::List(Box::new(parse_layout(inner, package, known)?)));
    }
    if let Some(slot) = t.strip_prefix("any<").and_then(|r| r.strip_suffix('>')) {
        let slot = slot.trim();
        if slot.is_empty() || !slot.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!("`{t}`: a slot name is letters and digits"));
        }
        return Ok(Layout::Slot(slot.to_string()));
    }
    let r = match t.split_once('.') {
        Some((p, n)) => TypeRef {
            package: p.to_string(),
            name: n.to_string(),
        },
        None => TypeRef {
            package: package.to_string(),
            name: t.to_string(),
        },
    };
    if known.contains(&r) {
        return Ok(Layout::Struct(r));
    }
    // Suggest among the names as this place would write them.
    let spellings: Vec<String> = known
        .iter()
        .map(|k| {
            if k.package == package {
                k.name.clone()
            } else {
                k.to_string()
            }
        })
        .chain(
            [
                "u8",
                "u16",
                "u32",
                "u64",
                "i64",
                "bool",
                "id",
                "short-id",
                "node-id",
                "evm-address",
                "bytes",
                "string",
            ]
            .map(String::from),
        )
        .collect();
    Err(format!(
        "unknown type `{t}`{}",
        did_you_mean(t, spellings.iter().map(String::as_str))
    ))
}

/// The element type of nested lists.
fn innermost(l: &Layout) -> &Layout {
    match l {
        Layout::List(inner) => innermost(inner),
        other => other,
    }
}

fn is_bytes(l: &Layout) -> bool {
    matches!(l, Layout::Bytes | Layout::FixedBytes(_))
}

/// A JSON-only member: what it holds must name a field of the right kind, and its place a
/// field of the type.
fn json_extra_of(
    doc: &Doc,
    at: &Path,
    x: &raw::JsonExtra,
    fields: &[Field],
    oldest_supported: Version,
) -> Result<JsonExtra, SpecError> {
    let since = since(doc, at, x.since.as_deref())?;
    let field = |name: &str, key: &str| -> Result<&Field, SpecError> {
        fields.iter().find(|f| f.name == name).ok_or_else(|| {
            doc.err(
                &at.at(key),
                format!(
                    "the type has no field `{name}`{}",
                    did_you_mean(name, fields.iter().map(|f| f.name.as_str()))
                ),
            )
        })
    };
    let value = match x.value.split_once(' ') {
        None if x.value == "id" => ExtraValue::Id,
        Some(("fx-of", name)) => {
            if !matches!(field(name.trim(), "value")?.layout, Layout::Slot(_)) {
                return Err(doc.err(
                    &at.at("value"),
                    format!("`fx-of {name}`: the field is not a slot (`any<…>`)"),
                ));
            }
            ExtraValue::FxOf(name.trim().to_string())
        }
        Some(("fx-at", name)) => {
            if !field(name.trim(), "value")?.layout.is_integer() {
                return Err(doc.err(
                    &at.at("value"),
                    format!("`fx-at {name}`: the field is not an integer"),
                ));
            }
            ExtraValue::FxAt(name.trim().to_string())
        }
        _ => {
            return Err(doc.err(
                &at.at("value"),
                format!(
                    "`{}` is not a JSON-only value: use `fx-of <field>`, `fx-at <field>` or `id`",
                    x.value
                ),
            ));
        }
    };
    let place = match (&x.before, &x.after) {
        (Some(_), Some(_)) => return Err(doc.err(at, "give `before` or `after`, not both")),
        (Some(b), None) => ExtraPlace::Before(field(b, "before")?.name.clone()),
        (None, Some(a)) => ExtraPlace::After(field(a, "after")?.name.clone()),
        (None, None) => ExtraPlace::End,
    };
    Ok(JsonExtra {
        name: x.name.clone(),
        value,
        place,
        since,
        newer_than_oldest: since.is_some_and(|v| v > oldest_supported),
    })
}

/// The `since` of a field or JSON-only member, a node version.
fn since(doc: &Doc, at: &Path, text: Option<&str>) -> Result<Option<Version>, SpecError> {
    text.map(|t| {
        t.parse::<Version>()
            .map_err(|e| doc.err(&at.at("since"), e))
    })
    .transpose()
}

/// `strictly-increasing-by <field>` names a field of the list's element struct.
fn check_orders(model: &Codecs, errors: &mut Vec<SpecError>) {
    for s in model.structs() {
        for f in &s.fields {
            let (Some(Order::StrictlyIncreasingBy(member)), Layout::List(elem)) =
                (&f.rules.order, &f.layout)
            else {
                continue;
            };
            // One field, or several compared in turn.
            let missing = member.split_whitespace().find(|m| match elem.as_ref() {
                Layout::Struct(t) => !model
                    .get(t)
                    .is_some_and(|e| e.fields.iter().any(|x| x.name == *m)),
                _ => true,
            });
            if let Some(missing) = missing {
                errors.push(SpecError::new(
                    &f.origin,
                    format!(
                        "`strictly-increasing-by {member}`: the elements ({}) have no field `{missing}`",
                        elem.spec_text()
                    ),
                ));
            }
        }
    }
}

/// A struct that contains itself (not through a list or a slot) would be infinitely long.
fn check_cycles(model: &Codecs, errors: &mut Vec<SpecError>) {
    fn visit<'a>(
        model: &'a Codecs,
        t: &'a TypeRef,
        stack: &mut Vec<&'a TypeRef>,
    ) -> Option<String> {
        if stack.contains(&t) {
            let mut names: Vec<String> = stack.iter().map(|s| s.to_string()).collect();
            names.push(t.to_string());
            return Some(names.join(" → "));
        }
        let s = model.get(t)?;
        stack.push(t);
        for f in &s.fields {
            if let Layout::Struct(inner) = &f.layout
                && let Some(cycle) = visit(model, inner, stack)
            {
                return Some(cycle);
            }
        }
        stack.pop();
        None
    }
    for s in model.structs() {
        if let Some(cycle) = visit(model, &s.name, &mut Vec::new())
            && cycle.ends_with(&format!("→ {}", s.name))
        {
            errors.push(SpecError::new(
                &s.origin,
                format!("the type contains itself: {cycle}"),
            ));
        }
    }
}

/// One codec: numbering, slots, roots, and what its roots reach.
fn codec(
    doc: &Doc,
    at: &Path,
    c: &raw::Codec,
    model: &Codecs,
    known: &Known,
    errors: &mut Vec<SpecError>,
) -> Option<Codec> {
    let before = errors.len();
    let resolve = |text: &str, place: &Path, errors: &mut Vec<SpecError>| -> Option<TypeRef> {
        match text.split_once('.') {
            Some((p, n)) => {
                let r = TypeRef {
                    package: p.into(),
                    name: n.into(),
                };
                if known.contains(&r) {
                    return Some(r);
                }
                let names: Vec<String> = known.iter().map(|k| k.to_string()).collect();
                errors.push(doc.err(
                    place,
                    format!(
                        "unknown type `{text}`{}",
                        did_you_mean(text, names.iter().map(String::as_str))
                    ),
                ));
                None
            }
            None => {
                errors.push(doc.err(
                    place,
                    format!("`{text}`: name the type with its package (`package.Name`)"),
                ));
                None
            }
        }
    };
    let mut type_ids = Vec::new();
    let mut numbered: BTreeMap<TypeRef, u32> = BTreeMap::new();
    let mut unresolved = false;
    for (id, ty) in &c.type_ids {
        let place = at.at("type-ids").at(id.to_string().as_str());
        let r = ty.as_deref().and_then(|t| resolve(t, &place, errors));
        unresolved |= ty.is_some() && r.is_none();
        if let Some(r) = &r
            && let Some(first) = numbered.insert(r.clone(), *id)
        {
            errors.push(doc.err(
                &place,
                format!("`{r}` already has type ID {first} in codec `{}`", c.name),
            ));
        }
        type_ids.push((*id, r));
    }
    let mut slots = Vec::new();
    for (name, types) in &c.slots {
        let place = at.at("slots").at(name.as_str());
        let mut list = Vec::new();
        for (k, t) in types.iter().enumerate() {
            let Some(r) = resolve(t, &place.at(k), errors) else {
                continue;
            };
            // After a misspelt entry of the numbering, this may be the type it meant.
            if !numbered.contains_key(&r) && !unresolved {
                errors.push(doc.err(
                    &place.at(k),
                    format!(
                        "`{r}` has no type ID in codec `{}`: a slot holds numbered types only",
                        c.name
                    ),
                ));
            }
            list.push(r);
        }
        slots.push(Slot {
            name: name.clone(),
            types: list,
        });
    }
    let mut roots = Vec::new();
    for (k, r) in c.roots.iter().enumerate() {
        let place = at.at("roots").at(k).at("type");
        match parse_layout(&r.ty, "", known) {
            Ok(l @ (Layout::Struct(_) | Layout::Slot(_))) => {
                let id = match r.id.as_deref() {
                    None => None,
                    Some("sha256") => Some(RootId::Sha256),
                    Some("sha256-unsigned") => Some(RootId::Sha256Unsigned),
                    Some(other) => {
                        errors.push(doc.err(
                            &at.at("roots").at(k).at("id"),
                            format!(
                                "`{other}` is not an ID rule: use `sha256` or `sha256-unsigned`"
                            ),
                        ));
                        None
                    }
                };
                roots.push(Root {
                    layout: l,
                    summary: r.summary.clone(),
                    max_size: r.max_size.unwrap_or(c.max_size),
                    id,
                })
            }
            Ok(_) => errors.push(doc.err(&place, "a root is a struct or a slot (`any<Slot>`)")),
            Err(m) => errors.push(doc.err(&place, m)),
        }
    }
    let mut fxs = Vec::new();
    for (i, fx) in c.fxs.iter().enumerate() {
        if model.packages.iter().any(|p| &p.name == fx && p.fx) {
            fxs.push(fx.clone());
        } else if !known.unparsed_packages.contains(fx) {
            let names: Vec<&str> = model
                .packages
                .iter()
                .filter(|p| p.fx)
                .map(|p| p.name.as_str())
                .collect();
            errors.push(doc.err(
                &at.at("fxs").at(i),
                format!("`{fx}` is not an fx package{}", did_you_mean(fx, names)),
            ));
        }
    }
    let zero_fx_ids = match c.json_fx_ids.as_deref() {
        None => false,
        Some("zero") => true,
        Some(other) => {
            errors.push(doc.err(
                &at.at("json-fx-ids"),
                format!("`{other}` is not a form of the fx IDs: the only one is `zero`"),
            ));
            false
        }
    };
    let mut codec = Codec {
        fxs,
        zero_fx_ids,
        name: c.name.clone(),
        summary: c.summary.clone(),
        source: c.source.clone(),
        version: c.version,
        max_size: c.max_size,
        type_ids,
        slots,
        roots,
        reached: Vec::new(),
        codec_bound: Vec::new(),
        origin: doc.origin(at),
    };
    reach(&mut codec, model, doc, at, errors);
    (errors.len() == before).then_some(codec)
}

/// Walks from the roots: every slot reached must be defined; records the structs reached.
fn reach(codec: &mut Codec, model: &Codecs, doc: &Doc, at: &Path, errors: &mut Vec<SpecError>) {
    let mut reached: Vec<TypeRef> = Vec::new();
    let mut missing: BTreeSet<String> = BTreeSet::new();
    let mut stack: Vec<(Layout, Option<&Field>)> = codec
        .roots
        .iter()
        .rev()
        .map(|r| (r.layout.clone(), None))
        .collect();
    while let Some((layout, from)) = stack.pop() {
        match layout {
            Layout::List(inner) => stack.push((*inner, from)),
            Layout::Struct(t) => {
                if reached.contains(&t) {
                    continue;
                }
                reached.push(t.clone());
                if let Some(s) = model.get(&t) {
                    for f in s.fields.iter().rev() {
                        stack.push((f.layout.clone(), Some(f)));
                    }
                }
            }
            Layout::Slot(name) => match codec.slot(&name) {
                Some(slot) => {
                    for t in slot.types.iter().rev() {
                        stack.push((Layout::Struct(t.clone()), from));
                    }
                }
                None => {
                    if missing.insert(name.clone()) {
                        let names: Vec<&str> =
                            codec.slots.iter().map(|s| s.name.as_str()).collect();
                        let message = format!(
                            "slot `{name}` is reached from the roots of codec `{}` but not defined there{}",
                            codec.name,
                            did_you_mean(&name, names)
                        );
                        errors.push(match from {
                            Some(f) => SpecError::new(&f.origin, message),
                            None => doc.err(&at.at("roots"), message),
                        });
                    }
                }
            },
            _ => {}
        }
    }
    let holds_slot = |t: &TypeRef| holds_slot(model, t, &mut Vec::new());
    codec.codec_bound = reached.iter().filter(|t| holds_slot(t)).cloned().collect();
    codec.reached = reached;
}

/// Whether the struct holds a slot at some depth.
fn holds_slot(model: &Codecs, t: &TypeRef, seen: &mut Vec<TypeRef>) -> bool {
    if seen.contains(t) {
        return false;
    }
    seen.push(t.clone());
    let Some(s) = model.get(t) else {
        return false;
    };
    s.fields.iter().any(|f| {
        let mut l = &f.layout;
        while let Layout::List(inner) = l {
            l = inner;
        }
        match l {
            Layout::Slot(_) => true,
            Layout::Struct(inner) => holds_slot(model, inner, seen),
            _ => false,
        }
    })
}

/// A slot no struct or root uses is a mistake of the spec.
fn check_slots_used(model: &Codecs, doc: &Doc, errors: &mut Vec<SpecError>) {
    let mut used: BTreeSet<&str> = BTreeSet::new();
    for s in model.structs() {
        for f in &s.fields {
            let mut l = &f.layout;
            while let Layout::List(inner) = l {
                l = inner;
            }
            if let Layout::Slot(name) = l {
                used.insert(name);
            }
        }
    }
    for (i, c) in model.codecs.iter().enumerate() {
        for r in &c.roots {
            if let Layout::Slot(name) = &r.layout {
                used.insert(name);
            }
        }
        for s in &c.slots {
            if !used.contains(s.name.as_str()) {
                errors.push(
                    doc.err(
                        &Path::root()
                            .at("codecs")
                            .at(i)
                            .at("slots")
                            .at(s.name.as_str()),
                        format!("slot `{}` is used by no field and no root", s.name),
                    ),
                );
            }
        }
    }
}
