//! Every kind of spec problem is reported with its file, its place and a message that says
//! what is wrong; loading never panics; and every problem is reported, not only the first.
//!
//! Each test starts from a small valid spec (`base`), changes one thing, and checks the
//! errors exactly.

use avalanche_rpc_codegen::{Sources, SpecError, load};
use std::path::Path;

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
  summary: Unsigned 64-bit integer as a decimal string; a bare number is read too.
  json: string
  accepts: [number]
  pattern: '^[0-9]{1,20}$'
  max: 18446744073709551615
  rust: U64
  example: "1000"

id:
  summary: A 32-byte ID in cb58.
  json: string
  pattern: '^[1-9A-HJ-NP-Za-km-z]{32,50}$'
  rust: Id
  example: 11111111111111111111111111111111LpoYY
"#;

const COMMON: &str = r#"
Owner:
  summary: Who may spend an output.
  fields:
    - { name: locktime, type: u64, summary: Unix time before which the owner cannot act. }
    - { name: addresses, type: list<string>, summary: Owner addresses. }
"#;

const INFO: &str = r#"
name: info
title: Info API
namespace: info
path: /ext/info
summary: About the node.

schemas:
  Status:
    summary: How the node is doing.
    values:
      - { value: Up, summary: Running. }
      - { value: Down, summary: Stopped. }

methods:
  - name: getNodeID
    summary: The node's ID.
    params:
      - { name: txID, type: id, summary: A transaction. }
      - { name: verbose, type: bool, optional: true, summary: More detail. }
    result:
      fields:
        - { name: nodeID, type: string, summary: The node ID. }
        - { name: owner, type: Owner, summary: Who runs it. }
        - { name: status, type: Status, summary: How it is doing. }
    examples:
      - name: Mainnet
        params: { txID: 11111111111111111111111111111111LpoYY }
        result: { nodeID: NodeID-abc, owner: { locktime: "0", addresses: [] }, status: Up }

  - name: getHeight
    summary: Height of the last accepted block.
    params: []
    result:
      type: u64
    examples:
      - name: Genesis
        result: "0"
"#;

/// The valid spec every test starts from.
fn base() -> Sources {
    Sources {
        versions: None,
        wire_types: ("wire-types.yaml".into(), WIRE_TYPES.into()),
        schemas: vec![("schemas/common.yaml".into(), COMMON.into())],
        interfaces: vec![("interfaces/info.yaml".into(), INFO.into())],
        ..Sources::default()
    }
}

/// `text` with `from` replaced by `to`; `from` must occur exactly once, so that a test cannot
/// pass because its change silently did nothing.
#[track_caller]
fn edit(text: &str, from: &str, to: &str) -> String {
    assert_eq!(
        text.matches(from).count(),
        1,
        "`{from}` should occur exactly once in the base text"
    );
    text.replacen(from, to, 1)
}

/// The base spec with one replacement in the file named `file`.
#[track_caller]
fn base_with(file: &str, from: &str, to: &str) -> Sources {
    let mut s = base();
    let text = if s.wire_types.0 == file {
        &mut s.wire_types.1
    } else {
        s.schemas
            .iter_mut()
            .chain(s.interfaces.iter_mut())
            .find(|(name, _)| name == file)
            .map(|(_, text)| text)
            .unwrap_or_else(|| panic!("no file {file} in the base spec"))
    };
    *text = edit(text, from, to);
    s
}

/// The errors of loading `sources`, which must fail; each with its line and column.
#[track_caller]
fn errors(sources: &Sources) -> Vec<SpecError> {
    match load(sources) {
        Ok(_) => panic!("the spec loaded, but it has a problem"),
        Err(e) => {
            assert_positioned(&e.0);
            e.0
        }
    }
}

/// Every error names a line and a column (both from 1) of a file of the spec.
#[track_caller]
fn assert_positioned(errs: &[SpecError]) {
    for e in errs {
        assert!(
            e.pos.line >= 1 && e.pos.column >= 1 && !e.file.is_empty(),
            "no place: {e:?}"
        );
    }
}

