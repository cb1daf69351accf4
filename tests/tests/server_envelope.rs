//! The generated server's JSON-RPC envelope, over real HTTP: each bad input gets its code and
//! a message that names what was wrong.

mod common;

use serde_json::{Value, json};

struct Reply {
    status: u16,
    content_type: String,
    body: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }
    fn error(&self) -> (i64, String, Value) {
        let v = self.json();
        let e = &v["error"];
        (
            e["code"].as_i64().expect("error.code"),
            e["message"].as_str().expect("error.message").into(),
            e["data"].clone(),
        )
    }
}

async fn post(base: &str, path: &str, content_type: Option<&str>, body: impl AsRef<[u8]>) -> Reply {
    let mut req = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .body(body.as_ref().to_vec());
    if let Some(ct) = content_type {
        req = req.header("content-type", ct);
    }
    let r = req.send().await.expect("request");
    let status = r.status().as_u16();
    let content_type = r
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap_or("").to_string())
        .unwrap_or_default();
    Reply {
        status,
        content_type,
        body: r.text().await.expect("body"),
    }
}

async fn rpc(base: &str, path: &str, body: impl AsRef<[u8]>) -> Reply {
    post(base, path, Some("application/json"), body).await
}

#[tokio::test]
async fn ids_are_echoed_exactly() {
    let base = common::serve(common::router()).await;
    for id in [
        "0",
        "7",
        "-3",
        "1.5",
        "\"abc\"",
        "\"\"",
        "18446744073709551615",
        "null",
    ] {
        let r = rpc(
            &base,
            "/ext/info",
            &format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"info.getNetworkName"}}"#),
        )
        .await;
        assert_eq!(r.status, 200);
        assert!(
            r.content_type.starts_with("application/json"),
            "{}",
            r.content_type
        );
        assert!(
            r.body.ends_with(&format!(r#","id":{id}}}"#) as &str)
                || r.body.trim_end().ends_with(&format!(r#","id":{id}}}"#)),
            "{id}: {}",
            r.body
        );
        assert_eq!(r.json()["result"]["networkName"], "mainnet", "{id}");
    }
}

#[tokio::test]
async fn params_may_be_an_object_an_array_holding_one_absent_or_null() {
    let base = common::serve(common::router()).await;
    let object = r#"{"chain":"X"}"#;
    for params in [object.to_string(), format!("[{object}]")] {
        let r = rpc(
            &base,
            "/ext/info",
            &format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"info.isBootstrapped","params":{params}}}"#
            ),
        )
        .await;
        assert_eq!(
            r.json()["result"]["isBootstrapped"],
            true,
            "{params}: {}",
            r.body
        );
    }
    for params in [
        "",
        r#","params":null"#,
        r#","params":[]"#,
        r#","params":{}"#,
    ] {
        let r = rpc(
            &base,
            "/ext/info",
            &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"{params}}}"#),
        )
        .await;
        assert!(
            r.json()["result"]["nodeID"].is_string(),
            "{params}: {}",
            r.body
        );
    }
}

#[tokio::test]
async fn a_notification_runs_and_answers_nothing() {
    let base = common::serve(common::router()).await;
    let r = rpc(
        &base,
        "/ext/info",
        r#"{"jsonrpc":"2.0","method":"info.getNodeID"}"#,
    )
    .await;
    assert_eq!((r.status, r.body.as_str()), (200, ""));
    // Even an unknown method or bad params: a notification gets no reply.
    let r = rpc(
        &base,
        "/ext/info",
        r#"{"jsonrpc":"2.0","method":"info.nope"}"#,
    )
    .await;
    assert_eq!((r.status, r.body.as_str()), (200, ""));
}

#[tokio::test]
async fn invalid_json_is_a_parse_error() {
    let base = common::serve(common::router()).await;
    for body in ["{", "", "not json", r#"{"jsonrpc":"2.0"} trailing"#] {
        let r = rpc(&base, "/ext/info", body).await;
        assert_eq!(r.status, 200);
        let (code, message, _) = r.error();
        assert_eq!(code, -32700, "{body:?}");
        assert!(message.starts_with("parse error: "), "{message}");
        assert_eq!(r.json()["id"], Value::Null);
    }
}

