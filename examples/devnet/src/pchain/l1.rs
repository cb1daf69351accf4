//! L1s in the store (ACP-77): Subnets converted to L1s (their conversion and manager), their
//! validators with the balance that pays the continuous fee, and that fee itself
//! (`vms/platformvm/validators/fee`): each second every active L1 validator pays the price
//! set by the excess, summed in one accumulator; a validator whose paid-up mark the
//! accumulator reaches becomes inactive, its weight then counted under the empty node ID as
//! the node does.

use crate::store::{self, Reader, StoreError};
use avalanche_rpc::codec::{Decode, Encode, Reader as Bytes, Writer, platform};
use avalanche_rpc::transact::fee::calculate_price;
use avalanche_rpc::wire::{Id, NodeId};
use redb::{ReadableTable, WriteTransaction};

/// The continuous fee's configuration on a local network (`genesis/genesis_local.go`).
pub const CAPACITY: u64 = 20_000;
pub const TARGET: u64 = 10_000;
pub const MIN_PRICE: u64 = 1;
pub const EXCESS_CONVERSION_CONSTANT: u64 = 865_617;

/// The continuous fee's state: the excess, and the fees accrued per active validator since
/// genesis.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FeeState {
    pub excess: u64,
    pub accrued: u64,
}

impl FeeState {
    pub fn price(&self) -> u64 {
        calculate_price(MIN_PRICE, self.excess, EXCESS_CONVERSION_CONSTANT)
    }

    fn step(excess: u64, active: u64, seconds: u64) -> u64 {
        if active < TARGET {
            excess.saturating_sub((TARGET - active).saturating_mul(seconds))
        } else {
            excess.saturating_add((active - TARGET).saturating_mul(seconds))
        }
    }

    /// What one active validator pays over `seconds` with `active` validators
    /// (`fee.State.CostOf`), and the excess after.
    fn cost(self, active: u64, seconds: u64) -> (u64, u64) {
        if active == TARGET {
            return (self.price().saturating_mul(seconds), self.excess);
        }
        let mut excess = self.excess;
        let mut cost = 0u64;
        for i in 0..seconds {
            excess = Self::step(excess, active, 1);
            if excess == 0 {
                let rest = MIN_PRICE.saturating_mul(seconds - i);
                return (
                    cost.saturating_add(rest),
                    Self::step(self.excess, active, seconds),
                );
            }
            cost = cost.saturating_add(calculate_price(
                MIN_PRICE,
                excess,
                EXCESS_CONVERSION_CONSTANT,
            ));
        }
        (cost, excess)
    }

    /// How many seconds `funds` last with `active` validators, at most `max`
    /// (`fee.State.SecondsRemaining`).
    pub fn seconds_remaining(self, active: u64, max: u64, mut funds: u64) -> u64 {
        if active == TARGET {
            return (funds / self.price()).min(max);
        }
        let mut excess = self.excess;
        for s in 0..max {
            excess = Self::step(excess, active, 1);
            if excess == 0 {
                return s.saturating_add(funds / MIN_PRICE).min(max);
            }
            let price = calculate_price(MIN_PRICE, excess, EXCESS_CONVERSION_CONSTANT);
            if price > funds {
                return s;
            }
            funds -= price;
        }
        max
    }
}

/// The fee state after the last accepted block.
pub fn fee_state<R: Reader>(r: &R) -> Result<FeeState, StoreError> {
    let t = r.table(store::META)?;
    let get = |k: &str| -> Result<u64, StoreError> {
        Ok(t.get(k)?
            .and_then(|v| Some(u64::from_be_bytes(v.value().try_into().ok()?)))
            .unwrap_or(0))
    };
    Ok(FeeState {
        excess: get("p_l1_excess")?,
        accrued: get("p_l1_accrued")?,
    })
}

/// An L1 validator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validator {
    pub validation_id: Id,
    pub subnet: Id,
    pub node: NodeId,
    /// Compressed BLS public key.
    pub public_key: [u8; 48],
    pub remaining_balance_owner: platform::PChainOwner,
    pub deactivation_owner: platform::PChainOwner,
    pub start: u64,
    pub weight: u64,
    pub min_nonce: u64,
    /// The accumulator's value at which its balance is used up; 0 when inactive.
    pub end_accumulated_fee: u64,
}

impl Validator {
    pub fn active(&self) -> bool {
        self.weight != 0 && self.end_accumulated_fee != 0
    }

    /// Its balance under the fee state `fees`.
    pub fn balance(&self, fees: &FeeState) -> u64 {
        self.end_accumulated_fee.saturating_sub(fees.accrued)
    }

    fn encode(&self) -> Result<Vec<u8>, StoreError> {
        let mut w = Writer::new();
        w.raw(self.subnet.as_bytes());
        w.raw(self.node.as_bytes());
        w.raw(&self.public_key);
        for v in [
            self.start,
            self.weight,
            self.min_nonce,
            self.end_accumulated_fee,
        ] {
            w.raw(&v.to_be_bytes());
        }
        self.remaining_balance_owner
            .encode(&mut w)
            .and_then(|_| self.deactivation_owner.encode(&mut w))
            .map_err(|e| {
                StoreError::Invalid(format!("an L1 validator's owners do not encode: {e}"))
            })?;
        Ok(w.into_bytes())
    }

