//! Figures per repetition, their summaries, ratios and the Markdown table.

use std::fmt::Write as _;

/// How a figure is printed.
#[derive(Clone, Copy, Debug)]
pub enum Unit {
    /// Requests per second.
    PerSecond,
    /// Seconds (printed as ns, µs, ms or s).
    Seconds,
}

/// A target on the median ratio (ours / baseline).
#[derive(Clone, Copy, Debug)]
pub enum Target {
    AtLeast(f64),
    AtMost(f64),
}

impl Target {
    fn holds(self, ratio: f64) -> bool {
        match self {
            Target::AtLeast(t) => ratio >= t,
            Target::AtMost(t) => ratio <= t,
        }
    }

    fn text(self) -> String {
        match self {
            Target::AtLeast(t) => format!("≥ {t}"),
            Target::AtMost(t) => format!("≤ {t}"),
        }
    }
}

/// One line of the table: this project's figure per repetition and, optionally, a
/// baseline's, measured in the same repetitions.
pub struct Row {
    pub measure: String,
    pub unit: Unit,
    pub ours: Vec<f64>,
    pub baseline: Option<(String, Vec<f64>)>,
    pub target: Option<Target>,
    /// Seconds of warm-up before each figure, ours and the baseline's (server rows).
    pub warmup: Option<(Vec<f64>, Vec<f64>)>,
}

impl Row {
    pub fn new(measure: impl Into<String>, unit: Unit, ours: Vec<f64>) -> Row {
        Row {
            measure: measure.into(),
            unit,
            ours,
            baseline: None,
            target: None,
            warmup: None,
        }
    }

    pub fn against(mut self, name: impl Into<String>, figures: Vec<f64>) -> Row {
        self.baseline = Some((name.into(), figures));
        self
    }

    pub fn target(mut self, target: Target) -> Row {
        self.target = Some(target);
        self
    }

    pub fn warmup(mut self, ours: Vec<f64>, baseline: Vec<f64>) -> Row {
        self.warmup = Some((ours, baseline));
        self
    }

    /// Ratio ours / baseline per repetition.
    fn ratios(&self) -> Option<Vec<f64>> {
        let (_, base) = self.baseline.as_ref()?;
        Some(
            self.ours
                .iter()
                .zip(base)
                .map(|(a, b)| if *b > 0.0 { a / b } else { f64::NAN })
                .collect(),
        )
    }
}

/// Median, min and max.
pub struct Summary {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

pub fn summarize(values: &[f64]) -> Summary {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return Summary {
            median: f64::NAN,
            min: f64::NAN,
            max: f64::NAN,
        };
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    Summary {
        median,
        min: v[0],
        max: v[n - 1],
    }
}

fn fmt_value(unit: Unit, x: f64) -> String {
    if !x.is_finite() {
        return "n/a".into();
    }
    match unit {
        Unit::PerSecond => {
            if x >= 100.0 {
                group_thousands(x.round() as u64)
            } else {
                format!("{x:.1}")
            }
        }
        Unit::Seconds => {
            let (v, u) = if x >= 1.0 {
                (x, "s")
            } else if x >= 1e-3 {
                (x * 1e3, "ms")
            } else if x >= 1e-6 {
                (x * 1e6, "µs")
            } else {
                (x * 1e9, "ns")
            };
            if v >= 100.0 {
                format!("{v:.0} {u}")
            } else if v >= 10.0 {
                format!("{v:.1} {u}")
            } else {
                format!("{v:.2} {u}")
            }
        }
    }
}

fn group_thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn fmt_summary(unit: Unit, values: &[f64]) -> String {
    let s = summarize(values);
    if values.len() == 1 {
        return fmt_value(unit, s.median);
    }
    format!(
        "{} ({}..{})",
        fmt_value(unit, s.median),
        fmt_value(unit, s.min),
        fmt_value(unit, s.max)
    )
}

fn fmt_ratio(values: &[f64]) -> String {
    let s = summarize(values);
    let r = |x: f64| {
        if x >= 10.0 {
            format!("{x:.1}")
        } else if x >= 0.1 {
            format!("{x:.2}")
        } else {
            format!("{x:.3}")
        }
    };
    if values.len() == 1 {
        return r(s.median);
    }
    format!("{} ({}..{})", r(s.median), r(s.min), r(s.max))
}

/// Warm-up seconds over the repetitions: `4` or `2..6`.
fn fmt_warmup(values: &[f64]) -> String {
    let s = summarize(values);
    if !s.min.is_finite() {
        return "n/a".into();
    }
    let (lo, hi) = (s.min.round(), s.max.round());
    if lo == hi {
        format!("{lo:.0}")
    } else {
        format!("{lo:.0}..{hi:.0}")
    }
}

/// The table as Markdown.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str(
        "| Measure | avalanche-rpc | Baseline | Baseline's figure | Ratio | Target | Holds | Warm-up (s), ours / baseline |\n",
    );
    out.push_str("|---|---:|---|---:|---:|---|---|---|\n");
    for row in rows {
        let ours = fmt_summary(row.unit, &row.ours);
        let (base_name, base_fig, ratio) = match (&row.baseline, row.ratios()) {
            (Some((name, figs)), Some(ratios)) => (
                name.clone(),
                fmt_summary(row.unit, figs),
                fmt_ratio(&ratios),
            ),
            _ => ("—".into(), "—".into(), "—".into()),
        };
        let (target, holds) = match (row.target, row.ratios()) {
            (Some(t), Some(r)) => {
                let m = summarize(&r).median;
                (t.text(), if t.holds(m) { "yes" } else { "**no**" })
            }
            _ => ("".into(), ""),
        };
        let warmup = match &row.warmup {
            Some((a, b)) => format!("{} / {}", fmt_warmup(a), fmt_warmup(b)),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "| {} | {ours} | {base_name} | {base_fig} | {ratio} | {target} | {holds} | {warmup} |",
            row.measure
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(summarize(&[3.0, 1.0, 2.0]).median, 2.0);
        assert_eq!(summarize(&[4.0, 1.0, 2.0, 3.0]).median, 2.5);
    }

    #[test]
    fn formats() {
        assert_eq!(fmt_value(Unit::Seconds, 0.0143), "14.3 ms");
        assert_eq!(fmt_value(Unit::Seconds, 2.5e-6), "2.50 µs");
        assert_eq!(fmt_value(Unit::PerSecond, 41203.4), "41,203");
        let row = Row::new("x", Unit::PerSecond, vec![2.0, 4.0, 6.0])
            .against("b", vec![1.0, 2.0, 2.0])
            .target(Target::AtLeast(2.0));
        let t = table(&[row]);
        assert!(t.contains("| 2.00 (2.00..3.00) | ≥ 2 | yes |  |"), "{t}");
        let row = Row::new("x", Unit::PerSecond, vec![2.0, 4.0])
            .against("b", vec![1.0, 2.0])
            .warmup(vec![2.1, 2.0], vec![3.0, 6.9]);
        assert!(table(&[row]).contains("| 2 / 3..7 |"));
    }
}
