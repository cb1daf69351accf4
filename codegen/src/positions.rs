//! Where each node of a YAML file is: a light scan of the text that finds the line and column
//! of every mapping key, mapping value and sequence item, so that an error about any part of
//! the spec can point at it.
//!
//! The scan runs on text that `serde_yaml` has already accepted, and covers what people write
//! in spec files: block mappings and sequences, flow mappings and sequences (`{ a: 1 }`,
//! `[a, b]`), plain, quoted and block (`|`, `>-`) scalars, comments, anchors and tags. It never
//! fails: where it cannot follow the text it stops, and [`Node::locate`] answers with the
//! closest enclosing node it found.

/// A place in a file: line and column, both counted from 1 (columns in characters).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// One step of a path into a YAML document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

impl From<&str> for Seg {
    fn from(k: &str) -> Self {
        Seg::Key(k.to_string())
    }
}

impl From<String> for Seg {
    fn from(k: String) -> Self {
        Seg::Key(k)
    }
}

impl From<usize> for Seg {
    fn from(i: usize) -> Self {
        Seg::Index(i)
    }
}

/// A path into a YAML document: `methods[2].params[0].type`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Path(pub Vec<Seg>);

impl Path {
    pub fn root() -> Path {
        Path(Vec::new())
    }

    /// This path with one more step.
    pub fn at(&self, seg: impl Into<Seg>) -> Path {
        let mut p = self.0.clone();
        p.push(seg.into());
        Path(p)
    }
}

impl std::fmt::Display for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            match s {
                Seg::Key(k) if i == 0 => write!(f, "{k}")?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// A node of the document and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub pos: Pos,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A scalar (its text as written, without quotes for a plain or quoted one on one line), or
    /// an empty value.
    Scalar(String),
    Map(Vec<Entry>),
    Seq(Vec<Node>),
}

/// A mapping entry: the key, where it is written, and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    pub key_pos: Pos,
    pub value: Node,
}

impl Node {
    fn empty(pos: Pos) -> Node {
        Node {
            pos,
            kind: Kind::Scalar(String::new()),
        }
    }

    /// The node at `path`, if the scan found it.
    pub fn get(&self, path: &[Seg]) -> Option<&Node> {
        let mut n = self;
        for s in path {
            n = n.child(s)?;
        }
        Some(n)
    }

    fn child(&self, s: &Seg) -> Option<&Node> {
        match (&self.kind, s) {
            (Kind::Map(entries), Seg::Key(k)) => {
                entries.iter().find(|e| &e.key == k).map(|e| &e.value)
            }
            (Kind::Seq(items), Seg::Index(i)) => items.get(*i),
            _ => None,
        }
    }

    /// Where the node at `path` starts; the closest enclosing node found when the scan did not
    /// find it all.
    pub fn locate(&self, path: &[Seg]) -> Pos {
        let mut n = self;
        for s in path {
            match n.child(s) {
                Some(c) => n = c,
                None => break,
            }
        }
        n.pos
    }

    /// Where the key `key` of the mapping at `path` is written; where the mapping is when it
    /// has no such key.
    pub fn locate_key(&self, path: &[Seg], key: &str) -> Pos {
        match self.get(path).map(|n| &n.kind) {
            Some(Kind::Map(entries)) => entries
                .iter()
                .find(|e| e.key == key)
                .map(|e| e.key_pos)
                .unwrap_or_else(|| self.locate(path)),
            _ => self.locate(path),
        }
    }

