//! The command line.

use clap::{Parser, Subcommand};

use crate::diff::DiffArgs;
use crate::docs::DocsArgs;
use crate::import::{ImportArgs, ImportGoArgs};
use crate::markers::MarkersArgs;
use crate::migrate::MigrateArgs;
use crate::options::Options;
use crate::report::{Color, MessageFormat};
use crate::scaffold::api::ApiArgs;
use crate::scaffold::init::InitArgs;
use crate::scaffold::webhook::WebhookArgs;
use crate::validate::ValidateArgs;

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
        kubegen manifests --features experimental --out-dir config/experimental\n                                         \
        the sources as a build with that feature sees them (a channel)\n  \
        kubegen crd -p memcached-operator --stdout\n  \
        kubegen rbac --explain                 each rule with the attributes that asked for it\n  \
        kubegen webhook --stdout               the webhook configurations of every member\n  \
        kubegen docs --check                   CI: the API reference (docs/api/) is fresh\n  \
        kubegen markers min_length             a marker key's reference (`kubegen markers`: all keys)\n  \
        kubegen diff --base-ref origin/main    CI: exit 1 if a CRD changes in a way that breaks upgrades\n  \
        kubegen import crd --out my-api crds/  Rust types with markers from existing CRDs\n  \
        kubegen import go --out my-api api/v1  Rust types with markers from Go API types\n  \
        kubegen validate config/samples/       admit objects as the API server would (exit 1 if refused)\n\n\
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
    Diff(DiffArgs),
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
    /// Rust types with markers from existing CRDs (`import crd`) or Go API types (`import go`).
    #[command(subcommand)]
    Import(Import),
    /// Objects (YAML or JSON files, folders, `-`) admitted as the API server would admit them
    /// against the package's CRDs (or `--crd` files): each refusal in the server's words at
    /// the value's `file:line:col`; exit 1 when one would be refused.
    Validate(ValidateArgs),
    /// A kube-derive crate moved to kubegen: its `#[kube]`, `#[x_kube]`, `#[schemars]` (and
    /// garde's and validator's lengths, ranges and patterns) rewritten as kubegen's markers.
    Migrate(MigrateArgs),
}

/// `kubegen import ...`.
#[derive(Debug, Subcommand)]
pub enum Import {
    /// CRDs (YAML or JSON files, folders, `-` for stdin) into Rust types whose generated CRD
    /// is the input: every schema keyword as a marker, doc comments from descriptions.
    Crd(ImportArgs),
    /// Go API packages (folders of `groupversion_info.go` and `*_types.go`) into Rust types
    /// whose generated CRDs are controller-gen's: markers as keys, doc comments kept.
    Go(ImportGoArgs),
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
