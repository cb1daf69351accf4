//! The C-chain's atomic transactions verified as coreth verifies them
//! (`graft/coreth/plugin/evm/atomic/import_tx.go` and `export_tx.go` `Verify`,
//! `vm/tx_semantic_verifier.go`, and `EVMStateTransfer` for the accounts), after Banff (AVAX
//! only) and Apricot Phase 5 (the fixed 10,000 gas, peer chains of the primary network). Each
//! refusal is the node's words with the devnet's detail naming the field and the values.

use super::{Account, GAS_PER_SIGNATURE, INTRINSIC_GAS, X2C, evm_address};
use crate::ledger::{Chain, Space};
use crate::refusal::{Refusal, VerifyError};
use crate::secp;
use crate::store::StoreError;
use avalanche_rpc::codec::{Verify, atomic, avax, secp256k1fx};
use avalanche_rpc::keys::PublicKey;
use avalanche_rpc::wire::{EvmAddress, Id};
use std::collections::BTreeMap;

/// Reads a UTXO of shared memory (its bytes) in the space given.
pub type ReadUtxo<'a> = dyn FnMut(Space, &Id) -> Result<Option<Vec<u8>>, StoreError> + 'a;

/// What the C-chain's transactions are checked against.
#[derive(Debug, Clone)]
pub struct Rules {
    pub network_id: u32,
    /// The C-chain's blockchain ID.
    pub chain_id: Id,
    pub x_chain: Id,
    pub avax: Id,
    /// wei per gas.
    pub base_fee: u64,
}

/// A UTXO an export puts into another chain's shared memory.
#[derive(Debug, Clone)]
pub struct Exported {
    pub id: Id,
    pub bytes: Vec<u8>,
    pub owners: Vec<[u8; 20]>,
}

/// What an accepted atomic transaction changes.
#[derive(Debug, Clone, Default)]
pub struct Effects {
    /// The shared memory the imported UTXOs are in, and each with its owners.
    pub imported: Vec<(Space, Id, Vec<[u8; 20]>)>,
    /// The shared memory the exported UTXOs go into, and the UTXOs.
    pub exported: Vec<(Space, Exported)>,
    /// The accounts as they are after the transaction (each address once).
    pub accounts: BTreeMap<[u8; 20], Account>,
    /// An export's pseudo-inputs, one per EVM input: its nonce (8 bytes) ‖ 20 as 4 bytes ‖
    /// its address, as coreth's `UnsignedExportTx.InputUTXOs` (`export_tx.go:60`), so that
    /// two pending exports of one nonce conflict as two spends of one UTXO do.
    pub nonces: Vec<Id>,
}

/// The pseudo-input of an EVM input (see [`Effects::nonces`]).
pub fn nonce_input(address: &EvmAddress, nonce: u64) -> Id {
    let mut raw = [0u8; 32];
    raw[..8].copy_from_slice(&nonce.to_be_bytes());
    raw[8..12].copy_from_slice(&20u32.to_be_bytes());
    raw[12..].copy_from_slice(address.as_bytes());
    Id::new(raw)
}

/// The gas of an atomic transaction: its unsigned bytes, 1,000 per signature, 10,000 fixed
/// (`GasUsed(fixedFee = true)`).
pub fn gas(unsigned_len: usize, signatures: u64) -> u64 {
    (unsigned_len as u64)
        .saturating_add(signatures.saturating_mul(GAS_PER_SIGNATURE))
        .saturating_add(INTRINSIC_GAS)
}

/// The fee in nAVAX of `gas` at `base_fee` wei per gas, rounded up (`CalculateDynamicFee`).
pub fn fee(gas: u64, base_fee: u64) -> u128 {
    (u128::from(gas) * u128::from(base_fee)).div_ceil(X2C)
}