/// Asserts that loading `sources` reports exactly one problem, at `place` (`file:line:column`)
/// in the part of the spec `at`, whose message contains `message`; and that it shows as
/// `file:line:column: at: message`.
#[track_caller]
fn assert_error(sources: &Sources, place: &str, at: &str, message: &str) {
    let errs = errors(sources);
    let shown = || {
        errs.iter()
            .map(|e| format!("  {e}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    if std::env::var_os("SHOW_ERRORS").is_some() {
        eprintln!("ACTUAL {}", shown());
    }
    assert_eq!(errs.len(), 1, "expected one problem, got:\n{}", shown());
    let e = &errs[0];
    let actual = format!("{}:{}:{}", e.file, e.pos.line, e.pos.column);
    assert_eq!(
        (actual.as_str(), e.at.as_str()),
        (place, at),
        "wrong place:\n{}",
        shown()
    );
    assert!(
        e.message.contains(message),
        "the message should contain `{message}`:\n{}",
        shown()
    );
    let display = e.to_string();
    let prefix = if at.is_empty() {
        format!("{place}: ")
    } else {
        format!("{place}: {at}: ")
    };
    assert!(display.starts_with(&prefix), "shown as {display}");
}

// ---------------------------------------------------------------- the base

#[test]
fn base_spec_is_valid() {
    let spec = load(&base()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(spec.methods().count(), 2);
}

// ---------------------------------------------------------------- YAML shape

#[test]
fn yaml_syntax_error_names_line_and_column() {
    let s = base_with(
        "interfaces/info.yaml",
        "path: /ext/info",
        "path: /ext/info: x",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:5:16",
        "",
        "this value holds `: `, which YAML reads as the start of another key: put the value in quotes",
    );
}

#[test]
fn unknown_key_in_a_field() {
    let s = base_with(
        "interfaces/info.yaml",
        "{ name: verbose, type: bool, optional: true, summary: More detail. }",
        "{ name: verbose, type: bool, optional: true, summery: More detail. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:20:54",
        "method `info.getNodeID`, params, field `verbose`",
        "unknown key `summery`; did you mean `summary`? (the keys here are `name`, `type`, `summary`",
    );
}

#[test]
fn unknown_key_in_a_wire_type() {
    let s = base_with(
        "wire-types.yaml",
        "  json: boolean\n",
        "  json: boolean\n  jsn: x\n",
    );
    assert_error(
        &s,
        "wire-types.yaml:11:3",
        "wire type `bool`",
        "unknown key `jsn`; did you mean `json`?",
    );
}

#[test]
fn duplicate_key_in_a_mapping() {
    let s = base_with(
        "interfaces/info.yaml",
        "schemas:\n",
        "schemas:\n  Status:\n    summary: Again.\n    type: u64\n",
    );
    // The place is where the mapping starts, not the second key; the message names the key.
    assert_error(
        &s,
        "interfaces/info.yaml:12:3",
        "",
        "the key `Status` is written twice in this mapping (first at line 9, column 3); keep one",
    );
}

#[test]
fn duplicate_key_in_a_field() {
    let s = base_with(
        "interfaces/info.yaml",
        "{ name: nodeID, type: string, summary: The node ID. }",
        "{ name: nodeID, type: string, type: id, summary: The node ID. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:23:41",
        "",
        "the key `type` is written twice in this mapping (first at line 23, column 27); keep one",
    );
}

#[test]
fn duplicate_key_in_an_example() {
    let s = base_with(
        "interfaces/info.yaml",
        "params: { txID: 11111111111111111111111111111111LpoYY }",
        "params: { txID: 11111111111111111111111111111111LpoYY, txID: 11111111111111111111111111111111LpoYY }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:28:64",
        "",
        "the key `txID` is written twice in this mapping (first at line 28, column 19); keep one",
    );
}

#[test]
fn missing_required_key() {
    let s = base_with("interfaces/info.yaml", "    summary: The node's ID.\n", "");
    assert_error(
        &s,
        "interfaces/info.yaml:16:5",
        "method `info.getNodeID`",
        "missing key `summary`",
    );
}

// ---------------------------------------------------------------- names

#[test]
fn schema_defined_in_two_files() {
    let mut s = base();
    s.schemas.push((
        "schemas/more.yaml".into(),
        "Owner:\n  summary: Again.\n  fields:\n    - { name: x, type: u64, summary: X. }\n".into(),
    ));
    assert_error(
        &s,
        "schemas/more.yaml:1:1",
        "schema `Owner`",
        "defined twice (also in schemas/common.yaml)",
    );
}

#[test]
fn local_schema_shadowing_a_shared_one() {
    let s = base_with(
        "interfaces/info.yaml",
        "schemas:\n  Status:",
        "schemas:\n  Owner:\n    summary: Again.\n    type: u64\n  Status:",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:9:3",
        "schema `Owner`",
        "is also a shared schema in schemas/; rename one",
    );
}

#[test]
fn duplicate_method_name() {
    let mut s = base();
    s.interfaces[0].1.push_str(
        "
  - name: getHeight
    summary: Again.
    params: []
    result: { type: u64 }
    examples: [{ name: Again, result: \"1\" }]
",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:40:5",
        "method `info.getHeight`",
        "is defined twice",
    );
}

#[test]
fn duplicate_field_name() {
    let s = base_with(
        "interfaces/info.yaml",
        "{ name: verbose, type: bool, optional: true, summary: More detail. }",
        "{ name: verbose, type: bool, optional: true, summary: More detail. }
      - { name: verbose, type: u64, optional: true, summary: Again. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:21:9",
        "method `info.getNodeID`, params, field `verbose`",
        "the name `verbose` is used twice",
    );
}

#[test]
fn alias_repeating_a_field_name() {
    let s = base_with(
        "interfaces/info.yaml",
        "{ name: verbose, type: bool, optional: true, summary: More detail. }",
        "{ name: verbose, type: bool, optional: true, aliases: [txID], summary: More detail. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:20:9",
        "method `info.getNodeID`, params, field `verbose`",
        "the name `txID` is used twice",
    );
}

#[test]
fn two_wire_names_with_one_rust_name() {
    let s = base_with(
        "interfaces/info.yaml",
        "{ name: verbose, type: bool, optional: true, summary: More detail. }",
        "{ name: txId, type: id, optional: true, summary: The same spelled differently. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:20:9",
        "method `info.getNodeID`, params, field `txId`",
        "`txId` and `txID` both become the Rust name `tx_id`",
    );
}

#[test]
fn two_method_names_with_one_rust_name() {
    let s = base_with(
        "interfaces/info.yaml",
        "- name: getHeight",
        "- name: getNodeId",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:31:5",
        "method `info.getNodeId`",
        "`getNodeId` and `getNodeID` both become the Rust name `get_node_id`",
    );
}

#[test]
fn field_name_without_a_rust_name() {
    let s = base_with(
        "interfaces/info.yaml",
        "{ name: verbose, type: bool, optional: true, summary: More detail. }",
        "{ name: _, type: bool, optional: true, summary: Nothing but an underscore. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:20:17",
        "method `info.getNodeID`, params, field `_`, name",
        "a field name is letters, digits and `_`",
    );
}

#[test]
fn method_named_like_the_generated_list() {
    let s = base_with("interfaces/info.yaml", "- name: getHeight", "- name: all");
    assert_error(
        &s,
        "interfaces/info.yaml:31:5",
        "method `info.all`",
        "taken by the generated list `methods::ALL`",
    );
}

#[test]
fn interface_named_like_a_generated_module() {
    let mut s = base_with("interfaces/info.yaml", "name: info", "name: types");
    s.interfaces[0].0 = "interfaces/types.yaml".into();
    assert_error(
        &s,
        "interfaces/types.yaml:2:7",
        "name",
        "the interface name `types` is taken in the generated crate",
    );
}

#[test]
fn enum_value_without_a_rust_name() {
    let s = base_with(
        "interfaces/info.yaml",
        "{ value: Down, summary: Stopped. }",
        "{ value: \"+\", summary: Stopped. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:13:9",
        "schema `Status`, value `+`",
        "enum value `+` has no Rust name",
    );
}

#[test]
fn enum_values_with_one_rust_name() {
    let s = base_with(
        "interfaces/info.yaml",
        "{ value: Down, summary: Stopped. }",
        "{ value: up, summary: Lower-case. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:13:9",
        "schema `Status`, value `up`",
        "enum values `up` and `Up` both become the Rust variant `Up`",
    );
}

#[test]
fn schema_named_self() {
    let s = base_with("interfaces/info.yaml", "  Status:\n", "  Self:\n");
    let s = Sources {
        interfaces: vec![(
            "interfaces/info.yaml".into(),
            edit(&s.interfaces[0].1, "type: Status,", "type: Self,"),
        )],
        ..s
    };
    assert_error(
        &s,
        "interfaces/info.yaml:9:3",
        "schema `Self`",
        "`Self` is a Rust keyword and cannot name a type; choose another name",
    );
}

#[test]
fn wire_type_with_a_rust_type_that_is_not_a_name() {
    let s = base_with("wire-types.yaml", "rust: Id", "rust: Vec<u8>");
    assert_error(
        &s,
        "wire-types.yaml:23:1",
        "wire type `id`",
        "`rust: Vec<u8>` must name a runtime type",
    );
}

#[test]
fn interface_name_not_matching_its_file() {
    let s = base_with("interfaces/info.yaml", "name: info", "name: information");
    assert_error(
        &s,
        "interfaces/info.yaml:2:7",
        "name",
        "interface `information` should live in interfaces/information.yaml",
    );
}

// ---------------------------------------------------------------- types

#[test]
fn unknown_type() {
    let s = base_with(
        "interfaces/info.yaml",
        "{ name: nodeID, type: string,",
        "{ name: nodeID, type: nodeid,",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:23:33",
        "method `info.getNodeID`, result, field `nodeID`, type",
        "unknown type `nodeid`: not a wire type (wire-types.yaml) nor a schema",
    );
}

#[test]
fn unknown_type_inside_a_list() {
    let s = base_with(
        "schemas/common.yaml",
        "type: list<string>",
        "type: list<strings>",
    );
    assert_error(
        &s,
        "schemas/common.yaml:6:32",
        "schema `Owner`, field `addresses`, type",
        "in type `list<strings>`: unknown type `strings`",
    );
}

#[test]
fn bad_type_syntax() {
    let s = base_with(
        "interfaces/info.yaml",
        "{ name: txID, type: id,",
        "{ name: txID, type: list<id,",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:19:29",
        "method `info.getNodeID`, params, field `txID`, type",
        "cannot read the type `list<id`",
    );
}

#[test]
fn map_without_a_value_type() {
    let s = base_with("interfaces/info.yaml", "type: u64\n", "type: map<string>\n");
    assert_error(
        &s,
        "interfaces/info.yaml:35:13",
        "method `info.getHeight`, result, type",
        "`map<string>` needs a key type and a value type",
    );
}

#[test]
fn map_with_a_key_not_written_as_a_string() {
    let mut s = base_with(
        "interfaces/info.yaml",
        "type: u64\n",
        "type: \"map<bool, u64>\"\n",
    );
    s.interfaces[0].1 = edit(&s.interfaces[0].1, "result: \"0\"", "result: {}");

    assert_error(
        &s,
        "interfaces/info.yaml:34:5",
        "method `info.getHeight`, result",
        "map keys must be a wire type written as a string, not `bool`",
    );
}

#[test]
fn map_with_a_schema_as_key() {
    let mut s = base_with(
        "schemas/common.yaml",
        "type: list<string>",
        "type: \"map<Owner, string>\"",
    );
    s.interfaces[0].1 = edit(&s.interfaces[0].1, "addresses: []", "addresses: {}");
    assert_error(
        &s,
        "schemas/common.yaml:6:7",
        "schema `Owner`, field `addresses`",
        "map keys must be a wire type written as a string, not `Owner`",
    );
}

#[test]
fn dangling_schema_reference() {
    let s = base_with("interfaces/info.yaml", "type: Owner,", "type: Owners,");
    assert_error(
        &s,
        "interfaces/info.yaml:24:32",
        "method `info.getNodeID`, result, field `owner`, type",
        "unknown type `Owners`",
    );
}

#[test]
fn shared_schema_cannot_see_a_local_one() {
    let s = base_with(
        "schemas/common.yaml",
        "type: list<string>",
        "type: list<Status>",
    );
    assert_error(
        &s,
        "schemas/common.yaml:6:32",
        "schema `Owner`, field `addresses`, type",
        "unknown type `Status`",
    );
}

#[test]
fn result_with_fields_and_type() {
    let s = base_with(
        "interfaces/info.yaml",
        "    result:\n      fields:",
        "    result:\n      type: u64\n      fields:",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:21:5",
        "method `info.getNodeID`, result",
        "give exactly one of `fields`, `values` or `type`",
    );
}

#[test]
fn empty_enum() {
    let s = base_with(
        "interfaces/info.yaml",
        "    values:
      - { value: Up, summary: Running. }
      - { value: Down, summary: Stopped. }",
        "    values: []",
    );
    let errs = errors(&s);
    // The example's `status: Up` cannot be checked against an empty enum: only one problem.
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].at, "schema `Status`, values");
    assert_eq!(
        errs[0].to_string().split(": ").next(),
        Some("interfaces/info.yaml:11:5")
    );
    assert!(
        errs[0]
            .message
            .contains("an enumeration needs at least one value")
    );
}

// ---------------------------------------------------------------- interfaces and methods

#[test]
fn path_variable_without_path_params_entry() {
    let s = base_with(
        "interfaces/info.yaml",
        "path: /ext/info",
        "path: /ext/bc/{chain}",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:5:7",
        "path",
        "`{chain}` has no entry in `path-params`",
    );
}

#[test]
fn path_params_entry_without_path_variable() {
    let s = base_with(
        "interfaces/info.yaml",
        "path: /ext/info",
        "path: /ext/info\npath-params:\n  chain: { summary: The chain. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:7:3",
        "path-params, chain",
        "`chain` does not appear in the path",
    );
}

#[test]
fn path_variable_named_like_a_generated_parameter() {
    let s = base_with(
        "interfaces/info.yaml",
        "path: /ext/info",
        "path: /ext/{transport}\npath-params:\n  transport: { summary: Clashes. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:7:3",
        "path-params, transport",
        "`{transport}` is taken by a generated parameter",
    );
}

#[test]
fn unclosed_path_variable() {
    let s = base_with(
        "interfaces/info.yaml",
        "path: /ext/info",
        "path: /ext/{chain",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:5:7",
        "path",
        "unclosed `{` in `/ext/{chain`",
    );
}

#[test]
fn method_without_examples() {
    let s = base_with(
        "interfaces/info.yaml",
        "    examples:\n      - name: Genesis\n        result: \"0\"\n",
        "",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:31:5",
        "method `info.getHeight`",
        "needs at least one example",
    );
}

#[test]
fn source_other_than_node_description_or_devnet() {
    let s = base_with(
        "interfaces/info.yaml",
        "    summary: Height of the last accepted block.",
        "    summary: Height of the last accepted block.\n    source: nodes",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:33:13",
        "method `info.getHeight`, source",
        "`source` is `node`, `description` or `devnet`, not `nodes`; did you mean `node`?",
    );
}

#[test]
fn deprecated_method_without_since() {
    let s = base_with(
        "interfaces/info.yaml",
        "    summary: Height of the last accepted block.",
        "    summary: Height of the last accepted block.\n    deprecated: { note: Use something else. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:33:5",
        "method `info.getHeight`, deprecated",
        "missing key `since`",
    );
}

#[test]
fn deprecated_method_with_empty_since() {
    let s = base_with(
        "interfaces/info.yaml",
        "    summary: Height of the last accepted block.",
        "    summary: Height of the last accepted block.\n    deprecated: { since: \"\" }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:33:26",
        "method `info.getHeight`, deprecated, since",
        "deprecated without `since`",
    );
}

#[test]
fn deprecated_field_with_empty_since() {
    let s = base_with(
        "interfaces/info.yaml",
        "summary: More detail. }",
        "summary: More detail., deprecated: { since: \" \" } }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:20:98",
        "method `info.getNodeID`, params, field `verbose`, deprecated, since",
        "deprecated without `since`",
    );
}

#[test]
fn optional_and_nullable_together() {
    let s = base_with(
        "interfaces/info.yaml",
        "optional: true, summary: More detail.",
        "optional: true, nullable: true, summary: More detail.",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:20:9",
        "method `info.getNodeID`, params, field `verbose`",
        "is both `optional` (or has a `default`) and `nullable`",
    );
}

#[test]
fn default_and_nullable_together() {
    let s = base_with(
        "interfaces/info.yaml",
        "optional: true, summary: More detail.",
        "default: false, nullable: true, summary: More detail.",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:20:9",
        "method `info.getNodeID`, params, field `verbose`",
        "is both `optional` (or has a `default`) and `nullable`",
    );
}

#[test]
fn empty_summary() {
    let s = base_with(
        "schemas/common.yaml",
        "summary: Owner addresses.",
        "summary: \" \"",
    );
    assert_error(
        &s,
        "schemas/common.yaml:6:55",
        "schema `Owner`, field `addresses`, summary",
        "summary is empty",
    );
}

// ---------------------------------------------------------------- examples and defaults

#[test]
fn example_params_with_an_unknown_member() {
    let s = base_with(
        "interfaces/info.yaml",
        "params: { txID: 11111111111111111111111111111111LpoYY }",
        "params: { txID: 11111111111111111111111111111111LpoYY, verbos: true }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:28:9",
        "method `info.getNodeID`, example `Mainnet`, params",
        "at $.verbos: is not a declared member; did you mean `verbose`?",
    );
}

#[test]
fn example_params_missing_a_required_member() {
    let s = base_with(
        "interfaces/info.yaml",
        "params: { txID: 11111111111111111111111111111111LpoYY }",
        "params: { verbose: true }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:28:9",
        "method `info.getNodeID`, example `Mainnet`, params",
        "at $.txID: required member is missing",
    );
}

#[test]
fn example_result_of_the_wrong_json_kind() {
    let s = base_with("interfaces/info.yaml", "result: \"0\"", "result: [0]");
    assert_error(
        &s,
        "interfaces/info.yaml:38:9",
        "method `info.getHeight`, example `Genesis`, result",
        "at $: `u64` is a string (or a number), got an array [0]",
    );
}

#[test]
fn example_result_not_an_object() {
    let s = base_with(
        "interfaces/info.yaml",
        "result: { nodeID: NodeID-abc, owner: { locktime: \"0\", addresses: [] }, status: Up }",
        "result: [NodeID-abc]",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:29:9",
        "method `info.getNodeID`, example `Mainnet`, result",
        "at $: expected an object, got an array [\"NodeID-abc\"]",
    );
}

#[test]
fn example_value_not_matching_a_wire_pattern() {
    let s = base_with(
        "interfaces/info.yaml",
        "params: { txID: 11111111111111111111111111111111LpoYY }",
        "params: { txID: abc }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:28:9",
        "method `info.getNodeID`, example `Mainnet`, params",
        "at $.txID: \"abc\" is not a valid `id`",
    );
}

#[test]
fn example_value_in_a_nested_schema() {
    let s = base_with(
        "interfaces/info.yaml",
        "locktime: \"0\"",
        "locktime: \"-1\"",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:29:9",
        "method `info.getNodeID`, example `Mainnet`, result",
        "at $.owner.locktime: \"-1\" is not a valid `u64`",
    );
}

#[test]
fn example_number_above_the_maximum() {
    let s = base_with(
        "interfaces/info.yaml",
        "result: \"0\"",
        "result: \"18446744073709551616\"",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:38:17",
        "method `info.getHeight`, example `Genesis`, result",
        "18446744073709551616 is above the maximum of `u64`",
    );
}

#[test]
fn example_enum_value_not_among_the_values() {
    let s = base_with("interfaces/info.yaml", "status: Up }", "status: Sideways }");
    assert_error(
        &s,
        "interfaces/info.yaml:29:9",
        "method `info.getNodeID`, example `Mainnet`, result",
        "at $.status: \"Sideways\" is not one of the values of `Status` (Up, Down)",
    );
}

#[test]
fn example_null_for_a_member_that_is_not_nullable() {
    let s = base_with(
        "interfaces/info.yaml",
        "nodeID: NodeID-abc,",
        "nodeID: null,",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:29:9",
        "method `info.getNodeID`, example `Mainnet`, result",
        "at $.nodeID: is null but not `nullable`",
    );
}

#[test]
fn example_in_a_client_only_form_without_normalized() {
    let s = base_with(
        "interfaces/info.yaml",
        "      type: u64\n",
        "      type: u64\n      also-accepts: [{ wrapped-in: height }]\n",
    );
    // Valid as it stands; a wrapped example is only allowed with `normalized:`.
    load(&s).unwrap_or_else(|e| panic!("{e}"));
    let wrapped = edit(
        &s.interfaces[0].1,
        "result: \"0\"",
        "result: { height: \"0\" }",
    );
    let mut s2 = s.clone();
    s2.interfaces[0].1 = wrapped.clone();
    assert_error(
        &s2,
        "interfaces/info.yaml:39:9",
        "method `info.getHeight`, example `Genesis`, result",
        "at $: `u64` is a string (or a number), got an object",
    );
    s2.interfaces[0].1 = edit(
        &wrapped,
        "result: { height: \"0\" }",
        "result: { height: \"0\" }\n        normalized: \"0\"",
    );
    load(&s2).unwrap_or_else(|e| panic!("with `normalized:` the example is valid: {e}"));
}

#[test]
fn normalized_example_that_does_not_conform() {
    let s = base_with(
        "interfaces/info.yaml",
        "      type: u64\n",
        "      type: u64\n      also-accepts: [{ wrapped-in: height }]\n",
    );
    let mut s = s;
    s.interfaces[0].1 = edit(
        &s.interfaces[0].1,
        "result: \"0\"",
        "result: { height: \"0\" }\n        normalized: { height: \"0\" }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:40:9",
        "method `info.getHeight`, example `Genesis`, normalized",
        "at $: `u64` is a string (or a number), got an object",
    );
}

#[test]
fn default_not_matching_its_type() {
    let s = base_with(
        "interfaces/info.yaml",
        "optional: true, summary: More detail.",
        "default: \"yes\", summary: More detail.",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:20:47",
        "method `info.getNodeID`, params, field `verbose`, default",
        "at $: `bool` is a boolean, got a string \"yes\"",
    );
}

#[test]
fn wire_type_example_not_matching_its_pattern() {
    let s = base_with("wire-types.yaml", "example: \"1000\"", "example: \"ten\"");
    assert_error(
        &s,
        "wire-types.yaml:21:12",
        "wire type `u64`, example",
        "\"ten\" is not a valid `u64`",
    );
}

// ---------------------------------------------------------------- alternative forms

#[test]
fn bare_alternative_naming_no_field() {
    let s = base_with(
        "interfaces/info.yaml",
        "        - { name: status, type: Status, summary: How it is doing. }\n",
        "        - { name: status, type: Status, summary: How it is doing. }\n      also-accepts:\n        - { bare: nodeId }\n",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:27:11",
        "method `info.getNodeID`, result, also-accepts[0]",
        "also-accepts `bare: nodeId` names no field of this object",
    );
}

#[test]
fn bare_alternative_on_a_result_that_is_not_an_object() {
    let s = base_with(
        "interfaces/info.yaml",
        "      type: u64\n",
        "      type: u64\n      also-accepts: [{ bare: height }]\n",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:36:22",
        "method `info.getHeight`, result, also-accepts[0]",
        "also-accepts `bare` only applies to an object with fields",
    );
}

#[test]
fn wrapped_in_alternative_naming_an_existing_field() {
    let s = base_with(
        "interfaces/info.yaml",
        "        - { name: status, type: Status, summary: How it is doing. }\n",
        "        - { name: status, type: Status, summary: How it is doing. }\n      also-accepts:\n        - { wrapped-in: owner }\n",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:27:11",
        "method `info.getNodeID`, result, also-accepts[0]",
        "also-accepts `wrapped-in: owner` would be ambiguous: `owner` is a field",
    );
}

#[test]
fn alternative_with_both_forms() {
    let s = base_with(
        "interfaces/info.yaml",
        "      type: u64\n",
        "      type: u64\n      also-accepts: [{ bare: a, wrapped-in: b }]\n",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:36:22",
        "method `info.getHeight`, result, also-accepts[0]",
        "an alternative is either `{ bare: FIELD }` or `{ wrapped-in: KEY }`",
    );
}

// ---------------------------------------------------------------- wire types

#[test]
fn bad_regex_in_a_wire_type() {
    let s = base_with(
        "wire-types.yaml",
        "pattern: '^[0-9]{1,20}$'",
        "pattern: '^[0-9{1,20}$'",
    );
    let errs = errors(&s);
    // The u64 example can no longer be checked, but the pattern is the only problem reported.
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(
        (errs[0].file.as_str(), errs[0].at.as_str()),
        ("wire-types.yaml", "wire type `u64`, pattern")
    );
    assert_eq!((errs[0].pos.line, errs[0].pos.column), (18, 12));
    assert!(errs[0].message.starts_with("bad pattern: "), "{errs:?}");
    assert!(
        errs[0].message.contains("unclosed character class"),
        "{errs:?}"
    );
}

#[test]
fn wire_type_name_not_kebab_case() {
    let mut s = base();
    s.wire_types.1.push_str(
        "\nnodeId:\n  summary: A node ID.\n  json: string\n  rust: NodeId\n  example: NodeID-x\n",
    );
    assert_error(
        &s,
        "wire-types.yaml:30:1",
        "wire type `nodeId`",
        "names are lower-case words joined by `-`",
    );
}

// ---------------------------------------------------------------- all problems at once

#[test]
fn independent_problems_are_all_reported() {
    // Three problems in three files, none a consequence of another.
    let mut s = base_with(
        "wire-types.yaml",
        "pattern: '^[1-9A-HJ-NP-Za-km-z]{32,50}$'",
        "pattern: '('",
    );
    s.schemas[0].1 = edit(&s.schemas[0].1, "type: list<string>", "type: list<address>");
    s.interfaces[0].1 = edit(&s.interfaces[0].1, "- name: getHeight", "- name: getNodeID");
    let errs = errors(&s);
    let places: Vec<(&str, &str)> = errs
        .iter()
        .map(|e| (e.file.as_str(), e.at.as_str()))
        .collect();
    assert_eq!(
        places,
        [
            ("wire-types.yaml", "wire type `id`, pattern"),
            (
                "schemas/common.yaml",
                "schema `Owner`, field `addresses`, type"
            ),
            ("interfaces/info.yaml", "method `info.getNodeID`"),
        ],
        "{errs:#?}"
    );
}

#[test]
fn syntax_errors_in_several_files_are_all_reported() {
    let mut s = base();
    s.schemas[0].1.push_str("\n  - stray");
    s.interfaces[0].1 = edit(&s.interfaces[0].1, "title: Info API", "title: [Info API");
    s.interfaces.push((
        "interfaces/other.yaml".into(),
        "name: other\n\tbad: tab".into(),
    ));
    let errs = errors(&s);
    let files: Vec<&str> = errs.iter().map(|e| e.file.as_str()).collect();
    assert_eq!(
        files,
        [
            "schemas/common.yaml",
            "interfaces/info.yaml",
            "interfaces/other.yaml"
        ],
        "{errs:#?}"
    );
    // Each at its line and column, in words a person acts on.
    let shown: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        shown,
        [
            "schemas/common.yaml:8:3: bad indentation: line 8 starts at column 3, which lines up with no block above it (their entries start at column 5, 3, 1): indent it like the entries it belongs with",
            "interfaces/info.yaml:3:8: the `[` at line 3, column 8 is not closed: add `]` (or a `,` between its items)",
            "interfaces/other.yaml:2:1: a tab in the indentation: YAML indents with spaces only",
        ],
        "{errs:#?}"
    );
}

#[test]
fn example_problems_are_all_reported() {
    // Examples are checked once the spec's structure is sound; then every mismatch counts.
    let mut s = base_with("interfaces/info.yaml", "result: \"0\"", "result: \"zero\"");
    s.interfaces[0].1 = edit(
        &s.interfaces[0].1,
        "params: { txID: 11111111111111111111111111111111LpoYY }",
        "params: { txID: abc, extra: 1 }",
    );
    s.interfaces[0].1 = edit(&s.interfaces[0].1, "status: Up }", "status: Sideways }");
    let errs = errors(&s);
    let messages: Vec<String> = errs
        .iter()
        .map(|e| format!("{}: {}", e.at, e.message))
        .collect();
    assert_eq!(messages.len(), 4, "{messages:#?}");
    for (at, message) in [
        (
            "method `info.getNodeID`, example `Mainnet`, params",
            "at $.txID: \"abc\" is not a valid `id`",
        ),
        (
            "method `info.getNodeID`, example `Mainnet`, params",
            "at $.extra: is not a declared member",
        ),
        (
            "method `info.getNodeID`, example `Mainnet`, result",
            "at $.status: \"Sideways\"",
        ),
        (
            "method `info.getHeight`, example `Genesis`, result",
            "at $: \"zero\" is not a valid `u64`",
        ),
    ] {
        assert!(
            messages
                .iter()
                .any(|m| m.starts_with(&format!("{at}: {message}"))),
            "missing `{at}: {message}` in {messages:#?}"
        );
    }
}

#[test]
fn display_lists_every_problem() {
    let s = base_with(
        "interfaces/info.yaml",
        "- name: getHeight",
        "- name: getNodeID",
    );
    let e = load(&s).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the spec has 1 problem(s):\n  interfaces/info.yaml:31:5: method `info.getNodeID`: is defined twice (first at line 16, column 5)\n"
    );
}

// ---------------------------------------------------------------- garbage never panics

/// Loads `sources` (and, with `emit`, generates Rust when it loads); a panic fails the test
/// naming `what`.
fn must_not_panic(what: &str, sources: &Sources, emit: bool) {
    let result = std::panic::catch_unwind(|| {
        let loaded = load(sources);
        if let Err(e) = &loaded {
            assert_positioned(&e.0);
        }
        if let (true, Ok(spec)) = (emit, loaded) {
            let code = avalanche_rpc_codegen::emit::rust(&spec);
            // `emit::rust` writes `compile_error!` when its tokens do not parse as Rust.
            assert!(
                !code.contains("compile_error!"),
                "the spec loads but its code does not parse"
            );
        }
    });
    if result.is_err() {
        panic!("loading or generating panicked on {what}");
    }
}

/// A small deterministic generator (xorshift), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The real spec, with only the files `keep` says to keep (loading the whole of it for every
/// variation would make these tests slow).
fn real_spec(keep: impl Fn(&str) -> bool) -> Sources {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let mut s = Sources::read_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
    s.interfaces.retain(|(name, _)| keep(name));
    s
}

/// Every file of the real spec: its name and text.
fn real_files() -> Vec<(String, String)> {
    let s = real_spec(|_| true);
    std::iter::once(s.wire_types)
        .chain(s.schemas)
        .chain(s.interfaces)
        .collect()
}

/// `sources` with the text of `file` replaced.
fn replace_file(mut sources: Sources, file: &str, text: String) -> Sources {
    if sources.wire_types.0 == file {
        sources.wire_types.1 = text.clone();
    }
    for (name, t) in sources
        .schemas
        .iter_mut()
        .chain(sources.interfaces.iter_mut())
    {
        if name == file {
            *t = text.clone();
        }
    }
    sources
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let pieces = [
        "",
        "\0",
        "\u{feff}",
        "---",
        "...",
        "~",
        "null",
        "[]",
        "{}",
        "- ",
        ": ",
        "? ",
        "&a ",
        "*a",
        "!!binary ",
        "!tag ",
        "|",
        ">",
        "\"",
        "'",
        "{",
        "}",
        "[",
        "]",
        "<",
        ",",
        "#",
        "\t",
        "\n",
        "  ",
        "name:",
        "type:",
        "list<",
        "map<",
        "fields:",
        "values:",
        "methods:",
        "é",
        "\u{7f}",
        "\u{fffd}",
        "0x",
        "-1",
        "1e999",
        "NaN",
    ];
    let targets = [
        "wire-types.yaml",
        "schemas/common.yaml",
        "interfaces/info.yaml",
    ];
    for round in 0..2000 {
        let junk: String = (0..rng.below(24))
            .map(|_| pieces[rng.below(pieces.len())])
            .collect();
        let target = targets[round % targets.len()];
        let s = replace_file(base(), target, junk.clone());
        must_not_panic(&format!("{target} = {junk:?}"), &s, true);
    }
}

#[test]
fn truncated_real_spec_files_never_panic() {
    for (name, text) in real_files() {
        // The file alone with the vocabulary and the shared schemas.
        let sources = real_spec(|n| n == name);
        let line_ends: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
        // Some cuts at line ends (often valid YAML, so the model checks run), some anywhere.
        let cuts = (0..16)
            .map(|k| line_ends[k * line_ends.len() / 16])
            .chain((1..5).map(|k| k * text.len() / 5))
            .filter(|&i| text.is_char_boundary(i));
        for cut in cuts {
            let s = replace_file(sources.clone(), &name, text[..cut].to_string());
            must_not_panic(&format!("{name} cut at byte {cut}"), &s, false);
        }
    }
}

#[test]
fn mutated_real_spec_files_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let words = [
        "", "x", "_", "-", "{", "}", "[", "]", "<", ">", ",", ":", "?", "\"", "null", "true",
        "self", "crate", "Self", "super", "type", "all", "u64", "list<", "map<", "{a}",
    ];
    for (name, text) in real_files().into_iter().skip(1) {
        let sources = real_spec(|n| n == name);
        let lines: Vec<&str> = text.lines().collect();
        for round in 0..24 {
            let mut lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            let i = rng.below(lines.len());
            let what = match round % 3 {
                0 => {
                    lines.remove(i);
                    "dropped"
                }
                1 => {
                    lines.insert(i, lines[i].clone());
                    "repeated"
                }
                _ => {
                    let mut parts: Vec<&str> = lines[i].split(' ').collect();
                    let w = rng.below(parts.len());
                    parts[w] = words[rng.below(words.len())];
                    lines[i] = parts.join(" ");
                    "changed"
                }
            };
            let s = replace_file(sources.clone(), &name, lines.join("\n"));
            // A changed word may be a new name that loads: generate code for it too.
            must_not_panic(
                &format!("{name}, line {} {what}", i + 1),
                &s,
                what == "changed",
            );
        }
    }
}

#[test]
fn schemas_may_take_names_the_generated_code_uses() {
    // The generated code writes every outside item by its full path, so no name is taken but
    // those the module defines itself.
    for taken in [
        "Value",
        "Option",
        "Endpoint",
        "Id",
        "GetHeightResult",
        "Into",
        "String",
    ] {
        let s = base_with("schemas/common.yaml", "Owner:\n", &format!("{taken}:\n"));
        let s = Sources {
            interfaces: vec![(
                "interfaces/info.yaml".into(),
                edit(
                    &s.interfaces[0].1,
                    "type: Owner,",
                    &format!("type: {taken},"),
                ),
            )],
            ..s
        };
        let spec = load(&s).unwrap_or_else(|e| panic!("{taken}: {e}"));
        let code = avalanche_rpc_codegen::emit::rust(&spec);
        assert!(code.contains(&format!("pub struct {taken} {{")), "{taken}");
        assert!(
            code.contains(&format!("pub owner: crate::types::{taken},")),
            "{taken}"
        );
    }
}

#[test]
fn local_schema_named_like_a_method_type() {
    let s = base_with(
        "interfaces/info.yaml",
        "schemas:\n",
        "schemas:\n  GetHeightResult:\n    summary: Clashes.\n    type: u64\n",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:34:5",
        "method `info.getHeight`",
        "a type of `info.getHeight` and the schema `GetHeightResult` would both be the Rust type `info::GetHeightResult`; rename one",
    );
}

#[test]
fn since_that_is_not_a_version() {
    let s = base_with(
        "interfaces/info.yaml",
        "summary: More detail. }",
        "summary: More detail., since: 1.10 }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:20:84",
        "method `info.getNodeID`, params, field `verbose`, since",
        "YAML reads this as floating point `1.1`, not text: put it in quotes",
    );
}

#[test]
fn method_since_that_is_not_a_version() {
    let s = base_with(
        "interfaces/info.yaml",
        "    summary: Height of the last accepted block.",
        "    summary: Height of the last accepted block.\n    since: v1.x.0",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:33:12",
        "method `info.getHeight`, since",
        "`v1.x.0` is not a node version such as `v1.10.19`",
    );
}

#[test]
fn versions_file_with_a_bad_version() {
    let mut s = base();
    s.versions = Some((
        "versions.yaml".into(),
        "oldest-supported: v1.10\nchecked-against: v1.14.2\n".into(),
    ));
    assert_error(
        &s,
        "versions.yaml:1:19",
        "oldest-supported",
        "`v1.10` is not a node version such as `v1.10.19`",
    );
}

#[test]
fn versions_file_with_an_unknown_key() {
    let mut s = base();
    s.versions = Some((
        "versions.yaml".into(),
        "oldest-supported: v1.10.0\nchecked-against: v1.14.2\nnewest: v2.0.0\n".into(),
    ));
    let errs = errors(&s);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].file, "versions.yaml");
    assert!(errs[0].message.contains("unknown key `newest`"), "{errs:?}");
}

