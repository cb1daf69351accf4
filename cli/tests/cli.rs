//! `avax-rpc decode` and `encode`: the node's vectors to their JSON form and
//! back to the same bytes, and a clear error naming the offset and the field.

mod common;

use common::Scratch;

use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_avax-rpc"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// A signed AdvanceTimeTx (vms/platformvm/txs/fee/calculator_test.go).
const ADVANCE_TIME: &str = "0x0000000000130000000066a56fe700000000";
// The start of that file's signed BaseTx, cut inside its outputs.
const P_BASE_TX_CUT: &str = concat!(
    "0x00000000002200003039000000000000000000000000000000000000000000000000000000000000000000",
    "000002dbcf890f77f49b96857648b72b77f9f82937f2"
);

#[test]
fn decode_prints_the_node_json_and_encode_gives_the_bytes_back() {
    let (ok, out, err) = run(&[
        "decode",
        "tx",
        "--chain",
        "P",
        "--encoding",
        "hexnc",
        ADVANCE_TIME,
    ]);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["unsignedTx"]["time"], 1_722_118_119);
    assert_eq!(
        json["id"],
        "wNkq1syVMyavgqNLxchKvNumueP9BQdyu1dUoFiwKC1gEHd2q"
    );
    let (ok, hex, err) = run(&[
        "encode",
        "tx",
        "--chain",
        "P",
        "--encoding",
        "hexnc",
        out.trim(),
    ]);
    assert!(ok, "{err}");
    assert_eq!(hex.trim(), ADVANCE_TIME);
}

#[test]
fn encode_takes_the_network_id_decode_takes_and_checks_the_addresses_hrp() {
    // A P-chain UTXO of the local network's funded key, as `decode --network-id 12345` writes it.
    let utxo = r#"{"txID":"11111111111111111111111111111111LpoYY","outputIndex":0,"assetID":"11111111111111111111111111111111LpoYY","output":{"amount":1,"locktime":0,"threshold":1,"addresses":["P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"]}}"#;
    let (ok, hex, err) = run(&[
        "encode",
        "utxo",
        "--chain",
        "P",
        "--network-id",
        "12345",
        utxo,
    ]);
    assert!(ok, "{err}");
    let (ok, back, err) = run(&[
        "decode",
        "utxo",
        "--chain",
        "P",
        "--network-id",
        "12345",
        hex.trim(),
    ]);
    assert!(ok, "{err}");
    assert!(
        back.contains("P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"),
        "{back}"
    );
    // The same flags with Mainnet's ID: the address is named with its JSON path.
    let (ok, _, err) = run(&["encode", "utxo", "--chain", "P", "--network-id", "1", utxo]);
    assert!(!ok);
    assert!(
        err.contains("`output.addresses[0]`")
            && err.contains("network 1")
            && err.contains("`avax1`"),
        "{err}"
    );
}

/// The node's own JSON of an X-chain BaseTx on its unit-test network (ID 10, HRP `testing`):
/// `vms/avm/service_test.go`, `TestServiceGetTxJSON_BaseTx` (the blockchain ID, left to the
/// test's environment there, is the X-chain's of `genesis_local.json`).
const TESTING_BASE_TX: &str = r#"{"networkID":10,"blockchainID":"2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed","outputs":[{"assetID":"2XGxUr7VF7j1iwUp2aiGe4b6Ue2yyNghNS1SuNTNmZ77dPpXFZ","fxID":"spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ","output":{"addresses":["X-testing1lnk637g0edwnqc2tn8tel39652fswa3xk4r65e"],"amount":1000,"locktime":0,"threshold":1}},{"assetID":"2XGxUr7VF7j1iwUp2aiGe4b6Ue2yyNghNS1SuNTNmZ77dPpXFZ","fxID":"spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ","output":{"addresses":["X-testing1d6kkj0qh4wcmus3tk59npwt3rluc6en72ngurd"],"amount":48000,"locktime":0,"threshold":1}}],"inputs":[{"txID":"2XGxUr7VF7j1iwUp2aiGe4b6Ue2yyNghNS1SuNTNmZ77dPpXFZ","outputIndex":2,"assetID":"2XGxUr7VF7j1iwUp2aiGe4b6Ue2yyNghNS1SuNTNmZ77dPpXFZ","fxID":"spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ","input":{"amount":50000,"signatureIndices":[0]}}],"memo":"0x0102030405060708"}"#;

#[test]
fn network_10_is_testing_as_the_node_names_it() {
    let (ok, hex, err) = run(&[
        "encode",
        "unsigned-tx",
        "--chain",
        "X",
        "--network-id",
        "10",
        TESTING_BASE_TX,
    ]);
    assert!(ok, "{err}");
    let (ok, back, err) = run(&[
        "decode",
        "unsigned-tx",
        "--chain",
        "X",
        "--network-id",
        "10",
        hex.trim(),
    ]);
    assert!(ok, "{err}");
    let back: serde_json::Value = serde_json::from_str(&back).expect("JSON");
    let expected: serde_json::Value = serde_json::from_str(TESTING_BASE_TX).unwrap();
    assert_eq!(back, expected, "the node's JSON, addresses in `testing`");
    // Given as another network's, its addresses are refused with the network's own HRP.
    let (ok, _, err) = run(&[
        "encode",
        "unsigned-tx",
        "--chain",
        "X",
        "--network-id",
        "12345",
        TESTING_BASE_TX,
    ]);
    assert!(!ok);
    assert!(
        err.contains("`outputs[0].output.addresses[0]`: X-testing1lnk637g0edwnqc2tn8tel39652fswa3xk4r65e is not an address of network 12345, whose addresses start `local1`"),
        "{err}"
    );
}

#[test]
fn a_bad_input_says_where() {
    // Cut short: the error names the byte offset and the field.
    let (ok, _, err) = run(&[
        "decode",
        "tx",
        "--chain",
        "P",
        "--encoding",
        "hexnc",
        P_BASE_TX_CUT,
    ]);
    assert!(!ok);
    assert!(err.contains("at byte 42, `unsigned.base.outputs`"), "{err}");
    // No chain for a chain's value.
    let (ok, _, err) = run(&["decode", "tx", ADVANCE_TIME]);
    assert!(!ok);
    assert!(err.contains("needs --chain X, P or C"), "{err}");
    // Not hex.
    let (ok, _, err) = run(&["decode", "tx", "--chain", "X", "zz"]);
    assert!(!ok);
    assert!(err.contains("not hex"), "{err}");
}

/// The C-chain's atomic side: a signed export built by the wallet decodes with `--chain C`
/// (its EVM input, its output's owners in cb58 as the node writes them) and encodes back to
/// the same bytes; a block is refused, saying what `--chain C` decodes.
#[test]
fn chain_c_decodes_atomic_transactions_and_their_utxos() {
    use avalanche_rpc::codec::{atomic, avax, secp256k1fx};
    use avalanche_rpc::keys::PrivateKey;
    use avalanche_rpc::transact::{self, c};
    use avalanche_rpc::wire::{Id, ShortId};
    let key = PrivateKey::from_bytes(&[7; 32]).unwrap();
    let ctx = transact::Context {
        network_id: 12345,
        hrp: "local".into(),
        x_chain_id: Id::new([0x0a; 32]),
        p_chain_id: Id::ZERO,
        c_chain_id: Id::new([0xc1; 32]),
        avax_asset_id: Id::new([0xa5; 32]),
        x_tx_fee: 1_000_000,
        x_create_asset_tx_fee: 10_000_000,
        p_fee_config: transact::FeeConfig::ETNA,
        p_fee_state: transact::FeeState {
            capacity: 1_000_000,
            excess: 0,
            price: 1,
        },
        validator_fee_config: Default::default(),
        staking: transact::StakingRules::of_network(12345),
    };
    let account = c::Account::of(&key.public_key(), 10_000_000_000_000_000_000, 3);
    let to = secp256k1fx::OutputOwners::new(0, 1, vec![ShortId::new([0x11; 20])]);
    let out = secp256k1fx::TransferOutput::new(2_000_000_000, to.clone());
    let mut u = c::export_tx(&ctx, &[account], ctx.x_chain_id, &[out], 25_000_000_000).unwrap();
    let keys = transact::Keychain::from_keys([key.clone()]);
    u.sign(&keys).unwrap();
    let bytes = u.signed().unwrap().to_bytes().unwrap();
    let (ok, json, err) = run(&[
        "decode",
        "tx",
        "--chain",
        "C",
        &format!("0x{}", hex(&bytes)),
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let input = &v["unsignedTx"]["inputs"][0];
    assert_eq!(input["address"], key.evm_address().to_string());
    assert_eq!(input["nonce"], 3);
    assert_eq!(input["amount"], 2_000_000_000 + u.fee());
    assert_eq!(
        v["unsignedTx"]["exportedOutputs"][0]["output"]["addresses"][0],
        ShortId::new([0x11; 20]).to_string()
    );
    let (ok, back, err) = run(&[
        "encode",
        "tx",
        "--chain",
        "c",
        "--encoding",
        "hexnc",
        json.trim(),
    ]);
    assert!(ok, "{err}");
    assert_eq!(back.trim(), format!("0x{}", hex(&bytes)));
    // A UTXO of its shared memory.
    let utxo = atomic::Utxo::new(
        avax::UtxoId::new(Id::new([5; 32]), 1),
        ctx.avax_asset_id,
        secp256k1fx::TransferOutput::new(9, to).into(),
    );
    let (ok, json, err) = run(&[
        "decode",
        "utxo",
        "--chain",
        "C",
        &format!("0x{}", hex(&utxo.to_bytes().unwrap())),
    ]);
    assert!(ok, "{err}");
    assert!(json.contains("\"amount\": 9"), "{json}");
    let (ok, _, err) = run(&["decode", "block", "--chain", "C", "0x00"]);
    assert!(!ok);
    assert!(
        err.contains("Ethereum blocks") && err.contains("`utxo`"),
        "{err}"
    );
}

/// An index container: a proposer block with the chain's block inside, as its `block`, or
/// as an option's `innerBytes` (the commit or abort of a P-chain proposal).
#[test]
fn decode_container_writes_the_chain_block_inside() {
    // An option (type ID 1) around a BanffCommitBlock (type ID 31) at height 5.
    let commit = concat!(
        "0000",
        "0000001f",
        "0000000066a56fe7",
        "0707070707070707070707070707070707070707070707070707070707070707",
        "0000000000000005"
    );
    let option = format!(
        "0x0000000000010909090909090909090909090909090909090909090909090909090909090909{:08x}{commit}",
        commit.len() / 2
    );
    let (ok, out, err) = run(&[
        "decode",
        "container",
        "--chain",
        "P",
        "--encoding",
        "hexnc",
        &option,
    ]);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["innerBytes"]["height"], 5, "{out}");
    assert_eq!(json["innerBytes"]["time"], 1_722_118_119, "{out}");
    // Without the chain, the inner block stays bytes.
    let (ok, out, err) = run(&["decode", "container", "--encoding", "hexnc", &option]);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["innerBytes"], format!("0x{commit}"), "{out}");
}

// ---- `avax-rpc wallet` ----

/// The local network's funded key (the devnet's too). Tests hand it over in a file or an
/// environment variable, never as an argument, and check it is never printed.
const EWOQ: &str = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";
const EWOQ_HEX: &str = "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027";
const EWOQ_X: &str = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
const EWOQ_P: &str = "P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";

