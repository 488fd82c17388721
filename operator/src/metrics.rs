//! Prometheus metrics of the reconciler: how many reconciles ran, how many failed and why, and
//! how long they took.

use std::time::Instant;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// The label of the error counter.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ErrorLabels {
    /// What failed: a short, stable name such as the controller's `Error::metric_label`.
    pub error: String,
}

/// The reconciler's metrics; [`Metrics::register`] puts them in the registry `/metrics`
/// serves.
pub struct Metrics {
    /// Reconciles started (`memcached_operator_reconciles_total`).
    pub reconciles: Counter,
    /// Reconciles failed, by error (`memcached_operator_reconcile_errors_total`).
    pub errors: Family<ErrorLabels, Counter>,
    /// Reconcile durations (`memcached_operator_reconcile_duration_seconds`).
    pub duration: Histogram,
}

impl Default for Metrics {
    fn default() -> Self {
        Self {
            reconciles: Counter::default(),
            errors: Family::default(),
            duration: Histogram::new(exponential_buckets(0.001, 2.0, 14)),
        }
    }
}

impl Metrics {
    /// Registers the metrics in `registry`, prefixed `memcached_operator_`.
    pub fn register(&self, registry: &mut Registry) {
        let registry = registry.sub_registry_with_prefix("memcached_operator");
        registry.register(
            "reconciles",
            "Reconciliations started",
            self.reconciles.clone(),
        );
        registry.register(
            "reconcile_errors",
            "Reconciliations failed, by error",
            self.errors.clone(),
        );
        registry.register(
            "reconcile_duration_seconds",
            "Duration of reconciliations",
            self.duration.clone(),
        );
    }

    /// The metrics alone in the Prometheus text format (OpenMetrics), as `/metrics` shows them.
    pub fn encode(&self) -> String {
        let mut registry = Registry::default();
        self.register(&mut registry);
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &registry)
            .expect("writing to a String cannot fail");
        out
    }

    /// Counts a reconcile and returns a guard that records its duration when dropped.
    pub fn reconcile_started(&self) -> ReconcileTimer<'_> {
        self.reconciles.inc();
        ReconcileTimer {
            histogram: &self.duration,
            start: Instant::now(),
        }
    }

    /// Counts a failed reconcile under `error`, the name of what failed.
    pub fn reconcile_failed(&self, error: &str) {
        self.errors
            .get_or_create(&ErrorLabels {
                error: error.to_string(),
            })
            .inc();
    }
}

/// Records the time since a reconcile started into the duration histogram when dropped.
pub struct ReconcileTimer<'a> {
    histogram: &'a Histogram,
    start: Instant,
}

impl Drop for ReconcileTimer<'_> {
    fn drop(&mut self) {
        self.histogram.observe(self.start.elapsed().as_secs_f64());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_counters_errors_and_durations() {
        let metrics = Metrics::default();
        drop(metrics.reconcile_started());
        metrics.reconcile_failed("invalid_object");
        let text = metrics.encode();
        assert!(
            text.contains("memcached_operator_reconciles_total 1"),
            "{text}"
        );
        assert!(
            text.contains(r#"memcached_operator_reconcile_errors_total{error="invalid_object"} 1"#),
            "{text}"
        );
        assert!(
            text.contains("memcached_operator_reconcile_duration_seconds_count 1"),
            "{text}"
        );
    }
}
