//! Building and signing X-chain transactions from a set of keys and their UTXOs, the way a
//! wallet does (inputs sorted by UTXO ID, outputs by encoding, one credential per input
//! signing the SHA-256 of the unsigned bytes). The activity generator and the tests use it;
//! the transactions still go through `issueTx` and the one acceptance path.

use crate::genesis::encoded;
use crate::xchain::Utxo;
use crate::xchain::verify::Rules;
use avalanche_rpc::codec::{avm, nftfx, platform, propertyfx, secp256k1fx};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::wire::{Id, ShortId};
use std::collections::BTreeMap;

/// A payment: `amount` of `asset` to `to`.
#[derive(Debug, Clone)]
pub struct Payment {
    pub asset: Id,
    pub amount: u64,
    pub to: ShortId,
}

/// A signed BaseTx paying `payments` from `utxos` spendable by `keys` at `time`, the change
/// going to `change`, the fee in AVAX. Fails when the keys cannot pay.
pub fn base_tx(
    rules: &Rules,
    keys: &[PrivateKey],
    utxos: &[Utxo],
    payments: &[Payment],
    change: ShortId,
    time: u64,
) -> Result<avm::Tx, String> {
    let (base, signers) = funded_base(rules, keys, utxos, payments, rules.tx_fee, change, time)?;
    sign(avm::BaseTx::new(base).into(), &signers)
}

/// A signed CreateAssetTx: a fixed-cap asset for `holders` and a minting right for each of
/// `minters`, the fee paid from `utxos`.
#[allow(clippy::too_many_arguments)]
pub fn create_asset_tx(
    rules: &Rules,
    keys: &[PrivateKey],
    utxos: &[Utxo],
    (name, symbol, denomination): (&str, &str, u8),
    holders: &[(u64, ShortId)],
    minters: &[ShortId],
    change: ShortId,
    time: u64,
) -> Result<avm::Tx, String> {
    let (base, signers) = funded_base(
        rules,
        keys,
        utxos,
        &[],
        rules.create_asset_tx_fee,
        change,
        time,
    )?;
    let mut outputs: Vec<avm::StateOutput> = holders
        .iter()
        .map(|(amount, a)| secp256k1fx::TransferOutput::new(*amount, owners(*a)).into())
        .collect();
    outputs.extend(
        minters
            .iter()
            .map(|m| avm::StateOutput::from(secp256k1fx::MintOutput::new(owners(*m)))),
    );
    outputs.sort_by_cached_key(encoded);
    let unsigned = avm::CreateAssetTx::new(
        base,
        name.into(),
        symbol.into(),
        denomination,
        vec![avm::InitialState::new(0, outputs)],
    );
    sign(unsigned.into(), &signers)
}

/// A signed OperationTx minting `amount` of the asset of `mint` (a MintOutput `minter` owns
/// alone) to `to`, passing the right on to `minter`; the fee paid from `utxos`.
#[allow(clippy::too_many_arguments)]
pub fn mint_tx(
    rules: &Rules,
    minter: &PrivateKey,
    mint: &Utxo,
    amount: u64,
    to: ShortId,
    utxos: &[Utxo],
    change: ShortId,
    time: u64,
) -> Result<avm::Tx, String> {
    let avm::UtxoOutput::Secp256k1fxMintOutput(right) = &mint.utxo.output else {
        return Err("the UTXO to mint with is not a MintOutput".into());
    };
    let index = right
        .owners
        .addresses
        .iter()
        .position(|a| *a == minter.address())
        .ok_or("the minter does not own the minting right")? as u32;
    let keys = std::slice::from_ref(minter);
    let (base, mut signers) = funded_base(rules, keys, utxos, &[], rules.tx_fee, change, time)?;
    let op = secp256k1fx::MintOperation::new(
        secp256k1fx::Input::new(vec![index]),
        right.clone(),
        secp256k1fx::TransferOutput::new(amount, owners(to)),
    );
    let operation = avm::Operation::new(
        mint.utxo.asset_id,
        vec![mint.utxo.utxo_id.clone()],
        op.into(),
    );
    signers.push(minter);
    sign(
        avm::OperationTx::new(base, vec![operation]).into(),
        &signers,
    )
}

