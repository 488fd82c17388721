//! The k8s-openapi sources the workspace builds against.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// k8s-openapi's `src` folder and version, from `cargo metadata`.
pub fn sources() -> (PathBuf, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cannot run `cargo metadata`");
    assert!(
        output.status.success(),
        "`cargo metadata` failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("`cargo metadata` JSON");
    let packages: Vec<&Value> = metadata["packages"]
        .as_array()
        .expect("`packages` in `cargo metadata`")
        .iter()
        .filter(|p| p["name"] == "k8s-openapi")
        .collect();
    let [package] = packages.as_slice() else {
        panic!(
            "expected one k8s-openapi package in `cargo metadata`, found {}",
            packages.len()
        );
    };
    let manifest = Path::new(package["manifest_path"].as_str().expect("manifest_path"));
    let version = package["version"].as_str().expect("version").to_string();
    (
        manifest.parent().expect("package folder").join("src"),
        version,
    )
}
