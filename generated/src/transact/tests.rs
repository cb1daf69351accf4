//! The errors a user meets, each naming the field and the amounts; partial signing.

use crate::codec::{avax, avm, platform, secp256k1fx};
use crate::keys::PrivateKey;
use crate::wire::{Id, NodeId, ShortId};

use super::p::{self, Stake, ValidatorRequest};
use super::{
    BuildError, Context, FeeConfig, FeeState, Keychain, Payer, SignError, StakingRules, owners, x,
};

const AVAX: u64 = 1_000_000_000;
const NOW: u64 = 1_750_000_000;

fn key(i: u8) -> PrivateKey {
    PrivateKey::from_bytes(&[i; 32]).unwrap()
}

fn ctx() -> Context {
    Context {
        network_id: 12345,
        hrp: "local".into(),
        x_chain_id: Id::new([1; 32]),
        p_chain_id: Id::ZERO,
        c_chain_id: Id::new([2; 32]),
        avax_asset_id: Id::new([3; 32]),
        x_tx_fee: 1_000_000,
        x_create_asset_tx_fee: 10_000_000,
        p_fee_config: FeeConfig::ETNA,
        p_fee_state: FeeState {
            capacity: 1_000_000,
            excess: 0,
            price: 1,
        },
        validator_fee_config: Default::default(),
        staking: StakingRules::of_network(12345),
    }
}

fn one(a: ShortId, locktime: u64) -> secp256k1fx::OutputOwners {
    owners("owners", &[a], 1, locktime).unwrap()
}

fn x_utxo(n: u8, amount: u64, o: secp256k1fx::OutputOwners) -> avm::Utxo {
    avm::Utxo::new(
        avax::UtxoId::new(Id::new([n; 32]), 0),
        ctx().avax_asset_id,
        secp256k1fx::TransferOutput::new(amount, o).into(),
    )
}

fn p_utxo(n: u8, amount: u64, o: secp256k1fx::OutputOwners) -> platform::Utxo {
    platform::Utxo::new(
        avax::UtxoId::new(Id::new([n; 32]), 0),
        ctx().avax_asset_id,
        secp256k1fx::TransferOutput::new(amount, o).into(),
    )
}

fn text(e: BuildError) -> String {
    e.to_string()
}

#[test]
fn insufficient_funds_names_the_asset_the_need_with_the_fee_and_what_is_spendable_and_locked() {
    let c = ctx();
    let a = key(1).address();
    let utxos = vec![
        x_utxo(1, 3 * AVAX, one(a, 0)),
        x_utxo(2, 2 * AVAX, one(a, NOW + 60)),
    ];
    let out = x::output(c.avax_asset_id, 4 * AVAX, one(key(2).address(), 0));
    let e = x::base_tx(&c, &utxos, &Payer::new(vec![a], NOW), &[out]).unwrap_err();
    assert!(
        matches!(e, BuildError::Insufficient { needed, spendable, locked, .. }
        if needed == 4 * AVAX + c.x_tx_fee && spendable == 3 * AVAX && locked == 2 * AVAX)
    );
    let t = text(e);
    for part in [
        &c.avax_asset_id.to_string(),
        "4001000000",
        "3000000000",
        "2000000000",
        "fee included",
        "locked",
    ] {
        assert!(t.contains(part), "{part} in {t}");
    }

    // P-chain staking: the stake, the burn and the fee against what is unlocked.
    let utxos = vec![p_utxo(1, 1_000 * AVAX, one(a, 0))];
    let req = ValidatorRequest {
        stake: Stake {
            node_id: NodeId::new([9; 20]),
            start: 0,
            end: NOW + 30 * 86_400,
            weight: 2_000 * AVAX,
        },
        signer: None,
        validator_rewards: one(a, 0),
        delegator_rewards: one(a, 0),
        shares: 20_000,
    };
    let t = text(
        p::add_permissionless_validator_tx(&c, &utxos, &Payer::new(vec![a], NOW), &req)
            .unwrap_err(),
    );
    assert!(
        t.contains("1000000000000") && t.contains("to stake") && t.contains("insufficient funds"),
        "{t}"
    );
    assert!(
        t.contains("are needed (to stake and burn, the fee included)"),
        "{t}"
    );
}

