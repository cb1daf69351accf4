//! The normalization: what legitimately differs between two networks built from the same
//! genesis (one the real node, one the devnet), each rule with why. A reply pair that differs
//! only where a rule applies is "identical after normalization"; any other difference must
//! be documented in `DIFFERENCES.md` (matched by key: method and case) or it is unexplained.

use serde_json::Value;

/// One rule: in replies of the methods matching `methods` (a glob, `*` for any run of
/// characters), every object member named `member` (at any depth) is treated as `treat`
/// says on both sides before the comparison.
pub struct Rule {
    pub methods: &'static str,
    pub member: &'static str,
    pub treat: Treat,
    pub why: &'static str,
}

/// What a rule does to a member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Treat {
    /// Replaced by the placeholder: its value may differ.
    Replace,
    /// An array whose order may differ: its elements are sorted (by their JSON text).
    Unordered,
    /// The hex bytes of a proposervm container: replaced by what the chain's block inside
    /// holds ([`block_summary`]).
    Container,
    /// The hex bytes of a chain's block: replaced by what it holds ([`block_summary`]).
    Block,
}

/// The placeholder a normalized value becomes.
pub const PLACEHOLDER: &str = "<normalized>";

pub const RULES: &[Rule] = &[
    Rule {
        methods: "index.*",
        member: "bytes",
        treat: Treat::Container,
        why: "a container's bytes hold each side's block times and parent IDs: compared by the \
              block inside, its kind, height and transactions (byte for byte)",
    },
    Rule {
        methods: "index.*",
        member: "id",
        treat: Treat::Replace,
        why: "a container's ID is the hash of its bytes (above)",
    },
    Rule {
        methods: "*.getBlock* valid*",
        member: "block",
        treat: Treat::Block,
        why: "a block's bytes hold each side's time and parent ID: compared by its kind, height \
              and transactions (byte for byte); its JSON form by its members, the time, its ID \
              and the parent's ID normalized (the genesis cases compare exactly)",
    },
    Rule {
        methods: "*.getBlock* valid*",
        member: "time",
        treat: Treat::Replace,
        why: "the block's time: each side's clock when it built the block",
    },
    Rule {
        methods: "*.getBlock* valid*",
        member: "parentID",
        treat: Treat::Replace,
        why: "the parent's ID is the hash of the parent's bytes, which hold its time",
    },
    Rule {
        methods: "*.getBlock* valid*",
        member: "id",
        treat: Treat::Replace,
        why: "the block's ID is the hash of its bytes, which hold its time",
    },
    Rule {
        methods: "*.getUTXOs",
        member: "utxos",
        treat: Treat::Unordered,
        why: "the node lists an address's UTXOs from its address index, a linked list newest \
              first whose entries a block adds in Go's map order \
              (vms/components/avax/utxo_state.go:232, database/linkeddb); the devnet by UTXO ID",
    },
    Rule {
        methods: "*.getUTXOs",
        member: "utxo",
        treat: Treat::Replace,
        why: "endIndex names the last UTXO of the page, which follows each side's order",
    },
    Rule {
        methods: "avm.getAllBalances",
        member: "balances",
        treat: Treat::Unordered,
        why: "the node lists the assets in a Go set's order, which varies from call to call \
              (vms/avm/service.go:577)",
    },
    Rule {
        methods: "*.getBalance",
        member: "utxoIDs",
        treat: Treat::Unordered,
        why: "the UTXOs counted, in each side's order of the address index (as getUTXOs)",
    },
    Rule {
        methods: "platform.getStake",
        member: "stakedOutputs",
        treat: Treat::Unordered,
        why: "the node lists the stake outputs of the stakers it finds in its staker \
              iterators' order; the devnet in its own",
    },
    Rule {
        methods: "platform.get*Validator*",
        member: "startTime",
        treat: Treat::Replace,
        why: "a staker starts at the chain time of the block that accepted it: each side's \
              clock when it built that block, a second apart at times",
    },
    Rule {
        methods: "platform.getCurrentValidators",
        member: "potentialReward",
        treat: Treat::Replace,
        why: "the reward is computed over the period from the staker's start (above) to its \
              end: a second's difference in the start is a few thousand nAVAX",
    },
    Rule {
        methods: "platform.getCurrentSupply",
        member: "supply",
        treat: Treat::Replace,
        why: "the supply grows by each staker's potential reward when it is accepted (above)",
    },
    Rule {
        methods: "*",
        treat: Treat::Replace,
        member: "timestamp",
        why: "block and chain times: each side stamps its blocks with its own clock when it \
              builds them, seconds (or a block interval) apart",
    },
    Rule {
        methods: "platform.getCurrentValidators",
        treat: Treat::Replace,
        member: "uptime",
        why: "uptime is measured by each node from its own peers and start time",
    },
    Rule {
        methods: "platform.getCurrentValidators",
        treat: Treat::Replace,
        member: "connected",
        why: "whether this node is connected to the validator: a node is connected to \
              itself only, the devnet reports its own view",
    },
    Rule {
        methods: "info.getNodeVersion",
        treat: Treat::Replace,
        member: "version",
        why: "the software's name and version: avalanchego/1.14.2 against the devnet's",
    },
    Rule {
        methods: "info.getNodeVersion",
        treat: Treat::Replace,
        member: "gitCommit",
        why: "the build's commit",
    },
    Rule {
        methods: "info.getNodeVersion",
        treat: Treat::Replace,
        member: "vmVersions",
        why: "the versions of the VMs each side runs",
    },
    Rule {
        methods: "info.getNodeVersion",
        treat: Treat::Replace,
        member: "rpcProtocolVersion",
        why: "the plugin protocol version of the node's build",
    },
    Rule {
        methods: "info.uptime",
        treat: Treat::Replace,
        member: "*",
        why: "uptime is measured by each node from its own peers and start time",
    },
    Rule {
        methods: "info.getNodeIP",
        treat: Treat::Replace,
        member: "ip",
        why: "each side listens on its own port",
    },
    Rule {
        methods: "*.issueTx",
        treat: Treat::Replace,
        member: "data",
        why: "a refusal's error data: null on the node, on the devnet `{\"detail\"}` naming the \
              field and values the node's words leave out (the message is the node's words)",
    },
    Rule {
        methods: "info.peers",
        treat: Treat::Replace,
        member: "*",
        why: "each side's peers: the node has none (it validates alone), the devnet's \
              validators are simulated",
    },
];

