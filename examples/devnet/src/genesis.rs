//! The built-in genesis: documented test keys, the X-chain's assets and their first owners,
//! and the IDs the node derives from them (asset IDs, the X-chain's ID, the genesis block).
//!
//! Everything is built with the codec and derived the node's way (`genesis/genesis.go`,
//! `vms/avm/genesis.go`): the X-chain genesis is an `avm.Genesis` whose assets are sorted by
//! alias; an asset's ID is the ID of its CreateAssetTx without credentials; the X-chain's ID
//! is the ID of the P-chain genesis CreateChainTx carrying those bytes.

use avalanche_rpc::codec::{Encode, Writer, avax, avm, platform, secp256k1fx};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::wire::{Id, ShortId};

/// The local network's ID and HRP (the node's `--network-id=local`).
pub const LOCAL_NETWORK_ID: u32 = 12345;

/// nAVAX per AVAX.
pub const AVAX: u64 = 1_000_000_000;

/// The well-known funded key of every local Avalanche network (`genesis/genesis_local.go`).
pub const EWOQ: &str = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";

/// How many test keys the devnet funds.
pub const TEST_KEYS: usize = 5;

/// The test keys: ewoq, then keys `1..TEST_KEYS` whose 32 bytes are SHA-256 of
/// `avalanche-devnet test key <n>` (so anyone can recompute them).
pub fn test_keys() -> Vec<PrivateKey> {
    let mut keys = vec![EWOQ.parse::<PrivateKey>().expect("the ewoq key is valid")];
    for n in 1..TEST_KEYS {
        let seed = sha256(format!("avalanche-devnet test key {n}").as_bytes());
        keys.push(PrivateKey::from_bytes(&seed).expect("a SHA-256 digest is a valid key"));
    }
    keys
}

/// An asset of the X-chain genesis.
#[derive(Debug, Clone)]
pub struct GenesisAsset {
    pub alias: String,
    pub id: Id,
    /// The asset's creating transaction (no credentials), as the chain stores it.
    pub tx: avm::Tx,
}

/// What the devnet starts from.
#[derive(Debug, Clone)]
pub struct Genesis {
    pub network_id: u32,
    /// Unix seconds.
    pub time: u64,
    pub x_genesis_bytes: Vec<u8>,
    pub x_chain_id: Id,
    pub c_chain_id: Id,
    /// The C-chain's genesis (the node's JSON; empty for the built-in genesis, whose C-chain
    /// accounts are the local network's, `cchain::genesis_alloc`).
    pub c_genesis: Vec<u8>,
    /// The fee asset (the first genesis asset).
    pub avax_asset_id: Id,
    pub assets: Vec<GenesisAsset>,
    /// The X-chain's genesis block: height 0, no transactions, at [`INITIALLY_ACTIVE`], on
    /// the [`stop_vertex_id`].
    pub x_block: avm::Block,
    /// The P-chain's genesis: UTXOs, the five validators, the X- and C-chains.
    pub p: platform::Genesis,
    pub p_bytes: Vec<u8>,
    /// The P-chain's genesis block: an ApricotCommitBlock whose parent is SHA-256 of the
    /// genesis bytes.
    pub p_block: platform::Block,
}

/// When the upgrades of a local network activated, Cortina among them: the node's
/// `upgrade.InitiallyActiveTime` (`upgrade/upgrade.go:16`), 2020-12-05T05:00:00Z.
pub const INITIALLY_ACTIVE: u64 = 1_607_144_400;

/// The ID of the X-chain's stop vertex on a network without a well-known one (a local
/// network's, `upgrade/upgrade.go:79`): the bootstrapper builds it on the DAG's empty edge
/// (`snow/engine/avalanche/bootstrap/bootstrapper.go:368-382`), at height 0, in the
/// vertex codec's version 1 (`snow/engine/avalanche/vertex/builder.go`: version, chain ID,
/// height, no parents).
pub fn stop_vertex_id(x_chain_id: &Id) -> Id {
    let mut v = Vec::with_capacity(2 + 32 + 8 + 4);
    v.extend_from_slice(&1u16.to_be_bytes());
    v.extend_from_slice(x_chain_id.as_bytes());
    v.extend_from_slice(&0u64.to_be_bytes());
    v.extend_from_slice(&0u32.to_be_bytes());
    Id::from_sha256(&v)
}

