//! The benchmark data, built deterministically from a seed through the generated types'
//! constructors; the hand-written structs are derived from the same values, and
//! [`Fixtures::check`] asserts that both serialize to the same bytes.

use avalanche_rpc::avm;
use avalanche_rpc::info;
use avalanche_rpc::platform::{self, GetCurrentValidatorsResult};
use avalanche_rpc::platform::{CurrentValidator, Delegator};
use avalanche_rpc::types::{Owner, ProofOfPossession, UtxoIndex};
use avalanche_rpc::wire::{Address, Encoding, HexBytes, Id, NodeId, Percent};

use crate::hand;

/// Validators in each large reply.
pub const VALIDATORS: usize = 2_000;
/// UTXOs in the `avm.getUTXOs` reply.
pub const UTXOS: usize = 1_024;
/// The seed every process uses, so that all servers hold the same data.
const SEED: u64 = 0x00a1_a7c4_e2b3_7c01;
/// The seed of the second large reply (all signers), drawn apart so that the first one's data
/// does not change.
const SEED_ALL_SIGNERS: u64 = 0x5e1d_0a11_5163_e125;

/// The seed of a reply of the same shape as the first large one with none of its identifiers,
/// for reading replies whose identifiers are all new.
const SEED_OTHER: u64 = 0x7f4a_7c15_9e37_79b9;

/// SplitMix64: small, fast, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `lo..hi`. Wrapping, as release builds compute it, so the data are the same
    /// in every build (a delegation drawn to end before it starts wraps around, as it always
    /// has in the measured fixtures).
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo.wrapping_add(self.next() % hi.wrapping_sub(lo))
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        for chunk in out.chunks_mut(8) {
            let word = self.next().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        out
    }

    fn vec(&mut self, len: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(len + 8);
        while out.len() < len {
            out.extend_from_slice(&self.next().to_le_bytes());
        }
        out.truncate(len);
        out
    }

    fn id(&mut self) -> Id {
        Id::from_sha256(&self.bytes::<32>())
    }

    fn node_id(&mut self) -> NodeId {
        NodeId::new(self.bytes())
    }

    fn p_address(&mut self) -> Address {
        Address::new(Some("P"), "avax", self.bytes()).expect("P and avax are valid")
    }

    /// A percentage with four decimals in `lo..hi` (exactly representable as it prints).
    fn percent(&mut self, lo: u64, hi: u64) -> Percent {
        Percent(self.range(lo * 10_000, hi * 10_000) as f64 / 10_000.0)
    }

    /// A percentage anywhere in `lo..hi` with all of an `f64`'s digits (as a node computes an
    /// uptime), so that writing it with four decimals rounds.
    fn percent_full(&mut self, lo: u64, hi: u64) -> Percent {
        let unit = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        Percent(lo as f64 + (hi - lo) as f64 * unit)
    }

    fn owner(&mut self) -> Owner {
        let n = if self.chance(10) { 2 } else { 1 };
        let addresses: Vec<Address> = (0..n).map(|_| self.p_address()).collect();
        Owner::new(0u64, 1u32, addresses)
    }
}

const NAVAX_PER_AVAX: u64 = 1_000_000_000;

/// What differs between the two large replies.
#[derive(Clone, Copy)]
struct Shape {
    /// Percent of the validators with a BLS signer.
    signers: u64,
    /// Percentages with all their digits (else exactly four decimals).
    full_percentages: bool,
}

/// The first large reply: 85 % signers, four-decimal percentages.
const MIXED: Shape = Shape {
    signers: 85,
    full_percentages: false,
};

/// The second large reply: every validator with a signer, percentages with all their digits.
const ALL_SIGNERS: Shape = Shape {
    signers: 100,
    full_percentages: true,
};

