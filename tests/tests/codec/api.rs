//! The API's byte and JSON members read into the codec's types with one call: every example
//! of the spec whose result (or params) carries a codec value reads through the generated
//! `…_decoded` accessor, hex and JSON alike.

use avalanche_rpc::rpc::MethodInfo;
use avalanche_rpc::{avm, index, platform};
use serde::de::DeserializeOwned;

/// Each example of `method` read as `R` (its result, or its params with `params`), then
/// `check`ed; returns how many examples there were.
fn each<R: DeserializeOwned>(
    method: &MethodInfo,
    params: bool,
    check: impl Fn(&R) -> Result<usize, String>,
) -> usize {
    let mut n = 0;
    for e in method.examples {
        let text = if params { e.params } else { e.result };
        let value: R = serde_json::from_str(text)
            .unwrap_or_else(|err| panic!("{} {}: {err}", method.name, e.name));
        let count = check(&value).unwrap_or_else(|err| panic!("{} {}: {err}", method.name, e.name));
        n += count;
    }
    n
}

#[test]
fn x_chain_members_read_into_codec_types() {
    let mut n = 0;
    n += each(&avm::methods::GET_TX, false, |r: &avm::GetTxResult| {
        r.tx_decoded().map(|_| 1).map_err(|e| e.to_string())
    });
    n += each(
        &avm::methods::GET_BLOCK,
        false,
        |r: &avm::GetBlockResult| r.block_decoded().map(|_| 1).map_err(|e| e.to_string()),
    );
    n += each(
        &avm::methods::GET_BLOCK_BY_HEIGHT,
        false,
        |r: &avm::GetBlockByHeightResult| r.block_decoded().map(|_| 1).map_err(|e| e.to_string()),
    );
    n += each(
        &avm::methods::GET_UTXOS,
        false,
        |r: &avm::GetUtxosResult| {
            r.utxos_decoded()
                .map(|u| u.len())
                .map_err(|e| e.to_string())
        },
    );
    n += each(&avm::methods::ISSUE_TX, true, |p: &avm::IssueTxParams| {
        p.tx_decoded().map(|_| 1).map_err(|e| e.to_string())
    });
    assert!(n >= 8, "{n} values read");
}

#[test]
fn p_chain_members_read_into_codec_types() {
    let mut n = 0;
    n += each(
        &platform::methods::GET_TX,
        false,
        |r: &platform::GetTxResult| r.tx_decoded().map(|_| 1).map_err(|e| e.to_string()),
    );
    n += each(
        &platform::methods::GET_BLOCK,
        false,
        |r: &platform::GetBlockResult| r.block_decoded().map(|_| 1).map_err(|e| e.to_string()),
    );
    n += each(
        &platform::methods::GET_BLOCK_BY_HEIGHT,
        false,
        |r: &platform::GetBlockByHeightResult| {
            r.block_decoded().map(|_| 1).map_err(|e| e.to_string())
        },
    );
    n += each(
        &platform::methods::GET_UTXOS,
        false,
        |r: &platform::GetUtxosResult| {
            r.utxos_decoded()
                .map(|u| u.len())
                .map_err(|e| e.to_string())
        },
    );
    n += each(
        &platform::methods::GET_REWARD_UTXOS,
        false,
        |r: &platform::GetRewardUtxosResult| {
            r.utxos_decoded()
                .map(|u| u.len())
                .map_err(|e| e.to_string())
        },
    );
    n += each(
        &platform::methods::GET_STAKE,
        false,
        |r: &platform::GetStakeResult| {
            r.staked_outputs_decoded()
                .map(|o| o.len())
                .map_err(|e| e.to_string())
        },
    );
    n += each(
        &platform::methods::ISSUE_TX,
        true,
        |p: &platform::IssueTxParams| p.tx_decoded().map(|_| 1).map_err(|e| e.to_string()),
    );
    assert!(n >= 8, "{n} values read");
}

#[test]
fn index_containers_read_as_what_their_index_holds() {
    use avalanche_rpc::codec::{avm as x, proposervm};
    // The same schema serves block and transaction indexes: the path says which.
    fn containers(v: &serde_json::Value, out: &mut Vec<serde_json::Value>) {
        match v {
            serde_json::Value::Object(m) if m.contains_key("bytes") && m.contains_key("id") => {
                out.push(v.clone())
            }
            serde_json::Value::Object(m) => m.values().for_each(|v| containers(v, out)),
            serde_json::Value::Array(a) => a.iter().for_each(|v| containers(v, out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    for m in index::methods::ALL {
        for e in m.examples {
            containers(&serde_json::from_str(e.result).unwrap(), &mut found);
        }
    }
    let (mut blocks, mut txs) = (0, 0);
    for c in &found {
        let c: avalanche_rpc::types::Container = serde_json::from_value(c.clone()).unwrap();
        let bytes = c.bytes.strip_checksum().unwrap();
        if proposervm::Block::from_bytes(bytes).is_ok() {
            blocks += 1;
        } else {
            x::Tx::from_bytes(bytes)
                .unwrap_or_else(|err| panic!("{}: neither a proposer block nor a tx: {err}", c.id));
            txs += 1;
        }
    }
    assert!(
        blocks + txs >= 1,
        "{blocks} block and {txs} transaction containers"
    );
}
