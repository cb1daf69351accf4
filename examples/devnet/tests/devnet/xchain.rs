//! The devnet over HTTP on 127.0.0.1, through the generated client: a transfer goes through
//! issueTx, the mempool and a block, and every X-chain and index method then agrees with the
//! others.

// The devnet serves the deprecated methods too; calling them is the point.
use crate::common::{self, Devnet, keychain, one, x_codec};
use avalanche_devnet::context::{sign, sign_as};
use avalanche_devnet::genesis::{AVAX, test_keys};
use avalanche_rpc::avm::*;
use avalanche_rpc::codec::{avm as codec_avm, proposervm};
use avalanche_rpc::index::*;
use avalanche_rpc::transact::x;
use avalanche_rpc::types::UtxoIndex;
use avalanche_rpc::wire::{Address, Encoding, HexBytes, HexOrJson, Id};

#[tokio::test]
async fn a_transfer_is_accepted_and_every_method_agrees() {
    let d = Devnet::start(common::options()).await;
    let x = d.node.avm("X");
    let keys = test_keys();
    let (from, to) = (&keys[1], &keys[2]);
    let (from_addr, to_addr) = (d.x_address(from.address()), d.x_address(to.address()));
    let avax = d.devnet.genesis.avax_asset_id;

    let before_from = d.balance(&from_addr, "AVAX").await;
    let before_to = d.balance(&to_addr, "AVAX").await;
    assert_eq!(before_from, 1_000_000 * AVAX);
    assert_eq!(
        x.get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        0
    );

    // Build, sign and issue a transfer of 5 AVAX from the UTXOs the API returns.
    let utxos = x_codec(&d.utxos(&from_addr).await);
    let pay = [x::output(avax, 5 * AVAX, one(to.address()))];
    let built = x::base_tx(&d.context(), &utxos, &d.payer(from), &pay);
    let tx = sign(built, &keychain()).unwrap();
    let bytes = tx.to_bytes().unwrap();
    let issued = x
        .issue_tx(IssueTxParams::new(HexBytes::with_checksum(&bytes)))
        .await
        .unwrap();
    assert_eq!(issued.tx_id, Id::from_sha256(&bytes));
    d.wait_accepted(&issued.tx_id).await;

    // Balances moved by the amount and the fee, and equal the sum of their UTXOs.
    let fee = d.devnet.x.vm.rules.tx_fee;
    assert_eq!(
        d.balance(&from_addr, "AVAX").await,
        before_from - 5 * AVAX - fee
    );
    assert_eq!(d.balance(&to_addr, "AVAX").await, before_to + 5 * AVAX);
    for a in [&from_addr, &to_addr] {
        let sum: u64 = d
            .utxos(a)
            .await
            .iter()
            .filter(|u| u.utxo.asset_id == avax)
            .filter_map(|u| u.amount())
            .sum();
        assert_eq!(sum, d.balance(a, "AVAX").await, "{a}");
    }

    // The block: height 1, holding the tx, its parent the genesis block.
    let height = x
        .get_height(GetHeightParams::new())
        .await
        .unwrap()
        .height
        .get();
    assert_eq!(height, 1);
    let block = x
        .get_block_by_height(GetBlockByHeightParams::new().with_height(1u64))
        .await
        .unwrap();
    let HexOrJson::Hex(block_hex) = &block.block else {
        panic!("hex by default")
    };
    let block_bytes = block_hex.strip_checksum().unwrap().to_vec();
    let codec_avm::Block::StandardBlock(b) = codec_avm::Block::from_bytes(&block_bytes).unwrap()
    else {
        panic!()
    };
    assert_eq!(b.txs, vec![tx.clone()]);
    let genesis = x
        .get_block_by_height(GetBlockByHeightParams::new().with_height(0u64))
        .await
        .unwrap();
    let HexOrJson::Hex(g) = &genesis.block else {
        panic!()
    };
    assert_eq!(b.parent_id, Id::from_sha256(g.strip_checksum().unwrap()));
    let block_id = Id::from_sha256(&block_bytes);
    let by_id = x
        .get_block(GetBlockParams::new(block_id).with_encoding(Encoding::Json))
        .await
        .unwrap();
    let HexOrJson::Json(json) = &by_id.block else {
        panic!("json asked")
    };
    assert_eq!(json["height"], 1);
    assert_eq!(json["txs"][0]["id"], issued.tx_id.to_string());

    // getTx in both forms; status Accepted; an unknown tx Unknown.
    let got = x.get_tx(GetTxParams::new(issued.tx_id)).await.unwrap();
    let HexOrJson::Hex(h) = &got.tx else { panic!() };
    assert_eq!(h.strip_checksum().unwrap(), bytes.as_slice());
    let status = x
        .get_tx_status(GetTxStatusParams::new(issued.tx_id))
        .await
        .unwrap();
    assert_eq!(status.status, AvmTxStatus::Accepted);
    let unknown = x
        .get_tx_status(GetTxStatusParams::new(Id::from_sha256(b"nothing")))
        .await
        .unwrap();
    assert_eq!(unknown.status, AvmTxStatus::Unknown);

    // getAddressTxs: the tx changed both addresses' AVAX.
    for a in [&from_addr, &to_addr] {
        let txs = x
            .get_address_txs(GetAddressTxsParams::new(a.clone(), "AVAX"))
            .await
            .unwrap();
        assert!(
            txs.tx_ids.unwrap_or_default().contains(&issued.tx_id),
            "{a}"
        );
    }

    // The index: container 0 is the proposervm block wrapping block 1.
    let index = d.node.index("X", "block");
    let last = index
        .get_last_accepted(GetLastAcceptedParams::new())
        .await
        .unwrap();
    assert_eq!(last.index.get(), 0);
    let wrapper = proposervm::Block::from_bytes(last.bytes.strip_checksum().unwrap()).unwrap();
    assert_eq!(wrapper.id().unwrap(), last.id);
    // The first wrapper on the genesis block is a StatelessBlock with no epoch, as the node's
    // (`vms/proposervm/pre_fork_block.go`), unsigned, at the P-chain's height.
    let proposervm::Block::StatelessBlock(s) = &wrapper else {
        panic!("a StatelessBlock")
    };
    assert_eq!(s.block, block_bytes);
    assert_eq!(s.parent_id, b.parent_id);
    assert!(s.certificate.is_empty() && s.signature.is_empty());
    let by_id = index
        .get_container_by_id(GetContainerByIdParams::new(last.id))
        .await
        .unwrap();
    assert_eq!(by_id.bytes, last.bytes);
    let i = index.get_index(GetIndexParams::new(last.id)).await.unwrap();
    assert_eq!(i.index.get(), 0);
    assert!(
        index
            .is_accepted(IsAcceptedParams::new(last.id))
            .await
            .unwrap()
            .is_accepted
    );
    assert!(
        !index
            .is_accepted(IsAcceptedParams::new(block_id))
            .await
            .unwrap()
            .is_accepted
    );

    // Spending the same UTXOs again is refused, naming the input.
    let pay = [x::output(avax, AVAX, one(to.address()))];
    let built = x::base_tx(&d.context(), &utxos, &d.payer(from), &pay);
    let again = sign(built, &keychain()).unwrap();
    let e = x
        .issue_tx(IssueTxParams::new(HexBytes::with_checksum(
            &again.to_bytes().unwrap(),
        )))
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("failed to verify transfer: failed to get utxo"),
        "{e}"
    );
}

