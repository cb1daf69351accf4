//! The devnet's state machine: opening the store (writing genesis on first start, checking
//! the index flags against earlier runs, catching the index up), accepting issued
//! transactions into the mempool, and building blocks from it. Every block goes through one
//! path: verify each transaction against the state, write the block, its transactions, their
//! UTXO changes and its index entry in one store transaction, commit.

use crate::clock::Clock;
use crate::genesis::{self, Genesis};
use crate::index::{self, Kind};
use crate::ledger::{self, Chain};
use crate::mempool::{Mempool, Pending};
use crate::network::{self, Node};
use crate::proposer;
use crate::store::{self, Store, StoreError};
use crate::xchain::{self, Utxo, verify};
use avalanche_rpc::codec::{avm, proposervm};
use avalanche_rpc::wire::Id;
use std::path::PathBuf;
use std::sync::Mutex;

/// What the devnet is started with.
#[derive(Debug, Clone)]
pub struct Options {
    pub network_id: u32,
    /// `None`: in memory.
    pub db_dir: Option<PathBuf>,
    pub index_enabled: bool,
    pub index_allow_incomplete: bool,
    pub staking_port: u16,
    /// A genesis in the node's format (`--genesis-file`'s contents); `None`: the built-in one.
    pub genesis: Option<String>,
}

/// Why the devnet could not start.
#[derive(Debug)]
pub struct StartError(pub String);

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StartError {}

impl<E: Into<StoreError>> From<E> for StartError {
    fn from(e: E) -> Self {
        StartError(e.into().to_string())
    }
}

pub struct Devnet {
    pub store: Store,
    pub genesis: Genesis,
    pub rules: verify::Rules,
    pub clock: Clock,
    pub options: Options,
    pub nodes: Vec<Node>,
    /// Unix nanoseconds when this process started.
    pub started_ns: u64,
    /// The store was created by this start (genesis was just written).
    pub fresh: bool,
    pub(crate) x_mempool: Mutex<Mempool>,
    pub(crate) p_mempool: Mutex<Mempool>,
    pub p_rules: crate::pchain::verify::Rules,
    /// Held while a block is built, so blocks are built one at a time.
    pub(crate) building: Mutex<()>,
    /// Wakes the block builder.
    pub wake: tokio::sync::Notify,
}

/// How many bytes of transactions an X-chain block takes (`vms/avm/block/builder`
/// `targetBlockSize`).
pub const TARGET_BLOCK_SIZE: usize = 128 * 1024;

/// The fees of a local network (`vms/avm/config`, `genesis/params.go`).
pub const TX_FEE: u64 = 1_000_000;
pub const CREATE_ASSET_TX_FEE: u64 = 1_000_000;

