//! The import map of each crate's sources, drawn from the paths its files name (`use`
//! lines and `crate::`/`super::`/`self::` paths in code): no two files of a crate depend on
//! each other, directly or around a longer circle. A file is a module (`a/b.rs` or
//! `a/b/mod.rs`); a path is charged to the deepest module file it reaches. Inline
//! `#[cfg(test)] mod tests { … }` blocks are left out (a test module uses its parent).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Every `.rs` file under `src` as its module path (`lib.rs`, `main.rs` and `mod.rs` name
/// their folder's module); `src/bin/` holds other crates and is left out.
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<Module, PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a source folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                if path != src.join("bin") {
                    walk(&path, src, out);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path
                .strip_prefix(src)
                .expect("under src")
                .with_extension("");
            let mut m: Module = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let last = m.last().cloned().unwrap_or_default();
            if last == "mod" || (m.len() == 1 && (last == "lib" || last == "main")) {
                m.pop();
            }
            out.insert(m, path);
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// `text` without comments, string and char literals, and its inline test module.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(i) => &text[..i],
        None => text,
    };
    let text = without_quoted(text);
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            // A char literal ('{'); a lifetime ('a) never closes two bytes on.
            i += 3;
            out.push_str("' '");
        } else if b[i] == b'\'' && b.get(i + 1) == Some(&b'\\') && b.get(i + 3) == Some(&b'\'') {
            i += 4;
            out.push_str("' '");
        } else if b[i] == b'"' {
            // A raw string's hashes are not followed; none of these crates names a path in one.
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// `text` without the bodies of `quote!`-style macros: the paths there are the generated
/// code's (`crate::rpc::…` of the crate a generator writes), not the file's own.
fn without_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = ["quote!", "quote_spanned!", "parse_quote!"]
        .iter()
        .filter_map(|m| rest.find(m).map(|i| (i, m.len())))
        .min()
        .map(|(i, len)| (i, i + len))
    {
        let (start, after) = i;
        out.push_str(&rest[..start]);
        let b = rest.as_bytes();
        let Some(open) = (after..b.len()).find(|&j| !b[j].is_ascii_whitespace()) else {
            break;
        };
        let (o, c) = match b[open] {
            b'(' => (b'(', b')'),
            b'{' => (b'{', b'}'),
            b'[' => (b'[', b']'),
            _ => {
                out.push_str(&rest[start..after]);
                rest = &rest[after..];
                continue;
            }
        };
        let mut depth = 0usize;
        let mut end = b.len();
        for (j, x) in b.iter().enumerate().skip(open) {
            if *x == o {
                depth += 1;
            } else if *x == c {
                depth -= 1;
                if depth == 0 {
                    end = j + 1;
                    break;
                }
            }
        }
        out.push_str("quote!()");
        rest = &rest[end.min(b.len())..];
    }
    out.push_str(rest);
    out
}

/// A `use` tree expanded into its paths: `a::{b, c::{d, e}}` gives `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let (prefix, body) = (
        &tree[..open],
        &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())],
    );
    let (mut parts, mut depth, mut current) = (Vec::new(), 0, String::new());
    for c in body.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(p))
        .map(|p| format!("{prefix}{p}"))
        .collect()
}

/// The paths a file names that start at `crate`, `super` or `self`, or at one of its own
/// child modules (`children`: `kind::check(..)` written in `pchain/mod.rs`), the latter
/// given as `self::kind::check`.
fn paths_with(code: &str, children: &[String]) -> Vec<String> {
    let mut out: Vec<String> = paths(code)
        .into_iter()
        .map(|p| {
            let first = p.split("::").next().unwrap_or_default();
            if children.iter().any(|c| c == first) {
                format!("self::{p}")
            } else {
                p
            }
        })
        .collect();
    let b = code.as_bytes();
    for child in children {
        let start = format!("{child}::");
        let mut from = 0;
        while let Some(i) = code[from..].find(&start) {
            let at = from + i;
            from = at + start.len();
            if at > 0
                && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_' || b[at - 1] == b':')
            {
                continue;
            }
            let mut end = from;
            while end < b.len()
                && (b[end].is_ascii_alphanumeric() || b[end] == b'_' || b[end] == b':')
            {
                end += 1;
            }
            // `child::{…}`: a use tree, read whole by `paths`.
            if code[end..].starts_with('{') {
                continue;
            }
            let rest = code[from..end].trim_end_matches(':');
            out.push(if rest.is_empty() {
                format!("self::{child}")
            } else {
                format!("self::{child}::{rest}")
            });
        }
    }
    out
}

