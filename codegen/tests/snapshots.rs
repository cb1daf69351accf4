//! Snapshot tests: small edge-case specs under `tests/specs/<case>/` generate the Rust in
//! `tests/snapshots/<case>.rs`.
//!
//! The generated code refers to `crate::rpc`, `crate::wire` and `crate::__private` (it is
//! `include!`d into the avalanche-rpc crate), so a snapshot does not compile on its own; here it
//! must parse and equal the file checked in, and the ignored test `snapshot_specs_compile`
//! (which `.ci/run` runs) builds the avalanche-rpc crate from each case's spec folder with
//! `cargo check`. After an intended change to the generator, refresh with
//!
//! ```sh
//! UPDATE_SNAPSHOTS=1 cargo test -p avalanche-rpc-codegen --test snapshots
//! ```
//!
//! and read the diff.

use std::path::{Path, PathBuf};

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// Loads `tests/specs/<case>`, generates Rust, checks that it parses, and compares it with
/// `tests/snapshots/<case>.rs` (or writes that file when `UPDATE_SNAPSHOTS` is set).
/// Returns the generated code for case-specific assertions.
fn snapshot(case: &str) -> String {
    let spec_dir = tests_dir().join("specs").join(case);
    let spec = avalanche_rpc_codegen::load_dir(&spec_dir)
        .unwrap_or_else(|e| panic!("spec case `{case}` does not load:\n{e}"));
    let code = avalanche_rpc_codegen::emit::rust(&spec);

    if let Err(e) = syn::parse_file(&code) {
        panic!("the code generated for `{case}` does not parse: {e}\n\n{code}");
    }
    assert!(
        !code.contains("compile_error!"),
        "the generator gave up on `{case}`:\n{code}"
    );

    let path = tests_dir().join("snapshots").join(format!("{case}.rs"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &code)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return code;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "no snapshot for `{case}` ({}: {e}); run with UPDATE_SNAPSHOTS=1 to create it",
            path.display()
        )
    });
    if expected != code {
        panic!(
            "the code generated for `{case}` differs from {}:\n{}\n\
             If the change is intended, run with UPDATE_SNAPSHOTS=1 and review the diff.",
            path.display(),
            diff(&expected, &code)
        );
    }
    code
}

/// The differing lines, with a little context, numbered as in the snapshot.
fn diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    // Skip the common head and tail; show what lies between.
    let head = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let tail = e[head..]
        .iter()
        .rev()
        .zip(a[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let from = head.saturating_sub(3);
    let mut out = String::new();
    for (n, line) in e.iter().enumerate().take(head).skip(from) {
        out.push_str(&format!("  {:>5}   {line}\n", n + 1));
    }
    let shown = 40;
    let removed = &e[head..e.len() - tail];
    let added = &a[head..a.len() - tail];
    for (n, line) in removed.iter().enumerate().take(shown) {
        out.push_str(&format!("- {:>5}   {line}\n", head + n + 1));
    }
    for line in added.iter().take(shown) {
        out.push_str(&format!("+         {line}\n"));
    }
    if removed.len() > shown || added.len() > shown {
        out.push_str(&format!(
            "  … ({} lines removed, {} added in all)\n",
            removed.len(),
            added.len()
        ));
    }
    out
}

/// `code` with its layout removed: no whitespace, no trailing commas. Assertions compare
/// code this way so that they do not depend on where the formatter breaks lines.
fn squash(code: &str) -> String {
    let s: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    s.replace(",)", ")")
        .replace(",]", "]")
        .replace(",}", "}")
        .replace(",>", ">")
}

/// Asserts that `code` holds `needle`, layout aside.
#[track_caller]
fn assert_has(code: &str, needle: &str) {
    assert!(
        squash(code).contains(squash(needle).trim_end_matches(',')),
        "the generated code lacks `{needle}`"
    );
}

/// Asserts that `code` does not hold `needle`, layout aside.
#[track_caller]
fn assert_lacks(code: &str, needle: &str) {
    assert!(
        !squash(code).contains(squash(needle).trim_end_matches(',')),
        "the generated code should not hold `{needle}`"
    );
}

#[test]
fn empty_params() {
    let code = snapshot("empty-params");
    // Leaving `params` out and writing `params: []` mean the same: an empty params struct, so
    // that a param added later breaks no caller and no implementer.
    assert_has(
        &code,
        "#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
         #[non_exhaustive]
         pub struct PingParams {}",
    );
    assert_has(&code, "pub struct GetHeightParams {}");
    assert_has(
        &code,
        "fn ping(&self, params: PingParams) -> impl ::std::future::Future<Output = ::std::result::Result<PingResult, crate::rpc::ClientError>> + ::std::marker::Send {
         let _ = params;
         ::std::future::ready(::std::result::Result::Err(crate::rpc::ClientError::NotImplemented { method: ::std::convert::Into::into(methods::PING.name) })) }",
    );
    assert_has(
        &code,
        "fn get_height(&self, params: GetHeightParams) -> impl ::std::future::Future<Output = ::std::result::Result<GetHeightResult, crate::rpc::ClientError>> + ::std::marker::Send {",
    );
    assert_has(&code, "self.0.call(&methods::GET_HEIGHT, params)");
    assert_has(
        &code,
        "let params = params.parse()?; crate::__private::reply_sized(&SIZE, server.get_height(params).await)",
    );
    assert_has(&code, "pub type GetHeightResult = crate::wire::U64;");
    assert_has(
        &code,
        "check_params: crate::__private::roundtrip::<super::GetHeightParams>,",
    );
    assert_lacks(&code, "NoParams");
}

