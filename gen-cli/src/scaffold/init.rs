//! `kubegen init`: a new operator crate that builds, passes its tests and deploys with
//! `kubectl apply -k config/default`.

use std::fs;
use std::path::{Path, PathBuf};

use super::files::Changes;
use super::template::{render, template};
use crate::cli::InitArgs;
use kubegen_core::parse::markers::is_dns_label;

/// The files `init` writes: where, and from which template.
const FILES: &[(&str, &str)] = &[
    ("Cargo.toml", template!("init/Cargo.toml.tmpl")),
    ("src/main.rs", template!("init/main.rs.tmpl")),
    ("src/api/mod.rs", template!("init/api_mod.rs.tmpl")),
    (
        "src/controller/mod.rs",
        template!("init/controller_mod.rs.tmpl"),
    ),
    ("README.md", template!("init/README.md.tmpl")),
    ("Dockerfile", template!("init/Dockerfile.tmpl")),
    (".dockerignore", template!("init/dockerignore.tmpl")),
    (".gitignore", template!("init/gitignore.tmpl")),
    (
        "config/default/kustomization.yaml",
        template!("init/config/default/kustomization.yaml.tmpl"),
    ),
    (
        "config/manager/kustomization.yaml",
        template!("init/config/manager/kustomization.yaml.tmpl"),
    ),
    (
        "config/manager/manager.yaml",
        template!("init/config/manager/manager.yaml.tmpl"),
    ),
    (
        "config/rbac/kustomization.yaml",
        template!("init/config/rbac/kustomization.yaml.tmpl"),
    ),
    (
        "config/rbac/service_account.yaml",
        template!("init/config/rbac/service_account.yaml.tmpl"),
    ),
    (
        "config/rbac/role_binding.yaml",
        template!("init/config/rbac/role_binding.yaml.tmpl"),
    ),
    (
        "config/rbac/leader_election_role_binding.yaml",
        template!("init/config/rbac/leader_election_role_binding.yaml.tmpl"),
    ),
    (
        "config/default/metrics_service.yaml",
        template!("init/config/default/metrics_service.yaml.tmpl"),
    ),
    (
        "config/default/manager_metrics_patch.yaml",
        template!("init/config/default/manager_metrics_patch.yaml.tmpl"),
    ),
    (
        "config/rbac/metrics_auth_role.yaml",
        template!("init/config/rbac/metrics_auth_role.yaml.tmpl"),
    ),
    (
        "config/rbac/metrics_auth_role_binding.yaml",
        template!("init/config/rbac/metrics_auth_role_binding.yaml.tmpl"),
    ),
    (
        "config/rbac/metrics_reader_role.yaml",
        template!("init/config/rbac/metrics_reader_role.yaml.tmpl"),
    ),
    (
        "config/prometheus/kustomization.yaml",
        template!("init/config/prometheus/kustomization.yaml.tmpl"),
    ),
    (
        "config/prometheus/monitor.yaml",
        template!("init/config/prometheus/monitor.yaml.tmpl"),
    ),
    (
        "config/network-policy/kustomization.yaml",
        template!("init/config/network-policy/kustomization.yaml.tmpl"),
    ),
    (
        "config/network-policy/allow-metrics-traffic.yaml",
        template!("init/config/network-policy/allow-metrics-traffic.yaml.tmpl"),
    ),
];

/// Runs `kubegen init`.
pub fn run(args: &InitArgs) -> Result<(), String> {
    let root = &args.path;
    let name = match &args.name {
        Some(name) => name.clone(),
        None => folder_name(root)?,
    };
    if !is_dns_label(&name) || name.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(format!(
            "the name `{name}` must be a DNS label starting with a letter (lowercase letters, \
             digits and `-`): it names the crate, the binary and the Kubernetes objects; pass \
             `--name`"
        ));
    }
    if args.domain.is_empty() || !args.domain.split('.').all(is_dns_label) {
        return Err(format!(
            "--domain `{}` must be a DNS name, like `my.domain`",
            args.domain
        ));
    }
    if !args.force
        && let Some(found) = first_entry(root)
    {
        return Err(format!(
            "{} is not empty (it has {found}); init a new folder, or pass --force to add the \
             missing files (existing files are never overwritten)",
            root.display()
        ));
    }
    let kubegen_source = match &args.kubegen_path {
        Some(path) => {
            let path = fs::canonicalize(path)
                .ok()
                .filter(|p| p.join("Cargo.toml").is_file())
                .ok_or_else(|| format!("--kubegen-path {}: no Cargo.toml there", path.display()))?;
            format!("path = {:?}", path.display().to_string())
        }
        None => format!("version = \"{}\"", env!("CARGO_PKG_VERSION")),
    };
    let namespace = format!("{name}-system");
    let vars = [
        ("name", name.as_str()),
        ("domain", args.domain.as_str()),
        ("namespace", namespace.as_str()),
        ("kubegen_source", kubegen_source.as_str()),
    ];
    let mut changes = Changes::default();
    for (path, template) in FILES {
        changes.file(*path, render(template, &vars));
    }
    super::apply(changes, root)?;
    super::manifests(root)?;
    let cd = if root == Path::new(".") {
        String::new()
    } else {
        format!("cd {} && ", root.display())
    };
    println!("\nNext: {cd}kubegen create api --group <group> --version v1 --kind <Kind>");
    Ok(())
}

/// The name of `dir` (the current folder's for `.`).
fn folder_name(dir: &Path) -> Result<String, String> {
    let absolute = if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| e.to_string())?
            .join(dir)
    };
    let normal: PathBuf = absolute.components().collect();
    normal
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| format!("{} has no name; pass --name", dir.display()))
}

/// Something in `dir` other than `.git`, if any.
fn first_entry(dir: &Path) -> Option<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".git")
        .collect();
    names.sort();
    names.into_iter().next()
}
