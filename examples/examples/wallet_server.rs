//! A server in a few lines: implement a generated server trait, mount its router.
//! `cargo run -p avalanche-rpc-examples --example wallet_server`, then
//! `curl -s 127.0.0.1:9651/ext/bc/X/wallet -H 'content-type: application/json' \
//!    -d '{"jsonrpc":"2.0","id":1,"method":"wallet.issueTx","params":{"tx":"0x00000a09cfc7"}}'`

use avalanche_rpc::rpc::{RpcError, ServerConfig, serve};
use avalanche_rpc::wallet::{self, IssueTxParams, IssueTxResult, WalletServer};
use avalanche_rpc::wire::Id;

/// Accepts any well-formed transaction and answers its ID (the SHA-256 of its bytes).
struct Wallet;

impl WalletServer for Wallet {
    async fn issue_tx(&self, params: IssueTxParams) -> Result<IssueTxResult, RpcError> {
        let encoding = params.encoding.unwrap_or_default();
        let bytes = encoding
            .decode(&params.tx.to_string())
            .map_err(|e| RpcError::invalid_params("tx", e.to_string()))?;
        Ok(IssueTxResult::new(Id::from_sha256(&bytes)))
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:9651").await?;
    println!(
        "wallet.issueTx on http://{}/ext/bc/X/wallet",
        listener.local_addr()?
    );
    serve(
        listener,
        wallet::router(Wallet, "X"),
        ServerConfig::default(),
    )
    .await
}
