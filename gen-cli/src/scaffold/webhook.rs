//! `kubegen create webhook`: a kind's defaulting and validating handlers (or its conversion
//! webhook) wired into `main.rs`, with `config/webhook/` and `config/certmanager/`; then the
//! manifests.

use std::path::{Path, PathBuf};

use clap::Args;
use kubegen_core::model::Diagnostic;

use super::files::Changes;
use super::names::{Gvk, Names};
use super::project::Project;
use super::template::{render, template};
use crate::report::Reporter;

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

/// The `config/` files of the webhooks, from their templates.
const CONFIG: &[(&str, &str)] = &[
    (
        "config/webhook/kustomization.yaml",
        template!("webhook/config/webhook/kustomization.yaml.tmpl"),
    ),
    (
        "config/webhook/service.yaml",
        template!("webhook/config/webhook/service.yaml.tmpl"),
    ),
    (
        "config/webhook/kustomizeconfig.yaml",
        template!("webhook/config/webhook/kustomizeconfig.yaml.tmpl"),
    ),
    (
        "config/certmanager/kustomization.yaml",
        template!("webhook/config/certmanager/kustomization.yaml.tmpl"),
    ),
    (
        "config/certmanager/certificate.yaml",
        template!("webhook/config/certmanager/certificate.yaml.tmpl"),
    ),
    (
        "config/certmanager/kustomizeconfig.yaml",
        template!("webhook/config/certmanager/kustomizeconfig.yaml.tmpl"),
    ),
    (
        "config/default/manager_webhook_patch.yaml",
        template!("webhook/config/default/manager_webhook_patch.yaml.tmpl"),
    ),
    (
        "config/default/cainjection_patch.yaml",
        template!("webhook/config/default/cainjection_patch.yaml.tmpl"),
    ),
    (
        "config/network-policy/allow-webhook-traffic.yaml",
        template!("webhook/config/network-policy/allow-webhook-traffic.yaml.tmpl"),
    ),
];

/// Runs `kubegen create webhook`.
pub fn run(args: &WebhookArgs, reporter: &Reporter) -> Result<(), Diagnostic> {
    if !(args.defaulting || args.programmatic_validation || args.conversion) {
        return Err(Diagnostic::from(
            "say which webhooks: --defaulting, --programmatic-validation and/or --conversion"
                .to_string(),
        ));
    }
    let project = Project::read(&args.gvk.project)?;
    let n = Names::new(&args.gvk, &project.domain)?;
    let root = &project.root;
    let types = super::api::types_file(&n, &n.version);
    if !root.join(&types).is_file() {
        return Err(Diagnostic::from(format!(
            "{} {} has no types ({} does not exist): run `{}` first",
            n.kind,
            n.version,
            types.display(),
            crate::hint::command("create api")
        )));
    }
    let mut changes = Changes::default();
    wire_server(&mut changes, &project);
    if args.defaulting || args.programmatic_validation {
        admission(&mut changes, args, &n);
    }
    if args.conversion {
        conversion(&mut changes, &project, &n, &types)?;
    }
    super::apply(changes, root)?;
    super::manifests(root, reporter)?;
    eprintln!(
        "\nNext: fill in the handlers in src/webhook/. Deploying webhooks needs cert-manager; \
         locally, `--webhook-cert-dir` names a folder with tls.crt and tls.key, or \
         `--webhook-port 0` runs without them."
    );
    Ok(())
}

/// The webhook server in `main.rs`, the `webhook` feature of kubegen, and `config/`.
fn wire_server(changes: &mut Changes, project: &Project) {
    changes.insert("Cargo.toml", "kubegen:scaffold:features", "\"webhook\",");
    changes.file(
        "src/webhook/mod.rs",
        template!("webhook/mod.rs.tmpl").to_string(),
    );
    changes.insert("src/main.rs", "kubegen:scaffold:modules", "mod webhook;");
    changes.insert(
        "src/main.rs",
        "kubegen:scaffold:manager",
        "let manager = manager.webhooks(webhook::server());",
    );
    let vars = [
        ("name", project.name.as_str()),
        ("namespace", project.namespace.as_str()),
    ];
    for (path, template) in CONFIG {
        changes.file(*path, render(template, &vars));
    }
    changes.insert(
        "config/network-policy/kustomization.yaml",
        "kubegen:scaffold:network-policies",
        "- allow-webhook-traffic.yaml",
    );
    let default = "config/default/kustomization.yaml";
    changes.insert(
        default,
        "kubegen:scaffold:resources",
        "- ../webhook\n- ../certmanager",
    );
    changes.insert(
        default,
        "kubegen:scaffold:patches",
        "- path: manager_webhook_patch.yaml\n- path: cainjection_patch.yaml\n  target:\n    \
         group: admissionregistration.k8s.io",
    );
}