/// The paths a file names: every leaf of its `use` trees, and the paths in its code that
/// start at `crate`, `super` or `self`.
fn paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().last();
        let after = &rest[i + 4..];
        let end = after.find(';').unwrap_or(after.len());
        if before.is_none_or(|c| !c.is_alphanumeric() && c != '_') {
            // `X as Y` keeps X: the rename marked with `@` before the spaces go.
            let words: Vec<&str> = after[..end].split_whitespace().collect();
            let tree = words.join(" ").replace(" as ", "@");
            out.extend(
                expand(&tree)
                    .into_iter()
                    .map(|p| p.split('@').next().unwrap_or_default().to_string()),
            );
        }
        rest = &after[end.min(after.len())..];
    }
    let b = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0
                && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_' || b[at - 1] == b':')
            {
                continue;
            }
            let mut end = at;
            while end < b.len()
                && (b[end].is_ascii_alphanumeric() || b[end] == b'_' || b[end] == b':')
            {
                end += 1;
            }
            // `crate::a::{…}` is a use tree, read whole above.
            if !code[at..end].ends_with("::") {
                out.push(code[at..end].to_string());
            }
        }
    }
    out
}

/// The module a path reaches from module `current`: the deepest module file on its way.
fn target(path: &str, current: &Module, files: &BTreeMap<Module, PathBuf>) -> Option<Module> {
    let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
    let mut full: Module = match segments.peek().copied() {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        Some("super" | "self") => current.clone(),
        _ => return None,
    };
    for s in segments {
        match s {
            "super" => {
                full.pop();
            }
            "self" | "*" => {}
            s => full.push(s.to_string()),
        }
    }
    (0..=full.len())
        .rev()
        .map(|k| full[..k].to_vec())
        .find(|m| files.contains_key(m))
}

/// What each module re-exports (`pub use a::b::C;`, `pub use a::b::C as D;`): the name
/// it gives and the path it names, made absolute (`crate::a::b::C`). Globs are not followed.
fn reexports(m: &Module, text: &str, children: &[String]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = text;
    while let Some(i) = rest.find("pub") {
        let after = &rest[i + 3..];
        let after = after.strip_prefix("(crate)").unwrap_or(after);
        rest = after;
        let Some(tree) = after.trim_start().strip_prefix("use ") else {
            continue;
        };
        let end = tree.find(';').unwrap_or(tree.len());
        let words: Vec<&str> = tree[..end].split_whitespace().collect();
        for leaf in expand(&words.join(" ").replace(" as ", "@")) {
            let (path, name) = match leaf.split_once('@') {
                Some((p, n)) => (p.to_string(), n.to_string()),
                None => (
                    leaf.clone(),
                    leaf.rsplit("::").next().unwrap_or_default().to_string(),
                ),
            };
            let first = path.split("::").next().unwrap_or_default();
            let absolute = match first {
                "crate" => path.clone(),
                "self" | "super" => {
                    let mut full = m.clone();
                    for s in path.split("::") {
                        match s {
                            "self" => {}
                            "super" => {
                                full.pop();
                            }
                            s => full.push(s.to_string()),
                        }
                    }
                    format!("crate::{}", full.join("::"))
                }
                c if children.iter().any(|x| x == c) => {
                    let mut full = m.clone();
                    full.extend(path.split("::").map(str::to_string));
                    format!("crate::{}", full.join("::"))
                }
                _ => continue,
            };
            if name != "*" && name != "self" {
                out.insert(name, absolute);
            }
        }
    }
    out
}

