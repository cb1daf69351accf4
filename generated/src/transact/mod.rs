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
pub use node::{DEFAULT_WAIT, IssuedTo, Pending, WalletError, warp_validators};
pub use payer::{Payer, owners};
pub use portable::{PartiallySigned, PortableError};
pub use sign::{CredentialKind, Signable, Signers, Unsigned};
pub use signer::{ExternalSigner, SignRequest, Signer, SignerError};

/// The paths of the node-facing part before it went by chain (`x::utxos`, `x::issue`, …):
/// kept for one release.
#[cfg(feature = "client")]
mod deprecated {
    use std::time::Duration;

    use crate::codec::{avm, platform};
    use crate::rpc::{Node, Transport};
    use crate::wire::{Id, ShortId};

    use super::{Context, WalletError, node};

    /// Every X-chain UTXO of `of`, or those exported to X from `source_chain`.
    #[deprecated(since = "0.2.0", note = "use `transact::x::utxos`")]
    pub async fn x_utxos<T: Transport + Clone + 'static>(
        node: &Node<T>,
        ctx: &Context,
        of: &[ShortId],
        source_chain: Option<&str>,
    ) -> Result<Vec<avm::Utxo>, WalletError> {
        node::x_utxos(node, ctx, of, source_chain).await
    }

    /// Every P-chain UTXO of `of`, or those exported to P from `source_chain`.
    #[deprecated(since = "0.2.0", note = "use `transact::p::utxos`")]
    pub async fn p_utxos<T: Transport + Clone + 'static>(
        node: &Node<T>,
        ctx: &Context,
        of: &[ShortId],
        source_chain: Option<&str>,
    ) -> Result<Vec<platform::Utxo>, WalletError> {
        node::p_utxos(node, ctx, of, source_chain).await
    }

    /// Sends a signed X-chain transaction; its ID.
    #[deprecated(
        since = "0.2.0",
        note = "use `transact::x::issue`, whose handle waits (`.wait()`)"
    )]
    pub async fn issue_x<T: Transport + Clone + 'static>(
        node: &Node<T>,
        tx: &avm::Tx,
    ) -> Result<Id, WalletError> {
        node::issue_x(node, tx).await
    }

    /// Sends a signed P-chain transaction; its ID.
    #[deprecated(
        since = "0.2.0",
        note = "use `transact::p::issue`, whose handle waits (`.wait()`)"
    )]
    pub async fn issue_p<T: Transport + Clone + 'static>(
        node: &Node<T>,
        tx: &platform::Tx,
    ) -> Result<Id, WalletError> {
        node::issue_p(node, tx).await
    }

    /// Waits until an X-chain transaction is accepted.
    #[deprecated(
        since = "0.2.0",
        note = "use `transact::x::issue(…).wait()`, or `Pending::new(node, IssuedTo::X, id)`"
    )]
    pub async fn wait_x<T: Transport + Clone + 'static>(
        node: &Node<T>,
        tx_id: Id,
        timeout: Duration,
    ) -> Result<(), WalletError> {
        node::wait_x(node, tx_id, timeout).await
    }

    /// Waits until a P-chain transaction is committed.
    #[deprecated(
        since = "0.2.0",
        note = "use `transact::p::issue(…).wait()`, or `Pending::new(node, IssuedTo::P, id)`"
    )]
    pub async fn wait_p<T: Transport + Clone + 'static>(
        node: &Node<T>,
        tx_id: Id,
        timeout: Duration,
    ) -> Result<(), WalletError> {
        node::wait_p(node, tx_id, timeout).await
    }
}
#[cfg(feature = "client")]
#[allow(deprecated)]
pub use deprecated::{issue_p, issue_x, p_utxos, wait_p, wait_x, x_utxos};
