//! Tampered transactions are refused through `issueTx`, each with a message naming what
//! failed (a bad signature, a spent input, another network's ID, the fee one nAVAX short, an
//! input twice, a UTXO spent before its locktime, a stake below the minimum, a memo or a tx
//! too large, locked funds spent as unlocked), and a refused transaction changes nothing:
//! UTXOs, heights and the index are the same after all of them as before.

use crate::common::{self, Devnet, fee_only, keychain, lenient, one, x_codec};
use avalanche_devnet::context::{sign, sign_as};
use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_devnet::xchain::Utxo;
use avalanche_rpc::avm::{AvmClient, GetHeightParams, IssueTxParams};
use avalanche_rpc::codec::{avm, platform};
use avalanche_rpc::index::{GetLastAcceptedParams, IndexClient};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::platform::PlatformClient;
use avalanche_rpc::transact::p::{Stake, ValidatorRequest};
use avalanche_rpc::transact::{Context, Payer, bls_signer, p, x};
use avalanche_rpc::wire::{HexBytes, Id, NodeId};

/// What a refused tx must not change.
#[derive(Debug, PartialEq)]
struct State {
    x_utxos: Vec<Vec<Id>>,
    p_utxos: Vec<Vec<Id>>,
    heights: (u64, u64),
    last_indexed: (Option<Id>, Option<Id>),
}

async fn state(d: &Devnet) -> State {
    let keys = test_keys();
    let mut x_utxos = Vec::new();
    let mut p_utxos = Vec::new();
    for k in &keys[..3] {
        let mut x: Vec<Id> = d
            .utxos(&d.x_address(k.address()))
            .await
            .iter()
            .map(|u| u.id)
            .collect();
        x.sort();
        x_utxos.push(x);
        let mut p: Vec<Id> = d.p_utxos(k).await.iter().map(|u| u.id).collect();
        p.sort();
        p_utxos.push(p);
    }
    let heights = (
        d.node
            .avm("X")
            .get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        d.node
            .platform()
            .get_height(avalanche_rpc::platform::GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
    );
    let last = |chain: &'static str| {
        let index = d.node.index(chain, "block");
        async move {
            index
                .get_last_accepted(GetLastAcceptedParams::new())
                .await
                .ok()
                .map(|c| c.id)
        }
    };
    State {
        x_utxos,
        p_utxos,
        heights,
        last_indexed: (last("X").await, last("P").await),
    }
}

async fn refused_x(d: &Devnet, tx: &avm::Tx) -> String {
    d.node
        .avm("X")
        .issue_tx(IssueTxParams::new(HexBytes::with_checksum(
            &tx.to_bytes().unwrap(),
        )))
        .await
        .map(|_| ())
        .map_err(common::said)
        .expect_err("a tampered tx is refused")
}

/// A BaseTx paying `outputs` from `key`'s `utxos` at `time`, signed.
fn pay(
    cx: &Context,
    key: &PrivateKey,
    utxos: &[Utxo],
    outputs: &[avm::TransferableOutput],
    time: u64,
) -> avm::Tx {
    let payer = Payer::new(vec![key.address()], time);
    sign(
        x::base_tx(cx, &x_codec(utxos), &payer, outputs),
        &keychain(),
    )
    .unwrap()
}

fn base_of(tx: &avm::Tx) -> avm::Base {
    let avm::UnsignedTx::BaseTx(b) = &tx.unsigned else {
        panic!("a BaseTx")
    };
    b.base.clone()
}