impl Devnet {
    /// Opens the store and brings it up to date: genesis on a fresh one, the index checked and
    /// caught up.
    pub fn open(options: Options) -> Result<Devnet, StartError> {
        let store = match &options.db_dir {
            Some(dir) => Store::open(dir)?,
            None => Store::in_memory()?,
        };
        let clock = Clock::default();
        let r = store.read()?;
        let genesis_time = store::meta_u64(&r, "genesis_time")?;
        let stored_network = store::meta_u64(&r, "network_id")?;
        let stored_file = store::meta(&r, "genesis_file")?;
        drop(r);
        let fresh = genesis_time.is_none();
        if let (Some(network), false) = (stored_network, fresh)
            && network != u64::from(options.network_id)
        {
            return Err(StartError(format!(
                "the database was made for network {network}, not {}: pass --network-id={network} or another --db-dir",
                options.network_id
            )));
        }
        // The genesis file this chain was made from, kept in the store: a restart needs no
        // flag, and another file is refused.
        let file = match (&stored_file, &options.genesis, fresh) {
            (_, given, true) => given.clone(),
            (Some(stored), Some(given), false) if stored.as_slice() != given.as_bytes() => {
                return Err(StartError(
                    "the database was made from another genesis file: pass the same one, none, or another --db-dir".into(),
                ));
            }
            (None, Some(_), false) => {
                return Err(StartError(
                    "the database was made from the built-in genesis, not a genesis file: drop --genesis-file or pass another --db-dir".into(),
                ));
            }
            (Some(stored), _, false) => Some(
                String::from_utf8(stored.clone())
                    .map_err(|_| StartError("the stored genesis file is not UTF-8".into()))?,
            ),
            (None, None, false) => None,
        };
        let (genesis, nodes) = match &file {
            Some(json) => {
                let f = crate::genesis_file::parse(json, Some(options.network_id), clock.now())
                    .map_err(|e| StartError(format!("--genesis-file: {e}")))?;
                let nodes = network::from_stakers(&f.stakers, options.staking_port);
                (f.genesis, nodes)
            }
            None => (
                genesis::default_genesis(options.network_id, genesis_time.unwrap_or(clock.now())),
                network::nodes(options.staking_port),
            ),
        };
        if fresh {
            write_genesis(&store, &genesis)?;
            if let Some(json) = &file {
                let w = store.write()?;
                store::set_meta(&w, "genesis_file", json.as_bytes())?;
                w.commit()?;
            }
        }
        let rules = verify::Rules {
            network_id: options.network_id,
            chain_id: genesis.x_chain_id,
            avax: genesis.avax_asset_id,
            tx_fee: TX_FEE,
            create_asset_tx_fee: CREATE_ASSET_TX_FEE,
        };
        let p_rules = crate::pchain::verify::Rules {
            network_id: options.network_id,
            avax: genesis.avax_asset_id,
            x_chain: genesis.x_chain_id,
        };
        let devnet = Devnet {
            nodes,
            started_ns: clock.now_ns(),
            fresh,
            store,
            genesis,
            rules,
            clock,
            options,
            x_mempool: Mutex::default(),
            p_mempool: Mutex::default(),
            p_rules,
            building: Mutex::default(),
            wake: tokio::sync::Notify::new(),
        };
        devnet.check_index()?;
        let r = devnet.store.read()?;
        devnet
            .clock
            .set_advanced(store::meta_u64(&r, "clock_advanced")?.unwrap_or(0));
        drop(r);
        Ok(devnet)
    }

    /// The index rules of the node: turning indexing off after it was on is refused unless
    /// incomplete indexes are allowed; with indexing on, every block accepted while it was off
    /// (or before it was first on) is indexed now, with this start's time.
    fn check_index(&self) -> Result<(), StartError> {
        let r = self.store.read()?;
        let was_on = store::meta_u64(&r, "index_was_enabled")? == Some(1);
        drop(r);
        if !self.options.index_enabled {
            if was_on && !self.options.index_allow_incomplete {
                return Err(StartError(
                    "indexing was enabled on this database before and is off now, which would leave gaps in the index: pass --index-allow-incomplete to start anyway".into(),
                ));
            }
            return Ok(());
        }
        let w = self.store.write()?;
        store::set_meta(&w, "index_was_enabled", &1u64.to_be_bytes())?;
        let indexed = store::meta_u64(&w, "x_indexed_height")?.unwrap_or(0);
        let now = self.started_ns;
        let mut height = indexed + 1;
        loop {
            let bytes = ledger::proposer_in(&w, Chain::X, height)?;
            let Some(bytes) = bytes else { break };
            let block = proposervm::Block::from_bytes(&bytes)
                .map_err(|e| StartError(format!("a stored proposer block does not decode: {e}")))?;
            let id = block
                .id()
                .map_err(|e| StartError(format!("a stored proposer block does not encode: {e}")))?;
            index::append(&w, Kind::XBlock, &id, now, &bytes)?;
            store::set_meta(&w, "x_indexed_height", &height.to_be_bytes())?;
            height += 1;
        }
        w.commit().map_err(StoreError::from)?;
        Ok(())
    }

