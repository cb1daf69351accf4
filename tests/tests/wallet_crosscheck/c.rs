//! The C-chain's atomic builders (`transact::c`) against AvalancheJS 5.2.0's
//! `evm.newExportTxFromBaseFee` and `evm.newImportTxFromBaseFee`: the same unsigned bytes, fee
//! and AVAX burned, at base fees in whole nAVAX per gas (AvalancheJS takes the base fee in
//! nAVAX; the node in wei, and rounds the fee up). Where AvalancheJS builds what the node
//! refuses, the wallet differs on purpose, each case with the node's rule.

use super::{AVAX, Case, NOW, Rng, avalanchejs, context, hex, keys, owners, owners_json, result};
use avalanche_rpc::codec::{Verify, atomic, avax, secp256k1fx};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::transact::{self, Context, Payer, c};
use avalanche_rpc::wire::{EvmAddress, Id, ShortId};
use serde_json::json;

const GWEI: u128 = 1_000_000_000;

fn key(i: u8) -> PrivateKey {
    PrivateKey::from_bytes(&[i; 32]).unwrap()
}

fn evm_hex(a: &EvmAddress) -> String {
    hex(a.as_bytes())
}

fn account(rng: &mut Rng, i: u8, balance: u128) -> c::Account {
    c::Account::of(&key(i).public_key(), balance, rng.below(1_000))
}

fn export_case(
    name: String,
    rng: &mut Rng,
    ctx: &Context,
    amount: u64,
    to: secp256k1fx::OutputOwners,
    base_gwei: u64,
    balance: u128,
) -> Case {
    let signer = 1 + rng.below(4) as u8;
    let from = account(rng, signer, balance);
    let destination = if rng.below(2) == 0 {
        ctx.x_chain_id
    } else {
        ctx.p_chain_id
    };
    let output = secp256k1fx::TransferOutput::new(amount, to.clone());
    let built = result(c::export_tx(
        ctx,
        &[from],
        destination,
        &[output],
        u128::from(base_gwei) * GWEI,
    ));
    Case {
        name,
        chain: "C",
        kind: "export",
        ctx: ctx.clone(),
        utxos: Vec::new(),
        payer: Payer::new(vec![from.signer], NOW),
        params: json!({
            "baseFee": base_gwei.to_string(),
            "amount": amount.to_string(),
            "destination": destination.to_string(),
            "fromEvm": evm_hex(&from.address),
            "to": owners_json(&to),
            "nonce": from.nonce.to_string(),
        }),
        built,
    }
}

fn utxo(rng: &mut Rng, asset: Id, amount: u64, o: secp256k1fx::OutputOwners) -> atomic::Utxo {
    atomic::Utxo::new(
        avax::UtxoId::new(rng.id(), rng.below(4) as u32),
        asset,
        secp256k1fx::TransferOutput::new(amount, o).into(),
    )
}

fn import_case(
    name: String,
    ctx: &Context,
    utxos: &[atomic::Utxo],
    from: Vec<ShortId>,
    source: Id,
    to: EvmAddress,
    base_gwei: u64,
) -> Case {
    let payer = Payer::new(from, NOW);
    let built = result(c::import_tx(
        ctx,
        utxos,
        &payer,
        source,
        to,
        u128::from(base_gwei) * GWEI,
    ));
    Case {
        name,
        chain: "C",
        kind: "import",
        ctx: ctx.clone(),
        utxos: utxos.iter().map(|u| u.to_bytes().unwrap()).collect(),
        payer,
        params: json!({
            "baseFee": base_gwei.to_string(),
            "source": source.to_string(),
            "toEvm": evm_hex(&to),
        }),
        built,
    }
}

const BASE_FEES: [u64; 6] = [1, 25, 25, 37, 100, 225];

