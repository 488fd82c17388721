//! The operator's webhooks as the API server calls them: `AdmissionReview` and
//! `ConversionReview` requests over HTTP to the server's routes (no TLS here;
//! `cluster_webhooks.rs` has a real API server call them over TLS), and the paths of the
//! generated manifests and CRD served.

mod config_files;

use std::collections::BTreeSet;

use base64::Engine as _;
use http::{Request, StatusCode};
use http_body_util::BodyExt;
use memcached_operator::api::DEFAULT_IMAGE;
use memcached_operator::webhook;
use serde_json::{Value, json};
use tower::ServiceExt;

use config_files::documents;

const MUTATE: &str = "/mutate-cache-example-com-v1beta1-memcached";
const VALIDATE: &str = "/validate-cache-example-com-v1beta1-memcached";

/// POSTs `body` to `path`: the status and the JSON answer.
async fn post(path: &str, body: &Value) -> (StatusCode, Value) {
    let request = Request::post(path)
        .header("content-type", "application/json")
        .body(axum::body::Body::from(serde_json::to_vec(body).unwrap()))
        .unwrap();
    let response = webhook::server().router().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let answer = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, answer)
}

fn memcached(version: &str, spec: Value) -> Value {
    json!({
        "apiVersion": format!("cache.example.com/{version}"), "kind": "Memcached",
        "metadata": {"name": "cache", "namespace": "shop", "uid": "u-1"},
        "spec": spec,
    })
}

/// An `AdmissionReview` of a `v1beta1` Memcached as the API server sends it.
fn admission(operation: &str, object: Value) -> Value {
    let gvk = json!({"group": "cache.example.com", "version": "v1beta1", "kind": "Memcached"});
    json!({
        "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
        "request": {
            "uid": "req-1", "kind": gvk, "requestKind": gvk,
            "resource": {"group": "cache.example.com", "version": "v1beta1", "resource": "memcacheds"},
            "name": "cache", "namespace": "shop", "operation": operation,
            "userInfo": {"username": "alice"}, "object": object, "oldObject": null, "dryRun": false,
        }
    })
}

fn spec(image: &str) -> Value {
    json!({"replicas": 2, "containerPort": 11211, "image": image})
}

/// The decoded JSON patch of an admission response, `None` without one.
fn patch(response: &Value) -> Option<Value> {
    let encoded = response.get("patch")?.as_str().unwrap();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .unwrap();
    Some(serde_json::from_slice(&bytes).unwrap())
}

#[tokio::test]
async fn the_official_image_without_a_tag_is_defaulted() {
    let (status, review) = post(
        MUTATE,
        &admission("CREATE", memcached("v1beta1", spec("memcached"))),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let response = &review["response"];
    assert_eq!(
        (&response["uid"], &response["allowed"]),
        (&json!("req-1"), &json!(true))
    );
    assert_eq!(response["patchType"], "JSONPatch");
    assert_eq!(
        patch(response),
        Some(json!([{"op": "replace", "path": "/spec/image", "value": DEFAULT_IMAGE}]))
    );
}

#[tokio::test]
async fn other_images_are_left_alone() {
    for image in ["memcached:1.5", "registry.example.com/memcached"] {
        let (_, review) = post(
            MUTATE,
            &admission("UPDATE", memcached("v1beta1", spec(image))),
        )
        .await;
        let response = &review["response"];
        assert_eq!(response["allowed"], true, "{image}");
        assert_eq!(patch(response), None, "{image}: {response}");
    }
}

#[tokio::test]
async fn an_image_without_a_tag_is_denied_with_the_handlers_message() {
    let object = memcached("v1beta1", spec("registry.example.com/memcached"));
    let (status, review) = post(VALIDATE, &admission("CREATE", object)).await;
    assert_eq!(status, StatusCode::OK);
    let response = &review["response"];
    assert_eq!(response["allowed"], false);
    assert_eq!(response["status"]["code"], 422);
    assert_eq!(
        response["status"]["message"],
        "spec.image \"registry.example.com/memcached\" has no tag: name the version to run, as in \"registry.example.com/memcached:1.6\", or a digest"
    );

    let (_, review) = post(
        VALIDATE,
        &admission("UPDATE", memcached("v1beta1", spec("memcached:1.6"))),
    )
    .await;
    assert_eq!(review["response"]["allowed"], true);
}

#[tokio::test]
async fn a_v1alpha1_object_is_not_admitted_as_v1beta1() {
    // The configurations ask for v1beta1 (the API server converts); a review of another
    // version is refused rather than misread.
    let mut review = admission(
        "CREATE",
        memcached("v1alpha1", json!({"size": 1, "image": "memcached:1.6"})),
    );
    review["request"]["kind"]["version"] = json!("v1alpha1");
    let (_, answer) = post(VALIDATE, &review).await;
    assert_eq!(answer["response"]["allowed"], false);
    assert_eq!(answer["response"]["status"]["code"], 400);
}

/// A `ConversionReview` of `objects` to `desired`.
fn conversion(desired: &str, objects: Vec<Value>) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
        "request": {"uid": "conv-1", "desiredAPIVersion": desired, "objects": objects}
    })
}