#[tokio::test]
async fn a_body_that_is_not_utf8_anywhere_is_a_parse_error_naming_the_byte() {
    let base = common::serve(common::router()).await;
    let request = |x: &[u8]| {
        let mut body = br#"{"jsonrpc":"2.0","id":1,"method":"info.getNodeID","x":""#.to_vec();
        body.extend_from_slice(x);
        body.extend_from_slice(br#""}"#);
        body
    };
    // Bad bytes in a member the server never reads (the node reads them as U+FFFD).
    let bad = request(b"\xff\xfe");
    let at = bad.iter().position(|&b| b == 0xff).unwrap();
    let r = rpc(&base, "/ext/info", &bad).await;
    assert_eq!(r.status, 200);
    let (code, message, _) = r.error();
    assert_eq!(code, -32700, "{message}");
    assert_eq!(
        message,
        format!("parse error: the body is not valid UTF-8 at byte {at}")
    );
    assert_eq!(r.json()["id"], Value::Null);
    // The same request with valid UTF-8 there is answered.
    let r = rpc(&base, "/ext/info", request("\u{fffd}é".as_bytes())).await;
    assert!(r.json()["result"]["nodeID"].is_string(), "{}", r.body);
    // In a member the server reads: the same.
    let known = [
        &br#"{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"#[..],
        b"\x80",
        br#""}"#,
    ]
    .concat();
    let r = rpc(&base, "/ext/info", &known).await;
    assert_eq!(r.error().0, -32700, "{}", r.body);
    // One bad item spoils the whole batch: one -32700 for the body, nothing run.
    let good = request(b"ok");
    let mut batch = b"[".to_vec();
    batch.extend_from_slice(&good);
    batch.push(b',');
    let at = batch.len() + bad.iter().position(|&b| b == 0xff).unwrap();
    batch.extend_from_slice(&bad);
    batch.push(b']');
    let r = rpc(&base, "/ext/info", &batch).await;
    let (code, message, _) = r.error();
    assert_eq!(code, -32700, "{}", r.body);
    assert_eq!(
        message,
        format!("parse error: the body is not valid UTF-8 at byte {at}")
    );
    assert_eq!(r.json()["id"], Value::Null);
}

#[tokio::test]
async fn invalid_requests_name_the_member() {
    let base = common::serve(common::router()).await;
    let cases = [
        (
            r#"{"id":1,"method":"info.getNodeID"}"#,
            "`jsonrpc` must be \"2.0\"",
        ),
        (
            r#"{"jsonrpc":"1.0","id":1,"method":"info.getNodeID"}"#,
            "`jsonrpc` must be \"2.0\"",
        ),
        (r#"{"jsonrpc":"2.0","id":1}"#, "`method` is missing"),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":5}"#,
            "`method` must be a string",
        ),
        (
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"info.getNodeID"}"#,
            "`id` must be a string, a number or null",
        ),
        (
            r#"{"jsonrpc":"2.0","id":true,"method":"info.getNodeID"}"#,
            "`id` must be a string, a number or null",
        ),
        ("[]", "an empty batch"),
        ("5", "a request is a JSON object"),
    ];
    for (body, want) in cases {
        let r = rpc(&base, "/ext/info", body).await;
        let (code, message, _) = r.error();
        assert_eq!(code, -32600, "{body}");
        assert_eq!(message, format!("invalid request: {want}"), "{body}");
    }
}

#[tokio::test]
async fn unknown_methods_are_named() {
    let base = common::serve(common::router()).await;
    // Unknown anywhere, and known but served on another path.
    for (path, method) in [
        ("/ext/info", "info.nope"),
        ("/ext/bc/X/wallet", "avm.issueTx"),
        ("/ext/info", "Info.getNodeID"),
    ] {
        let r = rpc(
            &base,
            path,
            &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}"}}"#),
        )
        .await;
        let (code, message, data) = r.error();
        assert_eq!(code, -32601);
        assert_eq!(message, format!("method not found: `{method}`"));
        assert_eq!(data, json!({ "method": method }));
    }
}

