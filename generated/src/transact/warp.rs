//! The Warp messages an L1's validator manager emits, for its validators to sign (through a
//! signature aggregator; on the devnet, `devnet.signWarpMessage`) and a RegisterL1ValidatorTx
//! or SetL1ValidatorWeightTx to carry.

use crate::codec::{Writer, warp, warp_l1, warp_payload};
use crate::wire::Id;

use super::error::BuildError;

/// The unsigned Warp message (`warp.UnsignedMessage`: codec version 0, network ID, source
/// chain, payload) of an AddressedCall from `address` on `chain` carrying `message`.
pub fn l1_message(
    network_id: u32,
    chain: Id,
    address: &[u8],
    message: &warp_l1::L1Message,
) -> Result<Vec<u8>, BuildError> {
    let encode = |e: crate::codec::RuleError| BuildError::Encode(e.to_string());
    let inner = message.to_bytes().map_err(encode)?;
    let payload =
        warp_payload::Payload::AddressedCall(warp::AddressedCall::new(address.to_vec(), inner))
            .to_bytes()
            .map_err(encode)?;
    let mut w = Writer::new();
    w.u16(0);
    w.u32(network_id);
    w.id(&chain);
    w.bytes(&payload).map_err(encode)?;
    Ok(w.into_bytes())
}

/// The validation ID of a registration: SHA-256 of its RegisterL1Validator message's bytes.
pub fn validation_id(registration: &warp_l1::L1Message) -> Result<Id, BuildError> {
    registration
        .to_bytes()
        .map(|b| Id::from_sha256(&b))
        .map_err(|e| BuildError::Encode(e.to_string()))
}

/// The share of a validator set's weight whose signatures make a Warp message valid
/// (`warp.WarpQuorumNumerator` / `WarpQuorumDenominator`: 67 %).
pub const QUORUM: (u64, u64) = (67, 100);

/// A validator set as Warp signatures index it (`warp.GetCanonicalValidatorSet`): the
/// validators with BLS keys sorted by the key's uncompressed form (`snow/validators/warp.go`
/// compares `PublicKeyToUncompressedBytes`), validators sharing a key merged; and the weight of
/// the whole set, keyless validators included.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CanonicalSet {
    /// (compressed BLS public key, weight), ordered by the key's uncompressed form: bit i of a
    /// signature's signer set is the i-th.
    pub validators: Vec<([u8; 48], u64)>,
    /// The weight of every validator of the set.
    pub total: u64,
}

impl CanonicalSet {
    /// The canonical form of a set given as (BLS key if any, weight) per validator, in any
    /// order (as `platform.getValidatorsAt` lists them).
    pub fn new(members: impl IntoIterator<Item = (Option<[u8; 48]>, u64)>) -> CanonicalSet {
        let mut by_key: std::collections::BTreeMap<[u8; 48], u64> = Default::default();
        let mut total = 0u64;
        for (key, weight) in members {
            total = total.saturating_add(weight);
            if let Some(key) = key {
                let w = by_key.entry(key).or_default();
                *w = w.saturating_add(weight);
            }
        }
        let mut validators: Vec<([u8; 48], u64)> = by_key.into_iter().collect();
        // A key that does not decompress (which no validator has: the P-chain checks each
        // key's proof of possession) sorts last, by its compressed form.
        validators.sort_by_cached_key(|(k, _)| {
            (
                crate::bls::uncompressed_public_key(k).unwrap_or([0xff; 96]),
                *k,
            )
        });
        CanonicalSet { validators, total }
    }
}

/// Signs the unsigned Warp message `unsigned` (as [`l1_message`] writes it) with each key of
/// `held` that is a validator of `set`, and returns the signed message (`warp.Message` with a
/// `BitSetSignature`): what a signature aggregator returns. Fails when the keys held carry
/// less than [`QUORUM`] of the set's weight, when `unsigned` is not an unsigned Warp message,
/// or when a key cannot sign.
pub fn sign(
    unsigned: &[u8],
    set: &CanonicalSet,
    held: &[&crate::bls::SecretKey],
) -> Result<Vec<u8>, BuildError> {
    let mut r = crate::codec::Reader::new(unsigned);
    let (version, network_id, source_chain, payload) = (|| {
        let parts = (r.u16()?, r.u32()?, r.id()?, r.bytes()?);
        r.finish()?;
        Ok::<_, crate::codec::DecodeError>(parts)
    })()
    .map_err(|e| invalid("unsigned", format!("not an unsigned Warp message: {e}")))?;
    if version != 0 {
        return Err(invalid(
            "unsigned",
            format!("not an unsigned Warp message: codec version {version}, not 0"),
        ));
    }
    let mut bits = vec![0u8; set.validators.len().div_ceil(8)];
    let mut signatures = Vec::new();
    let mut weight = 0u64;
    for (i, (key, w)) in set.validators.iter().enumerate() {
        if let Some(k) = held.iter().find(|k| k.public_key() == *key) {
            let len = bits.len();
            bits[len - 1 - i / 8] |= 1 << (i % 8);
            signatures.push(k.sign(unsigned));
            weight = weight.saturating_add(*w);
        }
    }
    if set.total == 0 {
        return Err(invalid(
            "set",
            "the validator set is empty (at that height the Subnet has no validators yet?)".into(),
        ));
    }
    if signatures.is_empty()
        || u128::from(weight) * u128::from(QUORUM.1) < u128::from(set.total) * u128::from(QUORUM.0)
    {
        return Err(invalid(
            "held",
            format!(
                "the keys carry {weight} of the validator set's weight {}, less than the {} % a Warp message needs",
                set.total, QUORUM.0
            ),
        ));
    }
    while bits.first() == Some(&0) {
        bits.remove(0);
    }
    let signature = crate::bls::aggregate_signatures(&signatures)
        .map_err(|e| invalid("held", format!("the signatures do not aggregate: {e}")))?;
    warp::Message::new(
        network_id,
        source_chain,
        payload,
        warp::BitSetSignature::new(bits, signature).into(),
    )
    .to_bytes()
    .map_err(|e| BuildError::Encode(e.to_string()))
}

