//! Properties of the codec over generated inputs, for every root of every codec:
//!
//! - bytes built at random from the spec's layouts (random lengths, random slot choices,
//!   random contents) decode; they re-encode to the same bytes (decode∘encode is the
//!   identity) and the decoded value encodes and decodes back to itself (encode∘decode is
//!   the identity on every value reached);
//! - the JSON form of each decoded value reads back into a value with the same JSON form (but
//!   for the IDs, where the JSON cannot tell two types apart);
//! - the node's vectors, mutated at random (bytes flipped, cut, extended), either fail to
//!   decode or re-encode to exactly the bytes that decoded (the encoding is canonical), and
//!   decoding never panics.
//!
//! The generator is seeded, so a failure is reproducible; it prints the seed and the bytes.

use avalanche_rpc::codec::{
    FromJson, JsonContext, ToJson, atomic, avm, platform, proposervm, warp, warp_l1, warp_payload,
};
use avalanche_rpc_codegen::codec::model::{Codec, Codecs, Layout};
use std::collections::BTreeSet;
use std::path::Path;

/// A small, seeded generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn bytes(&mut self, n: usize, out: &mut Vec<u8>) {
        for _ in 0..n {
            out.push(self.next() as u8);
        }
    }
}

/// Appends a random valid encoding of `l` in codec `k`, noting each struct generated.
fn generate(
    rng: &mut Rng,
    c: &Codecs,
    k: &Codec,
    l: &Layout,
    depth: usize,
    out: &mut Vec<u8>,
    seen: &mut BTreeSet<String>,
) {
    match l {
        Layout::U8 => rng.bytes(1, out),
        Layout::U16 => rng.bytes(2, out),
        Layout::U32 => rng.bytes(4, out),
        Layout::U64 | Layout::I64 => rng.bytes(8, out),
        Layout::Bool => out.push(rng.below(2) as u8),
        Layout::Id => rng.bytes(32, out),
        Layout::ShortId | Layout::NodeId | Layout::EvmAddress => rng.bytes(20, out),
        Layout::FixedBytes(n) => rng.bytes(*n, out),
        Layout::Bytes => {
            let most = if rng.below(8) == 0 { 300 } else { 6 };
            let n = rng.below(most) as usize;
            out.extend_from_slice(&(n as u32).to_be_bytes());
            rng.bytes(n, out);
        }
        Layout::String => {
            let n = rng.below(10) as usize;
            out.extend_from_slice(&(n as u16).to_be_bytes());
            for _ in 0..n {
                out.push(b' ' + rng.below(95) as u8);
            }
        }
        Layout::List(inner) => {
            let n = if depth > 6 { 0 } else { rng.below(4) as usize };
            out.extend_from_slice(&(n as u32).to_be_bytes());
            for _ in 0..n {
                generate(rng, c, k, inner, depth + 1, out, seen);
            }
        }
        Layout::Struct(t) => {
            let s = c.get(t).expect("every struct the spec names exists");
            seen.insert(t.to_string());
            for f in &s.fields {
                generate(rng, c, k, &f.layout, depth + 1, out, seen);
            }
        }
        Layout::Slot(name) => {
            let slot = k.slot(name).expect("every slot a root reaches is defined");
            let t = &slot.types[rng.below(slot.types.len() as u64) as usize];
            out.extend_from_slice(&k.type_id(t).expect("slot types are numbered").to_be_bytes());
            generate(rng, c, k, &Layout::Struct(t.clone()), depth + 1, out, seen);
        }
    }
}

/// Decodes `bytes` as the root `key` ("codec root"), checks that the value encodes and
/// decodes back to itself, and returns its encoding; `None` for an unknown root.
fn round_trip(key: &str, bytes: &[u8]) -> Option<Result<Vec<u8>, String>> {
    macro_rules! roots {
        ($($key:literal => $t:ty),* $(,)?) => {
            match key {
                $($key => Some((|| {
                    let v = <$t>::from_bytes(bytes).map_err(|e| e.to_string())?;
                    let encoded = v.to_bytes().map_err(|e| e.to_string())?;
                    let again = <$t>::from_bytes(&encoded).map_err(|e| format!("re-decoding: {e}"))?;
                    if again != v {
                        return Err("the value changed through encode and decode".to_string());
                    }
                    // The JSON form reads back into a value with the same JSON form.
                    let cx = JsonContext::new("X", "local");
                    let json = v.to_json(&cx);
                    let read = <$t as FromJson>::from_json(&json, None)
                        .map_err(|e| format!("reading its JSON back: {e}\n{json}"))?;
                    // Where the JSON cannot tell two types apart (a propertyfx MintOutput and
                    // OwnedOutput have the same members; so do outputs whose fx is unknown),
                    // reading takes the first, so the bytes and the IDs they give may differ.
                    if without_ids(read.to_json(&cx)) != without_ids(json.clone()) {
                        return Err(format!("the JSON form changed through reading it: {json}"));
                    }
                    Ok(encoded)
                })()),)*
                _ => None,
            }
        };
    }
    roots! {
        "avm avm.Tx" => avm::Tx,
        "avm any<UnsignedTx>" => avm::UnsignedTx,
        "avm any<Block>" => avm::Block,
        "avm avax.Utxo" => avm::Utxo,
        "avm avm.Genesis" => avm::Genesis,
        "platform platform.Tx" => platform::Tx,
        "platform any<UnsignedTx>" => platform::UnsignedTx,
        "platform any<Block>" => platform::Block,
        "platform avax.Utxo" => platform::Utxo,
        "platform avax.TransferableOutput" => platform::TransferableOutput,
        "platform platform.Genesis" => platform::Genesis,
        "atomic atomic.Tx" => atomic::Tx,
        "atomic any<UnsignedTx>" => atomic::UnsignedTx,
        "atomic avax.Utxo" => atomic::Utxo,
        "warp warp.Message" => warp::Message,
        "warp-payload any<Payload>" => warp_payload::Payload,
        "warp-l1 any<L1Message>" => warp_l1::L1Message,
        "warp-l1 warp.SubnetToL1ConversionData" => warp::SubnetToL1ConversionData,
        "proposervm any<Block>" => proposervm::Block,
    }
}

