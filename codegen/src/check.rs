//! Checks that need the whole model: map keys, `also-accepts` forms, and every example and
//! default against its type. They run once lowering found nothing wrong, so that they never
//! report a consequence of an earlier problem.

use crate::conform::{Mode, conform, conform_params, conform_schema};
use crate::error::{SpecError, did_you_mean};
use crate::model::*;

/// Every problem of `spec` that only the whole model shows.
pub fn check(spec: &Spec) -> Vec<SpecError> {
    let mut out = Vec::new();
    for w in &spec.wire_types {
        let origin = &w.example_origin;
        for e in conform(
            spec,
            &w.example,
            &TypeRef::Wire(w.name.clone()),
            Mode::Canonical,
        ) {
            out.push(SpecError::new(origin, e));
        }
    }
    for s in &spec.schemas {
        check_schema(spec, s, &mut out);
        check_codec_refs(spec, s, &mut out);
    }
    for i in &spec.interfaces {
        for s in &i.schemas {
            check_schema(spec, s, &mut out);
        }
        for s in &i.schemas {
            check_codec_refs(spec, s, &mut out);
        }
        for m in &i.methods {
            check_schema(spec, &m.result, &mut out);
            check_codec_refs(spec, &m.result, &mut out);
            for p in &m.params {
                check_map_keys(spec, &p.origin, &p.ty, &mut out);
                check_default(spec, p, &mut out);
            }
            for ex in &m.examples {
                for e in conform_params(spec, &ex.params, &m.params) {
                    out.push(SpecError::new(&ex.params_origin, e));
                }
                let mode = if ex.normalized.is_some() {
                    Mode::Alternatives
                } else {
                    Mode::Canonical
                };
                for e in conform_schema(spec, &ex.result, &m.result, mode) {
                    out.push(SpecError::new(&ex.result_origin, e));
                }
                if let Some(n) = &ex.normalized {
                    for e in conform_schema(spec, n, &m.result, Mode::Canonical) {
                        out.push(SpecError::new(&ex.normalized_origin, e));
                    }
                }
            }
        }
    }
    out
}

fn check_default(spec: &Spec, f: &Field, out: &mut Vec<SpecError>) {
    if let (Some(d), Some(origin)) = (&f.default, &f.default_origin) {
        for e in conform(spec, d, &f.ty, Mode::Canonical) {
            out.push(SpecError::new(origin, e));
        }
    }
}

fn check_schema(spec: &Spec, s: &Schema, out: &mut Vec<SpecError>) {
    match &s.body {
        Body::Object(fields) => {
            for f in fields {
                check_map_keys(spec, &f.origin, &f.ty, out);
                check_default(spec, f, out);
            }
        }
        Body::Alias(t) => check_map_keys(spec, &s.origin, t, out),
        Body::Enum(_) => {}
    }
    for (alt, origin) in s.also_accepts.iter().zip(&s.also_accepts_origins) {
        match (alt, &s.body) {
            (Alternative::Bare(f), Body::Object(fields)) => {
                if !fields.iter().any(|x| &x.name == f) {
                    let hint = did_you_mean(f, fields.iter().map(|x| x.name.as_str()));
                    out.push(SpecError::new(
                        origin,
                        format!("also-accepts `bare: {f}` names no field of this object{hint}"),
                    ));
                }
            }
            (Alternative::Bare(_), _) => out.push(SpecError::new(
                origin,
                "also-accepts `bare` only applies to an object with fields",
            )),
            (Alternative::WrappedIn(k), Body::Object(fields))
                if fields.iter().any(|x| &x.name == k) =>
            {
                out.push(SpecError::new(
                    origin,
                    format!("also-accepts `wrapped-in: {k}` would be ambiguous: `{k}` is a field"),
                ));
            }
            (Alternative::WrappedIn(_), _) => {}
        }
    }
}

/// Map keys must be written as strings.
fn check_map_keys(spec: &Spec, origin: &Origin, t: &TypeRef, out: &mut Vec<SpecError>) {
    match t {
        TypeRef::List(inner) => check_map_keys(spec, origin, inner, out),
        TypeRef::Map(k, v) => {
            let ok = matches!(&**k, TypeRef::Wire(n) if spec.wire(n).is_some_and(|w| w.json == JsonKind::String));
            if !ok {
                out.push(SpecError::new(
                    origin,
                    format!("map keys must be a wire type written as a string, not `{k}`"),
                ));
            }
            check_map_keys(spec, origin, v, out);
        }
        _ => {}
    }
}

/// A field's `codec` names a root of a codec of `spec/codec/`, on bytes or a hex-or-JSON value.
fn check_codec_refs(spec: &Spec, s: &Schema, out: &mut Vec<SpecError>) {
    let Body::Object(fields) = &s.body else {
        return;
    };
    for f in fields {
        let Some(c) = &f.codec else {
            continue;
        };
        let Some(codec) = spec.codec.codecs.iter().find(|k| k.name == c.codec) else {
            out.push(SpecError::new(
                &f.origin,
                format!(
                    "`codec`: there is no codec `{}`{}",
                    c.codec,
                    did_you_mean(&c.codec, spec.codec.codecs.iter().map(|k| k.name.as_str()))
                ),
            ));
            continue;
        };
        let roots: Vec<String> = codec.roots.iter().map(|r| r.layout.spec_text()).collect();
        if !roots.contains(&c.root) {
            out.push(SpecError::new(
                &f.origin,
                format!(
                    "`codec`: codec `{}` has no root `{}` (its roots are {})",
                    c.codec,
                    c.root,
                    roots
                        .iter()
                        .map(|r| format!("`{r}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        let mut t = &f.ty;
        while let TypeRef::List(inner) = t {
            t = inner;
        }
        let holds_bytes = matches!(t, TypeRef::Wire(w) if spec
            .wire(w)
            .is_some_and(|w| matches!(w.rust.as_str(), "HexBytes" | "HexOrJson")));
        if !holds_bytes {
            out.push(SpecError::new(
                &f.origin,
                "`codec` applies to hex bytes or hex-or-JSON values (or lists of them)",
            ));
        }
    }
}
