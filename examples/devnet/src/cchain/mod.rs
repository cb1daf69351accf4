//! The C-chain's atomic side: an account ledger (balances in wei, nonces), the atomic
//! transactions that move AVAX between it and the X- or P-chain through shared memory
//! (`verify`), and the blocks that accept them (`vm`). No EVM runs here: no contract, no
//! `eth_sendRawTransaction`; the accounts change only by imports (credits) and exports
//! (debits and nonces), as coreth's `EVMStateTransfer` changes them
//! (`graft/coreth/plugin/evm/atomic/import_tx.go:335`, `export_tx.go:313`).
//!
//! A C block here is the devnet's own form, not the node's (an Ethereum block whose extra data
//! carries the atomic transactions): parent ID (32 bytes) ‖ height (8) ‖ time (8) ‖ the number
//! of transactions (4) ‖ each as its length (4) and signed bytes; its ID is the SHA-256 of
//! those bytes, and the proposervm wraps it as it wraps the other chains' blocks.

pub mod verify;
pub mod vm;

use crate::ledger::{self, Chain};
use crate::store::{self, Reader, StoreError};
use avalanche_rpc::keys::PublicKey;
use avalanche_rpc::wire::Id;
use redb::WriteTransaction;

/// wei per nAVAX: the C-chain counts 18 decimals where the X- and P-chain count 9 (coreth's
/// `X2CRate`, `plugin/evm/atomic/params.go`).
pub const X2C: u128 = 1_000_000_000;

/// The devnet's base fee, in wei per gas: 1 wei, the minimum gas price since Fortuna
/// (ACP-176, avalanchego `vms/evm/acp176/acp176.go:28`, `MinGasPrice = 1`), where a quiet
/// local network stays: AvalancheGo v1.14.2's `eth_baseFee` answers `0x1` there (the wallet
/// tour against it, `.ci/run`). It never changes here (no EVM traffic moves it):
/// `eth_baseFee` answers it and atomic transactions pay their gas at it, 1 nAVAX once rounded
/// up.
pub const BASE_FEE: u64 = 1;

/// The gas every atomic transaction pays besides its bytes and signatures (coreth
/// `plugin/evm/upgrade/ap5/params.go:38`).
pub const INTRINSIC_GAS: u64 = 10_000;
/// Gas per signature (`secp256k1fx.CostPerSignature`).
pub const GAS_PER_SIGNATURE: u64 = 1_000;

/// The EVM chain ID of a local network (the local genesis's `cChainGenesis` config).
pub const LOCAL_EVM_CHAIN_ID: u64 = 43112;

/// The ewoq key's C-chain balance in the node's local genesis: 50,000,000 AVAX in wei
/// (`genesis/genesis_local.json`, `cChainGenesis` alloc `0x295BE96E64066972000000`).
pub const EWOQ_GENESIS_WEI: u128 = 50_000_000 * 1_000_000_000 * X2C;

/// The ewoq key's EVM address.
pub const EWOQ_EVM: [u8; 20] = [
    0x8d, 0xb9, 0x7c, 0x7c, 0xec, 0xe2, 0x49, 0xc2, 0xb9, 0x8b, 0xdc, 0x02, 0x26, 0xcc, 0x4c, 0x2a,
    0x57, 0xbf, 0x52, 0xfc,
];

/// An account's balance and nonce.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Account {
    /// In wei.
    pub balance: u128,
    /// How many exports it has signed.
    pub nonce: u64,
}

/// The account of `address` (zero when never credited).
pub fn account<R: Reader>(r: &R, address: &[u8; 20]) -> Result<Account, StoreError> {
    let Some(v) = ledger::get(r, store::C_ACCOUNTS, address)? else {
        return Ok(Account::default());
    };
    if v.len() != 24 {
        return Err(StoreError::invalid(format!(
            "a stored C-chain account is {} bytes, not 24",
            v.len()
        )));
    }
    Ok(Account {
        balance: u128::from_be_bytes(v[..16].try_into().expect("16 bytes")),
        nonce: u64::from_be_bytes(v[16..].try_into().expect("8 bytes")),
    })
}

