//! `codegen diff`: each kind of change, made to a small spec, is found with its place, bump
//! and whom it breaks, and nothing else is reported; the command line prints the table or
//! JSON and fails on request.
//!
//! Each test is a pair of spec folders: the base below, and the base with one change.

use avalanche_rpc_codegen::diff::{Breaks, Bump, Change, diff};
use avalanche_rpc_codegen::{Sources, load};
use std::path::{Path, PathBuf};

const WIRE_TYPES: &str = r#"
string:
  summary: A JSON string.
  json: string
  rust: String
  example: avalanche

bool:
  summary: A JSON boolean.
  json: boolean
  rust: bool
  example: true

u64:
  summary: Unsigned 64-bit integer as a decimal string.
  json: string
  accepts: [number]
  pattern: '^[0-9]{1,20}$'
  rust: U64
  example: "1000"
"#;

const COMMON: &str = r#"
Owner:
  summary: Who may spend an output.
  fields:
    - { name: locktime, type: u64, summary: Unix time before which the owner cannot act. }
    - { name: addresses, type: list<string>, summary: Owner addresses. }

Extra:
  summary: A schema nothing uses.
  fields:
    - { name: note, type: string, summary: A note. }

Status:
  summary: How the node is doing.
  values:
    - { value: Up, summary: Running. }
    - { value: Down, summary: Stopped. }
"#;

const INFO: &str = r#"
name: info
title: Info API
namespace: info
path: /ext/info
summary: About the node.

methods:
  - name: getNodeVersion
    summary: The node's version.
    params:
      - { name: verbose, type: bool, optional: true, summary: More detail. }
      - { name: tag, type: string, optional: true, aliases: [label], summary: A tag. }
    result:
      fields:
        - { name: version, type: string, summary: The version. }
        - { name: owner, type: Owner, summary: Who runs it. }
        - { name: comment, type: string, optional: true, summary: A comment. }
    examples:
      - name: One
        params: {}
        result: { version: "1", owner: { locktime: "0", addresses: [] } }

  - name: getStatus
    summary: How the node is doing.
    params: []
    result:
      type: Status
    examples:
      - name: Up
        result: Up
"#;

fn base() -> Sources {
    Sources {
        versions: None,
        wire_types: ("wire-types.yaml".into(), WIRE_TYPES.into()),
        schemas: vec![("schemas/common.yaml".into(), COMMON.into())],
        interfaces: vec![("interfaces/info.yaml".into(), INFO.into())],
        ..Sources::default()
    }
}

/// `text` with `from` replaced by `to` (which must occur exactly once).
#[track_caller]
fn edit(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from:?} must occur once");
    text.replacen(from, to, 1)
}

/// The changes from the base to the base with `change` applied to its interface file.
#[track_caller]
fn changes_in_info(from: &str, to: &str) -> Vec<Change> {
    let mut new = base();
    new.interfaces[0].1 = edit(INFO, from, to);
    between(base(), new)
}

#[track_caller]
fn between(old: Sources, new: Sources) -> Vec<Change> {
    let old = load(&old).unwrap_or_else(|e| panic!("old: {e}"));
    let new = load(&new).unwrap_or_else(|e| panic!("new: {e}"));
    diff(&old, &new)
}

/// Exactly one change, of this kind, place, bump and breaks.
#[track_caller]
fn one(changes: &[Change], kind: &str, place: &str, bump: Bump, breaks: &[Breaks]) {
    assert_eq!(changes.len(), 1, "{changes:#?}");
    let c = &changes[0];
    assert_eq!(
        (c.kind, c.place.as_str(), c.bump),
        (kind, place, bump),
        "{c:#?}"
    );
    assert_eq!(c.breaks, breaks, "{c:#?}");
}

use Breaks::{ClientCallers as C, ServerImplementers as S, Wire as W};

const RESULT_VERSION: &str = "        - { name: version, type: string, summary: The version. }\n";
const EXAMPLE: &str = r#"result: { version: "1", owner: { locktime: "0", addresses: [] } }"#;

#[test]
fn identical_specs_have_no_change() {
    assert!(between(base(), base()).is_empty());
}

