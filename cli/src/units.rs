//! The wallet's values as a person writes them: amounts in whole units of their asset (`5`,
//! `1.5AVAX`, `5DVT`; nAVAX only with its unit, `250000000nAVAX`), periods (`30d`, `1d12h`),
//! an end as a period or a Unix time, delegation fees (`2%`, `20000`). Each is a clap value
//! parser, so a bad value is refused naming its flag.

use std::time::Duration;

/// An amount as written: a decimal number of whole units, with an optional unit after it
/// (`5`, `1.5AVAX`, `0.25 AVAX`, `5DVT`, `250000000nAVAX`). How many base units it is depends
/// on the asset's denomination, known once the asset is: [`Amount::units`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Amount {
    /// The amount as written (trimmed).
    text: String,
    /// The number as written, without the unit.
    number: String,
    /// The digits before the decimal point ("" for `.5`).
    whole: String,
    /// The digits after it ("" when there is none).
    frac: String,
    /// The unit written after the number.
    pub unit: Unit,
}

/// The unit of an [`Amount`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unit {
    /// None written: whole units of the asset sent (`--asset`, AVAX by default).
    Asset,
    /// `nAVAX`: base units of AVAX, asked for explicitly.
    NanoAvax,
    /// An asset's symbol (`AVAX`, `DVT`), as written: whole units of that asset.
    Symbol(String),
}

/// AVAX's denomination: 1 AVAX is 10^9 nAVAX.
pub const AVAX_DENOMINATION: u32 = 9;

/// `5`, `1.5AVAX`, `0.25 AVAX`, `5DVT`, `250000000nAVAX`: a decimal number of whole units of
/// the asset (the one `--asset` names, or the symbol written after it), or an integer of nAVAX
/// with its unit. The syntax is checked here; the units of AVAX and nAVAX are checked here
/// too, another asset's once its denomination is read from the node.
pub fn parse_amount(s: &str) -> Result<Amount, String> {
    let t = s.trim();
    if t.starts_with('-') {
        return Err(format!("`{t}` is negative: give an amount above zero"));
    }
    let t = t.strip_prefix('+').unwrap_or(t);
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = (&t[..split], t[split..].trim_start());
    let bad = || {
        format!(
            "`{t}` is not an amount: a number of whole units, with the asset's symbol or not \
             (`5`, `1.5AVAX`, `0.25 AVAX`, `5DVT`), or nAVAX with its unit (`250000000nAVAX`)"
        )
    };
    if number.is_empty() || number.matches('.').count() > 1 || number == "." {
        return Err(bad());
    }
    if !unit.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(bad());
    }
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    let unit = if unit.is_empty() {
        Unit::Asset
    } else if unit.eq_ignore_ascii_case("navax") {
        if !frac.is_empty() {
            return Err(format!(
                "`{t}` has a fraction of a nAVAX, the smallest unit: give whole nAVAX, or AVAX \
                 (`1.5AVAX`)"
            ));
        }
        Unit::NanoAvax
    } else {
        Unit::Symbol(unit.to_string())
    };
    let amount = Amount {
        text: t.to_string(),
        number: number.to_string(),
        whole: whole.to_string(),
        frac: frac.to_string(),
        unit,
    };
    // Zero is zero in any denomination.
    if amount
        .whole
        .bytes()
        .chain(amount.frac.bytes())
        .all(|b| b == b'0')
    {
        return Err(format!("`{t}` is nothing: give more than 0"));
    }
    // The units of AVAX are known now: an error shows before anything is asked of the node.
    match &amount.unit {
        Unit::NanoAvax => amount.units(0, "nAVAX")?,
        Unit::Symbol(s) if s.eq_ignore_ascii_case("AVAX") => {
            amount.units(AVAX_DENOMINATION, "AVAX")?
        }
        _ => 0,
    };
    Ok(amount)
}

impl Amount {
    /// The amount as written: `1.5AVAX`.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The number as written, without its unit: `1.5`.
    pub fn number(&self) -> &str {
        &self.number
    }

    /// The symbol written after the number, other than AVAX and nAVAX.
    pub fn other_symbol(&self) -> Option<&str> {
        match &self.unit {
            Unit::Symbol(s) if !s.eq_ignore_ascii_case("AVAX") => Some(s),
            _ => None,
        }
    }

