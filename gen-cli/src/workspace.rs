//! Which packages to generate for, found with `cargo metadata` (no compiling).

use std::path::{Path, PathBuf};

use cargo_metadata::{MetadataCommand, TargetKind};

/// A workspace member that uses kubegen.
#[derive(Debug, Clone)]
pub struct Package {
    /// The package name.
    pub name: String,
    /// Its folder (where `config/` goes).
    pub dir: PathBuf,
    /// Its library and binary targets: crate name and root source file.
    pub targets: Vec<(String, PathBuf)>,
}

/// The members to process: those named with `-p`, or every member that depends on kubegen.
pub fn discover(manifest_path: Option<&Path>, only: &[String]) -> Result<Vec<Package>, String> {
    let mut cmd = MetadataCommand::new();
    cmd.no_deps();
    if let Some(path) = manifest_path {
        cmd.manifest_path(path);
    }
    let metadata = cmd
        .exec()
        .map_err(|e| format!("cannot read the workspace with `cargo metadata`: {e}"))?;
    let members: Vec<&cargo_metadata::Package> = metadata.workspace_packages();
    for name in only {
        if !members.iter().any(|p| p.name.as_str() == name) {
            let names: Vec<&str> = members.iter().map(|p| p.name.as_str()).collect();
            return Err(format!(
                "package `{name}` is not a member of the workspace (members: {})",
                names.join(", ")
            ));
        }
    }
    let packages = members
        .into_iter()
        .filter(|p| {
            if only.is_empty() {
                p.dependencies.iter().any(|d| d.name == "kubegen")
            } else {
                only.iter().any(|n| n == p.name.as_str())
            }
        })
        .map(|p| Package {
            name: p.name.to_string(),
            dir: p
                .manifest_path
                .parent()
                .map(|d| d.as_std_path().to_path_buf())
                .unwrap_or_default(),
            targets: p
                .targets
                .iter()
                .filter(|t| {
                    t.kind
                        .iter()
                        .any(|k| matches!(k, TargetKind::Lib | TargetKind::Bin))
                })
                .map(|t| {
                    (
                        t.name.replace('-', "_"),
                        t.src_path.as_std_path().to_path_buf(),
                    )
                })
                .collect(),
        })
        .collect();
    Ok(packages)
}
