//! The Deployment a `Memcached` owns: what it should look like, and the calls that read, apply
//! and delete it.

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::{Deployment, DeploymentSpec};
use k8s_openapi::api::core::v1::{
    Capabilities, Container, ContainerPort, PodSecurityContext, PodSpec, PodTemplateSpec,
    SeccompProfile, SecurityContext,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use kube::api::{DeleteParams, Patch, PatchParams, Preconditions};
use kube::{Api, Resource, ResourceExt};
use kubegen::rbac;

use super::{Error, MANAGER};
use crate::api::v1alpha1::Memcached;

/// The label naming the application (`memcached`).
pub const NAME_LABEL: &str = "app.kubernetes.io/name";
/// The label naming the `Memcached` object a Deployment and its pods belong to.
pub const INSTANCE_LABEL: &str = "app.kubernetes.io/instance";
/// The label naming the operator; the Deployment watch only sees objects carrying it.
pub const MANAGED_BY_LABEL: &str = "app.kubernetes.io/managed-by";

/// The label selector of the Deployments the operator manages (its watch filter).
pub fn managed_by_selector() -> String {
    format!("{MANAGED_BY_LABEL}={MANAGER}")
}

/// The labels that select the pods of `mc` (the Deployment's selector and the pod labels).
pub fn selector_labels(mc: &Memcached) -> BTreeMap<String, String> {
    BTreeMap::from([
        (NAME_LABEL.to_string(), "memcached".to_string()),
        (INSTANCE_LABEL.to_string(), mc.name_any()),
    ])
}

/// The pod selector of `mc` as a string, as the scale subresource reports it.
pub fn selector_string(mc: &Memcached) -> String {
    let labels = selector_labels(mc);
    labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The Deployment `mc` asks for: `size` replicas of the memcached container, labelled, and
/// controlled by `mc` (an owner reference with `controller: true`).
pub fn desired(mc: &Memcached) -> Result<Deployment, Error> {
    let owner = mc
        .controller_owner_ref(&())
        .ok_or(Error::MissingField("metadata.uid"))?;
    let mut labels = selector_labels(mc);
    labels.insert(MANAGED_BY_LABEL.to_string(), MANAGER.to_string());
    let container = Container {
        name: "memcached".to_string(),
        image: Some(mc.spec.image.clone()),
        command: Some(
            ["memcached", "--memory-limit=64", "-o", "modern", "-v"]
                .map(String::from)
                .to_vec(),
        ),
        ports: Some(vec![ContainerPort {
            name: Some("memcached".to_string()),
            container_port: mc.spec.container_port,
            protocol: Some("TCP".to_string()),
            ..ContainerPort::default()
        }]),
        resources: mc.spec.resources.clone(),
        security_context: Some(SecurityContext {
            run_as_non_root: Some(true),
            run_as_user: Some(1001),
            allow_privilege_escalation: Some(false),
            capabilities: Some(Capabilities {
                drop: Some(vec!["ALL".to_string()]),
                ..Capabilities::default()
            }),
            ..SecurityContext::default()
        }),
        ..Container::default()
    };
    Ok(Deployment {
        metadata: ObjectMeta {
            name: Some(mc.name_any()),
            namespace: mc.namespace(),
            labels: Some(labels),
            owner_references: Some(vec![owner]),
            ..ObjectMeta::default()
        },
        spec: DeploymentSpec {
            replicas: Some(mc.spec.size),
            selector: LabelSelector {
                match_labels: Some(selector_labels(mc)),
                ..LabelSelector::default()
            },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta {
                    labels: Some(selector_labels(mc)),
                    ..ObjectMeta::default()
                }),
                spec: Some(PodSpec {
                    containers: vec![container],
                    security_context: Some(PodSecurityContext {
                        run_as_non_root: Some(true),
                        seccomp_profile: Some(SeccompProfile {
                            type_: "RuntimeDefault".to_string(),
                            ..SeccompProfile::default()
                        }),
                        ..PodSecurityContext::default()
                    }),
                    ..PodSpec::default()
                }),
            },
            ..DeploymentSpec::default()
        },
        status: None,
    })
}

