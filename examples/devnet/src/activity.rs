//! The built-in activity generator: a short history made at first start (so every method has
//! something to show from the first call, the C-chain's atomic side included), and with `--activity` a transfer every
//! `--block-interval` on the X-chain (and every third one on the P-chain). Every transaction
//! is an ordinary signed one, built by `avalanche_rpc::transact` with the devnet's context
//! ([`crate::context`]), going through issueTx and the one acceptance path.

use crate::context;
use crate::devnet::Devnet;
use crate::genesis::{AVAX, test_keys};
use crate::ledger::Chain;
use crate::{pchain, xchain};
use avalanche_rpc::codec::warp_l1::L1Message;
use avalanche_rpc::codec::{avm, platform, secp256k1fx, warp};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::transact::p;
use avalanche_rpc::transact::x;
use avalanche_rpc::transact::{self, BuildError, Context, Keychain, Payer};
use avalanche_rpc::wire::{Id, NodeId, ShortId};
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

fn x_utxos(d: &Devnet, k: &PrivateKey) -> Result<Vec<avm::Utxo>, String> {
    let r = d.engine.store.read().map_err(|e| e.to_string())?;
    let utxos = xchain::all_utxos_of(&r, k.address().as_bytes()).map_err(|e| e.to_string())?;
    Ok(utxos.into_iter().map(|u| u.utxo).collect())
}

fn p_utxos(d: &Devnet, k: &PrivateKey) -> Result<Vec<platform::Utxo>, String> {
    let r = d.engine.store.read().map_err(|e| e.to_string())?;
    let utxos = pchain::utxos_of(&r, k.address().as_bytes(), None, usize::MAX)
        .map_err(|e| e.to_string())?;
    Ok(utxos.into_iter().map(|u| u.utxo).collect())
}

/// `key` alone pays, at the devnet's time, its change to itself.
fn payer(d: &Devnet, key: &PrivateKey) -> Payer {
    Payer::new(vec![key.address()], d.engine.clock.now())
}

/// Owners of one address.
fn one(a: ShortId) -> secp256k1fx::OutputOwners {
    secp256k1fx::OutputOwners::new(0, 1, vec![a])
}

fn context(d: &Devnet) -> Result<Context, String> {
    context::of(d).map_err(|e| e.to_string())
}

/// An X-chain transaction `build` makes from `key`'s UTXOs, paid and signed by `key` (and
/// the other test keys it names), accepted.
fn x_do(
    d: &Devnet,
    key: &PrivateKey,
    build: impl FnOnce(&Context, &[avm::Utxo], &Payer) -> Result<x::Unsigned, BuildError>,
) -> Result<Id, String> {
    let built = build(&context(d)?, &x_utxos(d, key)?, &payer(d, key));
    let tx = context::sign(built, &Keychain::from_keys(test_keys()))?;
    let bytes = tx.to_bytes().map_err(|e| e.to_string())?;
    d.accept_now(Chain::X, bytes).map_err(|e| e.explained())
}

/// The same on the P-chain.
fn p_do(
    d: &Devnet,
    key: &PrivateKey,
    build: impl FnOnce(&Context, &[platform::Utxo], &Payer) -> Result<p::Unsigned, BuildError>,
) -> Result<Id, String> {
    let built = build(&context(d)?, &p_utxos(d, key)?, &payer(d, key));
    let tx = context::sign(built, &Keychain::from_keys(test_keys()))?;
    let bytes = tx.to_bytes().map_err(|e| e.to_string())?;
    d.accept_now(Chain::P, bytes).map_err(|e| e.explained())
}

