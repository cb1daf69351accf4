//! Verifying an X-chain transaction against the chain's state, as the node's executor does
//! (`vms/avm/txs/executor/syntactic_verifier.go`, `semantic_verifier.go`,
//! `vms/secp256k1fx/fx.go`), and what an accepted transaction changes.
//!
//! Checks, in order: the codec's rules (`verify`), network and chain IDs, one credential per
//! input and operation, each spent UTXO existing and unspent, its asset, its amount, its
//! locktime against the block time, its owners' signatures (threshold, indices, recovered
//! public keys), and the flow of every asset (consumed ≥ produced, plus the fee in AVAX).

use super::Utxo;
use avalanche_rpc::codec::{Verify, avax, avm, nftfx, secp256k1fx};
use avalanche_rpc::wire::{Id, ShortId};
use std::collections::{BTreeMap, BTreeSet};

pub use crate::secp::TxError;
use crate::secp::{check_signatures, fail};

/// The chain's parameters a transaction is checked against.
#[derive(Debug, Clone)]
pub struct Rules {
    pub network_id: u32,
    pub chain_id: Id,
    pub avax: Id,
    pub tx_fee: u64,
    pub create_asset_tx_fee: u64,
}

/// What an accepted transaction changes.
#[derive(Debug, Clone, Default)]
pub struct Effects {
    /// The UTXOs it spends.
    pub consumed: Vec<Id>,
    /// The UTXOs it creates.
    pub produced: Vec<Utxo>,
    /// (address, asset) pairs whose balance it changes (`avm.getAddressTxs`).
    pub touched: BTreeSet<([u8; 20], Id)>,
    /// The asset it creates, if any: (ID = the tx ID, name, symbol, denomination).
    pub new_asset: Option<Id>,
    /// The shared-memory UTXOs it imports (from the P-chain).
    pub imported: Vec<Id>,
    /// The UTXOs it exports into shared memory (to the P-chain).
    pub exported: Vec<Utxo>,
}

