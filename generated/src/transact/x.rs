//! X-chain builders: pure functions from a context, UTXOs and a request to an unsigned
//! transaction and its fee. `base_tx`, `export_tx` and `import_tx` are AvalancheJS 5.2.0's
//! `newBaseTx`, `newExportTx` and `newImportTx` (same UTXOs in the same order, same bytes);
//! `create_asset_tx` and `operation_tx` follow the node's rules with the same spend.

use std::collections::BTreeSet;

use crate::codec::{avm, nftfx, propertyfx, secp256k1fx};
use crate::wire::{Id, ShortId};

use super::context::Context;
use super::error::BuildError;
/// The node-facing part (feature `client`): every page of this chain's UTXOs, the balances
/// they make, and issuing
/// with a handle to wait on ([`Pending`](super::Pending)).
#[cfg(feature = "client")]
pub use super::node::{issue_x_pending as issue, x_balances as balances, x_utxos as utxos};
use super::payer::{Payer, check_owners};
use super::sign::{self, CredentialKind, Signers};
use super::spend::{self, Amounts, encoded, match_owners, utxo_order};

/// An X-chain transaction, built.
pub type Unsigned = sign::Unsigned<avm::UnsignedTx>;

/// The former name of [`Unsigned`].
#[deprecated(since = "0.2.0", note = "use `Unsigned`")]
pub type XUnsigned = Unsigned;

/// A transfer output: `amount` of `asset` to `owners`.
pub fn output(
    asset: Id,
    amount: u64,
    owners: secp256k1fx::OutputOwners,
) -> avm::TransferableOutput {
    avm::TransferableOutput::new(
        asset,
        secp256k1fx::TransferOutput::new(amount, owners).into(),
    )
}

fn check_outputs(field: &str, outputs: &[avm::TransferableOutput]) -> Result<Amounts, BuildError> {
    let mut sum = Amounts::default();
    for (i, o) in outputs.iter().enumerate() {
        let avm::TransferableOut::TransferOutput(t) = &o.output;
        if t.amount == 0 {
            return Err(BuildError::invalid(
                format!("{field}[{i}].amount"),
                "0: the node refuses an output of nothing",
            ));
        }
        check_owners(&format!("{field}[{i}].owners"), &t.owners)?;
        sum.add(o.asset_id, t.amount)?;
    }
    Ok(sum)
}

fn secp(addresses: Vec<ShortId>) -> Signers {
    Signers {
        kind: CredentialKind::Secp256k1,
        addresses,
    }
}

fn avax_of_inputs(ctx: &Context, ins: &[avm::TransferableInput]) -> u64 {
    ins.iter()
        .filter(|i| i.asset_id == ctx.avax_asset_id)
        .map(|i| match &i.input {
            avm::TransferableIn::TransferInput(t) => t.amount,
        })
        .fold(0u64, u64::saturating_add)
}

fn avax_of_outputs(ctx: &Context, outs: &[avm::TransferableOutput]) -> u64 {
    outs.iter()
        .filter(|o| o.asset_id == ctx.avax_asset_id)
        .map(|o| match &o.output {
            avm::TransferableOut::TransferOutput(t) => t.amount,
        })
        .fold(0u64, u64::saturating_add)
}

/// The spend of a transaction burning `fee` AVAX and `amounts`.
fn spend_for(
    ctx: &Context,
    utxos: &[avm::Utxo],
    payer: &Payer,
    fee: u64,
    amounts: &Amounts,
) -> Result<(spend::XSpent, BTreeSet<ShortId>), BuildError> {
    let from = payer.spenders()?;
    let mut to_burn = Amounts(vec![(ctx.avax_asset_id, fee)]);
    for (asset, v) in &amounts.0 {
        to_burn.add(*asset, *v)?;
    }
    let change = payer.change_owners(payer.change_threshold)?;
    Ok((
        spend::x_spend(&to_burn, utxos, &from, &change, payer.time)?,
        from,
    ))
}

