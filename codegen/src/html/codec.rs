//! The page's section on transactions, blocks and UTXOs: the binary layout and the node's JSON
//! form (`encoding: json`) of every codec type of `spec/codec/`, each codec's type numbering,
//! slots and roots.
//!
//! A struct is `#codec-<package>.<Name>`, a slot of a codec `#codec-<codec>.slot-<Slot>`, a
//! codec `#codec-<codec>`. Members holding codec values (`codec:` in the spec) link here.

use super::markup::{esc, inline, text};
use crate::codec::model::{
    Codec, Codecs, ExtraPlace, ExtraValue, JsonForm, Layout, Order, Rules, Struct, TypeRef,
};
use crate::model::{CodecRef, Spec};
use std::fmt::Write;

/// The section, or nothing when the spec declares no codec.
pub(super) fn section(h: &mut String, spec: &Spec) {
    let c = &spec.codec;
    if c.codecs.is_empty() {
        return;
    }
    h.push_str(
        r##"<section class="reference" id="codec">
<h2>Transactions, blocks and UTXOs</h2>
<p class="summary">What the hex strings of <code>getTx</code>, <code>getBlock</code>, <code>getUTXOs</code>, <code>issueTx</code> and the index hold, and the JSON form the node writes for them with <code>encoding: json</code>. One declaration per type in <code>spec/codec/</code> gives both.</p>
<div class="callout">
<p><strong>Reading the bytes.</strong> A type's fields follow one another in the order listed, with no padding and no names. Integers are big-endian. An <code>id</code> is 32 bytes, a <code>short-id</code>, <code>node-id</code> or <code>evm-address</code> 20. <code>bytes</code> is a <code>u32</code> length and the bytes, and <code>bytes&lt;N&gt;</code> is exactly N bytes. <code>string</code> is a <code>u16</code> length and UTF-8. <code>list&lt;T&gt;</code> is a <code>u32</code> count and the elements. <code>any&lt;Slot&gt;</code> is the <code>u32</code> type ID of the value's type, then its fields. A value that travels on its own (a <em>root</em>: a transaction, a block, a UTXO) starts with its codec's 2-byte version and must end where its fields end.</p>
<p><strong>Reading the JSON.</strong> Each field is a member named in the <em>JSON</em> column. An <em>inline</em> field's members sit in its place. Members marked <em>JSON only</em> are not in the bytes; the node derives them. IDs are cb58, addresses are <code>chain-hrp1…</code> bech32, and bytes are <code>0x</code> hex unless the table says otherwise.</p>
</div>
"##,
    );
    for k in &c.codecs {
        codec(h, k);
    }
    for p in &c.packages {
        let _ = write!(
            h,
            "<h3 class=\"subhead\" id=\"codec-package-{n}\">Package <code>{n}</code></h3>\n<p>{s}",
            n = esc(&p.name),
            s = inline(&p.summary)
        );
        if let Some(src) = &p.source {
            let _ = write!(
                h,
                " <span class=\"muted small\">(node: <code>{}</code>)</span>",
                esc(src)
            );
        }
        h.push_str("</p>\n");
        for s in &p.types {
            structure(h, c, s);
        }
    }
    h.push_str("</section>\n");
}

/// The link to what a member with `codec:` holds, for its table row.
pub(super) fn holds(spec: &Spec, r: &CodecRef) -> Option<String> {
    let k = spec.codec.codecs.iter().find(|k| k.name == r.codec)?;
    let root = k.roots.iter().find(|x| x.layout.spec_text() == r.root)?;
    Some(format!(
        "holds {} of codec <a href=\"#codec-{c}\"><code>{c}</code></a>: hex of its bytes, or its JSON form where the encoding is <code>json</code>",
        layout_html(&[k], &root.layout),
        c = esc(&k.name),
    ))
}

