//! The webhook server's metrics under controller-runtime's names (feature `webhook`), for
//! each webhook path the [`Server`](crate::webhook::Server) routes:
//!
//! - `controller_runtime_webhook_requests_total{webhook,code}`: requests answered, by HTTP
//!   status code (`200` and `500` shown from the start, as controller-runtime does);
//! - `controller_runtime_webhook_latency_seconds{webhook}`: how long each took to answer;
//! - `controller_runtime_webhook_requests_in_flight{webhook}`: requests being answered now.
//!
//! `webhook` is the path (`/validate-cache-example-com-v1alpha1-memcached`); `/healthz` is not
//! measured.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use super::metrics::queue_histogram;

/// The server's own path, not a webhook's.
const HEALTHZ: &str = "/healthz";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct WebhookLabels {
    webhook: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CodeLabels {
    webhook: String,
    code: String,
}

/// The families, and the paths measured.
#[derive(Debug)]
struct Measured {
    paths: BTreeSet<String>,
    requests: Family<CodeLabels, Counter>,
    latency: Family<WebhookLabels, Histogram, fn() -> Histogram>,
    in_flight: Family<WebhookLabels, Gauge>,
}

/// `server` with each of its webhooks measured (see the [module](self)), the families
/// registered in `registry`.
pub(crate) fn instrument(
    server: crate::webhook::Server,
    registry: &mut Registry,
) -> crate::webhook::Server {
    let measured = Arc::new(Measured {
        paths: server
            .paths()
            .filter(|path| *path != HEALTHZ)
            .map(str::to_string)
            .collect(),
        requests: Family::default(),
        latency: Family::new_with_constructor(queue_histogram),
        in_flight: Family::default(),
    });
    for webhook in &measured.paths {
        for code in ["200", "500"] {
            let labels = CodeLabels {
                webhook: webhook.clone(),
                code: code.to_string(),
            };
            measured.requests.get_or_create(&labels).inc_by(0);
        }
        let labels = WebhookLabels {
            webhook: webhook.clone(),
        };
        drop(measured.latency.get_or_create(&labels));
        measured.in_flight.get_or_create(&labels).set(0);
    }
    registry.register(
        "controller_runtime_webhook_requests",
        "Total number of admission requests by HTTP status code",
        measured.requests.clone(),
    );
    registry.register(
        "controller_runtime_webhook_latency_seconds",
        "Histogram of the latency of processing admission requests",
        measured.latency.clone(),
    );
    registry.register(
        "controller_runtime_webhook_requests_in_flight",
        "Current number of admission requests being served",
        measured.in_flight.clone(),
    );
    server.map_router(|router| router.layer(middleware::from_fn_with_state(measured, measure)))
}

/// Measures a request to one of the webhook paths.
async fn measure(State(m): State<Arc<Measured>>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if !m.paths.contains(path) {
        return next.run(request).await;
    }
    let webhook = WebhookLabels {
        webhook: path.to_string(),
    };
    let in_flight = m.in_flight.get_or_create_owned(&webhook);
    in_flight.inc();
    let started = Instant::now();
    let response = next.run(request).await;
    in_flight.dec();
    m.latency
        .get_or_create(&webhook)
        .observe(started.elapsed().as_secs_f64());
    let code = CodeLabels {
        webhook: webhook.webhook,
        code: response.status().as_u16().to_string(),
    };
    m.requests.get_or_create(&code).inc();
    response
}
