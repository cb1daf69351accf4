//! The C-chain's atomic side: AVAX exported from the X-chain is imported on the C-chain (its
//! EVM address credited in wei, read back with `eth_getBalance`), exported from there to the
//! P-chain (the account debited, its nonce counted) and imported on the P-chain; and each way
//! an atomic transaction is refused, with the words naming what was wrong. The C-chain's
//! transactions are built by hand with the codec and signed with the test's keys.

use crate::common::{self, Devnet, keychain, one, p_codec, said, x_codec};
use avalanche_devnet::cchain::{X2C, evm_address};
use avalanche_devnet::context::sign;
use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_devnet::ledger::Chain;
use avalanche_devnet::pchain;
use avalanche_rpc::avax::{self as c_api, AtomicTxStatus, AvaxClient};
use avalanche_rpc::avm::AvmClient;
use avalanche_rpc::codec::{atomic, secp256k1fx};
use avalanche_rpc::eth::{self as eth_api, EthClient};
use avalanche_rpc::index::IndexClient;
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::platform::{self as p_api, PlatformClient};
use avalanche_rpc::rpc::Transport;
use avalanche_rpc::transact::{p, x};
use avalanche_rpc::wire::{Address, EvmAddress, HexBytes, Id};
use std::time::Duration;

/// The devnet's base fee: 1 wei per gas, the node's on a quiet local network since Fortuna.
const BASE_FEE: u128 = 1;

/// Signs an unsigned atomic transaction: one credential per input, each with the signatures
/// of `signers[k]`.
fn signed(unsigned: atomic::UnsignedTx, signers: &[Vec<&PrivateKey>]) -> atomic::Tx {
    let bytes = unsigned.to_bytes().unwrap();
    let hash = *Id::from_sha256(&bytes).as_bytes();
    let credentials = signers
        .iter()
        .map(|keys| {
            atomic::Credential::Credential(secp256k1fx::Credential::new(
                keys.iter().map(|k| k.sign_hash(&hash)).collect(),
            ))
        })
        .collect();
    atomic::Tx::new(unsigned, credentials)
}

/// The fee of an atomic transaction whose unsigned bytes are `unsigned` long, with `sigs`
/// signatures: (bytes + 1,000 per signature + 10,000) gas at the base fee, in nAVAX rounded
/// up (the wallet's own arithmetic, `transact::c::fee`).
fn fee(unsigned: &atomic::UnsignedTx, sigs: u64) -> u64 {
    let len = unsigned.to_bytes().unwrap().len() as u64;
    avalanche_rpc::transact::c::fee(len + 1_000 * sigs + 10_000, BASE_FEE).unwrap()
}

struct C<'a> {
    d: &'a Devnet,
}

