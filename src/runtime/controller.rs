//! Running a kube-runtime `Controller` inside the [`Manager`](super::Manager): measured under
//! controller-runtime's metric names ([`metrics`](super::metrics)), stopped with the operator.

use std::fmt::Debug;
use std::future::Future;
use std::hash::Hash;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use kube::runtime::Controller;
use kube::runtime::controller::{Action, Config, Error as ControllerError};
use kube::{Resource, ResourceExt};
use serde::de::DeserializeOwned;
use tracing::{debug, info, warn};

use super::Scope;

/// How long a controller may take to stop once the operator stops: its reconciles in flight
/// finish within it (well inside a pod's default 30 s grace period).
pub const STOP_TIMEOUT: Duration = Duration::from_secs(5);

/// A `Controller` about to run, from [`Scope::controller`].
#[must_use = "call `run`"]
pub struct Run<K>
where
    K: Clone + Resource + Debug + 'static,
    K::DynamicType: Eq + Hash,
{
    scope: Scope,
    name: String,
    controller: Controller<K>,
    concurrency: u16,
}

impl Scope {
    /// Runs `controller` as the controller `name` (the `controller` label of its metrics):
    /// `.run(reconcile, error_policy, ctx).await` returns once the operator stops.
    pub fn controller<K>(&self, name: &str, controller: Controller<K>) -> Run<K>
    where
        K: Clone + Resource + Debug + 'static,
        K::DynamicType: Eq + Hash,
    {
        Run {
            scope: self.clone(),
            name: name.to_string(),
            controller,
            concurrency: 0,
        }
    }
}

/// `namespace/name` of an object, the key of its requests.
fn key(namespace: Option<&str>, name: &str) -> String {
    format!("{}/{name}", namespace.unwrap_or_default())
}

