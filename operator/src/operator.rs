//! The whole operator: HTTP endpoint, leader election and controller, with a graceful stop.

use std::sync::Arc;

use kube::Client;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

use crate::cli::Args;
use crate::controller::{self, Context};
use crate::leader;
use crate::metrics::Metrics;
use crate::server::{self, Readiness};

/// Why the operator stopped with a failure.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The HTTP endpoint could not listen or serve.
    #[error("HTTP endpoint: {0}")]
    Http(#[from] std::io::Error),
    /// Leader election could not start.
    #[error("leader election: {0}")]
    LeaderElection(#[from] kube_lease_manager::LeaseManagerError),
    /// Another replica took the leader lease over.
    #[error("lost the leader lease")]
    LostLeadership,
}

/// Runs the operator with `client` until `shutdown` is cancelled (a signal) or, with
/// `--leader-elect`, until the lease is lost. The controller drains its running reconciles
/// before this returns.
pub async fn run(client: Client, args: &Args, shutdown: CancellationToken) -> Result<(), Error> {
    let metrics = Arc::new(Metrics::default());
    let readiness = Arc::new(Readiness::default());
    let listener = TcpListener::bind(args.http_addr).await?;
    info!(address = %listener.local_addr()?, "serving /healthz, /readyz and /metrics");
    let http = tokio::spawn(server::serve(
        listener,
        metrics.clone(),
        readiness.clone(),
        shutdown.clone(),
    ));
    readiness.set(true);

    let identity = args.identity();
    let leadership = if args.leader_elect {
        let namespace = args
            .leader_election_namespace
            .clone()
            .unwrap_or_else(|| client.default_namespace().to_string());
        let acquired = leader::acquire(
            client.clone(),
            &namespace,
            &args.leader_election_id,
            &identity,
            &shutdown,
        )
        .await;
        match acquired {
            Ok(Some(leadership)) => Some(leadership),
            Ok(None) => return stop(&readiness, &shutdown, http, Ok(())).await,
            Err(e) => return stop(&readiness, &shutdown, http, Err(e.into())).await,
        }
    } else {
        None
    };

    let watchdog = leadership
        .as_ref()
        .map(|l| l.cancel_on_loss(shutdown.clone()));
    let ctx = Arc::new(Context::new(client, metrics, Some(identity)));
    controller::run(ctx, args.namespace.as_deref(), shutdown.clone()).await;
    shutdown.cancel();
    let lost = match watchdog {
        Some(task) => task.await.unwrap_or(false),
        None => false,
    };
    if let Some(leadership) = leadership {
        leadership.release().await;
    }
    stop(
        &readiness,
        &shutdown,
        http,
        if lost {
            Err(Error::LostLeadership)
        } else {
            Ok(())
        },
    )
    .await
}

async fn stop(
    readiness: &Readiness,
    shutdown: &CancellationToken,
    http: tokio::task::JoinHandle<std::io::Result<()>>,
    result: Result<(), Error>,
) -> Result<(), Error> {
    readiness.set(false);
    shutdown.cancel();
    match http.await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => warn!(%error, "the HTTP endpoint failed"),
        Err(error) => warn!(%error, "the HTTP endpoint task failed"),
    }
    info!("stopped");
    result
}

/// Resolves on SIGTERM (how Kubernetes stops a pod) or SIGINT (Ctrl-C).
pub async fn signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => tokio::select! {
                _ = term.recv() => info!("SIGTERM received"),
                _ = ctrl_c => info!("SIGINT received"),
            },
            Err(error) => {
                warn!(%error, "cannot listen for SIGTERM");
                let _ = ctrl_c.await;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}
