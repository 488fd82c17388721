//! The options every command that reads a workspace takes.

use std::path::PathBuf;

use clap::Args;

use crate::config::Flags;
use crate::features::FeatureArgs;
use crate::workspace::kubernetes_of;

/// Options every command takes.
#[derive(Debug, Clone, Args)]
pub struct Options {
    /// Only these workspace members (default: every member that depends on kubegen).
    #[arg(short = 'p', long = "package", value_name = "NAME")]
    pub packages: Vec<String>,
    /// The workspace or package manifest (default: found from the current directory).
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// The output folder, relative to each package: the default parent of `crd-dir`,
    /// `rbac-dir` and `webhook-dir`.
    #[arg(long, value_name = "DIR", default_value = "config")]
    pub out_dir: PathBuf,
    /// Write nothing; exit 1 and print a unified diff if any file is stale or missing.
    #[arg(long, conflicts_with = "stdout")]
    pub check: bool,
    /// Print the manifests to standard output instead of writing files.
    #[arg(long)]
    pub stdout: bool,
    /// Write Kubernetes types as this version has them (`v1_36`, `latest`; the k8s-openapi
    /// feature names) instead of the version the packages resolve. The CRD files then differ
    /// from what `crd()` renders unless the crate is built with that feature: for comparing
    /// with what controller-gen writes against another `k8s.io/api`.
    #[arg(long, value_name = "FEATURE", value_parser = kubernetes_version)]
    pub kubernetes: Option<u32>,
    /// The features each package's sources are read with (`cfg(feature = "..")`), as cargo
    /// decides them for a build of the package.
    #[command(flatten)]
    pub features: FeatureArgs,
    /// The project configuration's keys (`[package.metadata.kubegen]`), as flags.
    #[command(flatten)]
    pub config: Flags,
}

/// The Kubernetes minor version a k8s-openapi feature name stands for.
fn kubernetes_version(feature: &str) -> Result<u32, String> {
    kubernetes_of(&[feature.to_string()]).ok_or_else(|| {
        format!("`{feature}` is not a k8s-openapi version feature (`v1_36`, `latest`)")
    })
}
