//! What every chain checks of a spend the same way: secp256k1fx credentials
//! (`vms/secp256k1fx/fx.go` VerifyCredentials), and the node's words for what they refuse.

use crate::refusal::{Refusal, fail};
use avalanche_rpc::codec::secp256k1fx;
use avalanche_rpc::keys::PublicKey;
use avalanche_rpc::wire::ShortId;
use std::collections::HashMap;
use std::sync::Mutex;

/// How many recovered signers are remembered at most. An entry is taken when it is used (a
/// signature is checked when its transaction is issued and once more when its block is
/// built), so what is kept is the signatures of transactions still pending: a few thousand
/// under the throughput example's rounds of 2,000 transfers on each of two sides, a handful
/// under a steady load. The cap only bounds the signatures of transactions never built
/// (dropped, or refused at build): past it, the older half is forgotten. The node's
/// `RecoverCache` keeps 256 per chain (`vms/secp256k1fx/fx.go`), forgotten by age only.
const RECOVERED_CAPACITY: usize = 8_192;

/// The signer a signature of `hash` recovers to, remembered between the check when its
/// transaction is issued and the check when its block is built, which is a lookup.
fn recover(hash: &[u8; 32], sig: &[u8; 65]) -> Result<ShortId, String> {
    static RECOVERED: Mutex<Recovered> = Mutex::new(Recovered::new(RECOVERED_CAPACITY));
    if let Some(a) = RECOVERED.lock().expect("recover cache").take(hash, sig) {
        return Ok(a);
    }
    let address = PublicKey::recover(hash, sig)
        .map_err(|e| e.to_string())?
        .address();
    RECOVERED
        .lock()
        .expect("recover cache")
        .insert(*hash, *sig, address);
    Ok(address)
}

/// A signature: the hash signed and the recoverable signature.
type Signature = ([u8; 32], [u8; 65]);

/// Recovered signers not yet used again, at most `capacity` of them, each with the order it
/// came in. Every transaction's signatures pass through here, so what is kept must not grow
/// with the chain.
struct Recovered {
    capacity: usize,
    signers: Option<HashMap<Signature, (ShortId, u64)>>,
    /// How many were ever inserted: the next one's order.
    inserted: u64,
}

impl Recovered {
    const fn new(capacity: usize) -> Recovered {
        Recovered {
            capacity,
            signers: None,
            inserted: 0,
        }
    }

    /// The signer of a signature recovered before, which is then forgotten.
    fn take(&mut self, hash: &[u8; 32], sig: &[u8; 65]) -> Option<ShortId> {
        let signers = self.signers.as_mut()?;
        signers.remove(&(*hash, *sig)).map(|(signer, _)| signer)
    }

    fn insert(&mut self, hash: [u8; 32], sig: [u8; 65], signer: ShortId) {
        let signers = self.signers.get_or_insert_with(HashMap::new);
        if signers.len() >= self.capacity {
            // Full of signatures never used again: the older half goes, once per half a
            // capacity of insertions.
            let keep_from = self.inserted.saturating_sub(self.capacity as u64 / 2);
            signers.retain(|_, (_, order)| *order >= keep_from);
        }
        signers.insert((hash, sig), (signer, self.inserted));
        self.inserted += 1;
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.signers.as_ref().map_or(0, HashMap::len)
    }
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

/// The node's words for each (`vms/secp256k1fx/fx.go:28-33`, `:199`), the place as detail.
impl From<SignatureError> for Refusal {
    fn from(e: SignatureError) -> Self {
        let words = match &e {
            SignatureError::Locked { .. } => "output is time locked".to_string(),
            SignatureError::Indices {
                given, threshold, ..
            } if *given > *threshold as usize => "input has more signers than expected".into(),
            SignatureError::Indices { .. } => "input has less signers than expected".into(),
            SignatureError::Count { .. } => {
                "input expected a different number of signers than provided in the credential"
                    .into()
            }
            SignatureError::Index { .. } => {
                "input referenced a nonexistent address in the output".into()
            }
            SignatureError::Unrecoverable { .. } => return Refusal::new(e.to_string()),
            SignatureError::Signer { by, owner, .. } => {
                format!("wrong signature: expected signature from {owner} but got from {by}")
            }
        };
        Refusal::node(words, e.to_string())
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
pub fn check_threshold(threshold: u32, addresses: usize, place: &str) -> Result<(), Refusal> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn signed(n: u32) -> ([u8; 32], [u8; 65]) {
        let mut hash = [0; 32];
        hash[..4].copy_from_slice(&n.to_be_bytes());
        (hash, [7; 65])
    }

    #[test]
    fn recovered_signers_stay_bounded_keep_the_newest_and_are_taken_once() {
        let mut r = Recovered::new(4);
        for n in 0..1_000 {
            let (hash, sig) = signed(n);
            r.insert(hash, sig, ShortId::new([n as u8; 20]));
            assert!(r.len() <= 4, "{} signers after {n}", r.len());
        }
        // The newest is kept; the oldest of the last full set went.
        let (hash, sig) = signed(999);
        assert_eq!(r.take(&hash, &sig), Some(ShortId::new([999u32 as u8; 20])));
        let (hash, sig) = signed(990);
        assert_eq!(r.take(&hash, &sig), None);
        // Used once, it is gone: the second check of a transaction is its last.
        let (hash, sig) = signed(999);
        assert_eq!(r.take(&hash, &sig), None);
        // Signatures used as they come never fill it.
        let mut r = Recovered::new(4);
        for n in 0..1_000 {
            let (hash, sig) = signed(n);
            r.insert(hash, sig, ShortId::new([1; 20]));
            assert_eq!(r.take(&hash, &sig), Some(ShortId::new([1; 20])));
            assert_eq!(r.len(), 0);
        }
    }
}
