//! The reconciler against a mocked Kubernetes API: every request's method, path, query and
//! body is checked, and any request not in the scenario fails the test.

mod support;

use std::sync::Arc;
use std::time::Duration;

use http::{Method, StatusCode};
use k8s_openapi::api::apps::v1::{DeploymentCondition, DeploymentStatus};
use kube::runtime::controller::Action;
use memcached_operator::api::v1alpha1::{Memcached, MemcachedStatus};
use memcached_operator::controller::{Error, deployment, error_policy, reconcile, status};
use serde_json::{Value, json};
use support::*;

const RESYNC: Duration = Duration::from_secs(300);

fn get_deployment() -> Step {
    Step::new(Method::GET, deployment_path(), BodyCheck::Empty)
}

fn apply_deployment(mc: &Memcached) -> Step {
    let uri = format!(
        "{}?&force=true&fieldManager=memcached-operator",
        deployment_path()
    );
    Step::new(
        Method::PATCH,
        uri,
        BodyCheck::Exact(to_json(&deployment::desired(mc).unwrap())),
    )
}

fn event(mc: &Memcached, type_: &str, reason: &str, action: &str, note: &str) -> Step {
    let body = json!({
        "type": type_, "reason": reason, "action": action, "note": note,
        "regarding": regarding(mc),
        "reportingController": "memcached-operator", "reportingInstance": "test",
    });
    let uri = format!("/apis/events.k8s.io/v1/namespaces/{NS}/events?");
    Step::new(Method::POST, uri, BodyCheck::Includes(body)).echo(StatusCode::CREATED)
}

/// A status condition as the reconciler writes it (`lastTransitionTime` is not compared).
fn condition(type_: &str, status: &str, reason: &str, generation: i64) -> Value {
    json!({"type": type_, "status": status, "reason": reason, "observedGeneration": generation})
}

/// The status apply: the operator's fields of the status, nothing of the spec or metadata but
/// the object's identity.
fn apply_status(mc: &Memcached, status: Value) -> Step {
    let body = json!({
        "apiVersion": "cache.example.com/v1alpha1",
        "kind": "Memcached",
        "metadata": {"name": mc.metadata.name, "namespace": mc.metadata.namespace},
        "status": status,
    });
    Step::new(
        Method::PATCH,
        format!(
            "{}/status?&force=true&fieldManager=memcached-operator",
            memcached_path()
        ),
        BodyCheck::Includes(body),
    )
    .respond(StatusCode::OK, to_json(mc))
}

/// The status of a Memcached whose Deployment has not been looked at by a Deployment
/// controller (a bare apiserver, or before kube-controller-manager gets to it).
fn not_observed_status(generation: i64) -> Value {
    json!({
        "conditions": [
            condition("Available", "False", "DeploymentNotObserved", generation),
            condition("Progressing", "True", "WaitingForDeploymentController", generation),
            condition("Degraded", "False", "AsExpected", generation),
        ],
        "replicas": 0,
        "readyReplicas": 0,
        "selector": "app.kubernetes.io/instance=cache,app.kubernetes.io/name=memcached",
    })
}

async fn run(mc: Memcached, steps: Vec<Step>) -> Result<Action, Error> {
    let (client, verifier) = mock_client(steps);
    let ctx = context(client);
    let result = reconcile(Arc::new(mc), ctx).await;
    verifier.verify().await;
    result
}

#[tokio::test]
async fn a_new_memcached_gets_the_finalizer_first() {
    let mut mc = memcached(1);
    mc.metadata.finalizers = None;
    let patch = json!([
        {"op": "test", "path": "/metadata/finalizers", "value": null},
        {"op": "add", "path": "/metadata/finalizers", "value": [FINALIZER]},
    ]);
    let mut patched = mc.clone();
    patched.metadata.finalizers = Some(vec![FINALIZER.into()]);
    let steps = vec![
        Step::new(
            Method::PATCH,
            format!("{}?", memcached_path()),
            BodyCheck::Exact(patch),
        )
        .respond(StatusCode::OK, to_json(&patched)),
    ];
    assert_eq!(run(mc, steps).await.unwrap(), Action::await_change());
}

