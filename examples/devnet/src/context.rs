//! The devnet as a wallet sees it: an `avalanche_rpc::transact::Context` made from its
//! genesis, fees and rules. Every transaction the devnet builds (the start history,
//! `--activity`, `devnet.fund`; the tests and examples too) comes from the crate's builders
//! (`transact::x`, `transact::p`) with this context, the builders wallets use against it.

use crate::devnet::Devnet;
use crate::genesis::staking;
use crate::pchain::{fee, l1};
use crate::store::StoreError;
use crate::xchain::vm::{CREATE_ASSET_TX_FEE, TX_FEE};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::transact::{
    BuildError, Context, CredentialKind, FeeConfig, FeeState, Keychain, Signable, Signers,
    StakingRules, Unsigned, ValidatorFeeConfig,
};
use avalanche_rpc::wire::Id;

/// A transaction is built at the P-chain's price now and accepted a moment later: blocks in
/// between may raise the price, so the devnet builds at this many times it (the surplus is
/// burned).
pub const P_PRICE_MARGIN: u64 = 2;

/// The context of a devnet of `network_id` whose X- and C-chains and AVAX have these IDs:
/// its X-chain fees, the P-chain's fee configuration (paying the fee state `p_fee_state`),
/// the L1 validators' fee and the staking rules.
pub fn new(
    network_id: u32,
    (x_chain_id, c_chain_id): (Id, Id),
    avax_asset_id: Id,
    p_fee_state: FeeState,
) -> Context {
    Context {
        network_id,
        hrp: avalanche_rpc::network::hrp(network_id).to_string(),
        x_chain_id,
        p_chain_id: Id::ZERO,
        c_chain_id,
        avax_asset_id,
        x_tx_fee: TX_FEE,
        x_create_asset_tx_fee: CREATE_ASSET_TX_FEE,
        p_fee_config: FeeConfig {
            weights: fee::WEIGHTS,
            max_capacity: fee::MAX_CAPACITY,
            max_per_second: fee::MAX_PER_SECOND,
            target_per_second: fee::TARGET_PER_SECOND,
            min_price: fee::MIN_PRICE,
            excess_conversion_constant: fee::EXCESS_CONVERSION_CONSTANT,
        },
        p_fee_state,
        validator_fee_config: ValidatorFeeConfig {
            capacity: l1::CAPACITY,
            target: l1::TARGET,
            min_price: l1::MIN_PRICE,
            excess_conversion_constant: l1::EXCESS_CONVERSION_CONSTANT,
        },
        staking: StakingRules {
            min_validator_stake: staking::MIN_VALIDATOR_STAKE,
            max_validator_stake: staking::MAX_VALIDATOR_STAKE,
            min_delegator_stake: staking::MIN_DELEGATOR_STAKE,
            max_validator_weight_factor: staking::MAX_VALIDATOR_WEIGHT_FACTOR,
            min_delegation_fee: staking::MIN_DELEGATION_FEE,
            min_stake_duration: staking::MIN_STAKE_DURATION,
            max_stake_duration: staking::MAX_STAKE_DURATION,
        },
    }
}

/// The context of `d` now: its IDs, fees and rules, and the P-chain's fee state at the
/// devnet's time, its price times [`P_PRICE_MARGIN`].
pub fn of(d: &Devnet) -> Result<Context, StoreError> {
    let r = d.engine.store.read()?;
    let (state, chain_time) = crate::pchain::vm::fee_state(&r)?;
    drop(r);
    let state = state.advance(d.engine.clock.now().saturating_sub(chain_time));
    let g = &d.genesis;
    Ok(new(
        d.options.network_id,
        (g.x_chain_id, g.c_chain_id),
        g.avax_asset_id,
        FeeState {
            capacity: state.capacity,
            excess: state.excess,
            price: fee::price(state.excess).saturating_mul(P_PRICE_MARGIN),
        },
    ))
}

/// A built transaction signed by the keys of `keys` that sign it: the signed transaction, or
/// why it could not be built or signed.
pub fn sign<U: Signable>(
    built: Result<Unsigned<U>, BuildError>,
    keys: &Keychain,
) -> Result<U::Signed, String> {
    let mut unsigned = built.map_err(|e| e.to_string())?;
    unsigned.sign(keys).map_err(|e| e.to_string())?;
    unsigned.signed().map_err(|e| e.to_string())
}

/// A transaction edited after it was built (a tampered one, in the tests), signed again:
/// credential i by `by[i]` alone, as a secp256k1fx credential.
pub fn sign_as<U: Signable>(unsigned: U, by: &[&PrivateKey]) -> Result<U::Signed, String> {
    let signers = by
        .iter()
        .map(|k| Signers {
            kind: CredentialKind::Secp256k1,
            addresses: vec![k.address()],
        })
        .collect();
    let keys = Keychain::from_keys(by.iter().map(|k| (*k).clone()));
    sign(Ok(Unsigned::new(unsigned, signers, 0, 0)), &keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_local_network_s_context_is_the_crate_s() {
        let state = FeeState {
            capacity: 0,
            excess: 0,
            price: 1,
        };
        let c = new(
            12345,
            (Id::new([1; 32]), Id::new([2; 32])),
            Id::new([3; 32]),
            state,
        );
        assert_eq!(c.hrp, "local");
        assert_eq!(c.p_fee_config, FeeConfig::ETNA);
        assert_eq!(c.staking, StakingRules::of_network(12345));
    }
}