fn base(
    ctx: &Context,
    payer: &Payer,
    outputs: Vec<avm::TransferableOutput>,
    inputs: Vec<avm::TransferableInput>,
) -> avm::Base {
    avm::Base::new(
        ctx.network_id,
        ctx.x_chain_id,
        outputs,
        inputs,
        payer.memo.clone(),
    )
}

/// A BaseTx paying `outputs` (any assets, owners, locktimes and thresholds) from `utxos`,
/// the fee (`txFee`) in AVAX (AvalancheJS's `newBaseTx`).
pub fn base_tx(
    ctx: &Context,
    utxos: &[avm::Utxo],
    payer: &Payer,
    outputs: &[avm::TransferableOutput],
) -> Result<Unsigned, BuildError> {
    let amounts = check_outputs("outputs", outputs)?;
    let (spent, _) = spend_for(ctx, utxos, payer, ctx.x_tx_fee, &amounts)?;
    let (inputs, signers): (Vec<_>, Vec<_>) = spent.inputs.into_iter().unzip();
    let mut all: Vec<avm::TransferableOutput> = outputs.to_vec();
    all.extend(spent.change);
    all.sort_by_cached_key(encoded);
    let burned = avax_of_inputs(ctx, &inputs).saturating_sub(avax_of_outputs(ctx, &all));
    let tx = avm::BaseTx::new(base(ctx, payer, all, inputs)).into();
    Ok(Unsigned::new(
        tx,
        signers.into_iter().map(secp).collect(),
        ctx.x_tx_fee,
        burned,
    ))
}

/// An ExportTx sending `outputs` to `destination` (the P-chain's or C-chain's ID), paid
/// from `utxos` with the fee (AvalancheJS's `newExportTx`).
pub fn export_tx(
    ctx: &Context,
    utxos: &[avm::Utxo],
    payer: &Payer,
    destination: Id,
    outputs: &[avm::TransferableOutput],
) -> Result<Unsigned, BuildError> {
    if destination == ctx.x_chain_id {
        return Err(BuildError::invalid(
            "destination",
            "the X-chain itself; export to the P-chain or the C-chain",
        ));
    }
    let amounts = check_outputs("outputs", outputs)?;
    let (spent, _) = spend_for(ctx, utxos, payer, ctx.x_tx_fee, &amounts)?;
    let (inputs, signers): (Vec<_>, Vec<_>) = spent.inputs.into_iter().unzip();
    let mut exported = outputs.to_vec();
    exported.sort_by_cached_key(encoded);
    let out = avax_of_outputs(ctx, &spent.change).saturating_add(avax_of_outputs(ctx, &exported));
    let burned = avax_of_inputs(ctx, &inputs).saturating_sub(out);
    let tx = avm::ExportTx::new(
        base(ctx, payer, spent.change, inputs),
        destination,
        exported,
    )
    .into();
    Ok(Unsigned::new(
        tx,
        signers.into_iter().map(secp).collect(),
        ctx.x_tx_fee,
        burned,
    ))
}

