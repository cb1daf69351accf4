//! Signing: an unsigned transaction knows which addresses sign each of its credentials
//! (the inputs', then the operations' or the authorization's), so every key of a keychain
//! that owns one signs it. Signing may be partial: sign what you hold, hand the transaction
//! on, and let the other owners sign theirs (AvalancheJS's `addTxSignatures`); a missing
//! signature is 65 zero bytes in the bytes handed on, as AvalancheJS writes it.

use crate::codec::{avm, nftfx, platform, propertyfx, secp256k1fx};
use crate::wire::{Id, ShortId};

use super::error::SignError;
use super::keychain::Keychain;
use super::signer::{SignRequest, Signer};

/// The credential type a credential is written with (X-chain operations sign with their
/// fx's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CredentialKind {
    /// `secp256k1fx.Credential`: inputs, secp256k1 mints, every P-chain credential.
    Secp256k1,
    /// `nftfx.Credential`: NFT mints and transfers.
    Nft,
    /// `propertyfx.Credential`: property mints and burns.
    Property,
}

/// A chain's unsigned transaction type and how its signed form is assembled.
pub trait Signable: Clone {
    /// The signed transaction.
    type Signed;
    /// The unsigned bytes (codec version, type, value) whose SHA-256 is signed.
    fn unsigned_bytes(&self) -> Result<Vec<u8>, String>;
    /// The signed transaction with these credentials.
    fn assemble(&self, credentials: Vec<(CredentialKind, Vec<[u8; 65]>)>) -> Self::Signed;
}

impl Signable for avm::UnsignedTx {
    type Signed = avm::Tx;

    fn unsigned_bytes(&self) -> Result<Vec<u8>, String> {
        self.to_bytes().map_err(|e| e.to_string())
    }

    fn assemble(&self, credentials: Vec<(CredentialKind, Vec<[u8; 65]>)>) -> avm::Tx {
        let credentials = credentials
            .into_iter()
            .map(|(kind, sigs)| {
                avm::FxCredential::new(match kind {
                    CredentialKind::Secp256k1 => secp256k1fx::Credential::new(sigs).into(),
                    CredentialKind::Nft => nftfx::Credential::new(sigs).into(),
                    CredentialKind::Property => propertyfx::Credential::new(sigs).into(),
                })
            })
            .collect();
        avm::Tx::new(self.clone(), credentials)
    }
}

impl Signable for platform::UnsignedTx {
    type Signed = platform::Tx;

    fn unsigned_bytes(&self) -> Result<Vec<u8>, String> {
        self.to_bytes().map_err(|e| e.to_string())
    }

    fn assemble(&self, credentials: Vec<(CredentialKind, Vec<[u8; 65]>)>) -> platform::Tx {
        let credentials = credentials
            .into_iter()
            .map(|(_, sigs)| secp256k1fx::Credential::new(sigs).into())
            .collect();
        platform::Tx::new(self.clone(), credentials)
    }
}

/// The signers of one credential.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signers {
    /// How the credential is written.
    pub kind: CredentialKind,
    /// The addresses that sign it, in signature order.
    pub addresses: Vec<ShortId>,
}

/// A built transaction, not yet (or partly) signed, with the fee it pays.
#[derive(Debug, Clone)]
pub struct Unsigned<U: Signable> {
    tx: U,
    fee: u64,
    burned: u64,
    signers: Vec<Signers>,
    signatures: Vec<Vec<Option<[u8; 65]>>>,
}

impl<U: Signable> Unsigned<U> {
    /// A transaction with its credentials' signers (in credential order), the fee the node
    /// charges for it and the AVAX it burns (at least the fee).
    pub fn new(tx: U, signers: Vec<Signers>, fee: u64, burned: u64) -> Unsigned<U> {
        let signatures = signers
            .iter()
            .map(|s| vec![None; s.addresses.len()])
            .collect();
        Unsigned {
            tx,
            fee,
            burned,
            signers,
            signatures,
        }
    }

    /// The unsigned transaction.
    pub fn tx(&self) -> &U {
        &self.tx
    }

    /// The fee as the node computes it (X: the static fee; P: gas × the context's price).
    pub fn fee(&self) -> u64 {
        self.fee
    }

    /// The AVAX the transaction burns: inputs (and imports) minus outputs (and exports, stake
    /// and balances). At least the fee; more when a change output would have cost more than
    /// it returned.
    pub fn burned(&self) -> u64 {
        self.burned
    }

    /// Who signs each credential.
    pub fn signers(&self) -> &[Signers] {
        &self.signers
    }

    /// The signatures so far, per credential in signature order (`None` while missing).
    pub fn signatures(&self) -> &[Vec<Option<[u8; 65]>>] {
        &self.signatures
    }

