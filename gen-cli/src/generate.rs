//! The manifests of the selected packages, in memory: for each, load each target's sources,
//! collect, and let the engine build and render the CRDs, the role, the webhook configurations
//! and the docs.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use kubegen_core::crd;
use kubegen_core::known::Kubernetes;
use kubegen_core::model::{Diagnostic, Error, Errors, ResourceDef, Shape, Warning};
use kubegen_core::rbac::{self, Role};
use kubegen_core::render;
use kubegen_core::webhook;

use crate::collect::{Collected, Reader, Version};
use crate::config::Layout;
use crate::options::Options;
use crate::output::Plan;
use crate::parallel::parallel;
use crate::paths::display;
use crate::source::{Cfg, Crate};
use crate::workspace::{self, Package};
use crate::{config, features, kubernetes};

/// Which manifests to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct What {
    /// CRDs.
    pub crds: bool,
    /// The RBAC role.
    pub rbac: bool,
    /// The webhook configurations.
    pub webhooks: bool,
    /// The API reference (`kubegen docs`).
    pub docs: bool,
}

impl What {
    /// Every manifest: `kubegen manifests`.
    pub const ALL: What = What {
        crds: true,
        rbac: true,
        webhooks: true,
        docs: false,
    };

    /// The API reference only: `kubegen docs`.
    pub const DOCS: What = What {
        crds: false,
        rbac: false,
        webhooks: false,
        docs: true,
    };
    /// `kubegen crd`.
    pub const CRDS: What = What {
        crds: true,
        rbac: false,
        webhooks: false,
        docs: false,
    };
    /// `kubegen rbac`.
    pub const RBAC: What = What {
        crds: false,
        rbac: true,
        webhooks: false,
        docs: false,
    };
    /// `kubegen webhook`.
    pub const WEBHOOKS: What = What {
        crds: false,
        rbac: false,
        webhooks: true,
        docs: false,
    };
}

/// A package's manifests, its roles (for `--explain`) and the engine's warnings.
pub struct Generated {
    /// The package.
    pub package: Package,
    /// Its resources (every version of every kind), to find a schema path's Rust field.
    pub resources: Vec<ResourceDef>,
    /// The folder its CRD files go into, when CRDs were generated.
    pub crd_dir: Option<PathBuf>,
    /// The files, relative to nothing: full paths under the package's output folder.
    pub plan: Plan,
    /// The normalized roles.
    pub roles: Vec<Role>,
    /// Warnings about the package's types, sorted by location, each once.
    pub warnings: Vec<Warning>,
}

/// Generates `what` for the packages `options` selects, in memory: every package's files (with
/// their warnings), or every error of every package, for the Kubernetes version they use.
///
/// The libraries the workspace's manifests name plainly are read while `cargo metadata` runs
/// ([`workspace::likely_libraries`]); what is read of one is used only for a target that
/// `cargo metadata` then names with the same crate name, root file and features, and field
/// types are resolved only once the Kubernetes version is known. Each package's sources are
/// read with the features `options` gives it ([`crate::features`]).
pub fn render(options: &Options, what: What) -> Result<Vec<Generated>, Vec<Diagnostic>> {
    let version = Version::new();
    std::thread::scope(|scope| {
        // `cargo metadata` first, then the reading that may overlap it.
        let packages = scope
            .spawn(|| workspace::discover(options.manifest_path.as_deref(), &options.packages));
        // The guessed crates one after another, each on every core.
        let guessed =
            workspace::likely_libraries(options.manifest_path.as_deref(), &options.packages);
        let early = scope.spawn(|| -> Early {
            guessed
                .into_iter()
                .map(|library| {
                    let root = Path::new(&display(&library.root)).to_path_buf();
                    let features = options
                        .features
                        .enabled(&library.package, &library.features);
                    let cfg = Cfg::new(features);
                    let read = read_target(&library.name, &root, &cfg, &version);
                    ((library.name, root, cfg), read)
                })
                .collect()
        });
        let packages = packages
            .join()
            .expect("`cargo metadata`'s thread does not panic");
        let joined = || {
            early
                .join()
                .expect("the early reading thread does not panic")
        };
        let rendered = render_packages(options, what, packages, &version, joined);
        // Stopped before the version was known: the early reads end without resolving.
        let _ = version.set(None);
        rendered
    })
}

