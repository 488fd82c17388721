//! The operator runtime (feature `runtime`): what every operator binary needs around its
//! controllers, so that `main.rs` stays a few lines.
//!
//! - [`Options`]: the command line (watched namespace, health/metrics address, leader
//!   election, log format) as a `clap::Args` to `#[command(flatten)]` into yours;
//! - [`Manager`]: runs one or more controllers (and, with the `webhook` feature, the webhook
//!   server) with the HTTP endpoint ([`http`]: `/healthz`, `/readyz`, `/metrics`; [`secure`]:
//!   `/metrics` over HTTPS to authorized callers), leader election ([`leader`]) and a graceful
//!   stop on SIGTERM or Ctrl-C ([`shutdown_on_signal`]);
//! - [`Scope::controller`]: runs a controller on kube-runtime, measured under
//!   controller-runtime's metric names ([`metrics`]), beside the process metrics of
//!   Prometheus' Go client ([`process`]);
//! - [`client`]: the API client whose requests `/metrics` counts ([`rest_client`]);
//! - [`conditions`]: status conditions set as `meta.SetStatusCondition` does.
//!
//! ```no_run
//! use std::sync::Arc;
//! use std::time::Duration;
//!
//! use clap::Parser;
//! use k8s_openapi::api::core::v1::ConfigMap;
//! use kube::runtime::{controller::Action, watcher};
//! use kubegen::runtime::{Manager, Options, Scope};
//!
//! #[derive(clap::Parser)]
//! struct Args {
//!     #[command(flatten)]
//!     runtime: Options,
//! }
//!
//! async fn reconcile(object: Arc<ConfigMap>, _ctx: Arc<()>) -> Result<Action, kube::Error> {
//!     Ok(Action::await_change())
//! }
//!
//! fn error_policy(_object: Arc<ConfigMap>, _error: &kube::Error, _ctx: Arc<()>) -> Action {
//!     Action::requeue(Duration::from_secs(5))
//! }
//!
//! async fn my_controller(scope: Scope) {
//!     scope
//!         .controller("configmap", scope.api(), watcher::Config::default())
//!         .run(reconcile, error_policy, Arc::new(()))
//!         .await; // returns once the operator stops
//! }
//!
//! # async fn main_() -> Result<(), Box<dyn std::error::Error>> {
//! let args = Args::parse();
//! args.runtime.init_logging();
//! let client = kubegen::runtime::client(kube::Config::infer().await?)?;
//! Manager::new(client, args.runtime)
//!     .controller(my_controller)
//!     .run()
//!     .await?;
//! # Ok(()) }
//! ```
//!
//! The runtime's own API calls need RBAC that `gen-cli` cannot see from your sources: with
//! `--leader-elect`, `get`, `create` and `patch` on `coordination.k8s.io` `leases` in the
//! Lease's namespace; with `--metrics-secure`, `create` on `authentication.k8s.io`
//! `tokenreviews` and `authorization.k8s.io` `subjectaccessreviews`. Put those `#[rbac]` on
//! your `main` (`kubegen init` does).

pub mod conditions;
mod controller;
pub mod http;
pub mod leader;
mod manager;
pub mod metrics;
mod options;
pub mod process;
pub mod rest_client;
pub mod secure;
mod signal;
#[cfg(feature = "webhook")]
pub mod webhook_metrics;

pub use controller::{DEFAULT_CONCURRENCY, Run, STOP_TIMEOUT};
pub use manager::{Error, Manager, Scope};
pub use metrics::ControllerMetrics;
pub use options::{LogFormat, Options};
pub use process::ProcessMetrics;
pub use rest_client::client;
pub use signal::{shutdown_on_signal, signal};