/// The first-start history: ewoq pays every other key on X; key 1 creates an asset; ewoq
/// mints MNT to key 3; key 2 sends DVT to key 3; key 3 pays key 4 on P; key 1 delegates to
/// node 1 for two weeks; key 4 creates a permissioned Subnet, a chain on it, and makes node 2
/// its validator for two weeks; key 4 creates another Subnet with a chain and converts it to
/// an L1 validated by nodes 3 and 4 (0.1 AVAX of balance each, about three years of the
/// continuous fee at its minimum price), advances the clock by an epoch and pays itself on P
/// (so the P-chain's epoch holds the conversion), then registers a third validator and changes its
/// weight through Warp messages the L1 signs. Every transaction is built by
/// `avalanche_rpc::transact`'s builders.
pub fn seed(d: &Devnet) -> Result<History, String> {
    let keys = test_keys();
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
    let payments: Vec<avm::TransferableOutput> = keys[1..]
        .iter()
        .map(|k| x::output(avax, 1_000 * AVAX, one(k.address())))
        .collect();
    x_txs.push(x_do(d, &keys[0], |c, u, p| x::base_tx(c, u, p, &payments))?);

    let (k1, k2) = (keys[1].address(), keys[2].address());
    let mut dcl: Vec<avm::StateOutput> = vec![
        secp256k1fx::TransferOutput::new(100, one(k1)).into(),
        secp256k1fx::TransferOutput::new(50, one(k2)).into(),
    ];
    dcl.push(secp256k1fx::MintOutput::new(one(k1)).into());
    let new_asset = x_do(d, &keys[1], |c, u, p| {
        x::create_asset_tx(
            c,
            u,
            p,
            ("Devnet Collectible", "DCL", 0),
            vec![avm::InitialState::new(0, dcl)],
        )
    })?;
    x_txs.push(new_asset);

    let mnt = asset("MNT")?;
    let to = keys[3].address();
    x_txs.push(x_do(d, &keys[0], |c, u, p| {
        let right = u
            .iter()
            .find(|u| {
                u.asset_id == mnt && matches!(u.output, avm::UtxoOutput::Secp256k1fxMintOutput(_))
            })
            .ok_or(BuildError::invalid(
                "mint",
                "ewoq holds no MNT minting right",
            ))?;
        let mint = x::Op::mint(right, p, 100_000, one(to))?;
        x::operation_tx(c, u, p, vec![mint])
    })?);

    let dvt = asset("DVT")?;
    x_txs.push(x_do(d, &keys[2], |c, u, p| {
        x::base_tx(c, u, p, &[x::output(dvt, 1_000_000, one(to))])
    })?);

    let k4 = keys[4].address();
    let mut p_txs = vec![p_do(d, &keys[3], |c, u, p| {
        p::base_tx(c, u, p, &[p::output(avax, 10 * AVAX, one(k4))])
    })?];
    // Key 2 moves 50 AVAX from X to P: an export, then an import of it.
    x_txs.push(x_do(d, &keys[2], |c, u, p| {
        x::export_tx(c, u, p, Id::ZERO, &[x::output(avax, 50 * AVAX, one(k2))])
    })?);
    let atomic: Vec<platform::Utxo> = {
        let r = d.engine.store.read().map_err(|e| e.to_string())?;
        crate::ledger::utxos_of(&r, crate::ledger::X_TO_P, k2.as_bytes(), None, usize::MAX)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|(_, b)| pchain::Utxo::decode(&b).map(|u| u.utxo))
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?
    };
    p_txs.push(p_do(d, &keys[2], |c, _, p| {
        p::import_tx(c, &atomic, &[], p, c.x_chain_id, &one(k2))
    })?);
    let two_weeks = d.engine.clock.now() + 14 * 24 * 3600;
    let stake = |node, weight, end| p::Stake {
        node_id: node,
        start: 0,
        end,
        weight,
    };
    p_txs.push(p_do(d, &keys[1], |c, u, p| {
        let s = stake(d.nodes[1].id, 1_000 * AVAX, two_weeks);
        p::add_permissionless_delegator_tx(c, u, p, s, &one(k1), None)
    })?);
    // Key 3 stakes a new validator (a node outside the five, with its own BLS key) for a
    // month.
    let history_bls = avalanche_rpc::bls::SecretKey::from_seed(&crate::genesis::sha256(
        b"avalanche-devnet history validator",
    ))
    .map_err(|e| e.to_string())?;
    let k3 = keys[3].address();
    let validator = p::ValidatorRequest {
        stake: stake(
            NodeId::new(HISTORY_VALIDATOR),
            2_000 * AVAX,
            d.engine.clock.now() + 30 * 24 * 3600,
        ),
        signer: Some(transact::bls_signer(&history_bls)),
        validator_rewards: one(k3),
        delegator_rewards: one(k3),
        shares: 20_000,
    };
    p_txs.push(p_do(d, &keys[3], |c, u, p| {
        p::add_permissionless_validator_tx(c, u, p, &validator)
    })?);
    // Key 4 owns the Subnets and authorizes for them.
    let owner = p::Authority::new(one(k4));
    let subnet = p_do(d, &keys[4], |c, u, p| {
        p::create_subnet_tx(c, u, p, &one(k4))
    })?;
    p_txs.push(subnet);
    let chain = |subnet_id, name| p::ChainRequest {
        subnet_id,
        name,
        vm_id: crate::genesis::name_id("subnetevm"),
        fx_ids: Vec::new(),
        genesis: br#"{"config":{"chainId":43117},"alloc":{},"gasLimit":"0x7A1200"}"#,
    };
    let subnet_chain = p_do(d, &keys[4], |c, u, p| {
        p::create_chain_tx(c, u, p, &owner, &chain(subnet, "Devnet Subnet Chain"))
    })?;
    p_txs.push(subnet_chain);
    p_txs.push(p_do(d, &keys[4], |c, u, p| {
        let s = stake(d.nodes[2].id, 20, two_weeks);
        p::add_subnet_validator_tx(c, u, p, subnet, &owner, s)
    })?);
    let l1 = p_do(d, &keys[4], |c, u, p| {
        p::create_subnet_tx(c, u, p, &one(k4))
    })?;
    p_txs.push(l1);
    let l1_chain = p_do(d, &keys[4], |c, u, p| {
        let req = p::ChainRequest {
            genesis: br#"{"config":{"chainId":43118},"alloc":{},"gasLimit":"0x7A1200"}"#,
            ..chain(l1, "Devnet L1 Chain")
        };
        p::create_chain_tx(c, u, p, &owner, &req)
    })?;
    p_txs.push(l1_chain);
    let pchain_owner = platform::PChainOwner::new(1, vec![k4]);
    let validators: Vec<platform::ConvertSubnetToL1Validator> = d.nodes[3..5]
        .iter()
        .map(|n| {
            let bls = n
                .bls
                .as_ref()
                .ok_or(format!("the devnet does not hold {}'s BLS key", n.id))?;
            Ok(platform::ConvertSubnetToL1Validator::new(
                n.id.as_bytes().to_vec(),
                100,
                AVAX / 10,
                platform::ProofOfPossession::new(bls.public_key(), bls.proof_of_possession()),
                pchain_owner.clone(),
                pchain_owner.clone(),
            ))
        })
        .collect::<Result<_, String>>()?;
    p_txs.push(p_do(d, &keys[4], |c, u, p| {
        let manager = (l1_chain, &VALIDATOR_MANAGER as &[u8]);
        p::convert_subnet_to_l1_tx(c, u, p, l1, &owner, manager, &validators)
    })?);
    // The L1's validators sign for the P-chain height of the epoch the next block verifies
    // at, as a node's P-chain does (`proposer::warp_height`): the conversion is in it once the
    // clock has passed an epoch and a block names the conversion's height.
    crate::control::advance_past_epoch(d).map_err(|e| e.to_string())?;
    p_txs.push(p_do(d, &keys[4], |c, u, p| {
        p::base_tx(c, u, p, &[p::output(avax, AVAX / 100, one(k4))])
    })?);
    // The manager registers a third validator, then changes its weight: Warp messages the
    // devnet signs as the L1's validators (nodes 3 and 4).
    let bls = avalanche_rpc::bls::SecretKey::from_seed(&crate::genesis::sha256(
        b"avalanche-devnet l1 validator",
    ))
    .map_err(|e| e.to_string())?;
    let register = L1Message::RegisterL1Validator(Box::new(warp::RegisterL1Validator::new(
        l1,
        L1_VALIDATOR.to_vec(),
        bls.public_key(),
        d.engine.clock.now() + 3_600,
        pchain_owner.clone(),
        pchain_owner,
        20,
    )));
    let validation_id = transact::warp::validation_id(&register).map_err(|e| e.to_string())?;
    let manager_message = |m: &L1Message| {
        transact::warp::l1_message(d.options.network_id, l1_chain, &VALIDATOR_MANAGER, m)
            .map_err(|e| e.to_string())
    };
    let message = crate::control::sign_warp(d, &manager_message(&register)?)?;
    p_txs.push(p_do(d, &keys[4], |c, u, p| {
        p::register_l1_validator_tx(c, u, p, AVAX / 10, bls.proof_of_possession(), &message)
    })?);
    let reweigh = L1Message::L1ValidatorWeight(warp::L1ValidatorWeight::new(validation_id, 0, 30));
    let message = crate::control::sign_warp(d, &manager_message(&reweigh)?)?;
    p_txs.push(p_do(d, &keys[4], |c, u, p| {
        p::set_l1_validator_weight_tx(c, u, p, &message)
    })?);
    // The C-chain's atomic side: 1 AVAX from ewoq's C-chain account (the local genesis funds
    // it) exported to its X address and imported there, so that `avax.getAtomicTx` has a
    // transaction to show and the X-chain an import from C.
    let ewoq = &keys[0];
    let ctx = context(d)?;
    let account = {
        let r = d.engine.store.read().map_err(|e| e.to_string())?;
        let a = crate::cchain::account(&r, &crate::cchain::evm_address(&ewoq.public_key()))
            .map_err(|e| e.to_string())?;
        transact::c::Account::of(&ewoq.public_key(), a.balance, a.nonce)
    };
    let out = secp256k1fx::TransferOutput::new(AVAX, one(ewoq.address()));
    let base_fee = u128::from(crate::cchain::BASE_FEE);
    let built = transact::c::export_tx(&ctx, &[account], ctx.x_chain_id, &[out], base_fee);
    let tx = context::sign(built, &Keychain::from_keys(test_keys()))?;
    let bytes = tx.to_bytes().map_err(|e| e.to_string())?;
    d.accept_now(Chain::C, bytes).map_err(|e| e.explained())?;
    let atomic: Vec<avm::Utxo> = {
        let r = d.engine.store.read().map_err(|e| e.to_string())?;
        let from_c = crate::ledger::Space::Atomic {
            to: Chain::X,
            from: Chain::C,
        };
        crate::ledger::utxos_of(&r, from_c, ewoq.address().as_bytes(), None, usize::MAX)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|(_, b)| avm::Utxo::from_bytes(&b).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?
    };
    x_txs.push(x_do(d, ewoq, |c, u, p| {
        x::import_tx(c, &atomic, u, p, c.c_chain_id, &one(ewoq.address()))
    })?);
    Ok(History {
        x_txs,
        p_txs,
        new_asset,
        subnet,
        chain: subnet_chain,
        l1,
        l1_chain,
    })
}

