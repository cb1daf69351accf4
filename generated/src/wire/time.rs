//! [`Timestamp`]: RFC 3339 times kept verbatim, with calendar arithmetic done by hand.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use super::WireError;
use super::text::string_serde;

const SECS_PER_DAY: i64 = 86_400;
const NANOS_PER_SEC: u32 = 1_000_000_000;
/// `0000-01-01T00:00:00Z` and `9999-12-31T23:59:59Z`, the range RFC 3339 can write.
const MIN_SECS: i64 = -62_167_219_200;
const MAX_SECS: i64 = 253_402_300_799;
/// Layouts for [`fields`]: `d` is a digit, `T` is `T` or `t`, `s` is `+` or `-`, anything else is literal.
const DATE_TIME: &[u8; 19] = b"dddd-dd-ddTdd:dd:dd";
const OFFSET: &[u8; 6] = b"sdd:dd";
const SHAPE: &str = "expected RFC 3339 YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)";

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The `(year, month, day)` of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Matches `input` against `layout` and returns the digits read as one number per digit run.
fn fields<const N: usize>(input: &[u8], layout: &[u8]) -> Option<[i64; N]> {
    let mut out = [0i64; N];
    let mut field = 0;
    for (i, (&c, &l)) in input.iter().zip(layout).enumerate() {
        match l {
            b'd' if c.is_ascii_digit() => out[field] = out[field] * 10 + i64::from(c - b'0'),
            b'd' => return None,
            b'T' if c.eq_ignore_ascii_case(&b'T') => {}
            b's' if c == b'+' || c == b'-' => {}
            _ if c == l => {}
            _ => return None,
        }
        if l == b'd' && layout.get(i + 1) != Some(&b'd') {
            field += 1;
        }
    }
    (input.len() == layout.len() && field == N).then_some(out)
}

/// A point in time in RFC 3339, kept exactly as written so it serializes back byte-for-byte
/// (the node writes Go's `RFC3339Nano` in its local zone, e.g. `2021-09-07T00:00:00-04:00`).
///
/// Accepted: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)` with 1–9 fraction digits, `t`/`z` in
/// either case, real calendar dates (leap years included), hours < 24, minutes < 60 and seconds
/// ≤ 60 (a leap second counts as the first second of the next minute).
///
/// Equality and hashing compare the text: `…T00:00:00-04:00` and `…T04:00:00Z` are the same
/// instant but different values. Ordering is by instant first, then by text, which keeps it
/// consistent with equality; use [`Timestamp::cmp_instant`] to compare instants only.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Timestamp {
    text: String,
    secs: i64,
    nanos: u32,
}

impl Timestamp {
    /// Validates an RFC 3339 string and keeps it verbatim.
    pub fn parse(s: &str) -> Result<Timestamp, WireError> {
        let fail = |reason: String| WireError::new("timestamp", s, reason);
        let b = s.as_bytes();
        let [year, month, day, hour, min, sec] = b
            .get(..19)
            .and_then(|head| fields(head, DATE_TIME))
            .ok_or_else(|| fail(SHAPE.into()))?;

        let mut rest = &b[19..];
        let mut nanos = 0;
        if let Some(frac) = rest.strip_prefix(b".") {
            let digits = frac.iter().take_while(|c| c.is_ascii_digit()).count();
            if !(1..=9).contains(&digits) {
                return Err(fail(format!(
                    "fraction must have 1 to 9 digits, got {digits}"
                )));
            }
            let value = frac[..digits]
                .iter()
                .fold(0, |n, &c| n * 10 + u32::from(c - b'0'));
            nanos = value * 10u32.pow(9 - digits as u32);
            rest = &frac[digits..];
        }
        let offset = match rest {
            b"Z" | b"z" => 0,
            _ => {
                let [oh, om] = fields(rest, OFFSET).ok_or_else(|| fail(SHAPE.into()))?;
                let sign = if rest[0] == b'-' { -1 } else { 1 };
                if oh > 23 || om > 59 {
                    return Err(fail(format!("zone offset {oh:02}:{om:02} out of range")));
                }
                sign * (oh * 3600 + om * 60)
            }
        };

        let check = |name: &str, v: i64, min: i64, max: i64| {
            if (min..=max).contains(&v) {
                Ok(())
            } else {
                Err(fail(format!("{name} {v} out of range {min}..={max}")))
            }
        };
        check("month", month, 1, 12)?;
        check("day", day, 1, days_in_month(year, month))?;
        check("hour", hour, 0, 23)?;
        check("minute", min, 0, 59)?;
        check("second", sec, 0, 60)?;

        let secs = days_from_civil(year, month, day) * SECS_PER_DAY + hour * 3600 + min * 60 + sec
            - offset;
        Ok(Timestamp {
            text: s.to_owned(),
            secs,
            nanos,
        })
    }