    /// The keys of the mapping at `path`, in order, duplicates included.
    pub fn keys(&self, path: &[Seg]) -> Vec<(&str, Pos)> {
        match self.get(path).map(|n| &n.kind) {
            Some(Kind::Map(entries)) => entries
                .iter()
                .map(|e| (e.key.as_str(), e.key_pos))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Every mapping in the document, depth first, with its entries.
    pub fn maps(&self) -> Vec<(Pos, &[Entry])> {
        let mut out = Vec::new();
        fn walk<'a>(n: &'a Node, out: &mut Vec<(Pos, &'a [Entry])>) {
            match &n.kind {
                Kind::Map(entries) => {
                    out.push((n.pos, entries.as_slice()));
                    for e in entries {
                        walk(&e.value, out);
                    }
                }
                Kind::Seq(items) => items.iter().for_each(|i| walk(i, out)),
                Kind::Scalar(_) => {}
            }
        }
        walk(self, &mut out);
        out
    }
}

/// Scans `text` into its tree of positions.
pub fn scan(text: &str) -> Node {
    let mut s = Scanner::new(text);
    s.skip_blank();
    // A document start marker.
    if s.at_line_start_marker("---") {
        s.i += 3;
    }
    let pos = s.pos();
    s.node(-1).unwrap_or_else(|| Node::empty(pos))
}

struct Scanner {
    chars: Vec<char>,
    /// Line and column (from 1) of each character.
    at: Vec<Pos>,
    i: usize,
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn is_flow_indicator(c: char) -> bool {
    matches!(c, ',' | '[' | ']' | '{' | '}')
}

impl Scanner {
    fn new(text: &str) -> Scanner {
        let chars: Vec<char> = text.chars().collect();
        let mut at = Vec::with_capacity(chars.len() + 1);
        let (mut line, mut column) = (1, 1);
        for &c in &chars {
            at.push(Pos { line, column });
            if c == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        at.push(Pos { line, column });
        Scanner { chars, at, i: 0 }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn pos(&self) -> Pos {
        self.at[self.i.min(self.at.len() - 1)]
    }

    /// The column of the current character, from 0.
    fn col(&self) -> i64 {
        i64::from(self.pos().column) - 1
    }

    fn eof(&self) -> bool {
        self.i >= self.chars.len()
    }

    fn at_line_start_marker(&self, m: &str) -> bool {
        self.col() == 0
            && m.chars()
                .enumerate()
                .all(|(k, c)| self.peek_at(k) == Some(c))
            && self
                .peek_at(m.len())
                .is_none_or(|c| c == ' ' || c == '\n' || c == '\r')
    }

    /// Skips spaces and tabs on this line.
    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(is_blank) {
            self.i += 1;
        }
    }

    /// At the end of the line's content (a comment counts as its end)?
    fn at_line_end(&self) -> bool {
        match self.peek() {
            None | Some('\n') | Some('\r') => true,
            Some('#') => self.i == 0 || self.chars[self.i - 1].is_whitespace(),
            _ => false,
        }
    }

    fn skip_to_next_line(&mut self) {
        while let Some(c) = self.peek() {
            self.i += 1;
            if c == '\n' {
                break;
            }
        }
    }

    /// Skips blank lines, comment lines and the rest of the current line when it holds
    /// nothing more; stops at the first character of content.
    fn skip_blank(&mut self) {
        loop {
            self.skip_spaces();
            if self.eof() {
                return;
            }
            if self.at_line_end() {
                self.skip_to_next_line();
                continue;
            }
            return;
        }
    }

    /// The indentation of the next line with content, without moving.
    fn next_content_indent(&self) -> Option<i64> {
        let mut i = self.i;
        loop {
            while self.chars.get(i).copied().is_some_and(is_blank) {
                i += 1;
            }
            match self.chars.get(i) {
                None => return None,
                Some('\n') | Some('\r') => {
                    while self.chars.get(i).is_some_and(|c| *c != '\n') {
                        i += 1;
                    }
                    i += 1;
                }
                Some('#') if i == 0 || self.chars[i - 1].is_whitespace() => {
                    while self.chars.get(i).is_some_and(|c| *c != '\n') {
                        i += 1;
                    }
                    i += 1;
                }
                Some(_) => return Some(i64::from(self.at[i].column) - 1),
            }
        }
    }

    /// Is the current character a `-` that starts a sequence entry?
    fn at_dash(&self) -> bool {
        self.peek() == Some('-')
            && self
                .peek_at(1)
                .is_none_or(|c| c == ' ' || c == '\t' || c == '\n' || c == '\r')
    }

    /// Skips anchors (`&a`) and tags (`!t`) before a node.
    fn skip_properties(&mut self) {
        while matches!(self.peek(), Some('&') | Some('!')) {
            while self.peek().is_some_and(|c| !c.is_whitespace()) {
                self.i += 1;
            }
            self.skip_spaces();
        }
    }

    /// A node starting here (possibly in the middle of a line: after `- ` or `key: `), inside
    /// a block collection indented `parent` (-1 at the top).
    fn node(&mut self, parent: i64) -> Option<Node> {
        self.skip_spaces();
        if self.at_line_end() {
            // The value is on the following lines, if any are indented deeper.
            let start = self.pos();
            match self.next_content_indent() {
                Some(ind) if ind > parent => {
                    self.skip_blank();
                    return self.node(parent);
                }
                _ => return Some(Node::empty(start)),
            }
        }
        self.skip_properties();
        if self.at_line_end() {
            return self.node(parent);
        }
        let start = self.pos();
        let col = self.col();
        match self.peek()? {
            _ if self.at_dash() => Some(self.block_seq(col)),
            '|' | '>' => {
                self.block_scalar(parent);
                Some(Node::empty(start))
            }
            '[' | '{' => {
                let n = self.flow()?;
                self.skip_spaces();
                if self.peek() == Some(':') {
                    // A flow collection as a mapping key: rare; keep the position only.
                    self.skip_to_next_line();
                }
                Some(n)
            }
            _ => {
                // A scalar, or the first key of a block mapping.
                let save = self.i;
                let key = self.scalar_in_block();
                self.skip_spaces();
                if self.peek() == Some(':')
                    && self
                        .peek_at(1)
                        .is_none_or(|c| c.is_whitespace() || c == '\r')
                {
                    self.i = save;
                    Some(self.block_map(col))
                } else {
                    // A plain scalar may go on over more-indented lines.
                    self.skip_continuation(parent);
                    Some(Node {
                        pos: start,
                        kind: Kind::Scalar(key),
                    })
                }
            }
        }
    }

    /// Skips the lines that continue a multi-line plain scalar.
    fn skip_continuation(&mut self, parent: i64) {
        loop {
            self.skip_spaces();
            if !self.at_line_end() {
                // Something after the scalar on its line (should not happen): stop here.
                return;
            }
            match self.next_content_indent() {
                Some(ind) if ind > parent => {
                    self.skip_blank();
                    if self.at_dash() && self.col() <= parent + 1 {
                        return;
                    }
                    self.skip_to_line_end_of_plain();
                }
                _ => return,
            }
        }
    }

    fn skip_to_line_end_of_plain(&mut self) {
        while !self.at_line_end() {
            self.i += 1;
        }
    }

    /// A block scalar (`|`, `>-`, …): its header line and every line indented deeper than
    /// `parent`, or blank.
    fn block_scalar(&mut self, parent: i64) {
        self.skip_to_next_line();
        loop {
            let line_start = self.i;
            self.skip_spaces();
            if self.eof() {
                return;
            }
            if matches!(self.peek(), Some('\n') | Some('\r')) {
                self.skip_to_next_line();
                continue;
            }
            if self.col() > parent {
                self.skip_to_next_line();
                continue;
            }
            self.i = line_start;
            return;
        }
    }

    /// A scalar in block context, up to `: `, ` #` or the end of the line; its text.
    fn scalar_in_block(&mut self) -> String {
        match self.peek() {
            Some('"') | Some('\'') => self.quoted(),
            _ => {
                let from = self.i;
                while let Some(c) = self.peek() {
                    if c == '\n' || c == '\r' {
                        break;
                    }
                    if c == ':'
                        && self
                            .peek_at(1)
                            .is_none_or(|n| n.is_whitespace() || n == '\r')
                    {
                        break;
                    }
                    if c == '#' && self.i > from && self.chars[self.i - 1].is_whitespace() {
                        break;
                    }
                    self.i += 1;
                }
                self.chars[from..self.i]
                    .iter()
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            }
        }
    }

    /// A quoted scalar (possibly over several lines); its text, escapes left as written.
    fn quoted(&mut self) -> String {
        let q = self.peek().unwrap_or('"');
        self.i += 1;
        let mut out = String::new();
        while let Some(c) = self.peek() {
            self.i += 1;
            if q == '"' && c == '\\' {
                if let Some(n) = self.peek() {
                    out.push(n);
                    self.i += 1;
                }
                continue;
            }
            if c == q {
                if q == '\'' && self.peek() == Some('\'') {
                    out.push('\'');
                    self.i += 1;
                    continue;
                }
                break;
            }
            out.push(c);
        }
        out
    }

    /// A block sequence whose dashes are at column `indent`.
    fn block_seq(&mut self, indent: i64) -> Node {
        let start = self.pos();
        let mut items = Vec::new();
        loop {
            // At a `-`.
            let dash = self.pos();
            self.i += 1;
            let item = self.node(indent).unwrap_or_else(|| Node::empty(dash));
            // An empty item is where its dash is.
            let item = match &item.kind {
                Kind::Scalar(s) if s.is_empty() && item.pos.line == dash.line => Node::empty(dash),
                _ => item,
            };
            items.push(item);
            self.skip_blank();
            if self.eof() || self.col() != indent || !self.at_dash() {
                break;
            }
        }
        Node {
            pos: start,
            kind: Kind::Seq(items),
        }
    }

    /// A block mapping whose keys are at column `indent`.
    fn block_map(&mut self, indent: i64) -> Node {
        let start = self.pos();
        let mut entries = Vec::new();
        loop {
            let key_pos = self.pos();
            self.skip_properties();
            let key = self.scalar_in_block();
            self.skip_spaces();
            if self.peek() != Some(':') {
                // Not a key after all: stop following this mapping.
                self.skip_to_next_line();
                break;
            }
            self.i += 1;
            self.skip_spaces();
            let value = if self.at_line_end() {
                let here = self.pos();
                match self.next_content_indent() {
                    Some(ind) if ind > indent => {
                        self.skip_blank();
                        self.node(indent).unwrap_or_else(|| Node::empty(here))
                    }
                    Some(ind) if ind == indent => {
                        // A sequence may sit at the indentation of its key.
                        let save = self.i;
                        self.skip_blank();
                        if self.at_dash() {
                            self.block_seq(indent)
                        } else {
                            self.i = save;
                            Node::empty(key_pos)
                        }
                    }
                    _ => Node::empty(key_pos),
                }
            } else {
                self.node(indent).unwrap_or_else(|| Node::empty(key_pos))
            };
            entries.push(Entry {
                key,
                key_pos,
                value,
            });
            self.skip_blank();
            if self.eof()
                || self.col() != indent
                || self.at_dash()
                || self.at_line_start_marker("---")
                || self.at_line_start_marker("...")
            {
                break;
            }
        }
        Node {
            pos: start,
            kind: Kind::Map(entries),
        }
    }

    /// Skips whitespace, line breaks and comments inside a flow collection.
    fn skip_flow_space(&mut self) {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() => self.i += 1,
                Some('#') => self.skip_to_next_line(),
                _ => return,
            }
        }
    }

    /// A flow collection (`{…}` or `[…]`) or a scalar inside one.
    fn flow(&mut self) -> Option<Node> {
        self.skip_flow_space();
        self.skip_properties();
        let start = self.pos();
        match self.peek()? {
            '{' => {
                self.i += 1;
                let mut entries = Vec::new();
                loop {
                    self.skip_flow_space();
                    match self.peek() {
                        None => break,
                        Some('}') => {
                            self.i += 1;
                            break;
                        }
                        Some(',') => {
                            self.i += 1;
                            continue;
                        }
                        _ => {}
                    }
                    let key_pos = self.pos();
                    let key = self.flow_scalar();
                    self.skip_flow_space();
                    let value = if self.peek() == Some(':') {
                        self.i += 1;
                        self.skip_flow_space();
                        if matches!(self.peek(), Some(',') | Some('}')) {
                            Node::empty(key_pos)
                        } else {
                            self.flow().unwrap_or_else(|| Node::empty(key_pos))
                        }
                    } else {
                        Node::empty(key_pos)
                    };
                    entries.push(Entry {
                        key,
                        key_pos,
                        value,
                    });
                }
                Some(Node {
                    pos: start,
                    kind: Kind::Map(entries),
                })
            }
            '[' => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_flow_space();
                    match self.peek() {
                        None => break,
                        Some(']') => {
                            self.i += 1;
                            break;
                        }
                        Some(',') => {
                            self.i += 1;
                            continue;
                        }
                        _ => {}
                    }
                    let before = self.i;
                    match self.flow() {
                        Some(n) => items.push(n),
                        None => break,
                    }
                    self.skip_flow_space();
                    if self.peek() == Some(':') {
                        // `[a: b]`: a single-pair mapping; skip its value.
                        self.i += 1;
                        let _ = self.flow();
                    }
                    if self.i == before {
                        self.i += 1;
                    }
                }
                Some(Node {
                    pos: start,
                    kind: Kind::Seq(items),
                })
            }
            _ => {
                let text = self.flow_scalar();
                Some(Node {
                    pos: start,
                    kind: Kind::Scalar(text),
                })
            }
        }
    }