/// Writes the account of `address`.
pub fn put_account(
    w: &WriteTransaction,
    address: &[u8; 20],
    a: &Account,
) -> Result<(), StoreError> {
    let v = store::key(&[&a.balance.to_be_bytes(), &a.nonce.to_be_bytes()]);
    w.open_table(store::C_ACCOUNTS)?
        .insert(address.as_slice(), v.as_slice())?;
    Ok(())
}

/// The EVM address of a secp256k1 public key (the library's `PublicKey::evm_address`: the
/// last 20 bytes of the Keccak-256 of its uncompressed form, go-ethereum's
/// `crypto.PubkeyToAddress`), as the devnet keys its accounts.
pub fn evm_address(key: &PublicKey) -> [u8; 20] {
    *key.evm_address().as_bytes()
}

/// A C block in the devnet's own form (see the module's documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CBlock {
    pub parent: Id,
    pub height: u64,
    pub time: u64,
    /// Signed atomic transactions.
    pub txs: Vec<Vec<u8>>,
}

impl CBlock {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(52 + self.txs.iter().map(|t| 4 + t.len()).sum::<usize>());
        out.extend_from_slice(self.parent.as_bytes());
        out.extend_from_slice(&self.height.to_be_bytes());
        out.extend_from_slice(&self.time.to_be_bytes());
        out.extend_from_slice(&(self.txs.len() as u32).to_be_bytes());
        for t in &self.txs {
            out.extend_from_slice(&(t.len() as u32).to_be_bytes());
            out.extend_from_slice(t);
        }
        out
    }

    /// Reads a stored block; bytes this devnet did not write are the store's failure.
    pub fn from_bytes(b: &[u8]) -> Result<CBlock, StoreError> {
        let bad = |what: &str| StoreError::invalid(format!("a stored C block {what}"));
        let take = |at: &mut usize, n: usize| -> Result<&[u8], StoreError> {
            let s = b.get(*at..*at + n).ok_or_else(|| bad("is cut short"))?;
            *at += n;
            Ok(s)
        };
        let mut at = 0;
        let parent = Id::new(take(&mut at, 32)?.try_into().expect("32 bytes"));
        let height = u64::from_be_bytes(take(&mut at, 8)?.try_into().expect("8 bytes"));
        let time = u64::from_be_bytes(take(&mut at, 8)?.try_into().expect("8 bytes"));
        let count = u32::from_be_bytes(take(&mut at, 4)?.try_into().expect("4 bytes"));
        let mut txs = Vec::new();
        for _ in 0..count {
            let len = u32::from_be_bytes(take(&mut at, 4)?.try_into().expect("4 bytes"));
            txs.push(take(&mut at, len as usize)?.to_vec());
        }
        if at != b.len() {
            return Err(bad("has bytes after its last transaction"));
        }
        Ok(CBlock {
            parent,
            height,
            time,
            txs,
        })
    }
}

