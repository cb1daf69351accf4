//! The P-chain's dynamic fee (`vms/components/gas`): the local network's configuration, a
//! transaction's gas (its complexity is `avalanche_rpc::transact::fee`'s, the builders' own),
//! the price from the chain's excess, and the fee state each block moves.

use crate::refusal::Refusal;
use avalanche_rpc::codec::platform;
use avalanche_rpc::transact::{self, fee::FeeError};

/// The local network's configuration (`genesis/genesis_local.go`).
pub const WEIGHTS: [u64; 4] = [1, 1_000, 1_000, 4];
pub const MAX_CAPACITY: u64 = 1_000_000;
pub const MAX_PER_SECOND: u64 = 100_000;
pub const TARGET_PER_SECOND: u64 = 50_000;
pub const MIN_PRICE: u64 = 1;
pub const EXCESS_CONVERSION_CONSTANT: u64 = 2_164_043;

/// MinPrice · e^(excess / K) of the dynamic fee, as the node approximates it.
pub fn price(excess: u64) -> u64 {
    transact::fee::calculate_price(MIN_PRICE, excess, EXCESS_CONVERSION_CONSTANT)
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

/// The gas of a transaction: its complexity as the node computes it
/// (`complexityVisitor`, [`transact::fee::complexity`], the one computation in the workspace)
/// weighted by [`WEIGHTS`]; a refusal when it has none.
pub fn gas(tx: &platform::UnsignedTx) -> Result<u64, Refusal> {
    let complexity = transact::fee::complexity(tx).map_err(refusal)?;
    transact::fee::gas(&complexity, &WEIGHTS).map_err(refusal)
}

/// Why a transaction cannot be priced, in the words of the devnet's other refusals.
fn refusal(e: FeeError) -> Refusal {
    Refusal::new(match e {
        FeeError::Warp(e) => format!("`unsignedTx.message` is not a Warp message: {e}"),
        FeeError::Overflow => "the transaction's gas overflows".into(),
        // A type refused by kind before it is priced.
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worked_example_and_the_price_curve() {
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
