//! `platform.*` at `/ext/bc/P`: the P-chain's state as the node reports it
//! (`vms/platformvm/service.go`).

use super::common::{ChainView, encode, format_address, utxo_page};
use crate::devnet::{self, Devnet};
use crate::genesis::staking;
use crate::ledger::{Chain, Status};
use crate::pchain::{self, Staker};
use crate::view::View;
use avalanche_rpc::codec::{JsonContext, ToJson, platform as codec};
use avalanche_rpc::platform::*;
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::types::{Owner, ProofOfPossession, UtxoId};
use avalanche_rpc::wire::{
    Address, Encoding, Height, HexBytes, HexOrJson, Id, NodeId, Percent, Timestamp, U64,
};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The most addresses `getStake` takes.
const MAX_STAKE_ADDRESSES: usize = 256;

#[derive(Clone)]
pub struct PChain(pub Arc<Devnet>);

impl PChain {
    fn json(&self) -> JsonContext {
        JsonContext::for_network("P", self.0.options.network_id)
    }

    fn owner(&self, o: &codec::Owner) -> Option<Owner> {
        let codec::Owner::OutputOwners(o) = o else {
            return None;
        };
        Some(Owner::new(
            o.owners.locktime,
            o.owners.threshold,
            self.addresses(&o.owners.addresses),
        ))
    }

    fn block_result(&self, bytes: &[u8], encoding: Encoding) -> Result<HexOrJson, RpcError> {
        Ok(match encoding {
            Encoding::Json => {
                let b = codec::Block::from_bytes(bytes).map_err(|e| {
                    RpcError::server(format!("a stored block does not decode: {e}"))
                })?;
                HexOrJson::Json(b.to_json(&self.json()))
            }
            e => HexOrJson::Hex(encode(e, bytes)?),
        })
    }

    /// A numeric height, or the proposed one; refused above the last accepted height.
    fn height(r: &View, h: Option<Height>) -> Result<u64, RpcError> {
        let current = r.height(Chain::P)?;
        match h.unwrap_or(Height::Number(0)) {
            Height::Proposed => Ok(current),
            Height::Number(n) if n > current => Err(RpcError::invalid_params(
                "height",
                format!(
                    "failed to get validator set at {n}: failed to fetch validator set at unfinalized height: current P-chain height ({current}) < requested P-Chain height ({n})"
                ),
            )),
            Height::Number(n) => Ok(n),
        }
    }

    /// A getCurrentValidators entry: a Primary Network validator with its delegators
    /// counted (and listed when `listed`), or a permissioned Subnet validator.
    fn current_validator(
        &self,
        s: &Staker,
        delegators: &[pchain::Delegator],
        listed: bool,
    ) -> CurrentValidator {
        let Some(v) = s.terms() else {
            // A permissioned Subnet validator: its tx, period, weight and node alone.
            return CurrentValidator::new(s.start, s.weight(), s.node)
                .with_tx_id(s.tx_id)
                .with_end_time(s.end());
        };
        let delegated = delegators
            .iter()
            .map(|d| d.tx.validator.weight)
            .fold(0u64, u64::saturating_add);
        let mut c = CurrentValidator::new(s.start, v.weight, s.node)
            .with_tx_id(s.tx_id)
            .with_end_time(v.end)
            .with_potential_reward(s.potential_reward)
            .with_accrued_delegatee_reward(s.accrued)
            .with_delegation_fee(Percent(f64::from(v.shares) / 10_000.0))
            .with_delegator_count(delegators.len() as u64)
            .with_delegator_weight(delegated);
        if let Some(o) = self.owner(v.validation_owner) {
            c = c.with_validation_reward_owner(o);
        }
        if let Some(o) = self.owner(v.delegation_owner) {
            c = c.with_delegation_reward_owner(o);
        }
        if s.subnet == Id::ZERO {
            // Every node of the devnet is up and connected for as long as it validates.
            c = c.with_uptime(Percent(100.0)).with_connected(true);
        }
        if let Some(codec::Signer::ProofOfPossession(p)) = v.signer {
            c = c.with_signer(ProofOfPossession::new(
                HexBytes(p.public_key.to_vec()),
                HexBytes(p.proof_of_possession.to_vec()),
            ));
        }
        // An auto-renewed validator's configuration (`service.go`, `AutoRenewedConfig`).
        if let (Some(authority), Some(r)) = (v.authority, &s.renew)
            && let Some(o) = self.owner(authority)
        {
            c = c
                .with_validator_authority(o)
                .with_next_period(r.next_period)
                .with_auto_compound_reward_shares(r.auto_compound_shares);
        }
        if listed {
            c = c.with_delegators(
                delegators
                    .iter()
                    .map(|d| {
                        let mut e = Delegator::new(
                            d.tx_id,
                            d.start,
                            d.tx.validator.end,
                            d.tx.validator.weight,
                            d.node,
                        )
                        .with_potential_reward(d.potential_reward);
                        if let Some(o) = self.owner(&d.tx.rewards_owner) {
                            e = e.with_reward_owner(o);
                        }
                        e
                    })
                    .collect::<Vec<_>>(),
            );
        }
        c
    }

