//! `decode` and `encode`: a codec value between its bytes (hex) and the node's JSON form.

use avalanche_rpc::codec::{JsonContext, Root, ToJson, atomic, avm, platform, proposervm, warp};
use avalanche_rpc::wire::HexBytes;
use clap::{Args, ValueEnum};
use serde_json::Value;

/// What the bytes are.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Kind {
    /// A signed transaction (`getTx`, `issueTx`).
    Tx,
    /// An unsigned transaction (the bytes whose SHA-256 is signed).
    UnsignedTx,
    /// A block (`getBlock`).
    Block,
    /// A UTXO (`getUTXOs`).
    Utxo,
    /// A genesis (`avm.buildGenesis`; the P-chain's genesis).
    Genesis,
    /// A staked output (`platform.getStake`; P-chain only).
    StakedOutput,
    /// An index container: a proposer block, with its chain's block inside.
    Container,
    /// A signed Warp message (inside RegisterL1ValidatorTx and SetL1ValidatorWeightTx).
    Warp,
}

/// The chain whose codec the value is in.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Chain {
    /// The X-chain (AVM).
    #[value(name = "X", alias = "x")]
    X,
    /// The P-chain (platform).
    #[value(name = "P", alias = "p")]
    P,
}

/// The chain whose codec `decode` and `encode` read and write: the X- or P-chain, or the
/// C-chain's atomic transactions and the UTXOs of its shared memory.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CodecChain {
    /// The X-chain (AVM).
    #[value(name = "X", alias = "x")]
    X,
    /// The P-chain (platform).
    #[value(name = "P", alias = "p")]
    P,
    /// The C-chain's atomic side (`tx`, `unsigned-tx`, `utxo`).
    #[value(name = "C", alias = "c")]
    C,
}

impl CodecChain {
    fn x_or_p(self) -> Option<Chain> {
        match self {
            CodecChain::X => Some(Chain::X),
            CodecChain::P => Some(Chain::P),
            CodecChain::C => None,
        }
    }
}

/// How the hex is written.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HexForm {
    /// With its 4-byte checksum when it has a valid one, else without.
    Auto,
    /// With the checksum (the node's `hex` and `hexc`).
    Hex,
    /// Without (the node's `hexnc`).
    Hexnc,
}

#[derive(Args)]
pub struct Decode {
    /// What the bytes are.
    kind: Kind,
    /// The chain (`X`, `P`, or `C` for its atomic transactions and UTXOs); needed for every
    /// kind but `container` and `warp`.
    #[arg(long, value_enum)]
    chain: Option<CodecChain>,
    /// The network ID, for the HRP of addresses (1 `avax`, 5 `fuji`, 10 `testing`, 12345
    /// `local`, any other `custom`; `avalanche_rpc::network`). Without it, the network of the
    /// node at `--url` when one is given, else 1.
    #[arg(long)]
    network_id: Option<u32>,
    /// A node whose network ID names the addresses (`info.getNetworkID`), e.g. the devnet's
    /// `http://127.0.0.1:9650`.
    #[arg(long)]
    url: Option<String>,
    /// Whether the hex ends in a checksum.
    #[arg(long, value_enum, default_value_t = HexForm::Auto)]
    encoding: HexForm,
    /// The bytes, `0x` hex (`-` reads them from standard input).
    hex: String,
}

/// The network whose HRP `decode` writes: `--network-id`, else the node's at `--url`, else 1.
fn network_of(a: &Decode) -> Result<u32, String> {
    let Some(url) = &a.url else {
        return Ok(a.network_id.unwrap_or(1));
    };
    use avalanche_rpc::info::InfoClient;
    let node = avalanche_rpc::rpc::Node::http(url).map_err(|e| format!("`--url`: {e}"))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let id = runtime
        .block_on(node.info().get_network_id(Default::default()))
        .map_err(|e| e.to_string())?
        .network_id
        .0;
    match a.network_id {
        Some(given) if given != id => Err(format!(
            "`--network-id` {given} is not the network of the node at {url} ({id}): leave one of them out"
        )),
        _ => Ok(id),
    }
}

