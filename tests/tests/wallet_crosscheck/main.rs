//! The wallet's builders against AvalancheJS 5.2.0's: generated contexts, UTXO sets and
//! requests go through `avalanche_rpc::transact` and, in `tests/wallets/crosscheck.mjs`,
//! through AvalancheJS's `newBaseTx`, `newExportTx`, `newImportTx`, Etna P-chain
//! builders and the ACP-236 ones (`newAddAutoRenewedValidatorTx`,
//! `newSetAutoRenewedValidatorConfigTx`); the unsigned bytes, the fee (P: `pvm.calculateFee`) and the AVAX burned must be
//! the same. Many small UTXOs, several assets, locked and stakeable-locked funds, change
//! and none, multisig owners.
//!
//! The comparison needs Node.js and `npm ci` in `tests/wallets`, so it is ignored here and
//! run by `tests/wallets/run.sh` (CI):
//! `cargo test -p avalanche-rpc-tests --test wallet_crosscheck -- --ignored`. The cases'
//! own checks (each built transaction passes the codec's rules and its fee is its
//! complexity's) run with the workspace's tests.

mod c;

use avalanche_rpc::codec::{Verify, avax, avm, platform, secp256k1fx, warp};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::transact::p::{
    self as pb, Authority, AutoRenewedValidatorRequest, ChainRequest, Stake, ValidatorRequest,
};
use avalanche_rpc::transact::x as xb;
use avalanche_rpc::transact::{self, Context, FeeConfig, FeeState, Payer, StakingRules, Unsigned};
use avalanche_rpc::wire::{Id, NodeId, ShortId};
use serde_json::{Value, json};

const AVAX: u64 = 1_000_000_000;
const NOW: u64 = 1_750_000_000;

/// xorshift64*: the cases are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn id(&mut self) -> Id {
        let mut b = [0u8; 32];
        for c in b.chunks_mut(8) {
            c.copy_from_slice(&self.next().to_be_bytes());
        }
        Id::new(b)
    }
}

fn keys() -> Vec<ShortId> {
    let mut a: Vec<ShortId> = (1..=4u8)
        .map(|i| PrivateKey::from_bytes(&[i; 32]).unwrap().address())
        .collect();
    a.sort();
    a
}

fn context(rng: &mut Rng, network_id: u32) -> Context {
    Context {
        network_id,
        hrp: avalanche_rpc::network::hrp(network_id).to_string(),
        x_chain_id: rng.id(),
        p_chain_id: Id::ZERO,
        c_chain_id: rng.id(),
        avax_asset_id: rng.id(),
        x_tx_fee: 1_000_000,
        x_create_asset_tx_fee: 10_000_000,
        p_fee_config: FeeConfig::ETNA,
        p_fee_state: FeeState {
            capacity: 1_000_000,
            excess: rng.below(1_000_000),
            price: [1, 3, 25][rng.below(3) as usize],
        },
        validator_fee_config: Default::default(),
        staking: StakingRules::of_network(network_id),
    }
}

fn owners(addresses: &[ShortId], threshold: u32, locktime: u64) -> secp256k1fx::OutputOwners {
    transact::owners("owners", addresses, threshold, locktime).unwrap()
}

/// How a case's UTXOs look.
#[derive(Clone, Copy)]
struct Shape {
    count: u64,
    /// Amounts below this many nAVAX.
    max: u64,
    other_assets: bool,
    /// Some UTXOs locked until after NOW.
    locked: bool,
    /// Some UTXOs (P) stakeable-locked until after NOW.
    stakeable: bool,
    /// Some UTXOs 2-of-3 among the keys.
    multisig: bool,
}

fn shape_owners(rng: &mut Rng, s: Shape, k: &[ShortId]) -> secp256k1fx::OutputOwners {
    let locktime = if s.locked && rng.below(4) == 0 {
        NOW + 1 + rng.below(1000)
    } else {
        0
    };
    if s.multisig && rng.below(3) == 0 {
        owners(&[k[0], k[1], k[2]], 2, locktime)
    } else {
        owners(&[k[rng.below(2) as usize]], 1, locktime)
    }
}

fn x_utxos(rng: &mut Rng, ctx: &Context, s: Shape, assets: &[Id]) -> Vec<avm::Utxo> {
    let k = keys();
    (0..s.count)
        .map(|i| {
            let asset = if s.other_assets && i % 3 == 1 {
                assets[(i as usize / 3) % assets.len()]
            } else {
                ctx.avax_asset_id
            };
            let amount = 1 + rng.below(s.max);
            avm::Utxo::new(
                avax::UtxoId::new(rng.id(), rng.below(4) as u32),
                asset,
                secp256k1fx::TransferOutput::new(amount, shape_owners(rng, s, &k)).into(),
            )
        })
        .collect()
}