    fn decode(validation_id: Id, v: &[u8]) -> Result<Validator, StoreError> {
        let u = |at: usize| u64::from_be_bytes(v[at..at + 8].try_into().expect("8 bytes"));
        let mut r = Bytes::new(&v[132..]);
        let owners = platform::PChainOwner::decode(&mut r)
            .and_then(|a| Ok((a, platform::PChainOwner::decode(&mut r)?)))
            .map_err(|e| {
                StoreError::Invalid(format!("a stored L1 validator does not decode: {e}"))
            })?;
        Ok(Validator {
            validation_id,
            subnet: Id::new(v[..32].try_into().expect("32 bytes")),
            node: NodeId::new(v[32..52].try_into().expect("20 bytes")),
            public_key: v[52..100].try_into().expect("48 bytes"),
            start: u(100),
            weight: u(108),
            min_nonce: u(116),
            end_accumulated_fee: u(124),
            remaining_balance_owner: owners.0,
            deactivation_owner: owners.1,
        })
    }
}

/// The L1 validator with `validation_id`.
pub fn validator<R: Reader>(r: &R, validation_id: &Id) -> Result<Option<Validator>, StoreError> {
    let t = r.table(store::P_L1_VALIDATORS)?;
    t.get(validation_id.as_bytes().as_slice())?
        .map(|v| Validator::decode(*validation_id, v.value()))
        .transpose()
}

/// The L1 validators of `subnet` (every L1's when `None`), in the node's order: by Subnet,
/// then node ID (`vms/platformvm/state/state.go:785-804` iterates its Subnet-and-node index).
pub fn validators<R: Reader>(r: &R, subnet: Option<&Id>) -> Result<Vec<Validator>, StoreError> {
    let t = r.table(store::P_L1_VALIDATORS)?;
    let mut out = Vec::new();
    for e in t.iter()? {
        let (k, v) = e?;
        let v = Validator::decode(Id::new(k.value().try_into().expect("32 bytes")), v.value())?;
        if subnet.is_none_or(|s| *s == v.subnet) {
            out.push(v);
        }
    }
    out.sort_by_key(|a| (a.subnet, a.node));
    Ok(out)
}

/// The validation ID of `node` on L1 `subnet`, if it validates it.
pub fn validation_of<R: Reader>(
    r: &R,
    subnet: &Id,
    node: &NodeId,
) -> Result<Option<Id>, StoreError> {
    let t = r.table(store::P_L1_NODES)?;
    Ok(
        t.get(store::key(&[subnet.as_bytes(), node.as_bytes()]).as_slice())?
            .map(|v| Id::new(v.value().try_into().expect("32 bytes"))),
    )
}

/// Writes an L1 validator, recording how the L1's validator set changes at `height`: an
/// active validator weighs under its node ID with its key, an inactive one under the empty
/// node ID (`state.L1Validator` effectiveNodeID).
pub fn put(
    w: &WriteTransaction,
    v: &Validator,
    before: Option<&Validator>,
    height: u64,
) -> Result<(), StoreError> {
    let node_key = store::key(&[v.subnet.as_bytes(), v.node.as_bytes()]);
    if v.weight == 0 {
        // Weight 0 removes it (`L1Validator.isDeleted`).
        w.open_table(store::P_L1_VALIDATORS)?
            .remove(v.validation_id.as_bytes().as_slice())?;
        w.open_table(store::P_L1_NODES)?
            .remove(node_key.as_slice())?;
    } else {
        w.open_table(store::P_L1_VALIDATORS)?.insert(
            v.validation_id.as_bytes().as_slice(),
            v.encode()?.as_slice(),
        )?;
        w.open_table(store::P_L1_NODES)?
            .insert(node_key.as_slice(), v.validation_id.as_bytes().as_slice())?;
    }
    let side = |v: &Validator| {
        if v.active() {
            (v.node, Some(v.public_key))
        } else {
            (NodeId::new([0; 20]), None)
        }
    };
    if let Some(b) = before {
        let (node, _) = side(b);
        super::stakers::change_weight(w, (height, &b.subnet, &node), -signed(b.weight)?, None)?;
    }
    if v.weight == 0 {
        return Ok(());
    }
    let (node, pk) = side(v);
    super::stakers::change_weight(w, (height, &v.subnet, &node), signed(v.weight)?, pk)
}

/// The total weight of `subnet`'s L1 validators, active or not.
pub fn weight<R: Reader>(r: &R, subnet: &Id) -> Result<u64, StoreError> {
    Ok(validators(r, Some(subnet))?
        .iter()
        .map(|v| v.weight)
        .fold(0, u64::saturating_add))
}

fn expiry_key(expiry: u64, validation_id: &Id) -> Vec<u8> {
    store::key(&[&expiry.to_be_bytes(), validation_id.as_bytes()])
}

