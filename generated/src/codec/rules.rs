//! The rules the node enforces on values beyond their layout (its syntactic verification):
//! sorted and unique lists, bounds on integers, limits on lengths. Generated `verify` methods
//! call these for each field that has a rule in the spec.

use super::binary::Encode;
use super::error::{RuleError, RuleProblem, Step};
use super::write::Writer;

/// How a list's elements must be ordered, compared by their encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Non-decreasing.
    Sorted,
    /// Strictly increasing (so no two are equal).
    StrictlyIncreasing,
}

/// Checks that `items` are in `order` by their encodings.
pub fn ordered<T: Encode>(items: &[T], order: Order) -> Result<(), RuleError> {
    let mut previous: Option<Vec<u8>> = None;
    for (i, item) in items.iter().enumerate() {
        let mut w = Writer::new();
        // A value too long to encode is reported by encoding, not here.
        if item.encode(&mut w).is_err() {
            return Ok(());
        }
        let current = w.into_bytes();
        if let Some(prev) = &previous {
            let (ok, what) = match order {
                Order::Sorted => (prev <= &current, "sorted by their encoding"),
                Order::StrictlyIncreasing => (
                    prev < &current,
                    "strictly increasing by their encoding (sorted, no duplicates)",
                ),
            };
            if !ok {
                let how = if prev == &current {
                    "it equals the previous one"
                } else {
                    "it comes before the previous one"
                };
                return Err(
                    RuleError::new(format!("the elements must be {what}; {how}"))
                        .of_kind(RuleProblem::Unordered)
                        .within(Step::Index(i)),
                );
            }
        }
        previous = Some(current);
    }
    Ok(())
}

/// Checks that `items` are strictly increasing by `compare`, which compares their field (or
/// fields, in turn) `what`.
pub fn increasing_by<T>(
    items: &[T],
    what: &str,
    compare: impl Fn(&T, &T) -> std::cmp::Ordering,
) -> Result<(), RuleError> {
    for (i, pair) in items.windows(2).enumerate() {
        if compare(&pair[0], &pair[1]).is_ge() {
            return Err(RuleError::new(format!(
                "the elements must be strictly increasing by `{what}`; element {} is not above element {i}",
                i + 1
            ))
            .of_kind(RuleProblem::Unordered)
            .within(Step::Index(i + 1)));
        }
    }
    Ok(())
}

/// Checks an integer against its bounds.
pub fn bounds(value: impl Into<u64>, min: Option<u64>, max: Option<u64>) -> Result<(), RuleError> {
    let value = value.into();
    if let Some(min) = min
        && value < min
    {
        return Err(RuleError::new(format!(
            "{value} is below the minimum, {min}"
        )));
    }
    if let Some(max) = max
        && value > max
    {
        return Err(RuleError::new(format!(
            "{value} is above the maximum, {max}"
        )));
    }
    Ok(())
}

/// Checks a length (of bytes, a string or a list) against its limits.
pub fn length(len: usize, exactly: Option<u64>, at_most: Option<u64>) -> Result<(), RuleError> {
    if let Some(n) = exactly
        && len as u64 != n
    {
        return Err(RuleError::new(format!("the length must be {n}, not {len}")));
    }
    if let Some(n) = at_most
        && len as u64 > n
    {
        return Err(
            RuleError::new(format!("the length must be at most {n}, not {len}")).of_kind(
                RuleProblem::TooLong {
                    max: n,
                    len: len as u64,
                },
            ),
        );
    }
    Ok(())
}

/// Verifies every element of `items`, naming the element that fails.
pub fn each<T: super::binary::Verify>(items: &[T]) -> Result<(), RuleError> {
    for (i, item) in items.iter().enumerate() {
        item.verify().map_err(|e| e.within(Step::Index(i)))?;
    }
    Ok(())
}

/// Runs the checks of the field `name`, naming it in a failure.
pub fn field(
    name: &'static str,
    checks: impl FnOnce() -> Result<(), RuleError>,
) -> Result<(), RuleError> {
    checks().map_err(|e| e.within(Step::Field(name)))
}