/// A signed CreateAssetTx of an asset whose only initial state is `state` (an NFT family's
/// minting rights, a property's); the fee paid from `creator`'s `utxos`.
pub fn family_tx(
    rules: &Rules,
    creator: &PrivateKey,
    utxos: &[Utxo],
    (name, symbol): (&str, &str),
    state: avm::InitialState,
    time: u64,
) -> Result<avm::Tx, String> {
    let keys = std::slice::from_ref(creator);
    let (base, signers) = funded_base(
        rules,
        keys,
        utxos,
        &[],
        rules.create_asset_tx_fee,
        creator.address(),
        time,
    )?;
    let unsigned = avm::CreateAssetTx::new(base, name.into(), symbol.into(), 0, vec![state]);
    sign(unsigned.into(), &signers)
}

/// nftfx minting rights for groups 0 to `groups` - 1, each owned by `owner` alone.
pub fn nft_rights(groups: u32, owner: ShortId) -> avm::InitialState {
    let mut outputs: Vec<avm::StateOutput> = (0..groups)
        .map(|g| nftfx::MintOutput::new(g, owners(owner)).into())
        .collect();
    outputs.sort_by_cached_key(encoded);
    avm::InitialState::new(1, outputs)
}

/// A propertyfx minting right owned by `owner` alone.
pub fn property_right(owner: ShortId) -> avm::InitialState {
    avm::InitialState::new(2, vec![propertyfx::MintOutput::new(owners(owner)).into()])
}

/// A signed OperationTx with one operation on `utxo` (owned by `signer` alone, at signature
/// index 0), signed with its fx's credential; the fee paid from `payer`'s `utxos`.
pub fn operation_tx(
    rules: &Rules,
    payer: &PrivateKey,
    utxos: &[Utxo],
    (utxo, op): (&Utxo, avm::FxOperation),
    signer: &PrivateKey,
    time: u64,
) -> Result<avm::Tx, String> {
    let keys = std::slice::from_ref(payer);
    let (base, mut signers) =
        funded_base(rules, keys, utxos, &[], rules.tx_fee, payer.address(), time)?;
    let nft = matches!(
        op,
        avm::FxOperation::NftfxMintOperation(_) | avm::FxOperation::TransferOperation(_)
    );
    let property = matches!(
        op,
        avm::FxOperation::PropertyfxMintOperation(_) | avm::FxOperation::BurnOperation(_)
    );
    let operation = avm::Operation::new(utxo.utxo.asset_id, vec![utxo.utxo.utxo_id.clone()], op);
    signers.push(signer);
    let mut tx = sign(
        avm::OperationTx::new(base, vec![operation]).into(),
        &signers,
    )?;
    let last = tx.credentials.len() - 1;
    if let avm::Credential::Secp256k1fxCredential(c) = &tx.credentials[last].credential {
        let sigs = c.signatures.clone();
        if nft {
            tx.credentials[last] = avm::FxCredential::new(nftfx::Credential::new(sigs).into());
        } else if property {
            tx.credentials[last] = avm::FxCredential::new(propertyfx::Credential::new(sigs).into());
        }
    }
    Ok(tx)
}

/// A propertyfx operation minting a property for `to`, the right staying with `owner`.
pub fn property_mint(owner: ShortId, to: ShortId) -> avm::FxOperation {
    propertyfx::MintOperation::new(
        secp256k1fx::Input::new(vec![0]),
        propertyfx::MintOutput::new(owners(owner)),
        propertyfx::OwnedOutput::new(owners(to)),
    )
    .into()
}

/// A propertyfx operation burning a property.
pub fn property_burn() -> avm::FxOperation {
    propertyfx::BurnOperation::new(secp256k1fx::Input::new(vec![0])).into()
}

/// An nftfx operation minting one token of `group` with `payload` for each of `to`.
pub fn nft_mint(group: u32, payload: &[u8], to: &[ShortId]) -> avm::FxOperation {
    nftfx::MintOperation::new(
        secp256k1fx::Input::new(vec![0]),
        group,
        payload.to_vec(),
        to.iter().map(|a| owners(*a)).collect(),
    )
    .into()
}

/// An nftfx operation giving a token (its group and payload) to `to`.
pub fn nft_transfer(group: u32, payload: &[u8], to: ShortId) -> avm::FxOperation {
    nftfx::TransferOperation::new(
        secp256k1fx::Input::new(vec![0]),
        nftfx::TransferOutput::new(group, payload.to_vec(), owners(to)),
    )
    .into()
}

