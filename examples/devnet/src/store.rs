//! Storage: one embedded redb database (a file under `--db-dir`, or memory with
//! `--in-memory`) holding every table of the devnet. Each accepted block is committed in one
//! write transaction together with everything it changes (UTXOs, transactions, address
//! indexes, index entries), so a crash loses nothing that was acknowledged and never leaves
//! half a block behind.
//!
//! Keys are byte strings ordered bytewise, so ranges follow the node's orders (UTXOs by
//! address then UTXO ID; index entries by number).

use redb::{
    Database, Key, ReadTransaction, ReadableTable, TableDefinition, Value, WriteTransaction,
};
use std::path::{Path, PathBuf};

/// Facts about the devnet itself: genesis, heights, flags of earlier runs.
pub const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
/// Blocks: chain tag ‖ height → the block's bytes (`ledger`).
pub const BLOCKS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("blocks");
/// Chain tag ‖ block ID → height.
pub const BLOCK_IDS: TableDefinition<&[u8], u64> = TableDefinition::new("block_ids");
/// Chain tag ‖ height → the proposervm's wrapper of the block (what block indexes store).
pub const PROPOSER: TableDefinition<&[u8], &[u8]> = TableDefinition::new("proposer");
/// Accepted transactions: chain tag ‖ tx ID → height (8 bytes) ‖ status (1) ‖ the tx's bytes.
pub const TXS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("txs");
/// Unspent outputs: chain tag ‖ UTXO ID → the UTXO's bytes.
pub const UTXOS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("utxos");
/// Chain tag ‖ address (20 bytes) ‖ UTXO ID for every unspent output the address owns.
pub const ADDR_UTXOS: TableDefinition<&[u8], ()> = TableDefinition::new("addr_utxos");
/// Address ‖ asset ID ‖ sequence number (8 bytes) → the ID of a tx that changed the address's
/// balance of the asset (`avm.getAddressTxs`).
pub const X_ADDR_TXS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("x_addr_txs");
/// Address ‖ asset ID → how many entries `X_ADDR_TXS` holds for them.
pub const X_ADDR_TX_COUNT: TableDefinition<&[u8], u64> = TableDefinition::new("x_addr_tx_count");
/// The C-chain's accounts: EVM address (20 bytes) → balance in wei (u128, 16 bytes) ‖ nonce
/// (8 bytes). An address never credited is absent (balance 0, nonce 0).
pub const C_ACCOUNTS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("c_accounts");
/// Asset aliases (`AVAX`) → asset ID.
pub const X_ALIASES: TableDefinition<&str, &[u8]> = TableDefinition::new("x_aliases");
/// The P-chain's current validators: Subnet ID ‖ node ID → staking tx ID (32 bytes) ‖
/// potential reward (8) ‖ start time (8) ‖ the delegatee reward accrued from its delegators
/// (8; absent in stores written before delegation existed, meaning 0).
pub const P_STAKERS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("p_stakers");
/// The P-chain's current delegators: Subnet ID ‖ node ID ‖ delegation tx ID → potential
/// reward (8 bytes) ‖ start time (8).
pub const P_DELEGATORS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("p_delegators");
/// Subnets: Subnet ID → the ID of the transaction that set its owner (its CreateSubnetTx or
/// the last TransferSubnetOwnershipTx).
pub const P_SUBNETS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("p_subnets");
/// L1 validators: validation ID → Subnet ID (32 bytes) ‖ node ID (20) ‖ compressed BLS key
/// (48) ‖ start (8) ‖ weight (8) ‖ minimum nonce (8) ‖ end accumulated fee (8) ‖ the
/// remaining-balance and deactivation owners (platform.PChainOwner, codec bytes).
pub const P_L1_VALIDATORS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("p_l1_validators");
/// Subnet ID ‖ node ID → the validation ID of that L1 validator.
pub const P_L1_NODES: TableDefinition<&[u8], &[u8]> = TableDefinition::new("p_l1_nodes");
/// Subnets converted to L1s: Subnet ID → conversion ID (32 bytes) ‖ manager chain ID (32) ‖
/// manager address.
pub const P_CONVERSIONS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("p_conversions");
/// Registration expiries not yet past: expiry (8 bytes) ‖ validation ID (a
/// RegisterL1Validator message is accepted once).
pub const P_EXPIRIES: TableDefinition<&[u8], ()> = TableDefinition::new("p_expiries");
/// Changes of the P-chain's validator sets: height ‖ Subnet ID ‖ node ID → weight change
/// (i64, 8 bytes) ‖ the BLS public key (48 bytes) if it has one.
pub const P_VALIDATOR_DIFFS: TableDefinition<&[u8], &[u8]> =
    TableDefinition::new("p_validator_diffs");
