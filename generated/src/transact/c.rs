//! The C-chain's atomic transactions (coreth `plugin/evm/atomic`): an export moves AVAX from
//! EVM balances to the X- or P-chain's shared memory, an import credits an EVM address with
//! the UTXOs the X- or P-chain exported to the C-chain. AVAX only, as the node requires since
//! Banff (`ErrExportNonAVAXInputBanff`, `ErrImportNonAVAXInputBanff`).
//!
//! Amounts in these transactions are nAVAX; EVM balances are wei (1 nAVAX = 10⁹ wei, the
//! node's `X2CRate`). The fee is the node's: the transaction's gas ([`gas`]: 10,000, plus
//! one per unsigned byte, plus 1,000 per signature) at the base fee, in wei per gas,
//! converted to nAVAX rounded up ([`fee`], coreth's `CalculateDynamicFee`).
//!
//! The builders choose as the node's own wallet code does (`NewExportTx`, `NewImportTx`):
//! an export takes from the accounts in the order given, each a whole input, skipping one
//! whose balance would not cover the gas its input adds; an import takes every AVAX UTXO
//! the keys can spend and credits one address with it, less the fee. Where they differ
//! from the node's code:
//! - an import skips UTXOs of other assets (the node's builder takes them, then its own
//!   verification refuses the transaction);
//! - an import whose AVAX would leave nothing after the fee is refused naming the amounts
//!   (the node's says "no EVM outputs").

use std::collections::BTreeSet;

use crate::codec::{atomic, secp256k1fx};
use crate::wire::{EvmAddress, Id, ShortId};

use super::error::BuildError;
/// The node-facing part (feature `client`): the UTXOs exported to the C-chain, the accounts
/// of keys, the base fee, and issuing with a handle to wait on ([`Pending`](super::Pending)).
#[cfg(feature = "client")]
pub use super::node::{
    c_accounts as accounts, c_base_fee as base_fee, c_utxos as utxos, issue_c_pending as issue,
};
use super::payer::{Payer, check_owners};
use super::sign::{CredentialKind, Signable, Signers};
use super::spend::{encoded, match_owners, utxo_order};

/// A C-chain atomic transaction, not yet (or partly) signed.
pub type Unsigned = super::Unsigned<atomic::UnsignedTx>;

impl Signable for atomic::UnsignedTx {
    type Signed = atomic::Tx;

    fn unsigned_bytes(&self) -> Result<Vec<u8>, String> {
        self.to_bytes().map_err(|e| e.to_string())
    }

    fn assemble(&self, credentials: Vec<(CredentialKind, Vec<[u8; 65]>)>) -> atomic::Tx {
        let credentials = credentials
            .into_iter()
            .map(|(_, sigs)| secp256k1fx::Credential::new(sigs).into())
            .collect();
        atomic::Tx::new(self.clone(), credentials)
    }
}

/// Gas every atomic transaction pays (`ap5.AtomicTxIntrinsicGas`).
pub const INTRINSIC_GAS: u64 = 10_000;
/// Gas per signature (`secp256k1fx.CostPerSignature`).
pub const GAS_PER_SIGNATURE: u64 = 1_000;
/// Gas an export's EVM input adds: its 68 bytes and its signature (`EVMInputGas`).
pub const EVM_INPUT_GAS: u64 = 20 + 8 + 32 + 8 + GAS_PER_SIGNATURE;
/// Wei per nAVAX on the C-chain (`X2CRate`).
pub const WEI_PER_NAVAX: u128 = 1_000_000_000;

/// The gas of an atomic transaction as the node counts it since Apricot Phase 5 (`GasUsed`):
/// one per byte of its unsigned bytes (codec version and type ID included), 1,000 per
/// signature (each imported input's signature indices; one per EVM input of an export)
/// and 10,000.
pub fn gas(tx: &atomic::UnsignedTx) -> Result<u64, BuildError> {
    let bytes = tx
        .to_bytes()
        .map_err(|e| BuildError::Encode(e.to_string()))?;
    let signatures: usize = match tx {
        atomic::UnsignedTx::UnsignedImportTx(i) => i
            .imported_inputs
            .iter()
            .map(|input| match &input.input {
                atomic::TransferableIn::TransferInput(t) => t.input.signature_indices.len(),
            })
            .sum(),
        atomic::UnsignedTx::UnsignedExportTx(e) => e.inputs.len(),
    };
    (bytes.len() as u64)
        .checked_add((signatures as u64).saturating_mul(GAS_PER_SIGNATURE))
        .and_then(|g| g.checked_add(INTRINSIC_GAS))
        .ok_or_else(|| BuildError::Encode("its gas overflows".into()))
}