#[test]
fn enum_value_taking_the_unrecognized_variant() {
    let s = base_with(
        "interfaces/info.yaml",
        "{ value: Down, summary: Stopped. }",
        "{ value: unrecognized, summary: Reserved. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:13:9",
        "schema `Status`, value `unrecognized`",
        "enum value `unrecognized` takes the Rust name `Unrecognized`, which every enumeration keeps for values it does not know",
    );
}

// ---------------------------------------------------------------- no cascades

/// The real spec with `from` replaced by `to` in `file` (`from` must occur once).
fn real_spec_with(file: &str, from: &str, to: &str) -> Sources {
    let s = real_spec(|_| true);
    let text = real_files()
        .into_iter()
        .find(|(n, _)| n == file)
        .map(|(_, t)| t)
        .unwrap_or_else(|| panic!("no file {file}"));
    replace_file(s, file, edit(&text, from, to))
}

#[test]
fn a_misspelt_shared_schema_is_one_error() {
    // Eleven places use `Owner`; renaming its definition is one problem, with a suggestion.
    let s = real_spec_with("schemas/common.yaml", "\nOwner:\n", "\nOwnr:\n");
    let errs = errors(&s);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    let e = errs[0].to_string();
    assert!(
        e.contains("unknown type `Owner`: not a wire type (wire-types.yaml) nor a schema; did you mean `Ownr`? (also used in"),
        "{e}"
    );
}