#[tokio::test]
async fn tampered_transactions_are_refused_and_change_nothing() {
    let d = Devnet::start(common::options()).await;
    let keys = test_keys();
    let (payer, payee, stranger) = (&keys[0], &keys[1], &keys[2]);
    let cx = d.context();
    let now = d.devnet.engine.clock.now();
    let to = |key: &PrivateKey, amount| x::output(cx.avax_asset_id, amount, one(key.address()));

    // Before the snapshot: the payer's UTXOs as they were, then a valid tx spending some of
    // them and paying the payee an output locked until tomorrow.
    let old = d.utxos(&d.x_address(payer.address())).await;
    let valid = pay(&cx, payer, &old, &[to(payee, 5 * AVAX)], now);
    let mut base = base_of(&valid);
    for o in &mut base.outputs {
        if let avm::TransferableOut::TransferOutput(t) = &mut o.output
            && t.owners.addresses == [payee.address()]
        {
            t.owners.locktime = now + 86_400;
        }
    }
    let locked = sign_as(avm::UnsignedTx::from(avm::BaseTx::new(base)), &[payer]).unwrap();
    let locked_id = d
        .node
        .avm("X")
        .issue_tx(IssueTxParams::new(HexBytes::with_checksum(
            &locked.to_bytes().unwrap(),
        )))
        .await
        .unwrap()
        .tx_id;
    d.wait_accepted(&locked_id).await;
    let before = state(&d).await;

    let utxos = d.utxos(&d.x_address(payer.address())).await;
    let fresh = pay(&cx, payer, &utxos, &[to(payee, AVAX)], now);
    let signers = vec![payer; base_of(&fresh).inputs.len()];
    let resign = |base: avm::Base, by: &[&avalanche_rpc::keys::PrivateKey]| {
        sign_as(avm::UnsignedTx::from(avm::BaseTx::new(base)), by).unwrap()
    };

    // A bad signature: the stranger signs the payer's inputs.
    let bad = resign(base_of(&fresh), &vec![stranger; signers.len()]);
    let e = refused_x(&d, &bad).await;
    assert!(
        e.contains("failed to verify transfer: wrong signature: expected signature from")
            && e.contains("signature 0 is by")
            && e.contains("not by the owner"),
        "{e}"
    );

    // A spent input: built from the UTXOs as they were before the valid tx.
    let stale = pay(&cx, payer, &old, &[to(payee, AVAX)], now);
    let e = refused_x(&d, &stale).await;
    assert!(e.contains("not an unspent output"), "{e}");

    // Another network's ID.
    let mut b = base_of(&fresh);
    b.network_id = 1;
    let e = refused_x(&d, &resign(b, &signers)).await;
    assert!(e.contains("`unsignedTx.networkID` is 1"), "{e}");

    // The fee one nAVAX short: the change output one more.
    let mut b = base_of(&fresh);
    for o in &mut b.outputs {
        if let avm::TransferableOut::TransferOutput(t) = &mut o.output
            && t.owners.addresses == [payer.address()]
        {
            t.amount += 1;
        }
    }
    let e = refused_x(&d, &resign(b, &signers)).await;
    assert!(e.contains("insufficient funds"), "{e}");

    // The same input twice.
    let mut b = base_of(&fresh);
    b.inputs.push(b.inputs[0].clone());
    let mut twice = signers.clone();
    twice.push(payer);
    let e = refused_x(&d, &resign(b, &twice)).await;
    assert!(
        e.contains("inputs") && (e.contains("second time") || e.contains("codec")),
        "{e}"
    );

    // The locked output, spent before its locktime (a wallet thinking it is tomorrow).
    let payee_utxos = d.utxos(&d.x_address(payee.address())).await;
    let early = pay(
        &cx,
        payee,
        &payee_utxos
            .iter()
            .filter(|u| u.utxo.utxo_id.tx_id == locked_id)
            .cloned()
            .collect::<Vec<_>>(),
        &[to(stranger, AVAX)],
        now + 2 * 86_400,
    );
    let e = refused_x(&d, &early).await;
    assert!(e.contains("locked until"), "{e}");

    // A memo over 256 bytes; a transaction over 64 KiB.
    let mut b = base_of(&fresh);
    b.memo = vec![7; 257];
    let e = refused_x(&d, &resign(b, &signers)).await;
    assert!(e.contains("memo"), "{e}");
    let many: Vec<_> = (0..1_000).map(|_| to(payee, 1)).collect();
    let large = pay(&cx, payer, &utxos, &many, now);
    assert!(large.to_bytes().unwrap().len() > 64 * 1024);
    let e = refused_x(&d, &large).await;
    assert!(e.contains("tx too large"), "{e}");

    // On the P-chain: a stake below the minimum, and the dynamic fee one nAVAX short.
    let p = d.node.platform();
    let bls = avalanche_rpc::bls::SecretKey::from_seed(&[31; 32]).unwrap();
    let req = ValidatorRequest {
        stake: Stake {
            node_id: NodeId::new([31; 20]),
            start: 0,
            end: now + 3 * 86_400,
            weight: 1_999 * AVAX,
        },
        signer: Some(bls_signer(&bls)),
        validator_rewards: one(payer.address()),
        delegator_rewards: one(payer.address()),
        shares: 20_000,
    };
    // Built without the builder's own check of the minimum stake.
    let small = d
        .p_tx_in(&lenient(d.context()), payer, |c, u, p| {
            p::add_permissionless_validator_tx(c, u, p, &req)
        })
        .await;
    let e = d.p_issue(&small).await.unwrap_err();
    assert!(
        e.contains("`unsignedTx.validator.weight` is 1999000000000"),
        "{e}"
    );
    let valid_p = d.p_tx(payer, fee_only).await;
    // Its price was doubled for a margin: pay exactly the fee at the current price, less one.
    let state_now = p
        .get_fee_state(avalanche_rpc::platform::GetFeeStateParams::new())
        .await
        .unwrap();
    let platform::UnsignedTx::BaseTx(t) = &valid_p.unsigned else {
        panic!()
    };
    let gas = avalanche_devnet::pchain::fee::gas(&valid_p.unsigned).unwrap();
    let fee = gas * state_now.price;
    let mut b = t.base.clone();
    let spent: u64 = d
        .p_utxos(payer)
        .await
        .iter()
        .filter(|u| b.inputs.iter().any(|i| i.utxo_id.id() == u.id))
        .map(|u| u.transfer().unwrap().0.amount)
        .sum();
    let platform::TransferableOut::TransferOutput(change) = &mut b.outputs[0].output else {
        panic!()
    };
    change.amount = spent - fee + 1;
    let short = sign_as(
        platform::UnsignedTx::from(platform::BaseTx::new(b)),
        &vec![payer; t.base.inputs.len()],
    )
    .unwrap();
    let e = d.p_issue(&short).await.unwrap_err();
    assert!(
        e.contains("insufficient funds") && e.contains(&format!("needs {}", spent + 1)),
        "{e}"
    );

    // Nothing changed.
    assert_eq!(state(&d).await, before);
}

