//! The built-in activity generator: a short history made at first start (so every method has
//! something to show from the first call), and with `--activity` a transfer every
//! `--block-interval` on the X-chain (and every third one on the P-chain). Every transaction
//! is an ordinary signed one, going through issueTx and the one acceptance path.

use crate::devnet::Devnet;
use crate::genesis::{AVAX, test_keys};
use crate::ledger::Chain;
use crate::wallet::{self, PKind, Payment};
use crate::{pchain, xchain};
use avalanche_rpc::codec::warp;
use avalanche_rpc::codec::warp_l1::L1Message;
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::wire::Id;
use std::sync::Arc;
use std::time::Duration;

/// The address of the start history's L1 validator manager on its chain (no EVM runs here;
/// it names the contract a real L1 would deploy).
pub const VALIDATOR_MANAGER: [u8; 20] = [
    0x0f, 0xee, 0xdc, 0x0d, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];

/// The node ID of the Primary Network validator the start history adds.
pub const HISTORY_VALIDATOR: [u8; 20] = [0x10; 20];

/// The node ID of the L1 validator the start history registers through a Warp message.
pub const L1_VALIDATOR: [u8; 20] = [0x11; 20];

/// What the history holds, for the banner.
pub struct History {
    pub x_txs: Vec<Id>,
    pub p_txs: Vec<Id>,
    pub new_asset: Id,
    /// A permissioned Subnet, and a chain on it.
    pub subnet: Id,
    pub chain: Id,
    /// A Subnet converted to an L1 (nodes 3 and 4 validate it), and its manager chain.
    pub l1: Id,
    pub l1_chain: Id,
}

fn x_utxos(d: &Devnet, k: &PrivateKey) -> Result<Vec<xchain::Utxo>, String> {
    let r = d.engine.store.read().map_err(|e| e.to_string())?;
    xchain::all_utxos_of(&r, k.address().as_bytes()).map_err(|e| e.to_string())
}

fn p_utxos(d: &Devnet, k: &PrivateKey) -> Result<Vec<pchain::Utxo>, String> {
    let r = d.engine.store.read().map_err(|e| e.to_string())?;
    pchain::utxos_of(&r, k.address().as_bytes(), None, usize::MAX).map_err(|e| e.to_string())
}

fn accept(d: &Devnet, chain: Chain, bytes: Result<Vec<u8>, String>) -> Result<Id, String> {
    d.accept_now(chain, bytes?).map_err(|e| e.0)
}

