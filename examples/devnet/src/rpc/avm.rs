//! `avm.*` at `/ext/bc/X` and `/ext/bc/<X-chain ID>`.

use super::common::{ChainView, MAX_PAGE, encode, utxo_page, x_address};
use crate::devnet::Devnet;
use crate::view::View;
use crate::xchain;
use avalanche_rpc::avm::*;
use avalanche_rpc::codec::{JsonContext, ToJson};
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::types::UtxoId;
use avalanche_rpc::wire::{Encoding, HexOrJson, Id};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone)]
pub struct XChain(pub Arc<Devnet>);

impl XChain {
    fn json(&self) -> JsonContext {
        JsonContext::for_network("X", self.0.options.network_id)
    }

    /// An asset named by ID or alias.
    fn asset(r: &View, field: &str, s: &str) -> Result<Id, RpcError> {
        r.asset_id(s)?
            .ok_or_else(|| RpcError::invalid_params(field, format!("asset '{s}' not found")))
    }

    /// The UTXOs `getBalance` and `getAllBalances` count: secp256k1fx TransferOutputs; without
    /// `include_partial`, only those one key alone may spend now.
    fn counted(
        &self,
        r: &View,
        address: &[u8; 20],
        include_partial: bool,
    ) -> Result<Vec<xchain::Utxo>, RpcError> {
        let now = self.0.engine.clock.now();
        Ok(r.x_utxos_of(address)?
            .into_iter()
            .filter(|u| u.amount().is_some())
            .filter(|u| {
                include_partial
                    || (u.threshold() == 1 && u.owners().len() == 1 && u.locktime() <= now)
            })
            .collect())
    }

    fn block_result(
        &self,
        bytes: &[u8],
        encoding: Encoding,
    ) -> Result<(HexOrJson, Encoding), RpcError> {
        let block = match encoding {
            Encoding::Json => {
                let b = avalanche_rpc::codec::avm::Block::from_bytes(bytes).map_err(|e| {
                    RpcError::server(format!("a stored block does not decode: {e}"))
                })?;
                HexOrJson::Json(b.to_json(&self.json()))
            }
            e => HexOrJson::Hex(encode(e, bytes)?),
        };
        Ok((block, encoding))
    }
}

impl AvmServer for XChain {
    async fn get_address_txs(
        &self,
        p: GetAddressTxsParams,
    ) -> Result<GetAddressTxsResult, RpcError> {
        let address = x_address(&self.0, "address", &p.address)?;
        let r = self.0.view()?;
        let asset = Self::asset(&r, "assetID", &p.asset_id)?;
        let size = match p.page_size.map(|s| s.get()).unwrap_or(0) {
            0 => MAX_PAGE as u64,
            n if n > MAX_PAGE as u64 => {
                return Err(RpcError::invalid_params(
                    "pageSize",
                    format!("pageSize > maximum allowed ({MAX_PAGE})"),
                ));
            }
            n => n,
        };
        let cursor = p.cursor.map(|c| c.get()).unwrap_or(0);
        let (ids, _) = r.address_txs(&address, &asset, cursor, size as usize)?;
        let next = cursor + ids.len() as u64;
        let mut result = GetAddressTxsResult::new(next);
        if !ids.is_empty() {
            result = result.with_tx_ids(ids);
        }
        Ok(result)
    }

    async fn get_all_balances(
        &self,
        p: GetAllBalancesParams,
    ) -> Result<GetAllBalancesResult, RpcError> {
        let address = x_address(&self.0, "address", &p.address)?;
        let r = self.0.view()?;
        let mut sums: BTreeMap<Id, u64> = BTreeMap::new();
        for u in self.counted(&r, &address, p.include_partial.unwrap_or(false))? {
            let s = sums.entry(u.utxo.asset_id).or_default();
            *s = s.saturating_add(u.amount().unwrap_or(0));
        }
        let mut balances = Vec::new();
        for (asset, sum) in sums {
            let name = r.alias_of(&asset)?.unwrap_or_else(|| asset.to_string());
            balances.push(Balance::new(name, sum));
        }
        Ok(GetAllBalancesResult::new(balances))
    }

    async fn get_asset_description(
        &self,
        p: GetAssetDescriptionParams,
    ) -> Result<AssetDescription, RpcError> {
        let r = self.0.view()?;
        let asset = Self::asset(&r, "assetID", &p.asset_id)?;
        let (_, bytes) = r
            .x_tx(&asset)?
            .ok_or_else(|| RpcError::server("not found"))?;
        let tx = avalanche_rpc::codec::avm::Tx::from_bytes(&bytes)
            .map_err(|e| RpcError::server(format!("a stored tx does not decode: {e}")))?;
        let avalanche_rpc::codec::avm::UnsignedTx::CreateAssetTx(c) = &tx.unsigned else {
            return Err(RpcError::server("transaction doesn't create an asset"));
        };
        Ok(AssetDescription::new(
            asset,
            c.name.clone(),
            c.symbol.clone(),
            c.denomination,
        ))
    }

