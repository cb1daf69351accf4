//! The generated streams of the paged methods (`*_stream`, from the spec's `pagination:`)
//! against the devnet, each with more items than a page: every item comes once, in order, and
//! the sum matches the method that is not paged.

use crate::common::{self, Devnet, keychain, one, x_codec};
use avalanche_devnet::context::sign;
use avalanche_devnet::genesis::test_keys;
use avalanche_rpc::codec::{avm as codec_avm, platform as codec_p, secp256k1fx};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::rpc::paging;
use avalanche_rpc::transact::{BuildError, Context, Payer, p, x};
use avalanche_rpc::wire::{Address, HexBytes, Id, ShortId, U32, U64};
use std::collections::BTreeSet;

/// Outputs of each X-chain transaction below (a transaction has at most 64 KiB): five of
/// them give an address 3,200 UTXOs, four pages.
const N: u64 = 640;

/// A UTXO's amount and where it was produced (the stream decoded it).
fn x_utxo(u: &codec_avm::Utxo) -> (u64, (Id, u32)) {
    let codec_avm::UtxoOutput::Secp256k1fxTransferOutput(o) = &u.output else {
        panic!("not a transfer output: {u:?}")
    };
    (o.amount, (u.utxo_id.tx_id, u.utxo_id.output_index))
}

fn p_utxo(u: &codec_p::Utxo) -> (u64, (Id, u32)) {
    let codec_p::UtxoOutput::TransferOutput(o) = &u.output else {
        panic!("not a transfer output: {u:?}")
    };
    (o.amount, (u.utxo_id.tx_id, u.utxo_id.output_index))
}

/// The sum and the set of positions of `utxos`, which must all differ.
fn sum_once<U>(utxos: &[U], read: fn(&U) -> (u64, (Id, u32))) -> (u64, BTreeSet<(Id, u32)>) {
    let mut sum = 0;
    let mut at = BTreeSet::new();
    for u in utxos {
        let (amount, pos) = read(u);
        assert!(at.insert(pos), "{pos:?} came twice");
        sum += amount;
    }
    (sum, at)
}

/// `A` alone, and `A` or `B` (threshold 1): a UTXO of the second kind is listed under both.
fn owners(a: ShortId, b: ShortId) -> [secp256k1fx::OutputOwners; 2] {
    [one(a), secp256k1fx::OutputOwners::new(0, 1, vec![a, b])]
}

/// An X-chain transaction `build` makes from `payer`'s UTXOs, signed, issued and accepted.
async fn x_pay(
    d: &Devnet,
    payer: &PrivateKey,
    build: impl FnOnce(&Context, &[codec_avm::Utxo], &Payer) -> Result<x::Unsigned, BuildError>,
) -> Id {
    use avalanche_rpc::avm::{AvmClient, IssueTxParams};
    let utxos = x_codec(&d.utxos(&d.x_address(payer.address())).await);
    let tx = sign(build(&d.context(), &utxos, &d.payer(payer)), &keychain()).unwrap();
    let id = d
        .node
        .avm("X")
        .issue_tx(IssueTxParams::new(HexBytes::with_checksum(
            &tx.to_bytes().unwrap(),
        )))
        .await
        .unwrap()
        .tx_id;
    d.wait_accepted(&id).await;
    id
}

/// 40 `avm.getUTXOs` calls for 1,024 of `address`'s UTXOs each, in one batch: the reply holds
/// the full pages that fit in the default limit, then a -32003 for each other call.
async fn batch_of_full_pages_is_bounded(d: &Devnet, address: &Address) {
    use avalanche_rpc::rpc::{ServerConfig, Transport};
    const CALLS: usize = 40;
    let limit = ServerConfig::default().max_batch_reply_bytes;
    let address = serde_json::to_string(address).unwrap();
    let calls: Vec<String> = (0..CALLS)
        .map(|i| {
            format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"avm.getUTXOs","params":{{"addresses":[{address}],"limit":1024}}}}"#
            )
        })
        .collect();
    let body = format!("[{}]", calls.join(","));
    let reply = d
        .node
        .transport()
        .post("/ext/bc/X", body.into_bytes())
        .await
        .unwrap();
    assert_eq!(reply.status, 200);
    let size = reply.body.len();
    let replies: Vec<serde_json::Value> = serde_json::from_slice(&reply.body).unwrap();
    assert_eq!(replies.len(), CALLS);
    let fit = replies
        .iter()
        .take_while(|r| r.get("result").is_some())
        .count();
    let page = serde_json::to_string(&replies[0]).unwrap().len();
    eprintln!(
        "a batch of {CALLS} full pages: {size} bytes; {fit} replies of about {page} bytes fit"
    );
    assert!(fit > 0 && fit < CALLS, "{fit} of {CALLS} fit");
    assert!(size <= limit + CALLS * 400, "{size} bytes");
    for (i, r) in replies.iter().enumerate() {
        assert_eq!(r["id"], i, "{r}");
        if i < fit {
            assert_eq!(r["result"]["utxos"].as_array().unwrap().len(), 1024);
        } else {
            assert_eq!(r["error"]["code"], -32003, "{r}");
            assert_eq!(r["error"]["data"]["ran"], i == fit, "{r}");
            let message = r["error"]["message"].as_str().unwrap();
            assert!(
                message.contains(&format!("the limit of {limit} bytes")),
                "{message}"
            );
        }
    }
}

