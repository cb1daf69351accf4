//! `wallet.issueTx` at `/ext/bc/X/wallet` (deprecated): the same path as `avm.issueTx`.

use crate::devnet::Devnet;
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::wallet::*;
use std::sync::Arc;

pub struct Wallet(pub Arc<Devnet>);

impl WalletServer for Wallet {
    async fn issue_tx(&self, p: IssueTxParams) -> Result<IssueTxResult, RpcError> {
        let bytes = super::common::tx_bytes(p.encoding, &p.tx)?;
        let id = self.0.issue_x(bytes)?;
        Ok(IssueTxResult::new(id))
    }
}
