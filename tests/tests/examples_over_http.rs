//! Every method's spec examples, sent through the generated client to the generated server
//! over real HTTP on 127.0.0.1, come back equal to the example result.

mod common;

use avalanche_rpc::rpc::{ClientError, Node};
use avalanche_rpc::{
    METHODS, admin, avax, avm, avm_static, devnet, eth, health, index, info, platform, proposervm,
    wallet,
};
use serde_json::Value;

async fn call(
    node: &Node,
    interface: &str,
    method: &str,
    params: Value,
) -> Result<Value, ClientError> {
    match interface {
        "info" => info::call_json(&node.info(), method, params).await,
        "platform" => platform::call_json(&node.platform(), method, params).await,
        "avm" => avm::call_json(&node.avm("X"), method, params).await,
        "avm-static" => avm_static::call_json(&node.avm_static(), method, params).await,
        "wallet" => wallet::call_json(&node.wallet("X"), method, params).await,
        "proposervm" => proposervm::call_json(&node.proposervm("P"), method, params).await,
        "index" => index::call_json(&node.index("X", "block"), method, params).await,
        "devnet" => devnet::call_json(&node.devnet(), method, params).await,
        "avax" => avax::call_json(&node.avax("C"), method, params).await,
        "eth" => eth::call_json(&node.eth("C"), method, params).await,
        "health" => health::call_json(&node.health(), method, params).await,
        "admin" => admin::call_json(&node.admin(), method, params).await,
        other => panic!("no client for interface {other}"),
    }
}

#[tokio::test]
async fn every_example_round_trips_through_client_and_server() {
    let (node, _) = common::node().await;
    let mut methods_covered = 0;
    let mut examples_sent = 0;
    let mut failures = Vec::new();
    for m in METHODS {
        // The server picks an example by its params, so of several examples with the same
        // params (states of a no-param method) only the first is reachable over the wire;
        // the others are checked by the decode round trip in `spec_examples.rs`.
        let mut seen_params = Vec::new();
        let mut reachable = Vec::new();
        for ex in m.examples.iter().filter(|e| e.normalized.is_none()) {
            let params = m
                .roundtrip_params(&ex.params())
                .expect("example params decode");
            if !seen_params.contains(&params) {
                seen_params.push(params);
                reachable.push(ex);
            }
        }
        if !reachable.is_empty() {
            methods_covered += 1;
        }
        for ex in reachable {
            examples_sent += 1;
            match call(&node, m.interface, m.name, ex.params()).await {
                Ok(got) if got == ex.result() => {}
                Ok(got) => failures.push(format!(
                    "{} `{}`: got {got}\nwant {}",
                    m.name,
                    ex.name,
                    ex.result()
                )),
                Err(e) => failures.push(format!("{} `{}`: {e}", m.name, ex.name)),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {examples_sent} examples failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        methods_covered,
        METHODS.len(),
        "every method has an example the server can answer"
    );
    assert_eq!(METHODS.len(), 97);
    assert!(examples_sent >= METHODS.len());
}

#[tokio::test]
async fn every_index_path_is_served() {
    let (node, _) = common::node().await;
    let params = index::methods::GET_LAST_ACCEPTED.examples[0].params();
    for (chain, kind) in common::INDEXES {
        let r = index::call_json(
            &node.index(chain, kind),
            "index.getLastAccepted",
            params.clone(),
        )
        .await;
        assert!(r.is_ok(), "{chain}/{kind}: {r:?}");
    }
    // A path the node does not serve is an HTTP error naming the status.
    let err = index::call_json(&node.index("P", "tx"), "index.getLastAccepted", params)
        .await
        .unwrap_err();
    assert!(
        matches!(err, ClientError::Http { status: 404, .. }),
        "{err}"
    );
}

#[tokio::test]
async fn the_proposervm_interface_is_served_on_every_chain() {
    use avalanche_rpc::proposervm::ProposervmClient;
    let (node, _) = common::node().await;
    for chain in common::PROPOSERVM_CHAINS {
        let pvm = node.proposervm(chain);
        let height = pvm.get_proposed_height(Default::default()).await;
        assert!(height.is_ok(), "{chain}: {height:?}");
        let epoch = pvm.get_current_epoch(Default::default()).await;
        assert!(epoch.is_ok(), "{chain}: {epoch:?}");
    }
}
