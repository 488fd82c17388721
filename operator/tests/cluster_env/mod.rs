//! A test namespace on a real API server (`kubegen::testing`'s control plane, shared by the
//! tests of a binary) with the operator's generated CRD and RBAC role, bound to its
//! ServiceAccount as `config/` binds them: shared by the cluster tests that run the operator
//! in-process (`cluster.rs`) and as separate processes (`cluster_leader.rs`);
//! `cluster_webhooks.rs` takes its admin client and run id.

#![allow(dead_code)] // each test uses its own part

use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::authentication::v1::TokenRequest;
use k8s_openapi::api::authorization::v1::SubjectAccessReview;
use k8s_openapi::api::core::v1::{Namespace, ServiceAccount};
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::config::Kubeconfig;
use kube::{Api, Client, Resource, ResourceExt};
use kubegen::testing::ControlPlane;
use memcached_operator::api::v1alpha1::Memcached;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::config_files::documents;

/// The operator's ServiceAccount (`config/rbac/service_account.yaml`).
pub const SERVICE_ACCOUNT: &str = "controller-manager";
/// How long the tests wait for what should happen soon.
pub const WAIT: Duration = Duration::from_secs(60);

/// A fresh namespace with the operator's CRD, RBAC and ServiceAccount; removed on drop.
pub struct TestEnv {
    pub admin: Client,
    pub namespace: String,
    /// The ClusterRoleBinding of the generated ClusterRole to the ServiceAccount.
    pub binding: String,
}

/// The control plane of this test binary (etcd and kube-apiserver from `KUBEBUILDER_ASSETS`,
/// or the cluster of `USE_EXISTING_CLUSTER=true`), with the tests' logging set up.
pub async fn control_plane() -> &'static ControlPlane {
    let _ = tracing_subscriber::fmt()
        .with_test_writer()
        .with_env_filter("info")
        .try_init();
    ControlPlane::shared()
        .await
        .unwrap_or_else(|e| panic!("no control plane: {e}"))
}

/// An admin client of the control plane.
pub async fn admin_client() -> Client {
    control_plane().await.client()
}

/// The control plane's admin kubeconfig (for `USE_EXISTING_CLUSTER=true`, the usual one).
pub async fn admin_kubeconfig() -> Kubeconfig {
    match control_plane().await.kubeconfig() {
        Some(path) => Kubeconfig::read_from(path),
        None => Kubeconfig::read(),
    }
    .expect("the admin kubeconfig reads")
}

/// A number that tells this run's names from earlier runs' (milliseconds, modulo a million).
pub fn run_id() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
        % 1_000_000
}

/// `value` as a `T`.
pub fn typed<T: DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).unwrap()
}

/// `object` applied server-side (forced), as `kubectl apply --server-side` does.
pub async fn apply<K>(api: &Api<K>, object: &K)
where
    K: Resource + Clone + DeserializeOwned + serde::Serialize + std::fmt::Debug,
{
    let params = PatchParams::apply("cluster-test").force();
    api.patch(&object.name_any(), &params, &Patch::Apply(object))
        .await
        .unwrap();
}

