//! Warp messages as the P-chain reads them (ACP-77): a signed message, the AddressedCall it
//! carries and the L1 message inside; its aggregate signature checked against the canonical
//! validator set of the source chain's Subnet (`warp.GetCanonicalValidatorSetFromChainID`,
//! quorum 67 %). Signing one is the crate's (`avalanche_rpc::transact::warp::sign`), as a
//! signature aggregator would, with the keys of the validators the devnet runs.

use super::{stakers, subnets};
use crate::refusal::{Refusal, fail};
use crate::store::{Reader, StoreError};
use avalanche_rpc::codec::{Writer, warp, warp_l1, warp_payload};
use avalanche_rpc::wire::Id;

pub use avalanche_rpc::transact::warp::{CanonicalSet as Canonical, QUORUM};

/// The Subnet that validates `chain` (the P-chain's is the Primary Network).
pub fn subnet_of<R: Reader>(r: &R, chain: &Id) -> Result<Option<Id>, StoreError> {
    if *chain == Id::ZERO {
        return Ok(Some(Id::ZERO));
    }
    Ok(subnets::create_chain(r, chain)?.map(|c| c.subnet_id))
}

/// The canonical validator set of `subnet` after the block at `height`.
pub fn canonical<R: Reader>(r: &R, subnet: &Id, height: u64) -> Result<Canonical, StoreError> {
    let set = stakers::validators_at(r, subnet, height)?;
    Ok(Canonical::new(
        set.values().map(|(weight, pk)| (*pk, *weight)),
    ))
}

/// The bytes a Warp signature signs: the unsigned message (codec version, network, source
/// chain, payload).
pub fn unsigned_bytes(network_id: u32, source_chain: &Id, payload: &[u8]) -> Vec<u8> {
    let mut w = Writer::new();
    w.u16(0);
    w.u32(network_id);
    w.id(source_chain);
    w.bytes(payload).expect("a payload fits a length prefix");
    w.into_bytes()
}

/// A signed message with what it carries.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub message: warp::Message,
    pub source_address: Vec<u8>,
    pub l1: warp_l1::L1Message,
    /// The L1 message's bytes (a RegisterL1Validator's hash is its validation ID).
    pub l1_bytes: Vec<u8>,
}

/// Parses `bytes` (a tx's `message`) down to the L1 message.
pub fn parse(bytes: &[u8]) -> Result<Parsed, Refusal> {
    let message = warp::Message::from_bytes(bytes)
        .map_err(|e| Refusal::new(format!("`unsignedTx.message` is not a Warp message: {e}")))?;
    let payload = warp_payload::Payload::from_bytes(&message.payload).map_err(|e| {
        Refusal::new(format!(
            "`unsignedTx.message`'s payload is not a Warp payload: {e}"
        ))
    })?;
    let warp_payload::Payload::AddressedCall(call) = payload else {
        return fail("`unsignedTx.message`'s payload is not an AddressedCall");
    };
    let l1 = warp_l1::L1Message::from_bytes(&call.payload).map_err(|e| {
        Refusal::new(format!(
            "`unsignedTx.message`'s AddressedCall does not carry an L1 message: {e}"
        ))
    })?;
    Ok(Parsed {
        message,
        source_address: call.source_address,
        l1,
        l1_bytes: call.payload,
    })
}

/// The signers a bit set names (`set.BitsFromBytes`: a minimal big-endian number whose bit i
/// is validator i), refused when it names validators past `n` or is not minimal.
fn signers(bits: &[u8], n: usize) -> Result<Vec<usize>, Refusal> {
    if bits.first() == Some(&0) {
        return fail("`unsignedTx.message`'s signers bit set is not minimal (a leading zero byte)");
    }
    let mut out = Vec::new();
    for (k, byte) in bits.iter().rev().enumerate() {
        for b in 0..8 {
            if byte & (1 << b) != 0 {
                let i = k * 8 + b;
                if i >= n {
                    return fail(format!(
                        "`unsignedTx.message`'s signers name validator {i}, but the set has {n}"
                    ));
                }
                out.push(i);
            }
        }
    }
    Ok(out)
}

/// Checks the message's network and aggregate signature against `set`
/// (`BitSetSignature.Verify`).
pub fn verify(parsed: &Parsed, network_id: u32, set: &Canonical) -> Result<(), Refusal> {
    let m = &parsed.message;
    if m.network_id != network_id {
        return fail(format!(
            "`unsignedTx.message` is for network {}, not {network_id}",
            m.network_id
        ));
    }
    let warp::Signature::BitSetSignature(sig) = &m.signature else {
        return fail("`unsignedTx.message` has an unknown signature type");
    };
    let who = signers(&sig.signers, set.validators.len())?;
    let weight = who
        .iter()
        .map(|i| set.validators[*i].1)
        .fold(0u64, u64::saturating_add);
    if u128::from(weight) * u128::from(QUORUM.1) < u128::from(set.total) * u128::from(QUORUM.0) {
        return fail(format!(
            "`unsignedTx.message` is signed by {weight} of the source Subnet's weight {}, less than {} %",
            set.total, QUORUM.0
        ));
    }
    let keys: Vec<[u8; 48]> = who.iter().map(|i| set.validators[*i].0).collect();
    let key = avalanche_rpc::bls::aggregate_public_keys(&keys)
        .map_err(|e| Refusal::new(format!("`unsignedTx.message`'s signers: {e}")))?;
    let unsigned = unsigned_bytes(m.network_id, &m.source_chain_id, &m.payload);
    avalanche_rpc::bls::verify_signature(&key, &sig.signature, &unsigned)
        .map_err(|e| Refusal::new(format!("`unsignedTx.message`'s signature: {e}")))
}
