//! Verifying a P-chain transaction against the chain's state, as the node's executor does
//! (`vms/platformvm/txs/executor`), and what it changes. Transaction types are accepted one
//! by one as the devnet learns them; the others are refused by name.

use super::{Utxo, fee, l1, warp};
use crate::genesis::staking;
use crate::secp::{TxError, check_signatures, fail};
use avalanche_rpc::codec::{Verify, avax, platform, secp256k1fx, warp as warp_codec, warp_l1};
use avalanche_rpc::wire::{Id, NodeId};
use std::collections::{BTreeMap, BTreeSet};

/// The chain's parameters a transaction is checked against.
#[derive(Debug, Clone)]
pub struct Rules {
    pub network_id: u32,
    pub avax: Id,
    pub x_chain: Id,
}

/// What verification reads of the chain's state: the last accepted state when a transaction
/// is issued, the block's own state as a block is built.
pub trait View {
    /// An unspent output of the P-chain.
    fn utxo(&mut self, id: &Id) -> Result<Option<Utxo>, TxError>;
    /// An output the X-chain exported to the P-chain.
    fn atomic(&mut self, id: &Id) -> Result<Option<Utxo>, TxError>;
    /// A Subnet's owner, and whether it was converted to an L1.
    fn subnet(&mut self, subnet: &Id) -> Result<Option<(platform::Owner, bool)>, TxError>;
    /// An L1 validator.
    fn l1_validator(&mut self, validation_id: &Id) -> Result<Option<l1::Validator>, TxError>;
    /// How many L1 validators are active.
    fn active_l1_validators(&mut self) -> Result<u64, TxError>;
    /// A converted Subnet's conversion.
    fn conversion(&mut self, subnet: &Id) -> Result<Option<l1::Conversion>, TxError>;
    /// The validation of `node` on L1 `subnet`, if any.
    fn l1_validation_of(&mut self, subnet: &Id, node: &NodeId) -> Result<Option<Id>, TxError>;
    /// The total weight of an L1's validators.
    fn l1_weight(&mut self, subnet: &Id) -> Result<u64, TxError>;
    /// Whether a registration with this expiry and validation ID was already accepted.
    fn has_expiry(&mut self, expiry: u64, validation_id: &Id) -> Result<bool, TxError>;
    /// The canonical validator set of the Subnet validating `chain`, now.
    fn warp_validators(&mut self, chain: &Id) -> Result<Option<warp::Canonical>, TxError>;
    /// A current validator of a Subnet.
    fn validator(&mut self, subnet: &Id, node: &NodeId) -> Result<Option<Current>, TxError>;
}

/// A current validator, as verification needs it.
#[derive(Debug, Clone, Copy)]
pub struct Current {
    /// Its own stake.
    pub weight: u64,
    /// The stake of its current delegators.
    pub delegated: u64,
    pub end: u64,
    /// A validator of a permissioned Subnet (added with AddSubnetValidatorTx).
    pub permissioned: bool,
}

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
}

/// What a transaction changes beyond UTXOs. Subnet and chain IDs of new ones are the tx's ID.
#[derive(Debug, Clone, Default)]
pub enum Change {
    #[default]
    None,
    /// A validator joins `subnet` from `start` (the chain time it is accepted at) to `end`.
    AddValidator {
        subnet: Id,
        node: NodeId,
        weight: u64,
        public_key: Option<[u8; 48]>,
        start: u64,
        end: u64,
    },
    /// A delegator joins `node` on the Primary Network.
    AddDelegator {
        node: NodeId,
        weight: u64,
        start: u64,
        end: u64,
    },
    /// A permissioned validator leaves `subnet`.
    RemoveValidator {
        subnet: Id,
        node: NodeId,
        weight: u64,
    },
    CreateSubnet,
    CreateChain {
        subnet: Id,
    },
    /// The Subnet's owner becomes the one this tx names.
    SetSubnetOwner {
        subnet: Id,
    },
    /// The Subnet becomes an L1 with these first validators, from `start`.
    Convert {
        subnet: Id,
        conversion: l1::Conversion,
        validators: Vec<l1::Validator>,
        /// Their balances, in order (an active validator's paid-up mark is its balance
        /// above the accumulator when the block is accepted).
        balances: Vec<u64>,
    },
    /// An L1 validator's balance grows by `amount` (reactivating it if it was inactive).
    IncreaseBalance {
        validation_id: Id,
        amount: u64,
    },
    /// An L1 validator is disabled; what is left of its balance is paid to its remaining
    /// balance owner as output `index` of the tx.
    Disable {
        validation_id: Id,
        index: u32,
    },
    /// An L1 validator registered by a Warp message, with its balance, and the message's
    /// expiry (kept so it is accepted once).
    Register {
        validator: Box<l1::Validator>,
        balance: u64,
        expiry: u64,
    },
    /// An L1 validator's weight set by a Warp message (0 removes it, paying what is left of
    /// its balance as output `index`).
    SetWeight {
        validation_id: Id,
        nonce: u64,
        weight: u64,
        index: u32,
    },
}

