//! `kubegen init`: a new operator crate that builds, passes its tests and deploys with
//! `kubectl apply -k config/default`.

use std::fs;
use std::path::{Path, PathBuf};

use clap::Args;
use kubegen_core::model::Diagnostic;
use kubegen_core::names::{is_dns_subdomain, is_dns1035_label};

use super::files::Changes;
use super::template::{render, template};
use super::vendor;
use crate::report::Reporter;
use crate::workspace::KUBEGEN_PACKAGE;

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
    /// Where the project gets kubegen from.
    #[command(flatten)]
    pub kubegen: KubegenFlags,
    /// The Kubernetes version the project's k8s-openapi is built for (its feature `v1_NN`):
    /// the oldest API server it must work with.
    #[arg(long, value_name = "v1_NN", default_value = DEFAULT_KUBERNETES, value_parser = kubernetes)]
    pub kubernetes: String,
    /// The folder to create the project in.
    #[arg(default_value = ".")]
    pub path: PathBuf,
}

/// Where a crate kubegen writes (`init`, `import crd --out`) gets kubegen from.
#[derive(Debug, Clone, Default, Args)]
pub struct KubegenFlags {
    /// Build on the kubegen checkout at this path, its packages copied into `vendor/` (default:
    /// the checkout this `kubegen` was built from, when it is still there; else kubegen's git
    /// repository at this binary's commit).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["kubegen_git", "kubegen_version"])]
    pub kubegen_path: Option<PathBuf>,
    /// Depend on kubegen from this git repository, at this binary's commit (or its version's
    /// tag when the commit is unknown).
    #[arg(long, value_name = "URL", conflicts_with = "kubegen_version")]
    pub kubegen_git: Option<String>,
    /// Depend on this version of kubegen published on crates.io (as `kubegen-rs`).
    #[arg(long, value_name = "VERSION")]
    pub kubegen_version: Option<String>,
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
        ".github/workflows/ci.yml",
        template!("init/github/ci.yml.tmpl"),
    ),
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
    let source = source(&args.kubegen)?;
    let cli = cli_source(&args.kubegen);
    let namespace = format!("{name}-system");
    let vars = [
        ("name", name.as_str()),
        ("domain", args.domain.as_str()),
        ("namespace", namespace.as_str()),
        ("kubernetes", args.kubernetes.as_str()),
        ("kubegen_source", source.dependency.as_str()),
        ("kubegen_patch", source.manifest_tail.as_str()),
        ("kubegen_cli", cli.as_str()),
    ];
    let mut changes = Changes::default();
    for (path, template) in FILES {
        changes.file(*path, render(template, &vars));
    }
    for (path, text) in source.vendored {
        changes.file(path, text);
    }
    super::apply(changes, root)?;
    super::manifests(root, reporter)?;
    let cd = if root == Path::new(".") {
        String::new()
    } else {
        format!("cd {} && ", root.display())
    };
    let next = crate::hint::command("create api --group <group> --version v1 --kind <Kind>");
    eprintln!("\nNext: {cd}{next}");
    Ok(())
}

/// The Kubernetes version `init` builds for unless told: the newest one released. k8s-openapi
/// 0.29's newest, `v1_37` (its `latest`), is generated from Kubernetes' `master` branch (the
/// engine's tables say what each version was read from: `core/src/known/k8s/go_table.rs`).
pub const DEFAULT_KUBERNETES: &str = "v1_36";

/// A `--kubernetes` value: `v1_NN` for a version kubegen has tables for.
pub(crate) fn kubernetes(value: &str) -> Result<String, String> {
    let minor = value
        .strip_prefix("v1_")
        .and_then(|m| m.parse().ok())
        .ok_or_else(|| format!("`{value}` is no k8s-openapi version feature; write it `v1_36`"))?;
    kubegen_core::known::Minor::new(minor)?;
    Ok(value.to_string())
}

/// Where this repository is published (the workspace's `repository`).
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// Where the new project gets kubegen from.
#[derive(Debug)]
pub struct Source {
    /// The keys of its `[dependencies.kubegen]`.
    pub dependency: String,
    /// What follows its `[workspace]` header (the patch of a vendored checkout).
    pub manifest_tail: String,
    /// The files of `vendor/`, for a checkout.
    pub vendored: Vec<(PathBuf, String)>,
}

