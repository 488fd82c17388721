//! Stopping on SIGTERM (how Kubernetes stops a pod) or SIGINT (Ctrl-C).

use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

/// Resolves on SIGTERM or SIGINT.
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

/// A token cancelled on the first SIGTERM or SIGINT (a task waits for it).
pub fn shutdown_on_signal() -> CancellationToken {
    let token = CancellationToken::new();
    let on_signal = token.clone();
    tokio::spawn(async move {
        signal().await;
        on_signal.cancel();
    });
    token
}