/// The accounts a C-chain genesis (`cChainGenesis`, the node's JSON) credits: its `alloc`,
/// each balance a `0x` hex or decimal number of wei. An empty genesis (the built-in one, which
/// runs no EVM) gets the local genesis's alloc: the ewoq key's 50,000,000 AVAX.
pub fn genesis_alloc(c_genesis: &[u8]) -> Result<Vec<([u8; 20], u128)>, String> {
    if c_genesis.is_empty() {
        return Ok(vec![(EWOQ_EVM, EWOQ_GENESIS_WEI)]);
    }
    let v: serde_json::Value = serde_json::from_slice(c_genesis)
        .map_err(|e| format!("`cChainGenesis` is not JSON: {e}"))?;
    let mut out = Vec::new();
    let Some(alloc) = v.get("alloc").and_then(|a| a.as_object()) else {
        return Ok(out);
    };
    for (k, entry) in alloc {
        let place = format!("`cChainGenesis.alloc[\"{k}\"]`");
        let hex = k
            .strip_prefix("0x")
            .or_else(|| k.strip_prefix("0X"))
            .unwrap_or(k);
        if hex.len() != 40 || !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!("{place}: an address is 40 hex digits"));
        }
        let mut address = [0u8; 20];
        for (i, b) in address.iter_mut().enumerate() {
            *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex digits");
        }
        let balance = match entry.get("balance") {
            None => 0,
            Some(serde_json::Value::String(s)) => {
                match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                    Some("") => Ok(0),
                    Some(h) => u128::from_str_radix(h, 16),
                    None => s.parse::<u128>(),
                }
                .map_err(|e| format!("{place}.balance `{s}`: {e} (at most 128 bits here)"))?
            }
            Some(other) => return Err(format!("{place}.balance is {other}, not a string")),
        };
        out.push((address, balance));
    }
    Ok(out)
}

/// The EVM chain ID of a C-chain genesis (`config.chainId`), or the local network's.
pub fn evm_chain_id(c_genesis: &[u8]) -> u64 {
    serde_json::from_slice::<serde_json::Value>(c_genesis)
        .ok()
        .and_then(|v| v["config"]["chainId"].as_u64())
        .unwrap_or(LOCAL_EVM_CHAIN_ID)
}

/// Writes the C-chain's genesis block (height 0, at `time`) and its accounts, unless the store
/// has them already (stores written before the C-chain was served get them at their next start).
pub fn write_genesis(
    w: &WriteTransaction,
    time: u64,
    alloc: &[([u8; 20], u128)],
) -> Result<bool, StoreError> {
    if ledger::get(
        w,
        store::BLOCKS,
        &[&[Chain::C as u8][..], &0u64.to_be_bytes()].concat(),
    )?
    .is_some()
    {
        return Ok(false);
    }
    let block = genesis_block(time);
    let bytes = block.to_bytes();
    ledger::put_block(w, Chain::C, &Id::from_sha256(&bytes), 0, &bytes)?;
    for (address, balance) in alloc {
        put_account(
            w,
            address,
            &Account {
                balance: *balance,
                nonce: 0,
            },
        )?;
    }
    Ok(true)
}

/// The C-chain's genesis block here.
pub fn genesis_block(time: u64) -> CBlock {
    CBlock {
        parent: Id::ZERO,
        height: 0,
        time,
        txs: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use avalanche_rpc::keys::PrivateKey;

    #[test]
    fn the_ewoq_key_has_its_known_evm_address() {
        // ewoq: PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN
        let key: PrivateKey = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN"
            .parse()
            .unwrap();
        assert_eq!(evm_address(&key.public_key()), EWOQ_EVM);
    }

    #[test]
    fn the_local_alloc_is_read_from_the_nodes_json() {
        let json = br#"{"config":{"chainId":43112},"alloc":{"8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC":{"balance":"0x295BE96E64066972000000"}}}"#;
        assert_eq!(
            genesis_alloc(json).unwrap(),
            vec![(EWOQ_EVM, EWOQ_GENESIS_WEI)]
        );
        assert_eq!(evm_chain_id(json), 43112);
        assert_eq!(
            genesis_alloc(b"").unwrap(),
            vec![(EWOQ_EVM, EWOQ_GENESIS_WEI)]
        );
        let bad = br#"{"alloc":{"8db9":{"balance":"0x1"}}}"#;
        assert!(genesis_alloc(bad).unwrap_err().contains("40 hex digits"));
    }

    #[test]
    fn a_block_round_trips_and_cut_bytes_are_refused() {
        let b = CBlock {
            parent: Id::new([7; 32]),
            height: 3,
            time: 1_700_000_000,
            txs: vec![vec![1, 2, 3], vec![]],
        };
        let bytes = b.to_bytes();
        assert_eq!(CBlock::from_bytes(&bytes).unwrap(), b);
        assert!(CBlock::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    }
}
