//! A keychain: the secp256k1 keys a wallet signs with, read in the node's forms, and their
//! addresses. Keys are zeroized when dropped (`k256` zeroizes its signing keys; the text they
//! were read from is zeroized here) and never printed: `Debug` shows addresses only.

use std::collections::BTreeMap;
use std::fmt;

use zeroize::Zeroizing;

use crate::keys::PrivateKey;
use crate::wire::{Address, ShortId};

use super::error::BuildError;

/// The keys a wallet holds, by address.
#[derive(Clone, Default)]
pub struct Keychain {
    keys: BTreeMap<ShortId, PrivateKey>,
}

impl Keychain {
    /// An empty keychain.
    pub fn new() -> Keychain {
        Keychain::default()
    }

    /// A keychain of these keys.
    pub fn from_keys(keys: impl IntoIterator<Item = PrivateKey>) -> Keychain {
        let mut k = Keychain::new();
        for key in keys {
            k.add(key);
        }
        k
    }

    /// Adds a key; returns its address.
    pub fn add(&mut self, key: PrivateKey) -> ShortId {
        let address = key.address();
        self.keys.insert(address, key);
        address
    }

    /// Reads keys from text: one per line, each `PrivateKey-…` (cb58, as the node and
    /// AvalancheJS write them; the prefix in any case) or 64 hex digits (with or without `0x`);
    /// blank lines and lines starting with `#` are skipped, and so is a byte order mark before
    /// the first line. An error names the line and what is wrong ([`KeyProblem`]), never its
    /// content.
    pub fn parse(text: &str) -> Result<Keychain, BuildError> {
        Keychain::parse_from("keys", text)
    }

    /// [`Keychain::parse`], its errors naming `source` (`key file line 3`).
    fn parse_from(source: &str, text: &str) -> Result<Keychain, BuildError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut k = Keychain::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            k.add(parse_key(line).map_err(|problem| {
                BuildError::invalid(format!("{source} line {}", n + 1), problem.to_string())
            })?);
        }
        if k.is_empty() {
            return Err(BuildError::invalid(
                source,
                "no key found (one `PrivateKey-…` or 64 hex digits per line)",
            ));
        }
        Ok(k)
    }

    /// Reads keys from a file (see [`Keychain::parse`] and [`read_key_file`]: a regular file
    /// of at most [`KEY_FILE_LIMIT`] bytes); its text is zeroized after.
    pub fn from_file(path: &std::path::Path) -> Result<Keychain, BuildError> {
        let bytes = read_key_file(path)?;
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            BuildError::invalid(
                "key file",
                format!(
                    "{} is not UTF-8 text (byte {} is not): keys are written as text",
                    path.display(),
                    e.valid_up_to() + 1
                ),
            )
        })?;
        Keychain::parse_from("key file", text)
    }

    /// Reads keys from an environment variable (see [`Keychain::parse`]).
    pub fn from_env(name: &str) -> Result<Keychain, BuildError> {
        let text = Zeroizing::new(std::env::var(name).map_err(|_| {
            BuildError::invalid(
                name.to_string(),
                "the environment variable is not set (or not UTF-8)",
            )
        })?);
        Keychain::parse_from(&format!("environment variable {name}"), &text)
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether it holds no key.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The addresses, sorted (the order outputs and owners need).
    pub fn addresses(&self) -> Vec<ShortId> {
        self.keys.keys().copied().collect()
    }

    /// The key of an address.
    pub fn get(&self, address: &ShortId) -> Option<&PrivateKey> {
        self.keys.get(address)
    }

    /// The public keys, in the order of [`addresses`](Keychain::addresses): what the C-chain's
    /// accounts are derived from ([`c::accounts`](super::c::accounts)).
    pub fn public_keys(&self) -> Vec<crate::keys::PublicKey> {
        self.keys.values().map(PrivateKey::public_key).collect()
    }

    /// The addresses as a chain writes them (`X-local1…`, `P-fuji1…`).
    pub fn chain_addresses(&self, chain: &str, hrp: &str) -> Vec<Address> {
        self.keys
            .keys()
            .filter_map(|a| Address::new(Some(chain), hrp, *a.as_bytes()).ok())
            .collect()
    }
}