    /// Formats an instant in UTC like Go's `RFC3339Nano`: `2024-01-02T03:04:05Z`, or
    /// `2024-01-02T03:04:05.5Z` with the fraction's trailing zeros trimmed.
    ///
    /// `nanos` of a second or more carry into `secs`. Instants outside the years 0000–9999 (which
    /// RFC 3339 cannot write) are clamped to `0000-01-01T00:00:00Z` / `9999-12-31T23:59:59.999999999Z`.
    pub fn from_unix(secs: i64, nanos: u32) -> Timestamp {
        let secs = secs.saturating_add(i64::from(nanos / NANOS_PER_SEC));
        let (secs, nanos) = match secs {
            ..MIN_SECS => (MIN_SECS, 0),
            MIN_SECS..=MAX_SECS => (secs, nanos % NANOS_PER_SEC),
            _ => (MAX_SECS, NANOS_PER_SEC - 1),
        };
        let (year, month, day) = civil_from_days(secs.div_euclid(SECS_PER_DAY));
        let tod = secs.rem_euclid(SECS_PER_DAY);
        let mut text = format!(
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
            tod / 3600,
            tod / 60 % 60,
            tod % 60
        );
        if nanos > 0 {
            text.push_str(format!(".{nanos:09}").trim_end_matches('0'));
        }
        text.push('Z');
        Timestamp { text, secs, nanos }
    }

    /// The string exactly as parsed (or as formatted by [`Timestamp::from_unix`]).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whole seconds since 1970-01-01T00:00:00Z, taking the zone offset into account.
    pub fn unix_seconds(&self) -> i64 {
        self.secs
    }

    /// The fractional second in nanoseconds (0 to 999,999,999).
    pub fn subsec_nanos(&self) -> u32 {
        self.nanos
    }

    /// Compares the instants only, ignoring how they were written.
    pub fn cmp_instant(&self, other: &Timestamp) -> Ordering {
        (self.secs, self.nanos).cmp(&(other.secs, other.nanos))
    }
}

/// By instant, then by text (so `Ordering::Equal` exactly when the values are equal).
impl Ord for Timestamp {
    fn cmp(&self, other: &Self) -> Ordering {
        self.cmp_instant(other)
            .then_with(|| self.text.cmp(&other.text))
    }
}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Prints `Timestamp("…")`.
impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Timestamp").field(&self.text).finish()
    }
}

impl FromStr for Timestamp {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        Timestamp::parse(s)
    }
}

