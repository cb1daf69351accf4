//! The portable partially-signed transaction: a versioned JSON file
//! (`"format": "avalanche-rpc/partially-signed-tx"`, `"version": 1`, schema
//! `PartiallySignedTx` in `spec/schemas/portable.yaml`, the type [`PartiallySignedTx`]) that
//! carries a built transaction to where its keys are: co-signers, an air-gapped machine, a
//! KMS or HSM. It holds the network, the chain, the unsigned bytes, and for each credential
//! slot the UTXO it spends (its claims and its own bytes) or the Subnet it authorizes for, the
//! addresses that sign it, the fee, the burn, and the signatures so far.
//!
//! Reading a file ([`PartiallySigned::from_json`]) checks every claim against the bytes: the
//! transaction decodes on its chain's codec with the file's network and blockchain ID; each
//! slot's UTXO bytes decode to the UTXO its input spends (ID, asset, amount, lock) and match
//! what the file says of it (amount, asset, owners, threshold, locktime); the addresses
//! expected are the owners at the input's signature indices; `burned` is what the inputs
//! consume minus what the transaction produces, and `fee` at most that; every signature
//! present recovers to its slot's address over the SHA-256 of the unsigned bytes. A file that
//! disagrees is refused with a [`PortableError`] naming the field, as
//! `slots[1].utxo.amount: the file says 5000 but the UTXO's bytes say 4000`.
//!
//! A 2-of-3 X-chain send, not yet signed (hex cut short here):
//!
//! ```json
//! {
//!   "format": "avalanche-rpc/partially-signed-tx",
//!   "version": 1,
//!   "networkID": 12345,
//!   "chain": "X",
//!   "blockchainID": "SeLqn3UAUoRymWmwW7axrzJK7JfNaBR2cHCryA6cFscgkny8",
//!   "avaxAssetID": "2Kw2XL8QVSQHwJYKpWLktaxtwKuz7iYF5pqcauUHpmcrSjRPp",
//!   "unsignedTx": "0x00000000000000003039…",
//!   "fee": "1000000",
//!   "burned": "1000000",
//!   "slots": [
//!     {
//!       "utxo": {
//!         "txID": "4yo5ZzPDUKCsoucyTX2GfktgoyjxM9cjFUWqkiQsUJrYiEQqr",
//!         "outputIndex": 1,
//!         "assetID": "2Kw2XL8QVSQHwJYKpWLktaxtwKuz7iYF5pqcauUHpmcrSjRPp",
//!         "amount": "5000000000",
//!         "addresses": [
//!           "X-local1g975h6gdx5mryeac72h6lj2nzygugxhyxhcyjg",
//!           "X-local10xcqpzrky6eff2g52qdye53xkk9jxkvrd32n6k",
//!           "X-local1a0qwuze2h85zw7nqpsj3ga0z9geyrgwpmwhaqm"
//!         ],
//!         "threshold": 2,
//!         "locktime": "0",
//!         "bytes": "0x00000909…"
//!       },
//!       "signatures": [
//!         { "address": "X-local1g975h6gdx5mryeac72h6lj2nzygugxhyxhcyjg", "signature": null },
//!         { "address": "X-local10xcqpzrky6eff2g52qdye53xkk9jxkvrd32n6k", "signature": null }
//!       ]
//!     }
//!   ]
//! }
//! ```
//!
//! A Subnet's authorization is a slot with `"authorization": { "subnetID", "addresses",
//! "threshold", "locktime" }` in place of `"utxo"`.
//!
//! What the bytes cannot prove: a Subnet owner is the chain's state, not part of the
//! transaction, so an authorization slot's owner is checked only for consistency (its
//! addresses at the signature indices, the threshold the indices meet); the node checks it
//! when the transaction is issued. The fee is the node's to set: the file's is only checked
//! to be at most the burn.

use crate::codec::{avm, platform, secp256k1fx};
use crate::types::{
    PartiallySignedTx, PortableAuthorization, PortableChain, PortableSignature, PortableSlot,
    PortableUtxo,
};
use crate::wire::{Address, HexBytes, Id, ShortId};

use super::context::Context;
use super::error::SignError;
use super::keychain::Keychain;
use super::sign::{CredentialKind, Signers};
use super::signer::Signer;
use super::{p, x};

/// The `format` of the file.
pub const FORMAT: &str = "avalanche-rpc/partially-signed-tx";
/// The `version` this crate writes and reads.
pub const VERSION: u32 = 1;

/// Why a portable transaction was refused: the field and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct PortableError {
    /// The field, as a path in the file (`slots[1].utxo.amount`, `unsignedTx`, `networkID`).
    pub field: String,
    /// What is wrong with it.
    pub reason: String,
}

impl PortableError {
    fn new(field: impl Into<String>, reason: impl Into<String>) -> PortableError {
        PortableError {
            field: field.into(),
            reason: reason.into(),
        }
    }

    fn says<T: std::fmt::Display>(field: impl Into<String>, file: T, bytes: T, of: &str) -> Self {
        PortableError::new(
            field,
            format!("the file says {file} but the {of} bytes say {bytes}"),
        )
    }
}

impl From<SignError> for PortableError {
    fn from(e: SignError) -> PortableError {
        PortableError::new("slots", e.to_string())
    }
}

