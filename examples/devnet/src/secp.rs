//! What every chain checks of a spend the same way: secp256k1fx credentials
//! (`vms/secp256k1fx/fx.go` VerifyCredentials), and the refusal they give.

use avalanche_rpc::codec::secp256k1fx;
use avalanche_rpc::keys::PublicKey;

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
        let key = PublicKey::recover(hash, sig)
            .map_err(|e| TxError(format!("`{place}` signature {k}: {e}")))?;
        if key.address() != *owner {
            return fail(format!(
                "`{place}` signature {k} is by {}, not by the owner at index {idx} ({owner})",
                key.address()
            ));
        }
    }
    Ok(())
}