/// An ImportTx of every UTXO in `atomic` (exported to the X-chain from `source`, as
/// `avm.getUTXOs` with `sourceChain` lists them) that the payer can spend, to `to`; the fee
/// comes out of the imported AVAX, or, when that is short, from the payer's `local` UTXOs
/// (AvalancheJS's `newImportTx`, which would spend the imported UTXOs a second time there).
pub fn import_tx(
    ctx: &Context,
    atomic: &[avm::Utxo],
    local: &[avm::Utxo],
    payer: &Payer,
    source: Id,
    to: &secp256k1fx::OutputOwners,
) -> Result<Unsigned, BuildError> {
    check_owners("to", to)?;
    let from = payer.spenders()?;
    let mut imported = Vec::new();
    let mut amounts = Amounts::default();
    for u in atomic {
        let avm::UtxoOutput::Secp256k1fxTransferOutput(out) = &u.output else {
            continue;
        };
        let Some((indices, signers)) = match_owners(&out.owners, &from, payer.time) else {
            continue;
        };
        imported.push((spend::x_input(u, out.amount, indices), signers));
        amounts.add(u.asset_id, out.amount)?;
    }
    if imported.is_empty() {
        return Err(BuildError::NothingToImport { chain: source });
    }
    imported.sort_by(|a, b| utxo_order(&a.0.utxo_id, &b.0.utxo_id));
    let avax = ctx.avax_asset_id;
    let imported_avax = amounts.get(&avax);
    let mut local_spent = spend::XSpent {
        inputs: Vec::new(),
        change: Vec::new(),
    };
    if imported_avax > ctx.x_tx_fee {
        amounts.set(avax, imported_avax - ctx.x_tx_fee);
    } else {
        if imported_avax < ctx.x_tx_fee {
            let short = Amounts(vec![(avax, ctx.x_tx_fee - imported_avax)]);
            let change = payer.change_owners(payer.change_threshold)?;
            local_spent = spend::x_spend(&short, local, &from, &change, payer.time)?;
        }
        amounts.0.retain(|(a, _)| *a != avax);
    }
    let mut outputs = local_spent.change;
    outputs.extend(amounts.0.iter().map(|(a, v)| output(*a, *v, to.clone())));
    outputs.sort_by_cached_key(encoded);
    let (inputs, mut signers): (Vec<_>, Vec<_>) = local_spent.inputs.into_iter().unzip();
    let (imported_inputs, imported_signers): (Vec<_>, Vec<_>) = imported.into_iter().unzip();
    signers.extend(imported_signers);
    let consumed =
        avax_of_inputs(ctx, &inputs).saturating_add(avax_of_inputs(ctx, &imported_inputs));
    let burned = consumed.saturating_sub(avax_of_outputs(ctx, &outputs));
    let tx = avm::ImportTx::new(base(ctx, payer, outputs, inputs), source, imported_inputs).into();
    Ok(Unsigned::new(
        tx,
        signers.into_iter().map(secp).collect(),
        ctx.x_tx_fee,
        burned,
    ))
}

/// A CreateAssetTx of a new asset with its initial states (each fx's outputs: fixed-cap
/// holders, minting rights, NFT groups, properties), the fee (`createAssetTxFee`) paid from
/// `utxos`. States and their outputs are put in the node's order.
pub fn create_asset_tx(
    ctx: &Context,
    utxos: &[avm::Utxo],
    payer: &Payer,
    (name, symbol, denomination): (&str, &str, u8),
    initial_states: Vec<avm::InitialState>,
) -> Result<Unsigned, BuildError> {
    if name.is_empty() || name.len() > 128 || name.trim() != name {
        return Err(BuildError::invalid(
            "name",
            "1 to 128 bytes, no leading or trailing space",
        ));
    }
    if symbol.is_empty() || symbol.len() > 4 || !symbol.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(BuildError::invalid(
            "symbol",
            "1 to 4 upper-case ASCII letters",
        ));
    }
    if denomination > 32 {
        return Err(BuildError::invalid("denomination", "at most 32"));
    }
    if initial_states.is_empty() {
        return Err(BuildError::invalid(
            "initialStates",
            "none: an asset needs at least one",
        ));
    }
    let mut states = initial_states;
    for s in &mut states {
        s.outputs.sort_by_cached_key(encoded);
    }
    states.sort_by_key(|s| s.fx_index);
    if states.windows(2).any(|w| w[0].fx_index == w[1].fx_index) {
        return Err(BuildError::invalid(
            "initialStates",
            "two states of one fx; merge their outputs",
        ));
    }
    let (spent, _) = spend_for(
        ctx,
        utxos,
        payer,
        ctx.x_create_asset_tx_fee,
        &Amounts::default(),
    )?;
    let (inputs, signers): (Vec<_>, Vec<_>) = spent.inputs.into_iter().unzip();
    let burned = avax_of_inputs(ctx, &inputs).saturating_sub(avax_of_outputs(ctx, &spent.change));
    let tx = avm::CreateAssetTx::new(
        base(ctx, payer, spent.change, inputs),
        name.into(),
        symbol.into(),
        denomination,
        states,
    )
    .into();
    Ok(Unsigned::new(
        tx,
        signers.into_iter().map(secp).collect(),
        ctx.x_create_asset_tx_fee,
        burned,
    ))
}

