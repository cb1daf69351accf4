//! The `check` listing: every interface, method and field, with a total.

use crate::model::*;
use std::fmt::Write;

/// One line per method and one per field (nested fields as `peers[].ip`), then totals.
pub fn listing(spec: &Spec) -> String {
    let mut out = String::new();
    let mut total = 0;
    let mut node_only = 0;
    let mut devnet_only = 0;
    for i in &spec.interfaces {
        let _ = writeln!(out, "{} ({}, {} methods)", i.path, i.title, i.methods.len());
        for m in &i.methods {
            total += 1;
            let mut tags = Vec::new();
            match (&m.deprecated, &m.removed) {
                (Some(d), Some(r)) => {
                    tags.push(format!("deprecated since {}, removed in {r}", d.since))
                }
                (Some(d), None) => tags.push(format!("deprecated since {}", d.since)),
                (None, Some(r)) => tags.push(format!("removed in {r}")),
                (None, None) => {}
            }
            if m.is_node_only() {
                node_only += 1;
                tags.push("node only".into());
            }
            if m.is_devnet_only() {
                devnet_only += 1;
                tags.push("devnet only".into());
            }
            let tags = if tags.is_empty() {
                String::new()
            } else {
                format!("  [{}]", tags.join("; "))
            };
            let _ = writeln!(out, "  {}{tags}", m.wire_name);
            if m.params.is_empty() {
                let _ = writeln!(out, "    param  (none)");
            }
            for p in &m.params {
                fields(spec, &mut out, "param ", "", p, &mut Vec::new());
            }
            match &m.result.body {
                Body::Object(fs) => {
                    for f in fs {
                        fields(spec, &mut out, "result", "", f, &mut Vec::new());
                    }
                }
                Body::Alias(t) => {
                    let _ = writeln!(out, "    result (the whole result): {t}");
                    nested(spec, &mut out, "result", "", t, &mut Vec::new());
                }
                Body::Enum(_) => {}
            }
        }
    }
    let _ = writeln!(
        out,
        "\n{total} methods in {} interfaces ({} in the API description, {node_only} served by the node only, {devnet_only} by the devnet only)",
        spec.interfaces.len(),
        total - node_only - devnet_only
    );
    codec_listing(spec, &mut out);
    out
}

/// The binary layouts: every codec with its roots and numbering, every struct field by field.
fn codec_listing(spec: &Spec, out: &mut String) {
    let c = &spec.codec;
    if c.packages.is_empty() {
        return;
    }
    for codec in &c.codecs {
        let _ = writeln!(
            out,
            "\ncodec {} (version {}, at most {} bytes): {} type IDs, {} slots",
            codec.name,
            codec.version,
            codec.max_size,
            codec.type_ids.iter().filter(|(_, t)| t.is_some()).count(),
            codec.slots.len()
        );
        for r in &codec.roots {
            let _ = writeln!(
                out,
                "  root {} (at most {} bytes)",
                r.layout.spec_text(),
                r.max_size
            );
        }
        for s in &codec.slots {
            let members: Vec<String> = s
                .types
                .iter()
                .map(|t| format!("{t} = {}", codec.type_id(t).unwrap_or_default()))
                .collect();
            let _ = writeln!(out, "  slot {}: {}", s.name, members.join(", "));
        }
    }
    for p in &c.packages {
        let _ = writeln!(out, "\npackage {} ({} types)", p.name, p.types.len());
        for t in &p.types {
            let fields: Vec<String> = t
                .fields
                .iter()
                .map(|f| {
                    let inline = if f.inline { " (inline)" } else { "" };
                    format!("{} {}{inline}", f.name, f.layout.spec_text())
                })
                .collect();
            let _ = writeln!(out, "  {}: {}", t.name.name, fields.join(", "));
        }
    }
    let structs = c.structs().count();
    let _ = writeln!(
        out,
        "\n{structs} codec types in {} packages, {} codecs",
        c.packages.len(),
        c.codecs.len()
    );
}

fn fields(
    spec: &Spec,
    out: &mut String,
    kind: &str,
    prefix: &str,
    f: &Field,
    seen: &mut Vec<String>,
) {
    let mut flags = Vec::new();
    if f.optional {
        flags.push("optional".to_string());
    }
    if f.nullable {
        flags.push("nullable".to_string());
    }
    if !f.aliases.is_empty() {
        flags.push(format!("also {}", f.aliases.join(", ")));
    }
    if f.deprecated.is_some() {
        flags.push("deprecated".into());
    }
    if let Some(v) = &f.since {
        flags.push(format!("since {v}"));
    }
    if let Some(v) = &f.removed {
        flags.push(format!("removed in {v}"));
    }
    let flags = if flags.is_empty() {
        String::new()
    } else {
        format!(" ({})", flags.join("; "))
    };
    let path = format!("{prefix}{}", f.name);
    let _ = writeln!(out, "    {kind} {path}: {}{flags}", f.ty);
    nested(spec, out, kind, &path, &f.ty, seen);
}

fn nested(
    spec: &Spec,
    out: &mut String,
    kind: &str,
    path: &str,
    t: &TypeRef,
    seen: &mut Vec<String>,
) {
    match t {
        TypeRef::Wire(_) => {}
        TypeRef::List(inner) => nested(spec, out, kind, &format!("{path}[]"), inner, seen),
        TypeRef::Map(_, v) => nested(spec, out, kind, &format!("{path}{{}}"), v, seen),
        TypeRef::Schema { name, scope } => {
            if seen.contains(name) {
                return;
            }
            let Some(s) = spec.schema(name, scope) else {
                return;
            };
            seen.push(name.clone());
            match &s.body {
                Body::Object(fs) => {
                    for f in fs {
                        let prefix = if path.is_empty() {
                            String::new()
                        } else {
                            format!("{path}.")
                        };
                        fields(spec, out, kind, &prefix, f, seen);
                    }
                }
                Body::Alias(inner) => nested(spec, out, kind, path, inner, seen),
                Body::Enum(_) => {}
            }
            seen.pop();
        }
    }
}
