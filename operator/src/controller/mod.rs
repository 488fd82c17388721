//! The `Memcached` controller: watches `Memcached` objects and the Deployments they own, and
//! reconciles each object into a Deployment plus a status.

mod backoff;
pub mod deployment;
mod events;
mod finalizer;
pub mod reconcile;
pub mod status;

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use kube::core::PartialObjectMeta;
use kube::runtime::events::{Recorder, Reporter};
use kube::runtime::watcher;
use kube::{Api, Client};
use kubegen::rbac;
use kubegen::runtime::Scope;
use tracing::info;

use crate::api::v1alpha1::Memcached;
use crate::metrics::Metrics;

pub use backoff::Backoff;
pub use reconcile::{error_policy, reconcile};

/// The name the operator uses as field manager, event reporter and `managed-by` label value.
pub const MANAGER: &str = "memcached-operator";

/// What `reconcile` failed on.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A Kubernetes API call failed.
    #[error("Kubernetes API call failed: {0}")]
    Kube(#[from] kube::Error),
    /// Adding or removing the finalizer failed, or the work around it did.
    #[error("{0}")]
    Finalizer(#[source] Box<kube::runtime::finalizer::Error<Error>>),
    /// The object lacks its name or namespace (the apiserver always sets both).
    #[error("Memcached object has no {0}")]
    MissingField(&'static str),
}

impl Error {
    /// A short, stable name for the error, used as a metrics label.
    pub fn metric_label(&self) -> &'static str {
        use kube::runtime::finalizer::Error as F;
        match self {
            Error::Kube(_) => "kube",
            Error::Finalizer(inner) => match inner.as_ref() {
                F::ApplyFailed(e) | F::CleanupFailed(e) => e.metric_label(),
                F::AddFinalizer(_) | F::RemoveFinalizer(_) => "finalizer",
                F::UnnamedObject | F::InvalidFinalizer => "invalid_object",
            },
            Error::MissingField(_) => "invalid_object",
        }
    }
}

/// The name and namespace of `mc` (the apiserver always sets both on a namespaced object).
pub fn name_and_namespace(mc: &Memcached) -> Result<(String, String), Error> {
    let name = mc
        .metadata
        .name
        .clone()
        .ok_or(Error::MissingField("metadata.name"))?;
    let namespace = mc
        .metadata
        .namespace
        .clone()
        .ok_or(Error::MissingField("metadata.namespace"))?;
    Ok((name, namespace))
}

/// Everything `reconcile` needs, shared by all reconciliations.
pub struct Context {
    /// The client every API call goes through.
    pub client: Client,
    /// Publishes `events.k8s.io` Events about `Memcached` objects.
    pub recorder: Recorder,
    /// Reconcile counters and timings.
    pub metrics: Arc<Metrics>,
    /// The per-object retry delays of `error_policy`.
    pub backoff: Backoff,
}

impl Context {
    /// A context whose events name `instance` (the pod name, say) as the reporting instance.
    pub fn new(client: Client, metrics: Arc<Metrics>, instance: Option<String>) -> Self {
        let reporter = Reporter {
            controller: MANAGER.to_string(),
            instance,
        };
        Self {
            recorder: Recorder::new(client.clone(), reporter),
            client,
            metrics,
            backoff: Backoff::new(Duration::from_secs(1), Duration::from_secs(300)),
        }
    }
}

/// The controller's name: the `controller` label of its metrics.
pub const NAME: &str = "memcached";

// ANCHOR: run
/// Runs the controller until `scope.shutdown` is cancelled: `Memcached` objects in the scope's
/// namespace (all namespaces when `None`) and the Deployments the operator labelled as its
/// own. It runs on kubegen's runtime (`Scope::controller`), which measures it under
/// controller-runtime's metric names and returns at most `kubegen::runtime::STOP_TIMEOUT`
/// after the cancellation.
#[rbac(
    groups = "cache.example.com",
    resources = "memcacheds",
    verbs = "list;watch"
)]
#[rbac(groups = "apps", resources = "deployments", verbs = "list;watch")]
pub async fn run(scope: Scope, ctx: Arc<Context>) {
    let memcacheds: Api<Memcached> = scope.api();
    // Their metadata is all the owner references need.
    let deployments: Api<PartialObjectMeta<Deployment>> = scope.api();
    let owned = watcher::Config::default().labels(&deployment::managed_by_selector());
    info!(
        namespace = scope.namespace.as_deref().unwrap_or("*"),
        "starting the Memcached controller"
    );
    scope
        .controller(NAME, memcacheds, watcher::Config::default())
        .owns(deployments, owned)
        .run(reconcile, error_policy, ctx)
        .await;
}
// ANCHOR_END: run
