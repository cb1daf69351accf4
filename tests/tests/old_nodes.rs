//! Replies of the oldest supported node version decode: every example of every method, with
//! the members that newer nodes added taken out (as the spec's `since` says, also inside the
//! JSON form of transactions and blocks), goes through the typed client and comes back as
//! sent. The JSON forms of transactions and blocks without those members (`id`) also read into
//! the codec's types, which write them again, and fit the spec's OpenRPC schemas. Methods newer
//! than the oldest supported node get the error such a node answers.

use avalanche_rpc::codec::{JsonContext, ToJson};
use avalanche_rpc::rpc::{ClientError, HttpReply, MethodInfo, Node, Transport, TransportError};
use avalanche_rpc::{
    METHODS, avax, avm, avm_static, devnet, eth, index, info, platform, proposervm, wallet,
};
use jsonschema::{Draft, Registry, Validator};
use serde_json::{Value, json};
use std::future::Future;
use std::path::Path;

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
        "avax" => avax::call_json(&node.avax("C"), name, p).await,
        "eth" => eth::call_json(&node.eth("C"), name, p).await,
        "health" => avalanche_rpc::health::call_json(&node.health(), name, p).await,
        "admin" => avalanche_rpc::admin::call_json(&node.admin(), name, p).await,
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
        if !m.newer_members.is_empty() || !m.newer_in_codec_json.is_empty() {
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
    // Transactions and blocks in their JSON form lack `id` before v1.10.1.
    for m in [
        "avm.getTx",
        "platform.getTx",
        "avm.getBlock",
        "platform.getBlockByHeight",
    ] {
        assert!(
            changed_methods.contains(&m),
            "{m} not replayed in an older shape: {changed_methods:?}"
        );
    }
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

/// The spec's combined OpenRPC document, built from the working spec.
fn document() -> Value {
    let spec =
        avalanche_rpc_codegen::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec"))
            .expect("the spec loads");
    avalanche_rpc_codegen::openrpc::combined_document(&spec)
}

const DOC_URI: &str = "urn:avalanche-rpc:openrpc";

/// A validator for the result schema of `method` in `doc` (as codegen's OpenRPC tests build
/// them, resolving `#/components/...`).
fn result_validator(doc: &Value, registry: &Registry<'static>, method: &str) -> Validator {
    let at = doc["methods"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m["name"] == json!(method))
        .unwrap_or_else(|| panic!("{method} is not in the document"));
    jsonschema::options()
        .with_draft(Draft::Draft7)
        .with_registry(registry)
        .build(&json!({ "$ref": format!("{DOC_URI}#/methods/{at}/result/schema") }))
        .unwrap_or_else(|e| panic!("the result schema of {method} does not compile: {e}"))
}

fn schema_errors(v: &Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance)
        .map(|e| format!("at {}: {e}", e.instance_path()))
        .collect()
}

/// The members of `full` that `less` lacks, by path, each with the object that held it;
/// `less` must otherwise be `full`.
fn taken_out(full: &Value, less: &Value, path: &str, out: &mut Vec<(String, Value)>) {
    match (full, less) {
        (Value::Object(f), Value::Object(l)) => {
            for (k, x) in f {
                let at = format!("{path}.{k}");
                match l.get(k) {
                    Some(y) => taken_out(x, y, &at, out),
                    None => out.push((at, full.clone())),
                }
            }
            assert!(
                l.keys().all(|k| f.contains_key(k)),
                "{path}: a member added"
            );
        }
        (Value::Array(f), Value::Array(l)) => {
            assert_eq!(f.len(), l.len(), "{path}");
            for (i, (x, y)) in f.iter().zip(l).enumerate() {
                taken_out(x, y, &format!("{path}[{i}]"), out);
            }
        }
        (f, l) => assert_eq!(f, l, "{path}"),
    }
}

/// How many members named `id` `v` holds, at any depth.
fn ids_in(v: &Value) -> usize {
    match v {
        Value::Object(m) => {
            usize::from(m.contains_key("id")) + m.values().map(ids_in).sum::<usize>()
        }
        Value::Array(items) => items.iter().map(ids_in).sum(),
        _ => 0,
    }
}

/// The example's params as the typed params.
fn typed<T: serde::de::DeserializeOwned>(params: Value) -> T {
    serde_json::from_value(params).expect("the example's params")
}

/// The value, or a panic naming the method and the error.
fn ok<T, E: std::fmt::Display>(method: &str, r: Result<T, E>) -> T {
    r.unwrap_or_else(|e| panic!("{method}: {e}"))
}

