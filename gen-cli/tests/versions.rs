//! For each k8s-openapi version feature, one small API crate (Kubernetes types in its spec and
//! status) built with that feature: the CRD gen-cli writes equals the bytes its `crd()`
//! renders. Ignored by default: it builds k8s-openapi once per version (a minute each).
//!
//! gen-cli is built with 1.37's k8s-openapi: for another version it reads that version's
//! schemas from k8s-openapi's sources (`k8s_sources`), so a field only that version has
//! (1.35's `PodSpec.workloadRef`) is written too. `KUBEGEN_VERSIONS=v1_35` runs one version.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The API crate's types.
const LIB: &str = r#"
use k8s_openapi::api::core::v1::{EnvFromSource, LocalObjectReference, PodTemplateSpec, ResourceRequirements};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// WidgetSpec is a widget.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1", kind = "Widget", status = "WidgetStatus")]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    pub pull_secrets: Vec<LocalObjectReference>,
    pub env_from: Vec<EnvFromSource>,
    pub resources: Option<ResourceRequirements>,
    pub template: Option<PodTemplateSpec>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct WidgetStatus {
    #[kube_marker(list_type = "map", list_map_keys = "type")]
    pub conditions: Vec<Condition>,
}
"#;

/// Prints what `crd()` renders.
const EXAMPLE: &str = r#"
use kube::CustomResourceExt;
fn main() {
    print!("{}", kubegen::to_yaml(&api::Widget::crd()));
}
"#;

/// The repository root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// Writes the API crate for `feature` into a folder removed when dropped.
fn api_crate(feature: &str) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix(&format!("kubegen-versions-{feature}-"))
        .tempdir()
        .expect("a temporary folder");
    let root = dir.path();
    fs::create_dir_all(root.join("src")).unwrap();
    fs::create_dir_all(root.join("examples")).unwrap();
    let repo = repo();
    fs::write(
        root.join("Cargo.toml"),
        format!(
            "[package]\nname = \"api\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [workspace]\n\n[dependencies]\n\
             kubegen = {{ package = \"kubegen-rs\", path = {repo:?} }}\n\
             kube = {{ version = \"5.0.0\", default-features = false }}\n\
             k8s-openapi = {{ version = \"0.29.0\", features = [\"{feature}\"] }}\n\
             serde = {{ version = \"1\", features = [\"derive\"] }}\n",
            repo = repo.display().to_string()
        ),
    )
    .unwrap();
    fs::copy(repo.join("Cargo.lock"), root.join("Cargo.lock")).unwrap();
    fs::write(root.join("src/lib.rs"), LIB).unwrap();
    fs::write(root.join("examples/print.rs"), EXAMPLE).unwrap();
    dir
}

/// Runs a command and returns its stdout, failing with its stderr.
fn output(command: &mut Command) -> String {
    let out = command.output().expect("the command runs");
    assert!(
        out.status.success(),
        "{command:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
#[ignore = "builds k8s-openapi once per Kubernetes version (minutes each)"]
fn gen_cli_writes_what_crd_renders_for_every_kubernetes_version() {
    let versions = std::env::var("KUBEGEN_VERSIONS")
        .unwrap_or_else(|_| "v1_33,v1_34,v1_35,v1_36,v1_37".to_string());
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    for feature in versions.split(',') {
        let dir = api_crate(feature);
        let root = dir.path();
        let rendered = output(
            Command::new(&cargo)
                .args(["run", "--quiet", "--offline", "--example", "print"])
                .current_dir(root)
                // Set for this test by k8s-openapi (1.37); the API crate names its own.
                .env_remove("K8S_OPENAPI_ENABLED_VERSION")
                // This workspace's: only what depends on k8s-openapi is built again.
                .env("CARGO_TARGET_DIR", repo().join("target/versions")),
        );
        let written = output(
            Command::new(env!("CARGO_BIN_EXE_kubegen"))
                .args(["crd", "--stdout"])
                .current_dir(root),
        );
        assert!(
            written.contains("x-kubernetes-map-type: atomic"),
            "{feature}"
        );
        let diff = similar::TextDiff::from_lines(&rendered, &written);
        let changed = diff
            .iter_all_changes()
            .filter(|c| c.tag() != similar::ChangeTag::Equal)
            .count();
        assert!(
            changed == 0,
            "{feature}: gen-cli's file and crd() differ ({changed} lines):\n{}",
            diff.unified_diff()
                .context_radius(0)
                .header("crd()", "gen-cli")
        );
    }
}