#[test]
fn optional_everything() {
    let code = snapshot("optional-everything");
    // Every member optional or nullable: both structs derive Default, `new` takes nothing.
    assert_has(
        &code,
        "#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
         #[non_exhaustive]
         pub struct FindParams {",
    );
    assert_has(
        &code,
        "#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
         #[non_exhaustive]
         pub struct FindResult {",
    );
    assert_has(
        &code,
        "pub fn new() -> Self { Self {
             query: ::std::option::Option::None,
             limit: ::std::option::Option::None,
             after: ::std::option::Option::None,
         } }",
    );
    // Optional members are left out when unset; nullable ones are always written.
    assert_has(
        &code,
        "#[serde(default, skip_serializing_if = \"::std::option::Option::is_none\")]
         pub limit: ::std::option::Option<crate::wire::U64>,",
    );
    assert_has(
        &code,
        "#[serde(default)] pub after: ::std::option::Option<crate::wire::Id>,",
    );
    assert_has(
        &code,
        "#[serde(default)] pub first: ::std::option::Option<crate::wire::Id>,",
    );
    assert_has(&code, "When absent the node uses `\"10\"`.");
}

#[test]
fn map_results() {
    let code = snapshot("map-results");
    assert_has(
        &code,
        "pub type GetBalancesResult = ::std::collections::BTreeMap<::std::string::String, crate::wire::U64>;",
    );
    assert_has(
        &code,
        "pub type GetHoldingsResult = ::std::collections::BTreeMap<
             ::std::string::String,
             ::std::collections::BTreeMap<crate::wire::Id, crate::types::Holding>,
         >;",
    );
    assert_has(
        &code,
        "pub type Holdings = ::std::collections::BTreeMap<crate::wire::Id, crate::types::Holding>;",
    );
    assert_has(&code, "pub holdings: crate::types::Holdings,");
    assert_has(
        &code,
        "pub counts: ::std::collections::BTreeMap<::std::string::String, crate::wire::U64>,",
    );
    // A struct with a required member has no Default.
    assert_has(
        &code,
        "#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
         #[non_exhaustive]
         pub struct GetAccountResult {",
    );
}

#[test]
fn reserved_words() {
    let code = snapshot("reserved-words");
    // Keywords that may be raw identifiers are, without a `rename` (the wire name is the same).
    for raw in [
        "pub r#type: crate::types::Kind,",
        "pub r#match: ::std::option::Option<::std::string::String>,",
        "pub r#async: ::std::option::Option<bool>,",
        "pub r#ref: crate::wire::Id,",
        "pub r#in: ::std::string::String,",
        "fn r#type(&self, params: TypeParams)",
        "fn r#move(&self, params: MoveParams)",
        "pub fn new(r#type: impl ::std::convert::Into<crate::types::Kind>, self_: impl ::std::convert::Into<bool>) -> Self",
        "pub fn with_match(mut self, r#match: impl ::std::convert::Into<::std::string::String>) -> Self",
        "client.r#type(crate::__private::from_json(&methods::TYPE, params)?).await",
    ] {
        assert_has(&code, raw);
    }
    assert_lacks(&code, "#[serde(rename = \"type\")] pub r#type");
    assert_has(&code, "\"type\" => Self::Type,");
    assert_has(&code, "Self::Type => \"type\",");
    // `self`, `super` and `crate` cannot be raw identifiers: a trailing `_` and a rename.
    for renamed in [
        "#[serde(rename = \"self\")] pub self_: bool,",
        "#[serde(rename = \"super\")] pub super_: ::std::vec::Vec<crate::types::Reference>,",
        "#[serde(rename = \"crate\", default, skip_serializing_if = \"::std::option::Option::is_none\")]
         pub crate_: ::std::option::Option<::std::string::String>,",
        "pub fn with_self(mut self, self_: impl ::std::convert::Into<bool>) -> Self {
             self.self_ = ::std::option::Option::Some(::std::convert::Into::into(self_)); self }",
        "fn self_(&self, params: SelfParams) -> impl ::std::future::Future<Output = ::std::result::Result<SelfResult, crate::rpc::ClientError>> + ::std::marker::Send {",
        "\"Self\" => Self::Self_,",
        "Self::Self_ => \"Self\",",
    ] {
        assert_has(&code, renamed);
    }
    for invalid in ["r#self", "r#super", "r#crate", "r#Self", "Self_Result"] {
        assert_lacks(&code, invalid);
    }
}