impl C<'_> {
    fn avax(&self) -> c_api::AvaxEndpoint {
        self.d.node.avax("C")
    }

    fn eth(&self) -> eth_api::EthEndpoint {
        self.d.node.eth("C")
    }

    async fn balance(&self, a: [u8; 20]) -> u128 {
        self.eth()
            .get_balance(eth_api::GetBalanceParams::new(EvmAddress::new(a), "latest"))
            .await
            .unwrap()
            .get()
    }

    async fn nonce(&self, a: [u8; 20]) -> u64 {
        u64::try_from(
            self.eth()
                .get_transaction_count(eth_api::GetTransactionCountParams::new(
                    EvmAddress::new(a),
                    "latest",
                ))
                .await
                .unwrap(),
        )
        .unwrap()
    }

    /// Issues through `avax.issueTx`: the ID, or the refusal's words and detail.
    async fn issue(&self, tx: &atomic::Tx) -> Result<Id, String> {
        self.avax()
            .issue_tx(c_api::IssueTxParams::new(HexBytes::with_checksum(
                &tx.to_bytes().unwrap(),
            )))
            .await
            .map(|r| r.tx_id)
            .map_err(said)
    }

    /// Issues and waits until `avax.getAtomicTxStatus` says Accepted; the block's height.
    async fn accept(&self, tx: &atomic::Tx) -> u64 {
        let id = self.issue(tx).await.unwrap();
        assert_eq!(id, tx.id().unwrap());
        self.wait(&id).await
    }

    /// Waits until `avax.getAtomicTxStatus` says Accepted; the block's height.
    async fn wait(&self, id: &Id) -> u64 {
        let id = *id;
        for _ in 0..200 {
            let s = self
                .avax()
                .get_atomic_tx_status(c_api::GetAtomicTxStatusParams::new(id))
                .await
                .unwrap();
            match s.status {
                AtomicTxStatus::Accepted => return s.block_height.unwrap().get(),
                AtomicTxStatus::Processing => tokio::time::sleep(Duration::from_millis(10)).await,
                other => panic!("tx {id} is {other:?}"),
            }
        }
        panic!("tx {id} was not accepted within 2 s");
    }

    /// The UTXOs `source` exported to the C-chain for `owner`.
    async fn utxos(&self, owner: &PrivateKey, source: &str) -> Vec<atomic::Utxo> {
        let a = Address::new(Some("C"), "local", *owner.address().as_bytes()).unwrap();
        self.avax()
            .get_utxos(c_api::GetUtxosParams::new(vec![a], source))
            .await
            .unwrap()
            .utxos
            .iter()
            .map(|u| atomic::Utxo::from_bytes(u.strip_checksum().unwrap()).unwrap())
            .collect()
    }
}

/// X exports `amount` to the C-chain for `key`; accepted.
async fn export_x_to_c(d: &Devnet, key: &PrivateKey, amount: u64) {
    let x_addr = d.x_address(key.address());
    let avax = d.devnet.genesis.avax_asset_id;
    let exported = [x::output(avax, amount, one(key.address()))];
    let utxos = x_codec(&d.utxos(&x_addr).await);
    let built = x::export_tx(
        &d.context(),
        &utxos,
        &d.payer(key),
        d.devnet.genesis.c_chain_id,
        &exported,
    );
    let bytes = sign(built, &keychain()).unwrap().to_bytes().unwrap();
    let dv = d.devnet.clone();
    tokio::task::spawn_blocking(move || dv.accept_now(Chain::X, bytes))
        .await
        .unwrap()
        .unwrap();
}

/// An import of `utxos` (exported by the X-chain) to `to`, `out` nAVAX credited (asset
/// `asset`).
fn import_tx(
    d: &Devnet,
    utxos: &[atomic::Utxo],
    to: [u8; 20],
    out: u64,
    asset: Id,
) -> atomic::UnsignedTx {
    import_from(d, d.devnet.genesis.x_chain_id, utxos, to, out, asset)
}

/// An import of `utxos` exported by `source`.
fn import_from(
    d: &Devnet,
    source: Id,
    utxos: &[atomic::Utxo],
    to: [u8; 20],
    out: u64,
    asset: Id,
) -> atomic::UnsignedTx {
    let g = &d.devnet.genesis;
    let mut inputs: Vec<atomic::TransferableInput> = utxos
        .iter()
        .map(|u| {
            let atomic::UtxoOutput::TransferOutput(o) = &u.output else {
                panic!("a TransferOutput")
            };
            atomic::TransferableInput::new(
                u.utxo_id.clone(),
                u.asset_id,
                atomic::TransferableIn::TransferInput(secp256k1fx::TransferInput::new(
                    o.amount,
                    secp256k1fx::Input::new(vec![0]),
                )),
            )
        })
        .collect();
    inputs.sort_by_key(|i| (i.utxo_id.tx_id, i.utxo_id.output_index));
    atomic::UnsignedTx::UnsignedImportTx(Box::new(atomic::UnsignedImportTx::new(
        g.network_id,
        g.c_chain_id,
        source,
        inputs,
        vec![atomic::EvmOutput::new(EvmAddress::new(to), out, asset)],
    )))
}

