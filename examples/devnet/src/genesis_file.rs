//! `--genesis-file`: a genesis in the node's own format (`genesis/config.go`, as in its
//! `genesis_local.json`), built as the node builds it (`genesis.FromConfig`): AVAX on the
//! X-chain for every allocation's `initialAmount`, the unlock schedules of the allocations not
//! staked as P-chain UTXOs (stakeable-locked until their locktime), the staked ones split
//! evenly among the initial stakers, whose periods end `initialStakeDurationOffset` apart.
//! The same file gives the node's IDs: the node's local genesis gives its local X-chain, C-chain
//! and AVAX IDs. Unlike the node, the devnet loads a file for any network ID, the local one
//! included.

use crate::genesis::{AssetDef, Genesis, assemble, staking};
use crate::network::InitialStaker;
use avalanche_rpc::codec::{avax, platform, secp256k1fx};
use avalanche_rpc::wire::{Address, Id, NodeId, ShortId};
use serde_json::Value;

/// A genesis built from a file, and the stakers it names (this node is the first).
#[derive(Debug, Clone)]
pub struct FromFile {
    pub genesis: Genesis,
    pub stakers: Vec<InitialStaker>,
}

#[derive(Debug, Clone)]
struct Allocation {
    eth: [u8; 20],
    avax: ShortId,
    initial: u64,
    /// (amount, locktime)
    unlocks: Vec<(u64, u64)>,
}

fn field<'v>(v: &'v Value, path: &str, key: &str) -> Result<&'v Value, String> {
    v.get(key)
        .ok_or_else(|| format!("`{path}{key}` is missing"))
}

fn u64_at(v: &Value, path: &str, key: &str) -> Result<u64, String> {
    field(v, path, key)?
        .as_u64()
        .ok_or_else(|| format!("`{path}{key}` must be a whole number from 0 to 2^64-1"))
}

fn str_at<'v>(v: &'v Value, path: &str, key: &str) -> Result<&'v str, String> {
    field(v, path, key)?
        .as_str()
        .ok_or_else(|| format!("`{path}{key}` must be a string"))
}

fn array_at<'v>(v: &'v Value, path: &str, key: &str) -> Result<&'v Vec<Value>, String> {
    field(v, path, key)?
        .as_array()
        .ok_or_else(|| format!("`{path}{key}` must be an array"))
}

fn address(s: &str, place: &str) -> Result<ShortId, String> {
    let a: Address = s
        .parse()
        .map_err(|e| format!("`{place}` is not an address: {e}"))?;
    Ok(ShortId::new(a.payload()))
}

fn hex_bytes<const N: usize>(s: &str, place: &str) -> Result<[u8; N], String> {
    let h = s.strip_prefix("0x").unwrap_or(s);
    let bytes = (0..h.len())
        .step_by(2)
        .map(|i| {
            h.get(i..i + 2)
                .and_then(|b| u8::from_str_radix(b, 16).ok())
                .ok_or_else(|| format!("`{place}` is not hex"))
        })
        .collect::<Result<Vec<u8>, String>>()?;
    bytes
        .try_into()
        .map_err(|b: Vec<u8>| format!("`{place}` has {} bytes, not {N}", b.len()))
}

