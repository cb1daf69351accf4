//! The devnet's own controls (`/ext/devnet`): the clock, building blocks now, funding from the
//! faucet through an ordinary transaction, and snapshots of the whole store (redb persistent
//! savepoints: a revert restores every table at once).

use crate::devnet::{AcceptError, Devnet};
use crate::genesis::test_keys;
use crate::ledger::Chain;
use crate::proposer;
use crate::refusal::Refusal;
use crate::store::{self, StoreError};
use crate::{context, pchain, xchain};
use avalanche_rpc::codec::secp256k1fx;
use avalanche_rpc::transact::{Keychain, Payer, p, x};
use avalanche_rpc::wire::{Id, ShortId};

/// The longest single advance of the clock: ten years.
pub const MAX_ADVANCE: u64 = 315_360_000;

/// Moves the clock forward, durably (the advance is part of the state and of snapshots).
/// Advances the clock to the end of the epoch the P-chain's next block is in, so that block
/// ends it and the one after opens an epoch at its height ([`proposer::warp_height`]); the
/// seconds advanced.
pub fn advance_past_epoch(d: &Devnet) -> Result<u64, StoreError> {
    let epoch = proposer::next_p_epoch(&d.engine.store.read()?, d.p.vm.genesis)?;
    let by = (epoch.start + proposer::EPOCH_SECONDS).saturating_sub(d.engine.clock.now());
    advance_clock(d, by)?;
    Ok(by)
}

pub fn advance_clock(d: &Devnet, seconds: u64) -> Result<u64, StoreError> {
    let w = d.engine.store.write()?;
    let total = d.engine.clock.advanced().saturating_add(seconds);
    store::set_meta(&w, store::Meta::CLOCK_ADVANCED, &total.to_be_bytes())?;
    w.commit()?;
    d.engine.clock.set_advanced(total);
    // Staking periods may have ended: reward them now.
    d.reward_stakers()?;
    d.engine.wake.notify_one();
    Ok(d.engine.clock.now())
}

/// Pays `amount` nAVAX from the faucet (ewoq) to `to` on `chain`, through the chain's
/// issueTx, and builds the block; the tx's ID once accepted.
pub fn fund(d: &Devnet, chain: Chain, to: ShortId, amount: u64) -> Result<Id, AcceptError> {
    // One payment at a time: each builds on the faucet's outputs as the last one left them
    // (accepted), never on outputs a payment still waiting for its block spends.
    static FAUCET: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = FAUCET
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let faucet = test_keys().swap_remove(0);
    let cx = context::of(d)?;
    let payer = Payer::new(vec![faucet.address()], d.engine.clock.now());
    let to = secp256k1fx::OutputOwners::new(0, 1, vec![to]);
    let keys = Keychain::from_keys([faucet.clone()]);
    let r = d.engine.store.read()?;
    let bytes = match chain {
        Chain::X => {
            let utxos = xchain::all_utxos_of(&r, faucet.address().as_bytes())?;
            let utxos: Vec<_> = utxos.into_iter().map(|u| u.utxo).collect();
            let pay = [x::output(cx.avax_asset_id, amount, to)];
            context::sign(x::base_tx(&cx, &utxos, &payer, &pay), &keys)
                .map_err(Refusal::new)?
                .to_bytes()
        }
        Chain::P => {
            let utxos = pchain::utxos_of(&r, faucet.address().as_bytes(), None, usize::MAX)?;
            let utxos: Vec<_> = utxos.into_iter().map(|u| u.utxo).collect();
            let pay = [p::output(cx.avax_asset_id, amount, to)];
            context::sign(p::base_tx(&cx, &utxos, &payer, &pay), &keys)
                .map_err(Refusal::new)?
                .to_bytes()
        }
        Chain::C => {
            return Err(AcceptError::Refused(Refusal::new(
                "the faucet pays on the X- and P-chain; move AVAX to the C-chain with an export there and an import on the C-chain",
            )));
        }
    }
    .map_err(|e| Refusal::new(e.to_string()))?;
    drop(r);
    d.accept_now(chain, bytes)
}

