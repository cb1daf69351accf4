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
    /// AvalancheJS write them) or 64 hex digits (with or without `0x`); blank lines and lines
    /// starting with `#` are skipped. An error names the line, never its content.
    pub fn parse(text: &str) -> Result<Keychain, BuildError> {
        let mut k = Keychain::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            k.add(parse_key(line).map_err(|problem| {
                BuildError::invalid(format!("key file line {}", n + 1), problem)
            })?);
        }
        if k.is_empty() {
            return Err(BuildError::invalid(
                "keys",
                "no key found (one `PrivateKey-…` or 64 hex digits per line)",
            ));
        }
        Ok(k)
    }

    /// Reads keys from a file (see [`Keychain::parse`]); its text is zeroized after.
    pub fn from_file(path: &std::path::Path) -> Result<Keychain, BuildError> {
        let text = Zeroizing::new(std::fs::read_to_string(path).map_err(|e| {
            BuildError::invalid("key file", format!("cannot read {}: {e}", path.display()))
        })?);
        Keychain::parse(&text)
    }

    /// Reads keys from an environment variable (see [`Keychain::parse`]).
    pub fn from_env(name: &str) -> Result<Keychain, BuildError> {
        let text = Zeroizing::new(std::env::var(name).map_err(|_| {
            BuildError::invalid(
                name.to_string(),
                "the environment variable is not set (or not UTF-8)",
            )
        })?);
        Keychain::parse(&text)
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

/// A key in the node's form or as hex; the error never repeats the text.
pub fn parse_key(text: &str) -> Result<PrivateKey, String> {
    let text = text.trim();
    if text.starts_with("PrivateKey-") {
        return text.parse().map_err(|e: crate::keys::KeyError| {
            let problem = e.to_string();
            // A cb58 error may quote the text; the key's text is never repeated.
            if problem.contains(&text["PrivateKey-".len()..]) || text.len() < 12 {
                "not a key: the cb58 after `PrivateKey-` is invalid (a bad character or checksum)"
                    .to_string()
            } else {
                problem
            }
        });
    }
    let hex = text.strip_prefix("0x").unwrap_or(text);
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(
            "not a key: expected `PrivateKey-` and cb58, or 64 hex digits (32 bytes)".into(),
        );
    }
    let mut bytes = Zeroizing::new([0u8; 32]);
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16)
            .map_err(|_| "not a key: a non-hex digit".to_string())?;
    }
    PrivateKey::from_bytes(&bytes).map_err(|e| e.to_string())
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
}