/// The transaction inside, by chain.
#[derive(Debug, Clone)]
pub enum Built {
    /// An X-chain transaction.
    X(x::Unsigned),
    /// A P-chain transaction.
    P(p::Unsigned),
}

/// A flow of value the transaction produces, as a co-signer reviews it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flow {
    /// `output`, `exported` (to another chain) or `staked`.
    pub kind: &'static str,
    /// The asset.
    pub asset: Id,
    /// How much.
    pub amount: u64,
    /// Who receives it.
    pub owners: secp256k1fx::OutputOwners,
    /// Locked until this time (a P-chain stakeable lock), 0 when not.
    pub stakeable_until: u64,
}

/// A partially signed transaction whose file has been checked against its bytes.
#[derive(Debug, Clone)]
pub struct PartiallySigned {
    file: PartiallySignedTx,
    built: Built,
    flows: Vec<Flow>,
    kind: &'static str,
}

/// An input as the checks see it, on either chain.
struct In {
    tx_id: Id,
    index: u32,
    asset: Id,
    amount: u64,
    indices: Vec<u32>,
    /// The locktime of a P-chain `LockIn`.
    lock: Option<u64>,
}

/// A UTXO as the checks see it.
struct Held {
    tx_id: Id,
    index: u32,
    asset: Id,
    amount: u64,
    owners: secp256k1fx::OutputOwners,
    lock: Option<u64>,
}

/// Reads a UTXO's bytes on one chain.
type DecodeUtxo = fn(&[u8]) -> Result<Held, String>;

/// What the checks read of a transaction's bytes.
struct View {
    kind: &'static str,
    network_id: u32,
    blockchain_id: Id,
    /// Every input, in credential order (base, then imported).
    inputs: Vec<In>,
    /// The authorization: its Subnet and signature indices.
    auth: Option<(Id, Vec<u32>)>,
    flows: Vec<Flow>,
    /// AVAX paid into L1 validators' balances.
    balances: u64,
}

/// The node's syntactic rules (sorted inputs and outputs, owners, lengths).
fn rules(tx: &impl crate::codec::Verify) -> Result<(), PortableError> {
    tx.verify().map_err(|e| {
        PortableError::new(
            "unsignedTx",
            format!("the transaction breaks the node's rules: {e}"),
        )
    })
}

/// An address of the file: written for its chain and network.
fn written_for(field: &str, a: &Address, letter: &str, hrp: &str) -> Result<(), PortableError> {
    if a.chain() != Some(letter) || a.hrp() != Some(hrp) {
        return Err(PortableError::new(
            field,
            format!(
                "{a} is not written as this network's {letter}-chain address (`{letter}-{hrp}1…`)"
            ),
        ));
    }
    Ok(())
}

fn x_in(i: &avm::TransferableInput) -> In {
    let avm::TransferableIn::TransferInput(t) = &i.input;
    In {
        tx_id: i.utxo_id.tx_id,
        index: i.utxo_id.output_index,
        asset: i.asset_id,
        amount: t.amount,
        indices: t.input.signature_indices.clone(),
        lock: None,
    }
}

fn x_flow(kind: &'static str, o: &avm::TransferableOutput) -> Flow {
    let avm::TransferableOut::TransferOutput(t) = &o.output;
    Flow {
        kind,
        asset: o.asset_id,
        amount: t.amount,
        owners: t.owners.clone(),
        stakeable_until: 0,
    }
}

fn x_view(bytes: &[u8]) -> Result<(avm::UnsignedTx, View), PortableError> {
    let tx = avm::UnsignedTx::from_bytes(bytes).map_err(|e| {
        PortableError::new(
            "unsignedTx",
            format!("not an X-chain transaction's bytes: {e}"),
        )
    })?;
    rules(&tx)?;
    let b = tx.base();
    let mut inputs: Vec<In> = b.inputs.iter().map(x_in).collect();
    let mut flows: Vec<Flow> = b.outputs.iter().map(|o| x_flow("output", o)).collect();
    let kind = match &tx {
        avm::UnsignedTx::BaseTx(_) => "BaseTx",
        avm::UnsignedTx::CreateAssetTx(_) => "CreateAssetTx",
        avm::UnsignedTx::ImportTx(t) => {
            inputs.extend(t.imported_inputs.iter().map(x_in));
            "ImportTx"
        }
        avm::UnsignedTx::ExportTx(t) => {
            flows.extend(t.exported_outputs.iter().map(|o| x_flow("exported", o)));
            "ExportTx"
        }
        avm::UnsignedTx::OperationTx(_) => {
            return Err(PortableError::new(
                "unsignedTx",
                "an OperationTx: its operations' credentials are not carried in this format",
            ));
        }
    };
    let view = View {
        kind,
        network_id: b.network_id,
        blockchain_id: b.blockchain_id,
        inputs,
        auth: None,
        flows,
        balances: 0,
    };
    Ok((tx, view))
}

fn p_in(i: &platform::TransferableInput) -> In {
    let (t, lock) = match &i.input {
        platform::TransferableIn::TransferInput(t) => (t, None),
        platform::TransferableIn::LockIn(l) => {
            let platform::LockedIn::TransferInput(t) = &l.input;
            (t, Some(l.locktime))
        }
    };
    In {
        tx_id: i.utxo_id.tx_id,
        index: i.utxo_id.output_index,
        asset: i.asset_id,
        amount: t.amount,
        indices: t.input.signature_indices.clone(),
        lock,
    }
}

