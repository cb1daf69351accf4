//! The flow check, written once for both chains (`avax.VerifyFlowCheck`, the P-chain's
//! `VerifySpendUTXOs`): each spent UTXO spent once, existing, of the input's asset and
//! amount, signed for by its owners ([`crate::secp::check_signatures`]); then every asset
//! consumed at least as produced, the fee included.
//!
//! A chain plugs in through [`Input`]: how its input and the UTXO it names read as a
//! secp256k1fx transfer, with the chain's own refusals in its own order. What only the
//! P-chain has, stakeable locks, is counted here too ([`Flow::consume_locked`],
//! [`Flow::produce_locked`]): the X-chain never locks, so its locked sums stay empty and the
//! check is the same as without them.

use crate::refusal::{Refusal, VerifyError, fail};
use crate::secp::check_signatures;
use crate::store::StoreError;
use avalanche_rpc::codec::{Encode, Writer, avax, secp256k1fx};
use avalanche_rpc::wire::Id;
use std::collections::{BTreeMap, BTreeSet};

/// Stakeable-locked funds as the flow check counts them: by asset, locktime and owner.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Locked {
    asset: Id,
    locktime: u64,
    owner: Vec<u8>,
}

impl Locked {
    fn new(asset: Id, locktime: u64, owners: &secp256k1fx::OutputOwners) -> Locked {
        Locked {
            asset,
            locktime,
            // The owners' bytes: locks of one owner compare equal.
            owner: {
                let mut w = Writer::new();
                owners.encode(&mut w).expect("in-memory owners encode");
                w.into_bytes()
            },
        }
    }
}

/// The amounts a transaction consumes and produces, per asset (and per stakeable lock), and
/// the UTXOs it spent so far.
#[derive(Debug, Default)]
pub struct Flow {
    consumed: BTreeMap<Id, u128>,
    produced: BTreeMap<Id, u128>,
    locked_consumed: BTreeMap<Locked, u128>,
    locked_produced: BTreeMap<Locked, u128>,
    spent: BTreeSet<Id>,
}

impl Flow {
    /// A flow that pays `fee` of `fee_asset` (produced, as an output would be).
    pub fn new(fee_asset: Id, fee: u64) -> Flow {
        let mut flow = Flow::default();
        flow.produce(fee_asset, fee);
        flow
    }

    pub fn consume(&mut self, asset: Id, amount: u64) {
        *self.consumed.entry(asset).or_default() += u128::from(amount);
    }

    pub fn produce(&mut self, asset: Id, amount: u64) {
        *self.produced.entry(asset).or_default() += u128::from(amount);
    }

    /// Consumes funds stakeable-locked until `locktime` for `owners`.
    pub fn consume_locked(
        &mut self,
        asset: Id,
        locktime: u64,
        owners: &secp256k1fx::OutputOwners,
        amount: u64,
    ) {
        *self
            .locked_consumed
            .entry(Locked::new(asset, locktime, owners))
            .or_default() += u128::from(amount);
    }

    /// Produces funds stakeable-locked until `locktime` for `owners`.
    pub fn produce_locked(
        &mut self,
        asset: Id,
        locktime: u64,
        owners: &secp256k1fx::OutputOwners,
        amount: u64,
    ) {
        *self
            .locked_produced
            .entry(Locked::new(asset, locktime, owners))
            .or_default() += u128::from(amount);
    }

    /// The UTXO `reference` names (read by `read`), refused when this transaction already
    /// spent it or it is not unspent.
    pub fn fetch<U>(
        &mut self,
        reference: &avax::UtxoId,
        place: &str,
        read: impl FnOnce(&Id) -> Result<Option<U>, StoreError>,
        missing: impl FnOnce(&avax::UtxoId, &Id) -> String,
    ) -> Result<(Id, U), VerifyError> {
        let id = reference.id();
        if !self.spent.insert(id) {
            return fail(format!("`{place}` spends UTXO {id} a second time"));
        }
        match read(&id)? {
            Some(u) => Ok((id, u)),
            None => Err(Refusal::node(
                missing(reference, &id),
                format!(
                    "`{place}` spends output {} of tx {}, which is not an unspent output of this chain (UTXO {id})",
                    reference.output_index, reference.tx_id
                ),
            )
            .into()),
        }
    }

