//! L1s (ACP-77): ConvertSubnetToL1Tx (authorized by the Subnet's owner), and the L1
//! validators' own transactions: RegisterL1ValidatorTx and SetL1ValidatorWeightTx (carrying
//! a Warp message from the L1's manager), IncreaseL1ValidatorBalanceTx, DisableL1ValidatorTx
//! (authorized by the validator's deactivation owner). Their checks and what they change
//! (the conversion, the L1 validators and their balances).

use super::{Accept, Authority, Context, Parts, check_authorization};
use crate::engine::refusal::{Refusal, fail};
use crate::ledger::{self, Chain};
use crate::pchain::l1 as state;
use crate::pchain::verify::{Change as Changed, Rules, View};
use crate::pchain::{Utxo, warp};
use crate::store::StoreError;
use avalanche_rpc::codec::{platform, secp256k1fx, warp as warp_codec, warp_l1};
use avalanche_rpc::wire::{Id, NodeId};
use redb::WriteTransaction;

/// What an L1 transaction changes.
#[derive(Debug, Clone)]
pub enum Change {
    /// The Subnet becomes an L1 with these first validators, from `start`.
    Convert {
        subnet: Id,
        conversion: state::Conversion,
        validators: Vec<state::Validator>,
        /// Their balances, in order (an active validator's paid-up mark is its balance
        /// above the accumulator when the block is accepted).
        balances: Vec<u64>,
    },
    /// An L1 validator's balance grows by `amount` (reactivating it if it was inactive).
    IncreaseBalance { validation_id: Id, amount: u64 },
    /// An L1 validator is disabled; what is left of its balance is paid to its remaining
    /// balance owner as output `index` of the tx.
    Disable { validation_id: Id, index: u32 },
    /// An L1 validator registered by a Warp message, with its balance, and the message's
    /// expiry (kept so it is accepted once).
    Register {
        validator: Box<state::Validator>,
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

impl Accept for platform::ConvertSubnetToL1Tx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts {
            balances: self
                .validators
                .iter()
                .fold(0u64, |a, v| a.saturating_add(v.balance)),
            authority: Some((Authority::Subnet(&self.subnet_id), &self.subnet_auth)),
            ..Parts::of(&self.base)
        })
    }

    fn check(&self, cx: &Context<'_>, view: &mut dyn View) -> Result<Changed, Refusal> {
        check_conversion(self, cx.time, view)
    }
}

impl Accept for platform::RegisterL1ValidatorTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts {
            balances: self.balance,
            ..Parts::of(&self.base)
        })
    }

    fn check(&self, cx: &Context<'_>, view: &mut dyn View) -> Result<Changed, Refusal> {
        check_registration(cx.rules, self, cx.time, view)
    }
}

impl Accept for platform::SetL1ValidatorWeightTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts::of(&self.base))
    }

    fn check(&self, cx: &Context<'_>, view: &mut dyn View) -> Result<Changed, Refusal> {
        check_weight(cx.rules, &self.message, cx.outputs, view)
    }
}

impl Accept for platform::IncreaseL1ValidatorBalanceTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts {
            balances: self.balance,
            ..Parts::of(&self.base)
        })
    }

    /// The validator exists; reactivating it needs room among the active L1 validators.
    fn check(&self, _: &Context<'_>, view: &mut dyn View) -> Result<Changed, Refusal> {
        let Some(v) = view.l1_validator(&self.validation_id)? else {
            return Err(Refusal::node(
                "not found",
                format!(
                    "`unsignedTx.validationID` {} is not an L1 validator of this chain",
                    self.validation_id
                ),
            ));
        };
        if !v.active() && view.active_l1_validators()? >= state::CAPACITY {
            return fail(format!(
                "the L1 validators' capacity of {} active validators is reached",
                state::CAPACITY
            ));
        }
        Ok(Changed::L1(Change::IncreaseBalance {
            validation_id: self.validation_id,
            amount: self.balance,
        }))
    }
}

impl Accept for platform::DisableL1ValidatorTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts {
            authority: Some((
                Authority::Deactivation(&self.validation_id),
                &self.disable_auth,
            )),
            ..Parts::of(&self.base)
        })
    }

    /// Its authorization checked the validator exists.
    fn check(&self, cx: &Context<'_>, _: &mut dyn View) -> Result<Changed, Refusal> {
        Ok(Changed::L1(Change::Disable {
            validation_id: self.validation_id,
            index: cx.outputs,
        }))
    }
}

