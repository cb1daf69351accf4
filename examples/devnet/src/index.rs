//! The node's index (`indexer/index.go`): per chain and kind, every container accepted while
//! indexing was on, numbered from 0, with the time this node accepted it. Entries are written
//! in the same store transaction as the block they record.

use crate::store::{self, Reader, StoreError};
use avalanche_rpc::wire::Id;
use redb::{ReadTransaction, ReadableTable, WriteTransaction};

/// The indexes the node serves on a primary network (`/ext/index/<chain>/<kind>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexKind {
    XBlock = 0,
    PBlock = 1,
    CBlock = 2,
    /// Fed only by the pre-Cortina DAG bootstrapper: empty on a local network, as here.
    XTx = 3,
    /// The DAG's vertices: empty on a local network, as here.
    XVtx = 4,
}

impl IndexKind {
    pub const ALL: [IndexKind; 5] = [
        IndexKind::XBlock,
        IndexKind::PBlock,
        IndexKind::CBlock,
        IndexKind::XTx,
        IndexKind::XVtx,
    ];

    /// The path's `chain` and `kind`.
    pub fn path(self) -> (&'static str, &'static str) {
        match self {
            IndexKind::XBlock => ("X", "block"),
            IndexKind::PBlock => ("P", "block"),
            IndexKind::CBlock => ("C", "block"),
            IndexKind::XTx => ("X", "tx"),
            IndexKind::XVtx => ("X", "vtx"),
        }
    }
}

/// One indexed container.
#[derive(Debug, Clone)]
pub struct Entry {
    pub index: u64,
    pub id: Id,
    /// Unix nanoseconds.
    pub timestamp: u64,
    pub bytes: Vec<u8>,
}

fn entry_key(kind: IndexKind, index: u64) -> Vec<u8> {
    store::key(&[&[kind as u8], &index.to_be_bytes()])
}

fn decode(index: u64, v: &[u8]) -> Entry {
    Entry {
        index,
        id: Id::new(v[..32].try_into().expect("32 bytes")),
        timestamp: u64::from_be_bytes(v[32..40].try_into().expect("8 bytes")),
        bytes: v[40..].to_vec(),
    }
}

/// How many containers the index holds.
pub fn len<R: Reader>(r: &R, kind: IndexKind) -> Result<u64, StoreError> {
    let t = r.table(store::INDEX)?;
    let start = entry_key(kind, 0);
    let end = entry_key(kind, u64::MAX);
    Ok(t.range(start.as_slice()..=end.as_slice())?
        .next_back()
        .transpose()?
        .map(|(k, _)| u64::from_be_bytes(k.value()[1..].try_into().expect("8 bytes")) + 1)
        .unwrap_or(0))
}

/// The container numbered `index`.
pub fn get<R: Reader>(r: &R, kind: IndexKind, index: u64) -> Result<Option<Entry>, StoreError> {
    let t = r.table(store::INDEX)?;
    Ok(t.get(entry_key(kind, index).as_slice())?
        .map(|v| decode(index, v.value())))
}

/// The number of the container with ID `id`.
pub fn index_of(r: &ReadTransaction, kind: IndexKind, id: &Id) -> Result<Option<u64>, StoreError> {
    let t = r.open_table(store::INDEX_IDS)?;
    let k = store::key(&[&[kind as u8], id.as_bytes()]);
    Ok(t.get(k.as_slice())?.map(|v| v.value()))
}

/// Up to `count` containers from `start` on.
pub fn range(
    r: &ReadTransaction,
    kind: IndexKind,
    start: u64,
    count: u64,
) -> Result<Vec<Entry>, StoreError> {
    let t = r.open_table(store::INDEX)?;
    let from = entry_key(kind, start);
    let to = entry_key(kind, u64::MAX);
    let mut out = Vec::new();
    for e in t.range(from.as_slice()..=to.as_slice())? {
        if out.len() as u64 >= count {
            break;
        }
        let (k, v) = e?;
        let index = u64::from_be_bytes(k.value()[1..].try_into().expect("8 bytes"));
        out.push(decode(index, v.value()));
    }
    Ok(out)
}

/// Appends a container; its number is the count of containers before it.
pub fn append(
    w: &WriteTransaction,
    kind: IndexKind,
    id: &Id,
    timestamp_ns: u64,
    bytes: &[u8],
) -> Result<u64, StoreError> {
    let mut t = w.open_table(store::INDEX)?;
    let start = entry_key(kind, 0);
    let end = entry_key(kind, u64::MAX);
    let next = t
        .range(start.as_slice()..=end.as_slice())?
        .next_back()
        .transpose()?
        .map(|(k, _)| u64::from_be_bytes(k.value()[1..].try_into().expect("8 bytes")) + 1)
        .unwrap_or(0);
    t.insert(
        entry_key(kind, next).as_slice(),
        store::key(&[id.as_bytes(), &timestamp_ns.to_be_bytes(), bytes]).as_slice(),
    )?;
    w.open_table(store::INDEX_IDS)?
        .insert(store::key(&[&[kind as u8], id.as_bytes()]).as_slice(), next)?;
    Ok(next)
}