fn validator(rng: &mut Rng, shape: Shape) -> CurrentValidator {
    let start = rng.range(1_700_000_000, 1_740_000_000);
    let end = start + rng.range(14 * 86_400, 365 * 86_400);
    let weight = rng.range(2_000, 3_000_000) * NAVAX_PER_AVAX + rng.range(0, NAVAX_PER_AVAX);
    let node_id = rng.node_id();
    let reward_owner = rng.owner();
    let fee_owner = if rng.chance(50) {
        reward_owner.clone()
    } else {
        rng.owner()
    };
    let delegations = if rng.chance(10) { rng.range(1, 3) } else { 0 };
    let delegators: Vec<Delegator> = (0..delegations)
        .map(|_| {
            let d_start = rng.range(start, start + 86_400 * 7);
            Delegator::new(
                rng.id(),
                d_start,
                rng.range(d_start + 14 * 86_400, end),
                rng.range(25, 100_000) * NAVAX_PER_AVAX,
                node_id,
            )
            .with_reward_owner(rng.owner())
            .with_potential_reward(rng.range(1_000_000, 5_000_000_000))
        })
        .collect();
    let delegated: u64 = delegators.iter().map(|d| d.weight.0).sum();
    let mut v = CurrentValidator::new(start, weight, node_id)
        .with_tx_id(rng.id())
        .with_end_time(end)
        .with_validation_reward_owner(reward_owner)
        .with_delegation_reward_owner(fee_owner)
        .with_potential_reward(weight / 1_000 * rng.range(5, 80))
        .with_accrued_delegatee_reward(rng.range(0, 10 * NAVAX_PER_AVAX))
        .with_delegation_fee(if shape.full_percentages {
            rng.percent_full(2, 100)
        } else {
            rng.percent(2, 100)
        })
        .with_uptime(if shape.full_percentages {
            rng.percent_full(80, 100)
        } else {
            rng.percent(80, 100)
        })
        .with_connected(rng.chance(95))
        .with_delegator_count(delegators.len() as u64)
        .with_delegator_weight(delegated);
    if rng.chance(shape.signers) {
        v = v.with_signer(ProofOfPossession::new(
            HexBytes(rng.vec(48)),
            HexBytes(rng.vec(96)),
        ));
    }
    if !delegators.is_empty() {
        v = v.with_delegators(delegators);
    }
    v
}

/// The bytes of an X-chain UTXO holding a secp256k1 transfer output, as the node encodes it.
fn utxo_bytes(rng: &mut Rng, asset: &Id, owner: &[u8; 20]) -> Vec<u8> {
    let mut b = Vec::with_capacity(118);
    b.extend_from_slice(&0u16.to_be_bytes()); // codec version
    b.extend_from_slice(rng.id().as_bytes()); // tx ID
    b.extend_from_slice(&(rng.range(0, 4) as u32).to_be_bytes()); // output index
    b.extend_from_slice(asset.as_bytes());
    b.extend_from_slice(&7u32.to_be_bytes()); // secp256k1fx.TransferOutput
    b.extend_from_slice(&rng.range(1, 1_000_000 * NAVAX_PER_AVAX).to_be_bytes());
    b.extend_from_slice(&0u64.to_be_bytes()); // locktime
    b.extend_from_slice(&1u32.to_be_bytes()); // threshold
    b.extend_from_slice(&1u32.to_be_bytes()); // one address
    b.extend_from_slice(owner);
    b
}

/// Everything the servers send and the clients decode, in both representations.
pub struct Fixtures {
    pub network_id: info::GetNetworkIdResult,
    pub validators: GetCurrentValidatorsResult,
    /// The second large reply: every validator with a signer, percentages with all their
    /// digits; served when the request's `subnetID` is [`Fixtures::all_signers_subnet`].
    pub validators_all_signers: GetCurrentValidatorsResult,
    pub all_signers_subnet: Id,
    pub utxos: avm::GetUtxosResult,
    pub hand_network_id: hand::NetworkId,
    pub hand_validators: hand::Validators,
    pub hand_validators_all_signers: hand::ValidatorsFull,
    pub hand_utxos: hand::Utxos,
}

impl Fixtures {
    pub fn build() -> Fixtures {
        let mut rng = Rng(SEED);
        let validators: Vec<CurrentValidator> = (0..VALIDATORS)
            .map(|_| validator(&mut rng, MIXED))
            .collect();
        let validators = platform::GetCurrentValidatorsResult::new(validators);

        let asset = rng.id();
        let owner: [u8; 20] = rng.bytes();
        let utxos: Vec<HexBytes> = (0..UTXOS)
            .map(|_| {
                let bytes = utxo_bytes(&mut rng, &asset, &owner);
                Encoding::Hex.encode(&bytes).expect("hex encodes any bytes")
            })
            .collect();
        let x_owner = Address::new(Some("X"), "avax", owner).expect("valid address");
        let last = Id::from_sha256(&rng.bytes::<32>());
        let utxos = avm::GetUtxosResult::new(
            UTXOS as u64,
            utxos,
            UtxoIndex::new(x_owner.to_string(), last.to_string()),
            Encoding::Hex,
        );
        let network_id = info::GetNetworkIdResult::new(1u32);

        let mut rng = Rng(SEED_ALL_SIGNERS);
        let all_signers_subnet = rng.id();
        let all_signers: Vec<CurrentValidator> = (0..VALIDATORS)
            .map(|_| validator(&mut rng, ALL_SIGNERS))
            .collect();
        let validators_all_signers = platform::GetCurrentValidatorsResult::new(all_signers);

        Fixtures {
            hand_network_id: hand::NetworkId::from(&network_id),
            hand_validators: hand::Validators::from(&validators),
            hand_validators_all_signers: hand::ValidatorsFull::from(&validators_all_signers),
            hand_utxos: hand::Utxos::from(&utxos),
            network_id,
            validators,
            validators_all_signers,
            all_signers_subnet,
            utxos,
        }
    }

