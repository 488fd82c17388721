//! `kubegen init`: a new operator crate that builds, passes its tests and deploys with
//! `kubectl apply -k config/default`.

use std::fs;
use std::path::{Path, PathBuf};

use clap::Args;
use kubegen_core::model::Diagnostic;
use kubegen_core::names::{is_dns_subdomain, is_dns1035_label};

use super::files::Changes;
use super::template::{render, template};
use crate::report::Reporter;

/// `kubegen init`.
#[derive(Debug, Clone, Args)]
pub struct InitArgs {
    /// The domain of the project's API groups: `--group webapp` is `webapp.<domain>`
    /// (kubebuilder's default when not given).
    #[arg(long, default_value = "my.domain")]
    pub domain: String,
    /// The crate's and the binary's name, also the prefix of its Kubernetes objects
    /// (default: the folder's name).
    #[arg(long)]
    pub name: Option<String>,
    /// Write into a folder that is not empty (files there are kept, never overwritten).
    #[arg(long)]
    pub force: bool,
    /// Depend on the kubegen checkout at this path (default: the checkout this `kubegen` was
    /// built from, when it is still there; else kubegen's git repository at this binary's
    /// commit).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["kubegen_git", "kubegen_version"])]
    pub kubegen_path: Option<PathBuf>,
    /// Depend on kubegen from this git repository, at this binary's commit (or its version's
    /// tag when the commit is unknown).
    #[arg(long, value_name = "URL", conflicts_with = "kubegen_version")]
    pub kubegen_git: Option<String>,
    /// Depend on this version of kubegen published on crates.io (as `kubegen-rs`).
    #[arg(long, value_name = "VERSION")]
    pub kubegen_version: Option<String>,
    /// The folder to create the project in.
    #[arg(default_value = ".")]
    pub path: PathBuf,
}

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
pub fn run(args: &InitArgs, reporter: &Reporter) -> Result<(), Diagnostic> {
    let root = &args.path;
    let name = match &args.name {
        Some(name) => name.clone(),
        None => folder_name(root)?,
    };
    if !is_dns1035_label(&name) {
        return Err(Diagnostic::from(format!(
            "the name `{name}` must be a DNS label starting with a letter (lowercase letters, \
             digits and `-`): it names the crate, the binary and the Kubernetes objects; pass \
             `--name`"
        )));
    }
    if !is_dns_subdomain(&args.domain) {
        return Err(Diagnostic::from(format!(
            "--domain `{}` must be a DNS name, like `my.domain`",
            args.domain
        )));
    }
    if !args.force
        && let Some(found) = first_entry(root)
    {
        return Err(Diagnostic::from(format!(
            "{} is not empty (it has {found}); init a new folder, or pass --force to add the \
             missing files (existing files are never overwritten)",
            root.display()
        )));
    }
    let built_from = Path::new(env!("CARGO_MANIFEST_DIR")).parent();
    let kubegen_source = kubegen_source(args, built_from)?;
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
    super::manifests(root, reporter)?;
    let cd = if root == Path::new(".") {
        String::new()
    } else {
        format!("cd {} && ", root.display())
    };
    let next = crate::hint::command("create api --group <group> --version v1 --kind <Kind>");
    println!("\nNext: {cd}{next}");
    Ok(())
}

/// The package kubegen's library is in this repository.
const PACKAGE: &str = "kubegen";
/// The name kubegen's library is published under on crates.io (`kubegen` is another project's).
pub const PUBLISHED: &str = "kubegen-rs";
/// Where this repository is published (the workspace's `repository`).
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// Where the new project gets kubegen from, as the keys of its `[dependencies.kubegen]`:
/// what the flags say, else `built_from` (the checkout this binary was built from) when it is
/// still there, else this repository at this binary's commit. Never crates.io unless asked.
fn kubegen_source(args: &InitArgs, built_from: Option<&Path>) -> Result<String, String> {
    let package = if PACKAGE == "kubegen" {
        String::new()
    } else {
        format!("package = \"{PACKAGE}\"\n")
    };
    if let Some(path) = &args.kubegen_path {
        let path = fs::canonicalize(path)
            .ok()
            .filter(|p| p.join("Cargo.toml").is_file())
            .ok_or_else(|| format!("--kubegen-path {}: no Cargo.toml there", path.display()))?;
        return Ok(format!("{package}path = {:?}", path.display().to_string()));
    }
    if let Some(version) = &args.kubegen_version {
        return Ok(format!("package = \"{PUBLISHED}\"\nversion = {version:?}"));
    }
    if args.kubegen_git.is_none()
        && let Some(checkout) = built_from.filter(|dir| is_kubegen_checkout(dir))
    {
        return Ok(format!(
            "{package}path = {:?}",
            checkout.display().to_string()
        ));
    }
    let url = args.kubegen_git.as_deref().unwrap_or(REPOSITORY);
    let at = match crate::version::COMMIT {
        Some(commit) => format!("rev = \"{commit}\""),
        None => format!("tag = \"v{}\"", env!("CARGO_PKG_VERSION")),
    };
    Ok(format!("{package}git = {url:?}\n{at}"))
}

/// Whether `dir` still holds kubegen's workspace (the folder this binary was built in may have
/// been deleted or replaced since).
fn is_kubegen_checkout(dir: &Path) -> bool {
    fs::read_to_string(dir.join("Cargo.toml"))
        .is_ok_and(|manifest| manifest.contains(&format!("name = \"{PACKAGE}\"")))
        && dir.join("gen-cli").join("Cargo.toml").is_file()
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        args: InitArgs,
    }

    fn args(flags: &[&str]) -> InitArgs {
        let line = ["init", "--domain", "my.domain"].iter().chain(flags);
        Wrap::parse_from(line).args
    }

    #[test]
    fn the_domain_is_kubebuilders_default_unless_given() {
        assert_eq!(Wrap::parse_from(["init"]).args.domain, "my.domain");
        let given = Wrap::parse_from(["init", "--domain", "example.com"]);
        assert_eq!(given.args.domain, "example.com");
    }

    #[test]
    fn the_checkout_it_was_built_from_when_it_is_there() {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let source = kubegen_source(&args(&[]), Some(checkout)).unwrap();
        assert_eq!(
            source,
            format!("path = {:?}", checkout.display().to_string())
        );
    }

    #[test]
    fn else_this_repository_at_this_commit() {
        let gone = Path::new("/nonexistent/kubegen");
        let source = kubegen_source(&args(&[]), Some(gone)).unwrap();
        let at = match crate::version::COMMIT {
            Some(commit) => format!("rev = \"{commit}\""),
            None => format!("tag = \"v{}\"", env!("CARGO_PKG_VERSION")),
        };
        assert_eq!(source, format!("git = {REPOSITORY:?}\n{at}"));
        assert!(REPOSITORY.starts_with("https://"), "{REPOSITORY}");
    }

    #[test]
    fn flags_choose_and_crates_io_only_when_asked() {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).parent();
        let git = kubegen_source(
            &args(&["--kubegen-git", "https://example.com/k.git"]),
            checkout,
        );
        assert!(
            git.unwrap()
                .starts_with("git = \"https://example.com/k.git\"\n")
        );
        let published = kubegen_source(&args(&["--kubegen-version", "0.2.0"]), checkout);
        assert_eq!(
            published.unwrap(),
            format!("package = \"{PUBLISHED}\"\nversion = \"0.2.0\"")
        );
        let missing = kubegen_source(&args(&["--kubegen-path", "/nonexistent"]), checkout);
        assert!(missing.unwrap_err().contains("no Cargo.toml there"));
    }
}