fn p_flow(kind: &'static str, o: &platform::TransferableOutput) -> Flow {
    let (t, until) = match &o.output {
        platform::TransferableOut::TransferOutput(t) => (t, 0),
        platform::TransferableOut::LockOut(l) => {
            let platform::LockedOut::TransferOutput(t) = &l.output;
            (t, l.locktime)
        }
    };
    Flow {
        kind,
        asset: o.asset_id,
        amount: t.amount,
        owners: t.owners.clone(),
        stakeable_until: until,
    }
}

fn p_view(bytes: &[u8]) -> Result<(platform::UnsignedTx, View), PortableError> {
    use platform::UnsignedTx as U;
    let tx = U::from_bytes(bytes).map_err(|e| {
        PortableError::new(
            "unsignedTx",
            format!("not a P-chain transaction's bytes: {e}"),
        )
    })?;
    rules(&tx)?;
    let kind = tx.type_name();
    let Some(b) = tx.base() else {
        return Err(PortableError::new(
            "unsignedTx",
            format!("a {kind}, which no wallet signs"),
        ));
    };
    let mut inputs: Vec<In> = b.inputs.iter().map(p_in).collect();
    let mut flows: Vec<Flow> = b.outputs.iter().map(|o| p_flow("output", o)).collect();
    let mut balances = 0u64;
    match &tx {
        U::ImportTx(t) => inputs.extend(t.imported_inputs.iter().map(p_in)),
        U::ExportTx(t) => flows.extend(t.exported_outputs.iter().map(|o| p_flow("exported", o))),
        U::AddPermissionlessValidatorTx(t) => {
            flows.extend(t.stake.iter().map(|o| p_flow("staked", o)))
        }
        U::AddPermissionlessDelegatorTx(t) => {
            flows.extend(t.stake.iter().map(|o| p_flow("staked", o)))
        }
        U::AddAutoRenewedValidatorTx(t) => {
            flows.extend(t.stake.iter().map(|o| p_flow("staked", o)))
        }
        U::SetAutoRenewedValidatorConfigTx(_) => {
            return Err(PortableError::new(
                "unsignedTx",
                "a SetAutoRenewedValidatorConfigTx: its authorization (the validator's authority) is not carried in this format",
            ));
        }
        U::ConvertSubnetToL1Tx(t) => {
            balances = t
                .validators
                .iter()
                .map(|v| v.balance)
                .fold(0, u64::saturating_add)
        }
        U::RegisterL1ValidatorTx(t) => balances = t.balance,
        U::IncreaseL1ValidatorBalanceTx(t) => balances = t.balance,
        U::DisableL1ValidatorTx(_) => {
            return Err(PortableError::new(
                "unsignedTx",
                "a DisableL1ValidatorTx: its authorization (the validator's deactivation owner) is not carried in this format",
            ));
        }
        _ => {}
    }
    let auth = match (tx.subnet_auth(), tx.subnet_id()) {
        (Some(platform::Auth::Input(i)), Some(subnet)) => {
            Some((*subnet, i.input.signature_indices.clone()))
        }
        (Some(platform::Auth::Input(i)), None) => match &tx {
            U::AddSubnetValidatorTx(t) => {
                Some((t.validator.subnet_id, i.input.signature_indices.clone()))
            }
            _ => {
                return Err(PortableError::new(
                    "unsignedTx",
                    format!("a {kind} whose Subnet is not known to this format"),
                ));
            }
        },
        _ => None,
    };
    let view = View {
        kind,
        network_id: b.network_id,
        blockchain_id: b.blockchain_id,
        inputs,
        auth,
        flows,
        balances,
    };
    Ok((tx, view))
}

fn x_held(bytes: &[u8]) -> Result<Held, String> {
    let u = avm::Utxo::from_bytes(bytes).map_err(|e| format!("not an X-chain UTXO: {e}"))?;
    let avm::UtxoOutput::Secp256k1fxTransferOutput(t) = &u.output else {
        return Err(format!(
            "a UTXO holding a {}, not a transfer output",
            u.output.type_name()
        ));
    };
    Ok(Held {
        tx_id: u.utxo_id.tx_id,
        index: u.utxo_id.output_index,
        asset: u.asset_id,
        amount: t.amount,
        owners: t.owners.clone(),
        lock: None,
    })
}

fn p_held(bytes: &[u8]) -> Result<Held, String> {
    let u = platform::Utxo::from_bytes(bytes).map_err(|e| format!("not a P-chain UTXO: {e}"))?;
    let (t, lock) = match &u.output {
        platform::UtxoOutput::TransferOutput(t) => (t, None),
        platform::UtxoOutput::LockOut(l) => {
            let platform::LockedOut::TransferOutput(t) = &l.output;
            (t, Some(l.locktime))
        }
    };
    Ok(Held {
        tx_id: u.utxo_id.tx_id,
        index: u.utxo_id.output_index,
        asset: u.asset_id,
        amount: t.amount,
        owners: t.owners.clone(),
        lock,
    })
}

