//! The tail every accepted block gets, on every chain: the block stored by height and ID,
//! wrapped by the proposervm (the wrapper stored too), and, with indexing on, the wrapper
//! appended to the chain's block index with the chain's indexed height. At start, the blocks
//! accepted while indexing was off are indexed the same way ([`catch_up`]).

use super::shared::{Engine, Sealed};
use crate::index::{self, IndexKind};
use crate::ledger::{self, Chain};
use crate::proposer::{self, Tip};
use crate::store::{self, StoreError};
use avalanche_rpc::codec::proposervm;
use avalanche_rpc::wire::Id;
use redb::WriteTransaction;

/// The block index of a chain.
pub fn index_kind(chain: Chain) -> IndexKind {
    match chain {
        Chain::X => IndexKind::XBlock,
        Chain::P => IndexKind::PBlock,
        Chain::C => IndexKind::CBlock,
    }
}

/// The META key of the height up to which a chain's blocks are indexed.
fn indexed_key(chain: Chain) -> store::Meta {
    match chain {
        Chain::X => store::Meta::X_INDEXED_HEIGHT,
        Chain::P => store::Meta::P_INDEXED_HEIGHT,
        Chain::C => store::Meta::C_INDEXED_HEIGHT,
    }
}

/// Stores `sealed` (a block of `chain`), wraps it as the proposervm does (the first block
/// after genesis on `genesis`), and indexes the wrapper; the block's ID.
pub fn append(
    engine: &Engine,
    w: &WriteTransaction,
    chain: Chain,
    genesis: Tip,
    sealed: &Sealed,
) -> Result<Id, StoreError> {
    // The P-chain height the wrapper names: the last accepted before this block.
    let p_height = ledger::last_block(&w.open_table(store::BLOCKS)?, Chain::P)?.0;
    let id = Id::from_sha256(&sealed.bytes);
    ledger::put_block(w, chain, &id, sealed.height, &sealed.bytes)?;
    let parent = proposer::tip(w, chain)?.unwrap_or(genesis);
    let (wrapper, tip) = proposer::wrap(w, chain, parent, &sealed.bytes, sealed.time, p_height)?;
    finish(engine, w, chain, sealed.height, &tip, &wrapper)?;
    Ok(id)
}

/// Stores `sealed`, the commit or abort child of the proposal block just appended, wrapped as
/// the proposervm wraps an option, and indexes it; the block's ID.
pub fn append_option(
    engine: &Engine,
    w: &WriteTransaction,
    chain: Chain,
    sealed: &Sealed,
) -> Result<Id, StoreError> {
    let id = Id::from_sha256(&sealed.bytes);
    ledger::put_block(w, chain, &id, sealed.height, &sealed.bytes)?;
    let parent = proposer::tip(w, chain)?
        .ok_or_else(|| StoreError::invalid("an option block has no proposal block before it"))?;
    let (wrapper, tip) = proposer::wrap_option(w, chain, parent, &sealed.bytes)?;
    finish(engine, w, chain, sealed.height, &tip, &wrapper)?;
    Ok(id)
}

fn finish(
    engine: &Engine,
    w: &WriteTransaction,
    chain: Chain,
    height: u64,
    tip: &Tip,
    wrapper: &[u8],
) -> Result<(), StoreError> {
    ledger::put_proposer(w, chain, height, wrapper)?;
    if engine.indexing {
        index::append(
            w,
            index_kind(chain),
            &tip.id,
            engine.clock.now_ns(),
            wrapper,
        )?;
        store::set_meta(w, indexed_key(chain), &height.to_be_bytes())?;
    }
    Ok(())
}

/// How far `chain`'s blocks are indexed. Stores written before the P-chain's indexed height
/// was kept have the height of the wrapper the index ends with (found from the tip down).
fn indexed_height(w: &WriteTransaction, chain: Chain) -> Result<u64, StoreError> {
    if let Some(h) = store::meta_u64(w, indexed_key(chain))? {
        return Ok(h);
    }
    let kind = index_kind(chain);
    let len = index::len(w, kind)?;
    let Some(last) = len.checked_sub(1) else {
        return Ok(0);
    };
    let last = index::get(w, kind, last)?
        .ok_or_else(|| StoreError::invalid("the last index entry is missing"))?;
    let top = ledger::last_block(&w.open_table(store::BLOCKS)?, chain)?.0;
    for height in (1..=top).rev() {
        if let Some(bytes) = ledger::proposer_in(w, chain, height)?
            && wrapper_id(&bytes)? == last.id
        {
            return Ok(height);
        }
    }
    Err(StoreError::invalid(format!(
        "the {chain:?}-chain's block index ends with {}, which is no stored block",
        last.id
    )))
}

fn wrapper_id(bytes: &[u8]) -> Result<Id, StoreError> {
    proposervm::Block::from_bytes(bytes)
        .map_err(|e| StoreError::invalid(format!("a stored proposer block does not decode: {e}")))?
        .id()
        .map_err(|e| StoreError::invalid(format!("a stored proposer block does not encode: {e}")))
}

/// Indexes every block of `chain` accepted while indexing was off (or before it was first
/// on), in order, with `now_ns` as their acceptance time; how many.
pub fn catch_up(w: &WriteTransaction, chain: Chain, now_ns: u64) -> Result<u64, StoreError> {
    let mut height = indexed_height(w, chain)?;
    let from = height;
    while let Some(bytes) = ledger::proposer_in(w, chain, height + 1)? {
        height += 1;
        index::append(w, index_kind(chain), &wrapper_id(&bytes)?, now_ns, &bytes)?;
    }
    store::set_meta(w, indexed_key(chain), &height.to_be_bytes())?;
    Ok(height - from)
}
