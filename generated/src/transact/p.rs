//! P-chain builders: pure functions from a context, UTXOs and a request to an unsigned
//! transaction and the dynamic fee it pays, one per kind the P-chain accepts since Etna,
//! and the two ACP-236 kinds it accepts since Helicon (auto-renewed validators).
//! Each is AvalancheJS 5.2.0's Etna builder of the same name (`newBaseTx`,
//! `newAddPermissionlessValidatorTx`, `newAddAutoRenewedValidatorTx`, …): the same UTXOs in
//! the same order give the same bytes. Beyond it, requests are checked against the node's rules first (stakes, periods,
//! owners), and owner addresses are sorted as the node requires.

use std::collections::BTreeSet;

use crate::codec::{platform, secp256k1fx};
use crate::wire::{Id, NodeId, ShortId};

use super::context::Context;
use super::error::BuildError;
use super::fee;
/// The node-facing part (feature `client`): every page of this chain's UTXOs, the balances
/// they make, and issuing
/// with a handle to wait on ([`Pending`](super::Pending)).
#[cfg(feature = "client")]
pub use super::node::{issue_p_pending as issue, p_balances as balances, p_utxos as utxos};
use super::payer::{Payer, check_owners};
use super::sign::{self, CredentialKind, Signers};
use super::spend::{self, Amounts, PSpend, encoded, match_owners, utxo_order};

/// A P-chain transaction, built.
pub type Unsigned = sign::Unsigned<platform::UnsignedTx>;

/// The former name of [`Unsigned`].
#[deprecated(since = "0.2.0", note = "use `Unsigned`")]
pub type PUnsigned = Unsigned;

/// A transfer output: `amount` of `asset` to `owners`.
pub fn output(
    asset: Id,
    amount: u64,
    owners: secp256k1fx::OutputOwners,
) -> platform::TransferableOutput {
    platform::TransferableOutput::new(
        asset,
        secp256k1fx::TransferOutput::new(amount, owners).into(),
    )
}

/// A Subnet (or an L1 validator's deactivation owner) and who authorizes for it.
#[derive(Debug, Clone)]
pub struct Authority {
    /// The owner, as `platform.getSubnet` (or the L1 validator) gives it.
    pub owner: secp256k1fx::OutputOwners,
    /// The addresses that sign the authorization (the payer's when `None`): the first
    /// `threshold` of the owner's addresses among them sign, in the owner's order.
    pub signers: Option<Vec<ShortId>>,
}

impl Authority {
    /// An owner, authorized by the payer's addresses.
    pub fn new(owner: secp256k1fx::OutputOwners) -> Authority {
        Authority {
            owner,
            signers: None,
        }
    }

    /// The authorization input and its signers.
    fn auth(&self, field: &str, payer: &Payer) -> Result<(platform::Auth, Signers), BuildError> {
        let from: BTreeSet<ShortId> = self
            .signers
            .as_ref()
            .unwrap_or(&payer.from)
            .iter()
            .copied()
            .collect();
        let (indices, addresses) = match_owners(&self.owner, &from, payer.time).ok_or_else(|| {
            BuildError::invalid(
                field,
                format!(
                    "the signers cannot authorize: {} of the owner's {} address(es) {} must sign{}",
                    self.owner.threshold,
                    self.owner.addresses.len(),
                    self.owner.addresses.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", "),
                    if self.owner.locktime > payer.time {
                        format!(", and the owner is locked until {}", self.owner.locktime)
                    } else {
                        String::new()
                    }
                ),
            )
        })?;
        Ok((
            platform::Input::new(secp256k1fx::Input::new(indices)).into(),
            Signers {
                kind: CredentialKind::Secp256k1,
                addresses,
            },
        ))
    }
}

/// What a builder spends and how.
struct Plan<'u> {
    utxos: &'u [platform::Utxo],
    to_burn: Amounts,
    to_stake: Amounts,
    excess_avax: u64,
    consolidate: bool,
    use_locked: bool,
    change_owners: secp256k1fx::OutputOwners,
    /// Outputs of the base beside the change (a BaseTx's payments).
    outputs: Vec<platform::TransferableOutput>,
    /// Credentials after the inputs': imported inputs', then the authorization's.
    trailing: Vec<Signers>,
}