/// An export of `amount` (plus `fee`) from `from` at `nonce` to `to` on `chain`.
fn export_tx(
    d: &Devnet,
    from: [u8; 20],
    nonce: u64,
    amount: u64,
    fee: u64,
    chain: Id,
    to: &PrivateKey,
) -> atomic::UnsignedTx {
    let g = &d.devnet.genesis;
    atomic::UnsignedTx::UnsignedExportTx(Box::new(atomic::UnsignedExportTx::new(
        g.network_id,
        g.c_chain_id,
        chain,
        vec![atomic::EvmInput::new(
            EvmAddress::new(from),
            amount + fee,
            g.avax_asset_id,
            nonce,
        )],
        vec![atomic::TransferableOutput::new(
            g.avax_asset_id,
            atomic::TransferableOut::TransferOutput(secp256k1fx::TransferOutput::new(
                amount,
                one(to.address()),
            )),
        )],
    )))
}

/// An export's fee: its length does not depend on the amounts, so it is measured on one.
fn export_fee(d: &Devnet, from: [u8; 20], chain: Id, to: &PrivateKey) -> u64 {
    fee(&export_tx(d, from, 0, 1, 0, chain, to), 1)
}

#[tokio::test]
async fn avax_goes_from_x_to_c_and_from_c_to_p_each_amount_exact() {
    let d = Devnet::start(common::options()).await;
    let c = C { d: &d };
    let keys = test_keys();
    let key = &keys[3];
    let evm = evm_address(&key.public_key());
    let avax = d.devnet.genesis.avax_asset_id;

    // The chain as a wallet sees it first.
    let eth = c.eth();
    assert_eq!(eth.chain_id(Default::default()).await.unwrap().get(), 43112);
    assert_eq!(
        eth.base_fee(Default::default()).await.unwrap().get(),
        BASE_FEE
    );
    let h0 = u64::try_from(eth.block_number(Default::default()).await.unwrap()).unwrap();
    assert_eq!(c.balance(evm).await, 0, "a key the C genesis does not fund");
    assert_eq!(
        c.balance(avalanche_devnet::cchain::EWOQ_EVM).await,
        50_000_000 * u128::from(AVAX) * X2C,
        "the ewoq key's C balance is the local genesis's"
    );

    // X → C: 100 AVAX into the C-chain's shared memory, listed by avax.getUTXOs.
    export_x_to_c(&d, key, 100 * AVAX).await;
    let utxos = c.utxos(key, "X").await;
    assert_eq!(utxos.len(), 1);
    assert!(c.utxos(key, "P").await.is_empty(), "nothing came from P");

    // The import credits the output's address: (100 AVAX − fee) × 10^9 wei.
    let probe = import_tx(&d, &utxos, evm, 1, avax);
    let import_fee = fee(&probe, 1);
    let import = signed(
        import_tx(&d, &utxos, evm, 100 * AVAX - import_fee, avax),
        &[vec![key]],
    );
    let height = c.accept(&import).await;
    assert_eq!(height, h0 + 1);
    assert_eq!(
        eth.block_number(Default::default()).await.unwrap().get(),
        u128::from(h0 + 1)
    );
    let credited = u128::from(100 * AVAX - import_fee) * X2C;
    assert_eq!(c.balance(evm).await, credited);
    assert_eq!(
        c.nonce(evm).await,
        0,
        "an import sends nothing from the account"
    );
    assert!(c.utxos(key, "X").await.is_empty(), "the UTXO is spent");
    let got = c
        .avax()
        .get_atomic_tx(c_api::GetAtomicTxParams::new(import.id().unwrap()))
        .await
        .unwrap();
    assert_eq!(got.tx.strip_checksum().unwrap(), import.to_bytes().unwrap());
    assert_eq!(got.block_height.map(|h| h.get()), Some(height));

    // C → P: 40 AVAX, the account debited 40 AVAX and the fee, its nonce now 1.
    let p_chain = Id::ZERO;
    let export_fee = export_fee(&d, evm, p_chain, key);
    let export = signed(
        export_tx(&d, evm, 0, 40 * AVAX, export_fee, p_chain, key),
        &[vec![key]],
    );
    c.accept(&export).await;
    assert_eq!(
        c.balance(evm).await,
        credited - u128::from(40 * AVAX + export_fee) * X2C
    );
    assert_eq!(c.nonce(evm).await, 1);

    // The P-chain lists it from C and imports it.
    let p_addr = Address::new(Some("P"), "local", *key.address().as_bytes()).unwrap();
    let pc = d.node.platform();
    let listed = pc
        .get_utxos(p_api::GetUtxosParams::new(vec![p_addr.clone()]).with_source_chain("C"))
        .await
        .unwrap();
    assert_eq!(listed.num_fetched.get(), 1);
    let atomic: Vec<pchain::Utxo> = listed
        .utxos
        .iter()
        .map(|u| pchain::Utxo::decode(u.strip_checksum().unwrap()).unwrap())
        .collect();
    let p_balance = |pc: p_api::PlatformEndpoint<_>| {
        let a = p_addr.clone();
        async move {
            pc.get_balance(p_api::GetBalanceParams::new().with_addresses(vec![a]))
                .await
                .unwrap()
                .unlocked
                .get()
        }
    };
    let p0 = p_balance(pc.clone()).await;
    let cx = d.context();
    let built = p::import_tx(
        &cx,
        &p_codec(&atomic),
        &[],
        &d.payer(key),
        d.devnet.genesis.c_chain_id,
        &one(key.address()),
    );
    let p_import = sign(built, &keychain()).unwrap();
    let bytes = p_import.to_bytes().unwrap();
    let dv = d.devnet.clone();
    tokio::task::spawn_blocking(move || dv.accept_now(Chain::P, bytes))
        .await
        .unwrap()
        .unwrap();
    let avalanche_rpc::codec::platform::UnsignedTx::ImportTx(it) = &p_import.unsigned else {
        panic!("an ImportTx")
    };
    let kept: u64 = it
        .base
        .outputs
        .iter()
        .map(|o| match &o.output {
            avalanche_rpc::codec::platform::TransferableOut::TransferOutput(t) => t.amount,
            _ => 0,
        })
        .sum();
    let burned = 40 * AVAX - kept;
    assert!(
        burned >= pchain::fee::gas(&p_import.unsigned).unwrap(),
        "the P fee covers its gas"
    );
    assert_eq!(p_balance(pc.clone()).await, p0 + 40 * AVAX - burned);
    let again = pc
        .get_utxos(p_api::GetUtxosParams::new(vec![p_addr]).with_source_chain("C"))
        .await
        .unwrap();
    assert_eq!(again.num_fetched.get(), 0, "the P-chain spent it");
}

