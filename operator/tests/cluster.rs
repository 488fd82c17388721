//! The operator against a real Kubernetes API server (`KUBECONFIG`), as its ServiceAccount.
//!
//! ```sh
//! KUBECONFIG=~/.kube/config cargo test -p memcached-operator --test cluster -- --ignored
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

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use clap::Parser;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::events::v1::Event;
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
use kube::api::{
    ApiResource, DeleteParams, DynamicObject, ListParams, Patch, PatchParams, PostParams,
};
use kube::client::ClientBuilder;
use kube::{Api, Client, Config, ResourceExt};
use memcached_operator::api::v1alpha1::{Memcached, MemcachedSpec};
use memcached_operator::cli::Args;
use memcached_operator::operator;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use cluster_env::{SERVICE_ACCOUNT, TestEnv, WAIT, apply, service_account_token, typed};
use config_files::documents;

/// Requests the operator's client made that the apiserver refused with 403.
#[derive(Clone, Default)]
struct Forbidden(Arc<Mutex<Vec<String>>>, Arc<AtomicUsize>);

impl Forbidden {
    fn refused(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

/// A tower layer over the operator's HTTP client that records each 403 response.
impl<S> tower::Layer<S> for Forbidden {
    type Service = CountForbidden<S>;
    fn layer(&self, inner: S) -> Self::Service {
        CountForbidden {
            inner,
            seen: self.clone(),
        }
    }
}

#[derive(Clone)]
struct CountForbidden<S> {
    inner: S,
    seen: Forbidden,
}

impl<S, B, R> tower::Service<http::Request<B>> for CountForbidden<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<R>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let what = format!("{} {}", request.method(), request.uri());
        let seen = self.seen.clone();
        let response = self.inner.call(request);
        Box::pin(async move {
            let response = response.await?;
            seen.1.fetch_add(1, Ordering::Relaxed);
            if response.status() == http::StatusCode::FORBIDDEN {
                seen.0.lock().unwrap().push(what);
            }
            Ok(response)
        })
    }
}

impl TestEnv {
    /// A client that impersonates the operator's ServiceAccount and counts 403s.
    async fn operator_client(&self) -> (Client, Forbidden) {
        let mut config = Config::infer().await.unwrap();
        config.auth_info.impersonate = Some(format!(
            "system:serviceaccount:{}:{SERVICE_ACCOUNT}",
            self.namespace
        ));
        let forbidden = Forbidden::default();
        let client = ClientBuilder::try_from(config)
            .unwrap()
            .with_layer(&forbidden)
            .build();
        (client, forbidden)
    }

    /// Starts the operator in-process, as the ServiceAccount, watching this namespace only,
    /// with leader election in this namespace, and the flags `extra`.
    async fn start_operator(&self, extra: &[String]) -> RunningOperator {
        let (client, forbidden) = self.operator_client().await;
        let flags = [
            "memcached-operator".to_string(),
            format!("--namespace={}", self.namespace),
            "--http-addr=127.0.0.1:0".into(),
            "--leader-elect".into(),
            format!("--leader-election-namespace={}", self.namespace),
            format!("--identity=test-{}", self.namespace),
            // The webhooks have a test of their own (`cluster_webhooks.rs`).
            "--webhook-port=0".into(),
        ];
        let args = Args::try_parse_from(flags.iter().chain(extra))
            .unwrap()
            .runtime;
        let shutdown = CancellationToken::new();
        let task = tokio::spawn({
            let shutdown = shutdown.clone();
            async move { operator::run(client, &args, shutdown).await }
        });
        RunningOperator {
            task,
            shutdown,
            forbidden,
        }
    }
}

struct RunningOperator {
    task: tokio::task::JoinHandle<Result<(), operator::Error>>,
    shutdown: CancellationToken,
    forbidden: Forbidden,
}

