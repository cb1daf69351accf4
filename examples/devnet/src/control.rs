//! The devnet's own controls (`/ext/devnet`): the clock, building blocks now, funding from the
//! faucet through an ordinary transaction, and snapshots of the whole store (redb persistent
//! savepoints: a revert restores every table at once).

use crate::devnet::Devnet;
use crate::genesis::test_keys;
use crate::ledger::{self, Chain};
use crate::secp::TxError;
use crate::store::{self, StoreError};
use crate::wallet::{self, Payment};
use crate::{pchain, xchain};
use avalanche_rpc::wire::{Id, ShortId};

/// The longest single advance of the clock: ten years.
pub const MAX_ADVANCE: u64 = 315_360_000;

impl Devnet {
    /// Moves the clock forward, durably (the advance is part of the state and of snapshots).
    pub fn advance_clock(&self, seconds: u64) -> Result<u64, StoreError> {
        let w = self.store.write()?;
        let total = self.clock.advanced().saturating_add(seconds);
        store::set_meta(&w, "clock_advanced", &total.to_be_bytes())?;
        w.commit()?;
        self.clock.set_advanced(total);
        // Staking periods may have ended: reward them now.
        self.reward_stakers()?;
        self.wake.notify_one();
        Ok(self.clock.now())
    }

    /// Builds a block on each chain that has transactions waiting.
    pub fn build_now(&self) -> Result<(Option<Id>, Option<Id>), StoreError> {
        self.reward_stakers()?;
        let p = self.build_p_block()?;
        let x = self.build_x_block()?;
        Ok((x, p))
    }

    /// Pays `amount` nAVAX from the faucet (ewoq) to `to` on `chain`, through the chain's
    /// issueTx, and builds the block; the tx's ID once accepted.
    pub fn fund(&self, chain: Chain, to: ShortId, amount: u64) -> Result<Id, TxError> {
        let faucet = test_keys().swap_remove(0);
        let payment = Payment {
            asset: self.genesis.avax_asset_id,
            amount,
            to,
        };
        let e = |e: StoreError| TxError(e.to_string());
        let r = self.store.read().map_err(e)?;
        let bytes = match chain {
            Chain::X => {
                let utxos = xchain::all_utxos_of(&r, faucet.address().as_bytes()).map_err(e)?;
                wallet::base_tx(
                    &self.rules,
                    std::slice::from_ref(&faucet),
                    &utxos,
                    &[payment],
                    faucet.address(),
                    self.clock.now(),
                )
                .map_err(TxError)?
                .to_bytes()
            }
            Chain::P => {
                let utxos = pchain::utxos_of(&r, faucet.address().as_bytes(), None, usize::MAX)
                    .map_err(e)?;
                let tx = wallet::p_base_tx(
                    &self.p_rules,
                    std::slice::from_ref(&faucet),
                    &utxos,
                    &[payment],
                    faucet.address(),
                    self.p_price_margin().map_err(e)?,
                )
                .map_err(TxError)?;
                tx.to_bytes()
            }
        }
        .map_err(|e| TxError(e.to_string()))?;
        drop(r);
        self.accept_now(chain, bytes)
    }

    /// Twice the P-chain's gas price now: blocks in between may raise it, and the surplus is
    /// burned.
    pub fn p_price_margin(&self) -> Result<u64, StoreError> {
        let r = self.store.read()?;
        let (state, chain_time) = pchain::accept::fee_state(&r)?;
        let now = self.clock.now().saturating_sub(chain_time);
        Ok(pchain::fee::price(state.advance(now).excess).saturating_mul(2))
    }

    /// Issues `bytes` on `chain` and builds blocks until the transaction is accepted (a
    /// P-chain block may wait for gas capacity); its ID.
    pub fn accept_now(&self, chain: Chain, bytes: Vec<u8>) -> Result<Id, TxError> {
        let e = |e: StoreError| TxError(e.to_string());
        let id = match chain {
            Chain::X => self.issue_x(bytes)?,
            Chain::P => self.issue_p(bytes)?,
        };
        for _ in 0..100 {
            self.build_now().map_err(e)?;
            let r = self.store.read().map_err(e)?;
            if ledger::tx(&r, chain, &id).map_err(e)?.is_some() {
                return Ok(id);
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Err(TxError(format!("tx {id} was not accepted within 5 s")))
    }

    /// Saves the whole state; the snapshot's ID.
    pub fn snapshot(&self) -> Result<u64, StoreError> {
        let _no_block_meanwhile = self.building.lock().expect("builder lock");
        let w = self.store.write()?;
        let id = w
            .persistent_savepoint()
            .map_err(|e| StoreError(format!("cannot take a snapshot: {e}")))?;
        w.commit()?;
        Ok(id)
    }

    /// Restores the state of snapshot `id`, deleting it and every later one, and empties the
    /// mempools; false if there is no such snapshot.
    pub fn revert(&self, id: u64) -> Result<bool, StoreError> {
        let _no_block_meanwhile = self.building.lock().expect("builder lock");
        let mut w = self.store.write()?;
        let Ok(savepoint) = w.get_persistent_savepoint(id) else {
            return Ok(false);
        };
        w.restore_savepoint(&savepoint)
            .map_err(|e| StoreError(format!("cannot revert to snapshot {id}: {e}")))?;
        drop(savepoint);
        let later: Vec<u64> = w
            .list_persistent_savepoints()?
            .filter(|s| *s >= id)
            .collect();
        for s in later {
            w.delete_persistent_savepoint(s)
                .map_err(|e| StoreError(format!("cannot delete snapshot {s}: {e}")))?;
        }
        w.commit()?;
        self.x_mempool.lock().expect("mempool lock").clear();
        self.p_mempool.lock().expect("mempool lock").clear();
        let r = self.store.read()?;
        self.clock
            .set_advanced(store::meta_u64(&r, "clock_advanced")?.unwrap_or(0));
        Ok(true)
    }

    /// Signs an unsigned Warp message (network, source chain, payload) with the BLS keys the
    /// devnet holds, as the validators of the source chain's Subnet at the last accepted
    /// height: the signed message's bytes, or why it cannot.
    pub fn sign_warp(&self, unsigned: &[u8]) -> Result<Vec<u8>, String> {
        use crate::pchain::warp;
        let mut r = avalanche_rpc::codec::Reader::new(unsigned);
        let (version, network, chain, payload) = (|| {
            let parts = (r.u16()?, r.u32()?, r.id()?, r.bytes()?);
            r.finish()?;
            Ok::<_, avalanche_rpc::codec::DecodeError>(parts)
        })()
        .map_err(|e| format!("message is not an unsigned Warp message: {e}"))?;
        if version != 0 {
            return Err(format!(
                "message is not an unsigned Warp message: codec version {version}, not 0"
            ));
        }
        if network != self.options.network_id {
            return Err(format!(
                "the message is for network {network}, not {}",
                self.options.network_id
            ));
        }
        let r = self.store.read().map_err(|e| e.to_string())?;
        let subnet = warp::subnet_of(&r, &chain)
            .map_err(|e| e.to_string())?
            .ok_or(format!(
                "the source chain {chain} is not a chain of this network"
            ))?;
        let set = warp::canonical(&r, &subnet, u64::MAX).map_err(|e| e.to_string())?;
        let held: Vec<&avalanche_rpc::bls::SecretKey> =
            self.nodes.iter().filter_map(|n| n.bls.as_ref()).collect();
        warp::sign(network, &chain, payload, &set, &held)
    }
}
