//! The devnet: opening the store (writing genesis on first start, checking the index flags
//! against earlier runs, catching every chain's index up), the two chains on the engine
//! (`engine`: one admission path, one block builder, one block tail), and the builder's loop.

use crate::cchain::vm::CVm;
use crate::clock::Clock;
use crate::engine::{Engine, Lane, Refused, tail};
use crate::genesis::{self, Genesis};
use crate::ledger::Chain;
use crate::network::{self, Node};
use crate::pchain::vm::PVm;
use crate::proposer::Tip;
use crate::refusal::Refusal;
use crate::store::{self, Meta, Store, StoreError};
use crate::xchain::vm::{CREATE_ASSET_TX_FEE, TX_FEE, XVm};
use crate::xchain::{self, Utxo, vocab};
use avalanche_rpc::codec::avm;
use avalanche_rpc::wire::Id;
use std::path::PathBuf;

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
    /// The most bytes of transactions each chain's mempool holds.
    pub mempool_bytes: usize,
    /// The page cache of a store on disk, in bytes ([`crate::store::CACHE_BYTES`] by default).
    pub db_cache_bytes: usize,
    /// How far the P-chain's time may run ahead of the clock while blocks come faster than
    /// one a second, in seconds ([`LEAD`], the node's sync bound, by default).
    pub p_chain_lead: u64,
    /// The upgrades' schedule in the node's format (`--upgrade-file`'s contents); `None`:
    /// the local network's (Helicon unscheduled).
    pub upgrade_file: Option<String>,
}

/// The P-chain's time runs at most this far ahead of the clock by default, in seconds: the
/// node's sync bound (`vms/platformvm/txs/executor/proposal_tx_executor.go:27`).
pub const LEAD: u64 = 10;

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
    /// The store, the clock and the block builder's lock, shared by both chains.
    pub engine: Engine,
    /// The X-chain: its VM and mempool.
    pub x: Lane<XVm>,
    /// The P-chain: its VM and mempool.
    pub p: Lane<PVm>,
    /// The C-chain's atomic side: its VM and mempool.
    pub c: Lane<CVm>,
    /// The C-chain's EVM chain ID (`eth_chainId`).
    pub evm_chain_id: u64,
    pub genesis: Genesis,
    pub options: Options,
    pub nodes: Vec<Node>,
    /// Unix nanoseconds when this process started.
    pub started_ns: u64,
    /// The store was created by this start (genesis was just written).
    pub fresh: bool,
    /// The upgrades' schedule (`info.upgrades`; Helicon gates ACP-236 on the P-chain).
    pub upgrades: crate::upgrade::Upgrades,
    /// Chain aliases given with `admin.aliasChain` since the start, in order: the alias and
    /// the chain's letter (`X`, `P`, `C`).
    pub chain_aliases: std::sync::RwLock<Vec<(String, char)>>,
}