impl<'u> Plan<'u> {
    fn new(utxos: &'u [platform::Utxo], payer: &Payer) -> Result<Plan<'u>, BuildError> {
        Ok(Plan {
            utxos,
            to_burn: Amounts::default(),
            to_stake: Amounts::default(),
            excess_avax: 0,
            consolidate: false,
            use_locked: false,
            change_owners: payer.change_owners(1)?,
            outputs: Vec::new(),
            trailing: Vec::new(),
        })
    }
}

fn secp(addresses: Vec<ShortId>) -> Signers {
    Signers {
        kind: CredentialKind::Secp256k1,
        addresses,
    }
}

/// Builds: the complexity of the transaction without the spend, the spend, the transaction.
fn build(
    ctx: &Context,
    payer: &Payer,
    plan: Plan<'_>,
    make: impl Fn(platform::Base, Vec<platform::TransferableOutput>) -> platform::UnsignedTx,
) -> Result<Unsigned, BuildError> {
    let from = payer.spenders()?;
    let base = |outputs, inputs| {
        platform::Base::new(
            ctx.network_id,
            ctx.p_chain_id,
            outputs,
            inputs,
            payer.memo.clone(),
        )
    };
    let skeleton = make(base(plan.outputs.clone(), Vec::new()), Vec::new());
    let initial = fee::complexity(&skeleton)?;
    let spent = spend::p_spend(
        PSpend {
            utxos: plan.utxos,
            from: &from,
            change_owners: plan.change_owners,
            to_burn: plan.to_burn,
            to_stake: plan.to_stake,
            excess_avax: plan.excess_avax,
            initial,
            consolidate: plan.consolidate,
            use_locked: plan.use_locked,
            time: payer.time,
        },
        ctx.avax_asset_id,
        &ctx.p_fee_config.weights,
        &ctx.p_fee_state,
        ctx.p_fee_config.max_capacity,
    )?;
    let mut outputs = plan.outputs;
    outputs.extend(spent.change);
    outputs.sort_by_cached_key(encoded);
    let (inputs, signers): (Vec<_>, Vec<_>) = spent.inputs.into_iter().unzip();
    let tx = make(base(outputs, inputs), spent.stake);
    let mut creds: Vec<Signers> = signers.into_iter().map(secp).collect();
    creds.extend(plan.trailing);
    let burned = burned(ctx, &tx);
    Ok(Unsigned::new(tx, creds, spent.fee, burned))
}

fn amount_out(o: &platform::TransferableOutput) -> u64 {
    match &o.output {
        platform::TransferableOut::TransferOutput(t) => t.amount,
        platform::TransferableOut::LockOut(l) => match &l.output {
            platform::LockedOut::TransferOutput(t) => t.amount,
        },
    }
}

fn amount_in(i: &platform::TransferableInput) -> u64 {
    match &i.input {
        platform::TransferableIn::TransferInput(t) => t.amount,
        platform::TransferableIn::LockIn(l) => match &l.input {
            platform::LockedIn::TransferInput(t) => t.amount,
        },
    }
}

/// The AVAX a transaction burns: consumed minus produced, minus what it pays into L1
/// validators' balances.
fn burned(ctx: &Context, tx: &platform::UnsignedTx) -> u64 {
    use platform::UnsignedTx as U;
    let avax = |outs: &[platform::TransferableOutput]| -> u64 {
        outs.iter()
            .filter(|o| o.asset_id == ctx.avax_asset_id)
            .map(amount_out)
            .fold(0, u64::saturating_add)
    };
    let avax_in = |ins: &[platform::TransferableInput]| -> u64 {
        ins.iter()
            .filter(|i| i.asset_id == ctx.avax_asset_id)
            .map(amount_in)
            .fold(0, u64::saturating_add)
    };
    let Some(b) = tx.base() else { return 0 };
    let mut consumed = avax_in(&b.inputs);
    let mut produced = avax(&b.outputs);
    match tx {
        U::ImportTx(t) => consumed = consumed.saturating_add(avax_in(&t.imported_inputs)),
        U::ExportTx(t) => produced = produced.saturating_add(avax(&t.exported_outputs)),
        U::AddPermissionlessValidatorTx(t) => produced = produced.saturating_add(avax(&t.stake)),
        U::AddAutoRenewedValidatorTx(t) => produced = produced.saturating_add(avax(&t.stake)),
        U::AddPermissionlessDelegatorTx(t) => produced = produced.saturating_add(avax(&t.stake)),
        U::ConvertSubnetToL1Tx(t) => {
            produced = produced.saturating_add(
                t.validators
                    .iter()
                    .map(|v| v.balance)
                    .fold(0, u64::saturating_add),
            )
        }
        U::RegisterL1ValidatorTx(t) => produced = produced.saturating_add(t.balance),
        U::IncreaseL1ValidatorBalanceTx(t) => produced = produced.saturating_add(t.balance),
        _ => {}
    }
    consumed.saturating_sub(produced)
}

fn check_outputs(
    field: &str,
    outputs: &[platform::TransferableOutput],
) -> Result<Amounts, BuildError> {
    let mut sum = Amounts::default();
    for (i, o) in outputs.iter().enumerate() {
        let platform::TransferableOut::TransferOutput(t) = &o.output else {
            return Err(BuildError::invalid(
                format!("{field}[{i}]"),
                "a locked output: pay with transfer outputs (a locktime in their owners locks them)",
            ));
        };
        if t.amount == 0 {
            return Err(BuildError::invalid(
                format!("{field}[{i}].amount"),
                "0: the node refuses an output of nothing",
            ));
        }
        check_owners(&format!("{field}[{i}].owners"), &t.owners)?;
        sum.add(o.asset_id, t.amount)?;
    }
    Ok(sum)
}

fn owner(o: &secp256k1fx::OutputOwners) -> platform::Owner {
    platform::OutputOwners::new(o.clone()).into()
}

/// A BaseTx paying `outputs` from `utxos`, the fee in AVAX (`newBaseTx`).
pub fn base_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    outputs: &[platform::TransferableOutput],
) -> Result<Unsigned, BuildError> {
    let mut plan = Plan::new(utxos, payer)?;
    plan.to_burn = check_outputs("outputs", outputs)?;
    plan.consolidate = true;
    plan.outputs = outputs.to_vec();
    build(ctx, payer, plan, |base, _| {
        platform::BaseTx::new(base).into()
    })
}

