//! Reading the spec folder: every file's text, named relative to the folder.

use crate::error::{SpecError, SpecErrors};
use crate::positions::Pos;
use std::path::Path;

/// The spec's files as text, named relative to the spec folder.
#[derive(Debug, Default, Clone)]
pub struct Sources {
    /// `versions.yaml`, when the folder has one.
    pub versions: Option<(String, String)>,
    pub wire_types: (String, String),
    pub schemas: Vec<(String, String)>,
    pub interfaces: Vec<(String, String)>,
    /// `codec/*.yaml`, when the folder has a `codec/` folder: the package files and
    /// `codec/codecs.yaml`.
    pub codec: Vec<(String, String)>,
}

impl Sources {
    /// Reads `wire-types.yaml`, `schemas/*.yaml`, `interfaces/*.yaml` and, when present,
    /// `codec/*.yaml` (each folder sorted by name).
    pub fn read_dir(dir: &Path) -> Result<Sources, SpecErrors> {
        let fail = |file: &str, message: String| {
            SpecErrors(vec![SpecError {
                file: file.to_string(),
                pos: Pos { line: 1, column: 1 },
                at: String::new(),
                message,
            }])
        };
        let read = |rel: &str| {
            std::fs::read_to_string(dir.join(rel))
                .map_err(|e| fail(rel, format!("cannot read {}: {e}", dir.join(rel).display())))
        };
        let list = |sub: &str| -> Result<Vec<(String, String)>, SpecErrors> {
            let path = dir.join(sub);
            let entries = std::fs::read_dir(&path)
                .map_err(|e| fail(sub, format!("cannot list {}: {e}", path.display())))?;
            let mut names: Vec<String> = entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml"))
                .collect();
            names.sort();
            names
                .into_iter()
                .map(|n| {
                    let rel = format!("{sub}/{n}");
                    read(&rel).map(|text| (rel, text))
                })
                .collect()
        };
        let versions = if dir.join("versions.yaml").exists() {
            Some(("versions.yaml".to_string(), read("versions.yaml")?))
        } else {
            None
        };
        Ok(Sources {
            versions,
            wire_types: ("wire-types.yaml".to_string(), read("wire-types.yaml")?),
            schemas: list("schemas")?,
            interfaces: list("interfaces")?,
            codec: if dir.join("codec").is_dir() {
                list("codec")?
            } else {
                Vec::new()
            },
        })
    }

    /// Every file, for build scripts that re-run when one changes.
    pub fn file_names(&self) -> impl Iterator<Item = &str> {
        self.versions
            .iter()
            .map(|(n, _)| n.as_str())
            .chain(std::iter::once(self.wire_types.0.as_str()))
            .chain(self.schemas.iter().map(|(n, _)| n.as_str()))
            .chain(self.interfaces.iter().map(|(n, _)| n.as_str()))
            .chain(self.codec.iter().map(|(n, _)| n.as_str()))
    }

    /// Every file with its text, in the order problems are reported.
    pub fn files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.versions
            .iter()
            .chain(std::iter::once(&self.wire_types))
            .chain(&self.schemas)
            .chain(&self.interfaces)
            .chain(&self.codec)
            .map(|(n, t)| (n.as_str(), t.as_str()))
    }
}