#[test]
fn alternative_forms() {
    let code = snapshot("alternative-forms");
    assert_has(
        &code,
        "rules: &[crate::rpc::Rule { path: &[], form: crate::rpc::Form::Bare(\"containers\") }],",
    );
    // The wrapper comes off first, then each map value may be a bare weight.
    assert_has(
        &code,
        "rules: &[
             crate::rpc::Rule { path: &[], form: crate::rpc::Form::WrappedIn(\"validators\") },
             crate::rpc::Rule { path: &[crate::rpc::ResultStep::Values], form: crate::rpc::Form::Bare(\"weight\") },
         ],",
    );
    assert_has(
        &code,
        r##"normalized: ::std::option::Option::Some(r#"{"containers":["11111111111111111111111111111111LpoYY"]}"#),"##,
    );
    assert_has(
        &code,
        r##"normalized: ::std::option::Option::Some(r#"{"height":"12"}"#),"##,
    );
    assert_has(
        &code,
        "#[serde(rename = \"startIndex\", alias = \"start\")] pub start_index: crate::wire::U64,",
    );
    assert_has(
        &code,
        "#[serde(alias = \"lastHeight\", alias = \"blockHeight\")] pub height: crate::wire::U64,",
    );
    assert_has(
        &code,
        "The client also reads a result wrapped as `{\"validators\": …}`.",
    );
    assert_has(
        &code,
        "The client also reads the bare value of `weight` as this object.",
    );
}

#[test]
fn path_params() {
    let code = snapshot("path-params");
    assert_has(&code, "pub const PATH: &str = \"/ext/bc/{chain}\";");
    assert_has(&code, "pub fn new(transport: T, chain: &str) -> Self {");
    assert_has(
        &code,
        "Self(crate::rpc::Endpoint::new(transport, crate::__private::fill_path(PATH, &[(\"chain\", chain)])))",
    );
    assert_has(
        &code,
        "pub fn router<S: ChainsServer>(server: S, chain: &str) -> ::axum::Router {",
    );
    assert_has(
        &code,
        "pub fn chains(&self, chain: &str) -> chains::ChainsEndpoint<T> {
             chains::ChainsEndpoint::new(::std::clone::Clone::clone(self.transport()), chain)
         }",
    );
    assert_has(
        &code,
        "- `chain`: Chain alias or blockchain ID. (usually `X`)",
    );
    // A removed method: deprecated in the client, with both versions in its docs.
    assert_has(
        &code,
        "/// Deprecated since v1.9.12; removed from the node in v1.13.1. Use `getHeight` and an indexer instead.
         ///
         /// Errors the node returns:
         /// - `the method chains.getUTXOs does not exist/is not available`: on nodes from v1.13.1
         /// - `no addresses`
         #[deprecated(since = \"1.9.12\", note = \"Use `getHeight` and an indexer instead.\")]
         fn get_utxos(",
    );
    // Deprecated without a note: the attribute still says something.
    assert_has(
        &code,
        "#[deprecated(since = \"1.12.0\", note = \"chains.getTxFee is deprecated\")] fn get_tx_fee(",
    );
    assert_has(
        &code,
        "/// Served by the node but absent from the API description.",
    );
    assert_has(
        &code,
        "#[deprecated(since = \"1.10.0\", note = \"Ignored by the node.\")]
         #[serde(rename = \"sourceChain\", default, skip_serializing_if = \"::std::option::Option::is_none\")]
         pub source_chain: ::std::option::Option<::std::string::String>,",
    );
    assert_has(
        &code,
        "name: \"chains.getUTXOs\", interface: \"chains\", deprecated: true,",
    );
    // The catalog's path and params: what `avax-rpc call` builds its flags from.
    assert_has(&code, "removed: ::std::option::Option::Some(\"v1.13.1\"),");
    assert_has(&code, "path: \"/ext/bc/{chain}\",");
    assert_has(&code, "crate::rpc::PathParam { name: \"chain\",");
    assert_has(
        &code,
        "crate::rpc::ParamInfo { name: \"addresses\", aliases: &[], ty: \"list<string>\", kind: crate::rpc::JsonKind::Array, items: ::std::option::Option::Some(crate::rpc::JsonKind::String),",
    );
}

#[test]
fn shadowing_names() {
    let code = snapshot("shadowing-names");
    // Schemas named like the items the generated code uses shadow nothing: those are written
    // by their full paths.
    for needle in [
        "pub struct Option {",
        "pub enum Result {",
        "pub type String = ::std::vec::Vec<::std::string::String>;",
        "pub type Vec = ::std::collections::BTreeMap<::std::string::String, crate::wire::U64>;",
        "pub into: Option,",
        "pub r#box: crate::types::Value,",
        "pub error: crate::types::ClientError,",
        "pub send: ::std::option::Option<Send>,",
        "Unrecognized(::std::string::String),",
    ] {
        assert_has(&code, needle);
    }
    // And the generated code imports nothing.
    assert!(
        !code.lines().any(|l| l.trim_start().starts_with("use ")),
        "an import"
    );
}

/// Builds the avalanche-rpc crate from each snapshot case's spec folder, and from the real spec
/// for the oldest supported node version, with `cargo check` in a target folder of its own
/// (`target/snapshot-check`): generated code that parses but does not compile, or compiles
/// with warnings, fails here.
#[test]
#[ignore = "runs cargo on the avalanche-rpc crate per case; run with --ignored (CI does)"]
fn snapshot_specs_compile() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut cases: Vec<(String, PathBuf, Option<&str>)> =
        std::fs::read_dir(tests_dir().join("specs"))
            .expect("tests/specs")
            .map(|e| {
                let path = e.expect("an entry").path();
                (
                    path.file_name().unwrap().to_string_lossy().into_owned(),
                    path,
                    None,
                )
            })
            .collect();
    cases.sort();
    cases.push((
        "the spec for v1.10.0".into(),
        workspace.join("spec"),
        Some("v1.10.0"),
    ));
    for (case, dir, version) in cases {
        let mut cmd = std::process::Command::new(env!("CARGO"));
        cmd.current_dir(&workspace)
            .args(["check", "--quiet", "-p", "avalanche-rpc", "--lib"])
            .env("AVALANCHE_RPC_SPEC_DIR", &dir)
            .env("CARGO_TARGET_DIR", workspace.join("target/snapshot-check"))
            // Warnings in generated code fail too (dependencies' lints are capped by cargo),
            // except dead code: a small spec leaves parts of the runtime unused.
            .env("RUSTFLAGS", "-D warnings -A dead_code");
        match version {
            Some(v) => cmd.env("AVALANCHE_RPC_NODE_VERSION", v),
            None => cmd.env_remove("AVALANCHE_RPC_NODE_VERSION"),
        };
        let out = cmd.output().expect("run cargo");
        assert!(
            out.status.success(),
            "the code generated for `{case}` does not compile:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

// ---------------------------------------------------------------- the real spec

/// Every method of the node's API description, by wire name.
const DESCRIBED_METHODS: [&str; 63] = [
    "avm.buildGenesis",
    "avm.getAddressTxs",
    "avm.getAllBalances",
    "avm.getAssetDescription",
    "avm.getBalance",
    "avm.getBlock",
    "avm.getBlockByHeight",
    "avm.getHeight",
    "avm.getTx",
    "avm.getTxFee",
    "avm.getTxStatus",
    "avm.getUTXOs",
    "avm.issueTx",
    "index.getContainerByID",
    "index.getContainerByIndex",
    "index.getContainerRange",
    "index.getIndex",
    "index.getLastAccepted",
    "index.isAccepted",
    "info.acps",
    "info.getBlockchainID",
    "info.getNetworkID",
    "info.getNetworkName",
    "info.getNodeID",
    "info.getNodeIP",
    "info.getNodeVersion",
    "info.getTxFee",
    "info.getVMs",
    "info.isBootstrapped",
    "info.peers",
    "info.upgrades",
    "info.uptime",
    "platform.getBalance",
    "platform.getBlock",
    "platform.getBlockByHeight",
    "platform.getBlockchainStatus",
    "platform.getBlockchains",
    "platform.getCurrentSupply",
    "platform.getCurrentValidators",
    "platform.getFeeConfig",
    "platform.getFeeState",
    "platform.getHeight",
    "platform.getL1Validator",
    "platform.getMinStake",
    "platform.getProposedHeight",
    "platform.getRewardUTXOs",
    "platform.getStake",
    "platform.getStakingAssetID",
    "platform.getSubnet",
    "platform.getSubnets",
    "platform.getTimestamp",
    "platform.getTotalStake",
    "platform.getTx",
    "platform.getTxStatus",
    "platform.getUTXOs",
    "platform.getValidatorFeeConfig",
    "platform.getValidatorFeeState",
    "platform.getValidatorsAt",
    "platform.issueTx",
    "platform.sampleValidators",
    "platform.validatedBy",
    "platform.validates",
    "wallet.issueTx",
];

/// Methods the node deprecated (some of them since removed).
const DEPRECATED_METHODS: [&str; 11] = [
    "avm.getAddressTxs",
    "avm.getAllBalances",
    "avm.getBalance",
    "avm.getTxStatus",
    "wallet.issueTx",
    "avm.buildGenesis",
    "platform.getBalance",
    "platform.getBlockchains",
    "platform.getRewardUTXOs",
    "platform.getStake",
    "platform.getSubnets",
];

fn real_spec() -> avalanche_rpc_codegen::Spec {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    avalanche_rpc_codegen::load_dir(&dir).unwrap_or_else(|e| panic!("{e}"))
}

fn method<'a>(
    spec: &'a avalanche_rpc_codegen::Spec,
    wire_name: &str,
) -> &'a avalanche_rpc_codegen::model::Method {
    spec.methods()
        .map(|(_, m)| m)
        .find(|m| m.wire_name == wire_name)
        .unwrap_or_else(|| panic!("the spec has no method `{wire_name}`"))
}

/// The lines the `check` listing gives one method: its own and its params' and result's.
fn listing_of<'a>(listing: &'a str, wire_name: &str) -> Vec<&'a str> {
    let mut lines = listing.lines();
    let header = format!("  {wire_name}");
    lines
        .find(|l| *l == header || l.starts_with(&format!("{header}  [")))
        .unwrap_or_else(|| panic!("the listing has no method `{wire_name}`"));
    lines.take_while(|l| l.starts_with("    ")).collect()
}

#[test]
fn real_spec_has_every_method() {
    let spec = real_spec();
    let names: Vec<&str> = spec.methods().map(|(_, m)| m.wire_name.as_str()).collect();
    assert_eq!(names.len(), 97, "{names:#?}");
    for name in DESCRIBED_METHODS {
        assert!(names.contains(&name), "`{name}` is missing");
    }
    // The methods beyond the description are served by the node only, or by this project's
    // devnet only, and marked so.
    let devnet: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| n.starts_with("devnet."))
        .collect();
    assert_eq!(devnet.len(), 6);
    for name in devnet {
        assert_eq!(
            method(&spec, name).source.as_deref(),
            Some("devnet"),
            "{name}"
        );
    }
    let extra: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !DESCRIBED_METHODS.contains(n) && !n.starts_with("devnet."))
        .collect();
    assert_eq!(
        extra,
        [
            "admin.alias",
            "admin.aliasChain",
            "admin.getChainAliases",
            "admin.getConfig",
            "admin.getLoggerLevel",
            "admin.setLoggerLevel",
            "admin.loadVMs",
            "admin.dbGet",
            "admin.lockProfile",
            "admin.memoryProfile",
            "admin.startCPUProfiler",
            "admin.stopCPUProfiler",
            "admin.stacktrace",
            "avax.getUTXOs",
            "avax.issueTx",
            "avax.getAtomicTx",
            "avax.getAtomicTxStatus",
            "eth_chainId",
            "eth_blockNumber",
            "eth_getBalance",
            "eth_getTransactionCount",
            "eth_baseFee",
            "health.health",
            "health.readiness",
            "health.liveness",
            "platform.getAllValidatorsAt",
            "proposervm.getProposedHeight",
            "proposervm.getCurrentEpoch"
        ]
    );
    for name in extra {
        assert_eq!(
            method(&spec, name).source.as_deref(),
            Some("node"),
            "{name}"
        );
    }
    for name in DESCRIBED_METHODS {
        assert_eq!(
            method(&spec, name).source,
            None,
            "`{name}` is in the description"
        );
    }
}