/// Reads a genesis file's JSON and builds the genesis; `network_id`, when given, must be the
/// file's. Every error names the field at fault.
pub fn parse(json: &str, network_id: Option<u32>, now: u64) -> Result<FromFile, String> {
    let v: Value =
        serde_json::from_str(json).map_err(|e| format!("the genesis file is not JSON: {e}"))?;
    let file_network = u64_at(&v, "", "networkID")?;
    let file_network =
        u32::try_from(file_network).map_err(|_| "`networkID` must fit 32 bits".to_string())?;
    if let Some(n) = network_id
        && n != file_network
    {
        return Err(format!(
            "conflicting network IDs: --network-id is {n} but the genesis file's `networkID` is {file_network}"
        ));
    }
    let mut allocations = Vec::new();
    for (i, a) in array_at(&v, "", "allocations")?.iter().enumerate() {
        let path = format!("allocations[{i}].");
        let mut unlocks = Vec::new();
        for (j, u) in array_at(a, &path, "unlockSchedule")?.iter().enumerate() {
            let upath = format!("{path}unlockSchedule[{j}].");
            let locktime = match u.get("locktime") {
                None => 0,
                Some(_) => u64_at(u, &upath, "locktime")?,
            };
            unlocks.push((u64_at(u, &upath, "amount")?, locktime));
        }
        allocations.push(Allocation {
            eth: hex_bytes(str_at(a, &path, "ethAddr")?, &format!("{path}ethAddr"))?,
            avax: address(str_at(a, &path, "avaxAddr")?, &format!("{path}avaxAddr"))?,
            initial: u64_at(a, &path, "initialAmount")?,
            unlocks,
        });
    }
    let start = u64_at(&v, "", "startTime")?;
    let duration = u64_at(&v, "", "initialStakeDuration")?;
    let offset = u64_at(&v, "", "initialStakeDurationOffset")?;
    let staked: Vec<ShortId> = array_at(&v, "", "initialStakedFunds")?
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let place = format!("initialStakedFunds[{i}]");
            address(
                a.as_str()
                    .ok_or_else(|| format!("`{place}` must be a string"))?,
                &place,
            )
        })
        .collect::<Result<_, _>>()?;
    let mut stakers = Vec::new();
    let mut rewards = Vec::new();
    for (i, s) in array_at(&v, "", "initialStakers")?.iter().enumerate() {
        let path = format!("initialStakers[{i}].");
        let node: NodeId = str_at(s, &path, "nodeID")?
            .parse()
            .map_err(|e| format!("`{path}nodeID` is not a node ID: {e}"))?;
        let fee = u64_at(s, &path, "delegationFee")?;
        let fee = u32::try_from(fee)
            .ok()
            .filter(|f| *f <= 1_000_000)
            .ok_or_else(|| format!("`{path}delegationFee` must be at most 1000000"))?;
        let signer = match s.get("signer") {
            None | Some(Value::Null) => None,
            Some(sg) => {
                let spath = format!("{path}signer.");
                let pk = hex_bytes::<48>(
                    str_at(sg, &spath, "publicKey")?,
                    &format!("{spath}publicKey"),
                )?;
                let pop = hex_bytes::<96>(
                    str_at(sg, &spath, "proofOfPossession")?,
                    &format!("{spath}proofOfPossession"),
                )?;
                avalanche_rpc::bls::verify_proof_of_possession(&pk, &pop)
                    .map_err(|e| format!("`{spath}proofOfPossession` does not verify: {e}"))?;
                Some((pk, pop))
            }
        };
        let reward = address(
            str_at(s, &path, "rewardAddress")?,
            &format!("{path}rewardAddress"),
        )?;
        stakers.push(InitialStaker { node, signer });
        rewards.push((reward, fee));
    }
    let c_genesis = str_at(&v, "", "cChainGenesis")?.as_bytes().to_vec();
    let message = match v.get("message") {
        None => String::new(),
        Some(_) => str_at(&v, "", "message")?.to_string(),
    };
    check(
        &allocations,
        &staked,
        &stakers,
        (start, duration, offset),
        now,
    )?;
    if c_genesis.is_empty() {
        return Err("`cChainGenesis` is empty".into());
    }
    let supply = allocations
        .iter()
        .flat_map(|a| std::iter::once(a.initial).chain(a.unlocks.iter().map(|u| u.0)))
        .try_fold(0u64, u64::checked_add)
        .ok_or("the allocations' total overflows 64 bits")?;

    // The X-chain: AVAX for every initial amount, sorted by amount then address; the memo
    // the allocations' Ethereum addresses in that order.
    let mut x: Vec<&Allocation> = allocations.iter().filter(|a| a.initial > 0).collect();
    x.sort_by_key(|a| (a.initial, a.avax));
    let defs = vec![AssetDef {
        alias: "AVAX".into(),
        name: "Avalanche".into(),
        symbol: "AVAX".into(),
        denomination: 9,
        memo: x.iter().flat_map(|a| a.eth).collect(),
        holders: x.iter().map(|a| (a.initial, a.avax)).collect(),
        minters: Vec::new(),
    }];
    let genesis = assemble(file_network, start, defs, c_genesis, |avax_id, chains| {
        p_genesis(
            file_network,
            avax_id,
            (&allocations, &staked),
            (&stakers, &rewards),
            (start, duration, offset),
            chains,
            (supply, message),
        )
    });
    Ok(FromFile { genesis, stakers })
}

