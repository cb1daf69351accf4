//! The P-chain's dynamic fee (`vms/platformvm/txs/fee/complexity.go`,
//! `vms/components/gas`): a transaction's complexity in four dimensions, its gas, the price
//! from the chain's excess, and the fee state each block moves.

use avalanche_rpc::codec::platform;

/// The local network's configuration (`genesis/genesis_local.go`).
pub const WEIGHTS: [u64; 4] = [1, 1_000, 1_000, 4];
pub const MAX_CAPACITY: u64 = 1_000_000;
pub const MAX_PER_SECOND: u64 = 100_000;
pub const TARGET_PER_SECOND: u64 = 50_000;
pub const MIN_PRICE: u64 = 1;
pub const EXCESS_CONVERSION_CONSTANT: u64 = 2_164_043;

/// Bandwidth, database reads, database writes, compute.
pub type Complexity = [u64; 4];

/// The gas of a complexity: Σ complexity × weight (`None` on overflow).
pub fn gas(c: &Complexity) -> Option<u64> {
    c.iter()
        .zip(WEIGHTS)
        .try_fold(0u64, |acc, (c, w)| acc.checked_add(c.checked_mul(w)?))
}

/// MinPrice · e^(excess / K) of the dynamic fee, as the node approximates it.
pub fn price(excess: u64) -> u64 {
    calculate_price(MIN_PRICE, excess, EXCESS_CONVERSION_CONSTANT)
}

/// `min_price` · e^(excess / k), as the node approximates it (`gas.CalculatePrice`, a Taylor
/// series in integers); saturates at `u64::MAX`.
pub fn calculate_price(min_price: u64, excess: u64, k: u64) -> u64 {
    let k = u128::from(k);
    let excess = u128::from(excess);
    let mut acc = u128::from(min_price) * k;
    let mut out: u128 = 0;
    let mut i: u128 = 1;
    let cap = k * u128::from(u64::MAX);
    while acc > 0 {
        out += acc;
        if out >= cap {
            return u64::MAX;
        }
        acc = acc * excess / k / i;
        i += 1;
    }
    (out / k) as u64
}

/// The fee state: capacity left and excess.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct State {
    pub capacity: u64,
    pub excess: u64,
}

impl State {
    /// The state `seconds` later: capacity refilled, excess drained.
    pub fn advance(self, seconds: u64) -> State {
        State {
            capacity: self
                .capacity
                .saturating_add(MAX_PER_SECOND.saturating_mul(seconds))
                .min(MAX_CAPACITY),
            excess: self
                .excess
                .saturating_sub(TARGET_PER_SECOND.saturating_mul(seconds)),
        }
    }

    /// The state after a block consumed `gas`; `None` when it exceeds the capacity.
    pub fn consume(self, gas: u64) -> Option<State> {
        Some(State {
            capacity: self.capacity.checked_sub(gas)?,
            excess: self.excess.saturating_add(gas),
        })
    }

    pub fn encode(&self) -> Vec<u8> {
        [self.capacity.to_be_bytes(), self.excess.to_be_bytes()].concat()
    }

    pub fn decode(v: &[u8]) -> Option<State> {
        Some(State {
            capacity: u64::from_be_bytes(v.get(..8)?.try_into().ok()?),
            excess: u64::from_be_bytes(v.get(8..16)?.try_into().ok()?),
        })
    }
}

fn addresses(o: &platform::TransferableOut) -> (u64, u64) {
    match o {
        platform::TransferableOut::TransferOutput(t) => (t.owners.addresses.len() as u64, 0),
        platform::TransferableOut::LockOut(l) => match &l.output {
            platform::LockedOut::TransferOutput(t) => (t.owners.addresses.len() as u64, 12),
            _ => (0, 12),
        },
        _ => (0, 0),
    }
}

fn signatures(i: &platform::TransferableIn) -> (u64, u64) {
    match i {
        platform::TransferableIn::TransferInput(t) => (t.input.signature_indices.len() as u64, 0),
        platform::TransferableIn::LockIn(l) => match &l.input {
            platform::LockedIn::TransferInput(t) => (t.input.signature_indices.len() as u64, 12),
            _ => (0, 12),
        },
        _ => (0, 0),
    }
}

/// The complexity of outputs (`outputs`, `stake`, `exportedOutputs`).
pub fn outputs(outs: &[platform::TransferableOutput]) -> Complexity {
    let mut c = [0; 4];
    for o in outs {
        let (n, lock) = addresses(&o.output);
        c[0] += 60 + 20 * n + lock;
        c[2] += 1;
    }
    c
}