/// An ExportTx sending `outputs` to `destination` (the X-chain's or C-chain's ID)
/// (`newExportTx`).
pub fn export_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    destination: Id,
    outputs: &[platform::TransferableOutput],
) -> Result<Unsigned, BuildError> {
    if destination == ctx.p_chain_id {
        return Err(BuildError::invalid(
            "destination",
            "the P-chain itself; export to the X-chain or the C-chain",
        ));
    }
    let mut plan = Plan::new(utxos, payer)?;
    plan.to_burn = check_outputs("outputs", outputs)?;
    let mut exported = outputs.to_vec();
    exported.sort_by_cached_key(encoded);
    build(ctx, payer, plan, |base, _| {
        platform::ExportTx::new(base, destination, exported.clone()).into()
    })
}

/// An ImportTx of every AVAX UTXO in `atomic` (exported to the P-chain from `source`, as
/// `platform.getUTXOs` with `sourceChain` lists them) that the payer can spend, to `to`; the
/// fee comes out of the imported AVAX, or, when that is short, from `local` UTXOs
/// (`newImportTx`, which would spend the imported UTXOs a second time there). Only AVAX can
/// be imported to the P-chain.
pub fn import_tx(
    ctx: &Context,
    atomic: &[platform::Utxo],
    local: &[platform::Utxo],
    payer: &Payer,
    source: Id,
    to: &secp256k1fx::OutputOwners,
) -> Result<Unsigned, BuildError> {
    check_owners("to", to)?;
    let from = payer.spenders()?;
    let mut imported = Vec::new();
    let mut amount = 0u64;
    for u in atomic.iter().filter(|u| u.asset_id == ctx.avax_asset_id) {
        let platform::UtxoOutput::TransferOutput(out) = &u.output else {
            continue;
        };
        let Some((indices, signers)) = match_owners(&out.owners, &from, payer.time) else {
            continue;
        };
        imported.push((spend::p_input(u, out.amount, indices), signers));
        amount = amount.saturating_add(out.amount);
    }
    if imported.is_empty() {
        return Err(BuildError::NothingToImport { chain: source });
    }
    imported.sort_by(|a, b| utxo_order(&a.0.utxo_id, &b.0.utxo_id));
    let (inputs, signers): (Vec<_>, Vec<_>) = imported.into_iter().unzip();
    let mut plan = Plan::new(local, payer)?;
    plan.change_owners = to.clone();
    plan.excess_avax = amount;
    plan.trailing = signers.into_iter().map(secp).collect();
    build(ctx, payer, plan, |base, _| {
        platform::ImportTx::new(base, source, inputs.clone()).into()
    })
}