/// The argument, or standard input when it is `-`.
fn argument_or_stdin(text: &str) -> Result<String, String> {
    if text == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("cannot read standard input: {e}"))
    } else {
        Ok(text.to_string())
    }
}

#[derive(Args)]
pub struct Encode {
    /// What the JSON is.
    kind: Kind,
    /// The chain (`X`, `P`, or `C` for its atomic transactions and UTXOs); needed for every
    /// kind but `container` and `warp`.
    #[arg(long, value_enum)]
    chain: Option<CodecChain>,
    /// Write the hex with the checksum (`hex`) or without (`hexnc`).
    #[arg(long, value_enum, default_value_t = HexForm::Hex)]
    encoding: HexForm,
    /// The network ID the JSON's addresses belong to (as `decode` takes it): every bech32
    /// address must carry its HRP (1 `avax`, 5 `fuji`, 10 `testing`, 12345 `local`, others `custom`).
    /// The bytes hold only the 20-byte payloads, so without it no HRP is checked.
    #[arg(long)]
    network_id: Option<u32>,
    /// The node's JSON form of the value (`-` reads it from standard input).
    json: String,
}

/// The first bech32 address in `v` whose HRP is not `hrp`, with its JSON path.
fn foreign_address(v: &Value, path: &mut String, hrp: &str) -> Option<(String, String)> {
    match v {
        Value::String(s) => match s.parse::<avalanche_rpc::wire::Address>() {
            Ok(a) if a.hrp().is_some_and(|h| h != hrp) => Some((path.clone(), s.clone())),
            _ => None,
        },
        Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
            let len = path.len();
            path.push_str(&format!("[{i}]"));
            let found = foreign_address(item, path, hrp);
            path.truncate(len);
            found
        }),
        Value::Object(members) => members.iter().find_map(|(k, item)| {
            let len = path.len();
            path.push_str(&format!(".{k}"));
            let found = foreign_address(item, path, hrp);
            path.truncate(len);
            found
        }),
        _ => None,
    }
}

fn bytes_of(hex: &str, form: HexForm) -> Result<Vec<u8>, String> {
    let h: HexBytes = hex
        .trim()
        .parse()
        .map_err(|e| format!("the argument is not hex: {e}"))?;
    match form {
        HexForm::Hexnc => Ok(h.0),
        HexForm::Hex => h
            .strip_checksum()
            .map(<[u8]>::to_vec)
            .map_err(|e| format!("the hex's checksum: {e}")),
        HexForm::Auto => Ok(match h.strip_checksum() {
            Ok(payload) => payload.to_vec(),
            Err(_) => h.0,
        }),
    }
}

fn decode_as<T: Root>(bytes: &[u8], cx: &JsonContext) -> Result<Value, String> {
    let v = T::decode_root(bytes).map_err(|e| format!("the bytes do not decode: {e}"))?;
    Ok(v.to_json(cx))
}

fn encode_as<T: Root>(json: &Value) -> Result<Vec<u8>, String> {
    let v = T::from_json(json, None).map_err(|e| format!("the JSON does not read: {e}"))?;
    v.encode_root()
        .map_err(|e| format!("the value does not encode: {e}"))
}