    /// Checks that the generated types and the hand-written structs write the same bytes.
    pub fn check(&self) -> Result<(), String> {
        fn same<A: serde::Serialize, B: serde::Serialize>(
            what: &str,
            a: &A,
            b: &B,
        ) -> Result<(), String> {
            let a = serde_json::to_string(a).map_err(|e| format!("{what}: {e}"))?;
            let b = serde_json::to_string(b).map_err(|e| format!("{what}: {e}"))?;
            if a == b {
                Ok(())
            } else {
                let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
                let from = at.saturating_sub(60);
                Err(format!(
                    "{what}: the generated and hand-written JSON differ at byte {at}:\n  generated: …{}\n  hand:      …{}",
                    &a[from..(at + 60).min(a.len())],
                    &b[from..(at + 60).min(b.len())]
                ))
            }
        }
        same("getNetworkID", &self.network_id, &self.hand_network_id)?;
        same(
            "getCurrentValidators",
            &self.validators,
            &self.hand_validators,
        )?;
        same(
            "getCurrentValidators (all signers)",
            &self.validators_all_signers,
            &self.hand_validators_all_signers,
        )?;
        same("getUTXOs", &self.utxos, &self.hand_utxos)
    }

    /// The JSON text of each result, as every server must send it.
    pub fn small_json(&self) -> String {
        serde_json::to_string(&self.network_id).expect("serializable")
    }

    pub fn large_json(&self) -> String {
        serde_json::to_string(&self.validators).expect("serializable")
    }

    /// A result of the large reply's shape whose identifiers are all others.
    pub fn large_other_json() -> String {
        let mut rng = Rng(SEED_OTHER);
        let validators: Vec<CurrentValidator> = (0..VALIDATORS)
            .map(|_| validator(&mut rng, MIXED))
            .collect();
        serde_json::to_string(&platform::GetCurrentValidatorsResult::new(validators))
            .expect("serializable")
    }

    pub fn large_all_signers_json(&self) -> String {
        serde_json::to_string(&self.validators_all_signers).expect("serializable")
    }

    pub fn utxos_json(&self) -> String {
        serde_json::to_string(&self.utxos).expect("serializable")
    }
}

/// A reply body as the project's server writes it for request id 1.
pub fn reply_body(result_json: &str) -> bytes::Bytes {
    format!("{{\"jsonrpc\":\"2.0\",\"result\":{result_json},\"id\":1}}\n").into()
}

/// A signed X-chain BaseTx (the node's `vms/avm/txs/base_tx_test.go` vector, 506 bytes).
pub fn signed_x_base_tx() -> Vec<u8> {
    const HEX: &str = concat!(
        "0000000000000000000a0504030201000000000000000000000000000000000000000000000000000000000000010102",
        "030000000000000000000000000000000000000000000000000000000000000000070000000000003039000000000000",
        "00000000000100000001fceda8f90fcb5d30614b99d79fc4baa29307762600000001fffefdfcfbfaf9f8f7f6f5f4f3f2",
        "f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0000000010102030000000000000000000000000000000000000000000000",
        "00000000000000000005000000000000d431000000010000000200000004000102030000000200000009000000027d89",
        "8ee98af8335d37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff26d18484f29b289644968fedffeb23e03066",
        "5d736d94fc80bc735f51c806d743007d898ee98af8335d37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff26",
        "d18484f29b289644968fedffeb23e030665d736d94fc80bc735f51c806d7430000000009000000027d898ee98af8335d",
        "37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff26d18484f29b289644968fedffeb23e030665d736d94fc80",
        "bc735f51c806d743007d898ee98af8335d37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff26d18484f29b28",
        "9644968fedffeb23e030665d736d94fc80bc735f51c806d74300",
    );
    (0..HEX.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&HEX[i..i + 2], 16).expect("hex"))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn both_representations_write_the_same_json() {
        let f = super::Fixtures::build();
        f.check().unwrap();
        let large = f.large_json().len();
        assert!((1_800_000..2_000_000).contains(&large), "{large} bytes");
        let all = &f.validators_all_signers.validators;
        assert!(all.iter().all(|v| v.signer.is_some()));
        // Most percentages round when written with four decimals.
        let rounded = all
            .iter()
            .filter_map(|v| v.uptime)
            .filter(|p| format!("{:.4}", p.0).parse::<f64>() != Ok(p.0))
            .count();
        assert!(rounded > super::VALIDATORS * 9 / 10, "{rounded}");
        let large2 = f.large_all_signers_json().len();
        assert!((1_900_000..2_200_000).contains(&large2), "{large2} bytes");
        assert_eq!(f.utxos.utxos.len(), super::UTXOS);
    }
}