/// The base of a transaction paying `payments` and `fee` (AVAX) from `utxos`: inputs sorted
/// by UTXO ID with their signers, outputs (payments and change) sorted by encoding.
fn funded_base<'k>(
    rules: &Rules,
    keys: &'k [PrivateKey],
    utxos: &[Utxo],
    payments: &[Payment],
    fee: u64,
    change: ShortId,
    time: u64,
) -> Result<(avm::Base, Vec<&'k PrivateKey>), String> {
    let mut need: BTreeMap<Id, u64> = BTreeMap::new();
    for p in payments {
        *need.entry(p.asset).or_default() += p.amount;
    }
    *need.entry(rules.avax).or_default() += fee;
    let mut inputs = Vec::new();
    let mut signers = Vec::new();
    let mut outputs: Vec<avm::TransferableOutput> = payments
        .iter()
        .map(|p| transfer_output(p.asset, p.amount, p.to))
        .collect();
    for (asset, amount) in &need {
        let mut have = 0u64;
        for u in utxos.iter().filter(|u| u.utxo.asset_id == *asset) {
            if have >= *amount {
                break;
            }
            let Some((value, index, key)) = spendable(u, keys, time) else {
                continue;
            };
            have = have.saturating_add(value);
            inputs.push(avm::TransferableInput::new(
                u.utxo.utxo_id.clone(),
                *asset,
                secp256k1fx::TransferInput::new(value, secp256k1fx::Input::new(vec![index])).into(),
            ));
            signers.push(key);
        }
        if have < *amount {
            return Err(format!(
                "the keys hold {have} of asset {asset} spendable now, {amount} are needed"
            ));
        }
        if have > *amount {
            outputs.push(transfer_output(*asset, have - amount, change));
        }
    }
    // Inputs by UTXO ID, outputs by encoding; the signers follow their inputs.
    let mut paired: Vec<(avm::TransferableInput, &PrivateKey)> =
        inputs.into_iter().zip(signers).collect();
    paired.sort_by_key(|(i, _)| encoded(&i.utxo_id));
    outputs.sort_by_cached_key(encoded);
    let (inputs, signers): (Vec<_>, Vec<_>) = paired.into_iter().unzip();
    let base = avm::Base::new(
        rules.network_id,
        rules.chain_id,
        outputs,
        inputs,
        Vec::new(),
    );
    Ok((base, signers))
}

fn owners(a: ShortId) -> secp256k1fx::OutputOwners {
    secp256k1fx::OutputOwners::new(0, 1, vec![a])
}

/// Signs an unsigned transaction: credential i by `signers[i]`.
pub fn sign(unsigned: avm::UnsignedTx, signers: &[&PrivateKey]) -> Result<avm::Tx, String> {
    let bytes = unsigned.to_bytes().map_err(|e| e.to_string())?;
    let hash = *Id::from_sha256(&bytes).as_bytes();
    let credentials = signers
        .iter()
        .map(|k| {
            avm::FxCredential::new(secp256k1fx::Credential::new(vec![k.sign_hash(&hash)]).into())
        })
        .collect();
    Ok(avm::Tx::new(unsigned, credentials))
}

/// Signs an unsigned P-chain transaction: credential i by `signers[i]` (the inputs', then
/// the authorization's).
pub fn sign_p(
    unsigned: platform::UnsignedTx,
    signers: &[&PrivateKey],
) -> Result<platform::Tx, String> {
    let bytes = unsigned.to_bytes().map_err(|e| e.to_string())?;
    let hash = *Id::from_sha256(&bytes).as_bytes();
    let credentials = signers
        .iter()
        .map(|k| secp256k1fx::Credential::new(vec![k.sign_hash(&hash)]).into())
        .collect();
    Ok(platform::Tx::new(unsigned, credentials))
}

/// The amount, signature index and key with which a 1-of-n TransferOutput can be spent now.
fn spendable<'k>(
    u: &Utxo,
    keys: &'k [PrivateKey],
    time: u64,
) -> Option<(u64, u32, &'k PrivateKey)> {
    let avm::UtxoOutput::Secp256k1fxTransferOutput(o) = &u.utxo.output else {
        return None;
    };
    if o.owners.threshold != 1 || o.owners.locktime > time {
        return None;
    }
    o.owners.addresses.iter().enumerate().find_map(|(i, a)| {
        keys.iter()
            .find(|k| k.address() == *a)
            .map(|k| (o.amount, i as u32, k))
    })
}