#[test]
fn methods_added_and_removed() {
    let c = changes_in_info(
        "  - name: getStatus\n",
        "  - name: getUptime\n    summary: Uptime.\n    params: []\n    result:\n      type: u64\n    examples:\n      - name: Zero\n        result: \"0\"\n\n  - name: getStatus\n",
    );
    one(&c, "method-added", "info.getUptime", Bump::Minor, &[]);
    let end = INFO.find("  - name: getStatus").unwrap();
    let mut new = base();
    new.interfaces[0].1 = INFO[..end].to_string();
    one(
        &between(base(), new),
        "method-removed",
        "info.getStatus",
        Bump::Major,
        &[C, S, W],
    );
}

#[test]
fn interfaces_added_removed_and_moved() {
    let mut new = base();
    new.interfaces.push((
        "interfaces/health.yaml".into(),
        INFO.replace("name: info", "name: health")
            .replace("namespace: info", "namespace: health")
            .replace("/ext/info", "/ext/health"),
    ));
    one(
        &between(base(), new.clone()),
        "interface-added",
        "interface health",
        Bump::Minor,
        &[],
    );
    one(
        &between(new, base()),
        "interface-removed",
        "interface health",
        Bump::Major,
        &[C, S, W],
    );
    one(
        &changes_in_info("path: /ext/info", "path: /ext/information"),
        "path-changed",
        "interface info",
        Bump::Major,
        &[W],
    );
}

#[test]
fn params_added_removed_and_made_required() {
    let verbose = "      - { name: verbose, type: bool, optional: true, summary: More detail. }\n";
    let c = changes_in_info(
        verbose,
        &format!(
            "{verbose}      - {{ name: limit, type: u64, optional: true, summary: At most. }}\n"
        ),
    );
    one(
        &c,
        "member-added-optional",
        "info.getNodeVersion params.limit",
        Bump::Minor,
        &[],
    );
    // The example's params must carry it too.
    let mut new = base();
    new.interfaces[0].1 = edit(
        &edit(
            INFO,
            verbose,
            &format!("{verbose}      - {{ name: limit, type: u64, summary: At most. }}\n"),
        ),
        "        params: {}",
        "        params: { limit: \"1\" }",
    );
    let c: Vec<Change> = between(base(), new)
        .into_iter()
        .filter(|c| c.kind != "examples-changed")
        .collect();
    one(
        &c,
        "member-added-required",
        "info.getNodeVersion params.limit",
        Bump::Major,
        &[C, W],
    );
    one(
        &changes_in_info(verbose, ""),
        "member-removed",
        "info.getNodeVersion params.verbose",
        Bump::Major,
        &[C, S, W],
    );
    let mut new = base();
    new.interfaces[0].1 = edit(
        &edit(
            INFO,
            "{ name: verbose, type: bool, optional: true,",
            "{ name: verbose, type: bool,",
        ),
        "        params: {}",
        "        params: { verbose: true }",
    );
    let c: Vec<Change> = between(base(), new)
        .into_iter()
        .filter(|c| c.kind != "examples-changed")
        .collect();
    one(
        &c,
        "member-made-required",
        "info.getNodeVersion params.verbose",
        Bump::Major,
        &[C, S, W],
    );
}

