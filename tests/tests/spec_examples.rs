//! Every example of the spec decodes into the generated types and re-encodes to the same JSON,
//! including results in the forms only the client reads (those re-encode to their
//! `normalized` form), and every decimal-string number is read from a bare number too.

use avalanche_rpc::METHODS;
use serde_json::Value;

#[test]
fn every_example_decodes_and_reencodes_to_the_same_json() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for m in METHODS {
        for ex in m.examples {
            checked += 1;
            match m.roundtrip_params(&ex.params()) {
                Ok(p) if p == ex.params() => {}
                Ok(p) => failures.push(format!("{} `{}` params re-encode as {p}", m.name, ex.name)),
                Err(e) => failures.push(format!("{} `{}` params: {e}", m.name, ex.name)),
            }
            match m.roundtrip_result(&ex.result()) {
                Ok(r) if r == ex.expected() => {}
                Ok(r) => {
                    failures.push(format!("{} `{}` result re-encodes as {r}", m.name, ex.name))
                }
                Err(e) => failures.push(format!("{} `{}` result: {e}", m.name, ex.name)),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= METHODS.len(), "every method has an example");
}

/// Replaces every all-digit string with the number it spells, outside JSON-valued members
/// (`tx`, `block`, which the node passes through untouched).
fn numbers_instead_of_strings(v: &Value) -> Value {
    match v {
        Value::String(s)
            if !s.is_empty() && s.len() <= 19 && s.bytes().all(|b| b.is_ascii_digit()) =>
        {
            Value::Number(s.parse::<u64>().expect("19 digits fit in u64").into())
        }
        Value::Array(items) => Value::Array(items.iter().map(numbers_instead_of_strings).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, x)| {
                    let passthrough = (k == "tx" || k == "block") && x.is_object();
                    (
                        k.clone(),
                        if passthrough {
                            x.clone()
                        } else {
                            numbers_instead_of_strings(x)
                        },
                    )
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

#[test]
fn every_decimal_string_is_also_read_from_a_bare_number() {
    let mut swapped = 0;
    let mut failures = Vec::new();
    for m in METHODS {
        for ex in m.examples {
            let (params, result) = (ex.params(), ex.result());
            let (nparams, nresult) = (
                numbers_instead_of_strings(&params),
                numbers_instead_of_strings(&result),
            );
            if nparams != params {
                swapped += 1;
                match m.roundtrip_params(&nparams) {
                    Ok(p) if p == params => {}
                    Ok(p) => failures.push(format!(
                        "{} `{}` numeric params re-encode as {p}",
                        m.name, ex.name
                    )),
                    Err(e) => {
                        failures.push(format!("{} `{}` numeric params: {e}", m.name, ex.name))
                    }
                }
            }
            if nresult != result {
                swapped += 1;
                match m.roundtrip_result(&nresult) {
                    Ok(r) if r == ex.expected() => {}
                    Ok(r) => failures.push(format!(
                        "{} `{}` numeric result re-encodes as {r}",
                        m.name, ex.name
                    )),
                    Err(e) => {
                        failures.push(format!("{} `{}` numeric result: {e}", m.name, ex.name))
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        swapped > 50,
        "the examples carry many decimal strings ({swapped} swapped)"
    );
}