    /// Verifies a signed X-chain transaction against the last accepted state and the mempool
    /// and adds it to the mempool; its ID.
    pub fn issue_x(&self, bytes: Vec<u8>) -> Result<Id, verify::TxError> {
        use verify::TxError;
        let tx = avm::Tx::from_bytes(&bytes)
            .map_err(|e| TxError(format!("problem decoding transaction: {e}")))?;
        let id = Id::from_sha256(&bytes);
        let admitted = |pool: &Mempool| -> Result<bool, TxError> {
            if pool.contains(&id) {
                return Ok(true);
            }
            if let Some(reason) = pool.dropped(&id) {
                return Err(TxError(reason.to_string()));
            }
            crate::mempool::check_size(&id, bytes.len()).map_err(TxError)?;
            if bytes.len() > pool.free_bytes() {
                return Err(TxError(format!(
                    "mempool is full: {id} size ({}) > available space ({})",
                    bytes.len(),
                    pool.free_bytes()
                )));
            }
            Ok(false)
        };
        if admitted(&self.x_mempool.lock().expect("mempool lock"))? {
            return Ok(id);
        }
        // Verified against the last accepted state without holding the mempool, so issuers
        // verify in parallel; conflicts with the mempool are checked after, under its lock.
        let r = self.store.read().map_err(|e| TxError(e.to_string()))?;
        if xchain::tx(&r, &id)
            .map_err(|e| TxError(e.to_string()))?
            .is_some()
        {
            return Err(TxError(format!("transaction {id} is already accepted")));
        }
        let time = self.clock.now();
        let result = verify::verify(
            &self.rules,
            &tx,
            id,
            time,
            &mut |u| xchain::utxo(&r, u).map_err(|e| TxError(e.to_string())),
            &mut |u| {
                ledger::utxo(&r, ledger::P_TO_X, u)
                    .and_then(|b| b.map(|b| Utxo::decode(&b)).transpose())
                    .map_err(|e| TxError(e.to_string()))
            },
        );
        drop(r);
        let mut pool = self.x_mempool.lock().expect("mempool lock");
        if admitted(&pool)? {
            return Ok(id);
        }
        let conflict = result.and_then(|fx| {
            match fx
                .consumed
                .iter()
                .chain(&fx.imported)
                .find_map(|u| pool.spender(u).map(|other| (other, *u)))
            {
                Some((other, u)) => Err(TxError(format!(
                    "tx conflicts with other tx: {other} already spends UTXO {u}"
                ))),
                None => Ok(fx),
            }
        });
        let effects = match conflict {
            Ok(fx) => fx,
            Err(e) => {
                pool.drop_reason(id, e.0.clone());
                return Err(e);
            }
        };
        let mut spends = effects.consumed;
        spends.extend(effects.imported);
        pool.add(Pending { id, bytes, spends });
        drop(pool);
        self.wake.notify_one();
        Ok(id)
    }

    /// How many transactions wait for a block, on both chains.
    pub fn pending(&self) -> usize {
        self.x_mempool.lock().expect("mempool lock").len()
            + self.p_mempool.lock().expect("mempool lock").len()
    }

    /// Builds and accepts an X-chain block from the mempool; its ID, or `None` when no pending
    /// transaction is still valid.
    pub fn build_x_block(&self) -> Result<Option<Id>, StoreError> {
        let _one_at_a_time = self.building.lock().expect("builder lock");
        let pending = self.x_mempool.lock().expect("mempool lock").pending();
        if pending.is_empty() {
            return Ok(None);
        }
        let w = self.store.write()?;
        let built = self.x_block_in(&w, pending)?;
        if built.id.is_some() {
            w.commit()?;
        } else {
            drop(w);
        }
        let mut pool = self.x_mempool.lock().expect("mempool lock");
        for id in &built.included {
            pool.remove(id, None);
        }
        for (id, reason) in built.dropped {
            pool.remove(&id, Some(reason));
        }
        Ok(built.id)
    }

