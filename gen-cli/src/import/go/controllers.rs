//! `--controllers DIR`: the markers of Go controllers and webhooks that say what the project
//! deploys (`+kubebuilder:rbac`, `+kubebuilder:webhook`, `+kubebuilder:webhookconfiguration`),
//! which `rbac` and `webhook` write as Rust attributes. Their Go logic is not translated.

use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use super::{markers, parse};

/// The markers read.
const MARKERS: &[&str] = &[
    "kubebuilder:rbac",
    "kubebuilder:webhook",
    "kubebuilder:webhookconfiguration",
];

/// The `.go` files under `dir`, recursively, tests left out, in name order.
fn files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            files(&path, out)?;
        } else if name.ends_with(".go") && !name.ends_with("_test.go") {
            out.push(path);
        }
    }
    Ok(())
}

/// The RBAC and webhook markers of the Go files under `dirs` (package-level comments: those
/// that start a line), in file order, and the warnings (a file that does not parse); or the
/// folders and files that cannot be read.
pub fn markers(dirs: &[PathBuf]) -> Result<(Vec<markers::Marker>, Vec<String>), Vec<String>> {
    let mut paths = Vec::new();
    let mut errors = Vec::new();
    for dir in dirs {
        if let Err(e) = files(dir, &mut paths) {
            errors.push(e);
        }
    }
    let mut found = Vec::new();
    let mut warnings = Vec::new();
    for path in paths {
        let Some((name, text)) = super::read(&path, &mut errors) else {
            continue;
        };
        let (comments, error) = parse::line_comments(&name, &text);
        if let Some(e) = error {
            warnings.push(format!(
                "{}: {} (tree-sitter's Go grammar); its markers are read from the comments that \
                 start a line",
                e.loc, e.message
            ));
        }
        found.extend(
            markers::of(&comments)
                .into_iter()
                .filter(|m| MARKERS.contains(&m.name.as_str())),
        );
    }
    if errors.is_empty() {
        Ok((found, warnings))
    } else {
        Err(errors)
    }
}

/// A marker's value as a list of `#[rbac]` or `#[webhook]`: `"a;b"`, or `["", "b"]` when a part is empty (the
/// core group).
pub fn list(value: &Value) -> TokenStream {
    let parts = parts(value);
    if parts.len() > 1 && parts.iter().any(String::is_empty) {
        quote!([#(#parts),*])
    } else {
        let joined = parts.join(";");
        quote!(#joined)
    }
}

/// A marker's value as strings: an array's items, or the value.
pub fn parts(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().map(scalar).collect(),
        other => vec![scalar(other)],
    }
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