/// The node's checks of a genesis config (`validateConfig`), in its order.
fn check(
    allocations: &[Allocation],
    staked: &[ShortId],
    stakers: &[InitialStaker],
    (start, duration, offset): (u64, u64, u64),
    now: u64,
) -> Result<(), String> {
    if allocations
        .iter()
        .all(|a| a.initial == 0 && a.unlocks.iter().all(|u| u.0 == 0))
    {
        return Err("the allocations hold no AVAX: the supply would be 0".into());
    }
    if start > now {
        return Err(format!(
            "`startTime` {start} is in the future (now is {now})"
        ));
    }
    if duration == 0 {
        return Err("`initialStakeDuration` is 0".into());
    }
    if duration > staking::MAX_STAKE_DURATION {
        return Err(format!(
            "`initialStakeDuration` is {duration}, more than the maximum staking duration {}",
            staking::MAX_STAKE_DURATION
        ));
    }
    if stakers.is_empty() {
        return Err("`initialStakers` is empty".into());
    }
    let needed = offset.saturating_mul(stakers.len() as u64 - 1);
    if needed > duration {
        return Err(format!(
            "`initialStakeDuration` must be at least {needed}: `initialStakeDurationOffset` times the stakers after the first"
        ));
    }
    if staked.is_empty() {
        return Err("`initialStakedFunds` is empty".into());
    }
    for (i, a) in staked.iter().enumerate() {
        if staked[..i].contains(a) {
            return Err(format!("`initialStakedFunds[{i}]` repeats an address"));
        }
        if !allocations.iter().any(|x| x.avax == *a) {
            return Err(format!(
                "`initialStakedFunds[{i}]` has no allocation to stake"
            ));
        }
    }
    let locked: u64 = allocations
        .iter()
        .flat_map(|a| a.unlocks.iter().map(|u| u.0))
        .fold(0, u64::saturating_add);
    if locked < stakers.len() as u64 {
        return Err(format!(
            "the unlock schedules hold {locked} nAVAX, fewer than the {} stakers",
            stakers.len()
        ));
    }
    Ok(())
}

/// Splits the staked allocations among `n` stakers (`splitAllocations`): each takes an equal
/// share of the total, unlock entries cut where a share ends, the last taking the rest.
fn split(allocations: &[&Allocation], n: usize) -> Vec<Vec<Allocation>> {
    let total: u64 = allocations
        .iter()
        .flat_map(|a| a.unlocks.iter().map(|u| u.0))
        .fold(0, u64::saturating_add);
    let share = total / n as u64;
    let mut all: Vec<Vec<Allocation>> = Vec::with_capacity(n);
    let mut node: Vec<Allocation> = Vec::new();
    let mut node_amount = 0u64;
    for a in allocations {
        let empty = || Allocation {
            initial: 0,
            unlocks: Vec::new(),
            ..(*a).clone()
        };
        let mut current = empty();
        for &(amount, locktime) in &a.unlocks {
            let mut amount = amount;
            while node_amount + amount > share && all.len() < n - 1 {
                let add = share - node_amount;
                current.unlocks.push((add, locktime));
                amount -= add;
                node.push(current);
                all.push(std::mem::take(&mut node));
                node_amount = 0;
                current = empty();
            }
            if amount == 0 {
                continue;
            }
            current.unlocks.push((amount, locktime));
            node_amount += amount;
        }
        if !current.unlocks.is_empty() {
            node.push(current);
        }
    }
    all.push(node);
    all
}