#[test]
fn real_spec_lists_what_the_node_adds() {
    let spec = real_spec();
    let listing = avalanche_rpc_codegen::report::listing(&spec);
    for (wire_name, member) in [
        (
            "platform.getCurrentValidators",
            "result validators[].accruedDelegateeReward:",
        ),
        ("platform.getCurrentSupply", "result height:"),
        ("avm.getBalance", "param  includePartial:"),
        ("avm.getAllBalances", "param  includePartial:"),
        ("info.upgrades", "result fortunaTime:"),
        ("info.upgrades", "result graniteTime:"),
        ("info.upgrades", "result graniteEpochDuration:"),
        ("info.upgrades", "result heliconTime:"),
        ("info.getVMs", "result fxs:"),
        ("info.peers", "result peers[].publicIP:"),
        ("info.peers", "result peers[].trackedSubnets:"),
        ("info.peers", "result peers[].supportedACPs:"),
        ("info.peers", "result peers[].objectedACPs:"),
    ] {
        let lines = listing_of(&listing, wire_name);
        assert!(
            lines.iter().any(|l| l.trim_start().starts_with(member)),
            "the listing of `{wire_name}` lacks `{member}`:\n{}",
            lines.join("\n")
        );
    }
    // Members newer than the description's nodes are optional, so older replies still decode.
    let upgrades = listing_of(&listing, "info.upgrades");
    assert!(upgrades.contains(&"    result fortunaTime: time (also fUpgradeTime; since v1.12.2)"));
    assert!(
        listing.contains(
            "\n97 methods in 12 interfaces (63 in the API description, 28 served by the node only, 6 by the devnet only)\n"
        ),
        "{listing}"
    );
    // Then the binary layouts.
    assert!(
        listing.contains(
            "\ncodec platform (version 0, at most 262144 bytes): 41 type IDs, 11 slots\n"
        )
    );
    assert!(listing.contains("\n  Credential: signatures list<bytes<65>>\n"));
    assert!(
        listing.ends_with("\n97 codec types in 9 packages, 7 codecs\n"),
        "{listing}"
    );
}