    /// The base units of this many whole units of an asset with `denomination` decimal places
    /// (`symbol` names it in an error); base units when written in nAVAX.
    pub fn units(&self, denomination: u32, symbol: &str) -> Result<u64, String> {
        let (denomination, symbol) = match self.unit {
            Unit::NanoAvax => (0, "nAVAX"),
            _ => (denomination, symbol),
        };
        let written = format!("{} {symbol}", self.number);
        if self.frac.len() > denomination as usize {
            return Err(if denomination == 0 {
                format!(
                    "{written}: a {symbol} has no fraction (its denomination is 0): give whole {symbol}"
                )
            } else {
                format!(
                    "{written} has more than {denomination} decimal places ({symbol}'s \
                     denomination: its smallest unit is {} {symbol})",
                    format_units(1, denomination)
                )
            });
        }
        let too_much = || {
            format!(
                "{written} is more than the most an output holds, {} {symbol} (2^64 - 1 base units)",
                format_units(u64::MAX, denomination)
            )
        };
        // At most 32 decimal places (the node's limit): 10^32 fits in a u128.
        let scale = 10u128.checked_pow(denomination).ok_or_else(too_much)?;
        let parse = |d: &str| -> Result<u128, String> {
            if d.is_empty() {
                Ok(0)
            } else {
                d.parse::<u128>().map_err(|_| too_much())
            }
        };
        let frac_scale = 10u128.pow(denomination - self.frac.len() as u32);
        let (whole, frac) = (parse(&self.whole)?, parse(&self.frac)?);
        let units = whole
            .checked_mul(scale)
            .and_then(|w| w.checked_add(frac * frac_scale))
            .ok_or_else(too_much)?;
        u64::try_from(units).map_err(|_| too_much())
    }
}

fn integer(s: &str) -> Result<u64, String> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`{s}` is not a whole number"));
    }
    s.parse().map_err(|_| format!("{s} is more than 2^64 - 1"))
}

/// A decimal with at most `places` digits after the point, in units of 10^-places.
fn decimal(s: &str, places: u32) -> Result<u64, String> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) {
        return Err(format!("`{s}` is not a decimal number of AVAX"));
    }
    if frac.len() > places as usize {
        return Err(format!(
            "{s} AVAX has more than {places} decimal places (1 nAVAX is 0.000000001 AVAX)"
        ));
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| format!("{s} AVAX is too much"))?
    };
    let frac_units: u64 = if frac.is_empty() {
        0
    } else {
        frac.parse::<u64>()
            .map_err(|_| format!("{s} AVAX is too much"))?
            * 10u64.pow(places - frac.len() as u32)
    };
    whole
        .checked_mul(10u64.pow(places))
        .and_then(|w| w.checked_add(frac_units))
        .ok_or_else(|| format!("{s} AVAX is more than 2^64 - 1 nAVAX"))
}

/// `units` of an asset with `denomination` decimal places (at most 32, the node's limit),
/// without trailing zeros.
pub fn format_units(units: u64, denomination: u32) -> String {
    if denomination == 0 {
        return units.to_string();
    }
    let units = u128::from(units);
    let scale = 10u128.pow(denomination.min(38));
    let (whole, frac) = (units / scale, units % scale);
    if frac == 0 {
        return whole.to_string();
    }
    let frac = format!("{frac:0width$}", width = denomination as usize);
    format!("{whole}.{}", frac.trim_end_matches('0'))
}

/// nAVAX as AVAX with its unit: `1.5 AVAX`.
pub fn avax(units: u64) -> String {
    format!("{} AVAX", format_units(units, 9))
}

/// Seconds of a period: `30d`, `12h`, `90m`, `45s`, `2w`, or several (`1d12h`).
pub fn parse_period(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let bad = || {
        format!(
            "`{t}` is not a period: a number and a unit, s, m, h, d or w (`30d`, `1d12h`, `90m`)"
        )
    };
    if t.is_empty() {
        return Err(bad());
    }
    let mut total: u64 = 0;
    let mut rest = t;
    while !rest.is_empty() {
        let n = rest.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 || n == rest.len() {
            return Err(bad());
        }
        let value: u64 = rest[..n].parse().map_err(|_| bad())?;
        let unit = match rest.as_bytes()[n] {
            b's' => 1,
            b'm' => 60,
            b'h' => 3600,
            b'd' => 86_400,
            b'w' => 7 * 86_400,
            _ => return Err(bad()),
        };
        total = value
            .checked_mul(unit)
            .and_then(|v| total.checked_add(v))
            .ok_or_else(|| format!("`{t}` is too long a period"))?;
        rest = &rest[n + 1..];
    }
    if total == 0 {
        return Err(format!("`{t}` is no time at all"));
    }
    Ok(total)
}

