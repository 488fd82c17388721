//! [`Manager`]: the controllers, the HTTP endpoint, leader election and (feature `webhook`)
//! the webhook server, started and stopped together.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use k8s_openapi::NamespaceResourceScope;
use kube::{Api, Client, Resource};
use prometheus_client::registry::Registry;
use tokio::net::TcpListener;
use tokio::task::{JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

use super::http::{self, Readiness};
use super::metrics::ControllerMetrics;
use super::{Options, leader, secure, shutdown_on_signal};

/// What a controller runs with: the client, the namespace to watch and the token cancelled
/// when the operator stops ([`Scope::controller`] stops with it; give it to
/// `Controller::graceful_shutdown_on` for a controller of your own).
#[derive(Clone)]
pub struct Scope {
    /// The client every API call goes through.
    pub client: Client,
    /// The namespace to watch (`--namespace`); `None` for all namespaces.
    pub namespace: Option<String>,
    /// This replica's identity (`--identity`), for events and logs.
    pub identity: String,
    /// Cancelled on SIGTERM or SIGINT, when the leader lease is lost, or when another part of
    /// the operator fails.
    pub shutdown: CancellationToken,
    /// The controller metrics [`Scope::controller`] records, served on `/metrics`.
    pub metrics: ControllerMetrics,
}

impl Scope {
    /// An `Api` of a namespaced kind in the watched namespace, or in all namespaces.
    pub fn api<K>(&self) -> Api<K>
    where
        K: Resource<Scope = NamespaceResourceScope>,
        K::DynamicType: Default,
    {
        match &self.namespace {
            Some(ns) => Api::namespaced(self.client.clone(), ns),
            None => Api::all(self.client.clone()),
        }
    }
}

/// Why the operator stopped with a failure.
#[derive(Debug)]
pub enum Error {
    /// The HTTP endpoint could not listen or serve.
    Http(std::io::Error),
    /// The metrics server of `--metrics-bind-address` could not listen or serve.
    Metrics(std::io::Error),
    /// Leader election could not start.
    LeaderElection(kube_lease_manager::LeaseManagerError),
    /// Another replica took the leader lease over.
    LostLeadership,
    /// The webhook server could not listen or serve (a missing certificate, say).
    #[cfg(feature = "webhook")]
    Webhook(std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Http(e) => write!(f, "HTTP endpoint: {e}"),
            Error::Metrics(e) => write!(f, "metrics server: {e}"),
            Error::LeaderElection(e) => write!(f, "leader election: {e}"),
            Error::LostLeadership => f.write_str("lost the leader lease"),
            #[cfg(feature = "webhook")]
            Error::Webhook(e) => write!(f, "webhook server: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Http(e) | Error::Metrics(e) => Some(e),
            Error::LeaderElection(e) => Some(e),
            Error::LostLeadership => None,
            #[cfg(feature = "webhook")]
            Error::Webhook(e) => Some(e),
        }
    }
}

type Start = Box<dyn FnOnce(Scope) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

/// A task serving something until the shutdown token is cancelled.
type Serving = JoinHandle<Result<(), Error>>;

/// Runs an operator: `new`, add controllers, `run`.
///
/// `run` serves the HTTP endpoint and the webhook server at once (every replica answers
/// them), then with `--leader-elect` waits for the leader Lease, then runs every controller
/// until the shutdown token is cancelled: by SIGTERM or SIGINT (or the token given to
/// [`Manager::shutdown`]), when the lease is lost, when a server fails or when a controller
/// returns. Controllers get the token to drain their running reconciles; `run` returns once
/// all of them have.
pub struct Manager {
    client: Client,
    options: Options,
    controllers: Vec<Start>,
    registry: Registry,
    controller_metrics: ControllerMetrics,
    shutdown: Option<CancellationToken>,
    http_listener: Option<TcpListener>,
    metrics_listener: Option<TcpListener>,
    #[cfg(feature = "webhook")]
    webhooks: Option<crate::webhook::Server>,
    #[cfg(feature = "webhook")]
    webhook_listener: Option<TcpListener>,
}

impl Manager {
    /// A manager with no controller yet.
    pub fn new(client: Client, options: Options) -> Self {
        Manager {
            client,
            options,
            controllers: Vec::new(),
            registry: Registry::default(),
            controller_metrics: ControllerMetrics::default(),
            shutdown: None,
            http_listener: None,
            metrics_listener: None,
            #[cfg(feature = "webhook")]
            webhooks: None,
            #[cfg(feature = "webhook")]
            webhook_listener: None,
        }
    }

    /// Adds a controller: `start` is called with the [`Scope`] once this replica may run
    /// controllers, and must return when `scope.shutdown` is cancelled.
    pub fn controller<F, Fut>(mut self, start: F) -> Self
    where
        F: FnOnce(Scope) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.controllers
            .push(Box::new(move |scope| Box::pin(start(scope))));
        self
    }

    /// The registry `/metrics` serves, with the operator's own metrics (default: an empty
    /// one); the controller metrics ([`ControllerMetrics`]) are added to it.
    pub fn metrics(mut self, registry: Registry) -> Self {
        self.registry = registry;
        self
    }

    /// Stops when `token` is cancelled, instead of on SIGTERM or SIGINT.
    pub fn shutdown(mut self, token: CancellationToken) -> Self {
        self.shutdown = Some(token);
        self
    }

    /// Serves the HTTP endpoint on `listener` instead of binding `--http-addr`.
    pub fn http_listener(mut self, listener: TcpListener) -> Self {
        self.http_listener = Some(listener);
        self
    }

    /// Serves `/metrics` on `listener` (as `--metrics-bind-address` does, with
    /// `--metrics-secure`) instead of binding.
    pub fn metrics_listener(mut self, listener: TcpListener) -> Self {
        self.metrics_listener = Some(listener);
        self
    }

    /// Serves `server` on `--webhook-port` with the certificate in `--webhook-cert-dir`
    /// (unless `--webhook-port 0`).
    #[cfg(feature = "webhook")]
    pub fn webhooks(mut self, server: crate::webhook::Server) -> Self {
        self.webhooks = Some(server);
        self
    }

    /// Serves the webhooks on `listener` instead of binding `--webhook-port`.
    #[cfg(feature = "webhook")]
    pub fn webhook_listener(mut self, listener: TcpListener) -> Self {
        self.webhook_listener = Some(listener);
        self
    }

    /// Runs until the shutdown token is cancelled (see [`Manager`]).
    pub async fn run(mut self) -> Result<(), Error> {
        let shutdown = self.shutdown.unwrap_or_else(shutdown_on_signal);
        self.controller_metrics.register(&mut self.registry);
        self.registry
            .register_collector(Box::new(super::ProcessMetrics));
        super::rest_client::register(&mut self.registry);
        #[cfg(feature = "webhook")]
        let webhooks = self
            .webhooks
            .map(|server| super::webhook_metrics::instrument(server, &mut self.registry));
        let readiness = Arc::new(Readiness::default());
        let listener = match self.http_listener {
            Some(listener) => listener,
            None => TcpListener::bind(self.options.http_addr)
                .await
                .map_err(Error::Http)?,
        };
        let health = http::health(readiness.clone());
        let metrics = http::metrics(Arc::new(self.registry));
        let metrics_listener = match (self.metrics_listener, self.options.metrics_bind_address) {
            (Some(listener), _) => Some(listener),
            (None, Some(address)) => match TcpListener::bind(address).await {
                Ok(listener) => Some(listener),
                Err(e) => return Err(Error::Metrics(e)),
            },
            (None, None) => None,
        };
        let separate = metrics_listener.is_some();
        let address = listener.local_addr().map_err(Error::Http)?;
        let app = if separate {
            info!(%address, "serving /healthz and /readyz");
            health
        } else {
            info!(%address, "serving /healthz, /readyz and /metrics");
            health.merge(metrics.clone())
        };
        let endpoint = http::serve(listener, app, shutdown.clone());
        let mut serving = vec![stop_on_failure(&shutdown, async {
            endpoint.await.map_err(Error::Http)
        })];
        if let Some(listener) = metrics_listener {
            match serve_metrics(metrics, listener, &self.options, &self.client, &shutdown) {
                Ok(server) => serving.push(server),
                Err(e) => return stop(&readiness, &shutdown, serving, Err(e)).await,
            }
        }
        #[cfg(feature = "webhook")]
        let serving = match webhooks.filter(|_| self.options.webhook_port != 0) {
            Some(server) => {
                match serve_webhooks(server, self.webhook_listener, &self.options, &shutdown).await
                {
                    Ok(webhooks) => serving.into_iter().chain([webhooks]).collect(),
                    Err(e) => return stop(&readiness, &shutdown, serving, Err(e)).await,
                }
            }
            None => serving,
        };
        readiness.set(true);

        let identity = self.options.identity();
        let leadership = if self.options.leader_elect {
            let namespace = self
                .options
                .leader_election_namespace
                .clone()
                .unwrap_or_else(|| self.client.default_namespace().to_string());
            let lease = self.options.leader_election_id();
            self.controller_metrics.set_leader(&lease, false);
            let acquired = leader::acquire(
                self.client.clone(),
                &namespace,
                &lease,
                &identity,
                &shutdown,
            )
            .await;
            match acquired {
                Ok(Some(leadership)) => {
                    self.controller_metrics.set_leader(&lease, true);
                    Some((lease, leadership))
                }
                Ok(None) => return stop(&readiness, &shutdown, serving, Ok(())).await,
                Err(e) => {
                    return stop(
                        &readiness,
                        &shutdown,
                        serving,
                        Err(Error::LeaderElection(e)),
                    )
                    .await;
                }
            }
        } else {
            None
        };
        let watchdog = leadership
            .as_ref()
            .map(|(_, l)| l.cancel_on_loss(shutdown.clone()));

        let scope = Scope {
            client: self.client,
            namespace: self.options.namespace,
            identity,
            shutdown: shutdown.clone(),
            metrics: self.controller_metrics.clone(),
        };
        let mut controllers = JoinSet::new();
        for start in self.controllers {
            controllers.spawn(start(scope.clone()));
        }
        if controllers.is_empty() {
            shutdown.cancelled().await;
        }
        while let Some(ended) = controllers.join_next().await {
            if let Err(error) = ended {
                warn!(%error, "a controller task failed");
            }
            // One controller ending stops the others: the operator is no longer whole.
            shutdown.cancel();
        }
        let lost = match watchdog {
            Some(task) => task.await.unwrap_or(false),
            None => false,
        };
        if let Some((lease, leadership)) = leadership {
            self.controller_metrics.set_leader(&lease, false);
            leadership.release().await;
        }
        let result = if lost {
            Err(Error::LostLeadership)
        } else {
            Ok(())
        };
        stop(&readiness, &shutdown, serving, result).await
    }
}

