//! Unsigned integers carried as decimal strings ([`U64`], [`U32`], [`U16`], [`U8`]) and [`Percent`].

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

use super::WireError;

/// Reason given when an unsigned integer has the wrong shape.
const EXPECTED_UINT: &str = "expected a decimal string or a non-negative integer";

/// An integer-like scalar read from a decimal string or a bare JSON integer
/// (the numeric family and [`Height`](super::Height)).
pub(crate) trait Decimal: Sized {
    /// Name used in error messages, e.g. `u64`.
    const WHAT: &'static str;
    /// Reason given when the input is neither a decimal string nor a non-negative integer.
    const EXPECTED: &'static str;
    /// Largest accepted value.
    const MAX: u64;
    /// Builds the value from an integer already checked to be `<= MAX`.
    fn from_checked(v: u64) -> Self;
    /// A non-numeric string the type also accepts (Height's `proposed`); none by default.
    fn from_keyword(_s: &str) -> Option<Self> {
        None
    }
}

/// Parses the string form: a keyword, or ASCII digits only (leading zeros allowed) up to `T::MAX`.
pub(crate) fn parse_decimal<T: Decimal>(s: &str) -> Result<T, WireError> {
    if let Some(v) = T::from_keyword(s) {
        return Ok(v);
    }
    if let Some(v) = short_decimal(s.as_bytes())
        && v <= T::MAX
    {
        return Ok(T::from_checked(v));
    }
    // One pass: every byte a digit, and the value so far within u64 (and the error if not).
    let mut value = Some(0u64);
    for b in s.bytes() {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return Err(WireError::new(T::WHAT, s, T::EXPECTED));
        }
        value = value.and_then(|v| v.checked_mul(10)?.checked_add(u64::from(digit)));
    }
    match value {
        _ if s.is_empty() => Err(WireError::new(T::WHAT, s, T::EXPECTED)),
        Some(v) if v <= T::MAX => Ok(T::from_checked(v)),
        _ => Err(WireError::new(
            T::WHAT,
            s,
            format!("out of range (max {})", T::MAX),
        )),
    }
}

/// Range-checks a bare JSON integer.
/// The value of `s` when it is 1 to 19 ASCII digits (always within `u64`), read eight at a
/// time; `None` for anything else.
fn short_decimal(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 19 {
        return None;
    }
    let mut value = 0u64;
    let mut rest = s;
    while let Some((eight, tail)) = rest.split_first_chunk::<8>() {
        value = value * 100_000_000 + eight_digits(u64::from_le_bytes(*eight))?;
        rest = tail;
    }
    for &b in rest {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        value = value * 10 + u64::from(digit);
    }
    Some(value)
}

/// The value of eight ASCII digits read as a little-endian word (the first digit in the lowest
/// byte), or `None` when a byte is not a digit: every byte is `0x30..=0x39` exactly when its
/// high nibble is 3 and stays 3 after adding 6 (a byte that does not carry into the next).
fn eight_digits(word: u64) -> Option<u64> {
    const HIGH: u64 = 0xf0f0_f0f0_f0f0_f0f0;
    const THREES: u64 = 0x3030_3030_3030_3030;
    if word & HIGH != THREES || word.wrapping_add(0x0606_0606_0606_0606) & HIGH != THREES {
        return None;
    }
    // Digits to pairs, pairs to fours, fours to eight, each lane the one before times its
    // base plus the next; each lane holds its value without carrying into the next.
    let v = word - THREES;
    let v = (v.wrapping_mul(10) + (v >> 8)) & 0x00ff_00ff_00ff_00ff;
    let v = (v.wrapping_mul(100) + (v >> 16)) & 0x0000_ffff_0000_ffff;
    Some((v.wrapping_mul(10_000) + (v >> 32)) & 0xffff_ffff)
}

fn decimal_from_u64<T: Decimal>(v: u64) -> Result<T, WireError> {
    if v <= T::MAX {
        Ok(T::from_checked(v))
    } else {
        Err(WireError::value(
            T::WHAT,
            v,
            format!("out of range (max {})", T::MAX),
        ))
    }
}

/// Serde visitor accepting a decimal string or a non-negative JSON integer for any [`Decimal`].
pub(crate) struct DecimalVisitor<T>(pub(crate) PhantomData<T>);

