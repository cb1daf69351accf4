//! The read side: one consistent snapshot of the whole state (one read transaction), with a
//! typed query for each thing the RPC layer answers from. A handler opens one view, so every
//! part of a reply comes from the same accepted state; the state's layout stays in the
//! chains' modules, which the queries call.

use crate::index::{self, Entry, IndexKind};
use crate::ledger::{self, Chain, Space, StoredTx};
use crate::pchain::{self, Delegator, Staker, ValidatorSet, fee, l1, subnets};
use crate::proposer::{self, Tip};
use crate::store::{Store, StoreError};
use crate::xchain;
use avalanche_rpc::codec::platform;
use avalanche_rpc::wire::{Id, NodeId};
use redb::ReadTransaction;

type Result<T> = std::result::Result<T, StoreError>;

/// A snapshot of the last accepted state.
pub struct View {
    r: ReadTransaction,
}

impl View {
    pub fn new(store: &Store) -> Result<View> {
        Ok(View { r: store.read()? })
    }

    // Every chain.

    /// The height of `chain`'s last accepted block.
    pub fn height(&self, chain: Chain) -> Result<u64> {
        ledger::height(&self.r, chain)
    }

    pub fn block_at(&self, chain: Chain, height: u64) -> Result<Option<Vec<u8>>> {
        ledger::block_at(&self.r, chain, height)
    }

    pub fn height_of(&self, chain: Chain, block: &Id) -> Result<Option<u64>> {
        ledger::height_of(&self.r, chain, block)
    }

    /// An accepted transaction of `chain`.
    pub fn tx(&self, chain: Chain, id: &Id) -> Result<Option<StoredTx>> {
        ledger::tx(&self.r, chain, id)
    }

    /// Up to `limit` unspent outputs in `space` owned by `address`, after `after`.
    pub fn utxos_of(
        &self,
        space: Space,
        address: &[u8; 20],
        after: Option<&Id>,
        limit: usize,
    ) -> Result<Vec<(Id, Vec<u8>)>> {
        ledger::utxos_of(&self.r, space, address, after, limit)
    }

    /// A C-chain account (zero when never credited).
    pub fn c_account(&self, address: &[u8; 20]) -> Result<crate::cchain::Account> {
        crate::cchain::account(&self.r, address)
    }

    /// The proposervm's last wrapper on `chain`.
    pub fn proposer_tip(&self, chain: Chain) -> Result<Option<Tip>> {
        proposer::tip(&self.r, chain)
    }

    // The index.

    pub fn index_len(&self, kind: IndexKind) -> Result<u64> {
        index::len(&self.r, kind)
    }

    pub fn index_entry(&self, kind: IndexKind, index: u64) -> Result<Option<Entry>> {
        index::get(&self.r, kind, index)
    }

    pub fn index_of(&self, kind: IndexKind, id: &Id) -> Result<Option<u64>> {
        index::index_of(&self.r, kind, id)
    }

    pub fn index_range(&self, kind: IndexKind, start: u64, count: u64) -> Result<Vec<Entry>> {
        index::range(&self.r, kind, start, count)
    }

    // The X-chain.

    pub fn x_height(&self) -> Result<u64> {
        xchain::height(&self.r)
    }

    pub fn x_block_at(&self, height: u64) -> Result<Option<Vec<u8>>> {
        xchain::block_at(&self.r, height)
    }

    pub fn x_height_of(&self, block: &Id) -> Result<Option<u64>> {
        xchain::height_of(&self.r, block)
    }

    /// An accepted X-chain transaction: its height and bytes.
    pub fn x_tx(&self, id: &Id) -> Result<Option<(u64, Vec<u8>)>> {
        xchain::tx(&self.r, id)
    }

    /// The asset an ID or alias names.
    pub fn asset_id(&self, id_or_alias: &str) -> Result<Option<Id>> {
        xchain::asset_id(&self.r, id_or_alias)
    }