fn list(addresses: &[ShortId], chain: &str, hrp: &str) -> String {
    let shown: Vec<String> = addresses.iter().map(|a| address(chain, hrp, a)).collect();
    format!("[{}]", shown.join(", "))
}

fn address(chain: &str, hrp: &str, a: &ShortId) -> String {
    Address::new(Some(chain), hrp, *a.as_bytes())
        .map(|a| a.to_string())
        .unwrap_or_else(|_| a.to_string())
}

fn payloads(addresses: &[Address]) -> Vec<ShortId> {
    addresses
        .iter()
        .map(|a| ShortId::new(a.payload()))
        .collect()
}

/// The addresses at `indices` of `owners`, or the index out of range.
fn at(owners: &[ShortId], indices: &[u32]) -> Result<Vec<ShortId>, u32> {
    indices
        .iter()
        .map(|&i| owners.get(i as usize).copied().ok_or(i))
        .collect()
}

impl PartiallySigned {
    /// Reads a file and checks it against its bytes (see the module's docs); each refusal
    /// names the field.
    pub fn from_json(text: &str) -> Result<PartiallySigned, PortableError> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| PortableError::new("(file)", format!("not JSON: {e}")))?;
        match value.get("format").and_then(|f| f.as_str()) {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(PortableError::new(
                    "format",
                    format!("`{other}`, not `{FORMAT}`"),
                ));
            }
            None => {
                return Err(PortableError::new(
                    "format",
                    format!("missing: a portable transaction says `\"format\": \"{FORMAT}\"`"),
                ));
            }
        }
        match value.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v == u64::from(VERSION) => {}
            Some(v) => {
                return Err(PortableError::new(
                    "version",
                    format!("{v}: this reader knows version {VERSION} only"),
                ));
            }
            None => {
                return Err(PortableError::new("version", "missing or not a number"));
            }
        }
        let file: PartiallySignedTx = serde_json::from_value(value)
            .map_err(|e| PortableError::new("(file)", format!("not this format's shape: {e}")))?;
        PartiallySigned::check(file)
    }

    /// The file, as JSON (indented).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.file).expect("the file is plain JSON") + "\n"
    }

    /// The file's contents.
    pub fn file(&self) -> &PartiallySignedTx {
        &self.file
    }

    /// The transaction and its signatures.
    pub fn built(&self) -> &Built {
        &self.built
    }

    /// The transaction's type (`BaseTx`, `AddPermissionlessValidatorTx`, …).
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// What the transaction produces: outputs, exports and stake, read from its bytes.
    pub fn flows(&self) -> &[Flow] {
        &self.flows
    }

    /// The chain letter, `X` or `P`.
    pub fn chain(&self) -> &'static str {
        match self.built {
            Built::X(_) => "X",
            Built::P(_) => "P",
        }
    }

    /// The SHA-256 of the unsigned bytes: what every slot signs, and what tells two files of
    /// the same transaction.
    pub fn digest(&self) -> Id {
        Id::from_sha256(&self.file.unsigned_tx.0)
    }

    /// The signed transaction's bytes as signed so far (a missing signature as 65 zeros).
    pub fn partial_bytes(&self) -> Result<Vec<u8>, PortableError> {
        let bytes = match &self.built {
            Built::X(u) => u.partial().to_bytes(),
            Built::P(u) => u.partial().to_bytes(),
        };
        bytes.map_err(|e| PortableError::new("unsignedTx", e.to_string()))
    }

    /// The signed transaction's bytes, ready to issue; refused while a slot is unsigned,
    /// naming the slots.
    pub fn signed_bytes(&self) -> Result<Vec<u8>, PortableError> {
        let missing = self.missing();
        if !missing.is_empty() {
            let named: Vec<String> = missing
                .iter()
                .map(|(s, i, a)| format!("slots[{s}].signatures[{i}] ({a})"))
                .collect();
            return Err(PortableError::new(
                "slots",
                format!(
                    "{} signature(s) missing: {}",
                    missing.len(),
                    named.join(", ")
                ),
            ));
        }
        self.partial_bytes()
    }

    /// The slots still unsigned: (slot, index, address).
    pub fn missing(&self) -> Vec<(usize, usize, Address)> {
        let mut out = Vec::new();
        for (s, slot) in self.file.slots.iter().enumerate() {
            for (i, sig) in slot.signatures.iter().enumerate() {
                if sig.signature.is_none() {
                    out.push((s, i, sig.address.clone()));
                }
            }
        }
        out
    }

    /// Signs every empty slot the keychain holds a key of; returns how many.
    pub fn sign(&mut self, keys: &Keychain) -> Result<usize, PortableError> {
        let n = match &mut self.built {
            Built::X(u) => u.sign(keys)?,
            Built::P(u) => u.sign(keys)?,
        };
        self.refresh();
        Ok(n)
    }

    /// Signs every empty slot one of `signers` signs for (see
    /// [`Unsigned::sign_with`](super::Unsigned::sign_with)); returns how many.
    pub async fn sign_with(&mut self, signers: &[&dyn Signer]) -> Result<usize, PortableError> {
        let n = match &mut self.built {
            Built::X(u) => u.sign_with(signers).await,
            Built::P(u) => u.sign_with(signers).await,
        };
        // Slots signed before a refusal are kept.
        self.refresh();
        n.map_err(|e| match e {
            SignError::Signer { address, reason } => self.signer_refused(&address, &reason),
            e => e.into(),
        })
    }

    /// A signer's refusal, named by the first missing slot of its address.
    fn signer_refused(&self, short: &str, reason: &str) -> PortableError {
        for (s, slot) in self.file.slots.iter().enumerate() {
            for (i, entry) in slot.signatures.iter().enumerate() {
                if entry.signature.is_none()
                    && ShortId::new(entry.address.payload()).to_string() == short
                {
                    return PortableError::new(
                        format!("slots[{s}].signatures[{i}].signature"),
                        format!("the signer of {} did not sign: {reason}", entry.address),
                    );
                }
            }
        }
        PortableError::new(
            "slots",
            format!("the signer of {short} did not sign: {reason}"),
        )
    }

    /// Takes the signatures of `other`, the same transaction signed elsewhere; refuses a file
    /// of another transaction, naming what differs. Returns how many signatures it took.
    pub fn combine(&mut self, other: &PartiallySigned) -> Result<usize, PortableError> {
        let (a, b) = (&self.file, &other.file);
        if a.network_id != b.network_id {
            return Err(PortableError::new(
                "networkID",
                format!(
                    "the files are for different networks ({} and {})",
                    a.network_id, b.network_id
                ),
            ));
        }
        if a.chain != b.chain || a.blockchain_id != b.blockchain_id {
            return Err(PortableError::new(
                "blockchainID",
                format!(
                    "the files are for different chains ({} {} and {} {})",
                    a.chain.as_str(),
                    a.blockchain_id,
                    b.chain.as_str(),
                    b.blockchain_id
                ),
            ));
        }
        if a.unsigned_tx != b.unsigned_tx {
            return Err(PortableError::new(
                "unsignedTx",
                format!(
                    "the files are for different transactions (unsigned digests {} and {})",
                    self.digest(),
                    other.digest()
                ),
            ));
        }
        let strip = |f: &PartiallySignedTx| {
            let mut f = f.clone();
            for s in &mut f.slots {
                for sig in &mut s.signatures {
                    sig.signature = None;
                }
            }
            f
        };
        if strip(a) != strip(b) {
            return Err(PortableError::new(
                "slots",
                "the files have the same transaction but say different things of its slots, fee or burn",
            ));
        }
        let theirs: Vec<Vec<[u8; 65]>> = match &other.built {
            Built::X(u) => zeros(u.signatures()),
            Built::P(u) => zeros(u.signatures()),
        };
        let n = match &mut self.built {
            Built::X(u) => u.merge(&theirs)?,
            Built::P(u) => u.merge(&theirs)?,
        };
        self.refresh();
        Ok(n)
    }

    /// Writes the signatures of the transaction into the file.
    fn refresh(&mut self) {
        let sigs = match &self.built {
            Built::X(u) => u.signatures().to_vec(),
            Built::P(u) => u.signatures().to_vec(),
        };
        for (slot, sigs) in self.file.slots.iter_mut().zip(sigs) {
            for (entry, sig) in slot.signatures.iter_mut().zip(sigs) {
                entry.signature = sig.map(|s| HexBytes(s.to_vec()));
            }
        }
    }

    /// The file of an X-chain transaction built from `utxos` (those given to the builder:
    /// each input's UTXO is found among them by its ID).
    pub fn x(
        ctx: &Context,
        built: &x::Unsigned,
        utxos: &[avm::Utxo],
    ) -> Result<PartiallySigned, PortableError> {
        let bytes = built.bytes()?;
        let (_, view) = x_view(&bytes)?;
        let find = |i: &In| -> Result<Vec<u8>, PortableError> {
            let u = utxos
                .iter()
                .find(|u| u.utxo_id.tx_id == i.tx_id && u.utxo_id.output_index == i.index)
                .ok_or_else(|| missing_utxo(i))?;
            u.to_bytes()
                .map_err(|e| PortableError::new("slots", e.to_string()))
        };
        let file = write(
            ctx,
            PortableChain::X,
            &bytes,
            &view,
            built.fee(),
            built.burned(),
            built.signatures(),
            find,
            x_held,
            None,
        )?;
        PartiallySigned::check(file)
    }

    /// The file of a P-chain transaction built from `utxos` (those given to the builder, and
    /// the imported ones for an import), with the Subnet's owner when it authorizes for one.
    pub fn p(
        ctx: &Context,
        built: &p::Unsigned,
        utxos: &[platform::Utxo],
        subnet_owner: Option<&secp256k1fx::OutputOwners>,
    ) -> Result<PartiallySigned, PortableError> {
        let bytes = built.bytes()?;
        let (_, view) = p_view(&bytes)?;
        let find = |i: &In| -> Result<Vec<u8>, PortableError> {
            let u = utxos
                .iter()
                .find(|u| u.utxo_id.tx_id == i.tx_id && u.utxo_id.output_index == i.index)
                .ok_or_else(|| missing_utxo(i))?;
            u.to_bytes()
                .map_err(|e| PortableError::new("slots", e.to_string()))
        };
        let file = write(
            ctx,
            PortableChain::P,
            &bytes,
            &view,
            built.fee(),
            built.burned(),
            built.signatures(),
            find,
            p_held,
            subnet_owner,
        )?;
        PartiallySigned::check(file)
    }

    /// Every check of the module's docs, then the transaction with the file's signatures.
    fn check(file: PartiallySignedTx) -> Result<PartiallySigned, PortableError> {
        let (letter, decode_utxo): (&str, DecodeUtxo) = match &file.chain {
            PortableChain::X => ("X", x_held),
            PortableChain::P => ("P", p_held),
            other => {
                return Err(PortableError::new(
                    "chain",
                    format!("`{}`: X or P", other.as_str()),
                ));
            }
        };
        let bytes = &file.unsigned_tx.0;
        let (view, built) = match &file.chain {
            PortableChain::X => {
                let (tx, view) = x_view(bytes)?;
                (view, Built::X(x::Unsigned::new(tx, Vec::new(), 0, 0)))
            }
            _ => {
                let (tx, view) = p_view(bytes)?;
                (view, Built::P(p::Unsigned::new(tx, Vec::new(), 0, 0)))
            }
        };
        let hrp = crate::network::hrp(file.network_id);
        if file.network_id != view.network_id {
            return Err(PortableError::says(
                "networkID",
                file.network_id,
                view.network_id,
                "transaction's",
            ));
        }
        if file.blockchain_id != view.blockchain_id {
            return Err(PortableError::says(
                "blockchainID",
                file.blockchain_id,
                view.blockchain_id,
                "transaction's",
            ));
        }
        for (s, slot) in file.slots.iter().enumerate() {
            for (i, a) in slot.utxo.iter().flat_map(|u| &u.addresses).enumerate() {
                written_for(&format!("slots[{s}].utxo.addresses[{i}]"), a, letter, hrp)?;
            }
            for (i, a) in slot
                .authorization
                .iter()
                .flat_map(|u| &u.addresses)
                .enumerate()
            {
                written_for(
                    &format!("slots[{s}].authorization.addresses[{i}]"),
                    a,
                    letter,
                    hrp,
                )?;
            }
            for (i, sig) in slot.signatures.iter().enumerate() {
                written_for(
                    &format!("slots[{s}].signatures[{i}].address"),
                    &sig.address,
                    letter,
                    hrp,
                )?;
            }
        }
        let slots = view.inputs.len() + usize::from(view.auth.is_some());
        if file.slots.len() != slots {
            return Err(PortableError::new(
                "slots",
                format!(
                    "the file has {} but the transaction's bytes have {slots} credential(s)",
                    file.slots.len()
                ),
            ));
        }
        let mut signers = Vec::with_capacity(slots);
        let mut consumed = 0u64;
        for (s, (slot, input)) in file.slots.iter().zip(&view.inputs).enumerate() {
            let f = |rest: &str| format!("slots[{s}].{rest}");
            let Some(utxo) = &slot.utxo else {
                return Err(PortableError::new(
                    f("utxo"),
                    "missing: the slot signs for an input, whose UTXO the file must give",
                ));
            };
            if slot.authorization.is_some() {
                return Err(PortableError::new(
                    f("authorization"),
                    "present in a slot that signs for an input",
                ));
            }
            let held =
                decode_utxo(&utxo.bytes.0).map_err(|e| PortableError::new(f("utxo.bytes"), e))?;
            if (held.tx_id, held.index) != (input.tx_id, input.index) {
                return Err(PortableError::new(
                    f("utxo.bytes"),
                    format!(
                        "the UTXO {}:{}, but the transaction's input {s} spends {}:{}",
                        held.tx_id, held.index, input.tx_id, input.index
                    ),
                ));
            }
            if held.asset != input.asset {
                return Err(PortableError::new(
                    "unsignedTx",
                    format!(
                        "input {s} spends asset {} but its UTXO holds {}",
                        input.asset, held.asset
                    ),
                ));
            }
            if held.amount != input.amount {
                return Err(PortableError::new(
                    "unsignedTx",
                    format!(
                        "input {s} spends {} but its UTXO holds {}",
                        input.amount, held.amount
                    ),
                ));
            }
            if held.lock != input.lock {
                return Err(PortableError::new(
                    "unsignedTx",
                    format!(
                        "input {s} is stakeable-locked until {:?} but its UTXO until {:?}",
                        input.lock, held.lock
                    ),
                ));
            }
            let utxo_of = "UTXO's";
            if utxo.tx_id != held.tx_id {
                return Err(PortableError::says(
                    f("utxo.txID"),
                    utxo.tx_id,
                    held.tx_id,
                    utxo_of,
                ));
            }
            if utxo.output_index != held.index {
                return Err(PortableError::says(
                    f("utxo.outputIndex"),
                    utxo.output_index,
                    held.index,
                    utxo_of,
                ));
            }
            if utxo.asset_id != held.asset {
                return Err(PortableError::says(
                    f("utxo.assetID"),
                    utxo.asset_id,
                    held.asset,
                    utxo_of,
                ));
            }
            if utxo.amount.0 != held.amount {
                return Err(PortableError::says(
                    f("utxo.amount"),
                    utxo.amount.0,
                    held.amount,
                    utxo_of,
                ));
            }
            let claimed = payloads(&utxo.addresses);
            if claimed != held.owners.addresses {
                return Err(PortableError::says(
                    f("utxo.addresses"),
                    list(&claimed, letter, hrp),
                    list(&held.owners.addresses, letter, hrp),
                    utxo_of,
                ));
            }
            if utxo.threshold != held.owners.threshold {
                return Err(PortableError::says(
                    f("utxo.threshold"),
                    utxo.threshold,
                    held.owners.threshold,
                    utxo_of,
                ));
            }
            if utxo.locktime.0 != held.owners.locktime {
                return Err(PortableError::says(
                    f("utxo.locktime"),
                    utxo.locktime.0,
                    held.owners.locktime,
                    utxo_of,
                ));
            }
            if input.indices.len() != held.owners.threshold as usize {
                return Err(PortableError::new(
                    "unsignedTx",
                    format!(
                        "input {s} signs with {} signature(s) but its UTXO's threshold is {}",
                        input.indices.len(),
                        held.owners.threshold
                    ),
                ));
            }
            let expected = at(&held.owners.addresses, &input.indices).map_err(|i| {
                PortableError::new(
                    "unsignedTx",
                    format!(
                        "input {s} signs with index {i} but its UTXO has {} owner(s)",
                        held.owners.addresses.len()
                    ),
                )
            })?;
            signers.push(expected_signers(
                s,
                slot,
                expected,
                letter,
                hrp,
                "the UTXO's owner",
            )?);
            if held.asset == file.avax_asset_id {
                consumed = consumed.saturating_add(held.amount);
            }
        }
        if let Some((subnet, indices)) = &view.auth {
            let s = view.inputs.len();
            let slot = &file.slots[s];
            let f = |rest: &str| format!("slots[{s}].{rest}");
            let Some(auth) = &slot.authorization else {
                return Err(PortableError::new(
                    f("authorization"),
                    "missing: the slot authorizes for a Subnet, whose ID and owner the file must give",
                ));
            };
            if slot.utxo.is_some() {
                return Err(PortableError::new(
                    f("utxo"),
                    "present in an authorization's slot",
                ));
            }
            if auth.subnet_id != *subnet {
                return Err(PortableError::says(
                    f("authorization.subnetID"),
                    auth.subnet_id,
                    *subnet,
                    "transaction's",
                ));
            }
            if indices.len() != auth.threshold as usize {
                return Err(PortableError::new(
                    f("authorization.threshold"),
                    format!(
                        "the file says {} but the transaction authorizes with {} signature(s)",
                        auth.threshold,
                        indices.len()
                    ),
                ));
            }
            let owners = payloads(&auth.addresses);
            let expected = at(&owners, indices).map_err(|i| {
                PortableError::new(
                    f("authorization.addresses"),
                    format!(
                        "{} address(es), but the transaction signs with index {i}",
                        owners.len()
                    ),
                )
            })?;
            signers.push(expected_signers(
                s,
                slot,
                expected,
                letter,
                hrp,
                "the owner",
            )?);
        }
        let produced = view
            .flows
            .iter()
            .filter(|f| f.asset == file.avax_asset_id)
            .map(|f| f.amount)
            .fold(view.balances, u64::saturating_add);
        let burned = consumed.saturating_sub(produced);
        if file.burned.0 != burned {
            return Err(PortableError::new(
                "burned",
                format!(
                    "the file says {} but the transaction's bytes burn {burned} nAVAX (inputs {consumed} minus what it produces {produced})",
                    file.burned.0
                ),
            ));
        }
        if file.fee.0 > burned {
            return Err(PortableError::new(
                "fee",
                format!(
                    "the file says {} but the transaction's bytes burn only {burned} nAVAX",
                    file.fee.0
                ),
            ));
        }
        // Every signature present: 65 bytes that recover to the slot's address.
        let digest = *Id::from_sha256(bytes).as_bytes();
        let mut credentials = Vec::with_capacity(slots);
        for (s, (slot, who)) in file.slots.iter().zip(&signers).enumerate() {
            let mut sigs = Vec::with_capacity(who.addresses.len());
            for (i, (entry, a)) in slot.signatures.iter().zip(&who.addresses).enumerate() {
                let field = format!("slots[{s}].signatures[{i}].signature");
                let Some(sig) = &entry.signature else {
                    sigs.push([0; 65]);
                    continue;
                };
                let sig: [u8; 65] = sig.0.as_slice().try_into().map_err(|_| {
                    PortableError::new(
                        &field,
                        format!("{} bytes; a signature is 65 (r ‖ s ‖ v)", sig.0.len()),
                    )
                })?;
                match crate::keys::PublicKey::recover(&digest, &sig) {
                    Ok(k) if k.address() == *a => sigs.push(sig),
                    Ok(k) => {
                        return Err(PortableError::new(
                            field,
                            format!(
                                "it recovers to {} over this transaction, not to the slot's address {}",
                                address(letter, hrp, &k.address()),
                                address(letter, hrp, a)
                            ),
                        ));
                    }
                    Err(e) => {
                        return Err(PortableError::new(
                            field,
                            format!("no key recovers from it: {e}"),
                        ));
                    }
                }
            }
            credentials.push(sigs);
        }
        let built = match built {
            Built::X(u) => {
                let mut u = x::Unsigned::new(u.tx().clone(), signers, file.fee.0, burned);
                u.merge(&credentials)?;
                Built::X(u)
            }
            Built::P(u) => {
                let mut u = p::Unsigned::new(u.tx().clone(), signers, file.fee.0, burned);
                u.merge(&credentials)?;
                Built::P(u)
            }
        };
        Ok(PartiallySigned {
            file,
            built,
            flows: view.flows,
            kind: view.kind,
        })
    }
}

