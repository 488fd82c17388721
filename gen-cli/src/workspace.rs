//! Which packages to generate for, found with `cargo metadata` (no compiling).

use std::path::{Path, PathBuf};

use cargo_metadata::{MetadataCommand, TargetKind};
use serde_json::Value;

use crate::features::Table as Features;

/// A workspace member that uses kubegen.
#[derive(Debug, Clone)]
pub struct Package {
    /// The package name.
    pub name: String,
    /// Its folder (where `config/` goes).
    pub dir: PathBuf,
    /// Its library and binary targets: crate name and root source file.
    pub targets: Vec<(String, PathBuf)>,
    /// Whether it depends on k8s-openapi itself.
    pub k8s_openapi: bool,
    /// The Kubernetes minor version its k8s-openapi dependency names (`v1_33` → 33, `latest`
    /// → 37, `earliest` → 33), if it names one.
    pub kubernetes: Option<u32>,
    /// Its `[features]`, with the implicit feature of each optional dependency.
    pub features: Features,
    /// Its `[package.metadata.kubegen]` and the workspace's defaults.
    pub config: Sources,
    /// `kubegen diff`'s configuration: `[package.metadata.kubegen.diff]`, else
    /// `[workspace.metadata.kubegen.diff]`, as JSON.
    pub diff: Option<serde_json::Value>,
}

/// One manifest's `[*.metadata.kubegen]` table.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// The `Cargo.toml` it is in.
    pub manifest: PathBuf,
    /// Its keys (`Value::Null` when the manifest has no such table).
    pub values: Value,
}

/// Where a package's configuration comes from.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// `[package.metadata.kubegen]` of the package.
    pub package: Table,
    /// `[workspace.metadata.kubegen]`: the defaults.
    pub workspace: Table,
    /// The workspace's root folder: every output folder must be under it.
    pub workspace_root: PathBuf,
}

/// The Kubernetes minor version a k8s-openapi 0.29 dependency's features name, if any.
pub fn kubernetes_of(features: &[String]) -> Option<u32> {
    features.iter().find_map(|feature| match feature.as_str() {
        "latest" => Some(37),
        "earliest" => Some(33),
        other => other.strip_prefix("v1_")?.parse().ok(),
    })
}

/// The `src` folder of the k8s-openapi package the workspace resolves (`cargo metadata` with
/// dependencies), if any.
pub fn k8s_openapi_src(manifest_path: Option<&Path>) -> Result<Option<PathBuf>, String> {
    let metadata = resolved(manifest_path)?;
    Ok(metadata
        .packages
        .iter()
        .find(|p| p.name.as_str() == "k8s-openapi")
        .and_then(|p| p.manifest_path.parent())
        .map(|dir| dir.as_std_path().join("src")))
}

/// The Kubernetes minor version k8s-openapi resolves to in the workspace (`cargo metadata`
/// with dependencies: slower, used only when no member names a version itself).
pub fn resolved_kubernetes(manifest_path: Option<&Path>) -> Result<Option<u32>, String> {
    let metadata = resolved(manifest_path)?;
    let nodes = metadata
        .resolve
        .as_ref()
        .map(|r| r.nodes.as_slice())
        .unwrap_or_default();
    Ok(nodes
        .iter()
        .filter(|node| {
            let package = metadata.packages.iter().find(|p| p.id == node.id);
            package.is_some_and(|p| p.name.as_str() == "k8s-openapi")
        })
        .find_map(|node| {
            let features: Vec<String> = node.features.iter().map(|f| f.to_string()).collect();
            kubernetes_of(&features)
        }))
}

/// The workspace with its dependencies resolved (`cargo metadata` without `--no-deps`).
fn resolved(manifest_path: Option<&Path>) -> Result<cargo_metadata::Metadata, String> {
    let mut cmd = MetadataCommand::new();
    if let Some(path) = manifest_path {
        cmd.manifest_path(path);
    }
    cmd.exec()
        .map_err(|e| format!("cannot resolve the workspace with `cargo metadata`: {e}"))
}

/// The members to process: those named with `-p`, or every member that depends on kubegen or
/// has a `[package.metadata.kubegen]` table (a package using kubegen through a crate that
/// re-exports it).
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
    let workspace_root = metadata.workspace_root.as_std_path().to_path_buf();
    let defaults = Table {
        manifest: workspace_root.join("Cargo.toml"),
        values: metadata.workspace_metadata["kubegen"].clone(),
    };
    let diff_config = |v: &serde_json::Value| v.get("kubegen")?.get("diff").cloned();
    let workspace_diff = diff_config(&metadata.workspace_metadata);
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
                p.dependencies.iter().any(is_kubegen) || p.metadata.get("kubegen").is_some()
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
            k8s_openapi: p.dependencies.iter().any(|d| d.name == "k8s-openapi"),
            kubernetes: p
                .dependencies
                .iter()
                .filter(|d| d.name == "k8s-openapi")
                .find_map(|d| kubernetes_of(&d.features)),
            features: p.features.clone(),
            config: Sources {
                package: Table {
                    manifest: p.manifest_path.as_std_path().to_path_buf(),
                    values: p.metadata["kubegen"].clone(),
                },
                workspace: defaults.clone(),
                workspace_root: workspace_root.clone(),
            },
            diff: diff_config(&p.metadata).or_else(|| workspace_diff.clone()),
        })
        .collect();
    Ok(packages)
}