#[tokio::test]
async fn create_applies_the_deployment_publishes_an_event_and_writes_status() {
    let mc = memcached(2);
    let steps = vec![
        get_deployment().respond(
            StatusCode::NOT_FOUND,
            status_error(404, "NotFound", "not found"),
        ),
        apply_deployment(&mc).respond(StatusCode::CREATED, to_json(&stored_deployment(&mc, 1))),
        event(
            &mc,
            "Normal",
            "Created",
            "CreateDeployment",
            "Created Deployment cache with 2 replicas",
        ),
        apply_status(&mc, not_observed_status(1)),
    ];
    assert_eq!(run(mc, steps).await.unwrap(), Action::requeue(RESYNC));
}

#[tokio::test]
async fn a_new_size_scales_the_deployment_with_an_event() {
    let mut mc = memcached(3);
    mc.metadata.generation = Some(2);
    let mut before = stored_deployment(&mc, 1);
    before.spec.replicas = Some(1);
    let steps = vec![
        get_deployment().respond(StatusCode::OK, to_json(&before)),
        apply_deployment(&mc).respond(StatusCode::OK, to_json(&stored_deployment(&mc, 2))),
        event(
            &mc,
            "Normal",
            "Scaled",
            "ScaleDeployment",
            "Scaled Deployment cache from 1 to 3 replicas",
        ),
        apply_status(&mc, not_observed_status(2)),
    ];
    assert_eq!(run(mc, steps).await.unwrap(), Action::requeue(RESYNC));
}

fn rolled_out(mc: &Memcached, ready: i32) -> DeploymentStatus {
    let size = mc.spec.size;
    DeploymentStatus {
        observed_generation: Some(1),
        replicas: Some(size),
        updated_replicas: Some(size),
        ready_replicas: Some(ready),
        available_replicas: Some(ready),
        ..DeploymentStatus::default()
    }
}

/// Reconciles `mc` whose Deployment is `stored`: the Deployment is read and applied, then the
/// status is written with these conditions and `(replicas, readyReplicas)`.
async fn status_written(
    mc: Memcached,
    stored: &k8s_openapi::api::apps::v1::Deployment,
    conditions: [Value; 3],
    (replicas, ready): (i32, i32),
) {
    let steps = vec![
        get_deployment().respond(StatusCode::OK, to_json(stored)),
        apply_deployment(&mc).respond(StatusCode::OK, to_json(stored)),
        apply_status(
            &mc,
            json!({"conditions": conditions, "replicas": replicas, "readyReplicas": ready}),
        ),
    ];
    assert_eq!(run(mc, steps).await.unwrap(), Action::requeue(RESYNC));
}

#[tokio::test]
async fn status_follows_the_ready_replicas_of_the_deployment() {
    let mc = memcached(3);
    let mut stored = stored_deployment(&mc, 1);
    stored.status = Some(rolled_out(&mc, 3));
    let conditions = [
        condition("Available", "True", "AllReplicasReady", 1),
        condition("Progressing", "False", "ReconcileComplete", 1),
        condition("Degraded", "False", "AsExpected", 1),
    ];
    status_written(mc, &stored, conditions, (3, 3)).await;
}

