//! What every chain checks of a spend the same way: secp256k1fx credentials
//! (`vms/secp256k1fx/fx.go` VerifyCredentials), and the refusal they give.

use avalanche_rpc::codec::secp256k1fx;
use avalanche_rpc::keys::PublicKey;
use avalanche_rpc::wire::ShortId;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// How many recovered signers are remembered.
const RECOVERED_CAPACITY: usize = 1 << 16;

/// The signer a signature of `hash` recovers to, remembered as the node's `RecoverCache`
/// does: a transaction's signatures are checked when it is issued and again when its block
/// is built, and the second time is a lookup. When full, the memory starts over.
fn recover(hash: &[u8; 32], sig: &[u8; 65]) -> Result<ShortId, String> {
    type Memory = Mutex<HashMap<([u8; 32], [u8; 65]), ShortId>>;
    static RECOVERED: OnceLock<Memory> = OnceLock::new();
    let memory = RECOVERED.get_or_init(Mutex::default);
    if let Some(a) = memory.lock().expect("recover cache").get(&(*hash, *sig)) {
        return Ok(*a);
    }
    let address = PublicKey::recover(hash, sig)
        .map_err(|e| e.to_string())?
        .address();
    let mut m = memory.lock().expect("recover cache");
    if m.len() >= RECOVERED_CAPACITY {
        m.clear();
    }
    m.insert((*hash, *sig), address);
    Ok(address)
}

/// Why a transaction was refused: one sentence naming the place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxError(pub String);

impl std::fmt::Display for TxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub fn fail<T>(msg: impl Into<String>) -> Result<T, TxError> {
    Err(TxError(msg.into()))
}

/// Why a secp256k1fx credential does not authorize a spend (`vms/secp256k1fx/fx.go`
/// VerifyCredentials), with the place it was found at; its text is the refusal's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureError {
    /// The output is locked past the block's time.
    Locked {
        place: String,
        until: u64,
        time: u64,
    },
    /// The input names as many signers as the threshold asks, not this many.
    Indices {
        place: String,
        given: usize,
        threshold: u32,
    },
    /// The credential does not carry one signature per index.
    Count {
        place: String,
        signatures: usize,
        indices: usize,
    },
    /// An index past the owners' addresses.
    Index {
        place: String,
        index: u32,
        addresses: usize,
    },
    /// A signature no public key recovers from.
    Unrecoverable {
        place: String,
        k: usize,
        why: String,
    },
    /// A signature by someone else than the owner its index names.
    Signer {
        place: String,
        k: usize,
        by: ShortId,
        index: u32,
        owner: ShortId,
    },
}

impl std::fmt::Display for SignatureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SignatureError::Locked { place, until, time } => write!(
                f,
                "`{place}` spends an output locked until {until} (block time {time})"
            ),
            SignatureError::Indices {
                place,
                given,
                threshold,
            } => write!(
                f,
                "`{place}` gives {given} signature indices, but the output's threshold is {threshold}"
            ),
            SignatureError::Count {
                place,
                signatures,
                indices,
            } => write!(
                f,
                "`{place}`'s credential has {signatures} signatures for {indices} signature indices"
            ),
            SignatureError::Index {
                place,
                index,
                addresses,
            } => write!(
                f,
                "`{place}` signature index {index} is past the output's {addresses} addresses"
            ),
            SignatureError::Unrecoverable { place, k, why } => {
                write!(f, "`{place}` signature {k}: {why}")
            }
            SignatureError::Signer {
                place,
                k,
                by,
                index,
                owner,
            } => write!(
                f,
                "`{place}` signature {k} is by {by}, not by the owner at index {index} ({owner})"
            ),
        }
    }
}

impl From<SignatureError> for TxError {
    fn from(e: SignatureError) -> Self {
        TxError(e.to_string())
    }
}

/// `vms/secp256k1fx/fx.go` VerifyCredentials: `cred` signs `hash` for `owners` at the
/// signer `indices`, at block time `time`.
pub fn check_signatures(
    owners: &secp256k1fx::OutputOwners,
    indices: &[u32],
    cred: &secp256k1fx::Credential,
    hash: &[u8; 32],
    time: u64,
    place: &str,
) -> Result<(), SignatureError> {
    let place = || place.to_string();
    if owners.locktime > time {
        return Err(SignatureError::Locked {
            place: place(),
            until: owners.locktime,
            time,
        });
    }
    if indices.len() != owners.threshold as usize {
        return Err(SignatureError::Indices {
            place: place(),
            given: indices.len(),
            threshold: owners.threshold,
        });
    }
    if cred.signatures.len() != indices.len() {
        return Err(SignatureError::Count {
            place: place(),
            signatures: cred.signatures.len(),
            indices: indices.len(),
        });
    }
    for (k, (&index, sig)) in indices.iter().zip(&cred.signatures).enumerate() {
        let Some(owner) = owners.addresses.get(index as usize) else {
            return Err(SignatureError::Index {
                place: place(),
                index,
                addresses: owners.addresses.len(),
            });
        };
        let by = recover(hash, sig).map_err(|why| SignatureError::Unrecoverable {
            place: place(),
            k,
            why,
        })?;
        if by != *owner {
            return Err(SignatureError::Signer {
                place: place(),
                k,
                by,
                index,
                owner: *owner,
            });
        }
    }
    Ok(())
}

/// An owner's threshold and address count as `secp256k1fx.OutputOwners.Verify` checks them:
/// a threshold the addresses can meet, no addresses without a threshold.
pub fn check_threshold(threshold: u32, addresses: usize, place: &str) -> Result<(), TxError> {
    if threshold as usize > addresses {
        return fail(format!(
            "`{place}.threshold` is {threshold} but it has {addresses} addresses: it could never be spent"
        ));
    }
    if threshold == 0 && addresses > 0 {
        return fail(format!(
            "`{place}` has addresses but a threshold of 0; leave the addresses out"
        ));
    }
    Ok(())
}
