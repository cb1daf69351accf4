//! Verifying a P-chain transaction against the chain's state, as the node's executor does
//! (`vms/platformvm/txs/executor`), and what it changes. Transaction types are accepted one
//! by one as the devnet learns them ([`PTxKind`]); the others are refused by name.
//!
//! In order: the codec's rules; the kind; network, chain and memo; one credential per input
//! (and one for an authorization); the fee from its gas ([`fee::gas`]); the flow check
//! ([`crate::flow`]) over inputs, outputs, exported outputs, stake and L1 balances; the
//! authorization; the kind's own checks, giving its [`Change`]; the flow's balance.

use super::kind::{self, PTxKind};
use super::vocab::{Authority, ChainState, Change, CheckInput, Parts, Rules};
use super::{Utxo, fee};
use crate::flow::{self, Flow, Opened};
use crate::refusal::{Refusal, VerifyError, fail};
use avalanche_rpc::codec::{Verify, avax, platform, secp256k1fx};
use avalanche_rpc::wire::Id;

/// What an accepted transaction changes, and the gas it uses.
#[derive(Debug, Clone, Default)]
pub struct Effects {
    pub consumed: Vec<(Id, Vec<[u8; 20]>)>,
    pub produced: Vec<Utxo>,
    /// Shared-memory UTXOs it imports (from the X-chain), with their owners.
    pub imported: Vec<(Id, Vec<[u8; 20]>)>,
    /// UTXOs it exports into shared memory (to the X-chain).
    pub exported: Vec<Utxo>,
    /// What it changes beyond UTXOs.
    pub change: Change,
    /// The asset fees and balances are paid in.
    pub avax: Id,
    pub gas: u64,
    /// The chain an ImportTx imports from or an ExportTx exports to (`None`: the X-chain).
    pub peer: Option<crate::ledger::Chain>,
}

impl Effects {
    /// The shared memory it imports from.
    pub fn import_space(&self) -> crate::ledger::Space {
        peer_space(self.peer).0
    }

    /// The shared memory it exports into.
    pub fn export_space(&self) -> crate::ledger::Space {
        peer_space(self.peer).1
    }
}

/// The shared memory a P-chain import from `peer` reads, and an export to it writes.
pub fn peer_space(
    peer: Option<crate::ledger::Chain>,
) -> (crate::ledger::Space, crate::ledger::Space) {
    use crate::ledger::{Chain, Space};
    let peer = peer.unwrap_or(Chain::X);
    (
        Space::Atomic {
            to: Chain::P,
            from: peer,
        },
        Space::Atomic {
            to: peer,
            from: Chain::P,
        },
    )
}

/// The peer chain of an ImportTx or ExportTx (`None` for other kinds).
pub fn peer_of(rules: &Rules, tx: &platform::UnsignedTx) -> Option<crate::ledger::Chain> {
    let chain = match tx {
        platform::UnsignedTx::ImportTx(t) => &t.source_chain,
        platform::UnsignedTx::ExportTx(t) => &t.destination_chain,
        _ => return None,
    };
    Some(if *chain == rules.c_chain {
        crate::ledger::Chain::C
    } else {
        crate::ledger::Chain::X
    })
}