/// Reward UTXOs paid at the end of a staking period: staking tx ID ‖ output index (4 bytes)
/// → the UTXO's bytes (`platform.getRewardUTXOs`).
pub const P_REWARD_UTXOS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("p_reward_utxos");
/// Subnet ID ‖ chain ID for every blockchain.
pub const P_CHAINS: TableDefinition<&[u8], ()> = TableDefinition::new("p_chains");
/// Index entries: index kind (1 byte) ‖ number (8 bytes) → container ID (32 bytes) ‖
/// acceptance time in Unix nanoseconds (8 bytes) ‖ the container's bytes.
pub const INDEX: TableDefinition<&[u8], &[u8]> = TableDefinition::new("index");
/// Index kind ‖ container ID → the container's number in that index.
pub const INDEX_IDS: TableDefinition<&[u8], u64> = TableDefinition::new("index_ids");

/// A storage failure.
#[derive(Debug)]
pub enum StoreError {
    /// The database failed to read or write (redb's error).
    Database(String),
    /// The database file cannot be used: the file, and what is wrong with it.
    File { path: PathBuf, problem: String },
    /// What is stored (or about to be) is not what this devnet writes.
    Invalid(String),
}

impl StoreError {
    pub fn invalid(what: impl Into<String>) -> StoreError {
        StoreError::Invalid(what.into())
    }

    fn file(path: &Path, problem: impl Into<String>) -> StoreError {
        StoreError::File {
            path: path.to_path_buf(),
            problem: problem.into(),
        }
    }
}

/// A key of the META table: every fact the devnet keeps about itself is named here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meta(&'static str);

impl Meta {
    pub const NETWORK_ID: Meta = Meta("network_id");
    pub const GENESIS_TIME: Meta = Meta("genesis_time");
    /// The `--genesis-file` the chain was made from (absent: the built-in genesis).
    pub const GENESIS_FILE: Meta = Meta("genesis_file");
    /// Seconds the devnet's clock was advanced.
    pub const CLOCK_ADVANCED: Meta = Meta("clock_advanced");
    /// 1 once indexing was on.
    pub const INDEX_WAS_ENABLED: Meta = Meta("index_was_enabled");
    /// How far each chain's blocks are indexed.
    pub const X_INDEXED_HEIGHT: Meta = Meta("x_indexed_height");
    pub const P_INDEXED_HEIGHT: Meta = Meta("p_indexed_height");
    pub const C_INDEXED_HEIGHT: Meta = Meta("c_indexed_height");
    /// The proposervm's last wrapper on each chain.
    pub const PROPOSER_TIP_X: Meta = Meta("proposer_tip_x");
    pub const PROPOSER_TIP_P: Meta = Meta("proposer_tip_p");
    pub const PROPOSER_TIP_C: Meta = Meta("proposer_tip_c");
    /// The P-chain's time, supply, dynamic fee state and L1 validators' fee state.
    pub const P_TIMESTAMP: Meta = Meta("p_timestamp");
    pub const P_SUPPLY: Meta = Meta("p_supply");
    pub const P_FEE_STATE: Meta = Meta("p_fee_state");
    pub const P_L1_EXCESS: Meta = Meta("p_l1_excess");
    pub const P_L1_ACCRUED: Meta = Meta("p_l1_accrued");
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Database(what) | StoreError::Invalid(what) => write!(f, "storage: {what}"),
            StoreError::File { path, problem } => {
                write!(f, "storage: {} {problem}", path.display())
            }
        }
    }
}