/// A validator's or delegator's period and stake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stake {
    /// The node validated (or delegated to).
    pub node_id: NodeId,
    /// Start (Unix seconds); since Durango the period starts at acceptance and this is
    /// written as given (AvalancheJS writes what it is given; 0 is common).
    pub start: u64,
    /// End (Unix seconds).
    pub end: u64,
    /// The stake (nAVAX).
    pub weight: u64,
}

fn check_period(ctx: &Context, payer: &Payer, s: &Stake) -> Result<(), BuildError> {
    let r = &ctx.staking;
    if s.end <= payer.time {
        return Err(BuildError::invalid(
            "end",
            format!(
                "{} has passed (the transaction is built for {})",
                s.end, payer.time
            ),
        ));
    }
    let d = s.end - payer.time;
    if d < r.min_stake_duration {
        return Err(BuildError::invalid(
            "end",
            format!(
                "{} is {d} s away; the shortest staking period is {} s",
                s.end, r.min_stake_duration
            ),
        ));
    }
    if d > r.max_stake_duration {
        return Err(BuildError::invalid(
            "end",
            format!(
                "{} is {d} s away; the longest staking period is {} s",
                s.end, r.max_stake_duration
            ),
        ));
    }
    Ok(())
}

/// A Primary Network validator.
#[derive(Debug, Clone)]
pub struct ValidatorRequest {
    /// Node, period and stake.
    pub stake: Stake,
    /// The BLS public key and its proof of possession (`None`: no signer, refused on the
    /// Primary Network since Etna).
    pub signer: Option<([u8; 48], [u8; 96])>,
    /// Who receives the validation reward.
    pub validator_rewards: secp256k1fx::OutputOwners,
    /// Who receives the delegation fees.
    pub delegator_rewards: secp256k1fx::OutputOwners,
    /// The delegation fee in millionths.
    pub shares: u32,
}

/// A Primary Network validator's stake (its weight) within the network's bounds and its
/// delegation fee from the minimum to 100 %, as both validator builders require.
fn check_validator_terms(ctx: &Context, weight: u64, shares: u32) -> Result<(), BuildError> {
    let r = &ctx.staking;
    if weight < r.min_validator_stake {
        return Err(BuildError::invalid(
            "weight",
            format!(
                "{weight} nAVAX is below the minimum validator stake of {} nAVAX",
                r.min_validator_stake
            ),
        ));
    }
    if weight > r.max_validator_stake {
        return Err(BuildError::invalid(
            "weight",
            format!(
                "{weight} nAVAX is above the maximum validator stake of {} nAVAX",
                r.max_validator_stake
            ),
        ));
    }
    if shares < r.min_delegation_fee || shares > 1_000_000 {
        return Err(BuildError::invalid(
            "shares",
            format!(
                "{shares} millionths; the delegation fee is between {} and 1000000",
                r.min_delegation_fee
            ),
        ));
    }
    Ok(())
}

