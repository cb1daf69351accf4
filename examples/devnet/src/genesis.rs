//! The built-in genesis: documented test keys, the X-chain's assets and their first owners,
//! and the IDs the node derives from them (asset IDs, the X-chain's ID, the genesis block).
//!
//! Everything is built with the codec and derived the node's way (`genesis/genesis.go`,
//! `vms/avm/genesis.go`): the X-chain genesis is an `avm.Genesis` whose assets are sorted by
//! alias; an asset's ID is the ID of its CreateAssetTx without credentials; the X-chain's ID
//! is the ID of the P-chain genesis CreateChainTx carrying those bytes.

use avalanche_rpc::codec::{Encode, Writer, avm, platform, secp256k1fx};
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

/// The bech32 human-readable part of a network (`utils/constants/network_ids.go`).
pub fn hrp(network_id: u32) -> String {
    match network_id {
        1 => "avax".into(),
        2 => "cascade".into(),
        3 => "denali".into(),
        4 => "everest".into(),
        5 => "fuji".into(),
        10 => "testing".into(),
        12345 => "local".into(),
        _ => "custom".into(),
    }
}

/// The network's name as `info.getNetworkName` says it.
pub fn network_name(network_id: u32) -> String {
    match network_id {
        1 => "mainnet".into(),
        2 => "cascade".into(),
        3 => "denali".into(),
        4 => "everest".into(),
        5 => "fuji".into(),
        10 => "testing".into(),
        12345 => "local".into(),
        n => format!("network-{n}"),
    }
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
    /// The fee asset (the first genesis asset).
    pub avax_asset_id: Id,
    pub assets: Vec<GenesisAsset>,
    /// The X-chain's genesis block: height 0, no transactions.
    pub x_block: avm::Block,
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
    let owned = |amount: u64, to: ShortId| {
        avm::StateOutput::from(secp256k1fx::TransferOutput::new(
            amount,
            secp256k1fx::OutputOwners::new(0, 1, vec![to]),
        ))
    };
    // AVAX: ewoq holds what the local network gives it; every other key a million.
    let mut avax: Vec<avm::StateOutput> = vec![owned(300_000_000 * AVAX, addrs[0])];
    avax.extend(addrs[1..].iter().map(|a| owned(1_000_000 * AVAX, *a)));
    // A fixed-cap token held by every key, and a variable-cap one ewoq may mint.
    let dvt: Vec<avm::StateOutput> = addrs.iter().map(|a| owned(1_000_000_000_000, *a)).collect();
    let mnt = vec![avm::StateOutput::from(secp256k1fx::MintOutput::new(
        secp256k1fx::OutputOwners::new(0, 1, vec![addrs[0]]),
    ))];
    let mut defs = vec![
        ("AVAX", "Avalanche", "AVAX", 9u8, avax),
        ("DVT", "Devnet Token", "DVT", 6, dvt),
        ("MNT", "Minted Token", "MNT", 2, mnt),
    ];
    // The node sorts the genesis assets by alias, bytewise.
    defs.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut genesis_assets = Vec::new();
    let mut assets = Vec::new();
    for (alias, name, symbol, denomination, mut outputs) in defs {
        // Outputs sorted by their encoding (type ID first).
        outputs.sort_by_cached_key(encoded);
        let base = avm::Base::new(network_id, Id::ZERO, Vec::new(), Vec::new(), Vec::new());
        let create = avm::CreateAssetTx::new(
            base,
            name.into(),
            symbol.into(),
            denomination,
            vec![avm::InitialState::new(0, outputs)],
        );
        let tx = avm::Tx::new(create.clone().into(), Vec::new());
        let id = tx.id().expect("a genesis asset encodes");
        assets.push(GenesisAsset {
            alias: alias.into(),
            id,
            tx,
        });
        genesis_assets.push(avm::GenesisAsset::new(alias.into(), create));
    }
    let x_genesis_bytes = avm::Genesis::new(genesis_assets)
        .to_bytes()
        .expect("the genesis encodes");
    let x_chain_id = chain_id(
        network_id,
        "X-Chain",
        "avm",
        &X_FXS,
        x_genesis_bytes.clone(),
    );
    // No EVM runs here, but the C-chain exists as on a local network: its ID is its
    // CreateChainTx's, with an empty genesis.
    let c_chain_id = chain_id(network_id, "C-Chain", "evm", &[], Vec::new());
    let x_block = avm::Block::from(avm::StandardBlock::new(
        Id::ZERO,
        0,
        time,
        Id::ZERO,
        Vec::new(),
    ));
    Genesis {
        network_id,
        time,
        x_genesis_bytes,
        x_chain_id,
        c_chain_id,
        avax_asset_id: assets[0].id,
        assets,
        x_block,
    }
}

/// The ID of a primary-network chain: the ID of its genesis CreateChainTx.
fn chain_id(network_id: u32, name: &str, vm: &str, fxs: &[&str], genesis: Vec<u8>) -> Id {
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
        .id()
        .expect("a CreateChainTx encodes")
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
}
