//! The networks and chain aliases the node knows by name, in one table each: the codec's
//! JSON, the wallet's context, the `avax-rpc` tool and the devnet all read them here.
//!
//! As the node's `utils/constants/network_ids.go`: seven named networks, each with its HRP
//! (the human-readable part of its bech32 addresses); any other network ID has the HRP
//! `custom` and the name `network-ID`. As its `chains/manager.go` and `node/node.go`: the
//! primary network's chains answer to their letter and their VM's name.

use std::borrow::Cow;
use std::fmt;

/// A network the node names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    /// Its network ID.
    pub id: u32,
    /// Its name (`info.getNetworkName`).
    pub name: &'static str,
    /// The human-readable part of its addresses.
    pub hrp: &'static str,
}

/// Every network the node names (`NetworkIDToNetworkName`, `NetworkIDToHRP`).
pub const NETWORKS: [Network; 7] = [
    Network {
        id: 1,
        name: "mainnet",
        hrp: "avax",
    },
    Network {
        id: 2,
        name: "cascade",
        hrp: "cascade",
    },
    Network {
        id: 3,
        name: "denali",
        hrp: "denali",
    },
    Network {
        id: 4,
        name: "everest",
        hrp: "everest",
    },
    Network {
        id: 5,
        name: "fuji",
        hrp: "fuji",
    },
    Network {
        id: 10,
        name: "testing",
        hrp: "testing",
    },
    Network {
        id: 12345,
        name: "local",
        hrp: "local",
    },
];

/// The HRP of every network the node does not name (`FallbackHRP`).
pub const FALLBACK_HRP: &str = "custom";

/// The network the node names with this ID, if any.
pub fn named(id: u32) -> Option<&'static Network> {
    NETWORKS.iter().find(|n| n.id == id)
}

/// The HRP of a network's addresses (`constants.GetHRP`): its own, or `custom`.
pub fn hrp(id: u32) -> &'static str {
    named(id).map_or(FALLBACK_HRP, |n| n.hrp)
}

/// A network's name (`constants.NetworkName`): its own, or `network-ID`.
pub fn name(id: u32) -> Cow<'static, str> {
    match named(id) {
        Some(n) => Cow::Borrowed(n.name),
        None => Cow::Owned(format!("network-{id}")),
    }
}

/// The network ID an HRP belongs to, when a named network has it (`custom` belongs to none:
/// every unnamed network shares it).
pub fn id_of_hrp(hrp: &str) -> Option<u32> {
    NETWORKS.iter().find(|n| n.hrp == hrp).map(|n| n.id)
}

/// A network name that names no network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownNetwork(pub String);

impl fmt::Display for UnknownNetwork {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a network: give a name ({}, or testnet for fuji), `network-ID` or an ID",
            self.0,
            NETWORKS.map(|n| n.name).join(", ")
        )
    }
}

impl std::error::Error for UnknownNetwork {}

/// The network ID a name gives, as the node reads its `--network-id` (`constants.NetworkID`):
/// a name in any case (`testnet` is fuji), `network-ID`, or the ID itself.
pub fn id_of_name(text: &str) -> Result<u32, UnknownNetwork> {
    let lower = text.to_ascii_lowercase();
    if lower == "testnet" {
        return Ok(5);
    }
    if let Some(n) = NETWORKS.iter().find(|n| n.name == lower) {
        return Ok(n.id);
    }
    lower
        .strip_prefix("network-")
        .unwrap_or(&lower)
        .parse()
        .map_err(|_| UnknownNetwork(text.to_string()))
}

/// The primary network's chains and the aliases each answers to, its letter first (the
/// node's default chain aliases, `node/node.go`, and its API paths `/ext/bc/ALIAS`).
pub const CHAIN_ALIASES: [(char, [&str; 2]); 3] = [
    ('X', ["X", "avm"]),
    ('P', ["P", "platform"]),
    ('C', ["C", "evm"]),
];

/// The primary network chain's letter an alias names (`X`, `avm`, `P`, `platform`, `C`,
/// `evm`), if any.
pub fn chain_of_alias(alias: &str) -> Option<char> {
    CHAIN_ALIASES
        .iter()
        .find(|(_, aliases)| aliases.contains(&alias))
        .map(|(letter, _)| *letter)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_network_the_node_names_has_its_hrp_and_name() {
        let node = [
            (1, "mainnet", "avax"),
            (2, "cascade", "cascade"),
            (3, "denali", "denali"),
            (4, "everest", "everest"),
            (5, "fuji", "fuji"),
            (10, "testing", "testing"),
            (12345, "local", "local"),
        ];
        for (id, n, h) in node {
            assert_eq!((hrp(id), name(id).as_ref()), (h, n), "network {id}");
            assert_eq!(id_of_name(n), Ok(id));
            assert_eq!(id_of_name(&n.to_uppercase()), Ok(id));
            assert_eq!(id_of_hrp(h), Some(id));
        }
        assert_eq!((hrp(1337), name(1337).as_ref()), ("custom", "network-1337"));
        assert_eq!(id_of_hrp("custom"), None);
        assert_eq!(id_of_name("testnet"), Ok(5));
        assert_eq!(id_of_name("network-1337"), Ok(1337));
        assert_eq!(id_of_name("1337"), Ok(1337));
        let e = id_of_name("mainet").unwrap_err().to_string();
        assert!(
            e.contains("\"mainet\" is not a network") && e.contains("testing"),
            "{e}"
        );
    }

    #[test]
    fn chain_aliases_name_their_chain() {
        for (alias, letter) in [("X", 'X'), ("avm", 'X'), ("platform", 'P'), ("evm", 'C')] {
            assert_eq!(chain_of_alias(alias), Some(letter));
        }
        assert_eq!(chain_of_alias("x"), None);
    }
}