#[tokio::test]
async fn atomic_transactions_are_refused_naming_what_is_wrong() {
    let d = Devnet::start(common::options()).await;
    let c = C { d: &d };
    let keys = test_keys();
    let (ewoq, key, other) = (&keys[0], &keys[3], &keys[4]);
    let ewoq_evm = evm_address(&ewoq.public_key());
    let avax = d.devnet.genesis.avax_asset_id;
    let p_chain = Id::ZERO;
    let fee = export_fee(&d, ewoq_evm, p_chain, key);
    let refused = |r: Result<Id, String>, words: &str| {
        let e = r.expect_err("refused");
        assert!(e.contains(words), "expected `{words}` in: {e}");
        e
    };

    // A wrong nonce: the account's next is 0.
    let e = refused(
        c.issue(&signed(
            export_tx(&d, ewoq_evm, 5, AVAX, fee, p_chain, key),
            &[vec![ewoq]],
        ))
        .await,
        "invalid nonce",
    );
    assert!(
        e.contains("`unsignedTx.inputs[0].nonce` is 5") && e.contains("is 0"),
        "{e}"
    );

    // More than the account holds: `other` has nothing on C.
    let other_evm = evm_address(&other.public_key());
    let e = refused(
        c.issue(&signed(
            export_tx(&d, other_evm, 0, AVAX, fee, p_chain, key),
            &[vec![other]],
        ))
        .await,
        "insufficient funds",
    );
    assert!(e.contains("which holds 0 wei"), "{e}");

    // A signature by another key than the input's address.
    let e = refused(
        c.issue(&signed(
            export_tx(&d, ewoq_evm, 0, AVAX, fee, p_chain, key),
            &[vec![other]],
        ))
        .await,
        "signature doesn't match public key",
    );
    assert!(
        e.contains(&format!("{}", EvmAddress::new(other_evm))),
        "{e}"
    );

    // Two exports of one nonce: the second conflicts with the first while it waits, as two
    // spends of one UTXO do (coreth's pseudo-input per address and nonce). The block builder
    // is held so that the first is still pending.
    {
        let (release, hold) = std::sync::mpsc::channel::<()>();
        let (held, holding) = std::sync::mpsc::channel::<()>();
        let dv = d.devnet.clone();
        let builder = std::thread::spawn(move || {
            let _no_blocks = dv.engine.one_at_a_time();
            held.send(()).unwrap();
            let _ = hold.recv();
        });
        holding.recv().unwrap();
        let first = signed(
            export_tx(&d, ewoq_evm, 0, AVAX, fee, p_chain, key),
            &[vec![ewoq]],
        );
        let second = signed(
            export_tx(&d, ewoq_evm, 0, 2 * AVAX, fee, p_chain, key),
            &[vec![ewoq]],
        );
        let first_id = c.issue(&first).await.unwrap();
        let e = refused(c.issue(&second).await, "tx conflicts with other tx");
        assert!(
            e.contains("uses nonce 0 of 0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc")
                && e.contains(&first_id.to_string()),
            "{e}"
        );
        // While it waits: Processing, its bytes without a height; the refused one Dropped.
        let status = |id: Id| {
            let api = c.avax();
            async move {
                api.get_atomic_tx_status(c_api::GetAtomicTxStatusParams::new(id))
                    .await
                    .unwrap()
            }
        };
        let s = status(first_id).await;
        assert_eq!(
            (s.status, s.block_height),
            (AtomicTxStatus::Processing, None)
        );
        let waiting = c
            .avax()
            .get_atomic_tx(c_api::GetAtomicTxParams::new(first_id))
            .await
            .unwrap();
        assert_eq!(
            waiting.tx.strip_checksum().unwrap(),
            first.to_bytes().unwrap()
        );
        assert_eq!(waiting.block_height, None);
        assert_eq!(
            status(second.id().unwrap()).await.status,
            AtomicTxStatus::Dropped
        );
        assert_eq!(
            status(Id::new([7; 32])).await.status,
            AtomicTxStatus::Unknown
        );
        release.send(()).unwrap();
        builder.join().unwrap();
        c.wait(&first_id).await;
    }
    assert_eq!(c.nonce(ewoq_evm).await, 1);
    let fee = export_fee(&d, ewoq_evm, p_chain, key);

    // A fee short by one nAVAX.
    refused(
        c.issue(&signed(
            export_tx(&d, ewoq_evm, 1, AVAX, fee - 1, p_chain, key),
            &[vec![ewoq]],
        ))
        .await,
        "export tx flow check failed due to: insufficient funds",
    );
    // The nonce 0 again, now used (another amount: the refused second one above is
    // remembered as dropped under its ID).
    let e = refused(
        c.issue(&signed(
            export_tx(&d, ewoq_evm, 0, 3 * AVAX, fee, p_chain, key),
            &[vec![ewoq]],
        ))
        .await,
        "invalid nonce",
    );
    assert!(
        e.contains("the next nonce of 0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc is 1"),
        "{e}"
    );

    // Imports: a UTXO from X, then a non-AVAX output, a bad signature, a spent UTXO.
    export_x_to_c(&d, key, 10 * AVAX).await;
    let utxos = c.utxos(key, "X").await;
    let to = evm_address(&key.public_key());
    let import_fee = fee_of_import(&d, &utxos, to);
    let mnt = d.devnet.genesis.assets[1].id;
    let e = refused(
        c.issue(&signed(
            import_tx(&d, &utxos, to, 10 * AVAX - import_fee, mnt),
            &[vec![key]],
        ))
        .await,
        "import output cannot contain non-AVAX in Banff",
    );
    assert!(e.contains("`unsignedTx.outputs[0].assetID`"), "{e}");
    let e = refused(
        c.issue(&signed(
            import_tx(&d, &utxos, to, 10 * AVAX - import_fee, avax),
            &[vec![other]],
        ))
        .await,
        "import tx transfer failed verification",
    );
    assert!(e.contains("wrong signature"), "{e}");
    let good = signed(
        import_tx(&d, &utxos, to, 10 * AVAX - import_fee, avax),
        &[vec![key]],
    );
    c.accept(&good).await;
    // The same UTXO again, in another transaction (one nAVAX less credited).
    let e = refused(
        c.issue(&signed(
            import_tx(&d, &utxos, to, 10 * AVAX - import_fee - 1, avax),
            &[vec![key]],
        ))
        .await,
        "failed to fetch import UTXOs",
    );
    assert!(e.contains("already imported"), "{e}");

    // eth_ refuses a block the devnet does not keep, and takes its params as an array only in
    // the declared order.
    let e = c
        .eth()
        .get_balance(eth_api::GetBalanceParams::new(EvmAddress::new(to), "0x0"))
        .await
        .map_err(said)
        .expect_err("an old block");
    assert!(e.contains("keeps only the C-chain's latest state"), "{e}");
}

