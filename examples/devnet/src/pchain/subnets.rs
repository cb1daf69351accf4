//! Subnets and their blockchains in the store: who owns each Subnet (set by its
//! CreateSubnetTx, changed by TransferSubnetOwnershipTx) and the chains created on it.

use crate::ledger::{self, Chain};
use crate::store::{self, Reader, StoreError};
use avalanche_rpc::codec::platform;
use avalanche_rpc::wire::Id;
use redb::{ReadableTable, WriteTransaction};

/// A Subnet's owner, with the transaction that set it.
#[derive(Debug, Clone)]
pub struct Owned {
    pub set_by: Id,
    pub owner: platform::Owner,
}

/// The owner of `subnet`, if it is a Subnet.
pub fn owner<R: Reader>(r: &R, subnet: &Id) -> Result<Option<Owned>, StoreError> {
    let set_by = {
        let t = r.table(store::P_SUBNETS)?;
        match t.get(subnet.as_bytes().as_slice())? {
            Some(v) => Id::new(v.value().try_into().expect("32 bytes")),
            None => return Ok(None),
        }
    };
    let stored = ledger::tx(r, Chain::P, &set_by)?
        .ok_or_else(|| StoreError::Invalid(format!("subnet owner tx {set_by} is not stored")))?;
    let tx = platform::Tx::from_bytes(&stored.bytes)
        .map_err(|e| StoreError::Invalid(format!("stored tx {set_by} does not decode: {e}")))?;
    // The kinds that set an owner (CreateSubnetTx, TransferSubnetOwnershipTx) are the ones
    // with an `owner`.
    let owner = tx
        .unsigned
        .owner()
        .cloned()
        .ok_or_else(|| StoreError::Invalid(format!("tx {set_by} sets no subnet owner")))?;
    Ok(Some(Owned { set_by, owner }))
}

/// Sets the owner of `subnet` to the one transaction `tx` names.
pub fn set_owner(w: &WriteTransaction, subnet: &Id, tx: &Id) -> Result<(), StoreError> {
    w.open_table(store::P_SUBNETS)?
        .insert(subnet.as_bytes().as_slice(), tx.as_bytes().as_slice())?;
    Ok(())
}

/// Every Subnet, by ID (the Primary Network not included).
pub fn all<R: Reader>(r: &R) -> Result<Vec<Id>, StoreError> {
    let t = r.table(store::P_SUBNETS)?;
    let mut out = Vec::new();
    for e in t.iter()? {
        out.push(Id::new(e?.0.value().try_into().expect("32 bytes")));
    }
    Ok(out)
}

/// Records a chain of `subnet`.
pub fn add_chain(w: &WriteTransaction, subnet: &Id, chain: &Id) -> Result<(), StoreError> {
    w.open_table(store::P_CHAINS)?.insert(
        store::key(&[subnet.as_bytes(), chain.as_bytes()]).as_slice(),
        (),
    )?;
    Ok(())
}

/// The chains of `subnet` (every Subnet's when `None`): (chain ID, its CreateChainTx).
pub fn chains<R: Reader>(
    r: &R,
    subnet: Option<&Id>,
) -> Result<Vec<(Id, platform::CreateChainTx)>, StoreError> {
    let t = r.table(store::P_CHAINS)?;
    let (start, end) = match subnet {
        Some(s) => (
            s.as_bytes().to_vec(),
            store::key(&[s.as_bytes(), &[0xff; 33]]),
        ),
        None => (Vec::new(), vec![0xff; 65]),
    };
    let mut out = Vec::new();
    for e in t.range(start.as_slice()..end.as_slice())? {
        let (k, _) = e?;
        let id = Id::new(k.value()[32..].try_into().expect("32 bytes"));
        let chain = create_chain(r, &id)?
            .ok_or_else(|| StoreError::Invalid(format!("chain {id} has no CreateChainTx")))?;
        out.push((id, chain));
    }
    Ok(out)
}

/// The CreateChainTx with ID `id`, if `id` names one.
pub fn create_chain<R: Reader>(
    r: &R,
    id: &Id,
) -> Result<Option<platform::CreateChainTx>, StoreError> {
    let Some(stored) = ledger::tx(r, Chain::P, id)? else {
        return Ok(None);
    };
    let tx = platform::Tx::from_bytes(&stored.bytes)
        .map_err(|e| StoreError::Invalid(format!("stored tx {id} does not decode: {e}")))?;
    // A type test: any other kind is not a chain.
    let platform::UnsignedTx::CreateChainTx(c) = tx.unsigned else {
        return Ok(None);
    };
    Ok(Some(*c))
}
