//! Admission webhooks: `#[webhook]` attributes in, `config/webhook/manifests.yaml` out.
//!
//! Each `#[webhook(...)]` is one [`Webhook`] (parsed and checked by `parse::webhook` with the
//! `parse` feature). [`configurations`] groups them into the mutating and the validating
//! configuration as controller-gen does, and `to_k8s` (feature `k8s`) builds the
//! admissionregistration v1 objects. [`route`] is the one place a webhook's path is decided:
//! the manifests and the webhook server both ask it.

#[cfg(feature = "k8s")]
mod k8s;
mod model;
mod normalize;

#[cfg(feature = "k8s")]
pub use k8s::to_k8s;
pub use model::{
    Configuration, ConfigurationName, FailurePolicy, MatchPolicy, ReinvocationPolicy, SideEffects,
    Webhook, Word,
};
pub use normalize::configurations;

use crate::names::resource_plural;

/// The service name when `service_name` is not given.
pub const DEFAULT_SERVICE: &str = "webhook-service";
/// The service namespace when `service_namespace` is not given.
pub const DEFAULT_NAMESPACE: &str = "system";
/// The mutating configuration's name when no `#[webhook_configuration]` renames it.
pub const DEFAULT_MUTATING: &str = "mutating-webhook-configuration";
/// The validating configuration's name when no `#[webhook_configuration]` renames it.
pub const DEFAULT_VALIDATING: &str = "validating-webhook-configuration";
/// The operations a webhook rule takes, lowercase (any case is accepted).
pub const VERBS: &[&str] = &["create", "update", "delete", "connect", "*"];

/// The path the API server calls `webhook` on: its `path`, else (without `url`) the default
/// path of its first group, version and resource ([`default_path`]). `None` when it has a
/// `url`. The webhook server routes requests with this same function.
pub fn route(webhook: &Webhook) -> Option<String> {
    if let Some(path) = &webhook.path {
        return Some(path.clone());
    }
    if webhook.url.is_some() {
        return None;
    }
    let first = |l: &[String]| l.first().cloned().unwrap_or_default();
    let resource = first(&webhook.resources);
    let resource = resource.split('/').next().unwrap_or_default();
    Some(default_path(
        webhook.mutating,
        &first(&webhook.groups),
        &first(&webhook.versions),
        &singular(resource),
    ))
}

/// kubebuilder's webhook path: `/mutate-<group with dots as dashes>-<version>-<kind
/// lowercased>`, or `/validate-...`. The core group (`""` or `core`) is empty, as kubebuilder
/// writes it (`/mutate--v1-pod`).
pub fn default_path(mutating: bool, group: &str, version: &str, kind: &str) -> String {
    let verb = if mutating { "mutate" } else { "validate" };
    let group = if group == "core" { "" } else { group };
    format!(
        "/{verb}-{}-{version}-{}",
        group.replace('.', "-"),
        kind.to_lowercase()
    )
}

/// The lowercase kind a resource name is the plural of, by the engine's plural rules
/// (`cronjobs` → `cronjob`, `policies` → `policy`); the name itself when no rule gives it.
pub fn singular(resource: &str) -> String {
    let candidates = [
        resource.strip_suffix("ies").map(|s| format!("{s}y")),
        resource.strip_suffix("es").map(str::to_string),
        resource.strip_suffix('s').map(str::to_string),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|c| !c.is_empty() && resource_plural(c) == resource)
        .unwrap_or_else(|| resource.to_string())
}

/// Why `name` cannot name a webhook, if it cannot: webhook names are DNS subdomains of at
/// least three labels (`validate.cronjob.example.com`), as the API server requires.
pub fn name_problem(name: &str) -> Option<String> {
    if !crate::names::is_dns_subdomain(name) {
        return Some(
            "it must be a DNS subdomain: lowercase letters, digits, `-` and `.`, each label \
             starting and ending with a letter or digit"
                .into(),
        );
    }
    let labels = name.split('.').count();
    (labels < 3).then(|| {
        format!(
            "the API server requires a fully qualified name of at least three labels, such as \
             `validate.cronjob.example.com`; it has {labels}"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_paths_follow_kubebuilder() {
        assert_eq!(
            default_path(true, "testdata.kubebuilder.io", "v1", "CronJob"),
            "/mutate-testdata-kubebuilder-io-v1-cronjob"
        );
        assert_eq!(
            default_path(false, "core", "v1", "Pod"),
            "/validate--v1-pod"
        );
        assert_eq!(default_path(false, "", "v1", "Pod"), "/validate--v1-pod");
    }

    #[test]
    fn route_prefers_path_then_url_then_default() {
        let mut w = Webhook {
            groups: vec!["batch.io".into()],
            versions: vec!["v2".into()],
            resources: vec!["policies/status".into()],
            ..Webhook::default()
        };
        assert_eq!(route(&w).as_deref(), Some("/validate-batch-io-v2-policy"));
        w.url = Some("https://x".into());
        assert_eq!(route(&w), None);
        w.path = Some("/p".into());
        assert_eq!(route(&w).as_deref(), Some("/p"));
    }

    #[test]
    fn singular_inverts_the_plural_rules() {
        assert_eq!(singular("cronjobs"), "cronjob");
        assert_eq!(singular("policies"), "policy");
        assert_eq!(singular("statuses"), "status");
        assert_eq!(singular("cronjoblist"), "cronjoblist");
    }

    #[test]
    fn names_need_three_dns_labels() {
        assert_eq!(
            name_problem("validation.cronjob.testdata.kubebuilder.io"),
            None
        );
        assert!(name_problem("cronjob.io").unwrap().contains("it has 2"));
        assert!(
            name_problem("Bad.name.io")
                .unwrap()
                .contains("DNS subdomain")
        );
    }
}