fn transfer_output(asset: Id, amount: u64, to: ShortId) -> avm::TransferableOutput {
    avm::TransferableOutput::new(
        asset,
        secp256k1fx::TransferOutput::new(amount, secp256k1fx::OutputOwners::new(0, 1, vec![to]))
            .into(),
    )
}

/// What a P-chain transaction built here does beyond paying.
#[derive(Debug, Clone)]
pub enum PKind<'u> {
    Base,
    /// Export `amount` nAVAX to `to` on the X-chain.
    Export {
        amount: u64,
        to: ShortId,
    },
    /// Import these shared-memory UTXOs from the X-chain.
    Import(&'u [crate::pchain::Utxo]),
    /// Validate the Primary Network with `node` until `end`, staking `weight` nAVAX (returned
    /// to the change address), rewards to `rewards`.
    AddValidator {
        node: avalanche_rpc::wire::NodeId,
        bls: &'u avalanche_rpc::bls::SecretKey,
        weight: u64,
        end: u64,
        shares: u32,
        rewards: ShortId,
    },
    /// Delegate `weight` nAVAX to `node` until `end`, rewards to `rewards`.
    AddDelegator {
        node: avalanche_rpc::wire::NodeId,
        weight: u64,
        end: u64,
        rewards: ShortId,
    },
    /// Create a Subnet owned by `owner` alone.
    CreateSubnet {
        owner: ShortId,
    },
    /// Create a chain on `subnet`, authorized by its owner `auth`.
    CreateChain {
        subnet: Id,
        name: &'u str,
        vm: Id,
        genesis: &'u [u8],
        auth: &'u PrivateKey,
    },
    /// Add `node` to `subnet` with `weight` until `end`, authorized by its owner `auth`.
    AddSubnetValidator {
        subnet: Id,
        node: avalanche_rpc::wire::NodeId,
        weight: u64,
        end: u64,
        auth: &'u PrivateKey,
    },
    /// Remove `node` from `subnet`, authorized by its owner `auth`.
    RemoveSubnetValidator {
        subnet: Id,
        node: avalanche_rpc::wire::NodeId,
        auth: &'u PrivateKey,
    },
    /// Give `subnet` to `owner`, authorized by its owner `auth`.
    TransferSubnetOwnership {
        subnet: Id,
        owner: ShortId,
        auth: &'u PrivateKey,
    },
    /// Convert `subnet` to an L1 managed from `address` on `chain`, with these first
    /// validators, authorized by its owner `auth`.
    ConvertToL1 {
        subnet: Id,
        chain: Id,
        address: &'u [u8],
        validators: &'u [L1Validator<'u>],
        auth: &'u PrivateKey,
    },
    /// Add `amount` nAVAX to an L1 validator's balance.
    IncreaseL1Balance {
        validation_id: Id,
        amount: u64,
    },
    /// Disable an L1 validator, authorized by its deactivation owner `auth`.
    DisableL1Validator {
        validation_id: Id,
        auth: &'u PrivateKey,
    },
    /// Register the L1 validator a signed Warp message (a RegisterL1Validator payload) names,
    /// with the proof of possession of its BLS key and a balance.
    RegisterL1Validator {
        message: &'u [u8],
        proof_of_possession: [u8; 96],
        balance: u64,
    },
    /// Set an L1 validator's weight as a signed Warp message (an L1ValidatorWeight payload)
    /// says.
    SetL1ValidatorWeight {
        message: &'u [u8],
    },
}

/// A first validator of an L1 a wallet converts a Subnet to: its node and BLS key, weight,
/// balance, and the one address that owns what is left of the balance and may disable it.
#[derive(Debug, Clone)]
pub struct L1Validator<'u> {
    pub node: avalanche_rpc::wire::NodeId,
    pub bls: &'u avalanche_rpc::bls::SecretKey,
    pub weight: u64,
    pub balance: u64,
    pub owner: ShortId,
}