/// The first-start history: ewoq pays every other key on X; key 1 creates an asset; ewoq
/// mints MNT to key 3; key 2 sends DVT to key 3; key 3 pays key 4 on P; key 1 delegates to
/// node 1 for two weeks; key 4 creates a permissioned Subnet, a chain on it, and makes node 2
/// its validator for two weeks; key 4 creates another Subnet with a chain and converts it to
/// an L1 validated by nodes 3 and 4 (0.1 AVAX of balance each, about three years of the
/// continuous fee at its minimum price), then registers a third validator and changes its
/// weight through Warp messages the L1 signs.
pub fn seed(d: &Devnet) -> Result<History, String> {
    let keys = test_keys();
    let now = d.engine.clock.now();
    let avax = d.genesis.avax_asset_id;
    let asset = |alias: &str| {
        d.genesis
            .assets
            .iter()
            .find(|a| a.alias == alias)
            .map(|a| a.id)
            .ok_or(format!("no genesis asset {alias}"))
    };
    let mut x_txs = Vec::new();
    let payments: Vec<Payment> = keys[1..]
        .iter()
        .map(|k| Payment {
            asset: avax,
            amount: 1_000 * AVAX,
            to: k.address(),
        })
        .collect();
    let tx = wallet::base_tx(
        &d.x.vm.rules,
        &keys[..1],
        &x_utxos(d, &keys[0])?,
        &payments,
        keys[0].address(),
        now,
    )?;
    x_txs.push(accept(
        d,
        Chain::X,
        tx.to_bytes().map_err(|e| e.to_string()),
    )?);

    let tx = wallet::create_asset_tx(
        &d.x.vm.rules,
        &keys[1..2],
        &x_utxos(d, &keys[1])?,
        ("Devnet Collectible", "DCL", 0),
        &[(100, keys[1].address()), (50, keys[2].address())],
        &[keys[1].address()],
        keys[1].address(),
        now,
    )?;
    let new_asset = accept(d, Chain::X, tx.to_bytes().map_err(|e| e.to_string()))?;
    x_txs.push(new_asset);

    let mnt = asset("MNT")?;
    let ewoq = x_utxos(d, &keys[0])?;
    let right = ewoq
        .iter()
        .find(|u| u.utxo.asset_id == mnt && u.amount().is_none())
        .ok_or("ewoq holds no MNT minting right")?;
    let tx = wallet::mint_tx(
        &d.x.vm.rules,
        &keys[0],
        right,
        100_000,
        keys[3].address(),
        &ewoq,
        keys[0].address(),
        now,
    )?;
    x_txs.push(accept(
        d,
        Chain::X,
        tx.to_bytes().map_err(|e| e.to_string()),
    )?);

    let dvt = asset("DVT")?;
    let tx = wallet::base_tx(
        &d.x.vm.rules,
        &keys[2..3],
        &x_utxos(d, &keys[2])?,
        &[Payment {
            asset: dvt,
            amount: 1_000_000,
            to: keys[3].address(),
        }],
        keys[2].address(),
        now,
    )?;
    x_txs.push(accept(
        d,
        Chain::X,
        tx.to_bytes().map_err(|e| e.to_string()),
    )?);

    let price = d.p_price_margin().map_err(|e| e.to_string())?;
    let tx = wallet::p_base_tx(
        &d.p.vm.rules,
        &keys[3..4],
        &p_utxos(d, &keys[3])?,
        &[Payment {
            asset: avax,
            amount: 10 * AVAX,
            to: keys[4].address(),
        }],
        keys[3].address(),
        price,
    )?;
    let mut p_txs = vec![accept(
        d,
        Chain::P,
        tx.to_bytes().map_err(|e| e.to_string()),
    )?];
    // Key 2 moves 50 AVAX from X to P: an export, then an import of it.
    let tx = wallet::x_export_tx(
        &d.x.vm.rules,
        &keys[2..3],
        &x_utxos(d, &keys[2])?,
        50 * AVAX,
        keys[2].address(),
        keys[2].address(),
        now,
    )?;
    x_txs.push(accept(
        d,
        Chain::X,
        tx.to_bytes().map_err(|e| e.to_string()),
    )?);
    let atomic: Vec<pchain::Utxo> = {
        let r = d.engine.store.read().map_err(|e| e.to_string())?;
        crate::ledger::utxos_of(
            &r,
            crate::ledger::X_TO_P,
            keys[2].address().as_bytes(),
            None,
            usize::MAX,
        )
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|(_, b)| pchain::Utxo::decode(&b).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?
    };
    let tx = wallet::p_tx(
        &d.p.vm.rules,
        &keys[2..3],
        &[],
        &[],
        PKind::Import(&atomic),
        keys[2].address(),
        d.p_price_margin().map_err(|e| e.to_string())?,
    )?;
    p_txs.push(accept(
        d,
        Chain::P,
        tx.to_bytes().map_err(|e| e.to_string()),
    )?);
    let two_weeks = d.engine.clock.now() + 14 * 24 * 3600;
    let mut p = |key: &PrivateKey, kind: PKind<'_>| -> Result<Id, String> {
        let price = d.p_price_margin().map_err(|e| e.to_string())?;
        let tx = wallet::p_tx(
            &d.p.vm.rules,
            std::slice::from_ref(key),
            &p_utxos(d, key)?,
            &[],
            kind,
            key.address(),
            price,
        )?;
        let id = accept(d, Chain::P, tx.to_bytes().map_err(|e| e.to_string()))?;
        p_txs.push(id);
        Ok(id)
    };
    p(
        &keys[1],
        PKind::AddDelegator {
            node: d.nodes[1].id,
            weight: 1_000 * AVAX,
            end: two_weeks,
            rewards: keys[1].address(),
        },
    )?;
    // Key 3 stakes a new validator (a node outside the five, with its own BLS key) for a
    // month.
    let history_bls = avalanche_rpc::bls::SecretKey::from_seed(&crate::genesis::sha256(
        b"avalanche-devnet history validator",
    ))
    .map_err(|e| e.to_string())?;
    p(
        &keys[3],
        PKind::AddValidator {
            node: avalanche_rpc::wire::NodeId::new(HISTORY_VALIDATOR),
            bls: &history_bls,
            weight: 2_000 * AVAX,
            end: d.engine.clock.now() + 30 * 24 * 3600,
            shares: 20_000,
            rewards: keys[3].address(),
        },
    )?;
    let subnet = p(
        &keys[4],
        PKind::CreateSubnet {
            owner: keys[4].address(),
        },
    )?;
    let chain = p(
        &keys[4],
        PKind::CreateChain {
            subnet,
            name: "Devnet Subnet Chain",
            vm: crate::genesis::name_id("subnetevm"),
            genesis: br#"{"config":{"chainId":43117},"alloc":{},"gasLimit":"0x7A1200"}"#,
            auth: &keys[4],
        },
    )?;
    p(
        &keys[4],
        PKind::AddSubnetValidator {
            subnet,
            node: d.nodes[2].id,
            weight: 20,
            end: two_weeks,
            auth: &keys[4],
        },
    )?;
    let l1 = p(
        &keys[4],
        PKind::CreateSubnet {
            owner: keys[4].address(),
        },
    )?;
    let l1_chain = p(
        &keys[4],
        PKind::CreateChain {
            subnet: l1,
            name: "Devnet L1 Chain",
            vm: crate::genesis::name_id("subnetevm"),
            genesis: br#"{"config":{"chainId":43118},"alloc":{},"gasLimit":"0x7A1200"}"#,
            auth: &keys[4],
        },
    )?;
    let validators: Vec<wallet::L1Validator<'_>> = d.nodes[3..5]
        .iter()
        .map(|n| {
            Ok(wallet::L1Validator {
                node: n.id,
                bls: n
                    .bls
                    .as_ref()
                    .ok_or(format!("the devnet does not hold {}'s BLS key", n.id))?,
                weight: 100,
                balance: AVAX / 10,
                owner: keys[4].address(),
            })
        })
        .collect::<Result<_, String>>()?;
    p(
        &keys[4],
        PKind::ConvertToL1 {
            subnet: l1,
            chain: l1_chain,
            address: &VALIDATOR_MANAGER,
            validators: &validators,
            auth: &keys[4],
        },
    )?;
    // The manager registers a third validator, then changes its weight: Warp messages the
    // devnet signs as the L1's validators (nodes 3 and 4).
    let bls = avalanche_rpc::bls::SecretKey::from_seed(&crate::genesis::sha256(
        b"avalanche-devnet l1 validator",
    ))
    .map_err(|e| e.to_string())?;
    let owner = avalanche_rpc::codec::platform::PChainOwner::new(1, vec![keys[4].address()]);
    let register = L1Message::RegisterL1Validator(Box::new(warp::RegisterL1Validator::new(
        l1,
        L1_VALIDATOR.to_vec(),
        bls.public_key(),
        d.engine.clock.now() + 3_600,
        owner.clone(),
        owner,
        20,
    )));
    let validation_id = Id::from_sha256(&register.to_bytes().map_err(|e| e.to_string())?);
    let network = d.options.network_id;
    let message = crate::control::sign_warp(
        d,
        &wallet::l1_message(network, l1_chain, &VALIDATOR_MANAGER, register)?,
    )?;
    p(
        &keys[4],
        PKind::RegisterL1Validator {
            message: &message,
            proof_of_possession: bls.proof_of_possession(),
            balance: AVAX / 10,
        },
    )?;
    let reweigh = L1Message::L1ValidatorWeight(warp::L1ValidatorWeight::new(validation_id, 0, 30));
    let message = crate::control::sign_warp(
        d,
        &wallet::l1_message(network, l1_chain, &VALIDATOR_MANAGER, reweigh)?,
    )?;
    p(&keys[4], PKind::SetL1ValidatorWeight { message: &message })?;
    Ok(History {
        x_txs,
        p_txs,
        new_asset,
        subnet,
        chain,
        l1,
        l1_chain,
    })
}

