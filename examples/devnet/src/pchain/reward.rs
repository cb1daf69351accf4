//! The end of a staking period, as the node's block builder handles it: once the chain time
//! reaches a validator's end, a Banff proposal block carries a RewardValidatorTx for it and
//! its commit block (every devnet node is always up, so the reward is always earned) returns
//! the stake and pays the reward to the validation rewards owner
//! (`vms/platformvm/txs/executor/proposal_tx_executor.go` RewardValidatorTx).

use super::{Utxo, fee};
use crate::devnet::Devnet;
use crate::index::{self, Kind};
use crate::ledger::{self, Chain, Status};
use crate::proposer;
use crate::store::{self, StoreError};
use avalanche_rpc::codec::{avax, platform};
use avalanche_rpc::wire::{Id, NodeId};
use redb::{ReadableTable, WriteTransaction};

/// A validator due to leave: its staking tx and record.
struct Due {
    node: NodeId,
    tx_id: Id,
    tx: platform::AddPermissionlessValidatorTx,
    reward: u64,
}

/// The Primary Network validator with the earliest end at or before `now`.
fn next_due(w: &WriteTransaction, now: u64) -> Result<Option<Due>, StoreError> {
    let stakers = w.open_table(store::P_STAKERS)?;
    let start = Id::ZERO.as_bytes().to_vec();
    let end = store::key(&[Id::ZERO.as_bytes(), &[0xff; 21]]);
    let mut best: Option<Due> = None;
    for e in stakers.range(start.as_slice()..end.as_slice())? {
        let (k, v) = e?;
        let v = v.value();
        let tx_id = Id::new(v[..32].try_into().expect("32 bytes"));
        let reward = u64::from_be_bytes(v[32..40].try_into().expect("8 bytes"));
        let bytes = ledger::tx_bytes_in(w, Chain::P, &tx_id)?
            .ok_or_else(|| StoreError(format!("staker tx {tx_id} is not stored")))?;
        let tx = platform::Tx::from_bytes(&bytes)
            .map_err(|e| StoreError(format!("stored tx {tx_id} does not decode: {e}")))?;
        let platform::UnsignedTx::AddPermissionlessValidatorTx(v) = tx.unsigned else {
            continue;
        };
        let ends = v.validator.end;
        if ends <= now && best.as_ref().is_none_or(|b| ends < b.tx.validator.end) {
            best = Some(Due {
                node: NodeId::new(k.value()[32..].try_into().expect("20 bytes")),
                tx_id,
                tx: *v,
                reward,
            });
        }
    }
    Ok(best)
}