impl TestEnv {
    /// A namespace `mc-<test>-<suffix>` with the generated CRD and role bound to the
    /// operator's ServiceAccount, once the API server's authorizer sees the bindings.
    pub async fn new(test: &str) -> Self {
        let admin = admin_client().await;
        let namespace = format!("mc-{test}-{}", run_id());
        let binding = format!("memcached-operator-{namespace}");
        let ns: Namespace = typed(
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}}),
        );
        Api::<Namespace>::all(admin.clone())
            .create(&PostParams::default(), &ns)
            .await
            .unwrap();

        // The generated CRD, as `kubectl apply -f config/crd/bases/` would.
        let crds: Api<CustomResourceDefinition> = Api::all(admin.clone());
        for doc in documents("crd/bases/cache.example.com_memcacheds.yaml") {
            apply(&crds, &typed(doc)).await;
        }
        let crd = "memcacheds.cache.example.com";
        let established = kube::runtime::conditions::is_crd_established();
        tokio::time::timeout(
            WAIT,
            kube::runtime::wait::await_condition(crds, crd, established),
        )
        .await
        .expect("the CRD is established")
        .unwrap();

        // The generated role, with the hand-written binding and service account, in this
        // namespace (what kustomize's `namespace:` does); the ClusterRoleBinding gets a name
        // of its own so that tests can run side by side.
        for doc in documents("rbac/role.yaml") {
            match doc["kind"].as_str() {
                Some("ClusterRole") => {
                    apply(&Api::<ClusterRole>::all(admin.clone()), &typed(doc)).await
                }
                Some("Role") => {
                    let mut role: Role = typed(doc);
                    role.metadata.namespace = Some(namespace.clone());
                    apply(&Api::<Role>::namespaced(admin.clone(), &namespace), &role).await;
                }
                other => panic!("unexpected {other:?} in role.yaml"),
            }
        }
        let mut sa: ServiceAccount = typed(documents("rbac/service_account.yaml").remove(0));
        sa.metadata.namespace = Some(namespace.clone());
        apply(&Api::namespaced(admin.clone(), &namespace), &sa).await;
        let mut crb: ClusterRoleBinding = typed(documents("rbac/role_binding.yaml").remove(0));
        crb.metadata.name = Some(binding.clone());
        for subject in crb.subjects.iter_mut().flatten() {
            subject.namespace = Some(namespace.clone());
        }
        apply(&Api::all(admin.clone()), &crb).await;
        let mut rb: RoleBinding =
            typed(documents("rbac/leader_election_role_binding.yaml").remove(0));
        rb.metadata.namespace = Some(namespace.clone());
        for subject in rb.subjects.iter_mut().flatten() {
            subject.namespace = Some(namespace.clone());
        }
        apply(&Api::namespaced(admin.clone(), &namespace), &rb).await;
        wait_for_rbac(&admin, &namespace).await;
        Self {
            admin,
            namespace,
            binding,
        }
    }
}

impl Drop for TestEnv {
    fn drop(&mut self) {
        // Without kube-controller-manager a deleted namespace keeps its objects (and stays
        // Terminating), so the test's objects are deleted one by one first, finalizers and all
        // (a failed test may leave some behind with the operator gone).
        let (admin, namespace, binding) = (
            self.admin.clone(),
            self.namespace.clone(),
            self.binding.clone(),
        );
        let cleanup = async move {
            let memcacheds: Api<Memcached> = Api::namespaced(admin.clone(), &namespace);
            let no_finalizers = Patch::Merge(json!({"metadata": {"finalizers": null}}));
            for mc in memcacheds
                .list(&ListParams::default())
                .await
                .map(|l| l.items)
                .unwrap_or_default()
            {
                let _ = memcacheds
                    .patch(&mc.name_any(), &PatchParams::default(), &no_finalizers)
                    .await;
                let _ = memcacheds
                    .delete(&mc.name_any(), &DeleteParams::default())
                    .await;
            }
            let deployments: Api<Deployment> = Api::namespaced(admin.clone(), &namespace);
            let _ = deployments
                .delete_collection(&DeleteParams::default(), &ListParams::default())
                .await;
            let _ = Api::<ClusterRoleBinding>::all(admin.clone())
                .delete(&binding, &DeleteParams::default())
                .await;
            let _ = Api::<Namespace>::all(admin)
                .delete(&namespace, &DeleteParams::default())
                .await;
        };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let _ = std::thread::spawn(move || runtime.block_on(cleanup)).join();
        }
    }
}

/// Waits until the API server's RBAC authorizer has seen the bindings just made (it reads them
/// from a cache): until the ServiceAccount may get the leader Lease in `namespace`, the last
/// rule bound.
pub async fn wait_for_rbac(admin: &Client, namespace: &str) {
    let review: SubjectAccessReview = typed(json!({
        "spec": {
            "user": format!("system:serviceaccount:{namespace}:{SERVICE_ACCOUNT}"),
            "resourceAttributes": {
                "group": "coordination.k8s.io", "resource": "leases", "verb": "get",
                "namespace": namespace,
            },
        },
    }));
    let reviews: Api<SubjectAccessReview> = Api::all(admin.clone());
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let reviewed = reviews
            .create(&PostParams::default(), &review)
            .await
            .unwrap();
        if reviewed.status.is_some_and(|s| s.allowed) {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "RBAC never allowed the leases"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A token of the ServiceAccount `name` in `namespace` (TokenRequest API), created first.
pub async fn service_account_token(admin: &Client, namespace: &str, name: &str) -> String {
    let accounts: Api<ServiceAccount> = Api::namespaced(admin.clone(), namespace);
    let account: ServiceAccount = typed(json!({"metadata": {"name": name}}));
    apply(&accounts, &account).await;
    let request = accounts
        .create_token_request(name, &PostParams::default(), &TokenRequest::default())
        .await
        .unwrap();
    request.status.and_then(|s| s.token).expect("a token")
}