/// Exports of one account to 1-of-1 and multisig owners, with and without a locktime, to
/// the X- and P-chain; imports of one to eight UTXOs, single and multisig, from either.
pub(super) fn cases() -> Vec<Case> {
    let k = keys();
    let mut rng = Rng(4242);
    let mut out = Vec::new();
    for i in 0..14 {
        let ctx = context(&mut rng, [1, 5, 12345][i % 3]);
        let amount = 1 + rng.below(100 * AVAX);
        let to = match i % 3 {
            0 => owners(&[k[rng.below(4) as usize]], 1, 0),
            1 => owners(&[k[0], k[2], k[3]], 2, 0),
            _ => owners(&[k[1], k[3]], 1, NOW + rng.below(10_000)),
        };
        let base = BASE_FEES[i % BASE_FEES.len()];
        let balance =
            u128::from(amount + AVAX + rng.below(AVAX)) * GWEI + u128::from(rng.below(1 << 30));
        out.push(export_case(
            format!("c export {i} ({base} nAVAX/gas)"),
            &mut rng,
            &ctx,
            amount,
            to,
            base,
            balance,
        ));
    }
    for i in 0..14 {
        let ctx = context(&mut rng, [1, 5, 12345][i % 3]);
        let n = 1 + rng.below(8);
        let multisig = i % 2 == 1;
        let utxos: Vec<atomic::Utxo> = (0..n)
            .map(|j| {
                let o = if multisig && j % 2 == 0 {
                    owners(&[k[0], k[1], k[2]], 2, 0)
                } else {
                    owners(&[k[rng.below(2) as usize]], 1, 0)
                };
                let amount = AVAX / 100 + rng.below(10 * AVAX);
                utxo(&mut rng, ctx.avax_asset_id, amount, o)
            })
            .collect();
        let source = if i % 3 == 0 {
            ctx.p_chain_id
        } else {
            ctx.x_chain_id
        };
        let to = key(1 + rng.below(4) as u8).evm_address();
        out.push(import_case(
            format!("c import {i} of {n} UTXO(s)"),
            &ctx,
            &utxos,
            k[..2].to_vec(),
            source,
            to,
            BASE_FEES[i % BASE_FEES.len()],
        ));
    }
    out
}

/// The node's refusal of unsigned atomic bytes, if any: the codec's rules, AVAX only (since
/// Banff), at least one input, and the AVAX burned covering the fee at the case's base fee.
fn node_refuses(c: &Case, bytes: &[u8]) -> Option<String> {
    let tx = atomic::UnsignedTx::from_bytes(bytes).ok()?;
    if let Err(e) = tx.verify() {
        return Some(e.to_string());
    }
    let avax = c.ctx.avax_asset_id;
    let base = c.params["baseFee"].as_str()?.parse::<u128>().ok()? * GWEI;
    let (consumed, produced) = match &tx {
        atomic::UnsignedTx::UnsignedImportTx(i) => {
            if i.imported_inputs.is_empty() {
                // graft/coreth/plugin/evm/atomic/import_tx.go:78, ErrNoImportInputs.
                return Some("no import inputs".into());
            }
            if i.imported_inputs.iter().any(|x| x.asset_id != avax)
                || i.outputs.iter().any(|o| o.asset_id != avax)
            {
                // import_tx.go:107 and :116, ErrImportNonAVAX{Output,Input}Banff.
                return Some("an asset other than AVAX imported since Banff".into());
            }
            let consumed: u64 = i
                .imported_inputs
                .iter()
                .map(|x| match &x.input {
                    atomic::TransferableIn::TransferInput(t) => t.amount,
                    _ => unreachable!("the atomic codec's one input type"),
                })
                .sum();
            (consumed, i.outputs.iter().map(|o| o.amount).sum::<u64>())
        }
        atomic::UnsignedTx::UnsignedExportTx(e) => (
            e.inputs.iter().map(|i| i.amount).sum::<u64>(),
            e.exported_outputs
                .iter()
                .map(|o| match &o.output {
                    atomic::TransferableOut::TransferOutput(t) => t.amount,
                    _ => unreachable!("the atomic codec's one output type"),
                })
                .sum(),
        ),
        _ => return Some("not an atomic transaction this test knows".into()),
    };
    let fee = c::fee(c::gas(&tx).ok()?, base).ok()?;
    let burned = consumed.checked_sub(produced)?;
    // graft/coreth/plugin/evm/atomic/tx.go:251.
    (burned < fee).then(|| format!("insufficient AVAX burned ({burned}) to cover the fee ({fee})"))
}