/// One operation of an OperationTx on a UTXO, with who signs it.
#[derive(Debug, Clone)]
pub struct Op {
    /// The operation.
    pub operation: avm::Operation,
    /// Its credential's signers.
    pub signers: Signers,
}

fn op_owners<'u>(
    field: &str,
    utxo: &'u avm::Utxo,
) -> Result<(&'u secp256k1fx::OutputOwners, CredentialKind), BuildError> {
    use avm::UtxoOutput as O;
    Ok(match &utxo.output {
        O::Secp256k1fxMintOutput(m) => (&m.owners, CredentialKind::Secp256k1),
        O::NftfxMintOutput(m) => (&m.owners, CredentialKind::Nft),
        O::NftfxTransferOutput(t) => (&t.owners, CredentialKind::Nft),
        O::PropertyfxMintOutput(m) => (&m.owners, CredentialKind::Property),
        O::OwnedOutput(o) => (&o.owners, CredentialKind::Property),
        O::Secp256k1fxTransferOutput(_) => {
            return Err(BuildError::invalid(
                field,
                "a transfer output: spend it with a BaseTx, not an operation",
            ));
        }
    })
}

fn op(
    field: &str,
    utxo: &avm::Utxo,
    payer: &Payer,
    build: impl FnOnce(secp256k1fx::Input) -> Result<avm::FxOperation, BuildError>,
) -> Result<Op, BuildError> {
    let (owners, kind) = op_owners(field, utxo)?;
    let from = payer.spenders()?;
    let (indices, signers) = match_owners(owners, &from, payer.time).ok_or_else(|| {
        BuildError::invalid(
            field,
            format!(
                "the payer's addresses cannot sign for it ({} of its {} owners must, at time {})",
                owners.threshold,
                owners.addresses.len(),
                payer.time
            ),
        )
    })?;
    let fx_op = build(secp256k1fx::Input::new(indices))?;
    Ok(Op {
        operation: avm::Operation::new(utxo.asset_id, vec![utxo.utxo_id.clone()], fx_op),
        signers: Signers {
            kind,
            addresses: signers,
        },
    })
}

fn wrong(field: &str, want: &str) -> BuildError {
    BuildError::invalid(field, format!("not {want}"))
}

impl Op {
    /// Mints `amount` of a variable-cap asset to `to` with a secp256k1fx minting right; the
    /// right passes on to its owners unchanged.
    pub fn mint(
        utxo: &avm::Utxo,
        payer: &Payer,
        amount: u64,
        to: secp256k1fx::OutputOwners,
    ) -> Result<Op, BuildError> {
        check_owners("to", &to)?;
        op("mint", utxo, payer, |input| {
            let avm::UtxoOutput::Secp256k1fxMintOutput(right) = &utxo.output else {
                return Err(wrong("mint", "a secp256k1fx minting right"));
            };
            Ok(secp256k1fx::MintOperation::new(
                input,
                right.clone(),
                secp256k1fx::TransferOutput::new(amount, to),
            )
            .into())
        })
    }

    /// Mints one NFT of the right's group with `payload` for each of `to`.
    pub fn nft_mint(
        utxo: &avm::Utxo,
        payer: &Payer,
        payload: &[u8],
        to: Vec<secp256k1fx::OutputOwners>,
    ) -> Result<Op, BuildError> {
        for (i, o) in to.iter().enumerate() {
            check_owners(&format!("to[{i}]"), o)?;
        }
        if payload.len() > 1024 {
            return Err(BuildError::invalid(
                "payload",
                format!("{} bytes; the node takes at most 1024", payload.len()),
            ));
        }
        op("nftMint", utxo, payer, |input| {
            let avm::UtxoOutput::NftfxMintOutput(right) = &utxo.output else {
                return Err(wrong("nftMint", "an NFT minting right"));
            };
            Ok(nftfx::MintOperation::new(input, right.group_id, payload.to_vec(), to).into())
        })
    }