#[tokio::test]
async fn bad_transactions_are_refused_with_the_reason() {
    let d = Devnet::start(common::options()).await;
    let x = d.node.avm("X");
    let keys = test_keys();
    let addr = d.x_address(keys[1].address());
    let utxos = x_codec(&d.utxos(&addr).await);
    let pay = |amount: u64| {
        let out = [x::output(
            d.devnet.genesis.avax_asset_id,
            amount,
            one(keys[3].address()),
        )];
        let built = x::base_tx(&d.context(), &utxos, &d.payer(&keys[1]), &out);
        sign(built, &keychain()).unwrap()
    };
    let issue = |tx: codec_avm::Tx| {
        let x = x.clone();
        async move {
            x.issue_tx(IssueTxParams::new(HexBytes::with_checksum(
                &tx.to_bytes().unwrap(),
            )))
            .await
            .map(|_| ())
            .map_err(common::said)
            .unwrap_err()
        }
    };
    // Signed by the wrong key.
    let mut forged = pay(AVAX);
    let other = sign_as(forged.unsigned.clone(), &[&keys[4]]).unwrap();
    forged.credentials = other.credentials;
    let e = issue(forged).await;
    assert!(
        e.contains("signature 0 is by") && e.contains("not by the owner"),
        "{e}"
    );
    // No credential.
    let mut bare = pay(AVAX);
    bare.credentials.clear();
    let e = issue(bare).await;
    assert!(e.contains("has 0 credentials but 1 inputs"), "{e}");
    // Another network's transaction.
    let mut cx = d.context();
    cx.network_id = 1;
    let foreign = sign(
        x::base_tx(&cx, &utxos, &d.payer(&keys[1]), &[]),
        &keychain(),
    )
    .unwrap();
    let e = issue(foreign).await;
    assert!(e.contains("`unsignedTx.networkID` is 1"), "{e}");
    // Outputs worth more than the inputs.
    let mut greedy = pay(AVAX);
    if let codec_avm::UnsignedTx::BaseTx(b) = &mut greedy.unsigned {
        let codec_avm::TransferableOut::TransferOutput(o) = &mut b.base.outputs[0].output else {
            panic!()
        };
        o.amount += 1;
    }
    let greedy = sign_as(greedy.unsigned, &[&keys[1]]).unwrap();
    let e = issue(greedy).await;
    assert!(e.contains("insufficient funds"), "{e}");
    // Bytes that do not decode: the node's codec's words; the offset in the detail.
    let e = x
        .issue_tx(IssueTxParams::new(HexBytes::with_checksum(&[
            0, 0, 0, 0, 0, 0,
        ])))
        .await
        .map(|_| ())
        .map_err(common::said)
        .unwrap_err();
    assert!(
        e.contains("-32000: packer has insufficient length for input") && e.contains("at byte"),
        "{e}"
    );
    // Nothing was accepted.
    assert_eq!(
        x.get_height(GetHeightParams::new())
            .await
            .unwrap()
            .height
            .get(),
        0
    );
}