impl Devnet {
    /// Rewards every validator whose period has ended by the devnet's time, oldest end
    /// first, each with a proposal block and its commit; how many.
    pub fn reward_stakers(&self) -> Result<usize, StoreError> {
        let _one_at_a_time = self.building.lock().expect("builder lock");
        let mut rewarded = 0;
        loop {
            let w = self.store.write()?;
            let Some(due) = next_due(&w, self.clock.now())? else {
                return Ok(rewarded);
            };
            let (parent_height, parent_bytes) =
                ledger::last_block(&w.open_table(store::BLOCKS)?, Chain::P)?;
            let parent_time = store::meta_u64_in(&w, "p_timestamp")?.unwrap_or(self.genesis.time);
            let time = due.tx.validator.end.max(parent_time);
            let reward_tx = platform::Tx::new(
                platform::RewardValidatorTx::new(due.tx_id).into(),
                Vec::new(),
            );
            let reward_bytes = encode(&reward_tx.to_bytes())?;
            let proposal = platform::Block::from(platform::BanffProposalBlock::new(
                time,
                Vec::new(),
                Id::from_sha256(&parent_bytes),
                parent_height + 1,
                reward_tx,
            ));
            let proposal_bytes = encode(&proposal.to_bytes())?;
            let proposal_id = Id::from_sha256(&proposal_bytes);
            let commit = platform::Block::from(platform::BanffCommitBlock::new(
                time,
                proposal_id,
                parent_height + 2,
            ));
            let commit_bytes = encode(&commit.to_bytes())?;
            let commit_height = parent_height + 2;
            ledger::put_block(
                &w,
                Chain::P,
                &proposal_id,
                parent_height + 1,
                &proposal_bytes,
            )?;
            ledger::put_block(
                &w,
                Chain::P,
                &Id::from_sha256(&commit_bytes),
                commit_height,
                &commit_bytes,
            )?;
            ledger::put_tx(
                &w,
                Chain::P,
                &Id::from_sha256(&reward_bytes),
                parent_height + 1,
                Status::Committed,
                &reward_bytes,
            )?;
            // The stake comes back, then the reward: outputs numbered after the staking tx's.
            let mut index = due.tx.base.outputs.len() as u32;
            for o in &due.tx.stake {
                let platform::TransferableOut::TransferOutput(t) = &o.output else {
                    continue;
                };
                let u = Utxo::new(platform::Utxo::new(
                    avax::UtxoId::new(due.tx_id, index),
                    o.asset_id,
                    platform::UtxoOutput::TransferOutput(t.clone()),
                ));
                index += 1;
                ledger::put_utxo(&w, Chain::P, &u.id, &u.bytes, &u.owners())?;
            }
            let platform::Owner::OutputOwners(owner) = &due.tx.validator_rewards_owner else {
                return Err(StoreError(
                    "a validator's reward owner is not an OutputOwners".into(),
                ));
            };
            if due.reward > 0 {
                let u = Utxo::new(platform::Utxo::new(
                    avax::UtxoId::new(due.tx_id, index),
                    self.genesis.avax_asset_id,
                    platform::UtxoOutput::TransferOutput(
                        avalanche_rpc::codec::secp256k1fx::TransferOutput::new(
                            due.reward,
                            owner.owners.clone(),
                        ),
                    ),
                ));
                ledger::put_utxo(&w, Chain::P, &u.id, &u.bytes, &u.owners())?;
                w.open_table(store::P_REWARD_UTXOS)?.insert(
                    store::key(&[due.tx_id.as_bytes(), &index.to_be_bytes()]).as_slice(),
                    u.bytes.as_slice(),
                )?;
            }
            super::remove_staker(
                &w,
                &Id::ZERO,
                &due.node,
                commit_height,
                due.tx.validator.weight,
            )?;
            // Both blocks wrapped, the option on its proposal; both indexed.
            let parent_tip = match proposer::tip_in(&w, Chain::P)? {
                Some(t) => t,
                None => proposer::Tip::genesis(Id::from_sha256(&parent_bytes), self.genesis.time),
            };
            let (wrapped, tip) = proposer::wrap(
                &w,
                Chain::P,
                parent_tip,
                &proposal_bytes,
                time,
                parent_height,
            )?;
            ledger::put_proposer(&w, Chain::P, parent_height + 1, &wrapped)?;
            let (option, option_tip) = proposer::wrap_option(&w, Chain::P, tip, &commit_bytes)?;
            ledger::put_proposer(&w, Chain::P, commit_height, &option)?;
            if self.options.index_enabled {
                let now = self.clock.now_ns();
                index::append(&w, Kind::PBlock, &tip.id, now, &wrapped)?;
                index::append(&w, Kind::PBlock, &option_tip.id, now, &option)?;
            }
            // Time passed: the fee state refills and drains; no gas was used.
            let state = store::meta_in(&w, "p_fee_state")?
                .and_then(|v| fee::State::decode(&v))
                .unwrap_or_default()
                .advance(time - parent_time);
            store::set_meta(&w, "p_fee_state", &state.encode())?;
            store::set_meta(&w, "p_timestamp", &time.to_be_bytes())?;
            w.commit()?;
            rewarded += 1;
        }
    }
}

fn encode(r: &Result<Vec<u8>, avalanche_rpc::codec::EncodeError>) -> Result<Vec<u8>, StoreError> {
    r.clone()
        .map_err(|e| StoreError(format!("a reward block does not encode: {e}")))
}

/// The reward UTXOs paid for staking tx `tx` (`platform.getRewardUTXOs`).
pub fn reward_utxos(r: &redb::ReadTransaction, tx: &Id) -> Result<Vec<Vec<u8>>, StoreError> {
    let t = r.open_table(store::P_REWARD_UTXOS)?;
    let start = tx.as_bytes().to_vec();
    let end = store::key(&[tx.as_bytes(), &[0xff; 5]]);
    let mut out = Vec::new();
    for e in t.range(start.as_slice()..end.as_slice())? {
        out.push(e?.1.value().to_vec());
    }
    Ok(out)
}
