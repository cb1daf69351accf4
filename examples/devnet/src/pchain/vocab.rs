//! The words P-chain verification is written in, below both the kinds ([`super::kind`]) and
//! the order of checks ([`super::verify`]): the chain's [`Rules`], the [`ChainState`] a
//! transaction is checked against, what a kind brings to verification ([`Accept`], its
//! [`Parts`] and whose authorization it carries), what its own checks read besides the state
//! ([`CheckInput`]), and the [`Change`] each family of kinds makes.

use super::{Utxo, l1, warp};
use crate::refusal::{Refusal, VerifyError};
use crate::store::StoreError;
use avalanche_rpc::codec::platform;
use avalanche_rpc::wire::{Id, NodeId};

/// The chain's parameters a transaction is checked against.
#[derive(Debug, Clone)]
pub struct Rules {
    pub network_id: u32,
    pub avax: Id,
    pub x_chain: Id,
    /// The C-chain's ID: imports and exports go to and from it or the X-chain.
    pub c_chain: Id,
    /// When Helicon activates (Unix seconds): the ACP-236 kinds are accepted from then on.
    pub helicon: u64,
}

/// What verification reads of the chain's state: the last accepted state when a transaction
/// is issued, the block's own state as a block is built. A read fails only as the store
/// does: what is missing is `None`, for the checks to refuse.
pub trait ChainState {
    /// An unspent output of the P-chain.
    fn utxo(&mut self, id: &Id) -> Result<Option<Utxo>, StoreError>;
    /// An output the X-chain exported to the P-chain.
    fn atomic(&mut self, id: &Id) -> Result<Option<Utxo>, StoreError>;
    /// A Subnet's owner, and whether it was converted to an L1.
    fn subnet(&mut self, subnet: &Id) -> Result<Option<(platform::Owner, bool)>, StoreError>;
    /// An L1 validator.
    fn l1_validator(&mut self, validation_id: &Id) -> Result<Option<l1::Validator>, StoreError>;
    /// How many L1 validators are active.
    fn active_l1_validators(&mut self) -> Result<u64, StoreError>;
    /// A converted Subnet's conversion.
    fn conversion(&mut self, subnet: &Id) -> Result<Option<l1::Conversion>, StoreError>;
    /// The validation of `node` on L1 `subnet`, if any.
    fn l1_validation_of(&mut self, subnet: &Id, node: &NodeId) -> Result<Option<Id>, StoreError>;
    /// The total weight of an L1's validators.
    fn l1_weight(&mut self, subnet: &Id) -> Result<u64, StoreError>;
    /// Whether a registration with this expiry and validation ID was already accepted.
    fn has_expiry(&mut self, expiry: u64, validation_id: &Id) -> Result<bool, StoreError>;
    /// The canonical validator set of the Subnet validating `chain`, now.
    fn warp_validators(&mut self, chain: &Id) -> Result<Option<warp::Canonical>, StoreError>;
    /// An accepted P-chain transaction.
    fn tx(&mut self, id: &Id) -> Result<Option<platform::Tx>, StoreError>;
    /// A current validator of a Subnet.
    fn validator(&mut self, subnet: &Id, node: &NodeId) -> Result<Option<Current>, StoreError>;
}

/// A current validator, as verification needs it.
#[derive(Debug, Clone, Copy)]
pub struct Current {
    /// The tx that added it.
    pub tx_id: Id,
    /// Its own stake.
    pub weight: u64,
    /// The stake of its current delegators.
    pub delegated: u64,
    pub end: u64,
    /// A validator of a permissioned Subnet (added with AddSubnetValidatorTx).
    pub permissioned: bool,
}

/// What a transaction changes beyond UTXOs, by family.
#[derive(Debug, Clone, Default)]
pub enum Change {
    /// BaseTx, ImportTx, ExportTx.
    #[default]
    None,
    Staking(StakingChange),
    Subnets(SubnetChange),
    L1(L1Change),
}

