//! `kubegen import crd`: CRDs (YAML or JSON) into Rust types with markers whose generated CRD
//! is the input. `read` splits the input into CRDs, `model` makes the Rust of each (types
//! named after their schema path, equal subtrees shared), `write` prints it, and this module
//! places the files: a library crate (`--out`) or a module of an existing one (`--module`),
//! written as `manifests` writes (whole files, never one kubegen did not write).

pub mod cluster;
pub mod go;
pub mod known;
pub mod model;
pub mod read;
pub mod write;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::Args;
use kubegen_core::model::Diagnostic;

use crate::output::Plan;
use crate::report::Reporter;
use crate::scaffold::init::{DEFAULT_KUBERNETES, KubegenFlags, Source};

/// Where an import writes: `--out`, `--module`, or (neither) standard output.
#[derive(Debug, Clone, Args)]
pub struct Destination {
    /// Write a library crate here: `Cargo.toml`, `src/lib.rs`, a module per group and version.
    #[arg(long, value_name = "DIR", conflicts_with = "module")]
    pub out: Option<PathBuf>,
    /// Write the modules into this folder of an existing crate (its `mod.rs` declares them).
    #[arg(long, value_name = "PATH")]
    pub module: Option<PathBuf>,
    /// Where the `--out` crate gets kubegen from, as `kubegen init`.
    #[command(flatten)]
    pub kubegen: KubegenFlags,
}

/// `kubegen import crd`.
#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// Where it writes.
    #[command(flatten)]
    pub to: Destination,
    /// The Kubernetes version the types are for (the `--out` crate's k8s-openapi feature):
    /// a subtree whose schema is a k8s-openapi type's in that version becomes that type. A
    /// version other than the one kubegen is built with needs k8s-openapi's sources: those of
    /// the cargo workspace of the current folder (else only controller-gen's own schemas,
    /// `Time`, `Quantity`, `ObjectMeta`, are recognized).
    #[arg(long, value_name = "v1_NN", default_value = DEFAULT_KUBERNETES,
          value_parser = crate::scaffold::init::kubernetes)]
    pub kubernetes: String,
    /// Read the CRDs named in place of the inputs from the cluster of this kubeconfig (and
    /// `--context`).
    #[arg(long, value_name = "FILE")]
    pub kubeconfig: Option<PathBuf>,
    /// Read the CRDs named in place of the inputs from the cluster of this context (of
    /// `--kubeconfig`, else of `KUBECONFIG` or `~/.kube/config`, as kubectl reads them).
    #[arg(long, value_name = "NAME")]
    pub context: Option<String>,
    /// CRD files (YAML or JSON, one or many documents), folders of them, or `-` for stdin;
    /// with `--kubeconfig` or `--context`, CRD names (`certificates.cert-manager.io`).
    #[arg(required = true, value_name = "FILE|DIR|-|NAME")]
    pub inputs: Vec<PathBuf>,
}

/// `kubegen import go`.
#[derive(Debug, Clone, Args)]
pub struct ImportGoArgs {
    /// Where it writes.
    #[command(flatten)]
    pub to: Destination,
    /// Go controller and webhook folders (searched recursively) whose `+kubebuilder:rbac`
    /// markers become the `#[rbac]` attributes of a module `rbac`, and `+kubebuilder:webhook`
    /// markers `#[webhook]` handler stubs of a module `webhooks`.
    #[arg(long, value_name = "DIR")]
    pub controllers: Vec<PathBuf>,
    /// Go API package folders (each holding `groupversion_info.go` and `*_types.go`).
    #[arg(required = true, value_name = "GO_DIR")]
    pub dirs: Vec<PathBuf>,
}

/// What an import reads, as its files say.
#[derive(Debug, Clone, Copy)]
pub struct Origin {
    /// The command (`crd`, `go`).
    pub command: &'static str,
    /// What a module is imported from (`its CRD`, `Go`).
    pub from: &'static str,
    /// The `--out` crate's `[package.metadata.kubegen]` keys, as `Cargo.toml` lines.
    pub config: &'static str,
}

impl Origin {
    /// `kubegen import crd`.
    pub const CRD: Origin = Origin {
        command: "crd",
        from: "its CRD",
        config: "",
    };
    /// `kubegen import go`.
    pub const GO: Origin = Origin {
        command: "go",
        from: "Go",
        config: "\n# controller-gen's default: an ObjectMeta below the root is `type: object`.\n\
                 [package.metadata.kubegen]\ngenerate-embedded-object-meta = false\n",
    };

    fn module(self, m: &model::Module) -> String {
        write::module_from(
            m,
            &format!("{} by `kubegen import {}`", self.from, self.command),
        )
    }
}

/// The module file of a group and version: `example_com_v1.rs`.
pub fn module_name(group: &str, version: &str) -> String {
    let group = group.replace(['.', '-'], "_");
    format!("{group}_{version}")
}

