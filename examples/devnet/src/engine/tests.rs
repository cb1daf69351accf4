//! The engine over both chains when the store fails while a transaction is verified: the
//! failure is the store's, never the transaction's refusal. Building the block fails with
//! the store's text and writes nothing; the transaction is not dropped and goes into the next
//! block once the store reads again; `issueTx` answers the store's failure without
//! remembering the transaction as dropped.

use super::IssueError;
use crate::context;
use crate::devnet::{Devnet, Options};
use crate::genesis::test_keys;
use crate::ledger::{self, Chain};
use crate::store::{self, StoreError};
use crate::{pchain, xchain};
use avalanche_rpc::codec::secp256k1fx;
use avalanche_rpc::transact::{Keychain, Payer, p, x};
use avalanche_rpc::wire::Id;

fn devnet() -> Devnet {
    Devnet::open(Options {
        network_id: 12345,
        db_dir: None,
        index_enabled: true,
        index_allow_incomplete: false,
        staking_port: 9651,
        genesis: None,
        mempool_bytes: super::pool::MAX_BYTES,
        db_cache_bytes: store::CACHE_BYTES,
        p_chain_lead: 600,
        upgrade_file: None,
    })
    .expect("an in-memory devnet opens")
}

/// A payment of 1 AVAX from the faucet (ewoq) to test key 1 on `chain`, signed: its bytes.
fn payment(d: &Devnet, chain: Chain) -> Vec<u8> {
    let faucet = test_keys().swap_remove(0);
    let to = secp256k1fx::OutputOwners::new(0, 1, vec![test_keys()[1].address()]);
    let cx = context::of(d).unwrap();
    let payer = Payer::new(vec![faucet.address()], d.engine.clock.now());
    let keys = Keychain::from_keys([faucet.clone()]);
    let r = d.engine.store.read().unwrap();
    let owner = faucet.address();
    let tx = match chain {
        Chain::X => {
            let utxos = xchain::all_utxos_of(&r, owner.as_bytes()).unwrap();
            let utxos: Vec<_> = utxos.into_iter().map(|u| u.utxo).collect();
            let pay = [x::output(cx.avax_asset_id, 1_000_000_000, to)];
            context::sign(x::base_tx(&cx, &utxos, &payer, &pay), &keys)
                .unwrap()
                .to_bytes()
        }
        Chain::P => {
            let utxos = pchain::utxos_of(&r, owner.as_bytes(), None, usize::MAX).unwrap();
            let utxos: Vec<_> = utxos.into_iter().map(|u| u.utxo).collect();
            let pay = [p::output(cx.avax_asset_id, 1_000_000_000, to)];
            context::sign(p::base_tx(&cx, &utxos, &payer, &pay), &keys)
                .unwrap()
                .to_bytes()
        }
        Chain::C => unreachable!("the payments here are on X and P"),
    };
    tx.unwrap()
}

fn build(d: &Devnet, chain: Chain) -> Result<Option<Id>, StoreError> {
    match chain {
        Chain::X => d.build_x_block(),
        Chain::P => d.build_p_block(),
        Chain::C => d.build_c_block(),
    }
}

fn status(d: &Devnet, chain: Chain, id: &Id) -> Option<Result<(), String>> {
    match chain {
        Chain::X => d.x.status(id),
        Chain::P => d.p.status(id),
        Chain::C => d.c.status(id),
    }
}

fn accepted(d: &Devnet, chain: Chain, id: &Id) -> bool {
    let r = d.engine.store.read().unwrap();
    ledger::tx(&r, chain, id).unwrap().is_some()
}

fn height(d: &Devnet, chain: Chain) -> u64 {
    let r = d.engine.store.read().unwrap();
    ledger::last_block(&r.open_table(store::BLOCKS).unwrap(), chain)
        .unwrap()
        .0
}

/// The store fails as a pending transaction is verified for a block (its UTXO read fails).
fn block_survives_a_storage_failure(chain: Chain) {
    let d = devnet();
    let bytes = payment(&d, chain);
    let id = match chain {
        Chain::X => d.issue_x(bytes),
        Chain::P => d.issue_p(bytes),
        Chain::C => d.issue_c(bytes),
    }
    .expect("the payment is valid");
    let before = height(&d, chain);

    store::fail_next_read("utxos");
    let e = build(&d, chain).expect_err("the store failing fails the block");
    assert!(
        e.to_string()
            .contains("injected fault: reading table utxos failed"),
        "the error names the store's failure: {e}"
    );
    // Nothing was written, and the transaction was not dropped: it still waits.
    assert_eq!(height(&d, chain), before);
    assert!(!accepted(&d, chain, &id));
    assert_eq!(status(&d, chain, &id), Some(Ok(())));

    // The store reads again: the next block takes it.
    let block = build(&d, chain).unwrap();
    assert!(block.is_some());
    assert_eq!(height(&d, chain), before + 1);
    assert!(accepted(&d, chain, &id));
    assert_eq!(status(&d, chain, &id), None);
}

#[test]
fn an_x_chain_block_fails_on_a_storage_failure_and_keeps_the_transaction() {
    block_survives_a_storage_failure(Chain::X);
}

#[test]
fn a_p_chain_block_fails_on_a_storage_failure_and_keeps_the_transaction() {
    block_survives_a_storage_failure(Chain::P);
}

/// The store fails as an issued transaction is verified: `issueTx` answers the store's
/// failure (not a refusal of the transaction), which is not remembered as dropped; issued
/// again, it is admitted.
#[test]
fn issuing_during_a_storage_failure_is_not_a_refusal() {
    for chain in [Chain::X, Chain::P] {
        let d = devnet();
        let bytes = payment(&d, chain);
        let id = Id::from_sha256(&bytes);
        let issue = |bytes: Vec<u8>| match chain {
            Chain::X => d.issue_x(bytes),
            Chain::P => d.issue_p(bytes),
            Chain::C => d.issue_c(bytes),
        };
        store::fail_next_read("utxos");
        let e = issue(bytes.clone()).expect_err("the store failing fails the issue");
        let IssueError::Store(text) = &e.error else {
            panic!("{chain:?}: a storage failure is not a refusal: {e:?}");
        };
        assert!(
            text.contains("injected fault: reading table utxos failed"),
            "{text}"
        );
        assert_eq!(
            status(&d, chain, &id),
            None,
            "{chain:?}: not remembered as dropped"
        );
        assert_eq!(issue(bytes), Ok(id));
        assert_eq!(status(&d, chain, &id), Some(Ok(())));
    }
}