impl PKind<'_> {
    /// What it stakes.
    fn staked(&self) -> u64 {
        match self {
            PKind::AddValidator { weight, .. } | PKind::AddDelegator { weight, .. } => *weight,
            _ => 0,
        }
    }

    /// What it pays into L1 validators' balances.
    fn balances(&self) -> u64 {
        match self {
            PKind::ConvertToL1 { validators, .. } => validators.iter().map(|v| v.balance).sum(),
            PKind::IncreaseL1Balance { amount, .. } => *amount,
            PKind::RegisterL1Validator { balance, .. } => *balance,
            _ => 0,
        }
    }

    /// The Subnet owner's key, signing the authorization (the owner's only address).
    fn auth(&self) -> Option<&PrivateKey> {
        match self {
            PKind::CreateChain { auth, .. }
            | PKind::AddSubnetValidator { auth, .. }
            | PKind::RemoveSubnetValidator { auth, .. }
            | PKind::TransferSubnetOwnership { auth, .. }
            | PKind::ConvertToL1 { auth, .. }
            | PKind::DisableL1Validator { auth, .. } => Some(auth),
            _ => None,
        }
    }
}

/// A signed P-chain BaseTx paying `payments` (AVAX) from unlocked `utxos` of `keys`, the
/// change to `change`, the fee at `price` nAVAX per gas (the fee state's price; pay a margin
/// when blocks may come between, the surplus is burned).
pub fn p_base_tx(
    rules: &crate::pchain::verify::Rules,
    keys: &[PrivateKey],
    utxos: &[crate::pchain::Utxo],
    payments: &[Payment],
    change: ShortId,
    price: u64,
) -> Result<platform::Tx, String> {
    p_tx(rules, keys, utxos, payments, PKind::Base, change, price)
}

