//! BLS12-381 keys as the node's validators use them: 48-byte compressed G1 public keys,
//! 96-byte compressed G2 signatures, proofs of possession over the public key, and message
//! signatures (Warp), with the node's ciphersuites. Feature `bls` (`blst`).

use blst::BLST_ERROR;
use blst::min_pk::{PublicKey as BlstPublicKey, SecretKey as BlstSecretKey, Signature};

/// The ciphersuite of message signatures.
pub const SIGNATURE_DST: &[u8] = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";
/// The ciphersuite of proofs of possession.
pub const POP_DST: &[u8] = b"BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";

/// Why a key or a signature is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BlsError(String);

/// A BLS secret key.
#[derive(Clone)]
pub struct SecretKey(BlstSecretKey);

impl SecretKey {
    /// The key of its 32 big-endian bytes (a non-zero scalar below the group order).
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<SecretKey, BlsError> {
        BlstSecretKey::from_bytes(bytes)
            .map(SecretKey)
            .map_err(|e| BlsError(format!("not a BLS secret key: {e:?}")))
    }

    /// A key derived from at least 32 bytes of keying material (IKM).
    pub fn from_seed(ikm: &[u8]) -> Result<SecretKey, BlsError> {
        BlstSecretKey::key_gen(ikm, &[])
            .map(SecretKey)
            .map_err(|e| BlsError(format!("cannot derive a BLS key: {e:?}")))
    }

    /// The 32 bytes.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0.to_bytes()
    }

    /// The compressed public key.
    pub fn public_key(&self) -> [u8; 48] {
        self.0.sk_to_pk().compress()
    }

    /// The proof of possession: the signature of the compressed public key under [`POP_DST`].
    pub fn proof_of_possession(&self) -> [u8; 96] {
        self.0.sign(&self.public_key(), POP_DST, &[]).compress()
    }

    /// The signature of `message` under [`SIGNATURE_DST`].
    pub fn sign(&self, message: &[u8]) -> [u8; 96] {
        self.0.sign(message, SIGNATURE_DST, &[]).compress()
    }
}

/// Shows the public key only.
impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hex: String = self
            .public_key()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        write!(f, "SecretKey(public key {hex})")
    }
}

fn verify(
    public_key: &[u8; 48],
    signature: &[u8; 96],
    message: &[u8],
    dst: &[u8],
) -> Result<(), BlsError> {
    let pk = BlstPublicKey::key_validate(public_key)
        .map_err(|e| BlsError(format!("not a valid BLS public key: {e:?}")))?;
    let sig = Signature::sig_validate(signature, true)
        .map_err(|e| BlsError(format!("not a valid BLS signature: {e:?}")))?;
    match sig.verify(true, message, dst, &[], &pk, true) {
        BLST_ERROR::BLST_SUCCESS => Ok(()),
        e => Err(BlsError(format!("the signature does not verify: {e:?}"))),
    }
}

/// The 96-byte uncompressed form of a compressed public key: what the node orders a Warp
/// validator set by (`snow/validators/warp.go`, `PublicKeyToUncompressedBytes`).
pub fn uncompressed_public_key(public_key: &[u8; 48]) -> Result<[u8; 96], BlsError> {
    BlstPublicKey::from_bytes(public_key)
        .map(|k| k.serialize())
        .map_err(|e| BlsError(format!("not a BLS public key: {e:?}")))
}

/// Checks a proof of possession of `public_key`, as the node does for validators.
pub fn verify_proof_of_possession(public_key: &[u8; 48], proof: &[u8; 96]) -> Result<(), BlsError> {
    verify(public_key, proof, public_key, POP_DST)
}

/// Checks the signature of `message` by `public_key`.
pub fn verify_signature(
    public_key: &[u8; 48],
    signature: &[u8; 96],
    message: &[u8],
) -> Result<(), BlsError> {
    verify(public_key, signature, message, SIGNATURE_DST)
}

/// The aggregate of compressed public keys (each validated), as Warp verification sums the
/// signers' keys.
pub fn aggregate_public_keys(keys: &[[u8; 48]]) -> Result<[u8; 48], BlsError> {
    let keys = keys
        .iter()
        .map(|k| {
            BlstPublicKey::key_validate(k)
                .map_err(|e| BlsError(format!("not a valid BLS public key: {e:?}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&BlstPublicKey> = keys.iter().collect();
    blst::min_pk::AggregatePublicKey::aggregate(&refs, false)
        .map(|a| a.to_public_key().compress())
        .map_err(|e| BlsError(format!("cannot aggregate the public keys: {e:?}")))
}

/// The aggregate of compressed signatures (each validated), as a Warp signature is made.
pub fn aggregate_signatures(signatures: &[[u8; 96]]) -> Result<[u8; 96], BlsError> {
    let sigs = signatures
        .iter()
        .map(|s| {
            Signature::sig_validate(s, true)
                .map_err(|e| BlsError(format!("not a valid BLS signature: {e:?}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&Signature> = sigs.iter().collect();
    blst::min_pk::AggregateSignature::aggregate(&refs, false)
        .map(|a| a.to_signature().compress())
        .map_err(|e| BlsError(format!("cannot aggregate the signatures: {e:?}")))
}

#[cfg(test)]
mod aggregate_tests {
    use super::*;

    #[test]
    fn an_aggregate_signature_verifies_under_the_aggregate_key() {
        let keys: Vec<SecretKey> = (1..=3u8)
            .map(|i| SecretKey::from_seed(&[i; 32]).unwrap())
            .collect();
        let message = b"warp";
        let pk = aggregate_public_keys(&keys.iter().map(SecretKey::public_key).collect::<Vec<_>>())
            .unwrap();
        let sig = aggregate_signatures(&keys.iter().map(|k| k.sign(message)).collect::<Vec<_>>())
            .unwrap();
        verify_signature(&pk, &sig, message).unwrap();
        // Two of the three signatures do not verify under the three keys.
        let two = aggregate_signatures(&[keys[0].sign(message), keys[1].sign(message)]).unwrap();
        assert!(verify_signature(&pk, &two, message).is_err());
        assert!(aggregate_public_keys(&[[0; 48]]).is_err());
        assert!(aggregate_public_keys(&[]).is_err());
    }
}