/// The modules of every CRD of `inputs` (subtrees of the `known` types made fields of them),
/// merged by group and version, or the problems that stop the import; and the warnings (what
/// no marker expresses).
pub fn modules(
    inputs: &[read::Input],
    known: &known::Known,
) -> Result<(Vec<model::Module>, Vec<String>), Vec<String>> {
    let mut merged: BTreeMap<String, model::Module> = BTreeMap::new();
    let mut warnings = Vec::new();
    let mut errors = Vec::new();
    for input in inputs {
        let crds = match read::crds(input) {
            Ok(crds) => crds,
            Err(e) => {
                errors.extend(e);
                continue;
            }
        };
        for (at, crd) in crds {
            let name = crd.metadata.name.clone().unwrap_or_default();
            match model::import(&crd, known) {
                Ok(imported) => {
                    warnings.extend(
                        imported.lost.iter().map(|p| {
                            format!("{at}: CRD {name}: {}: {}; left out", p.path, p.message)
                        }),
                    );
                    for m in imported.modules {
                        let key = module_name(&m.group, &m.version);
                        match merged.get_mut(&key) {
                            Some(existing) => existing.items.extend(m.items),
                            None => {
                                merged.insert(key, m);
                            }
                        }
                    }
                }
                Err(p) => errors.push(format!("{at}: CRD {name}: {}: {}", p.path, p.message)),
            }
        }
    }
    if errors.is_empty() {
        Ok((merged.into_values().collect(), warnings))
    } else {
        Err(errors)
    }
}

/// The files of `--out DIR`: a library crate.
fn crate_plan(
    dir: &Path,
    files: &[(String, String)],
    source: &Source,
    origin: Origin,
    kubernetes: &str,
) -> Plan {
    let mut plan = Plan::default();
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().replace('_', "-"))
        .unwrap_or_else(|| "imported-crds".into());
    // The webhook stubs (`import go --controllers`) deny with `kubegen::webhook::Denied`.
    let features = if files.iter().any(|(name, _)| name == "webhooks") {
        "features = [\"webhook\"]\n"
    } else {
        ""
    };
    plan.files.insert(
        dir.join("Cargo.toml"),
        format!(
            "{}[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
             # The doc comments are the CRDs' descriptions, not Rust: their code blocks are no doctests.\n\
             [lib]\ndoctest = false\n{}\n\
             [dependencies]\nk8s-openapi = {{ version = \"0.29.0\", default-features = false, features = [\"std\", \"{}\"] }}\n\
             serde = {{ version = \"1.0.228\", features = [\"derive\"] }}\nserde_json = \"1.0.145\"\n\n\
             [dependencies.kubegen]\n{}\n{}\n[workspace]\n{}",
            kubegen_core::render::HEADER,
            origin.config,
            kubernetes,
            source.dependency,
            features,
            source.manifest_tail,
        ),
    );
    // kubegen's vendored packages, as `init` copies them: a file already there is kept.
    for (path, text) in &source.vendored {
        let path = dir.join(path);
        if !path.exists() {
            plan.files.insert(path, text.clone());
        }
    }
    for (path, text) in crate_sources(files, origin) {
        plan.files.insert(dir.join(path), text);
    }
    plan
}

/// The Rust files of a library crate of `modules`, by their paths in it: `src/lib.rs` and
/// `src/<group>_<version>.rs` for each.
pub fn sources(modules: &[model::Module]) -> BTreeMap<PathBuf, String> {
    crate_sources(&module_files(modules, Origin::CRD, Vec::new()), Origin::CRD)
}

/// The module files of an import, (name, source): one per group and version, then `other`
/// (`rbac`, of `import go --controllers`).
pub fn module_files(
    modules: &[model::Module],
    origin: Origin,
    other: Vec<(String, String)>,
) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = modules
        .iter()
        .map(|m| (module_name(&m.group, &m.version), origin.module(m)))
        .collect();
    files.extend(other);
    files
}

/// [`sources`] of some module files, of an import of `origin`.
pub fn crate_sources(files: &[(String, String)], origin: Origin) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    out.insert(
        PathBuf::from("src/lib.rs"),
        lib_rs(
            files,
            &format!(
                "Types imported by `kubegen import {}`, one module per API group and version.",
                origin.command
            ),
        ),
    );
    for (name, text) in files {
        out.insert(Path::new("src").join(format!("{name}.rs")), text.clone());
    }
    out
}

/// A file declaring the modules. Descriptions are the CRDs' text, their Markdown as written
/// (a list item's next line not indented, which clippy's `doc_lazy_continuation` flags), and
/// field types nest as the schema does (`type_complexity`).
fn lib_rs(files: &[(String, String)], doc: &str) -> String {
    let mods: String = files
        .iter()
        .map(|(name, _)| format!("pub mod {name};\n"))
        .collect();
    format!(
        "{}//! {doc}\n\n// The doc comments are the CRDs' descriptions, their Markdown as written;\n\
         // the field types nest as their schemas do.\n\
         #![allow(clippy::doc_lazy_continuation, clippy::type_complexity)]\n\n{mods}",
        write::RUST_HEADER
    )
}

