//! `devnet.*` at `/ext/devnet`: the devnet's own controls (spec `interfaces/devnet.yaml`).

use super::common::ChainView;
use crate::control::{self, MAX_ADVANCE};
use crate::devnet::Devnet;
use crate::ledger::Chain;
use avalanche_rpc::devnet::*;
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::wire::{HexBytes, Timestamp};
use std::sync::Arc;

pub struct Control(pub Arc<Devnet>);

impl DevnetServer for Control {
    async fn advance_clock(&self, p: AdvanceClockParams) -> Result<AdvanceClockResult, RpcError> {
        let seconds = p.seconds.get();
        if seconds > MAX_ADVANCE {
            return Err(RpcError::invalid_params(
                "seconds",
                format!("seconds must be at most {MAX_ADVANCE}, not {seconds}"),
            ));
        }
        let d = self.0.clone();
        let now = tokio::task::spawn_blocking(move || control::advance_clock(&d, seconds))
            .await
            .map_err(|e| RpcError::internal(e.to_string()))??;
        Ok(AdvanceClockResult::new(Timestamp::from_unix(now as i64, 0)))
    }

    async fn build_blocks(&self, _: BuildBlocksParams) -> Result<BuildBlocksResult, RpcError> {
        let d = self.0.clone();
        let (x, p) = tokio::task::spawn_blocking(move || d.build_now())
            .await
            .map_err(|e| RpcError::internal(e.to_string()))??;
        let mut r = BuildBlocksResult::new();
        if let Some(x) = x {
            r = r.with_x_block_id(x);
        }
        if let Some(p) = p {
            r = r.with_p_block_id(p);
        }
        Ok(r)
    }

    async fn fund(&self, p: FundParams) -> Result<FundResult, RpcError> {
        let amount = p.amount.get();
        if amount == 0 {
            return Err(RpcError::invalid_params(
                "amount",
                "amount must be at least 1",
            ));
        }
        let on_p = p
            .address
            .chain()
            .and_then(avalanche_rpc::network::chain_of_alias)
            == Some('P');
        let (chain, to) = match on_p {
            true => (
                Chain::P,
                ChainView::p().address(&self.0, "address", &p.address)?,
            ),
            false => (
                Chain::X,
                ChainView::x(&self.0).address(&self.0, "address", &p.address)?,
            ),
        };
        let d = self.0.clone();
        let id = tokio::task::spawn_blocking(move || control::fund(&d, chain, to.into(), amount))
            .await
            .map_err(|e| RpcError::internal(e.to_string()))??;
        Ok(FundResult::new(id))
    }

    async fn snapshot(&self, _: SnapshotParams) -> Result<SnapshotResult, RpcError> {
        let d = self.0.clone();
        let id = tokio::task::spawn_blocking(move || control::snapshot(&d))
            .await
            .map_err(|e| RpcError::internal(e.to_string()))??;
        Ok(SnapshotResult::new(id))
    }

    async fn revert(&self, p: RevertParams) -> Result<RevertResult, RpcError> {
        let d = self.0.clone();
        let id = p.id.get();
        let reverted = tokio::task::spawn_blocking(move || control::revert(&d, id))
            .await
            .map_err(|e| RpcError::internal(e.to_string()))??;
        Ok(RevertResult::new(reverted))
    }

    async fn sign_warp_message(
        &self,
        p: SignWarpMessageParams,
    ) -> Result<SignWarpMessageResult, RpcError> {
        let d = self.0.clone();
        let signed = tokio::task::spawn_blocking(move || control::sign_warp(&d, &p.message.0))
            .await
            .map_err(|e| RpcError::internal(e.to_string()))?
            .map_err(|e| RpcError::invalid_params("message", e))?;
        Ok(SignWarpMessageResult::new(HexBytes(signed)))
    }
}
