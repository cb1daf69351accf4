//! How the devnet's errors become JSON-RPC errors, in one place: a refused transaction and a
//! storage failure are the server errors (-32000) the node answers with, their text unchanged.

use crate::engine::Refused;
use crate::engine::refusal::Refusal;
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
