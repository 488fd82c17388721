//! The whole operator on kubegen's runtime: the HTTP endpoint with the reconciler's metrics,
//! the webhook server, leader election and the controller, with a graceful stop.

use std::sync::Arc;

use kube::Client;
use kubegen::rbac;
use kubegen::runtime::{Manager, Options, Scope};
use prometheus_client::registry::Registry;
use tokio_util::sync::CancellationToken;

use crate::controller::{self, Context};
use crate::metrics::Metrics;
use crate::webhook;

pub use kubegen::runtime::Error;

/// Runs the operator with `client` until `shutdown` is cancelled (the binary cancels it on
/// SIGTERM or Ctrl-C) or, with `--leader-elect`, until the lease is lost. The webhook server
/// (unless `--webhook-port 0`) runs on every replica, leader or not; when it fails (its
/// certificate cannot be read) the operator stops with [`Error::Webhook`]. The controller
/// drains its running reconciles before this returns.
///
/// The runtime's own API calls need RBAC gen-cli cannot see in kubegen's sources, so it is
/// asked for here: leader election reads, creates and renews a Lease in the operator's
/// namespace, and the secured metrics endpoint (`--metrics-secure`) reviews each caller's
/// token (TokenReview) and access to `/metrics` (SubjectAccessReview).
#[rbac(
    groups = "coordination.k8s.io",
    resources = "leases",
    verbs = "get;create;patch",
    namespace = "memcached-operator-system"
)]
#[rbac(
    groups = "authentication.k8s.io",
    resources = "tokenreviews",
    verbs = "create"
)]
#[rbac(
    groups = "authorization.k8s.io",
    resources = "subjectaccessreviews",
    verbs = "create"
)]
pub async fn run(
    client: Client,
    options: &Options,
    shutdown: CancellationToken,
) -> Result<(), Error> {
    let mut registry = Registry::default();
    let metrics = Arc::new(Metrics::default());
    metrics.register(&mut registry);
    Manager::new(client, options.clone())
        .metrics(registry)
        .webhooks(webhook::server())
        .controller(move |scope: Scope| async move {
            let ctx = Arc::new(Context::new(
                scope.client.clone(),
                metrics,
                Some(scope.identity.clone()),
            ));
            controller::run(scope, ctx).await;
        })
        .shutdown(shutdown)
        .run()
        .await
}
