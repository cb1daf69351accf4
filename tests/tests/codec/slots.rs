//! What the slot enums tell without a `match`: the type's name (`type_name`) and the members
//! their variants share (`base()`, `parent_id()`, …), on the node's own test vectors.

use super::*;

#[test]
fn x_chain_txs_name_their_type_and_share_their_base() {
    for (vector, name) in [
        (X_BASE_TX_SIGNED, "BaseTx"),
        (X_EXPORT_TX, "ExportTx"),
        (X_IMPORT_TX, "ImportTx"),
        (X_CREATE_ASSET_TX, "CreateAssetTx"),
    ] {
        let tx = avm::Tx::from_bytes(&unhex(vector)).unwrap();
        assert_eq!(tx.unsigned.type_name(), name);
        // Every X-chain kind inlines the common fields: `&Base`, no `Option`.
        let base: &avm::Base = tx.unsigned.base();
        let by_hand = match &tx.unsigned {
            avm::UnsignedTx::BaseTx(t) => &t.base,
            avm::UnsignedTx::CreateAssetTx(t) => &t.base,
            avm::UnsignedTx::OperationTx(t) => &t.base,
            avm::UnsignedTx::ImportTx(t) => &t.base,
            avm::UnsignedTx::ExportTx(t) => &t.base,
            other => panic!("{other:?}"),
        };
        assert_eq!(base, by_hand, "{name}");
    }
    let tx = avm::Tx::from_bytes(&unhex(X_CREATE_ASSET_TX_AGAIN)).unwrap();
    let avm::UnsignedTx::CreateAssetTx(create) = &tx.unsigned else {
        panic!()
    };
    assert_eq!(tx.unsigned.base(), &create.base);
    assert_eq!(tx.unsigned.base().outputs.len(), 3);
}

#[test]
fn p_chain_txs_name_their_type_and_share_their_base_where_they_have_one() {
    for (vector, name, has_base) in [
        (P_ADVANCE_TIME_TX, "AdvanceTimeTx", false),
        (P_REWARD_VALIDATOR_TX, "RewardValidatorTx", false),
        (P_BASE_TX, "BaseTx", true),
        (P_CONVERT_TX, "ConvertSubnetToL1Tx", true),
        (P_REGISTER_L1_VALIDATOR_TX, "RegisterL1ValidatorTx", true),
    ] {
        let tx = platform::Tx::from_bytes(&unhex(vector)).unwrap();
        assert_eq!(tx.unsigned.type_name(), name);
        let base: Option<&platform::Base> = tx.unsigned.base();
        assert_eq!(base.is_some(), has_base, "{name}");
        if let Some(base) = base {
            assert_eq!(base.network_id, 12345, "{name}");
        }
    }

    let tx = platform::Tx::from_bytes(&unhex(P_BASE_TX)).unwrap();
    let platform::UnsignedTx::BaseTx(b) = &tx.unsigned else {
        panic!()
    };
    assert_eq!(tx.unsigned.base(), Some(&b.base));
    assert_eq!(tx.unsigned.base().unwrap().outputs.len(), 2);

    // Members some kinds share: the staker's tx of a reward, the Subnet of a conversion.
    let reward = platform::Tx::from_bytes(&unhex(P_REWARD_VALIDATOR_TX)).unwrap();
    let platform::UnsignedTx::RewardValidatorTx(r) = &reward.unsigned else {
        panic!()
    };
    assert_eq!(reward.unsigned.tx_id(), Some(&r.tx_id));
    assert_eq!(reward.unsigned.subnet_id(), None);
    let convert = platform::Tx::from_bytes(&unhex(P_CONVERT_TX)).unwrap();
    let platform::UnsignedTx::ConvertSubnetToL1Tx(c) = &convert.unsigned else {
        panic!()
    };
    assert_eq!(convert.unsigned.subnet_id(), Some(&c.subnet_id));
    assert_eq!(convert.unsigned.tx_id(), None);
    let register = platform::Tx::from_bytes(&unhex(P_REGISTER_L1_VALIDATOR_TX)).unwrap();
    let platform::UnsignedTx::RegisterL1ValidatorTx(reg) = &register.unsigned else {
        panic!()
    };
    assert_eq!(register.unsigned.message(), Some(&reg.message));
    assert_eq!(register.unsigned.balance(), Some(&reg.balance));
}

#[test]
fn a_variant_named_with_its_package_answers_the_types_own_name() {
    let mut bytes = unhex(UTXO_TEST_CODEC);
    bytes[73] = 7; // TransferOutput, as the chains number it
    let utxo = avm::Utxo::from_bytes(&bytes).unwrap();
    assert!(matches!(
        utxo.output,
        avm::UtxoOutput::Secp256k1fxTransferOutput(_)
    ));
    assert_eq!(utxo.output.type_name(), "TransferOutput");
    assert_eq!(utxo.output.owners().locktime, 54321);
    assert_eq!(utxo.output.group_id(), None);
}

#[test]
fn blocks_share_their_parent_and_height() {
    let block = platform::Block::from_bytes(&unhex(P_BANFF_PROPOSAL_BLOCK)).unwrap();
    assert_eq!(block.type_name(), "BanffProposalBlock");
    assert_eq!(*block.height(), 0);
    assert_eq!(block.parent_id(), &Id::new([0; 32]));
    assert_eq!(
        block.tx().map(|t| t.unsigned.type_name()),
        Some("AdvanceTimeTx")
    );
    assert!(block.time().is_some());
    let commit = platform::Block::from_bytes(&unhex(P_BANFF_COMMIT_BLOCK)).unwrap();
    assert_eq!(commit.type_name(), "BanffCommitBlock");
    assert!(commit.tx().is_none());
}
