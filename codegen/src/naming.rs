//! Wire names to Rust names: `getUTXOs` → `get_utxos`, `txID` → `tx_id`, `UtxoId` stays.

/// Splits a camelCase wire name into lower-case words, keeping acronyms whole:
/// `getUTXOs` → `get utxos`, `nodeIDs` → `node ids`, `apricotPhase4Time` → `apricot phase4 time`.
pub fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '_' || c == '-' || c == '.' || c == ' ' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            i += 1;
            continue;
        }
        if c.is_ascii_uppercase() {
            // An upper-case run: an acronym, possibly followed by a plural `s`
            // (`IDs`, `UTXOs`) or by the first letter of the next word (`IDFoo`).
            let start = i;
            while i < chars.len() && chars[i].is_ascii_uppercase() {
                i += 1;
            }
            let run_len = i - start;
            let next_lower = i < chars.len() && chars[i].is_ascii_lowercase();
            let plural_s = next_lower
                && chars[i] == 's'
                && (i + 1 == chars.len() || !chars[i + 1].is_ascii_lowercase());
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            if run_len > 1 && next_lower && !plural_s {
                // `IDFoo`: the last capital starts the next word.
                let acronym: String = chars[start..i - 1].iter().collect();
                words.push(acronym.to_ascii_lowercase());
                current.push(chars[i - 1].to_ascii_lowercase());
            } else {
                let mut acronym: String = chars[start..i].iter().collect();
                acronym.make_ascii_lowercase();
                if plural_s {
                    acronym.push('s');
                    i += 1;
                    words.push(acronym);
                } else if run_len == 1 {
                    current = acronym;
                } else {
                    words.push(acronym);
                }
            }
            continue;
        }
        current.push(c.to_ascii_lowercase());
        i += 1;
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// `snake_case` for fields, functions and modules; reserved words get `r#`, except the path
/// keywords that cannot be raw identifiers (`self`, `super`, `crate`), which get a trailing `_`.
pub fn snake(name: &str) -> String {
    let s = words(name).join("_");
    let s = if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{s}")
    } else {
        s
    };
    if matches!(s.as_str(), "self" | "super" | "crate") {
        format!("{s}_")
    } else if is_reserved(&s) {
        format!("r#{s}")
    } else {
        s
    }
}

/// `PascalCase` for types and enum variants.
pub fn pascal(name: &str) -> String {
    let s: String = words(name)
        .iter()
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect();
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{s}")
    } else {
        s
    }
}

/// An enum variant: `PascalCase`, with `Self` (a keyword that cannot be raw) as `Self_`.
/// Type names are built by appending to `pascal` (`SelfResult`), so only variants need this.
pub fn variant(value: &str) -> String {
    let s = pascal(value);
    if s == "Self" { "Self_".to_string() } else { s }
}

/// The params struct of a method: `getUTXOs` → `GetUtxosParams`.
pub fn params_type(method: &str) -> String {
    format!("{}Params", pascal(method))
}

/// `SCREAMING_SNAKE_CASE` for constants.
pub fn screaming(name: &str) -> String {
    words(name).join("_").to_ascii_uppercase()
}

fn is_reserved(s: &str) -> bool {
    matches!(
        s,
        "as" | "break"
            | "const"
            | "continue"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "static"
            | "struct"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
            | "gen"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_keeps_acronyms_whole() {
        for (wire, rust) in [
            ("getUTXOs", "get_utxos"),
            ("getNodeID", "get_node_id"),
            ("txID", "tx_id"),
            ("nodeIDs", "node_ids"),
            ("txIDs", "tx_ids"),
            ("numFetched", "num_fetched"),
            (
                "apricotPhase4MinPChainHeight",
                "apricot_phase4_min_p_chain_height",
            ),
            ("getBlockchainID", "get_blockchain_id"),
            ("supportedACPs", "supported_acps"),
            ("acps", "acps"),
            ("publicIP", "public_ip"),
            ("fUpgradeTime", "f_upgrade_time"),
            ("avm-static", "avm_static"),
            ("type", "r#type"),
            ("self", "self_"),
            ("Self", "self_"),
            ("super", "super_"),
            ("crate", "crate_"),
            ("isBootstrapped", "is_bootstrapped"),
            ("nodePOP", "node_pop"),
            ("getTxFee", "get_tx_fee"),
            ("IDFoo", "id_foo"),
        ] {
            assert_eq!(snake(wire), rust, "{wire}");
        }
    }

    #[test]
    fn pascal_and_screaming() {
        assert_eq!(pascal("getUTXOs"), "GetUtxos");
        assert_eq!(pascal("getNodeID"), "GetNodeId");
        assert_eq!(pascal("avm-static"), "AvmStatic");
        assert_eq!(pascal("self"), "Self");
        assert_eq!(variant("Self"), "Self_");
        assert_eq!(variant("self"), "Self_");
        assert_eq!(variant("type"), "Type");
        assert_eq!(screaming("getUTXOs"), "GET_UTXOS");
    }
}
