//! The text cache is the server's: a client in the same process runs with it off unless a
//! server (or the application) turns it on, and reads and writes the same with it on. Its own
//! file, so that nothing else in this process turns the cache on first.

mod common;

use avalanche_rpc::platform::{GetCurrentValidatorsParams, PlatformClient};
use avalanche_rpc::rpc::{Node, ServerConfig};
use avalanche_rpc::wire::{self, NodeId};
use serde_json::Value;

/// The first `NodeID-…` text in `value`.
fn first_node_id(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if s.starts_with("NodeID-") => Some(s.clone()),
        Value::Array(items) => items.iter().find_map(first_node_id),
        Value::Object(members) => members.values().find_map(first_node_id),
        _ => None,
    }
}

#[tokio::test]
async fn a_client_in_the_same_process_is_unaffected_unless_it_asks() {
    // A server told to leave the cache off, and a client of it: nothing turns the cache on.
    let quiet = common::serve_with(
        common::router(),
        ServerConfig::default().text_cache_entries(0),
    )
    .await;
    let client = Node::http(&quiet).unwrap();
    let before = client
        .platform()
        .get_current_validators(GetCurrentValidatorsParams::default())
        .await
        .unwrap();
    let before = serde_json::to_value(&before).unwrap();
    let text = first_node_id(&before).expect("the spec's example names a validator");
    let id: NodeId = text.parse().unwrap();
    assert_eq!(id.to_string(), text);
    assert!(
        !wire::text_cache_enabled(),
        "a client, and a server configured without it, leave the cache off"
    );

    // A server with the defaults turns it on, for the whole process, once it serves.
    let served = common::serve(common::router()).await;
    Node::http(&served)
        .unwrap()
        .platform()
        .get_current_validators(GetCurrentValidatorsParams::default())
        .await
        .unwrap();
    assert!(wire::text_cache_enabled());

    // The client reads and writes what it did without it.
    let after = client
        .platform()
        .get_current_validators(GetCurrentValidatorsParams::default())
        .await
        .unwrap();
    assert_eq!(serde_json::to_value(&after).unwrap(), before);
    let id: NodeId = text.parse().unwrap();
    assert_eq!(id.to_string(), text);
    assert_eq!(serde_json::to_value(id).unwrap(), Value::String(text));
    // Its reading trails are its own switch: the server's left their limit as it was.
    assert_eq!(
        wire::limit_read_trails(wire::DEFAULT_READ_PAIRS),
        wire::DEFAULT_READ_PAIRS
    );
}