#[test]
fn an_address_of_another_network_is_refused_naming_the_field() {
    let c = ctx();
    let mainnet = crate::wire::Address::new(Some("X"), "avax", *key_of_ewoq().as_bytes())
        .unwrap()
        .to_string();
    let t = text(c.parse_address("to", "X", &mainnet).unwrap_err());
    assert!(
        t.starts_with("`to`:") && t.contains("`avax` network") && t.contains("`local`"),
        "{t}"
    );
    let t = text(
        c.parse_address("to", "X", "P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u")
            .unwrap_err(),
    );
    assert!(t.contains("chain `P`"), "{t}");
    assert_eq!(
        c.parse_address("to", "X", "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u")
            .unwrap(),
        key_of_ewoq()
    );
}

fn key_of_ewoq() -> ShortId {
    "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN"
        .parse::<PrivateKey>()
        .unwrap()
        .address()
}

fn validator(weight: u64, end: u64) -> ValidatorRequest {
    let a = key(1).address();
    ValidatorRequest {
        stake: Stake {
            node_id: NodeId::new([9; 20]),
            start: 0,
            end,
            weight,
        },
        signer: None,
        validator_rewards: one(a, 0),
        delegator_rewards: one(a, 0),
        shares: 20_000,
    }
}

#[test]
fn a_period_that_has_passed_or_is_too_long_is_refused_naming_end() {
    let c = ctx();
    let a = key(1).address();
    let utxos = vec![p_utxo(1, 5_000 * AVAX, one(a, 0))];
    let payer = Payer::new(vec![a], NOW);
    let t = text(
        p::add_permissionless_validator_tx(&c, &utxos, &payer, &validator(2_000 * AVAX, NOW - 1))
            .unwrap_err(),
    );
    assert!(
        t.starts_with("`end`:") && t.contains("has passed") && t.contains(&(NOW - 1).to_string()),
        "{t}"
    );
    let far = NOW + 400 * 86_400;
    let t = text(
        p::add_permissionless_validator_tx(&c, &utxos, &payer, &validator(2_000 * AVAX, far))
            .unwrap_err(),
    );
    assert!(
        t.starts_with("`end`:") && t.contains("longest staking period is 31536000 s"),
        "{t}"
    );
    let t = text(
        p::add_permissionless_validator_tx(&c, &utxos, &payer, &validator(2_000 * AVAX, NOW + 60))
            .unwrap_err(),
    );
    assert!(
        t.starts_with("`end`:") && t.contains("shortest staking period is 86400 s"),
        "{t}"
    );
}

#[test]
fn an_auto_renewed_validator_is_refused_naming_period_compounding_and_txid() {
    let c = ctx();
    let a = key(1).address();
    let utxos = vec![p_utxo(1, 5_000 * AVAX, one(a, 0))];
    let payer = Payer::new(vec![a], NOW);
    let bls = crate::bls::SecretKey::from_seed(&[7; 32]).unwrap();
    let req = |period: u64, compound: u32| p::AutoRenewedValidatorRequest {
        node_id: NodeId::new([9; 20]),
        weight: 2_000 * AVAX,
        signer: (bls.public_key(), bls.proof_of_possession()),
        validator_rewards: one(a, 0),
        delegator_rewards: one(a, 0),
        validator_authority: one(a, 0),
        shares: 20_000,
        auto_compound_reward_shares: compound,
        period,
    };
    let ok = p::add_auto_renewed_validator_tx(&c, &utxos, &payer, &req(86_400, 500_000)).unwrap();
    let platform::UnsignedTx::AddAutoRenewedValidatorTx(t) = ok.tx() else {
        panic!("{:?}", ok.tx())
    };
    assert_eq!((t.period, t.auto_compound_reward_shares), (86_400, 500_000));
    assert_eq!(t.node_id, vec![9; 20]);
    assert_eq!(ok.burned(), ok.fee());
    let t = text(p::add_auto_renewed_validator_tx(&c, &utxos, &payer, &req(3_600, 0)).unwrap_err());
    assert!(
        t.starts_with("`period`:") && t.contains("shortest staking period is 86400 s"),
        "{t}"
    );
    let t = text(
        p::add_auto_renewed_validator_tx(&c, &utxos, &payer, &req(86_400, 1_000_001)).unwrap_err(),
    );
    assert!(t.starts_with("`autoCompoundRewardShares`:"), "{t}");
    let authority = p::Authority::new(one(a, 0));
    let set = |tx_id, period| {
        p::set_auto_renewed_validator_config_tx(&c, &utxos, &payer, tx_id, &authority, 0, period)
    };
    let t = text(set(Id::ZERO, 86_400).unwrap_err());
    assert!(t.starts_with("`txID`:"), "{t}");
    let t = text(set(Id::new([5; 32]), 400 * 86_400).unwrap_err());
    assert!(
        t.starts_with("`period`:") && t.contains("longest staking period is 31536000 s"),
        "{t}"
    );
    // A period of 0 stops the renewals.
    assert!(set(Id::new([5; 32]), 0).is_ok());
    let other = p::Authority::new(one(key(2).address(), 0));
    let t = text(
        p::set_auto_renewed_validator_config_tx(&c, &utxos, &payer, Id::new([5; 32]), &other, 0, 0)
            .unwrap_err(),
    );
    assert!(
        t.starts_with("`auth`:") && t.contains("cannot authorize"),
        "{t}"
    );
}