impl std::error::Error for StoreError {}

macro_rules! from_redb {
    ($($t:ty),*) => {$(
        impl From<$t> for StoreError {
            fn from(e: $t) -> Self {
                StoreError::Database(e.to_string())
            }
        }
    )*};
}
from_redb!(
    redb::Error,
    redb::DatabaseError,
    redb::TransactionError,
    redb::TableError,
    redb::StorageError,
    redb::CommitError
);

/// redb's page cache for a database on disk, by default.
pub const CACHE_BYTES: usize = 64 << 20;

/// The database.
pub struct Store {
    db: Database,
}

impl Store {
    /// Opens (or creates) the database file `dir/devnet.redb`, with a page cache of
    /// `cache_bytes`.
    pub fn open(dir: &Path, cache_bytes: usize) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| unusable(dir, "cannot be created", &e))?;
        let path = dir.join("devnet.redb");
        // A bounded page cache (redb's default is 1 GiB): the chain stays on disk and the
        // process small however long the history.
        let mut builder = Database::builder();
        builder.set_cache_size(cache_bytes);
        // A new chain only where there is no file: an existing one is opened, never
        // initialized again.
        let db = match std::fs::metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => builder
                .create(&path)
                .map_err(|e| cannot_open(&path, "cannot be created", e))?,
            Err(e) => return Err(unusable(&path, "cannot be read", &e)),
            Ok(m) => {
                check_length(&path, m.len())?;
                open_existing(&builder, &path)?
            }
        };
        Store::init(db)
    }

    /// A database in memory, gone when the process ends.
    pub fn in_memory() -> Result<Store, StoreError> {
        let db = Database::builder().create_with_backend(redb::backends::InMemoryBackend::new())?;
        Store::init(db)
    }

    fn init(db: Database) -> Result<Store, StoreError> {
        // Create every table, so readers never meet a missing one.
        let w = db.begin_write()?;
        w.open_table(META)?;
        w.open_table(BLOCKS)?;
        w.open_table(BLOCK_IDS)?;
        w.open_table(PROPOSER)?;
        w.open_table(TXS)?;
        w.open_table(UTXOS)?;
        w.open_table(ADDR_UTXOS)?;
        w.open_table(X_ADDR_TXS)?;
        w.open_table(X_ADDR_TX_COUNT)?;
        w.open_table(X_ALIASES)?;
        w.open_table(P_STAKERS)?;
        w.open_table(P_DELEGATORS)?;
        w.open_table(P_SUBNETS)?;
        w.open_table(P_L1_VALIDATORS)?;
        w.open_table(P_L1_NODES)?;
        w.open_table(P_CONVERSIONS)?;
        w.open_table(P_EXPIRIES)?;
        w.open_table(P_VALIDATOR_DIFFS)?;
        w.open_table(P_CHAINS)?;
        w.open_table(P_REWARD_UTXOS)?;
        w.open_table(INDEX)?;
        w.open_table(INDEX_IDS)?;
        w.commit()?;
        Ok(Store { db })
    }

    pub fn read(&self) -> Result<ReadTransaction, StoreError> {
        Ok(self.db.begin_read()?)
    }

    pub fn write(&self) -> Result<WriteTransaction, StoreError> {
        Ok(self.db.begin_write()?)
    }
}

/// What reads tables: a read transaction, or a write transaction seeing its own writes. State
/// that is read while verifying (by `issueTx` against the last accepted state, and by the block
/// builder inside the block's write) is read through this, once.
pub trait Reader {
    type Table<'a, K: Key + 'static, V: Value + 'static>: ReadableTable<K, V>
    where
        Self: 'a;
    fn table<'a, K: Key + 'static, V: Value + 'static>(
        &'a self,
        def: TableDefinition<K, V>,
    ) -> Result<Self::Table<'a, K, V>, StoreError>;
}

