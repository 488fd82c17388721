//! `--controllers DIR`: the `+kubebuilder:rbac` markers of Go controllers as `#[rbac(...)]`
//! attributes of a generated `rbac.rs`, so that `kubegen manifests` writes controller-gen's
//! `role.yaml`. The controllers' Go logic is not translated.

use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

use super::{markers, parse};

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

/// The RBAC markers of the Go files under `dirs` (package-level comments: those that start a
/// line), in file order, and the warnings (a file that does not parse); or the folders and
/// files that cannot be read.
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
                "{}: {} (tree-sitter's Go grammar); its RBAC markers are read from the comments \
                 that start a line",
                e.loc, e.message
            ));
        }
        found.extend(
            markers::of(&comments)
                .into_iter()
                .filter(|m| m.name == "kubebuilder:rbac"),
        );
    }
    if errors.is_empty() {
        Ok((found, warnings))
    } else {
        Err(errors)
    }
}

/// The `rbac.rs` of some RBAC markers: one `#[rbac(...)]` each, on one item; and the warnings
/// (an argument kubegen has no key for).
pub fn source(rules: &[markers::Marker]) -> (String, Vec<String>) {
    let mut warnings = Vec::new();
    let attrs: Vec<TokenStream> = rules
        .iter()
        .map(|m| {
            let args = m.args.iter().filter_map(|(name, value)| {
                let key = match name.as_str() {
                    "groups" => "groups",
                    "resources" => "resources",
                    "resourceNames" => "resource_names",
                    "verbs" => "verbs",
                    "urls" => "urls",
                    "namespace" => "namespace",
                    "roleName" => "role_name",
                    other => {
                        warnings.push(format!(
                            "{}: `{other}` has no `#[rbac]` key; left out",
                            m.loc
                        ));
                        return None;
                    }
                };
                let key = format_ident!("{key}");
                let value = list(value);
                Some(quote!(#key = #value))
            });
            quote!(#[rbac(#(#args),*)])
        })
        .collect();
    let file: syn::File = syn::parse_quote! {
        use kubegen::rbac;

        /// What the Go controllers' `+kubebuilder:rbac` markers ask for.
        #(#attrs)*
        pub struct Permissions;
    };
    let text = prettyplease::unparse(&file);
    let doc = "//! The RBAC rules of the Go controllers, imported from their `+kubebuilder:rbac` \
               markers by `kubegen import go --controllers`.\n";
    (
        format!("{}{doc}\n{text}", super::super::write::RUST_HEADER),
        warnings,
    )
}

/// A marker's value as an `#[rbac]` list: `"a;b"`, or `["", "b"]` when a part is empty (the
/// core group).
fn list(value: &Value) -> TokenStream {
    let parts: Vec<String> = match value {
        Value::Array(items) => items.iter().map(scalar).collect(),
        other => vec![scalar(other)],
    };
    if parts.len() > 1 && parts.iter().any(String::is_empty) {
        quote!([#(#parts),*])
    } else {
        let joined = parts.join(";");
        quote!(#joined)
    }
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
