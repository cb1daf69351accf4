//! Each X-chain kind verified over UTXOs in memory, without HTTP or a store: transactions
//! built by `avalanche_rpc::transact`'s builders, at least one refusal (its exact text) and
//! one acceptance per kind.

use crate::genesis::test_keys;
use crate::refusal::Refusal;
use crate::xchain::Utxo;
use crate::xchain::verify::verify;
use crate::xchain::vocab::{Effects, Rules};
use avalanche_rpc::codec::{avax, avm, nftfx, propertyfx, secp256k1fx};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::transact::x::{self as build, Op};
use avalanche_rpc::transact::{BuildError, Context, FeeState, Keychain, Payer};
use avalanche_rpc::wire::{Id, ShortId};
use std::collections::BTreeMap;

const NOW: u64 = 1_700_000_000;
const AVAX: u64 = 1_000_000_000;
const FEE: u64 = 1_000_000;

fn rules() -> Rules {
    Rules {
        network_id: 12345,
        chain_id: Id::new([3; 32]),
        c_chain: Id::new([4; 32]),
        avax: Id::new([1; 32]),
        tx_fee: FEE,
        create_asset_tx_fee: FEE,
    }
}

/// The test chain's context.
fn context() -> Context {
    let r = rules();
    let p_fee = FeeState {
        capacity: 0,
        excess: 0,
        price: 1,
    };
    crate::context::new(r.network_id, (r.chain_id, Id::new([4; 32])), r.avax, p_fee)
}

fn owners(a: ShortId) -> secp256k1fx::OutputOwners {
    secp256k1fx::OutputOwners::new(0, 1, vec![a])
}

fn utxo(tx: u8, asset: Id, output: avm::UtxoOutput) -> Utxo {
    Utxo::new(avm::Utxo::new(
        avax::UtxoId::new(Id::new([tx; 32]), 0),
        asset,
        output,
    ))
}

fn avax_utxo(tx: u8, amount: u64, to: ShortId) -> Utxo {
    let out = secp256k1fx::TransferOutput::new(amount, owners(to));
    utxo(
        tx,
        rules().avax,
        avm::UtxoOutput::Secp256k1fxTransferOutput(out),
    )
}

/// The UTXO set and shared memory in memory, and a funded key.
struct World {
    utxos: BTreeMap<Id, Utxo>,
    atomic: BTreeMap<Id, Utxo>,
    key: PrivateKey,
    other: PrivateKey,
}

impl World {
    fn funded(amount: u64) -> World {
        let keys = test_keys();
        let mut w = World {
            utxos: BTreeMap::new(),
            atomic: BTreeMap::new(),
            key: keys[0].clone(),
            other: keys[1].clone(),
        };
        w.put(avax_utxo(0xa0, amount, w.key.address()));
        w
    }

    fn put(&mut self, u: Utxo) {
        self.utxos.insert(u.id, u);
    }

    fn funds(&self) -> Vec<avm::Utxo> {
        self.utxos.values().map(|u| u.utxo.clone()).collect()
    }

    /// The key pays at `NOW`.
    fn payer(&self) -> Payer {
        Payer::new(vec![self.key.address()], NOW)
    }

    /// A built tx signed by the key.
    fn signed(&self, built: Result<build::Unsigned, BuildError>) -> avm::Tx {
        crate::context::sign(built, &Keychain::from_keys([self.key.clone()])).unwrap()
    }

    fn verify(&self, tx: &avm::Tx) -> Result<Effects, Refusal> {
        let id = Id::from_sha256(&tx.to_bytes().unwrap());
        verify(
            &rules(),
            tx,
            id,
            NOW,
            &mut |u| Ok(self.utxos.get(u).cloned()),
            &mut |u| Ok(self.atomic.get(u).cloned()),
        )
        .map_err(|e| e.refusal().expect("the fake state never fails"))
    }

    fn refusal(&self, tx: &avm::Tx) -> String {
        self.verify(tx).expect_err("refused").detail().to_string()
    }
}

/// `tx` signed again by `signers`, its unsigned part edited by `edit`.
fn resigned(
    tx: &avm::Tx,
    signers: &[&PrivateKey],
    edit: impl FnOnce(&mut avm::UnsignedTx),
) -> avm::Tx {
    let mut unsigned = tx.unsigned.clone();
    edit(&mut unsigned);
    crate::context::sign_as(unsigned, signers).unwrap()
}

#[test]
fn base_tx_accepted_then_one_navax_short_or_a_missing_utxo_refused() {
    let mut w = World::funded(10 * AVAX);
    let paid = [build::output(rules().avax, AVAX, owners(w.other.address()))];
    let me = w.key.address();
    let tx = w.signed(build::base_tx(&context(), &w.funds(), &w.payer(), &paid));
    let fx = w.verify(&tx).unwrap();
    assert_eq!((fx.consumed.len(), fx.produced.len()), (1, 2));
    assert!(
        fx.touched
            .contains(&(*w.other.address().as_bytes(), rules().avax))
    );
    let key = w.key.clone();
    let short = resigned(&tx, &[&key], |u| {
        let avm::UnsignedTx::BaseTx(t) = u else {
            unreachable!()
        };
        for o in &mut t.base.outputs {
            let avm::TransferableOut::TransferOutput(t) = &mut o.output else {
                unreachable!()
            };
            if t.owners.addresses == [me] {
                t.amount += 1;
            }
        }
    });
    assert_eq!(
        w.refusal(&short),
        format!(
            "insufficient funds of asset {}: the inputs hold {}, the transaction needs {} (outputs plus the fee of {FEE} nAVAX)",
            rules().avax,
            10 * AVAX,
            10 * AVAX + 1
        )
    );
    let spent = w.utxos.keys().next().copied().unwrap();
    w.utxos.clear();
    assert_eq!(
        w.refusal(&tx),
        format!(
            "`unsignedTx.inputs[0]` spends output 0 of tx {}, which is not an unspent output of this chain (UTXO {spent})",
            Id::new([0xa0; 32])
        )
    );
}

