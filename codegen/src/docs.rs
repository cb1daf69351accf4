//! The committed documentation outputs (`generated/openrpc/*.json`, `generated/docs/api.html`):
//! what they should hold, which are stale, and writing them.

use crate::model::Spec;
use crate::{html, openrpc};
use std::path::Path;

/// Every committed documentation output as (path relative to the `generated/` folder, text):
/// `openrpc/<name>.json` for each document and `docs/api.html`.
pub fn outputs(spec: &Spec) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = openrpc::documents(spec)
        .iter()
        .map(|(name, doc)| (format!("openrpc/{name}"), openrpc::to_text(doc)))
        .collect();
    out.push(("docs/api.html".to_string(), html::page(spec)));
    out
}

/// The outputs under `generated_dir` that differ from what `spec` generates (missing or
/// different), and JSON files in `openrpc/` that `spec` no longer generates. Paths are relative
/// to `generated_dir`; empty when everything is up to date.
pub fn stale_files(spec: &Spec, generated_dir: &Path) -> Vec<String> {
    let outputs = outputs(spec);
    let mut stale: Vec<String> = outputs
        .iter()
        .filter(|(rel, text)| {
            std::fs::read_to_string(generated_dir.join(rel))
                .ok()
                .as_deref()
                != Some(text.as_str())
        })
        .map(|(rel, _)| rel.clone())
        .collect();
    stale.extend(extra_documents(&outputs, generated_dir));
    stale
}

/// JSON files in `generated_dir/openrpc` that are not among `outputs`, sorted.
fn extra_documents(outputs: &[(String, String)], generated_dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(generated_dir.join("openrpc")) else {
        return Vec::new();
    };
    let mut extra: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| format!("openrpc/{}", e.file_name().to_string_lossy()))
        .filter(|rel| rel.ends_with(".json") && !outputs.iter().any(|(o, _)| o == rel))
        .collect();
    extra.sort();
    extra
}

/// Writes every output under `generated_dir` (creating folders) and removes JSON files in
/// `openrpc/` that are no longer generated. Returns the paths written or removed, relative.
pub fn write_outputs(spec: &Spec, generated_dir: &Path) -> Result<Vec<String>, String> {
    let outputs = outputs(spec);
    let mut done = Vec::new();
    for (rel, text) in &outputs {
        let path = generated_dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        done.push(rel.clone());
    }
    for rel in extra_documents(&outputs, generated_dir) {
        let path = generated_dir.join(&rel);
        std::fs::remove_file(&path)
            .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
        done.push(format!("{rel} (removed)"));
    }
    Ok(done)
}
