//! The local network's nodes: this one and four simulated in-process, each with a node ID and
//! a BLS key. The devnet's nodes have no TLS staking certificates, so a node ID is the
//! RIPEMD-160 of the SHA-256 of a secp256k1 public key derived from a documented seed (the
//! same 20-byte form as the node's certificate hash).

use crate::genesis::sha256;
use avalanche_rpc::bls::SecretKey;
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::wire::NodeId;

/// How many nodes the local network has (this one first).
pub const NODES: usize = 5;

/// One node of the network.
pub struct Node {
    pub id: NodeId,
    pub bls: SecretKey,
    /// `host:port` of its staking port.
    pub ip: String,
}

/// The network's nodes: node `n`'s ID comes from SHA-256 of `avalanche-devnet node <n>`, its
/// BLS key from SHA-256 of `avalanche-devnet bls <n>`.
pub fn nodes(staking_port: u16) -> Vec<Node> {
    (0..NODES)
        .map(|n| {
            let key =
                PrivateKey::from_bytes(&sha256(format!("avalanche-devnet node {n}").as_bytes()))
                    .expect("a SHA-256 digest is a valid key");
            let bls = SecretKey::from_seed(&sha256(format!("avalanche-devnet bls {n}").as_bytes()))
                .expect("32 bytes of seed are enough");
            Node {
                id: NodeId::new(*key.address().as_bytes()),
                bls,
                ip: format!("127.0.0.1:{}", staking_port as usize + 2 * n),
            }
        })
        .collect()
}