impl Reader for ReadTransaction {
    type Table<'a, K: Key + 'static, V: Value + 'static> = redb::ReadOnlyTable<K, V>;
    fn table<'a, K: Key + 'static, V: Value + 'static>(
        &'a self,
        def: TableDefinition<K, V>,
    ) -> Result<Self::Table<'a, K, V>, StoreError> {
        #[cfg(test)]
        injected_fault(redb::TableHandle::name(&def))?;
        Ok(self.open_table(def)?)
    }
}

impl Reader for WriteTransaction {
    type Table<'a, K: Key + 'static, V: Value + 'static> = redb::Table<'a, K, V>;
    fn table<'a, K: Key + 'static, V: Value + 'static>(
        &'a self,
        def: TableDefinition<K, V>,
    ) -> Result<Self::Table<'a, K, V>, StoreError> {
        #[cfg(test)]
        injected_fault(redb::TableHandle::name(&def))?;
        Ok(self.open_table(def)?)
    }
}

#[cfg(test)]
thread_local! {
    /// The table whose next read through a [`Reader`] on this thread fails (tests only).
    static FAULT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Makes the next read of table `name` through a [`Reader`] on this thread fail as the
/// database failing would (tests only: a storage failure while a transaction is verified).
#[cfg(test)]
pub fn fail_next_read(name: &str) {
    FAULT.with(|f| *f.borrow_mut() = Some(name.to_string()));
}

/// The injected failure of reading table `name`, once.
#[cfg(test)]
fn injected_fault(name: &str) -> Result<(), StoreError> {
    FAULT.with(|f| {
        let mut f = f.borrow_mut();
        if f.as_deref() != Some(name) {
            return Ok(());
        }
        *f = None;
        Err(StoreError::Database(format!(
            "injected fault: reading table {name} failed"
        )))
    })
}

/// redb's page size: a database file is a whole number of pages.
const PAGE_SIZE: u64 = 4096;

/// The advice after damage: the only case where removing the file is suggested.
const DAMAGED: &str = "restore it from a copy, or remove it to start a new chain";

/// The advice when the chain is sound but cannot be used now: never to remove it.
const NOT_DAMAGED: &str = "the chain in it is not damaged: do not remove it";

/// Refuses a database file that cannot be whole before redb reads it (redb initializes an
/// empty file as a new database, and asserts on one shorter than its header says): empty,
/// or not a whole number of pages (cut short).
fn check_length(path: &Path, len: u64) -> Result<(), StoreError> {
    if len == 0 {
        return Err(StoreError::file(
            path,
            format!("is empty (0 bytes), so it holds no chain: {DAMAGED}"),
        ));
    }
    if !len.is_multiple_of(PAGE_SIZE) {
        return Err(StoreError::file(
            path,
            format!(
                "is {len} bytes, not a whole number of {PAGE_SIZE}-byte pages: the file was cut short ({DAMAGED})"
            ),
        ));
    }
    Ok(())
}

/// A file or directory that cannot be used for a reason of the system's (permissions, a
/// read-only file system, no space), with advice by cause; `doing` is what failed
/// (`cannot be read`).
fn unusable(path: &Path, doing: &str, e: &std::io::Error) -> StoreError {
    use std::io::ErrorKind as K;
    let advice = match e.kind() {
        K::PermissionDenied => format!(
            "it is read-only, or its directory is, for this user: make it writable (`chmod \
             u+w`), run as its owner, or copy the directory to a writable --db-dir; {NOT_DAMAGED}"
        ),
        K::ReadOnlyFilesystem => format!(
            "its file system is mounted read-only: copy the directory to a writable --db-dir; \
             {NOT_DAMAGED}"
        ),
        K::StorageFull | K::QuotaExceeded => {
            format!("the disk is full: make room and start again; {NOT_DAMAGED}")
        }
        _ => format!("check the path and its permissions; {NOT_DAMAGED}"),
    };
    StoreError::file(path, format!("{doing}: {e} ({advice})"))
}

/// Why redb could not open or create the file, with advice by cause: in use by another
/// process, read-only, written by an older format, or damaged. Only damage is met with the
/// advice to remove it.
fn cannot_open(path: &Path, doing: &str, e: redb::DatabaseError) -> StoreError {
    match e {
        redb::DatabaseError::DatabaseAlreadyOpen => StoreError::file(
            path,
            format!(
                "{doing}: it is in use by another process (another devnet has this --db-dir \
                 open): stop that one, or give this one another --db-dir; {NOT_DAMAGED}"
            ),
        ),
        redb::DatabaseError::Storage(redb::StorageError::Io(io))
            if matches!(
                io.kind(),
                std::io::ErrorKind::PermissionDenied
                    | std::io::ErrorKind::ReadOnlyFilesystem
                    | std::io::ErrorKind::StorageFull
                    | std::io::ErrorKind::QuotaExceeded
            ) =>
        {
            unusable(path, doing, &io)
        }
        redb::DatabaseError::UpgradeRequired(version) => StoreError::file(
            path,
            format!(
                "{doing}: it is in redb's file format {version}, which this devnet does not \
                 read: open it with the devnet that wrote it; {NOT_DAMAGED}"
            ),
        ),
        other => StoreError::file(path, format!("{doing}: {other} ({DAMAGED})")),
    }
}

/// Opens an existing database file. redb asserts on some damage it finds while opening
/// (a file shorter than its header says, by whole pages): that becomes the same one-line
/// error as the damage it reports, not a panic.
fn open_existing(builder: &redb::Builder, path: &Path) -> Result<Database, StoreError> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| builder.open(path)));
    std::panic::set_hook(previous);
    match opened {
        Ok(Ok(db)) => Ok(db),
        Ok(Err(e)) => Err(cannot_open(path, "cannot be opened", e)),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(StoreError::file(
                path,
                format!("cannot be opened: the file is damaged ({what}) ({DAMAGED})"),
            ))
        }
    }
}

