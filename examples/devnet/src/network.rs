//! The local network's nodes: this one and four simulated in-process, each with a node ID and
//! a BLS key. The devnet's nodes have no TLS staking certificates, so a node ID is the
//! RIPEMD-160 of the SHA-256 of a secp256k1 public key derived from a documented seed (the
//! same 20-byte form as the node's certificate hash).

use avalanche_rpc::bls::SecretKey;
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::wire::NodeId;

/// How many nodes the local network has (this one first).
pub const NODES: usize = 5;

/// One node of the network.
pub struct Node {
    pub id: NodeId,
    /// Its BLS public key and proof of possession.
    pub public_key: [u8; 48],
    pub proof_of_possession: [u8; 96],
    /// Its BLS secret key, when the devnet holds it: its own nodes', not those a genesis
    /// file names with their keys.
    pub bls: Option<SecretKey>,
    /// `host:port` of its staking port.
    pub ip: String,
}

/// An initial staker a genesis file names (`--genesis-file`).
#[derive(Debug, Clone)]
pub struct InitialStaker {
    pub node: NodeId,
    /// Its BLS public key and proof of possession, when the file gives them.
    pub signer: Option<([u8; 48], [u8; 96])>,
}

fn sha256(data: &[u8]) -> [u8; 32] {
    *avalanche_rpc::wire::Id::from_sha256(data).as_bytes()
}

fn seeded_bls(n: usize) -> SecretKey {
    SecretKey::from_seed(&sha256(format!("avalanche-devnet bls {n}").as_bytes()))
        .expect("32 bytes of seed are enough")
}

fn ip(staking_port: u16, n: usize) -> String {
    format!("127.0.0.1:{}", staking_port as usize + 2 * n)
}

/// The nodes a genesis file names as its initial stakers, this one first; one without a BLS
/// key in the file gets the devnet's seeded key of its number.
pub fn from_stakers(stakers: &[InitialStaker], staking_port: u16) -> Vec<Node> {
    stakers
        .iter()
        .enumerate()
        .map(|(n, s)| match s.signer {
            Some((public_key, proof_of_possession)) => Node {
                id: s.node,
                public_key,
                proof_of_possession,
                bls: None,
                ip: ip(staking_port, n),
            },
            None => {
                let bls = seeded_bls(n);
                Node {
                    id: s.node,
                    public_key: bls.public_key(),
                    proof_of_possession: bls.proof_of_possession(),
                    bls: Some(bls),
                    ip: ip(staking_port, n),
                }
            }
        })
        .collect()
}

/// The network's nodes: node `n`'s ID comes from SHA-256 of `avalanche-devnet node <n>`, its
/// BLS key from SHA-256 of `avalanche-devnet bls <n>`.
pub fn nodes(staking_port: u16) -> Vec<Node> {
    (0..NODES)
        .map(|n| {
            let key =
                PrivateKey::from_bytes(&sha256(format!("avalanche-devnet node {n}").as_bytes()))
                    .expect("a SHA-256 digest is a valid key");
            let bls = seeded_bls(n);
            Node {
                id: NodeId::new(*key.address().as_bytes()),
                public_key: bls.public_key(),
                proof_of_possession: bls.proof_of_possession(),
                bls: Some(bls),
                ip: ip(staking_port, n),
            }
        })
        .collect()
}