#[test]
fn a_stake_below_the_minimum_and_a_delegation_over_the_limit_are_refused_naming_weight() {
    let c = ctx();
    let a = key(1).address();
    let utxos = vec![p_utxo(1, 5_000 * AVAX, one(a, 0))];
    let payer = Payer::new(vec![a], NOW);
    let end = NOW + 30 * 86_400;
    let t = text(
        p::add_permissionless_validator_tx(&c, &utxos, &payer, &validator(1_999 * AVAX, end))
            .unwrap_err(),
    );
    assert!(
        t.starts_with("`weight`:")
            && t.contains("1999000000000")
            && t.contains("minimum validator stake of 2000000000000"),
        "{t}"
    );
    let stake = Stake {
        node_id: NodeId::new([9; 20]),
        start: 0,
        end,
        weight: 24 * AVAX,
    };
    let t = text(
        p::add_permissionless_delegator_tx(&c, &utxos, &payer, stake, &one(a, 0), None)
            .unwrap_err(),
    );
    assert!(
        t.starts_with("`weight`:") && t.contains("minimum delegator stake of 25000000000"),
        "{t}"
    );
    // A validator of 2,000 AVAX with 9,990 delegated can take 10 more (5 × its own).
    let room = p::delegation_room(&c, 2_000 * AVAX, 7_990 * AVAX);
    assert_eq!(room, 10 * AVAX);
    let stake = Stake {
        weight: 30 * AVAX,
        ..stake
    };
    let t = text(
        p::add_permissionless_delegator_tx(&c, &utxos, &payer, stake, &one(a, 0), Some(room))
            .unwrap_err(),
    );
    assert!(
        t.starts_with("`weight`:")
            && t.contains("30000000000")
            && t.contains("can take 10000000000 nAVAX more"),
        "{t}"
    );
}