fn p_utxos(rng: &mut Rng, ctx: &Context, s: Shape, assets: &[Id]) -> Vec<platform::Utxo> {
    let k = keys();
    (0..s.count)
        .map(|i| {
            let asset = if s.other_assets && i % 3 == 1 {
                assets[(i as usize / 3) % assets.len()]
            } else {
                ctx.avax_asset_id
            };
            let amount = 1 + rng.below(s.max);
            let out = secp256k1fx::TransferOutput::new(amount, shape_owners(rng, s, &k));
            let output: platform::UtxoOutput =
                if s.stakeable && asset == ctx.avax_asset_id && rng.below(3) == 0 {
                    let lock = if rng.below(4) == 0 {
                        NOW - 10
                    } else {
                        NOW + 100 + rng.below(10_000)
                    };
                    platform::LockOut::new(lock, out.into()).into()
                } else {
                    out.into()
                };
            platform::Utxo::new(
                avax::UtxoId::new(rng.id(), rng.below(4) as u32),
                asset,
                output,
            )
        })
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

fn ctx_json(ctx: &Context) -> Value {
    json!({
        "networkID": ctx.network_id,
        "hrp": ctx.hrp,
        "xBlockchainID": ctx.x_chain_id.to_string(),
        "pBlockchainID": ctx.p_chain_id.to_string(),
        "cBlockchainID": ctx.c_chain_id.to_string(),
        "avaxAssetID": ctx.avax_asset_id.to_string(),
        "baseTxFee": ctx.x_tx_fee.to_string(),
        "createAssetTxFee": ctx.x_create_asset_tx_fee.to_string(),
        "weights": ctx.p_fee_config.weights,
        "feeState": {
            "capacity": ctx.p_fee_state.capacity.to_string(),
            "excess": ctx.p_fee_state.excess.to_string(),
            "price": ctx.p_fee_state.price.to_string(),
        },
    })
}

fn addrs(a: &[ShortId]) -> Value {
    Value::from(a.iter().map(|a| hex(a.as_bytes())).collect::<Vec<_>>())
}

fn owners_json(o: &secp256k1fx::OutputOwners) -> Value {
    json!({"addresses": addrs(&o.addresses), "threshold": o.threshold, "locktime": o.locktime.to_string()})
}

/// One case: what both sides build, and what Rust built.
#[derive(Clone)]
struct Case {
    name: String,
    chain: &'static str,
    kind: &'static str,
    ctx: Context,
    utxos: Vec<Vec<u8>>,
    payer: Payer,
    params: Value,
    built: Result<(Vec<u8>, u64, u64), String>,
}

fn result<U: transact::Signable>(
    r: Result<Unsigned<U>, transact::BuildError>,
) -> Result<(Vec<u8>, u64, u64), String> {
    r.map_err(|e| e.to_string())
        .and_then(|u| Ok((u.bytes().map_err(|e| e.to_string())?, u.fee(), u.burned())))
}

fn x_out(
    asset: Id,
    amount: u64,
    o: &secp256k1fx::OutputOwners,
) -> (avm::TransferableOutput, Value) {
    (
        xb::output(asset, amount, o.clone()),
        json!({"assetID": asset.to_string(), "amount": amount.to_string(), "owners": owners_json(o)}),
    )
}

fn p_out(
    asset: Id,
    amount: u64,
    o: &secp256k1fx::OutputOwners,
) -> (platform::TransferableOutput, Value) {
    (
        pb::output(asset, amount, o.clone()),
        json!({"assetID": asset.to_string(), "amount": amount.to_string(), "owners": owners_json(o)}),
    )
}

/// A Warp message with a real BLS signature (AvalancheJS checks the point).
fn warp_message(rng: &mut Rng, ctx: &Context, signers: u8) -> Vec<u8> {
    let payload: Vec<u8> = (0..40 + rng.below(40))
        .map(|_| rng.below(256) as u8)
        .collect();
    let key = avalanche_rpc::bls::SecretKey::from_seed(&[signers; 32]).unwrap();
    warp::Message::new(
        ctx.network_id,
        rng.id(),
        payload.clone(),
        warp::BitSetSignature::new(vec![signers], key.sign(&payload)).into(),
    )
    .to_bytes()
    .unwrap()
}

fn node_id(rng: &mut Rng) -> NodeId {
    let mut b = [0u8; 20];
    b.copy_from_slice(&rng.id().as_bytes()[..20]);
    NodeId::new(b)
}

fn cases() -> Vec<Case> {
    let k = keys();
    let mut out = Vec::new();
    let small = Shape {
        count: 60,
        max: 50_000_000,
        other_assets: false,
        locked: false,
        stakeable: false,
        multisig: false,
    };
    let mixed = Shape {
        count: 30,
        max: 5 * AVAX,
        other_assets: true,
        locked: true,
        stakeable: false,
        multisig: true,
    };
    let big = Shape {
        count: 8,
        max: 4_000 * AVAX,
        other_assets: false,
        locked: true,
        stakeable: true,
        multisig: true,
    };
    let payer_of = |n: usize, rng: &mut Rng| {
        let mut p = Payer::new(k[..n].to_vec(), NOW);
        if rng.below(3) == 0 {
            p = p.change_to(vec![k[3]]);
        }
        if rng.below(3) == 0 {
            p = p.with_memo(b"crosscheck".to_vec());
        }
        p
    };

    // X-chain: BaseTx, ExportTx, ImportTx.
    for seed in 1..=8u64 {
        let mut rng = Rng(seed * 7919);
        let ctx = context(&mut rng, if seed % 2 == 0 { 12345 } else { 5 });
        let assets = [rng.id(), rng.id()];
        let shape = [small, mixed, small, mixed, small, mixed, small, mixed][seed as usize - 1];
        let utxos = x_utxos(&mut rng, &ctx, shape, &assets);
        let payer = payer_of(
            if shape.multisig {
                2
            } else {
                1 + (seed % 2) as usize
            },
            &mut rng,
        );
        let mut outs = vec![x_out(
            ctx.avax_asset_id,
            1 + rng.below(40_000_000),
            &owners(&[k[3]], 1, 0),
        )];
        if shape.other_assets {
            outs.push(x_out(
                assets[0],
                1 + rng.below(AVAX),
                &owners(
                    &[k[2], k[3]],
                    1 + (seed % 2) as u32,
                    if seed == 4 { NOW + 50 } else { 0 },
                ),
            ));
        }
        let (o, j): (Vec<_>, Vec<_>) = outs.into_iter().unzip();
        let built = result(xb::base_tx(&ctx, &utxos, &payer, &o));
        out.push(Case {
            name: format!("x base {seed}"),
            chain: "X",
            kind: "base",
            utxos: utxos.iter().map(|u| u.to_bytes().unwrap()).collect(),
            ctx: ctx.clone(),
            payer: payer.clone(),
            params: json!({"outputs": j}),
            built,
        });
        if seed <= 3 {
            let (o, j) = x_out(
                ctx.avax_asset_id,
                1 + rng.below(30_000_000),
                &owners(&[k[0]], 1, 0),
            );
            let built = result(xb::export_tx(&ctx, &utxos, &payer, Id::ZERO, &[o]));
            out.push(Case {
                name: format!("x export {seed}"),
                chain: "X",
                kind: "export",
                utxos: utxos.iter().map(|u| u.to_bytes().unwrap()).collect(),
                ctx: ctx.clone(),
                payer: payer.clone(),
                params: json!({"destination": Id::ZERO.to_string(), "outputs": [j]}),
                built,
            });
            // Imports: AVAX only (several UTXOs), above the fee.
            let atomic: Vec<avm::Utxo> = (0..1 + seed)
                .map(|_| {
                    avm::Utxo::new(
                        avax::UtxoId::new(rng.id(), 0),
                        ctx.avax_asset_id,
                        secp256k1fx::TransferOutput::new(
                            2_000_000 + rng.below(AVAX),
                            owners(&[k[0]], 1, 0),
                        )
                        .into(),
                    )
                })
                .collect();
            let to = owners(&[k[seed as usize % 4]], 1, 0);
            let built = result(xb::import_tx(&ctx, &atomic, &[], &payer, Id::ZERO, &to));
            out.push(Case {
                name: format!("x import {seed}"),
                chain: "X",
                kind: "import",
                utxos: atomic.iter().map(|u| u.to_bytes().unwrap()).collect(),
                ctx: ctx.clone(),
                payer: payer.clone(),
                params: json!({"source": Id::ZERO.to_string(), "to": owners_json(&to)}),
                built,
            });
        }
    }

    // No change: an X-chain UTXO holding exactly the payment and the fee; a P-chain UTXO
    // whose excess over the fee is less than a change output would cost (burned whole).
    {
        let mut rng = Rng(4242);
        let ctx = context(&mut rng, 5);
        let payer = Payer::new(vec![k[0]], NOW);
        let utxos = vec![avm::Utxo::new(
            avax::UtxoId::new(rng.id(), 1),
            ctx.avax_asset_id,
            secp256k1fx::TransferOutput::new(5_000_000 + ctx.x_tx_fee, owners(&[k[0]], 1, 0))
                .into(),
        )];
        let (o, j) = x_out(ctx.avax_asset_id, 5_000_000, &owners(&[k[1]], 1, 0));
        let built = result(xb::base_tx(&ctx, &utxos, &payer, &[o]));
        out.push(Case {
            name: "x base, no change".into(),
            chain: "X",
            kind: "base",
            utxos: utxos.iter().map(|u| u.to_bytes().unwrap()).collect(),
            ctx: ctx.clone(),
            payer: payer.clone(),
            params: json!({"outputs": [j]}),
            built,
        });
        let price = ctx.p_fee_state.price;
        let (o, j) = p_out(ctx.avax_asset_id, 5_000_000, &owners(&[k[1]], 1, 0));
        let p_utxo = |amount| {
            vec![platform::Utxo::new(
                avax::UtxoId::new(Id::new([3; 32]), 0),
                ctx.avax_asset_id,
                secp256k1fx::TransferOutput::new(amount, owners(&[k[0]], 1, 0)).into(),
            )]
        };
        // With plenty: the fee with a change output; without one it is 1,080 gas less.
        let with_change = pb::base_tx(&ctx, &p_utxo(AVAX), &payer, std::slice::from_ref(&o))
            .unwrap()
            .fee();
        let utxos = p_utxo(5_000_000 + with_change - 1_080 * price + 500 * price);
        let built = result(pb::base_tx(&ctx, &utxos, &payer, &[o]));
        out.push(Case {
            name: "p base, excess burned".into(),
            chain: "P",
            kind: "base",
            utxos: utxos.iter().map(|u| u.to_bytes().unwrap()).collect(),
            ctx,
            payer,
            params: json!({"outputs": [j]}),
            built,
        });
    }

    // P-chain: every Etna builder.
    for seed in 1..=30u64 {
        let mut rng = Rng(seed * 104_729);
        let ctx = context(&mut rng, if seed % 3 == 0 { 12345 } else { 5 });
        let assets = [rng.id()];
        let shape = [small, mixed, big][seed as usize % 3];
        let shape = Shape {
            max: shape.max.max(3 * AVAX),
            ..shape
        };
        let utxos = p_utxos(&mut rng, &ctx, shape, &assets);
        let bytes: Vec<Vec<u8>> = utxos.iter().map(|u| u.to_bytes().unwrap()).collect();
        let payer = payer_of(if shape.multisig { 2 } else { 1 }, &mut rng);
        let subnet_owner = if seed % 2 == 0 {
            owners(&[k[0], k[1], k[2]], 2, 0)
        } else {
            owners(&[k[0]], 1, 0)
        };
        // The owner's signers: the payer's own addresses may not be enough (a 2-of-3 owner).
        let auth = Authority {
            owner: subnet_owner.clone(),
            signers: Some(vec![k[0], k[1]]),
        };
        let subnet_id = rng.id();
        let mut case = |name: &str, kind: &'static str, params: Value, built| {
            out.push(Case {
                name: format!("p {name} {seed}"),
                chain: "P",
                kind,
                utxos: bytes.clone(),
                ctx: ctx.clone(),
                payer: payer.clone(),
                params,
                built,
            });
        };
        let start = NOW + 60;
        let end = NOW + 30 * 24 * 3600;
        match seed % 15 {
            0 => {
                let (o, j) = p_out(
                    ctx.avax_asset_id,
                    1 + rng.below(AVAX / 2),
                    &owners(&[k[3]], 1, 0),
                );
                let mut os = vec![o];
                let mut js = vec![j];
                if shape.other_assets {
                    let (o, j) = p_out(assets[0], 1 + rng.below(AVAX / 10), &owners(&[k[2]], 1, 0));
                    os.push(o);
                    js.push(j);
                }
                case(
                    "base",
                    "base",
                    json!({"outputs": js}),
                    result(pb::base_tx(&ctx, &utxos, &payer, &os)),
                );
            }
            1 => {
                let (o, j) = p_out(
                    ctx.avax_asset_id,
                    1 + rng.below(AVAX),
                    &owners(&[k[1]], 1, 0),
                );
                case(
                    "export",
                    "export",
                    json!({"destination": ctx.x_chain_id.to_string(), "outputs": [j]}),
                    result(pb::export_tx(&ctx, &utxos, &payer, ctx.x_chain_id, &[o])),
                );
            }
            2 => {
                let atomic: Vec<platform::Utxo> = (0..1 + seed % 4)
                    .map(|_| {
                        platform::Utxo::new(
                            avax::UtxoId::new(rng.id(), 0),
                            ctx.avax_asset_id,
                            secp256k1fx::TransferOutput::new(
                                1_000_000 + rng.below(AVAX),
                                owners(&[payer.from[0]], 1, 0),
                            )
                            .into(),
                        )
                    })
                    .collect();
                let to = owners(&[k[2]], 1, 0);
                let built = result(pb::import_tx(
                    &ctx,
                    &atomic,
                    &[],
                    &payer,
                    ctx.x_chain_id,
                    &to,
                ));
                out.push(Case {
                    name: format!("p import {seed}"),
                    chain: "P",
                    kind: "import",
                    utxos: atomic.iter().map(|u| u.to_bytes().unwrap()).collect(),
                    ctx: ctx.clone(),
                    payer: payer.clone(),
                    params: json!({"source": ctx.x_chain_id.to_string(), "to": owners_json(&to)}),
                    built,
                });
            }
            3 | 4 => {
                let bls = avalanche_rpc::bls::SecretKey::from_seed(&[seed as u8; 32]).unwrap();
                let req = ValidatorRequest {
                    stake: Stake {
                        node_id: node_id(&mut rng),
                        start,
                        end,
                        weight: 2_000 * AVAX + rng.below(500 * AVAX),
                    },
                    signer: Some((bls.public_key(), bls.proof_of_possession())),
                    validator_rewards: owners(&[k[0]], 1, 0),
                    delegator_rewards: owners(&[k[1]], 1, 0),
                    shares: 20_000 + rng.below(100_000) as u32,
                };
                let params = json!({"nodeID": req.stake.node_id.to_string(), "start": start.to_string(), "end": end.to_string(), "weight": req.stake.weight.to_string(), "publicKey": hex(&bls.public_key()), "signature": hex(&bls.proof_of_possession()), "rewardAddresses": addrs(&[k[0]]), "delegatorRewardAddresses": addrs(&[k[1]]), "shares": req.shares});
                case(
                    "validator",
                    "validator",
                    params,
                    result(pb::add_permissionless_validator_tx(
                        &ctx, &utxos, &payer, &req,
                    )),
                );
            }
            5 | 6 => {
                let stake = Stake {
                    node_id: node_id(&mut rng),
                    start,
                    end,
                    weight: 25 * AVAX + rng.below(100 * AVAX),
                };
                let params = json!({"nodeID": stake.node_id.to_string(), "start": start.to_string(), "end": end.to_string(), "weight": stake.weight.to_string(), "rewardAddresses": addrs(&[k[2]])});
                case(
                    "delegator",
                    "delegator",
                    params,
                    result(pb::add_permissionless_delegator_tx(
                        &ctx,
                        &utxos,
                        &payer,
                        stake,
                        &owners(&[k[2]], 1, 0),
                        None,
                    )),
                );
            }
            7 => {
                let o = owners(&[k[0], k[2]], 1 + (seed % 2) as u32, 0);
                case(
                    "create subnet",
                    "createSubnet",
                    json!({"owner": owners_json(&o)}),
                    result(pb::create_subnet_tx(&ctx, &utxos, &payer, &o)),
                );
            }
            8 => {
                let genesis = br#"{"config":{"chainId":43117},"alloc":{}}"#;
                let req = ChainRequest {
                    subnet_id,
                    name: "crosscheck chain",
                    vm_id: rng.id(),
                    fx_ids: Vec::new(),
                    genesis,
                };
                let a = auth_indices(&auth, &payer);
                case(
                    "create chain",
                    "createChain",
                    json!({"subnetID": subnet_id.to_string(), "name": req.name, "vmID": req.vm_id.to_string(), "genesis": std::str::from_utf8(genesis).unwrap(), "subnetAuth": a}),
                    result(pb::create_chain_tx(&ctx, &utxos, &payer, &auth, &req)),
                );
            }
            9 => {
                let stake = Stake {
                    node_id: node_id(&mut rng),
                    start,
                    end,
                    weight: 1 + rng.below(1000),
                };
                let a = auth_indices(&auth, &payer);
                case(
                    "add subnet validator",
                    "addSubnetValidator",
                    json!({"subnetID": subnet_id.to_string(), "nodeID": stake.node_id.to_string(), "start": start.to_string(), "end": end.to_string(), "weight": stake.weight.to_string(), "subnetAuth": a}),
                    result(pb::add_subnet_validator_tx(
                        &ctx, &utxos, &payer, subnet_id, &auth, stake,
                    )),
                );
                let n = node_id(&mut rng);
                case(
                    "remove subnet validator",
                    "removeSubnetValidator",
                    json!({"subnetID": subnet_id.to_string(), "nodeID": n.to_string(), "subnetAuth": a}),
                    result(pb::remove_subnet_validator_tx(
                        &ctx, &utxos, &payer, subnet_id, &auth, n,
                    )),
                );
            }
            10 => {
                let o = owners(&[k[3]], 1, 0);
                let a = auth_indices(&auth, &payer);
                case(
                    "transfer subnet ownership",
                    "transferSubnetOwnership",
                    json!({"subnetID": subnet_id.to_string(), "owner": owners_json(&o), "subnetAuth": a}),
                    result(pb::transfer_subnet_ownership_tx(
                        &ctx, &utxos, &payer, subnet_id, &auth, &o,
                    )),
                );
            }
            11 => {
                let chain = rng.id();
                let address: Vec<u8> = (0..20).map(|_| rng.below(256) as u8).collect();
                let mut vs = Vec::new();
                let mut js = Vec::new();
                for i in 0..1 + seed % 3 {
                    let bls =
                        avalanche_rpc::bls::SecretKey::from_seed(&[i as u8 + 40; 32]).unwrap();
                    let n = node_id(&mut rng);
                    let (w, b) = (1 + rng.below(100), rng.below(AVAX));
                    let po = platform::PChainOwner::new(1, vec![k[i as usize % 4]]);
                    vs.push(platform::ConvertSubnetToL1Validator::new(
                        n.as_bytes().to_vec(),
                        w,
                        b,
                        platform::ProofOfPossession::new(
                            bls.public_key(),
                            bls.proof_of_possession(),
                        ),
                        po.clone(),
                        po,
                    ));
                    js.push(json!({"nodeID": n.to_string(), "weight": w.to_string(), "balance": b.to_string(), "publicKey": hex(&bls.public_key()), "signature": hex(&bls.proof_of_possession()), "owner": addrs(&[k[i as usize % 4]])}));
                }
                let a = auth_indices(&auth, &payer);
                case(
                    "convert subnet to L1",
                    "convertSubnetToL1",
                    json!({"subnetID": subnet_id.to_string(), "chainID": chain.to_string(), "address": hex(&address), "validators": js, "subnetAuth": a}),
                    result(pb::convert_subnet_to_l1_tx(
                        &ctx,
                        &utxos,
                        &payer,
                        subnet_id,
                        &auth,
                        (chain, &address),
                        &vs,
                    )),
                );
            }
            12 => {
                let m = warp_message(&mut rng, &ctx, 0b1011);
                let b = rng.below(AVAX);
                let pop = avalanche_rpc::bls::SecretKey::from_seed(&[seed as u8 + 90; 32])
                    .unwrap()
                    .proof_of_possession();
                case(
                    "register L1 validator",
                    "registerL1Validator",
                    json!({"balance": b.to_string(), "signature": hex(&pop), "message": hex(&m)}),
                    result(pb::register_l1_validator_tx(
                        &ctx, &utxos, &payer, b, pop, &m,
                    )),
                );
                let m = warp_message(&mut rng, &ctx, 0b1);
                case(
                    "set L1 validator weight",
                    "setL1ValidatorWeight",
                    json!({"message": hex(&m)}),
                    result(pb::set_l1_validator_weight_tx(&ctx, &utxos, &payer, &m)),
                );
            }
            13 => {
                let v = rng.id();
                let b = 1 + rng.below(AVAX);
                case(
                    "increase L1 validator balance",
                    "increaseL1ValidatorBalance",
                    json!({"validationID": v.to_string(), "balance": b.to_string()}),
                    result(pb::increase_l1_validator_balance_tx(
                        &ctx, &utxos, &payer, v, b,
                    )),
                );
            }
            _ => {
                let v = rng.id();
                let a = auth_indices(&auth, &payer);
                case(
                    "disable L1 validator",
                    "disableL1Validator",
                    json!({"validationID": v.to_string(), "disableAuth": a}),
                    result(pb::disable_l1_validator_tx(&ctx, &utxos, &payer, v, &auth)),
                );
            }
        }
    }

    // P-chain, ACP-236 (since Helicon): auto-renewed validators and their configuration.
    for seed in 1..=12u64 {
        let mut rng = Rng(seed * 15_485_863);
        let ctx = context(&mut rng, if seed % 3 == 0 { 12345 } else { 5 });
        // A validator stakes 2,000 AVAX or more: large UTXOs, some stakeable-locked.
        let shape = if seed % 2 == 1 {
            Shape { count: 12, ..big }
        } else {
            [small, mixed, big][seed as usize % 3]
        };
        let shape = Shape {
            max: shape.max.max(3 * AVAX),
            ..shape
        };
        let assets = [rng.id()];
        let utxos = p_utxos(&mut rng, &ctx, shape, &assets);
        let bytes: Vec<Vec<u8>> = utxos.iter().map(|u| u.to_bytes().unwrap()).collect();
        let payer = payer_of(if shape.multisig { 2 } else { 1 }, &mut rng);
        let period = ctx.staking.min_stake_duration + rng.below(60 * 24 * 3600);
        let compound = [0, 300_000, 1_000_000][seed as usize % 3];
        let (name, kind, params, built) = if seed % 2 == 1 {
            let bls = avalanche_rpc::bls::SecretKey::from_seed(&[seed as u8 + 100; 32]).unwrap();
            // The authority: one or two of the keys, either of which may sign.
            let authority = if seed % 4 == 1 {
                vec![k[2]]
            } else {
                vec![k[1], k[3]]
            };
            let req = AutoRenewedValidatorRequest {
                node_id: node_id(&mut rng),
                weight: 2_000 * AVAX + rng.below(500 * AVAX),
                signer: (bls.public_key(), bls.proof_of_possession()),
                validator_rewards: owners(&[k[0]], 1, 0),
                delegator_rewards: owners(&[k[1]], 1, 0),
                validator_authority: owners(&authority, 1, 0),
                shares: 20_000 + rng.below(100_000) as u32,
                auto_compound_reward_shares: compound,
                period,
            };
            let params = json!({"nodeID": req.node_id.to_string(), "weight": req.weight.to_string(), "publicKey": hex(&bls.public_key()), "signature": hex(&bls.proof_of_possession()), "rewardAddresses": addrs(&[k[0]]), "delegatorRewardAddresses": addrs(&[k[1]]), "ownerAddresses": addrs(&authority), "shares": req.shares, "autoCompoundRewardShares": compound, "period": period.to_string()});
            (
                "auto-renewed validator",
                "autoRenewedValidator",
                params,
                result(pb::add_auto_renewed_validator_tx(
                    &ctx, &utxos, &payer, &req,
                )),
            )
        } else {
            let auth = Authority {
                owner: if seed % 4 == 0 {
                    owners(&[k[0], k[1], k[2]], 2, 0)
                } else {
                    owners(&[k[0]], 1, 0)
                },
                signers: Some(vec![k[0], k[1]]),
            };
            // A period of 0 ends the validation with the current period.
            let period = if seed == 6 { 0 } else { period };
            let tx_id = rng.id();
            let a = auth_indices(&auth, &payer);
            (
                "set auto-renewed validator config",
                "setAutoRenewedValidatorConfig",
                json!({"txID": tx_id.to_string(), "auth": a, "autoCompoundRewardShares": compound, "period": period.to_string()}),
                result(pb::set_auto_renewed_validator_config_tx(
                    &ctx, &utxos, &payer, tx_id, &auth, compound, period,
                )),
            )
        };
        out.push(Case {
            name: format!("p {name} {seed}"),
            chain: "P",
            kind,
            utxos: bytes,
            ctx,
            payer,
            params,
            built,
        });
    }
    out
}