#[test]
fn create_asset_tx_accepted_then_refused_with_an_output_of_another_fx() {
    let w = World::funded(10 * AVAX);
    let me = w.key.address();
    let state = avm::InitialState::new(
        0,
        vec![
            secp256k1fx::TransferOutput::new(1_000, owners(me)).into(),
            secp256k1fx::MintOutput::new(owners(me)).into(),
        ],
    );
    let tx = w.signed(build::create_asset_tx(
        &context(),
        &w.funds(),
        &w.payer(),
        ("Token", "TOK", 2),
        vec![state],
    ));
    let fx = w.verify(&tx).unwrap();
    let id = Id::from_sha256(&tx.to_bytes().unwrap());
    assert_eq!(fx.new_asset, Some(id));
    // The change, the holder's 1,000 and the minting right.
    assert_eq!(fx.produced.len(), 3);
    // A propertyfx right in an nftfx state.
    let state = avm::InitialState::new(1, vec![propertyfx::MintOutput::new(owners(me)).into()]);
    let tx = w.signed(build::create_asset_tx(
        &context(),
        &w.funds(),
        &w.payer(),
        ("P", "P", 0),
        vec![state],
    ));
    assert_eq!(
        w.refusal(&tx),
        "`unsignedTx.initialStates[0].outputs[0]` belongs to fx 2, not to the state's fx 1"
    );
}

#[test]
fn operation_tx_accepted_then_refused_minting_another_group() {
    let mut w = World::funded(10 * AVAX);
    let funds = w.funds();
    let me = w.key.address();
    let asset = Id::new([0x70; 32]);
    let right = utxo(
        0xb0,
        asset,
        avm::UtxoOutput::Secp256k1fxMintOutput(secp256k1fx::MintOutput::new(owners(me))),
    );
    w.put(right.clone());
    let mint = Op::mint(&right.utxo, &w.payer(), 500, owners(me)).unwrap();
    let tx = w.signed(build::operation_tx(
        &context(),
        &funds,
        &w.payer(),
        vec![mint],
    ));
    let fx = w.verify(&tx).unwrap();
    assert!(fx.consumed.contains(&right.id));
    assert!(fx.produced.iter().any(|u| u.amount() == Some(500)));

    let nft = utxo(
        0xb1,
        asset,
        avm::UtxoOutput::NftfxMintOutput(nftfx::MintOutput::new(0, owners(me))),
    );
    w.put(nft.clone());
    // The builder mints the right's group; the operation is then edited to mint another.
    let mut op = Op::nft_mint(&nft.utxo, &w.payer(), b"x", vec![owners(me)]).unwrap();
    let avm::FxOperation::NftfxMintOperation(m) = &mut op.operation.op else {
        unreachable!()
    };
    m.group_id = 1;
    let tx = w.signed(build::operation_tx(
        &context(),
        &funds,
        &w.payer(),
        vec![op],
    ));
    assert_eq!(
        w.refusal(&tx),
        "`unsignedTx.operations[0].groupID` is 1, but the minting right is for group 0"
    );
}

#[test]
fn import_tx_accepted_then_refused_from_another_chain() {
    let mut w = World::funded(0);
    let me = w.key.address();
    let atomic = avax_utxo(0xa1, 5 * AVAX, me);
    w.atomic.insert(atomic.id, atomic.clone());
    let atomic = [atomic.utxo];
    let tx = w.signed(build::import_tx(
        &context(),
        &atomic,
        &[],
        &w.payer(),
        Id::ZERO,
        &owners(me),
    ));
    let fx = w.verify(&tx).unwrap();
    assert_eq!((fx.imported.len(), fx.consumed.len()), (1, 0));
    let elsewhere = Id::new([9; 32]);
    let key = w.key.clone();
    let from_c = resigned(&tx, &[&key], |u| {
        let avm::UnsignedTx::ImportTx(t) = u else {
            unreachable!()
        };
        t.source_chain = elsewhere;
    });
    assert_eq!(
        w.refusal(&from_c),
        format!(
            "`unsignedTx.sourceChain` is {elsewhere}; the X-chain moves funds to and from the P-chain ({}) and the C-chain ({}) only",
            Id::ZERO,
            rules().c_chain
        )
    );
}

#[test]
fn export_tx_accepted_then_refused_to_another_chain() {
    let w = World::funded(10 * AVAX);
    let out = [build::output(rules().avax, AVAX, owners(w.other.address()))];
    let tx = w.signed(build::export_tx(
        &context(),
        &w.funds(),
        &w.payer(),
        Id::ZERO,
        &out,
    ));
    let fx = w.verify(&tx).unwrap();
    assert_eq!(fx.exported.len(), 1);
    assert_eq!(fx.exported[0].utxo.utxo_id.output_index, 1);
    let elsewhere = Id::new([9; 32]);
    let key = w.key.clone();
    let to_c = resigned(&tx, &[&key], |u| {
        let avm::UnsignedTx::ExportTx(t) = u else {
            unreachable!()
        };
        t.destination_chain = elsewhere;
    });
    assert_eq!(
        w.refusal(&to_c),
        format!(
            "`unsignedTx.destinationChain` is {elsewhere}; the X-chain moves funds to and from the P-chain ({}) and the C-chain ({}) only",
            Id::ZERO,
            rules().c_chain
        )
    );
}
