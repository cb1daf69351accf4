//! Verifying a P-chain transaction against the chain's state, as the node's executor does
//! (`vms/platformvm/txs/executor`), and what it changes. Transaction types are accepted one
//! by one as the devnet learns them; the others are refused by name.

use super::{Utxo, fee};
use crate::genesis::staking;
use crate::secp::{TxError, check_signatures, fail};
use avalanche_rpc::codec::{Verify, avax, platform};
use avalanche_rpc::wire::{Id, NodeId};
use std::collections::{BTreeMap, BTreeSet};

/// The chain's parameters a transaction is checked against.
#[derive(Debug, Clone)]
pub struct Rules {
    pub network_id: u32,
    pub avax: Id,
    pub x_chain: Id,
}

/// What an accepted transaction changes, and the gas it uses.
#[derive(Debug, Clone, Default)]
pub struct Effects {
    pub consumed: Vec<(Id, Vec<[u8; 20]>)>,
    pub produced: Vec<Utxo>,
    /// Shared-memory UTXOs it imports (from the X-chain), with their owners.
    pub imported: Vec<(Id, Vec<[u8; 20]>)>,
    /// UTXOs it exports into shared memory (to the X-chain).
    pub exported: Vec<Utxo>,
    /// The validator it adds.
    pub staker: Option<NewStaker>,
    pub gas: u64,
}

/// A validator of the Primary Network a transaction adds.
#[derive(Debug, Clone)]
pub struct NewStaker {
    pub node: NodeId,
    pub weight: u64,
    pub public_key: [u8; 48],
    /// The chain time it was accepted at; it validates from then until `end`.
    pub start: u64,
    pub end: u64,
}

