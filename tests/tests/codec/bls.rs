//! BLS keys and proofs of possession against the node's vector (codec reference §9.10), and
//! the proof inside the node's ConvertSubnetToL1Tx-with-validator vector checks.

use avalanche_rpc::bls::{SecretKey, verify_proof_of_possession, verify_signature};

fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex<const N: usize>(s: &str) -> [u8; N] {
    let v: Vec<u8> = (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect();
    v.try_into().unwrap()
}

const PUBLIC: &str = "aff4acb4c5439b5d426cadf9e946d3a452f7de3414d1ad27336133211d8b90cf49fb97eebcdeeef714dc20f54ed0d4d1";
const PROOF: &str = "8cfd7909d153b9604b62b143ba36207bb7e64867424480202a67dc68768346d95c90983c2d279c64c43c51136b2a05e01602d52aa6376fda17fa6e2a18a083e49d9c450eab7b89b1d5555da5c489872e02b7e5227b77550af1330e5a71f8c368";

#[test]
fn the_node_proof_of_possession() {
    // Source: vms/platformvm/txs/convert_subnet_to_l1_tx_test.go (localsigner.FromBytes).
    let sk = SecretKey::from_bytes(&unhex(
        "6668fecd4595b81e4d568398c820bbf3f073cb222902279fa55ebb84764ed2e3",
    ))
    .unwrap();
    assert_eq!(hex(&sk.public_key()), PUBLIC);
    assert_eq!(hex(&sk.proof_of_possession()), PROOF);
    verify_proof_of_possession(&unhex(PUBLIC), &unhex(PROOF)).unwrap();
}

#[test]
fn wrong_proofs_and_signatures_are_refused() {
    let sk = SecretKey::from_seed(&[7u8; 32]).unwrap();
    let other = SecretKey::from_seed(&[8u8; 32]).unwrap();
    // Another key's proof.
    assert!(verify_proof_of_possession(&sk.public_key(), &other.proof_of_possession()).is_err());
    // A message signature is not a proof of possession (another ciphersuite).
    let as_message = sk.sign(&sk.public_key());
    assert!(verify_proof_of_possession(&sk.public_key(), &as_message).is_err());
    verify_signature(&sk.public_key(), &as_message, &sk.public_key()).unwrap();
    assert!(verify_signature(&sk.public_key(), &as_message, b"other").is_err());
    // Bytes that are no point.
    assert!(verify_proof_of_possession(&[0xff; 48], &sk.proof_of_possession()).is_err());
    assert!(SecretKey::from_bytes(&[0u8; 32]).is_err());
}
