//! Parsing a spec file: YAML text into a value and the position of each of its nodes, decoding
//! parts of it into the shapes of `raw`, and turning every problem into a [`SpecError`] a
//! person can act on: file, line and column, the part of the spec, and a plain message
//! (indentation, unknown keys with the closest known one, unclosed brackets and quotes).

use crate::error::{SpecError, did_you_mean};
use crate::model::Origin;
use crate::positions::{self, Node, Path, Pos, Seg};
use serde::de::DeserializeOwned;
use serde_yaml::Value;

/// What a file holds: it decides how a place in it is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Versions,
    WireTypes,
    Schemas,
    Interface,
    /// A file of `codec/`: a package's types, or `codecs.yaml`.
    Codec,
}

/// A parsed spec file.
#[derive(Debug)]
pub struct Doc {
    pub file: String,
    pub kind: FileKind,
    pub value: Value,
    pub tree: Node,
}

/// Parses `text`: a YAML document without duplicate keys.
pub fn parse(file: &str, text: &str, kind: FileKind) -> Result<Doc, SpecError> {
    match serde_yaml::from_str::<Value>(text) {
        Ok(value) => Ok(Doc {
            file: file.to_string(),
            kind,
            value,
            tree: positions::scan(text),
        }),
        Err(e) => {
            let pos = e
                .location()
                .map(|l| Pos {
                    line: l.line() as u32,
                    column: l.column() as u32,
                })
                .unwrap_or(Pos { line: 1, column: 1 });
            let (pos, message) = explain_syntax(&e.to_string(), pos, text);
            Err(SpecError {
                file: file.to_string(),
                pos,
                at: String::new(),
                message,
            })
        }
    }
}

impl Doc {
    /// The value at `path`.
    pub fn get(&self, path: &Path) -> Option<&Value> {
        let mut v = &self.value;
        for s in &path.0 {
            v = match (v, s) {
                (Value::Mapping(m), Seg::Key(k)) => m.get(k.as_str())?,
                (Value::Sequence(items), Seg::Index(i)) => items.get(*i)?,
                _ => return None,
            };
        }
        Some(v)
    }

    /// Decodes the value at `path` as `T`; a problem names the place of the offending part.
    pub fn decode<T: DeserializeOwned>(&self, path: &Path) -> Result<T, SpecError> {
        let value = self.get(path).cloned().unwrap_or(Value::Null);
        serde_path_to_error::deserialize::<_, T>(value).map_err(|e| {
            let mut at = path.clone();
            for seg in e.path().iter() {
                match seg {
                    serde_path_to_error::Segment::Seq { index } => at = at.at(*index),
                    serde_path_to_error::Segment::Map { key } => at = at.at(key.as_str()),
                    serde_path_to_error::Segment::Enum { .. }
                    | serde_path_to_error::Segment::Unknown => {}
                }
            }
            self.shape_error(&at, &e.inner().to_string())
        })
    }