#[test]
fn real_spec_tx_status_has_aborted() {
    use avalanche_rpc_codegen::model::{Body, Scope};
    let spec = real_spec();
    let status = spec
        .schema("TxStatus", &Scope::Interface("platform".into()))
        .expect("platform defines TxStatus");
    let Body::Enum(values) = &status.body else {
        panic!("TxStatus is an enumeration");
    };
    let values: Vec<&str> = values.iter().map(|v| v.value.as_str()).collect();
    assert_eq!(
        values,
        ["Committed", "Aborted", "Processing", "Dropped", "Unknown"]
    );
}

#[test]
fn real_spec_marks_deprecated_methods() {
    let spec = real_spec();
    for name in DEPRECATED_METHODS {
        let m = method(&spec, name);
        let d = m
            .deprecated
            .as_ref()
            .unwrap_or_else(|| panic!("`{name}` should be deprecated"));
        assert!(d.since.major >= 1, "`{name}`: since {}", d.since);
    }
    let others: Vec<&str> = spec
        .methods()
        .filter(|(_, m)| m.deprecated.is_some())
        .map(|(_, m)| m.wire_name.as_str())
        .filter(|n| !DEPRECATED_METHODS.contains(n))
        .collect();
    // The spec also deprecates `avax.getAtomicTxStatus` (the SAE VM did in v1.15.0) and
    // `info.getTxFee` (avalanchego did in v1.12.2); nothing else.
    assert_eq!(others, ["avax.getAtomicTxStatus", "info.getTxFee"]);
}