/// Verifies `tx` (ID `tx_id`) at chain time `time`, paying `price` per gas, against UTXOs
/// found by `lookup`.
pub fn verify(
    rules: &Rules,
    tx: &platform::Tx,
    tx_id: Id,
    time: u64,
    price: u64,
    lookup: &mut dyn FnMut(&Id) -> Result<Option<Utxo>, TxError>,
    atomic: &mut dyn FnMut(&Id) -> Result<Option<Utxo>, TxError>,
) -> Result<Effects, TxError> {
    tx.verify()
        .map_err(|e| TxError(format!("the transaction breaks a rule of the codec: {e}")))?;
    let unsigned = tx
        .unsigned
        .to_bytes()
        .map_err(|e| TxError(format!("the transaction does not encode: {e}")))?;
    let hash = *Id::from_sha256(&unsigned).as_bytes();
    let no_inputs: &[platform::TransferableInput] = &[];
    let no_outputs: &[platform::TransferableOutput] = &[];
    let (base, intrinsic, imported, exported) = match &tx.unsigned {
        platform::UnsignedTx::BaseTx(t) => (&t.base, [0; 4], no_inputs, no_outputs),
        platform::UnsignedTx::ImportTx(t) => {
            x_chain(rules, &t.source_chain, "unsignedTx.sourceChain")?;
            (
                &t.base,
                [36, 0, 0, 0],
                t.imported_inputs.as_slice(),
                no_outputs,
            )
        }
        platform::UnsignedTx::ExportTx(t) => {
            x_chain(rules, &t.destination_chain, "unsignedTx.destinationChain")?;
            (
                &t.base,
                [36, 0, 0, 0],
                no_inputs,
                t.exported_outputs.as_slice(),
            )
        }
        platform::UnsignedTx::AddPermissionlessValidatorTx(t) => {
            (&t.base, [96, 1, 3, 0], no_inputs, no_outputs)
        }
        other => {
            return fail(format!(
                "the devnet does not accept {} on the P-chain yet (it accepts BaseTx, ImportTx, ExportTx and AddPermissionlessValidatorTx)",
                type_name(other)
            ));
        }
    };
    if base.network_id != rules.network_id {
        return fail(format!(
            "`unsignedTx.networkID` is {}, but this network's ID is {}",
            base.network_id, rules.network_id
        ));
    }
    if base.blockchain_id != Id::ZERO {
        return fail(format!(
            "`unsignedTx.blockchainID` is {}, but the P-chain's ID is {}",
            base.blockchain_id,
            Id::ZERO
        ));
    }
    if !base.memo.is_empty() {
        return fail("`unsignedTx.memo` must be empty on the P-chain since Durango");
    }
    if tx.credentials.len() != base.inputs.len() + imported.len() {
        return fail(format!(
            "the transaction has {} credentials but {} inputs and imported inputs; it needs one for each",
            tx.credentials.len(),
            base.inputs.len() + imported.len()
        ));
    }
    let validator = match &tx.unsigned {
        platform::UnsignedTx::AddPermissionlessValidatorTx(t) => Some(t.as_ref()),
        _ => None,
    };
    let staking_parts = validator.map_or([0; 4], |v| {
        fee::sum(&[
            fee::outputs(&v.stake),
            fee::signer(&v.signer),
            fee::owner(&v.validator_rewards_owner),
            fee::owner(&v.delegator_rewards_owner),
        ])
    });
    let complexity = fee::sum(&[
        fee::base(base),
        intrinsic,
        fee::inputs(imported),
        fee::outputs(exported),
        staking_parts,
    ]);
    let gas =
        fee::gas(&complexity).ok_or_else(|| TxError("the transaction's gas overflows".into()))?;
    let tx_fee = gas
        .checked_mul(price)
        .ok_or_else(|| TxError("the transaction's fee overflows".into()))?;

    let mut fx = Effects {
        gas,
        ..Effects::default()
    };
    let mut consumed: BTreeMap<Id, u128> = BTreeMap::new();
    let mut produced: BTreeMap<Id, u128> = BTreeMap::new();
    *produced.entry(rules.avax).or_default() += u128::from(tx_fee);
    let mut spent = BTreeSet::new();
    let spends = base
        .inputs
        .iter()
        .enumerate()
        .map(|(i, input)| (format!("unsignedTx.inputs[{i}]"), input, false))
        .chain(
            imported
                .iter()
                .enumerate()
                .map(|(i, input)| (format!("unsignedTx.importedInputs[{i}]"), input, true)),
        );
    for (k, (place, input, from_memory)) in spends.enumerate() {
        let id = input.utxo_id.id();
        if !spent.insert(id) {
            return fail(format!("`{place}` spends UTXO {id} a second time"));
        }
        let found = if from_memory {
            atomic(&id)?
        } else {
            lookup(&id)?
        };
        let utxo = found.ok_or_else(|| not_found(&place, &input.utxo_id, &id))?;
        if utxo.utxo.asset_id != input.asset_id {
            return fail(format!(
                "`{place}.assetID` is {}, but the UTXO holds {}",
                input.asset_id, utxo.utxo.asset_id
            ));
        }
        let platform::TransferableIn::TransferInput(ti) = &input.input else {
            return fail(format!(
                "`{place}` spends a stakeable-locked output, which only staking transactions may do here"
            ));
        };
        let Some((out, None)) = utxo.transfer() else {
            return fail(format!(
                "`{place}` spends an output that is not an unlocked TransferOutput"
            ));
        };
        if ti.amount != out.amount {
            return fail(format!(
                "`{place}.input.amount` is {}, but the UTXO holds {}",
                ti.amount, out.amount
            ));
        }
        let platform::Credential::Credential(cred) = &tx.credentials[k] else {
            return fail(format!(
                "`credentials[{k}]` is not a secp256k1fx credential"
            ));
        };
        check_signatures(
            &out.owners,
            &ti.input.signature_indices,
            cred,
            &hash,
            time,
            &place,
        )?;
        *consumed.entry(input.asset_id).or_default() += u128::from(ti.amount);
        if from_memory {
            fx.imported.push((id, utxo.owners()));
        } else {
            fx.consumed.push((id, utxo.owners()));
        }
    }
    for (i, o) in base.outputs.iter().enumerate() {
        let output = match &o.output {
            platform::TransferableOut::TransferOutput(t) => {
                *produced.entry(o.asset_id).or_default() += u128::from(t.amount);
                platform::UtxoOutput::TransferOutput(t.clone())
            }
            platform::TransferableOut::LockOut(l) => {
                let platform::LockedOut::TransferOutput(t) = &l.output else {
                    return fail(format!("`unsignedTx.outputs[{i}]` locks an unknown output"));
                };
                *produced.entry(o.asset_id).or_default() += u128::from(t.amount);
                platform::UtxoOutput::LockOut(l.clone())
            }
            _ => return fail(format!("`unsignedTx.outputs[{i}]` is an unknown output")),
        };
        fx.produced.push(Utxo::new(platform::Utxo::new(
            avax::UtxoId::new(tx_id, i as u32),
            o.asset_id,
            output,
        )));
    }
    for (j, o) in exported.iter().enumerate() {
        let platform::TransferableOut::TransferOutput(t) = &o.output else {
            return fail(format!(
                "`unsignedTx.exportedOutputs[{j}]` is not a TransferOutput"
            ));
        };
        *produced.entry(o.asset_id).or_default() += u128::from(t.amount);
        fx.exported.push(Utxo::new(platform::Utxo::new(
            avax::UtxoId::new(tx_id, (base.outputs.len() + j) as u32),
            o.asset_id,
            platform::UtxoOutput::TransferOutput(t.clone()),
        )));
    }
    if let Some(v) = validator {
        fx.staker = Some(check_validator(rules, v, time)?);
        for (j, o) in v.stake.iter().enumerate() {
            let platform::TransferableOut::TransferOutput(t) = &o.output else {
                return fail(format!(
                    "`unsignedTx.stake[{j}]` is stakeable-locked; the devnet stakes unlocked AVAX only so far"
                ));
            };
            *produced.entry(o.asset_id).or_default() += u128::from(t.amount);
        }
    }
    for (asset, out) in &produced {
        let have = consumed.get(asset).copied().unwrap_or(0);
        if have < *out {
            let what = if *asset == rules.avax {
                format!(" (outputs plus the fee of {tx_fee} nAVAX: {gas} gas at {price} nAVAX)")
            } else {
                String::new()
            };
            return fail(format!(
                "insufficient funds of asset {asset}: the inputs hold {have}, the transaction needs {out}{what}"
            ));
        }
    }
    Ok(fx)
}