/// The fee in nAVAX of `gas` at `base_fee` wei per gas, rounded up (`CalculateDynamicFee`).
pub fn fee(gas: u64, base_fee: u128) -> Result<u64, BuildError> {
    let wei = u128::from(gas).checked_mul(base_fee).ok_or_else(|| {
        BuildError::invalid(
            "base_fee",
            format!("{base_fee} wei per gas × {gas} gas overflows"),
        )
    })?;
    u64::try_from(wei.div_ceil(WEI_PER_NAVAX)).map_err(|_| {
        BuildError::invalid(
            "base_fee",
            format!(
                "{base_fee} wei per gas makes a fee of more than {} nAVAX",
                u64::MAX
            ),
        )
    })
}

/// An EVM account that pays for an export: its address, the key that signs for it (the
/// same key's X/P address, by which keychains and signers are asked), its balance in wei
/// (`eth_getBalance`) and its nonce (`eth_getTransactionCount`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Account {
    /// The EVM address debited.
    pub address: EvmAddress,
    /// The address of the key that owns it (`PublicKey::address`), which signs.
    pub signer: ShortId,
    /// Its balance in wei.
    pub balance: u128,
    /// Its nonce.
    pub nonce: u64,
}

impl Account {
    /// The account of `key` with this balance (wei) and nonce.
    pub fn of(key: &crate::keys::PublicKey, balance: u128, nonce: u64) -> Account {
        Account {
            address: key.evm_address(),
            signer: key.address(),
            balance,
            nonce,
        }
    }

    /// The balance in nAVAX, rounded down: what it can export.
    pub fn spendable(&self) -> u64 {
        u64::try_from(self.balance / WEI_PER_NAVAX).unwrap_or(u64::MAX)
    }
}

fn check_peer(ctx: &super::Context, field: &str, chain: Id) -> Result<(), BuildError> {
    if chain == ctx.x_chain_id || chain == ctx.p_chain_id {
        return Ok(());
    }
    let problem = if chain == ctx.c_chain_id {
        "the C-chain itself; give the X-chain's or the P-chain's ID".to_string()
    } else {
        format!(
            "{chain} is neither the X-chain ({}) nor the P-chain ({}), the C-chain's only \
             peers in shared memory",
            ctx.x_chain_id, ctx.p_chain_id
        )
    };
    Err(BuildError::invalid(field, problem))
}

/// An export of AVAX from `accounts` to `destination` (the X- or P-chain): one output per
/// `outputs` entry, the fee at `base_fee` (wei per gas) taken as the node's `NewExportTx`
/// takes it. Each account signs its own input with its nonce; the node refuses the
/// transaction if a nonce has moved on by the time it is accepted.
pub fn export_tx(
    ctx: &super::Context,
    accounts: &[Account],
    destination: Id,
    outputs: &[secp256k1fx::TransferOutput],
    base_fee: u128,
) -> Result<Unsigned, BuildError> {
    check_peer(ctx, "destination", destination)?;
    if outputs.is_empty() {
        return Err(BuildError::invalid(
            "outputs",
            "no output: an export needs at least one",
        ));
    }
    let mut amount: u64 = 0;
    for (i, out) in outputs.iter().enumerate() {
        if out.amount == 0 {
            return Err(BuildError::invalid(
                format!("outputs[{i}].amount"),
                "0: the node refuses an output of nothing",
            ));
        }
        check_owners(&format!("outputs[{i}]"), &out.owners)?;
        amount = amount.checked_add(out.amount).ok_or_else(|| {
            BuildError::invalid("outputs", "their amounts add up past 2^64 nAVAX")
        })?;
    }
    let mut seen = BTreeSet::new();
    for (i, a) in accounts.iter().enumerate() {
        if !seen.insert(a.address) {
            return Err(BuildError::invalid(
                format!("accounts[{i}].address"),
                format!(
                    "{} is given twice; the node takes one input per address",
                    a.address
                ),
            ));
        }
    }
    let mut exported: Vec<atomic::TransferableOutput> = outputs
        .iter()
        .map(|o| atomic::TransferableOutput::new(ctx.avax_asset_id, o.clone().into()))
        .collect();
    exported.sort_by_cached_key(encoded);
    let mut export = atomic::UnsignedExportTx::new(
        ctx.network_id,
        ctx.c_chain_id,
        destination,
        Vec::new(),
        exported,
    );

    // The node's getSpendableAVAXWithFee: the fee of the transaction without inputs, then
    // each input adds its gas's fee, an account that cannot pay that much being skipped.
    let mut cost = gas(&atomic::UnsignedTx::from(export.clone()))?;
    let mut needed = amount
        .checked_add(fee(cost, base_fee)?)
        .ok_or_else(|| BuildError::invalid("outputs", "the amount and the fee pass 2^64 nAVAX"))?;
    let mut inputs: Vec<(atomic::EvmInput, ShortId)> = Vec::new();
    for a in accounts {
        if needed == 0 {
            break;
        }
        let added = fee(cost + EVM_INPUT_GAS, base_fee)? - fee(cost, base_fee)?;
        let balance = a.spendable();
        if balance <= added {
            continue;
        }
        cost += EVM_INPUT_GAS;
        needed = needed
            .checked_add(added)
            .ok_or_else(|| BuildError::invalid("outputs", "the amount and the fee pass 2^64"))?;
        let take = balance.min(needed);
        inputs.push((
            atomic::EvmInput::new(a.address, take, ctx.avax_asset_id, a.nonce),
            a.signer,
        ));
        needed -= take;
    }
    if needed > 0 {
        return Err(BuildError::Insufficient {
            asset: ctx.avax_asset_id,
            needed: amount.saturating_add(fee(cost.max(EVM_INPUT_GAS), base_fee)?),
            spendable: accounts
                .iter()
                .fold(0u64, |s, a| s.saturating_add(a.spendable())),
            locked: 0,
            what: "to export, the fee included",
        });
    }
    inputs.sort_by_key(|(input, _)| input.address);
    let spent = inputs
        .iter()
        .fold(0u64, |s, (i, _)| s.saturating_add(i.amount));
    let (ins, signers): (Vec<_>, Vec<_>) = inputs.into_iter().unzip();
    export.inputs = ins;
    let tx = atomic::UnsignedTx::from(export);
    let fee = fee(gas(&tx)?, base_fee)?;
    Ok(Unsigned::new(
        tx,
        signers
            .into_iter()
            .map(|s| Signers {
                kind: CredentialKind::Secp256k1,
                addresses: vec![s],
            })
            .collect(),
        fee,
        spent - amount,
    ))
}

