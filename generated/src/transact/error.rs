//! What building, signing and issuing refuse, each naming what to change.

use crate::wire::Id;

use super::fee::FeeError;

/// Why a transaction cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// The keys cannot spend enough of an asset now.
    #[error(
        "insufficient funds: {needed} of asset {asset} are needed ({what}), the keys can spend \
         {spendable} now{}",
        locked_note(*.locked)
    )]
    Insufficient {
        /// The asset short of funds.
        asset: Id,
        /// What the transaction needs of it, the fee included when it is AVAX.
        needed: u64,
        /// What the given UTXOs hold of it that the keys can spend at the issuance time.
        spendable: u64,
        /// What they hold of it that is locked until later (or, for staking, locked and
        /// not stakeable), so cannot be spent now.
        locked: u64,
        /// What the amount is for (`"to burn, the fee included"`, `"to stake"`).
        what: &'static str,
    },
    /// A request field that the node would refuse, or that cannot be built.
    #[error("`{field}`: {problem}")]
    Invalid {
        /// The field, as the request names it (`outputs[1].addresses`, `weight`, `end`).
        field: String,
        /// What is wrong and what would be accepted.
        problem: String,
    },
    /// Nothing in the source chain's UTXOs belongs to the keys.
    #[error("no UTXO exported from chain {chain} can be spent by the keys: nothing to import")]
    NothingToImport {
        /// The source chain.
        chain: Id,
    },
    /// The transaction needs more gas than the P-chain can ever hold.
    #[error(
        "the transaction needs {gas} gas and the P-chain holds at most {capacity} \
         (`maxCapacity`): split it into smaller ones"
    )]
    OverCapacity {
        /// The transaction's gas.
        gas: u64,
        /// The fee configuration's maximum capacity.
        capacity: u64,
    },
    /// The dynamic fee cannot be computed.
    #[error(transparent)]
    Fee(#[from] FeeError),
    /// The built transaction does not encode (a field past the codec's limits).
    #[error("the transaction does not encode: {0}")]
    Encode(String),
}

fn locked_note(locked: u64) -> String {
    if locked == 0 {
        String::new()
    } else {
        format!(" (and {locked} more that are locked until later)")
    }
}

impl BuildError {
    /// A field error.
    pub fn invalid(field: impl Into<String>, problem: impl Into<String>) -> BuildError {
        BuildError::Invalid {
            field: field.into(),
            problem: problem.into(),
        }
    }
}

/// Why signatures cannot be completed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignError {
    /// Some credentials still lack signatures from addresses the keychain does not hold.
    #[error("{missing} signature(s) are missing, from {}", addresses.join(", "))]
    Missing {
        /// How many.
        missing: usize,
        /// The addresses (their short IDs) whose keys must still sign.
        addresses: Vec<String>,
    },
    /// A signature handed back that is not its slot's address's signature of this
    /// transaction.
    #[error(
        "credential {credential}, signature {index}: not a signature of this transaction by \
         {expected}"
    )]
    Foreign {
        /// The credential.
        credential: usize,
        /// The signature's place in it.
        index: usize,
        /// The address that should have signed.
        expected: String,
    },
    /// The unsigned transaction does not encode.
    #[error("the transaction does not encode: {0}")]
    Encode(String),
    /// A signer did not sign for its address, or answered a signature that is not one.
    #[error("the signer of {address} did not sign: {reason}")]
    Signer {
        /// The address (its short ID) it was asked to sign for.
        address: String,
        /// Why, in the signer's words or this crate's.
        reason: String,
    },
}