impl RunningOperator {
    /// Stops the operator as SIGTERM would and asserts it stopped cleanly, made requests, and
    /// was never refused one.
    async fn stop(self) {
        self.shutdown.cancel();
        let result = tokio::time::timeout(WAIT, self.task)
            .await
            .expect("the operator stops")
            .unwrap();
        result.expect("the operator ran without failing");
        assert!(
            self.forbidden.1.load(Ordering::Relaxed) > 0,
            "the operator made requests"
        );
        assert_eq!(
            self.forbidden.refused(),
            Vec::<String>::new(),
            "requests refused with 403"
        );
    }
}

/// Polls `check` until it returns `Some`, or fails after `WAIT` with `what`; fails at once
/// when the operator had a request refused.
async fn eventually<T, F, Fut>(forbidden: &Forbidden, what: &str, check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    eventually_within(WAIT, forbidden, what, check).await
}

/// [`eventually`], failing after `limit`.
async fn eventually_within<T, F, Fut>(
    limit: Duration,
    forbidden: &Forbidden,
    what: &str,
    mut check: F,
) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        assert_eq!(
            forbidden.refused(),
            Vec::<String>::new(),
            "requests refused with 403"
        );
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

async fn deployment_with_replicas(
    op: &RunningOperator,
    api: &Api<Deployment>,
    name: &str,
    replicas: i32,
) -> Deployment {
    eventually(
        &op.forbidden,
        &format!("Deployment {name} with {replicas} replicas"),
        || async {
            api.get_opt(name)
                .await
                .unwrap()
                .filter(|d| d.spec.replicas == Some(replicas))
        },
    )
    .await
}

/// Waits until the status of `name` describes generation `generation` and `replicas`
/// requested replicas, and checks that its conditions agree with what the Deployment reports.
async fn settled_status(
    op: &RunningOperator,
    api: &Api<Memcached>,
    deployments: &Api<Deployment>,
    name: &str,
    generation: i64,
) -> Memcached {
    let mc = eventually(
        &op.forbidden,
        &format!("status of {name} for generation {generation}"),
        || async {
            let mc = api.get(name).await.unwrap();
            let status = mc.status.as_ref()?;
            let fresh = status.conditions.len() == 3
                && status
                    .conditions
                    .iter()
                    .all(|c| c.observed_generation == Some(generation));
            fresh.then_some(mc)
        },
    )
    .await;
    let status = mc.status.clone().unwrap();
    let condition = |t: &str| {
        status
            .conditions
            .iter()
            .find(|c| c.type_ == t)
            .unwrap()
            .clone()
    };
    let available = condition("Available");
    assert_eq!(
        available.status == "True",
        status.ready_replicas >= mc.spec.size,
        "{available:?}"
    );
    assert_eq!(
        status.selector,
        format!("app.kubernetes.io/instance={name},app.kubernetes.io/name=memcached")
    );
    let deploy = deployments.get(name).await.unwrap();
    if deploy
        .status
        .as_ref()
        .and_then(|s| s.observed_generation)
        .is_none()
    {
        // No Deployment controller (a bare API server): the operator says so and waits.
        assert_eq!(available.reason, "DeploymentNotObserved", "{available:?}");
        assert_eq!(condition("Progressing").status, "True");
        assert_eq!(
            condition("Progressing").reason,
            "WaitingForDeploymentController"
        );
        assert_eq!(condition("Degraded").status, "False");
        assert_eq!((status.replicas, status.ready_replicas), (0, 0));
    }
    mc
}

async fn event_reasons(admin: &Client, namespace: &str, name: &str) -> Vec<String> {
    let events: Api<Event> = Api::namespaced(admin.clone(), namespace);
    let list = events.list(&ListParams::default()).await.unwrap();
    list.items
        .into_iter()
        .filter(|e| e.regarding.as_ref().and_then(|r| r.name.as_deref()) == Some(name))
        .filter_map(|e| e.reason)
        .collect()
}

/// Deletes the Memcached `name` and waits until it is gone (its finalizer's cleanup done).
async fn delete_and_wait(op: &RunningOperator, memcacheds: &Api<Memcached>, name: &str) {
    memcacheds
        .delete(name, &DeleteParams::default())
        .await
        .unwrap();
    eventually(&op.forbidden, "the Memcached to be gone", || async {
        memcacheds
            .get_opt(name)
            .await
            .unwrap()
            .is_none()
            .then_some(())
    })
    .await;
}