#[test]
fn real_spec_generates_code_that_parses() {
    let code = avalanche_rpc_codegen::emit::rust(&real_spec());
    assert!(!code.contains("compile_error!"));
    syn::parse_file(&code).unwrap_or_else(|e| panic!("the generated code does not parse: {e}"));
}

/// A field of a method's params (`param`) or object result (`result`), found by its path of
/// member names through named schemas (`peers`, `supportedACPs`).
fn field_at<'a>(
    spec: &'a avalanche_rpc_codegen::Spec,
    wire_name: &str,
    path: &[&str],
) -> &'a avalanche_rpc_codegen::model::Field {
    use avalanche_rpc_codegen::model::{Body, TypeRef};
    let m = method(spec, wire_name);
    let (first, rest) = path.split_first().expect("a path");
    let mut fields: &[avalanche_rpc_codegen::model::Field] = match &m.result.body {
        Body::Object(fs) if !first.starts_with("param:") => fs,
        Body::Alias(TypeRef::Map(_, v)) => match v.as_ref() {
            TypeRef::Schema { name, scope } => match &spec.schema(name, scope).unwrap().body {
                Body::Object(fs) => fs,
                _ => panic!("{wire_name}: not an object"),
            },
            _ => panic!("{wire_name}: not a map of objects"),
        },
        _ => &m.params,
    };
    let mut name = first.trim_start_matches("param:");
    for next in rest {
        let f = fields.iter().find(|f| f.name == name).expect(name);
        let mut ty = &f.ty;
        while let TypeRef::List(t) | TypeRef::Map(_, t) = ty {
            ty = t;
        }
        let TypeRef::Schema { name: s, scope } = ty else {
            panic!("{wire_name}: `{name}` is not a schema");
        };
        let Body::Object(fs) = &spec.schema(s, scope).unwrap().body else {
            panic!("{wire_name}: `{s}` is not an object");
        };
        fields = fs;
        name = next;
    }
    fields
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("{wire_name}: no member `{name}`"))
}

