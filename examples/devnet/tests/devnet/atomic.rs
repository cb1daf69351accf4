//! AVAX moves between the X- and P-chains through shared memory: an export makes an atomic
//! UTXO that `getUTXOs` with `sourceChain` lists on the other chain, and an import spends it.

use crate::common::{self, Devnet, keychain, one, p_codec, x_codec};
use avalanche_devnet::context::sign;
use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_devnet::ledger::Chain;
use avalanche_devnet::pchain::{self, fee};
use avalanche_devnet::xchain::Utxo;
use avalanche_rpc::avm::{self as x_api, AvmClient};
use avalanche_rpc::platform::{self as p_api, PlatformClient};
use avalanche_rpc::transact::{p, x};
use avalanche_rpc::wire::{Address, Id};

#[tokio::test]
async fn avax_goes_from_x_to_p_and_back() {
    let d = Devnet::start(common::options()).await;
    let keys = test_keys();
    let key = &keys[2];
    let x_addr = Address::new(Some("X"), "local", *key.address().as_bytes()).unwrap();
    let p_addr = Address::new(Some("P"), "local", *key.address().as_bytes()).unwrap();
    let x = d.node.avm("X");
    let p = d.node.platform();
    let p_balance = |p: p_api::PlatformEndpoint<_>| {
        let a = p_addr.clone();
        async move {
            p.get_balance(p_api::GetBalanceParams::new().with_addresses(vec![a]))
                .await
                .unwrap()
                .unlocked
                .get()
        }
    };
    let (x0, p0) = (d.balance(&x_addr, "AVAX").await, p_balance(p.clone()).await);

    // X → P: export 100 AVAX.
    let avax = d.devnet.genesis.avax_asset_id;
    let exported = [x::output(avax, 100 * AVAX, one(key.address()))];
    let utxos = x_codec(&d.utxos(&x_addr).await);
    let built = x::export_tx(&d.context(), &utxos, &d.payer(key), Id::ZERO, &exported);
    let tx = sign(built, &keychain()).unwrap();
    let dv = d.devnet.clone();
    let bytes = tx.to_bytes().unwrap();
    tokio::task::spawn_blocking(move || dv.accept_now(Chain::X, bytes))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        d.balance(&x_addr, "AVAX").await,
        x0 - 100 * AVAX - d.devnet.x.vm.rules.tx_fee
    );
    // The P-chain sees it in shared memory, not among its own UTXOs.
    let atomic = p
        .get_utxos(p_api::GetUtxosParams::new(vec![p_addr.clone()]).with_source_chain("X"))
        .await
        .unwrap();
    assert_eq!(atomic.num_fetched.get(), 1);
    let atomic: Vec<pchain::Utxo> = atomic
        .utxos
        .iter()
        .map(|u| pchain::Utxo::decode(u.strip_checksum().unwrap()).unwrap())
        .collect();
    let atomic = p_codec(&atomic);
    assert_eq!(p_balance(p.clone()).await, p0);

    // P imports it, paying the gas fee from the import.
    let cx = d.context();
    let built = p::import_tx(
        &cx,
        &atomic,
        &[],
        &d.payer(key),
        cx.x_chain_id,
        &one(key.address()),
    );
    let import = sign(built, &keychain()).unwrap();
    let (platform_import, import_bytes) = (import.clone(), import.to_bytes().unwrap());
    let dv = d.devnet.clone();
    tokio::task::spawn_blocking(move || dv.accept_now(Chain::P, import_bytes))
        .await
        .unwrap()
        .unwrap();
    let avalanche_rpc::codec::platform::UnsignedTx::ImportTx(it) = &platform_import.unsigned else {
        panic!()
    };
    let burned = 100 * AVAX
        - it.base
            .outputs
            .iter()
            .map(|o| match &o.output {
                avalanche_rpc::codec::platform::TransferableOut::TransferOutput(t) => t.amount,
                _ => 0,
            })
            .sum::<u64>();
    let gas = fee::gas(&platform_import.unsigned).unwrap();
    assert!(burned >= gas, "the fee covers the gas: {burned} vs {gas}");
    assert_eq!(p_balance(p.clone()).await, p0 + 100 * AVAX - burned);
    let again = p
        .get_utxos(p_api::GetUtxosParams::new(vec![p_addr.clone()]).with_source_chain("X"))
        .await
        .unwrap();
    assert_eq!(again.num_fetched.get(), 0, "the atomic UTXO is spent");

    // P → X: export 40 AVAX, then import it on X.
    let p_utxos: Vec<pchain::Utxo> = p
        .get_utxos(p_api::GetUtxosParams::new(vec![p_addr.clone()]))
        .await
        .unwrap()
        .utxos
        .iter()
        .map(|u| pchain::Utxo::decode(u.strip_checksum().unwrap()).unwrap())
        .collect();
    let cx = d.context();
    let exported = [p::output(avax, 40 * AVAX, one(key.address()))];
    let built = p::export_tx(
        &cx,
        &p_codec(&p_utxos),
        &d.payer(key),
        cx.x_chain_id,
        &exported,
    );
    let export = sign(built, &keychain()).unwrap();
    let dv = d.devnet.clone();
    let bytes = export.to_bytes().unwrap();
    tokio::task::spawn_blocking(move || dv.accept_now(Chain::P, bytes))
        .await
        .unwrap()
        .unwrap();
    let atomic: Vec<Utxo> = x
        .get_utxos(x_api::GetUtxosParams::new(vec![x_addr.clone()]).with_source_chain("P"))
        .await
        .unwrap()
        .utxos
        .iter()
        .map(|u| Utxo::decode(u.strip_checksum().unwrap()).unwrap())
        .collect();
    assert_eq!(atomic.len(), 1);
    let before = d.balance(&x_addr, "AVAX").await;
    let built = x::import_tx(
        &d.context(),
        &x_codec(&atomic),
        &[],
        &d.payer(key),
        Id::ZERO,
        &one(key.address()),
    );
    let import = sign(built, &keychain()).unwrap();
    let dv = d.devnet.clone();
    let bytes = import.to_bytes().unwrap();
    tokio::task::spawn_blocking(move || dv.accept_now(Chain::X, bytes))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        d.balance(&x_addr, "AVAX").await,
        before + 40 * AVAX - d.devnet.x.vm.rules.tx_fee
    );
    // Importing the same UTXO twice is refused: in the node's words, shared memory's
    // `not found`; the detail names the imported input.
    let e = x
        .issue_tx(x_api::IssueTxParams::new(
            avalanche_rpc::wire::HexBytes::with_checksum(&import.to_bytes().unwrap()),
        ))
        .await
        .map(|_| ())
        .map_err(common::said)
        .unwrap_err();
    assert!(
        e.contains("JSON-RPC error -32000: not found") && e.contains("importedInputs[0]"),
        "{e}"
    );
}