/// A signed P-chain BaseTx, ExportTx (to the X-chain) or ImportTx (from it), its fee at
/// `price` per gas.
pub fn p_tx(
    rules: &crate::pchain::verify::Rules,
    keys: &[PrivateKey],
    utxos: &[crate::pchain::Utxo],
    payments: &[Payment],
    kind: PKind<'_>,
    change: ShortId,
    price: u64,
) -> Result<platform::Tx, String> {
    use crate::pchain::fee;
    let owners = |a: ShortId| secp256k1fx::OutputOwners::new(0, 1, vec![a]);
    let spend = |u: &crate::pchain::Utxo| -> Option<(platform::TransferableInput, &PrivateKey)> {
        let (out, None) = u.transfer()? else {
            return None;
        };
        if out.owners.threshold != 1 || out.owners.locktime > 0 {
            return None;
        }
        let (index, key) = out.owners.addresses.iter().enumerate().find_map(|(i, a)| {
            keys.iter()
                .find(|k| k.address() == *a)
                .map(|k| (i as u32, k))
        })?;
        let input =
            secp256k1fx::TransferInput::new(out.amount, secp256k1fx::Input::new(vec![index]));
        Some((
            platform::TransferableInput::new(u.utxo.utxo_id.clone(), u.utxo.asset_id, input.into()),
            key,
        ))
    };
    let mut imported = Vec::new();
    let mut imported_amount = 0u64;
    if let PKind::Import(atomic) = &kind {
        for u in atomic.iter() {
            if let Some(i) = spend(u) {
                imported_amount += u.transfer().map_or(0, |(o, _)| o.amount);
                imported.push(i);
            }
        }
        imported.sort_by_key(|(i, _)| encoded(&i.utxo_id));
    }
    let exported: Vec<platform::TransferableOutput> = match &kind {
        PKind::Export { amount, to } => vec![platform::TransferableOutput::new(
            rules.avax,
            secp256k1fx::TransferOutput::new(*amount, owners(*to)).into(),
        )],
        _ => Vec::new(),
    };
    let stake: Vec<platform::TransferableOutput> = match kind.staked() {
        0 => Vec::new(),
        w => vec![platform::TransferableOutput::new(
            rules.avax,
            secp256k1fx::TransferOutput::new(w, owners(change)).into(),
        )],
    };
    let out_total: u64 = payments.iter().map(|p| p.amount).sum::<u64>()
        + kind.staked()
        + kind.balances()
        + match &kind {
            PKind::Export { amount, .. } => *amount,
            _ => 0,
        };
    let subnet_auth =
        || platform::Auth::from(platform::Input::new(secp256k1fx::Input::new(vec![0])));
    let owner = |a: ShortId| platform::Owner::from(platform::OutputOwners::new(owners(a)));
    let mut tx_fee = 0u64;
    loop {
        let need = (out_total + tx_fee).saturating_sub(imported_amount);
        let mut have = 0u64;
        let mut inputs = Vec::new();
        for u in utxos {
            if have >= need {
                break;
            }
            if let Some(i) = spend(u) {
                have += u.transfer().map_or(0, |(o, _)| o.amount);
                inputs.push(i);
            }
        }
        if have < need {
            return Err(format!(
                "the keys hold {have} nAVAX unlocked on the P-chain, {need} are needed"
            ));
        }
        let mut outputs: Vec<platform::TransferableOutput> = payments
            .iter()
            .map(|p| {
                platform::TransferableOutput::new(
                    p.asset,
                    secp256k1fx::TransferOutput::new(p.amount, owners(p.to)).into(),
                )
            })
            .collect();
        let left = have + imported_amount - out_total - tx_fee;
        if left > 0 {
            outputs.push(platform::TransferableOutput::new(
                rules.avax,
                secp256k1fx::TransferOutput::new(left, owners(change)).into(),
            ));
        }
        inputs.sort_by_key(|(i, _)| encoded(&i.utxo_id));
        outputs.sort_by_cached_key(encoded);
        let (inputs, mut signers): (Vec<_>, Vec<_>) = inputs.into_iter().unzip();
        let (imported_inputs, import_signers): (Vec<_>, Vec<_>) = imported.iter().cloned().unzip();
        signers.extend(import_signers);
        signers.extend(kind.auth());
        let base = platform::Base::new(rules.network_id, Id::ZERO, outputs, inputs, Vec::new());
        let unsigned: platform::UnsignedTx = match &kind {
            PKind::Base => platform::BaseTx::new(base).into(),
            PKind::Export { .. } => {
                platform::ExportTx::new(base, rules.x_chain, exported.clone()).into()
            }
            PKind::Import(_) => {
                platform::ImportTx::new(base, rules.x_chain, imported_inputs).into()
            }
            PKind::AddValidator {
                node,
                bls,
                weight,
                end,
                shares,
                rewards,
            } => platform::AddPermissionlessValidatorTx::new(
                base,
                platform::Validator::new(*node, 0, *end, *weight),
                Id::ZERO,
                platform::ProofOfPossession::new(bls.public_key(), bls.proof_of_possession())
                    .into(),
                stake.clone(),
                owner(*rewards),
                owner(*rewards),
                *shares,
            )
            .into(),
            PKind::AddDelegator {
                node,
                weight,
                end,
                rewards,
            } => platform::AddPermissionlessDelegatorTx::new(
                base,
                platform::Validator::new(*node, 0, *end, *weight),
                Id::ZERO,
                stake.clone(),
                owner(*rewards),
            )
            .into(),
            PKind::CreateSubnet { owner: o } => {
                platform::CreateSubnetTx::new(base, owner(*o)).into()
            }
            PKind::CreateChain {
                subnet,
                name,
                vm,
                genesis,
                ..
            } => platform::CreateChainTx::new(
                base,
                *subnet,
                name.to_string(),
                *vm,
                Vec::new(),
                genesis.to_vec(),
                subnet_auth(),
            )
            .into(),
            PKind::AddSubnetValidator {
                subnet,
                node,
                weight,
                end,
                ..
            } => platform::AddSubnetValidatorTx::new(
                base,
                platform::SubnetValidator::new(
                    platform::Validator::new(*node, 0, *end, *weight),
                    *subnet,
                ),
                subnet_auth(),
            )
            .into(),
            PKind::RemoveSubnetValidator { subnet, node, .. } => {
                platform::RemoveSubnetValidatorTx::new(base, *node, *subnet, subnet_auth()).into()
            }
            PKind::TransferSubnetOwnership {
                subnet, owner: o, ..
            } => platform::TransferSubnetOwnershipTx::new(base, *subnet, subnet_auth(), owner(*o))
                .into(),
            PKind::ConvertToL1 {
                subnet,
                chain,
                address,
                validators,
                ..
            } => {
                let mut vs: Vec<platform::ConvertSubnetToL1Validator> = validators
                    .iter()
                    .map(|v| {
                        let o = || platform::PChainOwner::new(1, vec![v.owner]);
                        platform::ConvertSubnetToL1Validator::new(
                            v.node.as_bytes().to_vec(),
                            v.weight,
                            v.balance,
                            platform::ProofOfPossession::new(
                                v.bls.public_key(),
                                v.bls.proof_of_possession(),
                            ),
                            o(),
                            o(),
                        )
                    })
                    .collect();
                vs.sort_by(|a, b| a.node_id.cmp(&b.node_id));
                platform::ConvertSubnetToL1Tx::new(
                    base,
                    *subnet,
                    *chain,
                    address.to_vec(),
                    vs,
                    subnet_auth(),
                )
                .into()
            }
            PKind::IncreaseL1Balance {
                validation_id,
                amount,
            } => platform::IncreaseL1ValidatorBalanceTx::new(base, *validation_id, *amount).into(),
            PKind::DisableL1Validator { validation_id, .. } => {
                platform::DisableL1ValidatorTx::new(base, *validation_id, subnet_auth()).into()
            }
            PKind::RegisterL1Validator {
                message,
                proof_of_possession,
                balance,
            } => platform::RegisterL1ValidatorTx::new(
                base,
                *balance,
                *proof_of_possession,
                message.to_vec(),
            )
            .into(),
            PKind::SetL1ValidatorWeight { message } => {
                platform::SetL1ValidatorWeightTx::new(base, message.to_vec()).into()
            }
        };
        let needed = fee::gas(&unsigned).map_err(|e| e.0)? * price;
        if needed <= tx_fee {
            return sign_p(unsigned, &signers);
        }
        tx_fee = needed;
    }
}

