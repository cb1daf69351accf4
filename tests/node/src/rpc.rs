//! Raw JSON-RPC to both sides: the comparison is of the JSON each side wrote, not of what
//! the crate's types make of it.

use serde_json::{Value, json};

/// One side: the node or the devnet.
#[derive(Clone)]
pub struct Side {
    pub url: String,
    http: reqwest::Client,
}

impl Side {
    pub fn new(url: &str) -> Side {
        Side {
            url: url.trim_end_matches('/').to_string(),
            http: reqwest::Client::new(),
        }
    }

    /// Posts `body` (any JSON text: a bad request is a case too) to `path`; the reply's
    /// JSON with its `id` and `jsonrpc` members removed, or `{"http": status, "body": text}`
    /// when the reply is not JSON.
    pub async fn post(&self, path: &str, body: String) -> Value {
        let reply = self
            .http
            .post(format!("{}{path}", self.url))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await;
        let reply = match reply {
            Ok(r) => r,
            Err(e) => return json!({ "transport": e.to_string() }),
        };
        let status = reply.status().as_u16();
        let text = reply.text().await.unwrap_or_default();
        match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(mut m)) => {
                m.remove("id");
                m.remove("jsonrpc");
                Value::Object(m)
            }
            _ => json!({ "http": status, "body": text.trim() }),
        }
    }

    /// A call with these params (a JSON value, sent as is).
    pub async fn call(&self, path: &str, method: &str, params: &Value) -> Value {
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
        self.post(path, body.to_string()).await
    }
}

/// The path of a method's interface with its chain filled in.
pub fn path_of(method: &str) -> &'static str {
    if method.starts_with("eth_") {
        return "/ext/bc/C/rpc";
    }
    match method.split('.').next().unwrap_or("") {
        "avax" => "/ext/bc/C/avax",
        "info" => "/ext/info",
        "platform" => "/ext/bc/P",
        "avm" => "/ext/bc/X",
        "proposervm" => "/ext/bc/P/proposervm",
        _ => "/ext/info",
    }
}

/// `result` of a reply, if it has one.
pub fn result(v: &Value) -> Option<&Value> {
    v.get("result")
}

/// The error message of a reply, if it is an error.
pub fn error_message(v: &Value) -> Option<&str> {
    v.get("error")?.get("message")?.as_str()
}