/// The module a path reaches, following re-exports to the file that defines the item.
fn defining(
    path: &str,
    current: &Module,
    files: &BTreeMap<Module, PathBuf>,
    exports: &BTreeMap<Module, BTreeMap<String, String>>,
) -> Option<Module> {
    let mut path = path.to_string();
    let mut from = current.clone();
    for _ in 0..8 {
        let module = target(&path, &from, files)?;
        // The segment after the module, if the module re-exports it, leads on.
        let full = absolute(&path, &from);
        let next = full
            .get(module.len())
            .and_then(|name| exports.get(&module)?.get(name));
        match next {
            Some(to) => {
                let rest = full[module.len() + 1..].join("::");
                path = if rest.is_empty() {
                    to.clone()
                } else {
                    format!("{to}::{rest}")
                };
                from = Vec::new();
            }
            None => return Some(module),
        }
    }
    None
}

/// A path's segments from the crate root.
fn absolute(path: &str, current: &Module) -> Vec<String> {
    let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
    let mut full: Module = match segments.peek().copied() {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        _ => current.clone(),
    };
    for s in segments {
        match s {
            "super" => {
                full.pop();
            }
            "self" | "*" => {}
            s => full.push(s.to_string()),
        }
    }
    full
}

/// The file's code by inline module: the top level, then each `mod name { … }` (its path
/// below the file's module), each without the inline modules inside it.
fn sections(code: &str) -> Vec<(Vec<String>, String)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut top = String::new();
    let mut i = 0;
    while i < b.len() {
        let at_word = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if at_word && b[i..].starts_with(b"mod ") {
            let name_end = (i + 4..b.len())
                .find(|&j| !(b[j].is_ascii_alphanumeric() || b[j] == b'_'))
                .unwrap_or(b.len());
            let name = &code[i + 4..name_end];
            let open = (name_end..b.len()).find(|&j| !b[j].is_ascii_whitespace());
            if let Some(open) = open.filter(|&o| b[o] == b'{' && !name.is_empty()) {
                let mut depth = 0usize;
                let mut close = b.len();
                for (j, c) in b.iter().enumerate().skip(open) {
                    match c {
                        b'{' => depth += 1,
                        b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                close = j;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                for (mut path, text) in sections(&code[open + 1..close.min(b.len())]) {
                    path.insert(0, name.to_string());
                    out.push((path, text));
                }
                i = close + 1;
                continue;
            }
        }
        top.push(b[i] as char);
        i += 1;
    }
    out.insert(0, (Vec::new(), top));
    out
}

/// Each module and the modules it names.
fn map(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let files = modules(src);
    let texts: BTreeMap<&Module, String> = files
        .iter()
        .map(|(m, path)| {
            (
                m,
                code(&std::fs::read_to_string(path).expect("a source file")),
            )
        })
        .collect();
    let children = |m: &Module| -> Vec<String> {
        files
            .keys()
            .filter(|c| c.len() == m.len() + 1 && c.starts_with(m))
            .map(|c| c[m.len()].clone())
            .collect()
    };
    let exports: BTreeMap<Module, BTreeMap<String, String>> = texts
        .iter()
        .map(|(m, text)| ((*m).clone(), reexports(m, text, &children(m))))
        .collect();
    texts
        .iter()
        .map(|(m, text)| {
            let mine = exports
                .get(*m)
                .map(|e| e.values().cloned().collect::<BTreeSet<_>>());
            let mut uses = BTreeSet::new();
            for (inline, text) in sections(text) {
                // Paths in an inline module are read from there (`super::` is the file's).
                let at: Module = m.iter().chain(&inline).cloned().collect();
                let kids = if inline.is_empty() {
                    children(m)
                } else {
                    Vec::new()
                };
                for p in paths_with(&text, &kids) {
                    // A module's own re-exports are not its dependencies: their users are.
                    let own = format!("crate::{}", absolute(&p, &at).join("::"));
                    if inline.is_empty() && mine.as_ref().is_some_and(|e| e.contains(&own)) {
                        continue;
                    }
                    if let Some(t) = defining(&p, &at, &files, &exports).filter(|t| t != *m) {
                        uses.insert(t);
                    }
                }
            }
            ((*m).clone(), uses)
        })
        .collect()
}

/// The circles of the map: its strongly connected parts of more than one module (Tarjan).
fn circles(map: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        map: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        found: Vec<Vec<Module>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, m: &'a Module) {
            let n = self.index.len();
            self.index.insert(m, n);
            self.low.insert(m, n);
            self.stack.push(m);
            for w in self.map.get(m).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let l = self.low[w].min(self.low[m]);
                    self.low.insert(m, l);
                } else if self.stack.contains(&w) {
                    let l = self.index[w].min(self.low[m]);
                    self.low.insert(m, l);
                }
            }
            if self.low[m] == self.index[m] {
                let mut part = Vec::new();
                while let Some(w) = self.stack.pop() {
                    part.push(w.clone());
                    if w == m {
                        break;
                    }
                }
                if part.len() > 1 {
                    part.sort();
                    self.found.push(part);
                }
            }
        }
    }
    let mut walk = Walk {
        map,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for m in map.keys() {
        if !walk.index.contains_key(m) {
            walk.visit(m);
        }
    }
    walk.found
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The crates whose sources have no circle.
const CRATES: [&str; 5] = [
    "cli/src",
    "codegen/src",
    "examples/devnet/src",
    "generated/src",
    "tests/node/src",
];

#[test]
fn no_crate_has_an_import_circle() {
    let mut report = String::new();
    for src in CRATES {
        let map = map(&root().join(src));
        assert!(map.len() > 5, "{src}: only {} modules found", map.len());
        let name = |m: &Module| {
            if m.is_empty() {
                "crate".to_string()
            } else {
                m.join("::")
            }
        };
        for part in circles(&map) {
            let names: Vec<String> = part.iter().map(name).collect();
            report.push_str(&format!("{src}: {}\n", names.join(" ↔ ")));
            for a in &part {
                for b in map[a].iter().filter(|b| part.contains(b)) {
                    report.push_str(&format!("    {} uses {}\n", name(a), name(b)));
                }
            }
        }
    }
    assert!(report.is_empty(), "import circles:\n{report}");
}

#[test]
fn the_map_sees_use_trees_and_paths_in_code() {
    let text = code(
        "use crate::a::{b::C, d::{self, E}};\n// use crate::z;\nfn f() { super::g::h(); let s = \"crate::y\"; }",
    );
    let mut p = paths(&text);
    p.sort();
    assert_eq!(
        p,
        [
            "crate::a::b::C",
            "crate::a::d::E",
            "crate::a::d::self",
            "super::g::h"
        ]
    );
    let map = BTreeMap::from([
        (
            vec!["a".to_string()],
            BTreeSet::from([vec!["b".to_string()]]),
        ),
        (
            vec!["b".to_string()],
            BTreeSet::from([vec!["c".to_string()]]),
        ),
        (
            vec!["c".to_string()],
            BTreeSet::from([vec!["a".to_string()]]),
        ),
        (
            vec!["d".to_string()],
            BTreeSet::from([vec!["a".to_string()]]),
        ),
    ]);
    assert_eq!(circles(&map).len(), 1, "a ↔ b ↔ c, not d");
}

/// The devnet's layers, as ARCHITECTURE.md lists them (by a file's first path segment; the
/// crate root is the last): a file uses only files of its own layer and of those above it.
const DEVNET_LAYERS: [&[&str]; 9] = [
    &["store"],
    &[
        "ledger", "index", "proposer", "clock", "refusal", "secp", "flow", "logs",
    ],
    &["genesis", "network", "genesis_file", "upgrade"],
    &["engine"],
    &["xchain", "pchain", "cchain"],
    &["view"],
    &["devnet"],
    &["context", "control", "activity", "health"],
    &["rpc", "http", "duration", "os", "serving", ""],
];

#[test]
fn the_devnet_imports_only_from_its_layers_above() {
    let map = map(&root().join("examples/devnet/src"));
    let layer = |m: &Module| {
        let first = m.first().map_or("", String::as_str);
        DEVNET_LAYERS
            .iter()
            .position(|l| l.contains(&first))
            .unwrap_or_else(|| panic!("{first}: in no layer of DEVNET_LAYERS (ARCHITECTURE.md)"))
    };
    let mut wrong = String::new();
    // Test modules (`tests.rs`) set up whole devnets: they stand outside the layers.
    for (a, uses) in map
        .iter()
        .filter(|(a, _)| a.last().is_none_or(|l| l != "tests"))
    {
        for b in uses {
            if layer(b) > layer(a) {
                wrong.push_str(&format!("{} uses {}\n", a.join("::"), b.join("::")));
            }
        }
    }
    assert!(wrong.is_empty(), "a layer uses one below it:\n{wrong}");
}
