//! Every container of a node's X- and P-chain block indexes through the codec, and every
//! transaction in them against the node's JSON of it.
//!
//! ```sh
//! # after the wallet tour, against the node it ran on (CI does this):
//! tests/with-node 9660 idx sh -c 'cargo run -q -p avalanche-rpc-examples --example wallet -- "$NODE_URL" --warp-key "$NODE_SIGNER_KEY" && cargo run -q -p avalanche-rpc-examples --example index_roundtrip -- "$NODE_URL"'
//! ```
//!
//! The node's URL is the first argument, else `NODE_URL`, else `http://127.0.0.1:9650`. For
//! each container of `/ext/index/X/block` and `/ext/index/P/block` (`index.getContainerRange`,
//! encoding `hex`):
//!
//! - its bytes decode as a proposer block (`codec::proposervm::Block`) and encode back to the
//!   same bytes, both from the value and from its JSON form (what `avax-rpc decode container`
//!   writes and `avax-rpc encode container` reads), and the block's ID is the container's;
//! - the chain's block inside (`block`, or an option's `innerBytes`) does the same as a
//!   `codec::avm::Block` or `codec::platform::Block`, except that a P-chain commit block's JSON
//!   form encodes as an abort block, which the node writes alike: counted apart (see
//!   `commit_read_as_abort`);
//! - each transaction of that block, by the ID of its bytes: the node's `avm.getTx` or
//!   `platform.getTx` with `encoding: json` is the codec's JSON of the bytes (what `avax-rpc
//!   decode tx --chain X|P` prints), member for member and in the same order.
//!
//! It prints the counts per chain, and each mismatch with the container's index and ID and
//! the first differing byte offset or JSON path; it exits 1 on any mismatch, on an index
//! that holds no container, and on an error of the node.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Instant;

use avalanche_rpc::avm::AvmClient;
use avalanche_rpc::codec::{JsonContext, Root, RuleError, ToJson, avm, platform, proposervm};
use avalanche_rpc::index::{GetContainerRangeParams, IndexClient};
use avalanche_rpc::info::InfoClient;
use avalanche_rpc::platform::PlatformClient;
use avalanche_rpc::rpc::Node;
use avalanche_rpc::types::Container;
use avalanche_rpc::wire::{Encoding, HexOrJson, Id, U64};
use futures_util::StreamExt;
use serde_json::Value;

/// A JSON value or bytes shown in a mismatch: at most this many characters.
const SHOWN: usize = 120;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Chain {
    X,
    P,
}

impl Chain {
    fn alias(self) -> &'static str {
        match self {
            Chain::X => "X",
            Chain::P => "P",
        }
    }

    fn get_tx(self) -> &'static str {
        match self {
            Chain::X => "avm.getTx",
            Chain::P => "platform.getTx",
        }
    }
}

/// What one chain's index held.
#[derive(Default)]
struct Tally {
    containers: u64,
    /// Proposer block kinds, and the chain's block kinds inside, with their counts.
    outer: BTreeMap<&'static str, u64>,
    inner: BTreeMap<&'static str, u64>,
    txs: u64,
    mismatches: u64,
    /// Commit blocks whose JSON form reads back as an abort block ([`commit_read_as_abort`]).
    commits_read_as_aborts: u64,
}

