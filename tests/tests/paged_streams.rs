//! A paged method's stream is a value like any other: stored in a struct, returned from a
//! function, moved to a task, polled without pinning it first (it is `Unpin`).

mod common;

use avalanche_rpc::avm::{self, AvmClient, GetUtxosParams};
use avalanche_rpc::codec::avm::Utxo;
use avalanche_rpc::rpc::paging::PagedStream;
use avalanche_rpc::rpc::{Node, SpecExamples};

/// What an application keeps: the stream itself, not a borrow of the client. Its items are
/// the UTXOs read from their bytes (the checksum checked and stripped).
struct Holder {
    utxos: PagedStream<Utxo>,
}

fn open(node: &Node) -> Holder {
    // The spec's example params, which the example server answers.
    let address = "X-avax1lnk637g0edwnqc2tn8tel39652fswa3xmgyghf"
        .parse()
        .expect("an address");
    let mut params = GetUtxosParams::new(vec![address]);
    params.encoding = Some(avalanche_rpc::wire::Encoding::Hex);
    // The endpoint is a temporary: the stream owns a clone of it and its params.
    Holder {
        utxos: node.avm("X").get_utxos_stream(params),
    }
}

fn assert_unpin<T: Unpin>(_: &T) {}

#[tokio::test]
async fn a_paged_stream_is_stored_moved_to_a_task_and_polled_without_pinning() {
    let base = common::serve(avm::router(SpecExamples, "X")).await;
    let node = Node::http(&base).expect("client");
    let mut holder = open(&node);
    assert_unpin(&holder.utxos);
    let items = tokio::spawn(async move {
        let mut items = Vec::new();
        while let Some(item) = std::future::poll_fn(|cx| holder.utxos.as_mut().poll_next(cx)).await
        {
            items.push(item.expect("the spec's example page"));
        }
        items
    })
    .await
    .expect("the task");
    assert_eq!(
        items.len(),
        1,
        "the spec's example page: one UTXO, a short page, the last"
    );
    // The example's UTXO: output 1 of its transaction, 4.999 AVAX.
    assert_eq!(items[0].utxo_id.output_index, 1, "{:?}", items[0]);
    assert_eq!(
        items[0].utxo_id.tx_id.to_string(),
        "2AwdWGRsrAp5Qu8DFHVTRfzsYZe3KQ6NJfHYqBY57dXDBs9mRR"
    );
}