    /// Verifies `pending` against the state of `w` and, if any is valid, writes the X-chain
    /// block holding them with everything it changes (not committed).
    pub fn x_block_in(
        &self,
        w: &redb::WriteTransaction,
        pending: Vec<Pending>,
    ) -> Result<BuiltBlock, StoreError> {
        let (parent_height, parent_bytes) =
            ledger::last_block(&w.open_table(store::BLOCKS)?, Chain::X)?;
        let parent = avm::Block::from_bytes(&parent_bytes)
            .map_err(|e| StoreError(format!("the last block does not decode: {e}")))?;
        let avm::Block::StandardBlock(parent_block) = &parent else {
            return Err(StoreError("the last block is not a standard block".into()));
        };
        let parent_id = Id::from_sha256(&parent_bytes);
        let height = parent_height + 1;
        let time = self.clock.now().max(parent_block.time);
        let mut built = BuiltBlock::default();
        let mut txs = Vec::new();
        let mut size = 0usize;
        for p in pending {
            // The node's builder fills a block up to its target size; the rest waits.
            if size + p.bytes.len() > TARGET_BLOCK_SIZE && !txs.is_empty() {
                break;
            }
            let tx = match avm::Tx::from_bytes(&p.bytes) {
                Ok(tx) => tx,
                Err(e) => {
                    built
                        .dropped
                        .push((p.id, format!("problem decoding transaction: {e}")));
                    continue;
                }
            };
            let result = {
                let utxos = w.open_table(store::UTXOS)?;
                let read = |space: ledger::Space, u: &Id| {
                    ledger::utxo_in(&utxos, space, u)
                        .and_then(|b| b.map(|b| Utxo::decode(&b)).transpose())
                        .map_err(|e| verify::TxError(e.to_string()))
                };
                verify::verify(
                    &self.rules,
                    &tx,
                    p.id,
                    time,
                    &mut |u| read(Chain::X.into(), u),
                    &mut |u| read(ledger::P_TO_X, u),
                )
            };
            match result {
                Ok(effects) => {
                    xchain::put_tx(w, &p.id, height, &p.bytes, &effects)?;
                    size += p.bytes.len();
                    txs.push(tx);
                    built.included.push(p.id);
                }
                Err(e) => built.dropped.push((p.id, e.0)),
            }
        }
        if built.included.is_empty() {
            return Ok(built);
        }
        let block = avm::Block::from(avm::StandardBlock::new(
            parent_id,
            height,
            time,
            Id::ZERO,
            txs,
        ));
        let bytes = block
            .to_bytes()
            .map_err(|e| StoreError(format!("a built block does not encode: {e}")))?;
        let id = Id::from_sha256(&bytes);
        xchain::put_block(w, &id, height, &bytes)?;
        // The proposervm wraps every block; the index stores the wrapper.
        let parent_tip = match proposer::tip_in(w, Chain::X)? {
            Some(t) => t,
            None => proposer::Tip::genesis(
                self.genesis.x_block.id().expect("genesis encodes"),
                self.genesis.time,
            ),
        };
        let p_height = ledger::last_block(&w.open_table(store::BLOCKS)?, Chain::P)?.0;
        let (wrapper_bytes, tip) = proposer::wrap(w, Chain::X, parent_tip, &bytes, time, p_height)?;
        ledger::put_proposer(w, Chain::X, height, &wrapper_bytes)?;
        if self.options.index_enabled {
            index::append(
                w,
                Kind::XBlock,
                &tip.id,
                self.clock.now_ns(),
                &wrapper_bytes,
            )?;
            store::set_meta(w, "x_indexed_height", &height.to_be_bytes())?;
        }
        built.id = Some(id);
        Ok(built)
    }
}

/// What building a block did.
#[derive(Debug, Default)]
pub struct BuiltBlock {
    /// The block, if any transaction was valid.
    pub id: Option<Id>,
    pub included: Vec<Id>,
    pub dropped: Vec<(Id, String)>,
}