/// A signed X-chain ExportTx: `amount` nAVAX to `to` on the P-chain, the fee and the amount
/// paid from `utxos`.
pub fn x_export_tx(
    rules: &Rules,
    keys: &[PrivateKey],
    utxos: &[Utxo],
    amount: u64,
    to: ShortId,
    change: ShortId,
    time: u64,
) -> Result<avm::Tx, String> {
    let (base, signers) =
        funded_base(rules, keys, utxos, &[], rules.tx_fee + amount, change, time)?;
    let exported = vec![transfer_output(rules.avax, amount, to)];
    sign(
        avm::ExportTx::new(base, Id::ZERO, exported).into(),
        &signers,
    )
}

/// A signed X-chain ImportTx of the shared-memory UTXOs `atomic` (from the P-chain) that
/// `keys` can spend, everything but the fee paid to `to`.
pub fn x_import_tx(
    rules: &Rules,
    keys: &[PrivateKey],
    atomic: &[Utxo],
    to: ShortId,
    time: u64,
) -> Result<avm::Tx, String> {
    let mut imported = Vec::new();
    let mut total = 0u64;
    for u in atomic {
        if u.utxo.asset_id != rules.avax {
            continue;
        }
        if let Some((value, index, key)) = spendable(u, keys, time) {
            total += value;
            imported.push((
                avm::TransferableInput::new(
                    u.utxo.utxo_id.clone(),
                    u.utxo.asset_id,
                    secp256k1fx::TransferInput::new(value, secp256k1fx::Input::new(vec![index]))
                        .into(),
                ),
                key,
            ));
        }
    }
    if total <= rules.tx_fee {
        return Err(format!(
            "the importable UTXOs hold {total} nAVAX, not more than the fee"
        ));
    }
    imported.sort_by_key(|(i, _)| encoded(&i.utxo_id));
    let (inputs, signers): (Vec<_>, Vec<_>) = imported.into_iter().unzip();
    let outputs = vec![transfer_output(rules.avax, total - rules.tx_fee, to)];
    let base = avm::Base::new(
        rules.network_id,
        rules.chain_id,
        outputs,
        Vec::new(),
        Vec::new(),
    );
    sign(avm::ImportTx::new(base, Id::ZERO, inputs).into(), &signers)
}

/// An unsigned Warp message from an L1's validator manager (`address` on `chain`) carrying
/// `message` in an AddressedCall: what the manager contract would emit, for the L1's
/// validators to sign (`devnet.signWarpMessage`).
pub fn l1_message(
    network_id: u32,
    chain: Id,
    address: &[u8],
    message: avalanche_rpc::codec::warp_l1::L1Message,
) -> Result<Vec<u8>, String> {
    use avalanche_rpc::codec::{warp, warp_payload};
    let inner = message.to_bytes().map_err(|e| e.to_string())?;
    let payload =
        warp_payload::Payload::AddressedCall(warp::AddressedCall::new(address.to_vec(), inner))
            .to_bytes()
            .map_err(|e| e.to_string())?;
    Ok(crate::pchain::warp::unsigned_bytes(
        network_id, &chain, &payload,
    ))
}