    /// A scalar inside a flow collection: quoted, or plain up to `,`, a bracket, `: ` or ` #`.
    fn flow_scalar(&mut self) -> String {
        if matches!(self.peek(), Some('"') | Some('\'')) {
            return self.quoted();
        }
        let from = self.i;
        while let Some(c) = self.peek() {
            if is_flow_indicator(c) {
                break;
            }
            if c == ':'
                && self
                    .peek_at(1)
                    .is_none_or(|n| n.is_whitespace() || is_flow_indicator(n))
            {
                break;
            }
            if c == '#' && self.i > from && self.chars[self.i - 1].is_whitespace() {
                break;
            }
            self.i += 1;
        }
        let text: String = self.chars[from..self.i].iter().collect();
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

/// Where a part of the spec was written, and how errors name it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    /// The file, relative to the spec folder.
    pub file: String,
    pub pos: Pos,
    /// "method `info.peers`, params, field `nodeIDs`".
    pub at: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: u32, column: u32) -> Pos {
        Pos { line, column }
    }

    fn path(s: &[Seg]) -> Vec<Seg> {
        s.to_vec()
    }

    fn k(s: &str) -> Seg {
        Seg::Key(s.into())
    }

    const DOC: &str = "\
# a comment
name: info   # trailing
title: 'Info: API'
description: >-
  folded text
  with: colons
methods:
  - name: getNodeID
    summary: The node's ID.
    params:
      - { name: txID, type: id, summary: A transaction. }
      - name: verbose
        type: bool
    result:
      fields: [ { name: a, type: u64 }, { name: b,
          type: \"list<id>\" } ]
    examples:
      - name: Mainnet
        params: {}
        result: { nodeID: NodeID-abc, owner: { locktime: \"0\", addresses: [] } }
  - name: getHeight
    summary: >
      Height.
    params: []
list:
- a
- b
after: x
";

    #[test]
    fn finds_keys_items_and_values() {
        let t = scan(DOC);
        assert_eq!(t.locate(&path(&[k("name")])), p(2, 7));
        assert_eq!(t.locate_key(&[], "title"), p(3, 1));
        assert_eq!(t.locate(&path(&[k("title")])), p(3, 8));
        assert_eq!(t.locate_key(&[], "methods"), p(7, 1));
        let m0 = [k("methods"), Seg::Index(0)];
        assert_eq!(t.locate(&m0), p(8, 5));
        assert_eq!(t.locate(&path(&[k("methods"), Seg::Index(1)])), p(21, 5));
        let p0 = [k("methods"), Seg::Index(0), k("params"), Seg::Index(0)];
        assert_eq!(t.locate(&p0), p(11, 9));
        assert_eq!(t.locate_key(&p0, "summary"), p(11, 33));
        let p1 = [k("methods"), Seg::Index(0), k("params"), Seg::Index(1)];
        assert_eq!(t.locate(&p1), p(12, 9));
        assert_eq!(t.locate_key(&p1, "type"), p(13, 9));
        let f1 = [
            k("methods"),
            Seg::Index(0),
            k("result"),
            k("fields"),
            Seg::Index(1),
        ];
        assert_eq!(t.locate_key(&f1, "type"), p(16, 11));
        let ex = [
            k("methods"),
            Seg::Index(0),
            k("examples"),
            Seg::Index(0),
            k("result"),
            k("owner"),
            k("addresses"),
        ];
        assert_eq!(t.locate(&ex), p(20, 74));
        assert_eq!(
            t.locate(&path(&[k("methods"), Seg::Index(1), k("params")])),
            p(24, 13)
        );
        assert_eq!(t.locate(&path(&[k("list"), Seg::Index(1)])), p(27, 3));
        assert_eq!(t.locate_key(&[], "after"), p(28, 1));
        // Not found: the closest enclosing node.
        assert_eq!(
            t.locate(&path(&[k("methods"), Seg::Index(0), k("nothing")])),
            p(8, 5)
        );
    }

    #[test]
    fn keeps_duplicate_keys() {
        let t = scan("a:\n  b: 1\n  b: 2\n");
        assert_eq!(t.keys(&[k("a")]), [("b", p(2, 3)), ("b", p(3, 3))]);
    }

    #[test]
    fn never_panics_on_odd_text() {
        for text in [
            "",
            "-",
            "- ",
            ":",
            "a:",
            "{",
            "[",
            "'",
            "\"",
            "a: [",
            "a: {b",
            "- - -",
            "? x",
            "&a b: c",
            "a: |\n",
            "\u{feff}a: b",
            "a:\n\n  - ",
            "a: 'x\n",
        ] {
            let _ = scan(text);
        }
    }

    /// Every key and item `serde_yaml` reads in `text` is found by the scan, and every
    /// one-line string value where it is written.
    fn agrees_with_serde_yaml(name: &str, text: &str) {
        let lines: Vec<&str> = text.lines().collect();
        let walk_text = |t: &Node, path: &[Seg], value: &str| {
            let Some(n) = t.get(path) else { return };
            if value.is_empty() || value.contains('\n') || !matches!(n.kind, Kind::Scalar(_)) {
                return;
            }
            let line = lines[n.pos.line as usize - 1];
            let at: String = line.chars().skip(n.pos.column as usize - 1).collect();
            let first = value.chars().next().unwrap();
            assert!(
                at.starts_with(first) || at.starts_with(['"', '\'', '|', '>']),
                "{name}: {} is at {}, which holds {at:?}, not {value:?}",
                Path(path.to_vec()),
                n.pos
            );
        };
        fn walk(
            v: &serde_yaml::Value,
            t: &Node,
            path: &mut Vec<Seg>,
            name: &str,
            check: &dyn Fn(&Node, &[Seg], &str),
        ) {
            if let serde_yaml::Value::String(text) = v {
                check(t, path, text);
            }
            match v {
                serde_yaml::Value::Mapping(m) => {
                    for (key, value) in m {
                        let key = match key {
                            serde_yaml::Value::String(s) => s.clone(),
                            other => serde_yaml::to_string(other).unwrap().trim().to_string(),
                        };
                        path.push(Seg::Key(key));
                        match t.get(path) {
                            Some(_) => walk(value, t, path, name, check),
                            None => panic!("{name}: the scan lacks {}", Path(path.clone())),
                        }
                        path.pop();
                    }
                }
                serde_yaml::Value::Sequence(items) => {
                    for (i, item) in items.iter().enumerate() {
                        path.push(Seg::Index(i));
                        match t.get(path) {
                            Some(_) => walk(item, t, path, name, check),
                            None => panic!("{name}: the scan lacks {}", Path(path.clone())),
                        }
                        path.pop();
                    }
                }
                _ => {}
            }
        }
        let v: serde_yaml::Value = serde_yaml::from_str(text).unwrap();
        walk(&v, &scan(text), &mut Vec::new(), name, &walk_text);
    }

    #[test]
    fn finds_every_node_of_the_real_spec() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let mut files = vec![dir.join("wire-types.yaml"), dir.join("versions.yaml")];
        for sub in ["schemas", "interfaces"] {
            for e in std::fs::read_dir(dir.join(sub)).unwrap() {
                files.push(e.unwrap().path());
            }
        }
        let cases = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/specs");
        for case in std::fs::read_dir(cases).unwrap() {
            let case = case.unwrap().path();
            files.push(case.join("wire-types.yaml"));
            for sub in ["schemas", "interfaces"] {
                for e in std::fs::read_dir(case.join(sub)).into_iter().flatten() {
                    files.push(e.unwrap().path());
                }
            }
        }
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            agrees_with_serde_yaml(&f.display().to_string(), &text);
            // The same file as `serde_yaml` writes it (sequences at their key's indentation,
            // other quoting), as tools that edit the spec do.
            let value: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
            let rewritten = serde_yaml::to_string(&value).unwrap();
            agrees_with_serde_yaml(&format!("{} (rewritten)", f.display()), &rewritten);
        }
        agrees_with_serde_yaml("DOC", DOC);
    }
}