/// One transfer every `interval` between test keys picked from the clock, on X; every third
/// also on P. Failures (a key momentarily without spendable outputs) are reported and
/// skipped.
pub async fn run(d: Arc<Devnet>, interval: Duration) {
    let keys = test_keys();
    let mut round = 0u64;
    loop {
        tokio::time::sleep(interval).await;
        round += 1;
        let seed = d.engine.clock.now_ns() ^ round.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let from = &keys[(seed % keys.len() as u64) as usize];
        let to = &keys[((seed >> 8) % keys.len() as u64) as usize];
        let amount = AVAX / 100 * (1 + (seed >> 16) % 100);
        let payment = Payment {
            asset: d.genesis.avax_asset_id,
            amount,
            to: to.address(),
        };
        let (dx, from_x, pay_x) = (d.clone(), from.clone(), payment.clone());
        let x = tokio::task::spawn_blocking(move || -> Result<Id, String> {
            let utxos = x_utxos(&dx, &from_x)?;
            let tx = wallet::base_tx(
                &dx.x.vm.rules,
                std::slice::from_ref(&from_x),
                &utxos,
                &[pay_x],
                from_x.address(),
                dx.engine.clock.now(),
            )?;
            dx.issue_x(tx.to_bytes().map_err(|e| e.to_string())?)
                .map_err(|e| e.to_string())
        });
        if let Ok(Err(e)) = x.await {
            eprintln!("avalanche-devnet: activity: an X-chain transfer was skipped: {e}");
        }
        if round.is_multiple_of(3) {
            let (dp, from_p) = (d.clone(), from.clone());
            let p = tokio::task::spawn_blocking(move || -> Result<Id, String> {
                let utxos = p_utxos(&dp, &from_p)?;
                let price = dp.p_price_margin().map_err(|e| e.to_string())?;
                let tx = wallet::p_base_tx(
                    &dp.p.vm.rules,
                    std::slice::from_ref(&from_p),
                    &utxos,
                    &[payment],
                    from_p.address(),
                    price,
                )?;
                dp.issue_p(tx.to_bytes().map_err(|e| e.to_string())?)
                    .map_err(|e| e.to_string())
            });
            if let Ok(Err(e)) = p.await {
                eprintln!("avalanche-devnet: activity: a P-chain transfer was skipped: {e}");
            }
        }
    }
}