/// Whether `deployment` is controlled by `mc` (its controller owner reference has `mc`'s uid).
pub fn is_controlled_by(deployment: &Deployment, mc: &Memcached) -> bool {
    let uid = mc.uid();
    deployment
        .owner_references()
        .iter()
        .any(|o| o.controller == Some(true) && Some(&o.uid) == uid.as_ref())
}

/// The replicas a Deployment asks for (the apiserver defaults a missing value to 1).
pub fn spec_replicas(deployment: &Deployment) -> i32 {
    deployment.spec.replicas.unwrap_or(1)
}

/// Reads the Deployment `name`, if it exists.
#[rbac(groups = "apps", resources = "deployments", verbs = "get")]
pub async fn get(api: &Api<Deployment>, name: &str) -> Result<Option<Deployment>, Error> {
    Ok(api.get_opt(name).await?)
}

/// Server-side applies the Deployment `mc` asks for (creating it if needed: that takes `create`
/// as well as `patch`) and returns it as stored. The owner reference does not set
/// `blockOwnerDeletion`, so no `update` on `memcacheds/finalizers` is needed (the finalizer
/// deletes the Deployment itself).
#[rbac(groups = "apps", resources = "deployments", verbs = "create;patch")]
pub async fn apply(api: &Api<Deployment>, mc: &Memcached) -> Result<Deployment, Error> {
    let deployment = desired(mc)?;
    let params = PatchParams::apply(MANAGER).force();
    Ok(api
        .patch(&mc.name_any(), &params, &Patch::Apply(&deployment))
        .await?)
}

/// Deletes `deployment` (only that object: the uid is a precondition), not waiting for the
/// garbage collector: the pods follow through their own owner references. A Deployment that
/// is already gone is fine.
#[rbac(groups = "apps", resources = "deployments", verbs = "delete")]
pub async fn delete(api: &Api<Deployment>, deployment: &Deployment) -> Result<(), Error> {
    let params = DeleteParams {
        preconditions: Some(Preconditions {
            uid: deployment.uid(),
            resource_version: None,
        }),
        ..DeleteParams::background()
    };
    match api.delete(&deployment.name_any(), &params).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(status)) if status.is_not_found() => Ok(()),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::v1alpha1::MemcachedSpec;

    fn memcached() -> Memcached {
        let mut mc = Memcached::new(
            "cache",
            MemcachedSpec {
                size: 3,
                container_port: 11211,
                image: "memcached:1.6".into(),
                resources: None,
            },
        );
        mc.metadata.namespace = Some("ns".into());
        mc.metadata.uid = Some("uid-1".into());
        mc
    }

    #[test]
    fn desired_deployment_follows_the_spec() {
        let mc = memcached();
        let d = desired(&mc).unwrap();
        let spec = &d.spec;
        assert_eq!(spec.replicas, Some(3));
        assert_eq!(
            spec.selector.match_labels.as_ref(),
            Some(&selector_labels(&mc))
        );
        let pod = spec.template.spec.as_ref().unwrap();
        assert_eq!(
            pod.containers[0].ports.as_ref().unwrap()[0].container_port,
            11211
        );
        assert_eq!(pod.containers[0].image.as_deref(), Some("memcached:1.6"));
        let owner = &d.metadata.owner_references.as_ref().unwrap()[0];
        assert_eq!(
            (owner.kind.as_str(), owner.uid.as_str(), owner.controller),
            ("Memcached", "uid-1", Some(true))
        );
        assert!(is_controlled_by(&d, &mc));
        assert_eq!(
            selector_string(&mc),
            "app.kubernetes.io/instance=cache,app.kubernetes.io/name=memcached"
        );
    }

    #[test]
    fn desired_needs_a_uid() {
        let mut mc = memcached();
        mc.metadata.uid = None;
        assert!(matches!(desired(&mc), Err(Error::MissingField(_))));
    }
}
