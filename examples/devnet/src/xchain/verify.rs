//! Verifying an X-chain transaction against the chain's state, as the node's executor does
//! (`vms/avm/txs/executor/syntactic_verifier.go`, `semantic_verifier.go`,
//! `vms/secp256k1fx/fx.go`), and what an accepted transaction changes.
//!
//! Checks, in order: the codec's rules (`verify`), the kind ([`XTxKind`]), network and chain
//! IDs, one credential per input and operation, each spent UTXO existing and unspent, its
//! asset, its amount, its locktime against the block time, its owners' signatures
//! (threshold, indices, recovered public keys) (the flow check, [`crate::flow`]), the
//! outputs, the kind's own (initial states and operations in [`super::assets`], exported
//! outputs), and the flow of every asset (consumed ≥ produced, plus the fee in AVAX).

use super::kind::{Parts, XTxKind};
use super::vocab::{Effects, Outputs, Rules, Signed, touch};
use super::{Utxo, assets};
use crate::flow::{self, Flow, Opened};
use crate::refusal::{Refusal, VerifyError, fail};
use crate::store::StoreError;
use avalanche_rpc::codec::{Verify, avax, avm, secp256k1fx};
use avalanche_rpc::wire::Id;

/// Verifies `tx` (whose ID is `tx_id`) at block time `time` against UTXOs found by `lookup`
/// (`None`: no such unspent output), and returns what it changes: its refusal, or the
/// store failing as a lookup reads it.
pub fn verify(
    rules: &Rules,
    tx: &avm::Tx,
    tx_id: Id,
    time: u64,
    lookup: &mut dyn FnMut(&Id) -> Result<Option<Utxo>, StoreError>,
    atomic: &mut dyn FnMut(&Id) -> Result<Option<Utxo>, StoreError>,
) -> Result<Effects, VerifyError> {
    tx.verify().map_err(|e| crate::engine::rule_broken(&e))?;
    let unsigned_bytes = tx
        .unsigned
        .to_bytes()
        .map_err(|e| Refusal::new(format!("the transaction does not encode: {e}")))?;
    let hash = *Id::from_sha256(&unsigned_bytes).as_bytes();
    let kind = XTxKind::of(&tx.unsigned)?;
    let parts = kind.parts(rules)?;
    let base = parts.base;
    check_base(rules, base)?;
    check_credentials(tx, &parts)?;

    let mut fx = Effects::default();
    let mut flow = Flow::new(rules.avax, parts.fee);
    let spends = flow::spends(&base.inputs, parts.imported);
    let read = |id: &Id, from_memory: bool| {
        if from_memory { atomic(id) } else { lookup(id) }
    };
    for s in flow::spend(&mut flow, spends, read, &tx.credentials, (&hash, time))? {
        if let Some(owners) = s.utxo.output_owners() {
            touch(&mut fx, owners, s.utxo.utxo.asset_id);
        }
        if s.from_memory {
            fx.imported.push(s.id);
        } else {
            fx.consumed.push(s.id);
        }
    }

    // Outputs: index i for outputs[i], then the tx type's own outputs.
    let mut out = Outputs {
        fx: &mut fx,
        tx_id,
        index: 0,
    };
    for (i, o) in base.outputs.iter().enumerate() {
        let avm::TransferableOut::TransferOutput(t) = &o.output else {
            return fail(format!(
                "`unsignedTx.outputs[{i}].output` is not a secp256k1fx TransferOutput"
            ));
        };
        flow.produce(o.asset_id, t.amount);
        out.produce(
            o.asset_id,
            avm::UtxoOutput::Secp256k1fxTransferOutput(t.clone()),
        );
    }
    let signed = Signed {
        tx,
        hash: &hash,
        time,
    };
    let first = base.inputs.len() + parts.imported.len();
    match kind {
        XTxKind::Base(_) | XTxKind::Import(_) => {}
        XTxKind::CreateAsset(t) => assets::create(t, &mut out)?,
        XTxKind::Operation(t) => {
            assets::operate(&t.operations, &mut flow, lookup, (&signed, first), &mut out)?
        }
        XTxKind::Export(t) => export(&t.exported_outputs, &mut flow, &mut out)?,
    }

    // The flow: every asset consumed at least as produced (AVAX including the fee).
    // `vms/components/avax/flow_checker.go:14`.
    flow.settle(&rules.avax, &format!("{} nAVAX", parts.fee), |_, _| {
        "insufficient funds".into()
    })?;
    Ok(fx)
}