/// The node's rules for a Primary Network validator (`verifyAddPermissionlessValidatorTx`,
/// after Durango: it starts at the chain time).
fn check_validator(
    rules: &Rules,
    v: &platform::AddPermissionlessValidatorTx,
    time: u64,
) -> Result<NewStaker, TxError> {
    if v.subnet_id != Id::ZERO {
        return fail(format!(
            "`unsignedTx.subnetID` is {}; the devnet adds Primary Network validators only so far",
            v.subnet_id
        ));
    }
    let platform::Signer::ProofOfPossession(pop) = &v.signer else {
        return fail(
            "`unsignedTx.signer`: a Primary Network validator needs a BLS proof of possession",
        );
    };
    avalanche_rpc::bls::verify_proof_of_possession(&pop.public_key, &pop.proof_of_possession)
        .map_err(|e| {
            TxError(format!(
                "`unsignedTx.signer.proofOfPossession` does not verify: {e}"
            ))
        })?;
    let mut staked = 0u64;
    for (j, o) in v.stake.iter().enumerate() {
        if o.asset_id != rules.avax {
            return fail(format!(
                "`unsignedTx.stake[{j}].assetID` is {}, not AVAX",
                o.asset_id
            ));
        }
        if let platform::TransferableOut::TransferOutput(t) = &o.output {
            staked = staked.saturating_add(t.amount);
        }
    }
    let weight = v.validator.weight;
    if staked != weight {
        return fail(format!(
            "`unsignedTx.stake` holds {staked} nAVAX but `unsignedTx.validator.weight` is {weight}"
        ));
    }
    if !(staking::MIN_VALIDATOR_STAKE..=staking::MAX_VALIDATOR_STAKE).contains(&weight) {
        return fail(format!(
            "`unsignedTx.validator.weight` is {weight}; it must be from {} to {} nAVAX",
            staking::MIN_VALIDATOR_STAKE,
            staking::MAX_VALIDATOR_STAKE
        ));
    }
    if v.delegation_shares < staking::MIN_DELEGATION_FEE {
        return fail(format!(
            "`unsignedTx.shares` is {}; the minimum delegation fee is {} (2 %)",
            v.delegation_shares,
            staking::MIN_DELEGATION_FEE
        ));
    }
    let end = v.validator.end;
    let duration = end.saturating_sub(time);
    if !(staking::MIN_STAKE_DURATION..=staking::MAX_STAKE_DURATION).contains(&duration) {
        return fail(format!(
            "`unsignedTx.validator.end` is {end}: staking from the chain time {time} must last from {} to {} seconds, not {duration}",
            staking::MIN_STAKE_DURATION,
            staking::MAX_STAKE_DURATION
        ));
    }
    Ok(NewStaker {
        node: v.validator.node_id,
        weight,
        public_key: pop.public_key,
        start: time,
        end,
    })
}

/// The P-chain moves funds to and from the X-chain only (no EVM runs for the C-chain).
fn x_chain(rules: &Rules, chain: &Id, place: &str) -> Result<(), TxError> {
    if *chain != rules.x_chain {
        return fail(format!(
            "`{place}` is {chain}; this devnet moves funds between the P-chain and the X-chain ({}) only",
            rules.x_chain
        ));
    }
    Ok(())
}

fn not_found(place: &str, r: &avax::UtxoId, id: &Id) -> TxError {
    TxError(format!(
        "`{place}` spends output {} of tx {}, which is not an unspent output of this chain (UTXO {id})",
        r.output_index, r.tx_id
    ))
}

/// The node's name of a P-chain transaction type.
fn type_name(t: &platform::UnsignedTx) -> String {
    format!("{t:?}")
        .split(['(', ' ', '{'])
        .next()
        .unwrap_or("this transaction type")
        .to_string()
}