/// The deactivation owner's authorization of L1 validator `id`: the last credential signs
/// for the owner's addresses the auth names.
pub fn check_disable_auth(
    view: &mut dyn View,
    id: &Id,
    auth: &platform::Auth,
    signed: (&platform::Tx, &[u8; 32], u64),
) -> Result<(), Refusal> {
    let Some(v) = view.l1_validator(id)? else {
        return Err(Refusal::node(
            "could not load L1 validator: not found",
            format!("`unsignedTx.validationID` {id} is not an L1 validator of this chain"),
        ));
    };
    let owner = secp256k1fx::OutputOwners::new(
        0,
        v.deactivation_owner.threshold,
        v.deactivation_owner.addresses.clone(),
    );
    check_authorization(&owner, auth, signed, "unsignedTx.disableAuthorization")
}

/// The node's rules for converting a Subnet to an L1 (`ConvertSubnetToL1Tx`): validators
/// with weight, a real node ID, a proof of possession and valid owners; room among the
/// active L1 validators. The conversion ID is SHA-256 of the SubnetToL1ConversionData.
fn check_conversion(
    c: &platform::ConvertSubnetToL1Tx,
    time: u64,
    view: &mut dyn View,
) -> Result<Changed, Refusal> {
    if c.validators.is_empty() {
        return fail("`unsignedTx.validators` is empty: a conversion needs at least one validator");
    }
    let mut validators = Vec::new();
    let mut balances = Vec::new();
    let mut data = Vec::new();
    for (i, v) in c.validators.iter().enumerate() {
        let place = format!("unsignedTx.validators[{i}]");
        let node: [u8; 20] = v.node_id.as_slice().try_into().map_err(|_| {
            Refusal::new(format!(
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
            Refusal::new(format!(
                "`{place}.signer.proofOfPossession` does not verify: {e}"
            ))
        })?;
        for (owner, name) in [
            (&v.remaining_balance_owner, "remainingBalanceOwner"),
            (&v.deactivation_owner, "deactivationOwner"),
        ] {
            check_owner(owner, &format!("{place}.{name}"))?;
        }
        validators.push(state::Validator {
            validation_id: state::conversion_validation_id(&c.subnet_id, i as u32),
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
    if view.active_l1_validators()?.saturating_add(new_active) > state::CAPACITY {
        return fail(format!(
            "the L1 validators' capacity of {} active validators would be exceeded",
            state::CAPACITY
        ));
    }
    let bytes =
        warp_codec::SubnetToL1ConversionData::new(c.subnet_id, c.chain_id, c.address.clone(), data)
            .to_bytes()
            .map_err(|e| Refusal::new(format!("the conversion data does not encode: {e}")))?;
    Ok(Changed::L1(Change::Convert {
        subnet: c.subnet_id,
        conversion: state::Conversion {
            id: Id::from_sha256(&bytes),
            manager_chain: c.chain_id,
            manager_address: c.address.clone(),
        },
        validators,
        balances,
    }))
}

/// A Warp message about an L1: parsed, from the L1's manager (its chain and address), and
/// signed by 67 % of the weight of the Subnet validating that chain.
fn check_l1_message(
    rules: &Rules,
    message: &[u8],
    subnet: &Id,
    view: &mut dyn View,
) -> Result<(), Refusal> {
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
) -> Result<Changed, Refusal> {
    let parsed = warp::parse(&t.message)?;
    let warp_l1::L1Message::RegisterL1Validator(m) = &parsed.l1 else {
        return fail("`unsignedTx.message` does not carry a RegisterL1Validator message");
    };
    if m.weight == 0 {
        return fail("`unsignedTx.message`'s weight is 0");
    }
    let node: [u8; 20] = m.node_id.as_slice().try_into().map_err(|_| {
        Refusal::new(format!(
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
        return Err(Refusal::node(
            format!(
                "warp message expired at {} and it is currently {time}",
                m.expiry
            ),
            format!(
                "`unsignedTx.message` expired at {} and the chain time is {time}",
                m.expiry
            ),
        ));
    }
    if m.expiry - time > 24 * 3600 {
        return Err(Refusal::node(
            format!(
                "warp message not yet allowed because time is {} seconds in the future but the limit is 86400",
                m.expiry - time
            ),
            format!(
                "`unsignedTx.message` expires {} seconds from now; the limit is a day (86400)",
                m.expiry - time
            ),
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
            Refusal::node(
                "invalid proof of possession",
                format!(
                    "`unsignedTx.proofOfPossession` does not verify for the message's key: {e}"
                ),
            )
        })?;
    let node = NodeId::new(node);
    if view.l1_validation_of(&m.subnet_id, &node)?.is_some() {
        return fail(format!("{node} already validates L1 {}", m.subnet_id));
    }
    if t.balance > 0 && view.active_l1_validators()? >= state::CAPACITY {
        return fail(format!(
            "the L1 validators' capacity of {} active validators is reached",
            state::CAPACITY
        ));
    }
    Ok(Changed::L1(Change::Register {
        validator: Box::new(state::Validator {
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
    }))
}

/// The node's rules for SetL1ValidatorWeightTx: the message names a validator of this chain
/// with a nonce not below its minimum; removing it may not remove the L1's last weight.
fn check_weight(
    rules: &Rules,
    message: &[u8],
    index: u32,
    view: &mut dyn View,
) -> Result<Changed, Refusal> {
    let parsed = warp::parse(message)?;
    let warp_l1::L1Message::L1ValidatorWeight(m) = &parsed.l1 else {
        return fail("`unsignedTx.message` does not carry an L1ValidatorWeight message");
    };
    let Some(v) = view.l1_validator(&m.validation_id)? else {
        return Err(Refusal::node(
            "could not load L1 validator: not found",
            format!(
                "`unsignedTx.message` names validation {}, which is not an L1 validator of this chain",
                m.validation_id
            ),
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
    Ok(Changed::L1(Change::SetWeight {
        validation_id: m.validation_id,
        nonce: m.nonce,
        weight: m.weight,
        index,
    }))
}

/// An owner without a locktime (`secp256k1fx.OutputOwners.Verify`).
fn check_owner(o: &platform::PChainOwner, place: &str) -> Result<(), Refusal> {
    crate::secp::check_threshold(o.threshold, o.addresses.len(), place)
}

/// Writes what L1 tx `id`, accepted at `height`, changes; a refund is paid in `avax`.
pub fn apply(
    w: &WriteTransaction,
    change: Change,
    (id, height): (&Id, u64),
    avax: Id,
) -> Result<(), StoreError> {
    match change {
        Change::Convert {
            subnet,
            conversion,
            validators,
            balances,
        } => {
            let accrued = state::fee_state(w)?.accrued;
            for (mut v, balance) in validators.into_iter().zip(balances) {
                if balance > 0 {
                    v.end_accumulated_fee = balance.saturating_add(accrued);
                }
                state::put(w, &v, None, height)?;
            }
            state::set_conversion(w, &subnet, &conversion)
        }
        Change::IncreaseBalance {
            validation_id,
            amount,
        } => {
            let before = stored(w, &validation_id)?;
            let mut v = before.clone();
            if !v.active() {
                v.end_accumulated_fee = state::fee_state(w)?.accrued;
            }
            v.end_accumulated_fee = v.end_accumulated_fee.saturating_add(amount);
            state::put(w, &v, Some(&before), height)
        }
        Change::Disable {
            validation_id,
            index,
        } => {
            let before = stored(w, &validation_id)?;
            if before.active() {
                refund(w, &before, (id, index), avax)?;
                let mut v = before.clone();
                v.end_accumulated_fee = 0;
                state::put(w, &v, Some(&before), height)?;
            }
            Ok(())
        }
        Change::Register {
            mut validator,
            balance,
            expiry,
        } => {
            if balance > 0 {
                validator.end_accumulated_fee =
                    balance.saturating_add(state::fee_state(w)?.accrued);
            }
            state::put(w, &validator, None, height)?;
            state::put_expiry(w, expiry, &validator.validation_id)
        }
        Change::SetWeight {
            validation_id,
            nonce,
            weight,
            index,
        } => {
            let before = stored(w, &validation_id)?;
            if weight == 0 && before.active() {
                refund(w, &before, (id, index), avax)?;
            }
            let mut v = before.clone();
            v.min_nonce = nonce.saturating_add(1);
            v.weight = weight;
            state::put(w, &v, Some(&before), height)
        }
    }
}

/// Pays what is left of an active L1 validator's balance to its remaining balance owner, as
/// output `index` of tx `tx`.
fn refund(
    w: &WriteTransaction,
    v: &state::Validator,
    (tx, index): (&Id, u32),
    avax: Id,
) -> Result<(), StoreError> {
    let left = v.balance(&state::fee_state(w)?);
    let owner = &v.remaining_balance_owner;
    let u = Utxo::new(platform::Utxo::new(
        avalanche_rpc::codec::avax::UtxoId::new(*tx, index),
        avax,
        platform::UtxoOutput::TransferOutput(secp256k1fx::TransferOutput::new(
            left,
            secp256k1fx::OutputOwners::new(0, owner.threshold, owner.addresses.clone()),
        )),
    ));
    ledger::put_utxo(w, Chain::P, &u.id, &u.bytes, &u.owners())
}

fn stored(w: &WriteTransaction, id: &Id) -> Result<state::Validator, StoreError> {
    state::validator(w, id)?
        .ok_or_else(|| StoreError::Invalid(format!("L1 validator {id} is not stored")))
}
