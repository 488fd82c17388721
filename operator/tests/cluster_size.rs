//! kubegen's size guard against a real API server: what client-side `kubectl apply` sends (the
//! CRD with its `last-applied-configuration` annotation holding the CRD's JSON) is accepted up
//! to the byte where the guard starts warning and refused from there, and the cronjob fixture's
//! CRD, which the guard warns about, is refused that way but accepted without the annotation
//! (as server-side apply sends it). Server-side dry runs: nothing is stored.
//!
//! ```sh
//! KUBEBUILDER_ASSETS=/path/to/bin cargo test -p memcached-operator --test cluster_size -- --ignored
//! ```

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::Api;
use kube::Client;
use kube::api::PostParams;
use kubegen::testing::ControlPlane;
use kubegen_core::crd::size;
use serde_json::{Value, json};

/// The CRD as client-side `kubectl apply` sends it: its JSON as Go writes it (`<`, `>`, `&`
/// escaped) and a newline, in the last-applied annotation.
fn as_kubectl_applies(crd: &Value) -> Value {
    let json = serde_json::to_string(crd)
        .unwrap()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    let mut applied = crd.clone();
    applied["metadata"]["annotations"][size::LAST_APPLIED] = Value::String(json + "\n");
    applied
}

/// The API server's verdict on creating `crd` (a dry run).
async fn create(client: &Client, crd: &Value) -> Result<(), String> {
    let api: Api<CustomResourceDefinition> = Api::all(client.clone());
    let crd: CustomResourceDefinition = serde_json::from_value(crd.clone()).unwrap();
    let dry_run = PostParams {
        dry_run: true,
        ..PostParams::default()
    };
    api.create(&dry_run, &crd)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// A CRD of its own group whose one field has a description of `n` bytes (`<` and `&` in it,
/// which Go's JSON escapes).
fn crd_with_description(n: usize) -> Value {
    let description: String = "a<b&".chars().cycle().take(n).collect();
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {
            "name": "edges.size-guard.kubegen.io",
            "annotations": {"kubegen.io/version": "0.1.0"},
        },
        "spec": {
            "group": "size-guard.kubegen.io",
            "names": {"kind": "Edge", "listKind": "EdgeList", "plural": "edges", "singular": "edge"},
            "scope": "Cluster",
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {
                        "a": {"type": "string", "description": description},
                    }},
                }}},
            }],
        },
    })
}

#[tokio::test]
#[ignore = "needs a control plane: KUBEBUILDER_ASSETS (etcd, kube-apiserver), or USE_EXISTING_CLUSTER=true"]
async fn the_guards_annotation_limit_is_the_api_servers() {
    let client = ControlPlane::shared()
        .await
        .unwrap_or_else(|e| panic!("no control plane: {e}"))
        .client();
    // The longest description the guard lets through without a warning.
    let fits_guard =
        |n| size::measure(&crd_with_description(n)).annotations <= size::ANNOTATIONS_LIMIT;
    let (mut n, mut over) = (0, size::ANNOTATIONS_LIMIT);
    while over - n > 1 {
        let mid = (n + over) / 2;
        if fits_guard(mid) { n = mid } else { over = mid }
    }
    let fits = crd_with_description(n);
    let over = crd_with_description(n + 1);
    assert_eq!(size::check(&fits, None, ""), Ok(None));
    assert!(
        size::check(&over, None, "").unwrap().is_some(),
        "the guard warns"
    );
    create(&client, &as_kubectl_applies(&fits))
        .await
        .unwrap_or_else(|e| panic!("{n} bytes of description: {e}"));
    let refused = create(&client, &as_kubectl_applies(&over))
        .await
        .expect_err("one byte more is refused");
    assert!(
        refused.contains("metadata.annotations: Too long"),
        "{refused}"
    );
    create(&client, &over).await.unwrap();
}

#[tokio::test]
#[ignore = "needs a control plane: KUBEBUILDER_ASSETS (etcd, kube-apiserver), or USE_EXISTING_CLUSTER=true"]
async fn the_cronjob_fixtures_crd_needs_server_side_apply() {
    let client = ControlPlane::shared()
        .await
        .unwrap_or_else(|e| panic!("no control plane: {e}"))
        .client();
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/cronjob/config/crd/bases/testdata.kubebuilder.io_cronjobs.yaml"
    );
    let mut crd: Value = serde_saphyr::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    assert!(
        size::check(&crd, None, "").unwrap().is_some(),
        "the guard warns"
    );
    // Its own group, so that a CRD of the fixture's in the cluster does not matter.
    crd["spec"]["group"] = json!("size-guard.kubegen.io");
    crd["metadata"]["name"] = json!("cronjobs.size-guard.kubegen.io");
    let refused = create(&client, &as_kubectl_applies(&crd))
        .await
        .expect_err("client-side apply is refused");
    assert!(
        refused.contains("metadata.annotations: Too long"),
        "{refused}"
    );
    create(&client, &crd).await.unwrap();
}
