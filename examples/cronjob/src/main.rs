//! cronjob-operator: a Kubernetes operator. See `--help`, and README.md for what to do next.

mod api;
mod controller;
mod schedule;
mod webhook;
// kubegen:scaffold:modules

use clap::Parser;
use kubegen::rbac;
use kubegen::runtime::{Manager, Options};

/// Runs the cronjob-operator operator.
#[derive(clap::Parser, Debug)]
#[command(version)]
struct Args {
    #[command(flatten)]
    runtime: Options,
}

// ANCHOR: main
/// The runtime's own API calls: leader election (`--leader-elect`) holds a Lease in the
/// operator's own namespace; the secured metrics endpoint (`--metrics-bind-address`) reviews
/// each caller's token (TokenReview) and its access to `/metrics` (SubjectAccessReview).
#[rbac(
    groups = "coordination.k8s.io",
    resources = "leases",
    verbs = "get;create;patch",
    namespace = "cronjob-operator-system"
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
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    args.runtime.init_logging();
    let client = kube::Client::try_default().await?;
    let manager = Manager::new(client, args.runtime);
    // `kubegen create` adds controllers and webhooks here.
    let manager = manager.controller(controller::cron_job::run);
    let manager = manager.webhooks(webhook::server());
    // kubegen:scaffold:manager
    manager.run().await?;
    Ok(())
}
// ANCHOR_END: main