fn zeros(sigs: &[Vec<Option<[u8; 65]>>]) -> Vec<Vec<[u8; 65]>> {
    sigs.iter()
        .map(|s| s.iter().map(|s| s.unwrap_or([0; 65])).collect())
        .collect()
}

fn missing_utxo(i: &In) -> PortableError {
    PortableError::new(
        "slots",
        format!(
            "the UTXO {}:{} the transaction spends is not among those given",
            i.tx_id, i.index
        ),
    )
}

/// The slot's expected signers, checked against the addresses the file lists.
fn expected_signers(
    s: usize,
    slot: &PortableSlot,
    expected: Vec<ShortId>,
    letter: &str,
    hrp: &str,
    whose: &str,
) -> Result<Signers, PortableError> {
    if slot.signatures.len() != expected.len() {
        return Err(PortableError::new(
            format!("slots[{s}].signatures"),
            format!(
                "the file lists {} but the transaction's bytes sign with {}",
                slot.signatures.len(),
                expected.len()
            ),
        ));
    }
    for (i, (entry, a)) in slot.signatures.iter().zip(&expected).enumerate() {
        if ShortId::new(entry.address.payload()) != *a {
            return Err(PortableError::new(
                format!("slots[{s}].signatures[{i}].address"),
                format!(
                    "the file says {} but {whose} at the signature index is {}",
                    entry.address,
                    address(letter, hrp, a)
                ),
            ));
        }
    }
    Ok(Signers {
        kind: CredentialKind::Secp256k1,
        addresses: expected,
    })
}

