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

use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use kube::runtime::controller::Error as ControllerError;
use kube::runtime::events::{Recorder, Reporter};
use kube::runtime::{Controller, watcher};
use kube::{Api, Client};
use kubegen::rbac;
use tokio_util::sync::CancellationToken;
use tracing::{debug, info, warn};

use crate::api::v1alpha1::Memcached;
use crate::metrics::Metrics;

pub use backoff::Backoff;
pub use reconcile::{error_policy, reconcile};

/// How long the controller may take to stop once `shutdown` is cancelled: the reconciles in
/// flight finish within it (well inside the pod's 10 s grace period).
const STOP_TIMEOUT: Duration = Duration::from_secs(5);

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
    /// The status update kept conflicting with concurrent writers.
    #[error("status update conflicted {0} times in a row")]
    StatusConflict(usize),
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
            Error::StatusConflict(_) => "conflict",
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

/// Runs the controller until `shutdown` is cancelled: `Memcached` objects in `namespace` (all
/// namespaces when `None`) and the Deployments the operator labelled as its own. Returns at
/// most 5 s after the cancellation: kube-runtime's controller holds its reconciles
/// until its caches are filled, and does not stop until then, so a shutdown before the first
/// lists succeeded (the webhook server failing at start, an unreachable API) would hang.
#[rbac(
    groups = "cache.example.com",
    resources = "memcacheds",
    verbs = "list;watch"
)]
#[rbac(groups = "apps", resources = "deployments", verbs = "list;watch")]
pub async fn run(ctx: Arc<Context>, namespace: Option<&str>, shutdown: CancellationToken) {
    let client = ctx.client.clone();
    let (memcacheds, deployments): (Api<Memcached>, Api<Deployment>) = match namespace {
        Some(ns) => (
            Api::namespaced(client.clone(), ns),
            Api::namespaced(client, ns),
        ),
        None => (Api::all(client.clone()), Api::all(client)),
    };
    let owned = watcher::Config::default().labels(&deployment::managed_by_selector());
    info!(
        namespace = namespace.unwrap_or("*"),
        "starting the Memcached controller"
    );
    let controller = Controller::new(memcacheds, watcher::Config::default())
        .owns(deployments, owned)
        .graceful_shutdown_on(shutdown.clone().cancelled_owned())
        .run(reconcile, error_policy, ctx)
        .for_each(|result| async move {
            match result {
                Ok(_) | Err(ControllerError::ReconcilerFailed(..)) => {} // error_policy logged it
                Err(ControllerError::ObjectNotFound(object)) => {
                    debug!(%object, "deleted before its reconcile")
                }
                Err(error) => warn!(%error, "controller error"),
            }
        });
    let overdue = async {
        shutdown.cancelled().await;
        tokio::time::sleep(STOP_TIMEOUT).await;
    };
    tokio::select! {
        () = controller => info!("the Memcached controller has stopped"),
        () = overdue => warn!(timeout = ?STOP_TIMEOUT, "the Memcached controller did not stop in time: dropped"),
    }
}