#[tokio::test]
async fn a_stuck_rollout_is_reported_as_degraded() {
    let mc = memcached(2);
    let mut stored = stored_deployment(&mc, 1);
    stored.status = Some(DeploymentStatus {
        conditions: Some(vec![DeploymentCondition {
            type_: Some("Progressing".into()),
            status: Some("False".into()),
            reason: Some("ProgressDeadlineExceeded".into()),
            message: Some("ReplicaSet \"cache-1\" has timed out progressing.".into()),
            ..DeploymentCondition::default()
        }]),
        ..rolled_out(&mc, 1)
    });
    let conditions = [
        condition("Available", "False", "ReplicasNotReady", 1),
        condition("Progressing", "False", "ProgressDeadlineExceeded", 1),
        condition("Degraded", "True", "ProgressDeadlineExceeded", 1),
    ];
    status_written(mc, &stored, conditions, (2, 1)).await;
}

/// `mc` with the status the reconciler would write for `deploy`.
fn with_current_status(
    mut mc: Memcached,
    deploy: &k8s_openapi::api::apps::v1::Deployment,
) -> Memcached {
    let desired = status::observe(&mc, deploy);
    let now = k8s_openapi::jiff::Timestamp::now();
    mc.status = Some(status::merge(
        None,
        desired.0,
        &desired.1,
        mc.metadata.generation,
        now,
    ));
    mc
}

#[tokio::test]
async fn an_unchanged_status_is_not_written_again() {
    let mc = memcached(1);
    let stored = stored_deployment(&mc, 1);
    let mc = with_current_status(mc, &stored);
    let steps = vec![
        get_deployment().respond(StatusCode::OK, to_json(&stored)),
        apply_deployment(&mc).respond(StatusCode::OK, to_json(&stored)),
    ];
    assert_eq!(run(mc, steps).await.unwrap(), Action::requeue(RESYNC));
}

#[tokio::test]
async fn the_status_apply_leaves_other_managers_conditions_alone() {
    let mc = memcached(1);
    let stored = stored_deployment(&mc, 1);
    let mut mc = mc;
    let theirs = json!({"type": "Backup", "status": "True", "reason": "Done", "message": "ok",
        "lastTransitionTime": "2026-01-01T00:00:00Z"});
    mc.status = Some(serde_json::from_value(json!({"conditions": [theirs]})).unwrap());
    let steps = vec![
        get_deployment().respond(StatusCode::OK, to_json(&stored)),
        apply_deployment(&mc).respond(StatusCode::OK, to_json(&stored)),
        // Exactly the three conditions the operator owns (lists are compared whole).
        apply_status(&mc, not_observed_status(1)),
    ];
    assert_eq!(run(mc, steps).await.unwrap(), Action::requeue(RESYNC));
}

/// The event published when a Memcached is being deleted.
fn deleting_event(mc: &Memcached) -> Step {
    event(
        mc,
        "Normal",
        "Deleting",
        "DeleteDeployment",
        "Deleting Deployment cache",
    )
}

/// The JSON patch removing the finalizer (kube's `finalizer` helper: test, then remove).
fn remove_finalizer() -> Step {
    let patch = json!([
        {"op": "test", "path": "/metadata/finalizers/0", "value": FINALIZER},
        {"op": "remove", "path": "/metadata/finalizers/0"},
    ]);
    Step::new(
        Method::PATCH,
        format!("{}?", memcached_path()),
        BodyCheck::Exact(patch),
    )
}

#[tokio::test]
async fn deletion_publishes_an_event_deletes_the_deployment_and_removes_the_finalizer() {
    let mc = deleting(memcached(2));
    let stored = stored_deployment(&mc, 1);
    let delete = json!({
        "propagationPolicy": "Background", "preconditions": {"uid": "dep-uid"},
    });
    let mut finalized = mc.clone();
    finalized.metadata.finalizers = None;
    let steps = vec![
        deleting_event(&mc),
        get_deployment().respond(StatusCode::OK, to_json(&stored)),
        Step::new(
            Method::DELETE,
            format!("{}?", deployment_path()),
            BodyCheck::Exact(delete),
        )
        .respond(StatusCode::OK, to_json(&stored)),
        remove_finalizer().respond(StatusCode::OK, to_json(&finalized)),
    ];
    assert_eq!(run(mc, steps).await.unwrap(), Action::await_change());
}

