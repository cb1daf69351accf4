//! Signing where the keys are: a [`Signer`] is anything that signs a transaction's digest
//! for an address (a [`Keychain`] in memory, a hardware wallet, a KMS or HSM, an MPC
//! service, a co-signer's machine), and [`Unsigned::sign_with`](super::Unsigned::sign_with)
//! fills every slot any of them can sign, whatever the mix.
//!
//! Signers outside the process seldom answer in the node's form. [`ExternalSigner`] adapts
//! them: given the digest (`ExternalSigner::digest`) or the unsigned bytes to hash themselves
//! with SHA-256 (`ExternalSigner::message`), they may answer 65 bytes `r ‖ s ‖ v`, 64 bytes
//! `r ‖ s`, or ASN.1 DER; the answer is normalized (`s` in the lower half, the recovery ID
//! found by trying each) and checked to recover to the slot's address before it is used.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::keys::{compact_from_der, recoverable};
use crate::wire::ShortId;

use super::keychain::Keychain;

/// What a signer is asked to sign.
#[derive(Debug, Clone)]
pub struct SignRequest {
    /// The SHA-256 of `message`: what the node checks the signature against.
    pub digest: [u8; 32],
    /// The unsigned transaction's bytes (codec version, type, value).
    pub message: Arc<[u8]>,
    /// The address whose key must sign.
    pub address: ShortId,
}

/// Why a signer did not sign. Its text is the signer's own words: a signer must keep key
/// material out of them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SignerError(pub String);

impl SignerError {
    /// An error in these words.
    pub fn new(words: impl std::fmt::Display) -> SignerError {
        SignerError(words.to_string())
    }
}

/// What [`Signer::sign`] returns: the 65-byte signature `r ‖ s ‖ v` in the node's form.
pub type SignFuture<'a> = Pin<Box<dyn Future<Output = Result<[u8; 65], SignerError>> + Send + 'a>>;

/// Something that signs transaction digests for some addresses.
pub trait Signer: Send + Sync {
    /// Whether it holds the key of `address` (asked before [`sign`](Signer::sign), so a
    /// transaction signed by several signers asks each only for its own slots).
    fn signs_for(&self, address: &ShortId) -> bool;

    /// The signature of `request.digest` by `request.address`'s key: 65 bytes `r ‖ s ‖ v`,
    /// `s` in the lower half.
    fn sign(&self, request: SignRequest) -> SignFuture<'_>;
}

impl Signer for Keychain {
    fn signs_for(&self, address: &ShortId) -> bool {
        self.get(address).is_some()
    }

    fn sign(&self, request: SignRequest) -> SignFuture<'_> {
        let signed = self
            .get(&request.address)
            .map(|k| k.sign_hash(&request.digest))
            .ok_or_else(|| SignerError::new(format!("no key of {} here", request.address)));
        Box::pin(std::future::ready(signed))
    }
}

/// What an [`ExternalSigner`] hands its function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Input {
    /// The 32-byte digest.
    Digest,
    /// The unsigned bytes, which the signer hashes with SHA-256 itself.
    Message,
}

/// A signer outside this process, through a function: a hardware wallet, a KMS or HSM, an MPC
/// service. The function gets the digest or the message, as the signer wants it, and answers
/// the signature as the signer writes it (65 bytes `r ‖ s ‖ v`, 64 bytes `r ‖ s`, or ASN.1
/// DER); the answer is made the node's form and checked against the slot's address.
pub struct ExternalSigner<F> {
    addresses: Vec<ShortId>,
    input: Input,
    sign: F,
}

impl<F, Fut> ExternalSigner<F>
where
    F: Fn(Vec<u8>) -> Fut + Send + Sync,
    Fut: Future<Output = Result<Vec<u8>, SignerError>> + Send + 'static,
{
    /// A signer of the keys of `addresses` that signs a 32-byte digest (what AWS KMS with
    /// `MessageType: DIGEST`, PKCS#11's `CKM_ECDSA` and most hardware wallets take).
    pub fn digest(addresses: Vec<ShortId>, sign: F) -> ExternalSigner<F> {
        ExternalSigner {
            addresses,
            input: Input::Digest,
            sign,
        }
    }

    /// A signer of the keys of `addresses` that wants the unhashed message and hashes it with
    /// SHA-256 itself (AWS KMS with `MessageType: RAW` and `ECDSA_SHA_256`, signing services
    /// that prehash).
    pub fn message(addresses: Vec<ShortId>, sign: F) -> ExternalSigner<F> {
        ExternalSigner {
            addresses,
            input: Input::Message,
            sign,
        }
    }
}

impl<F> std::fmt::Debug for ExternalSigner<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExternalSigner")
            .field("addresses", &self.addresses)
            .field("input", &self.input)
            .finish_non_exhaustive()
    }
}

/// A signature as an outside signer writes it, in the node's form for `address`.
pub fn normalize(
    digest: &[u8; 32],
    answer: &[u8],
    address: &ShortId,
) -> Result<[u8; 65], SignerError> {
    let compact: [u8; 64] = match answer.len() {
        // r ‖ s ‖ v: the recovery ID is worked out again (some signers add 27 to it, and it
        // changes when s is moved to the lower half).
        65 | 64 => answer[..64].try_into().expect("64 bytes"),
        _ => compact_from_der(answer).map_err(|e| {
            SignerError::new(format!(
                "the signer's answer is {} bytes, neither 64 or 65 bytes of r ‖ s (‖ v) nor DER: {e}",
                answer.len()
            ))
        })?,
    };
    recoverable(digest, &compact, address).map_err(SignerError::new)
}

impl<F, Fut> Signer for ExternalSigner<F>
where
    F: Fn(Vec<u8>) -> Fut + Send + Sync,
    Fut: Future<Output = Result<Vec<u8>, SignerError>> + Send + 'static,
{
    fn signs_for(&self, address: &ShortId) -> bool {
        self.addresses.contains(address)
    }

    fn sign(&self, request: SignRequest) -> SignFuture<'_> {
        let given = match self.input {
            Input::Digest => request.digest.to_vec(),
            Input::Message => request.message.to_vec(),
        };
        let answer = (self.sign)(given);
        Box::pin(async move { normalize(&request.digest, &answer.await?, &request.address) })
    }
}