/// `src/webhook/<group>_<version>_<kind>.rs` with the handlers asked for, registered in the
/// server.
fn admission(changes: &mut Changes, args: &WebhookArgs, n: &Names) {
    let module = format!("{}_{}", n.module, n.snake);
    let kind_lower = n.kind.to_lowercase();
    let route =
        |mutating| kubegen_core::webhook::default_path(mutating, &n.group, &n.version, &kind_lower);
    let vars = [
        ("kind", n.kind.as_str()),
        ("kind_lower", kind_lower.as_str()),
        ("group", n.group.as_str()),
        ("version", n.version.as_str()),
        ("plural", n.plural.as_str()),
        ("module", n.module.as_str()),
    ];
    let mut imports = vec!["Server"];
    let mut register = String::new();
    let mut handlers = String::new();
    let mut checks = String::new();
    if args.defaulting {
        register.push_str("\n        .mutate(default::webhooks(), default)");
        handlers.push_str(&render(template!("webhook/defaulting.rs.tmpl"), &vars));
        checks.push_str(&format!(
            "        assert!(paths.contains(&{:?}), \"{{paths:?}}\");\n",
            route(true)
        ));
    }
    if args.programmatic_validation {
        imports.insert(0, "Denied");
        register.push_str("\n        .validate(validate::webhooks(), validate)");
        handlers.push_str(&render(template!("webhook/validation.rs.tmpl"), &vars));
        checks.push_str(&format!(
            "        assert!(paths.contains(&{:?}), \"{{paths:?}}\");\n",
            route(false)
        ));
    }
    let imports = match imports.as_slice() {
        [one] => one.to_string(),
        many => format!("{{{}}}", many.join(", ")),
    };
    let mut vars = vars.to_vec();
    vars.extend([
        ("imports", imports.as_str()),
        ("register", register.as_str()),
    ]);
    let mut content = render(template!("webhook/kind.rs.tmpl"), &vars);
    content.push_str(&handlers);
    content.push_str(&render(
        template!("webhook/tests.rs.tmpl"),
        &[("path_checks", &checks)],
    ));
    changes.file(format!("src/webhook/{module}.rs"), content);
    register_module(changes, &module);
    changes.insert(
        "config/webhook/kustomization.yaml",
        "kubegen:scaffold:webhook-resources",
        "- manifests.yaml",
    );
}

/// The conversion webhook of the kind through this version: the CRD's `conversion` key and
/// `From` conversions from and to every other version.
fn conversion(
    changes: &mut Changes,
    project: &Project,
    n: &Names,
    types: &Path,
) -> Result<(), String> {
    let spokes = super::api::other_versions(&project.root, n);
    if spokes.is_empty() {
        return Err(format!(
            "{} has one version, {}: a conversion webhook converts between versions; add one \
             with `{}` first",
            n.kind,
            n.version,
            crate::hint::command(&format!("create api --version <another> --kind {}", n.kind))
        ));
    }
    changes.insert(
        types,
        "kubegen:scaffold:resource-markers",
        &format!(
            "#[kube_marker(conversion(webhook(service_name = \"{}-webhook-service\", \
             service_namespace = \"{}\")))]",
            project.name, project.namespace
        ),
    );
    let mut chain = String::new();
    let mut impls = String::new();
    for (version, _) in &spokes {
        let spoke = format!("{}{version}", n.group_prefix);
        chain.push_str(&format!(
            "\n        .version::<crate::api::{spoke}::{}>()",
            n.kind
        ));
        impls.push('\n');
        impls.push_str(&render(
            template!("webhook/conversion_impl.rs.tmpl"),
            &[("kind", n.kind.as_str()), ("spoke", spoke.as_str())],
        ));
    }
    let vars = [
        ("kind", n.kind.as_str()),
        ("version", n.version.as_str()),
        ("module", n.module.as_str()),
        ("spokes", chain.as_str()),
        ("impls", impls.trim_end()),
    ];
    let module = format!("{}_conversion", n.snake);
    let file = PathBuf::from(format!("src/webhook/{module}.rs"));
    changes.file(
        &file,
        render(template!("webhook/conversion.rs.tmpl"), &vars) + "\n",
    );
    register_module(changes, &module);
    changes.insert(
        "config/default/kustomization.yaml",
        "kubegen:scaffold:patches",
        &format!(
            "- path: cainjection_patch.yaml\n  target:\n    kind: CustomResourceDefinition\n    \
             name: {}.{}",
            n.plural, n.group
        ),
    );
    Ok(())
}

/// `mod <module>;` in the webhook server and its `register` called on the server.
fn register_module(changes: &mut Changes, module: &str) {
    changes.insert(
        "src/webhook/mod.rs",
        "kubegen:scaffold:webhook-modules",
        &format!("mod {module};"),
    );
    changes.insert(
        "src/webhook/mod.rs",
        "kubegen:scaffold:webhooks",
        &format!("let server = {module}::register(server);"),
    );
}