/// Verifies `tx` (ID `tx_id`) at chain time `time`, paying `price` per gas, against the
/// `state`.
pub fn verify(
    rules: &Rules,
    tx: &platform::Tx,
    tx_id: Id,
    time: u64,
    price: u64,
    state: &mut dyn ChainState,
) -> Result<Effects, VerifyError> {
    if let platform::UnsignedTx::AddAutoRenewedValidatorTx(_)
    | platform::UnsignedTx::SetAutoRenewedValidatorConfigTx(_) = &tx.unsigned
        && time < rules.helicon
    {
        // `staker_tx_verification.go` (`verifyAddAutoRenewedValidatorTx`,
        // `verifySetAutoRenewedValidatorConfigTx`): `errHeliconUpgradeNotActive`.
        return Err(Refusal::node(
            "attempting to use a Helicon-upgrade feature prior to activation",
            format!(
                "a {} needs Helicon, active from {} (the chain time is {time}; schedule it with --upgrade-file)",
                tx.unsigned.type_name(),
                rules.helicon
            ),
        )
        .into());
    }
    let kind = PTxKind::of(&tx.unsigned)?;
    // The base's rules are `avax.BaseTx.Verify`'s (the memo's limit among its metadata), which
    // the kind may wrap; the kind's own fields' rules are not.
    tx.verify().map_err(|e| {
        let field = e.field();
        let e = crate::engine::rule_broken(&e);
        match field {
            Some("memo") => kind.in_base(e.within("metadata failed verification")),
            Some("inputs" | "outputs") => kind.in_base(e),
            _ => e,
        }
    })?;
    let unsigned = tx
        .unsigned
        .to_bytes()
        .map_err(|e| Refusal::new(format!("the transaction does not encode: {e}")))?;
    let hash = *Id::from_sha256(&unsigned).as_bytes();
    let parts = kind.parts(rules)?;
    check_metadata(rules, parts.base)
        .map_err(|e| kind.in_base(e.within("metadata failed verification")))?;
    check_memo(parts.base)?;
    let spending = |e: VerifyError| match kind.spend_context() {
        Some(c) => e.within(c),
        None => e,
    };
    // The Subnet's owner first, as the node checks it before the spend.
    if let Some((authority, auth)) = &parts.authority {
        check_authority(authority, auth, (tx, &hash, time), state)?;
    }
    check_credentials(tx, &parts).map_err(|e| spending(e.into()))?;
    let gas = fee::gas(&tx.unsigned)?;
    let tx_fee = gas
        .checked_mul(price)
        .ok_or_else(|| Refusal::new("the transaction's fee overflows"))?;

    let mut fx = Effects {
        gas,
        avax: rules.avax,
        ..Effects::default()
    };
    // The node's flow check (`VerifySpendUTXOs`): unlocked amounts per asset; stakeable-locked
    // ones per asset, locktime and owner. Locked funds may only be produced locked, for the
    // same owner and locktime (unlocked funds may top them up).
    let mut flow = Flow::new(rules.avax, tx_fee);
    produce(&mut flow, &mut fx, parts.base, tx_id)?;
    export(&mut flow, &mut fx, &parts, tx_id)?;
    let staked = stake(&mut flow, rules, parts.stake)?;
    flow.produce(rules.avax, parts.balances);
    let cx = CheckInput {
        rules,
        time,
        staked,
        outputs: parts.base.outputs.len() as u32,
    };
    // The staker kinds check the validator set before the spend, the others after it, as
    // the node's executors do.
    let state_first = kind.state_first();
    if state_first {
        fx.change = kind.check(&cx, state)?;
    }
    let spends = flow::spends(&parts.base.inputs, parts.imported);
    let read = |id: &Id, from_memory: bool| {
        if from_memory {
            state.atomic(id)
        } else {
            state.utxo(id)
        }
    };
    for s in
        flow::spend(&mut flow, spends, read, &tx.credentials, (&hash, time)).map_err(spending)?
    {
        let spent = (s.id, s.utxo.owners());
        if s.from_memory {
            fx.imported.push(spent);
        } else {
            fx.consumed.push(spent);
        }
    }
    if !state_first {
        fx.change = kind.check(&cx, state)?;
    }
    // `vms/platformvm/utxo/verifier.go:324-329`.
    flow.settle(
        &rules.avax,
        &format!("{tx_fee} nAVAX: {gas} gas at {price} nAVAX"),
        |asset, more| format!("insufficient unlocked funds: needs {more} more {asset}"),
    )
    .map_err(|e| spending(e.into()))?;
    Ok(fx)
}

/// Checks `auth`, the authorization `authority` names, signed by the last credential of `tx`
/// over `hash` at `time`.
fn check_authority(
    authority: &Authority<'_>,
    auth: &platform::Auth,
    (tx, hash, time): (&platform::Tx, &[u8; 32], u64),
    state: &mut dyn ChainState,
) -> Result<(), VerifyError> {
    match authority {
        Authority::Subnet(subnet) => {
            kind::subnets::check_auth(state, subnet, auth, (tx, hash, time))
        }
        Authority::Deactivation(id) => {
            kind::l1::check_disable_auth(state, id, auth, (tx, hash, time))
        }
        Authority::AutoRenewed(id) => {
            kind::staking::check_renew_auth(state, id, auth, (tx, hash, time))
        }
    }
}

