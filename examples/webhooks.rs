//! A defaulting and a validating admission webhook, called as the API server calls them:
//! `cargo run --example webhooks --features webhook` posts two `AdmissionReview`s to the
//! server's routes in process (no TLS, no cluster) and prints the answers.

use axum::body::Body;
use http_body_util::BodyExt;
use kubegen::webhook::{Denied, Server};
use kubegen::{CustomResource, webhook};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tower::ServiceExt;

/// GuestbookSpec defines the desired state of Guestbook.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube_marker(group = "webapp.my.domain", version = "v1", kind = "Guestbook")]
pub struct GuestbookSpec {
    /// The page's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// How many front ends to run.
    pub size: i32,
}

// ANCHOR: handlers
/// Gives a Guestbook without a title one.
#[webhook(
    mutating = true,
    failure_policy = "fail",
    side_effects = "None",
    groups = "webapp.my.domain",
    resources = "guestbooks",
    verbs = "create;update",
    versions = "v1",
    name = "mguestbook-v1.webapp.my.domain",
    admission_review_versions = "v1"
)]
fn default(guestbook: &mut Guestbook) {
    guestbook
        .spec
        .title
        .get_or_insert_with(|| "My guestbook".to_string());
}

/// Refuses to shrink a Guestbook by more than half at once.
#[webhook(
    mutating = false,
    failure_policy = "fail",
    side_effects = "None",
    groups = "webapp.my.domain",
    resources = "guestbooks",
    verbs = "create;update",
    versions = "v1",
    name = "vguestbook-v1.webapp.my.domain",
    admission_review_versions = "v1"
)]
fn validate(guestbook: &Guestbook, old: Option<&Guestbook>) -> Result<(), Denied> {
    match old {
        Some(old) if guestbook.spec.size * 2 < old.spec.size => Err(Denied::new(format!(
            "size {} is less than half of {}",
            guestbook.spec.size, old.spec.size
        ))),
        _ => Ok(()),
    }
}

/// The server: each handler on the path of its `#[webhook]` (`/mutate-...`, `/validate-...`).
fn server() -> Server {
    Server::new()
        .mutate(default::webhooks(), default)
        .validate(validate::webhooks(), validate)
}
// ANCHOR_END: handlers

/// An `AdmissionReview` for `object` (and `old`, on an update) as the API server sends it.
fn review(operation: &str, object: Value, old: Value) -> Value {
    let kind = json!({"group": "webapp.my.domain", "version": "v1", "kind": "Guestbook"});
    json!({
        "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
        "request": {
            "uid": "1", "kind": kind, "requestKind": kind,
            "resource": {"group": "webapp.my.domain", "version": "v1", "resource": "guestbooks"},
            "name": "guestbook", "namespace": "default", "operation": operation,
            "userInfo": {}, "object": object, "oldObject": old, "dryRun": false,
        }
    })
}

fn guestbook(size: i32) -> Value {
    json!({
        "apiVersion": "webapp.my.domain/v1", "kind": "Guestbook",
        "metadata": {"name": "guestbook", "namespace": "default"},
        "spec": {"size": size},
    })
}

/// The handlers' paths, from their `#[webhook]` attributes.
const MUTATE: &str = "/mutate-webapp-my-domain-v1-guestbook";
const VALIDATE: &str = "/validate-webapp-my-domain-v1-guestbook";

/// POSTs `review` to `path` and returns the review's `response`.
async fn post(path: &str, review: &Value) -> Value {
    let request = axum::http::Request::post(path)
        .header("content-type", "application/json")
        .body(Body::from(review.to_string()))
        .unwrap();
    let response = server().router().oneshot(request).await.unwrap();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice::<Value>(&body).unwrap()["response"].clone()
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let routes: Vec<String> = server().paths().map(str::to_string).collect();
    println!("routes: {routes:?}");
    let created = post(MUTATE, &review("CREATE", guestbook(4), Value::Null)).await;
    println!("defaulting a new Guestbook: {created}");
    let shrunk = post(VALIDATE, &review("UPDATE", guestbook(1), guestbook(4))).await;
    println!("validating 4 -> 1: {shrunk}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    #[tokio::test]
    async fn the_default_is_a_json_patch_and_a_big_shrink_is_denied() {
        let created = post(MUTATE, &review("CREATE", guestbook(4), Value::Null)).await;
        assert_eq!(created["allowed"], true);
        let patch = base64::engine::general_purpose::STANDARD
            .decode(created["patch"].as_str().unwrap())
            .unwrap();
        let patch: Value = serde_json::from_slice(&patch).unwrap();
        assert_eq!(
            patch,
            json!([{"op": "add", "path": "/spec/title", "value": "My guestbook"}])
        );

        let halved = post(VALIDATE, &review("UPDATE", guestbook(2), guestbook(4))).await;
        assert_eq!(halved["allowed"], true);
        let shrunk = post(VALIDATE, &review("UPDATE", guestbook(1), guestbook(4))).await;
        assert_eq!(shrunk["allowed"], false);
        assert_eq!(shrunk["status"]["message"], "size 1 is less than half of 4");
    }
}
