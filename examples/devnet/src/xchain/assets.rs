//! The X-chain's assets beyond moving funds: the initial states a CreateAssetTx gives an
//! asset, and the operations an OperationTx makes on minting rights and tokens, each by its
//! fx's rules (`vms/secp256k1fx`, `vms/nftfx`, `vms/propertyfx`).

use super::Utxo;
use super::vocab::{Outputs, Signed};
use crate::flow::Flow;
use crate::refusal::{Refusal, VerifyError, fail};
use crate::secp::check_signatures;
use crate::store::StoreError;
use avalanche_rpc::codec::{avm, nftfx, secp256k1fx};
use avalanche_rpc::wire::Id;

/// The outputs of a CreateAssetTx's initial states, each of its state's fx, of the new asset
/// (whose ID is the tx's).
pub fn create(t: &avm::CreateAssetTx, out: &mut Outputs<'_>) -> Result<(), Refusal> {
    let asset = out.tx_id();
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
            let (fx_index, output) = match o {
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
                avm::StateOutput::OwnedOutput(x) => (2, avm::UtxoOutput::OwnedOutput(x.clone())),
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
            out.produce(asset, output);
        }
    }
    out.fx.new_asset = Some(asset);
    Ok(())
}

/// What an operation spends, who signs for it, and what it makes.
struct Operated {
    owners: secp256k1fx::OutputOwners,
    indices: Vec<u32>,
    cred: secp256k1fx::Credential,
    outs: Vec<avm::UtxoOutput>,
}

/// The operations of an OperationTx, in order: each spends the one UTXO it names (not spent
/// by an input or another operation), of its asset, signed for by credential `first + j`;
/// its fx's rules hold; what it makes is produced.
pub fn operate(
    operations: &[avm::Operation],
    flow: &mut Flow,
    lookup: &mut dyn FnMut(&Id) -> Result<Option<Utxo>, StoreError>,
    (signed, first): (&Signed<'_>, usize),
    out: &mut Outputs<'_>,
) -> Result<(), VerifyError> {
    for (j, op) in operations.iter().enumerate() {
        let place = format!("unsignedTx.operations[{j}]");
        if op.utxo_ids.len() != 1 {
            return fail(format!(
                "`{place}.inputIDs` must name exactly the one output the operation spends"
            ));
        }
        // `semantic_verifier.go:198-200`: the state's error, unwrapped.
        let (utxo_id, utxo) = flow.fetch(
            &op.utxo_ids[0],
            &place,
            |id| lookup(id),
            |_, _| "not found".into(),
        )?;
        let utxo = utxo.utxo;
        if utxo.asset_id != op.asset_id {
            return fail(format!(
                "`{place}.assetID` is {}, but the UTXO holds {}",
                op.asset_id, utxo.asset_id
            ));
        }
        let k = first + j;
        let cred = &signed.tx.credentials[k];
        let cred_place = format!("credentials[{k}]");
        let done = match &op.op {
            avm::FxOperation::Secp256k1fxMintOperation(mint) => {
                let avm::UtxoOutput::Secp256k1fxMintOutput(right) = &utxo.output else {
                    return fail(format!("`{place}` spends a UTXO that is not a MintOutput"));
                };
                Operated {
                    owners: right.owners.clone(),
                    indices: mint.mint_input.signature_indices.clone(),
                    cred: secp_credential(cred, &cred_place)?.clone(),
                    outs: vec![
                        avm::UtxoOutput::Secp256k1fxMintOutput(mint.mint_output.clone()),
                        avm::UtxoOutput::Secp256k1fxTransferOutput(mint.transfer_output.clone()),
                    ],
                }
            }
            avm::FxOperation::NftfxMintOperation(mint) => {
                nft_mint(mint, &utxo, &place, nft_credential(cred, &cred_place))?
            }
            avm::FxOperation::TransferOperation(transfer) => {
                nft_transfer(transfer, &utxo, &place, nft_credential(cred, &cred_place))?
            }
            avm::FxOperation::PropertyfxMintOperation(mint) => {
                property_mint(mint, &utxo, &place, property_credential(cred, &cred_place))?
            }
            avm::FxOperation::BurnOperation(burn) => {
                let avm::UtxoOutput::OwnedOutput(owned) = &utxo.output else {
                    return fail(format!(
                        "`{place}` spends a UTXO that is not a propertyfx OwnedOutput"
                    ));
                };
                Operated {
                    owners: owned.owners.clone(),
                    indices: burn.input.signature_indices.clone(),
                    cred: property_credential(cred, &cred_place)?,
                    outs: Vec::new(),
                }
            }
            _ => return fail(format!("`{place}` is an operation of an unknown fx")),
        };
        let (hash, time) = (signed.hash, signed.time);
        check_signatures(&done.owners, &done.indices, &done.cred, hash, time, &place)
            .map_err(Refusal::from)?;
        out.touch(&done.owners, op.asset_id);
        out.fx.consumed.push(utxo_id);
        for o in done.outs {
            match &o {
                avm::UtxoOutput::NftfxTransferOutput(t) => out.touch(&t.owners, op.asset_id),
                avm::UtxoOutput::OwnedOutput(o) => out.touch(&o.owners, op.asset_id),
                _ => {}
            }
            out.produce(op.asset_id, o);
        }
    }
    Ok(())
}

/// nftfx minting (`vms/nftfx/fx.go`): spends the group's MintOutput and makes one token per
/// owner set.
fn nft_mint(
    mint: &nftfx::MintOperation,
    utxo: &avm::Utxo,
    place: &str,
    cred: Result<secp256k1fx::Credential, Refusal>,
) -> Result<Operated, Refusal> {
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
            nftfx::TransferOutput::new(mint.group_id, mint.payload.clone(), owners.clone()),
        ));
    }
    Ok(Operated {
        owners: right.owners.clone(),
        indices: mint.mint_input.signature_indices.clone(),
        cred: cred?,
        outs,
    })
}