/// Writes the genesis state: the X-chain's genesis block, the assets' creating transactions,
/// their UTXOs and aliases.
fn write_genesis(store: &Store, g: &Genesis) -> Result<(), StoreError> {
    let w = store.write()?;
    let block_bytes = g
        .x_block
        .to_bytes()
        .map_err(|e| StoreError(e.to_string()))?;
    xchain::put_block(&w, &Id::from_sha256(&block_bytes), 0, &block_bytes)?;
    for asset in &g.assets {
        let tx_bytes = asset.tx.to_bytes().map_err(|e| StoreError(e.to_string()))?;
        let avm::UnsignedTx::CreateAssetTx(create) = &asset.tx.unsigned else {
            unreachable!("genesis assets are CreateAssetTxs")
        };
        // Genesis UTXOs: the initial states' outputs, numbered from 0 (the tx has no outputs).
        let mut effects = verify::Effects::default();
        let mut n = 0u32;
        for state in &create.initial_states {
            for o in &state.outputs {
                let output = match o {
                    avm::StateOutput::Secp256k1fxTransferOutput(x) => {
                        avm::UtxoOutput::Secp256k1fxTransferOutput(x.clone())
                    }
                    avm::StateOutput::Secp256k1fxMintOutput(x) => {
                        avm::UtxoOutput::Secp256k1fxMintOutput(x.clone())
                    }
                    _ => unreachable!("the built-in genesis has secp256k1fx outputs only"),
                };
                let utxo = avm::Utxo::new(
                    avalanche_rpc::codec::avax::UtxoId::new(asset.id, n),
                    asset.id,
                    output,
                );
                n += 1;
                let u = Utxo::new(utxo);
                for a in u.owners() {
                    effects.touched.insert((a, asset.id));
                }
                effects.produced.push(u);
            }
        }
        xchain::put_tx(&w, &asset.id, 0, &tx_bytes, &effects)?;
        w.open_table(store::X_ALIASES)?
            .insert(asset.alias.as_str(), asset.id.as_bytes().as_slice())?;
    }
    crate::pchain::write_genesis(&w, g)?;
    store::set_meta(&w, "network_id", &u64::from(g.network_id).to_be_bytes())?;
    store::set_meta(&w, "genesis_time", &g.time.to_be_bytes())?;
    w.commit()?;
    Ok(())
}

/// The chain an alias or ID string names (`X`/`avm`, `P`/`platform`, `C`/`evm`, or the ID).
pub fn chain_id(devnet: &Devnet, alias: &str) -> Option<Id> {
    let g = &devnet.genesis;
    let known = [
        (g.x_chain_id, ["X", "avm"]),
        (Id::ZERO, ["P", "platform"]),
        (g.c_chain_id, ["C", "evm"]),
    ];
    known
        .into_iter()
        .find(|(id, aliases)| aliases.contains(&alias) || id.to_string() == alias)
        .map(|(id, _)| id)
}

/// Builds a block whenever transactions wait, as a single-validator network does; a
/// transaction that did not fit (a P-chain block's gas capacity refills with time) is tried
/// again half a second later; validators whose period has ended are rewarded.
pub async fn build_blocks(devnet: std::sync::Arc<Devnet>) {
    loop {
        // Woken by a transaction, or once a second: staking periods end with time.
        let wait = if devnet.pending() == 0 { 1_000 } else { 500 };
        let _ = tokio::time::timeout(
            std::time::Duration::from_millis(wait),
            devnet.wake.notified(),
        )
        .await;
        let d = devnet.clone();
        // Blocks follow one another while transactions wait (a block takes at most its target
        // size).
        let built = tokio::task::spawn_blocking(move || {
            d.reward_stakers()?;
            while d.build_p_block()?.is_some() || d.build_x_block()?.is_some() {
                if d.pending() == 0 {
                    break;
                }
            }
            Ok::<_, StoreError>(())
        });
        match built.await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => eprintln!("avalanche-devnet: building a block failed: {e}"),
            Err(e) => eprintln!("avalanche-devnet: the block builder stopped: {e}"),
        }
    }
}