/// An import into `to`'s EVM balance of every AVAX UTXO in `utxos` (exported to the
/// C-chain from `source`, the X- or P-chain, as the C-chain's `avax.getUTXOs` lists them)
/// that the payer's addresses can spend at its time; the fee at `base_fee` (wei per gas)
/// comes out of the amount credited. The payer's memo and change are not used (atomic
/// transactions have neither).
pub fn import_tx(
    ctx: &super::Context,
    utxos: &[atomic::Utxo],
    payer: &Payer,
    source: Id,
    to: EvmAddress,
    base_fee: u128,
) -> Result<Unsigned, BuildError> {
    check_peer(ctx, "source", source)?;
    if !payer.memo.is_empty() {
        return Err(BuildError::invalid(
            "memo",
            "the C-chain's atomic transactions have no memo; leave it empty",
        ));
    }
    let from = payer.spenders()?;
    let mut imported: Vec<(atomic::TransferableInput, Vec<ShortId>)> = Vec::new();
    let mut amount: u64 = 0;
    for u in utxos {
        let atomic::UtxoOutput::TransferOutput(out) = &u.output;
        if u.asset_id != ctx.avax_asset_id {
            continue;
        }
        let Some((indices, signers)) = match_owners(&out.owners, &from, payer.time) else {
            continue;
        };
        amount = amount
            .checked_add(out.amount)
            .ok_or_else(|| BuildError::invalid("utxos", "their amounts add up past 2^64 nAVAX"))?;
        let input = secp256k1fx::TransferInput::new(out.amount, secp256k1fx::Input::new(indices));
        imported.push((
            atomic::TransferableInput::new(u.utxo_id.clone(), u.asset_id, input.into()),
            signers,
        ));
    }
    if imported.is_empty() {
        return Err(BuildError::NothingToImport { chain: source });
    }
    imported.sort_by(|a, b| utxo_order(&a.0.utxo_id, &b.0.utxo_id));
    imported.dedup_by(|a, b| a.0.utxo_id == b.0.utxo_id);
    let (inputs, signers): (Vec<_>, Vec<_>) = imported.into_iter().unzip();
    let mut import = atomic::UnsignedImportTx::new(
        ctx.network_id,
        ctx.c_chain_id,
        source,
        inputs,
        vec![atomic::EvmOutput::new(to, amount, ctx.avax_asset_id)],
    );
    let fee = fee(gas(&atomic::UnsignedTx::from(import.clone()))?, base_fee)?;
    if amount <= fee {
        return Err(BuildError::Insufficient {
            asset: ctx.avax_asset_id,
            needed: fee + 1,
            spendable: amount,
            locked: 0,
            what: "to import: the fee, and at least 1 nAVAX to credit",
        });
    }
    import.outputs[0].amount = amount - fee;
    Ok(Unsigned::new(
        import.into(),
        signers
            .into_iter()
            .map(|addresses| Signers {
                kind: CredentialKind::Secp256k1,
                addresses,
            })
            .collect(),
        fee,
        fee,
    ))
}