/// The base's network and chain, in the node's words (`vms/components/avax/metadata.go`).
fn check_metadata(rules: &Rules, base: &platform::Base) -> Result<(), Refusal> {
    if base.network_id != rules.network_id {
        return Err(Refusal::node(
            "tx has wrong network ID",
            format!(
                "`unsignedTx.networkID` is {}, but this network's ID is {}",
                base.network_id, rules.network_id
            ),
        ));
    }
    if base.blockchain_id != Id::ZERO {
        return Err(Refusal::node(
            "tx has wrong chain ID",
            format!(
                "`unsignedTx.blockchainID` is {}, but the P-chain's ID is {}",
                base.blockchain_id,
                Id::ZERO
            ),
        ));
    }
    Ok(())
}

/// The memo, empty on the P-chain since Durango: the executor's rule
/// (`vms/platformvm/txs/executor`, `verifyMemoFieldLength`), not wrapped.
fn check_memo(base: &platform::Base) -> Result<(), Refusal> {
    if !base.memo.is_empty() {
        return Err(Refusal::node(
            format!("memo exceeds maximum length: {} > 0", base.memo.len()),
            "`unsignedTx.memo` must be empty on the P-chain since Durango",
        ));
    }
    Ok(())
}

/// One credential per input and imported input, then one for the authorization if any.
fn check_credentials(tx: &platform::Tx, parts: &Parts<'_>) -> Result<(), Refusal> {
    let spends = parts.base.inputs.len() + parts.imported.len();
    let wanted = spends + usize::from(parts.authority.is_some());
    if tx.credentials.len() != wanted {
        // `vms/platformvm/utxo/verifier.go:127-132`, given the credentials but the
        // authorization's (the last).
        let given =
            tx.credentials.len() - usize::from(parts.authority.is_some()).min(tx.credentials.len());
        return Err(Refusal::node(
            format!("wrong number of credentials: {spends} inputs != {given} credentials"),
            format!(
                "the transaction has {} credentials but needs {wanted}: one for each of its {spends} inputs and imported inputs{}",
                tx.credentials.len(),
                parts.authority.map_or("", |(a, _)| a.credential())
            ),
        ));
    }
    Ok(())
}

/// A P-chain input as the flow check spends it: a TransferInput of an unlocked output, or a
/// LockIn of a stakeable-locked one naming its lock.
impl flow::Input for platform::TransferableInput {
    type Utxo = Utxo;
    type Credential = platform::Credential;

    /// `vms/platformvm/utxo/verifier.go` (`failed to read consumed UTXO`); an import's from
    /// `vms/platformvm/txs/executor/standard_tx_executor.go` (`failed to get shared memory`).
    fn missing(reference: &avax::UtxoId, _: &Id, from_memory: bool) -> String {
        if from_memory {
            "failed to get shared memory: not found".into()
        } else {
            format!(
                "failed to read consumed UTXO {}:{} due to: not found",
                reference.tx_id, reference.output_index
            )
        }
    }