    /// A decoding problem at `path`, in words a spec author uses.
    fn shape_error(&self, path: &Path, raw: &str) -> SpecError {
        if let Some(rest) = raw.strip_prefix("unknown field `")
            && let Some((key, expected)) = rest.split_once('`')
        {
            let known = backticked(expected);
            let hint = did_you_mean(key, known.iter().map(String::as_str));
            let list = if known.is_empty() {
                "this mapping takes no keys".to_string()
            } else {
                format!(
                    "the keys here are {}",
                    known
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            // The path may end at the unknown key itself; name the mapping that holds it.
            let map = match path.0.last() {
                Some(Seg::Key(k)) if k == key => Path(path.0[..path.0.len() - 1].to_vec()),
                _ => path.clone(),
            };
            let mut origin = self.origin(&map);
            origin.pos = self.tree.locate_key(&map.0, key);
            return SpecError::new(&origin, format!("unknown key `{key}`{hint} ({list})"));
        }
        if let Some(rest) = raw.strip_prefix("missing field `")
            && let Some((key, _)) = rest.split_once('`')
        {
            return self.err(path, format!("missing key `{key}`"));
        }
        if let Some(rest) = raw.strip_prefix("unknown variant `")
            && let Some((value, expected)) = rest.split_once('`')
        {
            let known = backticked(expected);
            let hint = did_you_mean(value, known.iter().map(String::as_str));
            return self.err(
                path,
                format!(
                    "`{value}` is not one of {}{hint}",
                    known
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        if let Some(rest) = raw.strip_prefix("invalid type: ")
            && let Some((found, expected)) = rest.split_once(", expected ")
            && expected == "a string"
            && !found.starts_with("string")
        {
            return self.err(
                path,
                format!("YAML reads this as {found}, not text: put it in quotes"),
            );
        }
        self.err(path, raw.to_string())
    }

    /// Where the node at `path` is, and how to name it.
    pub fn origin(&self, path: &Path) -> Origin {
        Origin {
            file: self.file.clone(),
            pos: self.pos(path),
            at: self.describe(&path.0),
        }
    }

    /// Where the node at `path` is: its value, or, for a mapping entry whose value is a
    /// mapping or a list, its key (`Owner:`), where a reader looks for it.
    fn pos(&self, path: &Path) -> Pos {
        if let Some((Seg::Key(k), parent)) = path.0.split_last()
            && let Some(node) = self.tree.get(&path.0)
            && !matches!(node.kind, positions::Kind::Scalar(_))
        {
            return self.tree.locate_key(parent, k);
        }
        self.tree.locate(&path.0)
    }

    /// A problem of the node at `path`.
    pub fn err(&self, path: &Path, message: impl Into<String>) -> SpecError {
        SpecError::new(&self.origin(path), message)
    }

    /// The name of a place, as errors show it: "method `info.peers`, params, field `nodeIDs`".
    pub fn describe(&self, path: &[Seg]) -> String {
        let mut parts: Vec<String> = Vec::new();
        let name_at = |p: &[Seg], key: &str| -> Option<String> {
            let mut full = Path(p.to_vec());
            full = full.at(key);
            self.get(&full).and_then(|v| match v {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                Value::Bool(b) => Some(b.to_string()),
                _ => None,
            })
        };
        let mut i = 0;
        match (self.kind, path.first(), path.get(1)) {
            (FileKind::WireTypes, Some(Seg::Key(k)), _) => {
                parts.push(format!("wire type `{k}`"));
                i = 1;
            }
            (FileKind::Schemas, Some(Seg::Key(k)), _) => {
                parts.push(format!("schema `{k}`"));
                i = 1;
            }
            (FileKind::Interface, Some(Seg::Key(k)), Some(Seg::Index(n))) if k == "methods" => {
                let ns = name_at(&[], "namespace").unwrap_or_default();
                match name_at(&path[..2], "name") {
                    Some(name) if !ns.is_empty() => parts.push(format!("method `{ns}.{name}`")),
                    Some(name) => parts.push(format!("method `{name}`")),
                    None => parts.push(format!("methods[{n}]")),
                }
                i = 2;
            }
            (FileKind::Codec, Some(Seg::Key(k)), Some(Seg::Index(n))) if k == "types" => {
                let package = name_at(&[], "package").unwrap_or_default();
                match name_at(&path[..2], "name") {
                    Some(name) => parts.push(format!("type `{package}.{name}`")),
                    None => parts.push(format!("types[{n}]")),
                }
                i = 2;
            }
            (FileKind::Codec, Some(Seg::Key(k)), Some(Seg::Index(n))) if k == "codecs" => {
                match name_at(&path[..2], "name") {
                    Some(name) => parts.push(format!("codec `{name}`")),
                    None => parts.push(format!("codecs[{n}]")),
                }
                i = 2;
            }
            (FileKind::Interface, Some(Seg::Key(k)), Some(Seg::Key(name))) if k == "schemas" => {
                parts.push(format!("schema `{name}`"));
                i = 2;
            }
            _ => {}
        }
        while i < path.len() {
            match (&path[i], path.get(i + 1)) {
                (Seg::Key(k), Some(Seg::Index(n)))
                    if matches!(k.as_str(), "fields" | "values" | "examples") =>
                {
                    let (what, key) = match k.as_str() {
                        "fields" => ("field", "name"),
                        "values" => ("value", "value"),
                        _ => ("example", "name"),
                    };
                    match name_at(&path[..i + 2], key) {
                        Some(name) => parts.push(format!("{what} `{name}`")),
                        None => parts.push(format!("{k}[{n}]")),
                    }
                    i += 2;
                }
                (Seg::Key(k), Some(Seg::Index(n))) if k == "params" => {
                    parts.push("params".into());
                    match name_at(&path[..i + 2], "name") {
                        Some(name) => parts.push(format!("field `{name}`")),
                        None => parts.push(format!("[{n}]")),
                    }
                    i += 2;
                }
                (Seg::Key(k), _) => {
                    parts.push(k.clone());
                    i += 1;
                }
                (Seg::Index(n), _) => {
                    match parts.last_mut() {
                        Some(last) => last.push_str(&format!("[{n}]")),
                        None => parts.push(format!("[{n}]")),
                    }
                    i += 1;
                }
            }
        }
        parts.join(", ")
    }
}

/// The names between backticks in `text`, in order.
fn backticked(text: &str) -> Vec<String> {
    text.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_string())
        .collect()
}

/// `line A column B` in a parser message, as a position.
fn mark_after(message: &str, after: &str) -> Option<Pos> {
    let rest = &message[message.find(after)? + after.len()..];
    let rest = rest.trim_start().strip_prefix("at line ")?;
    let (line, rest) = rest.split_once(" column ")?;
    let column: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    Some(Pos {
        line: line.trim().parse().ok()?,
        column: column.parse().ok()?,
    })
}

/// The indentation (from 0) of each line.
fn indent_of(line: &str) -> usize {
    line.chars().take_while(|c| *c == ' ').count()
}

fn is_content(line: &str) -> bool {
    let t = line.trim_start();
    !t.is_empty() && !t.starts_with('#')
}

/// A YAML syntax problem, in words: where, and what to do about it.
fn explain_syntax(raw: &str, pos: Pos, text: &str) -> (Pos, String) {
    let lines: Vec<&str> = text.lines().collect();
    let line_text = lines.get(pos.line as usize - 1).copied().unwrap_or("");
    let col0 = (pos.column as usize).saturating_sub(1);
    // The problem alone, without the parser's positions.
    let what = raw.split(" at line ").next().unwrap_or(raw).to_string();
    let what = match what.split_once(": duplicate entry") {
        Some((_, rest)) => format!("duplicate entry{rest}"),
        None => what,
    };

    if let Some(rest) = what.strip_prefix("duplicate entry with key \"") {
        let key = rest.trim_end_matches('"');
        let tree = positions::scan(text);
        let twice = tree
            .maps()
            .into_iter()
            .filter_map(|(at, entries)| {
                let same: Vec<Pos> = entries
                    .iter()
                    .filter(|e| e.key == key)
                    .map(|e| e.key_pos)
                    .collect();
                (same.len() > 1).then_some((at, same))
            })
            .min_by_key(|(at, _)| (at.line.abs_diff(pos.line), at.column.abs_diff(pos.column)));
        return match twice {
            Some((_, same)) => (
                same[1],
                format!(
                    "the key `{key}` is written twice in this mapping (first at line {}, column {}); keep one",
                    same[0].line, same[0].column
                ),
            ),
            None => (
                pos,
                format!("the key `{key}` is written twice in one mapping; keep one"),
            ),
        };
    }

    if what.starts_with("found a tab character")
        || (what.starts_with("found character that cannot start any token")
            && line_text.chars().nth(col0) == Some('\t'))
    {
        return (
            pos,
            "a tab in the indentation: YAML indents with spaces only".into(),
        );
    }

    if what.starts_with("mapping values are not allowed in this context") {
        let before: String = line_text.chars().take(col0).collect();
        let key_start = indent_of(line_text);
        let first_colon = before[key_start.min(before.len())..].find(": ");
        return match first_colon {
            Some(_) => (
                pos,
                "this value holds `: `, which YAML reads as the start of another key: put the value in quotes".into(),
            ),
            None => {
                let above = lines[..(pos.line as usize - 1).min(lines.len())]
                    .iter()
                    .rev()
                    .find(|l| is_content(l))
                    .map(|l| indent_of(l) + 1);
                let hint = match above {
                    Some(c) => format!(
                        "line {} starts at column {}, deeper than the line above (column {c}), so YAML reads it as part of that line's value: indent it like the entries it belongs with",
                        pos.line,
                        key_start + 1
                    ),
                    None => "a key where a plain value was expected".to_string(),
                };
                (Pos { line: pos.line, column: key_start as u32 + 1 }, format!("bad indentation: {hint}"))
            }
        };
    }

    if what.starts_with("did not find expected key")
        || what.starts_with("did not find expected '-' indicator")
        || what.starts_with("block sequence entries are not allowed")
    {
        let here = indent_of(line_text);
        // The indentations of the blocks that enclose the line, innermost first.
        let mut columns: Vec<usize> = Vec::new();
        for l in lines[..(pos.line as usize - 1).min(lines.len())]
            .iter()
            .rev()
        {
            if !is_content(l) {
                continue;
            }
            let ind = indent_of(l);
            if columns.last().is_none_or(|last| ind < *last) {
                columns.push(ind);
            }
            if ind == 0 {
                break;
            }
        }
        let list = columns
            .iter()
            .map(|c| (c + 1).to_string())
            .collect::<Vec<_>>()
            .join(", ");
        return (
            Pos {
                line: pos.line,
                column: here as u32 + 1,
            },
            format!(
                "bad indentation: line {} starts at column {}, which lines up with no block above it (their entries start at column {list}): indent it like the entries it belongs with",
                pos.line,
                here + 1
            ),
        );
    }

    for (open, close, kind) in [('[', ']', "a flow sequence"), ('{', '}', "a flow mapping")] {
        if what.starts_with("did not find expected ',' or") && raw.contains(kind) {
            let opened = mark_after(raw, kind);
            let at = opened
                .map(|p| format!(" at line {}, column {}", p.line, p.column))
                .unwrap_or_default();
            return (
                opened.unwrap_or(pos),
                format!(
                    "the `{open}`{at} is not closed: add `{close}` (or a `,` between its items)"
                ),
            );
        }
    }

    if what.starts_with("found unexpected end of stream") && raw.contains("quoted scalar") {
        let opened = mark_after(raw, "quoted scalar");
        let at = opened
            .map(|p| format!(" at line {}, column {}", p.line, p.column))
            .unwrap_or_default();
        return (
            opened.unwrap_or(pos),
            format!("the quoted text that starts{at} is never closed"),
        );
    }

    (pos, what)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> String {
        let e = parse("f.yaml", text, FileKind::Interface).unwrap_err();
        e.to_string()
    }

    #[test]
    fn explains_indentation() {
        assert_eq!(
            problem("a:\n  b: 1\n c: 2\n"),
            "f.yaml:3:2: bad indentation: line 3 starts at column 2, which lines up with no block above it (their entries start at column 3, 1): indent it like the entries it belongs with"
        );
        assert_eq!(
            problem("a:\n  b: 1\n   c: 2\n"),
            "f.yaml:3:4: bad indentation: line 3 starts at column 4, deeper than the line above (column 3), so YAML reads it as part of that line's value: indent it like the entries it belongs with"
        );
        assert_eq!(
            problem("a: b: c\n"),
            "f.yaml:1:5: this value holds `: `, which YAML reads as the start of another key: put the value in quotes"
        );
        assert_eq!(
            problem("a:\n\tb: 1\n"),
            "f.yaml:2:1: a tab in the indentation: YAML indents with spaces only"
        );
    }

    #[test]
    fn explains_unclosed_brackets_and_quotes() {
        assert_eq!(
            problem("a: [1, 2\nb: 3\n"),
            "f.yaml:1:4: the `[` at line 1, column 4 is not closed: add `]` (or a `,` between its items)"
        );
        assert_eq!(
            problem("a: 'x\n"),
            "f.yaml:1:4: the quoted text that starts at line 1, column 4 is never closed"
        );
    }

    #[test]
    fn points_at_the_second_of_two_equal_keys() {
        assert_eq!(
            problem("a:\n  b: 1\n  b: 2\n"),
            "f.yaml:3:3: the key `b` is written twice in this mapping (first at line 2, column 3); keep one"
        );
    }
}