/// An AddPermissionlessValidatorTx on the Primary Network (`newAddPermissionlessValidatorTx`):
/// stakeable-locked UTXOs staked first, then unlocked ones.
pub fn add_permissionless_validator_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    req: &ValidatorRequest,
) -> Result<Unsigned, BuildError> {
    check_validator_terms(ctx, req.stake.weight, req.shares)?;
    check_period(ctx, payer, &req.stake)?;
    check_owners("validatorRewards", &req.validator_rewards)?;
    check_owners("delegatorRewards", &req.delegator_rewards)?;
    let signer: platform::Signer = match req.signer {
        Some((pk, pop)) => {
            platform::Signer::ProofOfPossession(Box::new(platform::ProofOfPossession::new(pk, pop)))
        }
        None => platform::Signer::SignerEmpty(platform::SignerEmpty {}),
    };
    let mut plan = Plan::new(utxos, payer)?;
    plan.to_stake = Amounts(vec![(ctx.avax_asset_id, req.stake.weight)]);
    plan.consolidate = true;
    plan.use_locked = true;
    let s = req.stake;
    build(ctx, payer, plan, |base, stake| {
        platform::AddPermissionlessValidatorTx::new(
            base,
            platform::Validator::new(s.node_id, s.start, s.end, s.weight),
            Id::ZERO,
            signer.clone(),
            stake,
            owner(&req.validator_rewards),
            owner(&req.delegator_rewards),
            req.shares,
        )
        .into()
    })
}

/// An AddPermissionlessDelegatorTx on the Primary Network
/// (`newAddPermissionlessDelegatorTx`). `room` is how much more the validator can take
/// (see [`delegation_room`]); a weight over it is refused here rather than by the node.
pub fn add_permissionless_delegator_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    stake: Stake,
    rewards: &secp256k1fx::OutputOwners,
    room: Option<u64>,
) -> Result<Unsigned, BuildError> {
    let r = &ctx.staking;
    if stake.weight < r.min_delegator_stake {
        return Err(BuildError::invalid(
            "weight",
            format!(
                "{} nAVAX is below the minimum delegator stake of {} nAVAX",
                stake.weight, r.min_delegator_stake
            ),
        ));
    }
    if let Some(room) = room
        && stake.weight > room
    {
        return Err(BuildError::invalid(
            "weight",
            format!(
                "{} nAVAX is over the validator's limit: {} can take {room} nAVAX more (its stake × {} or {} nAVAX, whichever is less)",
                stake.weight, stake.node_id, r.max_validator_weight_factor, r.max_validator_stake
            ),
        ));
    }
    check_period(ctx, payer, &stake)?;
    check_owners("rewards", rewards)?;
    let mut plan = Plan::new(utxos, payer)?;
    plan.to_stake = Amounts(vec![(ctx.avax_asset_id, stake.weight)]);
    plan.consolidate = true;
    plan.use_locked = true;
    build(ctx, payer, plan, |base, staked| {
        platform::AddPermissionlessDelegatorTx::new(
            base,
            platform::Validator::new(stake.node_id, stake.start, stake.end, stake.weight),
            Id::ZERO,
            staked,
            owner(rewards),
        )
        .into()
    })
}

/// How much more a validator with `validator_weight` of its own and `delegated` from its
/// delegators can take: its own × the weight factor, or the maximum validator stake,
/// whichever is less, minus what it weighs.
pub fn delegation_room(ctx: &Context, validator_weight: u64, delegated: u64) -> u64 {
    let r = &ctx.staking;
    let cap = validator_weight
        .saturating_mul(r.max_validator_weight_factor)
        .min(r.max_validator_stake);
    cap.saturating_sub(validator_weight.saturating_add(delegated))
}

/// A CreateSubnetTx owned by `owner` (`newCreateSubnetTx`).
pub fn create_subnet_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    owner_: &secp256k1fx::OutputOwners,
) -> Result<Unsigned, BuildError> {
    check_owners("owner", owner_)?;
    let plan = Plan::new(utxos, payer)?;
    build(ctx, payer, plan, |base, _| {
        platform::CreateSubnetTx::new(base, owner(owner_)).into()
    })
}

/// A new chain of a Subnet.
#[derive(Debug, Clone)]
pub struct ChainRequest<'a> {
    /// The Subnet.
    pub subnet_id: Id,
    /// The chain's name (at most 128 ASCII letters, digits and spaces).
    pub name: &'a str,
    /// The VM it runs.
    pub vm_id: Id,
    /// The fxs it uses.
    pub fx_ids: Vec<Id>,
    /// Its genesis (AvalancheJS writes its `genesisData` object as JSON).
    pub genesis: &'a [u8],
}