#[test]
fn a_malformed_shared_schema_is_one_error() {
    // A key the schema does not take: the schema is broken, the places using it are not.
    let s = real_spec_with(
        "schemas/common.yaml",
        "  summary: Reference to one output of a transaction.",
        "  summery: Reference to one output of a transaction.",
    );
    let errs = errors(&s);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(
        errs[0].to_string(),
        "schemas/common.yaml:17:3: schema `UtxoId`: unknown key `summery`; did you mean `summary`? (the keys here are `summary`, `description`, `fields`, `values`, `type`, `also-accepts`)"
    );
}

#[test]
fn a_badly_indented_shared_schema_file_is_one_error() {
    // The file does not parse at all; the schemas it defines are still known by name.
    let s = real_spec_with(
        "schemas/common.yaml",
        "      summary: Number of signatures required.",
        "     summary: Number of signatures required.",
    );
    let errs = errors(&s);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0]
            .to_string()
            .starts_with("schemas/common.yaml:11:6: bad indentation: line 11 starts at column 6"),
        "{}",
        errs[0]
    );
}

#[test]
fn a_misspelt_wire_type_suggests_the_closest_one() {
    let s = real_spec_with(
        "interfaces/info.yaml",
        "- { name: nodeID, type: node-id, summary: This node's ID. }",
        "- { name: nodeID, type: nodeid, summary: This node's ID. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:237:33",
        "method `info.getNodeID`, result, field `nodeID`, type",
        "unknown type `nodeid`: not a wire type (wire-types.yaml) nor a schema; did you mean `node-id`?",
    );
}