/// nftfx transfer: moves one token, its group and payload unchanged.
fn nft_transfer(
    transfer: &nftfx::TransferOperation,
    utxo: &avm::Utxo,
    place: &str,
    cred: Result<secp256k1fx::Credential, Refusal>,
) -> Result<Operated, Refusal> {
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
        return fail(format!("`{place}.output.payload` differs from the token's"));
    }
    check_owners(&transfer.output.owners, &format!("{place}.output"))?;
    Ok(Operated {
        owners: token.owners.clone(),
        indices: transfer.input.signature_indices.clone(),
        cred: cred?,
        outs: vec![avm::UtxoOutput::NftfxTransferOutput(
            transfer.output.clone(),
        )],
    })
}

/// propertyfx minting (`vms/propertyfx/fx.go`): passes the right on to the same owners and
/// makes an owned property.
fn property_mint(
    mint: &avalanche_rpc::codec::propertyfx::MintOperation,
    utxo: &avm::Utxo,
    place: &str,
    cred: Result<secp256k1fx::Credential, Refusal>,
) -> Result<Operated, Refusal> {
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
    Ok(Operated {
        owners: right.owners.clone(),
        indices: mint.mint_input.signature_indices.clone(),
        cred: cred?,
        outs: vec![
            avm::UtxoOutput::PropertyfxMintOutput(mint.mint_output.clone()),
            avm::UtxoOutput::OwnedOutput(mint.owned_output.clone()),
        ],
    })
}

fn secp_credential<'a>(
    c: &'a avm::FxCredential,
    place: &str,
) -> Result<&'a secp256k1fx::Credential, Refusal> {
    match &c.credential {
        avm::Credential::Secp256k1fxCredential(c) => Ok(c),
        _ => fail(format!("`{place}` is not a secp256k1fx credential")),
    }
}

/// An nftfx credential's signatures (the same body as secp256k1fx's).
fn nft_credential(c: &avm::FxCredential, place: &str) -> Result<secp256k1fx::Credential, Refusal> {
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
) -> Result<secp256k1fx::Credential, Refusal> {
    match &c.credential {
        avm::Credential::PropertyfxCredential(c) => {
            Ok(secp256k1fx::Credential::new(c.signatures.clone()))
        }
        _ => fail(format!("`{place}` is not a propertyfx credential")),
    }
}

/// Owners that can be spent (`secp256k1fx.OutputOwners.Verify`).
fn check_owners(o: &secp256k1fx::OutputOwners, place: &str) -> Result<(), Refusal> {
    crate::secp::check_threshold(o.threshold, o.addresses.len(), place)
}