/// Serves `server` on `listener`, else on `--webhook-host` and `--webhook-port`, with the
/// certificate of `--webhook-cert-dir`.
#[cfg(feature = "webhook")]
async fn serve_webhooks(
    server: crate::webhook::Server,
    listener: Option<TcpListener>,
    options: &Options,
    shutdown: &CancellationToken,
) -> Result<Serving, Error> {
    let certs = crate::webhook::CertDir::new(&options.webhook_cert_dir);
    let listener = match listener {
        Some(listener) => listener,
        None => {
            let address = std::net::SocketAddr::new(options.webhook_host, options.webhook_port);
            TcpListener::bind(address).await.map_err(|e| {
                Error::Webhook(std::io::Error::new(
                    e.kind(),
                    format!("binding {address}: {e}"),
                ))
            })?
        }
    };
    let address = listener.local_addr().map_err(Error::Webhook)?;
    info!(%address, cert_dir = %options.webhook_cert_dir.display(), "serving the webhooks");
    let until = shutdown.clone().cancelled_owned();
    Ok(stop_on_failure(shutdown, async move {
        server
            .serve(listener, certs, until)
            .await
            .map_err(Error::Webhook)
    }))
}

/// Serves `/metrics` on `listener`: over HTTPS behind the API server's reviews with
/// `--metrics-secure`, else plain.
fn serve_metrics(
    app: axum::Router,
    listener: TcpListener,
    options: &Options,
    client: &Client,
    shutdown: &CancellationToken,
) -> Result<Serving, Error> {
    let address = listener.local_addr().map_err(Error::Metrics)?;
    let shutdown_ = shutdown.clone();
    if options.metrics_secure {
        let (client, cert_dir) = (client.clone(), options.metrics_cert_dir.clone());
        info!(%address, "serving /metrics over HTTPS to authorized callers");
        Ok(stop_on_failure(shutdown, async move {
            secure::serve(app, client, listener, cert_dir.as_deref(), shutdown_)
                .await
                .map_err(Error::Metrics)
        }))
    } else {
        info!(%address, "serving /metrics");
        Ok(stop_on_failure(shutdown, async move {
            http::serve(listener, app, shutdown_)
                .await
                .map_err(Error::Metrics)
        }))
    }
}

