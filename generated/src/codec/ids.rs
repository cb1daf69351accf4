//! The IDs the node derives from encoded values (codec reference §4): a transaction's or a
//! block's is the SHA-256 of its bytes; a UTXO's is the SHA-256 of its output index (as 8
//! bytes) followed by its transaction's ID; a proposer block's leaves out its signature.

use super::{EncodeError, avax, avm, platform, proposervm};
use crate::wire::Id;

impl avax::UtxoId {
    /// The UTXO's ID (the node's `InputID`): SHA-256(outputIndex as u64 ‖ txID).
    pub fn input_id(&self) -> Id {
        self.tx_id.prefix(u64::from(self.output_index))
    }
}

macro_rules! id_of_bytes {
    ($($t:ty),*) => {$(
        impl $t {
            /// The ID: SHA-256 of the bytes.
            pub fn id(&self) -> Result<Id, EncodeError> {
                self.to_bytes().map(|b| Id::from_sha256(&b))
            }
        }
    )*};
}

id_of_bytes!(avm::Tx, avm::Block, platform::Tx, platform::Block);

impl proposervm::Block {
    /// The block's ID, the one consensus and the index use: SHA-256 of the bytes without the
    /// trailing signature (a stateless or Granite block), or of all the bytes (an option).
    pub fn id(&self) -> Result<Id, EncodeError> {
        let bytes = self.to_bytes()?;
        let unsigned = match self {
            proposervm::Block::StatelessBlock(b) => bytes.len() - 4 - b.signature.len(),
            proposervm::Block::GraniteBlock(b) => bytes.len() - 4 - b.signature.len(),
            _ => bytes.len(),
        };
        Ok(Id::from_sha256(&bytes[..unsigned]))
    }
}