/// `v` without its `id` members (the IDs of transactions and blocks).
fn without_ids(mut v: serde_json::Value) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("id");
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

fn spec() -> avalanche_rpc_codegen::Spec {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let sources = avalanche_rpc_codegen::Sources::read_dir(&dir).unwrap();
    avalanche_rpc_codegen::load(&sources).unwrap()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn random_encodings_of_every_root_round_trip() {
    let spec = spec();
    let c = &spec.codec;
    let mut roots = 0;
    let mut seen = BTreeSet::new();
    for k in &c.codecs {
        for root in &k.roots {
            let key = format!("{} {}", k.name, root.layout.spec_text());
            roots += 1;
            for case in 0..400u64 {
                let seed = 0x9e37_79b9_7f4a_7c15 ^ (case << 8) ^ roots;
                let mut rng = Rng(seed);
                let mut bytes = k.version.to_be_bytes().to_vec();
                generate(&mut rng, c, k, &root.layout, 0, &mut bytes, &mut seen);
                let got = round_trip(&key, &bytes)
                    .unwrap_or_else(|| panic!("no round trip for the root `{key}`: add it"));
                match got {
                    Ok(encoded) => assert_eq!(
                        encoded,
                        bytes,
                        "{key}, seed {seed:#x}: re-encoding differs from {}",
                        hex(&bytes)
                    ),
                    Err(e) => panic!("{key}, seed {seed:#x}: {e}\n{}", hex(&bytes)),
                }
            }
        }
    }
    assert_eq!(roots, 19, "every root of the spec is exercised");
    let never: Vec<String> = c
        .structs()
        .map(|s| s.name.to_string())
        .filter(|n| !seen.contains(n))
        .collect();
    assert!(never.is_empty(), "types never generated: {never:?}");
}

#[test]
fn mutated_vectors_fail_cleanly_or_re_encode_exactly() {
    use super::vectors::*;
    let cases: [(&str, &str); 12] = [
        ("avm avm.Tx", X_BASE_TX_SIGNED),
        ("avm avm.Tx", X_CREATE_ASSET_TX),
        ("avm avm.Tx", X_EXPORT_TX),
        ("avm avm.Genesis", X_GENESIS_LOCAL),
        ("avm any<Block>", X_GENESIS_BLOCK_LOCAL),
        ("platform platform.Tx", P_BASE_TX),
        ("platform platform.Tx", P_CONVERT_TX),
        ("platform platform.Tx", P_REGISTER_L1_VALIDATOR_TX),
        ("platform any<Block>", P_BANFF_PROPOSAL_BLOCK),
        ("platform any<UnsignedTx>", P_CONVERT_UNSIGNED),
        ("warp-l1 any<L1Message>", WARP_REGISTER_L1_VALIDATOR),
        (
            "warp-l1 warp.SubnetToL1ConversionData",
            WARP_CONVERSION_DATA,
        ),
    ];
    let mut decoded = 0;
    let mut refused = 0;
    for (n, (key, vector)) in cases.iter().enumerate() {
        let original: Vec<u8> = (0..vector.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&vector[i..i + 2], 16).unwrap())
            .collect();
        let mut rng = Rng(0x1234_5678 + n as u64);
        for _ in 0..2000 {
            let mut bytes = original.clone();
            match rng.below(4) {
                0 => {
                    let i = rng.below(bytes.len() as u64) as usize;
                    bytes[i] ^= 1 << rng.below(8);
                }
                1 => bytes.truncate(rng.below(bytes.len() as u64) as usize),
                2 => {
                    let n = 1 + rng.below(8) as usize;
                    rng.bytes(n, &mut bytes)
                }
                _ => {
                    // A length or count made larger than the input.
                    let i = rng.below(bytes.len().saturating_sub(4) as u64) as usize;
                    bytes[i..i + 4].copy_from_slice(&(rng.next() as u32).to_be_bytes());
                }
            }
            match round_trip(key, &bytes).expect("a known root") {
                Ok(encoded) => {
                    decoded += 1;
                    assert_eq!(encoded, bytes, "{key}: not canonical: {}", hex(&bytes));
                }
                Err(_) => refused += 1,
            }
        }
    }
    // Both outcomes happen, so both branches were tested.
    assert!(
        decoded > 1000 && refused > 1000,
        "{decoded} decoded, {refused} refused"
    );
}
