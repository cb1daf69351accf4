//! Fees as the node computes them. The X-chain's are static (`txFee`, `createAssetTxFee`).
//! The P-chain's are dynamic (`vms/platformvm/txs/fee/complexity.go`, `vms/components/gas`):
//! a transaction's complexity in four dimensions (bandwidth, database reads, database
//! writes, compute) weighted into gas, times the price of the chain's fee state.

use crate::codec::platform;

/// Bandwidth, database reads, database writes, compute.
pub type Complexity = [u64; 4];

/// Why a complexity cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeeError {
    /// A type the node no longer accepts (pre-Etna staking and Subnet transformations) or
    /// never prices dynamically (advance time, rewards).
    #[error("{0} has no dynamic fee: the P-chain does not accept it any more")]
    Unpriced(&'static str),
    /// A Warp message that does not decode.
    #[error("`message` is not a Warp message: {0}")]
    Warp(String),
    /// Gas or fee past `u64`.
    #[error("the fee overflows 64 bits")]
    Overflow,
}

/// The gas of a complexity under `weights`: Σ complexity × weight.
pub fn gas(c: &Complexity, weights: &[u64; 4]) -> Result<u64, FeeError> {
    c.iter()
        .zip(weights)
        .try_fold(0u64, |acc, (c, w)| acc.checked_add(c.checked_mul(*w)?))
        .ok_or(FeeError::Overflow)
}

/// `gas × price`.
pub fn fee(c: &Complexity, weights: &[u64; 4], price: u64) -> Result<u64, FeeError> {
    gas(c, weights)?
        .checked_mul(price)
        .ok_or(FeeError::Overflow)
}

/// `min_price` · e^(excess / k), as the node approximates it (`gas.CalculatePrice`, a Taylor
/// series in integers); saturates at `u64::MAX`.
pub fn calculate_price(min_price: u64, excess: u64, k: u64) -> u64 {
    if k == 0 {
        return u64::MAX;
    }
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

/// The sum of complexities.
pub fn sum(parts: &[Complexity]) -> Complexity {
    let mut c = [0u64; 4];
    for p in parts {
        for (a, b) in c.iter_mut().zip(p) {
            *a = a.saturating_add(*b);
        }
    }
    c
}

/// The intrinsic bandwidth of a validator: node ID, start, end, weight.
pub const VALIDATOR: u64 = 20 + 8 + 8 + 8;

fn addresses(o: &platform::TransferableOut) -> (u64, u64) {
    match o {
        platform::TransferableOut::TransferOutput(t) => (t.owners.addresses.len() as u64, 0),
        platform::TransferableOut::LockOut(l) => match &l.output {
            platform::LockedOut::TransferOutput(t) => (t.owners.addresses.len() as u64, 12),
        },
    }
}

fn signatures(i: &platform::TransferableIn) -> (u64, u64) {
    match i {
        platform::TransferableIn::TransferInput(t) => (t.input.signature_indices.len() as u64, 0),
        platform::TransferableIn::LockIn(l) => match &l.input {
            platform::LockedIn::TransferInput(t) => (t.input.signature_indices.len() as u64, 12),
        },
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
    }
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
    }
}

/// The complexity of a Warp message (`WarpComplexity`): its bytes, the validator-set reads,
/// and aggregating its signers' keys and verifying.
pub fn warp(message: &[u8]) -> Result<Complexity, FeeError> {
    let m = crate::codec::warp::Message::from_bytes(message)
        .map_err(|e| FeeError::Warp(e.to_string()))?;
    let signers = match &m.signature {
        crate::codec::warp::Signature::BitSetSignature(s) => s
            .signers
            .iter()
            .map(|b| u64::from(b.count_ones()))
            .sum::<u64>(),
    };
    Ok([message.len() as u64, 3 + 20, 0, 5 * signers + 1_000])
}

/// The complexity of a first validator of an L1 (`ConvertSubnetToL1Tx`).
pub fn l1_validator(v: &platform::ConvertSubnetToL1Validator) -> Complexity {
    let addresses =
        (v.remaining_balance_owner.addresses.len() + v.deactivation_owner.addresses.len()) as u64;
    // Node ID length, weight, balance, two thresholds and address counts; the proof of
    // possession; the addresses.
    [
        36 + v.node_id.len() as u64 + 144 + 20 * addresses,
        0,
        4,
        1_050,
    ]
}