// ---------------------------------------------------------------- pagination

#[test]
fn pagination_items_that_are_not_a_list() {
    let s = base_with(
        "interfaces/info.yaml",
        "    summary: The node's ID.\n",
        "    summary: The node's ID.\n    pagination: { items: nodeID }\n",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:18:26",
        "method `info.getNodeID`, pagination, items",
        "`nodeID` is `string`, not a list",
    );
}

#[test]
fn pagination_cursor_of_another_type_than_its_param() {
    let s = base_with(
        "interfaces/info.yaml",
        "    summary: The node's ID.\n",
        "    summary: The node's ID.\n    pagination:\n      items: owner\n      page-size: { param: verbose, max: 10 }\n      cursor: { param: txID, from: status }\n",
    );
    let errs = errors(&s);
    let shown: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert_eq!(errs.len(), 3, "{shown:#?}");
    assert!(
        shown[0].contains("pagination, items: `owner` is `Owner`, not a list"),
        "{shown:#?}"
    );
    assert!(
        shown[1].contains(
            "pagination, page-size, param: `verbose` is `bool`; a page size is a `u32` or `u64`"
        ),
        "{shown:#?}"
    );
    assert!(
        shown[2].contains(
            "pagination, cursor, from: `status` is `Status` but the param `txID` is `id`"
        ),
        "{shown:#?}"
    );
}

#[test]
fn still_served_goes_with_removed_and_names_the_devnet() {
    let s = base_with(
        "interfaces/info.yaml",
        "    summary: Height of the last accepted block.",
        "    summary: Height of the last accepted block.\n    still-served: { by: devnet, why: Tests run against it. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:33:5",
        "method `info.getHeight`, still-served",
        "the method has no `removed`",
    );
    let s = base_with(
        "interfaces/info.yaml",
        "    summary: Height of the last accepted block.",
        "    summary: Height of the last accepted block.\n    removed: v1.13.1\n    still-served: { by: node, why: Tests run against it. }",
    );
    assert_error(
        &s,
        "interfaces/info.yaml:34:25",
        "method `info.getHeight`, still-served, by",
        "`by` is `devnet` (a server with an interface of its own), not `node`",
    );
}