#[test]
fn a_two_of_three_output_is_signed_by_two_keychains_in_turn() {
    let c = ctx();
    let (k1, k2, k3) = (key(1), key(2), key(3));
    let owners3 = owners("owners", &[k1.address(), k2.address(), k3.address()], 2, 0).unwrap();
    let utxos = vec![x_utxo(1, 3 * AVAX, owners3)];
    let payer = Payer::new(vec![k1.address(), k3.address()], NOW);
    let out = x::output(c.avax_asset_id, AVAX, one(key(4).address(), 0));
    let mut mine = x::base_tx(&c, &utxos, &payer, &[out]).unwrap();
    let mut theirs = mine.clone();
    assert_eq!(mine.sign(&Keychain::from_keys([k1.clone()])).unwrap(), 1);
    assert_eq!(mine.missing(), vec![k3.address()]);
    let e = mine.signed().unwrap_err().to_string();
    assert!(
        e.contains("1 signature(s) are missing") && e.contains(&k3.address().to_string()),
        "{e}"
    );
    // The other holder signs their copy and hands back its credentials.
    theirs.sign(&Keychain::from_keys([k3.clone()])).unwrap();
    let handed = theirs.partial();
    let creds: Vec<Vec<[u8; 65]>> = handed
        .credentials
        .iter()
        .map(|c| match &c.credential {
            avm::Credential::Secp256k1fxCredential(c) => c.signatures.clone(),
            _ => unreachable!(),
        })
        .collect();
    // A signature by the wrong key is refused.
    let slot = mine.signers()[0]
        .addresses
        .iter()
        .position(|a| *a == k3.address())
        .unwrap();
    let mut forged = creds.clone();
    forged[0][slot] = k2.sign_hash(&[0; 32]);
    assert!(matches!(
        mine.clone().merge(&forged),
        Err(SignError::Foreign { credential: 0, index, .. }) if index == slot
    ));
    assert_eq!(mine.merge(&creds).unwrap(), 1);
    let tx = mine.signed().unwrap();
    assert_eq!(tx.credentials.len(), 1);
    // Both signatures recover to the owners, in the owners' order.
    let hash = *Id::from_sha256(&mine.bytes().unwrap()).as_bytes();
    let avm::Credential::Secp256k1fxCredential(cred) = &tx.credentials[0].credential else {
        unreachable!()
    };
    let who: Vec<ShortId> = cred
        .signatures
        .iter()
        .map(|s| crate::keys::PublicKey::recover(&hash, s).unwrap().address())
        .collect();
    assert_eq!(who, mine.signers()[0].addresses);
    assert!(who.contains(&k1.address()) && who.contains(&k3.address()));
}

/// `key`'s signature of `digest` as a KMS answers it: ASN.1 DER, `s` in whichever half the
/// signer's nonce gave (here the upper one, the form the node refuses), no recovery ID.
fn kms_der(key: &PrivateKey, digest: &[u8]) -> Vec<u8> {
    use crate::keys::signature::tests::{der, flip};
    let sig = key.sign_hash(digest.try_into().expect("a digest"));
    let mut high: [u8; 64] = sig[..64].try_into().expect("64 bytes");
    high[32..].copy_from_slice(&flip(&sig[32..64]));
    der(&high)
}

#[tokio::test]
async fn signers_of_every_kind_fill_the_slots_they_hold() {
    use super::{ExternalSigner, Signer, SignerError};
    let c = ctx();
    let (k1, k2, k3) = (key(1), key(2), key(3));
    let owners3 = owners("owners", &[k1.address(), k2.address(), k3.address()], 3, 0).unwrap();
    let utxos = vec![x_utxo(1, 3 * AVAX, owners3)];
    let payer = Payer::new(vec![k1.address(), k2.address(), k3.address()], NOW);
    let out = x::output(c.avax_asset_id, AVAX, one(key(4).address(), 0));
    let built = x::base_tx(&c, &utxos, &payer, &[out]).unwrap();
    let digest = *Id::from_sha256(&built.bytes().unwrap()).as_bytes();

    // k1 in a keychain; k2 behind a KMS that signs digests and answers DER with a high s;
    // k3 behind a service that wants the message and hashes it itself.
    let keychain = Keychain::from_keys([k1.clone()]);
    let kms_key = k2.clone();
    let kms = ExternalSigner::digest(vec![k2.address()], move |d: Vec<u8>| {
        let der = kms_der(&kms_key, &d);
        async move { Ok::<_, SignerError>(der) }
    });
    let service_key = k3.clone();
    let service = ExternalSigner::message(vec![k3.address()], move |m: Vec<u8>| {
        let d = *Id::from_sha256(&m).as_bytes();
        let sig = service_key.sign_hash(&d).to_vec();
        async move { Ok::<_, SignerError>(sig) }
    });
    let mut tx = built.clone();
    let signers: [&dyn Signer; 3] = [&keychain, &kms, &service];
    assert_eq!(tx.sign_with(&signers).await.unwrap(), 3);
    assert!(tx.missing().is_empty());
    // The same bytes as the keys in memory would have signed: the DER answer normalized.
    let mut by_keys = built.clone();
    by_keys
        .sign(&Keychain::from_keys([k1.clone(), k2.clone(), k3.clone()]))
        .unwrap();
    assert_eq!(
        tx.signed().unwrap().to_bytes().unwrap(),
        by_keys.signed().unwrap().to_bytes().unwrap()
    );
    assert_eq!(
        super::signer::normalize(&digest, &kms_der(&k2, &digest), &k2.address()).unwrap(),
        k2.sign_hash(&digest)
    );

    // A signer that signs with another key than it claims: refused, naming the address.
    let liar = ExternalSigner::digest(vec![k2.address()], move |d: Vec<u8>| {
        let sig = key(9).sign_hash(d.as_slice().try_into().unwrap()).to_vec();
        async move { Ok::<_, SignerError>(sig) }
    });
    let mut tx = built.clone();
    let e = tx
        .sign_with(&[&keychain, &liar])
        .await
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!("the signer of {} did not sign", k2.address()))
            && e.contains("does not recover to"),
        "{e}"
    );
    let mut missing = tx.missing();
    missing.sort();
    let mut expected = vec![k2.address(), k3.address()];
    expected.sort();
    assert_eq!(missing, expected, "k1's slot kept");
    // A signer that refuses: its words.
    let offline = ExternalSigner::digest(vec![k3.address()], |_| async {
        Err::<Vec<u8>, _>(SignerError::new("the device is locked"))
    });
    let e = tx.sign_with(&[&offline]).await.unwrap_err().to_string();
    assert!(e.ends_with("did not sign: the device is locked"), "{e}");
    // An answer that is no signature at all.
    let garbage = ExternalSigner::digest(vec![k3.address()], |_| async { Ok(vec![1, 2, 3]) });
    let e = tx.sign_with(&[&garbage]).await.unwrap_err().to_string();
    assert!(e.contains("the signer's answer is 3 bytes"), "{e}");
}

