//! Durations as the node's flags spell them: Go's `time.ParseDuration` (`30s`, `2m`, `1h30m`,
//! `1.5s`, `500ms`; a bare `0`), for `--http-read-timeout` and its siblings.

use std::time::Duration;

/// Parses a Go duration. `Ok(None)` for zero, which the node's HTTP timeouts read as "no
/// limit"; the error says what was wrong with which part.
pub fn parse_timeout(text: &str) -> Result<Option<Duration>, String> {
    let d = parse(text)?;
    Ok((!d.is_zero()).then_some(d))
}

/// Parses a Go duration (negative ones are refused: no timeout is negative).
pub fn parse(text: &str) -> Result<Duration, String> {
    let s = text.trim();
    if s == "0" {
        return Ok(Duration::ZERO);
    }
    if s.is_empty() {
        return Err("a duration is empty: write e.g. 30s, 2m or 0".into());
    }
    if s.starts_with('-') {
        return Err(format!("{text:?} is negative"));
    }
    let mut rest = s.strip_prefix('+').unwrap_or(s);
    let mut total = Duration::ZERO;
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, after) = rest.split_at(number_end);
        if number.is_empty() || number == "." || number.matches('.').count() > 1 {
            return Err(format!(
                "{text:?} is not a duration: expected a number at {rest:?}"
            ));
        }
        let unit_end = after
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(after.len());
        let (unit, next) = after.split_at(unit_end);
        let nanos_per_unit: f64 = match unit {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            "" => {
                return Err(format!(
                    "{text:?} has no unit after {number}: write e.g. {number}s"
                ));
            }
            other => {
                return Err(format!(
                    "{text:?} has the unknown unit {other:?}: use ns, us, ms, s, m or h"
                ));
            }
        };
        let value: f64 = number
            .parse()
            .map_err(|_| format!("{text:?} is not a duration: {number:?} is not a number"))?;
        let nanos = value * nanos_per_unit;
        // Go's limit: about 290 years.
        if !nanos.is_finite() || nanos > i64::MAX as f64 {
            return Err(format!("{text:?} is too long"));
        }
        total += Duration::from_nanos(nanos as u64);
        rest = next;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_go_reads() {
        let s = Duration::from_secs;
        assert_eq!(parse("30s"), Ok(s(30)));
        assert_eq!(parse("2m"), Ok(s(120)));
        assert_eq!(parse("1h30m"), Ok(s(5400)));
        assert_eq!(parse("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse("250us"), Ok(Duration::from_micros(250)));
        assert_eq!(parse("+10s"), Ok(s(10)));
        assert_eq!(parse("0"), Ok(Duration::ZERO));
        assert_eq!(parse_timeout("0s"), Ok(None));
        assert_eq!(parse_timeout("45s"), Ok(Some(s(45))));
    }

    #[test]
    fn says_what_is_wrong() {
        for (text, says) in [
            ("", "empty"),
            ("30", "no unit"),
            ("-5s", "negative"),
            ("5 days", "unknown unit"),
            ("s", "expected a number"),
            ("1..5s", "expected a number"),
            ("9999999999h", "too long"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }
}