    pub fn alias_of(&self, asset: &Id) -> Result<Option<String>> {
        xchain::alias_of(&self.r, asset)
    }

    /// The transactions that changed `address`'s balance of `asset`, from `cursor` on.
    pub fn address_txs(
        &self,
        address: &[u8; 20],
        asset: &Id,
        cursor: u64,
        limit: usize,
    ) -> Result<(Vec<Id>, u64)> {
        xchain::address_txs(&self.r, address, asset, cursor, limit)
    }

    /// Every unspent X-chain output of `address`.
    pub fn x_utxos_of(&self, address: &[u8; 20]) -> Result<Vec<xchain::Utxo>> {
        xchain::all_utxos_of(&self.r, address)
    }

    // The P-chain.

    /// The chain time.
    pub fn p_timestamp(&self) -> Result<u64> {
        pchain::timestamp(&self.r)
    }

    pub fn supply(&self) -> Result<u64> {
        pchain::supply(&self.r)
    }

    /// Up to `limit` unspent P-chain outputs of `address`, after `after`.
    pub fn p_utxos_of(
        &self,
        address: &[u8; 20],
        after: Option<&Id>,
        limit: usize,
    ) -> Result<Vec<pchain::Utxo>> {
        pchain::utxos_of(&self.r, address, after, limit)
    }

    /// The dynamic fee's state and the chain time it belongs to.
    pub fn fee_state(&self) -> Result<(fee::State, u64)> {
        pchain::vm::fee_state(&self.r)
    }

    pub fn is_staker(&self, subnet: &Id, node: &NodeId) -> Result<bool> {
        pchain::stakers::is_staker(&self.r, subnet, node)
    }

    /// A Subnet's current validators.
    pub fn stakers(&self, subnet: &Id) -> Result<Vec<Staker>> {
        pchain::stakers::stakers(&self.r, subnet)
    }

    pub fn delegators(&self, subnet: &Id, node: Option<&NodeId>) -> Result<Vec<Delegator>> {
        pchain::stakers::delegators(&self.r, subnet, node)
    }

    /// A Subnet's validator set at a P-chain height.
    pub fn validators_at(&self, subnet: &Id, height: u64) -> Result<ValidatorSet> {
        pchain::stakers::validators_at(&self.r, subnet, height)
    }

    pub fn subnets_with_validators(&self, height: u64) -> Result<Vec<Id>> {
        pchain::stakers::subnets_with_validators(&self.r, height)
    }

    /// Every Subnet.
    pub fn subnets(&self) -> Result<Vec<Id>> {
        subnets::all(&self.r)
    }

    pub fn subnet_owner(&self, subnet: &Id) -> Result<Option<subnets::Owned>> {
        subnets::owner(&self.r, subnet)
    }

    /// The blockchains (of one Subnet, or all).
    pub fn chains(&self, subnet: Option<&Id>) -> Result<Vec<(Id, platform::CreateChainTx)>> {
        subnets::chains(&self.r, subnet)
    }

    pub fn create_chain(&self, id: &Id) -> Result<Option<platform::CreateChainTx>> {
        subnets::create_chain(&self.r, id)
    }

    /// The reward UTXOs paid for staking tx `tx`.
    pub fn reward_utxos(&self, tx: &Id) -> Result<Vec<Vec<u8>>> {
        pchain::reward::reward_utxos(&self.r, tx)
    }

    /// The L1 validators' continuous fee state.
    pub fn l1_fee_state(&self) -> Result<l1::FeeState> {
        l1::fee_state(&self.r)
    }

    pub fn l1_validators(&self, subnet: Option<&Id>) -> Result<Vec<l1::Validator>> {
        l1::validators(&self.r, subnet)
    }

    pub fn l1_validator(&self, validation_id: &Id) -> Result<Option<l1::Validator>> {
        l1::validator(&self.r, validation_id)
    }

    pub fn conversion(&self, subnet: &Id) -> Result<Option<l1::Conversion>> {
        l1::conversion(&self.r, subnet)
    }
}
