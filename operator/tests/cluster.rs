//! The operator against a real Kubernetes API server (`kubegen::testing`'s), as its
//! ServiceAccount.
//!
//! ```sh
//! KUBEBUILDER_ASSETS=/path/to/bin cargo test -p memcached-operator --test cluster -- --ignored
//! ```
//!
//! Each test applies the generated CRD and RBAC role with the hand-written binding and service
//! account from `config/` (namespaces rewritten to a fresh test namespace, as kustomize does),
//! runs the operator in-process with a client that impersonates that ServiceAccount, and
//! counts every 403 that client receives. They pass on a bare API server with no nodes and no
//! kube-controller-manager: pods never start and Deployments never get a status there, so the
//! tests check that the conditions say so, and deletion does not rely on garbage collection.

mod cluster_env;
mod config_files;
mod https_client;
mod in_process;

use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
use kube::api::{ApiResource, DeleteParams, DynamicObject, Patch, PatchParams, PostParams};
use kube::{Api, ResourceExt};
use memcached_operator::api::v1alpha1::Memcached;
use serde_json::json;

use cluster_env::{TestEnv, apply, service_account_token, typed};
use config_files::documents;
use in_process::{
    cache, delete_and_wait, deployment_with_replicas, event_reasons, eventually, operator_in,
    settled_status,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a control plane: KUBEBUILDER_ASSETS (etcd, kube-apiserver), or USE_EXISTING_CLUSTER=true"]
async fn memcached_lifecycle_as_the_service_account() {
    let (env, operator, memcacheds, deployments) = operator_in("life").await;
    let ns = env.namespace.as_str();
    let name = "cache";

    // Create: the Deployment follows, controlled by the Memcached.
    let created = memcacheds
        .create(&PostParams::default(), &cache(name))
        .await
        .unwrap();
    let deploy = deployment_with_replicas(&operator, &deployments, name, 1).await;
    let owner = &deploy.owner_references()[0];
    assert_eq!(
        (owner.kind.as_str(), owner.name.as_str()),
        ("Memcached", name)
    );
    assert_eq!(
        (Some(&owner.uid), owner.controller),
        (created.uid().as_ref(), Some(true))
    );
    let container = &deploy.spec.template.spec.as_ref().unwrap().containers[0];
    assert_eq!(container.ports.as_ref().unwrap()[0].container_port, 11211);
    let mc = settled_status(&operator, &memcacheds, &deployments, name, 1).await;
    assert_eq!(mc.finalizers(), ["cache.example.com/finalizer"]);

    // A new size: the Deployment follows.
    let patch = Patch::Merge(json!({"spec": {"size": 2}}));
    memcacheds
        .patch(name, &PatchParams::default(), &patch)
        .await
        .unwrap();
    deployment_with_replicas(&operator, &deployments, name, 2).await;
    settled_status(&operator, &memcacheds, &deployments, name, 2).await;

    // The scale subresource (`kubectl scale memcached/cache --replicas=3`).
    let scale = Patch::Merge(json!({"spec": {"replicas": 3}}));
    memcacheds
        .patch_scale(name, &PatchParams::default(), &scale)
        .await
        .unwrap();
    deployment_with_replicas(&operator, &deployments, name, 3).await;
    let mc = settled_status(&operator, &memcacheds, &deployments, name, 3).await;
    assert_eq!(mc.spec.size, 3);
    let scale = memcacheds.get_scale(name).await.unwrap();
    assert_eq!(scale.spec.and_then(|s| s.replicas), Some(3));
    assert_eq!(
        scale.status.and_then(|s| s.selector).as_deref(),
        Some(mc.status.unwrap().selector.as_str())
    );

    // A Deployment deleted by hand comes back at once: the watch of the owned Deployments
    // (`.owns(...)`) asks for its owner's reconcile, long before the resync requeue.
    let uid = deployments.get(name).await.unwrap().uid();
    deployments
        .delete(name, &DeleteParams::default())
        .await
        .unwrap();
    let recreated = eventually(&operator.forbidden, "the Deployment recreated", || async {
        deployments
            .get_opt(name)
            .await
            .unwrap()
            .filter(|d| d.uid() != uid)
    })
    .await;
    assert_eq!(recreated.spec.replicas, Some(3));

    // Delete: the finalizer's cleanup removes the Deployment, then the finalizer goes.
    delete_and_wait(&operator, &memcacheds, name).await;
    let gone = deployments.get_opt(name).await.unwrap();
    assert!(
        gone.is_none_or(|d| d.metadata.deletion_timestamp.is_some()),
        "the operator deleted the Deployment"
    );

    let reasons = event_reasons(&env.admin, ns, name).await;
    for reason in ["Created", "Scaled", "Deleting"] {
        assert!(
            reasons.iter().any(|r| r == reason),
            "event {reason} in {reasons:?}"
        );
    }
    operator.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a control plane: KUBEBUILDER_ASSETS (etcd, kube-apiserver), or USE_EXISTING_CLUSTER=true"]
async fn invalid_memcacheds_are_rejected_by_the_generated_crd() {
    let env = TestEnv::new("invalid").await;
    // Untyped, so that nothing is defaulted on this side.
    let resource = ApiResource::erase::<Memcached>(&());
    let memcacheds: Api<DynamicObject> =
        Api::namespaced_with(env.admin.clone(), &env.namespace, &resource);
    let cases = [
        (json!({"size": 6}), "spec.size"),
        (json!({"size": 0}), "spec.size"),
        (json!({"image": "  "}), "image must not be blank"),
        (json!({"containerPort": 70000}), "spec.containerPort"),
    ];
    for (spec, expected) in cases {
        let object = json!({
            "apiVersion": "cache.example.com/v1alpha1", "kind": "Memcached",
            "metadata": {"name": "bad"}, "spec": spec,
        });
        let error = memcacheds
            .create(&PostParams::default(), &typed(object))
            .await
            .unwrap_err();
        assert!(error.to_string().contains(expected), "{expected}: {error}");
    }
    // Defaults come from the CRD.
    let object = json!({"apiVersion": "cache.example.com/v1alpha1", "kind": "Memcached", "metadata": {"name": "defaults"}, "spec": {}});
    let created = memcacheds
        .create(&PostParams::default(), &typed(object))
        .await
        .unwrap();
    let created: Memcached = typed(serde_json::to_value(created).unwrap());
    assert_eq!((created.spec.size, created.spec.container_port), (1, 11211));
    assert_eq!(created.spec.image, "memcached:1.6.26-alpine3.19");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a control plane: KUBEBUILDER_ASSETS (etcd, kube-apiserver), or USE_EXISTING_CLUSTER=true"]
async fn metrics_are_served_to_the_metrics_reader_only() {
    let env = TestEnv::new("metrics").await;
    let admin = env.admin.clone();
    let ns = env.namespace.clone();
    // config/rbac/metrics_reader_role.yaml, bound to `scraper` only; named after the test.
    let reader_role = format!("{}-metrics-reader", env.binding);
    let mut role: ClusterRole = typed(documents("rbac/metrics_reader_role.yaml").remove(0));
    role.metadata.name = Some(reader_role.clone());
    apply(&Api::<ClusterRole>::all(admin.clone()), &role).await;
    let binding: ClusterRoleBinding = typed(json!({
        "metadata": {"name": reader_role},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": reader_role},
        "subjects": [{"kind": "ServiceAccount", "name": "scraper", "namespace": ns}],
    }));
    apply(&Api::<ClusterRoleBinding>::all(admin.clone()), &binding).await;
    let scraper = service_account_token(&admin, &ns, "scraper").await;
    let stranger = service_account_token(&admin, &ns, "stranger").await;

    // The operator as its ServiceAccount (the generated role must allow the reviews), its
    // metrics on their own port, secured, with a certificate the test trusts.
    let dir = std::env::temp_dir().join(format!("memcached-metrics-{ns}"));
    let root = https_client::write_certificate(&dir);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let op = env
        .start_operator(&[
            format!("--metrics-bind-address=127.0.0.1:{port}"),
            format!("--metrics-cert-dir={}", dir.display()),
        ])
        .await;

    let no_token = eventually(&op.forbidden, "the metrics server", || async {
        https_client::get(port, &root, "/metrics", None).await.ok()
    })
    .await;
    assert!(no_token.starts_with("HTTP/1.1 401"), "{no_token}");
    let garbage = https_client::get(port, &root, "/metrics", Some("not-a-token"))
        .await
        .unwrap();
    assert!(garbage.starts_with("HTTP/1.1 401"), "{garbage}");
    let denied = https_client::get(port, &root, "/metrics", Some(&stranger))
        .await
        .unwrap();
    assert!(denied.starts_with("HTTP/1.1 403"), "{denied}");
    let allowed = https_client::get(port, &root, "/metrics", Some(&scraper))
        .await
        .unwrap();
    assert!(allowed.starts_with("HTTP/1.1 200"), "{allowed}");
    // Once this replica leads, its controller runs and is measured.
    let leads = |text: &str| {
        text.lines()
            .any(|l| l.starts_with("leader_election_master_status{name=") && l.ends_with("} 1"))
    };
    let series = r#"controller_runtime_reconcile_total{controller="memcached",result="success"}"#;
    eventually(&op.forbidden, "the leader's controller metrics", || async {
        let text = https_client::get(port, &root, "/metrics", Some(&scraper))
            .await
            .ok()?;
        (leads(&text) && text.contains(series)).then_some(())
    })
    .await;

    op.stop().await;
    let _ = Api::<ClusterRoleBinding>::all(admin.clone())
        .delete(&reader_role, &DeleteParams::default())
        .await;
    let _ = Api::<ClusterRole>::all(admin)
        .delete(&reader_role, &DeleteParams::default())
        .await;
    let _ = std::fs::remove_dir_all(dir);
}