/// Shows the addresses only.
impl fmt::Debug for Keychain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Keychain")
            .field("addresses", &self.keys.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// A validator's BLS signer as transactions carry it: the public key and its proof of
/// possession. The secret key zeroizes itself on drop (`blst`) and prints only its public key.
pub fn bls_signer(key: &crate::bls::SecretKey) -> ([u8; 48], [u8; 96]) {
    (key.public_key(), key.proof_of_possession())
}

/// The largest key file read: room for a thousand keys, and a bound on what a wrong path (a
/// log, a disk image) costs.
pub const KEY_FILE_LIMIT: u64 = 64 << 10;

/// The bytes of a file of secrets (keys), zeroized when dropped: only a regular file is
/// opened (a FIFO, a device such as `/dev/zero`, a directory or a socket is refused before it
/// is read, so nothing blocks or grows), and one of more than [`KEY_FILE_LIMIT`] bytes is
/// refused. Errors name the path and what is wrong, never the content.
pub fn read_key_file(path: &std::path::Path) -> Result<Zeroizing<Vec<u8>>, BuildError> {
    use std::io::Read;
    let name = path.display();
    let fail = |problem: String| BuildError::invalid("key file", problem);
    let meta = std::fs::metadata(path).map_err(|e| fail(format!("cannot read {name}: {e}")))?;
    if !meta.is_file() {
        return Err(fail(format!(
            "{name} is {}, not a regular file: keys are read from a file only",
            file_kind(&meta.file_type())
        )));
    }
    let too_large = |len: u64| {
        fail(format!(
            "{name} is {len} bytes; a key file is at most {} KiB (one key a line): is it the \
             right file?",
            KEY_FILE_LIMIT >> 10
        ))
    };
    if meta.len() > KEY_FILE_LIMIT {
        return Err(too_large(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot read {name}: {e}")))?;
    // Checked again on what was opened: the path may have changed in between.
    let opened = file
        .metadata()
        .map_err(|e| fail(format!("cannot read {name}: {e}")))?;
    if !opened.is_file() {
        return Err(fail(format!(
            "{name} is {}, not a regular file: keys are read from a file only",
            file_kind(&opened.file_type())
        )));
    }
    // Room for the limit and one byte more, allocated once: no copy of the secret is left
    // behind by a growing buffer.
    let mut bytes = Zeroizing::new(Vec::with_capacity(KEY_FILE_LIMIT as usize + 1));
    file.take(KEY_FILE_LIMIT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > KEY_FILE_LIMIT {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// A file's type in words (`a FIFO`, `a character device`).
fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// Why a line of key text is not a key. It holds no text of the line (only counts, a
/// column and a code point that is never a key's), so no error, log or `Debug` made from it
/// can show a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyProblem {
    /// The key is in quotes (`"`, `'` or a backtick).
    Quoted,
    /// A character that is not printable ASCII (a zero-width or no-break space inside the
    /// key, a control character): its code point, and its column (1-based, in characters).
    Character {
        /// The character's Unicode code point.
        code: u32,
        /// Its column in the line, the line's leading spaces removed.
        column: usize,
    },
    /// More than one word on the line (two keys, or a comment after the key).
    Words(usize),
    /// `PrivateKey-` and text that is not cb58 (a character outside base58, or a checksum
    /// that does not match).
    Cb58,
    /// `PrivateKey-` and cb58 of this many bytes, not 32.
    Bytes(usize),
    /// Hex of this many digits, not 64.
    HexDigits(usize),
    /// 64 characters that are not all hex digits.
    NotHex,
    /// Neither `PrivateKey-…` nor hex.
    Unrecognized,
    /// 32 bytes that are not a secp256k1 private key (zero, or not below the curve's order).
    Scalar,
}

impl fmt::Display for KeyProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyProblem::Quoted => f.write_str("the key is in quotes: write it bare, one a line"),
            KeyProblem::Character { code, column } => write!(
                f,
                "holds U+{code:04X} at column {column}, not a key's character (an invisible \
                 or non-ASCII character, as copying from a web page or document may add): \
                 retype the line"
            ),
            KeyProblem::Words(n) => write!(
                f,
                "holds {n} words: one key a line and nothing after it (a comment goes on a \
                 line of its own, starting with `#`)"
            ),
            KeyProblem::Cb58 => f.write_str(
                "not a key: the cb58 after `PrivateKey-` does not decode (a character outside \
                 base58, or one mistyped, missing or extra: the checksum does not match)",
            ),
            KeyProblem::Bytes(n) => write!(
                f,
                "not a key: the cb58 after `PrivateKey-` holds {n} bytes, a key is 32"
            ),
            KeyProblem::HexDigits(n) => write!(
                f,
                "not a key: {n} hex digits, a key is 64 hex digits (32 bytes)"
            ),
            KeyProblem::NotHex => {
                f.write_str("not a key: 64 characters but not all hex digits (0-9, a-f)")
            }
            KeyProblem::Unrecognized => f.write_str(
                "not a key: expected `PrivateKey-` and cb58, or 64 hex digits (32 bytes)",
            ),
            KeyProblem::Scalar => f.write_str(
                "not a valid secp256k1 private key (zero, or not below the curve's order)",
            ),
        }
    }
}

impl std::error::Error for KeyProblem {}

/// A key in the node's form (`PrivateKey-` in any case, then cb58) or as hex (64 digits,
/// with or without `0x`), surrounding white space ignored. The error says what is wrong and
/// never holds the text.
pub fn parse_key(text: &str) -> Result<PrivateKey, KeyProblem> {
    let text = text.trim();
    if text.starts_with(['"', '\'', '`']) || text.ends_with(['"', '\'', '`']) {
        return Err(KeyProblem::Quoted);
    }
    if let Some((i, c)) = text
        .chars()
        .enumerate()
        .find(|(_, c)| !(c.is_ascii_graphic() || *c == ' ' || *c == '\t'))
    {
        return Err(KeyProblem::Character {
            code: u32::from(c),
            column: i + 1,
        });
    }
    let words = text.split_ascii_whitespace().count();
    if words > 1 {
        return Err(KeyProblem::Words(words));
    }
    const PREFIX: &str = "PrivateKey-";
    if text.len() >= PREFIX.len()
        && text.as_bytes()[..PREFIX.len()].eq_ignore_ascii_case(PREFIX.as_bytes())
    {
        let bytes = Zeroizing::new(
            crate::wire::cb58_decode(&text[PREFIX.len()..]).map_err(|_| KeyProblem::Cb58)?,
        );
        let bytes: &[u8; 32] = bytes
            .as_slice()
            .try_into()
            .map_err(|_| KeyProblem::Bytes(bytes.len()))?;
        return PrivateKey::from_bytes(bytes).map_err(|_| KeyProblem::Scalar);
    }
    let hex = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    let all_hex = hex.bytes().all(|b| b.is_ascii_hexdigit());
    match (all_hex, hex.len()) {
        (true, 64) => {}
        (true, n) => return Err(KeyProblem::HexDigits(n)),
        (false, 64) => return Err(KeyProblem::NotHex),
        (false, _) => return Err(KeyProblem::Unrecognized),
    }
    let mut bytes = Zeroizing::new([0u8; 32]);
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|_| KeyProblem::NotHex)?;
    }
    PrivateKey::from_bytes(&bytes).map_err(|_| KeyProblem::Scalar)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The local network's funded key (public).
    const EWOQ: &str = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";

    #[test]
    fn reads_both_forms_and_never_prints_a_key() {
        let hex = "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027";
        let k = Keychain::parse(&format!("# funded\n{EWOQ}\n\n0x{hex}\n")).unwrap();
        // Both lines are the same key.
        assert_eq!(k.len(), 1);
        let shown = format!("{k:?}");
        assert!(!shown.contains("ewoq") && !shown.contains(hex), "{shown}");
        assert_eq!(
            k.chain_addresses("X", "local")[0].to_string(),
            "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
        );
        let err = Keychain::parse("PrivateKey-notakey\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 1") && !err.contains("notakey"), "{err}");
        let err = Keychain::parse("abcd").unwrap_err().to_string();
        assert!(
            err.contains("64 hex digits") && !err.contains("abcd"),
            "{err}"
        );
        assert!(Keychain::parse("# nothing\n").is_err());
    }

    #[test]
    fn a_line_that_is_not_a_key_is_named_and_never_quoted() {
        let hex = "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027";
        let body = &EWOQ["PrivateKey-".len()..];
        let cases: Vec<(String, &str)> = vec![
            (
                format!("{EWOQ} # the funded key of the local network"),
                "9 words",
            ),
            (format!("{EWOQ}\""), "in quotes"),
            (format!("\"{EWOQ}\""), "in quotes"),
            (format!("{EWOQ}\u{200b}"), "U+200B at column 61"),
            (format!("PrivateKey-\u{a0}{body}"), "U+00A0 at column 12"),
            (format!("{EWOQ} {EWOQ}"), "2 words"),
            (format!("{EWOQ}\t0x{hex}"), "2 words"),
            (
                format!("{}\r{}", &EWOQ[..30], &EWOQ[30..]),
                "U+000D at column 31",
            ),
            (EWOQ.to_lowercase(), "does not decode"),
            (EWOQ[..40].to_string(), "does not decode"),
            (format!("{EWOQ}{body}"), "does not decode"),
            (hex[..50].to_string(), "50 hex digits"),
            (format!("0x{hex}00"), "66 hex digits"),
            (format!("{}zz", &hex[..62]), "not all hex digits"),
            (
                format!("{hex}{}", "x".repeat(5000)),
                "expected `PrivateKey-`",
            ),
        ];
        for (line, says) in &cases {
            let text = format!("# keys\n\n{line}\n");
            let err = Keychain::parse(&text).unwrap_err().to_string();
            assert!(
                err.contains("line 3") && err.contains(says),
                "{says}: {err}"
            );
            for secret in [body, hex] {
                for at in 0..=secret.len() - 20 {
                    let run = &secret[at..at + 20];
                    assert!(
                        !err.to_lowercase().contains(&run.to_lowercase()),
                        "{says}: {err}"
                    );
                }
            }
            // Debug of the problem holds no text either.
            let problem = parse_key(line).unwrap_err();
            assert!(!format!("{problem:?}").contains(&body[..20]));
        }
        // Accepted: a byte order mark, CRLF, the prefix in another case, a no-break space
        // around the key (white space), upper-case hex.
        for text in [
            format!("\u{feff}{EWOQ}\r\n"),
            format!("privatekey-{body}\n"),
            format!("\u{a0}{EWOQ}\u{a0}\n"),
            format!("0X{}", hex.to_uppercase()),
        ] {
            let k = Keychain::parse(&text).unwrap();
            assert_eq!(k.len(), 1);
        }
    }

    #[test]
    fn a_key_file_is_a_bounded_regular_file() {
        let dir = std::env::temp_dir().join(format!("keychain-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.txt");
        std::fs::write(&big, vec![b'#'; KEY_FILE_LIMIT as usize + 1]).unwrap();
        let err = Keychain::from_file(&big).unwrap_err().to_string();
        assert!(err.contains("at most 64 KiB"), "{err}");
        let err = Keychain::from_file(&dir).unwrap_err().to_string();
        assert!(err.contains("a directory, not a regular file"), "{err}");
        #[cfg(unix)]
        {
            let err = Keychain::from_file(std::path::Path::new("/dev/zero"))
                .unwrap_err()
                .to_string();
            assert!(err.contains("a character device"), "{err}");
        }
        let bin = dir.join("bin.txt");
        std::fs::write(&bin, [0xff, 0xfe, b'a']).unwrap();
        let err = Keychain::from_file(&bin).unwrap_err().to_string();
        assert!(err.contains("not UTF-8 text (byte 1"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
