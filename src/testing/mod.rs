//! A real API server in `cargo test`, as Go operators have envtest: [`ControlPlane::start`]
//! runs etcd and kube-apiserver from the binaries setup-envtest installs, on free loopback
//! ports, with certificates it generates and RBAC on, and returns an admin [`kube::Client`].
//!
//! ```no_run
//! # async fn test() -> Result<(), kubegen::testing::Error> {
//! use kubegen::testing::ControlPlane;
//! # let crd = unimplemented!();
//!
//! let cp = ControlPlane::start().await?;
//! cp.install_crds(&[crd]).await?;
//! let namespace = cp.namespace("memcached").await?;
//! let client = cp.client();
//! # Ok(()) }
//! ```
//!
//! The binaries come from `KUBEBUILDER_ASSETS` (what `setup-envtest use -p path` prints),
//! else `KUBEGEN_TEST_ASSETS`. `USE_EXISTING_CLUSTER=true` (the current kubeconfig) or
//! `KUBEGEN_TEST_KUBECONFIG=<file>` runs the same tests against an existing cluster instead.
//! The processes are killed and their folder removed when the [`ControlPlane`] is dropped;
//! on Linux they also die with the test process, even one killed with SIGKILL.

mod assets;
mod certs;
mod control_plane;
mod crds;
mod error;
mod process;

pub use error::Error;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

/// A control plane for tests: a local etcd and kube-apiserver, or an existing cluster.
pub struct ControlPlane {
    client: kube::Client,
    local: Option<control_plane::Local>,
}

/// How long the parts of a local control plane's start took, each from the start.
#[derive(Debug, Clone, Copy)]
pub struct Timings {
    /// Until etcd answered `/health`.
    pub etcd_ready: Duration,
    /// Until kube-apiserver answered `/readyz` with `ok`.
    pub apiserver_ready: Duration,
}

impl ControlPlane {
    /// Starts etcd and kube-apiserver (or connects to the cluster `USE_EXISTING_CLUSTER=true`
    /// or `KUBEGEN_TEST_KUBECONFIG` names) and waits until the API server is ready.
    pub async fn start() -> Result<Self, Error> {
        if let Some(path) = std::env::var_os("KUBEGEN_TEST_KUBECONFIG").filter(|p| !p.is_empty()) {
            let client = control_plane::client_from(&PathBuf::from(path)).await?;
            return Ok(ControlPlane {
                client,
                local: None,
            });
        }
        if std::env::var("USE_EXISTING_CLUSTER").is_ok_and(|v| v == "true") {
            let client = kube::Client::try_default().await?;
            return Ok(ControlPlane {
                client,
                local: None,
            });
        }
        let assets = assets::find()?;
        let (local, client) = control_plane::start(&assets).await?;
        Ok(ControlPlane {
            client,
            local: Some(local),
        })
    }

    /// A client authenticated as an administrator (group `system:masters`).
    pub fn client(&self) -> kube::Client {
        self.client.clone()
    }

    /// The start's timings; `None` for an existing cluster.
    pub fn timings(&self) -> Option<Timings> {
        self.local.as_ref().map(|local| Timings {
            etcd_ready: local.etcd_ready,
            apiserver_ready: local.apiserver_ready,
        })
    }

    /// The process ids of etcd and kube-apiserver; `None` for an existing cluster.
    pub fn pids(&self) -> Option<[u32; 2]> {
        self.local
            .as_ref()
            .map(|local| [local.etcd.id(), local.apiserver.id()])
    }

    /// The admin kubeconfig of a local control plane (`kubectl --kubeconfig` takes it).
    pub fn kubeconfig(&self) -> Option<PathBuf> {
        self.local
            .as_ref()
            .map(|local| local.dir.path().join("kubeconfig"))
    }

    /// Installs `crds` and waits until each is `Established`; returns how long that took.
    pub async fn install_crds(&self, crds: &[CustomResourceDefinition]) -> Result<Duration, Error> {
        let start = Instant::now();
        crds::install(&self.client, crds).await?;
        Ok(start.elapsed())
    }

    /// Creates a namespace of its own for a test, named `prefix-` and a random suffix.
    pub async fn namespace(&self, prefix: &str) -> Result<String, Error> {
        crds::namespace(&self.client, prefix).await
    }

    /// An error if etcd or kube-apiserver has exited, with the end of its log.
    pub fn check_running(&mut self) -> Result<(), Error> {
        match &mut self.local {
            Some(local) => {
                local.etcd.check_running()?;
                local.apiserver.check_running()
            }
            None => Ok(()),
        }
    }
}
