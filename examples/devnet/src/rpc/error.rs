//! How the devnet's errors become JSON-RPC errors, in one place: a refused transaction and a
//! storage failure are the server errors (-32000) the node answers with, their text unchanged.

use crate::devnet::AcceptError;
use crate::engine::Refused;
use crate::refusal::Refusal;
use crate::store::StoreError;
use avalanche_rpc::rpc::RpcError;

impl From<StoreError> for RpcError {
    fn from(e: StoreError) -> Self {
        RpcError::server(e.to_string())
    }
}

impl From<Refused> for RpcError {
    fn from(e: Refused) -> Self {
        Refusal::from(e).into()
    }
}

/// The words as the message; the devnet's detail, if any, as `data.detail`.
impl From<Refusal> for RpcError {
    fn from(e: Refusal) -> Self {
        let error = RpcError::server(e.words);
        match e.detail {
            Some(detail) => error.with_data(serde_json::json!({ "detail": detail })),
            None => error,
        }
    }
}

/// Each case as it would be alone: `issueTx`'s refusal, the devnet's, the store's failure.
impl From<AcceptError> for RpcError {
    fn from(e: AcceptError) -> Self {
        match e {
            AcceptError::Issue(r) => r.into(),
            AcceptError::Refused(r) => r.into(),
            AcceptError::Store(e) => e.into(),
        }
    }
}