#[tokio::test]
async fn deletion_leaves_a_deployment_it_does_not_control() {
    let mc = deleting(memcached(2));
    let mut foreign = stored_deployment(&mc, 1);
    foreign.metadata.owner_references = None;
    let steps = vec![
        deleting_event(&mc),
        get_deployment().respond(StatusCode::OK, to_json(&foreign)),
        remove_finalizer().respond(StatusCode::OK, to_json(&mc)),
    ];
    assert_eq!(run(mc, steps).await.unwrap(), Action::await_change());
}

#[tokio::test]
async fn a_deployment_owned_by_someone_else_is_left_alone_and_reported() {
    let mc = memcached(1);
    let mut foreign = stored_deployment(&mc, 1);
    foreign.metadata.owner_references = None;
    let message = "Deployment cache exists and is not controlled by this Memcached";
    let steps = vec![
        get_deployment().respond(StatusCode::OK, to_json(&foreign)),
        event(
            &mc,
            "Warning",
            "DeploymentConflict",
            "ApplyDeployment",
            message,
        ),
        apply_status(
            &mc,
            json!({
                "conditions": [
                    condition("Available", "False", "DeploymentConflict", 1),
                    condition("Progressing", "False", "DeploymentConflict", 1),
                    condition("Degraded", "True", "DeploymentConflict", 1),
                ],
            }),
        ),
    ];
    assert_eq!(run(mc, steps).await.unwrap(), Action::requeue(RESYNC));
}

#[tokio::test]
async fn api_errors_fail_the_reconcile_and_back_off_exponentially() {
    let mc = memcached(1);
    let forbidden = status_error(403, "Forbidden", "deployments.apps \"cache\" is forbidden");
    let steps = vec![
        get_deployment().respond(StatusCode::OK, to_json(&stored_deployment(&mc, 1))),
        apply_deployment(&mc).respond(StatusCode::FORBIDDEN, forbidden),
    ];
    let (client, verifier) = mock_client(steps);
    let ctx = context(client);
    let mc = Arc::new(mc);
    let error = reconcile(mc.clone(), ctx.clone()).await.unwrap_err();
    assert!(matches!(&error, Error::Finalizer(_)), "{error:?}");
    assert_eq!(error.metric_label(), "kube");
    let delays: Vec<Action> = (0..4)
        .map(|_| error_policy(mc.clone(), &error, ctx.clone()))
        .collect();
    let secs = |s| Action::requeue(Duration::from_secs(s));
    assert_eq!(delays, [secs(1), secs(2), secs(4), secs(8)]);
    let metrics = ctx.metrics.encode();
    assert!(
        metrics.contains(r#"memcached_operator_reconcile_errors_total{error="kube"} 4"#),
        "{metrics}"
    );
    assert!(
        metrics.contains("memcached_operator_reconciles_total 1"),
        "{metrics}"
    );
    drop(ctx);
    verifier.verify().await;
}

#[tokio::test]
async fn a_server_error_while_reading_the_deployment_fails_the_reconcile() {
    let mc = memcached(1);
    let steps = vec![get_deployment().respond(
        StatusCode::INTERNAL_SERVER_ERROR,
        status_error(500, "InternalError", "etcd timeout"),
    )];
    let error = run(mc, steps).await.unwrap_err();
    assert!(error.to_string().contains("etcd timeout"), "{error}");
}

#[test]
fn the_status_type_round_trips() {
    let mut json = not_observed_status(1);
    for condition in json["conditions"].as_array_mut().unwrap() {
        condition["lastTransitionTime"] = json!("2026-01-02T03:04:05Z");
        condition["message"] = json!("");
    }
    let status: MemcachedStatus = serde_json::from_value(json).unwrap();
    assert_eq!(status.conditions.len(), 3);
    assert_eq!(to_json(&status)["conditions"][0]["type"], "Available");
}