#[tokio::main]
async fn main() -> ExitCode {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NODE_URL").ok())
        .unwrap_or_else(|| "http://127.0.0.1:9650".into());
    match run(&url).await {
        Ok(0) => ExitCode::SUCCESS,
        Ok(n) => {
            eprintln!("{n} mismatches between the node and the codec");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("index_roundtrip: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Checks both chains; the number of mismatches.
async fn run(url: &str) -> Result<u64, String> {
    let node = Node::http(url).map_err(|e| format!("{url}: {e}"))?;
    let network_id = node
        .info()
        .get_network_id(Default::default())
        .await
        .map_err(|e| format!("info.getNetworkID: {e}"))?
        .network_id
        .get();
    let started = Instant::now();
    let mut mismatches = 0;
    for chain in [Chain::X, Chain::P] {
        let t = check_chain(&node, chain, network_id).await?;
        let kinds = |m: &BTreeMap<&str, u64>| {
            m.iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!(
            "{}: {} containers ({}; inside: {}) checked, {} transactions compared with {}, {} mismatches",
            chain.alias(),
            t.containers,
            kinds(&t.outer),
            kinds(&t.inner),
            t.txs,
            chain.get_tx(),
            t.mismatches
        );
        if t.commits_read_as_aborts > 0 {
            println!(
                "{}: {} commit blocks whose JSON form reads back as an abort block (the node writes both alike)",
                chain.alias(),
                t.commits_read_as_aborts
            );
        }
        if t.containers == 0 {
            return Err(format!(
                "the {}-chain block index holds no container: nothing was checked (run this after the wallet tour)",
                chain.alias()
            ));
        }
        mismatches += t.mismatches;
    }
    println!("checked in {:.2} s", started.elapsed().as_secs_f64());
    Ok(mismatches)
}

async fn check_chain(node: &Node, chain: Chain, network_id: u32) -> Result<Tally, String> {
    let cx = JsonContext::for_network(chain.alias(), network_id);
    let index = node.index(chain.alias(), "block");
    let mut tally = Tally::default();
    let mut containers =
        std::pin::pin!(index.get_container_range_stream(GetContainerRangeParams::new(U64(1024))));
    while let Some(c) = containers.next().await {
        let c = c.map_err(|e| format!("{}-chain index.getContainerRange: {e}", chain.alias()))?;
        let at = format!("{} container {} ({})", chain.alias(), c.index.get(), c.id);
        if c.index.get() != tally.containers {
            return Err(format!(
                "{at}: the node answered it where container {} was next",
                tally.containers
            ));
        }
        tally.containers += 1;
        let mut bad = Vec::new();
        let txs = check_container(&c, chain, &cx, &mut bad, &mut tally);
        for (i, bytes) in txs.iter().enumerate() {
            let id = Id::from_sha256(bytes);
            tally.txs += 1;
            if let Some(d) = compare_tx(node, chain, id, bytes, &cx).await? {
                bad.push(format!("transaction {i} ({id}): {d}"));
            }
        }
        for b in &bad {
            println!("MISMATCH {at}: {b}");
        }
        tally.mismatches += bad.len() as u64;
    }
    Ok(tally)
}

/// Checks one container's bytes (see the module); each problem is pushed to `bad`. Returns
/// the bytes of the transactions of the chain's block inside, in block order.
fn check_container(
    c: &Container,
    chain: Chain,
    cx: &JsonContext,
    bad: &mut Vec<String>,
    tally: &mut Tally,
) -> Vec<Vec<u8>> {
    let bytes = match c.bytes.strip_checksum() {
        Ok(b) => b,
        Err(e) => {
            bad.push(format!("its bytes' checksum: {e}"));
            return Vec::new();
        }
    };
    let Some(outer) = roundtrip::<proposervm::Block>("the proposer block", bytes, cx, bad, None)
    else {
        return Vec::new();
    };
    *tally.outer.entry(outer.type_name()).or_default() += 1;
    match outer.id() {
        Ok(id) if id == c.id => {}
        Ok(id) => bad.push(format!("the proposer block's ID from the codec is {id}")),
        Err(e) => bad.push(format!("the proposer block's ID: {e}")),
    }
    let inner = match (&outer, outer.block()) {
        (proposervm::Block::Option(o), _) => &o.inner_bytes,
        (_, Some(block)) => block,
        (other, None) => {
            bad.push(format!(
                "a proposer block of kind {} holds no block this check knows",
                other.type_name()
            ));
            return Vec::new();
        }
    };
    let what = format!("the {}-chain block inside", chain.alias());
    let txs: Vec<Result<Vec<u8>, RuleError>> = match chain {
        Chain::X => {
            let Some(block) = roundtrip::<avm::Block>(&what, inner, cx, bad, None) else {
                return Vec::new();
            };
            *tally.inner.entry(block.type_name()).or_default() += 1;
            match &block {
                avm::Block::StandardBlock(b) => b.txs.iter().map(|t| t.to_bytes()).collect(),
                other => {
                    bad.push(format!("{what} is a {}, unknown here", other.type_name()));
                    return Vec::new();
                }
            }
        }
        Chain::P => {
            let alike = Some(&mut tally.commits_read_as_aborts);
            let Some(block) = roundtrip::<platform::Block>(&what, inner, cx, bad, alike) else {
                return Vec::new();
            };
            *tally.inner.entry(block.type_name()).or_default() += 1;
            // A proposal block's decision transactions run before its proposal.
            block
                .txs()
                .into_iter()
                .flatten()
                .chain(block.tx())
                .map(|t| t.to_bytes())
                .collect()
        }
    };
    txs.into_iter()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| {
            bad.push(format!("a transaction of {what} does not encode: {e}"));
            Vec::new()
        })
}

/// `bytes` decoded as `T`, having checked that the value and its JSON form encode back to
/// `bytes`; `None` when they do not decode. Each problem is pushed to `bad`, after `what`.
/// With `commits`, a P-chain block's JSON form that reads back as an abort block where the
/// bytes are a commit block's is counted there instead ([`commit_read_as_abort`]).
fn roundtrip<T: Root>(
    what: &str,
    bytes: &[u8],
    cx: &JsonContext,
    bad: &mut Vec<String>,
    commits: Option<&mut u64>,
) -> Option<T> {
    let value = match T::decode_root(bytes) {
        Ok(v) => v,
        Err(e) => {
            bad.push(format!("{what} does not decode: {e}"));
            return None;
        }
    };
    match value.encode_root() {
        Ok(again) => {
            if let Some(d) = byte_diff(bytes, &again) {
                bad.push(format!("{what} encodes back to other bytes: {d}"));
            }
        }
        Err(e) => bad.push(format!("{what} does not encode back: {e}")),
    }
    let json = value.to_json(cx);
    match T::from_json(&json, None) {
        Ok(read) => match read.encode_root() {
            Ok(again) => match (byte_diff(bytes, &again), commits) {
                (None, _) => {}
                (Some(_), Some(n)) if commit_read_as_abort(bytes, &again) => *n += 1,
                (Some(d), _) => bad.push(format!("{what}'s JSON form encodes to other bytes: {d}")),
            },
            Err(e) => bad.push(format!("{what}'s JSON form does not encode: {e}")),
        },
        Err(e) => bad.push(format!("{what}'s JSON form does not read back: {e}")),
    }
    Some(value)
}

/// Whether `again` is `bytes`, a P-chain commit block, but for its type ID, which is the
/// matching abort block's: what the JSON form of a commit block encodes to.
///
/// The node writes an abort block and a commit block with the same JSON members, since both
/// are a `CommonBlock` (`parentID`, `height`, `id`; vms/platformvm/block/common_block.go:12-19)
/// with, since Banff, a `time` (BanffAbortBlock and BanffCommitBlock,
/// vms/platformvm/block/abort_block.go:19-22 and commit_block.go:19-22; ApricotAbortBlock and
/// ApricotCommitBlock, abort_block.go:49-51 and commit_block.go:49-51). Its members do not say
/// which of the two a block is (its `id` would, but `FromJson` reads no ID: IDs follow from
/// the bytes), so `FromJson` takes the first the codec lists, the abort block (as for every
/// slot whose types the JSON cannot tell apart). The bytes then differ in
/// the 4-byte type ID after the 2-byte codec version: 2 (ApricotCommitBlock) read as 1
/// (ApricotAbortBlock), 31 (BanffCommitBlock) as 30 (BanffAbortBlock); nothing else may.
fn commit_read_as_abort(bytes: &[u8], again: &[u8]) -> bool {
    let type_id = |b: &[u8]| {
        b.get(2..6)
            .map(|t| u32::from_be_bytes([t[0], t[1], t[2], t[3]]))
    };
    bytes.len() == again.len()
        && bytes.len() >= 6
        && bytes[..2] == again[..2]
        && bytes[6..] == again[6..]
        && matches!(
            (type_id(bytes), type_id(again)),
            (Some(2), Some(1)) | (Some(31), Some(30))
        )
}

/// Where `again` first differs from `bytes`, or `None` when they are equal.
fn byte_diff(bytes: &[u8], again: &[u8]) -> Option<String> {
    match bytes.iter().zip(again).position(|(a, b)| a != b) {
        Some(i) => Some(format!(
            "first difference at byte {i} (0x{:02x} in the node's, 0x{:02x} re-encoded)",
            bytes[i], again[i]
        )),
        None if bytes.len() != again.len() => Some(format!(
            "equal up to byte {}, then the node's has {} bytes and the re-encoding {}",
            bytes.len().min(again.len()),
            bytes.len(),
            again.len()
        )),
        None => None,
    }
}

/// The first difference between the node's JSON of transaction `id` and the codec's JSON of
/// its `bytes`, or `None`. An error of the call is returned as an error.
async fn compare_tx(
    node: &Node,
    chain: Chain,
    id: Id,
    bytes: &[u8],
    cx: &JsonContext,
) -> Result<Option<String>, String> {
    let (codec, reply) = match chain {
        Chain::X => (
            avm::Tx::decode_root(bytes).map(|t| t.to_json(cx)),
            node.avm("X")
                .get_tx(avalanche_rpc::avm::GetTxParams::new(id).with_encoding(Encoding::Json))
                .await
                .map(|r| r.tx),
        ),
        Chain::P => (
            platform::Tx::decode_root(bytes).map(|t| t.to_json(cx)),
            node.platform()
                .get_tx(avalanche_rpc::platform::GetTxParams::new(id).with_encoding(Encoding::Json))
                .await
                .map(|r| r.tx),
        ),
    };
    let codec = match codec {
        Ok(v) => v,
        Err(e) => return Ok(Some(format!("its bytes do not decode alone: {e}"))),
    };
    let node_json = match reply.map_err(|e| format!("{} {id}: {e}", chain.get_tx()))? {
        HexOrJson::Json(v) => v,
        HexOrJson::Hex(h) => {
            return Ok(Some(format!(
                "{} answered hex for encoding json: {}",
                chain.get_tx(),
                shorten(&h.to_hex())
            )));
        }
    };
    Ok(json_diff(&node_json, &codec, &mut String::new()).map(|d| {
        format!(
            "{} (node) and the codec's JSON differ at {d}",
            chain.get_tx()
        )
    }))
}

/// The first place where `node` and `codec` differ, as a JSON path (from `path`) and what
/// each holds there; `None` when they are equal, members in the same order.
fn json_diff(node: &Value, codec: &Value, path: &mut String) -> Option<String> {
    let here = |path: &str| {
        if path.is_empty() {
            "the top".to_string()
        } else {
            format!("`{}`", path.trim_start_matches('.'))
        }
    };
    match (node, codec) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                let len = path.len();
                path.push('.');
                path.push_str(k);
                let d = match b.get(k) {
                    None => Some(format!(
                        "{}: only the node writes it ({})",
                        here(path),
                        shorten(&v.to_string())
                    )),
                    Some(w) => json_diff(v, w, path),
                };
                path.truncate(len);
                if d.is_some() {
                    return d;
                }
            }
            if let Some((k, v)) = b.iter().find(|(k, _)| !a.contains_key(*k)) {
                return Some(format!(
                    "{}: only the codec writes `{k}` ({})",
                    here(path),
                    shorten(&v.to_string())
                ));
            }
            let (ka, kb): (Vec<_>, Vec<_>) = (a.keys().collect(), b.keys().collect());
            (ka != kb).then(|| {
                format!(
                    "{}: the members are in another order (node {ka:?}, codec {kb:?})",
                    here(path)
                )
            })
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let d = json_diff(v, w, path);
                path.truncate(len);
                if d.is_some() {
                    return d;
                }
            }
            (a.len() != b.len()).then(|| {
                format!(
                    "{}: the node writes {} items, the codec {}",
                    here(path),
                    a.len(),
                    b.len()
                )
            })
        }
        _ if node == codec => None,
        _ => Some(format!(
            "{}: node {}, codec {}",
            here(path),
            shorten(&node.to_string()),
            shorten(&codec.to_string())
        )),
    }
}