/// [`render`] once the workspace is known (`packages`, from `cargo metadata`) and the early
/// reads are under way: `early` waits for them.
fn render_packages(
    options: &Options,
    what: What,
    packages: Result<Vec<Package>, String>,
    version: &Version,
    early: impl FnOnce() -> Early,
) -> Result<Vec<Generated>, Vec<Diagnostic>> {
    let packages = packages.map_err(|message| vec![Diagnostic::plain(message)])?;
    if packages.is_empty() {
        return Err(vec![
            Diagnostic::plain("no workspace member depends on kubegen")
                .with_help("name one with `-p`", None),
        ]);
    }
    let tables: Vec<(&str, &features::Table)> = packages
        .iter()
        .map(|p| (p.name.as_str(), &p.features))
        .collect();
    options.features.check(&tables).map_err(|e| vec![e])?;
    let kubernetes = kubernetes::select(options, &packages).map_err(|e| vec![e])?;
    let _ = version.set(Some(kubernetes.clone()));
    let mut early = early();
    let layouts = config::resolve_all(&packages, &options.config, &options.out_dir)?;
    let mut all = Vec::new();
    let mut errors = Vec::new();
    for (package, layout) in packages.iter().zip(&layouts) {
        let cfg = Cfg::new(options.features.enabled(&package.name, &package.features));
        match build(package, &cfg, layout, what, &kubernetes, &mut early) {
            Ok(g) => all.push(g),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(all)
    } else {
        // What generated still warns: the warnings come first, then the errors.
        let mut found: Vec<Diagnostic> = all.into_iter().flat_map(|g| g.warnings).collect();
        found.extend(errors);
        Err(found)
    }
}

/// What was read of each crate (name, root file as shown, configuration) before the workspace
/// was known.
type Early = HashMap<(String, PathBuf, Cfg), Result<Collected, Vec<Error>>>;

/// Everything the crate named `name` whose root file is `root` declares, configured by `cfg`.
fn read_target(
    name: &str,
    root: &Path,
    cfg: &Cfg,
    version: &Version,
) -> Result<Collected, Vec<Error>> {
    let reader = Reader::new(name, version);
    let (krate, modules) = Crate::load_with(name, root, cfg, &reader)
        .map_err(|e| vec![Error::new(Some(&e.loc), "", e.message)])?;
    // The crate's names are not needed any more.
    drop(krate);
    Ok(reader.collect(modules))
}

/// Everything the package's sources declare, configured by `cfg`, from all its targets (a file
/// shared by two targets counts once), with the problems found while reading them; a target
/// read early with the same configuration is taken from `early`.
///
/// # Errors
///
/// A target whose sources cannot be loaded (a file that cannot be read or parsed, a missing
/// module file).
fn read(
    package: &Package,
    cfg: &Cfg,
    kubernetes: &Kubernetes,
    early: &mut Early,
) -> Result<Collected, Vec<Error>> {
    let version = Version::from(Some(kubernetes.clone()));
    let mut all = Collected::default();
    let mut seen_attributes = HashSet::new();
    let mut seen_kinds = HashSet::new();
    for (name, root) in &package.targets {
        // Sources are read through paths relative to the current folder when they are under
        // it, so every location printed is short.
        let root = Path::new(&display(root)).to_path_buf();
        let c = match early.remove(&(name.clone(), root.clone(), cfg.clone())) {
            Some(read) => read?,
            None => read_target(name, &root, cfg, &version)?,
        };
        all.errors.extend(c.errors);
        all.types.extend(c.types);
        all.rbac.extend(
            c.rbac
                .into_iter()
                .filter(|r| seen_attributes.insert(r.loc.clone())),
        );
        all.webhooks.extend(
            c.webhooks
                .into_iter()
                .filter(|w| seen_attributes.insert(w.loc.clone())),
        );
        all.webhook_names.extend(
            c.webhook_names
                .into_iter()
                .filter(|n| seen_attributes.insert(n.loc.clone())),
        );
        all.resources.extend(
            c.resources
                .into_iter()
                .filter(|r| seen_kinds.insert(r.markers.loc.clone())),
        );
    }
    Ok(all)
}

/// A piece of the work done on every core.
enum Job<'a> {
    /// Some types, each checked alone as the derive checks it.
    Check(&'a [Shape]),
    /// One kind's CRD file.
    Crd(&'a [ResourceDef]),
}

/// What a [`Job`] gave.
enum Done {
    Checked(Result<(), Errors>),
    Crd(Result<(String, String, Vec<Warning>), Errors>),
}

/// Builds the package's manifests where its [`Layout`] puts them, from its sources configured
/// by `cfg`, k8s-openapi types as the Kubernetes version `kubernetes` has them.
pub fn generate(
    package: &Package,
    cfg: &Cfg,
    layout: &Layout,
    what: What,
    kubernetes: &Kubernetes,
) -> Result<Generated, Vec<Error>> {
    build(package, cfg, layout, what, kubernetes, &mut Early::new())
}

/// [`generate`], with the targets read early taken from `early`.
fn build(
    package: &Package,
    cfg: &Cfg,
    layout: &Layout,
    what: What,
    kubernetes: &Kubernetes,
    early: &mut Early,
) -> Result<Generated, Vec<Error>> {
    let collected = read(package, cfg, kubernetes, early)?;
    let mut plan = Plan::default();
    let mut crd_dir = None;
    let mut warnings = Vec::new();
    let kinds: Vec<Vec<ResourceDef>> = crd::by_kind(collected.resources.clone())
        .into_values()
        .collect();
    let crd_options = crd::Options {
        max_desc_len: layout.max_desc_len,
        plain_object_meta: !layout.embedded_object_meta,
        kubernetes: kubernetes.clone(),
    };
    // Every type's own check, a few types at a time (a type embedded in several shares is
    // built in each), and, while the sources are sound, every kind's CRD: on every core.
    let mut jobs: Vec<Job> = collected
        .types
        .chunks(CHECKED_TOGETHER)
        .map(Job::Check)
        .collect();
    let crds = what.crds && collected.errors.is_empty();
    if crds {
        jobs.extend(kinds.iter().map(|defs| Job::Crd(defs)));
    }
    let done = parallel(&jobs, |job| match job {
        Job::Check(types) => Done::Checked(kubegen_core::schema::each(types, kubernetes)),
        Job::Crd(defs) => Done::Crd(crd_file(defs, &crd_options)),
    });
    let mut errors = collected.errors;
    let mut files = Vec::new();
    for done in done {
        match done {
            Done::Checked(checked) => errors.extend(checked.err().into_iter().flat_map(|e| e.0)),
            Done::Crd(file) => files.push(file),
        }
    }
    if !errors.is_empty() {
        // What the sources say is wrong, each once; the CRDs of an unsound API are not
        // reported on.
        errors.sort_by(|a, b| a.loc.cmp(&b.loc));
        errors.dedup();
        return Err(errors);
    }
    for file in files {
        match file {
            Ok((file, content, w)) => {
                plan.files.insert(layout.crd_dir.join(file), content);
                warnings.extend(w);
            }
            Err(e) => errors.extend(e.0),
        }
    }
    if crds {
        plan.owned_dirs.push(layout.crd_dir.clone());
        crd_dir = Some(layout.crd_dir.clone());
    }
    let roles = rbac::roles(&collected.rbac, &layout.role_name);
    if what.rbac {
        let role_file = layout.rbac_file.clone();
        if roles.is_empty() {
            plan.owned_files.push(role_file);
        } else {
            plan.files
                .insert(role_file, render::manifest(&rbac::to_k8s(&roles)));
        }
    }
    if what.webhooks {
        let file = layout.webhook_file.clone();
        match webhook::configurations(&collected.webhooks, &collected.webhook_names) {
            Ok(configs) if configs.is_empty() => plan.owned_files.push(file),
            Ok(configs) => {
                plan.files
                    .insert(file, render::manifest(&webhook::to_k8s(&configs)));
            }
            Err(e) => errors.extend(e),
        }
    }
    let header = layout.yaml_header();
    for content in plan.files.values_mut() {
        content.insert_str(0, &header);
    }
    if what.docs {
        match crate::docs::pages(&kinds, layout, kubernetes) {
            Ok(pages) => plan.files.extend(pages),
            Err(e) => errors.extend(e),
        }
        plan.owned_dirs.push(layout.docs_dir.clone());
    }
    // A type shared by several kinds is warned about once.
    warnings.sort();
    warnings.dedup();
    if errors.is_empty() {
        Ok(Generated {
            package: package.clone(),
            crd_dir,
            resources: collected.resources,
            plan,
            roles,
            warnings,
        })
    } else {
        Err(errors)
    }
}

/// One kind's CRD file: its name, its content and the warnings about its types.
fn crd_file(
    defs: &[ResourceDef],
    options: &crd::Options,
) -> Result<(String, String, Vec<Warning>), Errors> {
    let (built, value) = crd::checked(defs, options)?;
    let spec = &built.crd.spec;
    let file = format!("{}_{}.yaml", spec.group, spec.names.plural);
    Ok((file, render::manifest(&[value]), built.warnings))
}

/// How many types one [`Job::Check`] checks: enough to share the schemas a few neighbours
/// embed, few enough to spread over the cores.
const CHECKED_TOGETHER: usize = 64;