/// The complexity of inputs (`inputs`, `importedInputs`) with their credentials.
pub fn inputs(ins: &[platform::TransferableInput]) -> Complexity {
    let mut c = [0; 4];
    for i in ins {
        let (n, lock) = signatures(&i.input);
        c[0] += 92 + 69 * n + lock;
        c[1] += 1;
        c[2] += 1;
        c[3] += 200 * n;
    }
    c
}

/// The complexity of a signer: a proof of possession or none.
pub fn signer(s: &platform::Signer) -> Complexity {
    match s {
        platform::Signer::ProofOfPossession(_) => [144, 0, 0, 1_050],
        _ => [0; 4],
    }
}

/// The complexity of an owner, without its type ID.
pub fn owner(o: &platform::Owner) -> Complexity {
    match o {
        platform::Owner::OutputOwners(o) => [16 + 20 * o.owners.addresses.len() as u64, 0, 0, 0],
        _ => [0; 4],
    }
}

/// The sum of complexities.
pub fn sum(parts: &[Complexity]) -> Complexity {
    let mut c = [0; 4];
    for p in parts {
        for (a, b) in c.iter_mut().zip(p) {
            *a += b;
        }
    }
    c
}

/// The complexity of a transaction's base: the fixed part, its outputs, inputs (with their
/// credentials) and memo.
pub fn base(b: &platform::Base) -> Complexity {
    sum(&[
        [58 + b.memo.len() as u64, 0, 0, 0],
        outputs(&b.outputs),
        inputs(&b.inputs),
    ])
}

/// The complexity of an authorization (a Subnet's or a deactivation owner's) with its
/// credential.
pub fn auth(a: &platform::Auth) -> Complexity {
    match a {
        platform::Auth::Input(i) => {
            let n = i.input.signature_indices.len() as u64;
            [8 + 69 * n, 0, 0, 200 * n]
        }
        // Refused by verification.
        _ => [0; 4],
    }
}

/// The complexity of a Warp message (`WarpComplexity`): its bytes, the validator-set reads,
/// and aggregating its signers' keys and verifying.
pub fn warp(message: &[u8]) -> Result<Complexity, String> {
    let m = avalanche_rpc::codec::warp::Message::from_bytes(message)
        .map_err(|e| format!("`unsignedTx.message` is not a Warp message: {e}"))?;
    let signers = match &m.signature {
        avalanche_rpc::codec::warp::Signature::BitSetSignature(s) => s
            .signers
            .iter()
            .map(|b| u64::from(b.count_ones()))
            .sum::<u64>(),
        _ => 0,
    };
    Ok([message.len() as u64, 3 + 20, 0, 5 * signers + 1_000])
}

/// The intrinsic complexity of a validator: node ID, start, end, weight.
pub const VALIDATOR: u64 = 20 + 8 + 8 + 8;

/// The complexity of a transaction (`complexityVisitor`): its base, the intrinsic part of its
/// type and what it carries (each kind's, with its family in [`super::kind`]). `Err` names a
/// type the devnet does not price (those it does not accept either).
pub fn complexity(tx: &platform::UnsignedTx) -> Result<Complexity, String> {
    super::kind::Kind::of(tx)
        .map_err(|_| format!("the devnet does not price {}", tx.type_name()))?
        .complexity()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worked_example_and_the_price_curve() {
        // §8.2's BaseTx: 399 bytes, one read, three writes, one signature: 5,199 gas.
        assert_eq!(gas(&[399, 1, 3, 200]), Some(5_199));
        assert_eq!(price(0), MIN_PRICE);
        // e^1 at excess = K, e^2 at 2K (integer approximations, MinPrice 1).
        assert_eq!(price(EXCESS_CONVERSION_CONSTANT), 2);
        assert_eq!(price(2 * EXCESS_CONVERSION_CONSTANT), 7);
        assert_eq!(price(u64::MAX), u64::MAX);
        let s = State::default().advance(3);
        assert_eq!(
            s,
            State {
                capacity: 300_000,
                excess: 0
            }
        );
        let s = s.consume(200_000).unwrap();
        assert_eq!(
            s,
            State {
                capacity: 100_000,
                excess: 200_000
            }
        );
        assert_eq!(s.consume(100_001), None);
        assert_eq!(
            s.advance(20),
            State {
                capacity: MAX_CAPACITY,
                excess: 0
            }
        );
    }
}