fn fee_of_import(d: &Devnet, utxos: &[atomic::Utxo], to: [u8; 20]) -> u64 {
    fee(
        &import_tx(d, utxos, to, 1, d.devnet.genesis.avax_asset_id),
        1,
    )
}

#[tokio::test]
async fn eth_calls_travel_as_positional_arrays() {
    let d = Devnet::start(common::options()).await;
    let d = &d;
    let post = |body: serde_json::Value| async move {
        let reply = d
            .node
            .transport()
            .post("/ext/bc/C/rpc", body.to_string().into_bytes())
            .await
            .unwrap();
        serde_json::from_slice::<serde_json::Value>(&reply.body).unwrap()
    };
    let ewoq = "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc";
    let r = post(serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": [ewoq, "latest"]})).await;
    assert_eq!(r["result"], "0x295be96e64066972000000", "{r}");
    let r =
        post(serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": []}))
            .await;
    assert_eq!(r["result"], "0xa868", "{r}");
    // The block left out: it is required.
    let r = post(serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "eth_getBalance", "params": [ewoq]})).await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(
        r["error"]["message"].as_str().unwrap().contains("block"),
        "{r}"
    );
    // One too many.
    let r = post(serde_json::json!({"jsonrpc": "2.0", "id": 4, "method": "eth_getBalance", "params": [ewoq, "latest", 1]})).await;
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("takes at most 2 positional params"),
        "{r}"
    );
}

