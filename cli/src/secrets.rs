//! Keeping keys out of the command line and out of what the tool writes.
//!
//! Two mechanisms, each in one place:
//!
//! - [`screen`] looks at every argument before anything parses them (clap's errors quote
//!   values): one that holds `PrivateKey-` (in any case) or a run of exactly 64 hex digits
//!   (32 bytes, with or without `0x`) is refused without being repeated, naming its position
//!   and the flag before it. A 64-digit run is refused wherever it appears: it cannot be told
//!   from a key. Nothing this tool takes needs one: IDs and addresses are cb58 and bech32;
//!   transactions, messages, signatures and BLS keys in hex are longer. (A `hex` param of
//!   exactly 32 bytes, such as a memo, is refused too: the price of never echoing a key.)
//! - [`report`] writes an error line with [`redact`]: every run of 40 or more hex digits (a
//!   part of a key given where a value goes, echoed by an error) and every `PrivateKey-…`
//!   is hidden. Errors never need such runs: they name flags, fields and offsets, and IDs
//!   are cb58. Standard output is left as it is (decoded transactions hold long hex).
//!
//! Keys read from files or the environment never reach an error in the first place: their
//! parser's error type holds no text (`avalanche_rpc::transact::keychain::KeyProblem`).

use std::borrow::Cow;
use std::ffi::OsString;

/// The shape of a key found in an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `PrivateKey-…`, in any case.
    Named,
    /// A run of exactly 64 hex digits.
    Hex,
}

const PREFIX: &[u8] = b"privatekey-";

/// Whether `text` holds a key's shape: `PrivateKey-` in any case, or a run of exactly 64
/// hex digits (bounded by anything but a hex digit: `0x`, quotes, spaces, letters).
pub fn key_shape(text: &str) -> Option<Shape> {
    let b = text.as_bytes();
    if b.windows(PREFIX.len())
        .any(|w| w.eq_ignore_ascii_case(PREFIX))
    {
        return Some(Shape::Named);
    }
    hex_runs(b).any(|(_, len)| len == 64).then_some(Shape::Hex)
}

/// The maximal runs of ASCII hex digits in `b`: (start, length).
fn hex_runs(b: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() && !b[i].is_ascii_hexdigit() {
            i += 1;
        }
        if i == b.len() {
            return None;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_hexdigit() {
            i += 1;
        }
        Some((start, i - start))
    })
}

/// Refuses arguments that hold a key, before anything reads them: the message names the
/// argument's position and the flag it follows, never its text.
pub fn screen(args: impl IntoIterator<Item = OsString>) -> Result<(), String> {
    let args: Vec<String> = args
        .into_iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    for (i, arg) in args.iter().enumerate() {
        let Some(shape) = key_shape(arg) else {
            continue;
        };
        // `--flag=value`: the flag; else the flag before, if the argument follows one.
        let flag = arg
            .split_once('=')
            .map(|(f, _)| f)
            .filter(|f| is_flag(f))
            .or_else(|| {
                i.checked_sub(1)
                    .map(|p| args[p].as_str())
                    .filter(|f| is_flag(f))
            });
        let place = match flag {
            Some(f) => format!("argument {} (after {f})", i + 1),
            None => format!("argument {}", i + 1),
        };
        let what = match shape {
            Shape::Named => "a private key (`PrivateKey-…`)",
            Shape::Hex => {
                "64 hex digits, the form of a private key (32 bytes of hex are refused \
                 anywhere, as they cannot be told from a key)"
            }
        };
        return Err(format!(
            "{place} holds {what}: keys are never taken on the command line, where the \
             process list and shell history show them; put it in a file (--key-file PATH) or \
             an environment variable (--key-env NAME, AVAX_PRIVATE_KEY by default)"
        ));
    }
    Ok(())
}

/// A flag's name as written (`--to`, `-o`), safe to repeat.
fn is_flag(s: &str) -> bool {
    s.starts_with('-')
        && s.len() <= 40
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// `text` with every run of 40 or more hex digits and every `PrivateKey-…` hidden.
pub fn redact(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    // Byte ranges to hide, in order, and what replaces each.
    let mut hide: Vec<(usize, usize, String)> = Vec::new();
    let mut i = 0;
    while i + PREFIX.len() <= b.len() {
        if b[i..i + PREFIX.len()].eq_ignore_ascii_case(PREFIX) {
            let end = i
                + PREFIX.len()
                + b[i + PREFIX.len()..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .count();
            hide.push((i, end, "PrivateKey-[hidden]".into()));
            i = end;
        } else {
            i += 1;
        }
    }
    for (start, len) in hex_runs(b) {
        if len >= 40 && !hide.iter().any(|(s, e, _)| start < *e && *s < start + len) {
            hide.push((start, start + len, format!("[{len} hex digits hidden]")));
        }
    }
    if hide.is_empty() {
        return Cow::Borrowed(text);
    }
    hide.sort_by_key(|(s, _, _)| *s);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (s, e, with) in hide {
        out.push_str(&text[at..s]);
        out.push_str(&with);
        at = e;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// Writes an error line to standard error, [`redact`]ed.
pub fn report(line: &str) {
    eprintln!("{}", redact(line));
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027";

    #[test]
    fn finds_a_key_in_any_of_its_shapes() {
        for text in [
            "PrivateKey-abc".to_string(),
            "x privatekey-".to_string(),
            HEX.to_string(),
            format!("0x{HEX}"),
            format!("\"{HEX}\""),
            format!("\u{200b}{HEX}zz"),
            format!("{{\"key\":\"{}\"}}", HEX.to_uppercase()),
        ] {
            assert!(key_shape(&text).is_some(), "{text}");
        }
        // Longer hex (a transaction), shorter hex, IDs: not a key's shape.
        for text in [
            format!("0x{HEX}00"),
            HEX[..63].to_string(),
            "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM".to_string(),
        ] {
            assert_eq!(key_shape(&text), None, "{text}");
        }
    }

    #[test]
    fn screen_names_the_place_never_the_key() {
        let args = ["wallet", "send", "--to", HEX].map(OsString::from);
        let err = screen(args).unwrap_err();
        assert!(err.contains("argument 4 (after --to)"), "{err}");
        assert!(!err.contains(&HEX[..20]), "{err}");
        let args = ["call", "x", &format!("--params={{\"k\":\"0x{HEX}\"}}")].map(OsString::from);
        let err = screen(args).unwrap_err();
        assert!(err.contains("argument 3 (after --params)"), "{err}");
    }

    #[test]
    fn redact_hides_long_hex_and_named_keys() {
        let text = format!(
            "`--to`: `{}` is not an address; PrivateKey-abcDEF1 and 0x1234",
            &HEX[..45]
        );
        let r = redact(&text);
        assert_eq!(
            r,
            "`--to`: `[45 hex digits hidden]` is not an address; PrivateKey-[hidden] and 0x1234"
        );
        assert!(matches!(redact("nothing here"), Cow::Borrowed(_)));
    }
}