#[test]
fn real_spec_dates_what_later_nodes_added() {
    let spec = real_spec();
    assert_eq!(spec.versions.oldest_supported.to_string(), "v1.10.0");
    for (wire_name, since) in [
        ("info.acps", "v1.10.18"),
        ("info.upgrades", "v1.11.11"),
        ("platform.getBlockByHeight", "v1.10.8"),
        ("platform.getSubnet", "v1.11.0"),
        ("platform.getFeeConfig", "v1.11.11"),
        ("platform.getFeeState", "v1.11.11"),
        ("platform.getProposedHeight", "v1.11.13"),
        ("platform.getL1Validator", "v1.11.13"),
        ("platform.getValidatorFeeConfig", "v1.12.2"),
        ("platform.getValidatorFeeState", "v1.12.2"),
        ("platform.getAllValidatorsAt", "v1.14.0"),
        ("avm.getTxFee", "v1.12.2"),
        ("proposervm.getProposedHeight", "v1.14.0"),
        ("proposervm.getCurrentEpoch", "v1.14.0"),
    ] {
        let m = method(&spec, wire_name);
        assert_eq!(
            m.since.map(|v| v.to_string()).as_deref(),
            Some(since),
            "{wire_name}"
        );
    }
    for (wire_name, path, since) in [
        ("info.getVMs", &["fxs"][..], "v1.10.19"),
        ("info.peers", &["peers", "supportedACPs"], "v1.10.18"),
        ("info.peers", &["peers", "objectedACPs"], "v1.10.18"),
        ("info.peers", &["peers", "upgradeTime"], "v1.14.1"),
        ("platform.getCurrentSupply", &["height"], "v1.10.10"),
        ("platform.getL1Validator", &["validationID"], "v1.12.2"),
        ("platform.getSubnet", &["managerChainID"], "v1.11.12"),
        ("platform.getSubnet", &["managerAddress"], "v1.11.12"),
        ("platform.getSubnet", &["conversionID"], "v1.11.13"),
        (
            "platform.getCurrentValidators",
            &["validators", "validationID"],
            "v1.12.2",
        ),
        (
            "platform.getCurrentValidators",
            &["validators", "nextPeriod"],
            "v1.15.0",
        ),
        ("platform.getStake", &["param:validatorsOnly"], "v1.10.1"),
        ("platform.getValidatorsAt", &["publicKey"], "v1.10.7"),
    ] {
        let f = field_at(&spec, wire_name, path);
        assert_eq!(
            f.since.map(|v| v.to_string()).as_deref(),
            Some(since),
            "{wire_name} {path:?}"
        );
        assert!(
            f.is_option(),
            "{wire_name} {path:?} is optional to the client"
        );
    }
    // Members every supported node writes carry no `since`.
    for (wire_name, path) in [
        ("info.getNodeID", &["nodePOP"][..]),
        (
            "platform.getCurrentValidators",
            &["validators", "accruedDelegateeReward"],
        ),
        ("avm.getAllBalances", &["param:includePartial"]),
        ("info.peers", &["peers", "trackedSubnets"]),
    ] {
        assert_eq!(
            field_at(&spec, wire_name, path).since,
            None,
            "{wire_name} {path:?}"
        );
    }
}
