//! The operator run in-process against a real API server, as its ServiceAccount (through a
//! client that impersonates it and records every 403), and the waits the cluster tests share:
//! `cluster.rs` and `cluster_restart.rs`.

#![allow(dead_code)] // each test uses its own part

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use clap::Parser;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::events::v1::Event;
use kube::api::{DeleteParams, ListParams};
use kube::client::ClientBuilder;
use kube::{Api, Client};
use memcached_operator::api::v1alpha1::{Memcached, MemcachedSpec};
use memcached_operator::cli::Args;
use memcached_operator::operator;
use tokio_util::sync::CancellationToken;

use crate::cluster_env::{SERVICE_ACCOUNT, TestEnv, WAIT};

/// Requests the operator's client made that the apiserver refused with 403.
#[derive(Clone, Default)]
pub struct Forbidden(Arc<Mutex<Vec<String>>>, Arc<AtomicUsize>);

impl Forbidden {
    pub fn refused(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }

    /// The requests refused so far, forgotten.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
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
pub struct CountForbidden<S> {
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
    pub async fn operator_client(&self) -> (Client, Forbidden) {
        let mut config = super::cluster_env::control_plane().await.config().clone();
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
    pub async fn start_operator(&self, extra: &[String]) -> RunningOperator {
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

pub struct RunningOperator {
    pub task: tokio::task::JoinHandle<Result<(), operator::Error>>,
    pub shutdown: CancellationToken,
    pub forbidden: Forbidden,
}

impl RunningOperator {
    /// Stops the operator as SIGTERM would and asserts it stopped cleanly, made requests, and
    /// was never refused one.
    pub async fn stop(self) {
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
pub async fn eventually<T, F, Fut>(forbidden: &Forbidden, what: &str, check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    eventually_within(WAIT, forbidden, what, check).await
}

/// [`eventually`], failing after `limit`.
pub async fn eventually_within<T, F, Fut>(
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

pub async fn deployment_with_replicas(
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
pub async fn settled_status(
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

pub async fn event_reasons(admin: &Client, namespace: &str, name: &str) -> Vec<String> {
    let events: Api<Event> = Api::namespaced(admin.clone(), namespace);
    let list = events.list(&ListParams::default()).await.unwrap();
    list.items
        .into_iter()
        .filter(|e| e.regarding.as_ref().and_then(|r| r.name.as_deref()) == Some(name))
        .filter_map(|e| e.reason)
        .collect()
}

/// Deletes the Memcached `name` and waits until it is gone (its finalizer's cleanup done).
pub async fn delete_and_wait(op: &RunningOperator, memcacheds: &Api<Memcached>, name: &str) {
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
pub fn cache(name: &str) -> Memcached {
    let spec = MemcachedSpec {
        size: 1,
        container_port: 11211,
        image: "memcached:1.6.26-alpine3.19".into(),
        resources: None,
    };
    Memcached::new(name, spec)
}

/// The operator running in a fresh test namespace (named after `test`), and the admin's view of
/// the Memcacheds and Deployments there.
pub async fn operator_in(
    test: &str,
) -> (TestEnv, RunningOperator, Api<Memcached>, Api<Deployment>) {
    let env = TestEnv::new(test).await;
    let operator = env.start_operator(&[]).await;
    let ns = env.namespace.as_str();
    let memcacheds = Api::namespaced(env.admin.clone(), ns);
    let deployments = Api::namespaced(env.admin.clone(), ns);
    (env, operator, memcacheds, deployments)
}
