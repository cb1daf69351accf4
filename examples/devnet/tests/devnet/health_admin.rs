//! `health.*` across the devnet's start (and its GET forms), the tag filter, and `admin.*`:
//! aliases used, logger levels changed for real, the admin API off by default.

use crate::common::options;
use avalanche_devnet::http::Gate;
use avalanche_devnet::logs::{Level, Levels, Logs};
use avalanche_devnet::serving::Serving;
use avalanche_rpc::admin::*;
use avalanche_rpc::avm::{AvmClient, GetHeightParams};
use avalanche_rpc::health::*;
use avalanche_rpc::info::{GetBlockchainIdParams, GetNetworkIdParams, InfoClient};
use avalanche_rpc::rpc::Node;
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const PRIMARY: &str = "11111111111111111111111111111111LpoYY";

fn gate() -> Gate {
    Gate {
        hosts: vec!["*".into()],
        origins: vec!["*".into()],
    }
}

/// Serves `serving` (started or not) on an ephemeral port: its address.
async fn serve(serving: Arc<Serving>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let app = avalanche_devnet::serving_app(serving, gate());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    addr
}

/// A plain HTTP GET: the status and the body.
async fn get(addr: &str, path: &str) -> (u16, String) {
    request(addr, "GET", path).await
}

/// A plain HTTP request without a body: the status and the body.
async fn request(addr: &str, method: &str, path: &str) -> (u16, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).await.unwrap();
    let status = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").unwrap().1.to_string();
    (status, body)
}

fn serving(admin: bool) -> (Arc<Serving>, Arc<Logs>) {
    let logs = Arc::new(Logs::captured(Levels {
        log: Level::Info,
        display: Level::Info,
    }));
    let config = admin.then(|| serde_json::json!({ "apiAdminEnabled": true }));
    (Arc::new(Serving::new(logs.clone(), config)), logs)
}

/// Opens a devnet and marks `serving` started with it.
fn start(serving: &Serving) {
    let devnet = Arc::new(avalanche_devnet::Devnet::open(options()).unwrap());
    serving.started(devnet.clone(), avalanche_devnet::rpc::router(devnet, false));
}

fn names(checks: &std::collections::BTreeMap<String, HealthCheck>) -> Vec<&str> {
    checks.keys().map(String::as_str).collect()
}

#[tokio::test]
async fn readiness_fails_until_the_devnet_has_started_then_passes() {
    let (serving, _) = serving(false);
    let addr = serve(serving.clone()).await;
    let node = Node::http(&format!("http://{addr}")).unwrap();

    // Before the start: readiness and health fail on the `bootstrapped` check, naming the
    // Primary Network as still bootstrapping; liveness passes; the chains' APIs are 503.
    let r = node
        .health()
        .readiness(ReadinessParams::new())
        .await
        .unwrap();
    assert!(!r.healthy);
    let b = &r.checks["bootstrapped"];
    assert_eq!(b.error.as_deref(), Some("subnets not bootstrapped"));
    assert_eq!(b.message, Some(serde_json::json!([PRIMARY])));
    assert_eq!(b.contiguous_failures, Some(1));
    let again = node
        .health()
        .readiness(ReadinessParams::new())
        .await
        .unwrap();
    assert_eq!(again.checks["bootstrapped"].contiguous_failures, Some(2));
    let h = node.health().health(HealthParams::new()).await.unwrap();
    assert!(!h.healthy);
    assert_eq!(names(&h.checks), ["bootstrapped"]);
    assert!(
        node.health()
            .liveness(LivenessParams::new())
            .await
            .unwrap()
            .healthy
    );
    let (status, body) = get(&addr, "/ext/health/readiness").await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("\"healthy\":false"), "{body}");
    let (status, _) = get(&addr, "/ext/health/liveness").await;
    assert_eq!(status, 200);
    assert!(
        node.info()
            .get_network_id(GetNetworkIdParams::new())
            .await
            .is_err()
    );

    // The start: readiness passes, with nothing still bootstrapping; each chain has its check.
    let devnet = Arc::new(avalanche_devnet::Devnet::open(options()).unwrap());
    serving.started(devnet.clone(), avalanche_devnet::rpc::router(devnet, false));
    let r = node
        .health()
        .readiness(ReadinessParams::new())
        .await
        .unwrap();
    assert!(r.healthy, "{r:?}");
    let b = &r.checks["bootstrapped"];
    assert_eq!((b.error.as_ref(), b.contiguous_failures), (None, None));
    assert_eq!(b.message, Some(serde_json::json!([])));
    let (status, body) = get(&addr, "/ext/health/readiness").await;
    assert_eq!(status, 200, "{body}");
    // The sub-paths answer any method with the plain answer, as the node's handler does.
    let (status, body) = request(&addr, "POST", "/ext/health/readiness").await;
    assert_eq!(status, 200, "{body}");
    assert!(body.starts_with("{\"checks\":{\"bootstrapped\""), "{body}");
    let (status, body) = get(&addr, "/ext/health/health").await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"X\":"), "{body}");
    let h = node.health().health(HealthParams::new()).await.unwrap();
    assert!(h.healthy, "{h:?}");
    assert_eq!(names(&h.checks), ["C", "P", "X", "bootstrapped"]);
    let x = h.checks["X"].message.as_ref().unwrap();
    assert_eq!(x["tailWritten"], true, "{x}");
    assert_eq!(x["storeWritable"], true, "{x}");
    assert_eq!(
        node.info()
            .get_network_id(GetNetworkIdParams::new())
            .await
            .unwrap()
            .network_id,
        avalanche_rpc::wire::U32::from(12345)
    );
}

