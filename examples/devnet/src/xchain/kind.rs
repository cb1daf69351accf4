//! The X-chain transactions the devnet accepts, as one devnet-owned exhaustive enum
//! ([`XTxKind`]). [`XTxKind::of`] maps the generated (non-exhaustive) enum to it, the one match on
//! a transaction type with a wildcard; every other match on a kind is on [`XTxKind`], without
//! one, so a kind added here without being handled does not compile.

use super::vocab::Rules;
use crate::refusal::{Refusal, fail};
use avalanche_rpc::codec::avm;
use avalanche_rpc::wire::Id;

/// An X-chain transaction of a kind the devnet accepts.
#[derive(Debug, Clone, Copy)]
pub enum XTxKind<'t> {
    Base(&'t avm::BaseTx),
    CreateAsset(&'t avm::CreateAssetTx),
    Operation(&'t avm::OperationTx),
    Import(&'t avm::ImportTx),
    Export(&'t avm::ExportTx),
}

/// What the flow check reads of a transaction: its base, its fee, the inputs it imports and
/// the operations it makes (each spending a UTXO and signed for like an input).
#[derive(Debug, Clone, Copy)]
pub struct Parts<'t> {
    pub base: &'t avm::Base,
    pub fee: u64,
    pub imported: &'t [avm::TransferableInput],
    pub operations: &'t [avm::Operation],
}

impl<'t> Parts<'t> {
    fn of(base: &'t avm::Base, fee: u64) -> Parts<'t> {
        Parts {
            base,
            fee,
            imported: &[],
            operations: &[],
        }
    }
}

impl<'t> XTxKind<'t> {
    /// The kind of `tx`, or the refusal of a type the devnet does not know (the one match on
    /// the generated enum, whose new types land in its wildcard).
    pub fn of(tx: &'t avm::UnsignedTx) -> Result<XTxKind<'t>, Refusal> {
        Ok(match tx {
            avm::UnsignedTx::BaseTx(t) => XTxKind::Base(t),
            avm::UnsignedTx::CreateAssetTx(t) => XTxKind::CreateAsset(t),
            avm::UnsignedTx::OperationTx(t) => XTxKind::Operation(t),
            avm::UnsignedTx::ImportTx(t) => XTxKind::Import(t),
            avm::UnsignedTx::ExportTx(t) => XTxKind::Export(t),
            _ => return fail("a transaction type this devnet does not know"),
        })
    }

    /// What the flow check reads of it, refusing an ImportTx or ExportTx with a chain other
    /// than the P-chain.
    pub fn parts(self, rules: &Rules) -> Result<Parts<'t>, Refusal> {
        Ok(match self {
            XTxKind::Base(t) => Parts::of(&t.base, rules.tx_fee),
            XTxKind::CreateAsset(t) => Parts::of(&t.base, rules.create_asset_tx_fee),
            XTxKind::Operation(t) => Parts {
                operations: &t.operations,
                ..Parts::of(&t.base, rules.tx_fee)
            },
            XTxKind::Import(t) => {
                other_chain(rules, &t.source_chain, "unsignedTx.sourceChain")?;
                Parts {
                    imported: &t.imported_inputs,
                    ..Parts::of(&t.base, rules.tx_fee)
                }
            }
            XTxKind::Export(t) => {
                other_chain(rules, &t.destination_chain, "unsignedTx.destinationChain")?;
                Parts::of(&t.base, rules.tx_fee)
            }
        })
    }
}

/// The chain an import or export names: the P-chain or the C-chain (whose atomic side the
/// devnet runs), nothing else.
fn other_chain(rules: &Rules, chain: &Id, place: &str) -> Result<(), Refusal> {
    if *chain != Id::ZERO && *chain != rules.c_chain {
        return fail(format!(
            "`{place}` is {chain}; the X-chain moves funds to and from the P-chain ({}) and the C-chain ({}) only",
            Id::ZERO,
            rules.c_chain
        ));
    }
    Ok(())
}

/// The peer chain of an ImportTx or ExportTx (`None` for other kinds).
pub fn peer_of(rules: &Rules, tx: &avm::UnsignedTx) -> Option<crate::ledger::Chain> {
    let chain = match tx {
        avm::UnsignedTx::ImportTx(t) => &t.source_chain,
        avm::UnsignedTx::ExportTx(t) => &t.destination_chain,
        _ => return None,
    };
    Some(if *chain == rules.c_chain {
        crate::ledger::Chain::C
    } else {
        crate::ledger::Chain::P
    })
}

#[cfg(test)]
mod tests;