/// Shell-style glob with `*` only.
pub fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, tail)) => {
            let Some(rest) = text.strip_prefix(head) else {
                return false;
            };
            if tail.is_empty() {
                return true;
            }
            (0..=rest.len())
                .filter(|&i| rest.is_char_boundary(i))
                .any(|i| glob(tail, &rest[i..]))
        }
    }
}

/// `v`, the reply for `key` (`method case`, the case starting with the chain for the index
/// API), with every member a rule of its method names treated as the rule says.
pub fn normalize(key: &str, v: &Value) -> Value {
    let (method, case) = key.split_once(' ').unwrap_or((key, ""));
    // A rule's `methods` with a space in it is matched against the whole key.
    let rules: Vec<&Rule> = RULES
        .iter()
        .filter(|r| {
            glob(
                r.methods,
                if r.methods.contains(' ') { key } else { method },
            )
        })
        .collect();
    let chain = match method.split('.').next() {
        Some("avm") => "X",
        Some("platform") => "P",
        _ => case.split('/').next().unwrap_or(""),
    };
    let mut out = v.clone();
    walk(&mut out, &rules, chain);
    out
}

/// What a block holds, for comparing two networks' blocks whose own bytes differ: its kind,
/// height and transactions (each as hex). `None` when the bytes are not a block of `chain`.
pub fn block_summary(chain: &str, bytes: &[u8]) -> Option<Value> {
    use avalanche_rpc::codec::{avm, platform};
    let hex = |b: Vec<u8>| avalanche_rpc::wire::HexBytes(b).to_hex();
    match chain {
        "X" => {
            let avm::Block::StandardBlock(b) = avm::Block::from_bytes(bytes).ok()? else {
                return None;
            };
            let txs: Option<Vec<String>> =
                b.txs.iter().map(|t| t.to_bytes().ok().map(hex)).collect();
            Some(serde_json::json!({"kind": "StandardBlock", "height": b.height, "txs": txs?}))
        }
        "P" => {
            let b = platform::Block::from_bytes(bytes).ok()?;
            let txs: Option<Vec<String>> = b
                .txs()
                .into_iter()
                .flatten()
                .chain(b.tx())
                .map(|t| t.to_bytes().ok().map(hex))
                .collect();
            Some(serde_json::json!({"kind": b.type_name(), "height": b.height(), "txs": txs?}))
        }
        _ => None,
    }
}

