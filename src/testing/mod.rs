//! A real API server in `cargo test`, as Go operators have envtest: [`ControlPlane::start`]
//! runs etcd and kube-apiserver from the binaries setup-envtest installs, on free loopback
//! ports, with certificates it generates and RBAC on, and returns an admin [`kube::Client`].
//!
//! ```no_run
//! # async fn test() -> Result<(), kubegen::testing::Error> {
//! use kubegen::testing::ControlPlane;
//! # let crd = unimplemented!();
//!
//! let cp = ControlPlane::shared().await?;
//! cp.install_crds(&[crd]).await?;
//! let namespace = cp.namespace("memcached").await?;
//! let client = cp.client();
//! # Ok(()) }
//! ```
//!
//! [`ControlPlane::shared`] is one control plane for every test of a test binary (they run in
//! parallel against it, each in a namespace of its own); [`ControlPlane::start`] is one for the
//! caller alone.
//!
//! The binaries come from `KUBEBUILDER_ASSETS` (what `setup-envtest use -p path` prints),
//! else `KUBEGEN_TEST_ASSETS`. `USE_EXISTING_CLUSTER=true` (the current kubeconfig) or
//! `KUBEGEN_TEST_KUBECONFIG=<file>` runs the same tests against an existing cluster instead.
//! The processes are killed and their folder removed when the [`ControlPlane`] is dropped;
//! on Linux they also die with the test process, even one killed with SIGKILL (the shared
//! one's way to end), and the next start removes the folder left behind.
//! There is no kube-controller-manager or kubelet: [`ControlPlane::roll_out`],
//! [`ControlPlane::collect_garbage`] and [`ControlPlane::delete_namespace`] do their common
//! jobs once, for the test that needs them; [`missing_rbac`] turns a 403 into the `#[rbac]`
//! attribute that would have allowed the request.
//! `KUBEGEN_TEST_LOGS=1` (or envtest's `KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT=true`) copies
//! etcd's and kube-apiserver's output to standard error, each line tagged with its process.

mod accounts;
mod assets;
mod certs;
mod control_plane;
mod controllers;
mod crds;
mod error;
mod process;
mod webhooks;

pub use controllers::missing_rbac;
pub use error::Error;
pub use webhooks::LoopbackWebhooks;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

