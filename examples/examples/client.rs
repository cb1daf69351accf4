//! Calls a node: `cargo run -p avalanche-rpc-examples --example client -- http://127.0.0.1:9650`
//! (start `--example serve` first to have a node answering from the spec's examples).

use avalanche_rpc::info::InfoClient;
use avalanche_rpc::platform::{GetCurrentValidatorsParams, PlatformClient};
use avalanche_rpc::rpc::Node;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "http://127.0.0.1:9650".into());
    let node = Node::http(&url)?;

    // A method without params takes an empty params struct: `Default::default()`.
    let me = node.info().get_node_id(Default::default()).await?;
    let network = node.info().get_network_name(Default::default()).await?;
    println!("{url}: {} on {}", me.node_id, network.network_name);

    let height = node.platform().get_height(Default::default()).await?;
    println!("P-chain height {}", height.height);

    let validators = node
        .platform()
        .get_current_validators(GetCurrentValidatorsParams::default())
        .await?;
    for v in validators.validators.iter().take(5) {
        println!("validator {} weight {}", v.node_id, v.weight);
    }
    Ok(())
}