#[tokio::test]
async fn x_utxo_streams_walk_every_page_and_give_each_utxo_once() {
    use avalanche_rpc::avm::*;
    let d = Devnet::start(common::options()).await;
    let keys = test_keys();
    let payer = &keys[3];
    let (a, b) = (ShortId::new([0xa1; 20]), ShortId::new([0xb2; 20]));
    let (addr_a, addr_b) = (d.x_address(a), d.x_address(b));
    let avax = d.devnet.genesis.avax_asset_id;
    let xc = d.node.avm("X");
    let mut txs = Vec::new();
    // Three transactions pay A alone, two A or B.
    let [alone, shared] = owners(a, b);
    for (k, owners) in [&alone, &alone, &alone, &shared, &shared]
        .into_iter()
        .enumerate()
    {
        let outs: Vec<_> = (0..N)
            .map(|i| x::output(avax, 1_000 + k as u64 * N + i, owners.clone()))
            .collect();
        txs.push(x_pay(&d, payer, |c, u, pay| x::base_tx(c, u, pay, &outs)).await);
    }

    // A's own listing: four pages, 3,200 UTXOs, their sum the balance.
    let only_a = paging::collect(xc.get_utxos_stream(GetUtxosParams::new(vec![addr_a.clone()])))
        .await
        .unwrap();
    assert_eq!(only_a.len() as u64, 5 * N);
    let (sum, at_a) = sum_once(&only_a, x_utxo);
    let balance = xc
        .get_balance(GetBalanceParams::new(addr_a.clone(), "AVAX").with_include_partial(true))
        .await
        .unwrap()
        .balance
        .get();
    assert_eq!(sum, balance);
    assert_eq!(sum, (0..5 * N).map(|i| 1_000 + i).sum::<u64>());

    // A batch of 40 full pages of A's UTXOs would be 40 × 1,024 of them: the replies stop at
    // the server's limit (4 MiB); the calls past it get -32003 with their ids and are not run.
    batch_of_full_pages_is_bounded(&d, &addr_a).await;

    // A and B: B's 1,280 are A's last 1,280 again, on later pages than A's.
    let both = vec![addr_a.clone(), addr_b.clone()];
    let mut raw = 0;
    let mut params = GetUtxosParams::new(both.clone());
    loop {
        let page = xc.get_utxos(params.clone()).await.unwrap();
        raw += page.utxos.len();
        if page.num_fetched.get() < 1024 {
            break;
        }
        params.start_index = Some(page.end_index);
    }
    assert!(
        raw > (5 * N) as usize,
        "the pages overlap: {raw} UTXOs listed in all"
    );
    for size in [None, Some(700), Some(5_000)] {
        let mut params = GetUtxosParams::new(both.clone());
        params.limit = size.map(U32);
        let got = paging::collect(xc.get_utxos_stream(params)).await.unwrap();
        let (s, at) = sum_once(&got, x_utxo);
        assert_eq!((s, &at), (sum, &at_a), "page size {size:?}");
    }

    // The address's transactions, one a page: all five, in order, as one call lists them.
    let mut params = GetAddressTxsParams::new(addr_a.clone(), "AVAX");
    params.page_size = Some(U64(1));
    let paged = paging::collect(xc.get_address_txs_stream(params))
        .await
        .unwrap();
    let whole = xc
        .get_address_txs(GetAddressTxsParams::new(addr_a, "AVAX"))
        .await
        .unwrap()
        .tx_ids
        .unwrap_or_default();
    assert_eq!(paged, whole);
    assert_eq!(paged, txs);

    // The X-chain's block index, one, two and 1,024 containers a page (one a page is an exact
    // fit: the page past the end is the node's error, read as the end).
    use avalanche_rpc::index::{GetContainerRangeParams, GetLastAcceptedParams, IndexClient};
    let index = d.node.index("X", "block");
    let last = index
        .get_last_accepted(GetLastAcceptedParams::new())
        .await
        .unwrap()
        .index
        .get();
    assert!(last + 1 >= 5, "the index holds at least the five blocks");
    let mut ids = None;
    for size in [1024, 1, 2] {
        let got = paging::collect(
            index.get_container_range_stream(GetContainerRangeParams::new(U64(size))),
        )
        .await
        .unwrap();
        let positions: Vec<u64> = got.iter().map(|c| c.index.get()).collect();
        assert_eq!(
            positions,
            (0..=last).collect::<Vec<_>>(),
            "page size {size}"
        );
        let these: Vec<Id> = got.iter().map(|c| c.id).collect();
        assert_eq!(ids.get_or_insert_with(|| these.clone()), &these);
    }
    // An index with nothing in it: the node's error for it is the end of an empty stream.
    let empty = d.node.index("X", "tx");
    assert!(
        empty
            .get_last_accepted(GetLastAcceptedParams::new())
            .await
            .is_err()
    );
    let none =
        paging::collect(empty.get_container_range_stream(GetContainerRangeParams::new(U64(10))))
            .await
            .unwrap();
    assert!(none.is_empty());
    d.stop().await;
}

