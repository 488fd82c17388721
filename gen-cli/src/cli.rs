//! The command line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::markers::MarkersArgs;
use crate::report::{Color, MessageFormat};

/// kubegen: controller-gen for Rust. Reads a crate's sources (it never compiles them) and
/// writes its `config/` tree: CRDs from `#[derive(CustomResource)]` spec structs, the RBAC
/// role from `#[rbac(...)]` attributes and the webhook configurations from `#[webhook(...)]`
/// attributes. CRD files are the same bytes `crd()` renders.
#[derive(Debug, Parser)]
#[command(
    name = "kubegen",
    version = crate::version::SHORT,
    long_version = crate::version::LONG,
    after_help = "Examples:\n  \
        kubegen manifests                      regenerate every workspace member that uses kubegen\n  \
        kubegen manifests --check              CI: exit 1 with a diff if config/ is stale\n  \
        kubegen crd -p memcached-operator --stdout\n  \
        kubegen rbac --explain                 each rule with the attributes that asked for it\n  \
        kubegen webhook --stdout               the webhook configurations of every member\n  \
        kubegen docs --check                   CI: the API reference (docs/api/) is fresh\n  \
        kubegen markers min_length             a marker key's reference (`kubegen markers`: all keys)\n  \
        kubegen diff --base-ref origin/main    CI: exit 1 if a CRD changes in a way that breaks upgrades\n\n\
        Start a new operator:\n  \
        kubegen init --domain my.domain --name guestbook-operator guestbook-operator\n  \
        kubegen create api --group webapp --version v1 --kind Guestbook\n  \
        kubegen create webhook --group webapp --version v1 --kind Guestbook --defaulting --programmatic-validation"
)]
pub struct Cli {
    /// What to generate.
    #[command(subcommand)]
    pub command: Command,
    /// How problems are printed: as rustc does, or one JSON object per problem on standard
    /// output (rustc's diagnostic fields).
    #[arg(long, global = true, value_enum, default_value_t, value_name = "FMT")]
    pub message_format: MessageFormat,
    /// When to color output (`auto`: on a terminal, unless `NO_COLOR` is set).
    #[arg(long, global = true, value_enum, default_value_t, value_name = "WHEN")]
    pub color: Color,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// CRDs, RBAC and webhooks: `config/crd/bases/<group>_<plural>.yaml`,
    /// `config/rbac/role.yaml` and `config/webhook/manifests.yaml`.
    Manifests(Options),
    /// CRDs only.
    Crd(Options),
    /// The RBAC role only.
    Rbac {
        /// Common options.
        #[command(flatten)]
        options: Options,
        /// Print each generated rule with the `file:line` of every `#[rbac]` that asked for
        /// it, instead of writing files.
        #[arg(long)]
        explain: bool,
    },
    /// The webhook configurations only.
    Webhook(Options),
    /// The API reference in Markdown: one page per API group and version, in `docs-dir`
    /// (default `docs/api`).
    Docs(DocsArgs),
    /// Upgrade safety: compare each CRD `manifests` would write with a base (the files on
    /// disk, `--base DIR` or `--base-ref GIT_REF`) and print every change, classified
    /// breaking, warning or safe, at the Rust field or key that causes it; exit 1 when one is
    /// breaking.
    Diff(crate::diff::DiffArgs),
    /// Start a new operator crate: Cargo.toml, src/main.rs on `kubegen::runtime`, the
    /// `config/` tree in kubebuilder's layout, a Dockerfile, a README and .gitignore.
    Init(InitArgs),
    /// Add a kind (`create api`) or webhooks (`create webhook`) to an operator made by
    /// `kubegen init`.
    #[command(subcommand)]
    Create(Create),
    /// The marker reference: every key of `#[kube_marker]`, `#[rbac]` and `#[webhook]` with
    /// the controller-gen marker it mirrors, or one key's whole entry.
    Markers(MarkersArgs),
}

/// `kubegen docs`.
#[derive(Debug, Clone, Args)]
pub struct DocsArgs {
    /// Common options.
    #[command(flatten)]
    pub options: Options,
    /// The folder of the pages, relative to each package (`--docs-dir`).
    #[arg(long, value_name = "DIR", conflicts_with = "docs_dir")]
    pub out: Option<PathBuf>,
}

impl DocsArgs {
    /// The options, `--out` as the docs folder.
    pub fn options(self) -> Options {
        let mut options = self.options;
        if let Some(out) = self.out {
            options.config.docs_dir = Some(out);
        }
        options
    }
}

/// `kubegen init`.
#[derive(Debug, Clone, Args)]
pub struct InitArgs {
    /// The domain of the project's API groups: `--group webapp` is `webapp.<domain>`.
    #[arg(long)]
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

/// `kubegen create ...`.
#[derive(Debug, Subcommand)]
pub enum Create {
    /// A kind: its API types, a controller wired into main.rs, a sample; then the manifests.
    Api(ApiArgs),
    /// Defaulting, validating or conversion webhooks of a kind, wired into main.rs, with
    /// `config/webhook/` and `config/certmanager/`; then the manifests.
    Webhook(WebhookArgs),
}

/// Which kind, and where the project is.
#[derive(Debug, Clone, Args)]
pub struct Gvk {
    /// The API group's first label (`webapp` is `webapp.<domain>`).
    #[arg(long)]
    pub group: String,
    /// The version (`v1`, `v1alpha1`, `v2beta3`).
    #[arg(long)]
    pub version: String,
    /// The kind, in UpperCamelCase (`Guestbook`).
    #[arg(long)]
    pub kind: String,
    /// The project folder (made by `kubegen init`).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub project: PathBuf,
}

/// `kubegen create api`.
#[derive(Debug, Clone, Args)]
pub struct ApiArgs {
    /// The kind.
    #[command(flatten)]
    pub gvk: Gvk,
    /// Whether objects of the kind live in a namespace (`--namespaced=false`: cluster-wide).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub namespaced: bool,
    /// Write the API types (`--resource=false`: they exist already).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub resource: bool,
    /// Write a controller.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub controller: bool,
}

/// `kubegen create webhook`.
#[derive(Debug, Clone, Args)]
pub struct WebhookArgs {
    /// The kind.
    #[command(flatten)]
    pub gvk: Gvk,
    /// A mutating webhook that fills in defaults.
    #[arg(long)]
    pub defaulting: bool,
    /// A validating webhook.
    #[arg(long)]
    pub programmatic_validation: bool,
    /// A conversion webhook between the kind's versions, with this version as the hub.
    #[arg(long)]
    pub conversion: bool,
}

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
    /// The project configuration's keys (`[package.metadata.kubegen]`), as flags.
    #[command(flatten)]
    pub config: crate::config::Flags,
}

/// The Kubernetes minor version a k8s-openapi feature name stands for.
fn kubernetes_version(feature: &str) -> Result<u32, String> {
    crate::workspace::kubernetes_of(&[feature.to_string()]).ok_or_else(|| {
        format!("`{feature}` is not a k8s-openapi version feature (`v1_36`, `latest`)")
    })
}