impl<T: Decimal> Visitor<'_> for DecimalVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {}: {}", T::WHAT, T::EXPECTED)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        parse_decimal(v).map_err(E::custom)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        decimal_from_u64(v).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::custom(WireError::value(T::WHAT, v, T::EXPECTED))),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Err(E::custom(WireError::value(
            T::WHAT,
            format_args!("{v:?}"),
            T::EXPECTED,
        )))
    }
}

/// The decimal text of `v`, written into `buf` (two digits at a time, by `itoa`).
fn decimal(v: u64, buf: &mut itoa::Buffer) -> &str {
    buf.format(v)
}

/// Defines a decimal-string wrapper around an unsigned primitive.
macro_rules! unsigned {
    ($($(#[$doc:meta])* $name:ident($prim:ty) = $what:literal;)*) => {$(
        $(#[$doc])*
        ///
        /// Written as a JSON decimal string (`"123"`). Read from a decimal string (ASCII digits only,
        /// leading zeros allowed) or a non-negative JSON integer, range-checked; signs, spaces,
        /// fractions, exponents and `0x` are rejected. Works as a JSON map key.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub $prim);

        impl $name {
            /// Returns the wrapped integer.
            pub const fn get(self) -> $prim {
                self.0
            }
        }

        impl Decimal for $name {
            const WHAT: &'static str = $what;
            const EXPECTED: &'static str = EXPECTED_UINT;
            const MAX: u64 = <$prim>::MAX as u64;

            fn from_checked(v: u64) -> Self {
                // `v <= MAX` was checked by the caller, so the cast is lossless.
                Self(v as $prim)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        impl FromStr for $name {
            type Err = WireError;

            fn from_str(s: &str) -> Result<Self, WireError> {
                parse_decimal(s)
            }
        }

        impl From<$prim> for $name {
            fn from(v: $prim) -> Self {
                Self(v)
            }
        }

        impl From<$name> for $prim {
            fn from(v: $name) -> Self {
                v.0
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut buf = itoa::Buffer::new();
                super::ascii::serialize(decimal(u64::from(self.0), &mut buf), s)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any(DecimalVisitor(PhantomData))
            }
        }
    )*};
}

unsigned! {
    /// An unsigned 64-bit integer on the wire (Go `avajson.Uint64`).
    U64(u64) = "u64";
    /// An unsigned 32-bit integer on the wire (Go `avajson.Uint32`).
    U32(u32) = "u32";
    /// An unsigned 16-bit integer on the wire (Go `avajson.Uint16`).
    U16(u16) = "u16";
    /// An unsigned 8-bit integer on the wire (Go `avajson.Uint8`).
    U8(u8) = "u8";
}

/// A percentage on the wire (Go `avajson.Float64`), e.g. an uptime or a delegation fee.
///
/// Written as a string with exactly four decimals (`"99.5000"`). Read from a plain decimal string
/// (any number of decimals, e.g. `"99.5"`) or a bare JSON number; the value must be finite and
/// non-negative.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Percent(pub f64);

impl Percent {
    /// Checks that a parsed number is finite and non-negative; `shown` is the input for the message.
    fn checked(v: f64, shown: impl fmt::Display) -> Result<Self, WireError> {
        if !v.is_finite() {
            Err(WireError::value("percent", shown, "must be finite"))
        } else if v < 0.0 {
            Err(WireError::value("percent", shown, "must be non-negative"))
        } else {
            Ok(Self(v))
        }
    }
}

impl Percent {
    /// The value rounded to four decimals as an integer count of 1/10,000ths, when that is
    /// certain without exact decimal arithmetic: the scaled value is small enough that f64
    /// error is far below the rounding step, and not within 0.001 of a tie. Otherwise `None`,
    /// and the exact formatter decides.
    fn ten_thousandths(self) -> Option<u64> {
        let scaled = self.0 * 10_000.0;
        if !(0.0..1e9).contains(&scaled) {
            return None;
        }
        let fraction = scaled - scaled.floor();
        if (fraction - 0.5).abs() < 1e-3 {
            return None;
        }
        Some(scaled.round() as u64)
    }
}

impl fmt::Display for Percent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ten_thousandths() {
            Some(n) => write!(f, "{}.{:04}", n / 10_000, n % 10_000),
            None => write!(f, "{:.4}", self.0),
        }
    }
}

impl FromStr for Percent {
    type Err = WireError;

    /// Accepts digits with at most one `.` (`"99.5"`, `"2.0000"`, `"7"`); no sign or exponent.
    fn from_str(s: &str) -> Result<Self, WireError> {
        if let Some(v) = exact_short_decimal(s) {
            return Ok(Self(v));
        }
        let plain = s.bytes().any(|b| b.is_ascii_digit())
            && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && s.bytes().filter(|&b| b == b'.').count() <= 1;
        match s.parse::<f64>() {
            Ok(v) if plain => Self::checked(v, format_args!("{s:?}")),
            _ => Err(WireError::new(
                "percent",
                s,
                "expected a decimal number such as \"99.5000\"",
            )),
        }
    }
}

/// The value of `s` when it is at most 15 digits with at most one `.` between or after them
/// (`"99.5000"`, `"7"`): its digits as an integer, exact in an `f64`, divided by an exact power
/// of ten, which IEEE rounds once, to the nearest `f64` of the decimal: what `str::parse` gives.
/// `None` for anything else (more digits, no digit, a sign, an exponent, another character).
fn exact_short_decimal(s: &str) -> Option<f64> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let (mut digits, mut mantissa, mut point) = (0usize, 0u64, None);
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'0'..=b'9' => {
                digits += 1;
                mantissa = mantissa * 10 + u64::from(b - b'0');
            }
            b'.' if point.is_none() && i > 0 => point = Some(i),
            _ => return None,
        }
        if digits > 15 {
            return None;
        }
    }
    let decimals = point.map_or(0, |p| s.len() - p - 1);
    (digits > 0).then(|| mantissa as f64 / POW10[decimals])
}