/// The package kubegen's library is published as (`kubegen` on crates.io is another
/// project's); its library is called `kubegen`.
pub const KUBEGEN_PACKAGE: &str = "kubegen-rs";

/// Whether `dependency` is kubegen's library: the package `kubegen-rs`, or a dependency the
/// code calls `kubegen` (its library's name).
fn is_kubegen(dependency: &cargo_metadata::Dependency) -> bool {
    dependency.name == KUBEGEN_PACKAGE
        || dependency.rename.as_deref().unwrap_or(&dependency.name) == "kubegen"
}

/// A library target guessed from a manifest ([`likely_libraries`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Library {
    /// The crate name.
    pub name: String,
    /// Its root file.
    pub root: PathBuf,
    /// Its package's name.
    pub package: String,
    /// Its package's features as [`Package::features`] has them.
    pub features: Features,
}

/// The library targets that the manifest at `manifest_path` (else `Cargo.toml` in the current
/// folder) names plainly, for packages that depend on kubegen (and are among `only`, when it
/// names some): its own package and the workspace members listed without a glob, each with
/// `[lib] name` and `path` or their defaults. A guess, made without `cargo metadata` so that
/// reading the sources can start while it runs; the caller uses what it reads only for a
/// target that `cargo metadata` then names with the same crate name, root file and features.
pub fn likely_libraries(manifest_path: Option<&Path>, only: &[String]) -> Vec<Library> {
    let Ok(cwd) = std::env::current_dir() else {
        return Vec::new();
    };
    let manifest = cwd.join(manifest_path.unwrap_or(Path::new("Cargo.toml")));
    let Some(root) = manifest.parent().map(Path::to_path_buf) else {
        return Vec::new();
    };
    let Some(table) = read_manifest(&manifest) else {
        return Vec::new();
    };
    let members = table
        .get("workspace")
        .and_then(|w| w.get("members"))
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(toml::Value::as_str)
        .filter(|m| !m.contains(['*', '?', '[']))
        .filter_map(|m| {
            let dir = root.join(m);
            Some((read_manifest(&dir.join("Cargo.toml"))?, dir))
        });
    std::iter::once((table.clone(), root.clone()))
        .chain(members)
        .filter_map(|(table, dir)| library(&table, &dir, only))
        .collect()
}

/// The library target of the package `table` describes in `dir`, if it uses kubegen (see
/// [`discover`]) and is among `only` (when it names some).
fn library(table: &toml::Table, dir: &Path, only: &[String]) -> Option<Library> {
    let package = table.get("package")?.get("name")?.as_str()?;
    let uses_kubegen = |t: &toml::Table| {
        let dependency = t.get("dependencies").and_then(|d| d.get("kubegen"));
        let metadata = t.get("package").and_then(|p| p.get("metadata"));
        dependency.or_else(|| metadata?.get("kubegen")).is_some()
    };
    if !uses_kubegen(table) {
        return None;
    }
    if !only.is_empty() && !only.iter().any(|p| p == package) {
        return None;
    }
    let lib = table.get("lib");
    let name = lib
        .and_then(|l| l.get("name"))
        .and_then(toml::Value::as_str)
        .unwrap_or(package);
    let path = lib
        .and_then(|l| l.get("path"))
        .and_then(toml::Value::as_str)
        .unwrap_or("src/lib.rs");
    let root = dir.join(path);
    root.is_file().then(|| Library {
        name: name.replace('-', "_"),
        root,
        package: package.to_owned(),
        features: features_of(table),
    })
}

/// The `[features]` of a manifest, with the implicit feature `x = ["dep:x"]` of each optional
/// dependency `x` that no feature names as `dep:x`, as `cargo metadata` lists them.
fn features_of(table: &toml::Table) -> Features {
    let mut features: Features = table
        .get("features")
        .and_then(toml::Value::as_table)
        .into_iter()
        .flatten()
        .map(|(name, values)| {
            let values = values.as_array().into_iter().flatten();
            let values = values.filter_map(toml::Value::as_str).map(str::to_owned);
            (name.clone(), values.collect())
        })
        .collect();
    let targets = table.get("target").and_then(toml::Value::as_table);
    let tables = std::iter::once(table).chain(
        targets
            .into_iter()
            .flat_map(|t| t.values())
            .filter_map(toml::Value::as_table),
    );
    let optional: Vec<&String> = tables
        .flat_map(|t| ["dependencies", "build-dependencies"].map(|k| t.get(k)))
        .flatten()
        .filter_map(toml::Value::as_table)
        .flatten()
        .filter(|(_, d)| d.get("optional").and_then(toml::Value::as_bool) == Some(true))
        .map(|(name, _)| name)
        .collect();
    for name in optional {
        let dep = format!("dep:{name}");
        if !features.values().flatten().any(|v| *v == dep) {
            features.entry(name.clone()).or_insert_with(|| vec![dep]);
        }
    }
    features
}

