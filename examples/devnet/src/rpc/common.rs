//! What the interfaces share: how a chain's API reads and writes addresses, the `getUTXOs`
//! paging, and a transaction's bytes in and out.

use crate::devnet::Devnet;
use crate::ledger::{self, Chain};
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::types::UtxoIndex;
use avalanche_rpc::wire::{Address, Encoding, HexBytes, Id};

/// The most UTXOs and addresses one `getUTXOs` call takes or returns (`maxPageSize`).
pub const MAX_PAGE: usize = 1024;

/// A chain as its API sees addresses: its alias in output and the aliases it reads.
pub struct ChainView<'a> {
    pub chain: Chain,
    pub alias: &'a str,
    pub aliases: Vec<String>,
}

impl ChainView<'_> {
    pub fn x(devnet: &Devnet) -> ChainView<'static> {
        ChainView {
            chain: Chain::X,
            alias: "X",
            aliases: aliases('X', devnet.genesis.x_chain_id),
        }
    }

    pub fn p() -> ChainView<'static> {
        ChainView {
            chain: Chain::P,
            alias: "P",
            aliases: aliases('P', Id::ZERO),
        }
    }

    pub fn c(devnet: &Devnet) -> ChainView<'static> {
        ChainView {
            chain: Chain::C,
            alias: "C",
            aliases: aliases('C', devnet.genesis.c_chain_id),
        }
    }

    pub fn address(&self, devnet: &Devnet, field: &str, a: &Address) -> Result<[u8; 20], RpcError> {
        let aliases: Vec<&str> = self.aliases.iter().map(String::as_str).collect();
        check_address(devnet, field, a, &aliases)
    }
}

/// One page of `getUTXOs` with the node's rules (`avax.GetPaginatedUTXOs`): addresses in byte
/// order, each one's UTXOs in ID order from the start index on, at most `limit`, each UTXO
/// once, in `encoding` (`json` refused once there is a UTXO, as the node); the end index is
/// the last position searched. `sourceChain` naming another of X, P and C reads what it
/// exported to this chain (shared memory).
pub fn utxo_page(
    devnet: &Devnet,
    view: &ChainView<'_>,
    addresses: &[Address],
    source_chain: Option<&str>,
    limit: Option<u32>,
    start_index: Option<&UtxoIndex>,
    encoding: Encoding,
) -> Result<(Vec<HexBytes>, UtxoIndex), RpcError> {
    if addresses.is_empty() {
        return Err(RpcError::invalid_params(
            "addresses",
            "no addresses provided",
        ));
    }
    if addresses.len() > MAX_PAGE {
        return Err(RpcError::invalid_params(
            "addresses",
            format!(
                "number of addresses given, {}, exceeds maximum, {MAX_PAGE}",
                addresses.len()
            ),
        ));
    }
    let limit = match limit.unwrap_or(0) as usize {
        0 => MAX_PAGE,
        n => n.min(MAX_PAGE),
    };
    // Another chain: the atomic UTXOs it exported to this one, in shared memory.
    let mut space = ledger::Space::Chain(view.chain);
    if let Some(source) = source_chain.filter(|s| !s.is_empty()) {
        let id = crate::devnet::chain_id(devnet, source).ok_or_else(|| {
            RpcError::invalid_params(
                "sourceChain",
                format!("problem parsing source chainID \"{source}\": there is no ID with alias: {source}"),
            )
        })?;
        let from = if id == devnet.genesis.x_chain_id {
            Some(Chain::X)
        } else if id == Id::ZERO {
            Some(Chain::P)
        } else if id == devnet.genesis.c_chain_id {
            Some(Chain::C)
        } else {
            None
        };
        match from {
            Some(from) if from != view.chain => {
                space = ledger::Space::Atomic {
                    to: view.chain,
                    from,
                };
            }
            Some(_) => {}
            // No other chain runs here, so none exports anything.
            None => {
                let zero = format_address(devnet, view.alias, [0; 20]);
                return Ok((Vec::new(), UtxoIndex::new(zero, Id::ZERO.to_string())));
            }
        }
    }
    let mut owners: Vec<[u8; 20]> = Vec::new();
    for a in addresses {
        owners.push(view.address(devnet, "addresses", a)?);
    }
    owners.sort();
    owners.dedup();
    let start = match start_index {
        Some(s) if !(s.address.is_empty() && s.utxo.is_empty()) => {
            let a: Address = s.address.parse().map_err(|e| {
                RpcError::invalid_params(
                    "startIndex.address",
                    format!("couldn't parse start index address \"{}\": {e}", s.address),
                )
            })?;
            let a = view.address(devnet, "startIndex.address", &a)?;
            let u: Id = s.utxo.parse().map_err(|e| {
                RpcError::invalid_params(
                    "startIndex.utxo",
                    format!("couldn't parse start index utxo: {e}"),
                )
            })?;
            Some((a, u))
        }
        _ => None,
    };
    let r = devnet.view()?;
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    let mut end = (
        start.map(|s| s.0).unwrap_or(owners[0]),
        start.map(|s| s.1).unwrap_or(Id::ZERO),
    );
    for a in &owners {
        if out.len() >= limit {
            break;
        }
        let after = match start {
            Some((sa, _)) if *a < sa => continue,
            Some((sa, su)) if *a == sa => Some(su),
            _ => None,
        };
        end.0 = *a;
        for (id, bytes) in r.utxos_of(space, a, after.as_ref(), limit - out.len())? {
            end.1 = id;
            if seen.insert(id) {
                out.push(encode(encoding, &bytes)?);
            }
        }
    }
    Ok((
        out,
        UtxoIndex::new(format_address(devnet, view.alias, end.0), end.1.to_string()),
    ))
}