/// A CreateChainTx, authorized by the Subnet's owner (`newCreateChainTx`).
pub fn create_chain_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    subnet: &Authority,
    req: &ChainRequest<'_>,
) -> Result<Unsigned, BuildError> {
    if req.name.is_empty()
        || req.name.len() > 128
        || !req
            .name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b' ')
    {
        return Err(BuildError::invalid(
            "name",
            "1 to 128 ASCII letters, digits and spaces",
        ));
    }
    if req.subnet_id == Id::ZERO {
        return Err(BuildError::invalid(
            "subnetID",
            "the Primary Network takes no new chains",
        ));
    }
    if req.fx_ids.windows(2).any(|w| w[0] >= w[1]) {
        return Err(BuildError::invalid("fxIDs", "not sorted and unique"));
    }
    let (auth, signers) = subnet.auth("subnetAuth", payer)?;
    let mut plan = Plan::new(utxos, payer)?;
    plan.trailing.push(signers);
    build(ctx, payer, plan, |base, _| {
        platform::CreateChainTx::new(
            base,
            req.subnet_id,
            req.name.to_string(),
            req.vm_id,
            req.fx_ids.clone(),
            req.genesis.to_vec(),
            auth.clone(),
        )
        .into()
    })
}

/// An AddSubnetValidatorTx, authorized by the Subnet's owner (`newAddSubnetValidatorTx`).
pub fn add_subnet_validator_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    subnet_id: Id,
    subnet: &Authority,
    stake: Stake,
) -> Result<Unsigned, BuildError> {
    if stake.weight == 0 {
        return Err(BuildError::invalid(
            "weight",
            "0: a Subnet validator weighs at least 1",
        ));
    }
    if stake.end <= payer.time {
        return Err(BuildError::invalid(
            "end",
            format!(
                "{} has passed (the transaction is built for {})",
                stake.end, payer.time
            ),
        ));
    }
    let (auth, signers) = subnet.auth("subnetAuth", payer)?;
    let mut plan = Plan::new(utxos, payer)?;
    plan.trailing.push(signers);
    build(ctx, payer, plan, |base, _| {
        platform::AddSubnetValidatorTx::new(
            base,
            platform::SubnetValidator::new(
                platform::Validator::new(stake.node_id, stake.start, stake.end, stake.weight),
                subnet_id,
            ),
            auth.clone(),
        )
        .into()
    })
}

/// A RemoveSubnetValidatorTx, authorized by the Subnet's owner
/// (`newRemoveSubnetValidatorTx`).
pub fn remove_subnet_validator_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    subnet_id: Id,
    subnet: &Authority,
    node_id: NodeId,
) -> Result<Unsigned, BuildError> {
    let (auth, signers) = subnet.auth("subnetAuth", payer)?;
    let mut plan = Plan::new(utxos, payer)?;
    plan.trailing.push(signers);
    build(ctx, payer, plan, |base, _| {
        platform::RemoveSubnetValidatorTx::new(base, node_id, subnet_id, auth.clone()).into()
    })
}

/// A TransferSubnetOwnershipTx to `new_owner`, authorized by the current owner
/// (`newTransferSubnetOwnershipTx`).
pub fn transfer_subnet_ownership_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    subnet_id: Id,
    subnet: &Authority,
    new_owner: &secp256k1fx::OutputOwners,
) -> Result<Unsigned, BuildError> {
    check_owners("owner", new_owner)?;
    let (auth, signers) = subnet.auth("subnetAuth", payer)?;
    let mut plan = Plan::new(utxos, payer)?;
    plan.trailing.push(signers);
    build(ctx, payer, plan, |base, _| {
        platform::TransferSubnetOwnershipTx::new(base, subnet_id, auth.clone(), owner(new_owner))
            .into()
    })
}