/// A node answering `avm.getUTXOs` from scripted pages: (UTXO numbers, numFetched, end
/// cursor).
#[derive(Clone)]
struct Pages(std::sync::Arc<std::sync::Mutex<Vec<Page>>>);

/// The UTXOs' numbers, `numFetched`, the end cursor's UTXO.
type Page = (Vec<u16>, u64, &'static str);

impl crate::rpc::Transport for Pages {
    fn post(
        &self,
        _path: &str,
        body: Vec<u8>,
    ) -> impl std::future::Future<Output = Result<crate::rpc::HttpReply, crate::rpc::TransportError>>
    + Send {
        let req: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let (numbers, fetched, end) = self.0.lock().unwrap().remove(0);
        let a = key(1).address();
        let utxos: Vec<String> = numbers
            .iter()
            .map(|n| {
                let mut u = x_utxo((*n % 256) as u8, AVAX + u64::from(*n), one(a, 0));
                u.utxo_id.output_index = u32::from(*n);
                crate::wire::HexBytes::with_checksum(&u.to_bytes().unwrap()).to_hex()
            })
            .collect();
        let reply = serde_json::json!({
            "jsonrpc": "2.0",
            "id": req["id"],
            "result": {
                "numFetched": fetched.to_string(),
                "utxos": utxos,
                "endIndex": {"address": "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", "utxo": end},
                "encoding": "hex",
            },
        });
        std::future::ready(Ok(crate::rpc::HttpReply::new(200, reply.to_string())))
    }
}

#[tokio::test]
async fn utxo_pages_end_on_a_short_page_drop_repeats_and_stop_on_a_repeated_cursor() {
    // Two full pages of 1,024, the second repeating one UTXO of the first, then a short page
    // repeating two more.
    let script = vec![
        ((0..1024).collect(), 1024, "a"),
        ((1023..2047).collect(), 1024, "b"),
        (vec![0, 7], 2, "c"),
    ];
    let node = crate::rpc::Node::new(Pages(std::sync::Arc::new(std::sync::Mutex::new(script))));
    let utxos = super::x::utxos(&node, &ctx(), &[key(1).address()], None)
        .await
        .unwrap();
    assert_eq!(utxos.len(), 2047, "each UTXO once");
    // A node that answers the same cursor twice is not followed forever.
    let script = vec![
        ((0..1024).collect(), 1024, "same"),
        ((1024..2048).collect(), 1024, "same"),
        ((2048..3072).collect(), 1024, "same"),
    ];
    let node = crate::rpc::Node::new(Pages(std::sync::Arc::new(std::sync::Mutex::new(script))));
    let e = super::x::utxos(&node, &ctx(), &[key(1).address()], None)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("avm.getUTXOs") && e.contains("a second time"),
        "{e}"
    );
}
