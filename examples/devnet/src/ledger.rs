//! What every chain keeps, the same way for each: blocks by height and ID, the proposervm's
//! wrapper of each block, accepted transactions with their status and height, and the UTXO
//! set with its address index. Keys start with the chain's tag, so the chains share tables
//! and a page of one address's UTXOs is one range scan whatever the history's size.

use crate::store::{self, Reader, StoreError};
use avalanche_rpc::wire::Id;
use redb::{ReadableTable, Table};

/// A chain of the devnet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chain {
    X = 0,
    P = 1,
    /// The C-chain's atomic side: its atomic transactions and blocks (no EVM runs).
    C = 2,
}

impl Chain {
    fn tag(self) -> u8 {
        self as u8
    }
}

/// How an accepted transaction ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Accepted (X) or Committed (P).
    Committed = 0,
    /// A P-chain proposal whose abort option was accepted.
    Aborted = 1,
}

/// An accepted transaction.
#[derive(Debug, Clone)]
pub struct StoredTx {
    pub height: u64,
    pub status: Status,
    pub bytes: Vec<u8>,
}

/// Where unspent outputs live: a chain's own set, or the shared memory through which one
/// chain's exports reach another (the node's `chains/atomic`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    Chain(Chain),
    Atomic { to: Chain, from: Chain },
}

impl Space {
    fn tag(self) -> u8 {
        match self {
            Space::Chain(c) => c.tag(),
            Space::Atomic { to, from } => 0x80 | (to.tag() << 2) | from.tag(),
        }
    }
}

/// What the P-chain exported to the X-chain.
pub const P_TO_X: Space = Space::Atomic {
    to: Chain::X,
    from: Chain::P,
};

/// What the X-chain exported to the P-chain.
pub const X_TO_P: Space = Space::Atomic {
    to: Chain::P,
    from: Chain::X,
};

impl From<Chain> for Space {
    fn from(c: Chain) -> Space {
        Space::Chain(c)
    }
}

fn k(chain: impl Into<Space>, parts: &[&[u8]]) -> Vec<u8> {
    let mut out = vec![chain.into().tag()];
    for p in parts {
        out.extend_from_slice(p);
    }
    out
}

/// Reads one value of `def` at `key`.
pub fn get<R: Reader>(
    r: &R,
    def: redb::TableDefinition<&'static [u8], &'static [u8]>,
    key: &[u8],
) -> Result<Option<Vec<u8>>, StoreError> {
    let t = r.table(def)?;
    Ok(t.get(key)?.map(|v| v.value().to_vec()))
}

/// The block at `height`.
pub fn block_at(
    r: &redb::ReadTransaction,
    chain: Chain,
    height: u64,
) -> Result<Option<Vec<u8>>, StoreError> {
    get(r, store::BLOCKS, &k(chain, &[&height.to_be_bytes()]))
}

/// The height of the block with ID `id`.
pub fn height_of(
    r: &redb::ReadTransaction,
    chain: Chain,
    id: &Id,
) -> Result<Option<u64>, StoreError> {
    let t = r.open_table(store::BLOCK_IDS)?;
    Ok(t.get(k(chain, &[id.as_bytes()]).as_slice())?
        .map(|v| v.value()))
}

/// The last accepted block's height and bytes.
pub fn last_block<T: ReadableTable<&'static [u8], &'static [u8]>>(
    blocks: &T,
    chain: Chain,
) -> Result<(u64, Vec<u8>), StoreError> {
    let start = k(chain, &[&0u64.to_be_bytes()]);
    let end = k(chain, &[&u64::MAX.to_be_bytes()]);
    let (key, v) = blocks
        .range(start.as_slice()..=end.as_slice())?
        .next_back()
        .transpose()?
        .ok_or_else(|| StoreError::Invalid("the chain has no genesis block".into()))?;
    let height = u64::from_be_bytes(key.value()[1..].try_into().expect("8 bytes"));
    Ok((height, v.value().to_vec()))
}

/// The last accepted block's height.
pub fn height(r: &redb::ReadTransaction, chain: Chain) -> Result<u64, StoreError> {
    Ok(last_block(&r.open_table(store::BLOCKS)?, chain)?.0)
}

/// An accepted transaction.
pub fn tx<R: Reader>(r: &R, chain: Chain, id: &Id) -> Result<Option<StoredTx>, StoreError> {
    Ok(
        get(r, store::TXS, &k(chain, &[id.as_bytes()]))?.map(|v| StoredTx {
            height: u64::from_be_bytes(v[..8].try_into().expect("8 bytes")),
            status: if v[8] == Status::Aborted as u8 {
                Status::Aborted
            } else {
                Status::Committed
            },
            bytes: v[9..].to_vec(),
        }),
    )
}

/// An accepted transaction's bytes, read within a write transaction.
pub fn tx_bytes_in(
    w: &redb::WriteTransaction,
    chain: Chain,
    id: &Id,
) -> Result<Option<Vec<u8>>, StoreError> {
    let t = w.open_table(store::TXS)?;
    Ok(t.get(k(chain, &[id.as_bytes()]).as_slice())?
        .map(|v| v.value()[9..].to_vec()))
}