/// A ConvertSubnetToL1Tx: the Subnet becomes an L1 managed from `manager` (a chain ID and
/// the address of the validator manager on it),
/// with these first validators (their balances paid here), authorized by the Subnet's
/// owner (`newConvertSubnetToL1Tx`).
pub fn convert_subnet_to_l1_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    subnet_id: Id,
    subnet: &Authority,
    (chain_id, address): (Id, &[u8]),
    validators: &[platform::ConvertSubnetToL1Validator],
) -> Result<Unsigned, BuildError> {
    if validators.is_empty() {
        return Err(BuildError::invalid(
            "validators",
            "none: an L1 starts with at least one",
        ));
    }
    let mut vs = validators.to_vec();
    let mut balances = Amounts::default();
    for (i, v) in vs.iter().enumerate() {
        if v.weight == 0 {
            return Err(BuildError::invalid(
                format!("validators[{i}].weight"),
                "0: a validator weighs at least 1",
            ));
        }
        balances.add(ctx.avax_asset_id, v.balance)?;
    }
    vs.sort_by(|a, b| a.node_id.cmp(&b.node_id));
    if vs.windows(2).any(|w| w[0].node_id == w[1].node_id) {
        return Err(BuildError::invalid("validators", "the same node twice"));
    }
    let (auth, signers) = subnet.auth("subnetAuth", payer)?;
    let mut plan = Plan::new(utxos, payer)?;
    if balances.get(&ctx.avax_asset_id) > 0 {
        plan.to_burn = balances;
    }
    plan.trailing.push(signers);
    build(ctx, payer, plan, |base, _| {
        platform::ConvertSubnetToL1Tx::new(
            base,
            subnet_id,
            chain_id,
            address.to_vec(),
            vs.clone(),
            auth.clone(),
        )
        .into()
    })
}

/// A RegisterL1ValidatorTx of the validator a signed Warp message names, with the proof of
/// possession of its BLS key and its first balance (`newRegisterL1ValidatorTx`).
pub fn register_l1_validator_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    balance: u64,
    proof_of_possession: [u8; 96],
    message: &[u8],
) -> Result<Unsigned, BuildError> {
    fee::warp(message)?;
    let mut plan = Plan::new(utxos, payer)?;
    if balance > 0 {
        plan.to_burn = Amounts(vec![(ctx.avax_asset_id, balance)]);
    }
    build(ctx, payer, plan, |base, _| {
        platform::RegisterL1ValidatorTx::new(base, balance, proof_of_possession, message.to_vec())
            .into()
    })
}

/// A SetL1ValidatorWeightTx carrying a signed Warp message (`newSetL1ValidatorWeightTx`).
pub fn set_l1_validator_weight_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    message: &[u8],
) -> Result<Unsigned, BuildError> {
    fee::warp(message)?;
    let plan = Plan::new(utxos, payer)?;
    build(ctx, payer, plan, |base, _| {
        platform::SetL1ValidatorWeightTx::new(base, message.to_vec()).into()
    })
}

/// An IncreaseL1ValidatorBalanceTx (`newIncreaseL1ValidatorBalanceTx`).
pub fn increase_l1_validator_balance_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    validation_id: Id,
    balance: u64,
) -> Result<Unsigned, BuildError> {
    if balance == 0 {
        return Err(BuildError::invalid("balance", "0: add at least 1 nAVAX"));
    }
    let mut plan = Plan::new(utxos, payer)?;
    plan.to_burn = Amounts(vec![(ctx.avax_asset_id, balance)]);
    build(ctx, payer, plan, |base, _| {
        platform::IncreaseL1ValidatorBalanceTx::new(base, validation_id, balance).into()
    })
}

/// A DisableL1ValidatorTx, authorized by the validator's deactivation owner
/// (`newDisableL1ValidatorTx`).
pub fn disable_l1_validator_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    validation_id: Id,
    deactivation: &Authority,
) -> Result<Unsigned, BuildError> {
    let (auth, signers) = deactivation.auth("disableAuth", payer)?;
    let mut plan = Plan::new(utxos, payer)?;
    plan.trailing.push(signers);
    build(ctx, payer, plan, |base, _| {
        platform::DisableL1ValidatorTx::new(base, validation_id, auth.clone()).into()
    })
}

/// An auto-renewed Primary Network validator (ACP-236, accepted since Helicon): its stake
/// stays locked period after period until its authority sets a period of 0.
#[derive(Debug, Clone)]
pub struct AutoRenewedValidatorRequest {
    /// The node that validates.
    pub node_id: NodeId,
    /// The stake (nAVAX).
    pub weight: u64,
    /// The BLS public key and its proof of possession (the node requires one).
    pub signer: ([u8; 48], [u8; 96]),
    /// Who receives the validation rewards that are not restaked.
    pub validator_rewards: secp256k1fx::OutputOwners,
    /// Who receives the delegation fees that are not restaked.
    pub delegator_rewards: secp256k1fx::OutputOwners,
    /// Who may change the configuration (`SetAutoRenewedValidatorConfigTx`).
    pub validator_authority: secp256k1fx::OutputOwners,
    /// The delegation fee in millionths.
    pub shares: u32,
    /// The share of each period's rewards restaked, in millionths (0: all paid out,
    /// 1000000: all restaked).
    pub auto_compound_reward_shares: u32,
    /// The length of each period (seconds), within the network's staking durations.
    pub period: u64,
}

