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

mod accounts;
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
    config: kube::Config,
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
        let (config, local) = if let Some(path) =
            std::env::var_os("KUBEGEN_TEST_KUBECONFIG").filter(|p| !p.is_empty())
        {
            (
                control_plane::config_from(&PathBuf::from(path)).await?,
                None,
            )
        } else if std::env::var("USE_EXISTING_CLUSTER").is_ok_and(|v| v == "true") {
            let config = kube::Config::infer()
                .await
                .map_err(|e| Error::Config(format!("USE_EXISTING_CLUSTER=true: {e}")))?;
            (config, None)
        } else {
            let (local, config) = control_plane::start(&assets::find()?).await?;
            (config, Some(local))
        };
        Ok(ControlPlane {
            client: kube::Client::try_from(config.clone())?,
            config,
            local,
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

    /// A client that authenticates as the ServiceAccount `namespace/name` (created), with a
    /// token from the TokenRequest API, bound to every ClusterRole and Role of `role_yaml` (a
    /// generated `config/rbac/role.yaml`; its Roles are created in `namespace`): a request
    /// its rules do not allow fails with 403.
    pub async fn client_as(
        &self,
        namespace: &str,
        name: &str,
        role_yaml: &str,
    ) -> Result<kube::Client, Error> {
        accounts::client_as(&self.client, &self.config, namespace, name, role_yaml).await
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