/// One transfer every `interval` between test keys picked from the clock, on X; every third
/// also on P. Never from or to the faucet (key 0), whose outputs `devnet.fund` spends: a
/// transfer from it still waiting for its block would spend what the faucet builds on
/// (`tx conflicts with other tx`), and transfers to it would split its P-chain funds into
/// more outputs than one payment can spend within a block's gas. Failures (a key
/// momentarily without spendable outputs) are reported and skipped.
pub async fn run(d: Arc<Devnet>, interval: Duration) {
    let keys = test_keys();
    let senders = &keys[1..];
    let mut round = 0u64;
    loop {
        tokio::time::sleep(interval).await;
        round += 1;
        let seed = d.engine.clock.now_ns() ^ round.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let from = &senders[(seed % senders.len() as u64) as usize];
        let to = senders[((seed >> 8) % senders.len() as u64) as usize].address();
        let amount = AVAX / 100 * (1 + (seed >> 16) % 100);
        let avax = d.genesis.avax_asset_id;
        let (dx, from_x) = (d.clone(), from.clone());
        let x = tokio::task::spawn_blocking(move || -> Result<Id, String> {
            let built = x::base_tx(
                &context(&dx)?,
                &x_utxos(&dx, &from_x)?,
                &payer(&dx, &from_x),
                &[x::output(avax, amount, one(to))],
            );
            let tx = context::sign(built, &Keychain::from_keys([from_x]))?;
            dx.issue_x(tx.to_bytes().map_err(|e| e.to_string())?)
                .map_err(|e| e.to_string())
        });
        if let Ok(Err(e)) = x.await {
            eprintln!("avalanche-devnet: activity: an X-chain transfer was skipped: {e}");
        }
        if round.is_multiple_of(3) {
            let (dp, from_p) = (d.clone(), from.clone());
            let p = tokio::task::spawn_blocking(move || -> Result<Id, String> {
                let built = p::base_tx(
                    &context(&dp)?,
                    &p_utxos(&dp, &from_p)?,
                    &payer(&dp, &from_p),
                    &[p::output(avax, amount, one(to))],
                );
                let tx = context::sign(built, &Keychain::from_keys([from_p]))?;
                dp.issue_p(tx.to_bytes().map_err(|e| e.to_string())?)
                    .map_err(|e| e.to_string())
            });
            if let Ok(Err(e)) = p.await {
                eprintln!("avalanche-devnet: activity: a P-chain transfer was skipped: {e}");
            }
        }
    }
}