/// A control plane for tests: a local etcd and kube-apiserver, or an existing cluster.
pub struct ControlPlane {
    config: kube::Config,
    kubeconfig: Option<PathBuf>,
    kubectl: PathBuf,
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
        let mut kubectl = PathBuf::from("kubectl");
        let (config, kubeconfig, local) = if let Some(path) =
            std::env::var_os("KUBEGEN_TEST_KUBECONFIG").filter(|p| !p.is_empty())
        {
            let path = PathBuf::from(path);
            (control_plane::config_from(&path).await?, Some(path), None)
        } else if std::env::var("USE_EXISTING_CLUSTER").is_ok_and(|v| v == "true") {
            let config = kube::Config::infer()
                .await
                .map_err(|e| Error::Config(format!("USE_EXISTING_CLUSTER=true: {e}")))?;
            (config, None, None)
        } else {
            let assets = assets::find()?;
            kubectl = assets.kubectl.clone().unwrap_or(kubectl);
            let (local, config) = control_plane::start(&assets).await?;
            let kubeconfig = local.dir.path().join("kubeconfig");
            (config, Some(kubeconfig), Some(local))
        };
        // Checked once here, so that `client` cannot fail later.
        kube::Client::try_from(config.clone())?;
        Ok(ControlPlane {
            config,
            kubeconfig,
            kubectl,
            local,
        })
    }

    /// The control plane of this test process, started by its first caller; every later call
    /// (from any test, on any runtime) returns the same one. A start that failed is tried
    /// again by the next caller.
    pub async fn shared() -> Result<&'static ControlPlane, Error> {
        static SHARED: tokio::sync::OnceCell<ControlPlane> = tokio::sync::OnceCell::const_new();
        SHARED.get_or_try_init(ControlPlane::start).await
    }

    /// A client authenticated as an administrator (group `system:masters`). Each call makes a
    /// new one, tied to the caller's runtime, so that tests on their own runtimes can share a
    /// control plane.
    pub fn client(&self) -> kube::Client {
        kube::Client::try_from(self.config.clone())
            .expect("the configuration made a client when the control plane started")
    }

    /// The admin client's configuration (server, CA, credentials).
    pub fn config(&self) -> &kube::Config {
        &self.config
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
            .map(|local| [local.etcd.id(), local.apiserver().id()])
    }

    /// The admin kubeconfig (`kubectl --kubeconfig` takes it): a local control plane's, or the
    /// file `KUBEGEN_TEST_KUBECONFIG` names; `None` for `USE_EXISTING_CLUSTER=true`, whose
    /// kubeconfig is the usual one.
    pub fn kubeconfig(&self) -> Option<PathBuf> {
        self.kubeconfig.clone()
    }

    /// A `kubectl` command for the control plane as its administrator: the one beside the
    /// binaries (setup-envtest installs it), else the first on `PATH`, with `KUBECONFIG` set
    /// to [`kubeconfig`](Self::kubeconfig) when there is one.
    pub fn kubectl(&self) -> std::process::Command {
        let mut command = std::process::Command::new(&self.kubectl);
        if let Some(kubeconfig) = &self.kubeconfig {
            command.env("KUBECONFIG", kubeconfig);
        }
        command
    }

    /// Installs `crds` and waits until each is `Established`; returns how long that took.
    pub async fn install_crds(&self, crds: &[CustomResourceDefinition]) -> Result<Duration, Error> {
        let start = Instant::now();
        crds::install(&self.client(), crds).await?;
        Ok(start.elapsed())
    }

    /// Registers a webhook server the test runs on `127.0.0.1:<port>`: makes a CA and a
    /// certificate for `127.0.0.1` (in [`LoopbackWebhooks::cert_dir`], what the server's
    /// `--webhook-cert-dir` names), then installs `crds` with their conversion webhook and the
    /// configurations of `manifests` (a generated `config/webhook/manifests.yaml`), each
    /// Service client config turned into `https://127.0.0.1:<port><path>` with the CA bundle;
    /// the configurations are named `<name>-<namespace>` and limited to `namespace`, so tests
    /// sharing the control plane do not call each other's servers.
    pub async fn install_webhooks(
        &self,
        port: u16,
        manifests: &str,
        crds: &[CustomResourceDefinition],
        namespace: &str,
    ) -> Result<LoopbackWebhooks, Error> {
        let client = self.client();
        let (installed, crds) =
            webhooks::install(&client, port, manifests, crds, namespace).await?;
        crds::install(&client, &crds).await?;
        Ok(installed)
    }

    /// Deletes the webhook configurations of [`install_webhooks`](Self::install_webhooks)
    /// (the CRDs stay).
    pub async fn uninstall_webhooks(&self, webhooks: &LoopbackWebhooks) -> Result<(), Error> {
        webhooks::uninstall(&self.client(), webhooks).await
    }

    /// Creates a namespace of its own for a test, named `prefix-` and a random suffix.
    pub async fn namespace(&self, prefix: &str) -> Result<String, Error> {
        crds::namespace(&self.client(), prefix).await
    }

    /// A client that authenticates as the ServiceAccount `namespace/name` (created), with a
    /// token from the TokenRequest API, bound to every ClusterRole and Role of `role_yaml` (a
    /// generated `config/rbac/role.yaml`; its Roles are created in `namespace`): a request
    /// its rules do not allow fails with 403. Its default namespace is `namespace`, as a pod's
    /// client's is its ServiceAccount's.
    pub async fn client_as(
        &self,
        namespace: &str,
        name: &str,
        role_yaml: &str,
    ) -> Result<kube::Client, Error> {
        accounts::client_as(&self.client(), &self.config, namespace, name, role_yaml).await
    }

    /// Stops the API server, waits `down`, starts it again on the same port with the same etcd,
    /// and waits until it is ready: what an operator sees when its cluster's API server
    /// restarts. An error for an existing cluster, which is not the harness's to restart.
    pub async fn restart_apiserver(&self, down: Duration) -> Result<(), Error> {
        match &self.local {
            Some(local) => local.restart_apiserver(down).await,
            None => Err(Error::Config(
                "restart_apiserver: an existing cluster's API server is not the harness's to \
                 restart"
                    .into(),
            )),
        }
    }

    /// Writes the status the Deployment `namespace/name` gets from its controllers and
    /// kubelets once every replica is ready (observed generation, replica counts, the
    /// `Available` and `Progressing` conditions), as stored.
    pub async fn roll_out(
        &self,
        namespace: &str,
        name: &str,
    ) -> Result<k8s_openapi::api::apps::v1::Deployment, Error> {
        controllers::roll_out(&self.client(), namespace, name).await
    }

    /// Does the garbage collector's job for the owner whose uid is `owner_uid`, once it is
    /// deleted, to the objects `api` lists: those it solely owned are deleted, the others lose
    /// the reference. Returns the names of the deleted objects.
    pub async fn collect_garbage<K>(
        &self,
        api: &kube::Api<K>,
        owner_uid: &str,
    ) -> Result<Vec<String>, Error>
    where
        K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
    {
        controllers::collect_garbage(api, owner_uid).await
    }

    /// Deletes the namespace as the namespace controller would: its objects deleted, and once
    /// none is left (those with finalizers wait for their controllers), the namespace gone.
    pub async fn delete_namespace(&self, name: &str) -> Result<(), Error> {
        controllers::delete_namespace(&self.client(), name).await
    }

    /// An error if etcd or kube-apiserver has exited, with the end of its log.
    pub fn check_running(&self) -> Result<(), Error> {
        match &self.local {
            Some(local) => {
                local.etcd.check_running()?;
                local.apiserver().check_running()
            }
            None => Ok(()),
        }
    }
}