/// The file of a built transaction (checked again by `check` before it is handed out).
#[allow(clippy::too_many_arguments)]
fn write(
    ctx: &Context,
    chain: PortableChain,
    bytes: &[u8],
    view: &View,
    fee: u64,
    burned: u64,
    signatures: &[Vec<Option<[u8; 65]>>],
    utxo_bytes: impl Fn(&In) -> Result<Vec<u8>, PortableError>,
    decode: DecodeUtxo,
    subnet_owner: Option<&secp256k1fx::OutputOwners>,
) -> Result<PartiallySignedTx, PortableError> {
    let letter = chain.as_str().to_string();
    let hrp = crate::network::hrp(view.network_id);
    let addr = |a: &ShortId| {
        Address::new(Some(&letter), hrp, *a.as_bytes())
            .map_err(|e| PortableError::new("slots", e.to_string()))
    };
    let sigs = |s: usize, expected: &[ShortId]| -> Result<Vec<PortableSignature>, PortableError> {
        expected
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let mut entry = PortableSignature::new(addr(a)?);
                entry.signature = signatures
                    .get(s)
                    .and_then(|x| x.get(i).copied().flatten())
                    .map(|x| HexBytes(x.to_vec()));
                Ok(entry)
            })
            .collect()
    };
    let mut slots = Vec::new();
    for (s, input) in view.inputs.iter().enumerate() {
        let raw = utxo_bytes(input)?;
        let held =
            decode(&raw).map_err(|e| PortableError::new(format!("slots[{s}].utxo.bytes"), e))?;
        let owners = held
            .owners
            .addresses
            .iter()
            .map(&addr)
            .collect::<Result<Vec<_>, _>>()?;
        let utxo = PortableUtxo::new(
            held.tx_id,
            held.index,
            held.asset,
            held.amount,
            owners,
            held.owners.threshold,
            held.owners.locktime,
            HexBytes(raw),
        );
        let expected = at(&held.owners.addresses, &input.indices).map_err(|i| {
            PortableError::new("unsignedTx", format!("input {s}: index {i} out of range"))
        })?;
        let mut slot = PortableSlot::new(sigs(s, &expected)?);
        slot.utxo = Some(utxo);
        slots.push(slot);
    }
    if let Some((subnet, indices)) = &view.auth {
        let s = view.inputs.len();
        let owner = subnet_owner.ok_or_else(|| {
            PortableError::new(
                format!("slots[{s}].authorization"),
                format!("the transaction authorizes for Subnet {subnet}: give its owner"),
            )
        })?;
        let expected = at(&owner.addresses, indices).map_err(|i| {
            PortableError::new(
                format!("slots[{s}].authorization.addresses"),
                format!("the owner has no address at index {i}"),
            )
        })?;
        let owners = owner
            .addresses
            .iter()
            .map(&addr)
            .collect::<Result<Vec<_>, _>>()?;
        let mut slot = PortableSlot::new(sigs(s, &expected)?);
        slot.authorization = Some(PortableAuthorization::new(
            *subnet,
            owners,
            owner.threshold,
            owner.locktime,
        ));
        slots.push(slot);
    }
    Ok(PartiallySignedTx::new(
        FORMAT,
        VERSION,
        view.network_id,
        chain,
        view.blockchain_id,
        ctx.avax_asset_id,
        HexBytes(bytes.to_vec()),
        fee,
        burned,
        slots,
    ))
}

#[cfg(test)]
mod tests;