    /// The Subnet `id` with its owner, or the node's errors for the Primary Network, an
    /// unknown ID and a tx that is not a CreateSubnetTx.
    fn subnet(r: &View, id: &Id) -> Result<(Id, codec::OutputOwners), RpcError> {
        if *id == Id::ZERO {
            return Err(RpcError::invalid_params(
                "subnetID",
                "the primary network isn't a subnet",
            ));
        }
        match r.subnet_owner(id)? {
            Some(pchain::subnets::Owned {
                owner: codec::Owner::OutputOwners(o),
                ..
            }) => Ok((*id, o)),
            Some(_) => Err(RpcError::server(
                "expected *secp256k1fx.OutputOwners but got another owner",
            )),
            None if r.tx(Chain::P, id)?.is_some() => {
                Err(RpcError::server(format!("\"{id}\" is not a subnet")))
            }
            None => Err(RpcError::server("not found")),
        }
    }

    /// An owner without a locktime, as the API shows it (`locktime` 0).
    fn p_owner(&self, o: &codec::PChainOwner) -> Owner {
        Owner::new(0u64, o.threshold, self.addresses(&o.addresses))
    }

    /// A getCurrentValidators entry of an L1 validator (inactive ones with balance 0).
    fn l1_entry(&self, v: &pchain::l1::Validator, fees: &pchain::l1::FeeState) -> CurrentValidator {
        CurrentValidator::new(v.start, v.weight, v.node)
            .with_validation_id(v.validation_id)
            .with_public_key(HexBytes(v.public_key.to_vec()))
            .with_remaining_balance_owner(self.p_owner(&v.remaining_balance_owner))
            .with_deactivation_owner(self.p_owner(&v.deactivation_owner))
            .with_min_nonce(v.min_nonce)
            .with_balance(v.balance(fees))
    }

    fn control_keys(&self, o: &codec::OutputOwners) -> Vec<Address> {
        self.addresses(&o.owners.addresses)
    }

    /// Addresses as the P-chain's API writes them (`P-<hrp>1…`).
    fn addresses(&self, a: &[avalanche_rpc::wire::ShortId]) -> Vec<Address> {
        a.iter()
            .filter_map(|a| format_address(&self.0, "P", *a.as_bytes()).parse().ok())
            .collect()
    }
}

