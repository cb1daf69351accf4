//! L1s (ACP-77): ConvertSubnetToL1Tx (authorized by the Subnet's owner), and the L1
//! validators' own transactions: RegisterL1ValidatorTx and SetL1ValidatorWeightTx (carrying
//! a Warp message from the L1's manager), IncreaseL1ValidatorBalanceTx, DisableL1ValidatorTx
//! (authorized by the validator's deactivation owner). Their checks and what they change
//! (the conversion, the L1 validators and their balances).

use super::check_authorization;
use crate::ledger::{self, Chain};
use crate::pchain::l1 as l1_state;
use crate::pchain::vocab::Authority;
use crate::pchain::vocab::{Accept, ChainState, Change, CheckInput, L1Change, Parts, Rules};
use crate::pchain::{Utxo, warp};
use crate::refusal::{Refusal, VerifyError, fail};
use crate::store::StoreError;
use avalanche_rpc::codec::{platform, secp256k1fx, warp as warp_codec, warp_l1};
use avalanche_rpc::wire::{Id, NodeId};
use redb::WriteTransaction;

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

    fn check(
        &self,
        cx: &CheckInput<'_>,
        state: &mut dyn ChainState,
    ) -> Result<Change, VerifyError> {
        check_conversion(self, cx.time, state)
    }
}

impl Accept for platform::RegisterL1ValidatorTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts {
            balances: self.balance,
            ..Parts::of(&self.base)
        })
    }

    fn check(
        &self,
        cx: &CheckInput<'_>,
        state: &mut dyn ChainState,
    ) -> Result<Change, VerifyError> {
        check_registration(cx.rules, self, cx.time, state)
    }
}