/// Reads a META value, through a read or a write transaction.
pub fn meta<R: Reader>(r: &R, key: Meta) -> Result<Option<Vec<u8>>, StoreError> {
    let t = r.table(META)?;
    Ok(t.get(key.0)?.map(|v| v.value().to_vec()))
}

/// Reads a META value written as 8 big-endian bytes.
pub fn meta_u64<R: Reader>(r: &R, key: Meta) -> Result<Option<u64>, StoreError> {
    Ok(meta(r, key)?.and_then(|v| Some(u64::from_be_bytes(v.try_into().ok()?))))
}

/// Writes a META value.
pub fn set_meta(w: &WriteTransaction, key: Meta, value: &[u8]) -> Result<(), StoreError> {
    w.open_table(META)?.insert(key.0, value)?;
    Ok(())
}

/// Concatenates key parts.
pub fn key(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_follows_the_cause() {
        use std::io::{Error, ErrorKind};
        let path = Path::new("/x/devnet.redb");
        let io = |kind| redb::DatabaseError::Storage(redb::StorageError::Io(Error::from(kind)));
        for (e, says) in [
            (
                redb::DatabaseError::DatabaseAlreadyOpen,
                "in use by another process",
            ),
            (io(ErrorKind::PermissionDenied), "it is read-only"),
            (io(ErrorKind::ReadOnlyFilesystem), "mounted read-only"),
            (io(ErrorKind::StorageFull), "the disk is full"),
            (redb::DatabaseError::UpgradeRequired(1), "file format 1"),
        ] {
            let text = cannot_open(path, "cannot be opened", e).to_string();
            assert!(text.contains(says), "{text}");
            assert!(
                text.contains("do not remove it") && !text.contains("remove it to"),
                "{text}"
            );
        }
        let damaged = redb::DatabaseError::Storage(redb::StorageError::Corrupted("x".into()));
        let text = cannot_open(path, "cannot be opened", damaged).to_string();
        assert!(text.contains("remove it to start a new chain"), "{text}");
    }

    #[test]
    fn reopens_after_drop() {
        let dir = std::env::temp_dir().join(format!("devnet-store-{}", std::process::id()));
        let s = Store::open(&dir, CACHE_BYTES).unwrap();
        drop(s);
        let s = Store::open(&dir, CACHE_BYTES).unwrap();
        drop(s);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
