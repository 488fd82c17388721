//! `rest_client_requests_total{code,method,host}`: every request of the API client, counted
//! as client-go counts it for controller-runtime (`code` the response's HTTP status, or
//! `<error>` when none came; `method` the HTTP method; `host` the API server's `host:port`).
//!
//! [`client`] builds the client with a tower layer that counts; the count is the process's, as
//! client-go's is, and every [`Manager`](super::Manager) serves it on `/metrics`. A client built
//! otherwise is not counted.

use std::sync::LazyLock;
use std::task::{Context, Poll};

use futures::future::BoxFuture;
use hyper::{Request, Response};
use kube::client::{Body, ClientBuilder};
use kube::{Client, Config};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;
use tower::{Layer, Service};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    code: String,
    method: String,
    host: String,
}

/// The process's count of API requests.
static REQUESTS: LazyLock<Family<RequestLabels, Counter>> = LazyLock::new(Family::default);

/// Registers `rest_client_requests_total` in `registry`.
pub(crate) fn register(registry: &mut Registry) {
    registry.register(
        "rest_client_requests",
        "Number of HTTP requests, partitioned by status code, method, and host",
        REQUESTS.clone(),
    );
}

/// A client of the API server `config` names whose every request is counted in
/// `rest_client_requests_total` (see the [module](self)).
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let client = kubegen::runtime::client(kube::Config::infer().await?)?;
/// # Ok(()) }
/// ```
pub fn client(config: Config) -> kube::Result<Client> {
    let host = config
        .cluster_url
        .authority()
        .map(ToString::to_string)
        .unwrap_or_default();
    Ok(ClientBuilder::try_from(config)?
        .with_layer(&CountRequests { host })
        .build())
}

/// The layer that counts each request, labelled with the API server's `host`.
#[derive(Clone, Debug)]
struct CountRequests {
    host: String,
}

impl<S> Layer<S> for CountRequests {
    type Service = Counted<S>;

    fn layer(&self, inner: S) -> Counted<S> {
        Counted {
            inner,
            host: self.host.clone(),
        }
    }
}

/// A service whose requests are counted when their response (or failure) comes.
#[derive(Clone, Debug)]
struct Counted<S> {
    inner: S,
    host: String,
}

impl<S, B> Service<Request<Body>> for Counted<S>
where
    S: Service<Request<Body>, Response = Response<B>>,
    S::Future: Send + 'static,
{
    type Response = Response<B>;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<Response<B>, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let method = request.method().to_string();
        let host = self.host.clone();
        let response = self.inner.call(request);
        Box::pin(async move {
            let response = response.await;
            let code = match &response {
                Ok(response) => response.status().as_u16().to_string(),
                Err(_) => "<error>".to_string(),
            };
            REQUESTS
                .get_or_create(&RequestLabels { code, method, host })
                .inc();
            response
        })
    }
}
