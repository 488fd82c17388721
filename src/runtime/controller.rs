//! Running a controller inside the [`Manager`](super::Manager): kube-runtime's `applier` (the
//! engine of its `Controller`) fed from trigger streams the runtime builds and watches itself,
//! so that every request is measured under controller-runtime's metric names
//! ([`metrics`](super::metrics)); stopped with the operator.

use std::fmt::Debug;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use futures::stream::{self, BoxStream};
use futures::{StreamExt, TryStreamExt};
use kube::runtime::controller::{
    Action, Config, Error as ControllerError, ReconcileRequest, trigger_owners, trigger_self,
    trigger_with,
};
use kube::runtime::reflector::{self, ObjectRef, Store, reflector};
use kube::runtime::utils::{CancelableJoinHandle, StreamBackoff};
use kube::runtime::watcher::{self, DefaultBackoff, watcher};
use kube::runtime::{WatchStreamExt, applier};
use kube::{Api, Resource, ResourceExt};
use serde::de::DeserializeOwned;
use tokio::runtime::Handle;
use tracing::{debug, info, warn};

use super::Scope;

/// How long a controller may take to stop once the operator stops: its reconciles in flight
/// finish within it (well inside a pod's default 30 s grace period).
pub const STOP_TIMEOUT: Duration = Duration::from_secs(5);

/// How many reconciles a controller runs at once unless [`Run::concurrency`] says otherwise:
/// 1, controller-runtime's default `MaxConcurrentReconciles` (kube-runtime's `Controller` has
/// no limit by default).
pub const DEFAULT_CONCURRENCY: u16 = 1;

/// What asks for reconciles: watch events mapped to the objects to reconcile.
type Trigger<K> = BoxStream<'static, Result<ReconcileRequest<K>, watcher::Error>>;

/// A controller about to run, from [`Scope::controller`].
#[must_use = "call `run`"]
pub struct Run<K>
where
    K: Resource<DynamicType = ()> + Clone + 'static,
{
    scope: Scope,
    name: String,
    store: Store<K>,
    triggers: Vec<Trigger<K>>,
    concurrency: u16,
}

impl Scope {
    /// A controller named `name` (the `controller` label of its metrics) of the `K` objects
    /// of `api` that `config` selects, reconciled when they change (as `Controller::new`);
    /// [`Run::owns`] and [`Run::watches`] add other kinds, `.run(reconcile, error_policy,
    /// ctx).await` runs it until the operator stops.
    pub fn controller<K>(&self, name: &str, api: Api<K>, config: watcher::Config) -> Run<K>
    where
        K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
    {
        let (store, writer) = reflector::store();
        let objects = reflector(writer, watcher(api, config)).applied_objects();
        Run {
            scope: self.clone(),
            name: name.to_string(),
            store,
            triggers: vec![trigger_self(objects, ()).boxed()],
            concurrency: DEFAULT_CONCURRENCY,
        }
    }
}

/// `namespace/name` of an object, the key of its requests.
fn key(namespace: Option<&str>, name: &str) -> String {
    format!("{}/{name}", namespace.unwrap_or_default())
}

