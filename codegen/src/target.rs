//! The model for one node version: the methods, params and members that version did not serve
//! (`since` newer than it, or `removed` at or before it) are left out, and so are the members
//! they held in the examples, and an interface none of whose methods it served (the devnet's
//! own interface included: no node serves it).

use crate::model::*;
use serde_json::Value;

/// `spec` as node `version` serves it. The spec describes the versions from
/// `oldest-supported` on; an older `version` is an error.
pub fn for_node(spec: Spec, version: Version) -> Result<Spec, String> {
    if version < spec.versions.oldest_supported {
        return Err(format!(
            "the spec describes node versions from {} (`oldest-supported` in versions.yaml) on, not {version}",
            spec.versions.oldest_supported
        ));
    }
    // Examples are pruned against the whole model, before anything is left out of it.
    let mut pruned: Vec<Vec<Example>> = Vec::new();
    for (_, m) in spec.methods() {
        pruned.push(
            m.examples
                .iter()
                .map(|e| {
                    let mut e = e.clone();
                    prune_object(&spec, &mut e.params, &m.params, version);
                    prune_schema(&spec, &mut e.result, &m.result, version);
                    if let Some(n) = &mut e.normalized {
                        prune_schema(&spec, n, &m.result, version);
                    }
                    e
                })
                .collect(),
        );
    }
    let mut pruned = pruned.into_iter();
    let Spec {
        versions,
        wire_types,
        schemas,
        interfaces,
        codec,
        node_version: _,
    } = spec;
    let interfaces = interfaces
        .into_iter()
        .map(|mut i| {
            let had_methods = !i.methods.is_empty();
            i.schemas = i.schemas.into_iter().map(|s| schema(s, version)).collect();
            i.methods = std::mem::take(&mut i.methods)
                .into_iter()
                .map(|mut m| {
                    m.examples = pruned.next().unwrap_or_default();
                    m
                })
                // No node serves the devnet's own methods.
                .filter(|m| served_by(version, m.since, m.removed) && !m.is_devnet_only())
                .map(|mut m| {
                    m.params = fields(m.params, version);
                    m.result = schema(m.result, version);
                    m
                })
                .collect();
            (had_methods, i)
        })
        // An interface whose methods that version served none of: it did not serve it.
        .filter(|(had, i)| !had || !i.methods.is_empty())
        .map(|(_, i)| i)
        .collect();
    Ok(Spec {
        versions,
        wire_types,
        schemas: schemas.into_iter().map(|s| schema(s, version)).collect(),
        interfaces,
        codec,
        node_version: Some(version),
    })
}

fn fields(list: Vec<Field>, version: Version) -> Vec<Field> {
    list.into_iter()
        .filter(|f| served_by(version, f.since, f.removed))
        .collect()
}

fn schema(mut s: Schema, version: Version) -> Schema {
    if let Body::Object(list) = s.body {
        let kept = fields(list, version);
        // A `bare` form names a member; without it the form is gone too.
        let (alts, origins): (Vec<_>, Vec<_>) = s
            .also_accepts
            .into_iter()
            .zip(s.also_accepts_origins)
            .filter(|(a, _)| match a {
                Alternative::Bare(f) => kept.iter().any(|k| &k.name == f),
                Alternative::WrappedIn(_) => true,
            })
            .unzip();
        s.also_accepts = alts;
        s.also_accepts_origins = origins;
        s.body = Body::Object(kept);
    }
    s
}

/// Removes from `v`, an object of `fields`, the members `version` did not serve, and the same
/// within the members it keeps.
fn prune_object(spec: &Spec, v: &mut Value, fields: &[Field], version: Version) {
    let Value::Object(map) = v else {
        return;
    };
    for f in fields {
        let spellings = std::iter::once(&f.name).chain(&f.aliases);
        if served_by(version, f.since, f.removed) {
            for k in spellings {
                if let Some(x) = map.get_mut(k) {
                    prune_type(spec, x, &f.ty, version);
                }
            }
        } else {
            for k in spellings {
                map.remove(k);
            }
        }
    }
}

fn prune_schema(spec: &Spec, v: &mut Value, s: &Schema, version: Version) {
    let fields = match &s.body {
        Body::Object(fields) => fields,
        Body::Alias(t) => return prune_type(spec, v, t, version),
        Body::Enum(_) => return,
    };
    // The forms only the client reads.
    for alt in &s.also_accepts {
        match alt {
            Alternative::WrappedIn(key) => {
                if let Value::Object(m) = v
                    && m.len() == 1
                    && !fields.iter().any(|f| &f.name == key)
                    && let Some(inner) = m.get_mut(key)
                {
                    return prune_object(spec, inner, fields, version);
                }
            }
            Alternative::Bare(field) => {
                if !v.is_object()
                    && let Some(f) = fields.iter().find(|f| &f.name == field)
                {
                    return prune_type(spec, v, &f.ty, version);
                }
            }
        }
    }
    prune_object(spec, v, fields, version)
}

fn prune_type(spec: &Spec, v: &mut Value, t: &TypeRef, version: Version) {
    match t {
        TypeRef::Wire(_) => {}
        TypeRef::Schema { name, scope } => {
            if let Some(s) = spec.schema(name, scope) {
                prune_schema(spec, v, s, version);
            }
        }
        TypeRef::List(inner) => {
            if let Value::Array(items) = v {
                for x in items {
                    prune_type(spec, x, inner, version);
                }
            }
        }
        TypeRef::Map(_, inner) => {
            if let Value::Object(m) = v {
                for x in m.values_mut() {
                    prune_type(spec, x, inner, version);
                }
            }
        }
    }
}