fn codec(h: &mut String, k: &Codec) {
    let _ = write!(
        h,
        "<div class=\"schema\" id=\"codec-{n}\">\n<h4><a class=\"anchor\" href=\"#codec-{n}\" title=\"Link to this codec\">#</a>Codec <code>{n}</code></h4>\n<p class=\"summary\">{s}</p>\n<p class=\"meta\">version <code>{v}</code> · at most <code>{max}</code> bytes",
        n = esc(&k.name),
        s = inline(&k.summary),
        v = k.version,
        max = k.max_size,
    );
    if !k.fxs.is_empty() {
        let _ = write!(
            h,
            " · fxs in order {}",
            k.fxs
                .iter()
                .map(|f| format!("<code>{}</code>", esc(f)))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if k.zero_fx_ids {
        h.push_str(" · every <code>fxID</code> in JSON is the zero ID");
    }
    if let Some(src) = &k.source {
        let _ = write!(h, " · node: <code>{}</code>", esc(src));
    }
    h.push_str("</p>\n<table class=\"table fields\">\n<thead><tr><th>Root</th><th>ID</th><th>Description</th></tr></thead>\n<tbody>\n");
    for r in &k.roots {
        let id = match r.id {
            Some(crate::codec::model::RootId::Sha256) => "SHA-256 of the bytes",
            Some(crate::codec::model::RootId::Sha256Unsigned) => {
                "SHA-256 of the bytes without the signature"
            }
            None => "—",
        };
        let mut desc = format!("<p>{}</p>", inline(&r.summary));
        if r.max_size != k.max_size {
            let _ = write!(
                desc,
                "<div class=\"meta\">at most <code>{}</code> bytes</div>",
                r.max_size
            );
        }
        let _ = writeln!(
            h,
            "<tr><td class=\"ftype\">{}</td><td>{id}</td><td>{desc}</td></tr>",
            layout_html(&[k], &r.layout)
        );
    }
    h.push_str("</tbody>\n</table>\n<table class=\"table fields\">\n<thead><tr><th>Slot</th><th>May hold (type ID)</th></tr></thead>\n<tbody>\n");
    for s in &k.slots {
        let types: Vec<String> = s
            .types
            .iter()
            .map(|t| {
                format!(
                    "{} <span class=\"muted\">({})</span>",
                    struct_link(t),
                    k.type_id(t).map_or("?".into(), |i| i.to_string())
                )
            })
            .collect();
        let _ = writeln!(
            h,
            "<tr id=\"codec-{n}.slot-{s}\"><td class=\"fname\"><code>{s}</code></td><td>{}</td></tr>",
            types.join(", "),
            n = esc(&k.name),
            s = esc(&s.name),
        );
    }
    h.push_str("</tbody>\n</table>\n</div>\n");
}

fn structure(h: &mut String, c: &Codecs, s: &Struct) {
    let id = format!("codec-{}", s.name);
    let _ = write!(
        h,
        "<div class=\"schema\" id=\"{id}\">\n<h4><a class=\"anchor\" href=\"#{id}\" title=\"Link to this type\">#</a>{n}</h4>\n<p class=\"summary\">{summary}</p>\n",
        id = esc(&id),
        n = esc(&s.name.to_string()),
        summary = inline(&s.summary),
    );
    if let Some(d) = &s.description {
        h.push_str(&text(d));
    }
    // The codecs whose values reach the type, with its type ID in each.
    let codecs: Vec<&Codec> = c
        .codecs
        .iter()
        .filter(|k| k.reached.contains(&s.name))
        .collect();
    let numbered: Vec<String> = codecs
        .iter()
        .map(|k| match k.type_id(&s.name) {
            Some(i) => format!("<code>{}</code> type ID <code>{i}</code>", esc(&k.name)),
            None => format!("<code>{}</code>", esc(&k.name)),
        })
        .collect();
    if !numbered.is_empty() {
        let _ = writeln!(h, "<p class=\"meta\">In {}.</p>", numbered.join(" · "));
    }
    h.push_str("<table class=\"table fields\">\n<thead><tr><th>JSON</th><th>Bytes</th><th>JSON form</th><th>Description</th></tr></thead>\n<tbody>\n");
    let extra_row = |h: &mut String, x: &crate::codec::model::JsonExtra| {
        let d = match &x.value {
            ExtraValue::Id => "The value's ID: SHA-256 of its bytes.".to_string(),
            ExtraValue::FxOf(f) => format!("The ID of the fx of <code>{}</code>'s type.", esc(f)),
            ExtraValue::FxAt(f) => format!(
                "The ID of the fx at position <code>{}</code> in the chain's fx list.",
                esc(f)
            ),
        };
        let _ = writeln!(
            h,
            "<tr><td class=\"fname\"><code>{}</code><span class=\"tag tag-optional\">JSON only</span></td><td class=\"ftype\">—</td><td>string, cb58 ID</td><td><p>{d}</p></td></tr>",
            esc(&x.name)
        );
    };
    for f in &s.fields {
        for x in &s.json_extra {
            if x.place == ExtraPlace::Before(f.name.clone()) {
                extra_row(h, x);
            }
        }
        let mut desc = format!("<p>{}</p>", inline(&f.summary));
        let rules = rules_html(&f.rules);
        if !rules.is_empty() {
            let _ = write!(desc, "<div class=\"meta\">{rules}</div>");
        }
        let (name, form) = if f.inline {
            (
                format!(
                    "<code class=\"muted\">{}</code><span class=\"tag tag-optional\">inline</span>",
                    esc(&f.name)
                ),
                "its members, here".to_string(),
            )
        } else {
            (
                format!("<code>{}</code>", esc(&f.json)),
                json_form(&f.layout, f.json_form),
            )
        };
        let _ = writeln!(
            h,
            "<tr><td class=\"fname\">{name}</td><td class=\"ftype\">{}</td><td>{form}</td><td>{desc}</td></tr>",
            layout_html(&codecs, &f.layout)
        );
        for x in &s.json_extra {
            if x.place == ExtraPlace::After(f.name.clone()) {
                extra_row(h, x);
            }
        }
    }
    for x in &s.json_extra {
        if x.place == ExtraPlace::End {
            extra_row(h, x);
        }
    }
    h.push_str("</tbody>\n</table>\n");
    if s.json_alphabetical {
        h.push_str("<p class=\"muted small\">The node writes the JSON members in alphabetical order.</p>\n");
    }
    if let Some((id, index)) = &s.prefix_id {
        let _ = writeln!(
            h,
            "<p class=\"muted small\">Its ID: SHA-256 of <code>{}</code> as 8 big-endian bytes followed by <code>{}</code>.</p>",
            esc(index),
            esc(id)
        );
    }
    h.push_str("</div>\n");
}

fn struct_link(t: &TypeRef) -> String {
    format!(
        "<a class=\"type type-schema\" href=\"#codec-{t}\">{t}</a>",
        t = esc(&t.to_string())
    )
}

/// A layout as the spec writes it, structs linked to their tables and slots to their codecs'
/// lists (one link per codec that reaches the type holding it).
fn layout_html(codecs: &[&Codec], l: &Layout) -> String {
    match l {
        Layout::List(inner) => format!(
            "<span class=\"type-op\">list&lt;</span>{}<span class=\"type-op\">&gt;</span>",
            layout_html(codecs, inner)
        ),
        Layout::Struct(t) => struct_link(t),
        Layout::Slot(s) => {
            let links: Vec<String> = codecs
                .iter()
                .filter(|k| k.slot(s).is_some())
                .map(|k| {
                    format!(
                        "<a href=\"#codec-{k}.slot-{s}\" title=\"What {s} may hold in codec {k}\">{k}</a>",
                        k = esc(&k.name),
                        s = esc(s)
                    )
                })
                .collect();
            let mut out = format!(
                "<span class=\"type-op\">any&lt;</span><span class=\"type type-schema\">{}</span><span class=\"type-op\">&gt;</span>",
                esc(s)
            );
            if !links.is_empty() {
                let _ = write!(out, "<div class=\"meta\">in {}</div>", links.join(" · "));
            }
            out
        }
        other => format!(
            "<span class=\"type type-wire\">{}</span>",
            esc(&other.spec_text())
        ),
    }
}

/// What the node writes for a field in JSON.
fn json_form(l: &Layout, form: Option<JsonForm>) -> String {
    match l {
        Layout::U8 | Layout::U16 | Layout::U32 | Layout::U64 | Layout::I64 => "number".into(),
        Layout::Bool => "boolean".into(),
        Layout::Id => "string, cb58 ID".into(),
        Layout::NodeId => "string, <code>NodeID-…</code>".into(),
        Layout::EvmAddress => "string, <code>0x</code> and 40 lower-case hex digits".into(),
        Layout::ShortId if form == Some(JsonForm::Cb58) => "string, cb58".into(),
        Layout::ShortId => "string, address <code>chain-hrp1…</code>".into(),
        Layout::Bytes | Layout::FixedBytes(_) => match form {
            Some(JsonForm::Base64) => "string, base64".into(),
            Some(JsonForm::Numbers) => "array of numbers (0–255)".into(),
            _ => "string, <code>0x</code> hex".into(),
        },
        Layout::String => "string".into(),
        Layout::List(inner) => format!("array of {}", json_form(inner, form)),
        Layout::Struct(_) => "object".into(),
        Layout::Slot(_) => "object (one of the slot's types)".into(),
    }
}

fn rules_html(r: &Rules) -> String {
    let mut parts = Vec::new();
    match &r.order {
        Some(Order::Sorted) => parts.push("sorted by encoding".to_string()),
        Some(Order::StrictlyIncreasing) => {
            parts.push("strictly increasing by encoding (so unique)".to_string())
        }
        Some(Order::StrictlyIncreasingBy(f)) => {
            parts.push(format!("strictly increasing by <code>{}</code>", esc(f)))
        }
        None => {}
    }
    if let Some(v) = r.min {
        parts.push(format!("at least <code>{v}</code>"));
    }
    if let Some(v) = r.max {
        parts.push(format!("at most <code>{v}</code>"));
    }
    if let Some(v) = r.max_len {
        parts.push(format!("length at most <code>{v}</code>"));
    }
    if let Some(v) = r.len {
        parts.push(format!("length exactly <code>{v}</code>"));
    }
    parts.join(" · ")
}