/// The base's network and chain, in the node's words: `vms/components/avax/metadata.go` (`errWrongNetworkID`,
/// `errWrongChainID`).
fn check_base(rules: &Rules, base: &avm::Base) -> Result<(), Refusal> {
    if base.network_id != rules.network_id {
        return Err(Refusal::node(
            "tx has wrong network ID",
            format!(
                "`unsignedTx.networkID` is {}, but this network's ID is {}",
                base.network_id, rules.network_id
            ),
        ));
    }
    if base.blockchain_id != rules.chain_id {
        return Err(Refusal::node(
            "tx has wrong chain ID",
            format!(
                "`unsignedTx.blockchainID` is {}, but this chain's ID is {}",
                base.blockchain_id, rules.chain_id
            ),
        ));
    }
    Ok(())
}

/// One credential per input, imported input and operation.
fn check_credentials(tx: &avm::Tx, parts: &Parts<'_>) -> Result<(), Refusal> {
    let expected_creds = parts.base.inputs.len() + parts.imported.len() + parts.operations.len();
    if tx.credentials.len() != expected_creds {
        // `vms/avm/txs/executor/syntactic_verifier.go:78`.
        return Err(Refusal::node(
            format!(
                "wrong number of credentials: {} != {expected_creds}",
                tx.credentials.len()
            ),
            format!(
                "the transaction has {} credentials but {} inputs, imported inputs and operations; it needs one for each",
                tx.credentials.len(),
                expected_creds
            ),
        ));
    }
    Ok(())
}

/// An X-chain input as the flow check spends it: a secp256k1fx TransferInput of a
/// TransferOutput.
impl flow::Input for avm::TransferableInput {
    type Utxo = Utxo;
    type Credential = avm::FxCredential;

    /// `vms/avm/txs/executor/semantic_verifier.go:40` wraps `vms/avm/state` `GetUTXO`'s
    /// error; an import's is shared memory's `database.ErrNotFound`, unwrapped.
    fn missing(_: &avax::UtxoId, id: &Id, from_memory: bool) -> String {
        if from_memory {
            "not found".into()
        } else {
            format!("failed to verify transfer: failed to get utxo {id}: not found")
        }
    }

    /// `semantic_verifier.go:40` for the inputs; the imported inputs' checks are not wrapped.
    fn spend_context(from_memory: bool) -> Option<&'static str> {
        (!from_memory).then_some("failed to verify transfer")
    }

    fn utxo_id(&self) -> &avax::UtxoId {
        &self.utxo_id
    }

    fn asset_id(&self) -> Id {
        self.asset_id
    }

    fn utxo_asset(utxo: &Utxo) -> Id {
        utxo.utxo.asset_id
    }

    fn open<'a>(&'a self, utxo: &'a Utxo, place: &str, _: u64) -> Result<Opened<'a>, Refusal> {
        let avm::TransferableIn::TransferInput(input) = &self.input else {
            return fail(format!(
                "`{place}.input` is not a secp256k1fx TransferInput"
            ));
        };
        let avm::UtxoOutput::Secp256k1fxTransferOutput(output) = &utxo.utxo.output else {
            return fail(format!(
                "`{place}` spends a UTXO that is not a secp256k1fx TransferOutput"
            ));
        };
        Ok(Opened {
            output,
            input,
            locked_until: None,
        })
    }

    fn credential(c: &avm::FxCredential) -> Option<&secp256k1fx::Credential> {
        match &c.credential {
            avm::Credential::Secp256k1fxCredential(c) => Some(c),
            _ => None,
        }
    }
}

/// The exported outputs, numbered after the others, into shared memory.
fn export(
    exported: &[avm::TransferableOutput],
    flow: &mut Flow,
    out: &mut Outputs<'_>,
) -> Result<(), Refusal> {
    for (j, o) in exported.iter().enumerate() {
        let avm::TransferableOut::TransferOutput(t) = &o.output else {
            return fail(format!(
                "`unsignedTx.exportedOutputs[{j}].output` is not a secp256k1fx TransferOutput"
            ));
        };
        flow.produce(o.asset_id, t.amount);
        out.touch(&t.owners, o.asset_id);
        let utxo = avm::Utxo::new(
            avax::UtxoId::new(out.tx_id, out.index),
            o.asset_id,
            avm::UtxoOutput::Secp256k1fxTransferOutput(t.clone()),
        );
        out.index += 1;
        out.fx.exported.push(Utxo::new(utxo));
    }
    Ok(())
}
