//! Replies of the oldest supported node version decode: every example of every method, with
//! the members that newer nodes added taken out (as the spec's `since` says), goes through the
//! typed client and comes back as sent. Methods newer than the oldest supported node get the
//! error such a node answers.

use avalanche_rpc::rpc::{ClientError, HttpReply, MethodInfo, Node, Transport, TransportError};
use avalanche_rpc::{METHODS, avm, avm_static, devnet, index, info, platform, proposervm, wallet};
use serde_json::{Value, json};
use std::future::Future;

/// A node that answers every request with `answer` (a `result` or an `error`), echoing the
/// request's id as a real node does.
#[derive(Clone)]
struct Replay {
    answer: Value,
}

impl Transport for Replay {
    fn post(
        &self,
        _path: &str,
        body: Vec<u8>,
    ) -> impl Future<Output = Result<HttpReply, TransportError>> + Send {
        let request: Value = serde_json::from_slice(&body).expect("the client sends JSON");
        let mut reply = json!({"jsonrpc": "2.0", "id": request["id"]});
        for (k, v) in self.answer.as_object().expect("an object") {
            reply[k] = v.clone();
        }
        let body = serde_json::to_vec(&reply).expect("encode");
        std::future::ready(Ok(HttpReply::new(200, body)))
    }
}

async fn call(m: &MethodInfo, answer: Value, params: Value) -> Result<Value, ClientError> {
    let node = Node::new(Replay { answer });
    let (name, p) = (m.name, params);
    match m.interface {
        "info" => info::call_json(&node.info(), name, p).await,
        "platform" => platform::call_json(&node.platform(), name, p).await,
        "avm" => avm::call_json(&node.avm("X"), name, p).await,
        "avm-static" => avm_static::call_json(&node.avm_static(), name, p).await,
        "wallet" => wallet::call_json(&node.wallet("X"), name, p).await,
        "index" => index::call_json(&node.index("X", "block"), name, p).await,
        "proposervm" => proposervm::call_json(&node.proposervm("P"), name, p).await,
        "devnet" => devnet::call_json(&node.devnet(), name, p).await,
        other => panic!("no client for interface {other}"),
    }
}

#[tokio::test]
async fn every_method_decodes_the_reply_of_the_oldest_supported_node() {
    let mut failures = Vec::new();
    let mut changed_methods = Vec::new();
    // Also the methods newer than the oldest node: a node between the method's version and a
    // member's lacks that member.
    for m in METHODS {
        let mut changed = false;
        for ex in m.examples.iter().filter(|e| e.normalized.is_none()) {
            let current = ex.result();
            let oldest = m.oldest_shape(&current);
            changed |= oldest != current;
            match call(m, json!({ "result": oldest }), ex.params()).await {
                // Nothing is invented for what the old node left out (a nullable member the
                // reply lacks reads as null).
                Ok(got) if without_added_nulls(&got, &oldest) == oldest => {}
                Ok(got) => failures.push(format!(
                    "{} `{}`: sent {oldest}\n got {got}",
                    m.name, ex.name
                )),
                Err(e) => failures.push(format!("{} `{}`: {e}", m.name, ex.name)),
            }
        }
        if !m.newer_members.is_empty() {
            if changed {
                changed_methods.push(m.name);
            } else {
                failures.push(format!(
                    "{}: no example holds a member newer than the oldest supported node, so its old shape is not exercised",
                    m.name
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!(
        "{} methods replayed in an older node's shape: {changed_methods:?}",
        changed_methods.len()
    );
    // `info.getVMs` gained `fxs` in v1.10.19; the platform validators gained several members.
    assert!(
        changed_methods.contains(&"info.getVMs"),
        "methods replayed in an older shape: {changed_methods:?}"
    );
    assert!(
        changed_methods.len() >= 8,
        "methods replayed in an older shape: {changed_methods:?}"
    );
}

/// `got` without the `null` members that `sent` does not have.
fn without_added_nulls(got: &Value, sent: &Value) -> Value {
    match (got, sent) {
        (Value::Object(g), Value::Object(s)) => Value::Object(
            g.iter()
                .filter(|(k, v)| !v.is_null() || s.contains_key(*k))
                .map(|(k, v)| {
                    (
                        k.clone(),
                        without_added_nulls(v, s.get(k).unwrap_or(&Value::Null)),
                    )
                })
                .collect(),
        ),
        (Value::Array(g), Value::Array(s)) => Value::Array(
            g.iter()
                .zip(s.iter().chain(std::iter::repeat(&Value::Null)))
                .map(|(g, s)| without_added_nulls(g, s))
                .collect(),
        ),
        _ => got.clone(),
    }
}

#[tokio::test]
async fn a_method_newer_than_the_oldest_node_gets_that_nodes_error() {
    let newer: Vec<&&MethodInfo> = METHODS.iter().filter(|m| m.since.is_some()).collect();
    assert!(
        newer
            .iter()
            .any(|m| m.name == "platform.getAllValidatorsAt"),
        "served since v1.14.0"
    );
    for m in newer {
        // What gorilla/rpc answers for a method the node does not register.
        let unknown = json!({"error": {"code": -32000, "message": format!("rpc: can't find method \"{}\"", m.name), "data": null}});
        let params = m.examples[0].params();
        match call(m, unknown, params).await {
            Err(ClientError::Rpc { error, .. }) => {
                assert_eq!(error.code, -32000, "{}", m.name);
                assert!(error.message.contains("can't find method"), "{}", m.name);
            }
            other => panic!("{}: expected the node's error, got {other:?}", m.name),
        }
    }
}

#[test]
fn the_oldest_shape_drops_exactly_the_newer_members() {
    let vms = &info::methods::GET_VMS;
    let current = json!({"vms": {"x": ["avm"]}, "fxs": {"y": "secp256k1fx"}});
    assert_eq!(vms.oldest_shape(&current), json!({"vms": {"x": ["avm"]}}));
    // A reply without them is left alone.
    let old = json!({"vms": {}});
    assert_eq!(vms.oldest_shape(&old), old);
    let _: Value = old;
}
