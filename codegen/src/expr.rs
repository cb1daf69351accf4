//! The small languages inside spec strings: type expressions (`u64`, `list<T>`,
//! `map<K, V>`), path templates (`/ext/bc/{chain}`) and the forms of names.

use crate::model::TypeRef;

/// A type expression as written, its names not yet resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeExpr {
    Name(String),
    List(Box<TypeExpr>),
    Map(Box<TypeExpr>, Box<TypeExpr>),
}

/// Parses `name`, `list<T>` or `map<K, V>`.
pub fn parse_type(text: &str) -> Result<TypeExpr, String> {
    fn go(s: &str) -> Result<TypeExpr, String> {
        let s = s.trim();
        if let Some(inner) = s.strip_prefix("list<").and_then(|r| r.strip_suffix('>')) {
            return Ok(TypeExpr::List(Box::new(go(inner)?)));
        }
        if let Some(inner) = s.strip_prefix("map<").and_then(|r| r.strip_suffix('>')) {
            // Split at the first top-level comma.
            let mut depth = 0usize;
            for (i, c) in inner.char_indices() {
                match c {
                    '<' => depth += 1,
                    '>' => depth = depth.saturating_sub(1),
                    ',' if depth == 0 => {
                        return Ok(TypeExpr::Map(
                            Box::new(go(&inner[..i])?),
                            Box::new(go(&inner[i + 1..])?),
                        ));
                    }
                    _ => {}
                }
            }
            return Err(format!(
                "`map<{inner}>` needs a key type and a value type: `map<K, V>`"
            ));
        }
        if s.is_empty() {
            return Err("empty type".into());
        }
        if s.contains(['<', '>', ',', ' ']) {
            return Err(format!(
                "cannot read the type `{s}`: write `name`, `list<T>` or `map<K, V>`"
            ));
        }
        Ok(TypeExpr::Name(s.to_string()))
    }
    go(text).map_err(|e| {
        if e.contains(text) {
            e
        } else {
            format!("in type `{text}`: {e}")
        }
    })
}

impl TypeExpr {
    /// Resolves every name with `resolve`; the names it does not know, in order, when any.
    pub fn resolve(
        &self,
        resolve: &dyn Fn(&str) -> Option<TypeRef>,
    ) -> Result<TypeRef, Vec<String>> {
        let mut unknown = Vec::new();
        let t = self.go(resolve, &mut unknown);
        match t {
            Some(t) if unknown.is_empty() => Ok(t),
            _ => Err(unknown),
        }
    }

    fn go(
        &self,
        resolve: &dyn Fn(&str) -> Option<TypeRef>,
        unknown: &mut Vec<String>,
    ) -> Option<TypeRef> {
        match self {
            TypeExpr::Name(n) => {
                let t = resolve(n);
                if t.is_none() && !unknown.contains(n) {
                    unknown.push(n.clone());
                }
                t
            }
            TypeExpr::List(inner) => Some(TypeRef::List(Box::new(inner.go(resolve, unknown)?))),
            TypeExpr::Map(k, v) => {
                let (k, v) = (k.go(resolve, unknown), v.go(resolve, unknown));
                Some(TypeRef::Map(Box::new(k?), Box::new(v?)))
            }
        }
    }
}

/// `{name}` variables of a path, in order.
pub fn path_vars(path: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| format!("unclosed `{{` in `{path}`"))?
            + open;
        let name = &rest[open + 1..close];
        if !is_wire_ident(name) {
            return Err(format!("bad path variable `{{{name}}}` in `{path}`"));
        }
        out.push(name.to_string());
        rest = &rest[close + 1..];
    }
    if rest.contains('}') {
        return Err(format!("stray `}}` in `{path}`"));
    }
    Ok(out)
}

/// Letters, digits and `_`, not starting with a digit, with at least one letter or digit.
pub fn is_wire_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_ascii_alphabetic() || f == '_')
        && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
        // `_` alone (or `__`) has no Rust name: `snake` drops the underscores.
        && s.chars().any(|c| c.is_ascii_alphanumeric())
}

/// PascalCase: an upper-case letter, then letters and digits.
pub fn is_type_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_ascii_uppercase()) && c.all(|c| c.is_ascii_alphanumeric())
}

/// Lower-case words joined by `-`: `node-id`.
pub fn is_wire_type_name(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}
