//! The OpenRPC documents and the HTML reference: valid OpenRPC, examples that fit their own
//! schemas, no self-referring schema, and committed outputs that match the spec.

use avalanche_rpc_codegen::{Sources, Spec, common, docs, load, load_dir, openrpc};
use jsonschema::{Draft, Registry, Validator};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn spec() -> Spec {
    load_dir(&repo().join("spec")).expect("the spec loads")
}

/// The spec for every node version, then for the oldest supported one and the newest.
fn specs_of_each_kind() -> Vec<Spec> {
    let sources = Sources::read_dir(&repo().join("spec")).expect("the spec reads");
    [None, Some("v1.10.0"), Some("v1.15.0")]
        .into_iter()
        .map(|v| {
            avalanche_rpc_codegen::load_for(&sources, v.map(|v| v.parse().unwrap()))
                .expect("the spec loads")
        })
        .collect()
}

fn meta(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/meta")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The OpenRPC 1.3.2 meta-schema, with the JSON Schema meta-schema it refers to served from
/// the local copy (no network). The OpenRPC meta-schema spells that URI both with and without
/// the final `/`. `formats`: whether `format` is asserted (draft 7 leaves it optional).
fn meta_validator(formats: bool) -> Validator {
    let openrpc = meta("openrpc-1.3.2.json");
    let json_schema = meta("json-schema-tools-meta.json");
    let registry = Registry::new()
        .add(
            "https://meta.json-schema.tools/",
            Draft::Draft7.create_resource(json_schema.clone()),
        )
        .and_then(|r| {
            r.add(
                "https://meta.json-schema.tools",
                Draft::Draft7.create_resource(json_schema),
            )
        })
        .expect("valid URIs")
        .prepare()
        .expect("the registry builds");
    jsonschema::options()
        .with_draft(Draft::Draft7)
        .with_registry(&registry)
        .should_validate_formats(formats)
        .build(&openrpc)
        .expect("the meta-schema compiles")
}

/// `doc` with every server URL template (`…/ext/bc/{chain}`) filled with its variables'
/// defaults, as a client would call it.
fn fill_server_templates(doc: &mut Value) {
    fn fill(server: &mut Value) {
        let mut url = server["url"].as_str().unwrap().to_string();
        if let Some(vars) = server["variables"].as_object() {
            for (name, var) in vars {
                url = url.replace(&format!("{{{name}}}"), var["default"].as_str().unwrap());
            }
        }
        server["url"] = json!(url);
    }
    // (`get_mut`: indexing a missing member mutably would insert `null`.)
    fn servers(v: &mut Value) -> Vec<&mut Value> {
        match v.get_mut("servers").and_then(Value::as_array_mut) {
            Some(a) => a.iter_mut().collect(),
            None => Vec::new(),
        }
    }
    servers(doc).into_iter().for_each(fill);
    for m in doc["methods"].as_array_mut().unwrap() {
        servers(m).into_iter().for_each(fill);
    }
}

fn errors(v: &Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance)
        .map(|e| format!("at {}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn there_is_one_document_per_interface_and_a_combined_one() {
    let spec = spec();
    let docs = openrpc::documents(&spec);
    let names: Vec<&str> = docs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "admin.json",
            "avax.json",
            "avm-static.json",
            "avm.json",
            "devnet.json",
            "eth.json",
            "health.json",
            "index.json",
            "info.json",
            "platform.json",
            "proposervm.json",
            "wallet.json",
            "openrpc.json"
        ]
    );
    let combined = &docs.last().unwrap().1;
    let methods = combined["methods"].as_array().unwrap();
    assert_eq!(
        methods.len(),
        97,
        "63 from the description + getAllValidatorsAt and the two proposervm methods + the devnet's six + the C-chain's four avax.* and five eth_ + the node's three health.* and 13 admin.*"
    );
    let devnet: Vec<&str> = methods
        .iter()
        .filter(|m| m["x-source"] == json!("devnet"))
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        devnet,
        [
            "devnet.advanceClock",
            "devnet.buildBlocks",
            "devnet.fund",
            "devnet.snapshot",
            "devnet.revert",
            "devnet.signWarpMessage"
        ]
    );
    let per_interface: usize = docs[..docs.len() - 1]
        .iter()
        .map(|(_, d)| d["methods"].as_array().unwrap().len())
        .sum();
    assert_eq!(per_interface, 97);
    for (name, doc) in &docs {
        assert_eq!(doc["openrpc"], "1.3.2", "{name}");
        assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"), "{name}");
    }
}