/// One run of the tool: its arguments, status and output.
struct Run {
    args: Vec<String>,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Every run of a test, so that the last check can look at all the arguments and output.
#[derive(Default)]
struct Transcript(Vec<Run>);

impl Transcript {
    fn run_env(&mut self, args: &[&str], env: &[(&str, &str)]) -> &Run {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_avax-rpc"));
        cmd.args(args).env_remove("AVAX_PRIVATE_KEY");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().expect("the binary runs");
        self.0.push(Run {
            args: args.iter().map(|s| s.to_string()).collect(),
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
        self.0.last().unwrap()
    }

    fn run(&mut self, args: &[&str]) -> &Run {
        self.run_env(args, &[])
    }

    /// A run that must succeed; its standard output.
    fn ok(&mut self, args: &[&str]) -> String {
        let r = self.run(args);
        assert_eq!(
            r.code,
            Some(0),
            "avax-rpc {}\nstdout: {}\nstderr: {}",
            r.args.join(" "),
            r.stdout,
            r.stderr
        );
        r.stdout.clone()
    }

    /// A run that must fail with `code`; its standard error.
    fn fails(&mut self, code: i32, args: &[&str]) -> String {
        let r = self.run(args);
        assert_eq!(
            r.code,
            Some(code),
            "avax-rpc {}\nstdout: {}\nstderr: {}",
            r.args.join(" "),
            r.stdout,
            r.stderr
        );
        r.stderr.clone()
    }

    /// No key, in any form, in any argument or output.
    fn assert_never_shows(&self, secrets: &[&str]) {
        assert!(!self.0.is_empty());
        for r in &self.0 {
            for s in secrets {
                let s = s.to_ascii_lowercase();
                for (what, text) in [
                    ("an argument", r.args.join(" ")),
                    ("standard output", r.stdout.clone()),
                    ("standard error", r.stderr.clone()),
                ] {
                    assert!(
                        !text.to_ascii_lowercase().contains(&s),
                        "a key shows in {what} of `avax-rpc {}`",
                        r.args.join(" ")
                    );
                }
            }
        }
    }
}

#[test]
fn wallet_reads_keys_from_a_file_or_the_environment_and_never_prints_them() {
    let dir = Scratch::new("keys");
    let file = dir.write("keys.txt", format!("# the funded key\n{EWOQ}\n"));
    let hex_file = dir.write("hex.txt", format!("0x{EWOQ_HEX}\n"));
    let mut t = Transcript::default();
    for args in [
        &["wallet", "address", "--hrp", "local", "--key-file", &file][..],
        &[
            "wallet",
            "address",
            "--hrp",
            "local",
            "--key-file",
            &hex_file,
        ][..],
    ] {
        let out = t.ok(args);
        assert_eq!(out.trim(), format!("{EWOQ_X}  {EWOQ_P}"));
    }
    let r = t.run_env(
        &["wallet", "address", "--hrp", "fuji", "--json"],
        &[("AVAX_PRIVATE_KEY", EWOQ)],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        json[0]["X"],
        "X-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t"
    );
    let r = t.run_env(
        &[
            "wallet",
            "address",
            "--hrp",
            "local",
            "--key-env",
            "MY_KEYS",
        ],
        &[("MY_KEYS", EWOQ)],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains(EWOQ_X));
    // No keys: says where keys come from.
    let err = t.fails(1, &["wallet", "address", "--hrp", "local"]);
    assert!(
        err.contains("--key-file") && err.contains("AVAX_PRIVATE_KEY"),
        "{err}"
    );
    // A file that is not keys: the line is named, its text is not repeated.
    let bad = dir.write(
        "bad.txt",
        "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNn\n",
    );
    let err = t.fails(
        1,
        &["wallet", "address", "--hrp", "local", "--key-file", &bad],
    );
    assert!(err.contains("line 1") && !err.contains("ewoq"), "{err}");
    // A key (here a made-up one) where the variable's name goes is refused, not echoed.
    let fake = "AB".repeat(32);
    let err = t.fails(2, &["wallet", "address", "--key-env", &fake]);
    assert!(
        err.contains("argument 4 (after --key-env)")
            && err.contains("64 hex digits")
            && !err.contains(&fake),
        "{err}"
    );
    t.assert_never_shows(&[EWOQ, &EWOQ[11..], EWOQ_HEX]);
}

#[test]
fn wallet_refuses_a_key_on_the_command_line_without_repeating_it() {
    // Not a real key: any argument holding `PrivateKey-` is refused before anything runs.
    let fake = "PrivateKey-2bRKCFnc7XoNNpmhsdBo9ZMeyF5tktnDgyW6WUN2wV7AnTWkZd";
    for args in [
        &["wallet", "address", "--hrp", "local", fake][..],
        &["wallet", "send", "--chain", "X", "--key", fake][..],
        &["wallet", "address", "--key-env", fake][..],
    ] {
        let (ok, out, err) = run(args);
        assert!(!ok);
        assert!(err.contains("never taken on the command line"), "{err}");
        assert!(
            !out.contains(&fake[11..]) && !err.contains(&fake[11..]),
            "{err}"
        );
    }
}

#[test]
fn wallet_has_no_flag_that_takes_a_key() {
    let mut flags = std::collections::BTreeSet::new();
    for sub in [
        "address",
        "balance",
        "send",
        "export",
        "import",
        "stake",
        "delegate",
        "create-chain",
        "sign",
        "combine",
        "show",
        "issue",
    ] {
        let (ok, help, err) = run(&["wallet", sub, "--help"]);
        assert!(ok, "{err}");
        for word in help.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
            if word.starts_with("--") && word.contains("key") {
                flags.insert(word.to_string());
            }
        }
    }
    // Only a file or a variable's name for secp256k1 keys; files for the BLS key.
    let expected = [
        "--bls-key-file",
        "--key-env",
        "--key-file",
        "--save-bls-key",
    ];
    assert_eq!(flags.into_iter().collect::<Vec<_>>(), expected);
}

/// The ewoq key in 30 malformed (and a few well-formed) shapes: the five the issue found
/// (a long inline comment, a trailing quote, U+200B, two keys on a line, lower case) and CRLF,
/// tabs, quotes, Unicode spaces, very long lines, partial keys of 40 characters or more,
/// upper case, `0x` hex, keys glued to other text.
fn key_shaped_inputs() -> Vec<String> {
    let body = &EWOQ["PrivateKey-".len()..];
    let hex = EWOQ_HEX;
    vec![
        format!("{EWOQ} # the funded key of the local network"),
        format!("{EWOQ}\""),
        format!("\"{EWOQ}\""),
        format!("'{EWOQ}'"),
        format!("{EWOQ}\u{200b}"),
        format!("{hex}\u{200b}"),
        format!("{EWOQ} {EWOQ}"),
        format!("0x{hex} 0x{hex}"),
        format!("{EWOQ}\r\n"),
        format!("{}\r{}", &EWOQ[..30], &EWOQ[30..]),
        format!("\t{EWOQ}\t0x{hex}"),
        format!("\u{a0}{EWOQ}\u{a0}"),
        format!("PrivateKey-\u{a0}{body}"),
        format!("PrivateKey- {body}"),
        EWOQ.repeat(100),
        EWOQ[..40].to_string(),
        EWOQ[..52].to_string(),
        EWOQ.to_lowercase(),
        EWOQ.to_uppercase(),
        format!("privatekey-{body}"),
        format!("0x{hex}"),
        hex.to_string(),
        format!("0X{}", hex.to_uppercase()),
        hex[..40].to_string(),
        format!("0x{}", &hex[..63]),
        format!("{hex}{hex}"),
        format!("{hex}zz"),
        format!("key={EWOQ}"),
        format!("AVAX_PRIVATE_KEY={hex}"),
        format!("export AVAX_PRIVATE_KEY=\"{EWOQ}\"#funded"),
    ]
}

/// A run's environment: (name, value) pairs.
type Env = Vec<(&'static str, String)>;

/// Every 20-character run of the key's cb58 and of its hex, lower-cased.
fn key_runs() -> Vec<String> {
    let mut runs = Vec::new();
    for secret in [&EWOQ["PrivateKey-".len()..], EWOQ_HEX] {
        let secret = secret.to_ascii_lowercase();
        for at in 0..=secret.len() - 20 {
            runs.push(secret[at..at + 20].to_string());
        }
    }
    runs
}

/// Done-when 1 of "Secrets and hostile peers": every entry point of the tool (each flag that
/// takes a value, `call`'s flags and `--params`, a positional, an unknown flag, a key file,
/// the key environment variable) fed every key-shaped input above: no 20-character run of
/// the key in standard output or error, and an argument holding `PrivateKey-` or the key's
/// 64 hex digits refused (exit 2) before anything runs.
#[test]
fn no_run_of_a_key_shows_whatever_the_entry_point() {
    let dir = Scratch::new("shapes");
    let port = closed_port();
    let url = format!("http://127.0.0.1:{port}");
    let node = "NodeID-9tLMkeWFhWXd8QZc4rSiS5meuVXF5kRsz";
    let runs = key_runs();
    let mut checked = 0;
    let inputs = key_shaped_inputs();
    assert_eq!(inputs.len(), 30);
    for (n, form) in inputs.iter().enumerate() {
        let f = form.as_str();
        let params = format!("{{\"addresses\": [\"{f}\"]}}");
        let send = |flag: &'static str| {
            let mut a: Vec<String> = [
                "wallet", "send", "--url", &url, "--chain", "X", "--to", EWOQ_X, "--amount", "1",
                "--asset", "AVAX",
            ]
            .map(String::from)
            .to_vec();
            let at = a.iter().position(|x| x == flag).unwrap();
            a[at + 1] = f.to_string();
            a
        };
        let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        // (arguments, environment): each flag and entry point.
        let mut cases: Vec<(Vec<String>, Env)> = vec![
            (send("--to"), vec![("AVAX_PRIVATE_KEY", EWOQ.to_string())]),
            (
                send("--asset"),
                vec![("AVAX_PRIVATE_KEY", EWOQ.to_string())],
            ),
            (
                send("--amount"),
                vec![("AVAX_PRIVATE_KEY", EWOQ.to_string())],
            ),
            (send("--url"), vec![("AVAX_PRIVATE_KEY", EWOQ.to_string())]),
            (
                owned(&["wallet", "address", "--hrp", "local", "--key-file", f]),
                vec![],
            ),
            (
                owned(&["wallet", "address", "--hrp", "local", "--key-env", f]),
                vec![],
            ),
            (
                owned(&["wallet", "address", "--hrp", f]),
                vec![("AVAX_PRIVATE_KEY", EWOQ.to_string())],
            ),
            (
                owned(&["wallet", "balance", "--url", f]),
                vec![("AVAX_PRIVATE_KEY", EWOQ.to_string())],
            ),
            (
                owned(&[
                    "wallet",
                    "stake",
                    "--url",
                    &url,
                    "--node-id",
                    f,
                    "--weight",
                    "1",
                    "--end",
                    "1d",
                ]),
                vec![],
            ),
            (
                owned(&[
                    "wallet",
                    "stake",
                    "--url",
                    &url,
                    "--node-id",
                    node,
                    "--weight",
                    "1",
                    "--end",
                    f,
                ]),
                vec![],
            ),
            (
                owned(&[
                    "wallet",
                    "delegate",
                    "--url",
                    &url,
                    "--node-id",
                    node,
                    "--weight",
                    "1",
                    "--end",
                    "1d",
                    "--reward-to",
                    f,
                ]),
                vec![("AVAX_PRIVATE_KEY", EWOQ.to_string())],
            ),
            (
                owned(&[
                    "call",
                    "platform.getBalance",
                    "--url",
                    &url,
                    "--addresses",
                    f,
                ]),
                vec![],
            ),
            (
                owned(&[
                    "call",
                    "platform.getBalance",
                    "--url",
                    &url,
                    "--params",
                    &params,
                ]),
                vec![],
            ),
            (owned(&["call", "platform.getBalance", "--url", f]), vec![]),
            (owned(&["call", f]), vec![]),
            (owned(&["decode", "tx", "--chain", "X", f]), vec![]),
            (owned(&["encode", "tx", "--chain", "X", f]), vec![]),
            (
                owned(&[
                    "export",
                    "--url",
                    &url,
                    "--chain",
                    f,
                    "--out",
                    "/nonexistent/x",
                ]),
                vec![],
            ),
            (owned(&["conformance", "--url", f]), vec![]),
            (owned(&["wallet", "address", &format!("--{f}")]), vec![]),
            (
                owned(&["wallet", "address", "--hrp", "local"]),
                vec![("AVAX_PRIVATE_KEY", f.to_string())],
            ),
        ];
        // A key file holding the shape on its third line.
        let file = dir.write(&format!("keys-{n}.txt"), format!("# keys\n\n{f}\n"));
        cases.push((
            owned(&["wallet", "address", "--hrp", "local", "--key-file", &file]),
            vec![],
        ));
        for (args, env) in cases {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_avax-rpc"));
            cmd.args(&args).env_remove("AVAX_PRIVATE_KEY");
            for (k, v) in &env {
                cmd.env(k, v);
            }
            let out = cmd.output().expect("the binary runs");
            let stdout = String::from_utf8_lossy(&out.stdout).to_ascii_lowercase();
            let stderr = String::from_utf8_lossy(&out.stderr).to_ascii_lowercase();
            let shown = format!("{:?} (input {n})", args.join(" "));
            for run in &runs {
                assert!(
                    !stdout.contains(run),
                    "a key's run on standard output: {shown}"
                );
                assert!(
                    !stderr.contains(run),
                    "a key's run on standard error: {shown}\n{stderr}"
                );
            }
            // An argument holding a key's shape is refused before anything runs.
            // (Two keys glued together are 64 bytes of hex, as a transaction could be: not
            // refused, and hidden from errors as every long run of hex is.)
            let in_args = args.iter().any(|a| {
                let a = a.to_ascii_lowercase();
                a.contains("privatekey-")
                    || (a.contains(EWOQ_HEX) && !a.contains(&EWOQ_HEX.repeat(2)))
            });
            if in_args {
                assert_eq!(out.status.code(), Some(2), "{shown}: {stderr}");
                assert!(
                    stderr.contains("never taken on the command line"),
                    "{shown}: {stderr}"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 30 * 22);
}

/// A key file or the key variable whose line is not a key: the error names the line and
/// what is wrong, for each of the five shapes the issue found.
#[test]
fn a_key_line_that_is_not_a_key_is_named_not_quoted() {
    let dir = Scratch::new("lines");
    let mut t = Transcript::default();
    for (line, says) in [
        (
            format!("{EWOQ} # the funded key of the local network"),
            "9 words",
        ),
        (format!("{EWOQ}\""), "in quotes"),
        (format!("{EWOQ}\u{200b}"), "U+200B at column 61"),
        (format!("{EWOQ} {EWOQ}"), "2 words"),
        (EWOQ.to_lowercase(), "does not decode"),
    ] {
        let file = dir.write("k.txt", format!("# keys\n{line}\n"));
        let err = t.fails(
            1,
            &["wallet", "address", "--hrp", "local", "--key-file", &file],
        );
        assert!(
            err.contains("key file line 2") && err.contains(says),
            "{err}"
        );
        let r = t.run_env(
            &["wallet", "address", "--hrp", "local"],
            &[("AVAX_PRIVATE_KEY", &line)],
        );
        assert_eq!(r.code, Some(1));
        assert!(
            r.stderr
                .contains("environment variable AVAX_PRIVATE_KEY line 1")
                && r.stderr.contains(says),
            "{}",
            r.stderr
        );
    }
    t.assert_never_shows(&[&EWOQ[11..31], &EWOQ[31..51]]);
}

/// A key file is a regular file of at most 64 KiB: a FIFO and `/dev/zero` are refused at
/// once (never read: nothing blocks, nothing grows), a larger file is refused, a byte order
/// mark is accepted, and a file others can read is used with a warning.
#[test]
fn a_key_file_is_bounded_regular_and_private() {
    let dir = Scratch::new("keyfile");
    let address = |path: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_avax-rpc"))
            .args(["wallet", "address", "--hrp", "local", "--key-file", path])
            .env_remove("AVAX_PRIVATE_KEY")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(20) {
                let _ = child.kill();
                panic!("--key-file {path}: still running after 20 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    #[cfg(unix)]
    {
        let fifo = dir.0.join("fifo");
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let (code, _, err) = address(fifo.to_str().unwrap());
        assert_eq!(code, Some(1), "{err}");
        assert!(
            err.contains("a FIFO (named pipe), not a regular file"),
            "{err}"
        );
        let (code, _, err) = address("/dev/zero");
        assert_eq!(code, Some(1), "{err}");
        assert!(err.contains("/dev/zero is a character device"), "{err}");
    }
    let big = dir.write("big.txt", format!("{EWOQ}\n{}", "#\n".repeat(40_000)));
    let (code, _, err) = address(&big);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("80061 bytes; a key file is at most 64 KiB"),
        "{err}"
    );
    let bom = dir.write("bom.txt", format!("\u{feff}{EWOQ}\r\n"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&bom, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let (code, out, err) = address(&bom);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.trim(), format!("{EWOQ_X}  {EWOQ_P}"));
    assert!(!err.contains("warning"), "{err}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for mode in [0o644, 0o640, 0o666] {
            std::fs::set_permissions(&bom, std::fs::Permissions::from_mode(mode)).unwrap();
            let (code, out, err) = address(&bom);
            assert_eq!(code, Some(0), "{err}");
            assert!(out.contains(EWOQ_X));
            assert!(
                err.contains(&format!("open to others (mode {mode:04o})"))
                    && err.contains("chmod 600"),
                "{mode:o}: {err}"
            );
        }
    }
}

/// `--timeout 0` means "issue and do not wait" (documented in the help); a zero period
/// written with a unit is refused before anything is sent, saying so.
#[test]
fn wallet_timeout_is_at_least_a_second_or_zero_for_no_wait() {
    let (ok, help, _) = run(&["wallet", "send", "--help"]);
    assert!(ok);
    assert!(help.contains("0 issues and does not wait"), "{help}");
    let url = format!("http://127.0.0.1:{}", closed_port());
    for zero in ["0s", "0m", "0d0h"] {
        let (code, _, err) = run_code(&[
            "wallet",
            "send",
            "--url",
            &url,
            "--chain",
            "X",
            "--to",
            EWOQ_X,
            "--amount",
            "1",
            "--timeout",
            zero,
        ]);
        assert_eq!(code, Some(2), "{zero}: {err}");
        assert!(
            err.contains("--timeout") && err.contains("at least 1s, or 0 to issue without waiting"),
            "{zero}: {err}"
        );
    }
    // 0 is taken: the run goes on to the node (here none).
    let out = Command::new(env!("CARGO_BIN_EXE_avax-rpc"))
        .args([
            "wallet",
            "send",
            "--url",
            &url,
            "--chain",
            "X",
            "--to",
            EWOQ_X,
            "--amount",
            "1",
            "--timeout",
            "0",
        ])
        .env("AVAX_PRIVATE_KEY", EWOQ)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("--timeout"), "{err}");
    // `call`'s reply timeout: at least a second.
    let (code, _, err) = run_code(&["call", "info.getNetworkID", "--url", &url, "--timeout", "0"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--timeout"), "{err}");
}

/// The first line of a refusal on standard error, clap's (exit 2) or the wallet's (exit 1),
/// after any warning (a key file others can read).
fn first_line(err: &str) -> &str {
    err.lines()
        .find(|l| !l.starts_with("avax-rpc: warning:"))
        .unwrap_or("")
}

/// Amounts are whole units of their asset (`5`, `1.5AVAX`, `0.25 AVAX`); nAVAX only with
/// its unit. What can be told without a node is refused before any is asked (no `--url`
/// here, no key), each naming the flag and the value, in the words a user reads.
#[test]
fn wallet_refuses_bad_amounts_and_periods_naming_the_flag() {
    let send = |amount: &str| run_code(&["wallet", "send", "--to", EWOQ_X, "--amount", amount]);
    let clap = |value: &str, says: &str| {
        format!("error: invalid value '{value}' for '--amount <AMOUNT>': {says}")
    };
    let not_an_amount = "is not an amount: a number of whole units, with the asset's symbol or \
                         not (`5`, `1.5AVAX`, `0.25 AVAX`, `5DVT`), or nAVAX with its unit \
                         (`250000000nAVAX`)";
    for (amount, code, says) in [
        (
            "1.0000000001AVAX",
            2,
            clap(
                "1.0000000001AVAX",
                "1.0000000001 AVAX has more than 9 decimal places (AVAX's denomination: its \
                 smallest unit is 0.000000001 AVAX)",
            ),
        ),
        (
            "0.0000000001",
            1,
            "avax-rpc: `--amount`: 0.0000000001 AVAX has more than 9 decimal places (AVAX's \
             denomination: its smallest unit is 0.000000001 AVAX)"
                .to_string(),
        ),
        ("0", 2, clap("0", "`0` is nothing: give more than 0")),
        (
            "0.000AVAX",
            2,
            clap("0.000AVAX", "`0.000AVAX` is nothing: give more than 0"),
        ),
        (
            "-5",
            2,
            clap("-5", "`-5` is negative: give an amount above zero"),
        ),
        (
            "-5DVT",
            2,
            clap("-5DVT", "`-5DVT` is negative: give an amount above zero"),
        ),
        ("ten", 2, clap("ten", &format!("`ten` {not_an_amount}"))),
        (
            "1.2.3",
            2,
            clap("1.2.3", &format!("`1.2.3` {not_an_amount}")),
        ),
        ("1e9", 2, clap("1e9", &format!("`1e9` {not_an_amount}"))),
        (
            "1.5nAVAX",
            2,
            clap(
                "1.5nAVAX",
                "`1.5nAVAX` has a fraction of a nAVAX, the smallest unit: give whole nAVAX, or \
                 AVAX (`1.5AVAX`)",
            ),
        ),
        (
            "18446744073709551616nAVAX",
            2,
            clap(
                "18446744073709551616nAVAX",
                "18446744073709551616 nAVAX is more than the most an output holds, \
                 18446744073709551615 nAVAX (2^64 - 1 base units)",
            ),
        ),
        (
            "18446744074",
            1,
            "avax-rpc: `--amount`: 18446744074 AVAX is more than the most an output holds, \
             18446744073.709551615 AVAX (2^64 - 1 base units)"
                .to_string(),
        ),
    ] {
        let (got, _, err) = send(amount);
        assert_eq!(got, Some(code), "{amount}: {err}");
        assert_eq!(first_line(&err), says, "{amount}");
    }
    // Stakes and exports are AVAX: another asset's symbol is refused, saying what to write.
    let (code, _, err) = run_code(&[
        "wallet",
        "stake",
        "--node-id",
        "NodeID-9tLMkeWFhWXd8QZc4rSiS5meuVXF5kRsz",
        "--weight",
        "2000DVT",
        "--end",
        "30d",
        "--save-bls-key",
        "/nonexistent/signer.key",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        first_line(&err),
        "avax-rpc: `--weight` 2000DVT: a stake is in AVAX, not DVT: write `2000` or `2000AVAX`"
    );
    let (code, _, err) = run_code(&[
        "wallet",
        "export",
        "--from-chain",
        "X",
        "--to-chain",
        "P",
        "--amount",
        "0.5 DVT",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        first_line(&err),
        "avax-rpc: `--amount` 0.5 DVT: an export is in AVAX, not DVT: write `0.5` or `0.5AVAX`"
    );
    for (end, says) in [
        ("30", "write a period with its unit"),
        ("30x", "not a period"),
        ("d", "not a period"),
    ] {
        let (ok, _, err) = run(&[
            "wallet",
            "stake",
            "--node-id",
            "NodeID-9tLMkeWFhWXd8QZc4rSiS5meuVXF5kRsz",
            "--weight",
            "2000AVAX",
            "--end",
            end,
        ]);
        assert!(!ok);
        assert!(err.contains("--end") && err.contains(says), "{end}: {err}");
    }
    let (ok, _, err) = run(&[
        "wallet",
        "stake",
        "--node-id",
        "NodeID-9tLMkeWFhWXd8QZc4rSiS5meuVXF5kRsz",
        "--weight",
        "2000AVAX",
        "--end",
        "30d",
        "--shares",
        "101%",
    ]);
    assert!(!ok);
    assert!(
        err.contains("--shares") && err.contains("more than 100%"),
        "{err}"
    );
}

/// `wallet send` sends on the recipient's chain; `--chain`, when given, must agree; a C-chain
/// recipient is refused, pointing to export and import. All before any node is asked.
#[test]
fn wallet_send_takes_the_chain_from_the_recipient() {
    let send = |extra: &[&str]| {
        let mut args = vec!["wallet", "send", "--amount", "1"];
        args.extend_from_slice(extra);
        run_code(&args)
    };
    let to_c = "to move AVAX to the C-chain, export it there and import it: `avax-rpc wallet \
                export --from-chain X --to-chain C --amount 5`, then `avax-rpc wallet import \
                --to-chain C --from-chain X --to 0x…`";
    for (args, says) in [
        (
            vec!["--chain", "P", "--to", EWOQ_X],
            format!(
                "avax-rpc: `--chain` P and `--to` {EWOQ_X} disagree: the recipient's address is \
                 on the X-chain; leave out --chain to send there, or give an address of the \
                 P-chain"
            ),
        ),
        (
            vec!["--chain", "X", "--to", EWOQ_P],
            format!(
                "avax-rpc: `--chain` X and `--to` {EWOQ_P} disagree: the recipient's address is \
                 on the P-chain; leave out --chain to send there, or give an address of the \
                 X-chain"
            ),
        ),
        (
            vec!["--to", "C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"],
            format!(
                "avax-rpc: `--to`: C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u is on the \
                 C-chain, and `wallet send` sends on the X- and P-chains only; {to_c}"
            ),
        ),
        (
            vec![
                "--chain",
                "X",
                "--to",
                "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC",
            ],
            format!(
                "avax-rpc: `--to`: an EVM address (`0x…`) is on the C-chain, and `wallet send` \
                 sends on the X- and P-chains only; {to_c}"
            ),
        ),
        (
            vec!["--to", "local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"],
            "avax-rpc: `--to` local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u names no chain: write \
             the recipient as `X-…` or `P-…`, an address of the node's network (`wallet \
             address` prints the keys')"
                .to_string(),
        ),
        // What is not an address is not repeated (a key pasted there would be shown).
        (
            vec!["--to", "oops"],
            "avax-rpc: `--to` (4 characters) names no chain: write the recipient as `X-…` or \
             `P-…`, an address of the node's network (`wallet address` prints the keys')"
                .to_string(),
        ),
    ] {
        let (code, _, err) = send(&args);
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert_eq!(first_line(&err), says, "{args:?}");
    }
    // `--chain` that agrees, or none: the run goes on to the node (none here).
    let url = format!("http://127.0.0.1:{}", closed_port());
    for args in [vec!["--to", EWOQ_P], vec!["--chain", "P", "--to", EWOQ_P]] {
        let mut all = vec!["--url", url.as_str()];
        all.extend(args.iter().copied());
        let out = Command::new(env!("CARGO_BIN_EXE_avax-rpc"))
            .args(["wallet", "send", "--amount", "1"])
            .args(&all)
            .env("AVAX_PRIVATE_KEY", EWOQ)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("nothing is listening"), "{args:?}: {err}");
    }
}

const AVAX: u64 = 1_000_000_000;

/// 32 bytes that differ on every run: a fresh recipient and node ID on a long-lived devnet.
fn fresh_bytes() -> [u8; 32] {
    let mut x = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        ^ (u64::from(std::process::id()) << 32)
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

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The `txID: …` line of a transaction's output.
fn tx_id(out: &str) -> avalanche_rpc::wire::Id {
    out.lines()
        .find_map(|l| l.strip_prefix("txID: "))
        .unwrap_or_else(|| panic!("no txID in {out}"))
        .parse()
        .unwrap()
}

/// `wallet balance --json`'s spendable AVAX on `chain`.
fn spendable_avax(t: &mut Transcript, url: &str, key_file: &str, chain: &str) -> u64 {
    let out = t.ok(&[
        "wallet",
        "balance",
        "--url",
        url,
        "--key-file",
        key_file,
        "--chain",
        chain,
        "--json",
    ]);
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["chain"] == chain && r["asset"] == "AVAX")
        .map(|r| r["spendable"].as_u64().unwrap())
        .unwrap_or(0)
}

/// What `--key-file keys` holds spendable on the X-chain of the asset with this symbol, in
/// base units (`wallet balance --json`).
fn spendable_x(t: &mut Transcript, url: &str, keys: &str, symbol: &str) -> u64 {
    let out = t.ok(&[
        "wallet",
        "balance",
        "--url",
        url,
        "--key-file",
        keys,
        "--chain",
        "X",
        "--json",
    ]);
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["asset"] == symbol)
        .map(|r| r["spendable"].as_u64().unwrap())
        .unwrap_or(0)
}

/// Done-when 5 of issue 43 (item 6): `wallet send` takes amounts in whole units of the
/// asset's denomination, read from the node (`--amount 5 --asset DVT` is 5 DVT, `1.5DVT`,
/// `0.25 AVAX`), nAVAX only with its unit, on the chain of the recipient's address; too many
/// decimals for the asset, an unknown symbol, an ambiguous one and a contradiction are refused
/// in the words tested here. Needs `DEVNET_URL` (CI: the devnet stage of `.ci/run`).
#[test]
#[ignore = "needs a devnet: tests/with-devnet 19651 wallet cargo test -p avax-rpc --test cli -- --ignored"]
fn wallet_sends_assets_in_whole_units_of_their_denomination() {
    use avalanche_rpc::avm::{AvmClient, GetAssetDescriptionParams};
    use avalanche_rpc::codec::{avm, secp256k1fx};
    use avalanche_rpc::transact::{self, Context, Keychain, Payer, x};
    use avalanche_rpc::wire::Address;

    let url = std::env::var("DEVNET_URL")
        .expect("DEVNET_URL is not set: run `tests/with-devnet 19651 wallet cargo test -p avax-rpc --test cli -- --ignored`");
    let url = url.as_str();
    let _turn = devnet_turn();
    let node = avalanche_rpc::rpc::Node::http(url).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let describe = |a: &str| {
        rt.block_on(
            node.avm("X")
                .get_asset_description(GetAssetDescriptionParams::new(a)),
        )
        .unwrap()
    };
    // The devnet's DVT has 6 decimal places, MNT 2 (read from the node, as the wallet does).
    let dvt = describe("DVT");
    let mnt = describe("MNT");
    assert_eq!((dvt.denomination.0, mnt.denomination.0), (6, 2));
    let (dvt_id, mnt_id) = (dvt.asset_id.to_string(), mnt.asset_id.to_string());

    let dir = Scratch::new("units");
    let keys = dir.write("ewoq.txt", format!("{EWOQ}\n"));
    let seed = fresh_bytes();
    let recipient = avalanche_rpc::keys::PrivateKey::from_bytes(&seed).unwrap();
    let recipient_keys = dir.write("recipient.txt", hex(&seed));
    let rx = Address::new(Some("X"), "local", *recipient.address().as_bytes())
        .unwrap()
        .to_string();
    let mut t = Transcript::default();
    let send = |t: &mut Transcript, from: &str, extra: &[&str]| {
        let mut args = vec![
            "wallet",
            "send",
            "--url",
            url,
            "--key-file",
            from,
            "--to",
            &rx,
        ];
        args.extend_from_slice(extra);
        let out = t.ok(&args);
        assert!(out.contains("accepted on the X-chain"), "{extra:?}: {out}");
    };

    // 5 DVT, the asset named by --asset; 1.5 more, named by its symbol after the number; then
    // 1 DVT named by its ID. No --chain: the recipient's address is on X.
    send(&mut t, &keys, &["--amount", "5", "--asset", "DVT"]);
    assert_eq!(spendable_x(&mut t, url, &recipient_keys, "DVT"), 5_000_000);
    send(&mut t, &keys, &["--amount", "1.5DVT"]);
    send(&mut t, &keys, &["--amount", "1", "--asset", &dvt_id]);
    assert_eq!(spendable_x(&mut t, url, &recipient_keys, "DVT"), 7_500_000);
    // AVAX in whole units with a space before its symbol, and nAVAX only with its unit.
    send(&mut t, &keys, &["--amount", "0.25 AVAX"]);
    send(&mut t, &keys, &["--chain", "X", "--amount", "1000nAVAX"]);
    assert_eq!(
        spendable_x(&mut t, url, &recipient_keys, "AVAX"),
        250_001_000
    );
    // `wallet balance` shows the same whole units.
    let out = t.ok(&[
        "wallet",
        "balance",
        "--url",
        url,
        "--key-file",
        &recipient_keys,
        "--chain",
        "X",
    ]);
    let row = |symbol: &str| {
        out.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|w| w.get(1) == Some(&symbol))
            .unwrap_or_else(|| panic!("no {symbol} row in\n{out}"))
    };
    assert_eq!(row("DVT"), ["X", "DVT", "7.5", "0", dvt_id.as_str()]);
    assert_eq!(row("AVAX")[..4], ["X", "AVAX", "0.250001", "0"]);

    // Refusals, from the recipient (it holds AVAX and DVT), each naming the flag and value.
    let refuse = |t: &mut Transcript, extra: &[&str]| {
        let mut args = vec![
            "wallet",
            "send",
            "--url",
            url,
            "--key-file",
            &recipient_keys,
            "--to",
            EWOQ_X,
        ];
        args.extend_from_slice(extra);
        first_line(&t.fails(1, &args)).to_string()
    };
    assert_eq!(
        refuse(&mut t, &["--amount", "0.0000001DVT"]),
        "avax-rpc: `--amount`: 0.0000001 DVT has more than 6 decimal places (DVT's \
         denomination: its smallest unit is 0.000001 DVT)"
    );
    assert_eq!(
        refuse(&mut t, &["--amount", "0.001", "--asset", "MNT"]),
        "avax-rpc: `--amount`: 0.001 MNT has more than 2 decimal places (MNT's denomination: \
         its smallest unit is 0.01 MNT)"
    );
    assert_eq!(
        refuse(&mut t, &["--amount", "18446744073709.551616DVT"]),
        "avax-rpc: `--amount`: 18446744073709.551616 DVT is more than the most an output \
         holds, 18446744073709.551615 DVT (2^64 - 1 base units)"
    );
    assert_eq!(
        refuse(&mut t, &["--amount", "5ZZZ"]),
        "avax-rpc: `--amount` 5ZZZ: ZZZ is no asset: not the symbol of one the keys hold on the \
         X-chain (AVAX, DVT), nor an asset ID or alias the X-chain knows"
    );
    assert_eq!(
        refuse(&mut t, &["--amount", "5", "--asset", "ZZZ"]),
        "avax-rpc: `--asset`: ZZZ is no asset: not the symbol of one the keys hold on the \
         X-chain (AVAX, DVT), nor an asset ID or alias the X-chain knows"
    );
    assert_eq!(
        refuse(&mut t, &["--amount", "5DVT", "--asset", "MNT"]),
        format!(
            "avax-rpc: `--amount` 5DVT is in DVT ({dvt_id}), but `--asset` is MNT ({mnt_id}): \
             name the asset once, or the same in both"
        )
    );
    assert_eq!(
        refuse(&mut t, &["--amount", "5nAVAX", "--asset", "DVT"]),
        format!(
            "avax-rpc: `--amount` 5nAVAX: nAVAX are AVAX's base units, but `--asset` is DVT \
             ({dvt_id}): write the amount in DVT (`5`, `5DVT`)"
        )
    );

    // Two assets of one symbol held by one key: the symbol is ambiguous, and the error lists
    // both IDs. ewoq creates them, each 1000 units to a fresh key.
    let ctx = rt.block_on(Context::from_node(&node)).unwrap();
    let ewoq = Keychain::parse(EWOQ).unwrap();
    let twin_seed = fresh_bytes();
    let twin = avalanche_rpc::keys::PrivateKey::from_bytes(&twin_seed).unwrap();
    let twin_keys = dir.write("twin.txt", hex(&twin_seed));
    let owner = transact::owners("to", &[twin.address()], 1, 0).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let mut twins = Vec::new();
    for _ in 0..2 {
        let utxos = rt
            .block_on(x::utxos(&node, &ctx, &ewoq.addresses(), None))
            .unwrap();
        let states = vec![avm::InitialState::new(
            0,
            vec![avm::StateOutput::Secp256k1fxTransferOutput(
                secp256k1fx::TransferOutput::new(1000, owner.clone()),
            )],
        )];
        let payer = Payer::new(ewoq.addresses(), now);
        let mut u = x::create_asset_tx(&ctx, &utxos, &payer, ("Twin", "TWN", 0), states).unwrap();
        u.sign(&ewoq).unwrap();
        let pending = rt.block_on(x::issue(&node, &u.signed().unwrap())).unwrap();
        twins.push(pending.tx_id().to_string());
        rt.block_on(pending.wait_for(std::time::Duration::from_secs(30)))
            .unwrap();
    }
    twins.sort();
    let err = t.fails(
        1,
        &[
            "wallet",
            "send",
            "--url",
            url,
            "--key-file",
            &twin_keys,
            "--to",
            EWOQ_X,
            "--amount",
            "1TWN",
        ],
    );
    assert_eq!(
        first_line(&err),
        format!(
            "avax-rpc: `--amount` 1TWN: TWN is ambiguous: the keys hold 2 assets with the symbol \
             TWN on the X-chain, {} and {}; name one by its ID with --asset",
            twins[0], twins[1]
        )
    );
    t.assert_never_shows(&[EWOQ, EWOQ_HEX]);
}

/// Done-when 5 of issue 23: `wallet send` (X and P) and `wallet stake` against a devnet, a
/// dry run that issues nothing, a wrong network's address refused naming the flag, and the
/// key in no argument and no output. Needs `DEVNET_URL`: CI runs it through
/// `tests/with-devnet` (`.ci/run`, the devnet stage).
#[test]
#[ignore = "needs a devnet: tests/with-devnet 19651 wallet cargo test -p avax-rpc --test cli -- --ignored"]
fn wallet_sends_and_stakes_on_the_devnet() {
    use avalanche_rpc::avm::AvmClient;
    use avalanche_rpc::platform::{GetCurrentValidatorsParams, PlatformClient, TxStatus};
    use avalanche_rpc::wire::{Address, NodeId};

    let url = std::env::var("DEVNET_URL")
        .expect("DEVNET_URL is not set: run `tests/with-devnet 19651 wallet cargo test -p avax-rpc --test cli -- --ignored`");
    let url = url.as_str();
    let _turn = devnet_turn();
    let node = avalanche_rpc::rpc::Node::http(url).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let p_status = |id| {
        rt.block_on(
            node.platform()
                .get_tx_status(avalanche_rpc::platform::GetTxStatusParams::new(id)),
        )
        .unwrap()
        .status
    };
    let dir = Scratch::new("wallet");
    let keys = dir.write("ewoq.txt", format!("{EWOQ}\n"));
    let mut t = Transcript::default();

    // Addresses for the node's network.
    let out = t.ok(&["wallet", "address", "--url", url, "--key-file", &keys]);
    assert_eq!(out.trim(), format!("{EWOQ_X}  {EWOQ_P}"));
    // Balances, with the key from the environment variable.
    let r = t.run_env(
        &["wallet", "balance", "--url", url, "--json"],
        &[("AVAX_PRIVATE_KEY", EWOQ)],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let rows: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    for chain in ["X", "P"] {
        assert!(
            rows.as_array().unwrap().iter().any(|r| r["chain"] == chain
                && r["asset"] == "AVAX"
                && r["spendable"].as_u64().unwrap() > 10_000 * AVAX),
            "{rows}"
        );
    }

    // A fresh recipient.
    let seed = fresh_bytes();
    let recipient = avalanche_rpc::keys::PrivateKey::from_bytes(&seed).unwrap();
    let recipient_keys = dir.write("recipient.txt", hex(&seed));
    let payload = *recipient.address().as_bytes();
    let rx = Address::new(Some("X"), "local", payload)
        .unwrap()
        .to_string();
    let rp = Address::new(Some("P"), "local", payload)
        .unwrap()
        .to_string();

    // Send on X.
    let out = t.ok(&[
        "wallet",
        "send",
        "--url",
        url,
        "--key-file",
        &keys,
        "--chain",
        "X",
        "--to",
        &rx,
        "--amount",
        "1.5AVAX",
    ]);
    assert!(out.contains("accepted on the X-chain"), "{out}");
    let id = tx_id(&out);
    rt.block_on(
        node.avm("X")
            .get_tx(avalanche_rpc::avm::GetTxParams::new(id)),
    )
    .expect("the X-chain knows the transaction");
    assert_eq!(
        spendable_avax(&mut t, url, &recipient_keys, "X"),
        1_500_000_000
    );

    // Send on P, the recipient's chain (no --chain): 2 AVAX in whole units.
    let out = t.ok(&[
        "wallet",
        "send",
        "--url",
        url,
        "--key-file",
        &keys,
        "--to",
        &rp,
        "--amount",
        "2",
    ]);
    assert!(out.contains("committed on the P-chain"), "{out}");
    assert_eq!(p_status(tx_id(&out)), TxStatus::Committed);
    assert_eq!(spendable_avax(&mut t, url, &recipient_keys, "P"), 2 * AVAX);

    // --timeout 0: issued and not waited for, exit 0 (a script that retries on failure
    // sends once); the node has the transaction.
    let out = t.ok(&[
        "wallet",
        "send",
        "--url",
        url,
        "--key-file",
        &keys,
        "--chain",
        "X",
        "--to",
        EWOQ_X,
        "--amount",
        "1nAVAX",
        "--timeout",
        "0",
    ]);
    assert!(!out.contains("accepted on the X-chain"), "{out}");
    assert!(
        t.0.last().unwrap().stderr.contains("not waiting"),
        "{}",
        t.0.last().unwrap().stderr
    );
    let id = tx_id(&out);
    let start = std::time::Instant::now();
    while rt
        .block_on(
            node.avm("X")
                .get_tx(avalanche_rpc::avm::GetTxParams::new(id)),
        )
        .is_err()
    {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(30),
            "the X-chain never had the transaction sent with --timeout 0"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }

    // A dry run prints the signed transaction, its fee and burn, and issues nothing.
    let r = t.run(&[
        "wallet",
        "send",
        "--url",
        url,
        "--key-file",
        &keys,
        "--chain",
        "P",
        "--to",
        &rp,
        "--amount",
        "1AVAX",
        "--dry-run",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let dry: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let fee = dry["fee"].as_u64().unwrap();
    assert!(fee > 0 && dry["burned"].as_u64().unwrap() >= fee, "{dry}");
    assert_eq!(dry["tx"]["unsignedTx"]["networkID"], 12345, "{dry}");
    assert!(
        dry["tx"]["unsignedTx"]["outputs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["output"]["addresses"][0] == rp.as_str() && o["output"]["amount"] == AVAX),
        "{dry}"
    );
    assert_eq!(dry["tx"]["credentials"].as_array().unwrap().len(), {
        dry["tx"]["unsignedTx"]["inputs"].as_array().unwrap().len()
    });
    let dry_id: avalanche_rpc::wire::Id = dry["txID"].as_str().unwrap().parse().unwrap();
    assert_eq!(p_status(dry_id), TxStatus::Unknown);
    assert_eq!(spendable_avax(&mut t, url, &recipient_keys, "P"), 2 * AVAX);

    // Another network's address, or another chain's, is refused naming the flag.
    let fuji = Address::new(Some("X"), "fuji", payload)
        .unwrap()
        .to_string();
    let err = t.fails(
        1,
        &[
            "wallet",
            "send",
            "--url",
            url,
            "--key-file",
            &keys,
            "--chain",
            "X",
            "--to",
            &fuji,
            "--amount",
            "1AVAX",
        ],
    );
    assert!(
        err.contains("`--to`") && err.contains("`fuji` network"),
        "{err}"
    );
    let err = t.fails(
        1,
        &[
            "wallet",
            "send",
            "--url",
            url,
            "--key-file",
            &keys,
            "--chain",
            "X",
            "--to",
            &rp,
            "--amount",
            "1AVAX",
        ],
    );
    assert_eq!(
        first_line(&err),
        format!(
            "avax-rpc: `--chain` X and `--to` {rp} disagree: the recipient's address is on the \
             P-chain; leave out --chain to send there, or give an address of the X-chain"
        )
    );

    // Stake with a fresh BLS key, kept in a file and never printed.
    let node_bytes: [u8; 20] = fresh_bytes()[..20].try_into().unwrap();
    let node_id = NodeId::new(node_bytes);
    let node_text = node_id.to_string();
    let bls_file = dir.path("signer.key");
    let out = t.ok(&[
        "wallet",
        "stake",
        "--url",
        url,
        "--key-file",
        &keys,
        "--node-id",
        &node_text,
        "--weight",
        "2000AVAX",
        "--end",
        "30d",
        "--save-bls-key",
        &bls_file,
    ]);
    assert!(out.contains("committed on the P-chain"), "{out}");
    assert_eq!(p_status(tx_id(&out)), TxStatus::Committed);
    let secret: [u8; 32] = std::fs::read(&bls_file).unwrap().try_into().unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&bls_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "the BLS key file is readable by others");
    }
    let public_key = avalanche_rpc::bls::SecretKey::from_bytes(&secret)
        .unwrap()
        .public_key();
    let current =
        |rt: &tokio::runtime::Runtime| {
            rt.block_on(node.platform().get_current_validators(
                GetCurrentValidatorsParams::new().with_node_ids(vec![node_id]),
            ))
            .unwrap()
            .validators
            .into_iter()
            .find(|v| v.node_id == node_id)
            .expect("the new validator is current")
        };
    let v = current(&rt);
    assert_eq!(v.weight.0, 2000 * AVAX);
    assert_eq!(v.signer.as_ref().unwrap().public_key.0, public_key.to_vec());
    // The key file is never overwritten.
    let err = t.fails(
        1,
        &[
            "wallet",
            "stake",
            "--url",
            url,
            "--key-file",
            &keys,
            "--node-id",
            &node_text,
            "--weight",
            "2000AVAX",
            "--end",
            "30d",
            "--save-bls-key",
            &bls_file,
            "--dry-run",
        ],
    );
    assert!(err.contains("never overwritten"), "{err}");

    // Delegate to it, within its room and period.
    let out = t.ok(&[
        "wallet",
        "delegate",
        "--url",
        url,
        "--key-file",
        &keys,
        "--node-id",
        &node_text,
        "--weight",
        "25AVAX",
        "--end",
        "20d",
    ]);
    assert_eq!(p_status(tx_id(&out)), TxStatus::Committed);
    assert_eq!(current(&rt).delegator_weight.unwrap().0, 25 * AVAX);
    let err = t.fails(
        1,
        &[
            "wallet",
            "delegate",
            "--url",
            url,
            "--key-file",
            &keys,
            "--node-id",
            &node_text,
            "--weight",
            "10000AVAX",
            "--end",
            "20d",
            "--dry-run",
        ],
    );
    assert!(
        err.contains("`--weight`") && err.contains("7975000000000"),
        "{err}"
    );

    // X to P and back to the recipient's own keys: export, then import what was exported.
    let out = t.ok(&[
        "wallet",
        "export",
        "--url",
        url,
        "--key-file",
        &recipient_keys,
        "--from-chain",
        "X",
        "--to-chain",
        "P",
        "--amount",
        "1AVAX",
    ]);
    assert!(out.contains("accepted on the X-chain"), "{out}");
    let out = t.ok(&[
        "wallet",
        "import",
        "--url",
        url,
        "--key-file",
        &recipient_keys,
        "--to-chain",
        "P",
        "--from-chain",
        "X",
    ]);
    assert_eq!(p_status(tx_id(&out)), TxStatus::Committed);
    let p = spendable_avax(&mut t, url, &recipient_keys, "P");
    assert!(p > 2 * AVAX + AVAX - 1_000_000 && p < 3 * AVAX, "{p}");
    let err = t.fails(
        1,
        &[
            "wallet",
            "import",
            "--url",
            url,
            "--key-file",
            &recipient_keys,
            "--to-chain",
            "P",
            "--from-chain",
            "X",
        ],
    );
    assert!(err.contains("nothing to import"), "{err}");

    let bls_hex = hex(&secret);
    t.assert_never_shows(&[EWOQ, &EWOQ[11..], EWOQ_HEX, &hex(&seed), &bls_hex]);
}

/// AVAX through the C-chain's atomic side with `wallet export`/`import`: X → C (credited to
/// the key's EVM address, checked to the wei with `eth_getBalance`), C → P (the account
/// debited the amount and the fee, its nonce counted), the P import; a dry run of a C export
/// prints it and issues nothing; `--out` is refused for the C-chain. Needs `DEVNET_URL`
/// (CI: the devnet stage of `.ci/run`).
#[test]
#[ignore = "needs a devnet: DEVNET_URL"]
fn wallet_moves_avax_through_the_c_chain_on_the_devnet() {
    use avalanche_rpc::eth::{EthClient, GetBalanceParams, GetTransactionCountParams};
    let url = std::env::var("DEVNET_URL").expect("DEVNET_URL is not set");
    let url = url.as_str();
    let _turn = devnet_turn();
    let node = avalanche_rpc::rpc::Node::http(url).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let evm = EWOQ
        .parse::<avalanche_rpc::keys::PrivateKey>()
        .unwrap()
        .evm_address();
    let account = || {
        let eth = node.eth("C");
        let balance = rt
            .block_on(eth.get_balance(GetBalanceParams::new(evm, "latest")))
            .unwrap()
            .get();
        let nonce = rt
            .block_on(eth.get_transaction_count(GetTransactionCountParams::new(evm, "latest")))
            .unwrap()
            .get();
        (balance, nonce)
    };
    let dir = Scratch::new("through-c");
    let keys = dir.write("ewoq.txt", format!("{EWOQ}\n"));
    let mut t = Transcript::default();
    let wallet = |t: &mut Transcript, args: &[&str]| {
        let mut all = vec!["wallet", args[0], "--url", url, "--key-file", &keys];
        all.extend_from_slice(&args[1..]);
        t.ok(&all)
    };
    // The number after `label` in `out`.
    let number = |out: &str, label: &str| -> u128 {
        let at = out
            .find(label)
            .unwrap_or_else(|| panic!("no {label} in {out}"))
            + label.len();
        out[at..]
            .trim_start()
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };

    // X → C.
    let out = wallet(
        &mut t,
        &[
            "export",
            "--from-chain",
            "X",
            "--to-chain",
            "C",
            "--amount",
            "5AVAX",
        ],
    );
    assert!(out.contains("accepted on the X-chain"), "{out}");
    assert!(out.contains("import --to-chain C --from-chain X"), "{out}");
    let (before, nonce) = account();
    let out = wallet(&mut t, &["import", "--to-chain", "C", "--from-chain", "X"]);
    assert!(out.contains("accepted on the C-chain"), "{out}");
    let fee = number(&out, "fee:");
    let (after, same) = account();
    assert_eq!(
        after,
        before + (5 * u128::from(AVAX) - fee) * 1_000_000_000,
        "{out}"
    );
    assert_eq!(same, nonce, "an import leaves the nonce");

    // A dry run of C → P issues nothing; `--out` is refused.
    let out = wallet(
        &mut t,
        &[
            "export",
            "--from-chain",
            "C",
            "--to-chain",
            "P",
            "--amount",
            "2AVAX",
            "--dry-run",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["chain"], "C");
    assert_eq!(
        v["tx"]["unsignedTx"]["inputs"][0]["address"],
        evm.to_string()
    );
    assert_eq!(account(), (after, nonce), "nothing issued");
    let err = t.fails(
        1,
        &[
            "wallet",
            "export",
            "--url",
            url,
            "--key-file",
            &keys,
            "--from-chain",
            "C",
            "--to-chain",
            "P",
            "--amount",
            "2AVAX",
            "--out",
            "c.json",
        ],
    );
    assert!(err.contains("`--out`") && err.contains("C-chain"), "{err}");

    // C → P, then imported on P.
    let p_before = spendable_avax(&mut t, url, &keys, "P");
    let out = wallet(
        &mut t,
        &[
            "export",
            "--from-chain",
            "C",
            "--to-chain",
            "P",
            "--amount",
            "2AVAX",
        ],
    );
    assert!(out.contains("accepted on the C-chain"), "{out}");
    let fee = number(&out, "fee:");
    let (debited, next) = account();
    assert_eq!(
        debited,
        after - (2 * u128::from(AVAX) + fee) * 1_000_000_000,
        "{out}"
    );
    assert_eq!(next, nonce + 1, "an export uses the nonce");
    let out = wallet(&mut t, &["import", "--to-chain", "P", "--from-chain", "C"]);
    assert!(out.contains("committed on the P-chain"), "{out}");
    let burned = number(&out, "burned");
    assert_eq!(
        u128::from(spendable_avax(&mut t, url, &keys, "P")),
        u128::from(p_before) + 2 * u128::from(AVAX) - burned
    );
    // The same chain twice is refused, naming the flag.
    let err = t.fails(
        1,
        &[
            "wallet",
            "import",
            "--url",
            url,
            "--key-file",
            &keys,
            "--to-chain",
            "C",
            "--from-chain",
            "C",
        ],
    );
    assert!(
        err.contains("`--from-chain`") && err.contains("C-chain"),
        "{err}"
    );
    t.assert_never_shows(&[EWOQ, &EWOQ[11..], EWOQ_HEX]);
}

// ---- `avax-rpc call` ----

/// A port on 127.0.0.1 that nothing listens on (bound, then let go).
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// A run's exit code, standard output and standard error.
fn run_code(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_avax-rpc"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The words of a shell line as `call`'s help quotes them: plain, or in single quotes with
/// `'\''` for a quote.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    word.push(q);
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    word.push(n);
                }
            }
            ' ' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The flags of the example invocation `call METHOD --help` shows (after `avax-rpc call
/// METHOD`).
fn help_example(method: &str) -> Vec<String> {
    let (code, out, err) = run_code(&["call", method, "--help"]);
    assert_eq!(code, Some(0), "{err}");
    let mut lines = out.lines();
    lines
        .find(|l| l.starts_with("Example (the spec's"))
        .unwrap_or_else(|| panic!("no example in the help of {method}:\n{out}"));
    let line = lines.next().expect("the example's line").trim();
    let words = shell_words(line);
    assert_eq!(words[..3], ["avax-rpc", "call", method], "{line}");
    words[3..].to_vec()
}

#[test]
fn call_refuses_a_bad_value_naming_the_flag_before_sending_anything() {
    // Nothing listens there: a param error must come before any connection.
    let url = format!("http://127.0.0.1:{}", closed_port());
    let (code, out, err) = run_code(&[
        "call",
        "platform.getBalance",
        "--url",
        &url,
        "--addresses",
        "notanaddress",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--addresses") && err.contains("invalid address \"notanaddress\""),
        "{err}"
    );
    assert!(
        !err.contains("transport") && !err.contains("onnect"),
        "{err}"
    );
    // One bad element of a comma-separated list, after a good one.
    let (code, _, err) = run_code(&[
        "call",
        "platform.getBalance",
        "--url",
        &url,
        "--addresses",
        "P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u,nope",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--addresses") && err.contains("addresses[1]"),
        "{err}"
    );
    // A number that is not one.
    let (code, _, err) = run_code(&[
        "call",
        "platform.getBlockByHeight",
        "--url",
        &url,
        "--height",
        "-1",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("avax-rpc call: --height: "), "{err}");
    // A required param left out.
    let (code, _, err) = run_code(&["call", "avm.getTx", "--url", &url]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--txID is required"), "{err}");
    // The whole object: the error names --params and the member's path.
    let (code, _, err) = run_code(&[
        "call",
        "avm.getUTXOs",
        "--url",
        &url,
        "--params",
        r#"{"addresses": ["X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"], "startIndex": {"address": 5, "utxo": ""}}"#,
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--params") && err.contains("startIndex.address"),
        "{err}"
    );
    let (code, _, err) = run_code(&[
        "call",
        "avm.getTx",
        "--url",
        &url,
        "--params",
        r#"{"txid": "2oGdp"}"#,
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--params: `avm.getTx` takes no member `txid`"),
        "{err}"
    );
    // A member under the alias the node also reads is taken, and checked.
    let (code, _, err) = run_code(&[
        "call",
        "avm.getTx",
        "--url",
        &url,
        "--params",
        r#"{"txId": "2oGdp"}"#,
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--params: at `txId`"), "{err}");
    // An unknown flag.
    let (code, _, err) = run_code(&["call", "info.getNodeID", "--url", &url, "--nodeID", "x"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--nodeID") && err.contains("The flags of info.getNodeID: none"),
        "{err}"
    );
    let (code, _, err) = run_code(&["call", "avm.getTx", "--url", &url, "--txid", "x"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("The flags of avm.getTx: --chain, --txID, --encoding"),
        "{err}"
    );
    // Good params get as far as the connection, which fails: exit 1, a transport error.
    let (code, _, err) = run_code(&[
        "call",
        "platform.getBalance",
        "--url",
        &url,
        "--addresses",
        "P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("platform.getBalance: transport failed"),
        "{err}"
    );
}

#[test]
fn call_lists_the_methods_helps_with_each_and_suggests_names() {
    use avalanche_rpc::METHODS;

    let (code, out, err) = run_code(&["call", "--list"]);
    assert_eq!(code, Some(0), "{err}");
    for m in METHODS {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(m.name))
            .unwrap_or_else(|| panic!("{} is not listed:\n{out}", m.name));
        assert!(line.contains(m.summary), "{line}");
    }
    let line = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap()
            .to_string()
    };
    assert!(line("avm.getAddressTxs").ends_with("[removed in v1.13.1]"));
    assert!(line("platform.getBalance").ends_with("[deprecated]"));
    assert!(line("devnet.fund").contains("devnet only"));
    assert!(line("avm.getTxFee").ends_with("[since v1.12.2]"));
    assert!(out.contains(&format!("{} methods", METHODS.len())));

    // A method's help: summary, description, each param with its type, whether it may be
    // left out and its default, and an example from the spec.
    let (code, out, err) = run_code(&["call", "platform.getBalance", "--help"]);
    assert_eq!(code, Some(0), "{err}");
    for part in [
        "Balances of a set of addresses, split into unlocked",
        "Adds up the P-Chain UTXOs owned by the given addresses.",
        "--addresses <address>",
        "Addresses to total",
        "Type `list<address>` (repeat the flag",
        "optional, the node's default []",
        "--address <address>",
        "Deprecated.",
        "--url <URL>",
        "[default: http://127.0.0.1:9650]",
        "Example (the spec's \"One address holding unlocked AVAX\"):",
        "  avax-rpc call platform.getBalance --addresses P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5",
    ] {
        assert!(out.contains(part), "no `{part}` in:\n{out}");
    }
    let (code, out, err) = run_code(&["call", "avm.getTx", "--help"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("--chain <CHAIN>") && out.contains("[default: X]"),
        "{out}"
    );
    assert!(out.contains("Type `id`; required."), "{out}");
    // The index's path variables have no default in the spec: both flags are required.
    let (code, _, err) = run_code(&["call", "index.getLastAccepted"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--chain") && err.contains("--kind"), "{err}");

    // An unknown method: the closest names.
    let (code, _, err) = run_code(&["call", "platform.getbalance"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("did you mean `platform.getBalance`?"), "{err}");
    let (code, _, err) = run_code(&["call", "getUTXOs"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("`avm.getUTXOs`") && err.contains("`platform.getUTXOs`"),
        "{err}"
    );
    let (code, _, err) = run_code(&["call", "info.getNodeVersio"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("did you mean `info.getNodeVersion`?"), "{err}");
    // No method.
    let (code, _, err) = run_code(&["call"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("avax-rpc call --list"), "{err}");
}

/// Every method's help example, run as shown against a server answering from the spec's
/// examples: the flags give the example's params, and the output is the example's result.
#[test]
fn call_runs_every_methods_help_example_against_the_spec_examples() {
    use avalanche_rpc::rpc::{ServerConfig, SpecExamples};
    use avalanche_rpc::{
        METHODS, admin, avm, avm_static, devnet, health, index, info, platform, proposervm, wallet,
    };

    let rt = tokio::runtime::Runtime::new().unwrap();
    let s = SpecExamples;
    let url = rt.block_on(async {
        let router = info::router(s)
            .merge(platform::router(s))
            .merge(avm::router(s, "X"))
            .merge(avm_static::router(s))
            .merge(devnet::router(s))
            .merge(wallet::router(s, "X"))
            .merge(avalanche_rpc::avax::router(s, "C"))
            .merge(avalanche_rpc::eth::router(s, "C"))
            .merge(index::router(s, "X", "tx"))
            .merge(proposervm::router(s, "P"))
            .merge(health::router(s))
            .merge(admin::router(s));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(avalanche_rpc::rpc::serve(
            listener,
            router,
            ServerConfig::default(),
        ));
        format!("http://{addr}")
    });
    let mut failures = Vec::new();
    for m in METHODS {
        let first = &m.examples[0];
        // The example the server answers with: the first of the same params it can send.
        let asked = m.roundtrip_params(&first.params()).unwrap();
        let answer = m
            .examples
            .iter()
            .filter(|e| e.normalized.is_none())
            .find(|e| m.roundtrip_params(&e.params()).as_ref() == Ok(&asked))
            .expect("an example the server sends");
        let mut args = vec!["call".to_string(), m.name.to_string()];
        args.extend(help_example(m.name));
        args.extend(["--url".to_string(), url.clone(), "--raw".to_string()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = run_code(&args);
        if code != Some(0) {
            failures.push(format!("{}: exit {code:?}: {err}", args.join(" ")));
            continue;
        }
        assert_eq!(out.lines().count(), 1, "--raw prints one line: {out}");
        let got: serde_json::Value = serde_json::from_str(&out).unwrap();
        if got != answer.result() {
            failures.push(format!(
                "{}: got {got}\nwant {}",
                args.join(" "),
                answer.result()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} methods failed:\n{}",
        failures.len(),
        METHODS.len(),
        failures.join("\n")
    );
    // The node's error: code and message on standard error, exit 1.
    let (code, out, err) = run_code(&[
        "call",
        "info.getBlockchainID",
        "--url",
        &url,
        "--alias",
        "nothing-such",
    ]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        err.contains("info.getBlockchainID: the node answered with error -32000: no example")
            && err.contains("data: "),
        "{err}"
    );
    // Pretty by default.
    let (code, out, err) = run_code(&["call", "info.getNetworkID", "--url", &url]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "{\n  \"networkID\": \"1\"\n}\n");
}

/// `export --out FILE` over a file that is not this tool's (no newline: a one-line JSON
/// document, a note, a binary file; or lines that are not containers) refuses it before
/// anything is asked of the node, and leaves it byte for byte as it was. (The node here
/// answers `info.getNetworkID`, so a run that took the file would go on and cut it.)
#[test]
fn export_refuses_a_file_that_is_not_its_own_and_leaves_it_untouched() {
    use avalanche_rpc::info;
    use avalanche_rpc::rpc::{ServerConfig, SpecExamples};
    let rt = tokio::runtime::Runtime::new().unwrap();
    let url = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(avalanche_rpc::rpc::serve(
            listener,
            info::router(SpecExamples),
            ServerConfig::default(),
        ));
        format!("http://{addr}")
    });
    let dir = Scratch::new("export-foreign");
    let binary: Vec<u8> = (0..=255u8)
        .filter(|b| *b != b'\n')
        .cycle()
        .take(5000)
        .collect();
    let mut binary_with_newlines: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    binary_with_newlines.extend_from_slice(b"\n");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "doc.json",
            br#"{"network":"local","nodes":[1,2,3]}"#.to_vec(),
        ),
        (
            "id.json",
            br#"{"id":"2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM","index":"0"}"#.to_vec(),
        ),
        (
            "note.txt",
            b"remember: the devnet's keys are in ~/keys".to_vec(),
        ),
        ("short", b"{".to_vec()),
        ("binary.bin", binary),
        ("binary-lines.bin", binary_with_newlines),
        (
            "lines.jsonl",
            b"{\"a\":1}\n{\"index\":\"3\",\"id\":\"x\"}\n".to_vec(),
        ),
    ];
    for (name, bytes) in cases {
        let path = dir.0.join(name);
        std::fs::write(&path, &bytes).unwrap();
        let (code, _, err) = run_code(&["export", "--url", &url, "--out", path.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{name}: {err}");
        assert!(
            err.contains("not a file of this tool") && err.contains("left as it is"),
            "{name}: {err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{name}: changed");
    }
    // A partial first line of this tool (a run stopped in its first page) is taken, and cut:
    // here the node has no index, so the run stops after cutting it.
    let partial = dir.0.join("partial.jsonl");
    std::fs::write(&partial, br#"{"id":"2oYMBNV4eNHyqk2fjjV5n"#).unwrap();
    let (code, _, err) = run_code(&["export", "--url", &url, "--out", partial.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(!err.contains("not a file of this tool"), "{err}");
}

/// The ignored tests share one devnet, and `call_calls_every_method_the_devnet_serves`
/// snapshots and reverts its state: they take turns.
static DEVNET: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn devnet_turn() -> std::sync::MutexGuard<'static, ()> {
    DEVNET.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a call must give.
enum Expect<'a> {
    /// Exit 0 and the result, which decodes as the method's result type.
    Result,
    /// Exit 1 and the node's JSON-RPC error of this code, its message containing this.
    Error(i64, &'a str),
}

/// The methods to call, and which were.
struct DevnetCalls {
    url: String,
    to_call: std::collections::BTreeSet<&'static str>,
    called: std::collections::BTreeSet<&'static str>,
}

impl DevnetCalls {
    /// `avax-rpc call METHOD ARGS… --url URL --raw`, checked against `expect`; the result.
    fn call(&mut self, method: &str, args: &[&str], expect: Expect) -> serde_json::Value {
        let m = avalanche_rpc::METHODS
            .iter()
            .find(|m| m.name == method)
            .unwrap_or_else(|| panic!("no method {method}"));
        assert!(
            self.to_call.contains(m.name),
            "{method} is not served at the devnet's version"
        );
        self.called.insert(m.name);
        let mut all = vec!["call", method];
        all.extend(args);
        all.extend(["--url", &self.url, "--raw"]);
        let (code, out, err) = run_code(&all);
        let shown = all.join(" ");
        match expect {
            Expect::Result => {
                assert_eq!(code, Some(0), "{shown}\n{err}");
                let v: serde_json::Value = serde_json::from_str(&out)
                    .unwrap_or_else(|e| panic!("{shown}: not JSON ({e}): {out}"));
                if let Err(e) = m.roundtrip_result(&v) {
                    panic!("{shown}: the result does not decode as the spec's: {e}\n{out}");
                }
                v
            }
            Expect::Error(rpc_code, message) => {
                assert_eq!(code, Some(1), "{shown}\nstdout: {out}\nstderr: {err}");
                let want = format!("{method}: the node answered with error {rpc_code}: ");
                assert!(
                    err.contains(&want) && err.contains(message),
                    "{shown}: want `{want}…{message}…`, got {err}"
                );
                serde_json::Value::Null
            }
        }
    }
}

/// `s` as a `&str` (a JSON string value of a reply).
fn text(v: &serde_json::Value) -> String {
    v.as_str()
        .unwrap_or_else(|| panic!("not a string: {v}"))
        .to_string()
}

/// `(major, minor, patch)` of `v1.13.1`, `1.15.0` or `avalanchego/1.15.0`.
fn version(v: &str) -> (u32, u32, u32) {
    let v = v.rsplit('/').next().unwrap().trim_start_matches('v');
    let mut parts = v.split('.').map(|p| p.parse::<u32>().unwrap());
    (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    )
}

/// `avax-rpc call` for every method the devnet serves: every method of every interface of the
/// spec, `devnet.*` included, but those removed from the node at the devnet's version. Params
/// come from the spec's examples where they fit the devnet, else from earlier replies (block
/// and transaction IDs, heights, Subnets, chains, an L1 validator, index containers) and the
/// funded ewoq key. Each result must decode as the method's result type; the three `issueTx`
/// get garbage and must give the node's error. State changes last, between a snapshot and a
/// revert, so the devnet ends as it began (but for its clock).
#[test]
#[ignore = "needs a devnet: tests/with-devnet 19651 wallet cargo test -p avax-rpc --test cli -- --ignored"]
fn call_calls_every_method_the_devnet_serves() {
    let url = std::env::var("DEVNET_URL")
        .expect("DEVNET_URL is not set: run `tests/with-devnet 19651 wallet cargo test -p avax-rpc --test cli -- --ignored`");
    let _turn = devnet_turn();
    let mut c = DevnetCalls {
        url,
        to_call: Default::default(),
        called: Default::default(),
    };
    use Expect::{Error, Result as Ok_};

    // The node's version first: what it serves.
    c.to_call.insert("info.getNodeVersion");
    let v = c.call("info.getNodeVersion", &[], Ok_);
    let served = version(&text(&v["version"]));
    c.to_call = avalanche_rpc::METHODS
        .iter()
        .filter(|m| m.removed.is_none_or(|r| version(r) > served))
        .map(|m| m.name)
        .collect();
    let removed = avalanche_rpc::METHODS.len() - c.to_call.len();
    assert!(
        removed >= 2,
        "avm.buildGenesis and avm.getAddressTxs are gone"
    );

    // info: the spec's examples fit (X's alias, the X-chain).
    for m in [
        "info.acps",
        "info.getNetworkID",
        "info.getNetworkName",
        "info.getNodeID",
        "info.getNodeIP",
        "info.getTxFee",
        "info.getVMs",
        "info.upgrades",
        "info.peers",
        "info.uptime",
    ] {
        c.call(m, &[], Ok_);
    }
    let example = help_example("info.getBlockchainID");
    let example: Vec<&str> = example.iter().map(String::as_str).collect();
    let x_chain = text(&c.call("info.getBlockchainID", &example, Ok_)["blockchainID"]);
    let example = help_example("info.isBootstrapped");
    let example: Vec<&str> = example.iter().map(String::as_str).collect();
    let ready = c.call("info.isBootstrapped", &example, Ok_);
    assert_eq!(ready["isBootstrapped"], true);

    // platform: blocks, transactions, balances of the funded key.
    let height = text(&c.call("platform.getHeight", &[], Ok_)["height"]);
    let block = c.call(
        "platform.getBlockByHeight",
        &["--height", "1", "--encoding", "json"],
        Ok_,
    );
    let p_block = text(&block["block"]["id"]);
    let p_tx = text(&block["block"]["txs"][0]["id"]);
    let again = c.call(
        "platform.getBlock",
        &["--blockID", &p_block, "--encoding", "json"],
        Ok_,
    );
    assert_eq!(again["block"], block["block"]);
    c.call("platform.getProposedHeight", &[], Ok_);
    c.call("platform.getTimestamp", &[], Ok_);
    let tx = c.call(
        "platform.getTx",
        &["--txID", &p_tx, "--encoding", "json"],
        Ok_,
    );
    assert_eq!(tx["tx"]["id"], p_tx.as_str());
    let status = c.call("platform.getTxStatus", &["--txID", &p_tx], Ok_);
    assert_eq!(status["status"], "Committed");
    let balance = c.call("platform.getBalance", &["--addresses", EWOQ_P], Ok_);
    assert_ne!(balance["unlocked"], "0");
    c.call("platform.getUTXOs", &["--addresses", EWOQ_P], Ok_);
    c.call("platform.getStake", &["--addresses", EWOQ_P], Ok_);
    let current = c.call("platform.getCurrentValidators", &[], Ok_);
    let staker = &current["validators"][0];
    let staking_tx = text(&staker["txID"]);
    let node_id = text(&staker["nodeID"]);
    c.call("platform.getRewardUTXOs", &["--txID", &staking_tx], Ok_);
    let current = c.call(
        "platform.getCurrentValidators",
        &["--nodeIDs", &node_id],
        Ok_,
    );
    assert_eq!(current["validators"].as_array().unwrap().len(), 1);
    c.call("platform.getValidatorsAt", &["--height", &height], Ok_);
    c.call("platform.getAllValidatorsAt", &["--height", &height], Ok_);
    c.call("platform.sampleValidators", &["--size", "1"], Ok_);
    c.call("platform.getMinStake", &[], Ok_);
    c.call("platform.getTotalStake", &[], Ok_);
    c.call("platform.getCurrentSupply", &[], Ok_);
    let avax = text(&c.call("platform.getStakingAssetID", &[], Ok_)["assetID"]);
    // The Subnets and chains of the start history; an L1 validator of one of them.
    let subnets = c.call("platform.getSubnets", &[], Ok_);
    let mut validation_id = None;
    let mut l1 = None;
    for s in subnets["subnets"].as_array().unwrap() {
        let id = text(&s["id"]);
        let r = c.call("platform.getCurrentValidators", &["--subnetID", &id], Ok_);
        if let Some(v) = r["validators"]
            .as_array()
            .unwrap()
            .iter()
            .find_map(|v| v["validationID"].as_str())
        {
            validation_id = Some(v.to_string());
            l1 = Some(id);
        }
    }
    let (validation_id, l1) = (
        validation_id.expect("the start history has an L1 validator"),
        l1.unwrap(),
    );
    c.call(
        "platform.getL1Validator",
        &["--validationID", &validation_id],
        Ok_,
    );
    let subnet = c.call("platform.getSubnet", &["--subnetID", &l1], Ok_);
    assert_eq!(subnet["isPermissioned"], false, "{subnet}");
    let chains = c.call("platform.getBlockchains", &[], Ok_);
    let l1_chain = chains["blockchains"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["subnetID"] == l1.as_str())
        .map(|b| text(&b["id"]))
        .expect("the L1's chain");
    let validates = c.call("platform.validates", &["--subnetID", &l1], Ok_);
    assert_eq!(validates["blockchainIDs"][0], l1_chain.as_str());
    let by = c.call("platform.validatedBy", &["--blockchainID", &l1_chain], Ok_);
    assert_eq!(by["subnetID"], l1.as_str());
    let status = c.call(
        "platform.getBlockchainStatus",
        &["--blockchainID", &x_chain],
        Ok_,
    );
    assert_eq!(status["status"], "Validating");
    for m in [
        "platform.getFeeConfig",
        "platform.getFeeState",
        "platform.getValidatorFeeConfig",
        "platform.getValidatorFeeState",
    ] {
        c.call(m, &[], Ok_);
    }

    // avm on the X-chain (the default chain), and by its ID.
    c.call("avm.getHeight", &[], Ok_);
    c.call("avm.getHeight", &["--chain", &x_chain], Ok_);
    let block = c.call(
        "avm.getBlockByHeight",
        &["--height", "1", "--encoding", "json"],
        Ok_,
    );
    let x_block = text(&block["block"]["id"]);
    let x_tx = text(&block["block"]["txs"][0]["id"]);
    c.call("avm.getBlock", &["--blockID", &x_block], Ok_);
    let tx = c.call("avm.getTx", &["--txID", &x_tx, "--encoding", "json"], Ok_);
    assert_eq!(tx["tx"]["id"], x_tx.as_str());
    let status = c.call("avm.getTxStatus", &["--txID", &x_tx], Ok_);
    assert_eq!(status["status"], "Accepted");
    c.call("avm.getTxFee", &[], Ok_);
    let asset = c.call("avm.getAssetDescription", &["--assetID", "AVAX"], Ok_);
    assert_eq!(asset["assetID"], avax.as_str());
    let b = c.call(
        "avm.getBalance",
        &["--address", EWOQ_X, "--assetID", &avax],
        Ok_,
    );
    assert_ne!(b["balance"], "0");
    c.call("avm.getAllBalances", &["--address", EWOQ_X], Ok_);
    c.call("avm.getUTXOs", &["--addresses", EWOQ_X], Ok_);

    // Transactions that are not: the node's error, and nothing issued.
    for m in ["platform.issueTx", "avm.issueTx", "wallet.issueTx"] {
        c.call(
            m,
            &["--tx", "0x00"],
            Error(-32602, "problem decoding transaction"),
        );
    }

    // The index of the X-chain's blocks.
    let index = ["--chain", "X", "--kind", "block"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        index.iter().copied().chain(extra.iter().copied()).collect()
    };
    let last = c.call("index.getLastAccepted", &with(&[]), Ok_);
    let id = text(&last["id"]);
    let first = c.call("index.getContainerByIndex", &with(&["--index", "0"]), Ok_);
    assert_eq!(first["index"], "0");
    let range = c.call(
        "index.getContainerRange",
        &with(&["--startIndex", "0", "--numToFetch", "2"]),
        Ok_,
    );
    assert_eq!(range["containers"][0]["id"], first["id"]);
    let mut args = with(&["--id"]);
    args.push(&id);
    let by_id = c.call("index.getContainerByID", &args, Ok_);
    assert_eq!(by_id["bytes"], last["bytes"]);
    let at = c.call("index.getIndex", &args, Ok_);
    assert_eq!(at["index"], last["index"]);
    let accepted = c.call("index.isAccepted", &args, Ok_);
    assert_eq!(accepted["isAccepted"], true);
    // Nothing was accepted into the X-chain's transaction index: the node's error.
    c.call(
        "index.getLastAccepted",
        &["--chain", "X", "--kind", "tx"],
        Error(-32000, "no containers have been accepted"),
    );

    // The proposer VM of the P-chain (its default) and of the X-chain.
    c.call("proposervm.getProposedHeight", &[], Ok_);
    c.call("proposervm.getCurrentEpoch", &[], Ok_);
    c.call("proposervm.getCurrentEpoch", &["--chain", "X"], Ok_);

    // The devnet's controls, between a snapshot and a revert.
    let snapshot = text(&c.call("devnet.snapshot", &[], Ok_)["id"]);
    c.call("devnet.advanceClock", &["--seconds", "1"], Ok_);
    let funded = c.call("devnet.fund", &["--address", EWOQ_X, "--amount", "1"], Ok_);
    let funded = text(&funded["txID"]);
    c.call("devnet.buildBlocks", &[], Ok_);
    let status = c.call("avm.getTxStatus", &["--txID", &funded], Ok_);
    assert_eq!(status["status"], "Accepted");
    // The spec's example (the start history's L1 manager asks for a validator's weight),
    // from this devnet's L1 chain: its ID depends on the genesis time.
    let example = help_example("devnet.signWarpMessage");
    assert_eq!(example[0], "--message");
    let chain: avalanche_rpc::wire::Id = l1_chain.parse().unwrap();
    // Codec version (2 bytes), network ID (4), source chain ID (32), payload.
    let message = format!(
        "{}{}{}",
        &example[1][..2 + 12],
        hex(chain.as_bytes()),
        &example[1][2 + 12 + 64..]
    );
    let signed = c.call("devnet.signWarpMessage", &["--message", &message], Ok_);
    assert!(
        text(&signed["signedMessage"]).starts_with(&message),
        "{signed}"
    );
    let reverted = c.call("devnet.revert", &["--id", &snapshot], Ok_);
    assert_eq!(reverted["reverted"], true);
    let status = c.call("avm.getTxStatus", &["--txID", &funded], Ok_);
    assert_eq!(status["status"], "Unknown", "the revert undid the funding");

    // The C-chain's atomic side and its `eth_` reads (positional params, given by name here).
    let ewoq_c = EWOQ_X.replacen("X-", "C-", 1);
    let utxos = c.call(
        "avax.getUTXOs",
        &["--addresses", &ewoq_c, "--sourceChain", "P"],
        Ok_,
    );
    assert_eq!(utxos["numFetched"], "0", "{utxos}");
    let unknown = avalanche_rpc::wire::Id::new([7; 32]).to_string();
    c.call(
        "avax.getAtomicTx",
        &["--txID", &unknown],
        Error(-32000, "could not find tx"),
    );
    let status = c.call("avax.getAtomicTxStatus", &["--txID", &unknown], Ok_);
    assert_eq!(status["status"], "Unknown", "{status}");
    c.call(
        "avax.issueTx",
        &["--tx", "0x00"],
        Error(-32602, "input is smaller than the checksum size"),
    );
    assert_eq!(c.call("eth_chainId", &[], Ok_), "0xa868");
    assert_eq!(c.call("eth_baseFee", &[], Ok_), "0x1");
    c.call("eth_blockNumber", &[], Ok_);
    let ewoq_evm = EWOQ
        .parse::<avalanche_rpc::keys::PrivateKey>()
        .unwrap()
        .evm_address()
        .to_string();
    let args = ["--address", ewoq_evm.as_str(), "--block", "latest"];
    let balance = c.call("eth_getBalance", &args, Ok_);
    assert!(text(&balance).starts_with("0x"), "{balance}");
    c.call("eth_getTransactionCount", &args, Ok_);

    // health: every check passes on a started devnet; a tag no chain's check has leaves only
    // the checks every tag includes (the node's `application` ones: `bootstrapped`).
    for m in ["health.health", "health.readiness", "health.liveness"] {
        let h = c.call(m, &[], Ok_);
        assert_eq!(h["healthy"], true, "{m}: {h}");
    }
    let all = c.call("health.health", &[], Ok_);
    assert!(all["checks"].get("X").is_some(), "{all}");
    let tagged = c.call("health.health", &["--tags", "no-such-tag"], Ok_);
    let names: Vec<&String> = tagged["checks"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["bootstrapped"], "{tagged}");

    // admin (the devnet runs with --api-admin-enabled): an endpoint alias and a chain alias
    // the devnet then answers to, its loggers, configuration and store; the Go runtime dumps
    // refused, naming why.
    c.call(
        "admin.alias",
        &["--endpoint", "bc/X", "--alias", "cliX"],
        Ok_,
    );
    c.call(
        "admin.aliasChain",
        &["--chain", &x_chain, "--alias", "clixchain"],
        Ok_,
    );
    let aliases = c.call("admin.getChainAliases", &["--chain", &x_chain], Ok_);
    assert!(
        aliases["aliases"]
            .as_array()
            .is_some_and(|a| a.contains(&serde_json::json!("clixchain"))),
        "{aliases}"
    );
    let by_alias = c.call("info.getBlockchainID", &["--alias", "clixchain"], Ok_);
    assert_eq!(text(&by_alias["blockchainID"]), x_chain);
    let set = c.call(
        "admin.setLoggerLevel",
        &["--loggerName", "main", "--logLevel", "DEBUG"],
        Ok_,
    );
    assert_eq!(set["loggerLevels"]["main"]["logLevel"], "DEBUG", "{set}");
    let read = c.call("admin.getLoggerLevel", &["--loggerName", "main"], Ok_);
    assert_eq!(read["loggerLevels"]["main"]["logLevel"], "DEBUG", "{read}");
    c.call("admin.getConfig", &[], Ok_);
    c.call("admin.loadVMs", &[], Ok_);
    let missing = c.call("admin.dbGet", &["--key", "0x6e6f2073756368206b6579"], Ok_);
    assert_eq!(missing["errorCode"], 2, "{missing}");
    for m in [
        "admin.lockProfile",
        "admin.memoryProfile",
        "admin.startCPUProfiler",
        "admin.stopCPUProfiler",
    ] {
        c.call(m, &[], Error(-32000, "is not a Go program"));
    }
    c.call(
        "admin.stacktrace",
        &[],
        Error(-32000, "is not a Go program"),
    );

    let missed: Vec<&&str> = c.to_call.difference(&c.called).collect();
    assert!(missed.is_empty(), "not called: {missed:?}");
    println!(
        "called {} of {} methods the devnet serves (every method of the spec but {removed} removed before its version {}.{}.{})",
        c.called.len(),
        c.to_call.len(),
        served.0,
        served.1,
        served.2
    );
}

/// `avax-rpc export` over an X-chain block index of at least 20,000 containers: killed
/// halfway, started again on the same file, every container comes once, in order, as the
/// node has it; then a file of another index is refused. Needs `DEVNET_URL`, a devnet of its
/// own (it funds 20,000 times): CI runs
/// `DEVNET_FLAGS=--in-memory tests/with-devnet 19652 export cargo test -p avax-rpc --test cli export_ -- --ignored`.
#[test]
#[ignore = "needs a devnet of its own: DEVNET_URL (see the doc comment)"]
fn export_resumes_after_a_kill_and_writes_each_container_once() {
    use avalanche_rpc::devnet::{DevnetClient, FundParams};
    use avalanche_rpc::index::{GetContainerRangeParams, GetLastAcceptedParams, IndexClient};
    use avalanche_rpc::rpc::{Node, paging};
    use avalanche_rpc::wire::U64;
    const CONTAINERS: u64 = 20_000;
    let url = std::env::var("DEVNET_URL").expect("DEVNET_URL is not set");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let node = Node::http(&url).unwrap();
    let index = node.index("X", "block");
    let count = || {
        runtime.block_on(async {
            index
                .get_last_accepted(GetLastAcceptedParams::new())
                .await
                .map_or(0, |c| c.index.get() + 1)
        })
    };
    // One block each: the devnet accepts a funding at once.
    let started = std::time::Instant::now();
    let have = count();
    runtime.block_on(async {
        let control = node.devnet();
        let to: avalanche_rpc::wire::Address = "X-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2"
            .parse()
            .unwrap();
        for _ in have..CONTAINERS {
            control
                .fund(FundParams::new(to.clone(), 1_000u64))
                .await
                .unwrap();
        }
    });
    let total = count();
    assert!(total >= CONTAINERS, "{total} containers");
    eprintln!(
        "made {} blocks in {:.1} s",
        total - have,
        started.elapsed().as_secs_f64()
    );

    let dir = std::env::temp_dir().join(format!("avax-rpc-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("x-blocks.jsonl");
    let export = |extra: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_avax-rpc"));
        cmd.args(["export", "--url", &url, "--chain", "X", "--out"])
            .arg(&out)
            .args(extra)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        cmd
    };
    // Killed once a few pages are written (one request at a time, decoding: slow enough).
    let mut child = export(&["--jobs", "1", "--decode", "--to", &(total - 1).to_string()])
        .spawn()
        .unwrap();
    let lines = |path: &std::path::Path| {
        std::fs::read(path)
            .map(|b| b.iter().filter(|c| **c == b'\n').count() as u64)
            .unwrap_or(0)
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while lines(&out) < 3_000 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the export ended before it was killed"
        );
        assert!(std::time::Instant::now() < deadline, "no progress");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let at_kill = lines(&out);
    assert!(at_kill < total, "killed halfway: {at_kill} of {total}");

    // Started again: it goes on after the last complete line.
    let resumed = export(&["--decode", "--to", &(total - 1).to_string(), "--plain"])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{log}");
    assert!(
        log.contains(&format!(
            "exporting {} containers from index {at_kill}",
            total - at_kill
        )) || log.contains(&format!("from index {}", at_kill)),
        "{log}"
    );
    eprintln!("{log}");

    // Each container once, in order, as the node has it.
    let text = std::fs::read_to_string(&out).unwrap();
    let theirs = runtime
        .block_on(paging::collect(index.get_container_range_stream(
            GetContainerRangeParams::new(U64(1024)),
        )))
        .unwrap();
    let mut n = 0u64;
    for (line, c) in text.lines().zip(&theirs) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["index"], n.to_string(), "line {n}");
        assert_eq!(v["id"], c.id.to_string(), "line {n}");
        assert_eq!(v["bytes"], c.bytes.to_hex(), "line {n}");
        assert!(v["decoded"]["block"]["txs"].is_array(), "line {n}: {v}");
        n += 1;
    }
    assert_eq!(n, total);
    assert_eq!(text.lines().count() as u64, total);

    // Nothing left: a third run writes nothing.
    let again = export(&["--to", &(total - 1).to_string()])
        .output()
        .unwrap();
    assert!(again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("nothing to export"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);

    // A file whose last container is not the node's is refused, and left as it is.
    let other = dir.join("other.jsonl");
    let forged = text.lines().next().unwrap().replace(
        &theirs[0].id.to_string(),
        "11111111111111111111111111111111LpoYY",
    );
    let forged = format!("{forged}\n{{\"partial");
    std::fs::write(&other, &forged).unwrap();
    let refused = Command::new(env!("CARGO_BIN_EXE_avax-rpc"))
        .args(["export", "--url", &url, "--out"])
        .arg(&other)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        err.contains("the file holds another index's containers"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&other).unwrap(),
        forged,
        "a refused file is left as it is"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// With no node answering, every entry point says so in the same words: the URL, the cause
/// down to the operating system's, and what to try; the method is named once.
#[test]
fn no_node_answering_names_the_cause_and_what_to_try() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let cause = format!(
        "info.getNetworkID: transport failed: {url}/ext/info: client error (Connect): tcp \
         connect error: Connection refused (os error 111) (nothing is listening at \
         127.0.0.1:{port}: is the node running, and on this port?)"
    );
    let (ok, _, err) = run(&["call", "info.getNetworkID", "--url", &url]);
    assert!(!ok);
    assert_eq!(err.trim_end(), format!("avax-rpc call: {cause}"));
    let dir = std::env::temp_dir().join(format!("avax-rpc-no-node-{port}"));
    std::fs::create_dir_all(&dir).unwrap();
    let key = dir.join("ewoq.key");
    std::fs::write(
        &key,
        "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let (ok, _, err) = run(&[
        "wallet",
        "balance",
        "--key-file",
        key.to_str().unwrap(),
        "--url",
        &url,
    ]);
    assert!(!ok);
    assert_eq!(err.trim_end(), format!("avax-rpc: {cause}"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `args` with `input` on standard input.
fn run_with_stdin(args: &[&str], input: &str) -> (bool, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_avax-rpc"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A node on 127.0.0.1 that answers every request (one per connection) with
/// `info.getNetworkID` = `id`, echoing the request's `id`; returns its URL.
fn node_of_network(id: u32) -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            // Headers, then the body of Content-Length bytes.
            let body = loop {
                let n = stream.read(&mut chunk).unwrap_or(0);
                if n == 0 {
                    break None;
                }
                buf.extend_from_slice(&chunk[..n]);
                let text = String::from_utf8_lossy(&buf).into_owned();
                if let Some((head, body)) = text.split_once("\r\n\r\n") {
                    let len: usize = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")
                                .map(|v| v.trim().parse().unwrap())
                        })
                        .unwrap_or(0);
                    if body.len() >= len {
                        break Some(body.to_string());
                    }
                }
            };
            let Some(body) = body else { continue };
            let request: serde_json::Value = serde_json::from_str(&body).unwrap();
            let reply = serde_json::json!({"jsonrpc": "2.0", "result": {"networkID": id.to_string()}, "id": request["id"]})
                .to_string();
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    url
}

/// `decode` reads `-` from standard input, and takes the network from the node at `--url`
/// (or `--network-id`; both must agree).
#[test]
fn decode_reads_stdin_and_takes_the_network_from_the_node() {
    let utxo = r#"{"txID":"11111111111111111111111111111111LpoYY","outputIndex":0,"assetID":"11111111111111111111111111111111LpoYY","output":{"amount":1,"locktime":0,"threshold":1,"addresses":["P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"]}}"#;
    let (ok, hex, err) = run_with_stdin(&["encode", "utxo", "--chain", "P", "-"], utxo);
    assert!(ok, "{err}");
    let local = "P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
    let url = node_of_network(12345);
    let (ok, json, err) = run_with_stdin(
        &["decode", "utxo", "--chain", "P", "--url", &url, "-"],
        &hex,
    );
    assert!(ok, "{err}");
    assert!(json.contains(local), "{json}");
    // Without either, Mainnet's HRP.
    let (ok, json, err) = run_with_stdin(&["decode", "utxo", "--chain", "P", "-"], &hex);
    assert!(ok, "{err}");
    assert!(
        json.contains("P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5"),
        "{json}"
    );
    let (ok, _, err) = run(&[
        "decode",
        "utxo",
        "--chain",
        "P",
        "--url",
        &url,
        "--network-id",
        "1",
        hex.trim(),
    ]);
    assert!(!ok);
    assert_eq!(
        err.trim_end(),
        format!(
            "avax-rpc: `--network-id` 1 is not the network of the node at {url} (12345): leave one of them out"
        )
    );
}

/// `call METHOD --url URL --help`: the example's line after the line starting with `head`,
/// as words, with the lines before it.
fn filled_help(method: &str, url: &str, head: &str) -> (Vec<String>, String) {
    let (code, out, err) = run_code(&["call", method, "--url", url, "--help"]);
    assert_eq!(code, Some(0), "{err}");
    let mut lines = out.lines();
    let found = lines
        .find(|l| l.starts_with(head))
        .unwrap_or_else(|| panic!("no line starting {head:?} in the help of {method}:\n{out}"));
    let line = lines.next().expect("the example's line").trim();
    let words = shell_words(line);
    assert_eq!(words[..3], ["avax-rpc", "call", method], "{line}");
    (words[3..].to_vec(), found.to_string())
}

/// The value of `--flag` in an example's words.
fn flag_value<'a>(words: &'a [String], flag: &str) -> &'a str {
    let at = words
        .iter()
        .position(|w| w == flag)
        .unwrap_or_else(|| panic!("no {flag} in {words:?}"));
    &words[at + 1]
}

#[test]
fn call_help_without_a_node_says_so_in_one_line_and_shows_the_spec_example() {
    let url = format!("http://127.0.0.1:{}", closed_port());
    let (code, out, err) = run_code(&["call", "avm.getBalance", "--url", &url, "--help"]);
    assert_eq!(code, Some(0), "{err}");
    let at = out.find("No node answers").expect(&out);
    let rest: Vec<&str> = out[at..].lines().take(3).collect();
    assert_eq!(
        rest[0],
        format!(
            "No node answers at {url}: the example is the spec's, with the values of its network."
        )
    );
    assert!(rest[1].starts_with("Example (the spec's \""), "{out}");
    // The spec's example, mainnet's address, at the URL given.
    assert!(
        rest[2].contains(&format!("--url {url} ")) && rest[2].contains("--address X-avax1"),
        "{out}"
    );
}

/// `call METHOD --help` against the devnet fills its example from the devnet's state: an
/// address of its network (HRP `local`), a transaction its X-chain has, a height its
/// P-chain has, the index path that holds containers; and each example, run as shown,
/// succeeds.
#[test]
#[ignore = "needs a devnet: tests/with-devnet 19651 wallet cargo test -p avax-rpc --test cli -- --ignored"]
fn call_help_fills_its_example_from_the_devnet() {
    let url = std::env::var("DEVNET_URL")
        .expect("DEVNET_URL is not set: run `tests/with-devnet 19651 wallet cargo test -p avax-rpc --test cli -- --ignored`");
    let _turn = devnet_turn();
    let head = format!("Example (for the node at {url}: ");
    let runs = |method: &str, words: &[String]| {
        let mut args = vec!["call", method];
        args.extend(words.iter().map(String::as_str));
        let (code, out, err) = run_code(&args);
        assert_eq!(code, Some(0), "{method} {words:?}: {err}");
        serde_json::from_str::<serde_json::Value>(&out).expect(&out)
    };

    let (words, line) = filled_help("avm.getBalance", &url, &head);
    assert!(
        line.contains(": address from its replies; the rest from the spec's"),
        "{line}"
    );
    assert_eq!(flag_value(&words, "--url"), url);
    let address = flag_value(&words, "--address");
    assert!(address.starts_with("X-local1"), "{words:?}");
    // The asset's alias, which every network knows, is the spec's.
    assert_eq!(flag_value(&words, "--assetID"), "AVAX");
    runs("avm.getBalance", &words);

    let (words, _) = filled_help("avm.getTx", &url, &head);
    let tx = runs("avm.getTx", &words);
    assert!(
        tx["tx"].as_str().is_some_and(|t| t.starts_with("0x")),
        "{tx}"
    );

    let (words, _) = filled_help("platform.getBlockByHeight", &url, &head);
    let height: u64 = flag_value(&words, "--height").parse().unwrap();
    let now = run_code(&["call", "platform.getHeight", "--url", &url]).1;
    let now: serde_json::Value = serde_json::from_str(&now).unwrap();
    assert!(height <= text(&now["height"]).parse::<u64>().unwrap());
    runs("platform.getBlockByHeight", &words);

    // The X-chain's transaction index is empty (its transactions are in blocks): the
    // block index, where the devnet has containers.
    let (words, _) = filled_help("index.getContainerByID", &url, &head);
    assert_eq!(flag_value(&words, "--kind"), "block", "{words:?}");
    runs("index.getContainerByID", &words);

    let (words, _) = filled_help("platform.getBalance", &url, &head);
    assert!(
        flag_value(&words, "--addresses").starts_with("P-local1"),
        "{words:?}"
    );
    runs("platform.getBalance", &words);
}