#[test]
fn result_members_added_removed_renamed_retyped() {
    let c = changes_in_info(
        RESULT_VERSION,
        &format!(
            "{RESULT_VERSION}        - {{ name: build, type: string, optional: true, summary: The build. }}\n"
        ),
    );
    one(
        &c,
        "member-added-optional",
        "info.getNodeVersion result.build",
        Bump::Minor,
        &[],
    );

    let mut new = base();
    new.interfaces[0].1 = edit(
        &edit(
            INFO,
            RESULT_VERSION,
            &format!(
                "{RESULT_VERSION}        - {{ name: build, type: string, summary: The build. }}\n"
            ),
        ),
        EXAMPLE,
        r#"result: { version: "1", build: "b", owner: { locktime: "0", addresses: [] } }"#,
    );
    let c: Vec<Change> = between(base(), new)
        .into_iter()
        .filter(|c| c.kind != "examples-changed")
        .collect();
    one(
        &c,
        "member-added-required",
        "info.getNodeVersion result.build",
        Bump::Major,
        &[S],
    );

    let mut new = base();
    new.interfaces[0].1 = edit(
        &edit(INFO, RESULT_VERSION, ""),
        EXAMPLE,
        r#"result: { owner: { locktime: "0", addresses: [] } }"#,
    );
    let c: Vec<Change> = between(base(), new)
        .into_iter()
        .filter(|c| c.kind != "examples-changed")
        .collect();
    one(
        &c,
        "member-removed",
        "info.getNodeVersion result.version",
        Bump::Major,
        &[C, S, W],
    );

    let mut new = base();
    new.interfaces[0].1 = edit(
        &edit(
            INFO,
            "{ name: version, type: string,",
            "{ name: release, type: string,",
        ),
        EXAMPLE,
        r#"result: { release: "1", owner: { locktime: "0", addresses: [] } }"#,
    );
    let c: Vec<Change> = between(base(), new)
        .into_iter()
        .filter(|c| c.kind != "examples-changed")
        .collect();
    one(
        &c,
        "member-renamed",
        "info.getNodeVersion result.release",
        Bump::Major,
        &[C, S, W],
    );

    let c = changes_in_info(
        "{ name: version, type: string,",
        "{ name: version, type: u64,",
    );
    one(
        &c,
        "type-changed",
        "info.getNodeVersion result.version",
        Bump::Major,
        &[C, S, W],
    );

    let mut new = base();
    new.interfaces[0].1 = edit(
        &edit(
            INFO,
            "{ name: comment, type: string, optional: true,",
            "{ name: comment, type: string, nullable: true,",
        ),
        EXAMPLE,
        r#"result: { version: "1", owner: { locktime: "0", addresses: [] }, comment: null }"#,
    );
    let c: Vec<Change> = between(base(), new)
        .into_iter()
        .filter(|c| c.kind != "examples-changed")
        .collect();
    // Optional to nullable: still an `Option` in Rust, but always on the wire now.
    one(
        &c,
        "nullable-changed",
        "info.getNodeVersion result.comment",
        Bump::Major,
        &[W],
    );

    let c = changes_in_info(
        "{ name: version, type: string,",
        "{ name: version, type: string, optional: true,",
    );
    one(
        &c,
        "member-made-optional",
        "info.getNodeVersion result.version",
        Bump::Major,
        &[C, S],
    );
}

#[test]
fn member_details() {
    let c = changes_in_info("aliases: [label]", "aliases: [label, name]");
    one(
        &c,
        "alias-added",
        "info.getNodeVersion params.tag",
        Bump::Minor,
        &[],
    );
    let c = changes_in_info("aliases: [label], ", "");
    one(
        &c,
        "alias-removed",
        "info.getNodeVersion params.tag",
        Bump::Major,
        &[W],
    );
    let c = changes_in_info(
        "{ name: verbose, type: bool, optional: true,",
        "{ name: verbose, type: bool, default: false,",
    );
    one(
        &c,
        "default-changed",
        "info.getNodeVersion params.verbose",
        Bump::Minor,
        &[],
    );
    let c = changes_in_info(
        "summary: The version. }",
        "summary: The software version. }",
    );
    one(
        &c,
        "docs-changed",
        "info.getNodeVersion result.version",
        Bump::Patch,
        &[],
    );
    let c = changes_in_info(
        "summary: The node's version.",
        "summary: The node's version.\n    deprecated: { since: v1.11.0, note: Use another. }",
    );
    one(
        &c,
        "method-deprecated",
        "info.getNodeVersion",
        Bump::Minor,
        &[],
    );
    let c = changes_in_info("      - name: Up\n", "      - name: Running\n");
    one(&c, "examples-changed", "info.getStatus", Bump::Patch, &[]);
}

#[test]
fn schemas_and_enumerations() {
    let mut new = base();
    new.schemas[0].1 = format!(
        "{COMMON}\nMore:\n  summary: Another.\n  fields:\n    - {{ name: x, type: string, summary: X. }}\n"
    );
    one(
        &between(base(), new),
        "schema-added",
        "schema More",
        Bump::Minor,
        &[],
    );
    let mut new = base();
    new.schemas[0].1 = edit(
        COMMON,
        "Extra:\n  summary: A schema nothing uses.\n  fields:\n    - { name: note, type: string, summary: A note. }\n",
        "",
    );
    one(
        &between(base(), new),
        "schema-removed",
        "schema Extra",
        Bump::Major,
        &[C, S],
    );
    let mut new = base();
    new.schemas[0].1 = edit(
        COMMON,
        "    - { value: Down, summary: Stopped. }\n",
        "    - { value: Down, summary: Stopped. }\n    - { value: Syncing, summary: Catching up. }\n",
    );
    one(
        &between(base(), new),
        "enum-value-added",
        "schema Status",
        Bump::Minor,
        &[],
    );
    let mut new = base();
    new.schemas[0].1 = edit(COMMON, "    - { value: Down, summary: Stopped. }\n", "");
    one(
        &between(base(), new),
        "enum-value-removed",
        "schema Status",
        Bump::Major,
        &[C, S, W],
    );
    // A member added to a shared schema: whoever builds it must give it.
    let mut new = base();
    new.schemas[0].1 = edit(
        COMMON,
        "    - { name: note, type: string, summary: A note. }\n",
        "    - { name: note, type: string, summary: A note. }\n    - { name: author, type: string, summary: Who. }\n",
    );
    one(
        &between(base(), new),
        "member-added-required",
        "schema Extra.author",
        Bump::Major,
        &[C, S],
    );
}

