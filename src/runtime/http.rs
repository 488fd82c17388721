//! The HTTP endpoints: liveness (`/healthz`), readiness (`/readyz`) and Prometheus metrics
//! (`/metrics`, the OpenMetrics text of a `prometheus_client` registry), served together, or
//! the metrics on their own address (see [`secure`](super::secure) for HTTPS).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use prometheus_client::registry::Registry;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Whether the operator is ready: set once it is running (as leader or standby), cleared when
/// it shuts down.
#[derive(Default)]
pub struct Readiness(AtomicBool);

impl Readiness {
    /// Marks the operator ready or not.
    pub fn set(&self, ready: bool) {
        self.0.store(ready, Ordering::Release);
    }

    /// Whether it is ready.
    pub fn get(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

/// The health endpoint's routes: `/healthz` (always `ok`) and `/readyz` (`ok` once
/// `readiness` is set, else 503).
pub fn health(readiness: Arc<Readiness>) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .with_state(readiness)
}

/// The route `/metrics`: the OpenMetrics text of `registry`.
pub fn metrics(registry: Arc<Registry>) -> Router {
    Router::new()
        .route("/metrics", get(encode))
        .with_state(registry)
}

/// Serves `app` over plain HTTP on `listener` until `shutdown` is cancelled.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await
}

async fn readyz(State(readiness): State<Arc<Readiness>>) -> impl IntoResponse {
    if readiness.get() {
        (StatusCode::OK, "ok")
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "not ready")
    }
}

async fn encode(State(registry): State<Arc<Registry>>) -> impl IntoResponse {
    let content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    let mut text = String::new();
    prometheus_client::encoding::text::encode(&mut text, &registry)
        .expect("writing to a String cannot fail");
    ([(header::CONTENT_TYPE, content_type)], text)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use prometheus_client::metrics::counter::Counter;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// One plain HTTP/1.1 GET: the whole response, status line first.
    pub(crate) async fn http_get(addr: std::net::SocketAddr, path: &str) -> String {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).await.unwrap();
        response
    }

    #[tokio::test]
    async fn serves_health_readiness_and_metrics_until_shutdown() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut registry = Registry::with_prefix("test_operator");
        let reconciles = Counter::<u64>::default();
        registry.register("reconciles", "Reconciles started", reconciles.clone());
        let readiness = Arc::new(Readiness::default());
        let shutdown = CancellationToken::new();
        let app = health(readiness.clone()).merge(metrics(Arc::new(registry)));
        let server = tokio::spawn(serve(listener, app, shutdown.clone()));

        assert!(http_get(addr, "/healthz").await.starts_with("HTTP/1.1 200"));
        assert!(http_get(addr, "/readyz").await.starts_with("HTTP/1.1 503"));
        readiness.set(true);
        assert!(http_get(addr, "/readyz").await.starts_with("HTTP/1.1 200"));
        reconciles.inc();
        let text = http_get(addr, "/metrics").await;
        assert!(text.contains("test_operator_reconciles_total 1"), "{text}");

        shutdown.cancel();
        server.await.unwrap().unwrap();
        assert!(tokio::net::TcpStream::connect(addr).await.is_err());
    }
}
