//! Keys, addresses and signatures against the node's vectors (codec reference §9.3, §9.4),
//! and the signature of a transaction vector (§9.5).

use avalanche_rpc::keys::{PrivateKey, PublicKey};
use avalanche_rpc::wire::Address;

fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn test_keys_give_the_node_addresses() {
    // Source: utils/crypto/secp256k1/test_keys.go; addresses per secp256k1_test.go,
    // create_asset_tx_test.go and genesis/genesis_local.go; EVM addresses printed by the
    // node's `PrivateKey.EthAddress` (utils/crypto/secp256k1/secp256k1.go:211), the ewoq
    // key's also in genesis/genesis_local.go:22.
    for ((key, public, address, bech), evm) in [
        (
            "PrivateKey-24jUJ9vZexUM6expyMcT48LBx27k1m7xpraoV62oSQAHdziao5",
            "0373935347884478e4945cd0fd948ecf088b94dfc92074f0fb03da6f4dbc94357d",
            "fceda8f90fcb5d30614b99d79fc4baa293077626",
            "local1lnk637g0edwnqc2tn8tel39652fswa3xzmew5p",
        ),
        (
            "PrivateKey-2MMvUMsxx6zsHSNXJdFD8yc5XkancvwyKPwpw4xUK3TCGDuNBY",
            "03e3531f0b16d9a79b2db28c74856e4095665f0cd91d36647deb69f0f965308326",
            "6ead693c17abb1be422bb50b30b9711ff98d667e",
            "local1d6kkj0qh4wcmus3tk59npwt3rluc6en77ajgr4",
        ),
        (
            "PrivateKey-cxb7KpGWhDMALTjNNSJ7UQkkomPesyWAPUaWRGdyeBNzR6f35",
            "02695ccbc09d9ddbdd4a675d0964351125102dbd1ed86c725ffa3b873bc6c05d78",
            "f2420846876e69f473dda256172967e992f0ee31",
            "local17fpqs358de5lgu7a5ftpw2t8axf0pm333ftzrw",
        ),
        (
            "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN",
            "0327448e78ffa8cdb24cf19be0204ad954b1bdb4db8c51183534c1eecf2ebd094e",
            "3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c",
            "local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u",
        ),
        (
            "PrivateKey-vmRQiZeXEXYMyJhEiqdC2z5JhuDbxL8ix9UVvjgMu2Er1NepE",
            "02d5625f5341a824df63cf28c2502e0d4bd3497f9fad219c02c94a8715f51ba7ec",
            "46a9c04f4bf783aa69daabd519dcf36978168b66",
            "local1g65uqn6t77p656w64023nh8nd9updzmxyymev2",
        ),
    ]
    .into_iter()
    .zip([
        "0x99b9dea54c48dfea6aa9a4ca4623633ee04ddbb5",
        "0x7464a61a3cbd2d6bd6a367d3243029f3638246ce",
        "0x2bf91d42766c80cb56ff482031b247eec3792ccd",
        "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc",
        "0x1f0e5c64afdf53175f78846f7125776e76fa8f34",
    ]) {
        let k: PrivateKey = key.parse().unwrap();
        assert_eq!(k.to_string(), key);
        assert_eq!(hex(&k.public_key().compressed()), public);
        assert_eq!(hex(k.address().as_bytes()), address);
        let x: Address = format!("X-{bech}").parse().unwrap();
        assert_eq!(hex(&x.payload()), address);
        let p = PublicKey::from_compressed(&unhex(public)).unwrap();
        assert_eq!(p, k.public_key());
        assert_eq!(k.evm_address().to_string(), evm);
        assert_eq!(p.evm_address(), k.evm_address());
    }
    assert!(
        "PrivateKey-24jUJ9vZexUM6expyMcT48LBx27k1m7xpraoV62oSQAHdziao6"
            .parse::<PrivateKey>()
            .unwrap_err()
            .to_string()
            .contains("checksum")
    );
    assert!(
        "24jUJ9vZexUM6expyMcT48LBx27k1m7xpraoV62oSQAHdziao5"
            .parse::<PrivateKey>()
            .is_err()
    );
}

#[test]
fn signatures_are_the_node_signatures_and_recover_the_key() {
    // Source: utils/crypto/secp256k1/secp256k1_test.go TestSigning (key0).
    let key: PrivateKey = "PrivateKey-24jUJ9vZexUM6expyMcT48LBx27k1m7xpraoV62oSQAHdziao5"
        .parse()
        .unwrap();
    for (message, signature) in [
        (
            "hello world",
            "178cb6096b3ca5820a4c6ecedf15b68b6f50e252c2b64f3774888602cc9fa08c5d019d82fdde95fdf234aa2d12ad79b5abb345fe953a9f72f70914fd3139063b00",
        ),
        (
            "scooby doo",
            "c2573f29b0d17ae7009a9f17a4558d32462e5b8d059e3832ecb032541abc7daf5751f96b8571bcb718d26be8ed8d59b0d60369ab57acc0f7133b219456038ec701",
        ),
        (
            "a really long string",
            "1bf561c36007d2a61268e9e13a902a9c2ba43e28f8d47554215711dcdcc6d35e784318f62291373c95779f6794910a4416bfa3ae9f25fa34a014ea9c6fe0203700",
        ),
    ] {
        let sig = key.sign(message.as_bytes());
        assert_eq!(hex(&sig), signature, "{message}");
        let hash: [u8; 32] = avalanche_rpc::wire::Id::from_sha256(message.as_bytes())
            .as_bytes()
            .to_owned();
        assert_eq!(PublicKey::recover(&hash, &sig).unwrap(), key.public_key());
    }
    // The signature of the X BaseTx vector (§9.5): over the SHA-256 of its unsigned bytes.
    let hash: [u8; 32] = unhex("e165cd75942f72b960b97d71366034b7223c2ea4a6cfbe4a799d66417e426063")
        .try_into()
        .unwrap();
    assert_eq!(
        hex(&key.sign_hash(&hash)),
        "7d898ee98af8335d37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff26d18484f29b289644968fedffeb23e030665d736d94fc80bc735f51c806d74300"
    );
}

#[test]
fn recovery_refuses_what_the_node_refuses() {
    let key: PrivateKey = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN"
        .parse()
        .unwrap();
    let hash = [7u8; 32];
    let sig = key.sign_hash(&hash);
    // v of 4 or more.
    let mut bad = sig;
    bad[64] = 4;
    assert!(
        PublicKey::recover(&hash, &bad)
            .unwrap_err()
            .to_string()
            .contains("recovery ID is 4")
    );
    // s in the upper half: n - s, with v flipped, is the same signature mutated.
    const N: [u8; 32] = [
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xfe, 0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36,
        0x41, 0x41,
    ];
    let mut high = sig;
    let mut borrow = 0i16;
    for i in (0..32).rev() {
        let d = i16::from(N[i]) - i16::from(sig[32 + i]) - borrow;
        high[32 + i] = d.rem_euclid(256) as u8;
        borrow = i16::from(d < 0);
    }
    high[64] ^= 1;
    assert!(
        PublicKey::recover(&hash, &high)
            .unwrap_err()
            .to_string()
            .contains("mutated")
    );
    // Another hash recovers another key.
    let other = PublicKey::recover(&[8u8; 32], &sig).unwrap();
    assert_ne!(other, key.public_key());
}
