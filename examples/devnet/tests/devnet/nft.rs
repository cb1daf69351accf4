//! The X-chain's other fxs through `avm.issueTx`: an NFT family (nftfx) created with its
//! minting rights, a token minted and transferred; a property (propertyfx) minted and burnt;
//! with the node's refusals.

use crate::common::{self, Devnet, keychain, one, x_codec};
use avalanche_devnet::context::sign;
use avalanche_devnet::genesis::test_keys;
use avalanche_devnet::xchain::Utxo;
use avalanche_rpc::avm::{AvmClient, GetAssetDescriptionParams, IssueTxParams};
use avalanche_rpc::codec::{avm, nftfx, propertyfx};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::transact::x::{self, Op};
use avalanche_rpc::transact::{BuildError, Payer};
use avalanche_rpc::wire::{HexBytes, Id};

async fn issue(d: &Devnet, tx: &avm::Tx) -> Result<Id, String> {
    let id = d
        .node
        .avm("X")
        .issue_tx(IssueTxParams::new(HexBytes::with_checksum(
            &tx.to_bytes().unwrap(),
        )))
        .await
        .map_err(common::said)?
        .tx_id;
    d.wait_accepted(&id).await;
    Ok(id)
}

/// An OperationTx doing the operation `op` makes for `payer` (the owner of its UTXO), the fee
/// paid by `payer`, signed by the keys it names.
async fn op_tx(
    d: &Devnet,
    payer: &PrivateKey,
    op: impl FnOnce(&Payer) -> Result<Op, BuildError>,
) -> avm::Tx {
    let utxos = x_codec(&d.utxos(&d.x_address(payer.address())).await);
    let from = d.payer(payer);
    let op = op(&from).unwrap();
    sign(
        x::operation_tx(&d.context(), &utxos, &from, vec![op]),
        &keychain(),
    )
    .unwrap()
}

/// A CreateAssetTx of an asset whose only initial state is `state`, paid by `creator`.
async fn create(
    d: &Devnet,
    creator: &PrivateKey,
    name: (&str, &str),
    state: avm::InitialState,
) -> avm::Tx {
    let utxos = x_codec(&d.utxos(&d.x_address(creator.address())).await);
    let (name, symbol) = name;
    let built = x::create_asset_tx(
        &d.context(),
        &utxos,
        &d.payer(creator),
        (name, symbol, 0),
        vec![state],
    );
    sign(built, &keychain()).unwrap()
}

/// The NFT outputs of `asset` an address holds: (group, payload, UTXO).
async fn tokens(d: &Devnet, who: &PrivateKey, asset: Id) -> Vec<Utxo> {
    d.utxos(&d.x_address(who.address()))
        .await
        .into_iter()
        .filter(|u| u.utxo.asset_id == asset)
        .collect()
}

