//! secp256k1 keys as the node uses them: an address is RIPEMD-160(SHA-256(the 33-byte
//! compressed public key)); a signature is 65 bytes `r ‖ s ‖ v` over a 32-byte hash (the
//! SHA-256 of the unsigned transaction bytes), with RFC 6979 nonces and `s` in the lower half;
//! recovery refuses what the node refuses. The same key's address on the C-chain is its EVM
//! address: the last 20 bytes of Keccak-256 of the 64-byte uncompressed public key. Feature
//! `keys` (RustCrypto `k256`, `ripemd` and `sha3`).

use std::fmt;
use std::str::FromStr;

use k256::ecdsa::{RecoveryId, Signature, SigningKey, VerifyingKey};
use ripemd::Ripemd160;
use sha2::{Digest, Sha256};

use crate::wire::{EvmAddress, ShortId, WireError, cb58_decode, cb58_encode};

pub(crate) mod signature;
pub use signature::{compact_from_der, recoverable};

/// Why a key or a signature is refused. It never holds the text of a key: a key that does not
/// parse is refused in words of its own.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(String);

/// A secp256k1 private key, written `PrivateKey-` followed by the cb58 of its 32 bytes.
#[derive(Clone)]
pub struct PrivateKey(SigningKey);

impl PrivateKey {
    /// The key of a 32-byte scalar; zero and values past the curve order are refused.
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<PrivateKey, KeyError> {
        SigningKey::from_bytes(bytes.into())
            .map(PrivateKey)
            .map_err(|_| KeyError("not a valid secp256k1 private key".into()))
    }

    /// The 32 bytes.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0.to_bytes().into()
    }

    /// The public key.
    pub fn public_key(&self) -> PublicKey {
        PublicKey(*self.0.verifying_key())
    }

    /// The address of the public key.
    pub fn address(&self) -> ShortId {
        self.public_key().address()
    }

    /// The EVM address of the public key (the C-chain's, go-ethereum's `PubkeyToAddress`).
    pub fn evm_address(&self) -> EvmAddress {
        self.public_key().evm_address()
    }

    /// Signs a 32-byte hash: `r ‖ s ‖ v`, deterministic (RFC 6979), `s` in the lower half.
    pub fn sign_hash(&self, hash: &[u8; 32]) -> [u8; 65] {
        let (sig, recid) = match self.0.sign_prehash_recoverable(hash) {
            Ok(s) => s,
            // Signing a 32-byte prehash with a valid key does not fail.
            Err(_) => unreachable!("secp256k1 signing of a 32-byte hash"),
        };
        let (sig, recid) = match sig.normalize_s() {
            Some(low) => (
                low,
                RecoveryId::from_byte(recid.to_byte() ^ 1).unwrap_or(recid),
            ),
            None => (sig, recid),
        };
        let mut out = [0u8; 65];
        out[..64].copy_from_slice(&sig.to_bytes());
        out[64] = recid.to_byte();
        out
    }

    /// Signs SHA-256(`message`), as the node's `Sign`.
    pub fn sign(&self, message: &[u8]) -> [u8; 65] {
        self.sign_hash(&Sha256::digest(message).into())
    }
}

impl fmt::Display for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PrivateKey-{}", cb58_encode(&self.to_bytes()))
    }
}

/// Shows the address only: a private key is not printed by accident.
impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PrivateKey(address {})", self.address())
    }
}

impl FromStr for PrivateKey {
    type Err = KeyError;

    fn from_str(s: &str) -> Result<Self, KeyError> {
        let body = s
            .strip_prefix("PrivateKey-")
            .ok_or_else(|| KeyError("a private key starts with \"PrivateKey-\"".into()))?;
        // cb58's error quotes its input: a key's error says what is wrong in its own words.
        let bytes = cb58_decode(body).map_err(|_: WireError| {
            KeyError(
                "the cb58 after \"PrivateKey-\" does not decode (a character outside base58, \
                 or one mistyped, missing or extra: the checksum does not match)"
                    .into(),
            )
        })?;
        let bytes: [u8; 32] = bytes
            .as_slice()
            .try_into()
            .map_err(|_| KeyError(format!("a private key is 32 bytes, not {}", bytes.len())))?;
        PrivateKey::from_bytes(&bytes)
    }
}

/// A secp256k1 public key.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PublicKey(VerifyingKey);

impl PublicKey {
    /// The key of its 33-byte compressed form.
    pub fn from_compressed(bytes: &[u8]) -> Result<PublicKey, KeyError> {
        VerifyingKey::from_sec1_bytes(bytes)
            .map(PublicKey)
            .map_err(|_| KeyError("not a secp256k1 public key".into()))
    }

    /// The 33-byte compressed form.
    pub fn compressed(&self) -> [u8; 33] {
        let point = self.0.to_encoded_point(true);
        let mut out = [0u8; 33];
        out.copy_from_slice(point.as_bytes());
        out
    }

    /// RIPEMD-160(SHA-256(compressed key)).
    pub fn address(&self) -> ShortId {
        let sha = Sha256::digest(self.compressed());
        ShortId::new(Ripemd160::digest(sha).into())
    }

    /// The EVM address: the last 20 bytes of Keccak-256 of the uncompressed key without its
    /// `0x04` prefix (go-ethereum's `PubkeyToAddress`, the node's `EthAddress`).
    pub fn evm_address(&self) -> EvmAddress {
        use sha3::{Digest as _, Keccak256};
        let point = self.0.to_encoded_point(false);
        let hash = Keccak256::digest(&point.as_bytes()[1..]);
        let mut out = [0u8; 20];
        out.copy_from_slice(&hash[12..]);
        EvmAddress::new(out)
    }

    /// The key that made `signature` (`r ‖ s ‖ v`) over `hash`, as the node recovers it: a
    /// recovery ID of 4 or more, an `s` in the upper half (a mutated signature) and an
    /// invalid `r` or `s` are refused.
    pub fn recover(hash: &[u8; 32], signature: &[u8; 65]) -> Result<PublicKey, KeyError> {
        let v = signature[64];
        let recid = RecoveryId::from_byte(v)
            .ok_or_else(|| KeyError(format!("the recovery ID is {v}, not 0 to 3")))?;
        let sig = Signature::from_slice(&signature[..64])
            .map_err(|_| KeyError("the signature's r or s is not valid".into()))?;
        if sig.normalize_s().is_some() {
            return Err(KeyError(
                "signature was mutated from its original format (s is in the upper half)".into(),
            ));
        }
        VerifyingKey::recover_from_prehash(hash, &sig, recid)
            .map(PublicKey)
            .map_err(|_| KeyError("no public key recovers from this signature".into()))
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex: String = self
            .compressed()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        write!(f, "PublicKey({hex})")
    }
}
