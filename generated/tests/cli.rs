//! `avax-rpc decode` and `encode` (feature `cli`): the node's vectors to their JSON form and
//! back to the same bytes, and a clear error naming the offset and the field.
#![cfg(feature = "cli")]

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
    assert!(err.contains("needs --chain X or --chain P"), "{err}");
    // Not hex.
    let (ok, _, err) = run(&["decode", "tx", "--chain", "X", "zz"]);
    assert!(!ok);
    assert!(err.contains("not hex"), "{err}");
}
