//! Transactions: each kind built once (context and UTXOs from the node), then mutated copies
//! issued to both sides (before the valid one, so each is refused for its own fault and not
//! for a spent input), then the valid one issued to both and confirmed on both, then copies
//! that spend what it spent.

use std::time::Duration;

use avalanche_rpc::codec::{Decode, Encode, Reader, Writer, avm, platform as pc};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::rpc::Node;
use avalanche_rpc::transact::{self, Context, Keychain, Signable, Unsigned};
use avalanche_rpc::wire::{HexBytes, Id, ShortId};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::rpc::{Side, error_message, result};

pub const WAIT: Duration = Duration::from_secs(60);

/// Which chain a transaction is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Chain {
    X,
    P,
}

/// A transaction as bytes: its unsigned bytes and who signs each credential (with the
/// credential's type ID), so a mutated copy can be signed again.
#[derive(Clone)]
pub struct Raw {
    pub chain: Chain,
    pub unsigned: Vec<u8>,
    pub creds: Vec<(u32, Vec<ShortId>)>,
    pub fee: u64,
    pub burned: u64,
}

impl Raw {
    pub fn of<U: Signable>(chain: Chain, tx: &Unsigned<U>, keys: &Keychain) -> Raw
    where
        U::Signed: Encode,
    {
        let mut t = tx.clone();
        t.sign(keys).expect("sign");
        let unsigned = t.bytes().expect("bytes");
        let mut w = Writer::new();
        // The signed form: codec version, then the transaction (its unsigned bytes after
        // the version), then the credentials.
        w.u16(0);
        t.partial().encode(&mut w).expect("encode");
        let signed = w.into_bytes();
        assert_eq!(
            &signed[..unsigned.len()],
            &unsigned[..],
            "signed = unsigned || creds"
        );
        let mut r = Reader::new(&signed[unsigned.len()..]);
        let n = r.u32().expect("creds");
        let mut creds = Vec::new();
        for s in tx.signers().iter().take(n as usize) {
            let ty = r.u32().expect("type");
            let k = r.u32().expect("sigs");
            for _ in 0..k {
                r.array::<65>().expect("sig");
            }
            creds.push((ty, s.addresses.clone()));
        }
        Raw {
            chain,
            unsigned,
            creds,
            fee: tx.fee(),
            burned: tx.burned(),
        }
    }

    /// Signed bytes: each slot signed by its address's key in `keys`, or by `stranger`.
    pub fn signed(&self, keys: &Keychain, stranger: Option<&PrivateKey>) -> Vec<u8> {
        let hash: [u8; 32] = Sha256::digest(&self.unsigned).into();
        let mut w = Writer::new();
        w.raw(&self.unsigned);
        w.u32(self.creds.len() as u32);
        for (ty, addrs) in &self.creds {
            w.u32(*ty);
            w.u32(addrs.len() as u32);
            for a in addrs {
                let sig = match (stranger, keys.get(a)) {
                    (Some(s), _) => s.sign_hash(&hash),
                    (None, Some(k)) => k.sign_hash(&hash),
                    (None, None) => [0; 65],
                };
                w.raw(&sig);
            }
        }
        w.into_bytes()
    }

    /// The transaction's ID as both sides compute it: SHA-256 of the signed bytes.
    pub fn id(&self, keys: &Keychain) -> Id {
        Id::from_sha256(&self.signed(keys, None))
    }

    /// A copy with its common fields (`avax.Base`, right after the codec version and the
    /// type ID in every kind) changed by `f`.
    pub fn with_base(&self, f: impl FnOnce(&mut dyn BaseLike)) -> Raw {
        let mut out = self.clone();
        let body = &self.unsigned[6..];
        let mut r = Reader::new(body);
        let mut w = Writer::new();
        match self.chain {
            Chain::X => {
                let mut b = avm::Base::decode(&mut r).expect("base");
                f(&mut b);
                b.outputs.sort_by_cached_key(enc);
                b.encode(&mut w).expect("encode");
            }
            Chain::P => {
                let mut b = pc::Base::decode(&mut r).expect("base");
                f(&mut b);
                b.outputs.sort_by_cached_key(enc);
                b.encode(&mut w).expect("encode");
            }
        }
        let used = r.offset();
        let mut bytes = self.unsigned[..6].to_vec();
        bytes.extend(w.into_bytes());
        bytes.extend(&body[used..]);
        out.unsigned = bytes;
        out
    }
}

fn enc<T: Encode>(v: &T) -> Vec<u8> {
    let mut w = Writer::new();
    let _ = v.encode(&mut w);
    w.into_bytes()
}