/// The same for a proposervm container: the block inside.
fn container_summary(chain: &str, bytes: &[u8]) -> Option<Value> {
    use avalanche_rpc::codec::proposervm::Block;
    let inner = match Block::from_bytes(bytes).ok()? {
        Block::StatelessBlock(b) => b.block,
        Block::GraniteBlock(b) => b.block,
        Block::Option(o) => o.inner_bytes,
        _ => return None,
    };
    block_summary(chain, &inner)
}

/// A hex string's bytes, with or without the 4-byte checksum the node appends.
fn hex_bytes(v: &Value) -> Option<Vec<u8>> {
    let h: avalanche_rpc::wire::HexBytes = v.as_str()?.parse().ok()?;
    Some(
        h.strip_checksum()
            .map(<[u8]>::to_vec)
            .unwrap_or_else(|_| h.0.clone()),
    )
}

fn walk(v: &mut Value, rules: &[&Rule], chain: &str) {
    match v {
        Value::Object(m) => {
            for (k, val) in m.iter_mut() {
                let summary = match rules.iter().find(|r| glob(r.member, k)).map(|r| r.treat) {
                    Some(Treat::Container) => {
                        hex_bytes(val).and_then(|b| container_summary(chain, &b))
                    }
                    Some(Treat::Block) => hex_bytes(val).and_then(|b| block_summary(chain, &b)),
                    _ => None,
                };
                if let Some(summary) = summary {
                    *val = summary;
                    continue;
                }
                match rules.iter().find(|r| glob(r.member, k)).map(|r| r.treat) {
                    Some(Treat::Replace) => *val = Value::String(PLACEHOLDER.into()),
                    Some(Treat::Unordered) => {
                        walk(val, rules, chain);
                        if let Value::Array(a) = val {
                            a.sort_by_cached_key(|e| e.to_string());
                        }
                    }
                    _ => walk(val, rules, chain),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|e| walk(e, rules, chain)),
        _ => {}
    }
}

/// The documented differences: the keys of `DIFFERENCES.md` (each heading `### \`KEY\``;
/// a key may hold `*`).
pub fn documented_keys(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("### `"))
        .filter_map(|l| l.split_once('`').map(|(k, _)| k.to_string()))
        .collect()
}

/// How one reply pair compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Identical,
    Normalized,
    Documented(String),
    Unexplained,
}