impl<K> Run<K>
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    /// Also reconciles the owner `K` of every `Child` of `api` that `config` selects when the
    /// child changes or goes away (its owner references, as `Controller::owns`). An
    /// `Api<PartialObjectMeta<Child>>` watches the children's metadata only, which is all
    /// this needs.
    pub fn owns<Child>(mut self, api: Api<Child>, config: watcher::Config) -> Self
    where
        Child: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + 'static,
    {
        let children = watcher(api, config).touched_objects();
        self.triggers.push(trigger_owners(children, (), ()).boxed());
        self
    }

    /// Also reconciles the `K` objects `mapper` names for every `Other` of `api` that
    /// `config` selects, when it changes or goes away (as `Controller::watches`).
    pub fn watches<Other, I>(
        mut self,
        api: Api<Other>,
        config: watcher::Config,
        mapper: impl Fn(Other) -> I + Send + Sync + 'static,
    ) -> Self
    where
        Other: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + 'static,
        I: IntoIterator<Item = ObjectRef<K>> + 'static,
        I::IntoIter: Send,
    {
        let others = watcher(api, config).touched_objects();
        self.triggers.push(trigger_with(others, mapper).boxed());
        self
    }

    /// At most `n` reconciles at once (default [`DEFAULT_CONCURRENCY`]; 0 is taken as 1, as
    /// controller-runtime does); one object is never reconciled twice at once.
    pub fn concurrency(mut self, n: u16) -> Self {
        self.concurrency = n.max(1);
        self
    }

    /// Runs the controller with `reconcile` and `error_policy`, as `Controller::run` does (each
    /// reconcile a task of its own), until the scope's shutdown token is cancelled; returns
    /// once the reconciles in flight are done, or [`STOP_TIMEOUT`] after the cancellation
    /// (kube-runtime holds the reconciles until the cache is filled and does not stop before:
    /// a shutdown before the first list succeeded would hang).
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
            store,
            triggers,
            concurrency,
        } = self;
        let meter = scope.metrics.meter(&name, concurrency);
        let measured = meter.clone();
        // As `Controller::run`: the triggers merged, backed off on watch errors, and closed
        // when the operator stops (a graceful stop: the reconciles in flight finish).
        let requests = StreamBackoff::new(stream::select_all(triggers), DefaultBackoff::default())
            .take_until(scope.shutdown.clone().cancelled_owned())
            .inspect_ok(move |request: &ReconcileRequest<K>| {
                measured.queued(key_of(&request.obj_ref));
            });
        let measured = meter.clone();
        let handle = Handle::current();
        let reconcile = move |object: Arc<K>, ctx: Arc<Ctx>| {
            let running = measured.start(key(object.namespace().as_deref(), &object.name_any()));
            let reconciled = reconcile(object, ctx);
            let task = async move {
                let result = reconciled.await;
                running.finish(result.as_ref().ok());
                result
            };
            CancelableJoinHandle::spawn(task, &handle)
        };
        let measured = meter.clone();
        let error_policy = move |object: Arc<K>, error: &E, ctx: Arc<Ctx>| {
            let key = key(object.namespace().as_deref(), &object.name_any());
            let action = error_policy(object, error, ctx);
            measured.error_policy(key, &action);
            action
        };
        info!(controller = %name, "starting the controller");
        let config = Config::default().concurrency(concurrency);
        let results =
            applier(reconcile, error_policy, ctx, store, requests, config).for_each(|result| {
                match result {
                    Ok(_) | Err(ControllerError::ReconcilerFailed(..)) => {} // the policy saw it
                    Err(ControllerError::ObjectNotFound(object)) => {
                        meter.dropped(&key_of(&object));
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

/// The key of `object`'s requests.
fn key_of<K: Resource>(object: &ObjectRef<K>) -> String {
    key(object.namespace.as_deref(), &object.name)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::convert::Infallible;
    use std::sync::Mutex;

    use clap::Parser;
    use http_body_util::{BodyExt, Full, StreamBody};
    use hyper::body::{Bytes, Frame};
    use k8s_openapi::api::core::v1::{ConfigMap, Secret};
    use kube::Client;
    use kube::core::PartialObjectMeta;
    use serde_json::{Value, json};
    use tokio::net::TcpListener;
    use tokio::sync::{Semaphore, watch};
    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::runtime::http::tests::http_get;
    use crate::runtime::{Manager, Options};

    /// The ConfigMaps a Secret `s` is owned by, once the test knows them.
    type Owners = watch::Receiver<Option<Vec<String>>>;

    /// An API server for the namespace `ns`: lists of ConfigMaps return `names`, lists of
    /// Secrets wait for `owners` and return the Secret `s` owned by them; watches never send.
    fn api(names: &'static [&'static str], owners: Owners) -> Client {
        let service = tower::service_fn(move |request: hyper::Request<kube::client::Body>| {
            let mut owners = owners.clone();
            async move {
                let watch = request
                    .uri()
                    .query()
                    .is_some_and(|q| q.contains("watch=true"));
                if watch {
                    let never = futures::stream::pending::<Result<Frame<Bytes>, Infallible>>();
                    return Ok::<_, Infallible>(hyper::Response::new(
                        StreamBody::new(never).boxed_unsync(),
                    ));
                }
                let meta = |name: &str, owners: Value| json!({"name": name, "namespace": "ns", "resourceVersion": "1", "ownerReferences": owners});
                let (kind, items) = if request.uri().path().ends_with("/secrets") {
                    let owners = owners.wait_for(Option::is_some).await.unwrap().clone();
                    let references: Vec<_> = owners
                        .unwrap_or_default()
                        .iter()
                        .map(|name| json!({"apiVersion": "v1", "kind": "ConfigMap", "name": name, "uid": name}))
                        .collect();
                    let secret = json!({"apiVersion": "v1", "kind": "Secret", "metadata": meta("s", references.into())});
                    ("SecretList", vec![secret])
                } else {
                    let items = names
                        .iter()
                        .map(|name| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(name, json!([]))}))
                        .collect();
                    ("ConfigMapList", items)
                };
                let list = json!({"apiVersion": "v1", "kind": kind, "metadata": {"resourceVersion": "1"}, "items": items});
                let body = Full::new(Bytes::from(serde_json::to_vec(&list).unwrap()));
                Ok(hyper::Response::new(body.boxed_unsync()))
            }
        });
        Client::new(service, "ns")
    }

    /// Runs a manager on `client` with the controller `controller` until `shutdown`; returns
    /// the address of its `/metrics`.
    async fn serve<F, Fut>(
        client: Client,
        controller: F,
        shutdown: CancellationToken,
    ) -> (
        std::net::SocketAddr,
        tokio::task::JoinHandle<Result<(), crate::runtime::Error>>,
    )
    where
        F: FnOnce(Scope) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        #[derive(clap::Parser)]
        struct Args {
            #[command(flatten)]
            runtime: Options,
        }
        let options = Args::parse_from(["op"]).runtime;
        let manager = Manager::new(client, options)
            .controller(controller)
            .shutdown(shutdown)
            .http_listener(listener);
        (addr, tokio::spawn(manager.run()))
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

    fn retry_soon<Ctx>(_: Arc<ConfigMap>, _: &std::io::Error, _: Arc<Ctx>) -> Action {
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

    /// Waits (10 s at most) until `done`.
    async fn until(mut done: impl FnMut() -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !done() {
            assert!(tokio::time::Instant::now() < deadline, "timed out");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    #[tokio::test]
    async fn metrics_after_reconciles_that_succeed_fail_and_requeue() {
        const NAMES: &[&str] = &["ok", "fails", "requeue", "requeue-after"];
        let shutdown = CancellationToken::new();
        let calls = Arc::new(Calls::default());
        let ctx = calls.clone();
        let (_, owners) = watch::channel(None);
        let (addr, running) = serve(
            api(NAMES, owners),
            move |scope: Scope| async move {
                scope
                    .controller("configmap", scope.api(), watcher::Config::default())
                    .concurrency(2)
                    .run(reconcile, retry_soon, ctx)
                    .await
            },
            shutdown.clone(),
        )
        .await;

        until(|| calls.lock().unwrap().values().sum::<u32>() == 7).await;
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
        let series = |name: &str, labels: &str| value(&text, &format!("{name}{{{labels}}}"));
        assert_eq!(series("controller_runtime_reconcile_errors_total", c), 1.0);
        assert_eq!(
            series("controller_runtime_reconcile_time_seconds_count", c),
            7.0
        );
        assert_eq!(
            series("controller_runtime_max_concurrent_reconciles", c),
            2.0
        );
        assert_eq!(series("controller_runtime_active_workers", c), 0.0);
        assert_eq!(series("workqueue_work_duration_seconds_count", q), 7.0);
        assert_eq!(
            series("workqueue_adds_total", q),
            7.0,
            "four from the watch, three requeues"
        );
        assert_eq!(
            series("workqueue_depth", &format!(r#"{q},priority="""#)),
            0.0
        );
        assert_eq!(
            series("workqueue_retries_total", q),
            2.0,
            "the failure's retry and the immediate requeue"
        );
        assert_eq!(series("workqueue_queue_duration_seconds_count", q), 7.0);
        assert!(
            !text.contains("leader_election_master_status{"),
            "no leader election"
        );

        shutdown.cancel();
        running.await.unwrap().unwrap();
    }

    #[tokio::test]
    async fn requests_of_a_watched_kind_and_for_objects_gone() {
        let shutdown = CancellationToken::new();
        let calls = Arc::new(Calls::default());
        let ctx = calls.clone();
        let (_owners, owners) = watch::channel(Some(Vec::new()));
        let (addr, running) = serve(
            api(&["ok"], owners),
            move |scope: Scope| async move {
                // The Secret `s` asks for the ConfigMap `s`, which is not there.
                let same_name = |secret: Secret| [ObjectRef::new(&secret.name_any()).within("ns")];
                scope
                    .controller("watches", scope.api(), watcher::Config::default())
                    .watches(scope.api(), watcher::Config::default(), same_name)
                    .concurrency(0) // taken as 1
                    .run(reconcile, retry_soon, ctx)
                    .await
            },
            shutdown.clone(),
        )
        .await;
        let q = r#"name="watches",controller="watches""#;
        let waits = format!("workqueue_queue_duration_seconds_count{{{q}}}");
        let mut text = String::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !text.contains(&format!("{waits} 2")) {
            assert!(tokio::time::Instant::now() < deadline, "{text}");
            tokio::time::sleep(Duration::from_millis(10)).await;
            text = http_get(addr, "/metrics").await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await; // nothing more to come
        let text = http_get(addr, "/metrics").await;
        let series = |name: &str, labels: &str| value(&text, &format!("{name}{{{labels}}}"));
        assert_eq!(
            series("workqueue_adds_total", q),
            2.0,
            "the ConfigMap's request and the Secret's"
        );
        assert_eq!(
            series("workqueue_depth", &format!(r#"{q},priority="""#)),
            0.0
        );
        assert_eq!(value(&text, &waits), 2.0, "both taken out of the queue");
        let c = r#"controller="watches""#;
        assert_eq!(
            series("controller_runtime_max_concurrent_reconciles", c),
            1.0
        );
        assert_eq!(
            series("controller_runtime_reconcile_time_seconds_count", c),
            1.0,
            "the Secret's request is dropped: no ConfigMap `s` to reconcile"
        );
        assert_eq!(
            *calls.lock().unwrap(),
            HashMap::from([("ok".to_string(), 1)])
        );

        shutdown.cancel();
        running.await.unwrap().unwrap();
    }

    /// The reconciles so far, in order; the first one waits for a permit of the gate.
    struct Held {
        calls: Mutex<Vec<String>>,
        gate: Semaphore,
    }

    async fn held(object: Arc<ConfigMap>, held: Arc<Held>) -> Result<Action, std::io::Error> {
        let first = {
            let mut calls = held.calls.lock().unwrap();
            calls.push(object.name_any());
            calls.len() == 1
        };
        if first {
            held.gate.acquire().await.unwrap().forget();
        }
        Ok(Action::await_change())
    }

    #[tokio::test]
    async fn watch_requests_are_counted_queued_merged_and_timed() {
        const HOLD: Duration = Duration::from_millis(200);
        let shutdown = CancellationToken::new();
        let ctx = Arc::new(Held {
            calls: Mutex::default(),
            gate: Semaphore::new(0),
        });
        let state = ctx.clone();
        let (owners_tx, owners) = watch::channel(None);
        let (addr, running) = serve(
            api(&["a", "b", "c"], owners),
            move |scope: Scope| async move {
                scope
                    .controller("held", scope.api(), watcher::Config::default())
                    .owns(
                        scope.api::<PartialObjectMeta<Secret>>(),
                        watcher::Config::default(),
                    )
                    .run(held, retry_soon, ctx)
                    .await
            },
            shutdown.clone(),
        )
        .await;
        let q = r#"name="held",controller="held""#;
        let metrics = || async move {
            let text = http_get(addr, "/metrics").await;
            let series = |name: &str, labels: &str| value(&text, &format!("{name}{{{labels}}}"));
            let depth = series("workqueue_depth", &format!(r#"{q},priority="""#));
            (series("workqueue_adds_total", q), depth, text.clone())
        };

        // One worker (the default): the first reconcile runs, held; the others wait.
        until(|| state.calls.lock().unwrap().len() == 1).await;
        let (adds, depth, text) = metrics().await;
        assert_eq!((adds, depth), (3.0, 2.0), "three from the watch\n{text}");
        let c = r#"controller="held""#;
        assert_eq!(
            value(
                &text,
                &format!("controller_runtime_max_concurrent_reconciles{{{c}}}")
            ),
            1.0
        );
        assert_eq!(
            value(&text, &format!("controller_runtime_active_workers{{{c}}}")),
            1.0
        );
        let waits = format!("workqueue_queue_duration_seconds_count{{{q}}}");
        assert_eq!(value(&text, &waits), 1.0);
        let in_progress = |text: &str| {
            let series = |name: &str| value(text, &format!("{name}{{{q}}}"));
            (
                series("workqueue_unfinished_work_seconds"),
                series("workqueue_longest_running_processor_seconds"),
            )
        };
        let (unfinished, longest) = in_progress(&text);
        assert!(
            unfinished > 0.0 && unfinished == longest,
            "one reconcile running, held\n{text}"
        );

        // The Secret owned by all three: the two waiting are merged, the running one is
        // queued again (as client-go counts an item added while it is processed).
        owners_tx.send_replace(Some(["a", "b", "c"].map(String::from).to_vec()));
        let mut seen = (0.0, 0.0);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while seen.0 < 4.0 {
            assert!(tokio::time::Instant::now() < deadline, "{seen:?}");
            tokio::time::sleep(Duration::from_millis(10)).await;
            let (adds, depth, _) = metrics().await;
            seen = (adds, depth);
        }
        assert_eq!(seen, (4.0, 3.0));
        tokio::time::sleep(HOLD).await;
        state.gate.add_permits(1);

        until(|| state.calls.lock().unwrap().len() == 4).await;
        let first = state.calls.lock().unwrap()[0].clone();
        let mut calls = state.calls.lock().unwrap().clone();
        calls.sort();
        let mut expected = vec!["a", "b", "c", first.as_str()];
        expected.sort();
        assert_eq!(calls, expected, "the first object twice, the others once");
        tokio::time::sleep(Duration::from_millis(100)).await; // the last one finishes
        let (adds, depth, text) = metrics().await;
        assert_eq!((adds, depth), (4.0, 0.0), "{text}");
        assert_eq!(in_progress(&text), (0.0, 0.0), "none running");
        assert_eq!(value(&text, &waits), 4.0);
        let sum = value(
            &text,
            &format!("workqueue_queue_duration_seconds_sum{{{q}}}"),
        );
        assert!(
            sum >= 3.0 * HOLD.as_secs_f64(),
            "three requests waited for the held reconcile: {sum}"
        );
        let fast = format!(r#"workqueue_queue_duration_seconds_bucket{{le="0.1",{q}}}"#);
        assert_eq!(
            value(&text, &fast),
            1.0,
            "only the first did not wait\n{text}"
        );

        shutdown.cancel();
        running.await.unwrap().unwrap();
    }
}