/// The common fields of both chains' `avax.Base`.
pub trait BaseLike {
    fn network_id(&mut self) -> &mut u32;
    fn blockchain_id(&mut self) -> &mut Id;
    fn memo(&mut self) -> &mut Vec<u8>;
    fn inputs(&self) -> usize;
    fn outputs(&self) -> usize;
    /// Duplicates the first input (so one UTXO is spent twice).
    fn dup_first_input(&mut self);
    /// The amount of the first input.
    fn input_amount(&mut self) -> Option<&mut u64>;
    /// The amount of the first unlocked output owned by `owner` alone.
    fn output_amount(&mut self, owner: &ShortId) -> Option<&mut u64>;
}

/// `BaseLike` for a chain's `Base`, whose inputs and outputs are the chain module's (`$m`).
macro_rules! base_like {
    ($m:ident) => {
        impl BaseLike for $m::Base {
            fn network_id(&mut self) -> &mut u32 {
                &mut self.network_id
            }
            fn blockchain_id(&mut self) -> &mut Id {
                &mut self.blockchain_id
            }
            fn memo(&mut self) -> &mut Vec<u8> {
                &mut self.memo
            }
            fn inputs(&self) -> usize {
                self.inputs.len()
            }
            fn outputs(&self) -> usize {
                self.outputs.len()
            }
            fn dup_first_input(&mut self) {
                let i = self.inputs[0].clone();
                self.inputs.insert(0, i);
            }
            fn input_amount(&mut self) -> Option<&mut u64> {
                match &mut self.inputs.first_mut()?.input {
                    $m::TransferableIn::TransferInput(i) => Some(&mut i.amount),
                    _ => None,
                }
            }
            fn output_amount(&mut self, owner: &ShortId) -> Option<&mut u64> {
                self.outputs.iter_mut().find_map(|o| match &mut o.output {
                    $m::TransferableOut::TransferOutput(t)
                        if t.owners.addresses == [*owner] && t.owners.locktime == 0 =>
                    {
                        Some(&mut t.amount)
                    }
                    _ => None,
                })
            }
        }
    };
}
base_like!(avm);
base_like!(pc);

/// What one issue did on each side.
pub struct Issued {
    pub key: String,
    pub node: Value,
    pub devnet: Value,
}

impl Issued {
    pub fn node_accepted(&self) -> bool {
        result(&self.node).is_some()
    }
    pub fn devnet_accepted(&self) -> bool {
        result(&self.devnet).is_some()
    }
}

/// Issues raw signed bytes to both sides (`avm.issueTx` / `platform.issueTx`, hex).
pub async fn issue_both(
    node: &Side,
    dev: &Side,
    chain: Chain,
    key: String,
    bytes: &[u8],
) -> Issued {
    let (method, path) = match chain {
        Chain::X => ("avm.issueTx", "/ext/bc/X"),
        Chain::P => ("platform.issueTx", "/ext/bc/P"),
    };
    let params = json!({ "tx": HexBytes::with_checksum(bytes), "encoding": "hex" });
    let n = node.call(path, method, &params).await;
    let d = dev.call(path, method, &params).await;
    Issued {
        key: format!("{method} {key}"),
        node: n,
        devnet: d,
    }
}