/// A rule of the atomic codec broken, in coreth's words where its `Verify` has them
/// (`plugin/evm/atomic/import_tx.go:119-126`: `ErrInputsNotSortedUnique`,
/// `ErrOutputsNotSortedUnique`; `export_tx.go:124-128`: `ErrOutputsNotSorted`,
/// `ErrInputsNotSortedUnique`), else as the other chains word it; the devnet's place and
/// rule as the detail.
fn rule_broken(e: &avalanche_rpc::codec::RuleError) -> Refusal {
    use avalanche_rpc::codec::RuleProblem;
    let words = match (e.problem(), e.field()) {
        (RuleProblem::Unordered, Some("importedInputs" | "inputs")) => {
            "inputs not sorted and unique"
        }
        (RuleProblem::Unordered, Some("outputs")) => "outputs not sorted and unique",
        (RuleProblem::Unordered, Some("exportedOutputs")) => "tx outputs not sorted",
        _ => return crate::engine::rule_broken(e),
    };
    Refusal::node(
        words,
        format!("the transaction breaks a rule of the codec: {e}"),
    )
}

fn refuse<T>(words: &str, detail: impl Into<String>) -> Result<T, VerifyError> {
    Err(Refusal::node(words, detail).into())
}

/// The chain `id` names when it is a peer of the C-chain (the X- or P-chain), or the node's
/// refusal.
fn peer(rules: &Rules, id: &Id, place: &str) -> Result<Chain, VerifyError> {
    if *id == rules.x_chain {
        Ok(Chain::X)
    } else if *id == Id::ZERO {
        Ok(Chain::P)
    } else {
        refuse(
            "tx has wrong chain ID",
            format!(
                "`{place}` is {id}, neither the X-chain ({}) nor the P-chain ({})",
                rules.x_chain,
                Id::ZERO
            ),
        )
    }
}

/// Verifies a signed atomic transaction: its effects, or its refusal. `utxo` reads a UTXO of
/// shared memory, `account` an account as the state before this transaction has it; `time`
/// is the block's time (for UTXO lock times).
pub fn verify(
    rules: &Rules,
    tx: &atomic::Tx,
    time: u64,
    utxo: &mut ReadUtxo<'_>,
    account: &mut dyn FnMut(&[u8; 20]) -> Result<Account, StoreError>,
) -> Result<Effects, VerifyError> {
    if *tx.unsigned.network_id() != rules.network_id {
        return refuse(
            "tx was issued with a different network ID",
            format!(
                "`unsignedTx.networkID` is {}, this network is {}",
                tx.unsigned.network_id(),
                rules.network_id
            ),
        );
    }
    if *tx.unsigned.blockchain_id() != rules.chain_id {
        return refuse(
            "tx has wrong chain ID",
            format!(
                "`unsignedTx.blockchainID` is {}, the C-chain is {}",
                tx.unsigned.blockchain_id(),
                rules.chain_id
            ),
        );
    }
    // The codec's rules (inputs and outputs sorted and unique), in the node's words.
    tx.verify().map_err(|e| rule_broken(&e))?;
    let unsigned = tx
        .unsigned
        .to_bytes()
        .map_err(|e| crate::engine::rule_broken(&e))?;
    let hash = *Id::from_sha256(&unsigned).as_bytes();
    match &tx.unsigned {
        atomic::UnsignedTx::UnsignedImportTx(t) => {
            import(rules, t, tx, unsigned.len(), &hash, time, utxo, account)
        }
        atomic::UnsignedTx::UnsignedExportTx(t) => {
            export(rules, t, tx, unsigned.len(), &hash, account)
        }
        _ => refuse(
            "unknown atomic transaction type",
            "`unsignedTx` is neither an UnsignedImportTx nor an UnsignedExportTx",
        ),
    }
}

fn credential(tx: &atomic::Tx, k: usize) -> Result<&secp256k1fx::Credential, VerifyError> {
    match &tx.credentials[k] {
        atomic::Credential::Credential(c) => Ok(c),
        _ => refuse("unknown credential type", format!("`credentials[{k}]`")),
    }
}

fn transfer_in<'a>(
    i: &'a atomic::TransferableIn,
    place: &str,
) -> Result<&'a secp256k1fx::TransferInput, VerifyError> {
    match i {
        atomic::TransferableIn::TransferInput(t) => Ok(t),
        _ => refuse("unknown input type", format!("`{place}`")),
    }
}

fn transfer_out<'a>(
    o: &'a atomic::TransferableOut,
    place: &str,
) -> Result<&'a secp256k1fx::TransferOutput, VerifyError> {
    match o {
        atomic::TransferableOut::TransferOutput(t) => Ok(t),
        _ => refuse("unknown output type", format!("`{place}`")),
    }
}