impl PlatformServer for PChain {
    async fn get_balance(&self, p: GetBalanceParams) -> Result<GetBalanceResult, RpcError> {
        let view = ChainView::p();
        let now = self.0.engine.clock.now();
        let avax = self.0.genesis.avax_asset_id;
        let r = self.0.view()?;
        let mut owners = BTreeSet::new();
        for a in p.addresses.iter().flatten() {
            owners.insert(view.address(&self.0, "addresses", a)?);
        }
        // The single `address` of nodes before v1.9.16, which AvalancheJS v3 still sends: the
        // node now ignores it and answers zeros; here it counts.
        #[allow(deprecated)]
        if let Some(a) = &p.address {
            owners.insert(view.address(&self.0, "address", a)?);
        }
        let mut seen = BTreeSet::new();
        let (mut total, mut unlocked, mut stakeable, mut not_stakeable) = (
            BTreeMap::<Id, u64>::new(),
            BTreeMap::new(),
            BTreeMap::new(),
            BTreeMap::new(),
        );
        let mut ids = Vec::new();
        for a in &owners {
            for u in r.p_utxos_of(a, None, usize::MAX)? {
                if !seen.insert(u.id) {
                    continue;
                }
                let Some((out, stake_lock)) = u.transfer() else {
                    continue;
                };
                let asset = u.utxo.asset_id;
                let class = match stake_lock {
                    _ if out.owners.locktime > now => &mut not_stakeable,
                    Some(until) if until > now => &mut stakeable,
                    _ => &mut unlocked,
                };
                let e: &mut u64 = class.entry(asset).or_default();
                *e = e.saturating_add(out.amount);
                let t: &mut u64 = total.entry(asset).or_default();
                *t = t.saturating_add(out.amount);
                ids.push(UtxoId::new(
                    u.utxo.utxo_id.tx_id,
                    u.utxo.utxo_id.output_index,
                ));
            }
        }
        let of = |m: &BTreeMap<Id, u64>| m.get(&avax).copied().unwrap_or(0);
        let wire = |m: &BTreeMap<Id, u64>| -> BTreeMap<Id, U64> {
            m.iter().map(|(k, v)| (*k, U64(*v))).collect()
        };
        let mut result = GetBalanceResult::new(
            of(&total),
            of(&unlocked),
            of(&stakeable),
            of(&not_stakeable),
            wire(&total),
            wire(&unlocked),
            wire(&stakeable),
            wire(&not_stakeable),
        );
        if !ids.is_empty() {
            result = result.with_utxo_ids(ids);
        }
        Ok(result)
    }