/// Waits for `id` on one side (accepted on X, committed on P).
pub async fn confirm(side: &Node, chain: Chain, id: Id) -> Result<(), String> {
    let chain = match chain {
        Chain::X => transact::IssuedTo::X,
        Chain::P => transact::IssuedTo::P,
    };
    transact::Pending::new(side, chain, id)
        .wait_for(WAIT)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The nAVAX `who` holds on one side, in every UTXO on X and P (the atomic ones too).
pub async fn holdings(side: &Node, ctx: &Context, who: &ShortId) -> Result<u64, String> {
    let mut total = 0u64;
    for src in [None, Some("P")] {
        let u = transact::x::utxos(side, ctx, &[*who], src)
            .await
            .map_err(|e| e.to_string())?;
        total += u
            .iter()
            .filter(|u| u.asset_id == ctx.avax_asset_id)
            .map(|u| match &u.output {
                avm::UtxoOutput::Secp256k1fxTransferOutput(o) => o.amount,
                _ => 0,
            })
            .sum::<u64>();
    }
    for src in [None, Some("X")] {
        let u = transact::p::utxos(side, ctx, &[*who], src)
            .await
            .map_err(|e| e.to_string())?;
        total += u
            .iter()
            .filter(|u| u.asset_id == ctx.avax_asset_id)
            .map(|u| match &u.output {
                pc::UtxoOutput::TransferOutput(o) => o.amount,
                _ => 0,
            })
            .sum::<u64>();
    }
    Ok(total)
}

/// The generic mutations of a transaction, each with its case name; `other_chain` is a
/// chain ID that is not the transaction's.
pub fn mutations(
    tx: &Raw,
    keys: &Keychain,
    me: &ShortId,
    other_chain: Id,
    stranger: &PrivateKey,
) -> Vec<(&'static str, Vec<u8>)> {
    let mut out: Vec<(&'static str, Vec<u8>)> = Vec::new();
    // A signature with one byte of its `s` changed.
    let mut b = tx.signed(keys, None);
    let n = b.len();
    b[n - 20] ^= 0x01;
    out.push(("bad-signature", b));
    // Every signature by a key that owns nothing here.
    out.push(("wrong-owner", tx.signed(keys, Some(stranger))));
    // A credential short, and one too many.
    let mut t = tx.clone();
    t.creds.pop();
    out.push(("missing-credential", t.signed(keys, None)));
    let mut t = tx.clone();
    if let Some(c) = t.creds.last().cloned() {
        t.creds.push(c);
    }
    out.push(("extra-credential", t.signed(keys, None)));
    // The network and the chain.
    out.push((
        "wrong-network",
        tx.with_base(|b| *b.network_id() = 12345).signed(keys, None),
    ));
    out.push((
        "wrong-chain",
        tx.with_base(|b| *b.blockchain_id() = other_chain)
            .signed(keys, None),
    ));
    // A memo over the 256 bytes of the codec (the P-chain refuses any memo).
    out.push((
        "memo-257-bytes",
        tx.with_base(|b| *b.memo() = vec![7; 257])
            .signed(keys, None),
    ));
    if tx.chain == Chain::P {
        out.push((
            "memo-1-byte",
            tx.with_base(|b| *b.memo() = vec![7]).signed(keys, None),
        ));
    }
    // Codec version 1.
    let mut t = tx.clone();
    t.unsigned[1] = 1;
    out.push(("codec-version", t.signed(keys, None)));
    // Unknown type ID.
    let mut t = tx.clone();
    t.unsigned[2..6].copy_from_slice(&999u32.to_be_bytes());
    out.push(("unknown-type", t.signed(keys, None)));
    // Truncated: the last byte of the signed bytes cut.
    let mut b = tx.signed(keys, None);
    b.pop();
    out.push(("truncated", b));
    // Trailing byte.
    let mut b = tx.signed(keys, None);
    b.push(0);
    out.push(("trailing-byte", b));
    let mut probe = tx.with_base(|_| {});
    let (mut ins, mut outs) = (0, 0);
    probe = probe.with_base(|b| {
        ins = b.inputs();
        outs = b.outputs();
    });
    let _ = probe;
    if ins > 0 {
        // One UTXO spent twice in one transaction.
        let mut t = tx.with_base(|b| b.dup_first_input());
        let first = t.creds[0].clone();
        t.creds.insert(0, first);
        out.push(("input-spent-twice", t.signed(keys, None)));
        // The first input claims 1 AVAX more than its UTXO holds.
        out.push((
            "input-amount-changed",
            tx.with_base(|b| {
                if let Some(a) = b.input_amount() {
                    *a += 1_000_000_000;
                }
            })
            .signed(keys, None),
        ));
    }
    if outs > 0 {
        let short = tx.burned - tx.fee + 1;
        let mut found = false;
        let t = tx.with_base(|b| {
            if let Some(a) = b.output_amount(me) {
                *a += short;
                found = true;
            }
        });
        if found {
            // The change one nAVAX larger than the fee allows.
            out.push(("fee-one-short", t.signed(keys, None)));
            // The change 1 AVAX larger: outputs exceed inputs.
            out.push((
                "output-amount-changed",
                tx.with_base(|b| {
                    if let Some(a) = b.output_amount(me) {
                        *a += 1_000_000_000;
                    }
                })
                .signed(keys, None),
            ));
        }
    }
    out
}

/// A copy that spends exactly what `tx` spent but is another transaction (its change one
/// nAVAX smaller, or, with no change, a memo on X): to issue once `tx` is accepted.
pub fn respend(tx: &Raw, keys: &Keychain, me: &ShortId) -> Option<Vec<u8>> {
    let mut found = false;
    let t = tx.with_base(|b| {
        if let Some(a) = b.output_amount(me)
            && *a > 1
        {
            *a -= 1;
            found = true;
        }
    });
    if found {
        return Some(t.signed(keys, None));
    }
    (tx.chain == Chain::X).then(|| tx.with_base(|b| *b.memo() = vec![1]).signed(keys, None))
}

/// The error text of a reply, or `accepted`.
pub fn verdict(v: &Value) -> String {
    match error_message(v) {
        Some(m) => m.to_string(),
        None if result(v).is_some() => "accepted".into(),
        None => v.to_string(),
    }
}
