//! What went wrong decoding, encoding or verifying: where (the byte offset and the field path,
//! e.g. `unsigned.outputs[0].output.amount`) and why.

use std::fmt;

/// One step of a field path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// A field, by its name in the spec.
    Field(&'static str),
    /// An element of a list.
    Index(usize),
}

/// The path of fields from the value decoded (or encoded) to the place of a problem.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldPath(Vec<Step>);

impl FieldPath {
    /// The steps, outermost first.
    pub fn steps(&self) -> impl Iterator<Item = Step> + '_ {
        // Built while the error travels outwards: innermost first.
        self.0.iter().rev().copied()
    }

    pub(crate) fn push_outer(&mut self, step: Step) {
        self.0.push(step);
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for step in self.steps() {
            match step {
                Step::Field(name) if first => f.write_str(name)?,
                Step::Field(name) => write!(f, ".{name}")?,
                Step::Index(i) => write!(f, "[{i}]")?,
            }
            first = false;
        }
        Ok(())
    }
}

/// The kind of problem a [`DecodeError`] is, for callers that word it their own way (the
/// devnet words each as the node's codec does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeProblem {
    /// The input ends before the value does.
    Short,
    /// Bytes are left after the value.
    Trailing,
    /// The codec version is not the one expected (the one found).
    Version(u16),
    /// A type ID not allowed at its place (the one found).
    UnknownType(u32),
    /// Any other invalid value: a bool not 00 or 01, a string not UTF-8, a size limit.
    Invalid,
}

/// Bytes that are not a valid value: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    offset: usize,
    path: FieldPath,
    reason: String,
    problem: DecodeProblem,
}

impl DecodeError {
    pub(crate) fn new(offset: usize, reason: impl Into<String>) -> Self {
        Self {
            offset,
            path: FieldPath::default(),
            reason: reason.into(),
            problem: DecodeProblem::Invalid,
        }
    }

    /// The same error, of kind `problem`.
    pub(crate) fn of_kind(mut self, problem: DecodeProblem) -> Self {
        self.problem = problem;
        self
    }

    /// The kind of problem.
    pub fn problem(&self) -> DecodeProblem {
        self.problem
    }

    /// The same error, inside `step`.
    pub(crate) fn within(mut self, step: Step) -> Self {
        self.path.push_outer(step);
        self
    }

    /// The offset of the problem in the input, counted from its first byte.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The field the problem is in (empty at the top).
    pub fn path(&self) -> &FieldPath {
        &self.path
    }

    /// What is wrong.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}", self.offset)?;
        if !self.path.0.is_empty() {
            write!(f, ", `{}`", self.path)?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for DecodeError {}

/// The kind of rule a [`RuleError`] names, for callers that word it their own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RuleProblem {
    /// A list out of its order (or with duplicates).
    Unordered,
    /// A length over its limit.
    TooLong { max: u64, len: u64 },
    /// Any other rule.
    Other,
}

/// A value the node would refuse: which field, and which rule it breaks. Encoding finds the
/// codec's limits (a list, string or bytes too long for its length prefix, a whole value over
/// its codec's size limit); [`Verify`](super::Verify) finds the rules the node enforces on
/// top (order, bounds, lengths).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    path: FieldPath,
    reason: String,
    problem: RuleProblem,
}

impl RuleError {
    pub(crate) fn new(reason: impl Into<String>) -> Self {
        Self {
            path: FieldPath::default(),
            reason: reason.into(),
            problem: RuleProblem::Other,
        }
    }

    /// The same error, of kind `problem`.
    pub(crate) fn of_kind(mut self, problem: RuleProblem) -> Self {
        self.problem = problem;
        self
    }

    /// The kind of rule broken.
    pub fn problem(&self) -> RuleProblem {
        self.problem
    }

    /// The innermost field named in the path (`inputs` for `unsigned.base.inputs[1]`).
    pub fn field(&self) -> Option<&'static str> {
        self.path.0.iter().find_map(|s| match s {
            Step::Field(name) => Some(*name),
            Step::Index(_) => None,
        })
    }

    /// The same error, inside `step`.
    pub fn within(mut self, step: Step) -> Self {
        self.path.push_outer(step);
        self
    }

    /// The field that breaks the rule (empty at the top).
    pub fn path(&self) -> &FieldPath {
        &self.path
    }

    /// The rule, and how the value breaks it.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.0.is_empty() {
            f.write_str(&self.reason)
        } else {
            write!(f, "`{}`: {}", self.path, self.reason)
        }
    }
}

impl std::error::Error for RuleError {}
