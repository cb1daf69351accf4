//! `avax.*` at `/ext/bc/C/avax` and `/ext/bc/<C-chain ID>/avax`: the C-chain's atomic API, as
//! coreth serves it (`graft/coreth/plugin/evm/atomic/vm/api.go`).

use super::common::{ChainView, encode, tx_bytes, utxo_page};
use crate::cchain::verify::nonce_input;
use crate::devnet::Devnet;
use crate::engine::{IssueError, Refused};
use crate::ledger::Chain;
use avalanche_rpc::avax::*;
use avalanche_rpc::codec::atomic;
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::wire::Id;
use std::sync::Arc;

#[derive(Clone)]
pub struct CChain(pub Arc<Devnet>);

/// A conflict over an export's pseudo-input said as what it is: the address's nonce is
/// already used by a pending export.
fn nonce_taken(e: Refused, bytes: &[u8]) -> RpcError {
    if let IssueError::Conflict { other, utxo } = &e.error
        && let Ok(tx) = atomic::Tx::from_bytes(bytes)
        && let atomic::UnsignedTx::UnsignedExportTx(t) = &tx.unsigned
        && let Some((k, i)) = t
            .inputs
            .iter()
            .enumerate()
            .find(|(_, i)| nonce_input(&i.address, i.nonce) == *utxo)
    {
        return RpcError::server(format!("tx conflicts with other tx: {other}")).with_data(
            serde_json::json!({
                "detail": format!(
                    "`unsignedTx.inputs[{k}]` uses nonce {} of {}, which the pending export {other} uses too",
                    i.nonce, i.address
                )
            }),
        );
    }
    e.into()
}

/// An accepted atomic transaction's bytes and height, or what the mempool knows of it: waiting
/// (with its bytes), dropped, or unknown.
enum Found {
    Accepted(Vec<u8>, u64),
    Processing(Vec<u8>),
    Dropped,
    Unknown,
}

impl CChain {
    fn find(&self, id: &Id) -> Result<Found, RpcError> {
        if let Some(tx) = self.0.view()?.tx(Chain::C, id)? {
            return Ok(Found::Accepted(tx.bytes, tx.height));
        }
        if let Some(bytes) = self.0.c.pending_bytes(id) {
            return Ok(Found::Processing(bytes));
        }
        Ok(match self.0.c.status(id) {
            // Accepted, or taken into a block, since it was looked for: its block is
            // committed, so the store shows it now.
            Some(Ok(())) | None => match self.0.view()?.tx(Chain::C, id)? {
                Some(tx) => Found::Accepted(tx.bytes, tx.height),
                None => Found::Unknown,
            },
            Some(Err(_)) => Found::Dropped,
        })
    }
}

impl AvaxServer for CChain {
    async fn get_utxos(&self, p: GetUtxosParams) -> Result<GetUtxosResult, RpcError> {
        // coreth requires the source chain (`api.go`: errNoSourceChain); its listing is of
        // shared memory only.
        if p.source_chain.is_empty() {
            return Err(RpcError::invalid_params(
                "sourceChain",
                "no source chain provided",
            ));
        }
        let encoding = p.encoding.unwrap_or_default();
        let (utxos, end) = utxo_page(
            &self.0,
            &ChainView::c(&self.0),
            &p.addresses,
            Some(p.source_chain.as_str()),
            p.limit.map(|l| l.get()),
            p.start_index.as_ref(),
            encoding,
        )?;
        Ok(GetUtxosResult::new(
            utxos.len() as u64,
            utxos,
            end,
            encoding,
        ))
    }

    /// A transaction that spends what a pending one spends (a UTXO, or an export's address
    /// and nonce) is refused. coreth's mempool instead replaces the pending one when the new
    /// one pays a higher gas price (`plugin/evm/atomic/txpool/mempool.go:130`); the devnet
    /// builds a block at once, so there is little to replace.
    async fn issue_tx(&self, p: IssueTxParams) -> Result<IssueTxResult, RpcError> {
        let bytes = tx_bytes(p.encoding, &p.tx)?;
        let id = self
            .0
            .issue_c(bytes.clone())
            .map_err(|e| nonce_taken(e, &bytes))?;
        Ok(IssueTxResult::new(id))
    }

    async fn get_atomic_tx(&self, p: GetAtomicTxParams) -> Result<GetAtomicTxResult, RpcError> {
        if p.tx_id == Id::ZERO {
            return Err(RpcError::invalid_params("txID", "nil transaction ID"));
        }
        let encoding = p.encoding.unwrap_or_default();
        match self.find(&p.tx_id)? {
            Found::Accepted(bytes, height) => {
                Ok(GetAtomicTxResult::new(encode(encoding, &bytes)?, encoding)
                    .with_block_height(height))
            }
            // Waiting in the mempool: its bytes, no height, as coreth (`api.go` getAtomicTx).
            Found::Processing(bytes) => {
                Ok(GetAtomicTxResult::new(encode(encoding, &bytes)?, encoding))
            }
            // coreth answers a dropped transaction's bytes too (its mempool keeps them); the
            // devnet remembers only why it was dropped, which getAtomicTxStatus reports.
            Found::Dropped => Err(RpcError::server(format!(
                "could not find tx {}: it was dropped from the mempool (avax.getAtomicTxStatus: Dropped)",
                p.tx_id
            ))),
            Found::Unknown => Err(RpcError::server(format!("could not find tx {}", p.tx_id))),
        }
    }

    async fn get_atomic_tx_status(
        &self,
        p: GetAtomicTxStatusParams,
    ) -> Result<GetAtomicTxStatusResult, RpcError> {
        if p.tx_id == Id::ZERO {
            return Err(RpcError::invalid_params("txID", "nil transaction ID"));
        }
        Ok(match self.find(&p.tx_id)? {
            Found::Accepted(_, height) => {
                GetAtomicTxStatusResult::new(AtomicTxStatus::Accepted).with_block_height(height)
            }
            Found::Processing(_) => GetAtomicTxStatusResult::new(AtomicTxStatus::Processing),
            Found::Dropped => GetAtomicTxStatusResult::new(AtomicTxStatus::Dropped),
            Found::Unknown => GetAtomicTxStatusResult::new(AtomicTxStatus::Unknown),
        })
    }
}