/// The node's JSON form of an index container's bytes: a proposer block, with the chain's
/// block inside (its `block`, or an option's `innerBytes`) when the chain is given
/// (`decode container`, and `export --decode`).
pub fn container_json(
    bytes: &[u8],
    chain: Option<Chain>,
    cx: &JsonContext,
) -> Result<Value, String> {
    let block = proposervm::Block::decode_root(bytes)
        .map_err(|e| format!("the bytes do not decode: {e}"))?;
    let mut v = block.to_json(cx);
    let Some(chain) = chain else {
        return Ok(v);
    };
    // An option (the commit or abort of a P-chain proposal) holds its block as `innerBytes`.
    let (member, inner) = match &block {
        proposervm::Block::Option(o) => ("innerBytes", &o.inner_bytes),
        other => match other.block() {
            Some(inner) => ("block", inner),
            None => return Ok(v),
        },
    };
    let decoded = match chain {
        Chain::X => decode_as::<avm::Block>(inner, cx),
        Chain::P => decode_as::<platform::Block>(inner, cx),
    }
    .map_err(|e| format!("the block inside: {e}"))?;
    if let Some(members) = v.as_object_mut() {
        members.insert(member.into(), decoded);
    }
    Ok(v)
}

/// The node's JSON form of a signed transaction's bytes.
pub fn tx_json(bytes: &[u8], chain: Chain, cx: &JsonContext) -> Result<Value, String> {
    match chain {
        Chain::X => decode_as::<avm::Tx>(bytes, cx),
        Chain::P => decode_as::<platform::Tx>(bytes, cx),
    }
}

fn need(chain: Option<CodecChain>, kind: &str) -> Result<CodecChain, String> {
    chain.ok_or_else(|| format!("`{kind}` needs --chain X, P or C"))
}

/// What the C-chain's codec does not hold.
fn not_on_c(kind: Kind) -> String {
    let what = match kind {
        Kind::Block => "C-chain blocks are Ethereum blocks (`eth_getBlockByNumber`)",
        Kind::Genesis => "the C-chain's genesis is Ethereum's JSON, not a codec value",
        _ => "staked outputs are P-chain values",
    };
    format!("{what}: with --chain C, `tx`, `unsigned-tx` and `utxo` are decoded")
}

pub fn decode(a: Decode) -> Result<String, String> {
    let bytes = bytes_of(&argument_or_stdin(&a.hex)?, a.encoding)?;
    let network_id = network_of(&a)?;
    let cx = match a.chain {
        Some(CodecChain::P) => JsonContext::for_network("P", network_id),
        // The node writes the outputs of atomic transactions without a chain's context.
        Some(CodecChain::C) => JsonContext::bare(),
        _ => JsonContext::for_network("X", network_id),
    };
    let value = match (a.kind, a.chain) {
        (Kind::Container, chain) => {
            container_json(&bytes, chain.and_then(CodecChain::x_or_p), &cx)?
        }
        (Kind::Warp, _) => decode_as::<warp::Message>(&bytes, &cx)?,
        (kind, chain) => match (kind, need(chain, "decode")?) {
            (Kind::Tx, CodecChain::X) => decode_as::<avm::Tx>(&bytes, &cx)?,
            (Kind::Tx, CodecChain::P) => decode_as::<platform::Tx>(&bytes, &cx)?,
            (Kind::Tx, CodecChain::C) => decode_as::<atomic::Tx>(&bytes, &cx)?,
            (Kind::UnsignedTx, CodecChain::X) => decode_as::<avm::UnsignedTx>(&bytes, &cx)?,
            (Kind::UnsignedTx, CodecChain::P) => decode_as::<platform::UnsignedTx>(&bytes, &cx)?,
            (Kind::UnsignedTx, CodecChain::C) => decode_as::<atomic::UnsignedTx>(&bytes, &cx)?,
            (Kind::Block, CodecChain::X) => decode_as::<avm::Block>(&bytes, &cx)?,
            (Kind::Block, CodecChain::P) => decode_as::<platform::Block>(&bytes, &cx)?,
            (Kind::Utxo, CodecChain::X) => decode_as::<avm::Utxo>(&bytes, &cx)?,
            (Kind::Utxo, CodecChain::P) => decode_as::<platform::Utxo>(&bytes, &cx)?,
            (Kind::Utxo, CodecChain::C) => decode_as::<atomic::Utxo>(&bytes, &cx)?,
            (Kind::Genesis, CodecChain::X) => decode_as::<avm::Genesis>(&bytes, &cx)?,
            (Kind::Genesis, CodecChain::P) => decode_as::<platform::Genesis>(&bytes, &cx)?,
            (Kind::StakedOutput, CodecChain::P) => {
                decode_as::<platform::TransferableOutput>(&bytes, &cx)?
            }
            (Kind::StakedOutput, CodecChain::X) => {
                return Err("staked outputs are P-chain values: --chain P".into());
            }
            (kind @ (Kind::Block | Kind::Genesis | Kind::StakedOutput), CodecChain::C) => {
                return Err(not_on_c(kind));
            }
            (Kind::Container | Kind::Warp, _) => {
                return Err("internal: this kind is handled above".into());
            }
        },
    };
    serde_json::to_string_pretty(&value).map_err(|e| e.to_string())
}