/// An unspent output's bytes.
pub fn utxo<R: Reader>(
    r: &R,
    space: impl Into<Space>,
    id: &Id,
) -> Result<Option<Vec<u8>>, StoreError> {
    get(r, store::UTXOS, &k(space, &[id.as_bytes()]))
}

/// An unspent output's bytes, read within a write transaction.
pub fn utxo_in(
    utxos: &Table<&'static [u8], &'static [u8]>,
    space: impl Into<Space>,
    id: &Id,
) -> Result<Option<Vec<u8>>, StoreError> {
    Ok(utxos
        .get(k(space, &[id.as_bytes()]).as_slice())?
        .map(|v| v.value().to_vec()))
}

/// Up to `limit` (UTXO ID, bytes) of the unspent outputs `address` owns, after UTXO ID
/// `after` (exclusive) when given, in UTXO ID order.
pub fn utxos_of(
    r: &redb::ReadTransaction,
    space: impl Into<Space>,
    address: &[u8; 20],
    after: Option<&Id>,
    limit: usize,
) -> Result<Vec<(Id, Vec<u8>)>, StoreError> {
    let space = space.into();
    let ids = r.open_table(store::ADDR_UTXOS)?;
    let utxos = r.open_table(store::UTXOS)?;
    let start = match after {
        Some(id) => {
            let mut s = k(space, &[address, id.as_bytes()]);
            s.push(0); // just past `after`
            s
        }
        None => k(space, &[address]),
    };
    let end = k(space, &[address, &[0xff; 33]]);
    let mut out = Vec::new();
    for entry in ids.range(start.as_slice()..end.as_slice())? {
        if out.len() >= limit {
            break;
        }
        let (key, _) = entry?;
        let id = Id::new(key.value()[21..].try_into().expect("32 bytes"));
        let bytes = utxos
            .get(k(space, &[id.as_bytes()]).as_slice())?
            .ok_or_else(|| {
                StoreError::Invalid("the address index names a UTXO that is not stored".into())
            })?;
        out.push((id, bytes.value().to_vec()));
    }
    Ok(out)
}

/// Writes an unspent output owned by `owners`.
pub fn put_utxo(
    w: &redb::WriteTransaction,
    space: impl Into<Space>,
    id: &Id,
    bytes: &[u8],
    owners: &[[u8; 20]],
) -> Result<(), StoreError> {
    let space = space.into();
    w.open_table(store::UTXOS)?
        .insert(k(space, &[id.as_bytes()]).as_slice(), bytes)?;
    let mut idx = w.open_table(store::ADDR_UTXOS)?;
    for a in owners {
        idx.insert(k(space, &[a, id.as_bytes()]).as_slice(), ())?;
    }
    Ok(())
}

/// Removes a spent output, which `owners` owned.
pub fn spend_utxo(
    w: &redb::WriteTransaction,
    space: impl Into<Space>,
    id: &Id,
    owners: &[[u8; 20]],
) -> Result<(), StoreError> {
    let space = space.into();
    let removed = w
        .open_table(store::UTXOS)?
        .remove(k(space, &[id.as_bytes()]).as_slice())?
        .is_some();
    if !removed {
        return Err(StoreError::Invalid(format!(
            "UTXO {id} is spent but was not stored"
        )));
    }
    let mut idx = w.open_table(store::ADDR_UTXOS)?;
    for a in owners {
        idx.remove(k(space, &[a, id.as_bytes()]).as_slice())?;
    }
    Ok(())
}

/// Records an accepted transaction.
pub fn put_tx(
    w: &redb::WriteTransaction,
    chain: Chain,
    id: &Id,
    height: u64,
    status: Status,
    bytes: &[u8],
) -> Result<(), StoreError> {
    let v = store::key(&[&height.to_be_bytes(), &[status as u8], bytes]);
    w.open_table(store::TXS)?
        .insert(k(chain, &[id.as_bytes()]).as_slice(), v.as_slice())?;
    Ok(())
}

/// Records an accepted block.
pub fn put_block(
    w: &redb::WriteTransaction,
    chain: Chain,
    id: &Id,
    height: u64,
    bytes: &[u8],
) -> Result<(), StoreError> {
    w.open_table(store::BLOCKS)?
        .insert(k(chain, &[&height.to_be_bytes()]).as_slice(), bytes)?;
    w.open_table(store::BLOCK_IDS)?
        .insert(k(chain, &[id.as_bytes()]).as_slice(), height)?;
    Ok(())
}

/// Records the proposervm's wrapper of the block at `height`.
pub fn put_proposer(
    w: &redb::WriteTransaction,
    chain: Chain,
    height: u64,
    bytes: &[u8],
) -> Result<(), StoreError> {
    w.open_table(store::PROPOSER)?
        .insert(k(chain, &[&height.to_be_bytes()]).as_slice(), bytes)?;
    Ok(())
}

/// The proposervm's wrapper of the block at `height`, read within a write transaction.
pub fn proposer_in(
    w: &redb::WriteTransaction,
    chain: Chain,
    height: u64,
) -> Result<Option<Vec<u8>>, StoreError> {
    let t = w.open_table(store::PROPOSER)?;
    Ok(t.get(k(chain, &[&height.to_be_bytes()]).as_slice())?
        .map(|v| v.value().to_vec()))
}