#[tokio::test]
async fn invalid_params_name_the_field_and_the_problem() {
    let base = common::serve(common::router()).await;
    let cases = [
        // A missing required member.
        (
            "/ext/info",
            "info.isBootstrapped",
            "{}",
            "",
            "missing field `chain`",
        ),
        // A cb58 ID with a broken checksum.
        (
            "/ext/bc/P",
            "platform.getTx",
            r#"{"txID":"11111111111111111111111111111111LpoYZ"}"#,
            "txID",
            "checksum",
        ),
        // A node ID without its prefix, inside a list.
        (
            "/ext/bc/P",
            "platform.getCurrentValidators",
            r#"{"nodeIDs":["NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg","7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"]}"#,
            "nodeIDs[1]",
            "NodeID-",
        ),
        // A u64 that is not a number, a negative one, and a float.
        (
            "/ext/bc/P",
            "platform.getBlockByHeight",
            r#"{"height":"abc"}"#,
            "height",
            "invalid u64",
        ),
        (
            "/ext/bc/P",
            "platform.getBlockByHeight",
            r#"{"height":-1}"#,
            "height",
            "invalid u64",
        ),
        (
            "/ext/bc/P",
            "platform.getBlockByHeight",
            r#"{"height":1.5}"#,
            "height",
            "invalid u64",
        ),
        // A wrong JSON type, and an unknown encoding.
        (
            "/ext/info",
            "info.isBootstrapped",
            r#"{"chain":5}"#,
            "chain",
            "invalid type",
        ),
        (
            "/ext/bc/X",
            "avm.getTx",
            r#"{"txID":"11111111111111111111111111111111LpoYY","encoding":"base64"}"#,
            "encoding",
            "hexnc",
        ),
        // A nested member.
        (
            "/ext/bc/P",
            "platform.getUTXOs",
            r#"{"addresses":["P-avax1wst8jt3z3fm9ce0z6akj3266zmgccdp03hjlaj"],"startIndex":{"address":1}}"#,
            "startIndex.address",
            "invalid type",
        ),
    ];
    for (path, method, params, field, reason) in cases {
        let r = rpc(
            &base,
            path,
            &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}}}"#),
        )
        .await;
        let (code, message, data) = r.error();
        assert_eq!(code, -32602, "{method} {params}: {message}");
        assert_eq!(data["field"], field, "{method} {params}: {message}");
        assert!(
            message.contains(reason),
            "{method} {params}: {message:?} lacks {reason:?}"
        );
        if !field.is_empty() {
            assert!(
                message.starts_with(&format!("invalid params: `{field}`: ")),
                "{message}"
            );
        }
    }
    // Params of the wrong shape.
    for params in ["5", "\"x\"", "[1]", "[{},{}]"] {
        let r = rpc(
            &base,
            "/ext/info",
            &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"info.getNodeID","params":{params}}}"#),
        )
        .await;
        let (code, message, _) = r.error();
        assert_eq!(code, -32602, "{params}");
        assert!(message.contains("`params` must be an object"), "{message}");
    }
}

#[tokio::test]
async fn handler_errors_are_server_errors() {
    let base = common::serve(common::router()).await;
    // The spec-example server has no example for this chain.
    let r = rpc(
        &base,
        "/ext/info",
        r#"{"jsonrpc":"2.0","id":9,"method":"info.isBootstrapped","params":{"chain":"Q"}}"#,
    )
    .await;
    let (code, message, _) = r.error();
    assert_eq!(code, -32000);
    assert!(message.contains("info.isBootstrapped"), "{message}");
    assert_eq!(r.json()["id"], 9);
}