/// Compares the node's reply (the reference) with the devnet's for `key` (`method case`).
pub fn compare(documented: &[String], key: &str, node: &Value, devnet: &Value) -> Outcome {
    if node == devnet {
        return Outcome::Identical;
    }
    if normalize(key, node) == normalize(key, devnet) {
        return Outcome::Normalized;
    }
    match documented.iter().find(|d| glob(d, key)) {
        Some(d) => Outcome::Documented(d.clone()),
        None => Outcome::Unexplained,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn glob_matches_runs() {
        assert!(glob("*", "anything"));
        assert!(glob(
            "platform.issueTx P.*/codec-version",
            "platform.issueTx P.BaseTx/codec-version"
        ));
        assert!(!glob(
            "platform.issueTx P.*/codec-version",
            "platform.issueTx P.BaseTx/bad-signature"
        ));
        assert!(!glob("avm.getTx", "avm.getTxStatus"));
    }

    #[test]
    fn timestamps_are_normalized_anywhere_but_nothing_else() {
        let node = json!({"result": {"block": {"timestamp": 5, "height": 3}}});
        let dev = json!({"result": {"block": {"timestamp": 9, "height": 3}}});
        assert_eq!(
            compare(&[], "platform.getBlock valid", &node, &dev),
            Outcome::Normalized
        );
        let dev = json!({"result": {"block": {"timestamp": 9, "height": 4}}});
        assert_eq!(
            compare(&[], "platform.getBlock valid", &node, &dev),
            Outcome::Unexplained
        );
    }

    #[test]
    fn an_unordered_member_compares_as_a_multiset() {
        let node = json!({"result": {"utxos": ["0xb", "0xa"], "numFetched": "2"}});
        let dev = json!({"result": {"utxos": ["0xa", "0xb"], "numFetched": "2"}});
        assert_eq!(
            compare(&[], "avm.getUTXOs valid", &node, &dev),
            Outcome::Normalized
        );
        let dev = json!({"result": {"utxos": ["0xa", "0xa"], "numFetched": "2"}});
        assert_eq!(
            compare(&[], "avm.getUTXOs valid", &node, &dev),
            Outcome::Unexplained
        );
    }

    #[test]
    fn blocks_compare_by_kind_height_and_transactions() {
        use avalanche_rpc::codec::avm;
        let block = |time: u64, height: u64| {
            let b = avm::Block::from(avm::StandardBlock::new(
                avalanche_rpc::wire::Id::new([time as u8; 32]),
                height,
                time,
                avalanche_rpc::wire::Id::ZERO,
                Vec::new(),
            ));
            let bytes = b.to_bytes().unwrap();
            json!({"result": {"block": avalanche_rpc::wire::HexBytes(bytes).to_hex(), "encoding": "hex"}})
        };
        // Another time and parent: the same block for the comparison.
        assert_eq!(
            compare(
                &[],
                "avm.getBlockByHeight valid-hex",
                &block(5, 1),
                &block(9, 1)
            ),
            Outcome::Normalized
        );
        // Another height: not.
        assert_eq!(
            compare(
                &[],
                "avm.getBlockByHeight valid-hex",
                &block(5, 1),
                &block(5, 2)
            ),
            Outcome::Unexplained
        );
    }

    #[test]
    fn a_rule_applies_to_its_methods_only() {
        let node = json!({"result": {"uptime": "99"}});
        let dev = json!({"result": {"uptime": "100"}});
        assert_eq!(
            compare(&[], "platform.getCurrentValidators valid", &node, &dev),
            Outcome::Normalized
        );
        assert_eq!(
            compare(&[], "platform.getStake valid", &node, &dev),
            Outcome::Unexplained
        );
    }

    #[test]
    fn an_error_text_is_never_normalized() {
        let node = json!({"error": {"code": -32000, "message": "failed to verify: a"}});
        let dev = json!({"error": {"code": -32000, "message": "failed to verify: b"}});
        assert_eq!(
            compare(&[], "avm.issueTx X.BaseTx/x", &node, &dev),
            Outcome::Unexplained
        );
        let docs = documented_keys("# D\n\n### `avm.issueTx X.*/x`\n\nwhy\n");
        assert_eq!(docs, vec!["avm.issueTx X.*/x".to_string()]);
        assert_eq!(
            compare(&docs, "avm.issueTx X.BaseTx/x", &node, &dev),
            Outcome::Documented("avm.issueTx X.*/x".into())
        );
    }

    #[test]
    fn every_documented_key_in_the_file_parses() {
        let keys = documented_keys(include_str!("../DIFFERENCES.md"));
        assert!(!keys.is_empty());
        for k in &keys {
            // `method case`, or a pattern over the whole key (`*/wrong-type-*` for the
            // index API's cases, `X/tx/wrong-type-id`).
            assert!(
                k.contains(' ') || k.starts_with('*'),
                "{k}: a key is `method case` or starts with `*`"
            );
        }
    }
}