fn shorten(s: &str) -> String {
    match s.char_indices().nth(SHOWN) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn byte_diff_names_the_first_differing_offset() {
        assert_eq!(byte_diff(&[1, 2, 3], &[1, 2, 3]), None);
        let d = byte_diff(&[1, 2, 3], &[1, 9, 3]).unwrap();
        assert!(d.contains("byte 1 (0x02 in the node's, 0x09"), "{d}");
        let d = byte_diff(&[1, 2, 3], &[1, 2]).unwrap();
        assert!(
            d.contains("equal up to byte 2") && d.contains("has 3 bytes"),
            "{d}"
        );
    }

    #[test]
    fn json_diff_names_the_path() {
        let node = json!({"unsignedTx": {"outputs": [{"amount": 1}, {"amount": 2}]}, "id": "a"});
        assert_eq!(json_diff(&node, &node.clone(), &mut String::new()), None);
        let codec = json!({"unsignedTx": {"outputs": [{"amount": 1}, {"amount": 3}]}, "id": "a"});
        let d = json_diff(&node, &codec, &mut String::new()).unwrap();
        assert_eq!(d, "`unsignedTx.outputs[1].amount`: node 2, codec 3");
        let codec = json!({"unsignedTx": {"outputs": [{"amount": 1}]}, "id": "a"});
        let d = json_diff(&node, &codec, &mut String::new()).unwrap();
        assert_eq!(
            d,
            "`unsignedTx.outputs`: the node writes 2 items, the codec 1"
        );
        let codec = json!({"unsignedTx": {"outputs": [{"amount": 1}, {"amount": 2}]}});
        let d = json_diff(&node, &codec, &mut String::new()).unwrap();
        assert_eq!(d, "`id`: only the node writes it (\"a\")");
        let codec = json!({"id": "a", "unsignedTx": {"outputs": [{"amount": 1}, {"amount": 2}]}});
        let d = json_diff(&node, &codec, &mut String::new()).unwrap();
        assert!(
            d.starts_with("the top: the members are in another order"),
            "{d}"
        );
    }

    /// A container of `bytes` with the ID `id`, as `index.getContainerRange` answers it.
    fn container(bytes: &[u8], id: Id) -> Container {
        Container::new(
            id,
            avalanche_rpc::wire::HexBytes::with_checksum(bytes),
            "2024-07-27T22:28:39Z"
                .parse::<avalanche_rpc::wire::Timestamp>()
                .unwrap(),
            Encoding::Hex,
            U64(0),
        )
    }

    fn check(bytes: &[u8], id: Id) -> (Vec<Vec<u8>>, Vec<String>, Tally) {
        let cx = JsonContext::for_network("P", 1337);
        let (mut bad, mut tally) = (Vec::new(), Tally::default());
        let txs = check_container(&container(bytes, id), Chain::P, &cx, &mut bad, &mut tally);
        (txs, bad, tally)
    }

    // A signed AdvanceTimeTx (vms/platformvm/txs/fee/calculator_test.go).
    const ADVANCE_TIME: &str = "0x0000000000130000000066a56fe700000000";

    #[test]
    fn a_stateless_block_gives_its_transactions_and_an_option_its_block() {
        let tx_bytes = ADVANCE_TIME
            .parse::<avalanche_rpc::wire::HexBytes>()
            .unwrap()
            .0;
        let tx = platform::Tx::from_bytes(&tx_bytes).unwrap();
        let standard = platform::Block::from(platform::BanffStandardBlock::new(
            1_722_118_119,
            Id::default(),
            4,
            vec![tx],
        ));
        let outer = proposervm::Block::from(proposervm::StatelessBlock::new(
            Id::default(),
            1_722_118_119,
            3,
            Vec::new(),
            standard.to_bytes().unwrap(),
            Vec::new(),
        ));
        let bytes = outer.to_bytes().unwrap();
        let (txs, bad, tally) = check(&bytes, outer.id().unwrap());
        assert_eq!(bad, Vec::<String>::new());
        assert_eq!(txs, vec![tx_bytes]);
        assert_eq!(tally.outer["StatelessBlock"], 1);
        assert_eq!(tally.inner["BanffStandardBlock"], 1);

        let commit = platform::Block::from(platform::BanffCommitBlock::new(
            1_722_118_119,
            standard.id().unwrap(),
            5,
        ));
        let option = proposervm::Block::from(proposervm::Option::new(
            outer.id().unwrap(),
            commit.to_bytes().unwrap(),
        ));
        let (txs, bad, tally) = check(&option.to_bytes().unwrap(), option.id().unwrap());
        assert_eq!(bad, Vec::<String>::new());
        assert!(txs.is_empty());
        assert_eq!(tally.outer["Option"], 1);
        assert_eq!(tally.inner["BanffCommitBlock"], 1);
        // Its JSON form reads back as an abort block: counted, not a mismatch.
        assert_eq!(tally.commits_read_as_aborts, 1);

        // An abort block's JSON form reads back as itself.
        let abort = platform::Block::from(platform::BanffAbortBlock::new(
            1_722_118_119,
            standard.id().unwrap(),
            5,
        ));
        let option = proposervm::Block::from(proposervm::Option::new(
            outer.id().unwrap(),
            abort.to_bytes().unwrap(),
        ));
        let (_, bad, tally) = check(&option.to_bytes().unwrap(), option.id().unwrap());
        assert_eq!(bad, Vec::<String>::new());
        assert_eq!(tally.commits_read_as_aborts, 0);
    }

    #[test]
    fn only_a_commit_block_read_as_an_abort_block_is_let_through() {
        let commit = platform::Block::from(platform::BanffCommitBlock::new(7, Id::default(), 5))
            .to_bytes()
            .unwrap();
        let mut abort = commit.clone();
        abort[5] = 30;
        assert!(commit_read_as_abort(&commit, &abort));
        // The other way round, another type, or another byte: a mismatch.
        assert!(!commit_read_as_abort(&abort, &commit));
        let mut other = commit.clone();
        other[5] = 32;
        assert!(!commit_read_as_abort(&commit, &other));
        let mut moved = abort.clone();
        moved[10] ^= 1;
        assert!(!commit_read_as_abort(&commit, &moved));
        assert!(!commit_read_as_abort(&commit[..4], &abort[..4]));
        // Apricot's pair: 2 read as 1.
        let (mut apricot_commit, mut apricot_abort) = (commit.clone(), commit);
        apricot_commit[5] = 2;
        apricot_abort[5] = 1;
        assert!(commit_read_as_abort(&apricot_commit, &apricot_abort));
    }

    #[test]
    fn a_bad_container_says_where() {
        let commit = platform::Block::from(platform::BanffCommitBlock::new(7, Id::default(), 5));
        let option = proposervm::Block::from(proposervm::Option::new(
            Id::default(),
            commit.to_bytes().unwrap(),
        ));
        let bytes = option.to_bytes().unwrap();
        // Another ID than the block's.
        let (_, bad, _) = check(&bytes, Id::default());
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert!(
            bad[0].starts_with("the proposer block's ID from the codec is"),
            "{bad:?}"
        );
        // A byte after the block.
        let mut longer = bytes.clone();
        longer.push(0);
        let (_, bad, _) = check(&longer, option.id().unwrap());
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert!(
            bad[0].starts_with(&format!(
                "the proposer block does not decode: at byte {}",
                bytes.len()
            )),
            "{bad:?}"
        );
        // An inner block cut short: named with its own offset and field.
        let cut = proposervm::Block::from(proposervm::Option::new(
            Id::default(),
            commit.to_bytes().unwrap()[..20].to_vec(),
        ));
        let (_, bad, _) = check(&cut.to_bytes().unwrap(), cut.id().unwrap());
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert!(
            bad[0].starts_with("the P-chain block inside does not decode: at byte 14, `parentID`"),
            "{bad:?}"
        );
    }
}