#[tokio::test]
async fn http_layer_status_codes() {
    let base = common::serve(common::router()).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}"#;
    let get = reqwest::get(format!("{base}/ext/info")).await.unwrap();
    assert_eq!(get.status().as_u16(), 405);
    assert_eq!(get.headers()["allow"], "POST");
    let r = post(&base, "/ext/info", None, body).await;
    assert_eq!(r.status, 415);
    assert!(r.body.contains("missing Content-Type"), "{}", r.body);
    let r = post(&base, "/ext/info", Some("text/plain"), body).await;
    assert_eq!(r.status, 415);
    assert!(r.body.contains("text/plain"), "{}", r.body);
    let r = post(
        &base,
        "/ext/info",
        Some("Application/JSON; charset=utf-8"),
        body,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = rpc(&base, "/ext/nope", body).await;
    assert_eq!(r.status, 404);
}

#[tokio::test]
async fn bodies_over_the_limit_are_refused_with_a_clear_error() {
    use avalanche_rpc::rpc::{ServerConfig, SpecExamples, server};
    let config = ServerConfig::default().max_body_bytes(1024);
    let router = server::router_with(
        vec!["/ext/info".into()],
        avalanche_rpc::info::InfoService(SpecExamples),
        config,
    );
    let base = common::serve(router).await;
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"info.getNodeID","params":{{"pad":"{}"}}}}"#,
        "x".repeat(4096)
    );
    let r = rpc(&base, "/ext/info", &big).await;
    assert_eq!(r.status, 413);
    let (code, message, _) = r.error();
    assert_eq!(code, -32600);
    assert!(
        message.contains("larger than the limit of 1024 bytes"),
        "{message}"
    );
    // Just under the limit still works.
    let r = rpc(
        &base,
        "/ext/info",
        r#"{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}"#,
    )
    .await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn batches_answer_each_request_in_order() {
    let base = common::serve(common::router()).await;
    let body = r#"[
        {"jsonrpc":"2.0","id":1,"method":"info.getNetworkName"},
        {"jsonrpc":"2.0","method":"info.getNetworkName"},
        {"jsonrpc":"2.0","id":"b","method":"info.nope"}
    ]"#;
    let r = rpc(&base, "/ext/info", body).await;
    let v = r.json();
    let replies = v.as_array().expect("a batch reply is an array");
    assert_eq!(replies.len(), 2, "the notification gets no reply: {v}");
    assert_eq!(replies[0]["id"], 1);
    assert_eq!(replies[0]["result"]["networkName"], "mainnet");
    assert_eq!(replies[1]["id"], "b");
    assert_eq!(replies[1]["error"]["code"], -32601);
}

#[tokio::test]
async fn members_may_be_escaped_repeated_or_unknown() {
    let base = common::serve(common::router()).await;
    let json = |r: Reply| -> serde_json::Value { serde_json::from_str(&r.body).expect("json") };
    // An escaped method name is its text.
    let r = json(
        rpc(
            &base,
            "/ext/info",
            r#"{"jsonrpc":"2.0","id":1,"method":"info.getNetwork\u004eame"}"#,
        )
        .await,
    );
    assert!(r["result"]["networkName"].is_string(), "{r}");
    // Unknown members are skipped, whatever they hold.
    let r = json(
        rpc(
            &base,
            "/ext/info",
            r#"{"x":{"deep":[1,{"y":null}]},"jsonrpc":"2.0","id":2,"method":"info.getNetworkName"}"#,
        )
        .await,
    );
    assert!(r["result"].is_object(), "{r}");
    // A member given twice counts with its last value.
    let r = json(
        rpc(
            &base,
            "/ext/info",
            r#"{"jsonrpc":"2.0","id":3,"method":"info.nothing","method":"info.getNetworkName","id":4}"#,
        )
        .await,
    );
    assert_eq!(r["id"], 4, "{r}");
    assert!(r["result"].is_object(), "{r}");
    // `jsonrpc` is compared as text, escapes included.
    let r = json(
        rpc(
            &base,
            "/ext/info",
            r#"{"jsonrpc":"2\u002e0","id":5,"method":"info.getNetworkName"}"#,
        )
        .await,
    );
    assert!(r["result"].is_object(), "{r}");
    let r = json(
        rpc(
            &base,
            "/ext/info",
            r#"{"jsonrpc":"2.00","id":6,"method":"info.getNetworkName"}"#,
        )
        .await,
    );
    assert_eq!(r["error"]["code"], -32600, "{r}");
}