/// The P-chain's reward parameters on a local network (`genesis/genesis_local.go`).
pub mod staking {
    use super::AVAX;
    pub const MIN_VALIDATOR_STAKE: u64 = 2_000 * AVAX;
    pub const MAX_VALIDATOR_STAKE: u64 = 3_000_000 * AVAX;
    pub const MIN_DELEGATOR_STAKE: u64 = 25 * AVAX;
    /// A validator with its delegators weighs at most this many times its own stake.
    pub const MAX_VALIDATOR_WEIGHT_FACTOR: u64 = 5;
    pub const MIN_DELEGATION_FEE: u32 = 20_000;
    pub const MIN_STAKE_DURATION: u64 = 24 * 3600;
    pub const MAX_STAKE_DURATION: u64 = 365 * 24 * 3600;
    pub const MAX_CONSUMPTION_RATE: u64 = 120_000;
    pub const MIN_CONSUMPTION_RATE: u64 = 100_000;
    pub const MINTING_PERIOD: u64 = 365 * 24 * 3600;
    pub const SUPPLY_CAP: u64 = 720_000_000 * AVAX;
    /// Millionths (`reward.PercentDenominator`).
    pub const PERCENT_DENOMINATOR: u64 = 1_000_000;

    /// The potential reward of staking `amount` for `duration` seconds when the supply is
    /// `supply` (`vms/platformvm/reward/calculator.go`, exact integer arithmetic).
    pub fn reward(duration: u64, amount: u64, supply: u64) -> u64 {
        let remaining = SUPPLY_CAP.saturating_sub(supply);
        let duration_ns = u128::from(duration) * 1_000_000_000;
        let period_ns = u128::from(MINTING_PERIOD) * 1_000_000_000;
        let numerator = u128::from(MAX_CONSUMPTION_RATE - MIN_CONSUMPTION_RATE) * duration_ns
            + u128::from(MIN_CONSUMPTION_RATE) * period_ns;
        let denominator = period_ns * u128::from(PERCENT_DENOMINATOR);
        // remaining × numerator × amount × duration / denominator / supply / period, in
        // 256-bit steps so nothing overflows.
        let r = mul_div(
            &[
                u128::from(remaining),
                numerator,
                u128::from(amount),
                duration_ns,
            ],
            &[denominator, u128::from(supply.max(1)), period_ns],
        );
        r.min(u128::from(remaining)) as u64
    }

    /// Π factors / Π divisors, dividing in turn as the node does (each division truncates).
    fn mul_div(factors: &[u128], divisors: &[u128]) -> u128 {
        // A little big-integer: base 2^32 limbs, little-endian.
        let mut n: Vec<u64> = vec![1];
        for f in factors {
            n = mul(&n, *f);
        }
        for d in divisors {
            n = div(&n, *d);
        }
        let mut out = 0u128;
        for (i, limb) in n.iter().enumerate().take(4) {
            out |= u128::from(*limb) << (32 * i);
        }
        if n.iter().skip(4).any(|l| *l != 0) {
            return u128::MAX;
        }
        out
    }

    fn mul(n: &[u64], f: u128) -> Vec<u64> {
        let parts = [
            f as u32,
            (f >> 32) as u32,
            (f >> 64) as u32,
            (f >> 96) as u32,
        ];
        let mut out = vec![0u64; n.len() + 4];
        for (i, a) in n.iter().enumerate() {
            let mut carry = 0u64;
            for (j, b) in parts.iter().enumerate() {
                let t = out[i + j] + a * u64::from(*b) + carry;
                out[i + j] = t & 0xffff_ffff;
                carry = t >> 32;
            }
            let mut k = i + 4;
            while carry != 0 {
                let t = out[k] + carry;
                out[k] = t & 0xffff_ffff;
                carry = t >> 32;
                k += 1;
            }
        }
        while out.len() > 1 && out.last() == Some(&0) {
            out.pop();
        }
        out
    }