/// Spawns `serve`; its failure cancels `shutdown`, so that the operator stops whole.
fn stop_on_failure(
    shutdown: &CancellationToken,
    serve: impl Future<Output = Result<(), Error>> + Send + 'static,
) -> Serving {
    let shutdown = shutdown.clone();
    tokio::spawn(async move {
        let result = serve.await;
        if let Err(error) = &result {
            warn!(%error, "stopping");
            shutdown.cancel();
        }
        result
    })
}

/// Marks the operator not ready, stops the servers and returns the first failure.
async fn stop(
    readiness: &Readiness,
    shutdown: &CancellationToken,
    serving: Vec<Serving>,
    mut result: Result<(), Error>,
) -> Result<(), Error> {
    readiness.set(false);
    shutdown.cancel();
    for task in serving {
        match task.await {
            Ok(Ok(())) => {}
            Ok(Err(error)) => {
                if result.is_ok() {
                    result = Err(error);
                }
            }
            Err(error) => warn!(%error, "a server task failed"),
        }
    }
    info!("stopped");
    result
}

#[cfg(test)]
mod tests {
    use super::super::http::tests::http_get;
    use super::*;
    use clap::Parser;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[derive(clap::Parser)]
    struct Args {
        #[command(flatten)]
        runtime: Options,
    }