/// A Memcached of size 1 named `name`.
fn cache(name: &str) -> Memcached {
    let spec = MemcachedSpec {
        size: 1,
        container_port: 11211,
        image: "memcached:1.6.26-alpine3.19".into(),
        resources: None,
    };
    Memcached::new(name, spec)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a cluster: KUBECONFIG"]
async fn memcached_lifecycle_as_the_service_account() {
    let env = TestEnv::new("life").await;
    let operator = env.start_operator(&[]).await;
    let ns = env.namespace.as_str();
    let memcacheds: Api<Memcached> = Api::namespaced(env.admin.clone(), ns);
    let deployments: Api<Deployment> = Api::namespaced(env.admin.clone(), ns);
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
#[ignore = "needs a cluster: KUBECONFIG"]
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
#[ignore = "needs a cluster: KUBECONFIG"]
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

/// The command that restarts the API server for the fault tests, from
/// `KUBEGEN_APISERVER_RESTART` (for the private test server: `/root/kapi/restart-apiserver.sh 10`,
/// which stops it for 10 s).
fn restart_command() -> std::process::Command {
    let command = std::env::var("KUBEGEN_APISERVER_RESTART").expect(
        "set KUBEGEN_APISERVER_RESTART to a command that stops the API server for 10 s and \
         starts it again",
    );
    let mut c = std::process::Command::new("sh");
    c.arg("-c").arg(command);
    c
}

/// The API server goes away for 10 s while the operator runs, and comes back: the operator's
/// watches resume (a later change converges) without a restart of its own, it never makes a
/// second Deployment, and the finalizer stays and still works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a cluster (KUBECONFIG) it may restart (KUBEGEN_APISERVER_RESTART)"]
async fn the_operator_survives_an_api_server_restart() {
    let env = TestEnv::new("restart").await;
    let operator = env.start_operator(&[]).await;
    let ns = env.namespace.as_str();
    let memcacheds: Api<Memcached> = Api::namespaced(env.admin.clone(), ns);
    let deployments: Api<Deployment> = Api::namespaced(env.admin.clone(), ns);
    let name = "cache";
    memcacheds
        .create(&PostParams::default(), &cache(name))
        .await
        .unwrap();
    deployment_with_replicas(&operator, &deployments, name, 1).await;

    let restart = tokio::task::spawn_blocking(|| restart_command().status().unwrap());
    let status = tokio::time::timeout(Duration::from_secs(120), restart)
        .await
        .expect("the API server restarts within 2 minutes")
        .unwrap();
    assert!(status.success(), "the restart command failed: {status}");
    assert!(
        !operator.task.is_finished(),
        "the operator stopped during the outage"
    );

    // Watches resumed: a change made after the outage converges. The API server's own watch
    // cache may take a while to come back (a shared CRD's conversion webhook can be
    // unreachable): three minutes.
    let patch = Patch::Merge(json!({"spec": {"size": 2}}));
    memcacheds
        .patch(name, &PatchParams::default(), &patch)
        .await
        .unwrap();
    let started = tokio::time::Instant::now();
    eventually_within(
        Duration::from_secs(180),
        &operator.forbidden,
        "the Deployment to follow the change made after the outage",
        || async {
            let d = deployments.get_opt(name).await.ok().flatten()?;
            (d.spec.replicas == Some(2)).then_some(())
        },
    )
    .await;
    eprintln!(
        "converged {:?} after the API server came back",
        started.elapsed()
    );
    settled_status(&operator, &memcacheds, &deployments, name, 2).await;
    let all = deployments.list(&ListParams::default()).await.unwrap();
    assert_eq!(all.items.len(), 1, "one Deployment, not a duplicate");
    let mc = memcacheds.get(name).await.unwrap();
    assert_eq!(mc.finalizers(), ["cache.example.com/finalizer"]);

    // The finalizer still works.
    delete_and_wait(&operator, &memcacheds, name).await;
    assert!(!operator.task.is_finished(), "the operator still runs");
    operator.stop().await;
}