fn status() -> Value {
    json!({"replicas": 3, "readyReplicas": 2, "selector": "app=memcached"})
}

#[tokio::test]
async fn conversion_renames_size_to_replicas_and_back() {
    let mut alpha = memcached(
        "v1alpha1",
        json!({"size": 3, "containerPort": 11311, "image": "memcached:1.6"}),
    );
    alpha["metadata"]["labels"] = json!({"team": "a"});
    alpha["status"] = status();
    let mut beta = memcached(
        "v1beta1",
        json!({"replicas": 3, "containerPort": 11311, "image": "memcached:1.6"}),
    );
    beta["metadata"]["labels"] = json!({"team": "a"});
    beta["status"] = status();

    let (code, review) = post(
        "/convert",
        &conversion("cache.example.com/v1beta1", vec![alpha.clone()]),
    )
    .await;
    assert_eq!(code, StatusCode::OK);
    let response = &review["response"];
    assert_eq!(
        (&response["uid"], &response["result"]["status"]),
        (&json!("conv-1"), &json!("Success"))
    );
    assert_eq!(response["convertedObjects"], json!([beta]));

    let (_, review) = post(
        "/convert",
        &conversion("cache.example.com/v1alpha1", vec![beta.clone()]),
    )
    .await;
    assert_eq!(review["response"]["convertedObjects"], json!([alpha]));

    // Same version: unchanged.
    let (_, review) = post(
        "/convert",
        &conversion("cache.example.com/v1alpha1", vec![alpha.clone()]),
    )
    .await;
    assert_eq!(review["response"]["convertedObjects"], json!([alpha]));
}

#[tokio::test]
async fn conversion_to_an_unknown_version_fails_the_review() {
    let alpha = memcached("v1alpha1", json!({"size": 1}));
    let (code, review) = post("/convert", &conversion("cache.example.com/v2", vec![alpha])).await;
    assert_eq!(code, StatusCode::OK);
    let result = &review["response"]["result"];
    assert_eq!(result["status"], "Failure");
    let message = result["message"].as_str().unwrap();
    assert!(
        message.contains("no version cache.example.com/v2"),
        "{message}"
    );
}

#[tokio::test]
async fn a_body_that_is_not_a_review_is_a_400() {
    for path in [MUTATE, VALIDATE, "/convert"] {
        let (code, _) = post(path, &json!({"hello": "world"})).await;
        assert_eq!(code, StatusCode::BAD_REQUEST, "{path}");
    }
}

/// Every path the generated webhook configurations and CRD call is one the server answers on,
/// and the server answers on no other (`/healthz` aside).
#[test]
fn the_server_answers_on_the_paths_of_the_generated_manifests() {
    let mut called = BTreeSet::new();
    for configuration in documents("webhook/manifests.yaml") {
        for webhook in configuration["webhooks"].as_array().unwrap() {
            let service = &webhook["clientConfig"]["service"];
            assert_eq!(
                (&service["name"], &service["namespace"]),
                (&json!("webhook-service"), &json!("system"))
            );
            called.insert(service["path"].as_str().unwrap().to_string());
        }
    }
    let crd = documents("crd/bases/cache.example.com_memcacheds.yaml").remove(0);
    let conversion = &crd["spec"]["conversion"];
    assert_eq!(conversion["strategy"], "Webhook");
    let service = &conversion["webhook"]["clientConfig"]["service"];
    assert_eq!(
        (&service["name"], &service["namespace"]),
        (&json!("webhook-service"), &json!("system"))
    );
    called.insert(service["path"].as_str().unwrap().to_string());
    called.insert("/healthz".into());

    let served: BTreeSet<String> = webhook::server().paths().map(String::from).collect();
    assert_eq!(served, called);
    assert_eq!(called.len(), 4, "{called:?}");
}

#[tokio::test]
async fn serve_fails_at_once_without_a_certificate() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let missing = std::env::temp_dir().join(format!("no-certs-{}", std::process::id()));
    let error = webhook::serve(listener, missing, Default::default())
        .await
        .unwrap_err();
    assert!(error.to_string().contains("tls.crt"), "{error}");
}
