//! `kubegen create api`: a kind's types, its controller wired into `main.rs`, a sample; then
//! the manifests.

use std::fs;
use std::path::{Path, PathBuf};

use clap::Args;
use kubegen_core::model::Diagnostic;
use kubegen_core::names::KubeVersion;

use super::files::Changes;
use super::names::{Gvk, Names};
use super::project::Project;
use super::template::{render, template};
use crate::report::Reporter;

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

/// Runs `kubegen create api`.
pub fn run(args: &ApiArgs, reporter: &Reporter) -> Result<(), Diagnostic> {
    let project = Project::read(&args.gvk.project)?;
    let n = Names::new(&args.gvk, &project.domain)?;
    let root = &project.root;
    let types = types_file(&n, &n.version);
    let exists = root.join(&types).is_file();
    if !args.resource && !args.controller {
        return Err(Diagnostic::from(
            "--resource=false and --controller=false: nothing to create".to_string(),
        ));
    }
    if args.resource && exists {
        return Err(Diagnostic::from(format!(
            "{} {} of {} exists already ({}); pass another --version to add a version, or \
             --resource=false to add only a controller",
            n.kind,
            n.version,
            n.group,
            types.display()
        )));
    }
    if !args.resource && !exists {
        return Err(Diagnostic::from(format!(
            "--resource=false needs the types of {} {}: {} does not exist",
            n.kind,
            n.version,
            types.display()
        )));
    }
    let mut notes = Vec::new();
    let mut changes = Changes::default();
    if args.resource {
        let storage = storage_key(root, &n, &types, &mut notes);
        let scope = if args.namespaced {
            ""
        } else {
            ", scope = \"Cluster\""
        };
        add_types(&mut changes, &n, &types, &format!("{scope}{storage}"));
        add_sample(&mut changes, &project, &n);
        add_crd(&mut changes, &n);
    }
    if args.controller {
        let controller = PathBuf::from(format!("src/controller/{}.rs", n.snake));
        if root.join(&controller).is_file() {
            notes.push(format!(
                "the {} controller exists ({}): not written again; it watches the version it \
                 imports.",
                n.kind,
                controller.display()
            ));
        } else {
            add_controller(&mut changes, &n, &controller, args.namespaced);
        }
    }
    super::apply(changes, root)?;
    super::manifests(root, reporter)?;
    for note in notes {
        eprintln!("note: {note}");
    }
    if args.resource {
        eprintln!(
            "\nNext: edit {}, then `{}`; try it with `kubectl apply -k config/crd`, `kubectl \
             apply -k config/samples` and `cargo run`.",
            types.display(),
            crate::hint::command("manifests")
        );
    }
    Ok(())
}

/// `, storage_version` when the kind has other versions and none is marked as the storage
/// version (the engine needs exactly one), with a note on the choice either way.
fn storage_key(root: &Path, n: &Names, types: &Path, notes: &mut Vec<String>) -> &'static str {
    let others = other_versions(root, n);
    if others.is_empty() {
        return "";
    }
    if let Some((version, file)) = others.iter().find(|(_, file)| {
        fs::read_to_string(root.join(file)).is_ok_and(|c| c.contains("storage_version"))
    }) {
        notes.push(format!(
            "{} {version} stays the storage version (`storage_version` in {}); move the key \
             to the version objects should be stored as.",
            n.kind,
            file.display()
        ));
        return "";
    }
    notes.push(format!(
        "{} has several versions now; {} is marked `storage_version` (the version objects are \
         stored as) in {}. Move the key to another version's `#[kube_marker(...)]` to store \
         that one. Versions whose fields differ need a conversion webhook: kubegen create \
         webhook --conversion.",
        n.kind,
        n.version,
        types.display()
    ));
    ", storage_version"
}

/// The version's types (`resource_keys` appended to its first `#[kube_marker]`), in the
/// group-version module, listed in the project's CRD test.
fn add_types(changes: &mut Changes, n: &Names, types: &Path, resource_keys: &str) {
    let vars = [
        ("kind", n.kind.as_str()),
        ("group", n.group.as_str()),
        ("version", n.version.as_str()),
        ("plural", n.plural.as_str()),
        ("resource_keys", resource_keys),
    ];
    changes.file(types, render(template!("api/types.rs.tmpl"), &vars));
    let group_mod = PathBuf::from(format!("src/api/{}/mod.rs", n.module));
    changes.file(
        &group_mod,
        render(template!("api/group_mod.rs.tmpl"), &vars),
    );
    changes.insert(
        &group_mod,
        "kubegen:scaffold:kinds",
        &format!("mod {snake};\npub use {snake}::*;", snake = n.snake),
    );
    changes.insert(
        "src/api/mod.rs",
        "kubegen:scaffold:api",
        &format!("pub mod {};", n.module),
    );
    changes.insert(
        "src/api/mod.rs",
        "kubegen:scaffold:crd-versions",
        &format!(
            "<super::{}::{} as kubegen::CustomResource>::resource(),",
            n.module, n.kind
        ),
    );
}