    fn div(n: &[u64], d: u128) -> Vec<u64> {
        // Long division by bits: slow but exact, and called a few times per staker.
        let bits = n.len() * 32;
        let mut q = vec![0u64; n.len()];
        let mut r: u128 = 0;
        for bit in (0..bits).rev() {
            let b = (n[bit / 32] >> (bit % 32)) & 1;
            // r may exceed u128 by one bit once shifted: then it is certainly ≥ d.
            let r_hi = r >> 127 == 1;
            r = (r << 1) | u128::from(b);
            if r_hi || r >= d {
                r = r.wrapping_sub(d);
                q[bit / 32] |= 1 << (bit % 32);
            }
        }
        while q.len() > 1 && q.last() == Some(&0) {
            q.pop();
        }
        q
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn rewards_follow_the_nodes_formula() {
            // A year at the maximum rate, half the cap staked... checked against the node's
            // formula evaluated in floating point: remaining × (max rate) × amount / supply.
            let supply = 360_000_000 * AVAX;
            let r = reward(MINTING_PERIOD, 2_000 * AVAX, supply);
            let expected = (SUPPLY_CAP - supply) as f64 * 0.12 * 2_000.0 / 360_000_000.0;
            assert!((r as f64 - expected).abs() < 2.0, "{r} vs {expected}");
            // No time, no reward; a full supply, no reward.
            assert_eq!(reward(0, 2_000 * AVAX, supply), 0);
            assert_eq!(reward(MINTING_PERIOD, 2_000 * AVAX, SUPPLY_CAP), 0);
        }
    }
}

/// The 32-byte ID of a VM or fx: its name, zero-padded.
pub fn name_id(name: &str) -> Id {
    let mut b = [0u8; 32];
    b[..name.len()].copy_from_slice(name.as_bytes());
    Id::new(b)
}

/// The X-chain's fxs in order (what an `fxIndex` counts).
pub const X_FXS: [&str; 3] = ["secp256k1fx", "nftfx", "propertyfx"];

/// The devnet's default genesis for `network_id`, started at `time`.
pub fn default_genesis(network_id: u32, time: u64) -> Genesis {
    let keys = test_keys();
    let addrs: Vec<ShortId> = keys.iter().map(PrivateKey::address).collect();
    // AVAX: ewoq holds what the local network gives it; every other key a million.
    let mut avax = vec![(300_000_000 * AVAX, addrs[0])];
    avax.extend(addrs[1..].iter().map(|a| (1_000_000 * AVAX, *a)));
    let defs = vec![
        AssetDef {
            alias: "AVAX".into(),
            name: "Avalanche".into(),
            symbol: "AVAX".into(),
            denomination: 9,
            memo: Vec::new(),
            holders: avax,
            minters: Vec::new(),
        },
        // A fixed-cap token held by every key, and a variable-cap one ewoq may mint.
        AssetDef {
            alias: "DVT".into(),
            name: "Devnet Token".into(),
            symbol: "DVT".into(),
            denomination: 6,
            memo: Vec::new(),
            holders: addrs.iter().map(|a| (1_000_000_000_000, *a)).collect(),
            minters: Vec::new(),
        },
        AssetDef {
            alias: "MNT".into(),
            name: "Minted Token".into(),
            symbol: "MNT".into(),
            denomination: 2,
            memo: Vec::new(),
            holders: Vec::new(),
            minters: vec![vec![addrs[0]]],
        },
    ];
    let x_avax: u64 = 300_000_000 * AVAX + (TEST_KEYS as u64 - 1) * 1_000_000 * AVAX;
    // No EVM runs here, but the C-chain exists as on a local network, with an empty genesis.
    assemble(network_id, time, defs, Vec::new(), |avax, chains| {
        p_genesis(network_id, time, avax, &addrs, chains, x_avax)
    })
}

/// A genesis from its parts, as the node puts one together: the X-chain's assets (the first
/// is the fee asset), the C-chain's genesis, and the P-chain's genesis made by `p` from the
/// fee asset's ID and the two chains' CreateChainTxs.
pub fn assemble(
    network_id: u32,
    time: u64,
    defs: Vec<AssetDef>,
    c_genesis: Vec<u8>,
    p: impl FnOnce(Id, [platform::Tx; 2]) -> platform::Genesis,
) -> Genesis {
    let genesis_assets = x_genesis_assets(network_id, defs);
    let assets: Vec<GenesisAsset> = genesis_assets
        .iter()
        .map(|g| {
            let tx = avm::Tx::new(g.tx.clone().into(), Vec::new());
            GenesisAsset {
                alias: g.alias.clone(),
                id: tx.id().expect("a genesis asset encodes"),
                tx,
            }
        })
        .collect();
    let x_genesis_bytes = avm::Genesis::new(genesis_assets)
        .to_bytes()
        .expect("the genesis encodes");
    let x_create = create_chain(
        network_id,
        "X-Chain",
        "avm",
        &X_FXS,
        x_genesis_bytes.clone(),
    );
    let c_create = create_chain(network_id, "C-Chain", "evm", &[], c_genesis.clone());
    let x_chain_id = x_create.id().expect("a CreateChainTx encodes");
    let c_chain_id = c_create.id().expect("a CreateChainTx encodes");
    // The X-chain's genesis block as the node linearizes it (`vms/avm/state/state.go:349-356`):
    // on the stop vertex, at Cortina's time.
    let x_block = avm::Block::from(avm::StandardBlock::new(
        stop_vertex_id(&x_chain_id),
        0,
        INITIALLY_ACTIVE,
        Id::ZERO,
        Vec::new(),
    ));
    let avax_asset_id = assets[0].id;
    let p = p(avax_asset_id, [x_create, c_create]);
    let p_bytes = p.to_bytes().expect("the P-chain genesis encodes");
    let p_block = platform::Block::from(platform::ApricotCommitBlock::new(
        Id::from_sha256(&p_bytes),
        0,
    ));
    Genesis {
        network_id,
        time,
        x_genesis_bytes,
        x_chain_id,
        c_chain_id,
        c_genesis,
        avax_asset_id,
        assets,
        x_block,
        p,
        p_bytes,
        p_block,
    }
}