    /// A client that is never connected: these tests make no API call.
    fn offline_client() -> Client {
        let config = kube::Config::new("http://127.0.0.1:9".parse().unwrap());
        Client::try_from(config).unwrap()
    }

    fn options(flags: &[&str]) -> Options {
        let mut argv = vec!["op"];
        argv.extend(flags);
        Args::try_parse_from(argv).unwrap().runtime
    }

    #[tokio::test]
    async fn runs_controllers_and_the_endpoint_until_shutdown() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shutdown = CancellationToken::new();
        let started = Arc::new(AtomicUsize::new(0));
        let drained = Arc::new(AtomicUsize::new(0));
        let controller = |started: Arc<AtomicUsize>, drained: Arc<AtomicUsize>| {
            move |scope: Scope| async move {
                assert_eq!(scope.namespace.as_deref(), Some("team-a"));
                started.fetch_add(1, Ordering::SeqCst);
                scope.shutdown.cancelled().await;
                tokio::time::sleep(Duration::from_millis(20)).await;
                drained.fetch_add(1, Ordering::SeqCst);
            }
        };
        let manager = Manager::new(offline_client(), options(&["--namespace=team-a"]))
            .controller(controller(started.clone(), drained.clone()))
            .controller(controller(started.clone(), drained.clone()))
            .shutdown(shutdown.clone())
            .http_listener(listener);
        let running = tokio::spawn(manager.run());

        while started.load(Ordering::SeqCst) < 2 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert!(http_get(addr, "/readyz").await.starts_with("HTTP/1.1 200"));
        assert!(http_get(addr, "/healthz").await.starts_with("HTTP/1.1 200"));
        let metrics = http_get(addr, "/metrics").await;
        assert!(metrics.starts_with("HTTP/1.1 200") && metrics.contains("# EOF"));

