//! The generated roles as Kubernetes objects (k8s-openapi types).

use k8s_openapi::api::rbac::v1 as rbac;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::Value;

use super::{PolicyRule, Role};

/// `roles` as `ClusterRole` and `Role` objects, serialized in order. k8s-openapi writes
/// `apiVersion` and `kind` itself and leaves out unset fields; empty lists are left unset,
/// as controller-gen leaves them out.
pub fn to_k8s(roles: &[Role]) -> Vec<Value> {
    roles
        .iter()
        .map(|role| {
            let metadata = ObjectMeta {
                name: Some(role.name.clone()),
                namespace: role.namespace.clone(),
                ..ObjectMeta::default()
            };
            let rules = Some(role.rules.iter().map(policy_rule).collect());
            let value = match role.namespace {
                None => serde_json::to_value(rbac::ClusterRole {
                    metadata,
                    rules,
                    ..rbac::ClusterRole::default()
                }),
                Some(_) => serde_json::to_value(rbac::Role { metadata, rules }),
            };
            value.expect("RBAC objects serialize to JSON")
        })
        .collect()
}

fn policy_rule(rule: &PolicyRule) -> rbac::PolicyRule {
    let list = |l: &Vec<String>| (!l.is_empty()).then(|| l.clone());
    rbac::PolicyRule {
        api_groups: list(&rule.api_groups),
        non_resource_urls: list(&rule.non_resource_urls),
        resource_names: list(&rule.resource_names),
        resources: list(&rule.resources),
        verbs: rule.verbs.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rbac::{RbacRule, roles};
    use serde_json::json;

    #[test]
    fn objects_carry_type_and_omit_empty_lists() {
        let strings = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
        let rules = [
            RbacRule {
                urls: strings(&["/metrics"]),
                verbs: strings(&["get"]),
                ..RbacRule::default()
            },
            RbacRule {
                groups: strings(&["apps"]),
                resources: strings(&["deployments"]),
                verbs: strings(&["get"]),
                namespace: Some("ns".into()),
                ..RbacRule::default()
            },
        ];
        assert_eq!(
            to_k8s(&roles(&rules, "manager-role")),
            [
                json!({
                    "apiVersion": "rbac.authorization.k8s.io/v1",
                    "kind": "ClusterRole",
                    "metadata": {"name": "manager-role"},
                    "rules": [{"nonResourceURLs": ["/metrics"], "verbs": ["get"]}],
                }),
                json!({
                    "apiVersion": "rbac.authorization.k8s.io/v1",
                    "kind": "Role",
                    "metadata": {"name": "manager-role", "namespace": "ns"},
                    "rules": [{"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["get"]}],
                }),
            ]
        );
    }
}
