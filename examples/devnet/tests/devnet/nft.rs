//! The X-chain's other fxs through `avm.issueTx`: an NFT family (nftfx) created with its
//! minting rights, a token minted and transferred; a property (propertyfx) minted and burnt;
//! with the node's refusals.

use crate::common::{self, Devnet};
use avalanche_devnet::genesis::test_keys;
use avalanche_devnet::wallet;
use avalanche_devnet::xchain::Utxo;
use avalanche_rpc::avm::{AvmClient, GetAssetDescriptionParams, IssueTxParams};
use avalanche_rpc::codec::avm;
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::wire::{HexBytes, Id};

async fn issue(d: &Devnet, tx: &avm::Tx) -> Result<Id, String> {
    let id = d
        .node
        .avm("X")
        .issue_tx(IssueTxParams::new(HexBytes::with_checksum(
            &tx.to_bytes().unwrap(),
        )))
        .await
        .map_err(|e| e.to_string())?
        .tx_id;
    d.wait_accepted(&id).await;
    Ok(id)
}

/// An OperationTx doing `op` on a UTXO signed by `signer`, its fee paid by `payer`.
async fn op_tx(
    d: &Devnet,
    payer: &PrivateKey,
    op: (&Utxo, avm::FxOperation),
    signer: &PrivateKey,
) -> avm::Tx {
    let utxos = d.utxos(&d.x_address(payer.address())).await;
    let now = d.devnet.engine.clock.now();
    wallet::operation_tx(&d.devnet.x.vm.rules, payer, &utxos, op, signer, now).unwrap()
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
    let rules = &d.devnet.x.vm.rules;
    let now = d.devnet.engine.clock.now();
    let utxos = |k: &PrivateKey| {
        let a = d.x_address(k.address());
        let d = &d;
        async move { d.utxos(&a).await }
    };

    let family = wallet::family_tx(
        rules,
        artist,
        &utxos(artist).await,
        ("Devnet Art", "ART"),
        wallet::nft_rights(2, artist.address()),
        now,
    )
    .unwrap();
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

    // Refused: a mint of another group than the right's; signed by someone else.
    let wrong_group = op_tx(
        &d,
        artist,
        (
            &right0,
            wallet::nft_mint(1, b"art #1", &[collector.address()]),
        ),
        artist,
    )
    .await;
    let e = issue(&d, &wrong_group).await.unwrap_err();
    assert!(e.contains("but the minting right is for group 0"), "{e}");
    let forged = op_tx(
        &d,
        artist,
        (
            &right0,
            wallet::nft_mint(0, b"art #1", &[collector.address()]),
        ),
        friend,
    )
    .await;
    let e = issue(&d, &forged).await.unwrap_err();
    assert!(e.contains("not by the owner"), "{e}");

    // Minted to the collector.
    let mint = op_tx(
        &d,
        artist,
        (
            &right0,
            wallet::nft_mint(0, b"art #1", &[collector.address()]),
        ),
        artist,
    )
    .await;
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
    let altered = op_tx(
        &d,
        collector,
        (
            &held[0],
            wallet::nft_transfer(0, b"art #2", friend.address()),
        ),
        collector,
    )
    .await;
    let e = issue(&d, &altered).await.unwrap_err();
    assert!(e.contains("payload` differs"), "{e}");
    let transfer = op_tx(
        &d,
        collector,
        (
            &held[0],
            wallet::nft_transfer(0, b"art #1", friend.address()),
        ),
        collector,
    )
    .await;
    issue(&d, &transfer).await.unwrap();
    assert!(tokens(&d, collector, asset).await.is_empty());
    assert_eq!(tokens(&d, friend, asset).await.len(), 1);
}

#[tokio::test]
async fn a_property_is_minted_and_burnt() {
    let d = Devnet::start(common::options()).await;
    let keys = test_keys();
    let (issuer, owner) = (&keys[1], &keys[2]);
    let rules = &d.devnet.x.vm.rules;
    let now = d.devnet.engine.clock.now();
    let utxos = |k: &PrivateKey| {
        let a = d.x_address(k.address());
        let d = &d;
        async move { d.utxos(&a).await }
    };
    let create = wallet::family_tx(
        rules,
        issuer,
        &utxos(issuer).await,
        ("Devnet Deed", "DEED"),
        wallet::property_right(issuer.address()),
        now,
    )
    .unwrap();
    let asset = issue(&d, &create).await.unwrap();
    let right = tokens(&d, issuer, asset).await.remove(0);

    // The right must stay with its owners.
    let e = issue(
        &d,
        &op_tx(
            &d,
            issuer,
            (
                &right,
                wallet::property_mint(owner.address(), owner.address()),
            ),
            issuer,
        )
        .await,
    )
    .await
    .unwrap_err();
    assert!(e.contains("must keep the minting right's owners"), "{e}");
    issue(
        &d,
        &op_tx(
            &d,
            issuer,
            (
                &right,
                wallet::property_mint(issuer.address(), owner.address()),
            ),
            issuer,
        )
        .await,
    )
    .await
    .unwrap();
    let owned = tokens(&d, owner, asset).await;
    assert_eq!(owned.len(), 1);
    assert!(matches!(
        owned[0].utxo.output,
        avm::UtxoOutput::OwnedOutput(_)
    ));
    assert_eq!(tokens(&d, issuer, asset).await.len(), 1, "the right stays");

    // Burnt by its owner: it is gone.
    issue(
        &d,
        &op_tx(&d, owner, (&owned[0], wallet::property_burn()), owner).await,
    )
    .await
    .unwrap();
    assert!(tokens(&d, owner, asset).await.is_empty());
}
