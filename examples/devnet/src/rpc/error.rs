//! How the devnet's errors become JSON-RPC errors, in one place: a refused transaction and a
//! storage failure are the server errors (-32000) the node answers with, their text unchanged.

use crate::engine::Refused;
use crate::secp::TxError;
use crate::store::StoreError;
use avalanche_rpc::rpc::RpcError;

impl From<StoreError> for RpcError {
    fn from(e: StoreError) -> Self {
        RpcError::server(e.to_string())
    }
}

impl From<Refused> for RpcError {
    fn from(e: Refused) -> Self {
        RpcError::server(e.to_string())
    }
}

impl From<TxError> for RpcError {
    fn from(e: TxError) -> Self {
        RpcError::server(e.0)
    }
}
