//! Loading the spec: reads the files (`source`), parses each (`yaml`), lowers them into the
//! model (`lower`) and checks the whole (`check`), collecting every problem with its file,
//! line and column.

use crate::check::check;
use crate::error::{SpecError, SpecErrors};
use crate::lower::{Docs, lower};
use crate::model::Spec;
use crate::source::Sources;
use crate::yaml::{self, FileKind};

/// Validates the sources into one model (the rules of the spec itself; the Rust emitter's
/// naming rules are checked by [`crate::load()`]).
pub fn load(sources: &Sources) -> Result<Spec, SpecErrors> {
    let mut errors: Vec<SpecError> = Vec::new();
    let mut parse = |file: &str, text: &str, kind: FileKind| match yaml::parse(file, text, kind) {
        Ok(doc) => Some(doc),
        Err(e) => {
            errors.push(e);
            None
        }
    };
    let mut docs = Docs {
        versions: sources
            .versions
            .as_ref()
            .and_then(|(f, t)| parse(f, t, FileKind::Versions)),
        wire_types: parse(
            &sources.wire_types.0,
            &sources.wire_types.1,
            FileKind::WireTypes,
        ),
        ..Docs::default()
    };
    for (f, t) in &sources.schemas {
        match parse(f, t, FileKind::Schemas) {
            Some(doc) => docs.schemas.push(doc),
            // The names it defines still exist: a reference to one is no second problem.
            None => docs.unparsed_shared.extend(top_level_keys(t)),
        }
    }
    for (f, t) in &sources.interfaces {
        docs.interfaces.extend(parse(f, t, FileKind::Interface));
    }
    let (mut packages, mut codecs) = (Vec::new(), None);
    let mut unparsed = std::collections::BTreeSet::new();
    for (f, t) in &sources.codec {
        let doc = parse(f, t, FileKind::Codec);
        if f.ends_with("/codecs.yaml") {
            codecs = doc;
        } else if let Some(doc) = doc {
            packages.push(doc);
        } else if let Some(name) = package_name(t) {
            // Its types still exist: a use of one is not a second problem.
            unparsed.insert(name);
        }
    }
    if docs.wire_types.is_none() {
        // Without the vocabulary every type would be unknown.
        return Err(sorted(sources, errors));
    }
    let (mut spec, lowering) = lower(&docs);
    errors.extend(lowering);
    let (codec, codec_errors) = crate::codec::lower::lower(
        &packages,
        codecs.as_ref(),
        unparsed,
        spec.versions.oldest_supported,
    );
    spec.codec = codec;
    errors.extend(codec_errors);
    if !errors.is_empty() {
        return Err(sorted(sources, errors));
    }
    let problems = check(&spec);
    if !problems.is_empty() {
        return Err(sorted(sources, problems));
    }
    Ok(spec)
}

/// The errors in file order, each file's from top to bottom.
pub(crate) fn sorted(sources: &Sources, mut errors: Vec<SpecError>) -> SpecErrors {
    let order: Vec<&str> = sources.file_names().collect();
    errors.sort_by_key(|e| {
        (
            order
                .iter()
                .position(|f| *f == e.file)
                .unwrap_or(usize::MAX),
            e.pos,
        )
    });
    SpecErrors(errors)
}

/// The keys at the start of lines of a file that does not parse: `Name:` at column 1.
fn top_level_keys(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let (key, _) = l.split_once(':')?;
            let ok = key.starts_with(|c: char| c.is_ascii_alphabetic())
                && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            ok.then(|| key.to_string())
        })
        .collect()
}

/// The `package:` of a codec file that does not parse, read from its text.
fn package_name(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("package:"))
        .map(|n| n.trim().trim_matches(['"', '\'']).to_string())
        .filter(|n| !n.is_empty())
}