/// Runs `kubegen import crd`: false when it fails (every problem printed, nothing written).
pub fn run(args: &ImportArgs, reporter: &Reporter) -> bool {
    let inputs = if args.kubeconfig.is_some() || args.context.is_some() {
        let names: Vec<String> = (args.inputs.iter())
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        cluster::inputs(args.kubeconfig.as_deref(), args.context.as_deref(), &names)
    } else {
        read::inputs(&args.inputs).map_err(|e| vec![e])
    };
    let inputs = match inputs {
        Ok(inputs) => inputs,
        Err(e) => return fail(reporter, e),
    };
    let (known, mut warnings) = known_types(&args.kubernetes);
    match modules(&inputs, &known) {
        Ok((modules, lost)) => {
            warnings.extend(lost);
            let files = module_files(&modules, Origin::CRD, Vec::new());
            let to = (&args.to, args.kubernetes.as_str());
            write_all(&files, warnings, to, Origin::CRD, reporter)
        }
        Err(errors) => fail(reporter, errors),
    }
}

/// Runs `kubegen import go`: false when it fails (every problem printed, nothing written).
pub fn run_go(args: &ImportGoArgs, reporter: &Reporter) -> bool {
    let (modules, mut lost) = match go::modules(&args.dirs) {
        Ok(found) => found,
        Err(errors) => return fail(reporter, errors),
    };
    let mut other = Vec::new();
    if !args.controllers.is_empty() {
        match go::controller_modules(&args.controllers) {
            Ok((files, warnings)) => {
                other = files;
                lost.extend(warnings);
            }
            Err(errors) => return fail(reporter, errors),
        }
    }
    let files = module_files(&modules, Origin::GO, other);
    let to = (&args.to, DEFAULT_KUBERNETES);
    write_all(&files, lost, to, Origin::GO, reporter)
}

/// The k8s-openapi types of Kubernetes `feature` (`v1_NN`, checked by clap) an import
/// recognizes, and a warning when only controller-gen's own schemas can be (that version's
/// schemas are not at hand).
fn known_types(feature: &str) -> (known::Known, Vec<String>) {
    let minor = feature
        .strip_prefix("v1_")
        .and_then(|m| m.parse().ok())
        .unwrap_or_default();
    match crate::kubernetes::select_minor(None, minor) {
        Ok(kubernetes) => (known::Known::new(&kubernetes), Vec::new()),
        Err(e) => (
            known::Known::of(
                known::OVERRIDDEN,
                &kubegen_core::known::Kubernetes::compiled(),
            ),
            vec![format!(
                "Kubernetes 1.{minor}'s k8s-openapi schemas are not at hand ({}): only \
                 `Time`, `MicroTime`, `Quantity`, `ObjectMeta` and `RawExtension` replace \
                 their subtrees",
                e.message
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .trim_end_matches(':')
            )],
        ),
    }
}

fn fail(reporter: &Reporter, messages: Vec<String>) -> bool {
    let errors: Vec<Diagnostic> = messages.into_iter().map(Diagnostic::from).collect();
    reporter.emit_failure(&errors, "nothing was written");
    false
}

/// Prints the warnings and writes the module files (all or none), an `--out` crate's
/// k8s-openapi for a Kubernetes version (`v1_NN`).
fn write_all(
    files: &[(String, String)],
    lost: Vec<String>,
    (to, kubernetes): (&Destination, &str),
    origin: Origin,
    reporter: &Reporter,
) -> bool {
    let warnings: Vec<Diagnostic> = lost
        .into_iter()
        .map(|w| Diagnostic::warning(None, "", w))
        .collect();
    reporter.emit_all(&warnings);
    let plan = match (&to.out, &to.module) {
        (Some(dir), _) => match crate::scaffold::init::source(&to.kubegen) {
            Ok(source) => crate_plan(dir, files, &source, origin, kubernetes),
            Err(e) => return fail(reporter, vec![e]),
        },
        (None, Some(dir)) => {
            let mut plan = Plan::default();
            plan.files.insert(
                dir.join("mod.rs"),
                lib_rs(
                    files,
                    &format!("Types imported by `kubegen import {}`.", origin.command),
                ),
            );
            for (name, text) in files {
                plan.files
                    .insert(dir.join(format!("{name}.rs")), text.clone());
            }
            plan
        }
        (None, None) => {
            for (_, text) in files {
                print!("{text}");
            }
            return true;
        }
    };
    let outcome = match plan.apply(false) {
        Ok(outcome) => outcome,
        Err(refused) => return fail(reporter, refused.into_iter().map(|e| e.0).collect()),
    };
    let (vendored, ours): (Vec<&PathBuf>, Vec<&PathBuf>) = outcome
        .changed
        .iter()
        .partition(|p| p.components().any(|c| c.as_os_str() == "vendor"));
    for path in ours {
        eprintln!("wrote {}", crate::paths::display(path));
    }
    if !vendored.is_empty() {
        eprintln!(
            "wrote {} files of kubegen's packages into vendor/",
            vendored.len()
        );
    }
    true
}