impl<K> Run<K>
where
    K: Clone + Resource + DeserializeOwned + Debug + Send + Sync + 'static,
    K::DynamicType: Eq + Hash + Clone + Debug + Unpin,
{
    /// At most `n` reconciles at once (kube-runtime's default, 0, is no limit); one object is
    /// never reconciled twice at once.
    pub fn concurrency(mut self, n: u16) -> Self {
        self.concurrency = n;
        self
    }

    /// Runs the controller with `reconcile` and `error_policy`, as `Controller::run` does,
    /// until the scope's shutdown token is cancelled; returns once the reconciles in flight
    /// are done, or [`STOP_TIMEOUT`] after the cancellation (kube-runtime's controller holds
    /// its reconciles until its caches are filled and does not stop before: a shutdown before
    /// the first lists succeeded would hang).
    pub async fn run<Fut, E, Ctx>(
        self,
        mut reconcile: impl FnMut(Arc<K>, Arc<Ctx>) -> Fut,
        error_policy: impl Fn(Arc<K>, &E, Arc<Ctx>) -> Action,
        ctx: Arc<Ctx>,
    ) where
        Fut: Future<Output = Result<Action, E>> + Send + 'static,
        E: std::error::Error + Send + 'static,
    {
        let Run {
            scope,
            name,
            controller,
            concurrency,
        } = self;
        let meter = scope.metrics.meter(&name, concurrency);
        let measured = meter.clone();
        let reconcile = move |object: Arc<K>, ctx: Arc<Ctx>| {
            let running = measured.start(key(object.namespace().as_deref(), &object.name_any()));
            let reconciled = reconcile(object, ctx);
            async move {
                let result = reconciled.await;
                running.finish(result.as_ref().ok());
                result
            }
        };
        let measured = meter.clone();
        let error_policy = move |object: Arc<K>, error: &E, ctx: Arc<Ctx>| {
            let key = key(object.namespace().as_deref(), &object.name_any());
            let action = error_policy(object, error, ctx);
            measured.error_policy(key, &action);
            action
        };
        info!(controller = %name, "starting the controller");
        let results = controller
            .with_config(Config::default().concurrency(concurrency))
            .graceful_shutdown_on(scope.shutdown.clone().cancelled_owned())
            .run(reconcile, error_policy, ctx)
            .for_each(|result| {
                match result {
                    Ok(_) | Err(ControllerError::ReconcilerFailed(..)) => {} // the policy saw it
                    Err(ControllerError::ObjectNotFound(object)) => {
                        meter.dropped(&key(object.namespace.as_deref(), &object.name));
                        debug!(%object, "deleted before its reconcile");
                    }
                    Err(error) => warn!(controller = %name, %error, "controller error"),
                }
                std::future::ready(())
            });
        let overdue = async {
            scope.shutdown.cancelled().await;
            tokio::time::sleep(STOP_TIMEOUT).await;
        };
        tokio::select! {
            () = results => info!(controller = %name, "the controller has stopped"),
            () = overdue => warn!(controller = %name, timeout = ?STOP_TIMEOUT, "the controller did not stop in time: dropped"),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::convert::Infallible;
    use std::sync::Mutex;

    use clap::Parser;
    use http_body_util::{BodyExt, Full, StreamBody};
    use hyper::body::{Bytes, Frame};
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::runtime::watcher;
    use kube::{Api, Client};
    use serde_json::json;
    use tokio::net::TcpListener;
    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::runtime::http::tests::http_get;
    use crate::runtime::{Manager, Options};

    /// An API server holding the ConfigMaps `names` in `ns`: lists return them, watches wait.
    fn api_with(names: &'static [&'static str]) -> Client {
        let service = tower::service_fn(
            move |request: hyper::Request<kube::client::Body>| async move {
                let watch = request
                    .uri()
                    .query()
                    .is_some_and(|q| q.contains("watch=true"));
                let body = if watch {
                    let never = futures::stream::pending::<Result<Frame<Bytes>, Infallible>>();
                    StreamBody::new(never).boxed_unsync()
                } else {
                    let items: Vec<_> = names
                    .iter()
                    .map(|name| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": "ns", "resourceVersion": "1"}}))
                    .collect();
                    let list = json!({"apiVersion": "v1", "kind": "ConfigMapList", "metadata": {"resourceVersion": "1"}, "items": items});
                    Full::new(Bytes::from(serde_json::to_vec(&list).unwrap())).boxed_unsync()
                };
                Ok::<_, Infallible>(hyper::Response::new(body))
            },
        );
        Client::new(service, "ns")
    }

    /// How many times each object was reconciled.
    type Calls = Mutex<HashMap<String, u32>>;

    /// Each ConfigMap's first reconcile ends as its name says; the next ones succeed.
    async fn reconcile(
        object: Arc<ConfigMap>,
        calls: Arc<Calls>,
    ) -> Result<Action, std::io::Error> {
        let name = object.name_any();
        let call = {
            let mut calls = calls.lock().unwrap();
            let n = calls.entry(name.clone()).or_default();
            *n += 1;
            *n
        };
        if call > 1 {
            return Ok(Action::await_change());
        }
        match name.as_str() {
            "fails" => Err(std::io::Error::other("failed")),
            "requeue" => Ok(Action::requeue(Duration::ZERO)),
            "requeue-after" => Ok(Action::requeue(Duration::from_millis(50))),
            _ => Ok(Action::await_change()),
        }
    }

    fn retry_soon(_: Arc<ConfigMap>, _: &std::io::Error, _: Arc<Calls>) -> Action {
        Action::requeue(Duration::from_millis(10))
    }

    /// The value of the series `series` (name and labels as written) in `text`.
    fn value(text: &str, series: &str) -> f64 {
        text.lines()
            .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no {series} in\n{text}"))
            .parse()
            .unwrap()
    }

    #[tokio::test]
    async fn metrics_after_reconciles_that_succeed_fail_and_requeue() {
        const NAMES: &[&str] = &["ok", "fails", "requeue", "requeue-after"];
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shutdown = CancellationToken::new();
        let calls = Arc::new(Calls::default());
        let ctx = calls.clone();
        #[derive(clap::Parser)]
        struct Args {
            #[command(flatten)]
            runtime: Options,
        }
        let options = Args::parse_from(["op"]).runtime;
        let manager = Manager::new(api_with(NAMES), options)
            .controller(move |scope: Scope| async move {
                let api: Api<ConfigMap> = scope.api();
                let controller = Controller::new(api, watcher::Config::default());
                scope
                    .controller("configmap", controller)
                    .concurrency(2)
                    .run(reconcile, retry_soon, ctx)
                    .await
            })
            .shutdown(shutdown.clone())
            .http_listener(listener);
        let running = tokio::spawn(manager.run());

        let done = |calls: &Calls| calls.lock().unwrap().values().sum::<u32>() == 7;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !done(&calls) {
            assert!(tokio::time::Instant::now() < deadline, "{calls:?}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await; // no more reconciles to come
        let text = http_get(addr, "/metrics").await;
        let c = r#"controller="configmap""#;
        let q = r#"name="configmap",controller="configmap""#;
        let total = |result: &str| {
            value(
                &text,
                &format!(r#"controller_runtime_reconcile_total{{{c},result="{result}"}}"#),
            )
        };
        assert_eq!(
            total("success"),
            4.0,
            "ok, then the second reconcile of the others"
        );
        assert_eq!(total("error"), 1.0);
        assert_eq!(total("requeue"), 1.0);
        assert_eq!(total("requeue_after"), 1.0);
        assert_eq!(
            value(
                &text,
                &format!("controller_runtime_reconcile_errors_total{{{c}}}")
            ),
            1.0
        );
        assert_eq!(
            value(
                &text,
                &format!("controller_runtime_reconcile_time_seconds_count{{{c}}}")
            ),
            7.0
        );
        assert_eq!(
            value(
                &text,
                &format!("controller_runtime_max_concurrent_reconciles{{{c}}}")
            ),
            2.0
        );
        assert_eq!(
            value(&text, &format!("controller_runtime_active_workers{{{c}}}")),
            0.0
        );
        assert_eq!(
            value(
                &text,
                &format!("workqueue_work_duration_seconds_count{{{q}}}")
            ),
            7.0
        );
        assert_eq!(value(&text, &format!("workqueue_adds_total{{{q}}}")), 7.0);
        assert_eq!(
            value(&text, &format!(r#"workqueue_depth{{{q},priority=""}}"#)),
            0.0
        );
        assert_eq!(
            value(&text, &format!("workqueue_retries_total{{{q}}}")),
            2.0,
            "the failure's retry and the immediate requeue"
        );
        assert_eq!(
            value(
                &text,
                &format!("workqueue_queue_duration_seconds_count{{{q}}}")
            ),
            3.0,
            "the three requeues; the watch's requests are not seen queued"
        );
        assert!(
            !text.contains("leader_election_master_status{"),
            "no leader election"
        );

        shutdown.cancel();
        running.await.unwrap().unwrap();
    }
}
