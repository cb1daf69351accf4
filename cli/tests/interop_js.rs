//! Interop with @avalabs/avalanchejs 5.2.0 (issue 41, item 5): a partially signed transaction
//! of this crate completed by avalanchejs's `addTxSignatures`, and one built and partly
//! signed by avalanchejs completed by `avax-rpc wallet sign`, each issued and accepted, on the
//! X-chain and the P-chain. avalanchejs runs in `tests/wallets/interop.mjs` (Node.js, its
//! `node_modules` installed by `npm ci`). Needs a devnet and Node.js, so every test is ignored
//! by default; `tests/wallets/run.sh` runs them:
//! `tests/with-devnet 29720 interop cargo test -p avax-rpc --test interop_js -- --ignored`.

mod common;

use common::{Out, Scratch};

use std::path::{Path, PathBuf};
use std::process::Command;

use avalanche_rpc::codec::{avm, platform};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::transact::{self, Context, Keychain, PartiallySigned, Payer, p, x};
use avalanche_rpc::wire::{Address, ShortId};

const AVAX: u64 = 1_000_000_000;
const EWOQ: &str = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";

fn run(mut cmd: Command, what: &str) -> Out {
    Out::from(cmd.output().unwrap_or_else(|e| panic!("{what}: {e}")))
}

fn check(r: Out, what: &str) -> Out {
    assert_eq!(
        r.code,
        Some(0),
        "{what}\nstdout: {}\nstderr: {}",
        r.stdout,
        r.stderr
    );
    r
}

/// `avax-rpc ARGS` must succeed.
fn avax_rpc(args: &[&str]) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_avax-rpc"));
    cmd.args(args).env_remove("AVAX_PRIVATE_KEY");
    check(
        run(cmd, "avax-rpc"),
        &format!("avax-rpc {}", args.join(" ")),
    )
}

/// `tests/wallets`, where avalanchejs is installed.
fn wallets() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/wallets");
    assert!(
        dir.join("node_modules/@avalabs/avalanchejs").is_dir(),
        "avalanchejs is not installed: run `npm ci` in {}",
        dir.display()
    );
    dir
}

/// `node interop.mjs ARGS`.
fn interop(args: &[&str]) -> Out {
    let mut cmd = Command::new("node");
    cmd.current_dir(wallets()).arg("interop.mjs").args(args);
    run(cmd, "node (Node.js is needed)")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

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

fn text(chain: &str, a: &ShortId) -> String {
    Address::new(Some(chain), "local", *a.as_bytes())
        .unwrap()
        .to_string()
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The AVAX of every UTXO `address` has a part in on `chain`.
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
            .filter(|u| u.asset_id == ctx.avax_asset_id)
            .map(|u| match &u.output {
                platform::UtxoOutput::TransferOutput(t) => t.amount,
                _ => 0,
            })
            .sum(),
    }
}

/// A devnet, its context, the ewoq key and a runtime.
struct Net {
    url: String,
    node: avalanche_rpc::rpc::Node,
    ctx: Context,
    ewoq: Keychain,
    rt: tokio::runtime::Runtime,
}

impl Net {
    fn new() -> Net {
        let url = std::env::var("DEVNET_URL").expect("DEVNET_URL is not set");
        let node = avalanche_rpc::rpc::Node::http(&url).unwrap();
        let rt = tokio::runtime::Runtime::new().unwrap();
        let ctx = rt.block_on(Context::from_node(&node)).unwrap();
        Net {
            url,
            node,
            ctx,
            ewoq: Keychain::parse(EWOQ).unwrap(),
            rt,
        }
    }

    /// ewoq sends `amount` on `chain` to `threshold` of `addresses`.
    fn fund(&self, chain: char, addresses: &[ShortId], threshold: u32, amount: u64) {
        let (node, ctx) = (&self.node, &self.ctx);
        let owners = transact::owners("owners", addresses, threshold, 0).unwrap();
        let payer = Payer::of(&self.ewoq, now());
        let timeout = std::time::Duration::from_secs(30);
        self.rt.block_on(async {
            if chain == 'X' {
                let utxos = transact::x::utxos(node, ctx, &self.ewoq.addresses(), None)
                    .await
                    .unwrap();
                let out = x::output(ctx.avax_asset_id, amount, owners);
                let mut u = x::base_tx(ctx, &utxos, &payer, &[out]).unwrap();
                u.sign(&self.ewoq).unwrap();
                transact::x::issue(node, &u.signed().unwrap())
                    .await
                    .unwrap()
                    .wait_for(timeout)
                    .await
                    .unwrap();
            } else {
                let utxos = transact::p::utxos(node, ctx, &self.ewoq.addresses(), None)
                    .await
                    .unwrap();
                let out = p::output(ctx.avax_asset_id, amount, owners);
                let mut u = p::base_tx(ctx, &utxos, &payer, &[out]).unwrap();
                u.sign(&self.ewoq).unwrap();
                transact::p::issue(node, &u.signed().unwrap())
                    .await
                    .unwrap()
                    .wait_for(timeout)
                    .await
                    .unwrap();
            }
        });
    }