    /// Gives an NFT (its group and payload) to `to`.
    pub fn nft_transfer(
        utxo: &avm::Utxo,
        payer: &Payer,
        to: secp256k1fx::OutputOwners,
    ) -> Result<Op, BuildError> {
        check_owners("to", &to)?;
        op("nftTransfer", utxo, payer, |input| {
            let avm::UtxoOutput::NftfxTransferOutput(nft) = &utxo.output else {
                return Err(wrong("nftTransfer", "an NFT"));
            };
            Ok(nftfx::TransferOperation::new(
                input,
                nftfx::TransferOutput::new(nft.group_id, nft.payload.clone(), to),
            )
            .into())
        })
    }

    /// Mints a property for `to`; the right stays with its owners.
    pub fn property_mint(
        utxo: &avm::Utxo,
        payer: &Payer,
        to: secp256k1fx::OutputOwners,
    ) -> Result<Op, BuildError> {
        check_owners("to", &to)?;
        op("propertyMint", utxo, payer, |input| {
            let avm::UtxoOutput::PropertyfxMintOutput(right) = &utxo.output else {
                return Err(wrong("propertyMint", "a property minting right"));
            };
            Ok(propertyfx::MintOperation::new(
                input,
                right.clone(),
                propertyfx::OwnedOutput::new(to),
            )
            .into())
        })
    }

    /// Burns a property.
    pub fn property_burn(utxo: &avm::Utxo, payer: &Payer) -> Result<Op, BuildError> {
        op("propertyBurn", utxo, payer, |input| {
            let avm::UtxoOutput::OwnedOutput(_) = &utxo.output else {
                return Err(wrong("propertyBurn", "a property"));
            };
            Ok(propertyfx::BurnOperation::new(input).into())
        })
    }
}

/// An OperationTx with these operations (mints, NFT transfers, property burns), the fee
/// (`txFee`) paid from `utxos`. Operations are put in the node's order; each signs with its
/// fx's credential, after the inputs'.
pub fn operation_tx(
    ctx: &Context,
    utxos: &[avm::Utxo],
    payer: &Payer,
    ops: Vec<Op>,
) -> Result<Unsigned, BuildError> {
    if ops.is_empty() {
        return Err(BuildError::invalid("operations", "none: give at least one"));
    }
    let mut ops: Vec<(Vec<u8>, Op)> = ops
        .into_iter()
        .map(|o| (encoded(&o.operation), o))
        .collect();
    ops.sort_by(|a, b| a.0.cmp(&b.0));
    if ops.windows(2).any(|w| w[0].0 == w[1].0) {
        return Err(BuildError::invalid(
            "operations",
            "the same operation twice",
        ));
    }
    let used: BTreeSet<(Id, u32)> = ops
        .iter()
        .flat_map(|(_, o)| {
            o.operation
                .utxo_ids
                .iter()
                .map(|u| (u.tx_id, u.output_index))
        })
        .collect();
    let free: Vec<avm::Utxo> = utxos
        .iter()
        .filter(|u| !used.contains(&(u.utxo_id.tx_id, u.utxo_id.output_index)))
        .cloned()
        .collect();
    let (spent, _) = spend_for(ctx, &free, payer, ctx.x_tx_fee, &Amounts::default())?;
    let (inputs, signers): (Vec<_>, Vec<_>) = spent.inputs.into_iter().unzip();
    let mut creds: Vec<Signers> = signers.into_iter().map(secp).collect();
    let burned = avax_of_inputs(ctx, &inputs).saturating_sub(avax_of_outputs(ctx, &spent.change));
    let mut operations = Vec::new();
    for (_, o) in ops {
        operations.push(o.operation);
        creds.push(o.signers);
    }
    let tx = avm::OperationTx::new(base(ctx, payer, spent.change, inputs), operations).into();
    Ok(Unsigned::new(tx, creds, ctx.x_tx_fee, burned))
}