/// The complexity of a P-chain transaction (`complexityVisitor`): its base, the intrinsic
/// part of its type and what it carries. The types the P-chain no longer accepts since Etna
/// have none.
pub fn complexity(tx: &platform::UnsignedTx) -> Result<Complexity, FeeError> {
    use platform::UnsignedTx as U;
    Ok(match tx {
        U::BaseTx(t) => base(&t.base),
        U::ImportTx(t) => sum(&[base(&t.base), [36, 0, 0, 0], inputs(&t.imported_inputs)]),
        U::ExportTx(t) => sum(&[base(&t.base), [36, 0, 0, 0], outputs(&t.exported_outputs)]),
        U::AddPermissionlessValidatorTx(t) => sum(&[
            base(&t.base),
            [VALIDATOR + 32 + 4 * 5, 1, 3, 0],
            outputs(&t.stake),
            signer(&t.signer),
            owner(&t.validator_rewards_owner),
            owner(&t.delegator_rewards_owner),
        ]),
        U::AddPermissionlessDelegatorTx(t) => sum(&[
            base(&t.base),
            [VALIDATOR + 32 + 4 * 2, 1, 2, 0],
            outputs(&t.stake),
            owner(&t.rewards_owner),
        ]),
        U::CreateSubnetTx(t) => sum(&[base(&t.base), [4, 0, 1, 0], owner(&t.owner)]),
        U::CreateChainTx(t) => sum(&[
            base(&t.base),
            [
                32 + 2
                    + 32
                    + 4 * 4
                    + 32 * t.fx_ids.len() as u64
                    + t.chain_name.len() as u64
                    + t.genesis_data.len() as u64,
                3,
                1,
                0,
            ],
            auth(&t.subnet_auth),
        ]),
        U::AddSubnetValidatorTx(t) => sum(&[
            base(&t.base),
            [VALIDATOR + 32 + 4 * 2, 3, 3, 0],
            auth(&t.subnet_auth),
        ]),
        U::RemoveSubnetValidatorTx(t) => sum(&[
            base(&t.base),
            [20 + 32 + 4 * 2, 1, 3, 0],
            auth(&t.subnet_auth),
        ]),
        U::TransferSubnetOwnershipTx(t) => sum(&[
            base(&t.base),
            [32 + 4 * 3, 1, 1, 0],
            auth(&t.subnet_auth),
            owner(&t.owner),
        ]),
        U::ConvertSubnetToL1Tx(t) => {
            let mut parts = vec![
                base(&t.base),
                [32 + 32 + 4 * 4 + t.address.len() as u64, 3, 2, 0],
                auth(&t.subnet_auth),
            ];
            parts.extend(t.validators.iter().map(l1_validator));
            sum(&parts)
        }
        U::RegisterL1ValidatorTx(t) => {
            sum(&[base(&t.base), [8 + 96 + 4, 5, 6, 1_050], warp(&t.message)?])
        }
        U::SetL1ValidatorWeightTx(t) => sum(&[base(&t.base), [4, 3, 5, 0], warp(&t.message)?]),
        U::IncreaseL1ValidatorBalanceTx(t) => sum(&[base(&t.base), [32 + 8, 1, 5, 0]]),
        U::DisableL1ValidatorTx(t) => {
            sum(&[base(&t.base), [32 + 4 * 2, 1, 6, 0], auth(&t.disable_auth)])
        }
        // Node ID (length-prefixed), the signer's, the outputs' count, the three owners'
        // type IDs, the two shares and the period.
        U::AddAutoRenewedValidatorTx(t) => sum(&[
            base(&t.base),
            [4 + 20 + 4 * 7 + 8, 0, 3, 0],
            outputs(&t.stake),
            signer(&t.signer),
            owner(&t.validator_rewards_owner),
            owner(&t.delegator_rewards_owner),
            owner(&t.validator_authority),
        ]),
        // The validator's transaction, the authorization's two type IDs, the shares and the
        // period.
        U::SetAutoRenewedValidatorConfigTx(t) => {
            sum(&[base(&t.base), [32 + 4 * 3 + 8, 1, 1, 0], auth(&t.auth)])
        }
        other => return Err(FeeError::Unpriced(other.type_name())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const WEIGHTS: [u64; 4] = [1, 1_000, 1_000, 4];

    #[test]
    fn the_worked_example_and_the_price_curve() {
        // The description's BaseTx: 399 bytes, one read, three writes, one signature.
        assert_eq!(gas(&[399, 1, 3, 200], &WEIGHTS), Ok(5_199));
        assert_eq!(fee(&[399, 1, 3, 200], &WEIGHTS, 3), Ok(15_597));
        assert_eq!(gas(&[u64::MAX, 1, 0, 0], &WEIGHTS), Err(FeeError::Overflow));
        let k = 2_164_043;
        assert_eq!(calculate_price(1, 0, k), 1);
        // e^1 at excess = K, e^2 at 2K (integer approximations, min price 1).
        assert_eq!(calculate_price(1, k, k), 2);
        assert_eq!(calculate_price(1, 2 * k, k), 7);
        assert_eq!(calculate_price(1, u64::MAX, k), u64::MAX);
    }
}