/// Whether a registration with this expiry and validation ID was accepted (and its expiry
/// is not yet past).
pub fn has_expiry<R: Reader>(r: &R, expiry: u64, validation_id: &Id) -> Result<bool, StoreError> {
    let t = r.table(store::P_EXPIRIES)?;
    Ok(t.get(expiry_key(expiry, validation_id).as_slice())?
        .is_some())
}

/// Records an accepted registration's expiry.
pub fn put_expiry(w: &WriteTransaction, expiry: u64, validation_id: &Id) -> Result<(), StoreError> {
    w.open_table(store::P_EXPIRIES)?
        .insert(expiry_key(expiry, validation_id).as_slice(), ())?;
    Ok(())
}

/// Forgets the expiries at or before `time` (`removeStaleExpiries`).
fn remove_stale_expiries(w: &WriteTransaction, time: u64) -> Result<(), StoreError> {
    let mut t = w.open_table(store::P_EXPIRIES)?;
    let end = (time.saturating_add(1)).to_be_bytes();
    let stale: Vec<Vec<u8>> = t
        .range(..end.as_slice())?
        .map(|e| e.map(|(k, _)| k.value().to_vec()))
        .collect::<Result<_, _>>()?;
    for k in stale {
        t.remove(k.as_slice())?;
    }
    Ok(())
}

fn signed(weight: u64) -> Result<i64, StoreError> {
    i64::try_from(weight).map_err(|_| StoreError::Invalid("a weight above 2^63".into()))
}

/// How many L1 validators are active.
pub fn active_count<R: Reader>(r: &R) -> Result<u64, StoreError> {
    Ok(validators(r, None)?.iter().filter(|v| v.active()).count() as u64)
}

/// Moves the chain's L1 state to the block at `height` with time `time`, `seconds` after its
/// parent: expiries past are forgotten, the accumulator grows by what one active validator
/// pays, and validators whose balance it reaches become inactive
/// (`advanceValidatorFeeState`).
pub fn advance(
    w: &WriteTransaction,
    (time, seconds): (u64, u64),
    height: u64,
) -> Result<(), StoreError> {
    remove_stale_expiries(w, time)?;
    let all = validators(w, None)?;
    let active = all.iter().filter(|v| v.active()).count() as u64;
    let state = fee_state(w)?;
    let (cost, excess) = state.cost(active, seconds);
    let accrued = state.accrued.saturating_add(cost);
    for v in all.iter().filter(|v| v.active()) {
        if v.end_accumulated_fee <= accrued {
            let mut off = v.clone();
            off.end_accumulated_fee = 0;
            put(w, &off, Some(v), height)?;
        }
    }
    store::set_meta(w, store::Meta::P_L1_EXCESS, &excess.to_be_bytes())?;
    store::set_meta(w, store::Meta::P_L1_ACCRUED, &accrued.to_be_bytes())?;
    Ok(())
}

/// When the first active L1 validator's balance runs out, after chain time `time`: the node
/// builds a block then to deactivate it.
pub fn next_depletion<R: Reader>(r: &R, time: u64) -> Result<Option<u64>, StoreError> {
    let all = validators(r, None)?;
    let active = all.iter().filter(|v| v.active()).count() as u64;
    let state = fee_state(r)?;
    Ok(all
        .iter()
        .filter(|v| v.active())
        .map(|v| {
            let funds = v.end_accumulated_fee.saturating_sub(state.accrued);
            // The accumulator reaches its mark after the seconds `funds` pays for
            // (`getNextL1ValidatorEvictionTime`); at least the next second, which it cannot
            // pay for when nothing remains.
            time.saturating_add(state.seconds_remaining(active, u64::MAX / 4, funds).max(1))
        })
        .min())
}

/// A Subnet's conversion to an L1.
#[derive(Debug, Clone)]
pub struct Conversion {
    pub id: Id,
    pub manager_chain: Id,
    pub manager_address: Vec<u8>,
}

/// The conversion of `subnet`, if it was converted.
pub fn conversion<R: Reader>(r: &R, subnet: &Id) -> Result<Option<Conversion>, StoreError> {
    let t = r.table(store::P_CONVERSIONS)?;
    Ok(t.get(subnet.as_bytes().as_slice())?.map(|v| {
        let v = v.value();
        Conversion {
            id: Id::new(v[..32].try_into().expect("32 bytes")),
            manager_chain: Id::new(v[32..64].try_into().expect("32 bytes")),
            manager_address: v[64..].to_vec(),
        }
    }))
}

/// Records the conversion of `subnet`.
pub fn set_conversion(w: &WriteTransaction, subnet: &Id, c: &Conversion) -> Result<(), StoreError> {
    w.open_table(store::P_CONVERSIONS)?.insert(
        subnet.as_bytes().as_slice(),
        store::key(&[
            c.id.as_bytes(),
            c.manager_chain.as_bytes(),
            &c.manager_address,
        ])
        .as_slice(),
    )?;
    Ok(())
}

/// The validation ID of the `index`-th validator of a conversion of `subnet`
/// (`ids.ID.Append`: SHA-256 of the Subnet ID and the index).
pub fn conversion_validation_id(subnet: &Id, index: u32) -> Id {
    Id::from_sha256(&store::key(&[subnet.as_bytes(), &index.to_be_bytes()]))
}