#[test]
fn every_c_case_builds_what_the_node_takes() {
    let cases = cases();
    assert!(cases.len() >= 20);
    let mut multisig = 0;
    for c in &cases {
        let (bytes, fee, burned) = c
            .built
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        assert_eq!(node_refuses(c, bytes), None, "{}", c.name);
        assert_eq!(fee, burned, "{}: all the burn is fee", c.name);
        let tx = atomic::UnsignedTx::from_bytes(bytes).unwrap();
        let base = c.params["baseFee"]
            .as_str()
            .unwrap()
            .parse::<u64>()
            .unwrap();
        assert_eq!(*fee, c::gas(&tx).unwrap() * base, "{}", c.name);
        if let atomic::UnsignedTx::UnsignedImportTx(i) = &tx {
            multisig += usize::from(i.imported_inputs.iter().any(|x| match &x.input {
                atomic::TransferableIn::TransferInput(t) => t.input.signature_indices.len() > 1,
                _ => false,
            }));
        }
    }
    assert!(multisig >= 3, "{multisig} imports with a multisig input");
}

#[test]
#[ignore = "needs Node.js and `npm ci` in tests/wallets; run by tests/wallets/run.sh"]
fn avalanchejs_builds_the_same_c_bytes() {
    let cases = cases();
    let theirs = avalanchejs(&cases);
    let mut report = Vec::new();
    for (c, t) in cases.iter().zip(&theirs) {
        let (bytes, fee, burned) = c.built.as_ref().unwrap();
        let mine =
            json!({"unsigned": hex(bytes), "fee": fee.to_string(), "burned": burned.to_string()});
        let same = mine == *t;
        println!("{} {}", if same { "same" } else { "DIFF" }, c.name);
        if !same {
            report.push(format!("{}:\n  rust: {mine}\n  avalanchejs: {t}", c.name));
        }
    }
    println!(
        "{} of {} C cases the same",
        cases.len() - report.len(),
        cases.len()
    );
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// Requests where AvalancheJS 5.2.0 builds what the node refuses, and the wallet differs on
/// purpose; each with the node's rule.
fn known_differences() -> Vec<(Case, &'static str)> {
    let k = keys();
    let mut rng = Rng(77);
    let ctx = context(&mut rng, 5);
    let to = key(2).evm_address();
    let mut out = Vec::new();

    // A UTXO the keys cannot spend, met first: AvalancheJS takes the fee from it, then skips
    // it, and credits the whole of the one it can spend.
    let utxos = vec![
        utxo(&mut rng, ctx.avax_asset_id, 3 * AVAX, owners(&[k[3]], 1, 0)),
        utxo(&mut rng, ctx.avax_asset_id, 2 * AVAX, owners(&[k[0]], 1, 0)),
    ];
    out.push((
        import_case(
            "c import, a UTXO of other keys met first".into(),
            &ctx,
            &utxos,
            vec![k[0]],
            ctx.x_chain_id,
            to,
            25,
        ),
        "the AVAX burned must cover the fee at the base fee (graft/coreth/plugin/evm/atomic/tx.go:251, \
         `BlockFeeContribution`: \"insufficient AVAX burned\"); AvalancheJS counts the fee as paid \
         by a UTXO before it checks the keys can spend it (`newImportTx`), so it burns nothing",
    ));

    // A UTXO whose locktime has passed: AvalancheJS matches owners at time 0, so it never
    // spends a UTXO that had a locktime.
    let utxos = vec![utxo(
        &mut rng,
        ctx.avax_asset_id,
        2 * AVAX,
        owners(&[k[0]], 1, NOW - 100),
    )];
    out.push((
        import_case(
            "c import of a UTXO whose locktime has passed".into(),
            &ctx,
            &utxos,
            vec![k[0]],
            ctx.p_chain_id,
            to,
            25,
        ),
        "an import needs at least one input (graft/coreth/plugin/evm/atomic/import_tx.go:78, \
         ErrNoImportInputs); the node spends a UTXO once its locktime has passed \
         (vms/secp256k1fx/keychain.go, `Spend` at the current time), AvalancheJS's `matchOwners` \
         is given time 0 and skips it, leaving nothing to import",
    ));

    // An asset other than AVAX beside AVAX.
    let utxos = vec![
        utxo(&mut rng, ctx.avax_asset_id, 2 * AVAX, owners(&[k[0]], 1, 0)),
        {
            let other = rng.id();
            utxo(&mut rng, other, 5_000, owners(&[k[0]], 1, 0))
        },
    ];
    out.push((
        import_case(
            "c import beside an asset other than AVAX".into(),
            &ctx,
            &utxos,
            vec![k[0]],
            ctx.x_chain_id,
            to,
            25,
        ),
        "since Banff the C-chain imports AVAX only (graft/coreth/plugin/evm/atomic/import_tx.go:107 \
         and :116, ErrImportNonAVAXOutputBanff / ErrImportNonAVAXInputBanff); AvalancheJS imports \
         every asset, the wallet leaves the other asset in shared memory",
    ));
    out
}

#[test]
fn where_the_c_wallet_differs_on_purpose_it_builds_what_the_node_takes() {
    for (c, _) in known_differences() {
        let (bytes, ..) = c
            .built
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        assert_eq!(node_refuses(&c, bytes), None, "{}", c.name);
    }
}

#[test]
#[ignore = "needs Node.js and `npm ci` in tests/wallets; run by tests/wallets/run.sh"]
fn where_they_differ_avalanchejs_builds_c_transactions_the_node_refuses() {
    let known = known_differences();
    let cases: Vec<Case> = known.iter().map(|(c, _)| c.clone()).collect();
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
        let refusal = node_refuses(c, &bytes)
            .unwrap_or_else(|| panic!("{}: AvalancheJS's bytes pass", c.name));
        println!(
            "{}: AvalancheJS's bytes are refused: {refusal}\n  the node's rule: {why}",
            c.name
        );
    }
}

