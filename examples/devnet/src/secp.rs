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

/// `vms/secp256k1fx/fx.go` VerifyCredentials.
pub fn check_signatures(
    owners: &secp256k1fx::OutputOwners,
    indices: &[u32],
    cred: &secp256k1fx::Credential,
    hash: &[u8; 32],
    time: u64,
    place: &str,
) -> Result<(), TxError> {
    if owners.locktime > time {
        return fail(format!(
            "`{place}` spends an output locked until {} (block time {time})",
            owners.locktime
        ));
    }
    if indices.len() != owners.threshold as usize {
        return fail(format!(
            "`{place}` gives {} signature indices, but the output's threshold is {}",
            indices.len(),
            owners.threshold
        ));
    }
    if cred.signatures.len() != indices.len() {
        return fail(format!(
            "`{place}`'s credential has {} signatures for {} signature indices",
            cred.signatures.len(),
            indices.len()
        ));
    }
    for (k, (&idx, sig)) in indices.iter().zip(&cred.signatures).enumerate() {
        let Some(owner) = owners.addresses.get(idx as usize) else {
            return fail(format!(
                "`{place}` signature index {idx} is past the output's {} addresses",
                owners.addresses.len()
            ));
        };
        let signer =
            recover(hash, sig).map_err(|e| TxError(format!("`{place}` signature {k}: {e}")))?;
        if signer != *owner {
            return fail(format!(
                "`{place}` signature {k} is by {signer}, not by the owner at index {idx} ({owner})"
            ));
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
