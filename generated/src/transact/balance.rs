//! Balances built from UTXOs, as the node's deprecated `getBalance` methods should have been:
//! per asset, what the addresses can spend at a given time and what is locked until later
//! (a locktime; on the P-chain, a stake lock too). With feature `client`, [`x::balances`] and
//! [`p::balances`] read every page of UTXOs from a node first.
//!
//! [`x::balances`]: super::x::balances
//! [`p::balances`]: super::p::balances

use std::collections::BTreeSet;

use crate::codec::{avm, platform};
use crate::wire::{Id, ShortId};

use super::spend;

/// What some addresses hold of one asset on one chain, in its smallest unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Balance {
    /// The asset.
    pub asset: Id,
    /// What they can spend at the time asked: unlocked, and enough of each UTXO's owners.
    pub spendable: u64,
    /// What they own but cannot spend yet: locked until later (a locktime, or on the
    /// P-chain a stakeable lock).
    pub locked: u64,
}

impl Balance {
    /// Spendable and locked together.
    pub fn total(&self) -> u64 {
        self.spendable.saturating_add(self.locked)
    }
}

/// The assets of `utxos`, AVAX first (always, even at zero), then the others by ID, each once.
fn assets(avax: Id, of: impl Iterator<Item = Id>) -> Vec<Id> {
    let others: BTreeSet<Id> = of.filter(|a| *a != avax).collect();
    std::iter::once(avax).chain(others).collect()
}

/// The balances `owners` hold in X-chain `utxos` at `time` (Unix seconds), AVAX first, then
/// every other asset they hold any of.
pub fn of_x(avax: Id, utxos: &[avm::Utxo], owners: &[ShortId], time: u64) -> Vec<Balance> {
    let from: BTreeSet<ShortId> = owners.iter().copied().collect();
    assets(avax, utxos.iter().map(|u| u.asset_id))
        .into_iter()
        .map(|asset| {
            let (spendable, locked) = spend::x_funds(utxos, &from, &asset, time);
            Balance {
                asset,
                spendable,
                locked,
            }
        })
        .filter(|b| b.asset == avax || b.total() > 0)
        .collect()
}

/// The balances `owners` hold in P-chain `utxos` at `time`: a stakeable-locked output counts
/// as locked until its lock ends (it can stake, not pay).
pub fn of_p(avax: Id, utxos: &[platform::Utxo], owners: &[ShortId], time: u64) -> Vec<Balance> {
    let from: BTreeSet<ShortId> = owners.iter().copied().collect();
    assets(avax, utxos.iter().map(|u| u.asset_id))
        .into_iter()
        .map(|asset| {
            let (spendable, locked) = spend::p_funds(utxos, &from, &asset, time, false);
            Balance {
                asset,
                spendable,
                locked,
            }
        })
        .filter(|b| b.asset == avax || b.total() > 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{avax, secp256k1fx};

    fn owners(a: &[ShortId], threshold: u32, locktime: u64) -> secp256k1fx::OutputOwners {
        secp256k1fx::OutputOwners::new(locktime, threshold, a.to_vec())
    }

    #[test]
    fn x_balances_split_spendable_from_locked_and_skip_what_others_own() {
        let (avax, gold) = (Id::new([1; 32]), Id::new([9; 32]));
        let (me, you) = (ShortId::new([1; 20]), ShortId::new([2; 20]));
        let utxo = |n: u8, asset, amount, o| {
            avm::Utxo::new(
                avax::UtxoId::new(Id::new([n; 32]), 0),
                asset,
                secp256k1fx::TransferOutput::new(amount, o).into(),
            )
        };
        let utxos = [
            utxo(1, avax, 5, owners(&[me], 1, 0)),
            utxo(2, avax, 7, owners(&[me], 1, 2_000)),
            utxo(3, gold, 11, owners(&[me, you], 1, 0)),
            utxo(4, gold, 13, owners(&[me, you], 2, 0)),
            utxo(5, Id::new([5; 32]), 17, owners(&[you], 1, 0)),
        ];
        let b = of_x(avax, &utxos, &[me], 1_000);
        assert_eq!(
            b,
            [
                Balance {
                    asset: avax,
                    spendable: 5,
                    locked: 7
                },
                Balance {
                    asset: gold,
                    spendable: 11,
                    locked: 0
                },
            ],
            "the 2-of-2 gold and the other's asset are not mine to spend"
        );
        assert_eq!(of_x(avax, &utxos, &[me], 2_001)[0].spendable, 12);
        assert_eq!(
            of_x(avax, &[], &[me], 0),
            [Balance {
                asset: avax,
                spendable: 0,
                locked: 0
            }]
        );
    }

    #[test]
    fn p_balances_count_a_stake_lock_as_locked() {
        let avax = Id::new([1; 32]);
        let me = ShortId::new([1; 20]);
        let out = secp256k1fx::TransferOutput::new(40, owners(&[me], 1, 0));
        let utxos = [
            platform::Utxo::new(
                avax::UtxoId::new(Id::new([1; 32]), 0),
                avax,
                platform::LockOut::new(5_000, out.clone().into()).into(),
            ),
            platform::Utxo::new(avax::UtxoId::new(Id::new([2; 32]), 0), avax, out.into()),
        ];
        assert_eq!(
            of_p(avax, &utxos, &[me], 100)[0],
            Balance {
                asset: avax,
                spendable: 40,
                locked: 40
            }
        );
        assert_eq!(of_p(avax, &utxos, &[me], 5_001)[0].spendable, 80);
    }
}
