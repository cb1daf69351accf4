//! Transactions from Rust (feature `transact`): a wallet in layers, each usable alone.
//!
//! 1. **Keys** ([`Keychain`]): secp256k1 keys read in the node's forms, their addresses;
//!    zeroized on drop and never printed. BLS keys for validators are [`crate::bls`]'s;
//!    [`bls_signer`] gives what a validator transaction carries.
//! 2. **Context** ([`Context`]): network, chain and asset IDs, fees, staking rules; read
//!    from a node in one call ([`Context::from_node`]) or written by hand for offline
//!    signing.
//! 3. **Builders** ([`x`], [`p`], [`c`]): pure functions from a context, UTXOs and a request to an
//!    [`Unsigned`] transaction and the fee it pays. UTXOs are chosen as AvalancheJS 5.2.0
//!    chooses them ([`spend`]), so the same UTXOs in the same order give the same bytes;
//!    fees are the node's ([`fee`]).
//! 4. **Sign, issue, confirm** ([`Unsigned::sign`], [`issue_x`], [`wait_p`], …): every key
//!    that owns an input signs it, partial signing for multisig, issuing through the
//!    generated client, and polling the status with backoff. Keys held elsewhere (a
//!    hardware wallet, a KMS or HSM, a signing service) sign through a [`Signer`]
//!    ([`Unsigned::sign_with`]; [`ExternalSigner`] takes DER, `r ‖ s` and high-`s` answers
//!    and signers that hash the message themselves). [`x_utxos`]/[`p_utxos`] read
//!    every page of a keychain's UTXOs.
//! 5. **Carry** ([`portable`]): a built transaction written as a versioned JSON file with
//!    what a co-signer needs to check it (the UTXOs spent and their bytes, owners, the fee,
//!    the burn, the signatures so far), read back with every claim checked against the bytes
//!    ([`PartiallySigned::from_json`], each refusal naming the field), signed where the keys
//!    are, combined and issued. The built transactions are [`x::Unsigned`] and
//!    [`p::Unsigned`].
//!
//! Where this differs from AvalancheJS 5.2.0 (all cases where AvalancheJS builds a
//! transaction the node refuses, or fails where the node would accept):
//! - owner addresses given twice (change, rewards, Subnet owners, import destinations) are
//!   written once, as the node requires (`secp256k1fx.OutputOwners.Verify`); AvalancheJS
//!   sorts them but keeps the repeat;
//! - an X-chain import of several assets has its outputs sorted, as the node requires
//!   (`avax.IsSortedTransferableOutputs`); AvalancheJS appends them in the order met;
//! - an import whose AVAX does not cover the fee pays it from the payer's own UTXOs;
//!   AvalancheJS spends the imported UTXOs a second time, as local inputs;
//! - a P-chain transaction is refused only when its gas exceeds the chain's maximum
//!   capacity; AvalancheJS compares it with the capacity last read, which refills every
//!   second (the node keeps such a transaction in its mempool until it fits);
//! - requests are checked before building (stakes, periods, delegation fee, owners,
//!   amounts), each error naming its field.

pub mod balance;
pub mod c;
pub mod context;
pub mod error;
pub mod fee;
pub mod keychain;
#[cfg(feature = "client")]
mod node;
pub mod p;
pub mod payer;
pub mod portable;
pub mod sign;
pub mod signer;
pub mod spend;
#[cfg(test)]
mod tests;
pub mod warp;
pub mod x;

pub use balance::Balance;
pub use context::{Context, FeeConfig, FeeState, StakingRules, ValidatorFeeConfig};
pub use error::{BuildError, SignError};
pub use keychain::{Keychain, bls_signer};
#[cfg(feature = "client")]
pub use node::{
    DEFAULT_WAIT, IssuedTo, Pending, WalletError, issue_p, issue_x, p_utxos, wait_p, wait_x,
    warp_validators, x_utxos,
};
pub use payer::{Payer, owners};
pub use portable::{PartiallySigned, PortableError};
pub use sign::{CredentialKind, Signable, Signers, Unsigned};
pub use signer::{ExternalSigner, SignRequest, Signer, SignerError};