#[allow(clippy::too_many_arguments)]
fn import(
    rules: &Rules,
    t: &atomic::UnsignedImportTx,
    tx: &atomic::Tx,
    unsigned_len: usize,
    hash: &[u8; 32],
    time: u64,
    utxo: &mut ReadUtxo<'_>,
    account: &mut dyn FnMut(&[u8; 20]) -> Result<Account, StoreError>,
) -> Result<Effects, VerifyError> {
    if t.imported_inputs.is_empty() {
        return refuse(
            "tx has no imported inputs",
            "`unsignedTx.importedInputs` is empty",
        );
    }
    if t.outputs.is_empty() {
        return refuse("tx has no EVM outputs", "`unsignedTx.outputs` is empty");
    }
    let from = peer(rules, &t.source_chain, "unsignedTx.sourceChain")?;
    let space = Space::Atomic { to: Chain::C, from };
    let mut produced: u128 = 0;
    for (k, o) in t.outputs.iter().enumerate() {
        if o.amount == 0 {
            return refuse(
                "EVM Output failed verification: output has no value",
                format!("`unsignedTx.outputs[{k}].amount` is 0"),
            );
        }
        if o.asset_id != rules.avax {
            return refuse(
                "import output cannot contain non-AVAX in Banff",
                format!(
                    "`unsignedTx.outputs[{k}].assetID` is {}, not AVAX ({})",
                    o.asset_id, rules.avax
                ),
            );
        }
        produced += u128::from(o.amount);
    }
    let mut consumed: u128 = 0;
    let mut signatures = 0u64;
    for (k, i) in t.imported_inputs.iter().enumerate() {
        let input = transfer_in(&i.input, &format!("unsignedTx.importedInputs[{k}].input"))?;
        if input.amount == 0 {
            return refuse(
                "atomic input failed verification: input has no value",
                format!("`unsignedTx.importedInputs[{k}].input.amount` is 0"),
            );
        }
        if i.asset_id != rules.avax {
            return refuse(
                "import input cannot contain non-AVAX in Banff",
                format!(
                    "`unsignedTx.importedInputs[{k}].assetID` is {}, not AVAX ({})",
                    i.asset_id, rules.avax
                ),
            );
        }
        consumed += u128::from(input.amount);
        signatures += input.input.signature_indices.len() as u64;
    }
    let fee = fee(gas(unsigned_len, signatures), rules.base_fee);
    if consumed < produced + fee {
        return refuse(
            "import tx flow check failed due to: insufficient funds",
            format!(
                "the imported inputs hold {consumed} nAVAX; the outputs take {produced} and the fee {fee} (gas {} at {} wei)",
                gas(unsigned_len, signatures),
                rules.base_fee
            ),
        );
    }
    if tx.credentials.len() != t.imported_inputs.len() {
        return refuse(
            &format!(
                "incorrect number of credentials: ({} vs. {})",
                t.imported_inputs.len(),
                tx.credentials.len()
            ),
            "an import carries one credential per imported input",
        );
    }
    let mut fx = Effects::default();
    for (k, i) in t.imported_inputs.iter().enumerate() {
        let place = format!("unsignedTx.importedInputs[{k}]");
        let id = i.utxo_id.id();
        if fx.imported.iter().any(|(_, u, _)| *u == id) {
            return refuse(
                "inputs not sorted and unique",
                format!("`{place}` spends UTXO {id} a second time"),
            );
        }
        let Some(bytes) = utxo(space, &id)? else {
            return refuse(
                &format!(
                    "failed to fetch import UTXOs from {} due to: not found",
                    t.source_chain
                ),
                format!(
                    "`{place}` spends output {} of tx {}, which is not in the C-chain's shared memory from the {from:?}-chain (UTXO {id}): never exported here, or already imported",
                    i.utxo_id.output_index, i.utxo_id.tx_id
                ),
            );
        };
        let u = atomic::Utxo::from_bytes(&bytes).map_err(|e| {
            StoreError::invalid(format!("a UTXO in shared memory does not decode: {e}"))
        })?;
        if u.asset_id != i.asset_id {
            return refuse(
                "asset IDs in the input and UTXO do not match",
                format!(
                    "`{place}.assetID` is {}, the UTXO holds {}",
                    i.asset_id, u.asset_id
                ),
            );
        }
        let atomic::UtxoOutput::TransferOutput(out) = &u.output else {
            return refuse(
                "unknown output type",
                format!("the UTXO `{place}` spends holds no TransferOutput"),
            );
        };
        let input = transfer_in(&i.input, &place)?;
        if out.amount != input.amount {
            // secp256k1fx's `ErrMismatchedAmounts` with both amounts (`vms/secp256k1fx/fx.go:162`).
            return refuse(
                &format!(
                    "import tx transfer failed verification: utxo amount and input amount are not equal: {} != {}",
                    out.amount, input.amount
                ),
                format!(
                    "`{place}.input.amount` is {}, the UTXO holds {}",
                    input.amount, out.amount
                ),
            );
        }
        secp::check_signatures(
            &out.owners,
            &input.input.signature_indices,
            credential(tx, k)?,
            hash,
            time,
            &place,
        )
        .map_err(|e| Refusal::from(e).within("import tx transfer failed verification"))?;
        let owners = out.owners.addresses.iter().map(|a| *a.as_bytes()).collect();
        fx.imported.push((space, id, owners));
    }
    for o in &t.outputs {
        let address = *o.address.as_bytes();
        let a = match fx.accounts.get(&address) {
            Some(a) => *a,
            None => account(&address)?,
        };
        let credit = u128::from(o.amount) * X2C;
        let balance = a.balance.checked_add(credit).ok_or_else(|| {
            Refusal::node(
                "overflow",
                format!("crediting {credit} wei to {} passes 2^128", o.address),
            )
        })?;
        fx.accounts.insert(address, Account { balance, ..a });
    }
    Ok(fx)
}