/// Where a crate gets kubegen from: what the flags say, else the checkout this binary was
/// built from when it is still there, else this repository at this binary's commit.
pub fn source(flags: &KubegenFlags) -> Result<Source, String> {
    kubegen_source(flags, Path::new(env!("CARGO_MANIFEST_DIR")).parent())
}

/// Where the new project gets kubegen from: what the flags say, else `built_from` (the
/// checkout this binary was built from) when it is still there, else this repository at this
/// binary's commit. Never crates.io unless asked. A checkout is copied into `vendor/`.
fn kubegen_source(args: &KubegenFlags, built_from: Option<&Path>) -> Result<Source, String> {
    let package = format!("package = \"{KUBEGEN_PACKAGE}\"\n");
    let plain = |dependency: String| Source {
        dependency,
        manifest_tail: String::new(),
        vendored: Vec::new(),
    };
    let checkout = match &args.kubegen_path {
        Some(path) => Some(
            fs::canonicalize(path)
                .ok()
                .filter(|p| p.join("Cargo.toml").is_file())
                .ok_or_else(|| format!("--kubegen-path {}: no Cargo.toml there", path.display()))?,
        ),
        None if args.kubegen_version.is_some() || args.kubegen_git.is_some() => None,
        None => built_from
            .filter(|dir| is_kubegen_checkout(dir))
            .map(Path::to_path_buf),
    };
    if let Some(checkout) = checkout {
        let vendored = vendor::package(&checkout)?;
        return Ok(Source {
            dependency: format!("{package}version = \"={}\"", vendored.version),
            manifest_tail: vendor::manifest_tail(&checkout),
            vendored: vendored.files,
        });
    }
    if let Some(version) = &args.kubegen_version {
        return Ok(plain(format!("{package}version = {version:?}")));
    }
    let (url, key, at) = git_source(args);
    Ok(plain(format!("{package}git = {url:?}\n{key} = {at:?}")))
}

/// The git repository of kubegen and where in it: this binary's commit (`rev`), or its
/// version's tag.
fn git_source(args: &KubegenFlags) -> (&str, &'static str, String) {
    let url = args.kubegen_git.as_deref().unwrap_or(REPOSITORY);
    match crate::version::COMMIT {
        Some(commit) => (url, "rev", commit.to_string()),
        None => (url, "tag", format!("v{}", env!("CARGO_PKG_VERSION"))),
    }
}

/// What `cargo install` installs the CLI from in the project's CI: the git repository of the
/// kubegen the project depends on.
fn cli_source(args: &KubegenFlags) -> String {
    let (url, key, at) = git_source(args);
    format!("--git {url} --{key} {at} gen-cli")
}

