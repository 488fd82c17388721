//! What kube-controller-manager and the kubelets would do, done on request: a test control
//! plane runs neither, so a Deployment gets no status, the dependents of a deleted owner stay
//! and a deleted namespace is never emptied. Each function here does one of those jobs once,
//! as those controllers would, for the test that needs it.

use std::time::{Duration, Instant};

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Namespace;
use kube::api::{Api, DeleteParams, DynamicObject, ListParams, Patch, PatchParams, PostParams};
use kube::core::Resource;
use kube::discovery::{Discovery, Scope, verbs};
use serde::de::DeserializeOwned;
use serde_json::json;

use super::Error;
use super::crds::POLL;

/// How long a deleted namespace may take to be emptied (its objects' finalizers removed).
const EMPTIED_TIMEOUT: Duration = Duration::from_secs(30);

/// Writes the status a Deployment's controllers give it once every replica runs and is ready
/// (as the deployment and ReplicaSet controllers and the kubelets would): the observed
/// generation, every replica updated, ready and available, and the `Available` and
/// `Progressing` conditions. Returns the Deployment as stored.
pub(crate) async fn roll_out(
    client: &kube::Client,
    namespace: &str,
    name: &str,
) -> Result<Deployment, Error> {
    let api: Api<Deployment> = Api::namespaced(client.clone(), namespace);
    let deployment = api.get(name).await?;
    // Read as JSON: whether `spec` is an `Option` depends on the Kubernetes version chosen.
    let replicas = serde_json::to_value(&deployment)
        .ok()
        .and_then(|object| object["spec"]["replicas"].as_i64())
        .unwrap_or(1);
    let now = k8s_openapi::jiff::Timestamp::now().to_string();
    let condition = |type_: &str, reason: &str, message: String| {
        json!({
            "type": type_, "status": "True", "reason": reason, "message": message,
            "lastTransitionTime": now, "lastUpdateTime": now,
        })
    };
    let status = json!({"status": {
        "observedGeneration": deployment.metadata.generation,
        "replicas": replicas,
        "updatedReplicas": replicas,
        "readyReplicas": replicas,
        "availableReplicas": replicas,
        "conditions": [
            condition("Available", "MinimumReplicasAvailable",
                "Deployment has minimum availability.".into()),
            condition("Progressing", "NewReplicaSetAvailable",
                format!("ReplicaSet \"{name}\" has successfully progressed.")),
        ],
    }});
    Ok(api
        .patch_status(name, &PatchParams::default(), &Patch::Merge(&status))
        .await?)
}

/// What the garbage collector does once the owner whose uid is `owner_uid` is gone, to the
/// objects `api` lists: each whose only owner it was is deleted (in the background, as the
/// default propagation), and each with other owners loses the reference. Returns the names
/// of the deleted objects.
pub(crate) async fn collect_garbage<K>(api: &Api<K>, owner_uid: &str) -> Result<Vec<String>, Error>
where
    K: Resource + Clone + DeserializeOwned + std::fmt::Debug,
{
    let mut deleted = Vec::new();
    for object in api.list(&ListParams::default()).await? {
        let meta = object.meta();
        let owners = meta.owner_references.as_deref().unwrap_or_default();
        if !owners.iter().any(|owner| owner.uid == owner_uid) {
            continue;
        }
        let name = meta.name.clone().unwrap_or_default();
        let others: Vec<_> = owners.iter().filter(|o| o.uid != owner_uid).collect();
        if others.is_empty() {
            api.delete(&name, &DeleteParams::background()).await?;
            deleted.push(name);
        } else {
            let patch = json!({"metadata": {"ownerReferences": others}});
            api.patch_metadata(&name, &PatchParams::default(), &Patch::Merge(&patch))
                .await?;
        }
    }
    Ok(deleted)
}