fn export(
    rules: &Rules,
    t: &atomic::UnsignedExportTx,
    tx: &atomic::Tx,
    unsigned_len: usize,
    hash: &[u8; 32],
    account: &mut dyn FnMut(&[u8; 20]) -> Result<Account, StoreError>,
) -> Result<Effects, VerifyError> {
    if t.exported_outputs.is_empty() {
        return refuse(
            "tx has no export outputs",
            "`unsignedTx.exportedOutputs` is empty",
        );
    }
    let to = peer(rules, &t.destination_chain, "unsignedTx.destinationChain")?;
    let mut consumed: u128 = 0;
    for (k, i) in t.inputs.iter().enumerate() {
        if i.amount == 0 {
            return refuse(
                "input has no value",
                format!("`unsignedTx.inputs[{k}].amount` is 0"),
            );
        }
        if i.asset_id != rules.avax {
            return refuse(
                "export input cannot contain non-AVAX in Banff",
                format!(
                    "`unsignedTx.inputs[{k}].assetID` is {}, not AVAX ({})",
                    i.asset_id, rules.avax
                ),
            );
        }
        consumed += u128::from(i.amount);
    }
    let mut produced: u128 = 0;
    for (k, o) in t.exported_outputs.iter().enumerate() {
        let place = format!("unsignedTx.exportedOutputs[{k}]");
        let out = transfer_out(&o.output, &place)?;
        if out.amount == 0 {
            return refuse(
                "output has no value",
                format!("`{place}.output.amount` is 0"),
            );
        }
        secp::check_threshold(
            out.owners.threshold,
            out.owners.addresses.len(),
            &format!("{place}.output"),
        )?;
        if o.asset_id != rules.avax {
            let words = if to == Chain::P {
                "tx has wrong chain ID"
            } else {
                "export output cannot contain non-AVAX in Banff"
            };
            return refuse(
                words,
                format!(
                    "`{place}.assetID` is {}, not AVAX ({})",
                    o.asset_id, rules.avax
                ),
            );
        }
        produced += u128::from(out.amount);
    }
    let signatures = t.inputs.len() as u64;
    let fee = fee(gas(unsigned_len, signatures), rules.base_fee);
    if consumed < produced + fee {
        return refuse(
            "export tx flow check failed due to: insufficient funds",
            format!(
                "the inputs take {consumed} nAVAX; the exported outputs hold {produced} and the fee is {fee} (gas {} at {} wei)",
                gas(unsigned_len, signatures),
                rules.base_fee
            ),
        );
    }
    if tx.credentials.len() != t.inputs.len() {
        return refuse(
            &format!(
                "export tx contained incorrect number of credentials want {} got {}",
                t.inputs.len(),
                tx.credentials.len()
            ),
            "an export carries one credential per EVM input",
        );
    }
    for (k, i) in t.inputs.iter().enumerate() {
        let cred = credential(tx, k)?;
        if cred.signatures.len() != 1 {
            return refuse(
                &format!(
                    "incorrect number of signatures want 1 signature for EVM Input Credential, but got {}",
                    cred.signatures.len()
                ),
                format!("`credentials[{k}]` signs for `unsignedTx.inputs[{k}]`"),
            );
        }
        let key = PublicKey::recover(hash, &cred.signatures[0]).map_err(|e| {
            Refusal::node(
                e.to_string(),
                format!("`credentials[{k}].signatures[0]` recovers no public key"),
            )
        })?;
        let by = EvmAddress::new(evm_address(&key));
        if by != i.address {
            return refuse(
                "signature doesn't match public key",
                format!(
                    "`credentials[{k}].signatures[0]` is by {by}, but `unsignedTx.inputs[{k}].address` is {}",
                    i.address
                ),
            );
        }
    }
    // The accounts: each input debits its address and must carry its nonce
    // (`EVMStateTransfer`: the balance first, then the nonce, then each nonce + 1).
    let mut fx = Effects::default();
    let mut nonces: BTreeMap<[u8; 20], u64> = BTreeMap::new();
    for (k, i) in t.inputs.iter().enumerate() {
        let address = *i.address.as_bytes();
        let a = match fx.accounts.get(&address) {
            Some(a) => *a,
            None => account(&address)?,
        };
        let debit = u128::from(i.amount) * X2C;
        if a.balance < debit {
            return refuse(
                "insufficient funds",
                format!(
                    "`unsignedTx.inputs[{k}]` takes {} nAVAX ({debit} wei) from {}, which holds {} wei",
                    i.amount, i.address, a.balance
                ),
            );
        }
        if a.nonce != i.nonce {
            return refuse(
                "invalid nonce",
                format!(
                    "`unsignedTx.inputs[{k}].nonce` is {}, the next nonce of {} is {}",
                    i.nonce, i.address, a.nonce
                ),
            );
        }
        fx.accounts.insert(
            address,
            Account {
                balance: a.balance - debit,
                ..a
            },
        );
        nonces.insert(address, i.nonce);
        fx.nonces.push(nonce_input(&i.address, i.nonce));
    }
    for (address, nonce) in nonces {
        if let Some(a) = fx.accounts.get_mut(&address) {
            a.nonce = nonce + 1;
        }
    }
    let tx_id = tx.id().map_err(|e| crate::engine::rule_broken(&e))?;
    let space = Space::Atomic { to, from: Chain::C };
    for (k, o) in t.exported_outputs.iter().enumerate() {
        let out = transfer_out(&o.output, "unsignedTx.exportedOutputs")?;
        let utxo = atomic::Utxo::new(
            avax::UtxoId::new(tx_id, k as u32),
            o.asset_id,
            atomic::UtxoOutput::TransferOutput(out.clone()),
        );
        let bytes = utxo
            .to_bytes()
            .map_err(|e| crate::engine::rule_broken(&e))?;
        fx.exported.push((
            space,
            Exported {
                id: utxo.utxo_id.id(),
                bytes,
                owners: out.owners.addresses.iter().map(|a| *a.as_bytes()).collect(),
            },
        ));
    }
    Ok(fx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fee_is_the_gas_at_the_base_fee_rounded_up_to_navax() {
        // An import of one input with one signature, 300 unsigned bytes:
        // 300 + 1,000 + 10,000 = 11,300 gas at 25 gwei = 282,500 nAVAX.
        assert_eq!(gas(300, 1), 11_300);
        assert_eq!(fee(11_300, 25_000_000_000), 282_500);
        // Rounded up: 1 gas at 1 wei (the devnet's base fee) is 1 nAVAX, not 0.
        assert_eq!(fee(1, 1), 1);
        assert_eq!(fee(11_300, super::super::BASE_FEE), 1);
    }

    const AVAX_NAVAX: u64 = 1_000_000_000;

    fn rules() -> Rules {
        Rules {
            network_id: 12345,
            chain_id: Id::from_sha256(b"C"),
            x_chain: Id::from_sha256(b"X"),
            avax: Id::from_sha256(b"AVAX"),
            base_fee: 1,
        }
    }

    /// A UTXO of `amount` AVAX exported from X to C, owned by one address, as shared memory
    /// holds it.
    fn exported(r: &Rules, n: u32, amount: u64) -> atomic::Utxo {
        let owners =
            secp256k1fx::OutputOwners::new(0, 1, vec![avalanche_rpc::wire::ShortId::new([7; 20])]);
        atomic::Utxo::new(
            avax::UtxoId::new(Id::from_sha256(b"the export"), n),
            r.avax,
            atomic::UtxoOutput::TransferOutput(secp256k1fx::TransferOutput::new(amount, owners)),
        )
    }

    /// An import from X of these UTXOs, each claimed at `claimed` nAVAX, crediting `credit`;
    /// one credential (of no valid signature) per input.
    fn import_of(r: &Rules, utxos: &[&atomic::Utxo], claimed: u64, credit: u64) -> atomic::Tx {
        let inputs = utxos
            .iter()
            .map(|u| {
                atomic::TransferableInput::new(
                    u.utxo_id.clone(),
                    r.avax,
                    secp256k1fx::TransferInput::new(claimed, secp256k1fx::Input::new(vec![0]))
                        .into(),
                )
            })
            .collect::<Vec<_>>();
        let creds = inputs
            .iter()
            .map(|_| secp256k1fx::Credential::new(vec![[0; 65]]).into())
            .collect();
        let unsigned = atomic::UnsignedImportTx::new(
            r.network_id,
            r.chain_id,
            r.x_chain,
            inputs,
            vec![atomic::EvmOutput::new(
                EvmAddress::new([9; 20]),
                credit,
                r.avax,
            )],
        );
        atomic::Tx::new(unsigned.into(), creds)
    }

    fn run(r: &Rules, tx: &atomic::Tx, shared: &[&atomic::Utxo]) -> Result<Effects, VerifyError> {
        let held: Vec<(Id, Vec<u8>)> = shared
            .iter()
            .map(|u| (u.utxo_id.id(), u.to_bytes().expect("utxo bytes")))
            .collect();
        verify(
            r,
            tx,
            0,
            &mut |_, id| Ok(held.iter().find(|(i, _)| i == id).map(|(_, b)| b.clone())),
            &mut |_| Ok(Account::default()),
        )
    }

    fn words(r: Result<Effects, VerifyError>) -> String {
        match r {
            Err(VerifyError::Refused(refusal)) => refusal.to_string(),
            Err(other) => format!("not a refusal: {other:?}"),
            Ok(_) => "accepted".into(),
        }
    }

    #[test]
    fn an_input_claiming_more_than_its_utxo_is_refused_with_both_amounts_as_coreth_words_it() {
        let r = rules();
        let u = exported(&r, 0, 20 * AVAX_NAVAX);
        let tx = import_of(&r, &[&u], 21 * AVAX_NAVAX, 21 * AVAX_NAVAX - 1);
        let got = words(run(&r, &tx, &[&u]));
        assert!(
            got.starts_with(
                "import tx transfer failed verification: utxo amount and input amount are not equal: 20000000000 != 21000000000"
            ),
            "{got}"
        );
    }

    #[test]
    fn an_import_spending_one_utxo_twice_is_refused_as_coreth_verify_refuses_it() {
        let r = rules();
        let u = exported(&r, 0, 20 * AVAX_NAVAX);
        let mut tx = import_of(&r, &[&u, &u], 20 * AVAX_NAVAX, 30 * AVAX_NAVAX);
        let got = words(run(&r, &tx, &[&u]));
        assert!(got.starts_with("inputs not sorted and unique"), "{got}");
        // Two UTXOs out of order: the same words.
        let v = exported(&r, 1, 20 * AVAX_NAVAX);
        tx = import_of(&r, &[&v, &u], 20 * AVAX_NAVAX, 30 * AVAX_NAVAX);
        let got = words(run(&r, &tx, &[&u, &v]));
        assert!(got.starts_with("inputs not sorted and unique"), "{got}");
    }
}
