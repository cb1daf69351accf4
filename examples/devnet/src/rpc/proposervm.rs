//! `proposervm.*` at `/ext/bc/<chain>/proposervm` for the X- and P-chains.

use crate::devnet::Devnet;
use crate::ledger::Chain;
use crate::proposer::Tip;
use avalanche_rpc::proposervm::*;
use avalanche_rpc::rpc::RpcError;
use std::sync::Arc;

pub struct Proposer {
    pub devnet: Arc<Devnet>,
    pub chain: Chain,
}

impl Proposer {
    /// The chain's preferred (here: last accepted) proposer block.
    fn tip(&self) -> Result<Tip, RpcError> {
        let r = self.devnet.view()?;
        if let Some(t) = r.proposer_tip(self.chain)? {
            return Ok(t);
        }
        Ok(match self.chain {
            Chain::X => self.devnet.x.vm.genesis,
            Chain::P => self.devnet.p.vm.genesis,
            Chain::C => self.devnet.c.vm.genesis,
        })
    }
}

impl ProposervmServer for Proposer {
    async fn get_proposed_height(
        &self,
        _: GetProposedHeightParams,
    ) -> Result<GetProposedHeightResult, RpcError> {
        // A child's P-chain height: the last accepted one, every block being accepted at once.
        let r = self.devnet.view()?;
        Ok(GetProposedHeightResult::new(r.height(Chain::P)?))
    }

    async fn get_current_epoch(
        &self,
        _: GetCurrentEpochParams,
    ) -> Result<GetCurrentEpochResult, RpcError> {
        let e = self.tip()?.child_epoch();
        Ok(GetCurrentEpochResult::new(
            e.number,
            e.start,
            e.p_chain_height,
        ))
    }
}