/// The P-chain genesis (`vms/platformvm/genesis.New`).
fn p_genesis(
    network_id: u32,
    avax_id: Id,
    (allocations, staked): (&[Allocation], &[ShortId]),
    (stakers, rewards): (&[InitialStaker], &[(ShortId, u32)]),
    (start, duration, offset): (u64, u64, u64),
    chains: [platform::Tx; 2],
    (supply, message): (u64, String),
) -> platform::Genesis {
    let owners = |a: ShortId| secp256k1fx::OutputOwners::new(0, 1, vec![a]);
    let output = |amount: u64, locktime: u64, a: ShortId| {
        let t = secp256k1fx::TransferOutput::new(amount, owners(a));
        if locktime > start {
            platform::TransferableOut::LockOut(platform::LockOut::new(locktime, t.into()))
        } else {
            platform::TransferableOut::TransferOutput(t)
        }
    };
    let mut utxos = Vec::new();
    for a in allocations.iter().filter(|a| !staked.contains(&a.avax)) {
        for &(amount, locktime) in a.unlocks.iter().filter(|u| u.0 > 0) {
            let out = match output(amount, locktime, a.avax) {
                platform::TransferableOut::LockOut(l) => platform::UtxoOutput::LockOut(l),
                platform::TransferableOut::TransferOutput(t) => {
                    platform::UtxoOutput::TransferOutput(t)
                }
                _ => unreachable!("built above"),
            };
            let index = utxos.len() as u32;
            utxos.push(platform::GenesisUtxo::new(
                platform::Utxo::new(avax::UtxoId::new(Id::ZERO, index), avax_id, out),
                a.eth.to_vec(),
            ));
        }
    }
    let staked_allocations: Vec<&Allocation> = allocations
        .iter()
        .filter(|a| staked.contains(&a.avax))
        .collect();
    let shares = split(&staked_allocations, stakers.len());
    // The validators in the order of the node's heap by end time (a binary heap's array,
    // each pushed and sifted up).
    let mut heap: Vec<(u64, platform::Tx)> = Vec::new();
    for (i, (staker, share)) in stakers.iter().zip(shares).enumerate() {
        let end = start + duration - offset * i as u64;
        let (reward, fee) = rewards[i];
        let mut stake: Vec<(u64, u64, ShortId)> = share
            .iter()
            .flat_map(|a| a.unlocks.iter().map(move |u| (u.1, u.0, a.avax)))
            .collect();
        // By locktime, amount, address (`genesis.Allocation.Compare`).
        stake.sort();
        let weight = stake.iter().map(|s| s.1).fold(0, u64::saturating_add);
        let outs: Vec<platform::TransferableOutput> = stake
            .iter()
            .map(|&(locktime, amount, a)| {
                platform::TransferableOutput::new(avax_id, output(amount, locktime, a))
            })
            .collect();
        let base = platform::Base::new(network_id, Id::ZERO, Vec::new(), Vec::new(), Vec::new());
        let validator = platform::Validator::new(staker.node, start, end, weight);
        let owner = || platform::Owner::from(platform::OutputOwners::new(owners(reward)));
        let unsigned: platform::UnsignedTx = match staker.signer {
            Some((pk, pop)) => platform::AddPermissionlessValidatorTx::new(
                base,
                validator,
                Id::ZERO,
                platform::ProofOfPossession::new(pk, pop).into(),
                outs,
                owner(),
                owner(),
                fee,
            )
            .into(),
            None => platform::AddValidatorTx::new(base, validator, outs, owner(), fee).into(),
        };
        heap.push((end, platform::Tx::new(unsigned, Vec::new())));
        let mut j = heap.len() - 1;
        while j > 0 {
            let parent = (j - 1) / 2;
            if heap[j].0 >= heap[parent].0 {
                break;
            }
            heap.swap(j, parent);
            j = parent;
        }
    }
    platform::Genesis::new(
        utxos,
        heap.into_iter().map(|(_, tx)| tx).collect(),
        chains.to_vec(),
        start,
        supply,
        message,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCAL: &str = include_str!("../tests/devnet/data/genesis_local.json");
    const CUSTOM: &str = include_str!("../tests/devnet/data/genesis_test.json");

    /// The node's own vectors (`genesis/genesis_test.go`): the local network's genesis ID
    /// (`TestGenesis`, the unmodified local config), its X-chain and AVAX IDs (`TestVMGenesis`,
    /// `TestAVAXAssetID`), and the hash of the custom test config's genesis
    /// (`TestGenesisFromFlag`).
    #[test]
    fn the_node_s_genesis_files_give_the_node_s_ids() {
        let local = parse(LOCAL, Some(12345), 2_000_000_000).unwrap();
        let g = &local.genesis;
        assert_eq!(
            Id::from_sha256(&g.p_bytes).to_string(),
            "2nRRoR76HuEk1JjDpRdN8FKvZFvUXWxY3b9C5rZRPFjcgEh7S7"
        );
        assert_eq!(
            g.x_chain_id.to_string(),
            "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed"
        );
        assert_eq!(
            g.avax_asset_id.to_string(),
            "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe"
        );
        assert_eq!(local.stakers.len(), 5);
        assert_eq!(
            local.stakers[0].node.to_string(),
            "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"
        );
        let custom = parse(CUSTOM, None, 2_000_000_000).unwrap();
        let hash: String = Id::from_sha256(&custom.genesis.p_bytes)
            .as_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            hash,
            "a1d1838586db85fe94ab1143560c3356df9ba2445794b796bba050be89f4fcb4"
        );
    }

    #[test]
    fn bad_files_are_refused_naming_the_field() {
        let with = |from: &str, to: &str| LOCAL.replacen(from, to, 1);
        let cases = [
            (
                with("\"startTime\": 1721016000", "\"startTime\": 1721016000"),
                Some(1),
                "conflicting network IDs",
            ),
            (
                with("\"amount\": 10000000000000000,", "\"amount\": -1,"),
                None,
                "`allocations[0].unlockSchedule[0].amount`",
            ),
            (
                with(
                    "X-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2\",\n\t\t\t\"initialAmount\"",
                    "nope\",\n\t\t\t\"initialAmount\"",
                ),
                None,
                "`allocations[0].avaxAddr` is not an address",
            ),
            (
                with(
                    "\"initialStakeDuration\": 31536000",
                    "\"initialStakeDuration\": 0",
                ),
                None,
                "`initialStakeDuration` is 0",
            ),
            (
                with(
                    "\"initialStakeDurationOffset\": 5400",
                    "\"initialStakeDurationOffset\": 31536000",
                ),
                None,
                "must be at least",
            ),
            (
                with("\"delegationFee\": 1000000", "\"delegationFee\": 1000001"),
                None,
                "`initialStakers[0].delegationFee`",
            ),
            (
                with(
                    "\"proofOfPossession\": \"0x8bfd",
                    "\"proofOfPossession\": \"0x9bfd",
                ),
                None,
                "`initialStakers[0].signer.proofOfPossession`",
            ),
            (
                with("\"startTime\": 1721016000", "\"startTime\": 4000000000"),
                None,
                "in the future",
            ),
            ("[1]".to_string(), None, "`networkID` is missing"),
            ("{".to_string(), None, "not JSON"),
        ];
        for (json, network, want) in cases {
            let e = parse(&json, network, 2_000_000_000).unwrap_err();
            assert!(e.contains(want), "{want}: {e}");
        }
    }
}