/// The bytes of a transaction given to `issueTx` in `encoding` (default hex with checksum).
pub(super) fn tx_bytes(encoding: Option<Encoding>, tx: &HexBytes) -> Result<Vec<u8>, RpcError> {
    encoding
        .unwrap_or_default()
        .decode(&tx.to_string())
        .map_err(|e| RpcError::invalid_params("tx", format!("problem decoding transaction: {e}")))
}

/// Bytes in a byte encoding (`json` refused as the node does).
pub(super) fn encode(encoding: Encoding, bytes: &[u8]) -> Result<HexBytes, RpcError> {
    encoding
        .encode(bytes)
        .map_err(|e| RpcError::invalid_params("encoding", e.to_string()))
}

/// An X-chain address of this network (`X-local1…`), or its 20 bytes as raw cb58.
pub(super) fn x_address(devnet: &Devnet, field: &str, a: &Address) -> Result<[u8; 20], RpcError> {
    ChainView::x(devnet).address(devnet, field, a)
}

/// What a primary network chain answers to: its aliases (`avalanche_rpc::network`), its
/// letter first, then its ID.
fn aliases(letter: char, id: Id) -> Vec<String> {
    avalanche_rpc::network::CHAIN_ALIASES
        .iter()
        .filter(|(l, _)| *l == letter)
        .flat_map(|(_, names)| names.iter().map(|n| n.to_string()))
        .chain([id.to_string()])
        .collect()
}

pub(super) fn check_address(
    devnet: &Devnet,
    field: &str,
    a: &Address,
    aliases: &[&str],
) -> Result<[u8; 20], RpcError> {
    let hrp = avalanche_rpc::network::hrp(devnet.options.network_id);
    if let Some(chain) = a.chain()
        && !aliases.contains(&chain)
    {
        return Err(RpcError::invalid_params(
            field,
            format!(
                "couldn't parse address \"{a}\": the chain `{chain}` is not this chain (`{}`)",
                aliases[0]
            ),
        ));
    }
    if let Some(h) = a.hrp()
        && h != hrp
    {
        return Err(RpcError::invalid_params(
            field,
            format!("couldn't parse address \"{a}\": expected hrp \"{hrp}\" but got \"{h}\""),
        ));
    }
    Ok(a.payload())
}

/// The chain-qualified form of an address.
pub(super) fn format_address(devnet: &Devnet, chain: &str, payload: [u8; 20]) -> String {
    Address::new(
        Some(chain),
        avalanche_rpc::network::hrp(devnet.options.network_id),
        payload,
    )
    .map(|a| a.to_string())
    .unwrap_or_default()
}