#[tokio::test]
async fn tags_select_checks_as_the_node_does() {
    let (serving, _) = serving(false);
    let addr = serve(serving.clone()).await;
    start(&serving);
    let node = Node::http(&format!("http://{addr}")).unwrap();
    let with = |tags: &[&str]| {
        HealthParams::new().with_tags(tags.iter().map(|t| t.to_string()).collect::<Vec<_>>())
    };
    // The chains' checks carry the Primary Network's ID; `bootstrapped` is an application
    // check, in every answer; `all` is every check's tag; an unknown tag selects nothing more.
    for (tags, want) in [
        (&[PRIMARY][..], &["C", "P", "X", "bootstrapped"][..]),
        (&["no-such-tag"], &["bootstrapped"]),
        (&["application"], &["bootstrapped"]),
        (&["all"], &["C", "P", "X", "bootstrapped"]),
        (&[], &["C", "P", "X", "bootstrapped"]),
    ] {
        let h = node.health().health(with(tags)).await.unwrap();
        assert_eq!(names(&h.checks), want, "tags {tags:?}");
    }
    // The GET form reads each `?tag=`.
    let (status, body) = get(&addr, "/ext/health?tag=no-such-tag&tag=another").await;
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        v["checks"].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["bootstrapped"]
    );
    let (_, body) = get(&addr, &format!("/ext/health?tag={PRIMARY}")).await;
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["checks"].as_object().unwrap().len(), 4, "{body}");
}

#[tokio::test]
async fn aliases_change_what_the_devnet_answers_to() {
    let (serving, _) = serving(true);
    let addr = serve(serving.clone()).await;
    let devnet = Arc::new(avalanche_devnet::Devnet::open(options()).unwrap());
    let x_id = devnet.genesis.x_chain_id;
    serving.started(devnet.clone(), avalanche_devnet::rpc::router(devnet, false));
    let node = Node::http(&format!("http://{addr}")).unwrap();
    let admin = node.admin();

    // Nothing at /ext/bc/myx before the alias.
    assert!(
        node.avm("myx")
            .get_height(GetHeightParams::new())
            .await
            .is_err()
    );
    admin
        .alias_chain(AliasChainParams::new("X", "myx"))
        .await
        .unwrap();
    let height = node
        .avm("myx")
        .get_height(GetHeightParams::new())
        .await
        .unwrap();
    let direct = node
        .avm("X")
        .get_height(GetHeightParams::new())
        .await
        .unwrap();
    assert_eq!(height.height, direct.height);
    let id = node
        .info()
        .get_blockchain_id(GetBlockchainIdParams::new("myx"))
        .await
        .unwrap();
    assert_eq!(id.blockchain_id, x_id);
    let aliases = admin
        .get_chain_aliases(GetChainAliasesParams::new(x_id))
        .await
        .unwrap()
        .aliases
        .unwrap();
    assert_eq!(aliases, ["X", "avm", &x_id.to_string(), "myx"]);
    // A second chain may not take the alias.
    let e = admin
        .alias_chain(AliasChainParams::new("P", "myx"))
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("alias already mapped to an ID: myx"),
        "{e}"
    );

    // An endpoint alias: the X-chain's API at /ext/bc/xx too.
    admin
        .alias(AliasParams::new("bc/X", "bc/xx"))
        .await
        .unwrap();
    let via = node
        .avm("xx")
        .get_height(GetHeightParams::new())
        .await
        .unwrap();
    assert_eq!(via.height, direct.height);
    let e = admin
        .alias(AliasParams::new("info", "bc/xx"))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("already aliased"), "{e}");
    let e = admin
        .alias(AliasParams::new("info", "a".repeat(513)))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("alias length is too long"), "{e}");
}