/// Saves the whole state; the snapshot's ID.
pub fn snapshot(d: &Devnet) -> Result<u64, StoreError> {
    let _no_block_meanwhile = d.engine.one_at_a_time();
    let w = d.engine.store.write()?;
    let id = w
        .persistent_savepoint()
        .map_err(|e| StoreError::Invalid(format!("cannot take a snapshot: {e}")))?;
    w.commit()?;
    Ok(id)
}

/// Restores the state of snapshot `id`, deleting it and every later one, and empties the
/// mempools; false if there is no such snapshot.
pub fn revert(d: &Devnet, id: u64) -> Result<bool, StoreError> {
    let _no_block_meanwhile = d.engine.one_at_a_time();
    let mut w = d.engine.store.write()?;
    let Ok(savepoint) = w.get_persistent_savepoint(id) else {
        return Ok(false);
    };
    w.restore_savepoint(&savepoint)
        .map_err(|e| StoreError::Invalid(format!("cannot revert to snapshot {id}: {e}")))?;
    drop(savepoint);
    let later: Vec<u64> = w
        .list_persistent_savepoints()?
        .filter(|s| *s >= id)
        .collect();
    for s in later {
        w.delete_persistent_savepoint(s)
            .map_err(|e| StoreError::Invalid(format!("cannot delete snapshot {s}: {e}")))?;
    }
    w.commit()?;
    d.x.clear();
    d.p.clear();
    d.c.clear();
    let r = d.engine.store.read()?;
    d.engine
        .clock
        .set_advanced(store::meta_u64(&r, store::Meta::CLOCK_ADVANCED)?.unwrap_or(0));
    Ok(true)
}

/// Signs an unsigned Warp message (network, source chain, payload) with the BLS keys the
/// devnet holds, as the validators of the source chain's Subnet at the last accepted
/// height: the signed message's bytes, or why it cannot.
pub fn sign_warp(d: &Devnet, unsigned: &[u8]) -> Result<Vec<u8>, String> {
    use crate::pchain::warp;
    let mut r = avalanche_rpc::codec::Reader::new(unsigned);
    let (version, network, chain) = (|| {
        let parts = (r.u16()?, r.u32()?, r.id()?);
        r.bytes()?;
        r.finish()?;
        Ok::<_, avalanche_rpc::codec::DecodeError>(parts)
    })()
    .map_err(|e| format!("message is not an unsigned Warp message: {e}"))?;
    if version != 0 {
        return Err(format!(
            "message is not an unsigned Warp message: codec version {version}, not 0"
        ));
    }
    if network != d.options.network_id {
        return Err(format!(
            "the message is for network {network}, not {}",
            d.options.network_id
        ));
    }
    let r = d.engine.store.read().map_err(|e| e.to_string())?;
    let subnet = warp::subnet_of(&r, &chain)
        .map_err(|e| e.to_string())?
        .ok_or(format!(
            "the source chain {chain} is not a chain of this network"
        ))?;
    // Signed with the set the P-chain's next block verifies it against, as a node's
    // validators sign for the height their peers verify at.
    let height = proposer::warp_height(&r, d.p.vm.genesis).map_err(|e| e.to_string())?;
    let set = warp::canonical(&r, &subnet, height).map_err(|e| e.to_string())?;
    let held: Vec<&avalanche_rpc::bls::SecretKey> =
        d.nodes.iter().filter_map(|n| n.bls.as_ref()).collect();
    avalanche_rpc::transact::warp::sign(unsigned, &set, &held).map_err(|e| match e {
        avalanche_rpc::transact::BuildError::Invalid { problem, .. } => {
            format!("the devnet cannot sign: {problem}")
        }
        e => e.to_string(),
    })
}