/// The authorization's signature indices, as the test hands them to AvalancheJS.
fn auth_indices(auth: &Authority, payer: &Payer) -> Vec<u32> {
    let from = auth
        .signers
        .as_ref()
        .unwrap_or(&payer.from)
        .iter()
        .copied()
        .collect();
    transact::spend::match_owners(&auth.owner, &from, payer.time)
        .map(|(i, _)| i)
        .unwrap_or_default()
}

fn case_json(c: &Case) -> Value {
    json!({
        "name": c.name,
        "chain": c.chain,
        "kind": c.kind,
        "context": ctx_json(&c.ctx),
        "utxos": c.utxos.iter().map(|u| hex(u)).collect::<Vec<_>>(),
        "from": addrs(&c.payer.from),
        "change": c.payer.change.as_deref().map(addrs),
        "memo": hex(&c.payer.memo),
        "minIssuanceTime": c.payer.time.to_string(),
        "params": c.params,
    })
}

#[test]
fn every_case_builds_what_the_node_takes() {
    let cases = cases();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    let built = cases.iter().filter(|c| c.built.is_ok()).count();
    assert!(built >= 40, "only {built} of {} cases build", cases.len());
    // Every ACP-236 case builds (so that AvalancheJS is compared on bytes, not on errors).
    let acp236: Vec<&Case> = cases
        .iter()
        .filter(|c| c.name.contains("auto-renewed"))
        .collect();
    assert_eq!(acp236.len(), 12);
    let mut staked_locked = 0;
    for c in acp236 {
        let Ok((bytes, ..)) = &c.built else {
            panic!("{}: {:?}", c.name, c.built.as_ref().err());
        };
        // Stakeable-locked inputs (LockIn, type 21) staked by a validator.
        staked_locked += usize::from(!c.name.contains("config") && hex(bytes).contains("00000015"));
    }
    assert!(
        staked_locked >= 1,
        "no auto-renewed validator stakes locked funds"
    );
    // What the cases cover: stakeable-locked inputs staked, the excess burned for want of a
    // change output, several assets, multisig inputs, no change at all.
    let (mut locked_in, mut excess_burned, mut assets, mut multisig, mut no_change) =
        (0, 0, 0, 0, 0);
    for c in &cases {
        let Ok((bytes, fee, burned)) = &c.built else {
            continue;
        };
        assert!(burned >= fee, "{}: burns {burned}, fee {fee}", c.name);
        excess_burned += usize::from(burned > fee);
        let text = hex(bytes);
        // LockIn (type 21) inputs; 2-signature inputs; outputs of a second asset.
        locked_in += usize::from(c.chain == "P" && text.contains("00000015"));
        if c.chain == "P" {
            let tx = platform::UnsignedTx::from_bytes(bytes).unwrap();
            if let Some(b) = tx.base() {
                let a: std::collections::BTreeSet<Id> =
                    b.outputs.iter().map(|o| o.asset_id).collect();
                assets += usize::from(a.len() > 1);
                no_change += usize::from(c.name.contains("excess burned") && b.outputs.len() == 1);
                multisig += usize::from(b.inputs.iter().any(|i| match &i.input {
                    platform::TransferableIn::TransferInput(t) => {
                        t.input.signature_indices.len() > 1
                    }
                    _ => false,
                }));
            }
            tx.verify().unwrap_or_else(|e| panic!("{}: {e}", c.name));
            let f = transact::fee::fee(
                &transact::fee::complexity(&tx).unwrap(),
                &c.ctx.p_fee_config.weights,
                c.ctx.p_fee_state.price,
            )
            .unwrap();
            assert_eq!(f, *fee, "{}", c.name);
        } else {
            let tx = avm::UnsignedTx::from_bytes(bytes).unwrap();
            tx.verify().unwrap_or_else(|e| panic!("{}: {e}", c.name));
            let a: std::collections::BTreeSet<Id> =
                tx.base().outputs.iter().map(|o| o.asset_id).collect();
            assets += usize::from(a.len() > 1);
            no_change += usize::from(c.name.contains("no change") && tx.base().outputs.len() == 1);
            multisig += usize::from(tx.base().inputs.iter().any(|i| match &i.input {
                avm::TransferableIn::TransferInput(t) => t.input.signature_indices.len() > 1,
                _ => false,
            }));
        }
    }
    println!(
        "locked inputs {locked_in}, excess burned {excess_burned}, several assets {assets}, multisig {multisig}, no change {no_change}"
    );
    assert!(locked_in >= 2 && excess_burned >= 1 && assets >= 2 && multisig >= 2 && no_change >= 2);
}

