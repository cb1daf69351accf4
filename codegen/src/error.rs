//! Spec errors: which file, where in it (line and column), which part of the spec, and what is
//! wrong; and the "did you mean" suggestion for a misspelt name.

use crate::model::Origin;
use crate::positions::Pos;
use std::fmt;

/// One problem in the spec: which file, where in it, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    /// The file, relative to the spec folder.
    pub file: String,
    /// Line and column in the file, from 1.
    pub pos: Pos,
    /// The part of the spec, e.g. "method `info.peers`, params, field `nodeIDs`"; empty for
    /// the file as a whole.
    pub at: String,
    pub message: String,
}

impl SpecError {
    /// A problem of the spec node at `origin`.
    pub fn new(origin: &Origin, message: impl Into<String>) -> SpecError {
        SpecError {
            file: origin.file.clone(),
            pos: origin.pos,
            at: origin.at.clone(),
            message: message.into(),
        }
    }
}

impl fmt::Display for SpecError {
    /// `interfaces/info.yaml:20:54: method `info.getNodeID`, params, field `verbose`: message`,
    /// the form editors and terminals turn into a link.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.pos.line, self.pos.column)?;
        if !self.at.is_empty() {
            write!(f, "{}: ", self.at)?;
        }
        f.write_str(&self.message)
    }
}

/// Every problem found, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecErrors(pub Vec<SpecError>);

impl fmt::Display for SpecErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "the spec has {} problem(s):", self.0.len())?;
        for e in &self.0 {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SpecErrors {}

/// The candidate closest to `word` by edit distance, when it is close enough to be what was
/// meant: at most a third of the word's length apart (and at least one edit), letter case
/// and `-`/`_` aside.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let fold = |s: &str| -> Vec<char> {
        s.chars()
            .filter(|c| *c != '-' && *c != '_')
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let w = fold(word);
    let limit = (w.len() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (distance(&w, &fold(c)), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// "; did you mean `x`?" when a candidate is close to `word`, else "".
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    match closest(word, candidates) {
        Some(c) => format!("; did you mean `{c}`?"),
        None => String::new(),
    }
}

/// Edit distance counting an insertion, a deletion, a substitution or a swap of two neighbours
/// as one edit (optimal string alignment).
fn distance(a: &[char], b: &[char]) -> usize {
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[n][m]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_closest_name() {
        let names = ["node-id", "string", "u64", "Owner", "summary", "name"];
        assert_eq!(closest("nodeid", names), Some("node-id"));
        assert_eq!(closest("strings", names), Some("string"));
        assert_eq!(closest("Owners", names), Some("Owner"));
        assert_eq!(closest("summery", names), Some("summary"));
        assert_eq!(closest("u32", names), None);
        assert_eq!(closest("address", names), None);
        assert_eq!(closest("name", names), None);
        assert_eq!(did_you_mean("nmae", names), "; did you mean `name`?");
    }
}
