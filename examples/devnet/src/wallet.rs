//! Building and signing X-chain transactions from a set of keys and their UTXOs, the way a
//! wallet does (inputs sorted by UTXO ID, outputs by encoding, one credential per input
//! signing the SHA-256 of the unsigned bytes). The activity generator and the tests use it;
//! the transactions still go through `issueTx` and the one acceptance path.

use crate::genesis::encoded;
use crate::xchain::Utxo;
use crate::xchain::verify::Rules;
use avalanche_rpc::codec::{avm, secp256k1fx};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::wire::{Id, ShortId};
use std::collections::BTreeMap;

/// A payment: `amount` of `asset` to `to`.
#[derive(Debug, Clone)]
pub struct Payment {
    pub asset: Id,
    pub amount: u64,
    pub to: ShortId,
}

/// A signed BaseTx paying `payments` from `utxos` spendable by `keys` at `time`, the change
/// going to `change`, the fee in AVAX. Fails when the keys cannot pay.
pub fn base_tx(
    rules: &Rules,
    keys: &[PrivateKey],
    utxos: &[Utxo],
    payments: &[Payment],
    change: ShortId,
    time: u64,
) -> Result<avm::Tx, String> {
    let mut need: BTreeMap<Id, u64> = BTreeMap::new();
    for p in payments {
        *need.entry(p.asset).or_default() += p.amount;
    }
    *need.entry(rules.avax).or_default() += rules.tx_fee;
    let mut inputs = Vec::new();
    let mut signers = Vec::new();
    let mut outputs: Vec<avm::TransferableOutput> = payments
        .iter()
        .map(|p| transfer_output(p.asset, p.amount, p.to))
        .collect();
    for (asset, amount) in &need {
        let mut have = 0u64;
        for u in utxos.iter().filter(|u| u.utxo.asset_id == *asset) {
            if have >= *amount {
                break;
            }
            let Some((value, index, key)) = spendable(u, keys, time) else {
                continue;
            };
            have = have.saturating_add(value);
            inputs.push(avm::TransferableInput::new(
                u.utxo.utxo_id.clone(),
                *asset,
                secp256k1fx::TransferInput::new(value, secp256k1fx::Input::new(vec![index])).into(),
            ));
            signers.push(key);
        }
        if have < *amount {
            return Err(format!(
                "the keys hold {have} of asset {asset} spendable now, {amount} are needed"
            ));
        }
        if have > *amount {
            outputs.push(transfer_output(*asset, have - amount, change));
        }
    }
    // Inputs by UTXO ID, outputs by encoding; the signers follow their inputs.
    let mut paired: Vec<(avm::TransferableInput, &PrivateKey)> =
        inputs.into_iter().zip(signers).collect();
    paired.sort_by_key(|(i, _)| encoded(&i.utxo_id));
    outputs.sort_by_cached_key(encoded);
    let (inputs, signers): (Vec<_>, Vec<_>) = paired.into_iter().unzip();
    let base = avm::Base::new(
        rules.network_id,
        rules.chain_id,
        outputs,
        inputs,
        Vec::new(),
    );
    sign(avm::BaseTx::new(base).into(), &signers)
}

/// Signs an unsigned transaction: credential i by `signers[i]`.
pub fn sign(unsigned: avm::UnsignedTx, signers: &[&PrivateKey]) -> Result<avm::Tx, String> {
    let bytes = unsigned.to_bytes().map_err(|e| e.to_string())?;
    let hash = *Id::from_sha256(&bytes).as_bytes();
    let credentials = signers
        .iter()
        .map(|k| {
            avm::FxCredential::new(secp256k1fx::Credential::new(vec![k.sign_hash(&hash)]).into())
        })
        .collect();
    Ok(avm::Tx::new(unsigned, credentials))
}

/// The amount, signature index and key with which a 1-of-n TransferOutput can be spent now.
fn spendable<'k>(
    u: &Utxo,
    keys: &'k [PrivateKey],
    time: u64,
) -> Option<(u64, u32, &'k PrivateKey)> {
    let avm::UtxoOutput::Secp256k1fxTransferOutput(o) = &u.utxo.output else {
        return None;
    };
    if o.owners.threshold != 1 || o.owners.locktime > time {
        return None;
    }
    o.owners.addresses.iter().enumerate().find_map(|(i, a)| {
        keys.iter()
            .find(|k| k.address() == *a)
            .map(|k| (o.amount, i as u32, k))
    })
}

fn transfer_output(asset: Id, amount: u64, to: ShortId) -> avm::TransferableOutput {
    avm::TransferableOutput::new(
        asset,
        secp256k1fx::TransferOutput::new(amount, secp256k1fx::OutputOwners::new(0, 1, vec![to]))
            .into(),
    )
}