#[tokio::test]
async fn an_nft_family_mints_and_transfers_tokens() {
    let d = Devnet::start(common::options()).await;
    let keys = test_keys();
    let (artist, collector, friend) = (&keys[1], &keys[2], &keys[3]);
    // Minting rights for groups 0 and 1, the artist's.
    let rights = (0..2)
        .map(|g| nftfx::MintOutput::new(g, one(artist.address())).into())
        .collect();
    let family = create(
        &d,
        artist,
        ("Devnet Art", "ART"),
        avm::InitialState::new(1, rights),
    )
    .await;
    let asset = issue(&d, &family).await.unwrap();
    let desc = d
        .node
        .avm("X")
        .get_asset_description(GetAssetDescriptionParams::new(asset.to_string()))
        .await
        .unwrap();
    assert_eq!((desc.symbol.as_str(), desc.denomination.get()), ("ART", 0));
    let rights = tokens(&d, artist, asset).await;
    assert_eq!(rights.len(), 2, "two minting rights, groups 0 and 1");
    let right0 = rights
        .iter()
        .find(|u| matches!(&u.utxo.output, avm::UtxoOutput::NftfxMintOutput(m) if m.group_id == 0))
        .unwrap()
        .clone();

    let mint = |p: &Payer| Op::nft_mint(&right0.utxo, p, b"art #1", vec![one(collector.address())]);

    // Refused (the builder's operation edited): a mint of another group than the right's;
    // signed by someone else.
    let wrong_group = op_tx(&d, artist, |p| {
        let mut op = mint(p)?;
        let avm::FxOperation::NftfxMintOperation(m) = &mut op.operation.op else {
            unreachable!()
        };
        m.group_id = 1;
        Ok(op)
    })
    .await;
    let e = issue(&d, &wrong_group).await.unwrap_err();
    assert!(e.contains("but the minting right is for group 0"), "{e}");
    let forged = op_tx(&d, artist, |p| {
        let mut op = mint(p)?;
        op.signers.addresses = vec![friend.address()];
        Ok(op)
    })
    .await;
    let e = issue(&d, &forged).await.unwrap_err();
    assert!(e.contains("not by the owner"), "{e}");

    // Minted to the collector.
    let mint = op_tx(&d, artist, mint).await;
    issue(&d, &mint).await.unwrap();
    let held = tokens(&d, collector, asset).await;
    assert_eq!(held.len(), 1);
    let avm::UtxoOutput::NftfxTransferOutput(token) = &held[0].utxo.output else {
        panic!("an nftfx TransferOutput")
    };
    assert_eq!(
        (token.group_id, token.payload.as_slice()),
        (0, &b"art #1"[..])
    );
    assert!(
        tokens(&d, artist, asset).await.iter().all(
            |u| !matches!(&u.utxo.output, avm::UtxoOutput::NftfxMintOutput(m) if m.group_id == 0)
        ),
        "minting spends the group's right (nftfx)"
    );

    // Transferred, unchanged, by its owner; a changed payload is refused.
    let give = |p: &Payer| Op::nft_transfer(&held[0].utxo, p, one(friend.address()));
    let altered = op_tx(&d, collector, |p| {
        let mut op = give(p)?;
        let avm::FxOperation::TransferOperation(t) = &mut op.operation.op else {
            unreachable!()
        };
        t.output.payload = b"art #2".to_vec();
        Ok(op)
    })
    .await;
    let e = issue(&d, &altered).await.unwrap_err();
    assert!(e.contains("payload` differs"), "{e}");
    let transfer = op_tx(&d, collector, give).await;
    issue(&d, &transfer).await.unwrap();
    assert!(tokens(&d, collector, asset).await.is_empty());
    assert_eq!(tokens(&d, friend, asset).await.len(), 1);
}

#[tokio::test]
async fn a_property_is_minted_and_burnt() {
    let d = Devnet::start(common::options()).await;
    let keys = test_keys();
    let (issuer, owner) = (&keys[1], &keys[2]);
    let right = propertyfx::MintOutput::new(one(issuer.address())).into();
    let deed = create(
        &d,
        issuer,
        ("Devnet Deed", "DEED"),
        avm::InitialState::new(2, vec![right]),
    )
    .await;
    let asset = issue(&d, &deed).await.unwrap();
    let right = tokens(&d, issuer, asset).await.remove(0);

    // The right must stay with its owners (the builder's operation edited to give it away).
    let mint = |p: &Payer| Op::property_mint(&right.utxo, p, one(owner.address()));
    let given = op_tx(&d, issuer, |p| {
        let mut op = mint(p)?;
        let avm::FxOperation::PropertyfxMintOperation(m) = &mut op.operation.op else {
            unreachable!()
        };
        m.mint_output.owners = one(owner.address());
        Ok(op)
    })
    .await;
    let e = issue(&d, &given).await.unwrap_err();
    assert!(e.contains("must keep the minting right's owners"), "{e}");
    issue(&d, &op_tx(&d, issuer, mint).await).await.unwrap();
    let owned = tokens(&d, owner, asset).await;
    assert_eq!(owned.len(), 1);
    assert!(matches!(
        owned[0].utxo.output,
        avm::UtxoOutput::OwnedOutput(_)
    ));
    assert_eq!(tokens(&d, issuer, asset).await.len(), 1, "the right stays");

    // Burnt by its owner: it is gone.
    let burn = |p: &Payer| Op::property_burn(&owned[0].utxo, p);
    issue(&d, &op_tx(&d, owner, burn).await).await.unwrap();
    assert!(tokens(&d, owner, asset).await.is_empty());
}