#[tokio::test]
async fn avax_goes_from_p_to_c_and_from_c_to_x_each_amount_exact() {
    let d = Devnet::start(common::options()).await;
    let c = C { d: &d };
    let keys = test_keys();
    let key = &keys[2];
    let evm = evm_address(&key.public_key());
    let g = &d.devnet.genesis;
    let (avax, c_chain) = (g.avax_asset_id, g.c_chain_id);

    // P → C: 30 AVAX.
    let p_utxos = d.p_utxos(key).await;
    let cx = d.context();
    let built = p::export_tx(
        &cx,
        &p_codec(&p_utxos),
        &d.payer(key),
        c_chain,
        &[p::output(avax, 30 * AVAX, one(key.address()))],
    );
    let bytes = sign(built, &keychain()).unwrap().to_bytes().unwrap();
    let dv = d.devnet.clone();
    tokio::task::spawn_blocking(move || dv.accept_now(Chain::P, bytes))
        .await
        .unwrap()
        .unwrap();
    let utxos = c.utxos(key, "P").await;
    assert_eq!(utxos.len(), 1);
    assert!(c.utxos(key, "X").await.is_empty());

    // Imported on C from P: a UTXO from P named as coming from X is not found there.
    let import_fee = fee(&import_from(&d, Id::ZERO, &utxos, evm, 1, avax), 1);
    let wrong_source = signed(
        import_tx(&d, &utxos, evm, 30 * AVAX - import_fee, avax),
        &[vec![key]],
    );
    let e = c.issue(&wrong_source).await.unwrap_err();
    assert!(e.contains("failed to fetch import UTXOs"), "{e}");
    let import = signed(
        import_from(&d, Id::ZERO, &utxos, evm, 30 * AVAX - import_fee, avax),
        &[vec![key]],
    );
    let height = c.accept(&import).await;
    let credited = u128::from(30 * AVAX - import_fee) * X2C;
    assert_eq!(c.balance(evm).await, credited);

    // The C block is indexed, wrapped by the proposervm.
    let last = d
        .node
        .index("C", "block")
        .get_last_accepted(avalanche_rpc::index::GetLastAcceptedParams::new())
        .await
        .unwrap();
    assert_eq!(last.index.get(), height - 1, "block 1 is the index's first");

    // C → X: 12 AVAX; then imported on X from C.
    let x_chain = g.x_chain_id;
    let export_fee = export_fee(&d, evm, x_chain, key);
    let export = signed(
        export_tx(&d, evm, 0, 12 * AVAX, export_fee, x_chain, key),
        &[vec![key]],
    );
    c.accept(&export).await;
    assert_eq!(
        c.balance(evm).await,
        credited - u128::from(12 * AVAX + export_fee) * X2C
    );
    assert_eq!(c.nonce(evm).await, 1);
    let x_addr = d.x_address(key.address());
    let atomic: Vec<avalanche_devnet::xchain::Utxo> = d
        .node
        .avm("X")
        .get_utxos(
            avalanche_rpc::avm::GetUtxosParams::new(vec![x_addr.clone()]).with_source_chain("C"),
        )
        .await
        .unwrap()
        .utxos
        .iter()
        .map(|u| avalanche_devnet::xchain::Utxo::decode(u.strip_checksum().unwrap()).unwrap())
        .collect();
    assert_eq!(atomic.len(), 1);
    let before = d.balance(&x_addr, "AVAX").await;
    let built = x::import_tx(
        &d.context(),
        &x_codec(&atomic),
        &[],
        &d.payer(key),
        c_chain,
        &one(key.address()),
    );
    let bytes = sign(built, &keychain()).unwrap().to_bytes().unwrap();
    let dv = d.devnet.clone();
    tokio::task::spawn_blocking(move || dv.accept_now(Chain::X, bytes))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        d.balance(&x_addr, "AVAX").await,
        before + 12 * AVAX - d.devnet.x.vm.rules.tx_fee
    );
}

