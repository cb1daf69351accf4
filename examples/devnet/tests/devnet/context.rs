//! The context the devnet's own transactions are built with (`avalanche_devnet::context`) is
//! the one a wallet reads from it over HTTP (`transact::Context::from_node`), the P-chain's
//! fee state aside (read at the last block's time there, now with the margin here).

use crate::common::{self, Devnet};
use avalanche_devnet::context::P_PRICE_MARGIN;
use avalanche_rpc::transact::Context;

#[tokio::test]
async fn the_devnet_builds_with_the_context_a_wallet_reads_from_it() {
    let d = Devnet::start(common::options()).await;
    let read = Context::from_node(&d.node).await.unwrap();
    let own = d.context();
    assert_eq!(
        own.p_fee_state.price,
        read.p_fee_state.price * P_PRICE_MARGIN
    );
    assert_eq!(
        Context {
            p_fee_state: read.p_fee_state,
            ..own
        },
        read
    );
}