#[test]
fn every_document_validates_against_the_openrpc_meta_schema() {
    // As written: server URLs are templates (`/ext/bc/{chain}`), which OpenRPC allows but the
    // meta-schema's `format: uri` does not describe, so formats are not asserted here...
    let plain = meta_validator(false);
    // ...and asserted (URIs, regex patterns) once the templates are filled in.
    let strict = meta_validator(true);
    for (name, doc) in specs_of_each_kind().iter().flat_map(openrpc::documents) {
        let errs = errors(&plain, &doc);
        assert!(
            errs.is_empty(),
            "{name} is not a valid OpenRPC 1.3.2 document:\n{}",
            errs.join("\n")
        );
        let mut filled = doc.clone();
        fill_server_templates(&mut filled);
        let errs = errors(&strict, &filled);
        assert!(
            errs.is_empty(),
            "{name} (server templates filled in) fails a format check:\n{}",
            errs.join("\n")
        );
    }
}

#[test]
fn the_meta_schema_rejects_broken_documents() {
    let v = meta_validator(true);
    let spec = spec();
    // An interface whose path has no variables: its server URL is a URI as it stands.
    let info = spec.interfaces.iter().find(|i| i.name == "info").unwrap();
    let good = openrpc::interface_document(&spec, info);
    assert!(errors(&v, &good).is_empty(), "{:?}", errors(&v, &good));
    type Break = fn(&mut Value);
    let breaks: [(&str, Break); 5] = [
        ("unknown version", |d| d["openrpc"] = json!("9.9.9")),
        ("bad paramStructure", |d| {
            d["methods"][0]["paramStructure"] = json!("by-magic")
        }),
        ("no params", |d| {
            d["methods"][0].as_object_mut().unwrap().remove("params");
        }),
        ("error without code", |d| {
            d["methods"][0]["errors"] = json!([{ "message": "oops" }])
        }),
        ("bad regex", |d| {
            d["components"]["schemas"]["id"]["pattern"] = json!("^[unclosed")
        }),
    ];
    for (what, f) in breaks {
        let mut doc = good.clone();
        f(&mut doc);
        assert!(!errors(&v, &doc).is_empty(), "{what} is not caught");
    }
}

/// Validators for schemas found inside an OpenRPC document, resolving `#/components/...`.
struct Schemas {
    registry: Registry<'static>,
}

const DOC_URI: &str = "urn:avalanche-rpc:openrpc";

impl Schemas {
    fn new(doc: &Value) -> Schemas {
        let registry = Registry::new()
            .add(DOC_URI, Draft::Draft7.create_resource(doc.clone()))
            .expect("a valid URI")
            .prepare()
            .expect("the registry builds");
        Schemas { registry }
    }

    /// A validator for the schema at `pointer` (a JSON pointer into the document).
    fn at(&self, pointer: &str) -> Validator {
        jsonschema::options()
            .with_draft(Draft::Draft7)
            .with_registry(&self.registry)
            .build(&json!({ "$ref": format!("{DOC_URI}#{pointer}") }))
            .unwrap_or_else(|e| panic!("the schema at {pointer} does not compile: {e}"))
    }
}