    async fn get_utxos(&self, p: GetUtxosParams) -> Result<GetUtxosResult, RpcError> {
        let encoding = p.encoding.unwrap_or_default();
        let (utxos, end) = utxo_page(
            &self.0,
            &ChainView::p(),
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

    async fn get_stake(&self, p: GetStakeParams) -> Result<GetStakeResult, RpcError> {
        if p.addresses.len() > MAX_STAKE_ADDRESSES {
            return Err(RpcError::invalid_params(
                "addresses",
                format!(
                    "{} addresses provided but this method can take at most {MAX_STAKE_ADDRESSES}",
                    p.addresses.len()
                ),
            ));
        }
        let view = ChainView::p();
        let mut owners = BTreeSet::new();
        for a in &p.addresses {
            owners.insert(view.address(&self.0, "addresses", a)?);
        }
        let encoding = p.encoding.unwrap_or_default();
        let r = self.0.view()?;
        let mut stakeds: BTreeMap<Id, u64> = BTreeMap::new();
        let mut outputs = Vec::new();
        for subnet in r.subnets_with_validators(u64::MAX)? {
            let stakes: Vec<Vec<codec::TransferableOutput>> = r
                .stakers(&subnet)?
                .into_iter()
                .filter_map(|s| s.terms().map(|v| v.stake.to_vec()))
                .chain(r.delegators(&subnet, None)?.into_iter().map(|d| d.tx.stake))
                .collect();
            for stake in &stakes {
                for o in stake {
                    let transfer = match &o.output {
                        codec::TransferableOut::TransferOutput(t) => t,
                        codec::TransferableOut::LockOut(l) => match &l.output {
                            codec::LockedOut::TransferOutput(t) => t,
                            _ => continue,
                        },
                        _ => continue,
                    };
                    if !transfer
                        .owners
                        .addresses
                        .iter()
                        .any(|a| owners.contains(a.as_bytes()))
                    {
                        continue;
                    }
                    let e = stakeds.entry(o.asset_id).or_default();
                    *e = e.saturating_add(transfer.amount);
                    let bytes = o.to_bytes().map_err(|e| {
                        RpcError::server(format!("couldn't serialize output {}: {e}", o.asset_id))
                    })?;
                    outputs.push(encode(encoding, &bytes)?);
                }
            }
        }
        let staked = stakeds
            .get(&self.0.genesis.avax_asset_id)
            .copied()
            .unwrap_or(0);
        let stakeds: BTreeMap<Id, U64> = stakeds.into_iter().map(|(k, v)| (k, U64(v))).collect();
        Ok(GetStakeResult::new(staked, stakeds, outputs, encoding))
    }

    async fn get_reward_utxos(
        &self,
        p: GetRewardUtxosParams,
    ) -> Result<GetRewardUtxosResult, RpcError> {
        let encoding = p.encoding.unwrap_or_default();
        let r = self.0.view()?;
        let utxos = r
            .reward_utxos(&p.tx_id)?
            .iter()
            .map(|u| encode(encoding, u))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GetRewardUtxosResult::new(
            utxos.len() as u64,
            utxos,
            encoding,
        ))
    }

    async fn get_block(&self, p: GetBlockParams) -> Result<GetBlockResult, RpcError> {
        let r = self.0.view()?;
        let not_found = || {
            RpcError::server(format!(
                "couldn't get block with id {}: not found",
                p.block_id
            ))
        };
        let h = r.height_of(Chain::P, &p.block_id)?.ok_or_else(not_found)?;
        let bytes = r.block_at(Chain::P, h)?.ok_or_else(not_found)?;
        let encoding = p.encoding.unwrap_or_default();
        Ok(GetBlockResult::new(
            self.block_result(&bytes, encoding)?,
            encoding,
        ))
    }

    async fn get_block_by_height(
        &self,
        p: GetBlockByHeightParams,
    ) -> Result<GetBlockByHeightResult, RpcError> {
        let h = p.height.map(|h| h.get()).unwrap_or(0);
        let r = self.0.view()?;
        let bytes = r.block_at(Chain::P, h)?.ok_or_else(|| {
            RpcError::server(format!("couldn't get block at height {h}: not found"))
        })?;
        let encoding = p.encoding.unwrap_or_default();
        Ok(GetBlockByHeightResult::new(
            self.block_result(&bytes, encoding)?,
            encoding,
        ))
    }

    async fn get_height(&self, _: GetHeightParams) -> Result<GetHeightResult, RpcError> {
        let r = self.0.view()?;
        Ok(GetHeightResult::new(r.height(Chain::P)?))
    }

    async fn get_proposed_height(
        &self,
        _: GetProposedHeightParams,
    ) -> Result<GetProposedHeightResult, RpcError> {
        // The devnet's nodes accept every block at once, so the proposer window is empty and
        // the proposed height is the last accepted one.
        let r = self.0.view()?;
        Ok(GetProposedHeightResult::new(r.height(Chain::P)?))
    }

    async fn get_timestamp(&self, _: GetTimestampParams) -> Result<GetTimestampResult, RpcError> {
        let r = self.0.view()?;
        let t = r.p_timestamp()?;
        Ok(GetTimestampResult::new(Timestamp::from_unix(t as i64, 0)))
    }

    async fn get_tx(&self, p: GetTxParams) -> Result<GetTxResult, RpcError> {
        let r = self.0.view()?;
        let stored = r
            .tx(Chain::P, &p.tx_id)?
            .ok_or_else(|| RpcError::server("couldn't get tx: not found"))?;
        let encoding = p.encoding.unwrap_or_default();
        let tx = match encoding {
            Encoding::Json => {
                let tx = codec::Tx::from_bytes(&stored.bytes)
                    .map_err(|e| RpcError::server(format!("a stored tx does not decode: {e}")))?;
                HexOrJson::Json(tx.to_json(&self.json()))
            }
            e => HexOrJson::Hex(encode(e, &stored.bytes)?),
        };
        Ok(GetTxResult::new(tx, encoding))
    }

    async fn get_tx_status(&self, p: GetTxStatusParams) -> Result<GetTxStatusResult, RpcError> {
        // Accepted state, then the mempool, then the recently dropped, as the node looks. A
        // tx leaves the mempool only after its block is committed, so one found in neither
        // may have been committed in between: the accepted state is read again.
        let accepted = || -> Result<Option<GetTxStatusResult>, RpcError> {
            let r = self.0.view()?;
            Ok(r.tx(Chain::P, &p.tx_id)?.map(|t| {
                GetTxStatusResult::new(if t.status == Status::Aborted {
                    TxStatus::Aborted
                } else {
                    TxStatus::Committed
                })
            }))
        };
        if let Some(s) = accepted()? {
            return Ok(s);
        }
        Ok(match self.0.p.status(&p.tx_id) {
            Some(Ok(())) => GetTxStatusResult::new(TxStatus::Processing),
            Some(Err(reason)) => GetTxStatusResult::new(TxStatus::Dropped).with_reason(reason),
            None => accepted()?.unwrap_or_else(|| GetTxStatusResult::new(TxStatus::Unknown)),
        })
    }

    async fn issue_tx(&self, p: IssueTxParams) -> Result<IssueTxResult, RpcError> {
        let bytes = super::common::tx_bytes(p.encoding, &p.tx)?;
        let id = self.0.issue_p(bytes)?;
        Ok(IssueTxResult::new(id))
    }

    async fn get_current_validators(
        &self,
        p: GetCurrentValidatorsParams,
    ) -> Result<GetCurrentValidatorsResult, RpcError> {
        let subnet = p.subnet_id.unwrap_or(Id::ZERO);
        let wanted: BTreeSet<NodeId> = p.node_ids.unwrap_or_default().into_iter().collect();
        let r = self.0.view()?;
        let delegators = r.delegators(&subnet, None)?;
        let listed = wanted.len() == 1;
        let validators: Vec<CurrentValidator> = r
            .stakers(&subnet)?
            .iter()
            .filter(|s| wanted.is_empty() || wanted.contains(&s.node))
            .map(|s| {
                let mine: Vec<pchain::Delegator> = delegators
                    .iter()
                    .filter(|d| d.node == s.node)
                    .cloned()
                    .collect();
                self.current_validator(s, &mine, listed)
            })
            .chain({
                // An L1's validators follow its legacy ones.
                let fees = r.l1_fee_state()?;
                r.l1_validators(Some(&subnet))?
                    .into_iter()
                    .filter(|v| wanted.is_empty() || wanted.contains(&v.node))
                    .map(move |v| self.l1_entry(&v, &fees))
                    .collect::<Vec<_>>()
            })
            .collect();
        Ok(GetCurrentValidatorsResult::new(validators))
    }

    async fn get_l1_validator(
        &self,
        p: GetL1ValidatorParams,
    ) -> Result<GetL1ValidatorResult, RpcError> {
        let r = self.0.view()?;
        let v = r.l1_validator(&p.validation_id)?.ok_or_else(|| {
            RpcError::server(format!(
                "fetching L1 validator \"{}\" failed: not found",
                p.validation_id
            ))
        })?;
        let fees = r.l1_fee_state()?;
        Ok(GetL1ValidatorResult::new(
            v.node,
            v.weight,
            v.start,
            v.validation_id,
            HexBytes(v.public_key.to_vec()),
            self.p_owner(&v.remaining_balance_owner),
            self.p_owner(&v.deactivation_owner),
            v.min_nonce,
            v.balance(&fees),
            v.subnet,
            r.height(Chain::P)?,
        ))
    }

    async fn get_validators_at(
        &self,
        p: GetValidatorsAtParams,
    ) -> Result<GetValidatorsAtResult, RpcError> {
        let r = self.0.view()?;
        let h = Self::height(&r, p.height)?;
        let set = r.validators_at(&p.subnet_id.unwrap_or(Id::ZERO), h)?;
        Ok(set
            .into_iter()
            .map(|(node, (weight, pk))| {
                let mut v = ValidatorAtHeight::new(weight);
                if let Some(pk) = pk {
                    v = v.with_public_key(HexBytes(pk.to_vec()));
                }
                (node, v)
            })
            .collect())
    }

    async fn get_all_validators_at(
        &self,
        p: GetAllValidatorsAtParams,
    ) -> Result<GetAllValidatorsAtResult, RpcError> {
        let r = self.0.view()?;
        let h = Self::height(&r, p.height)?;
        let mut sets = BTreeMap::new();
        for subnet in r.subnets_with_validators(h)? {
            let set = r.validators_at(&subnet, h)?;
            let total: u64 = set.values().map(|v| v.0).fold(0, u64::saturating_add);
            // Validators sharing a BLS key are one entry; those without a key are left out.
            let mut by_key: BTreeMap<[u8; 48], (u64, Vec<NodeId>)> = BTreeMap::new();
            for (node, (weight, pk)) in set {
                if let Some(pk) = pk {
                    let e = by_key.entry(pk).or_default();
                    e.0 = e.0.saturating_add(weight);
                    e.1.push(node);
                }
            }
            let validators = by_key
                .into_iter()
                .map(|(pk, (w, nodes))| CanonicalValidator::new(HexBytes(pk.to_vec()), w, nodes))
                .collect::<Vec<_>>();
            sets.insert(subnet, ValidatorSetAtHeight::new(validators, total));
        }
        Ok(GetAllValidatorsAtResult::new(sets))
    }

    async fn sample_validators(
        &self,
        p: SampleValidatorsParams,
    ) -> Result<SampleValidatorsResult, RpcError> {
        let size = u64::from(p.size.get());
        let subnet = p.subnet_id.unwrap_or(Id::ZERO);
        if size == 0 {
            return Ok(SampleValidatorsResult::new(Vec::new()));
        }
        let r = self.0.view()?;
        let set = r.validators_at(&subnet, r.height(Chain::P)?)?;
        if set.is_empty() {
            return Err(RpcError::server(format!(
                "sampling {subnet} errored with missing validators"
            )));
        }
        let mut weights: Vec<(NodeId, u64)> = set.into_iter().map(|(n, (w, _))| (n, w)).collect();
        let total: u64 = weights.iter().map(|w| w.1).sum();
        if size > total {
            return Err(RpcError::server(format!(
                "sampling {subnet} errored with insufficient weight"
            )));
        }
        // Stake-weighted, without replacement over units of weight (a node may come twice).
        let mut seed = self.0.engine.clock.now_ns() ^ 0x9e37_79b9_7f4a_7c15;
        let mut left = total;
        let mut picked = Vec::new();
        for _ in 0..size {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut unit = seed % left;
            for (node, w) in weights.iter_mut() {
                if unit < *w {
                    picked.push(*node);
                    *w -= 1;
                    break;
                }
                unit -= *w;
            }
            left -= 1;
        }
        picked.sort();
        Ok(SampleValidatorsResult::new(picked))
    }

    async fn get_min_stake(&self, p: GetMinStakeParams) -> Result<GetMinStakeResult, RpcError> {
        let subnet = p.subnet_id.unwrap_or(Id::ZERO);
        if subnet != Id::ZERO {
            return Err(RpcError::server(format!(
                "failed fetching subnet transformation for {subnet}: not found"
            )));
        }
        Ok(GetMinStakeResult::new(
            staking::MIN_VALIDATOR_STAKE,
            staking::MIN_DELEGATOR_STAKE,
        ))
    }

    async fn get_total_stake(
        &self,
        p: GetTotalStakeParams,
    ) -> Result<GetTotalStakeResult, RpcError> {
        // The validator set's weight: validators' stakes and their delegators'.
        let r = self.0.view()?;
        let subnet = p.subnet_id.unwrap_or(Id::ZERO);
        let total = r
            .stakers(&subnet)?
            .iter()
            .map(Staker::weight)
            .chain(
                r.delegators(&subnet, None)?
                    .iter()
                    .map(|d| d.tx.validator.weight),
            )
            .fold(0u64, u64::saturating_add);
        Ok(GetTotalStakeResult::new(total).with_stake(total))
    }

    async fn get_current_supply(
        &self,
        p: GetCurrentSupplyParams,
    ) -> Result<GetCurrentSupplyResult, RpcError> {
        if p.subnet_id.is_some_and(|s| s != Id::ZERO) {
            return Err(RpcError::server(
                "fetching current supply failed: not found",
            ));
        }
        let r = self.0.view()?;
        Ok(GetCurrentSupplyResult::new(
            r.supply()?,
            r.height(Chain::P)?,
        ))
    }

    async fn get_staking_asset_id(
        &self,
        p: GetStakingAssetIdParams,
    ) -> Result<GetStakingAssetIdResult, RpcError> {
        let subnet = p.subnet_id.unwrap_or(Id::ZERO);
        if subnet != Id::ZERO {
            return Err(RpcError::server(format!(
                "failed fetching subnet transformation for {subnet}: not found"
            )));
        }
        Ok(GetStakingAssetIdResult::new(self.0.genesis.avax_asset_id))
    }

    async fn get_subnet(&self, p: GetSubnetParams) -> Result<GetSubnetResult, RpcError> {
        let r = self.0.view()?;
        let (_, o) = Self::subnet(&r, &p.subnet_id)?;
        let conversion = r.conversion(&p.subnet_id)?;
        // No Subnet is transformed (elastic) on this devnet: that ended with Etna.
        let result = GetSubnetResult::new(
            conversion.is_none(),
            self.control_keys(&o),
            o.owners.threshold,
            o.owners.locktime,
            Id::ZERO,
            conversion.as_ref().map_or(Id::ZERO, |c| c.id),
            conversion.as_ref().map_or(Id::ZERO, |c| c.manager_chain),
        );
        Ok(match conversion {
            Some(c) => result.with_manager_address(HexBytes(c.manager_address)),
            None => result,
        })
    }

    async fn get_subnets(&self, p: GetSubnetsParams) -> Result<GetSubnetsResult, RpcError> {
        let primary = SubnetInfo::new(Id::ZERO, Vec::new(), 0u32);
        let ids = p.ids.unwrap_or_default();
        let r = self.0.view()?;
        let info = |id: &Id| -> Result<Option<SubnetInfo>, RpcError> {
            match Self::subnet(&r, id) {
                Ok((id, o)) => Ok(Some(SubnetInfo::new(
                    id,
                    self.control_keys(&o),
                    o.owners.threshold,
                ))),
                // Unknown IDs are skipped; other txs fail the call.
                Err(e) if e.message == "not found" => Ok(None),
                Err(e) => Err(e),
            }
        };
        if ids.is_empty() {
            let mut out = Vec::new();
            for id in r.subnets()? {
                out.extend(info(&id)?);
            }
            out.push(primary);
            return Ok(GetSubnetsResult::new().with_subnets(out));
        }
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        for id in ids {
            if !seen.insert(id) {
                continue;
            }
            if id == Id::ZERO {
                out.push(primary.clone());
            } else {
                out.extend(info(&id)?);
            }
        }
        Ok(if out.is_empty() {
            GetSubnetsResult::new()
        } else {
            GetSubnetsResult::new().with_subnets(out)
        })
    }

    async fn validates(&self, p: ValidatesParams) -> Result<ValidatesResult, RpcError> {
        let subnet = p.subnet_id.unwrap_or(Id::ZERO);
        let r = self.0.view()?;
        if subnet != Id::ZERO {
            Self::subnet(&r, &subnet).map_err(|e| match e.message.as_str() {
                "not found" => {
                    RpcError::server(format!("problem retrieving subnet \"{subnet}\": not found"))
                }
                _ => e,
            })?;
        }
        let ids: Vec<Id> = r
            .chains(Some(&subnet))?
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        Ok(ValidatesResult::new(ids))
    }

    async fn validated_by(&self, p: ValidatedByParams) -> Result<ValidatedByResult, RpcError> {
        if p.blockchain_id == Id::ZERO {
            return Ok(ValidatedByResult::new(Id::ZERO));
        }
        let r = self.0.view()?;
        match r.create_chain(&p.blockchain_id)? {
            Some(c) => Ok(ValidatedByResult::new(c.subnet_id)),
            None if r.tx(Chain::P, &p.blockchain_id)?.is_some() => Err(RpcError::server(format!(
                "\"{}\" is not a blockchain",
                p.blockchain_id
            ))),
            None => Err(RpcError::server(format!(
                "problem retrieving blockchain \"{}\": not found",
                p.blockchain_id
            ))),
        }
    }

    async fn get_blockchains(
        &self,
        _: GetBlockchainsParams,
    ) -> Result<GetBlockchainsResult, RpcError> {
        let r = self.0.view()?;
        // The chains of the other Subnets first, then the Primary Network's (as the node).
        let all = r.chains(None)?;
        let (primary, others): (Vec<_>, Vec<_>) =
            all.into_iter().partition(|(_, c)| c.subnet_id == Id::ZERO);
        let chains: Vec<Blockchain> = others
            .into_iter()
            .chain(primary)
            .map(|(id, c)| Blockchain::new(id, c.chain_name, c.subnet_id, c.vm_id))
            .collect();
        Ok(GetBlockchainsResult::new(chains))
    }

    async fn get_blockchain_status(
        &self,
        p: GetBlockchainStatusParams,
    ) -> Result<GetBlockchainStatusResult, RpcError> {
        if p.blockchain_id.is_empty() {
            return Err(RpcError::invalid_params(
                "blockchainID",
                "argument 'blockchainID' not given",
            ));
        }
        let me = self.0.nodes[0].id;
        let r = self.0.view()?;
        let validating = r.is_staker(&Id::ZERO, &me)?;
        let status = match devnet::chain_id(&self.0, &p.blockchain_id) {
            // This node runs the X-chain: Validating while it validates the Primary Network.
            Some(id) if id == self.0.genesis.x_chain_id && validating => {
                BlockchainStatus::Validating
            }
            Some(id) if id == self.0.genesis.x_chain_id => BlockchainStatus::Syncing,
            // The node's quirk: the P-chain's aliases pass the "runs it" check but have no
            // CreateChainTx, so the validator check fails.
            Some(id) if id == Id::ZERO => BlockchainStatus::Syncing,
            other => {
                let id = match other {
                    Some(id) => id,
                    None => p.blockchain_id.parse::<Id>().map_err(|e| {
                        RpcError::invalid_params(
                            "blockchainID",
                            format!("problem parsing blockchainID \"{}\": {e}", p.blockchain_id),
                        )
                    })?,
                };
                // Known but not run by this devnet (the C-chain): Created.
                if r.create_chain(&id)?.is_some() {
                    BlockchainStatus::Created
                } else {
                    BlockchainStatus::Unknown
                }
            }
        };
        Ok(GetBlockchainStatusResult::new(status))
    }

    async fn get_fee_config(&self, _: GetFeeConfigParams) -> Result<GetFeeConfigResult, RpcError> {
        use pchain::fee;
        Ok(GetFeeConfigResult::new(
            fee::WEIGHTS.to_vec(),
            fee::MAX_CAPACITY,
            fee::MAX_PER_SECOND,
            fee::TARGET_PER_SECOND,
            fee::MIN_PRICE,
            fee::EXCESS_CONVERSION_CONSTANT,
        ))
    }

    async fn get_fee_state(&self, _: GetFeeStateParams) -> Result<GetFeeStateResult, RpcError> {
        // The state of the last accepted block, at its time.
        let r = self.0.view()?;
        let (state, t) = r.fee_state()?;
        Ok(GetFeeStateResult::new(
            state.capacity,
            state.excess,
            pchain::fee::price(state.excess),
            Timestamp::from_unix(t as i64, 0),
        ))
    }

    async fn get_validator_fee_config(
        &self,
        _: GetValidatorFeeConfigParams,
    ) -> Result<GetValidatorFeeConfigResult, RpcError> {
        use pchain::l1;
        Ok(GetValidatorFeeConfigResult::new(
            l1::CAPACITY,
            l1::TARGET,
            l1::MIN_PRICE,
            l1::EXCESS_CONVERSION_CONSTANT,
        ))
    }

    async fn get_validator_fee_state(
        &self,
        _: GetValidatorFeeStateParams,
    ) -> Result<GetValidatorFeeStateResult, RpcError> {
        // The state of the last accepted block, at its time.
        let r = self.0.view()?;
        let t = r.p_timestamp()?;
        let fees = r.l1_fee_state()?;
        Ok(GetValidatorFeeStateResult::new(
            fees.excess,
            fees.price(),
            Timestamp::from_unix(t as i64, 0),
        ))
    }
}