#[test]
fn wire_types_change_what_travels() {
    let mut new = base();
    new.wire_types.1 = edit(
        WIRE_TYPES,
        "pattern: '^[0-9]{1,20}$'",
        "pattern: '^[0-9]{1,19}$'",
    );
    one(
        &between(base(), new),
        "wire-type-values-changed",
        "wire type u64",
        Bump::Major,
        &[W],
    );
}

#[test]
fn several_changes_bump_to_the_largest() {
    let mut new = base();
    new.interfaces[0].1 = edit(
        &edit(
            INFO,
            "summary: The version. }",
            "summary: The software version. }",
        ),
        "path: /ext/info",
        "path: /ext/information",
    );
    let c = between(base(), new);
    assert_eq!(c.len(), 2);
    assert_eq!(avalanche_rpc_codegen::diff::bump(&c), Bump::Major);
    assert_eq!(avalanche_rpc_codegen::diff::bump(&c[..0]), Bump::None);
}

fn repo_spec() -> Sources {
    Sources::read_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec")).unwrap()
}

#[test]
fn codec_layouts() {
    let mut new = repo_spec();
    let f = new
        .codec
        .iter_mut()
        .find(|(n, _)| n == "codec/secp256k1fx.yaml")
        .unwrap();
    f.1 = edit(
        &f.1,
        "      - { name: threshold, type: u32,",
        "      - { name: threshold, type: u64,",
    );
    one(
        &between(repo_spec(), new),
        "codec-layout-changed",
        "codec type secp256k1fx.OutputOwners",
        Bump::Major,
        &[C, S, W],
    );
    let mut new = repo_spec();
    let f = new
        .codec
        .iter_mut()
        .find(|(n, _)| n == "codec/codecs.yaml")
        .unwrap();
    f.1 = edit(
        &f.1,
        "      20: avm.StandardBlock",
        "      21: avm.StandardBlock",
    );
    let c = between(repo_spec(), new);
    one(&c, "codec-type-ids-changed", "codec avm", Bump::Major, &[W]);
    // When a JSON member appeared: documentation and what the reader tolerates.
    let mut new = repo_spec();
    let f = new
        .codec
        .iter_mut()
        .find(|(n, _)| n == "codec/avm.yaml")
        .unwrap();
    f.1 = f.1.replacen(
        "{ name: id, value: id, since: v1.10.1 }",
        "{ name: id, value: id, since: v1.10.2 }",
        1,
    );
    let c = between(repo_spec(), new);
    one(
        &c,
        "member-versions-changed",
        "codec type avm.Tx",
        Bump::Patch,
        &[],
    );
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_avalanche-rpc-codegen"))
}

use std::process::Command;

