//! The P-chain's state in the store: its UTXOs, the supply and the chain time, and writing
//! its genesis. Stakers live in `stakers`, Subnets and chains in `subnets`, L1s in `l1`.
//! The transactions it accepts are in `kind` (one file per family: its checks and change),
//! verified by `verify`, run by `vm`.

pub mod due;
pub mod fee;
pub mod kind;
pub mod l1;
pub mod reward;
pub mod stakers;
pub mod subnets;
pub mod verify;
pub mod vm;
pub mod vocab;
pub mod warp;

pub use stakers::{Delegator, Record, Staker, ValidatorSet};

use crate::genesis::{Genesis, staking};
use crate::ledger::{self, Chain, Status};
use crate::store::{self, StoreError};
use avalanche_rpc::codec::{platform, secp256k1fx};
use avalanche_rpc::wire::Id;
use redb::{ReadTransaction, WriteTransaction};

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
        let utxo = platform::Utxo::from_bytes(bytes).map_err(|e| {
            StoreError::Invalid(format!("a stored P-chain UTXO does not decode: {e}"))
        })?;
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

/// Unspent P-chain outputs owned by `address`, after `after`, at most `limit`.
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
    Ok(store::meta_u64(r, store::Meta::P_SUPPLY)?.unwrap_or(0))
}

/// The chain time: the last accepted block's time.
pub fn timestamp<R: store::Reader>(r: &R) -> Result<u64, StoreError> {
    Ok(store::meta_u64(r, store::Meta::P_TIMESTAMP)?.unwrap_or(0))
}

/// Writes the P-chain's genesis state.
pub fn write_genesis(w: &WriteTransaction, g: &Genesis) -> Result<(), StoreError> {
    let block = g
        .p_block
        .to_bytes()
        .map_err(|e| StoreError::Invalid(e.to_string()))?;
    ledger::put_block(w, Chain::P, &Id::from_sha256(&block), 0, &block)?;
    for u in &g.p.utxos {
        let u = Utxo::new(u.utxo.clone());
        ledger::put_utxo(w, Chain::P, &u.id, &u.bytes, &u.owners())?;
    }
    let mut supply = g.p.initial_supply;
    for tx in &g.p.validators {
        let bytes = tx
            .to_bytes()
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        let id = Id::from_sha256(&bytes);
        ledger::put_tx(w, Chain::P, &id, 0, Status::Committed, &bytes)?;
        let staker = Staker {
            subnet: Id::ZERO,
            node: avalanche_rpc::wire::NodeId::new([0; 20]),
            tx_id: id,
            tx: tx.clone(),
            potential_reward: 0,
            start: 0,
            accrued: 0,
            renew: None,
        };
        let v = staker.terms().ok_or_else(|| {
            StoreError::Invalid(
                "a genesis validator is neither an AddPermissionlessValidatorTx nor an AddValidatorTx"
                    .into(),
            )
        })?;
        let duration = v.end - v.start;
        let reward = staking::reward(duration, v.weight, supply);
        supply = supply.saturating_add(reward);
        stakers::add_staker(
            w,
            (&Id::ZERO, &v.node),
            Record {
                tx_id: id,
                reward,
                start: v.start,
                accrued: 0,
                renew: None,
            },
            0,
            v.weight,
            staker.public_key(),
        )?;
    }
    for tx in &g.p.chains {
        let bytes = tx
            .to_bytes()
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        let id = Id::from_sha256(&bytes);
        ledger::put_tx(w, Chain::P, &id, 0, Status::Committed, &bytes)?;
        let platform::UnsignedTx::CreateChainTx(c) = &tx.unsigned else {
            return Err(StoreError::Invalid(
                "a genesis chain is not a CreateChainTx".into(),
            ));
        };
        subnets::add_chain(w, &c.subnet_id, &id)?;
    }
    store::set_meta(w, store::Meta::P_SUPPLY, &supply.to_be_bytes())?;
    store::set_meta(w, store::Meta::P_TIMESTAMP, &g.p.timestamp.to_be_bytes())?;
    Ok(())
}
