//! The codec: the `avm.getUTXOs` reply all the way to typed UTXOs (the reply decoded, each
//! UTXO's checksum verified and its bytes decoded into `avm::Utxo`), against
//! `serde_json::Value` of the same reply (what a client without the codec would have: text);
//! and a block of 1,000 signed transactions decoded from bytes, against `serde_json::Value`
//! of the block's JSON form (what `getBlock` with `encoding: json` returns), and the typed
//! read of that JSON form.

use std::hint::black_box;
use std::time::Duration;

use avalanche_rpc::codec::{Decode, Encode, FromJson, JsonContext, Reader, ToJson, Writer, avm};
use avalanche_rpc::wire::HexBytes;

use crate::data::{self, Fixtures};
use crate::decode::{generated_decode, per_op};
use crate::quiet::Quiet;
use crate::report::{Row, Unit};

/// Every UTXO of the reply, typed.
fn typed_utxos(body: &bytes::Bytes) -> Result<Vec<avm::Utxo>, String> {
    let reply: avalanche_rpc::avm::GetUtxosResult =
        generated_decode(&avalanche_rpc::avm::methods::GET_UTXOS, body)
            .map_err(|e| e.to_string())?;
    reply
        .utxos
        .iter()
        .map(|h: &HexBytes| {
            let bytes = h.strip_checksum().map_err(|e| e.to_string())?;
            avm::Utxo::from_bytes(bytes).map_err(|e| e.to_string())
        })
        .collect()
}

/// A block of `n` copies of a signed BaseTx with distinct memos, as bytes without the codec
/// version: 1,000 such transactions (500 KB) exceed the 256 KiB a real X-chain block may take,
/// so the block is read with the codec's reader, without the framing's limit.
fn block_bytes(n: usize) -> Vec<u8> {
    let tx = avm::Tx::from_bytes(&data::signed_x_base_tx()).expect("the fixture decodes");
    let txs: Vec<avm::Tx> = (0..n)
        .map(|i| {
            let mut t = tx.clone();
            if let avm::UnsignedTx::BaseTx(b) = &mut t.unsigned {
                b.base.memo = (i as u32).to_be_bytes().to_vec();
            }
            t
        })
        .collect();
    let block = avm::StandardBlock::new(
        avalanche_rpc::wire::Id::ZERO,
        1,
        1_700_000_000,
        avalanche_rpc::wire::Id::ZERO,
        txs,
    );
    let mut w = Writer::new();
    Encode::encode(&avm::Block::from(block), &mut w).expect("encodes");
    w.into_bytes()
}

fn decode_block(bytes: &[u8]) -> Result<avm::Block, String> {
    let mut r = Reader::new(bytes);
    let block = <avm::Block as Decode>::decode(&mut r).map_err(|e| e.to_string())?;
    r.finish().map_err(|e| e.to_string())?;
    Ok(block)
}

pub fn run(
    fixtures: &Fixtures,
    reps: usize,
    budget: Duration,
    quiet: &Quiet,
) -> Result<Vec<Row>, String> {
    let utxos = data::reply_body(&fixtures.utxos_json());
    let n = typed_utxos(&utxos)?.len();
    let block = block_bytes(1_000);
    let typed_block = decode_block(&block)?;
    let block_json = serde_json::to_vec(&typed_block.to_json(&JsonContext::for_network("X", 1)))
        .map_err(|e| e.to_string())?;
    decode_block(&block)?;

    let (mut typed, mut value, mut blk, mut blk_value) = (vec![], vec![], vec![], vec![]);
    let mut blk_json = vec![];
    for _ in 0..reps {
        typed.push(quiet.measure(&[], || {
            per_op(budget, || {
                black_box(typed_utxos(&utxos).expect("checked above"));
            })
        }));
        value.push(quiet.measure(&[], || {
            per_op(budget, || {
                black_box(serde_json::from_slice::<serde_json::Value>(&utxos).expect("JSON"));
            })
        }));
        blk.push(quiet.measure(&[], || {
            per_op(budget, || {
                black_box(decode_block(&block).expect("checked above"));
            })
        }));
        blk_value.push(quiet.measure(&[], || {
            per_op(budget, || {
                black_box(serde_json::from_slice::<serde_json::Value>(&block_json).expect("JSON"));
            })
        }));
        blk_json.push(quiet.measure(&[], || {
            per_op(budget, || {
                let v: serde_json::Value = serde_json::from_slice(&block_json).expect("JSON");
                black_box(avm::Block::from_json(&v, None).expect("the node's JSON form"));
            })
        }));
    }
    let per_utxo: Vec<f64> = typed.iter().map(|t| t / n as f64).collect();
    Ok(vec![
        Row::new(
            format!("Codec: `avm.getUTXOs` reply to {n} typed UTXOs (decode, checksums, `avm::Utxo::from_bytes`)"),
            Unit::Seconds,
            typed,
        )
        .against("`serde_json::Value` of the reply", value),
        Row::new("Codec: per typed UTXO (target under 2 µs)", Unit::Seconds, per_utxo),
        Row::new(
            format!("Codec: a block of 1,000 signed X-chain txs from bytes ({} KB)", block.len() / 1000),
            Unit::Seconds,
            blk,
        )
        .against("`serde_json::Value` of its JSON form", blk_value.clone()),
        Row::new(
            format!("Codec: the same block from its JSON form ({} KB, `Value` then `FromJson`)", block_json.len() / 1000),
            Unit::Seconds,
            blk_json,
        )
        .against("`serde_json::Value` of its JSON form", blk_value),
    ])
}