#[tokio::test]
async fn c_utxo_streams_page_through_shared_memory() {
    let d = Devnet::start(common::options()).await;
    let c = C { d: &d };
    let keys = test_keys();
    let key = &keys[1];
    for amount in [3 * AVAX, 4 * AVAX, 5 * AVAX] {
        export_x_to_c(&d, key, amount).await;
    }
    let a = Address::new(Some("C"), "local", *key.address().as_bytes()).unwrap();
    // One page of 3, then pages of 1 and of 2: the same UTXOs, each once.
    let all = c.utxos(key, "X").await;
    assert_eq!(all.len(), 3);
    for size in [1u32, 2] {
        let params = c_api::GetUtxosParams::new(vec![a.clone()], "X").with_limit(size);
        let paged = avalanche_rpc::rpc::paging::collect(c.avax().get_utxos_stream(params))
            .await
            .unwrap();
        // The stream reads each UTXO from its bytes.
        assert_eq!(paged, all, "pages of {size}");
    }
    // Without a source chain: coreth's words, naming the member.
    let e = c
        .avax()
        .get_utxos(c_api::GetUtxosParams::new(vec![a], ""))
        .await
        .map_err(said)
        .unwrap_err();
    assert!(
        e.contains("no source chain provided") && e.contains("sourceChain"),
        "{e}"
    );
}