    /// The unsigned bytes.
    pub fn bytes(&self) -> Result<Vec<u8>, SignError> {
        self.tx.unsigned_bytes().map_err(SignError::Encode)
    }

    /// Signs every slot whose address the keychain holds; returns how many it signed.
    pub fn sign(&mut self, keys: &Keychain) -> Result<usize, SignError> {
        let hash = *Id::from_sha256(&self.bytes()?).as_bytes();
        let mut n = 0;
        for (s, sigs) in self.signers.iter().zip(self.signatures.iter_mut()) {
            for (a, slot) in s.addresses.iter().zip(sigs.iter_mut()) {
                if slot.is_none()
                    && let Some(k) = keys.get(a)
                {
                    *slot = Some(k.sign_hash(&hash));
                    n += 1;
                }
            }
        }
        Ok(n)
    }

    /// Signs every empty slot one of `signers` signs for (the first that does, asked in
    /// order, one slot at a time); returns how many it signed. Each signature must recover
    /// to its slot's address over this transaction's digest, or it is refused (naming the
    /// address); a signer's refusal stops it there, the slots signed so far kept.
    pub async fn sign_with(&mut self, signers: &[&dyn Signer]) -> Result<usize, SignError> {
        let message: std::sync::Arc<[u8]> = self.bytes()?.into();
        let digest = *Id::from_sha256(&message).as_bytes();
        let mut n = 0;
        for (s, sigs) in self.signers.iter().zip(self.signatures.iter_mut()) {
            for (a, slot) in s.addresses.iter().zip(sigs.iter_mut()) {
                let Some(signer) = signers.iter().find(|x| x.signs_for(a)) else {
                    continue;
                };
                if slot.is_some() {
                    continue;
                }
                let request = SignRequest {
                    digest,
                    message: message.clone(),
                    address: *a,
                };
                let refused = |reason: String| SignError::Signer {
                    address: a.to_string(),
                    reason,
                };
                let sig = signer.sign(request).await.map_err(|e| refused(e.0))?;
                let by = crate::keys::PublicKey::recover(&digest, &sig).map(|k| k.address());
                if by.as_ref() != Ok(a) {
                    return Err(refused(
                        "its signature does not recover to the address over this transaction"
                            .into(),
                    ));
                }
                *slot = Some(sig);
                n += 1;
            }
        }
        Ok(n)
    }

    /// The addresses whose signatures are still missing, one per missing slot.
    pub fn missing(&self) -> Vec<ShortId> {
        self.signers
            .iter()
            .zip(&self.signatures)
            .flat_map(|(s, sigs)| {
                s.addresses
                    .iter()
                    .zip(sigs)
                    .filter(|(_, sig)| sig.is_none())
                    .map(|(a, _)| *a)
            })
            .collect()
    }

    /// The signed transaction; an error lists who has not signed.
    pub fn signed(&self) -> Result<U::Signed, SignError> {
        let missing = self.missing();
        if !missing.is_empty() {
            let mut addresses: Vec<String> = missing.iter().map(|a| a.to_string()).collect();
            addresses.dedup();
            return Err(SignError::Missing {
                missing: missing.len(),
                addresses,
            });
        }
        Ok(self.partial())
    }

    /// The transaction as signed so far, a missing signature written as 65 zero bytes: what
    /// to hand on to the other signers.
    pub fn partial(&self) -> U::Signed {
        let creds = self
            .signers
            .iter()
            .zip(&self.signatures)
            .map(|(s, sigs)| (s.kind, sigs.iter().map(|s| s.unwrap_or([0; 65])).collect()))
            .collect();
        self.tx.assemble(creds)
    }

    /// Takes the signatures of the same transaction signed elsewhere (its credentials, in
    /// order), keeping those already here; a zero signature is a missing one. Each one taken
    /// must be its slot's address's signature of these bytes; returns how many it took.
    pub fn merge(&mut self, credentials: &[Vec<[u8; 65]>]) -> Result<usize, SignError> {
        let hash = *Id::from_sha256(&self.bytes()?).as_bytes();
        let mut n = 0;
        for (c, ((s, mine), theirs)) in self
            .signers
            .iter()
            .zip(self.signatures.iter_mut())
            .zip(credentials)
            .enumerate()
        {
            for (i, ((a, slot), sig)) in s
                .addresses
                .iter()
                .zip(mine.iter_mut())
                .zip(theirs)
                .enumerate()
            {
                if slot.is_some() || *sig == [0; 65] {
                    continue;
                }
                let signer = crate::keys::PublicKey::recover(&hash, sig).map(|k| k.address());
                if signer.as_ref() != Ok(a) {
                    return Err(SignError::Foreign {
                        credential: c,
                        index: i,
                        expected: a.to_string(),
                    });
                }
                *slot = Some(*sig);
                n += 1;
            }
        }
        Ok(n)
    }
}