/// The P-chain genesis: unlocked AVAX for every test key and a stakeable-locked output for
/// key 1; the five nodes validating the Primary Network for a year (ending 90 minutes apart,
/// as on the node's local network), each staking 2,000,000 AVAX owned by the test key of its
/// number, with its BLS key and a delegation fee halving from 100 %; the X- and C-chains.
fn p_genesis(
    network_id: u32,
    time: u64,
    avax: Id,
    addrs: &[ShortId],
    chains: [platform::Tx; 2],
    x_avax: u64,
) -> platform::Genesis {
    let owners = |a: ShortId| secp256k1fx::OutputOwners::new(0, 1, vec![a]);
    let mut amounts: Vec<(u64, Option<u64>, ShortId)> = vec![(30_000_000 * AVAX, None, addrs[0])];
    amounts.extend(addrs[1..].iter().map(|a| (1_000_000 * AVAX, None, *a)));
    amounts.push((
        500_000 * AVAX,
        Some(time + staking::MAX_STAKE_DURATION),
        addrs[1],
    ));
    let utxos: Vec<platform::GenesisUtxo> = amounts
        .iter()
        .enumerate()
        .map(|(i, (amount, lock, a))| {
            let transfer = secp256k1fx::TransferOutput::new(*amount, owners(*a));
            let output = match lock {
                None => platform::UtxoOutput::TransferOutput(transfer),
                Some(until) => {
                    platform::UtxoOutput::LockOut(platform::LockOut::new(*until, transfer.into()))
                }
            };
            platform::GenesisUtxo::new(
                platform::Utxo::new(avax::UtxoId::new(Id::ZERO, i as u32), avax, output),
                Vec::new(),
            )
        })
        .collect();
    let stake = 2_000_000 * AVAX;
    let validators: Vec<platform::Tx> = crate::network::nodes(0)
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let base =
                platform::Base::new(network_id, Id::ZERO, Vec::new(), Vec::new(), Vec::new());
            let end = time + 31_536_000 - i as u64 * 5_400;
            let owner = || platform::Owner::from(platform::OutputOwners::new(owners(addrs[i])));
            let tx = platform::AddPermissionlessValidatorTx::new(
                base,
                platform::Validator::new(n.id, time, end, stake),
                Id::ZERO,
                platform::ProofOfPossession::new(n.public_key, n.proof_of_possession).into(),
                vec![platform::TransferableOutput::new(
                    avax,
                    secp256k1fx::TransferOutput::new(stake, owners(addrs[i])).into(),
                )],
                owner(),
                owner(),
                1_000_000 >> i,
            );
            platform::Tx::new(tx.into(), Vec::new())
        })
        .collect();
    let p_avax: u64 = amounts.iter().map(|a| a.0).sum();
    let supply = x_avax + p_avax + stake * validators.len() as u64;
    platform::Genesis::new(
        utxos,
        validators,
        chains.to_vec(),
        time,
        supply,
        "avalanche-devnet".into(),
    )
}

/// An asset of an X-chain genesis, as `avm.buildGenesis` takes it.
#[derive(Debug, Clone)]
pub struct AssetDef {
    pub alias: String,
    pub name: String,
    pub symbol: String,
    pub denomination: u8,
    pub memo: Vec<u8>,
    /// Fixed-cap holders: amount and address.
    pub holders: Vec<(u64, ShortId)>,
    /// Variable-cap minter groups.
    pub minters: Vec<Vec<ShortId>>,
}

