//! Server-side apply with apply configurations against a real API server
//! (`kubegen::testing`'s):
//!
//! ```sh
//! KUBEBUILDER_ASSETS=/path/to/bin cargo test -p kubegen-rs --features apply,testing --test apply_cluster -- --ignored
//! ```
//!
//! It installs the CRD of `ApplyProbe` (group `apply.kubegen.example.com`), works in a fresh
//! namespace, and deletes both at the end. Two field managers each apply their own fields of
//! one object; conflicts, `force`, `extract` and status applies are checked against what the
//! API server answers.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{DeleteParams, Patch, PatchParams};
use kube::{Api, CustomResourceExt};
use kubegen::testing::ControlPlane;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default)]
#[kube_marker(
    group = "apply.kubegen.example.com",
    version = "v1",
    kind = "ApplyProbe"
)]
#[kube_marker(status = "ApplyProbeStatus")]
#[serde(rename_all = "camelCase")]
pub struct ApplyProbeSpec {
    pub replicas: Option<i32>,
    pub image: Option<String>,
    #[kube_marker(list_type = "map", list_map_keys = "name")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<Port>,
    /// Atomic (the default for lists): one manager owns the whole list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Granular (the default for maps): each key has its own owner.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[kube_marker(map_type = "atomic")]
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub selector: BTreeMap<String, String>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Port {
    pub name: String,
    pub container_port: Option<i32>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub struct ApplyProbeStatus {
    pub ready_replicas: Option<i32>,
    pub phase: Option<String>,
}

const NAME: &str = "probe";

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn port(name: &str, container_port: i32) -> PortApply {
    PortApply::default()
        .with_name(name)
        .with_container_port(container_port)
}

async fn apply(
    api: &Api<ApplyProbe>,
    manager: &str,
    force: bool,
    spec: ApplyProbeSpecApply,
) -> kube::Result<ApplyProbe> {
    let mut params = PatchParams::apply(manager);
    params.force = force;
    let cfg = ApplyProbeApply::new(NAME).with_spec(spec);
    api.patch(NAME, &params, &Patch::Apply(&cfg)).await
}

/// The manager named in a 409 conflict, or a failure.
fn conflict(result: kube::Result<ApplyProbe>) -> String {
    match result {
        Err(kube::Error::Api(status)) if status.code == 409 => status.message,
        other => panic!("expected a 409 conflict, got {other:?}"),
    }
}

#[tokio::test]
#[ignore = "needs a control plane: KUBEBUILDER_ASSETS (etcd, kube-apiserver), or USE_EXISTING_CLUSTER=true"]
async fn two_managers_own_their_own_fields() {
    // ANCHOR: control_plane
    let control_plane = ControlPlane::shared()
        .await
        .unwrap_or_else(|e| panic!("no control plane: {e}"));
    let client = control_plane.client();
    control_plane
        .install_crds(&[ApplyProbe::crd()])
        .await
        .expect("the CRD is installed");
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let ns = control_plane
        .namespace("kubegen-apply")
        .await
        .expect("a fresh namespace");
    let api: Api<ApplyProbe> = Api::namespaced(client.clone(), &ns);
    // ANCHOR_END: control_plane

    // In a task, so that a failed assertion still cleans up below.
    let result = tokio::spawn(async move { scenario(&api).await }).await;

    namespaces.delete(&ns, &DeleteParams::default()).await.ok();
    let crds: Api<CustomResourceDefinition> = Api::all(client);
    crds.delete(ApplyProbe::crd_name(), &DeleteParams::default())
        .await
        .ok();
    match result {
        Ok(outcome) => outcome.unwrap(),
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    }
}

async fn scenario(api: &Api<ApplyProbe>) -> Result<(), String> {
    // Alice and Bob each apply their own fields; neither removes the other's.
    let alice = ApplyProbeSpecApply::default()
        .with_replicas(1)
        .with_ports(vec![port("http", 80)])
        .with_args(vec!["--alice".to_string()])
        .with_labels(labels(&[("alice", "a")]))
        .with_selector(labels(&[("app", "probe")]));
    apply(api, "alice", false, alice.clone())
        .await
        .map_err(|e| e.to_string())?;
    let bob = ApplyProbeSpecApply::default()
        .with_image("nginx")
        .with_ports(vec![port("metrics", 9090)])
        .with_labels(labels(&[("bob", "b")]));
    apply(api, "bob", false, bob.clone())
        .await
        .map_err(|e| e.to_string())?;
    // Alice applies the same again: Bob's fields stay.
    let obj = apply(api, "alice", false, alice.clone())
        .await
        .map_err(|e| e.to_string())?;
    let spec = &obj.spec;
    assert_eq!(spec.replicas, Some(1));
    assert_eq!(spec.image.as_deref(), Some("nginx"));
    let names: Vec<&str> = spec.ports.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["http", "metrics"]);
    assert_eq!(spec.labels, labels(&[("alice", "a"), ("bob", "b")]));

    // `extract` gives exactly each manager's fields.
    let extracted = ApplyProbeApply::extract(&obj, "alice").map_err(|e| e.to_string())?;
    assert_eq!(extracted.spec, Some(alice.clone()));
    assert_eq!(extracted.metadata.name.as_deref(), Some(NAME));
    assert_eq!(
        ApplyProbeApply::extract(&obj, "bob")
            .map_err(|e| e.to_string())?
            .spec,
        Some(bob.clone())
    );

    // Changing a field another manager owns is a conflict naming that manager.
    let take_replicas = ApplyProbeSpecApply::default().with_replicas(3);
    let message = conflict(apply(api, "bob", false, take_replicas.clone()).await);
    assert!(message.contains("conflict with \"alice\""), "{message}");
    assert!(message.contains(".spec.replicas"), "{message}");
    // An atomic list and an atomic map are one field each: changing them conflicts too.
    let args = ApplyProbeSpecApply::default().with_args(vec!["--bob".to_string()]);
    let message = conflict(apply(api, "bob", false, args).await);
    assert!(
        message.contains("conflict with \"alice\"") && message.contains(".spec.args"),
        "{message}"
    );
    let selector = ApplyProbeSpecApply::default().with_selector(labels(&[("app", "other")]));
    let message = conflict(apply(api, "bob", false, selector).await);
    assert!(message.contains(".spec.selector"), "{message}");
    // A granular map: a new key of Bob's is no conflict.
    let bob = bob.with_labels(labels(&[("bob", "b"), ("bob2", "c")]));
    apply(api, "bob", false, bob.clone())
        .await
        .map_err(|e| e.to_string())?;

    // With force, Bob takes `replicas` over; Alice no longer owns it.
    let bob = bob.with_replicas(3);
    let obj = apply(api, "bob", true, bob.clone())
        .await
        .map_err(|e| e.to_string())?;
    assert_eq!(obj.spec.replicas, Some(3));
    let alice_now = ApplyProbeApply::extract(&obj, "alice").map_err(|e| e.to_string())?;
    let mut alice_without_replicas = alice.clone();
    alice_without_replicas.replicas = None;
    assert_eq!(alice_now.spec, Some(alice_without_replicas));
    assert_eq!(
        ApplyProbeApply::extract(&obj, "bob")
            .map_err(|e| e.to_string())?
            .spec,
        Some(bob)
    );

    // A list map item without its key is refused before any request is sent.
    let keyless = ApplyProbeSpecApply::default()
        .with_ports(vec![PortApply::default().with_container_port(1)]);
    match apply(api, "alice", false, keyless).await {
        // Serializing the body failed: the request was never built.
        Err(kube::Error::BuildRequest(e)) => {
            assert!(e.to_string().contains("has no `name`"), "{e}")
        }
        other => panic!("expected a serialization error, got {other:?}"),
    }

    // A status apply leaves the spec untouched, and its manager owns only the status fields.
    let status = ApplyProbeApply::new(NAME)
        .with_status(ApplyProbeStatusApply::default().with_ready_replicas(2));
    let after = api
        .patch_status(
            NAME,
            &PatchParams::apply("status-writer"),
            &Patch::Apply(&status),
        )
        .await
        .map_err(|e| e.to_string())?;
    assert_eq!(
        serde_json::to_value(&after.spec).unwrap(),
        serde_json::to_value(&obj.spec).unwrap()
    );
    assert_eq!(
        after.status.as_ref().and_then(|s| s.ready_replicas),
        Some(2)
    );
    let owned =
        ApplyProbeApply::extract_status(&after, "status-writer").map_err(|e| e.to_string())?;
    assert_eq!(owned.status, status.status);
    assert_eq!(owned.spec, None);
    // The status writer owns nothing of the main resource.
    assert_eq!(
        ApplyProbeApply::extract(&after, "status-writer")
            .map_err(|e| e.to_string())?
            .spec,
        None
    );
    Ok(())
}
