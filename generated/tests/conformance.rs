//! `avax-rpc conformance` (feature `cli`) against a fake node on 127.0.0.1 that answers each
//! method with the spec's first example result: a faithful one shows no drift; one with
//! planted drift shows each, with its method and path; remote URLs need `--allow-remote`.
#![cfg(feature = "cli")]

use serde_json::{Value, json};
use std::collections::HashMap;
use std::process::Command;
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Every method's first example result, by wire name.
fn examples() -> HashMap<&'static str, Value> {
    let all = [
        avalanche_rpc::info::methods::ALL,
        avalanche_rpc::platform::methods::ALL,
        avalanche_rpc::avm::methods::ALL,
        avalanche_rpc::avm_static::methods::ALL,
        avalanche_rpc::index::methods::ALL,
        avalanche_rpc::proposervm::methods::ALL,
        avalanche_rpc::wallet::methods::ALL,
    ];
    all.iter()
        .flat_map(|l| l.iter())
        .filter_map(|m| {
            Some((
                m.name,
                serde_json::from_str(m.examples.first()?.result).ok()?,
            ))
        })
        .collect()
}

/// A node on 127.0.0.1 answering `method` with `answers[method]`, or "method not found".
async fn fake_node(answers: HashMap<&'static str, Value>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let answers = Arc::new(answers);
    tokio::spawn(async move {
        while let Ok((mut s, _)) = listener.accept().await {
            let answers = answers.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 8192];
                // Head, then as much body as Content-Length says.
                let body = loop {
                    let n = s.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
                        continue;
                    };
                    let head = String::from_utf8_lossy(&buf[..end]).to_lowercase();
                    let len: usize = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse().ok())
                        .unwrap_or(0);
                    if buf.len() >= end + 4 + len {
                        break buf[end + 4..end + 4 + len].to_vec();
                    }
                };
                let req: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let method = req["method"].as_str().unwrap_or("");
                let reply = match answers.get(method) {
                    Some(result) => json!({"jsonrpc": "2.0", "id": req["id"], "result": result}),
                    None => {
                        json!({"jsonrpc": "2.0", "id": req["id"], "error": {"code": -32601, "message": format!("rpc: can't find method \"{method}\"")}})
                    }
                };
                let text = reply.to_string();
                let _ = s
                    .write_all(format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}", text.len()).as_bytes())
                    .await;
            });
        }
    });
    format!("http://{addr}")
}

fn conformance(url: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_avax-rpc"))
        .args(["conformance", "--url", url, "--json", "--timeout", "5"])
        .args(extra)
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| json!({"stderr": String::from_utf8_lossy(&out.stderr)}));
    (out.status.code(), json)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_faithful_node_shows_no_drift() {
    let url = fake_node(examples()).await;
    let (code, report) = tokio::task::spawn_blocking(move || conformance(&url, &[]))
        .await
        .unwrap();
    assert_eq!(report["drift"], json!([]), "{report:#}");
    assert_eq!(code, Some(0));
    // Every read-only method was called (the three issueTx are not).
    assert!(report["calls"].as_u64().unwrap() >= 55, "{report:#}");
}

#[tokio::test(flavor = "multi_thread")]
async fn planted_drift_is_found_where_it_is() {
    let mut answers = examples();
    answers.get_mut("info.getNetworkID").unwrap()["bonus"] = json!(1);
    answers
        .get_mut("info.getNodeID")
        .unwrap()
        .as_object_mut()
        .unwrap()
        .remove("nodeID");
    let fee = answers.get_mut("platform.getFeeState").unwrap();
    fee["capacity"] = json!(fee["capacity"].to_string());
    answers.get_mut("platform.getTxStatus").unwrap()["status"] = json!("Bogus");
    answers.remove("info.getVMs");
    let url = fake_node(answers).await;
    let (code, report) = tokio::task::spawn_blocking(move || conformance(&url, &[]))
        .await
        .unwrap();
    assert_eq!(code, Some(1), "{report:#}");
    let found: Vec<(String, String, String)> = report["drift"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["method"].as_str().unwrap().into(),
                d["path"].as_str().unwrap().into(),
                d["kind"].as_str().unwrap().into(),
            )
        })
        .collect();
    let expect = |m: &str, p: &str, k: &str| (m.to_string(), p.to_string(), k.to_string());
    for planted in [
        expect("info.getNetworkID", "bonus", "extra-member"),
        expect("info.getNodeID", "nodeID", "missing-member"),
        expect("platform.getFeeState", "capacity", "type-mismatch"),
        expect("platform.getTxStatus", "status", "unknown-enum-value"),
        expect("info.getVMs", "(reply)", "method-not-served"),
    ] {
        assert!(found.contains(&planted), "{planted:?} not in {found:#?}");
    }
    assert_eq!(found.len(), 5, "nothing else: {found:#?}");
}

#[test]
fn remote_urls_need_allow_remote() {
    let (code, report) = conformance("http://203.0.113.9:9650", &[]);
    assert_eq!(code, Some(2));
    assert!(
        report["stderr"]
            .as_str()
            .unwrap()
            .contains("--allow-remote"),
        "{report}"
    );
}