#[tokio::test]
async fn get_utxos_pages_through_every_utxo_once() {
    let d = Devnet::start(common::options()).await;
    let x = d.node.avm("X");
    let keys = test_keys();
    let addrs: Vec<Address> = keys.iter().map(|k| d.x_address(k.address())).collect();
    let mut all = Vec::new();
    for a in &addrs {
        all.extend(d.utxos(a).await.into_iter().map(|u| u.id));
    }
    all.sort();
    // Pages of 2 from the start, each continuing at the previous endIndex.
    let mut seen = Vec::new();
    let mut start: Option<UtxoIndex> = None;
    loop {
        let mut p = GetUtxosParams::new(addrs.clone()).with_limit(2u32);
        if let Some(s) = start.take() {
            p = p.with_start_index(s);
        }
        let page = x.get_utxos(p).await.unwrap();
        for u in &page.utxos {
            let u = codec_avm::Utxo::from_bytes(u.strip_checksum().unwrap()).unwrap();
            seen.push(u.utxo_id.id());
        }
        assert!(page.num_fetched.get() <= 2);
        if page.num_fetched.get() < 2 {
            break;
        }
        start = Some(page.end_index);
    }
    seen.sort();
    assert_eq!(seen, all);
    // The limit is clamped at 1024; no addresses, a half start index and json are refused.
    let page = x
        .get_utxos(GetUtxosParams::new(addrs.clone()).with_limit(5000u32))
        .await
        .unwrap();
    assert_eq!(page.num_fetched.get() as usize, all.len());
    let e = x
        .get_utxos(GetUtxosParams::new(Vec::new()))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("no addresses provided"), "{e}");
    let e = x
        .get_utxos(
            GetUtxosParams::new(addrs.clone())
                .with_start_index(UtxoIndex::new(addrs[0].to_string(), "")),
        )
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("couldn't parse start index utxo"),
        "{e}"
    );
    // Another network's address.
    let foreign = Address::new(Some("X"), "avax", *keys[0].address().as_bytes()).unwrap();
    let e = x
        .get_utxos(GetUtxosParams::new(vec![foreign]))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("but got \"avax\""), "{e}");
}