string_serde!(Timestamp => "an RFC 3339 timestamp string");

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> Timestamp {
        Timestamp::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn parses_with_offsets() {
        let t = ts("2021-09-07T00:00:00-04:00");
        assert_eq!((t.unix_seconds(), t.subsec_nanos()), (1_630_987_200, 0));
        assert_eq!(t.as_str(), "2021-09-07T00:00:00-04:00");
        assert_eq!(ts("2020-12-05T05:00:00Z").unix_seconds(), 1_607_144_400);
        assert_eq!(
            ts("2020-12-05T10:30:00+05:30").unix_seconds(),
            1_607_144_400
        );
        assert_eq!(ts("1970-01-01T00:00:00Z").unix_seconds(), 0);
        assert_eq!(ts("1969-12-31T23:59:59Z").unix_seconds(), -1);
        assert_eq!(ts("2024-03-06t16:00:00z").unix_seconds(), 1_709_740_800);
        assert_eq!(
            ts("2016-12-31T23:59:60Z").unix_seconds(),
            ts("2017-01-01T00:00:00Z").unix_seconds()
        );
    }

    #[test]
    fn fractional_seconds() {
        let t = ts("2024-01-02T03:04:05.123456789Z");
        assert_eq!(
            (t.unix_seconds(), t.subsec_nanos()),
            (1_704_164_645, 123_456_789)
        );
        assert_eq!(ts("2024-01-02T03:04:05.5Z").subsec_nanos(), 500_000_000);
        assert_eq!(ts("2024-01-02T03:04:05.000000001+01:00").subsec_nanos(), 1);
        assert_eq!(
            ts("2024-01-02T03:04:05.50-01:00").unix_seconds(),
            1_704_164_645 + 3600
        );
    }

    #[test]
    fn calendar_checks() {
        ts("2024-02-29T00:00:00Z");
        ts("2000-02-29T00:00:00Z");
        ts("0000-01-01T00:00:00Z");
        ts("9999-12-31T23:59:59.999999999Z");
        let err = |s: &str| Timestamp::parse(s).unwrap_err().to_string();
        assert_eq!(
            err("2023-02-29T00:00:00Z"),
            r#"invalid timestamp "2023-02-29T00:00:00Z": day 29 out of range 1..=28"#
        );
        assert!(err("2100-02-29T00:00:00Z").contains("day 29"));
        assert!(err("2024-04-31T00:00:00Z").contains("day 31"));
        assert!(err("2024-00-10T00:00:00Z").contains("month 0"));
        assert!(err("2024-13-10T00:00:00Z").contains("month 13"));
        assert!(err("2024-01-00T00:00:00Z").contains("day 0"));
        assert!(err("2024-01-01T24:00:00Z").contains("hour 24"));
        assert!(err("2024-01-01T00:60:00Z").contains("minute 60"));
        assert!(err("2024-01-01T00:00:61Z").contains("second 61"));
        assert!(err("2024-01-01T00:00:00+24:00").contains("zone offset 24:00"));
        assert!(err("2024-01-01T00:00:00.Z").contains("1 to 9 digits, got 0"));
        assert!(err("2024-01-01T00:00:00.1234567890Z").contains("got 10"));
        for bad in [
            "",
            "2024-01-01",
            "2024-01-01T00:00:00",
            "2024-01-01 00:00:00Z",
            "2024-1-01T00:00:00Z",
            "+2024-01-01T00:00:00Z",
            "2024-01-01T00:00:00+0100",
            "2024-01-01T00:00:00*01:00",
            "2024-01-01T00:00:00ZZ",
            "2024-01-01T00:00:00Z ",
            "2024-01-01T00:00:00é",
            "２024-01-01T00:00:00Z",
        ] {
            assert!(Timestamp::parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn from_unix_formatting() {
        assert_eq!(
            Timestamp::from_unix(1_704_164_645, 0).as_str(),
            "2024-01-02T03:04:05Z"
        );
        assert_eq!(
            Timestamp::from_unix(1_704_164_645, 500_000_000).as_str(),
            "2024-01-02T03:04:05.5Z"
        );
        assert_eq!(
            Timestamp::from_unix(1_704_164_645, 1).as_str(),
            "2024-01-02T03:04:05.000000001Z"
        );
        assert_eq!(Timestamp::from_unix(0, 0).as_str(), "1970-01-01T00:00:00Z");
        assert_eq!(Timestamp::from_unix(-1, 0).as_str(), "1969-12-31T23:59:59Z");
        assert_eq!(
            Timestamp::from_unix(1_607_144_400, 0).as_str(),
            "2020-12-05T05:00:00Z"
        );
        assert_eq!(
            Timestamp::from_unix(951_782_400, 0).as_str(),
            "2000-02-29T00:00:00Z"
        );
        assert_eq!(
            Timestamp::from_unix(0, 1_500_000_000).as_str(),
            "1970-01-01T00:00:01.5Z"
        );
        assert_eq!(
            Timestamp::from_unix(i64::MAX, u32::MAX).as_str(),
            "9999-12-31T23:59:59.999999999Z"
        );
        assert_eq!(
            Timestamp::from_unix(i64::MIN, 5).as_str(),
            "0000-01-01T00:00:00Z"
        );
        // Formatting and parsing agree across a wide range, including negative times.
        for secs in (MIN_SECS..=MAX_SECS)
            .step_by(7_777_777_777)
            .chain([MIN_SECS, MAX_SECS, -86_401])
        {
            let t = Timestamp::from_unix(secs, 120_000_000);
            assert_eq!(ts(t.as_str()), t);
            assert_eq!((t.unix_seconds(), t.subsec_nanos()), (secs, 120_000_000));
        }
    }

    #[test]
    fn equality_and_order() {
        let local = ts("2021-09-07T00:00:00-04:00");
        let utc = ts("2021-09-07T04:00:00Z");
        assert_eq!(local.cmp_instant(&utc), Ordering::Equal);
        assert_ne!(local, utc);
        assert_ne!(local.cmp(&utc), Ordering::Equal);
        let mut v = [
            ts("2024-01-02T03:04:05.5Z"),
            ts("2024-01-02T03:04:05Z"),
            ts("2024-01-01T23:00:00-05:00"),
        ];
        v.sort();
        let order: Vec<_> = v.iter().map(Timestamp::as_str).collect();
        assert_eq!(
            order,
            [
                "2024-01-02T03:04:05Z",
                "2024-01-02T03:04:05.5Z",
                "2024-01-01T23:00:00-05:00"
            ]
        );
    }

    #[test]
    fn serde_verbatim() {
        for s in [
            "\"2021-09-07T00:00:00-04:00\"",
            "\"2024-03-06T16:00:00.120Z\"",
            "\"2024-03-06t16:00:00z\"",
        ] {
            let t: Timestamp = serde_json::from_str(s).unwrap();
            assert_eq!(serde_json::to_string(&t).unwrap(), s);
        }
        let e = serde_json::from_str::<Timestamp>("\"2023-02-29T00:00:00Z\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("day 29 out of range"), "{e}");
        assert!(serde_json::from_str::<Timestamp>("1630987200").is_err());
        assert_eq!(
            format!("{:?}", ts("2020-12-05T05:00:00Z")),
            r#"Timestamp("2020-12-05T05:00:00Z")"#
        );
    }
}
