//! Transactions: each kind built once (context and UTXOs from the node), then mutated copies
//! issued to both sides (before the valid one, so each is refused for its own fault and not
//! for a spent input), then the valid one issued to both and confirmed on both, then copies
//! that spend what it spent.

use std::time::Duration;

use avalanche_rpc::codec::{Decode, Encode, Reader, Writer, atomic, avm, platform as pc};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::rpc::Node;
use avalanche_rpc::transact::{self, Context, Keychain, Signable, Unsigned};
use avalanche_rpc::wire::{EvmAddress, HexBytes, Id, ShortId};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::rpc::{Side, error_message, result};
use avalanche_rpc::eth::EthClient;

pub const WAIT: Duration = Duration::from_secs(60);

/// Which chain a transaction is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Chain {
    X,
    P,
    /// The C-chain's atomic side (`avax.issueTx`).
    C,
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

    /// A copy of a C-chain atomic transaction changed by `f` (it has no `avax.Base`).
    pub fn with_atomic(&self, f: impl FnOnce(&mut atomic::UnsignedTx)) -> Raw {
        let mut out = self.clone();
        let mut tx = atomic::UnsignedTx::from_bytes(&self.unsigned).expect("atomic tx");
        f(&mut tx);
        out.unsigned = tx.to_bytes().expect("encode");
        out
    }

    /// A copy with its common fields (`avax.Base`, right after the codec version and the
    /// type ID in every kind) changed by `f`; a C-chain transaction, which has none, is
    /// copied unchanged (its mutations are [`atomic_mutations`]).
    pub fn with_base(&self, f: impl FnOnce(&mut dyn BaseLike)) -> Raw {
        let mut out = self.clone();
        if self.chain == Chain::C {
            return out;
        }
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
            Chain::C => unreachable!("returned above"),
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
        Chain::C => ("avax.issueTx", "/ext/bc/C/avax"),
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

/// Waits for `id` on one side (accepted on X and C, committed on P).
pub async fn confirm(side: &Node, chain: Chain, id: Id) -> Result<(), String> {
    let chain = match chain {
        Chain::X => transact::IssuedTo::X,
        Chain::P => transact::IssuedTo::P,
        Chain::C => transact::IssuedTo::C,
    };
    transact::Pending::new(side, chain, id)
        .wait_for(WAIT)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The nAVAX `who` holds on one side: in every UTXO on X and P (the atomic ones too, from
/// each other chain), in the C-chain's shared memory (from X and P), and the balance of its
/// EVM address `evm` on C (wei, counted in whole nAVAX: every change to it is a multiple).
pub async fn holdings(
    side: &Node,
    ctx: &Context,
    who: &ShortId,
    evm: EvmAddress,
) -> Result<u64, String> {
    let mut total = 0u64;
    let wei = side
        .eth("C")
        .get_balance(avalanche_rpc::eth::GetBalanceParams::new(evm, "latest"))
        .await
        .map_err(|e| e.to_string())?
        .get();
    total += u64::try_from(wei / transact::c::WEI_PER_NAVAX).map_err(|e| e.to_string())?;
    for src in ["X", "P"] {
        let u = transact::c::utxos(side, ctx, &[*who], src)
            .await
            .map_err(|e| e.to_string())?;
        total += u
            .iter()
            .filter(|u| u.asset_id == ctx.avax_asset_id)
            .map(|u| match &u.output {
                atomic::UtxoOutput::TransferOutput(o) => o.amount,
                _ => 0,
            })
            .sum::<u64>();
    }
    for src in [None, Some("P"), Some("C")] {
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
    for src in [None, Some("X"), Some("C")] {
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
    // A signature with one byte of its `s` changed (every chain's credentials end the
    // signed bytes).
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
    if tx.chain == Chain::C {
        // The byte-level cases, then the C-chain's own (`atomic_mutations`, which the
        // scenario adds: they need the account and the chains).
        out.extend(byte_mutations(tx, keys));
        return out;
    }
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
    out.extend(byte_mutations(tx, keys));
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

/// The cases every chain's codec meets the same way: another codec version, an unknown type
/// ID, the signed bytes cut by one byte or one byte longer.
fn byte_mutations(tx: &Raw, keys: &Keychain) -> Vec<(&'static str, Vec<u8>)> {
    let mut out: Vec<(&'static str, Vec<u8>)> = Vec::new();
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
    out
}

/// What the C-chain's own mutations need: the chains, a chain that is not the transaction's
/// peer, an asset that is not AVAX, and (for an export) what its account can spend in nAVAX.
pub struct AtomicCase {
    pub network_id: u32,
    pub other_chain: Id,
    pub unknown_chain: Id,
    pub other_asset: Id,
    pub spendable: u64,
}

/// The C-chain's mutations of an atomic export or import: the network, the chain, the peer
/// chain, a nonce that is not the account's, the fee one nAVAX short, an amount above what
/// there is, an asset that is not AVAX (refused since Banff), one input twice.
pub fn atomic_mutations(tx: &Raw, keys: &Keychain, c: &AtomicCase) -> Vec<(&'static str, Vec<u8>)> {
    let mut out: Vec<(&'static str, Vec<u8>)> = Vec::new();
    let probe = atomic::UnsignedTx::from_bytes(&tx.unsigned).expect("atomic tx");
    let net = c.network_id.wrapping_add(1);
    let (other, unknown, asset, spendable) =
        (c.other_chain, c.unknown_chain, c.other_asset, c.spendable);
    match probe {
        atomic::UnsignedTx::UnsignedExportTx(_) => {
            let ex = |f: &dyn Fn(&mut atomic::UnsignedExportTx)| {
                tx.with_atomic(|t| {
                    if let atomic::UnsignedTx::UnsignedExportTx(e) = t {
                        f(e)
                    }
                })
                .signed(keys, None)
            };
            out.push(("wrong-network", ex(&|e| e.network_id = net)));
            out.push(("wrong-chain", ex(&|e| e.blockchain_id = other)));
            out.push((
                "unknown-destination",
                ex(&|e| e.destination_chain = unknown),
            ));
            out.push(("wrong-nonce", ex(&|e| e.inputs[0].nonce += 1)));
            out.push(("fee-one-short", ex(&|e| e.inputs[0].amount -= 1)));
            // The input above the account's balance, the output raised with it (the fee
            // unchanged).
            out.push((
                "amount-above-balance",
                ex(&|e| {
                    let more = spendable + 1 - e.inputs[0].amount;
                    e.inputs[0].amount += more;
                    if let atomic::TransferableOut::TransferOutput(o) =
                        &mut e.exported_outputs[0].output
                    {
                        o.amount += more;
                    }
                }),
            ));
            out.push((
                "non-avax-asset",
                ex(&|e| {
                    e.inputs[0].asset_id = asset;
                    e.exported_outputs[0].asset_id = asset;
                }),
            ));
            let mut t = tx.with_atomic(|t| {
                if let atomic::UnsignedTx::UnsignedExportTx(e) = t {
                    let i = e.inputs[0].clone();
                    e.inputs.insert(0, i);
                }
            });
            let first = t.creds[0].clone();
            t.creds.insert(0, first);
            out.push(("input-twice", t.signed(keys, None)));
        }
        atomic::UnsignedTx::UnsignedImportTx(_) => {
            let im = |f: &dyn Fn(&mut atomic::UnsignedImportTx)| {
                tx.with_atomic(|t| {
                    if let atomic::UnsignedTx::UnsignedImportTx(i) = t {
                        f(i)
                    }
                })
                .signed(keys, None)
            };
            out.push(("wrong-network", im(&|i| i.network_id = net)));
            out.push(("wrong-chain", im(&|i| i.blockchain_id = other)));
            out.push(("unknown-source", im(&|i| i.source_chain = unknown)));
            out.push(("fee-one-short", im(&|i| i.outputs[0].amount += 1)));
            out.push((
                "amount-above-balance",
                im(&|i| i.outputs[0].amount += 1_000_000_000),
            ));
            out.push((
                "input-amount-changed",
                im(&|i| {
                    if let atomic::TransferableIn::TransferInput(t) =
                        &mut i.imported_inputs[0].input
                    {
                        t.amount += 1_000_000_000;
                    }
                    i.outputs[0].amount += 1_000_000_000;
                }),
            ));
            out.push(("non-avax-asset", im(&|i| i.outputs[0].asset_id = asset)));
            let mut t = tx.with_atomic(|t| {
                if let atomic::UnsignedTx::UnsignedImportTx(i) = t {
                    let first = i.imported_inputs[0].clone();
                    i.imported_inputs.insert(0, first);
                }
            });
            let first = t.creds[0].clone();
            t.creds.insert(0, first);
            out.push(("input-spent-twice", t.signed(keys, None)));
        }
        _ => {}
    }
    out
}

/// A copy that spends exactly what `tx` spent but is another transaction (its change one
/// nAVAX smaller, or, with no change, a memo on X): to issue once `tx` is accepted.
pub fn respend(tx: &Raw, keys: &Keychain, me: &ShortId) -> Option<Vec<u8>> {
    if tx.chain == Chain::C {
        // An import crediting 1 nAVAX less from the same UTXOs; an export paying 1 nAVAX
        // more fee with the nonce it used.
        return Some(
            tx.with_atomic(|t| match t {
                atomic::UnsignedTx::UnsignedImportTx(i) => i.outputs[0].amount -= 1,
                atomic::UnsignedTx::UnsignedExportTx(e) => e.inputs[0].amount += 1,
                _ => {}
            })
            .signed(keys, None),
        );
    }
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