    fn avax_of(&self, chain: char, address: ShortId) -> u64 {
        self.rt
            .block_on(avax_of(&self.node, &self.ctx, chain, address))
    }
}

/// Fresh keys, written as hex key files, and their addresses, in an owner's order (by address).
fn keys(dir: &Scratch, name: &str, n: u64, salt: u64) -> (Vec<String>, Vec<ShortId>) {
    let mut keys: Vec<(ShortId, String)> = (0..n)
        .map(|i| {
            let secret = fresh(salt + i);
            let address = PrivateKey::from_bytes(&secret).unwrap().address();
            (address, dir.write(&format!("{name}-{i}.key"), hex(&secret)))
        })
        .collect();
    keys.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    keys.into_iter().map(|(a, f)| (f, a)).unzip()
}

fn read(path: &str) -> PartiallySigned {
    PartiallySigned::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn accepted(chain: char) -> String {
    if chain == 'X' {
        "accepted on the X-chain".into()
    } else {
        "committed on the P-chain".into()
    }
}

/// Scenario A on `chain`: this crate builds a send from a 2-of-3 UTXO for its first and third
/// owners (`wallet send --out`; signature indices 0 and 2, which AvalancheJS maps to the
/// credential's positions 0 and 1) and signs it with key A (`wallet sign`); avalanchejs adds
/// key B's signature (`addTxSignatures`); `wallet show` reads it complete and `wallet issue
/// --wait` has it accepted.
fn crate_then_avalanchejs(net: &Net, chain: char) {
    let c = chain.to_string();
    let dir = Scratch::new(&format!("a-{c}"));
    let salt = if chain == 'X' { 100 } else { 200 };
    let (files, addrs) = keys(&dir, "owner", 3, salt);
    let (stranger, _) = keys(&dir, "stranger", 1, salt + 50);
    let recipient = PrivateKey::from_bytes(&fresh(salt + 9)).unwrap().address();
    let funded = 10 * AVAX;
    net.fund(chain, &addrs, 2, funded);
    assert_eq!(net.avax_of(chain, addrs[0]), funded);

    let built = dir.path("built.json");
    let (from_a, from_b, to) = (
        text(&c, &addrs[0]),
        text(&c, &addrs[2]),
        text(&c, &recipient),
    );
    avax_rpc(&[
        "wallet", "send", "--url", &net.url, "--chain", &c, "--to", &to, "--amount", "1.5AVAX",
        "--from", &from_a, "--from", &from_b, "--out", &built,
    ]);
    let a = dir.path("a.json");
    avax_rpc(&[
        "wallet",
        "sign",
        &built,
        "--out",
        &a,
        "--key-file",
        &files[0],
    ]);
    assert_eq!(read(&a).missing().len(), 1);

    // A key that owns nothing here: avalanchejs adds nothing, the script says so, the key
    // itself is not shown.
    let r = interop(&["sign", &a, "--key-file", &stranger[0]]);
    assert_eq!(r.code, Some(1), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("fills no empty slot"), "{}", r.stderr);
    let secret = std::fs::read_to_string(&stranger[0]).unwrap();
    assert!(!r.stderr.contains(&secret) && !r.stdout.contains(&secret));

    let b = dir.path("b.json");
    let r = check(
        interop(&["sign", &a, "--key-file", &files[2], "--out", &b]),
        "interop.mjs sign",
    );
    // AvalancheJS holds the transaction complete too (key A's signature, made by this
    // crate, recovers for it).
    assert!(
        r.stdout
            .contains("1 signature(s) added; 0 missing; hasAllSignatures: true"),
        "{}",
        r.stdout
    );
    let complete = read(&b);
    assert!(complete.missing().is_empty());
    let signers: Vec<String> = complete.file().slots[0]
        .signatures
        .iter()
        .map(|s| s.address.to_string())
        .collect();
    assert_eq!(signers, [from_a.clone(), from_b.clone()]);
    // What avalanchejs wrote is key B's signature in key B's slot (the reader checked it
    // recovers to the slot's address); key A's is as it was.
    let before = read(&a);
    let (was, now) = (
        &before.file().slots[0].signatures,
        &complete.file().slots[0].signatures,
    );
    for (w, n) in was.iter().zip(now) {
        match &w.signature {
            Some(_) => assert_eq!(w, n),
            None => assert_eq!(n.address.to_string(), from_b),
        }
    }
    let shown = avax_rpc(&["wallet", "show", &b]).stdout;
    assert!(shown.contains("complete: ready to issue"), "{shown}");
    let out = avax_rpc(&["wallet", "issue", &b, "--url", &net.url, "--wait"]).stdout;
    assert!(out.contains(&accepted(chain)), "{out}");

    let burned = complete.file().burned.0;
    if chain == 'X' {
        assert_eq!(burned, net.ctx.x_tx_fee);
    }
    assert_eq!(net.avax_of(chain, recipient), 1_500_000_000);
    assert_eq!(
        net.avax_of(chain, addrs[0]),
        funded - 1_500_000_000 - burned
    );
    assert_eq!(net.avax_of(chain, addrs[1]), 0);
}

/// Scenario B on `chain`: avalanchejs builds a send from a 2-of-3 UTXO (`avm.newBaseTx`,
/// `pvm.e.newBaseTx`) and signs it with one key; the portable file it writes is read by this
/// crate, signed with the second key (`wallet sign`), and issued.
fn avalanchejs_then_crate(net: &Net, chain: char) {
    let c = chain.to_string();
    let dir = Scratch::new(&format!("b-{c}"));
    let salt = if chain == 'X' { 300 } else { 400 };
    let (files, addrs) = keys(&dir, "owner", 3, salt);
    let recipient = PrivateKey::from_bytes(&fresh(salt + 9)).unwrap().address();
    let funded = 10 * AVAX;
    let amount = 2 * AVAX;
    net.fund(chain, &addrs, 2, funded);

    let js = dir.path("js.json");
    let (from_a, from_b, to) = (
        text(&c, &addrs[0]),
        text(&c, &addrs[2]),
        text(&c, &recipient),
    );
    let r = check(
        interop(&[
            "send",
            "--url",
            &net.url,
            "--chain",
            &c,
            "--key-file",
            &files[0],
            "--from",
            &from_a,
            "--from",
            &from_b,
            "--to",
            &to,
            "--amount",
            &amount.to_string(),
            "--out",
            &js,
        ]),
        "interop.mjs send",
    );
    eprintln!("{}", r.stdout);
    let secret = std::fs::read_to_string(&files[0]).unwrap();
    assert!(!r.stdout.contains(&secret) && !r.stderr.contains(&secret));
    // This crate reads avalanchejs's file, every claim checked against the bytes.
    let file = read(&js);
    assert_eq!(file.chain(), c);
    assert_eq!(file.kind(), "BaseTx");
    assert_eq!(file.file().slots.len(), 1);
    assert_eq!(file.file().slots[0].utxo.as_ref().unwrap().threshold, 2);
    let missing = file.missing();
    assert_eq!(missing.len(), 1, "{missing:?}");
    assert_eq!(missing[0].2.to_string(), from_b);
    let shown = avax_rpc(&["wallet", "show", &js]).stdout;
    assert!(shown.contains("1 signature(s) missing"), "{shown}");

    let full = dir.path("full.json");
    avax_rpc(&[
        "wallet",
        "sign",
        &js,
        "--out",
        &full,
        "--key-file",
        &files[2],
    ]);
    let complete = read(&full);
    assert!(complete.missing().is_empty());
    let out = avax_rpc(&["wallet", "issue", &full, "--url", &net.url, "--wait"]).stdout;
    assert!(out.contains(&accepted(chain)), "{out}");

    let burned = complete.file().burned.0;
    if chain == 'X' {
        assert_eq!(burned, net.ctx.x_tx_fee);
        assert_eq!(complete.file().fee.0, net.ctx.x_tx_fee);
    } else {
        assert!(burned > 0);
    }
    assert_eq!(net.avax_of(chain, recipient), amount);
    // The change goes to the two payers (avalanchejs's default); the owner that did not
    // sign keeps nothing, its 2-of-3 UTXO spent.
    assert_eq!(net.avax_of(chain, addrs[0]), funded - amount - burned);
    assert_eq!(net.avax_of(chain, addrs[1]), 0);
}

#[test]
#[ignore = "needs a devnet and Node.js: tests/wallets/run.sh"]
fn x_chain_crate_signed_completed_by_avalanchejs_and_the_reverse() {
    let net = Net::new();
    crate_then_avalanchejs(&net, 'X');
    avalanchejs_then_crate(&net, 'X');
}

#[test]
#[ignore = "needs a devnet and Node.js: tests/wallets/run.sh"]
fn p_chain_crate_signed_completed_by_avalanchejs_and_the_reverse() {
    let net = Net::new();
    crate_then_avalanchejs(&net, 'P');
    avalanchejs_then_crate(&net, 'P');
}
