//! The whole operator: HTTP endpoint, webhook server, leader election and controller, with a
//! graceful stop.

use std::io;
use std::net::Ipv4Addr;
use std::sync::Arc;

use kube::Client;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

use crate::cli::Args;
use crate::controller::{self, Context};
use crate::leader;
use crate::metrics::Metrics;
use crate::server::{self, Readiness};
use crate::webhook;

/// Why the operator stopped with a failure.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The HTTP endpoint could not listen or serve.
    #[error("HTTP endpoint: {0}")]
    Http(#[from] io::Error),
    /// The webhook server could not listen, or read its certificate.
    #[error("webhook server: {0}")]
    Webhook(#[source] io::Error),
    /// Leader election could not start.
    #[error("leader election: {0}")]
    LeaderElection(#[from] kube_lease_manager::LeaseManagerError),
    /// Another replica took the leader lease over.
    #[error("lost the leader lease")]
    LostLeadership,
}

/// The servers running beside the controller.
struct Servers {
    http: JoinHandle<io::Result<()>>,
    webhooks: Option<JoinHandle<io::Result<()>>>,
}

/// Runs the operator with `client` until `shutdown` is cancelled (a signal) or, with
/// `--leader-elect`, until the lease is lost. The webhook server (unless `--webhook-port 0`)
/// runs on every replica, leader or not; when it fails (its certificate cannot be read) the
/// operator stops with [`Error::Webhook`]. The controller drains its running reconciles
/// before this returns.
pub async fn run(client: Client, args: &Args, shutdown: CancellationToken) -> Result<(), Error> {
    let metrics = Arc::new(Metrics::default());
    let readiness = Arc::new(Readiness::default());
    let listener = TcpListener::bind(args.http_addr).await?;
    let webhook_listener = match args.webhook_port {
        0 => None,
        port => Some(
            TcpListener::bind((Ipv4Addr::UNSPECIFIED, port))
                .await
                .map_err(Error::Webhook)?,
        ),
    };
    info!(address = %listener.local_addr()?, "serving /healthz, /readyz and /metrics");
    let http = tokio::spawn(server::serve(
        listener,
        metrics.clone(),
        readiness.clone(),
        shutdown.clone(),
    ));
    let webhooks = webhook_listener.map(|listener| {
        info!(port = args.webhook_port, cert_dir = %args.webhook_cert_dir.display(), "serving the webhooks");
        let (cert_dir, shutdown) = (args.webhook_cert_dir.clone(), shutdown.clone());
        tokio::spawn(async move {
            let served = webhook::serve(listener, cert_dir, shutdown.clone()).await;
            if served.is_err() {
                shutdown.cancel();
            }
            served
        })
    });
    let servers = Servers { http, webhooks };
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
            Ok(None) => return stop(&readiness, &shutdown, servers, Ok(())).await,
            Err(e) => return stop(&readiness, &shutdown, servers, Err(e.into())).await,
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
        servers,
        if lost {
            Err(Error::LostLeadership)
        } else {
            Ok(())
        },
    )
    .await
}

/// Stops the servers and waits for them. A failed webhook server is the result unless there
/// is already an error; a failed HTTP endpoint is logged.
async fn stop(
    readiness: &Readiness,
    shutdown: &CancellationToken,
    servers: Servers,
    mut result: Result<(), Error>,
) -> Result<(), Error> {
    readiness.set(false);
    shutdown.cancel();
    match servers.http.await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => warn!(%error, "the HTTP endpoint failed"),
        Err(error) => warn!(%error, "the HTTP endpoint task failed"),
    }
    if let Some(webhooks) = servers.webhooks {
        let failure = match webhooks.await {
            Ok(served) => served.err(),
            Err(panicked) => Some(io::Error::other(panicked)),
        };
        if let Some(error) = failure {
            warn!(%error, "the webhook server failed");
            if result.is_ok() {
                result = Err(Error::Webhook(error));
            }
        }
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