    /// The flow holds: locked outputs beyond the locked inputs of their owner and locktime
    /// take unlocked funds; then every asset is consumed at least as produced. `fee` words
    /// the fee in the refusal for the fee's asset.
    /// `short(asset, more)` is the node's words for an asset short of `more`.
    pub fn settle(
        mut self,
        fee_asset: &Id,
        fee: &str,
        short: impl Fn(&Id, u128) -> String,
    ) -> Result<(), Refusal> {
        for (key, out) in &self.locked_produced {
            let have = self.locked_consumed.get(key).copied().unwrap_or(0);
            if *out > have {
                let more = out - have;
                let unlocked = self.consumed.entry(key.asset).or_default();
                if more > *unlocked {
                    return fail(format!(
                        "insufficient locked funds: the owner of {} nAVAX locked until {} needs {} more of asset {}",
                        out,
                        key.locktime,
                        more - *unlocked,
                        key.asset
                    ));
                }
                *unlocked -= more;
            }
        }
        for (asset, out) in &self.produced {
            let have = self.consumed.get(asset).copied().unwrap_or(0);
            if have < *out {
                let what = if asset == fee_asset {
                    format!(" (outputs plus the fee of {fee})")
                } else {
                    String::new()
                };
                return Err(Refusal::node(
                    short(asset, out - have),
                    format!(
                        "insufficient funds of asset {asset}: the inputs hold {have}, the transaction needs {out}{what}"
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// What the flow check reads of a spend, once its chain has read its input and UTXO.
#[derive(Debug, Clone, Copy)]
pub struct Opened<'a> {
    /// The output spent: its amount and owners.
    pub output: &'a secp256k1fx::TransferOutput,
    /// The input: its amount and signature indices.
    pub input: &'a secp256k1fx::TransferInput,
    /// The stakeable lock that still holds the output at the block's time (P-chain only).
    pub locked_until: Option<u64>,
}

/// A chain's input, as the flow check spends it.
pub trait Input {
    /// The chain's UTXO.
    type Utxo;
    /// The chain's credential.
    type Credential;

    fn utxo_id(&self) -> &avax::UtxoId;
    fn asset_id(&self) -> Id;
    fn utxo_asset(utxo: &Self::Utxo) -> Id;
    /// The input and the UTXO read as a secp256k1fx transfer at `time`, with the chain's own
    /// refusals in its own order.
    fn open<'a>(
        &'a self,
        utxo: &'a Self::Utxo,
        place: &str,
        time: u64,
    ) -> Result<Opened<'a>, Refusal>;
    /// The secp256k1fx credential inside, if it is one.
    fn credential(c: &Self::Credential) -> Option<&secp256k1fx::Credential>;
    /// The node's words for a UTXO `reference` (ID `id`) that is not there, in shared memory
    /// if `from_memory`.
    fn missing(reference: &avax::UtxoId, id: &Id, from_memory: bool) -> String;
    /// How the node wraps the refusal of a spend's amount or signatures, if it does.
    fn spend_context(from_memory: bool) -> Option<&'static str>;
}

/// One input to spend: where it is in the transaction, and whether it spends from shared
/// memory (an imported input).
pub struct Spend<'t, I> {
    pub place: String,
    pub input: &'t I,
    pub from_memory: bool,
}

/// A UTXO spent.
pub struct Spent<U> {
    pub id: Id,
    pub utxo: U,
    pub from_memory: bool,
}

/// The inputs and imported inputs of a transaction spent in order, the `k`-th signed for by
/// `credentials[k]` over `hash` at `time`: each UTXO read by `read` (`true`: from shared
/// memory), of the input's asset and amount, its owners' signatures checked; the amounts
/// consumed into `flow`.
pub fn spend<'t, I, R>(
    flow: &mut Flow,
    spends: impl IntoIterator<Item = Spend<'t, I>>,
    mut read: R,
    credentials: &[I::Credential],
    (hash, time): (&[u8; 32], u64),
) -> Result<Vec<Spent<I::Utxo>>, VerifyError>
where
    I: Input + 't,
    R: FnMut(&Id, bool) -> Result<Option<I::Utxo>, StoreError>,
{
    let mut out = Vec::new();
    for (k, s) in spends.into_iter().enumerate() {
        let (place, input) = (&s.place, s.input);
        let (id, utxo) = flow.fetch(
            input.utxo_id(),
            place,
            |id| read(id, s.from_memory),
            |r, id| I::missing(r, id, s.from_memory),
        )?;
        let wrap = |e: Refusal| match I::spend_context(s.from_memory) {
            Some(context) => e.within(context),
            None => e,
        };
        let held = I::utxo_asset(&utxo);
        if held != input.asset_id() {
            return fail(format!(
                "`{place}.assetID` is {}, but the UTXO holds {held}",
                input.asset_id()
            ));
        }
        let o = input.open(&utxo, place, time)?;
        if o.input.amount != o.output.amount {
            // `vms/secp256k1fx/fx.go:162`.
            return Err(VerifyError::from(wrap(Refusal::node(
                format!(
                    "utxo amount and input amount are not equal: {} != {}",
                    o.output.amount, o.input.amount
                ),
                format!(
                    "`{place}.input.amount` is {}, but the UTXO holds {}",
                    o.input.amount, o.output.amount
                ),
            ))));
        }
        let Some(cred) = credentials.get(k).and_then(I::credential) else {
            return fail(format!(
                "`credentials[{k}]` is not a secp256k1fx credential"
            ));
        };
        let owners = &o.output.owners;
        check_signatures(
            owners,
            &o.input.input.signature_indices,
            cred,
            hash,
            time,
            place,
        )
        .map_err(|e| wrap(e.into()))?;
        match o.locked_until {
            None => flow.consume(held, o.input.amount),
            Some(lock) => flow.consume_locked(held, lock, owners, o.input.amount),
        }
        out.push(Spent {
            id,
            utxo,
            from_memory: s.from_memory,
        });
    }
    Ok(out)
}

/// The places of a transaction's inputs then imported inputs, the order their credentials
/// follow.
pub fn spends<'t, I>(inputs: &'t [I], imported: &'t [I]) -> Vec<Spend<'t, I>> {
    let own = inputs.iter().enumerate().map(|(i, input)| Spend {
        place: format!("unsignedTx.inputs[{i}]"),
        input,
        from_memory: false,
    });
    own.chain(imported.iter().enumerate().map(|(i, input)| Spend {
        place: format!("unsignedTx.importedInputs[{i}]"),
        input,
        from_memory: true,
    }))
    .collect()
}