/// Writes `s` as a spec folder under a fresh temporary folder.
fn folder(name: &str, s: &Sources) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "avalanche-rpc-diff-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    for (file, text) in s.files() {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn the_command_line_prints_json_and_fails_on_request() {
    let old = folder("old", &base());
    let mut n = base();
    n.interfaces[0].1 = edit(INFO, "path: /ext/info", "path: /ext/information");
    let new = folder("new", &n);
    let out = bin()
        .arg("diff")
        .arg(&old)
        .arg(&new)
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["bump"], "major");
    assert_eq!(json["changes"][0]["kind"], "path-changed");
    assert_eq!(json["changes"][0]["breaks"], serde_json::json!(["wire"]));
    let out = bin()
        .arg("diff")
        .arg(&old)
        .arg(&new)
        .args(["--fail-on", "major"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("bump: major"));
    let out = bin()
        .arg("diff")
        .arg(&old)
        .arg(&old)
        .args(["--fail-on", "patch"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // A folder that is no spec: exit 2, saying which side.
    let out = bin()
        .arg("diff")
        .arg(&old)
        .arg(old.join("nowhere"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the new spec"));
    let _ = std::fs::remove_dir_all(&old);
    let _ = std::fs::remove_dir_all(&new);
}

#[test]
fn the_repository_spec_at_head_has_no_change_from_itself() {
    let out = bin()
        .args(["diff", "--git", "HEAD", "--json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("not a git repository") || stderr.contains("cannot run git") {
        return; // a packaged copy without its history
    }
    assert!(out.status.success(), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The working spec may differ from HEAD while editing; what HEAD holds, loads.
    assert!(json["bump"].is_string());
}

/// The changes from the base's interface file edited by `old` to it edited by `new`, without
/// `examples-changed`.
#[track_caller]
fn changes_between_info(old: &[(&str, &str)], new: &[(&str, &str)]) -> Vec<Change> {
    let with = |edits: &[(&str, &str)]| {
        let mut s = base();
        s.interfaces[0].1 = edits
            .iter()
            .fold(INFO.to_string(), |text, (from, to)| edit(&text, from, to));
        s
    };
    between(with(old), with(new))
        .into_iter()
        .filter(|c| c.kind != "examples-changed")
        .collect()
}

/// `getNodeVersion` with two required params of one type before its optional ones, in
/// either order, and an example giving them.
fn required_params(first: &str, second: &str) -> [(&'static str, String); 2] {
    let param = |n: &str| format!("      - {{ name: {n}, type: string, summary: {n}. }}\n");
    [
        (
            "      - { name: verbose,",
            format!("{}{}      - {{ name: verbose,", param(first), param(second)),
        ),
        (
            "        params: {}",
            "        params: { network: mainnet, chain: X }".to_string(),
        ),
    ]
}

fn edits<'a>(v: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    v.iter().map(|(a, b)| (*a, b.as_str())).collect()
}

#[test]
fn required_params_in_another_order_change_new() {
    let old = required_params("network", "chain");
    let new = required_params("chain", "network");
    let c = changes_between_info(&edits(&old), &edits(&new));
    // The params go by name: the wire is the same, `new(network, chain)` is not.
    one(
        &c,
        "required-order-changed",
        "info.getNodeVersion params",
        Bump::Major,
        &[C],
    );
    assert!(
        c[0].change
            .contains("`new(network, chain)` now takes its arguments as `new(chain, network)`")
            && c[0].change.contains("`network` and `chain` have one type"),
        "{}",
        c[0].change
    );
}

#[test]
fn required_result_members_in_another_order_change_new() {
    let owner = "        - { name: owner, type: Owner, summary: Who runs it. }\n";
    let c = changes_in_info(
        &format!("{RESULT_VERSION}{owner}"),
        &format!("{owner}{RESULT_VERSION}"),
    );
    // Whoever builds the result (the server) calls `new(version, owner)`.
    one(
        &c,
        "required-order-changed",
        "info.getNodeVersion result",
        Bump::Major,
        &[S],
    );
    assert!(
        c[0].change
            .contains("`new(version, owner)` now takes its arguments as `new(owner, version)`")
            && !c[0].change.contains("one type"),
        "{}",
        c[0].change
    );
}

#[test]
fn required_schema_members_in_another_order_change_new() {
    let locktime = "    - { name: locktime, type: u64, summary: Unix time before which the owner cannot act. }\n";
    let addresses = "    - { name: addresses, type: list<string>, summary: Owner addresses. }\n";
    let mut new = base();
    new.schemas[0].1 = edit(
        COMMON,
        &format!("{locktime}{addresses}"),
        &format!("{addresses}{locktime}"),
    );
    one(
        &between(base(), new),
        "required-order-changed",
        "schema Owner",
        Bump::Major,
        &[C, S],
    );
}

#[test]
fn optional_members_in_another_order_leave_new_as_it_is() {
    let verbose = "      - { name: verbose, type: bool, optional: true, summary: More detail. }\n";
    let tag =
        "      - { name: tag, type: string, optional: true, aliases: [label], summary: A tag. }\n";
    let c = changes_in_info(&format!("{verbose}{tag}"), &format!("{tag}{verbose}"));
    one(
        &c,
        "order-changed",
        "info.getNodeVersion params",
        Bump::Patch,
        &[],
    );
    // A required member moving past an optional one: `new(version, owner)` either way.
    let comment =
        "        - { name: comment, type: string, optional: true, summary: A comment. }\n";
    let owner = "        - { name: owner, type: Owner, summary: Who runs it. }\n";
    let c = changes_in_info(
        &format!("{RESULT_VERSION}{owner}{comment}"),
        &format!("{RESULT_VERSION}{comment}{owner}"),
    );
    one(
        &c,
        "order-changed",
        "info.getNodeVersion result",
        Bump::Patch,
        &[],
    );
    // Required members keep their order while one is added between them: that is the
    // addition, not an order change.
    let c = changes_in_info(
        RESULT_VERSION,
        &format!(
            "        - {{ name: build, type: string, optional: true, summary: The build. }}\n{RESULT_VERSION}"
        ),
    );
    one(
        &c,
        "member-added-optional",
        "info.getNodeVersion result.build",
        Bump::Minor,
        &[],
    );
}

#[test]
fn member_spellings_and_rust_names() {
    // Another spelling of one Rust name (`tag` is `tag` either way; `txID` and `txId` are
    // both `tx_id`): code keeps compiling, peers see another name.
    let c = changes_between_info(
        &[("{ name: verbose, type: bool,", "{ name: txID, type: bool,")],
        &[("{ name: verbose, type: bool,", "{ name: txId, type: bool,")],
    );
    one(
        &c,
        "wire-name-changed",
        "info.getNodeVersion params.txId",
        Bump::Major,
        &[W],
    );
    // Found by its Rust name wherever it moved: a rename and a new order, not a removal and
    // an addition.
    let verbose = "      - { name: verbose, type: bool, optional: true, summary: More detail. }\n";
    let tag =
        "      - { name: tag, type: string, optional: true, aliases: [label], summary: A tag. }\n";
    let c = changes_between_info(
        &[(verbose, &verbose.replace("verbose", "txID"))],
        &[(
            &format!("{verbose}{tag}"),
            &format!("{tag}{}", verbose.replace("verbose", "txId")),
        )],
    );
    let kinds: Vec<&str> = c.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, ["wire-name-changed", "order-changed"], "{c:#?}");
    // The name and an alias swapped: both spellings are still read, the other one is
    // written; the Rust name follows the name.
    let c = changes_in_info(
        "{ name: tag, type: string, optional: true, aliases: [label],",
        "{ name: label, type: string, optional: true, aliases: [tag],",
    );
    one(
        &c,
        "member-renamed",
        "info.getNodeVersion params.label",
        Bump::Major,
        &[C, S, W],
    );
    assert!(
        c[0].change.contains("(`tag` is still read)"),
        "{}",
        c[0].change
    );
    let c = changes_between_info(
        &[(
            "name: tag, type: string, optional: true, aliases: [label]",
            "name: txID, type: string, optional: true, aliases: [txId]",
        )],
        &[(
            "name: tag, type: string, optional: true, aliases: [label]",
            "name: txId, type: string, optional: true, aliases: [txID]",
        )],
    );
    one(
        &c,
        "wire-name-changed",
        "info.getNodeVersion params.txId",
        Bump::Major,
        &[W],
    );
    // The old name kept as an alias: still a new Rust name, and another spelling written.
    let c = changes_in_info(
        "{ name: tag, type: string, optional: true, aliases: [label],",
        "{ name: mark, type: string, optional: true, aliases: [label, tag],",
    );
    one(
        &c,
        "member-renamed",
        "info.getNodeVersion params.mark",
        Bump::Major,
        &[C, S, W],
    );
}

#[test]
fn a_method_called_another_way_with_the_same_rust_names() {
    // `getUTXOs` and `getUtxos` are both `get_utxos`, `GetUtxosParams`, `GET_UTXOS`: only
    // the name a request carries changes.
    let c = changes_between_info(
        &[("  - name: getStatus\n", "  - name: getUTXOs\n")],
        &[("  - name: getStatus\n", "  - name: getUtxos\n")],
    );
    one(&c, "wire-name-changed", "info.getUtxos", Bump::Major, &[W]);
    // Another Rust name: a method removed and another added.
    let c = changes_between_info(
        &[("  - name: getStatus\n", "  - name: getUTXOs\n")],
        &[("  - name: getStatus\n", "  - name: getUtxoSet\n")],
    );
    let kinds: Vec<&str> = c.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, ["method-added", "method-removed"], "{c:#?}");
}

#[test]
fn methods_and_enumeration_values_in_another_order() {
    let first = INFO.find("  - name: getNodeVersion").unwrap();
    let second = INFO.find("  - name: getStatus").unwrap();
    let mut new = base();
    new.interfaces[0].1 = format!(
        "{}{}\n{}",
        &INFO[..first],
        &INFO[second..],
        &INFO[first..second]
    );
    one(
        &between(base(), new),
        "order-changed",
        "interface info",
        Bump::Patch,
        &[],
    );
    let up = "    - { value: Up, summary: Running. }\n";
    let down = "    - { value: Down, summary: Stopped. }\n";
    let mut new = base();
    new.schemas[0].1 = edit(COMMON, &format!("{up}{down}"), &format!("{down}{up}"));
    one(
        &between(base(), new),
        "order-changed",
        "schema Status",
        Bump::Patch,
        &[],
    );
}

#[test]
fn an_enumeration_value_written_another_way_with_the_same_variant() {
    // `Up` and `UP` are both the variant `Up`.
    let mut new = base();
    new.schemas[0].1 = edit(COMMON, "{ value: Up,", "{ value: UP,");
    new.interfaces[0].1 = edit(INFO, "result: Up\n", "result: UP\n");
    let c: Vec<Change> = between(base(), new)
        .into_iter()
        .filter(|c| c.kind != "examples-changed")
        .collect();
    one(&c, "wire-name-changed", "schema Status", Bump::Major, &[W]);
}

#[test]
fn an_interface_renamed_or_in_another_namespace() {
    // Same path and namespace: the same requests, other Rust names (`info` → `node_info`).
    let mut new = base();
    new.interfaces[0] = (
        "interfaces/node-info.yaml".into(),
        edit(INFO, "name: info\n", "name: node-info\n"),
    );
    let c = between(base(), new);
    one(
        &c,
        "interface-renamed",
        "interface node-info",
        Bump::Major,
        &[C, S],
    );
    // The namespace is in every method's name on the wire, in no Rust name.
    let c = changes_in_info("namespace: info\n", "namespace: information\n");
    one(&c, "namespace-changed", "interface info", Bump::Major, &[W]);
}

#[test]
fn the_oldest_supported_node_version_decides_what_is_an_option() {
    // `build` came with v1.11.0: an `Option` while v1.10.0 is supported, a plain member
    // once it no longer is; its own `since` is the same.
    let with = |oldest: &str| {
        let mut s = base();
        s.versions = Some((
            "versions.yaml".into(),
            format!("oldest-supported: {oldest}\nchecked-against: v1.15.0\n"),
        ));
        s.interfaces[0].1 = edit(
            &edit(
                INFO,
                RESULT_VERSION,
                &format!(
                    "{RESULT_VERSION}        - {{ name: build, type: string, since: v1.11.0, summary: The build. }}\n"
                ),
            ),
            EXAMPLE,
            r#"result: { version: "1", build: "b", owner: { locktime: "0", addresses: [] } }"#,
        );
        s
    };
    let c = between(with("v1.10.0"), with("v1.11.0"));
    let kinds: Vec<(&str, &str, Bump)> = c
        .iter()
        .map(|c| (c.kind, c.place.as_str(), c.bump))
        .collect();
    assert_eq!(
        kinds,
        [
            ("versions-changed", "versions", Bump::Patch),
            (
                "member-versions-changed-type",
                "info.getNodeVersion result.build",
                Bump::Major
            ),
        ],
        "{c:#?}"
    );
    // Whoever reads the result (the client) sees `Option<String>` become `String`.
    assert_eq!(c[1].breaks, [C]);
    assert!(
        c[1].change.contains("no longer an `Option`"),
        "{}",
        c[1].change
    );
    // A newer oldest version that leaves every member's type as it was: patch.
    let c = between(with("v1.11.0"), with("v1.11.1"));
    one(&c, "versions-changed", "versions", Bump::Patch, &[]);
}

const PAGED: &str = r#"
  - name: getPeers
    summary: Peers, page by page.
    params:
      - { name: limit, type: u64, optional: true, summary: At most. }
      - { name: start, type: u64, optional: true, summary: Where to start. }
    result:
      fields:
        - { name: peers, type: list<string>, summary: Peers. }
        - { name: owners, type: list<Owner>, summary: Their owners. }
        - { name: names, type: list<string>, summary: Their names. }
        - { name: end, type: u64, summary: Where the next page starts. }
    examples:
      - name: None
        result: { peers: [], owners: [], names: [], end: "0" }
"#;

/// The base with `getPeers`, paged as `pagination` says (none when empty).
fn paged(pagination: &str) -> Sources {
    let mut s = base();
    let method = if pagination.is_empty() {
        PAGED.to_string()
    } else {
        edit(
            PAGED,
            "    summary: Peers, page by page.\n",
            &format!("    summary: Peers, page by page.\n    pagination:\n{pagination}"),
        )
    };
    s.interfaces[0].1 = format!("{INFO}{method}");
    s
}

#[test]
fn pagination_is_the_clients_stream() {
    let pages = "      items: peers\n      page-size: { param: limit, max: 100 }\n      cursor: { param: start, from: end }\n";
    // The stream is a provided method of the client trait: gained, it breaks nobody; gone,
    // callers of `get_peers_stream`. The wire is the same either way.
    one(
        &between(paged(""), paged(pages)),
        "pagination-added",
        "info.getPeers",
        Bump::Minor,
        &[],
    );
    one(
        &between(paged(pages), paged("")),
        "pagination-removed",
        "info.getPeers",
        Bump::Major,
        &[C],
    );
    // Its items of another type: the stream yields another type.
    one(
        &between(
            paged(pages),
            paged(&pages.replace("items: peers", "items: owners")),
        ),
        "pagination-item-changed",
        "info.getPeers",
        Bump::Major,
        &[C],
    );
    // The same type, or another way of asking for pages: the stream's signature stays.
    for other in [
        pages.replace("items: peers", "items: names"),
        pages.replace("max: 100", "max: 50"),
        format!("{pages}      may-repeat: true\n"),
    ] {
        one(
            &between(paged(pages), paged(&other)),
            "pagination-changed",
            "info.getPeers",
            Bump::Patch,
            &[],
        );
    }
}

#[test]
fn types_renamed_with_the_same_wire() {
    // A schema of another name and the same shape: the Rust type has another name; the
    // members of that type carry the same JSON.
    let mut new = base();
    new.schemas[0].1 = edit(COMMON, "Owner:\n", "Holder:\n");
    new.interfaces[0].1 = edit(INFO, "type: Owner,", "type: Holder,");
    one(
        &between(base(), new),
        "schema-renamed",
        "schema Holder",
        Bump::Major,
        &[C, S],
    );
    // The same in an interface's own schemas, and its result typed by it.
    let local = |name: &str| {
        let mut s = base();
        s.interfaces[0].1 = edit(
            &edit(
                INFO,
                "summary: About the node.\n",
                &format!(
                    "summary: About the node.\n\nschemas:\n  {name}:\n    summary: A peer.\n    fields:\n      - {{ name: ip, type: string, summary: Its IP. }}\n"
                ),
            ),
            "      type: Status\n",
            &format!("      type: list<{name}>\n"),
        )
        .replace("        result: Up\n", "        result: []\n");
        s
    };
    let c: Vec<Change> = between(local("Peer"), local("Neighbour"))
        .into_iter()
        .filter(|c| c.kind != "examples-changed")
        .collect();
    one(
        &c,
        "schema-renamed",
        "info schema Neighbour",
        Bump::Major,
        &[C, S],
    );
    // A wire type of another name: its Rust type is its `rust:`, the same.
    let mut new = base();
    new.wire_types.1 = edit(WIRE_TYPES, "u64:\n", "uint64:\n");
    new.schemas[0].1 = edit(COMMON, "type: u64,", "type: uint64,");
    one(
        &between(base(), new),
        "wire-type-renamed",
        "wire type uint64",
        Bump::Patch,
        &[],
    );
    // A wire type's Rust type changed, its JSON not: code breaks, peers do not.
    let mut new = base();
    new.wire_types.1 = edit(WIRE_TYPES, "rust: String\n", "rust: Text\n");
    one(
        &between(base(), new),
        "wire-type-rust-changed",
        "wire type string",
        Bump::Major,
        &[C, S],
    );
}