        shutdown.cancel();
        running.await.unwrap().unwrap();
        assert_eq!(drained.load(Ordering::SeqCst), 2, "both drained first");
        assert!(tokio::net::TcpStream::connect(addr).await.is_err());
    }

    #[tokio::test]
    async fn a_controller_that_returns_stops_the_others() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let stopped = Arc::new(AtomicUsize::new(0));
        let seen = stopped.clone();
        let manager = Manager::new(offline_client(), options(&[]))
            .controller(|_| async {})
            .controller(move |scope: Scope| async move {
                scope.shutdown.cancelled().await;
                seen.fetch_add(1, Ordering::SeqCst);
            })
            .shutdown(CancellationToken::new())
            .http_listener(listener);
        tokio::time::timeout(Duration::from_secs(10), manager.run())
            .await
            .expect("stops on its own")
            .unwrap();
        assert_eq!(stopped.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_port_in_use_is_an_error() {
        let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = taken.local_addr().unwrap().to_string();
        let manager = Manager::new(offline_client(), options(&["--http-addr", &addr]))
            .shutdown(CancellationToken::new());
        let error = manager.run().await.unwrap_err();
        assert!(matches!(error, Error::Http(_)), "{error}");
        assert!(error.to_string().starts_with("HTTP endpoint: "), "{error}");
    }

    #[cfg(feature = "webhook")]
    #[tokio::test]
    async fn webhooks_turned_off_need_no_certificate() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shutdown = CancellationToken::new();
        let manager = Manager::new(
            offline_client(),
            options(&["--webhook-port=0", "--webhook-cert-dir=/nonexistent"]),
        )
        .controller(|scope: Scope| async move { scope.shutdown.cancelled().await })
        .webhooks(crate::webhook::Server::new())
        .shutdown(shutdown.clone())
        .http_listener(listener);
        let running = tokio::spawn(manager.run());
        while !http_get(addr, "/readyz").await.starts_with("HTTP/1.1 200") {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        shutdown.cancel();
        running.await.unwrap().unwrap();
    }

    #[cfg(feature = "webhook")]
    #[tokio::test]
    async fn the_webhook_server_binds_the_host_and_port_given() {
        let all = options(&[]);
        assert_eq!(all.webhook_host, std::net::Ipv4Addr::UNSPECIFIED);
        let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = taken.local_addr().unwrap();
        let flags = [
            "--webhook-host=127.0.0.1".to_string(),
            format!("--webhook-port={}", address.port()),
        ];
        let manager = Manager::new(
            offline_client(),
            options(&[flags[0].as_str(), flags[1].as_str()]),
        )
        .controller(|scope: Scope| async move { scope.shutdown.cancelled().await })
        .webhooks(crate::webhook::Server::new())
        .shutdown(CancellationToken::new())
        .http_listener(TcpListener::bind("127.0.0.1:0").await.unwrap());
        let error = tokio::time::timeout(Duration::from_secs(10), manager.run())
            .await
            .expect("stops on its own")
            .unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with(&format!("webhook server: binding {address}: ")),
            "{error}"
        );
    }

    #[cfg(feature = "webhook")]
    #[tokio::test]
    async fn a_missing_webhook_certificate_stops_the_operator() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let dir =
            std::env::temp_dir().join(format!("kubegen-runtime-nocert-{}", std::process::id()));
        let manager = Manager::new(
            offline_client(),
            options(&[&format!("--webhook-cert-dir={}", dir.display())]),
        )
        .controller(|scope: Scope| async move { scope.shutdown.cancelled().await })
        .webhooks(crate::webhook::Server::new())
        .webhook_listener(TcpListener::bind("127.0.0.1:0").await.unwrap())
        .shutdown(CancellationToken::new())
        .http_listener(listener);
        let error = tokio::time::timeout(Duration::from_secs(10), manager.run())
            .await
            .expect("stops on its own")
            .unwrap_err();
        assert!(matches!(error, Error::Webhook(_)), "{error}");
    }
}