#[tokio::test]
async fn logger_levels_are_set_and_read_back_and_filter_the_log() {
    let (serving, logs) = serving(true);
    let addr = serve(serving.clone()).await;
    start(&serving);
    let node = Node::http(&format!("http://{addr}")).unwrap();
    let admin = node.admin();
    let all = admin
        .get_logger_level(GetLoggerLevelParams::new())
        .await
        .unwrap();
    assert_eq!(
        all.logger_levels
            .keys()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        ["http", "main"]
    );
    assert_eq!(all.logger_levels["http"].display_level, LogLevel::Info);
    // At INFO, requests are not printed.
    node.info()
        .get_network_id(GetNetworkIdParams::new())
        .await
        .unwrap();
    assert!(!logs.printed().iter().any(|l| l.contains("/ext/info")));

    // Lower-case is read, as the node reads it; the answer is the levels afterwards.
    let set = admin
        .set_logger_level(
            SetLoggerLevelParams::new()
                .with_logger_name("http")
                .with_display_level(LogLevel::from("debug")),
        )
        .await
        .unwrap();
    let set = set
        .logger_levels
        .expect("the levels afterwards (since v1.10.16)");
    assert_eq!(set["http"].display_level, LogLevel::Debug);
    assert_eq!(set["http"].log_level, LogLevel::Info);
    let back = admin
        .get_logger_level(GetLoggerLevelParams::new().with_logger_name("http"))
        .await
        .unwrap();
    assert_eq!(back.logger_levels["http"].display_level, LogLevel::Debug);
    assert_eq!(back.logger_levels.len(), 1);
    node.info()
        .get_network_id(GetNetworkIdParams::new())
        .await
        .unwrap();
    assert!(
        logs.printed()
            .iter()
            .any(|l| l.ends_with("DEBUG http POST /ext/info")),
        "{:?}",
        logs.printed()
    );

    // The node's errors.
    let e = admin
        .set_logger_level(SetLoggerLevelParams::new())
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("need to specify either displayLevel or logLevel"),
        "{e}"
    );
    let e = admin
        .get_logger_level(GetLoggerLevelParams::new().with_logger_name("nope"))
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("logger with name \"nope\" not found"),
        "{e}"
    );
    let e = admin
        .set_logger_level(SetLoggerLevelParams::new().with_log_level(LogLevel::from("LOUD")))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("unknown log level: \"LOUD\""), "{e}");

    // getConfig gives the configuration it was started with; dbGet reads the store.
    let config = admin.get_config(GetConfigParams::new()).await.unwrap();
    assert_eq!(config["apiAdminEnabled"], true);
    let id = admin
        .db_get(DbGetParams::new(format!("0x{}", hex(b"network_id"))))
        .await
        .unwrap();
    assert_eq!(
        (id.value.as_str(), id.error_code),
        ("0x0000000000003039", 0)
    );
    let missing = admin.db_get(DbGetParams::new("0x00")).await.unwrap();
    assert_eq!((missing.value.as_str(), missing.error_code), ("", 2));
    // Profiles are refused, saying why.
    let e = admin
        .memory_profile(MemoryProfileParams::new())
        .await
        .unwrap_err();
    assert!(e.to_string().contains("not a Go program"), "{e}");
}

#[tokio::test]
async fn admin_is_off_unless_enabled() {
    let (serving, _) = serving(false);
    let addr = serve(serving.clone()).await;
    start(&serving);
    let node = Node::http(&format!("http://{addr}")).unwrap();
    let e = node
        .admin()
        .get_logger_level(GetLoggerLevelParams::new())
        .await
        .unwrap_err();
    assert!(e.to_string().contains("404"), "{e}");
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
