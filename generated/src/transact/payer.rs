//! Who pays: the addresses whose UTXOs a builder may spend, where change goes, the memo, and
//! the time the transaction is built for (AvalancheJS's `fromAddresses`, `changeAddresses`,
//! `memo`, `minIssuanceTime`). Building reads no clock: the time is given.

use std::collections::BTreeSet;

use crate::codec::secp256k1fx;
use crate::wire::ShortId;

use super::error::BuildError;
use super::keychain::Keychain;

/// The node's longest memo (`avax.MaxMemoSize`).
pub const MAX_MEMO: usize = 256;

/// Who pays for a transaction and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payer {
    /// The addresses whose UTXOs may be spent.
    pub from: Vec<ShortId>,
    /// The addresses change goes to (all of `from` when `None`).
    pub change: Option<Vec<ShortId>>,
    /// How many of the change addresses must sign to spend the change (X-chain; the
    /// P-chain's change is 1-of-n, as AvalancheJS writes it).
    pub change_threshold: u32,
    /// The memo (at most 256 bytes).
    pub memo: Vec<u8>,
    /// Unix time (seconds) the transaction is built for: UTXOs locked until later are not
    /// spent.
    pub time: u64,
}

impl Payer {
    /// `from` pays at `time`, change to `from`, no memo.
    pub fn new(from: Vec<ShortId>, time: u64) -> Payer {
        Payer {
            from,
            change: None,
            change_threshold: 1,
            memo: Vec::new(),
            time,
        }
    }

    /// Every address of a keychain pays.
    pub fn of(keys: &Keychain, time: u64) -> Payer {
        Payer::new(keys.addresses(), time)
    }

    /// Change to these addresses.
    pub fn change_to(mut self, change: Vec<ShortId>) -> Payer {
        self.change = Some(change);
        self
    }

    /// This memo.
    pub fn with_memo(mut self, memo: impl Into<Vec<u8>>) -> Payer {
        self.memo = memo.into();
        self
    }

    pub(crate) fn spenders(&self) -> Result<BTreeSet<ShortId>, BuildError> {
        if self.from.is_empty() {
            return Err(BuildError::invalid(
                "from",
                "no address to spend from: give the payer's addresses",
            ));
        }
        if self.memo.len() > MAX_MEMO {
            return Err(BuildError::invalid(
                "memo",
                format!(
                    "{} bytes; the node takes at most {MAX_MEMO}",
                    self.memo.len()
                ),
            ));
        }
        Ok(self.from.iter().copied().collect())
    }

    /// The owners of change outputs: the change addresses (sorted, as the node requires),
    /// with the change threshold (`threshold` 1 on the P-chain).
    pub(crate) fn change_owners(
        &self,
        threshold: u32,
    ) -> Result<secp256k1fx::OutputOwners, BuildError> {
        let addresses = self.change.as_ref().unwrap_or(&self.from);
        owners("change", addresses, threshold, 0)
    }
}

/// Output owners from addresses in any order: sorted and without repeats, as the node
/// requires; `threshold` between 1 and their number (0 only with none).
pub fn owners(
    field: &str,
    addresses: &[ShortId],
    threshold: u32,
    locktime: u64,
) -> Result<secp256k1fx::OutputOwners, BuildError> {
    let mut sorted = addresses.to_vec();
    sorted.sort();
    sorted.dedup();
    check_threshold(field, threshold, sorted.len())?;
    Ok(secp256k1fx::OutputOwners::new(locktime, threshold, sorted))
}

/// The node's rule for a threshold over `n` addresses.
pub(crate) fn check_threshold(field: &str, threshold: u32, n: usize) -> Result<(), BuildError> {
    if threshold as usize > n {
        return Err(BuildError::invalid(
            field,
            format!("threshold {threshold} is more than the {n} address(es)"),
        ));
    }
    if threshold == 0 && n > 0 {
        return Err(BuildError::invalid(
            field,
            "threshold 0 with addresses: anyone could spend it; give at least 1",
        ));
    }
    Ok(())
}

/// The node's rules for owners given as codec values: addresses sorted and unique, the
/// threshold in range.
pub(crate) fn check_owners(field: &str, o: &secp256k1fx::OutputOwners) -> Result<(), BuildError> {
    if o.addresses.windows(2).any(|w| w[0] >= w[1]) {
        return Err(BuildError::invalid(
            format!("{field}.addresses"),
            "not sorted and unique (build owners with `transact::owners`, which sorts them)",
        ));
    }
    check_threshold(
        &format!("{field}.threshold"),
        o.threshold,
        o.addresses.len(),
    )
}