/// What AvalancheJS builds for each case (`tests/wallets/crosscheck.mjs`).
fn avalanchejs(cases: &[Case]) -> Vec<Value> {
    let input = Value::from(cases.iter().map(case_json).collect::<Vec<_>>()).to_string();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("wallets");
    let mut child = std::process::Command::new("node")
        .arg("crosscheck.mjs")
        .current_dir(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("node runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "crosscheck.mjs failed");
    let theirs: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(theirs.len(), cases.len());
    theirs
}

#[test]
#[ignore = "needs Node.js and `npm ci` in tests/wallets; run by tests/wallets/run.sh"]
fn avalanchejs_builds_the_same_bytes() {
    let cases = cases();
    let theirs = avalanchejs(&cases);
    let mut same = 0;
    let mut report = Vec::new();
    for (c, t) in cases.iter().zip(&theirs) {
        let mine = match &c.built {
            Ok((b, fee, burned)) => {
                json!({"unsigned": hex(b), "fee": fee.to_string(), "burned": burned.to_string()})
            }
            Err(e) => json!({"error": e}),
        };
        let agree = match (&c.built, t.get("error")) {
            (Ok(_), None) => {
                mine["unsigned"] == t["unsigned"]
                    && mine["fee"] == t["fee"]
                    && mine["burned"] == t["burned"]
            }
            (Err(_), Some(_)) => true,
            _ => false,
        };
        if agree {
            same += 1;
        } else {
            report.push(format!("{}:\n  rust: {mine}\n  avalanchejs: {t}", c.name));
        }
        println!("{} {}", if agree { "same" } else { "DIFF" }, c.name);
    }
    println!("{same} of {} cases the same", cases.len());
    assert!(report.is_empty(), "{}", report.join("\n"));
    assert!(cases.iter().filter(|c| c.built.is_ok()).count() >= 40);
}

/// Requests where AvalancheJS 5.2.0 builds what the node refuses, and the wallet differs on
/// purpose; each with the node's rule.
fn known_differences() -> Vec<(Case, &'static str)> {
    let k = keys();
    let mut rng = Rng(99);
    let ctx = context(&mut rng, 5);
    let mut out = Vec::new();

    // Change addresses given twice.
    let payer = Payer::new(vec![k[1]], NOW).change_to(vec![k[2], k[0], k[2]]);
    let utxos = vec![avm::Utxo::new(
        avax::UtxoId::new(rng.id(), 0),
        ctx.avax_asset_id,
        secp256k1fx::TransferOutput::new(3 * AVAX, owners(&[k[1]], 1, 0)).into(),
    )];
    let (o, j) = x_out(ctx.avax_asset_id, AVAX, &owners(&[k[3]], 1, 0));
    out.push((
        Case {
            name: "x base, a change address given twice".into(),
            chain: "X",
            kind: "base",
            utxos: utxos.iter().map(|u| u.to_bytes().unwrap()).collect(),
            built: result(xb::base_tx(&ctx, &utxos, &payer, &[o])),
            ctx: ctx.clone(),
            payer,
            params: json!({"outputs": [j]}),
        },
        "owners' addresses must be sorted and unique (avalanchego vms/secp256k1fx/output_owners.go, \
         `OutputOwners.Verify`: ErrAddrsNotSortedUnique); AvalancheJS sorts the change addresses \
         but keeps a repeated one",
    ));

    // An import of two assets, met in an order that is not the outputs' order.
    let mut assets = [rng.id(), ctx.avax_asset_id];
    assets.sort_by(|a, b| b.as_bytes().cmp(a.as_bytes()));
    let atomic: Vec<avm::Utxo> = assets
        .iter()
        .map(|a| {
            avm::Utxo::new(
                avax::UtxoId::new(rng.id(), 0),
                *a,
                secp256k1fx::TransferOutput::new(2 * AVAX, owners(&[k[0]], 1, 0)).into(),
            )
        })
        .collect();
    let payer = Payer::new(vec![k[0]], NOW);
    let to = owners(&[k[2]], 1, 0);
    out.push((
        Case {
            name: "x import of two assets".into(),
            chain: "X",
            kind: "import",
            utxos: atomic.iter().map(|u| u.to_bytes().unwrap()).collect(),
            built: result(xb::import_tx(&ctx, &atomic, &[], &payer, Id::ZERO, &to)),
            ctx: ctx.clone(),
            payer: payer.clone(),
            params: json!({"source": Id::ZERO.to_string(), "to": owners_json(&to)}),
        },
        "outputs must be sorted (avalanchego vms/components/avax/transferables.go, \
         `VerifyTx`: `IsSortedTransferableOutputs`, which every X-chain BaseTx's `Verify` calls); AvalancheJS \
         appends the imported assets' outputs in the order it met them",
    ));

    // A P-chain import whose AVAX falls just short of the fee (so that AvalancheJS, spending
    // the imported UTXO a second time, covers it): the fee with a change output, less the
    // change output's 1,080 gas, less 10 gas.
    let atomic_of = |amount: u64, id: Id| {
        vec![platform::Utxo::new(
            avax::UtxoId::new(id, 0),
            ctx.avax_asset_id,
            secp256k1fx::TransferOutput::new(amount, owners(&[k[0]], 1, 0)).into(),
        )]
    };
    let id = rng.id();
    let fee = pb::import_tx(
        &ctx,
        &atomic_of(AVAX, id),
        &[],
        &Payer::new(vec![k[0]], NOW),
        ctx.x_chain_id,
        &owners(&[k[0]], 1, 0),
    )
    .unwrap()
    .fee();
    let price = ctx.p_fee_state.price;
    let atomic = atomic_of(fee - 1_090 * price, id);
    let local = vec![platform::Utxo::new(
        avax::UtxoId::new(rng.id(), 0),
        ctx.avax_asset_id,
        secp256k1fx::TransferOutput::new(AVAX, owners(&[k[0]], 1, 0)).into(),
    )];
    let to = owners(&[k[0]], 1, 0);
    out.push((
        Case {
            name: "p import short of the fee".into(),
            chain: "P",
            kind: "import",
            utxos: atomic.iter().map(|u| u.to_bytes().unwrap()).collect(),
            built: result(pb::import_tx(
                &ctx,
                &atomic,
                &local,
                &payer,
                ctx.x_chain_id,
                &to,
            )),
            ctx: ctx.clone(),
            payer,
            params: json!({"source": ctx.x_chain_id.to_string(), "to": owners_json(&to)}),
        },
        "a transaction's inputs are UTXOs of the P-chain's own state, its imported inputs UTXOs \
         of shared memory (avalanchego vms/platformvm/txs/executor/standard_tx_executor.go, \
         `ImportTx`: each of `tx.Ins` is read with `e.state.GetUTXO`, each imported one from \
         shared memory); AvalancheJS spends the imported UTXO a second time as an input, which \
         the P-chain's state does not hold (\"failed to get UTXO\")",
    ));
    out
}

/// Whether unsigned bytes break a rule of the node: the codec's syntactic rules, or a UTXO
/// both spent and imported.
fn node_refuses(chain: &str, bytes: &[u8]) -> Option<String> {
    if chain == "X" {
        let tx = avm::UnsignedTx::from_bytes(bytes).ok()?;
        return tx.verify().err().map(|e| e.to_string());
    }
    let tx = platform::UnsignedTx::from_bytes(bytes).ok()?;
    if let Err(e) = tx.verify() {
        return Some(e.to_string());
    }
    if let platform::UnsignedTx::ImportTx(t) = &tx {
        let spent: Vec<_> = t.base.inputs.iter().map(|i| i.utxo_id.id()).collect();
        if let Some(u) = t
            .imported_inputs
            .iter()
            .find(|i| spent.contains(&i.utxo_id.id()))
        {
            return Some(format!(
                "UTXO {} is both an input and an imported input",
                u.utxo_id.id()
            ));
        }
    }
    None
}

#[test]
fn where_the_wallet_differs_on_purpose_it_builds_what_the_node_takes() {
    for (c, _) in known_differences() {
        let (bytes, ..) = c
            .built
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        assert_eq!(node_refuses(c.chain, bytes), None, "{}", c.name);
    }
}

#[test]
#[ignore = "needs Node.js and `npm ci` in tests/wallets; run by tests/wallets/run.sh"]
fn where_they_differ_avalanchejs_builds_what_the_node_refuses() {
    let known = known_differences();
    let cases: Vec<Case> = known
        .iter()
        .map(|(c, _)| Case {
            name: c.name.clone(),
            chain: c.chain,
            kind: c.kind,
            ctx: c.ctx.clone(),
            utxos: c.utxos.clone(),
            payer: c.payer.clone(),
            params: c.params.clone(),
            built: c.built.clone(),
        })
        .collect();
    let theirs = avalanchejs(&cases);
    for ((c, why), t) in known.iter().zip(&theirs) {
        let unsigned = t["unsigned"]
            .as_str()
            .unwrap_or_else(|| panic!("{}: {t}", c.name));
        let bytes: Vec<u8> = (0..unsigned.len() / 2)
            .map(|i| u8::from_str_radix(&unsigned[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        assert_ne!(
            Some(&bytes),
            c.built.as_ref().ok().map(|b| &b.0),
            "{}: now the same",
            c.name
        );
        let refusal = node_refuses(c.chain, &bytes)
            .unwrap_or_else(|| panic!("{}: AvalancheJS's bytes pass", c.name));
        println!(
            "{}: AvalancheJS's bytes are refused: {refusal}\n  the node's rule: {why}",
            c.name
        );
    }
}
