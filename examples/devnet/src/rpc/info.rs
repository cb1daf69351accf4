//! `info.*` at `/ext/info`: this node and its network, truthfully.

use crate::devnet::{self, Devnet};
use crate::genesis::{X_FXS, name_id};
use avalanche_rpc::info::*;
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::types::ProofOfPossession;
use avalanche_rpc::wire::{HexBytes, Id, Percent, Timestamp};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The node version whose API the devnet serves (the spec's `checked-against`).
pub const NODE_VERSION: &str = "1.15.0";
/// The node's RPC protocol version at that release.
const RPC_PROTOCOL_VERSION: u32 = 45;

pub struct Info {
    pub devnet: Arc<Devnet>,
    /// Hide what public API servers hide.
    pub public: bool,
}

impl Info {
    fn hidden(&self, method: &str) -> Result<(), RpcError> {
        if self.public {
            // A public API node does not register these methods at all.
            return Err(RpcError::method_not_found(method));
        }
        Ok(())
    }
}

fn timestamp_ns(ns: u64) -> Timestamp {
    Timestamp::from_unix((ns / 1_000_000_000) as i64, (ns % 1_000_000_000) as u32)
}

impl InfoServer for Info {
    async fn acps(&self, _: AcpsParams) -> Result<AcpsResult, RpcError> {
        // The node lists the ACPs its weighted peers signal; the simulated peers signal none.
        Ok(AcpsResult::new(BTreeMap::new()))
    }

    async fn get_blockchain_id(
        &self,
        p: GetBlockchainIdParams,
    ) -> Result<GetBlockchainIdResult, RpcError> {
        devnet::chain_id(&self.devnet, &p.alias)
            .map(GetBlockchainIdResult::new)
            .ok_or_else(|| {
                RpcError::invalid_params("alias", format!("there is no ID with alias: {}", p.alias))
            })
    }

    async fn get_network_id(&self, _: GetNetworkIdParams) -> Result<GetNetworkIdResult, RpcError> {
        Ok(GetNetworkIdResult::new(self.devnet.options.network_id))
    }

    async fn get_network_name(
        &self,
        _: GetNetworkNameParams,
    ) -> Result<GetNetworkNameResult, RpcError> {
        Ok(GetNetworkNameResult::new(avalanche_rpc::network::name(
            self.devnet.options.network_id,
        )))
    }

    async fn get_node_id(&self, _: GetNodeIdParams) -> Result<GetNodeIdResult, RpcError> {
        self.hidden("info.getNodeID")?;
        let me = &self.devnet.nodes[0];
        Ok(GetNodeIdResult::new(
            me.id,
            ProofOfPossession::new(
                HexBytes(me.public_key.to_vec()),
                HexBytes(me.proof_of_possession.to_vec()),
            ),
        ))
    }

    async fn get_node_ip(&self, _: GetNodeIpParams) -> Result<GetNodeIpResult, RpcError> {
        self.hidden("info.getNodeIP")?;
        Ok(GetNodeIpResult::new(self.devnet.nodes[0].ip.clone()))
    }

    async fn get_node_version(
        &self,
        _: GetNodeVersionParams,
    ) -> Result<GetNodeVersionResult, RpcError> {
        let vms: BTreeMap<String, String> = [("avm", NODE_VERSION), ("platform", NODE_VERSION)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), format!("v{v}")))
            .collect();
        Ok(GetNodeVersionResult::new(
            format!("avalanchego/{NODE_VERSION}"),
            "v1.4.5",
            RPC_PROTOCOL_VERSION,
            "",
            vms,
        ))
    }

    async fn get_tx_fee(&self, _: GetTxFeeParams) -> Result<GetTxFeeResult, RpcError> {
        // `txFee` and `createAssetTxFee` from the X-chain's config; the rest are the node's
        // constants for networks other than mainnet and Fuji.
        Ok(GetTxFeeResult::new(
            self.devnet.x.vm.rules.tx_fee,
            self.devnet.x.vm.rules.create_asset_tx_fee,
            100_000_000u64,
            100_000_000u64,
            100_000_000u64,
            0u64,
            0u64,
            1_000_000u64,
            1_000_000u64,
        ))
    }

    async fn get_vms(&self, _: GetVmsParams) -> Result<GetVmsResult, RpcError> {
        self.hidden("info.getVMs")?;
        let vms: BTreeMap<Id, Vec<String>> =
            [("avm", "avm"), ("platformvm", "platform"), ("evm", "evm")]
                .into_iter()
                .map(|(id, alias)| (name_id(id), vec![alias.to_string()]))
                .collect();
        let fxs: BTreeMap<Id, String> = X_FXS.iter().map(|f| (name_id(f), f.to_string())).collect();
        Ok(GetVmsResult::new(vms, fxs))
    }

    async fn is_bootstrapped(
        &self,
        p: IsBootstrappedParams,
    ) -> Result<IsBootstrappedResult, RpcError> {
        if p.chain.is_empty() {
            return Err(RpcError::invalid_params(
                "chain",
                "argument 'chain' not given",
            ));
        }
        let id = devnet::chain_id(&self.devnet, &p.chain).ok_or_else(|| {
            RpcError::invalid_params(
                "chain",
                format!("there is no chain with alias/ID '{}'", p.chain),
            )
        })?;
        // The X- and P-chains, and the C-chain's atomic side, run and are bootstrapped from
        // their first block.
        let g = &self.devnet.genesis;
        Ok(IsBootstrappedResult::new(
            id == g.x_chain_id || id == Id::ZERO || id == g.c_chain_id,
        ))
    }

    async fn peers(&self, p: PeersParams) -> Result<PeersResult, RpcError> {
        // The four other nodes run in this process and exchange messages with it whenever a
        // block is accepted; the last exchange is the later of this start and the last block.
        let r = self.devnet.view()?;
        let height = r.x_height()?;
        let last_block = r
            .x_block_at(height)?
            .and_then(|b| avalanche_rpc::codec::avm::Block::from_bytes(&b).ok())
            .and_then(|b| match b {
                avalanche_rpc::codec::avm::Block::StandardBlock(b) => Some(b.time * 1_000_000_000),
                _ => None,
            })
            .unwrap_or(0);
        let last = timestamp_ns(last_block.max(self.devnet.started_ns));
        let wanted = p.node_ids.unwrap_or_default();
        let peers: Vec<Peer> = self.devnet.nodes[1..]
            .iter()
            .filter(|n| wanted.is_empty() || wanted.contains(&n.id))
            .map(|n| {
                Peer::new(
                    n.ip.clone(),
                    n.id,
                    format!("avalanchego/{NODE_VERSION}"),
                    0u64,
                    last.clone(),
                    last.clone(),
                    100u32,
                    Vec::new(),
                    Vec::new(),
                    Vec::new(),
                    Vec::new(),
                )
                .with_public_ip(n.ip.clone())
            })
            .collect();
        Ok(PeersResult::new(peers.len() as u64, peers))
    }

    async fn uptime(&self, _: UptimeParams) -> Result<UptimeResult, RpcError> {
        // Every node of the devnet is always up, for as long as it validates.
        let r = self.devnet.view()?;
        let me = self.devnet.nodes[0].id;
        if !r.is_staker(&Id::ZERO, &me)? {
            return Err(RpcError::server(
                "couldn't get node uptime: node is not a validator",
            ));
        }
        Ok(UptimeResult::new(Percent(100.0), Percent(100.0)))
    }

    async fn upgrades(&self, _: UpgradesParams) -> Result<UpgradesResult, RpcError> {
        let u = &self.devnet.upgrades;
        let t = |name| u.time(name);
        Ok(Upgrades::new(
            t("apricotPhase1Time"),
            t("apricotPhase2Time"),
            t("apricotPhase3Time"),
            t("apricotPhase4Time"),
            u.apricot_phase4_min_p_chain_height,
            t("apricotPhase5Time"),
            t("apricotPhasePre6Time"),
            t("apricotPhase6Time"),
            t("apricotPhasePost6Time"),
            t("banffTime"),
            t("cortinaTime"),
            u.cortina_x_chain_stop_vertex_id,
            t("durangoTime"),
            t("etnaTime"),
            t("fortunaTime"),
            t("graniteTime"),
            u.granite_epoch_ns,
            t("heliconTime"),
        ))
    }
}