/// Whether `dir` still holds kubegen's workspace (the folder this binary was built in may have
/// been deleted or replaced since).
pub(crate) fn is_kubegen_checkout(dir: &Path) -> bool {
    fs::read_to_string(dir.join("Cargo.toml"))
        .is_ok_and(|manifest| manifest.contains(&format!("name = \"{KUBEGEN_PACKAGE}\"")))
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

    #[derive(Parser, Debug)]
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
    fn the_checkout_it_was_built_from_when_it_is_there_vendored() {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let source = kubegen_source(&args(&[]).kubegen, Some(checkout)).unwrap();
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            source.dependency,
            format!("package = \"kubegen-rs\"\nversion = \"={version}\"")
        );
        assert!(
            source
                .manifest_tail
                .contains("[patch.crates-io]\nkubegen-rs = { path = \"vendor/kubegen-rs\" }\n"),
            "{}",
            source.manifest_tail
        );
        let file = |path: &str| {
            let found = source.vendored.iter().find(|(p, _)| p == Path::new(path));
            found.map(|(_, text)| text.as_str())
        };
        let lib = fs::read_to_string(checkout.join("src/lib.rs")).unwrap();
        assert_eq!(file("vendor/kubegen-rs/src/lib.rs"), Some(lib.as_str()));
        let markers = fs::read_to_string(checkout.join("docs/markers.md")).unwrap();
        assert_eq!(
            file("vendor/kubegen-rs/docs/markers.md"),
            Some(markers.as_str())
        );
        // The manifests cargo normalizes for publishing: versions, no workspace to inherit from.
        let core = file("vendor/kubegen-rs/Cargo.toml").unwrap();
        assert!(
            core.contains("[dependencies.kubegen-core]\nversion = \"="),
            "{core}"
        );
        assert!(file("vendor/kubegen-derive/src/lib.rs").is_some());
        assert!(file("vendor/kubegen-core/Cargo.toml").is_some());
        assert!(
            !source
                .vendored
                .iter()
                .any(|(p, _)| p.starts_with("vendor/kubegen-rs/tests")),
            "only what the library is built from"
        );
    }

    #[test]
    fn else_this_repository_at_this_commit() {
        let gone = Path::new("/nonexistent/kubegen");
        let source = kubegen_source(&args(&[]).kubegen, Some(gone)).unwrap();
        let at = match crate::version::COMMIT {
            Some(commit) => format!("rev = \"{commit}\""),
            None => format!("tag = \"v{}\"", env!("CARGO_PKG_VERSION")),
        };
        assert_eq!(
            source.dependency,
            format!("package = \"kubegen-rs\"\ngit = {REPOSITORY:?}\n{at}")
        );
        assert!(source.vendored.is_empty() && source.manifest_tail.is_empty());
        assert!(REPOSITORY.starts_with("https://"), "{REPOSITORY}");
    }

    #[test]
    fn flags_choose_and_crates_io_only_when_asked() {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).parent();
        let git = kubegen_source(
            &args(&["--kubegen-git", "https://example.com/k.git"]).kubegen,
            checkout,
        );
        assert!(
            git.unwrap()
                .dependency
                .starts_with("package = \"kubegen-rs\"\ngit = \"https://example.com/k.git\"\n")
        );
        let published =
            kubegen_source(&args(&["--kubegen-version", "0.2.0"]).kubegen, checkout).unwrap();
        assert_eq!(
            published.dependency,
            "package = \"kubegen-rs\"\nversion = \"0.2.0\""
        );
        assert!(published.vendored.is_empty() && published.manifest_tail.is_empty());
        let missing = kubegen_source(&args(&["--kubegen-path", "/nonexistent"]).kubegen, checkout);
        assert!(missing.unwrap_err().contains("no Cargo.toml there"));
    }

    #[test]
    fn kubernetes_is_the_newest_released_version_unless_given() {
        assert_eq!(Wrap::parse_from(["init"]).args.kubernetes, "v1_36");
        let given = Wrap::try_parse_from(["init", "--kubernetes", "v1_34"]).unwrap();
        assert_eq!(given.args.kubernetes, "v1_34");
        let unknown = Wrap::try_parse_from(["init", "--kubernetes", "v1_20"]).unwrap_err();
        assert!(
            unknown.to_string().contains("supported: v1_33"),
            "{unknown}"
        );
        let latest = Wrap::try_parse_from(["init", "--kubernetes", "latest"]).unwrap_err();
        assert!(latest.to_string().contains("write it `v1_36`"), "{latest}");
    }

    /// "Released" is what the engine's tables were read from: a release tag for the default,
    /// a branch for every newer version k8s-openapi has.
    #[test]
    fn the_default_is_the_newest_version_read_from_a_release() {
        let table = include_str!("../../../core/src/known/k8s/go_table.rs");
        let sources: Vec<(&str, &str)> = table
            .lines()
            .take_while(|l| l.starts_with("//"))
            .filter_map(|l| l.strip_prefix("// - 1.")?.split_once(": "))
            .collect();
        let default = DEFAULT_KUBERNETES.strip_prefix("v1_").unwrap();
        let (at, newer) =
            sources.split_at(sources.iter().position(|(m, _)| *m == default).unwrap() + 1);
        let (_, from) = at.last().unwrap();
        assert!(
            from.starts_with(&format!("v0.{default}.")),
            "1.{default}: {from}"
        );
        assert!(!newer.is_empty(), "{sources:?}");
        for (minor, from) in newer {
            assert!(
                !from.starts_with('v'),
                "1.{minor} is released ({from}): make it the default"
            );
        }
    }
}