#[tokio::test]
async fn stakeable_locked_funds_stay_locked() {
    use avalanche_rpc::codec::secp256k1fx;
    let d = Devnet::start(common::options()).await;
    let key = &test_keys()[1];
    let utxos = d.p_utxos(key).await;
    let locked = utxos
        .iter()
        .find(|u| u.transfer().is_some_and(|(_, lock)| lock.is_some()))
        .expect("key 1's genesis lock");
    let (out, lock) = locked.transfer().unwrap();
    let (amount, lock) = (out.amount, lock.unwrap());
    let before = state(&d).await;
    let rules = &d.devnet.p.vm.rules;
    let spend = |marked: bool| {
        let ti = secp256k1fx::TransferInput::new(amount, secp256k1fx::Input::new(vec![0]));
        let input: platform::TransferableIn = if marked {
            platform::LockIn::new(lock, ti.into()).into()
        } else {
            ti.into()
        };
        let output = platform::TransferableOutput::new(
            rules.avax,
            secp256k1fx::TransferOutput::new(
                amount - AVAX,
                secp256k1fx::OutputOwners::new(0, 1, vec![key.address()]),
            )
            .into(),
        );
        let base = platform::Base::new(
            rules.network_id,
            Id::ZERO,
            vec![output],
            vec![platform::TransferableInput::new(
                locked.utxo.utxo_id.clone(),
                rules.avax,
                input,
            )],
            Vec::new(),
        );
        sign_as(
            platform::UnsignedTx::from(platform::BaseTx::new(base)),
            &[key],
        )
        .unwrap()
    };
    // Spent as if unlocked: refused.
    let e = d.p_issue(&spend(false)).await.unwrap_err();
    assert!(e.contains("without marking it locked"), "{e}");
    // Marked locked but paid out unlocked: the locked funds cannot become spendable.
    let e = d.p_issue(&spend(true)).await.unwrap_err();
    assert!(e.contains("insufficient funds"), "{e}");
    assert_eq!(state(&d).await, before);
}
