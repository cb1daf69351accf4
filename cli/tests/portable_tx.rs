//! `avax-rpc wallet … --out`, `sign`, `combine`, `show` and `issue`: the portable
//! partially-signed transaction on the command line (issue 41). The refusals run offline on
//! files built here; the multisig round trips (a 2-of-3 X send, a P-chain validator, a Subnet
//! authorization: built with a node, signed in two processes without network access, one
//! through `openssl pkeyutl`'s DER, combined, issued) need a devnet:
//! `tests/with-devnet 29711 portable cargo test -p avax-rpc --test portable_tx -- --ignored`.

mod common;

use common::{Out, Scratch};

use std::process::Command;

use avalanche_rpc::codec::{avax, avm, platform, secp256k1fx};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::transact::{
    self, Context, FeeConfig, FeeState, Keychain, PartiallySigned, Payer, StakingRules, p, x,
};
use avalanche_rpc::wire::{Address, Id, ShortId};
use serde_json::{Value, json};

const AVAX: u64 = 1_000_000_000;
const NOW: u64 = 1_750_000_000;

/// Whether `unshare -rn` gives a process a network namespace of its own (no interface but
/// loopback, which is down): the signing processes run in one where it does.
fn can_isolate() -> bool {
    Command::new("unshare")
        .args(["-rn", "true"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// Runs the tool (without network access when `offline` and the machine allows it).
fn avax_rpc(args: &[&str], offline: bool) -> Out {
    let bin = env!("CARGO_BIN_EXE_avax-rpc");
    let mut cmd = if offline && can_isolate() {
        let mut c = Command::new("unshare");
        c.args(["-rn", bin]);
        c
    } else {
        Command::new(bin)
    };
    Out::from(
        cmd.args(args)
            .env_remove("AVAX_PRIVATE_KEY")
            .output()
            .expect("the binary runs"),
    )
}

fn ok(args: &[&str], offline: bool) -> Out {
    let r = avax_rpc(args, offline);
    assert_eq!(
        r.code,
        Some(0),
        "avax-rpc {}\nstdout: {}\nstderr: {}",
        args.join(" "),
        r.stdout,
        r.stderr
    );
    r
}

fn fails(args: &[&str]) -> String {
    let r = avax_rpc(args, false);
    assert_eq!(
        r.code,
        Some(1),
        "avax-rpc {}\nstdout: {}\nstderr: {}",
        args.join(" "),
        r.stdout,
        r.stderr
    );
    r.stderr
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The key as OpenSSL reads it (SEC1 `ECPrivateKey` DER on secp256k1), for `openssl pkeyutl`.
fn sec1_der(secret: &[u8; 32]) -> Vec<u8> {
    let mut der = vec![0x30, 0x2e, 0x02, 0x01, 0x01, 0x04, 0x20];
    der.extend_from_slice(secret);
    der.extend_from_slice(&[0xa0, 0x07, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x0a]);
    der
}

/// A signer command: OpenSSL signs the digest with the key in `der` and answers DER.
fn openssl_signer(der: &str) -> String {
    format!(
        "printf %s \"$AVAX_SIGN_DIGEST\" | xxd -r -p | openssl pkeyutl -sign -keyform DER -inkey '{der}'"
    )
}

/// The same, reading the digest from its first argument and answering hex.
fn openssl_signer_hex(der: &str) -> String {
    format!(
        "test -n \"$2\" && printf %s \"$1\" | xxd -r -p | openssl pkeyutl -sign -keyform DER -inkey '{der}' | xxd -p"
    )
}

fn have_openssl() -> bool {
    ["openssl", "xxd"].iter().all(|p| {
        Command::new(p)
            .arg("-h")
            .output()
            .map(|_| true)
            .unwrap_or(false)
    })
}

#[test]
fn sign_combine_and_show_have_no_node_option() {
    for sub in ["sign", "combine", "show"] {
        let help = ok(&["wallet", sub, "--help"], false).stdout;
        assert!(
            !help.contains("--url"),
            "wallet {sub} has a node option:\n{help}"
        );
        let r = avax_rpc(
            &["wallet", sub, "x.json", "--url", "http://127.0.0.1:9650"],
            false,
        );
        assert_eq!(r.code, Some(2), "wallet {sub} takes --url: {}", r.stderr);
    }
    for sub in ["send", "stake", "create-chain", "issue"] {
        let help = ok(&["wallet", sub, "--help"], false).stdout;
        assert!(help.contains("--url"), "wallet {sub}:\n{help}");
    }
}

// ---- offline: files built here ----

fn secret(i: u8) -> [u8; 32] {
    [i; 32]
}

fn key(i: u8) -> PrivateKey {
    PrivateKey::from_bytes(&secret(i)).unwrap()
}

fn ctx() -> Context {
    Context {
        network_id: 12345,
        hrp: "local".into(),
        x_chain_id: Id::new([1; 32]),
        p_chain_id: Id::ZERO,
        c_chain_id: Id::new([2; 32]),
        avax_asset_id: Id::new([3; 32]),
        x_tx_fee: 1_000_000,
        x_create_asset_tx_fee: 10_000_000,
        p_fee_config: FeeConfig::ETNA,
        p_fee_state: FeeState {
            capacity: 1_000_000,
            excess: 0,
            price: 1,
        },
        validator_fee_config: Default::default(),
        staking: StakingRules::of_network(12345),
    }
}

/// A 2-of-3 (keys 1, 2, 3) X-chain send of 2 AVAX to key 7 from a 5 AVAX UTXO.
fn x_file() -> PartiallySigned {
    let c = ctx();
    let from: Vec<ShortId> = (1..=3).map(|i| key(i).address()).collect();
    let utxos = vec![avm::Utxo::new(
        avax::UtxoId::new(Id::new([9; 32]), 1),
        c.avax_asset_id,
        secp256k1fx::TransferOutput::new(5 * AVAX, transact::owners("o", &from, 2, 0).unwrap())
            .into(),
    )];
    let to = transact::owners("to", &[key(7).address()], 1, 0).unwrap();
    let u = x::base_tx(
        &c,
        &utxos,
        &Payer::new(from, NOW),
        &[x::output(c.avax_asset_id, 2 * AVAX, to)],
    )
    .unwrap();
    PartiallySigned::x(&c, &u, &utxos).unwrap()
}

fn x_address(k: &PrivateKey) -> String {
    Address::new(Some("X"), "local", *k.address().as_bytes())
        .unwrap()
        .to_string()
}

/// The file with `edit` applied, written; `wallet show` must refuse it naming `field`.
fn refused(dir: &Scratch, field: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(&x_file().to_json()).unwrap();
    edit(&mut v);
    let path = dir.write(&format!("{field}.json"), v.to_string());
    let err = fails(&["wallet", "show", &path]);
    assert!(
        err.contains(&format!("{path}: {field}: ")),
        "{field}: {err}"
    );
    err
}

#[test]
fn show_refuses_a_tampered_amount_naming_the_field() {
    let dir = Scratch::new("amount");
    let err = refused(&dir, "slots[0].utxo.amount", |v| {
        v["slots"][0]["utxo"]["amount"] = json!("4000000000")
    });
    assert!(
        err.contains("the file says 4000000000 but the UTXO's bytes say 5000000000"),
        "{err}"
    );
}

#[test]
fn show_refuses_a_tampered_owner_naming_the_field() {
    let dir = Scratch::new("owner");
    let mallory = x_address(&key(9));
    let m = mallory.clone();
    let err = refused(&dir, "slots[0].utxo.addresses", move |v| {
        v["slots"][0]["utxo"]["addresses"][0] = json!(m)
    });
    assert!(err.contains(&mallory), "{err}");
    refused(&dir, "slots[0].signatures[1].address", |v| {
        v["slots"][0]["signatures"][1]["address"] = json!(mallory)
    });
    refused(&dir, "slots[0].utxo.threshold", |v| {
        v["slots"][0]["utxo"]["threshold"] = json!(1)
    });
}

#[test]
fn show_refuses_a_tampered_fee_or_burn_naming_the_field() {
    let dir = Scratch::new("fee");
    let err = refused(&dir, "fee", |v| v["fee"] = json!("1000001"));
    assert!(err.contains("burn only 1000000 nAVAX"), "{err}");
    let err = refused(&dir, "burned", |v| v["burned"] = json!("999999"));
    assert!(
        err.contains("the file says 999999 but the transaction's bytes burn 1000000"),
        "{err}"
    );
}

#[test]
fn show_refuses_tampered_transaction_bytes_naming_the_field() {
    let dir = Scratch::new("bytes");
    // Cut short: no transaction.
    refused(&dir, "unsignedTx", |v| {
        let s = v["unsignedTx"].as_str().unwrap().to_string();
        v["unsignedTx"] = json!(s[..s.len() - 8]);
    });
    // The input's amount raised in the bytes (5 AVAX, 0x12a05f200, to 0x12a05f201): the
    // UTXO holds less than the input spends.
    let err = refused(&dir, "unsignedTx", |v| {
        let s = v["unsignedTx"].as_str().unwrap().to_string();
        assert_eq!(s.matches("000000012a05f200").count(), 1, "{s}");
        v["unsignedTx"] = json!(s.replace("000000012a05f200", "000000012a05f201"));
    });
    assert!(
        err.contains("input 0 spends 5000000001 but its UTXO holds 5000000000"),
        "{err}"
    );
}

#[test]
fn show_refuses_a_wrong_network_and_a_wrong_version_naming_the_field() {
    let dir = Scratch::new("network");
    let err = refused(&dir, "networkID", |v| v["networkID"] = json!(1));
    assert!(
        err.contains("the file says 1 but the transaction's bytes say 12345"),
        "{err}"
    );
    let err = refused(&dir, "version", |v| v["version"] = json!(2));
    assert!(err.contains("knows version 1 only"), "{err}");
    refused(&dir, "format", |v| v["format"] = json!("psbt"));
}

#[test]
fn show_refuses_a_signature_that_does_not_recover_to_its_slots_address() {
    let dir = Scratch::new("signature");
    let f = x_file();
    let digest = *f.digest().as_bytes();
    let err = refused(&dir, "slots[0].signatures[0].signature", |v| {
        v["slots"][0]["signatures"][0]["signature"] =
            json!(format!("0x{}", hex(&key(9).sign_hash(&digest))))
    });
    assert!(
        err.contains(&format!("recovers to {}", x_address(&key(9)))),
        "{err}"
    );
}

#[test]
fn signed_in_two_processes_without_network_one_through_openssl_combined_and_shown() {
    if !have_openssl() {
        // CI installs both (.ci/run); elsewhere the rest of the file still runs.
        assert!(
            std::env::var_os("CI").is_none(),
            "openssl and xxd are needed for the DER signer"
        );
        eprintln!("skipped: no openssl or xxd on this machine (apt-get install openssl xxd)");
        return;
    }
    let dir = Scratch::new("offline");
    let f = x_file();
    let tx = dir.write("tx.json", f.to_json());
    let first = f.file().slots[0].signatures[0].address.payload();
    let second = f.file().slots[0].signatures[1].address.payload();
    let holder = |p: [u8; 20]| {
        (1..=3)
            .find(|&i| key(i).address().as_bytes() == &p)
            .unwrap()
    };
    let (a, b) = (holder(first), holder(second));
    let key_a = dir.write("a.txt", hex(&secret(a)));
    let der_b = dir.write("b.der", sec1_der(&secret(b)));

    // Issuing before it is signed is refused, naming the slots.
    let err = fails(&["wallet", "issue", &tx, "--url", "http://127.0.0.1:29799"]);
    assert!(
        err.contains("slots: 2 signature(s) missing: slots[0].signatures[0]")
            && err.contains("slots[0].signatures[1]"),
        "{err}"
    );

    let signed_a = dir.path("a.json");
    let r = ok(
        &[
            "wallet",
            "sign",
            &tx,
            "--out",
            &signed_a,
            "--key-file",
            &key_a,
        ],
        true,
    );
    assert!(r.stderr.contains("1 signature(s) missing"), "{}", r.stderr);
    let signed_b = dir.path("b.json");
    let address_b = x_address(&key(b));
    let command = openssl_signer(&der_b);
    ok(
        &[
            "wallet",
            "sign",
            &tx,
            "--out",
            &signed_b,
            "--signer-command",
            &command,
            "--signer-address",
            &address_b,
        ],
        true,
    );
    // A signer command for an address with no slot signs nothing.
    let r = avax_rpc(
        &[
            "wallet",
            "sign",
            &tx,
            "--out",
            &dir.path("none.json"),
            "--signer-command",
            &command,
            "--signer-address",
            &x_address(&key(9)),
        ],
        true,
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(
        r.stderr.contains("no missing signature is for these keys"),
        "{}",
        r.stderr
    );
    // A signer command answering for the wrong key is refused.
    let der_other = dir.write("other.der", sec1_der(&secret(9)));
    let r = avax_rpc(
        &[
            "wallet",
            "sign",
            &tx,
            "--out",
            &dir.path("wrong.json"),
            "--signer-command",
            &openssl_signer(&der_other),
            "--signer-address",
            &address_b,
        ],
        true,
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains(&address_b), "{}", r.stderr);

    let full = dir.path("full.json");
    ok(
        &["wallet", "combine", &signed_a, &signed_b, "--out", &full],
        true,
    );
    let back = PartiallySigned::from_json(&std::fs::read_to_string(&full).unwrap()).unwrap();
    assert!(back.missing().is_empty());
    let signed = avm::Tx::from_bytes(&back.signed_bytes().unwrap()).unwrap();
    assert_eq!(signed.credentials.len(), 1);

    let shown = ok(&["wallet", "show", &full], true).stdout;
    for part in [
        "X-chain BaseTx on network 12345 (local)",
        &format!(
            "output: 2 AVAX (2000000000 nAVAX) to 1 of [{}]",
            x_address(&key(7))
        ),
        "slots[0]: 5 AVAX (5000000000 nAVAX) from UTXO",
        "fee: 0.001 AVAX (1000000 nAVAX)",
        "burned: 0.001 AVAX (1000000 nAVAX)",
        "complete: ready to issue",
    ] {
        assert!(shown.contains(part), "no `{part}` in\n{shown}");
    }
    let partly = ok(&["wallet", "show", &signed_a], true).stdout;
    assert!(
        partly.contains(" signed\n") && partly.contains(" missing\n"),
        "{partly}"
    );
    assert!(partly.contains("1 signature(s) missing"), "{partly}");

    // Another transaction's file is not combined.
    let c = ctx();
    let from: Vec<ShortId> = (1..=3).map(|i| key(i).address()).collect();
    let utxos = vec![platform::Utxo::new(
        avax::UtxoId::new(Id::new([8; 32]), 0),
        c.avax_asset_id,
        secp256k1fx::TransferOutput::new(5 * AVAX, transact::owners("o", &from, 2, 0).unwrap())
            .into(),
    )];
    let to = transact::owners("to", &[key(7).address()], 1, 0).unwrap();
    let u = p::base_tx(
        &c,
        &utxos,
        &Payer::new(from, NOW),
        &[p::output(c.avax_asset_id, AVAX, to)],
    )
    .unwrap();
    let other = dir.write(
        "other.json",
        PartiallySigned::p(&c, &u, &utxos, None).unwrap().to_json(),
    );
    let err = fails(&["wallet", "combine", &signed_a, &other]);
    assert!(
        err.contains("blockchainID: the files are for different chains"),
        "{err}"
    );
}

// ---- with a devnet ----

/// 32 bytes that differ on every run.
fn fresh(salt: u64) -> [u8; 32] {
    let mut x = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        ^ (u64::from(std::process::id()) << 32)
        ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        | 1;
    let mut out = [0u8; 32];
    for chunk in out.chunks_mut(8) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        chunk.copy_from_slice(&x.wrapping_mul(0x2545_f491_4f6c_dd1d).to_be_bytes());
    }
    out
}

const EWOQ: &str = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";

/// The AVAX of every UTXO `address` has a part in on `chain` (from getUTXOs).
async fn avax_of(
    node: &avalanche_rpc::rpc::Node,
    ctx: &Context,
    chain: char,
    address: ShortId,
) -> u64 {
    match chain {
        'X' => transact::x::utxos(node, ctx, &[address], None)
            .await
            .unwrap()
            .iter()
            .filter(|u| u.asset_id == ctx.avax_asset_id)
            .map(|u| match &u.output {
                avm::UtxoOutput::Secp256k1fxTransferOutput(t) => t.amount,
                _ => 0,
            })
            .sum(),
        _ => transact::p::utxos(node, ctx, &[address], None)
            .await
            .unwrap()
            .iter()
            .map(|u| match &u.output {
                platform::UtxoOutput::TransferOutput(t) => t.amount,
                platform::UtxoOutput::LockOut(l) => match &l.output {
                    platform::LockedOut::TransferOutput(t) => t.amount,
                    _ => 0,
                },
                _ => 0,
            })
            .sum(),
    }
}

/// Builds with `build_args` (`--out` added), signs in two processes without network (key
/// `a` from a file, key `b` through `openssl pkeyutl`), combines, issues and waits; returns
/// the combined file.
fn round_trip(
    dir: &Scratch,
    name: &str,
    build_args: &[&str],
    keys: (&[u8; 32], &[u8; 32]),
    chain: &str,
) -> PartiallySigned {
    let tx = dir.path(&format!("{name}.json"));
    let mut args: Vec<&str> = build_args.to_vec();
    args.extend(["--out", &tx]);
    ok(&args, false);
    let key_a = dir.write(&format!("{name}-a.txt"), hex(keys.0));
    let der_b = dir.write(&format!("{name}-b.der"), sec1_der(keys.1));
    let b = PrivateKey::from_bytes(keys.1).unwrap();
    let address_b = Address::new(Some(chain), "local", *b.address().as_bytes())
        .unwrap()
        .to_string();
    let (sa, sb, full) = (
        dir.path(&format!("{name}-a.json")),
        dir.path(&format!("{name}-b.json")),
        dir.path(&format!("{name}-full.json")),
    );
    ok(
        &["wallet", "sign", &tx, "--out", &sa, "--key-file", &key_a],
        true,
    );
    let command = openssl_signer_hex(&der_b);
    ok(
        &[
            "wallet",
            "sign",
            &tx,
            "--out",
            &sb,
            "--signer-command",
            &command,
            "--signer-address",
            &address_b,
        ],
        true,
    );
    ok(&["wallet", "combine", &sa, &sb, "--out", &full], true);
    let shown = ok(&["wallet", "show", &full], true).stdout;
    assert!(shown.contains("complete: ready to issue"), "{shown}");
    eprintln!("{shown}");
    let url = std::env::var("DEVNET_URL").unwrap();
    let out = ok(&["wallet", "issue", &full, "--url", &url, "--wait"], false).stdout;
    let word = if chain == "X" {
        "accepted"
    } else {
        "committed"
    };
    assert!(
        out.contains(&format!("{word} on the {chain}-chain")),
        "{out}"
    );
    PartiallySigned::from_json(&std::fs::read_to_string(&full).unwrap()).unwrap()
}

/// Done-when 2 of issue 41.
#[test]
#[ignore = "needs a devnet: tests/with-devnet 29711 portable cargo test -p avax-rpc --test portable_tx -- --ignored"]
fn multisig_x_send_p_validator_and_subnet_authorization_signed_apart_and_issued() {
    assert!(
        have_openssl(),
        "openssl and xxd are needed for the DER signer"
    );
    let url = std::env::var("DEVNET_URL").expect("DEVNET_URL is not set");
    let node = avalanche_rpc::rpc::Node::http(&url).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let ctx = rt.block_on(Context::from_node(&node)).unwrap();
    let ewoq = Keychain::parse(EWOQ).unwrap();
    let dir = Scratch::new("devnet");

    // Three fresh keys; the UTXOs are owned 2 of 3.
    let secrets: Vec<[u8; 32]> = (0..3).map(fresh).collect();
    let keys: Vec<PrivateKey> = secrets
        .iter()
        .map(|s| PrivateKey::from_bytes(s).unwrap())
        .collect();
    let addrs: Vec<ShortId> = keys.iter().map(|k| k.address()).collect();
    let owners = transact::owners("owners", &addrs, 2, 0).unwrap();
    // Keys a and b (the first two in the owner's order) sign.
    let by = |a: &ShortId| secrets[addrs.iter().position(|x| x == a).unwrap()];
    let (sa, sb) = (by(&owners.addresses[0]), by(&owners.addresses[1]));
    let (a, b) = (owners.addresses[0], owners.addresses[1]);
    let text = |chain: &str, a: &ShortId| {
        Address::new(Some(chain), "local", *a.as_bytes())
            .unwrap()
            .to_string()
    };
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    };
    let stake = ctx.staking.min_validator_stake;

    // The ewoq key funds them: 10 AVAX on X, the minimum stake and 10 AVAX on P, and makes a
    // Subnet they own.
    rt.block_on(async {
        let payer = Payer::of(&ewoq, now());
        let utxos = transact::x::utxos(&node, &ctx, &ewoq.addresses(), None)
            .await
            .unwrap();
        let mut u = x::base_tx(
            &ctx,
            &utxos,
            &payer,
            &[x::output(ctx.avax_asset_id, 10 * AVAX, owners.clone())],
        )
        .unwrap();
        u.sign(&ewoq).unwrap();
        transact::x::issue(&node, &u.signed().unwrap())
            .await
            .unwrap()
            .wait_for(std::time::Duration::from_secs(30))
            .await
            .unwrap();
        let utxos = transact::p::utxos(&node, &ctx, &ewoq.addresses(), None)
            .await
            .unwrap();
        let mut u = p::base_tx(
            &ctx,
            &utxos,
            &payer,
            &[p::output(
                ctx.avax_asset_id,
                stake + 10 * AVAX,
                owners.clone(),
            )],
        )
        .unwrap();
        u.sign(&ewoq).unwrap();
        transact::p::issue(&node, &u.signed().unwrap())
            .await
            .unwrap()
            .wait_for(std::time::Duration::from_secs(30))
            .await
            .unwrap();
    });
    let subnet = rt.block_on(async {
        let utxos = transact::p::utxos(&node, &ctx, &ewoq.addresses(), None)
            .await
            .unwrap();
        let mut u = p::create_subnet_tx(&ctx, &utxos, &Payer::of(&ewoq, now()), &owners).unwrap();
        u.sign(&ewoq).unwrap();
        transact::p::issue(&node, &u.signed().unwrap())
            .await
            .unwrap()
            .wait_for(std::time::Duration::from_secs(30))
            .await
            .unwrap()
    });
    assert_eq!(rt.block_on(avax_of(&node, &ctx, 'X', a)), 10 * AVAX);
    assert_eq!(rt.block_on(avax_of(&node, &ctx, 'P', a)), stake + 10 * AVAX);

    // 1. A 2-of-3 X send of 1.5 AVAX to a fresh recipient.
    let recipient = PrivateKey::from_bytes(&fresh(7)).unwrap().address();
    let (xa, xb) = (text("X", &a), text("X", &b));
    let to = text("X", &recipient);
    let f = round_trip(
        &dir,
        "send",
        &[
            "wallet", "send", "--url", &url, "--chain", "X", "--to", &to, "--amount", "1.5AVAX",
            "--from", &xa, "--from", &xb,
        ],
        (&sa, &sb),
        "X",
    );
    assert_eq!(f.file().slots.len(), 1);
    assert_eq!(f.file().slots[0].utxo.as_ref().unwrap().threshold, 2);
    let burned = f.file().burned.0;
    assert_eq!(burned, ctx.x_tx_fee);
    assert_eq!(
        rt.block_on(avax_of(&node, &ctx, 'X', recipient)),
        1_500_000_000
    );
    // The change (to the payers) is what is left.
    assert_eq!(
        rt.block_on(avax_of(&node, &ctx, 'X', a)),
        10 * AVAX - 1_500_000_000 - burned
    );

    // 2. A Primary Network validator, paid and staked 2 of 3.
    let node_id = avalanche_rpc::wire::NodeId::new(<[u8; 20]>::try_from(&fresh(8)[..20]).unwrap());
    let node_id_text = node_id.to_string();
    let weight = format!("{stake}nAVAX");
    let (pa, pb) = (text("P", &a), text("P", &b));
    let bls = dir.path("bls.key");
    let f = round_trip(
        &dir,
        "stake",
        &[
            "wallet",
            "stake",
            "--url",
            &url,
            "--node-id",
            &node_id_text,
            "--weight",
            &weight,
            "--end",
            "20d",
            "--save-bls-key",
            &bls,
            "--from",
            &pa,
            "--from",
            &pb,
        ],
        (&sa, &sb),
        "P",
    );
    assert_eq!(f.kind(), "AddPermissionlessValidatorTx");
    let staked: u64 = f
        .flows()
        .iter()
        .filter(|x| x.kind == "staked")
        .map(|x| x.amount)
        .sum();
    assert_eq!(staked, stake);
    let burned_stake = f.file().burned.0;
    use avalanche_rpc::platform::{GetCurrentValidatorsParams, PlatformClient};
    let current =
        rt.block_on(node.platform().get_current_validators(
            GetCurrentValidatorsParams::new().with_node_ids(vec![node_id]),
        ))
        .unwrap()
        .validators
        .into_iter()
        .find(|v| v.node_id == node_id)
        .expect("the new validator is current");
    assert_eq!(current.weight.0, stake);
    let after_stake = stake + 10 * AVAX - stake - burned_stake;
    assert_eq!(rt.block_on(avax_of(&node, &ctx, 'P', a)), after_stake);

    // 3. A Subnet authorization: a chain on the Subnet owned 2 of 3, paid by the same keys.
    let subnet_text = subnet.to_string();
    let vm = Id::new(fresh(9)).to_string();
    let f = round_trip(
        &dir,
        "chain",
        &[
            "wallet",
            "create-chain",
            "--url",
            &url,
            "--subnet",
            &subnet_text,
            "--name",
            "portable",
            "--vm-id",
            &vm,
            "--from",
            &pa,
            "--from",
            &pb,
        ],
        (&sa, &sb),
        "P",
    );
    assert_eq!(f.kind(), "CreateChainTx");
    let auth = f
        .file()
        .slots
        .last()
        .unwrap()
        .authorization
        .as_ref()
        .unwrap();
    assert_eq!(auth.subnet_id, subnet);
    assert_eq!(auth.threshold, 2);
    assert_eq!(
        rt.block_on(avax_of(&node, &ctx, 'P', a)),
        after_stake - f.file().burned.0
    );
}