fn check_compound(field: &str, shares: u32) -> Result<(), BuildError> {
    if shares > 1_000_000 {
        return Err(BuildError::invalid(
            field,
            format!("{shares} millionths; at most 1000000 (all rewards restaked)"),
        ));
    }
    Ok(())
}

fn check_renewal_period(ctx: &Context, field: &str, period: u64) -> Result<(), BuildError> {
    let r = &ctx.staking;
    if period < r.min_stake_duration {
        return Err(BuildError::invalid(
            field,
            format!(
                "{period} s; the shortest staking period is {} s",
                r.min_stake_duration
            ),
        ));
    }
    if period > r.max_stake_duration {
        return Err(BuildError::invalid(
            field,
            format!(
                "{period} s; the longest staking period is {} s",
                r.max_stake_duration
            ),
        ));
    }
    Ok(())
}

/// An AddAutoRenewedValidatorTx (`newAddAutoRenewedValidatorTx`): stakeable-locked UTXOs
/// staked first, then unlocked ones. The node accepts it once Helicon is active.
pub fn add_auto_renewed_validator_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    req: &AutoRenewedValidatorRequest,
) -> Result<Unsigned, BuildError> {
    check_validator_terms(ctx, req.weight, req.shares)?;
    check_compound("autoCompoundRewardShares", req.auto_compound_reward_shares)?;
    check_renewal_period(ctx, "period", req.period)?;
    check_owners("validatorRewards", &req.validator_rewards)?;
    check_owners("delegatorRewards", &req.delegator_rewards)?;
    check_owners("validatorAuthority", &req.validator_authority)?;
    let (pk, pop) = req.signer;
    let signer =
        platform::Signer::ProofOfPossession(Box::new(platform::ProofOfPossession::new(pk, pop)));
    let mut plan = Plan::new(utxos, payer)?;
    plan.to_stake = Amounts(vec![(ctx.avax_asset_id, req.weight)]);
    plan.consolidate = true;
    plan.use_locked = true;
    build(ctx, payer, plan, |base, stake| {
        platform::AddAutoRenewedValidatorTx::new(
            base,
            req.node_id.as_bytes().to_vec(),
            signer.clone(),
            stake,
            owner(&req.validator_rewards),
            owner(&req.delegator_rewards),
            owner(&req.validator_authority),
            req.shares,
            req.auto_compound_reward_shares,
            req.period,
        )
        .into()
    })
}

/// A SetAutoRenewedValidatorConfigTx (`newSetAutoRenewedValidatorConfigTx`): from the end
/// of the current period, `auto_compound_reward_shares` of the rewards are restaked and the
/// next period lasts `period` seconds; a period of 0 ends the validation with the current
/// period. `tx_id` is the validator's latest staking transaction (its `txID` in
/// `platform.getCurrentValidators`), `authority` its validator authority.
pub fn set_auto_renewed_validator_config_tx(
    ctx: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
    tx_id: Id,
    authority: &Authority,
    auto_compound_reward_shares: u32,
    period: u64,
) -> Result<Unsigned, BuildError> {
    if tx_id == Id::ZERO {
        return Err(BuildError::invalid(
            "txID",
            "the zero ID; give the validator's staking transaction",
        ));
    }
    check_compound("autoCompoundRewardShares", auto_compound_reward_shares)?;
    if period != 0 {
        check_renewal_period(ctx, "period", period)?;
    }
    let (auth, signers) = authority.auth("auth", payer)?;
    let mut plan = Plan::new(utxos, payer)?;
    plan.trailing.push(signers);
    build(ctx, payer, plan, |base, _| {
        platform::SetAutoRenewedValidatorConfigTx::new(
            base,
            tx_id,
            auth.clone(),
            auto_compound_reward_shares,
            period,
        )
        .into()
    })
}