#[test]
fn every_example_validates_against_its_method_schemas() {
    let mut checked = 0;
    for (name, doc) in specs_of_each_kind().iter().flat_map(openrpc::documents) {
        let schemas = Schemas::new(&doc);
        for (mi, m) in doc["methods"].as_array().unwrap().iter().enumerate() {
            let method = m["name"].as_str().unwrap();
            let params = m["params"].as_array().unwrap();
            let param_names: Vec<&str> =
                params.iter().map(|p| p["name"].as_str().unwrap()).collect();
            let examples = m["examples"].as_array().unwrap();
            assert!(!examples.is_empty(), "{name}: {method} has no example");
            assert!(
                m["result"]["schema"].is_object(),
                "{name}: {method} has no result"
            );
            let result_schema = schemas.at(&format!("/methods/{mi}/result/schema"));
            for ex in examples {
                let ex_name = ex["name"].as_str().unwrap();
                let at = format!("{name}: {method}, example `{ex_name}`");
                // Params: named after the method's params, in their order.
                let mut last = None;
                for p in ex["params"].as_array().unwrap() {
                    let pname = p["name"].as_str().unwrap();
                    let pi = param_names
                        .iter()
                        .position(|n| *n == pname)
                        .unwrap_or_else(|| panic!("{at}: `{pname}` is not a param"));
                    assert!(last < Some(pi), "{at}: `{pname}` is out of order");
                    last = Some(pi);
                    let v = schemas.at(&format!("/methods/{mi}/params/{pi}/schema"));
                    let errs = errors(&v, &p["value"]);
                    assert!(
                        errs.is_empty(),
                        "{at}, param `{pname}`:\n{}",
                        errs.join("\n")
                    );
                }
                for (pi, p) in params.iter().enumerate() {
                    if p["required"] == json!(true) {
                        assert!(
                            ex["params"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .any(|x| x["name"] == p["name"]),
                            "{at}: required param {pi} `{}` is missing",
                            p["name"]
                        );
                    }
                }
                assert_eq!(ex["result"]["name"], m["result"]["name"], "{at}");
                let errs = errors(&result_schema, &ex["result"]["value"]);
                assert!(errs.is_empty(), "{at}, result:\n{}", errs.join("\n"));
                if let Some(n) = ex["result"].get("x-normalized") {
                    let errs = errors(&result_schema, n);
                    assert!(
                        errs.is_empty(),
                        "{at}, normalized result:\n{}",
                        errs.join("\n")
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 5 * 64, "only {checked} examples checked");
}

#[test]
fn the_schemas_reject_what_the_node_never_sends() {
    let spec = spec();
    let doc = openrpc::combined_document(&spec);
    let schemas = Schemas::new(&doc);
    let u64s = schemas.at("/components/schemas/u64");
    assert!(u64s.is_valid(&json!("1000")));
    assert!(u64s.is_valid(&json!(1000)));
    assert!(!u64s.is_valid(&json!(-1)));
    assert!(!u64s.is_valid(&json!("1e3")));
    assert!(!u64s.is_valid(&json!(1.5)));
    let node_id = schemas.at("/components/schemas/node-id");
    assert!(node_id.is_valid(&json!("NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg")));
    assert!(!node_id.is_valid(&json!("7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg")));
    // A required member, a nullable one, an enum.
    let idx = doc["methods"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m["name"] == "platform.getBalance")
        .unwrap();
    let balance = schemas.at(&format!("/methods/{idx}/result/schema"));
    let mut ok = doc["methods"][idx]["examples"][0]["result"]["value"].clone();
    assert!(balance.is_valid(&ok));
    ok["utxoIDs"] = Value::Null;
    assert!(balance.is_valid(&ok), "utxoIDs is nullable");
    ok.as_object_mut().unwrap().remove("unlocked");
    assert!(!balance.is_valid(&ok), "unlocked is required");
    // An alias-spelled required member is enough; no spelling at all is not.
    let idx = doc["methods"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m["name"] == "platform.getTimestamp")
        .unwrap();
    let ts = schemas.at(&format!("/methods/{idx}/result/schema"));
    assert!(ts.is_valid(&json!({ "timestamp": "2024-12-17T09:12:44Z" })));
    assert!(ts.is_valid(&json!({ "time": "2024-12-17T09:12:44Z" })));
    assert!(!ts.is_valid(&json!({ "when": "2024-12-17T09:12:44Z" })));
}

#[test]
fn methods_carry_errors_deprecation_and_servers() {
    let spec = spec();
    let doc = openrpc::combined_document(&spec);
    let codes: BTreeSet<i64> = doc["components"]["errors"]
        .as_object()
        .unwrap()
        .values()
        .map(|e| e["code"].as_i64().unwrap())
        .collect();
    for c in [-32700, -32600, -32601, -32602, -32000] {
        assert!(codes.contains(&c), "no shared error {c}");
    }
    for (i, m) in spec.methods() {
        let d = doc["methods"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["name"] == m.wire_name)
            .unwrap();
        let structure = if m.positional {
            "by-position"
        } else {
            "by-name"
        };
        assert_eq!(d["paramStructure"], structure);
        assert_eq!(d["x-path"], i.path.as_str());
        assert_eq!(
            d.get("deprecated").is_some(),
            m.deprecated.is_some(),
            "{}",
            m.wire_name
        );
        assert!(d["servers"][0]["url"].as_str().unwrap().ends_with(&i.path));
        let errs = d["errors"].as_array().unwrap();
        for e in &m.errors {
            assert!(
                errs.iter()
                    .any(|x| x["message"] == e.message.as_str() && x["code"] == e.code),
                "{}: error `{}` is missing",
                m.wire_name,
                e.message
            );
        }
        assert!(
            errs.iter()
                .any(|x| x["$ref"] == "#/components/errors/InvalidParams")
        );
    }
    let avm = doc["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "avm.getTx")
        .unwrap();
    let server = &avm["servers"][0];
    assert_eq!(server["url"], "http://127.0.0.1:9650/ext/bc/{chain}");
    assert_eq!(server["variables"]["chain"]["default"], "X");
}

#[test]
fn no_schema_refers_to_itself() {
    for (name, doc) in openrpc::documents(&spec()) {
        let cycles = openrpc::self_references(&doc);
        assert!(cycles.is_empty(), "{name}: {cycles:?}");
        // Every reference resolves.
        let text = doc.to_string();
        for part in text.split("\"$ref\":\"").skip(1) {
            let target = &part[..part.find('"').unwrap()];
            let pointer = target.strip_prefix('#').expect("local references only");
            assert!(
                doc.pointer(pointer).is_some(),
                "{name}: {target} does not resolve"
            );
        }
    }
    // The check itself finds a cycle.
    let looped = json!({ "components": { "schemas": {
        "A": { "type": "array", "items": { "$ref": "#/components/schemas/B" } },
        "B": { "$ref": "#/components/schemas/A" },
        "C": { "type": "string" },
    } } });
    assert_eq!(
        openrpc::self_references(&looped),
        ["A -> B -> A", "B -> A -> B"]
    );
}

#[test]
fn generating_twice_gives_the_same_bytes() {
    let (a, b) = (docs::outputs(&spec()), docs::outputs(&spec()));
    assert_eq!(a, b);
    for (name, text) in &a {
        if name.ends_with(".json") {
            assert!(
                text.ends_with("}\n") && text.starts_with("{\n  \""),
                "{name}"
            );
        }
    }
}

#[test]
fn committed_outputs_are_up_to_date() {
    let stale = docs::stale_files(&spec(), &repo().join("generated"));
    assert!(
        stale.is_empty(),
        "these files in generated/ do not match the spec: {}\nregenerate them with:\n    {}",
        stale.join(", "),
        common::REGENERATE
    );
}

/// A fresh folder under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "avalanche-rpc-codegen-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The spec sources with one interface file edited; panics if `from` is not in it.
fn edited(file: &str, from: &str, to: &str) -> Spec {
    let mut sources = Sources::read_dir(&repo().join("spec")).expect("the spec reads");
    let (_, text) = sources
        .interfaces
        .iter_mut()
        .find(|(f, _)| f == file)
        .unwrap_or_else(|| panic!("no {file}"));
    assert!(text.contains(from), "the test edits `{from}` in {file}");
    *text = text.replace(from, to);
    load(&sources).expect("the edited spec loads")
}

#[test]
fn a_changed_spec_makes_the_committed_outputs_stale() {
    // Outputs of the spec as it is, in a scratch folder (so that this test does not depend on
    // the committed files being current; `committed_outputs_are_up_to_date` checks that).
    let scratch = TempDir::new("stale");
    let written = docs::write_outputs(&spec(), &scratch.0).unwrap();
    assert_eq!(written.len(), 14);
    assert!(docs::stale_files(&spec(), &scratch.0).is_empty());

    // A summary changed.
    let changed = edited(
        "interfaces/info.yaml",
        "summary: The peer's node ID.",
        "summary: The ID of the peer (edited by a test).",
    );
    assert_eq!(
        docs::stale_files(&changed, &scratch.0),
        ["openrpc/info.json", "openrpc/openrpc.json", "docs/api.html"]
    );
    let info = changed
        .interfaces
        .iter()
        .find(|i| i.name == "info")
        .unwrap();
    let doc = openrpc::to_text(&openrpc::interface_document(&changed, info));
    assert!(doc.contains("edited by a test"));
    let committed = repo().join("generated");
    let on_disk = std::fs::read_to_string(committed.join("openrpc/info.json")).unwrap();
    assert_ne!(doc, on_disk, "the edit shows in the generated document");
    let stale = docs::stale_files(&changed, &committed);
    for f in ["openrpc/info.json", "openrpc/openrpc.json", "docs/api.html"] {
        assert!(
            stale.iter().any(|s| s == f),
            "{f} is not reported stale: {stale:?}"
        );
    }

    // A type changed.
    let changed = edited(
        "interfaces/wallet.yaml",
        "- { name: txID, type: id, summary: ID of the transaction. }",
        "- { name: txID, type: string, summary: ID of the transaction. }",
    );
    assert_eq!(
        docs::stale_files(&changed, &scratch.0),
        [
            "openrpc/wallet.json",
            "openrpc/openrpc.json",
            "docs/api.html"
        ]
    );

    // A document that is no longer generated is stale too, and `docs` removes it.
    std::fs::write(scratch.0.join("openrpc/old.json"), "{}\n").unwrap();
    assert_eq!(docs::stale_files(&spec(), &scratch.0), ["openrpc/old.json"]);
    let written = docs::write_outputs(&spec(), &scratch.0).unwrap();
    assert!(written.contains(&"openrpc/old.json (removed)".to_string()));
    assert!(docs::stale_files(&spec(), &scratch.0).is_empty());
}

#[test]
fn the_html_page_lists_every_method_and_fetches_nothing() {
    let spec = spec();
    let page = avalanche_rpc_codegen::html::page(&spec);
    assert_eq!(page.matches("<section class=\"method").count(), 97);
    assert_eq!(page.matches("class=\"nav-method").count(), 97);
    assert_eq!(page.matches("badge badge-devnet\" title").count(), 6);
    for (_, m) in spec.methods() {
        let id = format!("id=\"{}\"", m.wire_name);
        assert_eq!(page.matches(&id).count(), 1, "{}", m.wire_name);
        assert!(page.contains(&format!("href=\"#{}\"", m.wire_name)));
    }
    for w in &spec.wire_types {
        assert!(
            page.contains(&format!("id=\"type-{}\"", w.name)),
            "{}",
            w.name
        );
    }
    // Nothing is loaded from elsewhere: no external scripts, styles, fonts or images.
    for needle in [
        "<script src",
        "<link",
        "@import",
        "url(",
        "<img",
        "<iframe",
        "@font-face",
    ] {
        assert!(!page.contains(needle), "the page contains `{needle}`");
    }
    assert!(page.contains("<style>") && page.contains("<script>"));
    // Spec text is escaped: an error message with `<` and `%s`, a description with `<`.
    assert!(page.contains("P-&lt;hrp&gt;1…"));
    assert!(!page.contains("P-<hrp>"));
}

#[test]
fn the_html_page_carries_a_try_it_form_per_method() {
    let spec = spec();
    let page = avalanche_rpc_codegen::html::page(&spec);
    let open = "<script type=\"application/json\" id=\"try-data\">";
    let start = page.find(open).expect("the Try it data") + open.len();
    let text = &page[start..start + page[start..].find("</script>").unwrap()];
    assert!(!text.contains('<'), "every < is escaped inside the script");
    let data: Value = serde_json::from_str(text).unwrap();
    let methods = data["methods"].as_object().unwrap();
    assert_eq!(methods.len(), 97);
    for (i, m) in spec.methods() {
        let d = &methods[&m.wire_name];
        assert_eq!(d["path"], json!(i.path), "{}", m.wire_name);
        let names: Vec<&str> = d["params"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        let expected: Vec<&str> = m.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, expected, "{}", m.wire_name);
        // Each param's example is its value in the first example.
        for p in d["params"].as_array().unwrap() {
            let first = m
                .examples
                .first()
                .and_then(|e| e.params.get(p["name"].as_str().unwrap()));
            assert_eq!(p.get("example"), first, "{}", m.wire_name);
        }
        assert_eq!(
            d.get("changesState").is_some(),
            m.changes_state,
            "{}",
            m.wire_name
        );
    }
    // String params are taken bare; others as JSON.
    let address = &methods["avm.getBalance"]["params"][0];
    assert_eq!(
        (&address["name"], &address["string"]),
        (&json!("address"), &json!(true))
    );
    assert_eq!(
        methods["platform.getCurrentValidators"]["params"][1],
        json!({"name": "nodeIDs", "type": "list<node-id>", "optional": true})
    );
    assert_eq!(methods["platform.issueTx"]["changesState"], json!(true));
    // Path variables, prefilled with their default, else their first example.
    assert_eq!(data["paths"]["/ext/bc/{chain}"][0]["value"], "X");
    assert_eq!(data["paths"]["/ext/bc/{chain}/proposervm"][0]["value"], "P");
    let index = &data["paths"]["/ext/index/{chain}/{kind}"];
    assert_eq!(
        (&index[0]["value"], &index[1]["value"]),
        (&json!("X"), &json!("tx"))
    );
    // The node URL field, with the documents' default node.
    assert!(page.contains("<input id=\"node-url\" type=\"url\" value=\"http://127.0.0.1:9650\""));
}

#[test]
fn the_html_page_describes_every_codec_type_and_links_members_to_them() {
    let spec = spec();
    let page = avalanche_rpc_codegen::html::page(&spec);
    let ids: std::collections::BTreeSet<&str> = page
        .split("id=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    // Every struct has its table, every codec its roots and slots.
    for s in spec.codec.structs() {
        assert!(
            ids.contains(format!("codec-{}", s.name).as_str()),
            "{}",
            s.name
        );
    }
    for k in &spec.codec.codecs {
        assert!(ids.contains(format!("codec-{}", k.name).as_str()));
        for slot in &k.slots {
            assert!(ids.contains(format!("codec-{}.slot-{}", k.name, slot.name).as_str()));
        }
    }
    // Every link within the page lands somewhere.
    for link in page.split("href=\"#").skip(1) {
        let target = &link[..link.find('"').unwrap()];
        assert!(
            target.is_empty() || ids.contains(target),
            "a link to #{target} lands nowhere"
        );
    }
    // getTx's `tx` says what it holds and links to the signed transaction's table; a JSON-only
    // member and a node-specific JSON form are told.
    let get_tx = &page[page.find("id=\"platform.getTx\"").unwrap()..];
    let get_tx = &get_tx[..get_tx.find("</section>").unwrap()];
    assert!(get_tx.contains("holds <a class=\"type type-schema\" href=\"#codec-platform.Tx\">"));
    let tx = &page[page.find("id=\"codec-avm.Tx\"").unwrap()..];
    let tx = &tx[..tx.find("</table>").unwrap()];
    assert!(tx.contains("<code>id</code><span class=\"tag tag-optional\">JSON only</span>"));
    assert!(
        tx.contains("<code>unsignedTx</code>"),
        "the member's JSON name, not the field's"
    );
    let register = &page[page
        .find("id=\"codec-platform.RegisterL1ValidatorTx\"")
        .unwrap()..];
    let register = &register[..register.find("</table>").unwrap()];
    assert!(
        register.contains("array of numbers"),
        "proofOfPossession as the node writes it"
    );
}

#[test]
fn required_params_come_before_optional_ones_in_every_method() {
    // OpenRPC 1.3.2, Method Object: "required params MUST be positioned before optional params".
    let spec = spec();
    let mut reordered = 0;
    for (name, doc) in openrpc::documents(&spec) {
        for m in doc["methods"].as_array().unwrap() {
            let required: Vec<bool> = m["params"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["required"] == json!(true))
                .collect();
            let first_optional = required.iter().position(|r| !r).unwrap_or(required.len());
            assert!(
                required[first_optional..].iter().all(|r| !r),
                "{name}: {} lists a required param after an optional one",
                m["name"]
            );
            for e in m["examples"].as_array().unwrap() {
                let listed: Vec<&Value> = e["params"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| &p["name"])
                    .collect();
                let order: Vec<&Value> = m["params"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| &p["name"])
                    .filter(|n| listed.contains(n))
                    .collect();
                assert_eq!(listed, order, "{name}: {} example params", m["name"]);
            }
        }
    }
    // The spec writes some optional params first: those methods are the ones reordered.
    for (_, m) in spec.methods() {
        let spec_order: Vec<&str> = m.params.iter().map(|p| p.name.as_str()).collect();
        let listed: Vec<&str> = m.params_required_first().map(|p| p.name.as_str()).collect();
        if spec_order != listed {
            reordered += 1;
        }
    }
    assert!(
        reordered >= 2,
        "avm.getAddressTxs and index.getContainerRange"
    );
}
