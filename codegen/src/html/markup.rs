//! Spec text as HTML: escaping, inline code and bold spans, paragraphs and lists.

use std::fmt::Write as _;

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One line of spec text: escaped, with `` `code` `` and `**bold**` spans.
pub fn inline(s: &str) -> String {
    let mut out = String::new();
    for (n, part) in s.trim().split('`').enumerate() {
        if n % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", esc(part));
        } else {
            for (b, bold) in esc(part).split("**").enumerate() {
                if b % 2 == 1 {
                    let _ = write!(out, "<strong>{bold}</strong>");
                } else {
                    out.push_str(bold);
                }
            }
        }
    }
    // An unbalanced backtick leaves an open span; the split above already closed it.
    out
}

/// Spec text: paragraphs separated by blank lines; a paragraph whose first line starts with
/// `- ` is a list (further lines continue the item they follow).
pub fn text(s: &str) -> String {
    let mut out = String::new();
    let mut blocks: Vec<Vec<&str>> = vec![Vec::new()];
    for line in s.trim().lines() {
        if line.trim().is_empty() {
            if !blocks.last().is_some_and(|b| b.is_empty()) {
                blocks.push(Vec::new());
            }
        } else {
            blocks.last_mut().expect("one block").push(line);
        }
    }
    for b in blocks.into_iter().filter(|b| !b.is_empty()) {
        if b[0].trim_start().starts_with("- ") {
            let mut items: Vec<String> = Vec::new();
            let mut lead: Vec<String> = Vec::new();
            for line in b {
                let t = line.trim();
                if let Some(item) = t.strip_prefix("- ") {
                    items.push(item.to_string());
                } else if let Some(last) = items.last_mut() {
                    last.push(' ');
                    last.push_str(t);
                } else {
                    lead.push(t.to_string());
                }
            }
            if !lead.is_empty() {
                let _ = writeln!(out, "<p>{}</p>", inline(&lead.join(" ")));
            }
            out.push_str("<ul>\n");
            for i in items {
                let _ = writeln!(out, "<li>{}</li>", inline(&i));
            }
            out.push_str("</ul>\n");
        } else {
            let joined: Vec<&str> = b.iter().map(|l| l.trim()).collect();
            // A paragraph that introduces a list on its following lines.
            if let Some(pos) = joined.iter().position(|l| l.starts_with("- ")) {
                let _ = writeln!(out, "<p>{}</p>", inline(&joined[..pos].join(" ")));
                out.push_str(&text(&joined[pos..].join("\n")));
            } else {
                let _ = writeln!(out, "<p>{}</p>", inline(&joined.join(" ")));
            }
        }
    }
    out
}
