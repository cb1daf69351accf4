//! What every chain checks of a spend the same way: secp256k1fx credentials
//! (`vms/secp256k1fx/fx.go` VerifyCredentials), and the refusal they give.

use avalanche_rpc::codec::secp256k1fx;
use avalanche_rpc::keys::PublicKey;
use avalanche_rpc::wire::ShortId;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// How many recovered signers are remembered: the node's `RecoverCache` holds 256 per chain's
/// secp256k1fx (`vms/secp256k1fx/fx.go` defaultCacheSize), and the devnet's two chains share
/// this one.
const RECOVERED_CAPACITY: usize = 2 * 256;

/// The signer a signature of `hash` recovers to, remembered as the node's `RecoverCache`
/// does: a transaction's signatures are checked when it is issued and again when its block
/// is built, and the second time is a lookup.
fn recover(hash: &[u8; 32], sig: &[u8; 65]) -> Result<ShortId, String> {
    static RECOVERED: Mutex<Recovered> = Mutex::new(Recovered::new(RECOVERED_CAPACITY));
    if let Some(a) = RECOVERED.lock().expect("recover cache").get(hash, sig) {
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
type Signed = ([u8; 32], [u8; 65]);

/// Recovered signers, at most `capacity` of them: when full, the one remembered the longest
/// is forgotten for the next. Every transaction's signatures pass through here, so what is
/// kept must not grow with the chain.
struct Recovered {
    capacity: usize,
    signers: Option<HashMap<Signed, ShortId>>,
    /// The keys of `signers`, the oldest first.
    order: VecDeque<Signed>,
}

impl Recovered {
    const fn new(capacity: usize) -> Recovered {
        Recovered {
            capacity,
            signers: None,
            order: VecDeque::new(),
        }
    }

    fn get(&self, hash: &[u8; 32], sig: &[u8; 65]) -> Option<ShortId> {
        self.signers.as_ref()?.get(&(*hash, *sig)).copied()
    }

    fn insert(&mut self, hash: [u8; 32], sig: [u8; 65], signer: ShortId) {
        let signers = self
            .signers
            .get_or_insert_with(|| HashMap::with_capacity(self.capacity));
        if signers.insert((hash, sig), signer).is_some() {
            return;
        }
        self.order.push_back((hash, sig));
        if self.order.len() > self.capacity
            && let Some(oldest) = self.order.pop_front()
        {
            signers.remove(&oldest);
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.signers.as_ref().map_or(0, HashMap::len)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn signed(n: u32) -> ([u8; 32], [u8; 65]) {
        let mut hash = [0; 32];
        hash[..4].copy_from_slice(&n.to_be_bytes());
        (hash, [7; 65])
    }

    #[test]
    fn recovered_signers_stay_bounded_and_keep_the_newest() {
        let mut r = Recovered::new(4);
        for n in 0..1_000 {
            let (hash, sig) = signed(n);
            r.insert(hash, sig, ShortId::new([n as u8; 20]));
            assert!(r.len() <= 4, "{} signers after {n}", r.len());
            assert!(r.order.len() <= 4);
        }
        for n in 996..1_000 {
            let (hash, sig) = signed(n);
            assert_eq!(r.get(&hash, &sig), Some(ShortId::new([n as u8; 20])));
        }
        let (hash, sig) = signed(995);
        assert_eq!(r.get(&hash, &sig), None);
        // The same signature again takes no second place.
        let (hash, sig) = signed(999);
        r.insert(hash, sig, ShortId::new([0; 20]));
        assert_eq!(r.len(), 4);
        assert_eq!(r.order.len(), 4);
        let (hash, sig) = signed(996);
        assert!(r.get(&hash, &sig).is_some());
    }
}