pub fn encode(a: Encode) -> Result<String, String> {
    let text = argument_or_stdin(&a.json)?;
    let json: Value =
        serde_json::from_str(&text).map_err(|e| format!("the argument is not JSON: {e}"))?;
    if let Some(id) = a.network_id {
        let hrp = avalanche_rpc::network::hrp(id);
        if let Some((path, address)) = foreign_address(&json, &mut String::new(), hrp) {
            return Err(format!(
                "`{}`: {address} is not an address of network {id}, whose addresses start `{hrp}1` \
                 (after the chain's `X-` or `P-`)",
                path.trim_start_matches('.')
            ));
        }
    }
    let bytes = match a.kind {
        Kind::Container => encode_as::<proposervm::Block>(&json)?,
        Kind::Warp => encode_as::<warp::Message>(&json)?,
        kind => match (kind, need(a.chain, "encode")?) {
            (Kind::Tx, CodecChain::X) => encode_as::<avm::Tx>(&json)?,
            (Kind::Tx, CodecChain::P) => encode_as::<platform::Tx>(&json)?,
            (Kind::Tx, CodecChain::C) => encode_as::<atomic::Tx>(&json)?,
            (Kind::UnsignedTx, CodecChain::X) => encode_as::<avm::UnsignedTx>(&json)?,
            (Kind::UnsignedTx, CodecChain::P) => encode_as::<platform::UnsignedTx>(&json)?,
            (Kind::UnsignedTx, CodecChain::C) => encode_as::<atomic::UnsignedTx>(&json)?,
            (Kind::Block, CodecChain::X) => encode_as::<avm::Block>(&json)?,
            (Kind::Block, CodecChain::P) => encode_as::<platform::Block>(&json)?,
            (Kind::Utxo, CodecChain::X) => encode_as::<avm::Utxo>(&json)?,
            (Kind::Utxo, CodecChain::P) => encode_as::<platform::Utxo>(&json)?,
            (Kind::Utxo, CodecChain::C) => encode_as::<atomic::Utxo>(&json)?,
            (Kind::Genesis, CodecChain::X) => encode_as::<avm::Genesis>(&json)?,
            (Kind::Genesis, CodecChain::P) => encode_as::<platform::Genesis>(&json)?,
            (Kind::StakedOutput, CodecChain::P) => {
                encode_as::<platform::TransferableOutput>(&json)?
            }
            (Kind::StakedOutput, CodecChain::X) => {
                return Err("staked outputs are P-chain values: --chain P".into());
            }
            (kind @ (Kind::Block | Kind::Genesis | Kind::StakedOutput), CodecChain::C) => {
                return Err(not_on_c(kind));
            }
            (Kind::Container | Kind::Warp, _) => {
                return Err("internal: this kind is handled above".into());
            }
        },
    };
    Ok(match a.encoding {
        HexForm::Hexnc => HexBytes(bytes).to_hex(),
        _ => HexBytes::with_checksum(&bytes).to_hex(),
    })
}
