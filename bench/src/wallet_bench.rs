//! The wallet (`avalanche_rpc::transact`) against AvalancheJS 5.2.0 in Node doing the same
//! work in the same run: building and signing a 2-input 2-output X-chain BaseTx, and
//! building one from 10,000 UTXOs (choosing the inputs: one pass, as both select). Each
//! figure is the time per operation; the Node side runs `bench/wallet/bench.mjs` on the
//! same fixture (context, UTXO bytes, key), warmed up before it measures.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use avalanche_rpc::codec::{avax, avm, secp256k1fx};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::transact::{
    Context, FeeConfig, FeeState, Keychain, Payer, StakingRules, owners, x,
};
use avalanche_rpc::wire::Id;

use crate::decode::per_op;
use crate::quiet::Quiet;
use crate::report::{Row, Unit};

const AVAX: u64 = 1_000_000_000;
const NOW: u64 = 1_750_000_000;

struct Fixture {
    ctx: Context,
    key: PrivateKey,
    two: Vec<avm::Utxo>,
    many: Vec<avm::Utxo>,
    pay_two: avm::TransferableOutput,
    pay_many: avm::TransferableOutput,
}

fn id(n: u64) -> Id {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&n.to_be_bytes());
    Id::from_sha256(&b)
}

fn fixture() -> Fixture {
    let ctx = Context {
        network_id: 5,
        hrp: "fuji".into(),
        x_chain_id: id(1),
        p_chain_id: Id::ZERO,
        c_chain_id: id(2),
        avax_asset_id: id(3),
        x_tx_fee: 1_000_000,
        x_create_asset_tx_fee: 10_000_000,
        p_fee_config: FeeConfig::ETNA,
        p_fee_state: FeeState {
            capacity: 1_000_000,
            excess: 0,
            price: 1,
        },
        validator_fee_config: Default::default(),
        staking: StakingRules::of_network(5),
    };
    let key = PrivateKey::from_bytes(&[7; 32]).expect("a key");
    let me = owners("owners", &[key.address()], 1, 0).expect("owners");
    let other = PrivateKey::from_bytes(&[8; 32]).expect("a key").address();
    let utxo = |n: u64, amount: u64| {
        avm::Utxo::new(
            avax::UtxoId::new(id(100 + n), (n % 3) as u32),
            ctx.avax_asset_id,
            secp256k1fx::TransferOutput::new(amount, me.clone()).into(),
        )
    };
    let two = vec![utxo(0, AVAX), utxo(1, AVAX)];
    // 10,000 UTXOs of 0.001 to 0.1 AVAX in no order; the payment takes about the first 100.
    let many: Vec<avm::Utxo> = (0..10_000u64)
        .map(|n| utxo(n, 1_000_000 + n.wrapping_mul(2_654_435_761) % 99_000_000))
        .collect();
    let to = owners("to", &[other], 1, 0).expect("owners");
    Fixture {
        pay_two: x::output(ctx.avax_asset_id, AVAX + AVAX / 2, to.clone()),
        pay_many: x::output(ctx.avax_asset_id, 5 * AVAX, to),
        ctx,
        key,
        two,
        many,
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

/// The fixture as `bench.mjs` reads it.
fn fixture_json(f: &Fixture) -> serde_json::Value {
    let utxos = |us: &[avm::Utxo]| {
        us.iter()
            .map(|u| hex(&u.to_bytes().expect("encodes")))
            .collect::<Vec<_>>()
    };
    let amount = |o: &avm::TransferableOutput| match &o.output {
        avm::TransferableOut::TransferOutput(t) => {
            (t.amount, hex(t.owners.addresses[0].as_bytes()))
        }
        _ => unreachable!("a transfer output"),
    };
    let (two_amount, to) = amount(&f.pay_two);
    let (many_amount, _) = amount(&f.pay_many);
    serde_json::json!({
        "context": {
            "networkID": f.ctx.network_id,
            "hrp": f.ctx.hrp,
            "xBlockchainID": f.ctx.x_chain_id.to_string(),
            "pBlockchainID": f.ctx.p_chain_id.to_string(),
            "cBlockchainID": f.ctx.c_chain_id.to_string(),
            "avaxAssetID": f.ctx.avax_asset_id.to_string(),
            "baseTxFee": f.ctx.x_tx_fee.to_string(),
            "createAssetTxFee": f.ctx.x_create_asset_tx_fee.to_string(),
        },
        "key": hex(&f.key.to_bytes()),
        "from": hex(f.key.address().as_bytes()),
        "to": to,
        "minIssuanceTime": NOW.to_string(),
        "two": utxos(&f.two),
        "payTwo": two_amount.to_string(),
        "many": utxos(&f.many),
        "payMany": many_amount.to_string(),
    })
}

/// Seconds per operation of `op` in Node, measured for `budget` after a warm-up.
fn node_per_op(dir: &Path, fixture: &Path, op: &str, budget: Duration) -> Result<f64, String> {
    let out = std::process::Command::new("node")
        .arg("bench.mjs")
        .arg(fixture)
        .arg(op)
        .arg(budget.as_secs_f64().to_string())
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run node (Node.js is needed for this group): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "bench.mjs {op} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .map_err(|e| format!("bench.mjs {op} printed no figure: {e}"))
}

pub fn run(repo: &Path, reps: usize, budget: Duration, quiet: &Quiet) -> Result<Vec<Row>, String> {
    let dir = repo.join("bench/wallet");
    if !dir.join("node_modules/@avalabs/avalanchejs").exists() {
        return Err("AvalancheJS is not installed: run `npm ci` in bench/wallet (bench/run does when Node.js is there)".into());
    }
    let f = fixture();
    let path = repo.join("bench/target/wallet-fixture.json");
    std::fs::create_dir_all(path.parent().expect("a folder")).map_err(|e| e.to_string())?;
    std::fs::write(&path, fixture_json(&f).to_string()).map_err(|e| e.to_string())?;
    let keys = Keychain::from_keys([f.key.clone()]);
    let payer = Payer::new(vec![f.key.address()], NOW);
    // Checked once: both paths build, and the choice from 10,000 takes many inputs.
    let chosen = x::base_tx(&f.ctx, &f.many, &payer, std::slice::from_ref(&f.pay_many))
        .map_err(|e| e.to_string())?;
    let inputs = chosen.tx().base().inputs.len();
    let two_and_two = x::base_tx(&f.ctx, &f.two, &payer, std::slice::from_ref(&f.pay_two))
        .map_err(|e| e.to_string())?;
    if two_and_two.tx().base().inputs.len() != 2 || two_and_two.tx().base().outputs.len() != 2 {
        return Err("the 2-input 2-output fixture does not build as such".into());
    }
    let (mut sign, mut sign_js, mut select, mut select_js) = (vec![], vec![], vec![], vec![]);
    for _ in 0..reps {
        sign.push(quiet.measure(&[], || {
            per_op(budget, || {
                let mut tx = x::base_tx(&f.ctx, &f.two, &payer, std::slice::from_ref(&f.pay_two))
                    .expect("checked");
                tx.sign(&keys).expect("signs");
                black_box(tx.signed().expect("signed").to_bytes().expect("encodes"));
            })
        }));
        sign_js.push(node_per_op(&dir, &path, "sign", budget)?);
        select.push(quiet.measure(&[], || {
            per_op(budget, || {
                black_box(
                    x::base_tx(&f.ctx, &f.many, &payer, std::slice::from_ref(&f.pay_many))
                        .expect("checked"),
                );
            })
        }));
        select_js.push(node_per_op(&dir, &path, "select", budget)?);
    }
    Ok(vec![
        Row::new("Wallet: build and sign a 2-input 2-output X BaseTx (`transact::x::base_tx`, `sign`, bytes)", Unit::Seconds, sign)
            .against("AvalancheJS 5.2.0 (`newBaseTx`, `addTxSignatures`, `getSignedTx().toBytes()`) in Node", sign_js),
        Row::new(format!("Wallet: build an X BaseTx from 10,000 UTXOs ({inputs} inputs chosen)"), Unit::Seconds, select)
            .against("AvalancheJS 5.2.0 (`newBaseTx`) in Node", select_js),
    ])
}
