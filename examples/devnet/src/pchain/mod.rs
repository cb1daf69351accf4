//! The P-chain's state in the store: its ledger (blocks, txs, UTXOs), the current stakers,
//! the validator set's changes by height (`getValidatorsAt`), the chains of each Subnet, the
//! supply and the chain time; and writing its genesis.

pub mod accept;
pub mod fee;
pub mod reward;
pub mod verify;

use crate::genesis::{Genesis, staking};
use crate::ledger::{self, Chain, Status};
use crate::store::{self, StoreError};
use avalanche_rpc::codec::{platform, secp256k1fx};
use avalanche_rpc::wire::{Id, NodeId};
use redb::{ReadTransaction, WriteTransaction};
use std::collections::BTreeMap;

/// A P-chain UTXO with its ID and bytes.
#[derive(Debug, Clone)]
pub struct Utxo {
    pub id: Id,
    pub utxo: platform::Utxo,
    pub bytes: Vec<u8>,
}

impl Utxo {
    pub fn new(utxo: platform::Utxo) -> Utxo {
        let bytes = utxo.to_bytes().expect("a UTXO built here encodes");
        Utxo {
            id: utxo.utxo_id.id(),
            utxo,
            bytes,
        }
    }

    pub fn decode(bytes: &[u8]) -> Result<Utxo, StoreError> {
        let utxo = platform::Utxo::from_bytes(bytes)
            .map_err(|e| StoreError(format!("a stored P-chain UTXO does not decode: {e}")))?;
        Ok(Utxo {
            id: utxo.utxo_id.id(),
            utxo,
            bytes: bytes.to_vec(),
        })
    }

    /// The transfer output inside, and the stakeable lock's end if it is a LockOut.
    pub fn transfer(&self) -> Option<(&secp256k1fx::TransferOutput, Option<u64>)> {
        match &self.utxo.output {
            platform::UtxoOutput::TransferOutput(o) => Some((o, None)),
            platform::UtxoOutput::LockOut(l) => match &l.output {
                platform::LockedOut::TransferOutput(o) => Some((o, Some(l.locktime))),
                _ => None,
            },
            _ => None,
        }
    }

    pub fn owners(&self) -> Vec<[u8; 20]> {
        self.transfer()
            .map(|(o, _)| o.owners.addresses.iter().map(|a| *a.as_bytes()).collect())
            .unwrap_or_default()
    }
}

/// A current validator of a Subnet.
#[derive(Debug, Clone)]
pub struct Staker {
    pub subnet: Id,
    pub node: NodeId,
    pub tx_id: Id,
    pub tx: platform::Tx,
    pub potential_reward: u64,
    /// When it started validating: the chain time it was accepted at (since Durango the
    /// tx's own start time is ignored).
    pub start: u64,
}

impl Staker {
    /// The validator, stake, owners and fee of the staking tx.
    pub fn validator(&self) -> Option<&platform::AddPermissionlessValidatorTx> {
        match &self.tx.unsigned {
            platform::UnsignedTx::AddPermissionlessValidatorTx(v) => Some(v),
            _ => None,
        }
    }

    pub fn weight(&self) -> u64 {
        self.validator().map_or(0, |v| v.validator.weight)
    }

    pub fn public_key(&self) -> Option<[u8; 48]> {
        match &self.validator()?.signer {
            platform::Signer::ProofOfPossession(p) => Some(p.public_key),
            _ => None,
        }
    }
}

fn staker_key(subnet: &Id, node: &NodeId) -> Vec<u8> {
    store::key(&[subnet.as_bytes(), node.as_bytes()])
}

/// The current validators of `subnet`, by node ID.
pub fn stakers(r: &ReadTransaction, subnet: &Id) -> Result<Vec<Staker>, StoreError> {
    let t = r.open_table(store::P_STAKERS)?;
    let start = subnet.as_bytes().to_vec();
    let end = store::key(&[subnet.as_bytes(), &[0xff; 21]]);
    let mut out = Vec::new();
    for e in t.range(start.as_slice()..end.as_slice())? {
        let (k, v) = e?;
        let v = v.value();
        let tx_id = Id::new(v[..32].try_into().expect("32 bytes"));
        let reward = u64::from_be_bytes(v[32..40].try_into().expect("8 bytes"));
        let start = u64::from_be_bytes(v[40..48].try_into().expect("8 bytes"));
        let stored = ledger::tx(r, Chain::P, &tx_id)?
            .ok_or_else(|| StoreError(format!("staker tx {tx_id} is not stored")))?;
        let tx = platform::Tx::from_bytes(&stored.bytes)
            .map_err(|e| StoreError(format!("stored tx {tx_id} does not decode: {e}")))?;
        out.push(Staker {
            subnet: *subnet,
            node: NodeId::new(k.value()[32..].try_into().expect("20 bytes")),
            tx_id,
            tx,
            potential_reward: reward,
            start,
        });
    }
    Ok(out)
}

