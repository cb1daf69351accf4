//! The X-chain's state in the store: UTXOs (with the address index `getUTXOs` pages through),
//! accepted transactions and blocks, assets, and what an accepted block writes. The
//! transactions it accepts are in `kind`, verified by `verify` (assets' initial states and
//! operations in `assets`), run by `vm`.

pub mod assets;
pub mod kind;
pub mod verify;
pub mod vm;
pub mod vocab;

use crate::ledger::{self, Chain};
use crate::store::{self, StoreError};
use avalanche_rpc::codec::{avm, secp256k1fx};
use avalanche_rpc::wire::Id;
use redb::{ReadTransaction, ReadableTable, WriteTransaction};

/// An unspent output with its ID and bytes.
#[derive(Debug, Clone)]
pub struct Utxo {
    pub id: Id,
    pub utxo: avm::Utxo,
    pub bytes: Vec<u8>,
}

impl Utxo {
    pub fn new(utxo: avm::Utxo) -> Utxo {
        let bytes = utxo.to_bytes().expect("a UTXO built here encodes");
        Utxo {
            id: utxo.utxo_id.id(),
            utxo,
            bytes,
        }
    }

    /// Reads a stored UTXO.
    pub fn decode(bytes: &[u8]) -> Result<Utxo, StoreError> {
        let utxo = avm::Utxo::from_bytes(bytes).map_err(|e| {
            StoreError::Invalid(format!("a stored X-chain UTXO does not decode: {e}"))
        })?;
        Ok(Utxo {
            id: utxo.utxo_id.id(),
            utxo,
            bytes: bytes.to_vec(),
        })
    }

    /// Who owns it: every output of the X-chain's fxs has an `OutputOwners`.
    pub fn output_owners(&self) -> Option<&secp256k1fx::OutputOwners> {
        Some(match &self.utxo.output {
            avm::UtxoOutput::Secp256k1fxTransferOutput(o) => &o.owners,
            avm::UtxoOutput::Secp256k1fxMintOutput(o) => &o.owners,
            avm::UtxoOutput::NftfxMintOutput(o) => &o.owners,
            avm::UtxoOutput::NftfxTransferOutput(o) => &o.owners,
            avm::UtxoOutput::PropertyfxMintOutput(o) => &o.owners,
            avm::UtxoOutput::OwnedOutput(o) => &o.owners,
            _ => return None,
        })
    }

    /// The addresses that own it.
    pub fn owners(&self) -> Vec<[u8; 20]> {
        self.output_owners()
            .map(|o| o.addresses.iter().map(|a| *a.as_bytes()).collect())
            .unwrap_or_default()
    }

    /// The amount it holds, for a TransferOutput.
    pub fn amount(&self) -> Option<u64> {
        match &self.utxo.output {
            avm::UtxoOutput::Secp256k1fxTransferOutput(o) => Some(o.amount),
            _ => None,
        }
    }

    /// Unix seconds before which it cannot be spent.
    pub fn locktime(&self) -> u64 {
        self.output_owners().map_or(0, |o| o.locktime)
    }

    /// How many owners must sign.
    pub fn threshold(&self) -> u32 {
        self.output_owners().map_or(0, |o| o.threshold)
    }
}

/// An unspent output by ID.
pub fn utxo(r: &ReadTransaction, id: &Id) -> Result<Option<Utxo>, StoreError> {
    ledger::utxo(r, Chain::X, id)?
        .map(|b| Utxo::decode(&b))
        .transpose()
}

/// Up to `limit` unspent outputs owned by `address`, after UTXO ID `after` (exclusive) when
/// given, in UTXO ID order.
pub fn utxos_of(
    r: &ReadTransaction,
    address: &[u8; 20],
    after: Option<&Id>,
    limit: usize,
) -> Result<Vec<Utxo>, StoreError> {
    ledger::utxos_of(r, Chain::X, address, after, limit)?
        .into_iter()
        .map(|(_, b)| Utxo::decode(&b))
        .collect()
}

/// Every unspent output owned by `address` (balances; the devnet's histories are what a
/// developer makes, so one address's UTXOs fit in memory).
pub fn all_utxos_of(r: &ReadTransaction, address: &[u8; 20]) -> Result<Vec<Utxo>, StoreError> {
    utxos_of(r, address, None, usize::MAX)
}

/// An accepted transaction: its block height and bytes.
pub fn tx(r: &ReadTransaction, id: &Id) -> Result<Option<(u64, Vec<u8>)>, StoreError> {
    Ok(ledger::tx(r, Chain::X, id)?.map(|t| (t.height, t.bytes)))
}

/// The block at `height`.
pub fn block_at(r: &ReadTransaction, height: u64) -> Result<Option<Vec<u8>>, StoreError> {
    ledger::block_at(r, Chain::X, height)
}

/// The height of the block with ID `id`.
pub fn height_of(r: &ReadTransaction, id: &Id) -> Result<Option<u64>, StoreError> {
    ledger::height_of(r, Chain::X, id)
}

/// The last accepted block's height.
pub fn height(r: &ReadTransaction) -> Result<u64, StoreError> {
    ledger::height(r, Chain::X)
}

/// An asset ID from an ID or a genesis alias (`AVAX`).
pub fn asset_id(r: &ReadTransaction, id_or_alias: &str) -> Result<Option<Id>, StoreError> {
    let t = r.open_table(store::X_ALIASES)?;
    if let Some(v) = t.get(id_or_alias)? {
        return Ok(Some(Id::new(v.value().try_into().expect("32 bytes"))));
    }
    Ok(id_or_alias.parse::<Id>().ok())
}

/// The alias of an asset, if it has one.
pub fn alias_of(r: &ReadTransaction, asset: &Id) -> Result<Option<String>, StoreError> {
    let t = r.open_table(store::X_ALIASES)?;
    for entry in t.iter()? {
        let (k, v) = entry?;
        if v.value() == asset.as_bytes() {
            return Ok(Some(k.value().to_string()));
        }
    }
    Ok(None)
}

/// Up to `limit` IDs of transactions that changed `address`'s balance of `asset`, from
/// position `cursor` on, and the position after the last.
pub fn address_txs(
    r: &ReadTransaction,
    address: &[u8; 20],
    asset: &Id,
    cursor: u64,
    limit: usize,
) -> Result<(Vec<Id>, u64), StoreError> {
    let t = r.open_table(store::X_ADDR_TXS)?;
    let prefix = store::key(&[address, asset.as_bytes()]);
    let start = store::key(&[&prefix, &cursor.to_be_bytes()]);
    let end = store::key(&[&prefix, &[0xff; 8]]);
    let mut ids = Vec::new();
    let mut next = cursor;
    for entry in t.range(start.as_slice()..=end.as_slice())? {
        if ids.len() >= limit {
            break;
        }
        let (k, v) = entry?;
        next = u64::from_be_bytes(k.value()[52..].try_into().expect("8 bytes")) + 1;
        ids.push(Id::new(v.value().try_into().expect("32 bytes")));
    }
    Ok((ids, next))
}

/// Records an accepted block.
pub fn put_block(
    w: &WriteTransaction,
    id: &Id,
    height: u64,
    bytes: &[u8],
) -> Result<(), StoreError> {
    ledger::put_block(w, Chain::X, id, height, bytes)
}
