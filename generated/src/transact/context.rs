//! What building needs to know about a network, read from a node in one call
//! ([`Context::from_node`], feature `client`) as AvalancheJS's `Context.getContextFromURI`
//! does, or written by hand for offline signing.

use crate::wire::{Address, Id, ShortId};

use super::error::BuildError;

/// The P-chain's dynamic fee configuration (`platform.getFeeConfig`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeeConfig {
    /// Weights of bandwidth, database reads, database writes and compute.
    pub weights: [u64; 4],
    /// Gas the chain can store.
    pub max_capacity: u64,
    /// Gas it gains per second.
    pub max_per_second: u64,
    /// Gas per second at which the price stays.
    pub target_per_second: u64,
    /// Minimum gas price (nAVAX).
    pub min_price: u64,
    /// Converts excess gas into a price.
    pub excess_conversion_constant: u64,
}

impl FeeConfig {
    /// The configuration of Mainnet, Fuji and the local network since Etna.
    pub const ETNA: FeeConfig = FeeConfig {
        weights: [1, 1_000, 1_000, 4],
        max_capacity: 1_000_000,
        max_per_second: 100_000,
        target_per_second: 50_000,
        min_price: 1,
        excess_conversion_constant: 2_164_043,
    };
}

/// The P-chain's fee state (`platform.getFeeState`): the gas it can take now and its price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeeState {
    /// Gas available now.
    pub capacity: u64,
    /// Gas consumed above the target.
    pub excess: u64,
    /// Price per unit of gas (nAVAX).
    pub price: u64,
}

/// The continuous fee of L1 validators (`platform.getValidatorFeeConfig`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ValidatorFeeConfig {
    /// Maximum number of active L1 validators.
    pub capacity: u64,
    /// Number at which the price stays.
    pub target: u64,
    /// Minimum price per validator per second (nAVAX).
    pub min_price: u64,
    /// Converts excess into a price.
    pub excess_conversion_constant: u64,
}

/// Everything the builders read about a network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// The network ID (`info.getNetworkID`).
    pub network_id: u32,
    /// The HRP of its addresses (`avax`, `fuji`, `local`, `custom`).
    pub hrp: String,
    /// The X-chain's ID.
    pub x_chain_id: Id,
    /// The P-chain's ID (all zeros on every network).
    pub p_chain_id: Id,
    /// The C-chain's ID.
    pub c_chain_id: Id,
    /// The AVAX asset's ID.
    pub avax_asset_id: Id,
    /// The X-chain's fee of every transaction but asset creation (`avm.getTxFee`).
    pub x_tx_fee: u64,
    /// The X-chain's fee of creating an asset.
    pub x_create_asset_tx_fee: u64,
    /// The P-chain's dynamic fee.
    pub p_fee_config: FeeConfig,
    /// The P-chain's fee state when read. It moves with every block: build with a state read
    /// just before, or raise `price` for a margin (the surplus is burned).
    pub p_fee_state: FeeState,
    /// The continuous fee of L1 validators.
    pub validator_fee_config: ValidatorFeeConfig,
    /// The Primary Network's staking rules.
    pub staking: StakingRules,
}

/// The Primary Network's staking rules (the node's configuration; the minimum stakes are
/// `platform.getMinStake`'s, the rest have no API and are the network's known values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StakingRules {
    /// Minimum stake of a validator (nAVAX).
    pub min_validator_stake: u64,
    /// Maximum weight of a validator with its delegators (nAVAX).
    pub max_validator_stake: u64,
    /// Minimum stake of a delegator (nAVAX).
    pub min_delegator_stake: u64,
    /// A validator with its delegators weighs at most this many times its own stake.
    pub max_validator_weight_factor: u64,
    /// Minimum delegation fee, in millionths.
    pub min_delegation_fee: u32,
    /// Shortest staking period (seconds).
    pub min_stake_duration: u64,
    /// Longest staking period (seconds).
    pub max_stake_duration: u64,
}

impl StakingRules {
    /// The rules of a network by its ID: Mainnet's (1), Fuji's (5), and the local network's
    /// for every other ID (`genesis/genesis_*.go`).
    pub fn of_network(network_id: u32) -> StakingRules {
        const AVAX: u64 = 1_000_000_000;
        let (min_validator_stake, min_delegator_stake, min_stake_duration) = match network_id {
            1 => (2_000 * AVAX, 25 * AVAX, 14 * 24 * 3600),
            5 => (AVAX, AVAX, 24 * 3600),
            _ => (2_000 * AVAX, 25 * AVAX, 24 * 3600),
        };
        StakingRules {
            min_validator_stake,
            max_validator_stake: 3_000_000 * AVAX,
            min_delegator_stake,
            max_validator_weight_factor: 5,
            min_delegation_fee: 20_000,
            min_stake_duration,
            max_stake_duration: 365 * 24 * 3600,
        }
    }
}

impl Context {
    /// The HRP of a network ID, as the node names them.
    #[deprecated(
        since = "0.1.0",
        note = "use avalanche_rpc::network::hrp, the one table of networks"
    )]
    pub fn hrp_of(network_id: u32) -> &'static str {
        crate::network::hrp(network_id)
    }

    /// The 20 bytes of an address given as text for `chain` (`X` or `P`) of this network:
    /// `X-local1…`, `local1…`, or a cb58 short ID. Another network's HRP, or another chain's
    /// prefix, is refused naming `field`.
    pub fn parse_address(
        &self,
        field: &str,
        chain: &str,
        text: &str,
    ) -> Result<ShortId, BuildError> {
        let a: Address = text
            .parse()
            .map_err(|e: crate::wire::WireError| BuildError::invalid(field, e.to_string()))?;
        if let Some(hrp) = a.hrp()
            && hrp != self.hrp
        {
            return Err(BuildError::invalid(
                field,
                format!(
                    "{text} is an address of the `{hrp}` network; this network (ID {}) writes `{}`",
                    self.network_id, self.hrp
                ),
            ));
        }
        if let Some(c) = a.chain()
            && !c.eq_ignore_ascii_case(chain)
        {
            return Err(BuildError::invalid(
                field,
                format!("{text} is an address on chain `{c}`, not on the {chain}-chain"),
            ));
        }
        Ok(ShortId::new(a.payload()))
    }

    /// An address as `chain` writes it on this network.
    pub fn address(&self, chain: &str, address: &ShortId) -> String {
        Address::new(Some(chain), &self.hrp, *address.as_bytes())
            .map(|a| a.to_string())
            .unwrap_or_else(|_| address.to_string())
    }
}