/// Verifies `tx` (whose ID is `tx_id`) at block time `time` against UTXOs found by `lookup`
/// (`None`: no such unspent output), and returns what it changes.
pub fn verify(
    rules: &Rules,
    tx: &avm::Tx,
    tx_id: Id,
    time: u64,
    lookup: &mut dyn FnMut(&Id) -> Result<Option<Utxo>, TxError>,
    atomic: &mut dyn FnMut(&Id) -> Result<Option<Utxo>, TxError>,
) -> Result<Effects, TxError> {
    tx.verify()
        .map_err(|e| TxError(format!("the transaction breaks a rule of the codec: {e}")))?;
    let unsigned_bytes = tx
        .unsigned
        .to_bytes()
        .map_err(|e| TxError(format!("the transaction does not encode: {e}")))?;
    let hash = *Id::from_sha256(&unsigned_bytes).as_bytes();
    let (base, fee) = match &tx.unsigned {
        avm::UnsignedTx::BaseTx(t) => (&t.base, rules.tx_fee),
        avm::UnsignedTx::CreateAssetTx(t) => (&t.base, rules.create_asset_tx_fee),
        avm::UnsignedTx::OperationTx(t) => (&t.base, rules.tx_fee),
        avm::UnsignedTx::ImportTx(t) => {
            other_chain(&t.source_chain, "unsignedTx.sourceChain")?;
            (&t.base, rules.tx_fee)
        }
        avm::UnsignedTx::ExportTx(t) => {
            other_chain(&t.destination_chain, "unsignedTx.destinationChain")?;
            (&t.base, rules.tx_fee)
        }
        _ => return fail("a transaction type this devnet does not know"),
    };
    if base.network_id != rules.network_id {
        return fail(format!(
            "`unsignedTx.networkID` is {}, but this network's ID is {}",
            base.network_id, rules.network_id
        ));
    }
    if base.blockchain_id != rules.chain_id {
        return fail(format!(
            "`unsignedTx.blockchainID` is {}, but this chain's ID is {}",
            base.blockchain_id, rules.chain_id
        ));
    }
    let operations: &[avm::Operation] = match &tx.unsigned {
        avm::UnsignedTx::OperationTx(t) => &t.operations,
        _ => &[],
    };
    let imported: &[avm::TransferableInput] = match &tx.unsigned {
        avm::UnsignedTx::ImportTx(t) => &t.imported_inputs,
        _ => &[],
    };
    let expected_creds = base.inputs.len() + imported.len() + operations.len();
    if tx.credentials.len() != expected_creds {
        return fail(format!(
            "the transaction has {} credentials but {} inputs, imported inputs and operations; it needs one for each",
            tx.credentials.len(),
            expected_creds
        ));
    }

    let mut fx = Effects::default();
    let mut consumed: BTreeMap<Id, u128> = BTreeMap::new();
    let mut produced: BTreeMap<Id, u128> = BTreeMap::new();
    let mut spent_ids = BTreeSet::new();
    *produced.entry(rules.avax).or_default() += u128::from(fee);

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
        let utxo_id = input.utxo_id.id();
        let utxo = if from_memory {
            spend(atomic, &utxo_id, &input.utxo_id, &place, &mut spent_ids)?
        } else {
            spend(lookup, &utxo_id, &input.utxo_id, &place, &mut spent_ids)?
        };
        if utxo.asset_id != input.asset_id {
            return fail(format!(
                "`{place}.assetID` is {}, but the UTXO holds {}",
                input.asset_id, utxo.asset_id
            ));
        }
        let avm::TransferableIn::TransferInput(ti) = &input.input else {
            return fail(format!(
                "`{place}.input` is not a secp256k1fx TransferInput"
            ));
        };
        let avm::UtxoOutput::Secp256k1fxTransferOutput(out) = &utxo.output else {
            return fail(format!(
                "`{place}` spends a UTXO that is not a secp256k1fx TransferOutput"
            ));
        };
        if ti.amount != out.amount {
            return fail(format!(
                "`{place}.input.amount` is {}, but the UTXO holds {}",
                ti.amount, out.amount
            ));
        }
        let cred = secp_credential(&tx.credentials[k], &format!("credentials[{k}]"))?;
        check_signatures(
            &out.owners,
            &ti.input.signature_indices,
            cred,
            &hash,
            time,
            &place,
        )?;
        *consumed.entry(input.asset_id).or_default() += u128::from(ti.amount);
        touch(&mut fx, &out.owners, input.asset_id);
        if from_memory {
            fx.imported.push(utxo_id);
        } else {
            fx.consumed.push(utxo_id);
        }
    }

    // Outputs: index i for outputs[i], then the tx type's own outputs.
    let mut index = 0u32;
    for (i, o) in base.outputs.iter().enumerate() {
        let avm::TransferableOut::TransferOutput(out) = &o.output else {
            return fail(format!(
                "`unsignedTx.outputs[{i}].output` is not a secp256k1fx TransferOutput"
            ));
        };
        *produced.entry(o.asset_id).or_default() += u128::from(out.amount);
        produce(
            &mut fx,
            tx_id,
            &mut index,
            o.asset_id,
            avm::UtxoOutput::Secp256k1fxTransferOutput(out.clone()),
        );
    }
    match &tx.unsigned {
        avm::UnsignedTx::CreateAssetTx(t) => {
            for (i, state) in t.initial_states.iter().enumerate() {
                let place = format!("unsignedTx.initialStates[{i}]");
                if state.fx_index > 2 {
                    return fail(format!(
                        "`{place}.fxIndex` is {}: the X-chain has fxs 0 (secp256k1fx), 1 (nftfx) and 2 (propertyfx)",
                        state.fx_index
                    ));
                }
                for (j, o) in state.outputs.iter().enumerate() {
                    // Each output belongs to its state's fx.
                    let (fx_index, out) = match o {
                        avm::StateOutput::Secp256k1fxTransferOutput(x) => {
                            (0, avm::UtxoOutput::Secp256k1fxTransferOutput(x.clone()))
                        }
                        avm::StateOutput::Secp256k1fxMintOutput(x) => {
                            (0, avm::UtxoOutput::Secp256k1fxMintOutput(x.clone()))
                        }
                        avm::StateOutput::NftfxMintOutput(x) => {
                            (1, avm::UtxoOutput::NftfxMintOutput(x.clone()))
                        }
                        avm::StateOutput::NftfxTransferOutput(x) => {
                            (1, avm::UtxoOutput::NftfxTransferOutput(x.clone()))
                        }
                        avm::StateOutput::PropertyfxMintOutput(x) => {
                            (2, avm::UtxoOutput::PropertyfxMintOutput(x.clone()))
                        }
                        avm::StateOutput::OwnedOutput(x) => {
                            (2, avm::UtxoOutput::OwnedOutput(x.clone()))
                        }
                        _ => {
                            return fail(format!("`{place}.outputs[{j}]` is of an unknown fx"));
                        }
                    };
                    if fx_index != state.fx_index {
                        return fail(format!(
                            "`{place}.outputs[{j}]` belongs to fx {fx_index}, not to the state's fx {}",
                            state.fx_index
                        ));
                    }
                    produce(&mut fx, tx_id, &mut index, tx_id, out);
                }
            }
            fx.new_asset = Some(tx_id);
        }
        avm::UnsignedTx::OperationTx(t) => {
            for (j, op) in t.operations.iter().enumerate() {
                let place = format!("unsignedTx.operations[{j}]");
                if op.utxo_ids.len() != 1 {
                    return fail(format!(
                        "`{place}.inputIDs` must name exactly the one output the operation spends"
                    ));
                }
                let utxo_id = op.utxo_ids[0].id();
                let utxo = spend(lookup, &utxo_id, &op.utxo_ids[0], &place, &mut spent_ids)?;
                if utxo.asset_id != op.asset_id {
                    return fail(format!(
                        "`{place}.assetID` is {}, but the UTXO holds {}",
                        op.asset_id, utxo.asset_id
                    ));
                }
                let k = base.inputs.len() + imported.len() + j;
                let cred_place = format!("credentials[{k}]");
                // What the operation spends, who signs for it, and what it makes.
                let (owners, indices, cred, outs): (_, _, _, Vec<avm::UtxoOutput>) = match &op.op {
                    avm::FxOperation::Secp256k1fxMintOperation(mint) => {
                        let avm::UtxoOutput::Secp256k1fxMintOutput(right) = &utxo.output else {
                            return fail(format!(
                                "`{place}` spends a UTXO that is not a MintOutput"
                            ));
                        };
                        (
                            right.owners.clone(),
                            mint.mint_input.signature_indices.clone(),
                            secp_credential(&tx.credentials[k], &cred_place)?.clone(),
                            vec![
                                avm::UtxoOutput::Secp256k1fxMintOutput(mint.mint_output.clone()),
                                avm::UtxoOutput::Secp256k1fxTransferOutput(
                                    mint.transfer_output.clone(),
                                ),
                            ],
                        )
                    }
                    // nftfx (`vms/nftfx/fx.go`): minting spends the group's MintOutput and makes
                    // one token per owner set; a transfer moves one token, unchanged.
                    avm::FxOperation::NftfxMintOperation(mint) => {
                        let avm::UtxoOutput::NftfxMintOutput(right) = &utxo.output else {
                            return fail(format!(
                                "`{place}` spends a UTXO that is not an nftfx MintOutput"
                            ));
                        };
                        if right.group_id != mint.group_id {
                            return fail(format!(
                                "`{place}.groupID` is {}, but the minting right is for group {}",
                                mint.group_id, right.group_id
                            ));
                        }
                        let mut outs = Vec::new();
                        for (m, owners) in mint.outputs.iter().enumerate() {
                            check_owners(owners, &format!("{place}.outputs[{m}]"))?;
                            outs.push(avm::UtxoOutput::NftfxTransferOutput(
                                nftfx::TransferOutput::new(
                                    mint.group_id,
                                    mint.payload.clone(),
                                    owners.clone(),
                                ),
                            ));
                        }
                        (
                            right.owners.clone(),
                            mint.mint_input.signature_indices.clone(),
                            nft_credential(&tx.credentials[k], &cred_place)?,
                            outs,
                        )
                    }
                    avm::FxOperation::TransferOperation(transfer) => {
                        let avm::UtxoOutput::NftfxTransferOutput(token) = &utxo.output else {
                            return fail(format!(
                                "`{place}` spends a UTXO that is not an nftfx TransferOutput"
                            ));
                        };
                        if token.group_id != transfer.output.group_id {
                            return fail(format!(
                                "`{place}.output.groupID` is {}, but the token is of group {}",
                                transfer.output.group_id, token.group_id
                            ));
                        }
                        if token.payload != transfer.output.payload {
                            return fail(format!(
                                "`{place}.output.payload` differs from the token's"
                            ));
                        }
                        check_owners(&transfer.output.owners, &format!("{place}.output"))?;
                        (
                            token.owners.clone(),
                            transfer.input.signature_indices.clone(),
                            nft_credential(&tx.credentials[k], &cred_place)?,
                            vec![avm::UtxoOutput::NftfxTransferOutput(
                                transfer.output.clone(),
                            )],
                        )
                    }
                    // propertyfx (`vms/propertyfx/fx.go`): minting passes the right on to the
                    // same owners and makes an owned property; burning destroys one.
                    avm::FxOperation::PropertyfxMintOperation(mint) => {
                        let avm::UtxoOutput::PropertyfxMintOutput(right) = &utxo.output else {
                            return fail(format!(
                                "`{place}` spends a UTXO that is not a propertyfx MintOutput"
                            ));
                        };
                        if right.owners != mint.mint_output.owners {
                            return fail(format!(
                                "`{place}.mintOutput` must keep the minting right's owners"
                            ));
                        }
                        check_owners(&mint.owned_output.owners, &format!("{place}.ownedOutput"))?;
                        (
                            right.owners.clone(),
                            mint.mint_input.signature_indices.clone(),
                            property_credential(&tx.credentials[k], &cred_place)?,
                            vec![
                                avm::UtxoOutput::PropertyfxMintOutput(mint.mint_output.clone()),
                                avm::UtxoOutput::OwnedOutput(mint.owned_output.clone()),
                            ],
                        )
                    }
                    avm::FxOperation::BurnOperation(burn) => {
                        let avm::UtxoOutput::OwnedOutput(owned) = &utxo.output else {
                            return fail(format!(
                                "`{place}` spends a UTXO that is not a propertyfx OwnedOutput"
                            ));
                        };
                        (
                            owned.owners.clone(),
                            burn.input.signature_indices.clone(),
                            property_credential(&tx.credentials[k], &cred_place)?,
                            Vec::new(),
                        )
                    }
                    _ => return fail(format!("`{place}` is an operation of an unknown fx")),
                };
                check_signatures(&owners, &indices, &cred, &hash, time, &place)?;
                touch(&mut fx, &owners, op.asset_id);
                fx.consumed.push(utxo_id);
                for out in outs {
                    match &out {
                        avm::UtxoOutput::NftfxTransferOutput(t) => {
                            touch(&mut fx, &t.owners, op.asset_id)
                        }
                        avm::UtxoOutput::OwnedOutput(o) => touch(&mut fx, &o.owners, op.asset_id),
                        _ => {}
                    }
                    produce(&mut fx, tx_id, &mut index, op.asset_id, out);
                }
            }
        }
        avm::UnsignedTx::ExportTx(t) => {
            for (j, o) in t.exported_outputs.iter().enumerate() {
                let avm::TransferableOut::TransferOutput(out) = &o.output else {
                    return fail(format!(
                        "`unsignedTx.exportedOutputs[{j}].output` is not a secp256k1fx TransferOutput"
                    ));
                };
                *produced.entry(o.asset_id).or_default() += u128::from(out.amount);
                for a in &out.owners.addresses {
                    fx.touched.insert((*a.as_bytes(), o.asset_id));
                }
                let utxo = avm::Utxo::new(
                    avax::UtxoId::new(tx_id, index),
                    o.asset_id,
                    avm::UtxoOutput::Secp256k1fxTransferOutput(out.clone()),
                );
                index += 1;
                fx.exported.push(Utxo::new(utxo));
            }
        }
        _ => {}
    }

    // The flow: every asset consumed at least as produced (AVAX including the fee).
    for (asset, out) in &produced {
        let have = consumed.get(asset).copied().unwrap_or(0);
        if have < *out {
            let what = if *asset == rules.avax {
                format!(" (outputs plus the fee of {fee} nAVAX)")
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

/// The devnet moves funds between the X- and P-chains only (no EVM runs for the C-chain).
fn other_chain(chain: &Id, place: &str) -> Result<(), TxError> {
    if *chain != Id::ZERO {
        return fail(format!(
            "`{place}` is {chain}; this devnet moves funds between the X-chain and the P-chain ({}) only",
            Id::ZERO
        ));
    }
    Ok(())
}

fn spend(
    lookup: &mut dyn FnMut(&Id) -> Result<Option<Utxo>, TxError>,
    utxo_id: &Id,
    reference: &avax::UtxoId,
    place: &str,
    spent: &mut BTreeSet<Id>,
) -> Result<avm::Utxo, TxError> {
    if !spent.insert(*utxo_id) {
        return fail(format!("`{place}` spends UTXO {utxo_id} a second time"));
    }
    match lookup(utxo_id)? {
        Some(u) => Ok(u.utxo),
        None => fail(format!(
            "`{place}` spends output {} of tx {}, which is not an unspent output of this chain (UTXO {utxo_id})",
            reference.output_index, reference.tx_id
        )),
    }
}

fn secp_credential<'a>(
    c: &'a avm::FxCredential,
    place: &str,
) -> Result<&'a secp256k1fx::Credential, TxError> {
    match &c.credential {
        avm::Credential::Secp256k1fxCredential(c) => Ok(c),
        _ => fail(format!("`{place}` is not a secp256k1fx credential")),
    }
}

/// An nftfx credential's signatures (the same body as secp256k1fx's).
fn nft_credential(c: &avm::FxCredential, place: &str) -> Result<secp256k1fx::Credential, TxError> {
    match &c.credential {
        avm::Credential::NftfxCredential(c) => {
            Ok(secp256k1fx::Credential::new(c.signatures.clone()))
        }
        _ => fail(format!("`{place}` is not an nftfx credential")),
    }
}

/// A propertyfx credential's signatures (the same body as secp256k1fx's).
fn property_credential(
    c: &avm::FxCredential,
    place: &str,
) -> Result<secp256k1fx::Credential, TxError> {
    match &c.credential {
        avm::Credential::PropertyfxCredential(c) => {
            Ok(secp256k1fx::Credential::new(c.signatures.clone()))
        }
        _ => fail(format!("`{place}` is not a propertyfx credential")),
    }
}

/// Owners that can be spent (`secp256k1fx.OutputOwners.Verify`).
fn check_owners(o: &secp256k1fx::OutputOwners, place: &str) -> Result<(), TxError> {
    crate::secp::check_threshold(o.threshold, o.addresses.len(), place)
}

fn touch(fx: &mut Effects, owners: &secp256k1fx::OutputOwners, asset: Id) {
    for a in &owners.addresses {
        fx.touched.insert((*a.as_bytes(), asset));
    }
}

fn produce(fx: &mut Effects, tx_id: Id, index: &mut u32, asset: Id, output: avm::UtxoOutput) {
    let owners: Vec<ShortId> = match &output {
        avm::UtxoOutput::Secp256k1fxTransferOutput(o) => o.owners.addresses.clone(),
        avm::UtxoOutput::Secp256k1fxMintOutput(o) => o.owners.addresses.clone(),
        _ => Vec::new(),
    };
    for a in &owners {
        fx.touched.insert((*a.as_bytes(), asset));
    }
    let utxo = avm::Utxo::new(avax::UtxoId::new(tx_id, *index), asset, output);
    *index += 1;
    fx.produced.push(Utxo::new(utxo));
}