    /// `vms/platformvm/utxo/verifier.go:203`.
    fn spend_context(_: bool) -> Option<&'static str> {
        Some("failed to verify transfer")
    }

    fn utxo_id(&self) -> &avax::UtxoId {
        &self.utxo_id
    }

    fn asset_id(&self) -> Id {
        self.asset_id
    }

    fn utxo_asset(utxo: &Utxo) -> Id {
        utxo.utxo.asset_id
    }

    fn open<'a>(&'a self, utxo: &'a Utxo, place: &str, time: u64) -> Result<Opened<'a>, Refusal> {
        let Some((output, utxo_lock)) = utxo.transfer() else {
            return fail(format!(
                "`{place}` spends an output that is not a TransferOutput"
            ));
        };
        let lock = utxo_lock.unwrap_or(0);
        let input = match &self.input {
            platform::TransferableIn::TransferInput(ti) => {
                if time < lock {
                    return fail(format!(
                        "`{place}` spends an output stakeable-locked until {lock} (chain time {time}) without marking it locked: use a LockIn"
                    ));
                }
                ti
            }
            platform::TransferableIn::LockIn(l) => {
                if l.locktime != lock {
                    return fail(format!(
                        "`{place}.locktime` is {}, but the output is locked until {lock}",
                        l.locktime
                    ));
                }
                let platform::LockedIn::TransferInput(ti) = &l.input else {
                    return fail(format!("`{place}` locks an unknown input"));
                };
                ti
            }
            _ => return fail(format!("`{place}` is an unknown input")),
        };
        Ok(Opened {
            output,
            input,
            locked_until: (time < lock).then_some(lock),
        })
    }

    fn credential(c: &platform::Credential) -> Option<&secp256k1fx::Credential> {
        match c {
            platform::Credential::Credential(c) => Some(c),
            _ => None,
        }
    }
}

/// The base's outputs, unlocked or stakeable-locked: output `i` of the tx.
fn produce(
    flow: &mut Flow,
    fx: &mut Effects,
    base: &platform::Base,
    tx_id: Id,
) -> Result<(), Refusal> {
    for (i, o) in base.outputs.iter().enumerate() {
        let output = match &o.output {
            platform::TransferableOut::TransferOutput(t) => {
                flow.produce(o.asset_id, t.amount);
                platform::UtxoOutput::TransferOutput(t.clone())
            }
            platform::TransferableOut::LockOut(l) => {
                let platform::LockedOut::TransferOutput(t) = &l.output else {
                    return fail(format!("`unsignedTx.outputs[{i}]` locks an unknown output"));
                };
                flow.produce_locked(o.asset_id, l.locktime, &t.owners, t.amount);
                platform::UtxoOutput::LockOut(l.clone())
            }
            _ => return fail(format!("`unsignedTx.outputs[{i}]` is an unknown output")),
        };
        fx.produced.push(Utxo::new(platform::Utxo::new(
            avax::UtxoId::new(tx_id, i as u32),
            o.asset_id,
            output,
        )));
    }
    Ok(())
}

/// The exported outputs, numbered after the base's, into shared memory.
fn export(flow: &mut Flow, fx: &mut Effects, parts: &Parts<'_>, tx_id: Id) -> Result<(), Refusal> {
    for (j, o) in parts.exported.iter().enumerate() {
        let platform::TransferableOut::TransferOutput(t) = &o.output else {
            return fail(format!(
                "`unsignedTx.exportedOutputs[{j}]` is not a TransferOutput"
            ));
        };
        flow.produce(o.asset_id, t.amount);
        fx.exported.push(Utxo::new(platform::Utxo::new(
            avax::UtxoId::new(tx_id, (parts.base.outputs.len() + j) as u32),
            o.asset_id,
            platform::UtxoOutput::TransferOutput(t.clone()),
        )));
    }
    Ok(())
}

/// The stake outputs (AVAX, unlocked or stakeable-locked): what they hold.
fn stake(
    flow: &mut Flow,
    rules: &Rules,
    stake: &[platform::TransferableOutput],
) -> Result<u64, Refusal> {
    let mut staked = 0u64;
    for (j, o) in stake.iter().enumerate() {
        if o.asset_id != rules.avax {
            return fail(format!(
                "`unsignedTx.stake[{j}].assetID` is {}, not AVAX",
                o.asset_id
            ));
        }
        match &o.output {
            platform::TransferableOut::TransferOutput(t) => {
                staked = staked.saturating_add(t.amount);
                flow.produce(o.asset_id, t.amount);
            }
            platform::TransferableOut::LockOut(l) => {
                let platform::LockedOut::TransferOutput(t) = &l.output else {
                    return fail(format!("`unsignedTx.stake[{j}]` locks an unknown output"));
                };
                staked = staked.saturating_add(t.amount);
                flow.produce_locked(o.asset_id, l.locktime, &t.owners, t.amount);
            }
            _ => return fail(format!("`unsignedTx.stake[{j}]` is an unknown output")),
        }
    }
    Ok(staked)
}