fn invalid(field: &str, problem: String) -> BuildError {
    BuildError::Invalid {
        field: field.into(),
        problem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bls::{self, SecretKey};

    fn keys() -> Vec<SecretKey> {
        (1..=3u8)
            .map(|i| SecretKey::from_seed(&[i; 32]).unwrap())
            .collect()
    }

    #[test]
    fn a_message_signed_by_a_quorum_verifies_against_the_signers_in_canonical_order() {
        let k = keys();
        // Given in any order, one validator without a key: the set sorts by key.
        let set = CanonicalSet::new([
            (Some(k[2].public_key()), 30),
            (None, 10),
            (Some(k[0].public_key()), 40),
            (Some(k[1].public_key()), 20),
        ]);
        assert_eq!(set.total, 100);
        let uncompressed = |k: &[u8; 48]| bls::uncompressed_public_key(k).unwrap();
        assert!(
            set.validators
                .windows(2)
                .all(|w| uncompressed(&w[0].0) < uncompressed(&w[1].0))
        );
        let unsigned = l1_message(
            12345,
            Id::new([7; 32]),
            &[0x42; 20],
            &warp_l1::L1Message::L1ValidatorWeight(warp::L1ValidatorWeight::new(
                Id::new([1; 32]),
                0,
                5,
            )),
        )
        .unwrap();
        // 40 + 30 of 100: 70 %.
        let signed = sign(&unsigned, &set, &[&k[0], &k[2]]).unwrap();
        let m = warp::Message::from_bytes(&signed).unwrap();
        assert_eq!((m.network_id, m.source_chain_id), (12345, Id::new([7; 32])));
        let warp::Signature::BitSetSignature(sig) = &m.signature;
        let at = |key: [u8; 48]| set.validators.iter().position(|v| v.0 == key).unwrap();
        let bits: u8 = (1 << at(k[0].public_key())) | (1 << at(k[2].public_key()));
        assert_eq!(sig.signers, vec![bits]);
        let key = bls::aggregate_public_keys(&[k[0].public_key(), k[2].public_key()]).unwrap();
        bls::verify_signature(&key, &sig.signature, &unsigned).unwrap();
        // The signed message is the unsigned one followed by the signature.
        assert_eq!(&signed[..unsigned.len()], unsigned.as_slice());
    }

    #[test]
    fn the_set_is_ordered_by_the_uncompressed_key_as_the_nodes() {
        // Two keys whose compressed and uncompressed forms order differently: the node's
        // order is the uncompressed one (`snow/validators/warp.go`, `Compare`).
        let all: Vec<[u8; 48]> = (1..=64u8)
            .map(|i| SecretKey::from_seed(&[i; 32]).unwrap().public_key())
            .collect();
        let uncompressed = |k: &[u8; 48]| bls::uncompressed_public_key(k).unwrap();
        let (a, b) = all
            .iter()
            .flat_map(|a| all.iter().map(move |b| (*a, *b)))
            .find(|(a, b)| a < b && uncompressed(a) > uncompressed(b))
            .expect("a pair whose two forms order differently");
        let set = CanonicalSet::new([(Some(a), 1), (Some(b), 1)]);
        assert_eq!(set.validators, vec![(b, 1), (a, 1)]);
    }

    #[test]
    fn too_little_weight_an_empty_set_or_bytes_that_are_no_message_are_refused() {
        let k = keys();
        let set = CanonicalSet::new([(Some(k[0].public_key()), 66), (Some(k[1].public_key()), 34)]);
        let unsigned = l1_message(
            1,
            Id::ZERO,
            &[],
            &warp_l1::L1Message::L1ValidatorWeight(warp::L1ValidatorWeight::new(Id::ZERO, 0, 1)),
        )
        .unwrap();
        let e = sign(&unsigned, &set, &[&k[0]]).unwrap_err().to_string();
        assert!(
            e.contains("carry 66 of the validator set's weight 100"),
            "{e}"
        );
        let e = sign(&unsigned, &set, &[&k[2]]).unwrap_err().to_string();
        assert!(e.contains("carry 0 of"), "{e}");
        let e = sign(&unsigned, &CanonicalSet::default(), &[&k[0]])
            .unwrap_err()
            .to_string();
        assert!(e.contains("the validator set is empty"), "{e}");
        let e = sign(&unsigned[..10], &set, &[&k[0]])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("`unsigned`: not an unsigned Warp message"),
            "{e}"
        );
        assert!(sign(&unsigned, &set, &[&k[0], &k[1]]).is_ok());
    }
}
