//! The configurations as Kubernetes objects (k8s-openapi admissionregistration v1 types).

use k8s_openapi::api::admissionregistration::v1 as ar;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::Value;

use super::{Configuration, DEFAULT_NAMESPACE, DEFAULT_SERVICE, Webhook, Word, route};

/// Each configuration as a `MutatingWebhookConfiguration` or `ValidatingWebhookConfiguration`,
/// in order, with every webhook's `patch` merged into its entry.
pub fn to_k8s(configs: &[Configuration]) -> Vec<Value> {
    configs
        .iter()
        .map(|c| {
            let metadata = ObjectMeta {
                name: Some(c.name.clone()),
                ..ObjectMeta::default()
            };
            let mut value = if c.mutating {
                let webhooks = c.webhooks.iter().map(mutating).collect();
                serde_json::to_value(ar::MutatingWebhookConfiguration {
                    metadata,
                    webhooks: Some(webhooks),
                })
            } else {
                let webhooks = c.webhooks.iter().map(validating).collect();
                serde_json::to_value(ar::ValidatingWebhookConfiguration {
                    metadata,
                    webhooks: Some(webhooks),
                })
            }
            .expect("webhook configurations serialize to JSON");
            if let Some(entries) = value.get_mut("webhooks").and_then(Value::as_array_mut) {
                for (entry, webhook) in entries.iter_mut().zip(&c.webhooks) {
                    if let Some(patch) = &webhook.patch {
                        merge(entry, patch);
                    }
                }
            }
            value
        })
        .collect()
}

/// JSON merge patch (RFC 7396): objects merge key by key, `null` removes a key, anything else
/// replaces. controller-gen applies a strategic merge patch, which differs only for lists it
/// merges by key (`matchConditions`, `rules`): here a patched list replaces the generated one.
pub fn merge(target: &mut Value, patch: &Value) {
    match (target, patch) {
        (Value::Object(target), Value::Object(patch)) => {
            for (key, value) in patch {
                if value.is_null() {
                    target.remove(key);
                } else {
                    merge(target.entry(key.clone()).or_insert(Value::Null), value);
                }
            }
        }
        (target, patch) => *target = patch.clone(),
    }
}

fn mutating(w: &Webhook) -> ar::MutatingWebhook {
    ar::MutatingWebhook {
        admission_review_versions: w.admission_review_versions.clone(),
        client_config: client_config(w),
        failure_policy: Some(word(w.failure_policy)),
        match_policy: w.match_policy.map(word),
        name: w.name.clone(),
        reinvocation_policy: w.reinvocation_policy.map(word),
        rules: Some(vec![rule(w)]),
        side_effects: word(w.side_effects),
        timeout_seconds: w.timeout_seconds,
        ..ar::MutatingWebhook::default()
    }
}

fn validating(w: &Webhook) -> ar::ValidatingWebhook {
    ar::ValidatingWebhook {
        admission_review_versions: w.admission_review_versions.clone(),
        client_config: client_config(w),
        failure_policy: Some(word(w.failure_policy)),
        match_policy: w.match_policy.map(word),
        name: w.name.clone(),
        rules: Some(vec![rule(w)]),
        side_effects: word(w.side_effects),
        timeout_seconds: w.timeout_seconds,
        ..ar::ValidatingWebhook::default()
    }
}

/// A policy as the object's string field holds it.
fn word(w: impl Word) -> String {
    w.as_str().to_string()
}

/// The service (with the path from [`route`]) or the URL.
fn client_config(w: &Webhook) -> ar::WebhookClientConfig {
    match route(w) {
        Some(path) => ar::WebhookClientConfig {
            service: Some(ar::ServiceReference {
                name: w.service_name.clone().unwrap_or(DEFAULT_SERVICE.into()),
                namespace: w
                    .service_namespace
                    .clone()
                    .unwrap_or(DEFAULT_NAMESPACE.into()),
                path: Some(path),
                port: w.service_port,
            }),
            ..ar::WebhookClientConfig::default()
        },
        None => ar::WebhookClientConfig {
            url: w.url.clone(),
            ..ar::WebhookClientConfig::default()
        },
    }
}

/// The one rule: groups (`core` as `""`), versions, resources and upper-case operations.
fn rule(w: &Webhook) -> ar::RuleWithOperations {
    let groups = w
        .groups
        .iter()
        .map(|g| {
            if g == "core" {
                String::new()
            } else {
                g.clone()
            }
        })
        .collect();
    let operations = w
        .verbs
        .iter()
        .map(|v| match v.to_lowercase().as_str() {
            known @ ("create" | "update" | "delete" | "connect" | "*") => known.to_uppercase(),
            _ => v.clone(),
        })
        .collect();
    ar::RuleWithOperations {
        api_groups: Some(groups),
        api_versions: Some(w.versions.clone()),
        operations: Some(operations),
        resources: Some(w.resources.clone()),
        scope: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webhook::{FailurePolicy, SideEffects, configurations};
    use serde_json::json;

    #[test]
    fn entries_carry_defaults_patch_and_core_group() {
        let hook = Webhook {
            mutating: true,
            failure_policy: FailurePolicy::Fail,
            side_effects: SideEffects::None,
            groups: vec!["core".into()],
            resources: vec!["pods".into()],
            verbs: vec!["Create".into(), "*".into()],
            versions: vec!["v1".into()],
            name: "m.pods.example.com".into(),
            service_port: Some(8443),
            admission_review_versions: vec!["v1".into()],
            patch: Some(
                json!({"objectSelector": {"matchLabels": {"a": "b"}}, "failurePolicy": null}),
            ),
            ..Webhook::default()
        };
        let objects = to_k8s(&configurations(&[hook], &[]).unwrap());
        assert_eq!(
            objects,
            [json!({
                "apiVersion": "admissionregistration.k8s.io/v1",
                "kind": "MutatingWebhookConfiguration",
                "metadata": {"name": "mutating-webhook-configuration"},
                "webhooks": [{
                    "admissionReviewVersions": ["v1"],
                    "clientConfig": {"service": {
                        "name": "webhook-service", "namespace": "system",
                        "path": "/mutate--v1-pod", "port": 8443,
                    }},
                    "name": "m.pods.example.com",
                    "objectSelector": {"matchLabels": {"a": "b"}},
                    "rules": [{
                        "apiGroups": [""], "apiVersions": ["v1"],
                        "operations": ["CREATE", "*"], "resources": ["pods"],
                    }],
                    "sideEffects": "None",
                }],
            })]
        );
    }
}
