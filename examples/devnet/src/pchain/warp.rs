//! Warp messages as the P-chain reads them (ACP-77): a signed message, the AddressedCall it
//! carries and the L1 message inside; its aggregate signature checked against the canonical
//! validator set of the source chain's Subnet (`warp.GetCanonicalValidatorSetFromChainID`,
//! quorum 67 %); and signing one as the validators the devnet runs would (what a signature
//! aggregator does on a real network).

use super::{stakers, subnets};
use crate::secp::{TxError, fail};
use crate::store::{Reader, StoreError};
use avalanche_rpc::bls::SecretKey;
use avalanche_rpc::codec::{Writer, warp, warp_l1, warp_payload};
use avalanche_rpc::wire::Id;
use std::collections::BTreeMap;

/// The share of the validator set's weight that must sign.
pub const QUORUM: (u64, u64) = (67, 100);

/// A validator set as Warp signatures index it: the validators with BLS keys sorted by key
/// (validators sharing a key merged), and the weight of the whole set.
#[derive(Debug, Clone, Default)]
pub struct Canonical {
    pub validators: Vec<([u8; 48], u64)>,
    pub total: u64,
}

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
    let mut by_key: BTreeMap<[u8; 48], u64> = BTreeMap::new();
    let mut total = 0u64;
    for (weight, pk) in set.values() {
        total = total.saturating_add(*weight);
        if let Some(pk) = pk {
            let w = by_key.entry(*pk).or_default();
            *w = w.saturating_add(*weight);
        }
    }
    Ok(Canonical {
        validators: by_key.into_iter().collect(),
        total,
    })
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
pub fn parse(bytes: &[u8]) -> Result<Parsed, TxError> {
    let message = warp::Message::from_bytes(bytes)
        .map_err(|e| TxError(format!("`unsignedTx.message` is not a Warp message: {e}")))?;
    let payload = warp_payload::Payload::from_bytes(&message.payload).map_err(|e| {
        TxError(format!(
            "`unsignedTx.message`'s payload is not a Warp payload: {e}"
        ))
    })?;
    let warp_payload::Payload::AddressedCall(call) = payload else {
        return fail("`unsignedTx.message`'s payload is not an AddressedCall");
    };
    let l1 = warp_l1::L1Message::from_bytes(&call.payload).map_err(|e| {
        TxError(format!(
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
fn signers(bits: &[u8], n: usize) -> Result<Vec<usize>, TxError> {
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
pub fn verify(parsed: &Parsed, network_id: u32, set: &Canonical) -> Result<(), TxError> {
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
        .map_err(|e| TxError(format!("`unsignedTx.message`'s signers: {e}")))?;
    let unsigned = unsigned_bytes(m.network_id, &m.source_chain_id, &m.payload);
    avalanche_rpc::bls::verify_signature(&key, &sig.signature, &unsigned)
        .map_err(|e| TxError(format!("`unsignedTx.message`'s signature: {e}")))
}

/// Signs `payload` from `source_chain` with every key of `set` that `held` has: the signed
/// message's bytes, or why the keys held are not enough.
pub fn sign(
    network_id: u32,
    source_chain: &Id,
    payload: Vec<u8>,
    set: &Canonical,
    held: &[&SecretKey],
) -> Result<Vec<u8>, String> {
    let unsigned = unsigned_bytes(network_id, source_chain, &payload);
    let mut bits = vec![0u8; set.validators.len().div_ceil(8)];
    let mut signatures = Vec::new();
    let mut weight = 0u64;
    for (i, (pk, w)) in set.validators.iter().enumerate() {
        if let Some(k) = held.iter().find(|k| k.public_key() == *pk) {
            let len = bits.len();
            bits[len - 1 - i / 8] |= 1 << (i % 8);
            signatures.push(k.sign(&unsigned));
            weight = weight.saturating_add(*w);
        }
    }
    if u128::from(weight) * u128::from(QUORUM.1) < u128::from(set.total) * u128::from(QUORUM.0) {
        return Err(format!(
            "the devnet holds the keys of {weight} of the source Subnet's weight {}, less than the {} % a Warp message needs",
            set.total, QUORUM.0
        ));
    }
    while bits.first() == Some(&0) {
        bits.remove(0);
    }
    let signature =
        avalanche_rpc::bls::aggregate_signatures(&signatures).map_err(|e| e.to_string())?;
    warp::Message::new(
        network_id,
        *source_chain,
        payload,
        warp::BitSetSignature::new(bits, signature).into(),
    )
    .to_bytes()
    .map_err(|e| e.to_string())
}