/// Whose authorization a transaction carries (its last credential signs for it).
enum Authority<'t> {
    /// A permissioned Subnet's owner.
    Subnet(&'t Id),
    /// An L1 validator's deactivation owner.
    Deactivation(&'t Id),
}

fn authority(tx: &platform::UnsignedTx) -> Option<(Authority<'_>, &platform::Auth)> {
    use platform::UnsignedTx as T;
    let s = Authority::Subnet;
    match tx {
        T::CreateChainTx(t) => Some((s(&t.subnet_id), &t.subnet_auth)),
        T::AddSubnetValidatorTx(t) => Some((s(&t.validator.subnet_id), &t.subnet_auth)),
        T::RemoveSubnetValidatorTx(t) => Some((s(&t.subnet_id), &t.subnet_auth)),
        T::TransferSubnetOwnershipTx(t) => Some((s(&t.subnet_id), &t.subnet_auth)),
        T::ConvertSubnetToL1Tx(t) => Some((s(&t.subnet_id), &t.subnet_auth)),
        T::DisableL1ValidatorTx(t) => {
            Some((Authority::Deactivation(&t.validation_id), &t.disable_auth))
        }
        _ => None,
    }
}

/// Verifies `tx` (ID `tx_id`) at chain time `time`, paying `price` per gas, against the
/// state `view` shows.
pub fn verify(
    rules: &Rules,
    tx: &platform::Tx,
    tx_id: Id,
    time: u64,
    price: u64,
    view: &mut dyn View,
) -> Result<Effects, TxError> {
    use platform::UnsignedTx as T;
    tx.verify()
        .map_err(|e| TxError(format!("the transaction breaks a rule of the codec: {e}")))?;
    let unsigned = tx
        .unsigned
        .to_bytes()
        .map_err(|e| TxError(format!("the transaction does not encode: {e}")))?;
    let hash = *Id::from_sha256(&unsigned).as_bytes();
    let no_inputs: &[platform::TransferableInput] = &[];
    let no_outputs: &[platform::TransferableOutput] = &[];
    let (base, imported, exported, stake) = match &tx.unsigned {
        T::BaseTx(t) => (&t.base, no_inputs, no_outputs, no_outputs),
        T::ImportTx(t) => {
            x_chain(rules, &t.source_chain, "unsignedTx.sourceChain")?;
            (
                &t.base,
                t.imported_inputs.as_slice(),
                no_outputs,
                no_outputs,
            )
        }
        T::ExportTx(t) => {
            x_chain(rules, &t.destination_chain, "unsignedTx.destinationChain")?;
            (
                &t.base,
                no_inputs,
                t.exported_outputs.as_slice(),
                no_outputs,
            )
        }
        T::AddPermissionlessValidatorTx(t) => (&t.base, no_inputs, no_outputs, t.stake.as_slice()),
        T::AddPermissionlessDelegatorTx(t) => (&t.base, no_inputs, no_outputs, t.stake.as_slice()),
        T::CreateSubnetTx(t) => (&t.base, no_inputs, no_outputs, no_outputs),
        T::CreateChainTx(t) => (&t.base, no_inputs, no_outputs, no_outputs),
        T::AddSubnetValidatorTx(t) => (&t.base, no_inputs, no_outputs, no_outputs),
        T::RemoveSubnetValidatorTx(t) => (&t.base, no_inputs, no_outputs, no_outputs),
        T::TransferSubnetOwnershipTx(t) => (&t.base, no_inputs, no_outputs, no_outputs),
        T::ConvertSubnetToL1Tx(t) => (&t.base, no_inputs, no_outputs, no_outputs),
        T::IncreaseL1ValidatorBalanceTx(t) => (&t.base, no_inputs, no_outputs, no_outputs),
        T::DisableL1ValidatorTx(t) => (&t.base, no_inputs, no_outputs, no_outputs),
        T::RegisterL1ValidatorTx(t) => (&t.base, no_inputs, no_outputs, no_outputs),
        T::SetL1ValidatorWeightTx(t) => (&t.base, no_inputs, no_outputs, no_outputs),
        other => {
            return fail(format!(
                "the devnet does not accept {} on the P-chain yet",
                other.type_name()
            ));
        }
    };
    if base.network_id != rules.network_id {
        return fail(format!(
            "`unsignedTx.networkID` is {}, but this network's ID is {}",
            base.network_id, rules.network_id
        ));
    }
    if base.blockchain_id != Id::ZERO {
        return fail(format!(
            "`unsignedTx.blockchainID` is {}, but the P-chain's ID is {}",
            base.blockchain_id,
            Id::ZERO
        ));
    }
    if !base.memo.is_empty() {
        return fail("`unsignedTx.memo` must be empty on the P-chain since Durango");
    }
    let auth = authority(&tx.unsigned);
    let spends = base.inputs.len() + imported.len();
    let wanted = spends + usize::from(auth.is_some());
    if tx.credentials.len() != wanted {
        return fail(format!(
            "the transaction has {} credentials but needs {wanted}: one for each of its {spends} inputs and imported inputs{}",
            tx.credentials.len(),
            match &auth {
                Some((Authority::Subnet(_), _)) => ", then one for the Subnet authorization",
                Some((Authority::Deactivation(_), _)) => ", then one for the disable authorization",
                None => "",
            }
        ));
    }
    let complexity = fee::complexity(&tx.unsigned).map_err(TxError)?;
    let gas =
        fee::gas(&complexity).ok_or_else(|| TxError("the transaction's gas overflows".into()))?;
    let tx_fee = gas
        .checked_mul(price)
        .ok_or_else(|| TxError("the transaction's fee overflows".into()))?;

    let mut fx = Effects {
        gas,
        avax: rules.avax,
        ..Effects::default()
    };
    // The node's flow check (`VerifySpendUTXOs`): unlocked amounts per asset; stakeable-locked
    // ones per asset, locktime and owner. Locked funds may only be produced locked, for the
    // same owner and locktime (unlocked funds may top them up).
    let mut consumed: BTreeMap<Id, u128> = BTreeMap::new();
    let mut produced: BTreeMap<Id, u128> = BTreeMap::new();
    let mut locked_consumed: BTreeMap<Locked, u128> = BTreeMap::new();
    let mut locked_produced: BTreeMap<Locked, u128> = BTreeMap::new();
    *produced.entry(rules.avax).or_default() += u128::from(tx_fee);
    let mut spent = BTreeSet::new();
    let spends = base
        .inputs
        .iter()
        .enumerate()
        .map(|(i, input)| (format!("unsignedTx.inputs[{i}]"), input, false))
        .chain(
            imported
                .iter()
                .enumerate()
                .map(|(i, input)| (format!("unsignedTx.importedInputs[{i}]"), input, true)),
        );
    for (k, (place, input, from_memory)) in spends.enumerate() {
        let id = input.utxo_id.id();
        if !spent.insert(id) {
            return fail(format!("`{place}` spends UTXO {id} a second time"));
        }
        let found = if from_memory {
            view.atomic(&id)?
        } else {
            view.utxo(&id)?
        };
        let utxo = found.ok_or_else(|| not_found(&place, &input.utxo_id, &id))?;
        if utxo.utxo.asset_id != input.asset_id {
            return fail(format!(
                "`{place}.assetID` is {}, but the UTXO holds {}",
                input.asset_id, utxo.utxo.asset_id
            ));
        }
        let Some((out, utxo_lock)) = utxo.transfer() else {
            return fail(format!(
                "`{place}` spends an output that is not a TransferOutput"
            ));
        };
        let lock = utxo_lock.unwrap_or(0);
        let ti = match &input.input {
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
        if ti.amount != out.amount {
            return fail(format!(
                "`{place}.input.amount` is {}, but the UTXO holds {}",
                ti.amount, out.amount
            ));
        }
        let platform::Credential::Credential(cred) = &tx.credentials[k] else {
            return fail(format!(
                "`credentials[{k}]` is not a secp256k1fx credential"
            ));
        };
        check_signatures(
            &out.owners,
            &ti.input.signature_indices,
            cred,
            &hash,
            time,
            &place,
        )?;
        if time >= lock {
            *consumed.entry(input.asset_id).or_default() += u128::from(ti.amount);
        } else {
            *locked_consumed
                .entry(locked(input.asset_id, lock, &out.owners))
                .or_default() += u128::from(ti.amount);
        }
        if from_memory {
            fx.imported.push((id, utxo.owners()));
        } else {
            fx.consumed.push((id, utxo.owners()));
        }
    }
    for (i, o) in base.outputs.iter().enumerate() {
        let output = match &o.output {
            platform::TransferableOut::TransferOutput(t) => {
                *produced.entry(o.asset_id).or_default() += u128::from(t.amount);
                platform::UtxoOutput::TransferOutput(t.clone())
            }
            platform::TransferableOut::LockOut(l) => {
                let platform::LockedOut::TransferOutput(t) = &l.output else {
                    return fail(format!("`unsignedTx.outputs[{i}]` locks an unknown output"));
                };
                *locked_produced
                    .entry(locked(o.asset_id, l.locktime, &t.owners))
                    .or_default() += u128::from(t.amount);
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
    for (j, o) in exported.iter().enumerate() {
        let platform::TransferableOut::TransferOutput(t) = &o.output else {
            return fail(format!(
                "`unsignedTx.exportedOutputs[{j}]` is not a TransferOutput"
            ));
        };
        *produced.entry(o.asset_id).or_default() += u128::from(t.amount);
        fx.exported.push(Utxo::new(platform::Utxo::new(
            avax::UtxoId::new(tx_id, (base.outputs.len() + j) as u32),
            o.asset_id,
            platform::UtxoOutput::TransferOutput(t.clone()),
        )));
    }
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
                *produced.entry(o.asset_id).or_default() += u128::from(t.amount);
            }
            platform::TransferableOut::LockOut(l) => {
                let platform::LockedOut::TransferOutput(t) = &l.output else {
                    return fail(format!("`unsignedTx.stake[{j}]` locks an unknown output"));
                };
                staked = staked.saturating_add(t.amount);
                *locked_produced
                    .entry(locked(o.asset_id, l.locktime, &t.owners))
                    .or_default() += u128::from(t.amount);
            }
            _ => return fail(format!("`unsignedTx.stake[{j}]` is an unknown output")),
        }
    }
    // L1 validators' balances are paid like outputs.
    let balances = match &tx.unsigned {
        T::ConvertSubnetToL1Tx(c) => c
            .validators
            .iter()
            .fold(0u64, |a, v| a.saturating_add(v.balance)),
        T::IncreaseL1ValidatorBalanceTx(t) => t.balance,
        T::RegisterL1ValidatorTx(t) => t.balance,
        _ => 0,
    };
    *produced.entry(rules.avax).or_default() += u128::from(balances);
    match auth {
        Some((Authority::Subnet(subnet), auth)) => {
            check_subnet_auth(view, subnet, auth, tx, &hash, time)?
        }
        Some((Authority::Deactivation(id), auth)) => {
            let Some(v) = view.l1_validator(id)? else {
                return fail(format!(
                    "`unsignedTx.validationID` {id} is not an L1 validator of this chain"
                ));
            };
            let owner = secp256k1fx::OutputOwners::new(
                0,
                v.deactivation_owner.threshold,
                v.deactivation_owner.addresses.clone(),
            );
            check_auth(
                &owner,
                auth,
                tx,
                &hash,
                time,
                "unsignedTx.disableAuthorization",
            )?;
        }
        None => {}
    }
    fx.change = match &tx.unsigned {
        T::AddPermissionlessValidatorTx(v) => check_validator(rules, v, staked, time, view)?,
        T::AddPermissionlessDelegatorTx(d) => check_delegator(d, staked, time, view)?,
        T::CreateSubnetTx(_) => Change::CreateSubnet,
        T::CreateChainTx(c) => Change::CreateChain {
            subnet: c.subnet_id,
        },
        T::AddSubnetValidatorTx(v) => check_subnet_validator(v, time, view)?,
        T::RemoveSubnetValidatorTx(t) => {
            let Some(v) = view.validator(&t.subnet_id, &t.node_id)? else {
                return fail(format!(
                    "`unsignedTx.nodeID` {} isn't a validator of subnet {}",
                    t.node_id, t.subnet_id
                ));
            };
            if !v.permissioned {
                return fail(format!(
                    "`unsignedTx.nodeID` {} is a permissionless validator of subnet {}; only permissioned ones are removed this way",
                    t.node_id, t.subnet_id
                ));
            }
            Change::RemoveValidator {
                subnet: t.subnet_id,
                node: t.node_id,
                weight: v.weight,
            }
        }
        T::TransferSubnetOwnershipTx(t) => Change::SetSubnetOwner {
            subnet: t.subnet_id,
        },
        T::ConvertSubnetToL1Tx(c) => check_conversion(c, time, view)?,
        T::IncreaseL1ValidatorBalanceTx(t) => {
            let Some(v) = view.l1_validator(&t.validation_id)? else {
                return fail(format!(
                    "`unsignedTx.validationID` {} is not an L1 validator of this chain",
                    t.validation_id
                ));
            };
            if !v.active() && view.active_l1_validators()? >= l1::CAPACITY {
                return fail(format!(
                    "the L1 validators' capacity of {} active validators is reached",
                    l1::CAPACITY
                ));
            }
            Change::IncreaseBalance {
                validation_id: t.validation_id,
                amount: t.balance,
            }
        }
        T::DisableL1ValidatorTx(t) => Change::Disable {
            validation_id: t.validation_id,
            index: base.outputs.len() as u32,
        },
        T::RegisterL1ValidatorTx(t) => check_registration(rules, t, time, view)?,
        T::SetL1ValidatorWeightTx(t) => {
            check_weight(rules, &t.message, base.outputs.len() as u32, view)?
        }
        _ => Change::None,
    };
    // Locked outputs beyond the locked inputs of their owner and locktime take unlocked funds.
    for (key, out) in &locked_produced {
        let have = locked_consumed.get(key).copied().unwrap_or(0);
        if *out > have {
            let more = out - have;
            let unlocked = consumed.entry(key.asset).or_default();
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
    for (asset, out) in &produced {
        let have = consumed.get(asset).copied().unwrap_or(0);
        if have < *out {
            let what = if *asset == rules.avax {
                format!(" (outputs plus the fee of {tx_fee} nAVAX: {gas} gas at {price} nAVAX)")
            } else {
                String::new()
            };
            return fail(format!(
                "insufficient funds of asset {asset}: the inputs hold {have}, the transaction needs {out}{what}"
            ));
        }
    }
    Ok(fx)
}

/// Stakeable-locked funds as the flow check counts them: by asset, locktime and owner.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Locked {
    asset: Id,
    locktime: u64,
    owner: Vec<u8>,
}

fn locked(asset: Id, locktime: u64, owners: &secp256k1fx::OutputOwners) -> Locked {
    Locked {
        asset,
        locktime,
        owner: crate::genesis::encoded(owners),
    }
}

/// The Subnet owner's authorization (`verifyPoASubnetAuthorization`): the last credential
/// signs for the owner's addresses the auth names; the Subnet must exist and still be
/// permissioned.
fn check_subnet_auth(
    view: &mut dyn View,
    subnet: &Id,
    auth: &platform::Auth,
    tx: &platform::Tx,
    hash: &[u8; 32],
    time: u64,
) -> Result<(), TxError> {
    if *subnet == Id::ZERO {
        return fail("`unsignedTx.subnetID` is the Primary Network, which has no owner");
    }
    let Some((owner, converted)) = view.subnet(subnet)? else {
        return fail(format!(
            "`unsignedTx.subnetID` {subnet} is not a Subnet of this chain"
        ));
    };
    if converted {
        return fail(format!(
            "\"{subnet}\" is immutable: it was converted to an L1, and its owner no longer acts on it"
        ));
    }
    let platform::Owner::OutputOwners(owner) = owner else {
        return fail(format!("Subnet {subnet} has an owner of an unknown type"));
    };
    check_auth(
        &owner.owners,
        auth,
        tx,
        hash,
        time,
        "unsignedTx.subnetAuthorization",
    )
}

/// An authorization (`verifyAuthorization`): the last credential signs for the addresses of
/// `owner` that the auth names.
fn check_auth(
    owner: &secp256k1fx::OutputOwners,
    auth: &platform::Auth,
    tx: &platform::Tx,
    hash: &[u8; 32],
    time: u64,
    place: &str,
) -> Result<(), TxError> {
    let platform::Auth::Input(input) = auth else {
        return fail(format!("`{place}` is not a secp256k1fx input"));
    };
    let last = tx.credentials.len() - 1;
    let platform::Credential::Credential(cred) = &tx.credentials[last] else {
        return fail(format!(
            "`credentials[{last}]` (the authorization's) is not a secp256k1fx credential"
        ));
    };
    check_signatures(
        owner,
        &input.input.signature_indices,
        cred,
        hash,
        time,
        place,
    )
}

/// The node's rules for converting a Subnet to an L1 (`ConvertSubnetToL1Tx`): validators
/// with weight, a real node ID, a proof of possession and valid owners; room among the
/// active L1 validators. The conversion ID is SHA-256 of the SubnetToL1ConversionData.
fn check_conversion(
    c: &platform::ConvertSubnetToL1Tx,
    time: u64,
    view: &mut dyn View,
) -> Result<Change, TxError> {
    if c.validators.is_empty() {
        return fail("`unsignedTx.validators` is empty: a conversion needs at least one validator");
    }
    let mut validators = Vec::new();
    let mut balances = Vec::new();
    let mut data = Vec::new();
    for (i, v) in c.validators.iter().enumerate() {
        let place = format!("unsignedTx.validators[{i}]");
        let node: [u8; 20] = v.node_id.as_slice().try_into().map_err(|_| {
            TxError(format!(
                "`{place}.nodeID` has {} bytes; a node ID has 20",
                v.node_id.len()
            ))
        })?;
        if node == [0; 20] {
            return fail(format!("`{place}.nodeID` is the empty node ID"));
        }
        avalanche_rpc::bls::verify_proof_of_possession(
            &v.signer.public_key,
            &v.signer.proof_of_possession,
        )
        .map_err(|e| {
            TxError(format!(
                "`{place}.signer.proofOfPossession` does not verify: {e}"
            ))
        })?;
        for (owner, name) in [
            (&v.remaining_balance_owner, "remainingBalanceOwner"),
            (&v.deactivation_owner, "deactivationOwner"),
        ] {
            check_owner(owner, &format!("{place}.{name}"))?;
        }
        validators.push(l1::Validator {
            validation_id: l1::conversion_validation_id(&c.subnet_id, i as u32),
            subnet: c.subnet_id,
            node: NodeId::new(node),
            public_key: v.signer.public_key,
            remaining_balance_owner: v.remaining_balance_owner.clone(),
            deactivation_owner: v.deactivation_owner.clone(),
            start: time,
            weight: v.weight,
            min_nonce: 0,
            end_accumulated_fee: 0,
        });
        balances.push(v.balance);
        data.push(warp_codec::SubnetToL1ConversionValidator::new(
            v.node_id.clone(),
            v.signer.public_key,
            v.weight,
        ));
    }
    let new_active = balances.iter().filter(|b| **b > 0).count() as u64;
    if view.active_l1_validators()?.saturating_add(new_active) > l1::CAPACITY {
        return fail(format!(
            "the L1 validators' capacity of {} active validators would be exceeded",
            l1::CAPACITY
        ));
    }
    let bytes =
        warp_codec::SubnetToL1ConversionData::new(c.subnet_id, c.chain_id, c.address.clone(), data)
            .to_bytes()
            .map_err(|e| TxError(format!("the conversion data does not encode: {e}")))?;
    Ok(Change::Convert {
        subnet: c.subnet_id,
        conversion: l1::Conversion {
            id: Id::from_sha256(&bytes),
            manager_chain: c.chain_id,
            manager_address: c.address.clone(),
        },
        validators,
        balances,
    })
}

/// A Warp message about an L1: parsed, from the L1's manager (its chain and address), and
/// signed by 67 % of the weight of the Subnet validating that chain.
fn check_l1_message(
    rules: &Rules,
    message: &[u8],
    subnet: &Id,
    view: &mut dyn View,
) -> Result<(), TxError> {
    let parsed = warp::parse(message)?;
    let Some(c) = view.conversion(subnet)? else {
        return fail(format!(
            "`unsignedTx.message` is about Subnet {subnet}, which was not converted to an L1"
        ));
    };
    let m = &parsed.message;
    if m.source_chain_id != c.manager_chain {
        return fail(format!(
            "`unsignedTx.message` comes from chain {}, but the L1's manager is on chain {}",
            m.source_chain_id, c.manager_chain
        ));
    }
    if parsed.source_address != c.manager_address {
        return fail(format!(
            "`unsignedTx.message` comes from address 0x{}, but the L1's manager is 0x{}",
            hex(&parsed.source_address),
            hex(&c.manager_address)
        ));
    }
    let Some(set) = view.warp_validators(&m.source_chain_id)? else {
        return fail(format!(
            "`unsignedTx.message`'s source chain {} is not a chain of this network",
            m.source_chain_id
        ));
    };
    warp::verify(&parsed, rules.network_id, &set)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The node's rules for RegisterL1ValidatorTx: the message registers a validator with
/// weight, a real node ID, valid owners and an expiry within the next day, once; its proof
/// of possession holds; the node does not already validate the L1.
fn check_registration(
    rules: &Rules,
    t: &platform::RegisterL1ValidatorTx,
    time: u64,
    view: &mut dyn View,
) -> Result<Change, TxError> {
    let parsed = warp::parse(&t.message)?;
    let warp_l1::L1Message::RegisterL1Validator(m) = &parsed.l1 else {
        return fail("`unsignedTx.message` does not carry a RegisterL1Validator message");
    };
    if m.weight == 0 {
        return fail("`unsignedTx.message`'s weight is 0");
    }
    let node: [u8; 20] = m.node_id.as_slice().try_into().map_err(|_| {
        TxError(format!(
            "`unsignedTx.message`'s nodeID has {} bytes; a node ID has 20",
            m.node_id.len()
        ))
    })?;
    if node == [0; 20] {
        return fail("`unsignedTx.message`'s nodeID is the empty node ID");
    }
    check_owner(
        &m.remaining_balance_owner,
        "unsignedTx.message.remainingBalanceOwner",
    )?;
    check_owner(&m.disable_owner, "unsignedTx.message.disableOwner")?;
    check_l1_message(rules, &t.message, &m.subnet_id, view)?;
    if m.expiry <= time {
        return fail(format!(
            "`unsignedTx.message` expired at {} and the chain time is {time}",
            m.expiry
        ));
    }
    if m.expiry - time > 24 * 3600 {
        return fail(format!(
            "`unsignedTx.message` expires {} seconds from now; the limit is a day (86400)",
            m.expiry - time
        ));
    }
    let validation_id = Id::from_sha256(&parsed.l1_bytes);
    if view.has_expiry(m.expiry, &validation_id)? {
        return fail(format!(
            "`unsignedTx.message` was already issued: validation {validation_id} is registered"
        ));
    }
    avalanche_rpc::bls::verify_proof_of_possession(&m.bls_public_key, &t.proof_of_possession)
        .map_err(|e| {
            TxError(format!(
                "`unsignedTx.proofOfPossession` does not verify for the message's key: {e}"
            ))
        })?;
    let node = NodeId::new(node);
    if view.l1_validation_of(&m.subnet_id, &node)?.is_some() {
        return fail(format!("{node} already validates L1 {}", m.subnet_id));
    }
    if t.balance > 0 && view.active_l1_validators()? >= l1::CAPACITY {
        return fail(format!(
            "the L1 validators' capacity of {} active validators is reached",
            l1::CAPACITY
        ));
    }
    Ok(Change::Register {
        validator: Box::new(l1::Validator {
            validation_id,
            subnet: m.subnet_id,
            node,
            public_key: m.bls_public_key,
            remaining_balance_owner: m.remaining_balance_owner.clone(),
            deactivation_owner: m.disable_owner.clone(),
            start: time,
            weight: m.weight,
            min_nonce: 0,
            end_accumulated_fee: 0,
        }),
        balance: t.balance,
        expiry: m.expiry,
    })
}

/// The node's rules for SetL1ValidatorWeightTx: the message names a validator of this chain
/// with a nonce not below its minimum; removing it may not remove the L1's last weight.
fn check_weight(
    rules: &Rules,
    message: &[u8],
    index: u32,
    view: &mut dyn View,
) -> Result<Change, TxError> {
    let parsed = warp::parse(message)?;
    let warp_l1::L1Message::L1ValidatorWeight(m) = &parsed.l1 else {
        return fail("`unsignedTx.message` does not carry an L1ValidatorWeight message");
    };
    let Some(v) = view.l1_validator(&m.validation_id)? else {
        return fail(format!(
            "`unsignedTx.message` names validation {}, which is not an L1 validator of this chain",
            m.validation_id
        ));
    };
    if m.nonce < v.min_nonce {
        return fail(format!(
            "`unsignedTx.message`'s nonce {} is stale: it must be at least {}",
            m.nonce, v.min_nonce
        ));
    }
    check_l1_message(rules, message, &v.subnet, view)?;
    if m.weight == 0 && view.l1_weight(&v.subnet)? == v.weight {
        return fail(format!(
            "`unsignedTx.message` would remove the last validator of L1 {}",
            v.subnet
        ));
    }
    Ok(Change::SetWeight {
        validation_id: m.validation_id,
        nonce: m.nonce,
        weight: m.weight,
        index,
    })
}

/// An owner without a locktime (`secp256k1fx.OutputOwners.Verify`).
fn check_owner(o: &platform::PChainOwner, place: &str) -> Result<(), TxError> {
    crate::secp::check_threshold(o.threshold, o.addresses.len(), place)
}

/// The node's rules for a permissioned Subnet validator (`verifyAddSubnetValidatorTx`).
fn check_subnet_validator(
    v: &platform::AddSubnetValidatorTx,
    time: u64,
    view: &mut dyn View,
) -> Result<Change, TxError> {
    let subnet = v.validator.subnet_id;
    let node = v.validator.validator.node_id;
    let end = v.validator.validator.end;
    let weight = v.validator.validator.weight;
    if subnet == Id::ZERO {
        return fail(
            "`unsignedTx.validator.subnetID` is the Primary Network; use AddPermissionlessValidatorTx",
        );
    }
    if weight == 0 {
        return fail("`unsignedTx.validator.weight` is 0; a validator needs weight");
    }
    duration(time, end, "unsignedTx.validator.end")?;
    if view.validator(&subnet, &node)?.is_some() {
        return fail(format!("{node} is already a validator of Subnet {subnet}"));
    }
    let Some(primary) = view.validator(&Id::ZERO, &node)? else {
        return fail(format!(
            "`unsignedTx.validator.nodeID` {node} must validate the Primary Network to validate a Subnet"
        ));
    };
    if end > primary.end {
        return fail(format!(
            "`unsignedTx.validator.end` is {end}, after the node's Primary Network validation ends ({})",
            primary.end
        ));
    }
    Ok(Change::AddValidator {
        subnet,
        node,
        weight,
        public_key: None,
        start: time,
        end,
    })
}

/// The node's rules for a Primary Network delegator (`verifyAddPermissionlessDelegatorTx`,
/// after Durango: it starts at the chain time).
fn check_delegator(
    d: &platform::AddPermissionlessDelegatorTx,
    staked: u64,
    time: u64,
    view: &mut dyn View,
) -> Result<Change, TxError> {
    if d.subnet_id != Id::ZERO {
        return fail(format!(
            "`unsignedTx.subnetID` is {}; delegation is to Primary Network validators only (no Subnet is elastic)",
            d.subnet_id
        ));
    }
    let node = d.validator.node_id;
    let weight = d.validator.weight;
    let end = d.validator.end;
    if staked != weight {
        return fail(format!(
            "`unsignedTx.stake` holds {staked} nAVAX but `unsignedTx.validator.weight` is {weight}"
        ));
    }
    if weight < staking::MIN_DELEGATOR_STAKE {
        return fail(format!(
            "`unsignedTx.validator.weight` is {weight}; a delegator stakes at least {} nAVAX",
            staking::MIN_DELEGATOR_STAKE
        ));
    }
    duration(time, end, "unsignedTx.validator.end")?;
    let Some(v) = view.validator(&Id::ZERO, &node)? else {
        return fail(format!(
            "`unsignedTx.validator.nodeID` {node} is not a current validator of the Primary Network"
        ));
    };
    if end > v.end {
        return fail(format!(
            "`unsignedTx.validator.end` is {end}, after the validator's period ends ({})",
            v.end
        ));
    }
    let limit = v
        .weight
        .saturating_mul(staking::MAX_VALIDATOR_WEIGHT_FACTOR)
        .min(staking::MAX_VALIDATOR_STAKE);
    let total = v.weight.saturating_add(v.delegated).saturating_add(weight);
    if total > limit {
        return fail(format!(
            "over delegated: {node} would hold {total} nAVAX with this delegation, more than its limit of {limit} ({}× its own stake of {}, at most {})",
            staking::MAX_VALIDATOR_WEIGHT_FACTOR,
            v.weight,
            staking::MAX_VALIDATOR_STAKE
        ));
    }
    Ok(Change::AddDelegator {
        node,
        weight,
        start: time,
        end,
    })
}

/// A staking period from the chain time `time` to `end` must last from the minimum to the
/// maximum staking duration.
fn duration(time: u64, end: u64, place: &str) -> Result<(), TxError> {
    let d = end.saturating_sub(time);
    if !(staking::MIN_STAKE_DURATION..=staking::MAX_STAKE_DURATION).contains(&d) {
        return fail(format!(
            "`{place}` is {end}: staking from the chain time {time} must last from {} to {} seconds, not {d}",
            staking::MIN_STAKE_DURATION,
            staking::MAX_STAKE_DURATION
        ));
    }
    Ok(())
}

/// The node's rules for a Primary Network validator (`verifyAddPermissionlessValidatorTx`,
/// after Durango: it starts at the chain time).
fn check_validator(
    _rules: &Rules,
    v: &platform::AddPermissionlessValidatorTx,
    staked: u64,
    time: u64,
    view: &mut dyn View,
) -> Result<Change, TxError> {
    if v.subnet_id != Id::ZERO {
        return fail(format!(
            "`unsignedTx.subnetID` is {}; permissionless validators join the Primary Network only (no Subnet is elastic)",
            v.subnet_id
        ));
    }
    let platform::Signer::ProofOfPossession(pop) = &v.signer else {
        return fail(
            "`unsignedTx.signer`: a Primary Network validator needs a BLS proof of possession",
        );
    };
    avalanche_rpc::bls::verify_proof_of_possession(&pop.public_key, &pop.proof_of_possession)
        .map_err(|e| {
            TxError(format!(
                "`unsignedTx.signer.proofOfPossession` does not verify: {e}"
            ))
        })?;
    let weight = v.validator.weight;
    if staked != weight {
        return fail(format!(
            "`unsignedTx.stake` holds {staked} nAVAX but `unsignedTx.validator.weight` is {weight}"
        ));
    }
    if !(staking::MIN_VALIDATOR_STAKE..=staking::MAX_VALIDATOR_STAKE).contains(&weight) {
        return fail(format!(
            "`unsignedTx.validator.weight` is {weight}; it must be from {} to {} nAVAX",
            staking::MIN_VALIDATOR_STAKE,
            staking::MAX_VALIDATOR_STAKE
        ));
    }
    if v.delegation_shares < staking::MIN_DELEGATION_FEE {
        return fail(format!(
            "`unsignedTx.shares` is {}; the minimum delegation fee is {} (2 %)",
            v.delegation_shares,
            staking::MIN_DELEGATION_FEE
        ));
    }
    let end = v.validator.end;
    duration(time, end, "unsignedTx.validator.end")?;
    let node = v.validator.node_id;
    if view.validator(&Id::ZERO, &node)?.is_some() {
        return fail(format!(
            "{node} is already a validator of the Primary Network"
        ));
    }
    Ok(Change::AddValidator {
        subnet: Id::ZERO,
        node,
        weight,
        public_key: Some(pop.public_key),
        start: time,
        end,
    })
}

/// The P-chain moves funds to and from the X-chain only (no EVM runs for the C-chain).
fn x_chain(rules: &Rules, chain: &Id, place: &str) -> Result<(), TxError> {
    if *chain != rules.x_chain {
        return fail(format!(
            "`{place}` is {chain}; this devnet moves funds between the P-chain and the X-chain ({}) only",
            rules.x_chain
        ));
    }
    Ok(())
}

fn not_found(place: &str, r: &avax::UtxoId, id: &Id) -> TxError {
    TxError(format!(
        "`{place}` spends output {} of tx {}, which is not an unspent output of this chain (UTXO {id})",
        r.output_index, r.tx_id
    ))
}