/// The controller of the kind, run by `main.rs`, and its test against a real API server.
fn add_controller(changes: &mut Changes, n: &Names, file: &Path, namespaced: bool) {
    // A cluster-scoped object's ConfigMap lives in the operator's namespace (its
    // ServiceAccount's, in a cluster).
    let (watch_api, object, object_api, owned_namespace, test_api) = if namespaced {
        (
            "scope.api()",
            "object",
            "Api::namespaced(ctx.client.clone(), &object.namespace().unwrap_or_default())",
            "object.namespace().unwrap_or_default()",
            "Api::namespaced(cp.client(), &namespace)",
        )
    } else {
        (
            "Api::all(scope.client.clone())",
            "_object",
            "Api::all(ctx.client.clone())",
            "ctx.client.default_namespace().to_string()",
            "Api::all(cp.client())",
        )
    };
    // controller-runtime names a controller after its kind, lowercased.
    let controller_name = n.kind.to_lowercase();
    let vars = [
        ("kind", n.kind.as_str()),
        ("controller_name", controller_name.as_str()),
        ("group", n.group.as_str()),
        ("plural", n.plural.as_str()),
        ("module", n.module.as_str()),
        ("watch_api", watch_api),
        ("object", object),
        ("object_api", object_api),
        ("owned_namespace", owned_namespace),
    ];
    changes.file(file, render(template!("api/controller.rs.tmpl"), &vars));
    let test_prefix = n.snake.replace('_', "-");
    let test_vars = [
        ("kind", n.kind.as_str()),
        ("module", n.module.as_str()),
        ("snake", n.snake.as_str()),
        ("test_prefix", test_prefix.as_str()),
        ("test_api", test_api),
    ];
    changes.file(
        file.with_extension("").join("tests.rs"),
        render(template!("api/controller_test.rs.tmpl"), &test_vars),
    );
    changes.insert(
        "src/controller/mod.rs",
        "kubegen:scaffold:controllers",
        &format!("pub mod {};", n.snake),
    );
    changes.insert(
        "src/main.rs",
        "kubegen:scaffold:manager",
        &format!(
            "let manager = manager.controller(controller::{}::run);",
            n.snake
        ),
    );
}

/// Where the types of a version of the kind are.
pub(super) fn types_file(n: &Names, version: &str) -> PathBuf {
    PathBuf::from(format!(
        "src/api/{}{version}/{}.rs",
        n.group_prefix, n.snake
    ))
}

/// The other versions of the kind in the project, with their types file, sorted.
pub(super) fn other_versions(root: &Path, n: &Names) -> Vec<(String, PathBuf)> {
    let Ok(entries) = fs::read_dir(root.join("src/api")) else {
        return Vec::new();
    };
    let mut found: Vec<(String, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let version = name.strip_prefix(&n.group_prefix)?.to_string();
            (KubeVersion::parse(&version).is_some() && version != n.version).then_some(version)
        })
        .map(|version| {
            let file = types_file(n, &version);
            (version, file)
        })
        .filter(|(_, file)| root.join(file).is_file())
        .collect();
    found.sort();
    found
}

/// `config/samples/<group>_<version>_<kind>.yaml`, listed in the samples' kustomization.
fn add_sample(changes: &mut Changes, project: &Project, n: &Names) {
    let file = format!("{}_{}.yaml", n.module, n.snake);
    let vars = [
        ("name", project.name.as_str()),
        ("group", n.group.as_str()),
        ("version", n.version.as_str()),
        ("kind", n.kind.as_str()),
        ("kind_snake_dash", &n.snake.replace('_', "-")),
    ];
    changes.file(
        format!("config/samples/{file}"),
        render(template!("api/sample.yaml.tmpl"), &vars),
    );
    let kustomization = "config/samples/kustomization.yaml";
    changes.file(
        kustomization,
        template!("api/samples_kustomization.yaml.tmpl").to_string(),
    );
    changes.insert(
        kustomization,
        "kubegen:scaffold:samples",
        &format!("- {file}"),
    );
}

/// The kind's CRD in the CRDs' kustomization, and that in the default one.
fn add_crd(changes: &mut Changes, n: &Names) {
    let kustomization = "config/crd/kustomization.yaml";
    changes.file(
        kustomization,
        template!("api/crd_kustomization.yaml.tmpl").to_string(),
    );
    changes.insert(
        kustomization,
        "kubegen:scaffold:crdkustomizeresource",
        &format!("- bases/{}_{}.yaml", n.group, n.plural),
    );
    changes.insert(
        "config/default/kustomization.yaml",
        "kubegen:scaffold:resources",
        "- ../crd",
    );
}
