//! The client's `tracing` spans: one per call, with method and outcome, and never the params.
//! Alone in its file: the subscriber it installs is the process's.

mod common;

use avalanche_rpc::info::{GetNetworkIdParams, InfoClient};
use avalanche_rpc::rpc::{HttpTransport, Node, RetryPolicy};
use common::scripted;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Every call here ends well within this.
const BOUND: Duration = Duration::from_secs(20);

/// Runs `call`, failing the test if it takes longer than [`BOUND`].
async fn bounded<F: std::future::Future>(call: F) -> F::Output {
    tokio::time::timeout(BOUND, call)
        .await
        .expect("the call did not end in time")
}

/// Every span opened in this process, with its fields as text.
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<(&'static str, SpanFields)>>>);

/// A span's fields by name, as text.
type SpanFields = std::collections::BTreeMap<String, String>;

struct Fields<'a>(&'a mut SpanFields);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().into(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.insert(field.name().into(), value.into());
    }
}

impl tracing::Subscriber for Spans {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let mut fields = SpanFields::new();
        span.record(&mut Fields(&mut fields));
        let mut spans = self.0.lock().unwrap();
        spans.push((span.metadata().name(), fields));
        tracing::span::Id::from_u64(spans.len() as u64)
    }
    fn record(&self, id: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        let mut spans = self.0.lock().unwrap();
        let k = id.into_u64() as usize - 1;
        values.record(&mut Fields(&mut spans[k].1));
    }
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, _: &tracing::Event<'_>) {}
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
async fn each_call_is_a_span_with_method_and_outcome_and_no_params() {
    use avalanche_rpc::info::GetBlockchainIdParams;
    let (base, _) = scripted("/ext/info", |k| match k {
        0 => (503, None, "null"),
        _ => (
            200,
            None,
            r#"{"blockchainID":"2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"}"#,
        ),
    })
    .await;
    // The subscriber is the process's: tracing caches each callsite's interest when it is
    // first hit, and a thread-scoped subscriber races any other thread hitting it first. This
    // file holds this one test so that nothing else runs in its process.
    let spans = Spans::default();
    tracing::subscriber::set_global_default(spans.clone()).expect("the only subscriber");
    let policy = RetryPolicy::default().backoff(Duration::from_millis(1), Duration::from_millis(2));
    let node = Node::new(HttpTransport::builder(&base).retry(policy).build().unwrap());
    bounded(
        node.info()
            .get_blockchain_id(GetBlockchainIdParams::new("s3cr3t-alias")),
    )
    .await
    .unwrap();
    let _ = bounded(
        Node::http(&base)
            .unwrap()
            .info()
            .get_network_id(GetNetworkIdParams::new()),
    )
    .await;
    let spans = spans.0.lock().unwrap();
    let calls: Vec<_> = spans
        .iter()
        .filter(|(name, _)| *name == "rpc.call")
        .collect();
    assert_eq!(calls.len(), 2, "{spans:?}");
    let (_, ok) = calls[0];
    assert_eq!(ok["method"], "info.getBlockchainID");
    assert_eq!(ok["path"], "/ext/info");
    assert_eq!(ok["outcome"], "ok");
    assert_eq!(ok["attempts"], "2");
    assert_eq!(ok["status"], "200");
    assert!(
        ok.contains_key("id") && ok.contains_key("duration_ms"),
        "{ok:?}"
    );
    let (_, second) = calls[1];
    assert_eq!(second["method"], "info.getNetworkID");
    assert!(
        second["outcome"] == "ok"
            || second["outcome"] == "invalid_response"
            || second["outcome"] == "decode_error",
        "{second:?}"
    );
    for (_, fields) in spans.iter() {
        assert!(
            fields.values().all(|v| !v.contains("s3cr3t")),
            "a span holds the params: {fields:?}"
        );
    }
}