#[tokio::test]
async fn the_index_follows_the_nodes_range_rules() {
    let d = Devnet::start(common::options()).await;
    let index = d.node.index("X", "block");
    let e = index
        .get_container_range(GetContainerRangeParams::new(1u64))
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("no containers have been accepted"),
        "{e}"
    );
    // Three blocks.
    let keys = test_keys();
    for n in 0..3u64 {
        d.transfer(&keys[1], keys[2].address(), AVAX + n).await;
    }
    let e = index
        .get_container_range(GetContainerRangeParams::new(0u64))
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("numToFetch must be in [1,1024] but is 0"),
        "{e}"
    );
    let e = index
        .get_container_range(GetContainerRangeParams::new(1025u64))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("but is 1025"), "{e}");
    let e = index
        .get_container_range(GetContainerRangeParams::new(1u64).with_start_index(3u64))
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("start index (3) > last accepted index (2)"),
        "{e}"
    );
    // Past the end: what exists.
    let r = index
        .get_container_range(GetContainerRangeParams::new(10u64).with_start_index(1u64))
        .await
        .unwrap();
    let numbers: Vec<u64> = r.containers.iter().map(|c| c.index.get()).collect();
    assert_eq!(numbers, [1, 2]);
    // Each container by index and by ID; timestamps do not go back; heights follow.
    let mut last_time = None;
    for n in 0..3u64 {
        let c = index
            .get_container_by_index(GetContainerByIndexParams::new().with_index(n))
            .await
            .unwrap();
        let again = index
            .get_container_by_id(GetContainerByIdParams::new(c.id))
            .await
            .unwrap();
        assert_eq!(again.index.get(), n);
        let w = proposervm::Block::from_bytes(c.bytes.strip_checksum().unwrap()).unwrap();
        // Epoch 1 opens on the first wrapper, at its time.
        if let proposervm::Block::GraniteBlock(g) = &w
            && n == 1
        {
            assert_eq!(g.epoch_number, 1);
        }
        let codec_avm::Block::StandardBlock(b) =
            codec_avm::Block::from_bytes(w.block().expect("a proposer block")).unwrap()
        else {
            panic!()
        };
        assert_eq!(
            b.height,
            n + 1,
            "container n wraps the block at height n + 1"
        );
        if let Some(t) = last_time {
            assert!(c.timestamp.cmp_instant(&t).is_ge());
        }
        last_time = Some(c.timestamp);
    }
    let e = index
        .get_container_by_index(GetContainerByIndexParams::new().with_index(3u64))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("no container at index 3"), "{e}");
    // The X tx index stays empty on a linearized chain, as the node's does.
    let txs = d.node.index("X", "tx");
    let e = txs
        .get_last_accepted(GetLastAcceptedParams::new())
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("no containers have been accepted"),
        "{e}"
    );
}