/// What staking changes: a staker joins the Primary Network from `start` (the chain time it
/// is accepted at) to `end`.
#[derive(Debug, Clone)]
pub enum StakingChange {
    /// A validator.
    AddValidator {
        node: NodeId,
        weight: u64,
        public_key: [u8; 48],
        start: u64,
        end: u64,
    },
    /// A delegator to validator `node`.
    AddDelegator {
        node: NodeId,
        weight: u64,
        start: u64,
        end: u64,
    },
    /// An auto-renewed validator (ACP-236): its first cycle from `start` for `period`.
    AddAutoRenewed {
        node: NodeId,
        weight: u64,
        public_key: [u8; 48],
        start: u64,
        period: u64,
        auto_compound_shares: u32,
    },
    /// An auto-renewed validator's configuration for its next cycles.
    SetAutoRenewedConfig {
        node: NodeId,
        next_period: u64,
        auto_compound_shares: u32,
    },
}

/// What a Subnet transaction changes. The ID of a new Subnet or chain is its tx's ID.
#[derive(Debug, Clone)]
pub enum SubnetChange {
    CreateSubnet,
    CreateChain {
        subnet: Id,
    },
    /// The Subnet's owner becomes the one this tx names.
    SetOwner {
        subnet: Id,
    },
    /// A permissioned validator joins `subnet` from `start` (the chain time it is accepted
    /// at; its tx says when it ends); it earns no reward.
    AddValidator {
        subnet: Id,
        node: NodeId,
        weight: u64,
        start: u64,
    },
    /// A permissioned validator leaves `subnet`.
    RemoveValidator {
        subnet: Id,
        node: NodeId,
        weight: u64,
    },
}

/// What an L1 transaction changes.
#[derive(Debug, Clone)]
pub enum L1Change {
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
    IncreaseBalance { validation_id: Id, amount: u64 },
    /// An L1 validator is disabled; what is left of its balance is paid to its remaining
    /// balance owner as output `index` of the tx.
    Disable { validation_id: Id, index: u32 },
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

/// What a kind of transaction brings to verification.
pub trait Accept {
    /// What the flow check reads of it beyond its base, and whose authorization it carries.
    fn parts(&self, rules: &Rules) -> Result<Parts<'_>, Refusal>;
    /// Its own checks (the flow checked, its authorization too), and the change it makes.
    fn check(&self, cx: &CheckInput<'_>, state: &mut dyn ChainState)
    -> Result<Change, VerifyError>;
}

/// What the flow check reads of a transaction.
#[derive(Debug, Clone, Copy)]
pub struct Parts<'t> {
    pub base: &'t platform::Base,
    /// Inputs spending what the X-chain exported (ImportTx).
    pub imported: &'t [platform::TransferableInput],
    /// Outputs into shared memory (ExportTx).
    pub exported: &'t [platform::TransferableOutput],
    /// Staked outputs (returned at the staker's end).
    pub stake: &'t [platform::TransferableOutput],
    /// What it pays into L1 validators' balances, like an output.
    pub balances: u64,
    /// Whose authorization its last credential carries.
    pub authority: Option<(Authority<'t>, &'t platform::Auth)>,
}

impl<'t> Parts<'t> {
    /// A transaction with its base only.
    pub fn of(base: &'t platform::Base) -> Parts<'t> {
        Parts {
            base,
            imported: &[],
            exported: &[],
            stake: &[],
            balances: 0,
            authority: None,
        }
    }
}

/// Whose authorization a transaction carries (its last credential signs for it).
#[derive(Debug, Clone, Copy)]
pub enum Authority<'t> {
    /// A permissioned Subnet's owner.
    Subnet(&'t Id),
    /// An L1 validator's deactivation owner.
    Deactivation(&'t Id),
    /// The validator authority of the auto-renewed validator this tx added.
    AutoRenewed(&'t Id),
}

impl Authority<'_> {
    /// What the credential count's refusal says of it.
    pub fn credential(&self) -> &'static str {
        match self {
            Authority::Subnet(_) => ", then one for the Subnet authorization",
            Authority::Deactivation(_) => ", then one for the disable authorization",
            Authority::AutoRenewed(_) => ", then one for the validator authority",
        }
    }
}

/// What a kind's own checks read besides the state.
#[derive(Debug, Clone, Copy)]
pub struct CheckInput<'a> {
    pub rules: &'a Rules,
    /// The chain time the transaction is verified at.
    pub time: u64,
    /// The amount its stake outputs hold.
    pub staked: u64,
    /// How many outputs its base has (a refund is numbered after them).
    pub outputs: u32,
}
