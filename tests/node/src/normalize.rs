//! The normalization: what legitimately differs between two networks built from the same
//! genesis (one the real node, one the devnet), each rule with why. A reply pair that differs
//! only where a rule applies is "identical after normalization"; any other difference must
//! be documented in `DIFFERENCES.md` (matched by key: method and case) or it is unexplained.

use serde_json::Value;

/// One rule: in replies of the methods matching `methods` (a glob, `*` for any run of
/// characters), every object member named `member` (at any depth) is replaced by a
/// placeholder on both sides before the comparison.
pub struct Rule {
    pub methods: &'static str,
    pub member: &'static str,
    pub why: &'static str,
}

/// The placeholder a normalized value becomes.
pub const PLACEHOLDER: &str = "<normalized>";

pub const RULES: &[Rule] = &[
    Rule {
        methods: "*",
        member: "timestamp",
        why: "block and chain times: each side stamps its blocks with its own clock when it \
              builds them, seconds (or a block interval) apart",
    },
    Rule {
        methods: "platform.getCurrentValidators",
        member: "uptime",
        why: "uptime is measured by each node from its own peers and start time",
    },
    Rule {
        methods: "platform.getCurrentValidators",
        member: "connected",
        why: "whether this node is connected to the validator: a node is connected to \
              itself only, the devnet reports its own view",
    },
    Rule {
        methods: "info.getNodeVersion",
        member: "version",
        why: "the software's name and version: avalanchego/1.14.2 against the devnet's",
    },
    Rule {
        methods: "info.getNodeVersion",
        member: "gitCommit",
        why: "the build's commit",
    },
    Rule {
        methods: "info.getNodeVersion",
        member: "vmVersions",
        why: "the versions of the VMs each side runs",
    },
    Rule {
        methods: "info.getNodeVersion",
        member: "rpcProtocolVersion",
        why: "the plugin protocol version of the node's build",
    },
    Rule {
        methods: "info.uptime",
        member: "*",
        why: "uptime is measured by each node from its own peers and start time",
    },
    Rule {
        methods: "info.getNodeIP",
        member: "ip",
        why: "each side listens on its own port",
    },
    Rule {
        methods: "*.issueTx",
        member: "data",
        why: "a refusal's error data: null on the node, on the devnet `{\"detail\"}` naming the \
              field and values the node's words leave out (the message is the node's words)",
    },
    Rule {
        methods: "info.peers",
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

/// `v` with every member a rule of `method` names replaced by the placeholder.
pub fn normalize(method: &str, v: &Value) -> Value {
    let members: Vec<&str> = RULES
        .iter()
        .filter(|r| glob(r.methods, method))
        .map(|r| r.member)
        .collect();
    let mut out = v.clone();
    walk(&mut out, &members);
    out
}

fn walk(v: &mut Value, members: &[&str]) {
    match v {
        Value::Object(m) => {
            for (k, val) in m.iter_mut() {
                if members.iter().any(|p| glob(p, k)) {
                    *val = Value::String(PLACEHOLDER.into());
                } else {
                    walk(val, members);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|e| walk(e, members)),
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
    let method = key.split(' ').next().unwrap_or(key);
    if normalize(method, node) == normalize(method, devnet) {
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
