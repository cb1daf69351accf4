//! Building for one node version: the model, the Rust and the OpenRPC documents hold what that
//! version served, no more and no less; without a version, everything.

use avalanche_rpc_codegen::model::{Body, Field, Spec, TypeRef, Version};
use avalanche_rpc_codegen::{Sources, check, emit, load_for, openrpc};
use std::path::Path;

fn sources() -> Sources {
    Sources::read_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec")).unwrap()
}

fn v(text: &str) -> Version {
    text.parse().unwrap()
}

fn spec_for(version: Option<&str>) -> Spec {
    load_for(&sources(), version.map(v)).unwrap_or_else(|e| panic!("{e}"))
}

fn methods(spec: &Spec) -> Vec<String> {
    spec.methods().map(|(_, m)| m.wire_name.clone()).collect()
}

/// The member at `path` (member names through named schemas; `param:` for a param), if the
/// model has it.
fn member<'a>(spec: &'a Spec, wire_name: &str, path: &[&str]) -> Option<&'a Field> {
    let m = spec
        .methods()
        .map(|(_, m)| m)
        .find(|m| m.wire_name == wire_name)?;
    let (first, rest) = path.split_first()?;
    let mut fields: &[Field] = match (&m.result.body, first.strip_prefix("param:")) {
        (_, Some(_)) => &m.params,
        (Body::Object(fs), None) => fs,
        // A map of objects: the members of its values.
        (Body::Alias(TypeRef::Map(_, value)), None) => match value.as_ref() {
            TypeRef::Schema { name, scope } => match &spec.schema(name, scope)?.body {
                Body::Object(fs) => fs,
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    let mut name = first.trim_start_matches("param:");
    for next in rest {
        let f = fields.iter().find(|f| f.name == name)?;
        let mut ty = &f.ty;
        while let TypeRef::List(t) | TypeRef::Map(_, t) = ty {
            ty = t;
        }
        let TypeRef::Schema { name: s, scope } = ty else {
            return None;
        };
        let Body::Object(fs) = &spec.schema(s, scope)?.body else {
            return None;
        };
        fields = fs;
        name = next;
    }
    fields.iter().find(|f| f.name == name)
}

/// Every member of every params and object result and named schema, counted once each.
fn member_count(spec: &Spec) -> usize {
    let object = |b: &Body| match b {
        Body::Object(fs) => fs.len(),
        _ => 0,
    };
    spec.schemas.iter().map(|s| object(&s.body)).sum::<usize>()
        + spec
            .interfaces
            .iter()
            .map(|i| {
                i.schemas.iter().map(|s| object(&s.body)).sum::<usize>()
                    + i.methods
                        .iter()
                        .map(|m| m.params.len() + object(&m.result.body))
                        .sum::<usize>()
            })
            .sum::<usize>()
}

#[test]
fn without_a_version_everything_is_there() {
    let all = spec_for(None);
    assert_eq!(all.node_version, None);
    assert_eq!(methods(&all).len(), 97);
    let plain = avalanche_rpc_codegen::load(&sources()).unwrap();
    assert_eq!(emit::rust(&all), emit::rust(&plain));
}

#[test]
fn v1_10_0_has_what_it_served() {
    let all = spec_for(None);
    let old = spec_for(Some("v1.10.0"));
    assert_eq!(old.node_version, Some(v("v1.10.0")));
    let names = methods(&old);
    // Every method that v1.10.0 served, and no other.
    for (_, m) in all.methods() {
        let served = m.since.is_none_or(|s| s <= v("v1.10.0"))
            && m.removed.is_none_or(|r| v("v1.10.0") < r)
            && !m.is_devnet_only();
        assert_eq!(names.contains(&m.wire_name), served, "{}", m.wire_name);
    }
    assert_eq!(names.len(), 76);
    for absent in [
        "info.acps",
        "info.upgrades",
        "platform.getBlockByHeight",
        "platform.getFeeConfig",
        "platform.getAllValidatorsAt",
        "proposervm.getCurrentEpoch",
    ] {
        assert!(!names.iter().any(|n| n == absent), "{absent}");
    }
    // Removed later, so still served by v1.10.0.
    for present in ["avm.getAddressTxs", "avm.buildGenesis", "info.getTxFee"] {
        assert!(names.iter().any(|n| n == present), "{present}");
    }
    // Members: those added later are gone, the others stay.
    for (wire_name, path) in [
        ("info.getVMs", &["fxs"][..]),
        ("info.peers", &["peers", "supportedACPs"]),
        ("info.peers", &["peers", "upgradeTime"]),
        ("platform.getCurrentSupply", &["height"]),
        ("platform.getStake", &["param:validatorsOnly"]),
        ("platform.getValidatorsAt", &["publicKey"]),
        (
            "platform.getCurrentValidators",
            &["validators", "nextPeriod"],
        ),
    ] {
        assert!(
            member(&all, wire_name, path).is_some(),
            "{wire_name} {path:?}"
        );
        assert!(
            member(&old, wire_name, path).is_none(),
            "{wire_name} {path:?}"
        );
    }
    for (wire_name, path) in [
        ("info.getNodeID", &["nodePOP"][..]),
        ("info.peers", &["peers", "trackedSubnets"]),
        ("avm.getAllBalances", &["param:includePartial"]),
    ] {
        assert!(
            member(&old, wire_name, path).is_some(),
            "{wire_name} {path:?}"
        );
    }
    // Members it lacks: those of the methods it lacks, and the members dated after it of the
    // rest (in params, results and named schemas).
    let at = v("v1.10.0");
    let unserved = |f: &Field| !avalanche_rpc_codegen::model::served_by(at, f.since, f.removed);
    fn object(b: &Body) -> Vec<&Field> {
        match b {
            Body::Object(fs) => fs.iter().collect(),
            _ => Vec::new(),
        }
    }
    let mut with_methods = 0;
    let mut dated = 0;
    for (_, m) in all.methods() {
        let members = m.params.len() + object(&m.result.body).len();
        if names.contains(&m.wire_name) {
            dated += m.params.iter().filter(|f| unserved(f)).count();
            dated += object(&m.result.body)
                .into_iter()
                .filter(|f| unserved(f))
                .count();
        } else {
            with_methods += members;
        }
    }
    for s in all
        .schemas
        .iter()
        .chain(all.interfaces.iter().flat_map(|i| &i.schemas))
    {
        dated += object(&s.body).into_iter().filter(|f| unserved(f)).count();
    }
    // 52 members of methods v1.10.0 did not serve, 12 of the devnet's own and 3 of
    // admin.dbGet (v1.10.19); admin.setLoggerLevel's loggerLevels came in v1.10.16.
    assert_eq!((with_methods, dated), (67, 21));
    assert_eq!(
        member_count(&all) - member_count(&old),
        with_methods + dated
    );
    // The examples lost the members too: the model still passes every check.
    assert_eq!(check::check(&old), []);
}

#[test]
fn the_newest_version_has_what_it_serves() {
    let all = spec_for(None);
    let newest = all
        .versions
        .checked_against
        .expect("versions.yaml names it");
    assert_eq!(newest, v("v1.15.0"));
    let new = spec_for(Some("v1.15.0"));
    let names = methods(&new);
    assert_eq!(names.len(), 89);
    for gone in ["avm.getAddressTxs", "avm.buildGenesis"] {
        assert!(!names.iter().any(|n| n == gone), "{gone}");
    }
    for present in [
        "platform.getAllValidatorsAt",
        "proposervm.getCurrentEpoch",
        "info.acps",
        "info.getTxFee",
    ] {
        assert!(names.iter().any(|n| n == present), "{present}");
    }
    for (wire_name, path) in [
        ("info.peers", &["peers", "upgradeTime"][..]),
        (
            "platform.getCurrentValidators",
            &["validators", "nextPeriod"],
        ),
        ("info.getVMs", &["fxs"]),
    ] {
        assert!(
            member(&new, wire_name, path).is_some(),
            "{wire_name} {path:?}"
        );
    }
    assert_eq!(check::check(&new), []);
}

#[test]
fn the_rust_and_the_documents_follow_the_version() {
    let old = spec_for(Some("v1.10.0"));
    let code = emit::rust(&old);
    syn::parse_file(&code).unwrap();
    assert!(!code.contains("fn acps("));
    // No method of proposervm is that old: no interface either.
    assert!(!old.interfaces.iter().any(|i| i.name == "proposervm"));
    assert!(!code.contains("pub mod proposervm"));
    assert!(!code.contains("pub fxs:"));
    assert!(code.contains("fn get_node_id("));
    let all = emit::rust(&spec_for(None));
    assert!(all.contains("fn acps(") && all.contains("pub fxs:"));

    for (name, doc) in openrpc::documents(&old) {
        assert_eq!(doc["info"]["x-node-version"], "v1.10.0", "{name}");
        let d = doc["info"]["description"].as_str().unwrap();
        assert!(d.contains("Describes node version v1.10.0"), "{name}");
    }
    for (name, doc) in openrpc::documents(&spec_for(None)) {
        assert!(doc["info"].get("x-node-version").is_none(), "{name}");
    }
}

#[test]
fn a_version_older_than_the_spec_covers_is_refused() {
    let e = load_for(&sources(), Some(v("v1.9.0"))).unwrap_err();
    assert!(e.to_string().contains("from v1.10.0"), "{e}");
}