    async fn get_balance(&self, p: GetBalanceParams) -> Result<GetBalanceResult, RpcError> {
        let address = x_address(&self.0, "address", &p.address)?;
        let r = self.0.view()?;
        let asset = Self::asset(&r, "assetID", &p.asset_id)?;
        let mut balance = 0u64;
        let mut ids = Vec::new();
        for u in self.counted(&r, &address, p.include_partial.unwrap_or(false))? {
            if u.utxo.asset_id != asset {
                continue;
            }
            balance = balance
                .checked_add(u.amount().unwrap_or(0))
                .ok_or_else(|| RpcError::server("overflow"))?;
            ids.push(UtxoId::new(
                u.utxo.utxo_id.tx_id,
                u.utxo.utxo_id.output_index,
            ));
        }
        Ok(GetBalanceResult::new(balance, ids))
    }

    async fn get_block(&self, p: GetBlockParams) -> Result<GetBlockResult, RpcError> {
        let r = self.0.view()?;
        let not_found = || {
            RpcError::server(format!(
                "couldn't get block with id {}: not found",
                p.block_id
            ))
        };
        let height = r.x_height_of(&p.block_id)?.ok_or_else(not_found)?;
        let bytes = r.x_block_at(height)?.ok_or_else(not_found)?;
        let (block, encoding) = self.block_result(&bytes, p.encoding.unwrap_or_default())?;
        Ok(GetBlockResult::new(block, encoding))
    }

    async fn get_block_by_height(
        &self,
        p: GetBlockByHeightParams,
    ) -> Result<GetBlockByHeightResult, RpcError> {
        let height = p.height.map(|h| h.get()).unwrap_or(0);
        let r = self.0.view()?;
        let bytes = r.x_block_at(height)?.ok_or_else(|| {
            RpcError::server(format!("couldn't get block at height {height}: not found"))
        })?;
        let (block, encoding) = self.block_result(&bytes, p.encoding.unwrap_or_default())?;
        Ok(GetBlockByHeightResult::new(block, encoding))
    }

    async fn get_height(&self, _: GetHeightParams) -> Result<GetHeightResult, RpcError> {
        let r = self.0.view()?;
        Ok(GetHeightResult::new(r.x_height()?))
    }

    async fn get_tx(&self, p: GetTxParams) -> Result<GetTxResult, RpcError> {
        if p.tx_id == Id::ZERO {
            return Err(RpcError::invalid_params("txID", "nil transaction ID"));
        }
        let r = self.0.view()?;
        let (_, bytes) = r
            .x_tx(&p.tx_id)?
            .ok_or_else(|| RpcError::server("not found"))?;
        let encoding = p.encoding.unwrap_or_default();
        let tx = match encoding {
            Encoding::Json => {
                let tx = avalanche_rpc::codec::avm::Tx::from_bytes(&bytes)
                    .map_err(|e| RpcError::server(format!("a stored tx does not decode: {e}")))?;
                HexOrJson::Json(tx.to_json(&self.json()))
            }
            e => HexOrJson::Hex(encode(e, &bytes)?),
        };
        Ok(GetTxResult::new(tx, encoding))
    }

    async fn get_tx_fee(&self, _: GetTxFeeParams) -> Result<GetTxFeeResult, RpcError> {
        Ok(GetTxFeeResult::new(
            self.0.x.vm.rules.tx_fee,
            self.0.x.vm.rules.create_asset_tx_fee,
        ))
    }

    async fn get_tx_status(&self, p: GetTxStatusParams) -> Result<GetTxStatusResult, RpcError> {
        if p.tx_id == Id::ZERO {
            return Err(RpcError::invalid_params("txID", "nil transaction ID"));
        }
        let r = self.0.view()?;
        // As the node: only accepted transactions are known here; the mempool is not searched.
        let status = match r.x_tx(&p.tx_id)? {
            Some(_) => AvmTxStatus::Accepted,
            None => AvmTxStatus::Unknown,
        };
        Ok(GetTxStatusResult::new(status))
    }

    async fn get_utxos(&self, p: GetUtxosParams) -> Result<GetUtxosResult, RpcError> {
        let encoding = p.encoding.unwrap_or_default();
        let (utxos, end) = utxo_page(
            &self.0,
            &ChainView::x(&self.0),
            &p.addresses,
            p.source_chain.as_deref(),
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

    async fn issue_tx(&self, p: IssueTxParams) -> Result<IssueTxResult, RpcError> {
        let bytes = super::common::tx_bytes(p.encoding, &p.tx)?;
        let id = self.0.issue_x(bytes)?;
        Ok(IssueTxResult::new(id))
    }
}
