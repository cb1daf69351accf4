//! The `eth_` calls a C-chain wallet needs, at `/ext/bc/C/rpc`: the chain ID, the height of
//! the C-chain's atomic blocks, an account's balance in wei and nonce, the base fee. No EVM
//! runs here: the accounts change by imports and exports only, and the devnet keeps their
//! latest state, not each block's.

use crate::devnet::Devnet;
use crate::ledger::Chain;
use avalanche_rpc::eth::*;
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::wire::Quantity;
use std::sync::Arc;

#[derive(Clone)]
pub struct Eth(pub Arc<Devnet>);

impl Eth {
    /// Checks the block param: the devnet answers from its last accepted state, so a tag that
    /// means it, or its height, is read; an older height is refused saying why (the node
    /// would answer that block's state), a higher one as the node does.
    fn at(&self, block: &str, head: u64) -> Result<(), RpcError> {
        match block {
            "latest" | "pending" | "accepted" | "safe" | "finalized" => return Ok(()),
            _ => {}
        }
        let number = match block {
            "earliest" => 0,
            b => b
                .parse::<Quantity>()
                .ok()
                .and_then(|q| u64::try_from(q).ok())
                .ok_or_else(|| {
                    RpcError::invalid_params(
                        "block",
                        format!(
                            "invalid argument 1: `{b}` is not a block tag (latest, pending, earliest, safe, finalized, accepted) nor a hex block number"
                        ),
                    )
                })?,
        };
        if number > head {
            // coreth's `ErrUnfinalizedData` (`eth/api_backend.go:55,119`).
            return Err(RpcError::server("cannot query unfinalized data"));
        }
        if number < head {
            return Err(RpcError::server(format!(
                "the devnet keeps only the C-chain's latest state (block {head:#x}), not block {number:#x}'s: ask for `latest`, or run a real node for history"
            )));
        }
        Ok(())
    }
}

impl EthServer for Eth {
    async fn chain_id(&self, _: ChainIdParams) -> Result<ChainIdResult, RpcError> {
        Ok(Quantity::from(self.0.evm_chain_id))
    }

    async fn block_number(&self, _: BlockNumberParams) -> Result<BlockNumberResult, RpcError> {
        Ok(Quantity::from(self.0.view()?.height(Chain::C)?))
    }

    async fn get_balance(&self, p: GetBalanceParams) -> Result<GetBalanceResult, RpcError> {
        let r = self.0.view()?;
        self.at(&p.block, r.height(Chain::C)?)?;
        Ok(Quantity::from(r.c_account(p.address.as_bytes())?.balance))
    }

    async fn get_transaction_count(
        &self,
        p: GetTransactionCountParams,
    ) -> Result<GetTransactionCountResult, RpcError> {
        let r = self.0.view()?;
        self.at(&p.block, r.height(Chain::C)?)?;
        Ok(Quantity::from(r.c_account(p.address.as_bytes())?.nonce))
    }

    async fn base_fee(&self, _: BaseFeeParams) -> Result<BaseFeeResult, RpcError> {
        Ok(Quantity::from(self.0.c.vm.rules.base_fee))
    }
}