#[test]
fn refusals_name_what_is_wrong() {
    let k = keys();
    let mut rng = Rng(5);
    let ctx = context(&mut rng, 5);
    let rich = c::Account::of(&key(1).public_key(), 100 * u128::from(AVAX) * GWEI, 0);
    let o = secp256k1fx::TransferOutput::new(AVAX, owners(&[k[0]], 1, 0));
    let err = |r: Result<c::Unsigned, transact::BuildError>| r.unwrap_err().to_string();
    let e = err(c::export_tx(
        &ctx,
        &[rich],
        ctx.c_chain_id,
        std::slice::from_ref(&o),
        25 * GWEI,
    ));
    assert!(
        e.contains("`destination`") && e.contains("C-chain itself"),
        "{e}"
    );
    let e = err(c::export_tx(
        &ctx,
        &[rich],
        rng.id(),
        std::slice::from_ref(&o),
        25 * GWEI,
    ));
    assert!(e.contains("`destination`") && e.contains("neither"), "{e}");
    let e = err(c::export_tx(
        &ctx,
        &[rich, rich],
        ctx.x_chain_id,
        std::slice::from_ref(&o),
        25 * GWEI,
    ));
    assert!(e.contains("`accounts[1].address`"), "{e}");
    let zero = secp256k1fx::TransferOutput::new(0, owners(&[k[0]], 1, 0));
    let e = err(c::export_tx(
        &ctx,
        &[rich],
        ctx.x_chain_id,
        &[zero],
        25 * GWEI,
    ));
    assert!(e.contains("`outputs[0].amount`"), "{e}");
    // Just short: the amount plus the fee, less one nAVAX.
    let u = c::export_tx(
        &ctx,
        &[rich],
        ctx.x_chain_id,
        std::slice::from_ref(&o),
        25 * GWEI,
    )
    .unwrap();
    let poor = c::Account {
        balance: u128::from(AVAX + u.fee() - 1) * GWEI,
        ..rich
    };
    let e = err(c::export_tx(
        &ctx,
        &[poor],
        ctx.x_chain_id,
        std::slice::from_ref(&o),
        25 * GWEI,
    ));
    assert!(
        e.contains("insufficient funds") && e.contains(&(AVAX + u.fee()).to_string()),
        "{e}"
    );
    let exact = c::Account {
        balance: u128::from(AVAX + u.fee()) * GWEI,
        ..rich
    };
    assert!(c::export_tx(&ctx, &[exact], ctx.x_chain_id, &[o], 25 * GWEI).is_ok());
    let e = err(c::export_tx(
        &ctx,
        &[rich],
        ctx.x_chain_id,
        &[secp256k1fx::TransferOutput::new(1, owners(&[k[0]], 1, 0))],
        u128::MAX,
    ));
    assert!(e.contains("`base_fee`"), "{e}");

    let utxos = vec![utxo(
        &mut rng,
        ctx.avax_asset_id,
        1_000,
        owners(&[k[0]], 1, 0),
    )];
    let payer = Payer::new(vec![k[0]], NOW);
    let to = key(1).evm_address();
    let e = err(c::import_tx(
        &ctx,
        &utxos,
        &payer,
        ctx.x_chain_id,
        to,
        25 * GWEI,
    ));
    assert!(
        e.contains("insufficient funds") && e.contains("1000"),
        "{e}"
    );
    let e = err(c::import_tx(
        &ctx,
        &utxos,
        &Payer::new(vec![k[3]], NOW),
        ctx.x_chain_id,
        to,
        25 * GWEI,
    ));
    assert!(e.contains("nothing to import"), "{e}");
    let e = err(c::import_tx(
        &ctx,
        &utxos,
        &payer.clone().with_memo(*b"hi"),
        ctx.x_chain_id,
        to,
        25 * GWEI,
    ));
    assert!(e.contains("`memo`"), "{e}");
    let e = err(c::import_tx(
        &ctx,
        &utxos,
        &payer,
        ctx.c_chain_id,
        to,
        25 * GWEI,
    ));
    assert!(e.contains("`source`"), "{e}");
}