/// A timeout: a period (`30s`, `2m`) or seconds (`30`), at least a second; `0` alone is
/// zero, which the caller takes as "do not wait".
pub fn parse_timeout(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let secs = if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse().map_err(|_| format!("`{t}` is too long"))?
    } else {
        parse_period(t).map_err(|e| {
            if e.ends_with("is no time at all") {
                format!("{e}: give at least 1s, or 0 to issue without waiting")
            } else {
                e
            }
        })?
    };
    Ok(Duration::from_secs(secs))
}

/// When staking ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// This many seconds after the transaction's time.
    In(u64),
    /// At this Unix time.
    At(u64),
}

impl End {
    /// The Unix time, from the time the transaction is built for.
    pub fn at(self, now: u64) -> u64 {
        match self {
            End::In(d) => now.saturating_add(d),
            End::At(t) => t,
        }
    }
}

/// A period from now (`30d`) or a Unix time (`1767225600`).
pub fn parse_end(s: &str) -> Result<End, String> {
    let t = s.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        let at: u64 = t.parse().map_err(|_| format!("`{t}` is too large"))?;
        if at < 1_000_000_000 {
            return Err(format!(
                "{t} would be a Unix time before 2001: write a period with its unit (`{t}d`, \
                 `{t}h`) or a Unix time in seconds"
            ));
        }
        return Ok(End::At(at));
    }
    parse_period(t).map(End::In)
}

/// A delegation fee in millionths: `2%`, `2.5%`, or millionths (`20000`).
pub fn parse_shares(s: &str) -> Result<u32, String> {
    let t = s.trim();
    let millionths = match t.strip_suffix('%') {
        Some(p) => {
            let p = p.trim();
            let (whole, frac) = p.split_once('.').unwrap_or((p, ""));
            let ok = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
            if whole.is_empty() || !ok(whole) || !ok(frac) || frac.len() > 4 {
                return Err(format!(
                    "`{t}` is not a percentage with at most 4 decimal places (`2%`, `2.5%`)"
                ));
            }
            decimal(p, 4).map_err(|_| format!("`{t}` is too large"))?
        }
        None => integer(t).map_err(|_| {
            format!("`{t}` is not a delegation fee: a percentage (`2%`) or millionths (`20000`)")
        })?,
    };
    if millionths > 1_000_000 {
        return Err(format!("{t} is more than 100%"));
    }
    Ok(millionths as u32)
}

/// A period as a person reads it: `30d`, `1d12h`, `45s`.
pub fn format_period(mut secs: u64) -> String {
    if secs == 0 {
        return "0s".into();
    }
    let mut out = String::new();
    for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] {
        if secs >= size {
            out.push_str(&format!("{}{unit}", secs / size));
            secs %= size;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(text: &str, denomination: u32) -> Result<u64, String> {
        parse_amount(text)?.units(denomination, "T")
    }

    #[test]
    fn amounts_are_whole_units_of_the_denomination() {
        assert_eq!(units("1.5AVAX", 9), Ok(1_500_000_000));
        assert_eq!(units("0.25 AVAX", 9), Ok(250_000_000));
        assert_eq!(units("5", 6), Ok(5_000_000));
        assert_eq!(units(".5", 1), Ok(5));
        assert_eq!(units("7", 0), Ok(7));
        // nAVAX are base units whatever the asset's denomination.
        assert_eq!(units("250000000nAVAX", 6), Ok(250_000_000));
        // The node allows 32 decimal places: 10^32 base units per unit.
        assert_eq!(units("0.00000000000000000000000000000001", 32), Ok(1));
        assert!(units("1", 32).unwrap_err().contains("more than the most"));
        assert_eq!(units("18446744073709551615", 0), Ok(u64::MAX));
        assert!(units("18446744073709551616", 0).is_err());
        assert_eq!(
            units("0.5", 0),
            Err("0.5 T: a T has no fraction (its denomination is 0): give whole T".into())
        );
        assert_eq!(format_units(1, 32), "0.00000000000000000000000000000001");
        assert_eq!(
            format_units(u64::MAX, 32),
            "0.00000000000018446744073709551615"
        );
    }

    #[test]
    fn the_unit_after_the_number() {
        let a = parse_amount("5DVT").unwrap();
        assert_eq!((a.number(), a.other_symbol()), ("5", Some("DVT")));
        assert_eq!(parse_amount("2 avax").unwrap().other_symbol(), None);
        assert_eq!(parse_amount("3").unwrap().unit, Unit::Asset);
        assert_eq!(parse_amount("3nAVAX").unwrap().unit, Unit::NanoAvax);
        for bad in ["", ".", "5 D V T", "5DVT2", "1,5", "--5", "+-5"] {
            assert!(parse_amount(bad).is_err(), "{bad}");
        }
    }
}