impl Devnet {
    /// Opens the store and brings it up to date: genesis on a fresh one, the index checked and
    /// caught up.
    pub fn open(options: Options) -> Result<Devnet, StartError> {
        let store = match &options.db_dir {
            Some(dir) => Store::open(dir, options.db_cache_bytes)?,
            None => Store::in_memory()?,
        };
        let clock = Clock::default();
        let r = store.read()?;
        let genesis_time = store::meta_u64(&r, store::Meta::GENESIS_TIME)?;
        let stored_network = store::meta_u64(&r, store::Meta::NETWORK_ID)?;
        let stored_file = store::meta(&r, store::Meta::GENESIS_FILE)?;
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
        }
        // The C-chain's genesis block and accounts: on a fresh store, and on one written before
        // the devnet ran the C-chain's atomic side.
        {
            let alloc = crate::cchain::genesis_alloc(&genesis.c_genesis)
                .map_err(|e| StartError(format!("the C-chain's genesis: {e}")))?;
            let w = store.write()?;
            if crate::cchain::write_genesis(&w, genesis.time, &alloc)? {
                w.commit().map_err(StoreError::from)?;
            }
        }
        if fresh && let Some(json) = &file {
            let w = store.write()?;
            store::set_meta(&w, store::Meta::GENESIS_FILE, json.as_bytes())?;
            w.commit()?;
        }
        let rules = vocab::Rules {
            network_id: options.network_id,
            chain_id: genesis.x_chain_id,
            c_chain: genesis.c_chain_id,
            avax: genesis.avax_asset_id,
            tx_fee: TX_FEE,
            create_asset_tx_fee: CREATE_ASSET_TX_FEE,
        };
        let upgrades = match &options.upgrade_file {
            Some(json) => crate::upgrade::Upgrades::parse(json, options.network_id, genesis.time)
                .map_err(|e| StartError(format!("--upgrade-file: {e}")))?,
            None => crate::upgrade::Upgrades::default(),
        };
        let p_rules = crate::pchain::vocab::Rules {
            helicon: upgrades.helicon(),
            network_id: options.network_id,
            avax: genesis.avax_asset_id,
            x_chain: genesis.x_chain_id,
            c_chain: genesis.c_chain_id,
        };
        let c_rules = crate::cchain::verify::Rules {
            network_id: options.network_id,
            chain_id: genesis.c_chain_id,
            x_chain: genesis.x_chain_id,
            avax: genesis.avax_asset_id,
            base_fee: crate::cchain::BASE_FEE,
        };
        // The proposervm's genesis is the inner genesis block, at that block's time.
        let genesis_tip = |block: Result<Vec<u8>, _>, time| {
            block
                .map(|b| Tip::genesis(Id::from_sha256(&b), time))
                .map_err(|e| StartError(format!("the genesis does not encode: {e}")))
        };
        let x = XVm {
            rules,
            genesis: genesis_tip(genesis.x_block.to_bytes(), crate::genesis::INITIALLY_ACTIVE)?,
        };
        let p = PVm {
            rules: p_rules,
            genesis: genesis_tip(genesis.p_block.to_bytes(), genesis.time)?,
            genesis_time: genesis.time,
            lead: options.p_chain_lead,
        };
        let c = CVm {
            rules: c_rules,
            genesis: Tip::genesis(
                Id::from_sha256(&crate::cchain::genesis_block(genesis.time).to_bytes()),
                genesis.time,
            ),
        };
        let evm_chain_id = crate::cchain::evm_chain_id(&genesis.c_genesis);
        let started_ns = clock.now_ns();
        let r = store.read()?;
        clock.set_advanced(store::meta_u64(&r, Meta::CLOCK_ADVANCED)?.unwrap_or(0));
        drop(r);
        let devnet = Devnet {
            upgrades,
            nodes,
            started_ns,
            fresh,
            x: Lane::new(x, options.mempool_bytes),
            p: Lane::new(p, options.mempool_bytes),
            c: Lane::new(c, options.mempool_bytes),
            evm_chain_id,
            engine: Engine::new(store, clock, options.index_enabled),
            genesis,
            options,
            chain_aliases: Default::default(),
        };
        devnet.check_index()?;
        Ok(devnet)
    }

    /// The index rules of the node: turning indexing off after it was on is refused unless
    /// incomplete indexes are allowed; with indexing on, every block accepted while it was off
    /// (or before it was first on) is indexed now, on every chain, with this start's time.
    fn check_index(&self) -> Result<(), StartError> {
        let r = self.engine.store.read()?;
        let was_on = store::meta_u64(&r, Meta::INDEX_WAS_ENABLED)? == Some(1);
        drop(r);
        if !self.options.index_enabled {
            if was_on && !self.options.index_allow_incomplete {
                return Err(StartError(
                    "indexing was enabled on this database before and is off now, which would leave gaps in the index: pass --index-allow-incomplete to start anyway".into(),
                ));
            }
            return Ok(());
        }
        let w = self.engine.store.write()?;
        store::set_meta(&w, Meta::INDEX_WAS_ENABLED, &1u64.to_be_bytes())?;
        for chain in [Chain::X, Chain::P, Chain::C] {
            tail::catch_up(&w, chain, self.started_ns)?;
        }
        w.commit().map_err(StoreError::from)?;
        Ok(())
    }

    /// A snapshot of the last accepted state, to read from.
    pub fn view(&self) -> Result<crate::view::View, StoreError> {
        crate::view::View::new(&self.engine.store)
    }

    /// Verifies a signed X-chain transaction against the last accepted state and adds it to
    /// the mempool; its ID.
    pub fn issue_x(&self, bytes: Vec<u8>) -> Result<Id, Refused> {
        self.x.issue(&self.engine, bytes)
    }

    /// Verifies a signed P-chain transaction against the last accepted state and adds it to
    /// the mempool; its ID.
    pub fn issue_p(&self, bytes: Vec<u8>) -> Result<Id, Refused> {
        self.p.issue(&self.engine, bytes)
    }

    /// Verifies a signed atomic transaction of the C-chain against the last accepted state
    /// and adds it to the mempool; its ID.
    pub fn issue_c(&self, bytes: Vec<u8>) -> Result<Id, Refused> {
        self.c.issue(&self.engine, bytes)
    }

    /// How many transactions wait for a block, on every chain.
    pub fn pending(&self) -> usize {
        self.x.len() + self.p.len() + self.c.len()
    }

    /// Builds and accepts a C-chain block of atomic transactions from the mempool; its ID, or
    /// `None` when no pending transaction is still valid.
    pub fn build_c_block(&self) -> Result<Option<Id>, StoreError> {
        self.c.build(&self.engine)
    }

    /// Builds and accepts an X-chain block from the mempool; its ID, or `None` when no pending
    /// transaction is still valid.
    pub fn build_x_block(&self) -> Result<Option<Id>, StoreError> {
        self.x.build(&self.engine)
    }

    /// Builds and accepts a P-chain block from the mempool; its ID, or `None` when nothing
    /// could go in.
    pub fn build_p_block(&self) -> Result<Option<Id>, StoreError> {
        self.p.build(&self.engine)
    }

    /// Rewards every staker whose period has ended by the devnet's time; how many blocks
    /// that took.
    pub fn reward_stakers(&self) -> Result<usize, StoreError> {
        crate::pchain::reward::reward_stakers(&self.engine, &self.p.vm)
    }

    /// Builds a block on each chain that has transactions waiting (stakers due first).
    pub fn build_now(&self) -> Result<(Option<Id>, Option<Id>), StoreError> {
        self.reward_stakers()?;
        let p = self.build_p_block()?;
        let x = self.build_x_block()?;
        self.build_c_block()?;
        Ok((x, p))
    }

    /// Issues `bytes` on `chain` and builds blocks until the transaction is accepted (a
    /// P-chain block may wait for gas capacity); its ID.
    pub fn accept_now(&self, chain: Chain, bytes: Vec<u8>) -> Result<Id, AcceptError> {
        let id = match chain {
            Chain::X => self.issue_x(bytes)?,
            Chain::P => self.issue_p(bytes)?,
            Chain::C => self.issue_c(bytes)?,
        };
        for _ in 0..100 {
            self.build_now()?;
            let r = self.engine.store.read()?;
            if crate::ledger::tx(&r, chain, &id)?.is_some() {
                return Ok(id);
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Err(AcceptError::Refused(Refusal::new(format!(
            "tx {id} was not accepted within 5 s"
        ))))
    }
}

/// Why a transaction the devnet makes or takes at once ([`Devnet::accept_now`],
/// `control::fund`) was not accepted: refused (by `issueTx`, by its builder, or no block took
/// it in time), or the store failing, which is never a refusal.
#[derive(Debug)]
pub enum AcceptError {
    /// `issueTx`'s refusal, in the chain's words.
    Issue(Refused),
    /// The devnet's own refusal: it could not build the transaction, or no block took it.
    Refused(Refusal),
    /// The store failed (building a block, or reading whether it was accepted).
    Store(StoreError),
}

impl AcceptError {
    /// The words, then the detail if any (the store's failure as it is).
    pub fn explained(&self) -> String {
        match self {
            AcceptError::Issue(r) => Refusal::from(r.clone()).explained(),
            AcceptError::Refused(r) => r.explained(),
            AcceptError::Store(e) => e.to_string(),
        }
    }
}

impl std::fmt::Display for AcceptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AcceptError::Issue(r) => r.fmt(f),
            AcceptError::Refused(r) => r.fmt(f),
            AcceptError::Store(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AcceptError {}

impl From<Refused> for AcceptError {
    fn from(r: Refused) -> Self {
        AcceptError::Issue(r)
    }
}

impl From<Refusal> for AcceptError {
    fn from(r: Refusal) -> Self {
        AcceptError::Refused(r)
    }
}

impl From<StoreError> for AcceptError {
    fn from(e: StoreError) -> Self {
        AcceptError::Store(e)
    }
}

/// Writes the genesis state: the X-chain's genesis block, the assets' creating transactions,
/// their UTXOs and aliases.
fn write_genesis(store: &Store, g: &Genesis) -> Result<(), StoreError> {
    let w = store.write()?;
    let block_bytes = g
        .x_block
        .to_bytes()
        .map_err(|e| StoreError::Invalid(e.to_string()))?;
    crate::ledger::put_block(
        &w,
        Chain::X,
        &Id::from_sha256(&block_bytes),
        0,
        &block_bytes,
    )?;
    for asset in &g.assets {
        let tx_bytes = asset
            .tx
            .to_bytes()
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        let avm::UnsignedTx::CreateAssetTx(create) = &asset.tx.unsigned else {
            unreachable!("genesis assets are CreateAssetTxs")
        };
        // Genesis UTXOs: the initial states' outputs, numbered from 0 (the tx has no outputs).
        let mut effects = vocab::Effects::default();
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
        xchain::vm::put_tx(&w, &asset.id, 0, &tx_bytes, &effects)?;
        w.open_table(store::X_ALIASES)?
            .insert(asset.alias.as_str(), asset.id.as_bytes().as_slice())?;
    }
    crate::pchain::write_genesis(&w, g)?;
    store::set_meta(
        &w,
        store::Meta::NETWORK_ID,
        &u64::from(g.network_id).to_be_bytes(),
    )?;
    store::set_meta(&w, store::Meta::GENESIS_TIME, &g.time.to_be_bytes())?;
    w.commit()?;
    Ok(())
}

/// The chain an alias or ID string names (`X`/`avm`, `P`/`platform`, `C`/`evm`, as
/// `avalanche_rpc::network::CHAIN_ALIASES` has them, the ID, or an alias given with
/// `admin.aliasChain`).
pub fn chain_id(devnet: &Devnet, alias: &str) -> Option<Id> {
    chain_letter(devnet, alias).and_then(|letter| letter_id(devnet, letter))
}

/// The ID of the chain `X`, `P` or `C`.
pub fn letter_id(devnet: &Devnet, letter: char) -> Option<Id> {
    let g = &devnet.genesis;
    match letter {
        'X' => Some(g.x_chain_id),
        'P' => Some(Id::ZERO),
        'C' => Some(g.c_chain_id),
        _ => None,
    }
}

/// The letter (`X`, `P`, `C`) of the chain an alias or ID string names, as [`chain_id`].
pub fn chain_letter(devnet: &Devnet, alias: &str) -> Option<char> {
    avalanche_rpc::network::chain_of_alias(alias)
        .or_else(|| {
            ['X', 'P', 'C']
                .into_iter()
                .find(|&l| letter_id(devnet, l).is_some_and(|id| id.to_string() == alias))
        })
        .or_else(|| {
            let added = devnet
                .chain_aliases
                .read()
                .unwrap_or_else(|e| e.into_inner());
            added.iter().find(|(a, _)| a == alias).map(|(_, l)| *l)
        })
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
            devnet.engine.wake.notified(),
        )
        .await;
        let d = devnet.clone();
        // Blocks follow one another while transactions wait (a block takes at most its target
        // size).
        let built = tokio::task::spawn_blocking(move || {
            d.reward_stakers()?;
            while d.build_p_block()?.is_some()
                || d.build_x_block()?.is_some()
                || d.build_c_block()?.is_some()
            {
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
