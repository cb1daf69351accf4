//! Signatures made elsewhere, made into the node's form: `r ‖ s ‖ v` with `s` in the lower
//! half and the recovery ID `v` under which the signature recovers to the signer's address.
//! Hardware wallets, KMSs and HSMs answer ASN.1 DER or 64 bytes `r ‖ s`, often with `s` in
//! either half and no recovery ID; the node refuses an `s` in the upper half
//! (`utils/crypto/secp256k1`: "signature was mutated from its original format").

use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};

use super::{KeyError, PublicKey};
use crate::wire::ShortId;

/// The 64 bytes `r ‖ s` of an ASN.1 DER ECDSA signature (`SEQUENCE { INTEGER r, INTEGER s }`),
/// read strictly: minimal lengths, no negative or zero-padded integers, nothing after it.
pub fn compact_from_der(der: &[u8]) -> Result<[u8; 64], KeyError> {
    let bad = |why: &str| KeyError(format!("not a DER ECDSA signature: {why}"));
    let [0x30, len, body @ ..] = der else {
        return Err(bad("it does not start with a SEQUENCE"));
    };
    if usize::from(*len) != body.len() || *len >= 0x80 {
        return Err(bad("the SEQUENCE's length is not the bytes that follow it"));
    }
    let mut out = [0u8; 64];
    let mut rest = body;
    for (i, name) in ["r", "s"].into_iter().enumerate() {
        let [0x02, n, tail @ ..] = rest else {
            return Err(bad(&format!("{name} is not an INTEGER")));
        };
        let n = usize::from(*n);
        if n == 0 || n > 33 || tail.len() < n {
            return Err(bad(&format!(
                "{name}'s length {n} is not 1 to 33 bytes within the signature"
            )));
        }
        let value = &tail[..n];
        if value[0] & 0x80 != 0 {
            return Err(bad(&format!("{name} is negative")));
        }
        if n > 1 && value[0] == 0 && value[1] & 0x80 == 0 {
            return Err(bad(&format!("{name} has a needless leading zero")));
        }
        let value = if n == 33 { &value[1..] } else { value };
        out[i * 32 + 32 - value.len()..(i + 1) * 32].copy_from_slice(value);
        rest = &tail[n..];
    }
    if !rest.is_empty() {
        return Err(bad("bytes follow s"));
    }
    Ok(out)
}

/// `r ‖ s` (with `s` in either half) as the node takes it: `s` in the lower half, and the
/// recovery ID under which it recovers to `address`'s key over `hash`, found by trying each.
/// Refused when `r` or `s` is not valid, or when no recovery ID gives `address`: the signer
/// used another key, or signed another digest.
pub fn recoverable(
    hash: &[u8; 32],
    compact: &[u8; 64],
    address: &ShortId,
) -> Result<[u8; 65], KeyError> {
    let sig = Signature::from_slice(compact)
        .map_err(|_| KeyError("the signature's r or s is not valid".into()))?;
    let sig = sig.normalize_s().unwrap_or(sig);
    for v in 0..2u8 {
        let id = RecoveryId::from_byte(v).expect("0 and 1 are recovery IDs");
        if let Ok(key) = VerifyingKey::recover_from_prehash(hash, &sig, id)
            && PublicKey(key).address() == *address
        {
            let mut out = [0u8; 65];
            out[..64].copy_from_slice(&sig.to_bytes());
            out[64] = v;
            return Ok(out);
        }
    }
    Err(KeyError(format!(
        "the signature does not recover to {address} over this digest: another key or another message was signed"
    )))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::keys::PrivateKey;

    /// `r ‖ s` as DER, minimal.
    pub(crate) fn der(compact: &[u8; 64]) -> Vec<u8> {
        let int = |x: &[u8]| {
            let x = &x[x.iter().position(|b| *b != 0).unwrap_or(31)..];
            let mut v = vec![0x02];
            if x[0] & 0x80 != 0 {
                v.push(x.len() as u8 + 1);
                v.push(0);
            } else {
                v.push(x.len() as u8);
            }
            v.extend_from_slice(x);
            v
        };
        let body = [int(&compact[..32]), int(&compact[32..])].concat();
        [vec![0x30, body.len() as u8], body].concat()
    }

    /// The curve order, big-endian.
    const N: [u8; 32] = [
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xfe, 0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36,
        0x41, 0x41,
    ];

    /// `N - s`: the same signature with `s` in the other half.
    pub(crate) fn flip(s: &[u8]) -> [u8; 32] {
        let mut out = [0u8; 32];
        let mut borrow = 0i16;
        for i in (0..32).rev() {
            let d = i16::from(N[i]) - i16::from(s[i]) - borrow;
            borrow = i16::from(d < 0);
            out[i] = (d + if d < 0 { 256 } else { 0 }) as u8;
        }
        out
    }

    #[test]
    fn der_and_high_s_signatures_become_the_nodes_form() {
        for seed in 1..=40u8 {
            let key = PrivateKey::from_bytes(&[seed; 32]).unwrap();
            let hash = [seed.wrapping_mul(7); 32];
            let node = key.sign_hash(&hash);
            let compact: [u8; 64] = node[..64].try_into().unwrap();
            let a = key.address();
            assert_eq!(
                recoverable(&hash, &compact, &a).unwrap(),
                node,
                "seed {seed}"
            );
            assert_eq!(compact_from_der(&der(&compact)).unwrap(), compact);
            // s in the upper half, as many HSMs answer: normalized, recovery ID found.
            let mut high = compact;
            high[32..].copy_from_slice(&flip(&compact[32..]));
            assert_eq!(recoverable(&hash, &high, &a).unwrap(), node, "seed {seed}");
            assert_eq!(
                recoverable(&hash, &compact_from_der(&der(&high)).unwrap(), &a).unwrap(),
                node
            );
            // Another address, or another digest: refused.
            let other = PrivateKey::from_bytes(&[seed.wrapping_add(100); 32])
                .unwrap()
                .address();
            let e = recoverable(&hash, &compact, &other)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("does not recover to") && e.contains(&other.to_string()),
                "{e}"
            );
            assert!(recoverable(&[0xaa; 32], &compact, &a).is_err());
        }
    }

    #[test]
    fn der_is_read_strictly() {
        let key = PrivateKey::from_bytes(&[9; 32]).unwrap();
        let sig: [u8; 64] = key.sign_hash(&[1; 32])[..64].try_into().unwrap();
        let good = der(&sig);
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (vec![], "does not start with a SEQUENCE"),
            ([&good[..], &[0]].concat(), "length is not the bytes"),
            (good[..good.len() - 1].to_vec(), "length is not the bytes"),
            (vec![0x30, 0x03, 0x02, 0x01, 0x01], "s is not an INTEGER"),
            (
                vec![0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x01],
                "r is negative",
            ),
            (
                vec![0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01],
                "r has a needless leading zero",
            ),
            (
                vec![0x30, 0x06, 0x02, 0x00, 0x02, 0x02, 0x01, 0x01],
                "r's length 0",
            ),
            (
                vec![0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00],
                "bytes follow s",
            ),
        ];
        for (bytes, words) in cases {
            let e = compact_from_der(&bytes).unwrap_err().to_string();
            assert!(e.contains(words), "{bytes:02x?}: {e}");
        }
    }
}
