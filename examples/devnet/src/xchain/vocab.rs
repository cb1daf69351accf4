//! The words X-chain verification is written in, below both the kinds ([`super::kind`],
//! [`super::assets`]) and the order of checks ([`super::verify`]): the chain's [`Rules`],
//! the [`Effects`] a transaction has, the [`Outputs`] it makes and how it is [`Signed`].

use super::Utxo;
use avalanche_rpc::codec::{avax, avm, secp256k1fx};
use avalanche_rpc::wire::{Id, ShortId};
use std::collections::BTreeSet;

/// The chain's parameters a transaction is checked against.
#[derive(Debug, Clone)]
pub struct Rules {
    pub network_id: u32,
    pub chain_id: Id,
    /// The C-chain's ID: imports and exports go to and from it or the P-chain.
    pub c_chain: Id,
    pub avax: Id,
    pub tx_fee: u64,
    pub create_asset_tx_fee: u64,
}

/// What an accepted transaction changes.
#[derive(Debug, Clone, Default)]
pub struct Effects {
    /// The UTXOs it spends.
    pub consumed: Vec<Id>,
    /// The UTXOs it creates.
    pub produced: Vec<Utxo>,
    /// (address, asset) pairs whose balance it changes (`avm.getAddressTxs`).
    pub touched: BTreeSet<([u8; 20], Id)>,
    /// The asset it creates, if any: (ID = the tx ID, name, symbol, denomination).
    pub new_asset: Option<Id>,
    /// The shared-memory UTXOs it imports (from `peer`).
    pub imported: Vec<Id>,
    /// The UTXOs it exports into shared memory (to `peer`).
    pub exported: Vec<Utxo>,
    /// The chain an ImportTx imports from or an ExportTx exports to (`None`: the P-chain).
    pub peer: Option<crate::ledger::Chain>,
}

impl Effects {
    /// The shared memory it imports from.
    pub fn import_space(&self) -> crate::ledger::Space {
        crate::ledger::Space::Atomic {
            to: crate::ledger::Chain::X,
            from: self.peer.unwrap_or(crate::ledger::Chain::P),
        }
    }

    /// The shared memory it exports into.
    pub fn export_space(&self) -> crate::ledger::Space {
        crate::ledger::Space::Atomic {
            to: self.peer.unwrap_or(crate::ledger::Chain::P),
            from: crate::ledger::Chain::X,
        }
    }
}

/// A transaction signed: the credentials over `hash`, checked at `time`.
pub struct Signed<'t> {
    pub tx: &'t avm::Tx,
    pub hash: &'t [u8; 32],
    pub time: u64,
}

/// The outputs a transaction makes, numbered in order, into its effects.
pub struct Outputs<'a> {
    pub fx: &'a mut Effects,
    pub(super) tx_id: Id,
    pub(super) index: u32,
}

impl Outputs<'_> {
    pub fn tx_id(&self) -> Id {
        self.tx_id
    }

    /// The (address, asset) pairs whose balance it changes.
    pub fn touch(&mut self, owners: &secp256k1fx::OutputOwners, asset: Id) {
        touch(self.fx, owners, asset)
    }

    /// Output `index` of the tx, of `asset`.
    pub fn produce(&mut self, asset: Id, output: avm::UtxoOutput) {
        let owners: Vec<ShortId> = match &output {
            avm::UtxoOutput::Secp256k1fxTransferOutput(o) => o.owners.addresses.clone(),
            avm::UtxoOutput::Secp256k1fxMintOutput(o) => o.owners.addresses.clone(),
            _ => Vec::new(),
        };
        for a in &owners {
            self.fx.touched.insert((*a.as_bytes(), asset));
        }
        let utxo = avm::Utxo::new(avax::UtxoId::new(self.tx_id, self.index), asset, output);
        self.index += 1;
        self.fx.produced.push(Utxo::new(utxo));
    }
}

pub(super) fn touch(fx: &mut Effects, owners: &secp256k1fx::OutputOwners, asset: Id) {
    for a in &owners.addresses {
        fx.touched.insert((*a.as_bytes(), asset));
    }
}