/// A validator set: weight and BLS public key by node.
pub type ValidatorSet = BTreeMap<NodeId, (u64, Option<[u8; 48]>)>;

/// The validator set of `subnet` after the block at `height`.
pub fn validators_at(
    r: &ReadTransaction,
    subnet: &Id,
    height: u64,
) -> Result<ValidatorSet, StoreError> {
    let t = r.open_table(store::P_VALIDATOR_DIFFS)?;
    let end = store::key(&[&height.to_be_bytes(), &[0xff; 53]]);
    let mut set = ValidatorSet::new();
    for e in t.range([].as_slice()..end.as_slice())? {
        let (k, v) = e?;
        let k = k.value();
        if &k[8..40] != subnet.as_bytes() {
            continue;
        }
        let node = NodeId::new(k[40..60].try_into().expect("20 bytes"));
        let v = v.value();
        let delta = i64::from_be_bytes(v[..8].try_into().expect("8 bytes"));
        let pk: Option<[u8; 48]> = v.get(8..56).map(|b| b.try_into().expect("48 bytes"));
        let entry = set.entry(node).or_insert((0, pk));
        entry.0 = entry.0.saturating_add_signed(delta);
        if pk.is_some() {
            entry.1 = pk;
        }
        if entry.0 == 0 {
            set.remove(&node);
        }
    }
    Ok(set)
}

/// The Subnets with a validator set at `height` (the Primary Network always).
pub fn subnets_with_validators(r: &ReadTransaction, height: u64) -> Result<Vec<Id>, StoreError> {
    let t = r.open_table(store::P_VALIDATOR_DIFFS)?;
    let end = store::key(&[&height.to_be_bytes(), &[0xff; 53]]);
    let mut out = vec![Id::ZERO];
    for e in t.range([].as_slice()..end.as_slice())? {
        let (k, _) = e?;
        let s = Id::new(k.value()[8..40].try_into().expect("32 bytes"));
        if !out.contains(&s) {
            out.push(s);
        }
    }
    Ok(out)
}

/// The chains of `subnet`: (chain ID, its CreateChainTx).
pub fn chains(
    r: &ReadTransaction,
    subnet: &Id,
) -> Result<Vec<(Id, platform::CreateChainTx)>, StoreError> {
    let t = r.open_table(store::P_CHAINS)?;
    let start = subnet.as_bytes().to_vec();
    let end = store::key(&[subnet.as_bytes(), &[0xff; 33]]);
    let mut out = Vec::new();
    for e in t.range(start.as_slice()..end.as_slice())? {
        let (k, _) = e?;
        let id = Id::new(k.value()[32..].try_into().expect("32 bytes"));
        out.push((
            id,
            create_chain(r, &id)?.expect("an indexed chain is stored"),
        ));
    }
    Ok(out)
}

/// The CreateChainTx with ID `id`, if `id` names one.
pub fn create_chain(
    r: &ReadTransaction,
    id: &Id,
) -> Result<Option<platform::CreateChainTx>, StoreError> {
    let Some(stored) = ledger::tx(r, Chain::P, id)? else {
        return Ok(None);
    };
    let tx = platform::Tx::from_bytes(&stored.bytes)
        .map_err(|e| StoreError(format!("stored tx {id} does not decode: {e}")))?;
    Ok(match tx.unsigned {
        platform::UnsignedTx::CreateChainTx(c) => Some(*c),
        _ => None,
    })
}

/// Unspent P-chain outputs owned by `address`, after `after`, at most `limit`.
/// Whether `node` is a current validator of `subnet`.
pub fn is_staker(r: &ReadTransaction, subnet: &Id, node: &NodeId) -> Result<bool, StoreError> {
    let t = r.open_table(store::P_STAKERS)?;
    Ok(t.get(staker_key(subnet, node).as_slice())?.is_some())
}

/// The same, within a write transaction.
pub fn is_staker_in(w: &WriteTransaction, subnet: &Id, node: &NodeId) -> Result<bool, StoreError> {
    use redb::ReadableTable;
    let t = w.open_table(store::P_STAKERS)?;
    Ok(t.get(staker_key(subnet, node).as_slice())?.is_some())
}

pub fn utxos_of(
    r: &ReadTransaction,
    address: &[u8; 20],
    after: Option<&Id>,
    limit: usize,
) -> Result<Vec<Utxo>, StoreError> {
    ledger::utxos_of(r, Chain::P, address, after, limit)?
        .into_iter()
        .map(|(_, b)| Utxo::decode(&b))
        .collect()
}