/// The codec value a reply of `method` holds, read through the typed client from a node that
/// answers `result`, and written again in the node's JSON form.
async fn decoded_through_the_client(method: &str, result: Value, params: Value) -> Value {
    use avm::AvmClient;
    use platform::PlatformClient;
    let node = Node::new(Replay {
        answer: json!({ "result": result }),
    });
    // The JSON form's addresses need a chain and a network; only IDs are compared here.
    let (x, p) = (JsonContext::new("X", "avax"), JsonContext::new("P", "avax"));
    let (avm, pvm) = (node.avm("X"), node.platform());
    let m = method;
    match method {
        "avm.getTx" => {
            let r = ok(m, avm.get_tx(typed(params)).await);
            ok(m, r.tx_decoded()).to_json(&x)
        }
        "avm.getBlock" => {
            let r = ok(m, avm.get_block(typed(params)).await);
            ok(m, r.block_decoded()).to_json(&x)
        }
        "avm.getBlockByHeight" => {
            let r = ok(m, avm.get_block_by_height(typed(params)).await);
            ok(m, r.block_decoded()).to_json(&x)
        }
        "platform.getTx" => {
            let r = ok(m, pvm.get_tx(typed(params)).await);
            ok(m, r.tx_decoded()).to_json(&p)
        }
        "platform.getBlock" => {
            let r = ok(m, pvm.get_block(typed(params)).await);
            ok(m, r.block_decoded()).to_json(&p)
        }
        "platform.getBlockByHeight" => {
            let r = ok(m, pvm.get_block_by_height(typed(params)).await);
            ok(m, r.block_decoded()).to_json(&p)
        }
        other => panic!("{other}: no typed call here for a method whose JSON form holds `id`"),
    }
}

#[tokio::test]
async fn txs_and_blocks_in_json_without_id_read_through_the_client_and_fit_the_schema() {
    let doc = document();
    let registry = Registry::new()
        .add(DOC_URI, Draft::Draft7.create_resource(doc.clone()))
        .expect("a valid URI")
        .prepare()
        .expect("the registry builds");
    let mut replayed = Vec::new();
    for m in METHODS.iter().filter(|m| !m.newer_in_codec_json.is_empty()) {
        let validator = result_validator(&doc, &registry, m.name);
        for ex in m.examples {
            let current = ex.result();
            let oldest = m.oldest_shape(&current);
            if oldest == current {
                // The hex form: nothing to take out.
                continue;
            }
            let at = format!("{} `{}`", m.name, ex.name);
            // What v1.10.0 sends: the JSON form without any `id`, and a Banff proposal block
            // without its `txs` (JSON since v1.10.18); nothing else taken out.
            assert!(ids_in(&current) > 0, "{at}: the example has no `id`");
            assert_eq!(ids_in(&oldest), 0, "{at}: {oldest:#}");
            let mut taken = Vec::new();
            taken_out(&current, &oldest, "", &mut taken);
            for (path, parent) in &taken {
                let proposal_txs = path.ends_with(".txs") && parent.get("tx").is_some();
                assert!(
                    path.ends_with(".id") || proposal_txs,
                    "{at}: {path} taken out"
                );
            }
            // It fits the OpenRPC schema, as the current form does.
            let errs = schema_errors(&validator, &oldest);
            assert!(errs.is_empty(), "{at}, without `id`:\n{}", errs.join("\n"));
            let errs = schema_errors(&validator, &current);
            assert!(errs.is_empty(), "{at}, with `id`:\n{}", errs.join("\n"));
            // Through the typed client into the codec's type, which writes the `id` again (a
            // server built from the spec still sends it).
            let member = if oldest.get("tx").is_some() {
                "tx"
            } else {
                "block"
            };
            let written = decoded_through_the_client(m.name, oldest.clone(), ex.params()).await;
            assert_eq!(written["id"], current[member]["id"], "{at}");
            assert_eq!(
                ids_in(&written),
                ids_in(&current[member]),
                "{at}: {written:#}"
            );
            replayed.push(m.name);
        }
    }
    replayed.dedup();
    for m in [
        "avm.getTx",
        "avm.getBlock",
        "avm.getBlockByHeight",
        "platform.getTx",
        "platform.getBlock",
        "platform.getBlockByHeight",
    ] {
        assert!(
            replayed.contains(&m),
            "{m} has no JSON-form example: {replayed:?}"
        );
    }
}

#[test]
fn the_schema_still_refuses_a_json_form_with_a_member_the_node_never_had() {
    let doc = document();
    let registry = Registry::new()
        .add(DOC_URI, Draft::Draft7.create_resource(doc.clone()))
        .expect("a valid URI")
        .prepare()
        .expect("the registry builds");
    let m = &avm::methods::GET_TX;
    let validator = result_validator(&doc, &registry, m.name);
    let ex = m
        .examples
        .iter()
        .find(|e| e.result()["tx"].is_object())
        .expect("a JSON-form example");
    // `id` may be missing, but not misspelt, and the other members are still required.
    let mut renamed = ex.result();
    let id = renamed["tx"].as_object_mut().unwrap().remove("id").unwrap();
    renamed["tx"]["ID"] = id;
    assert!(!schema_errors(&validator, &renamed).is_empty());
    let mut lacking = m.oldest_shape(&ex.result());
    lacking["tx"].as_object_mut().unwrap().remove("credentials");
    assert!(!schema_errors(&validator, &lacking).is_empty());
}