/// Several accounts: each a whole input in the order given, one too poor to pay for its own
/// input skipped, the inputs sorted by address, every account's key asked to sign.
#[test]
fn an_export_takes_accounts_as_the_node_does() {
    let mut rng = Rng(8);
    let ctx = context(&mut rng, 5);
    let k = keys();
    let base = 25 * GWEI;
    // Adding an input costs (68 + 1,000) gas × 25 nAVAX.
    let dust = c::Account::of(&key(3).public_key(), 1_068 * 25 * GWEI, 7);
    let a = c::Account::of(&key(1).public_key(), u128::from(AVAX) * GWEI, 1);
    let b = c::Account::of(&key(2).public_key(), u128::from(5 * AVAX) * GWEI + 3, 2);
    let o = secp256k1fx::TransferOutput::new(2 * AVAX, owners(&[k[0]], 1, 0));
    let u = c::export_tx(&ctx, &[dust, a, b], ctx.p_chain_id, &[o], base).unwrap();
    let atomic::UnsignedTx::UnsignedExportTx(e) = u.tx() else {
        panic!()
    };
    assert_eq!(e.inputs.len(), 2, "the dust account is skipped");
    let mut want = [(a.address, AVAX, 1), (b.address, AVAX + u.fee(), 2)];
    want.sort();
    let got: Vec<_> = e
        .inputs
        .iter()
        .map(|i| (i.address, i.amount, i.nonce))
        .collect();
    assert_eq!(got, want);
    assert_eq!(u.burned(), u.fee());
    assert_eq!(u.fee(), c::gas(u.tx()).unwrap() * 25);
    let signers: Vec<ShortId> = u.signers().iter().map(|s| s.addresses[0]).collect();
    let mut expected = [(a.address, a.signer), (b.address, b.signer)];
    expected.sort();
    assert_eq!(signers, expected.map(|(_, s)| s));
    assert!(e.verify().is_ok());
}

/// A base fee that is not a whole nAVAX per gas: the fee is rounded up, as the node does.
#[test]
fn the_fee_rounds_up_to_the_nano_avax() {
    assert_eq!(c::fee(11_000, 1).unwrap(), 1);
    assert_eq!(c::fee(11_000, 25 * GWEI).unwrap(), 275_000);
    assert_eq!(c::fee(3, 333_333_334).unwrap(), 2);
    assert_eq!(c::fee(3, 333_333_333).unwrap(), 1);
}