/// The supply: the initial supply plus every potential reward granted.
pub fn supply(r: &ReadTransaction) -> Result<u64, StoreError> {
    Ok(store::meta_u64(r, "p_supply")?.unwrap_or(0))
}

/// The chain time: the last accepted block's time.
pub fn timestamp(r: &ReadTransaction) -> Result<u64, StoreError> {
    Ok(store::meta_u64(r, "p_timestamp")?.unwrap_or(0))
}

/// Writes the P-chain's genesis state.
pub fn write_genesis(w: &WriteTransaction, g: &Genesis) -> Result<(), StoreError> {
    let block = g
        .p_block
        .to_bytes()
        .map_err(|e| StoreError(e.to_string()))?;
    ledger::put_block(w, Chain::P, &Id::from_sha256(&block), 0, &block)?;
    for u in &g.p.utxos {
        let u = Utxo::new(u.utxo.clone());
        ledger::put_utxo(w, Chain::P, &u.id, &u.bytes, &u.owners())?;
    }
    let mut supply = g.p.initial_supply;
    for tx in &g.p.validators {
        let bytes = tx.to_bytes().map_err(|e| StoreError(e.to_string()))?;
        let id = Id::from_sha256(&bytes);
        ledger::put_tx(w, Chain::P, &id, 0, Status::Committed, &bytes)?;
        let platform::UnsignedTx::AddPermissionlessValidatorTx(v) = &tx.unsigned else {
            return Err(StoreError(
                "a genesis validator is not an AddPermissionlessValidatorTx".into(),
            ));
        };
        let duration = v.validator.end - v.validator.start;
        let reward = staking::reward(duration, v.validator.weight, supply);
        supply = supply.saturating_add(reward);
        let pk = match &v.signer {
            platform::Signer::ProofOfPossession(p) => Some(p.public_key),
            _ => None,
        };
        add_staker(
            w,
            &v.subnet_id,
            &v.validator.node_id,
            &id,
            reward,
            (0, v.validator.start),
            v.validator.weight,
            pk,
        )?;
    }
    for tx in &g.p.chains {
        let bytes = tx.to_bytes().map_err(|e| StoreError(e.to_string()))?;
        let id = Id::from_sha256(&bytes);
        ledger::put_tx(w, Chain::P, &id, 0, Status::Committed, &bytes)?;
        let platform::UnsignedTx::CreateChainTx(c) = &tx.unsigned else {
            return Err(StoreError("a genesis chain is not a CreateChainTx".into()));
        };
        w.open_table(store::P_CHAINS)?.insert(
            store::key(&[c.subnet_id.as_bytes(), id.as_bytes()]).as_slice(),
            (),
        )?;
    }
    store::set_meta(w, "p_supply", &supply.to_be_bytes())?;
    store::set_meta(w, "p_timestamp", &g.p.timestamp.to_be_bytes())?;
    Ok(())
}

/// Adds a current validator, recording the change of the set at `height`.
#[allow(clippy::too_many_arguments)]
pub fn add_staker(
    w: &WriteTransaction,
    subnet: &Id,
    node: &NodeId,
    tx: &Id,
    reward: u64,
    (height, start): (u64, u64),
    weight: u64,
    pk: Option<[u8; 48]>,
) -> Result<(), StoreError> {
    w.open_table(store::P_STAKERS)?.insert(
        staker_key(subnet, node).as_slice(),
        store::key(&[tx.as_bytes(), &reward.to_be_bytes(), &start.to_be_bytes()]).as_slice(),
    )?;
    let delta = i64::try_from(weight).map_err(|_| StoreError("a weight above 2^63".into()))?;
    let mut v = delta.to_be_bytes().to_vec();
    if let Some(pk) = pk {
        v.extend_from_slice(&pk);
    }
    w.open_table(store::P_VALIDATOR_DIFFS)?.insert(
        store::key(&[&height.to_be_bytes(), subnet.as_bytes(), node.as_bytes()]).as_slice(),
        v.as_slice(),
    )?;
    Ok(())
}

/// Removes a current validator, recording the change of the set at `height`.
pub fn remove_staker(
    w: &WriteTransaction,
    subnet: &Id,
    node: &NodeId,
    height: u64,
    weight: u64,
) -> Result<(), StoreError> {
    w.open_table(store::P_STAKERS)?
        .remove(staker_key(subnet, node).as_slice())?;
    let delta = i64::try_from(weight).map_err(|_| StoreError("a weight above 2^63".into()))?;
    w.open_table(store::P_VALIDATOR_DIFFS)?.insert(
        store::key(&[&height.to_be_bytes(), subnet.as_bytes(), node.as_bytes()]).as_slice(),
        (-delta).to_be_bytes().as_slice(),
    )?;
    Ok(())
}