/// Deletes the namespace as the namespace controller does: every object of every namespaced
/// resource in it is deleted, and once none is left (objects with finalizers stay until their
/// controllers remove them) the namespace is finalized and gone. An error names what is still
/// there when that does not happen in time.
pub(crate) async fn delete_namespace(client: &kube::Client, name: &str) -> Result<(), Error> {
    let namespaces: Api<Namespace> = Api::all(client.clone());
    namespaces.delete(name, &DeleteParams::default()).await?;
    let discovery = Discovery::new(client.clone()).run().await?;
    // Each namespaced resource that can be deleted as a collection, with its kind's name.
    let apis: Vec<(String, Api<DynamicObject>)> = discovery
        .groups()
        .flat_map(|group| group.recommended_resources())
        .filter(|(_, caps)| {
            caps.scope == Scope::Namespaced && caps.supports_operation(verbs::DELETE_COLLECTION)
        })
        .map(|(resource, _)| {
            let api = Api::namespaced_with(client.clone(), name, &resource);
            (resource.kind, api)
        })
        .collect();
    for (_, api) in &apis {
        api.delete_collection(&DeleteParams::background(), &ListParams::default())
            .await?;
    }
    let start = Instant::now();
    loop {
        let mut left = Vec::new();
        for (kind, api) in &apis {
            for object in api.list(&ListParams::default()).await? {
                left.push(format!(
                    "{kind}/{} (finalizers: {:?})",
                    object.metadata.name.unwrap_or_default(),
                    object.metadata.finalizers.unwrap_or_default()
                ));
            }
        }
        if left.is_empty() {
            break;
        }
        if start.elapsed() > EMPTIED_TIMEOUT {
            return Err(Error::Timeout {
                what: format!("namespace {name} to be emptied"),
                waited: start.elapsed(),
                last: format!("still there: {}", left.join(", ")),
            });
        }
        tokio::time::sleep(POLL).await;
    }
    let finalized = json!({
        "apiVersion": "v1", "kind": "Namespace",
        "metadata": {"name": name},
        "spec": {"finalizers": []},
    });
    namespaces
        .replace_subresource("finalize", name, &PostParams::default(), &finalized)
        .await?;
    Ok(())
}

/// The `#[rbac(...)]` attribute that would have allowed a request the API server refused
/// with 403 Forbidden: its message names the verb, the resource (with its subresource) and
/// the API group. `None` for any other error.
///
/// ```
/// let status = kube::core::Status::failure(
///     "memcacheds.cache.example.com \"a\" is forbidden: User \"system:serviceaccount:ns:op\" \
///      cannot get resource \"memcacheds\" in API group \"cache.example.com\" in the namespace \"ns\"",
///     "Forbidden",
/// )
/// .with_code(403);
/// assert_eq!(
///     kubegen::testing::missing_rbac(&kube::Error::Api(Box::new(status))).as_deref(),
///     Some(r#"#[rbac(groups = "cache.example.com", resources = "memcacheds", verbs = "get")]"#),
/// );
/// ```
pub fn missing_rbac(error: &kube::Error) -> Option<String> {
    let kube::Error::Api(status) = error else {
        return None;
    };
    if status.code != 403 {
        return None;
    }
    let refused = status.message.split_once(" cannot ")?.1;
    let (verb, rest) = refused.split_once(' ')?;
    let quoted = |text: &str, after: &str| -> Option<String> {
        let value = text.split_once(after)?.1.strip_prefix('"')?;
        Some(value.split_once('"')?.0.to_string())
    };
    let resource = quoted(rest, "resource ")?;
    let group = quoted(rest, " in API group ")?;
    Some(format!(
        "#[rbac(groups = \"{group}\", resources = \"{resource}\", verbs = \"{verb}\")]"
    ))
}

#[cfg(test)]
mod tests {
    use super::missing_rbac;

    fn forbidden(message: &str) -> kube::Error {
        let status = kube::core::Status::failure(message, "Forbidden").with_code(403);
        kube::Error::Api(Box::new(status))
    }

    #[test]
    fn a_refusal_names_the_rule_that_would_allow_it() {
        let cases = [
            (
                "secrets is forbidden: User \"system:serviceaccount:t:op\" cannot list resource \
                 \"secrets\" in API group \"\" in the namespace \"t\"",
                r#"#[rbac(groups = "", resources = "secrets", verbs = "list")]"#,
            ),
            (
                "memcacheds.cache.example.com \"a\" is forbidden: User \"u\" cannot patch \
                 resource \"memcacheds/status\" in API group \"cache.example.com\" in the \
                 namespace \"t\"",
                r#"#[rbac(groups = "cache.example.com", resources = "memcacheds/status", verbs = "patch")]"#,
            ),
            (
                "nodes is forbidden: User \"u\" cannot watch resource \"nodes\" in API group \"\" \
                 at the cluster scope",
                r#"#[rbac(groups = "", resources = "nodes", verbs = "watch")]"#,
            ),
        ];
        for (message, rule) in cases {
            assert_eq!(missing_rbac(&forbidden(message)).as_deref(), Some(rule));
        }
    }

    #[test]
    fn other_errors_name_no_rule() {
        let not_found =
            kube::core::Status::failure("pods \"a\" not found", "NotFound").with_code(404);
        assert_eq!(missing_rbac(&kube::Error::Api(Box::new(not_found))), None);
        assert_eq!(missing_rbac(&forbidden("forbidden: no reason given")), None);
    }
}