/// The genesis assets of an X-chain, as the node builds them (`vms/avm/genesis.go`
/// `NewGenesis`, also the removed `avm.buildGenesis`): one per definition, sorted by alias;
/// at most one initial state (secp256k1fx), present only with outputs; each holder a
/// 1-of-1 TransferOutput, each minter group a MintOutput with threshold 1 (the node ignores
/// the given threshold) and its minters sorted; outputs sorted by encoding.
pub fn x_genesis_assets(network_id: u32, mut defs: Vec<AssetDef>) -> Vec<avm::GenesisAsset> {
    defs.sort_by(|a, b| a.alias.as_bytes().cmp(b.alias.as_bytes()));
    defs.into_iter()
        .map(|d| {
            let mut outputs: Vec<avm::StateOutput> = d
                .holders
                .iter()
                .map(|(amount, to)| {
                    secp256k1fx::TransferOutput::new(
                        *amount,
                        secp256k1fx::OutputOwners::new(0, 1, vec![*to]),
                    )
                    .into()
                })
                .collect();
            for mut group in d.minters {
                group.sort();
                outputs.push(
                    secp256k1fx::MintOutput::new(secp256k1fx::OutputOwners::new(0, 1, group))
                        .into(),
                );
            }
            outputs.sort_by_cached_key(encoded);
            let states = if outputs.is_empty() {
                Vec::new()
            } else {
                vec![avm::InitialState::new(0, outputs)]
            };
            let base = avm::Base::new(network_id, Id::ZERO, Vec::new(), Vec::new(), d.memo);
            let create = avm::CreateAssetTx::new(base, d.name, d.symbol, d.denomination, states);
            avm::GenesisAsset::new(d.alias, create)
        })
        .collect()
}

/// A primary-network chain's genesis CreateChainTx (`vms/platformvm/genesis/genesis.go`).
fn create_chain(
    network_id: u32,
    name: &str,
    vm: &str,
    fxs: &[&str],
    genesis: Vec<u8>,
) -> platform::Tx {
    let base = platform::Base::new(network_id, Id::ZERO, Vec::new(), Vec::new(), Vec::new());
    let create = platform::CreateChainTx::new(
        base,
        Id::ZERO,
        name.into(),
        name_id(vm),
        fxs.iter().map(|f| name_id(f)).collect(),
        genesis,
        platform::Input::new(secp256k1fx::Input::new(Vec::new())).into(),
    );
    platform::Tx::new(create.into(), Vec::new())
}

/// A value's bytes, without a codec version.
pub fn encoded<T: Encode>(v: &T) -> Vec<u8> {
    let mut w = Writer::new();
    v.encode(&mut w).expect("an in-memory value encodes");
    w.into_bytes()
}

pub fn sha256(data: &[u8]) -> [u8; 32] {
    *Id::from_sha256(data).as_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_local_genesis_keeps_the_nodes_ids_where_they_do_not_depend_on_the_assets() {
        let g = default_genesis(LOCAL_NETWORK_ID, 1_700_000_000);
        // The C-chain's ID depends only on its CreateChainTx; the node's local C-chain ID
        // has a non-empty genesis, so it differs, but it must be stable and not the X's.
        assert_ne!(g.c_chain_id, g.x_chain_id);
        assert_eq!(g.assets.len(), 3);
        assert_eq!(g.assets[0].alias, "AVAX");
        // Deterministic: the same inputs give the same IDs.
        let again = default_genesis(LOCAL_NETWORK_ID, 1_800_000_000);
        assert_eq!(again.x_chain_id, g.x_chain_id);
        assert_eq!(again.avax_asset_id, g.avax_asset_id);
        // ewoq's address is the one the node's docs print.
        let ewoq = avalanche_rpc::wire::Address::new(
            Some("X"),
            "local",
            *test_keys()[0].address().as_bytes(),
        )
        .unwrap();
        assert_eq!(
            ewoq.to_string(),
            "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
        );
    }

    #[test]
    fn the_x_chains_stop_vertex_is_the_nodes() {
        // AvalancheGo v1.14.2 run on the genesis of tests/node (network 1337) answers
        // avm.getBlockByHeight(0) with this parent for its X-chain.
        let x: Id = "2huFztbeB4LijVCoLrxP8NwFbRCdtLfUyvx4VXwD5VnVxzxkMX"
            .parse()
            .unwrap();
        assert_eq!(
            stop_vertex_id(&x).to_string(),
            "22hyk5maPijVoX12eRP6r8UWzz9hP6rBHgokJovpSNqQMRM2Ue"
        );
    }
}