impl Serialize for Percent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Some(n) = self.ten_thousandths() else {
            return s.collect_str(self);
        };
        // `<integer>.<four digits>` on the stack; 10,000 plus the fraction is `1` followed by
        // its four digits, leading zeros included.
        let (mut whole, mut fraction) = (itoa::Buffer::new(), itoa::Buffer::new());
        let whole = decimal(n / 10_000, &mut whole).as_bytes();
        let fraction = &decimal(10_000 + n % 10_000, &mut fraction).as_bytes()[1..];
        let mut buf = [0u8; 26];
        let at = whole.len();
        buf[..at].copy_from_slice(whole);
        buf[at] = b'.';
        buf[at + 1..at + 5].copy_from_slice(fraction);
        // Only digits and a dot were written.
        super::ascii::serialize(std::str::from_utf8(&buf[..at + 5]).unwrap_or_default(), s)
    }
}

impl<'de> Deserialize<'de> for Percent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct PercentVisitor;

        impl Visitor<'_> for PercentVisitor {
            type Value = Percent;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a percentage as a decimal string or a number")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Percent, E> {
                v.parse().map_err(E::custom)
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Percent, E> {
                Percent::checked(v, v).map_err(E::custom)
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Percent, E> {
                Ok(Percent(v as f64))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Percent, E> {
                Percent::checked(v as f64, v).map_err(E::custom)
            }
        }

        d.deserialize_any(PercentVisitor)
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn percent_is_written_as_the_exact_formatter_writes_it() {
        let mut rng = super::super::test_rng::XorShift(0x853c_49e6_748f_ea9b);
        let mut values = vec![
            0.0, 0.00005, 0.00015, 2.0, 99.5, 100.0, 1.23455, 0.1, 0.3, 1e5, 1e12,
        ];
        for _ in 0..20_000 {
            let seed = rng.next_u64();
            values.push((seed % 2_000_000) as f64 / 10_000.0 + (seed >> 40) as f64 * 1e-9);
        }
        for v in values {
            let exact = format!("{v:.4}");
            assert_eq!(Percent(v).to_string(), exact, "{v}");
            assert_eq!(
                serde_json::to_string(&Percent(v)).unwrap(),
                format!("\"{exact}\""),
                "{v}"
            );
        }
    }
    use std::collections::BTreeMap;

    use serde_json::{Value, json};

    use super::*;

    fn de<T: for<'de> Deserialize<'de>>(json: &str) -> Result<T, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn u64_round_trip_and_forms() {
        assert_eq!(serde_json::to_string(&U64(123)).unwrap(), r#""123""#);
        assert_eq!(de::<U64>(r#""123""#), Ok(U64(123)));
        assert_eq!(de::<U64>("123"), Ok(U64(123)));
        assert_eq!(de::<U64>(r#""007""#), Ok(U64(7)));
        assert_eq!(de::<U64>(r#""18446744073709551615""#), Ok(U64(u64::MAX)));
        assert_eq!(de::<U64>("18446744073709551615"), Ok(U64(u64::MAX)));
        assert_eq!(
            serde_json::to_string(&U64(u64::MAX)).unwrap(),
            r#""18446744073709551615""#
        );
        for n in [0, 1, 1000, u64::MAX] {
            let s = serde_json::to_string(&U64(n)).unwrap();
            assert_eq!(de::<U64>(&s), Ok(U64(n)));
        }
    }

    #[test]
    fn u64_rejections() {
        for bad in [
            r#""18446744073709551616""#,
            r#""-1""#,
            r#""+1""#,
            r#""1.0""#,
            r#""1e3""#,
            r#""0x10""#,
            r#"" 1""#,
            r#""""#,
            "-1",
            "1.0",
            "1.5",
            "1e3",
            "18446744073709551616",
            "true",
            "null",
            "[]",
        ] {
            assert!(de::<U64>(bad).is_err(), "{bad} accepted");
        }
        let err = de::<U64>(r#""abc""#).unwrap_err();
        assert!(
            err.contains(
                r#"invalid u64 "abc": expected a decimal string or a non-negative integer"#
            ),
            "{err}"
        );
        assert!(de::<U64>("-1").unwrap_err().contains("invalid u64 -1:"));
        assert!(de::<U64>("1.5").unwrap_err().contains("invalid u64 1.5:"));
        assert!(
            de::<U64>(r#""18446744073709551616""#)
                .unwrap_err()
                .contains("out of range (max 18446744073709551615)")
        );
    }

    #[test]
    fn narrow_ranges() {
        assert_eq!(de::<U32>(r#""4294967295""#), Ok(U32(u32::MAX)));
        assert!(de::<U32>(r#""4294967296""#).is_err());
        assert!(de::<U32>("4294967296").is_err());
        assert_eq!(de::<U16>("65535"), Ok(U16(u16::MAX)));
        assert!(de::<U16>(r#""65536""#).is_err());
        assert_eq!(de::<U8>(r#""255""#), Ok(U8(255)));
        let err = de::<U8>("256").unwrap_err();
        assert!(
            err.contains("invalid u8 256: out of range (max 255)"),
            "{err}"
        );
        assert_eq!(serde_json::to_string(&U8(9)).unwrap(), r#""9""#);
    }

    #[test]
    fn conversions_and_from_str() {
        assert_eq!("42".parse::<U32>(), Ok(U32(42)));
        assert!("4 2".parse::<U32>().is_err());
        assert_eq!(
            "x".parse::<U16>().unwrap_err().to_string(),
            r#"invalid u16 "x": expected a decimal string or a non-negative integer"#
        );
        assert_eq!(U64::from(5u64).get(), 5);
        assert_eq!(u64::from(U64(6)), 6);
        assert_eq!(u8::from(U8(7)), 7);
        assert_eq!(U16::from(8u16).to_string(), "8");
        assert!(U32(1) < U32(2));
    }

    #[test]
    fn map_keys_and_values() {
        let m: BTreeMap<U32, String> = serde_json::from_str(r#"{"23": "a", "007": "b"}"#).unwrap();
        assert_eq!(m[&U32(23)], "a");
        assert_eq!(m[&U32(7)], "b");
        assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"7":"b","23":"a"}"#);
        assert!(serde_json::from_str::<BTreeMap<U8, u8>>(r#"{"256": 1}"#).is_err());

        let v = json!({"5": {"n": 18446744073709551615u64, "s": "12"}});
        let m: BTreeMap<U64, BTreeMap<String, U64>> = serde_json::from_value(v).unwrap();
        assert_eq!(m[&U64(5)]["n"], U64(u64::MAX));
        assert_eq!(m[&U64(5)]["s"], U64(12));
        assert_eq!(
            serde_json::to_value(U64(3)).unwrap(),
            Value::String("3".into())
        );
        assert!(serde_json::from_value::<U64>(json!(-1)).is_err());
        assert!(serde_json::from_value::<U64>(json!(1.5)).is_err());
    }

    #[test]
    fn percent() {
        assert_eq!(
            serde_json::to_string(&Percent(99.5)).unwrap(),
            r#""99.5000""#
        );
        assert_eq!(Percent(2.0).to_string(), "2.0000");
        assert_eq!(Percent(0.0).to_string(), "0.0000");
        assert_eq!(Percent(99.87654).to_string(), "99.8765");
        assert_eq!(de::<Percent>(r#""99.5000""#), Ok(Percent(99.5)));
        assert_eq!(de::<Percent>(r#""99.5""#), Ok(Percent(99.5)));
        assert_eq!(de::<Percent>(r#""7""#), Ok(Percent(7.0)));
        assert_eq!(de::<Percent>("12.25"), Ok(Percent(12.25)));
        assert_eq!(de::<Percent>("100"), Ok(Percent(100.0)));
        for bad in [
            r#""""#,
            r#""-1.0""#,
            r#""1e3""#,
            r#""inf""#,
            r#""NaN""#,
            r#""1.2.3""#,
            r#"".""#,
            "-0.5",
            "true",
        ] {
            assert!(de::<Percent>(bad).is_err(), "{bad} accepted");
        }
        assert!(
            de::<Percent>(&format!("\"{}\"", "9".repeat(400)))
                .unwrap_err()
                .contains("must be finite")
        );
        assert!(
            de::<Percent>("-0.5")
                .unwrap_err()
                .contains("invalid percent -0.5: must be non-negative")
        );
        let p = Percent(12.3456);
        assert_eq!(de::<Percent>(&serde_json::to_string(&p).unwrap()), Ok(p));
    }

    #[test]
    fn short_decimals_read_as_str_parse_reads_them() {
        let mut rng = super::super::test_rng::XorShift(0x51ed_2701_a3c9_44b1);
        for _ in 0..200_000 {
            let r = rng.next_u64();
            let digits = (r % 17) as usize + 1;
            let text: String = (0..digits)
                .map(|i| char::from(b'0' + ((r >> (8 + 3 * i)) % 10) as u8))
                .collect();
            let at = ((r >> 60) as usize) % (digits + 1);
            for s in [text.clone(), format!("{}.{}", &text[..at], &text[at..])] {
                let want = s.parse::<f64>().ok();
                match exact_short_decimal(&s) {
                    Some(v) => assert_eq!(Some(v.to_bits()), want.map(f64::to_bits), "{s}"),
                    // Only longer texts, or a point first, are left to `str::parse`.
                    None => assert!(digits > 15 || s.starts_with('.'), "{s}"),
                }
                assert_eq!(
                    s.parse::<Percent>().ok().map(|p| p.0.to_bits()),
                    want.map(f64::to_bits)
                );
            }
        }
        for s in ["", ".", "1.2.3", "+1", "-1", "1e3", "1_0", "١"] {
            assert_eq!(exact_short_decimal(s), None, "{s}");
        }
    }

    #[test]
    fn decimals_read_eight_digits_at_a_time_as_one_at_a_time() {
        let slow = |s: &[u8]| -> Option<u64> {
            if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
                return None;
            }
            std::str::from_utf8(s).ok()?.parse().ok()
        };
        let mut rng = super::super::test_rng::XorShift(0x2b99_2ddf_a232_49d6);
        for _ in 0..100_000 {
            let r = rng.next_u64();
            let len = (r % 21) as usize;
            let mut text: Vec<u8> = (0..len)
                .map(|i| b'0' + ((r >> (5 + 3 * i)) % 10) as u8)
                .collect();
            let want = (len <= 19).then(|| slow(&text)).flatten();
            assert_eq!(short_decimal(&text), want, "{text:?}");
            // Any byte but a digit, anywhere, is refused.
            if len > 0 {
                let at = (r >> 40) as usize % len;
                for b in (0..=255u8).filter(|b| !b.is_ascii_digit()) {
                    let kept = std::mem::replace(&mut text[at], b);
                    assert_eq!(short_decimal(&text), None, "{text:?}");
                    text[at] = kept;
                }
            }
        }
        assert_eq!(
            short_decimal(b"9999999999999999999"),
            Some(9_999_999_999_999_999_999)
        );
        assert_eq!(short_decimal(b"18446744073709551615"), None);
        assert_eq!(
            parse_decimal::<U64>("18446744073709551615"),
            Ok(U64(u64::MAX))
        );
    }
}