fn read_manifest(path: &Path) -> Option<toml::Table> {
    std::fs::read_to_string(path).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::{features_of, likely_libraries, read_manifest};
    use std::fs;
    use std::path::PathBuf;

    #[test]
    fn likely_libraries_are_the_plain_members_that_use_kubegen() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let write = |path: &str, text: &str| {
            let path = dir.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        };
        write(
            "Cargo.toml",
            "[workspace]\nmembers = [\"api\", \"tool\", \"named\", \"crates/*\", \"missing\", \"user\"]\n",
        );
        let uses_kubegen = "[dependencies]\nkubegen = { path = \"../kubegen\" }\n";
        write(
            "api/Cargo.toml",
            &format!("[package]\nname = \"my-api\"\n{uses_kubegen}"),
        );
        write("api/src/lib.rs", "");
        write(
            "tool/Cargo.toml",
            "[package]\nname = \"tool\"\n[dependencies]\nclap = \"4\"\n",
        );
        write("tool/src/lib.rs", "");
        write(
            "named/Cargo.toml",
            &format!(
                "[package]\nname = \"named\"\n[lib]\nname = \"types\"\npath = \"lib.rs\"\n{uses_kubegen}"
            ),
        );
        write("named/lib.rs", "");
        write(
            "crates/a/Cargo.toml",
            &format!("[package]\nname = \"a\"\n{uses_kubegen}"),
        );
        write("crates/a/src/lib.rs", "");
        // kubegen through a crate that re-exports it, the package's kubegen table saying so.
        write(
            "user/Cargo.toml",
            "[package]\nname = \"user\"\n[package.metadata.kubegen]\n[dependencies]\nsdk = \"1\"\n",
        );
        write("user/src/lib.rs", "");
        let manifest = dir.join("Cargo.toml");
        let pairs = |found: Vec<super::Library>| -> Vec<(String, PathBuf)> {
            found.into_iter().map(|l| (l.name, l.root)).collect()
        };
        let found = pairs(likely_libraries(Some(&manifest), &[]));
        assert_eq!(
            found,
            [
                ("my_api".to_string(), dir.join("api/src/lib.rs")),
                ("types".to_string(), dir.join("named/lib.rs")),
                ("user".to_string(), dir.join("user/src/lib.rs")),
            ],
            "globbed members, packages without kubegen and missing manifests are not guessed"
        );
        let only = pairs(likely_libraries(Some(&manifest), &["named".to_string()]));
        assert_eq!(only, [("types".to_string(), dir.join("named/lib.rs"))]);
    }

    #[test]
    fn features_from_a_manifest_are_cargo_metadatas() {
        let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml");
        let metadata = cargo_metadata::MetadataCommand::new()
            .manifest_path(manifest)
            .no_deps()
            .exec()
            .unwrap();
        let mut optional = 0;
        for p in metadata.workspace_packages() {
            let table = read_manifest(p.manifest_path.as_std_path()).unwrap();
            assert_eq!(features_of(&table), p.features, "{}", p.name);
            optional += p
                .features
                .values()
                .flatten()
                .filter(|v| v.starts_with("dep:"))
                .count();
        }
        assert!(
            optional > 0,
            "the workspace has optional dependencies to compare"
        );
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        fs::create_dir_all(dir.join("src")).unwrap();
        fs::write(dir.join("src/lib.rs"), "").unwrap();
        fs::write(
            dir.join("Cargo.toml"),
            "[package]\nname = \"f\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\
             [features]\nx = [\"dep:serde\", \"log?/std\"]\n\
             [dependencies]\nserde = { version = \"1\", optional = true }\n\
             log = { version = \"0.4\", optional = true }\n\
             [target.'cfg(unix)'.dependencies]\nlibc = { version = \"0.2\", optional = true }\n\
             [build-dependencies]\ncc = { version = \"1\", optional = true }\n",
        )
        .unwrap();
        let metadata = cargo_metadata::MetadataCommand::new()
            .manifest_path(dir.join("Cargo.toml"))
            .no_deps()
            .exec()
            .unwrap();
        let table = read_manifest(&dir.join("Cargo.toml")).unwrap();
        assert_eq!(features_of(&table), metadata.packages[0].features);
        assert_eq!(
            features_of(&table).len(),
            4,
            "x, log, libc, cc: {:?}",
            features_of(&table)
        );
    }
}
