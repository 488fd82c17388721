//! The project `kubegen create` works on: the package `kubegen init` made, read from its
//! `Cargo.toml` (`[package.metadata.kubegen]`).

use std::path::{Path, PathBuf};

use cargo_metadata::MetadataCommand;

/// A project made by `kubegen init`.
#[derive(Clone, Debug)]
pub struct Project {
    /// Its folder.
    pub root: PathBuf,
    /// The package (and binary) name.
    pub name: String,
    /// The domain of its API groups.
    pub domain: String,
    /// The namespace it is deployed to.
    pub namespace: String,
}

impl Project {
    /// The project in `dir`, or why there is none.
    pub fn read(dir: &Path) -> Result<Project, String> {
        let manifest = dir.join("Cargo.toml");
        if !manifest.is_file() {
            return Err(format!(
                "{} does not exist: run `kubegen create` in a project made by `kubegen init` \
                 (or name it with `--project`)",
                manifest.display()
            ));
        }
        let metadata = MetadataCommand::new()
            .manifest_path(&manifest)
            .no_deps()
            .exec()
            .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
        let package = metadata
            .root_package()
            .ok_or_else(|| format!("{} has no [package]", manifest.display()))?;
        let settings = &package.metadata["kubegen"];
        let setting = |key: &str| {
            settings[key].as_str().map(str::to_string).ok_or_else(|| {
                format!(
                    "{} has no `{key}` in [package.metadata.kubegen]; was it made by `kubegen \
                     init`?",
                    manifest.display()
                )
            })
        };
        Ok(Project {
            root: dir.to_path_buf(),
            name: package.name.to_string(),
            domain: setting("domain")?,
            namespace: setting("namespace")?,
        })
    }
}