impl Accept for platform::SetL1ValidatorWeightTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts::of(&self.base))
    }

    fn check(
        &self,
        cx: &CheckInput<'_>,
        state: &mut dyn ChainState,
    ) -> Result<Change, VerifyError> {
        check_weight(cx.rules, &self.message, cx.outputs, state)
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
    fn check(&self, _: &CheckInput<'_>, state: &mut dyn ChainState) -> Result<Change, VerifyError> {
        let Some(v) = state.l1_validator(&self.validation_id)? else {
            return Err(Refusal::node(
                "not found",
                format!(
                    "`unsignedTx.validationID` {} is not an L1 validator of this chain",
                    self.validation_id
                ),
            )
            .into());
        };
        if !v.active() && state.active_l1_validators()? >= l1_state::CAPACITY {
            return fail(format!(
                "the L1 validators' capacity of {} active validators is reached",
                l1_state::CAPACITY
            ));
        }
        Ok(Change::L1(L1Change::IncreaseBalance {
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
    fn check(&self, cx: &CheckInput<'_>, _: &mut dyn ChainState) -> Result<Change, VerifyError> {
        Ok(Change::L1(L1Change::Disable {
            validation_id: self.validation_id,
            index: cx.outputs,
        }))
    }
}

/// The deactivation owner's authorization of L1 validator `id`: the last credential signs
/// for the owner's addresses the auth names.
pub fn check_disable_auth(
    state: &mut dyn ChainState,
    id: &Id,
    auth: &platform::Auth,
    signed: (&platform::Tx, &[u8; 32], u64),
) -> Result<(), VerifyError> {
    let Some(v) = state.l1_validator(id)? else {
        return Err(Refusal::node(
            "could not load L1 validator: not found",
            format!("`unsignedTx.validationID` {id} is not an L1 validator of this chain"),
        )
        .into());
    };
    let owner = secp256k1fx::OutputOwners::new(
        0,
        v.deactivation_owner.threshold,
        v.deactivation_owner.addresses.clone(),
    );
    Ok(check_authorization(
        &owner,
        auth,
        signed,
        "unsignedTx.disableAuthorization",
    )?)
}

/// The node's rules for converting a Subnet to an L1 (`ConvertSubnetToL1Tx`): validators
/// with weight, a real node ID, a proof of possession and valid owners; room among the
/// active L1 validators. The conversion ID is SHA-256 of the SubnetToL1ConversionData.
fn check_conversion(
    c: &platform::ConvertSubnetToL1Tx,
    time: u64,
    state: &mut dyn ChainState,
) -> Result<Change, VerifyError> {
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
        validators.push(l1_state::Validator {
            validation_id: l1_state::conversion_validation_id(&c.subnet_id, i as u32),
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
    if state.active_l1_validators()?.saturating_add(new_active) > l1_state::CAPACITY {
        return fail(format!(
            "the L1 validators' capacity of {} active validators would be exceeded",
            l1_state::CAPACITY
        ));
    }
    let bytes =
        warp_codec::SubnetToL1ConversionData::new(c.subnet_id, c.chain_id, c.address.clone(), data)
            .to_bytes()
            .map_err(|e| Refusal::new(format!("the conversion data does not encode: {e}")))?;
    Ok(Change::L1(L1Change::Convert {
        subnet: c.subnet_id,
        conversion: l1_state::Conversion {
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
    state: &mut dyn ChainState,
) -> Result<(), VerifyError> {
    let parsed = warp::parse(message)?;
    let Some(c) = state.conversion(subnet)? else {
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
    let Some(set) = state.warp_validators(&m.source_chain_id)? else {
        return fail(format!(
            "`unsignedTx.message`'s source chain {} is not a chain of this network",
            m.source_chain_id
        ));
    };
    Ok(warp::verify(&parsed, rules.network_id, &set)?)
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
    state: &mut dyn ChainState,
) -> Result<Change, VerifyError> {
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
    check_l1_message(rules, &t.message, &m.subnet_id, state)?;
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
        )
        .into());
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
        ).into());
    }
    let validation_id = Id::from_sha256(&parsed.l1_bytes);
    if state.has_expiry(m.expiry, &validation_id)? {
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
    if state.l1_validation_of(&m.subnet_id, &node)?.is_some() {
        return fail(format!("{node} already validates L1 {}", m.subnet_id));
    }
    if t.balance > 0 && state.active_l1_validators()? >= l1_state::CAPACITY {
        return fail(format!(
            "the L1 validators' capacity of {} active validators is reached",
            l1_state::CAPACITY
        ));
    }
    Ok(Change::L1(L1Change::Register {
        validator: Box::new(l1_state::Validator {
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
    state: &mut dyn ChainState,
) -> Result<Change, VerifyError> {
    let parsed = warp::parse(message)?;
    let warp_l1::L1Message::L1ValidatorWeight(m) = &parsed.l1 else {
        return fail("`unsignedTx.message` does not carry an L1ValidatorWeight message");
    };
    let Some(v) = state.l1_validator(&m.validation_id)? else {
        return Err(Refusal::node(
            "could not load L1 validator: not found",
            format!(
                "`unsignedTx.message` names validation {}, which is not an L1 validator of this chain",
                m.validation_id
            ),
        ).into());
    };
    if m.nonce < v.min_nonce {
        return fail(format!(
            "`unsignedTx.message`'s nonce {} is stale: it must be at least {}",
            m.nonce, v.min_nonce
        ));
    }
    check_l1_message(rules, message, &v.subnet, state)?;
    if m.weight == 0 && state.l1_weight(&v.subnet)? == v.weight {
        return fail(format!(
            "`unsignedTx.message` would remove the last validator of L1 {}",
            v.subnet
        ));
    }
    Ok(Change::L1(L1Change::SetWeight {
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
    change: L1Change,
    (id, height): (&Id, u64),
    avax: Id,
) -> Result<(), StoreError> {
    match change {
        L1Change::Convert {
            subnet,
            conversion,
            validators,
            balances,
        } => {
            let accrued = l1_state::fee_state(w)?.accrued;
            for (mut v, balance) in validators.into_iter().zip(balances) {
                if balance > 0 {
                    v.end_accumulated_fee = balance.saturating_add(accrued);
                }
                l1_state::put(w, &v, None, height)?;
            }
            l1_state::set_conversion(w, &subnet, &conversion)
        }
        L1Change::IncreaseBalance {
            validation_id,
            amount,
        } => {
            let before = stored(w, &validation_id)?;
            let mut v = before.clone();
            if !v.active() {
                v.end_accumulated_fee = l1_state::fee_state(w)?.accrued;
            }
            v.end_accumulated_fee = v.end_accumulated_fee.saturating_add(amount);
            l1_state::put(w, &v, Some(&before), height)
        }
        L1Change::Disable {
            validation_id,
            index,
        } => {
            let before = stored(w, &validation_id)?;
            if before.active() {
                refund(w, &before, (id, index), avax)?;
                let mut v = before.clone();
                v.end_accumulated_fee = 0;
                l1_state::put(w, &v, Some(&before), height)?;
            }
            Ok(())
        }
        L1Change::Register {
            mut validator,
            balance,
            expiry,
        } => {
            if balance > 0 {
                validator.end_accumulated_fee =
                    balance.saturating_add(l1_state::fee_state(w)?.accrued);
            }
            l1_state::put(w, &validator, None, height)?;
            l1_state::put_expiry(w, expiry, &validator.validation_id)
        }
        L1Change::SetWeight {
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
            l1_state::put(w, &v, Some(&before), height)
        }
    }
}

/// Pays what is left of an active L1 validator's balance to its remaining balance owner, as
/// output `index` of tx `tx`.
fn refund(
    w: &WriteTransaction,
    v: &l1_state::Validator,
    (tx, index): (&Id, u32),
    avax: Id,
) -> Result<(), StoreError> {
    let left = v.balance(&l1_state::fee_state(w)?);
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

fn stored(w: &WriteTransaction, id: &Id) -> Result<l1_state::Validator, StoreError> {
    l1_state::validator(w, id)?
        .ok_or_else(|| StoreError::Invalid(format!("L1 validator {id} is not stored")))
}
