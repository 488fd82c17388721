//! Leader election through a `coordination.k8s.io` Lease, so that only one replica runs the
//! controllers at a time.
//!
//! It needs `get`, `create` and `patch` on `leases` in the Lease's namespace:
//! `#[rbac(groups = "coordination.k8s.io", resources = "leases", verbs = "get;create;patch",
//! namespace = "<your operator's namespace>")]` in your sources.

use kube::Client;
use kube_lease_manager::{LeaseManager, LeaseManagerBuilder, LeaseManagerError};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

/// How long a leader's lock is valid after its last renewal, in seconds.
pub const LEASE_DURATION: u64 = 15;
/// How long before expiry the leader renews its lock, in seconds.
pub const RENEW_GRACE: u64 = 5;

/// The lease held by this process while it leads.
pub struct Leadership {
    state: watch::Receiver<bool>,
    task: JoinHandle<Result<LeaseManager, LeaseManagerError>>,
}

/// Waits until this process (named `identity`) holds the Lease `name` in `namespace`, creating
/// the Lease if needed. Returns `None` if `shutdown` is cancelled first.
pub async fn acquire(
    client: Client,
    namespace: &str,
    name: &str,
    identity: &str,
    shutdown: &CancellationToken,
) -> Result<Option<Leadership>, LeaseManagerError> {
    let manager = LeaseManagerBuilder::new(client, name)
        .with_namespace(namespace)
        .with_identity(identity)
        .with_duration(LEASE_DURATION)
        .with_grace(RENEW_GRACE)
        .build()
        .await?;
    let (mut state, task) = manager.watch().await;
    info!(
        lease = name,
        namespace, identity, "waiting to become the leader"
    );
    let leading = tokio::select! {
        _ = shutdown.cancelled() => false,
        result = state.wait_for(|leading| *leading) => result.is_ok(),
    };
    let leadership = Leadership { state, task };
    if leading {
        info!(lease = name, "became the leader");
        Ok(Some(leadership))
    } else {
        leadership.release().await;
        Ok(None)
    }
}

impl Leadership {
    /// A task that cancels `shutdown` if the lease is lost (and then yields `true`), or ends
    /// with `false` when `shutdown` is cancelled for another reason.
    pub fn cancel_on_loss(&self, shutdown: CancellationToken) -> JoinHandle<bool> {
        let mut state = self.state.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = shutdown.cancelled() => false,
                _ = state.wait_for(|leading| !*leading) => {
                    warn!("lost the leader lease; stopping");
                    shutdown.cancel();
                    true
                }
            }
        })
    }

    /// Gives the lease up so that another replica can take over at once.
    pub async fn release(self) {
        drop(self.state);
        match self.task.await {
            Ok(Ok(_)) => info!("released the leader lease"),
            Ok(Err(error)) => warn!(%error, "could not release the leader lease"),
            Err(error) => warn!(%error, "the leader election task failed"),
        }
    }
}