#[tokio::test]
async fn p_utxo_streams_walk_every_page_and_give_each_utxo_once() {
    use avalanche_rpc::platform::*;
    let d = Devnet::start(common::options()).await;
    let keys = test_keys();
    let payer = &keys[4];
    let (a, b) = (ShortId::new([0xa3; 20]), ShortId::new([0xb4; 20]));
    let p_addr = |s: ShortId| Address::new(Some("P"), "local", *s.as_bytes()).unwrap();
    let (addr_a, addr_b) = (p_addr(a), p_addr(b));
    let avax = d.devnet.genesis.avax_asset_id;
    // Two transactions pay A alone, one A or B: 1,050 UTXOs. Each uses most of the P-chain's
    // gas capacity, so the clock moves on to refill it.
    let [alone, shared] = owners(a, b);
    const M: u64 = 350;
    use avalanche_rpc::devnet::{AdvanceClockParams, DevnetClient};
    for (k, owners) in [&alone, &alone, &shared].into_iter().enumerate() {
        d.node
            .devnet()
            .advance_clock(AdvanceClockParams::new(60u64))
            .await
            .unwrap();
        let outs: Vec<_> = (0..M)
            .map(|i| p::output(avax, 1_000 + k as u64 * M + i, owners.clone()))
            .collect();
        d.p_do(payer, |c, u, pay| p::base_tx(c, u, pay, &outs))
            .await
            .unwrap();
    }
    let pc = d.node.platform();
    let both = vec![addr_a.clone(), addr_b.clone()];
    let got = paging::collect(pc.get_utxos_stream(GetUtxosParams::new(both.clone())))
        .await
        .unwrap();
    let (sum, at) = sum_once(&got, p_utxo);
    assert_eq!(at.len() as u64, 3 * M);
    let balance = pc
        .get_balance(GetBalanceParams::new().with_addresses(both.clone()))
        .await
        .unwrap()
        .balance
        .get();
    assert_eq!(sum, balance);
    let mut params = GetUtxosParams::new(both);
    params.limit = Some(U32(300));
    let small = paging::collect(pc.get_utxos_stream(params)).await.unwrap();
    assert_eq!(sum_once(&small, p_utxo), (sum, at));

    // Exports from the X-chain, read with `sourceChain`: more than a page, in two exports.
    let xpayer = &keys[1];
    let mut exports = Vec::new();
    for k in 0..2 {
        let outs: Vec<_> = (0..550)
            .map(|i| x::output(avax, 2_000 + k * 550 + i, one(a)))
            .collect();
        exports.push(
            x_pay(&d, xpayer, |c, u, pay| {
                x::export_tx(c, u, pay, Id::ZERO, &outs)
            })
            .await,
        );
    }
    let mut params = GetUtxosParams::new(vec![addr_a]);
    params.source_chain = Some("X".into());
    let atomic = paging::collect(pc.get_utxos_stream(params)).await.unwrap();
    let (s, at) = sum_once(&atomic, p_utxo);
    assert_eq!(at.len(), 1_100);
    assert_eq!(s, (0..1_100).map(|i| 2_000 + i).sum::<u64>());
    assert!(at.iter().all(|(tx, _)| exports.contains(tx)));
    d.stop().await;
}
