//! Controller metrics under controller-runtime's names, labels and buckets, so that the
//! dashboards and alerts written for kubebuilder operators work unchanged.
//!
//! [`ControllerMetrics`] holds the families; the [`Manager`](super::Manager) registers them in
//! the registry `/metrics` serves (the operator's own metrics beside them) and gives them to
//! every controller through its [`Scope`](super::Scope). A controller run with
//! [`Scope::controller`](super::Scope::controller) is measured by wrapping its reconcile and
//! error policy, the two places where kube-runtime's `Controller` hands control back:
//!
//! - `controller_runtime_reconcile_total{controller,result}`: each reconcile, by result:
//!   `error`, `requeue_after` (an `Action::requeue` with a delay), `requeue`
//!   (`Action::requeue(Duration::ZERO)`) or `success` (`Action::await_change`);
//! - `controller_runtime_reconcile_errors_total{controller}`: reconciles that returned `Err`;
//! - `controller_runtime_reconcile_time_seconds{controller}`: how long each reconcile took;
//! - `controller_runtime_max_concurrent_reconciles{controller}`: the concurrency limit (0: no
//!   limit, kube-runtime's default);
//! - `controller_runtime_active_workers{controller}`: reconciles running now;
//! - `workqueue_work_duration_seconds{name,controller}`: the same durations as the reconcile
//!   time (the reconcile is the whole work of an item);
//! - `workqueue_retries_total{name,controller}`: retries asked for, as client-go's
//!   `AddRateLimited` counts them: an error whose policy requeues, or a `requeue` result;
//! - `workqueue_adds_total`, `workqueue_depth{name,controller,priority}` and
//!   `workqueue_queue_duration_seconds`: see below;
//! - `leader_election_master_status{name}`: 1 while this replica holds the leader Lease, 0
//!   while it waits (only with `--leader-elect`).
//!
//! kube-runtime's queue (its scheduler) is private: a request made by a watch event is seen
//! only when its reconcile starts, while a requeue asked for by an `Action` is seen when it
//! is asked for, with the time it falls due. So: `workqueue_adds_total` counts every reconcile
//! started plus every request dropped because its object was gone, plus the requeues fallen
//! due and not started yet; `workqueue_depth` counts those requeues fallen due and waiting (a
//! free worker, or the end of the same object's running reconcile); requests made by watch
//! events are never counted in the depth. `workqueue_queue_duration_seconds` observes, for a
//! requeue, the time from falling due to its reconcile starting, and nothing for the other
//! requests. As in kube-runtime's scheduler, an earlier request for an object replaces its
//! pending requeue.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use kube::runtime::controller::Action;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::{ConstGauge, Gauge};
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// controller-runtime's buckets of `controller_runtime_reconcile_time_seconds`.
const RECONCILE_BUCKETS: [f64; 40] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9,
    1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 15.0, 20.0,
    25.0, 30.0, 40.0, 50.0, 60.0,
];

/// The reconcile results controller-runtime labels `controller_runtime_reconcile_total` with.
const RESULTS: [&str; 4] = ["success", "error", "requeue", "requeue_after"];

fn reconcile_histogram() -> Histogram {
    Histogram::new(RECONCILE_BUCKETS)
}

/// client-go's work queue buckets: `prometheus.ExponentialBuckets(10e-9, 10, 12)`, computed
/// as Go computes them (each the previous times ten).
fn queue_histogram() -> Histogram {
    Histogram::new(std::iter::successors(Some(10e-9), |b| Some(b * 10.0)).take(12))
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ControllerLabels {
    controller: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ResultLabels {
    controller: String,
    result: &'static str,
}

/// A work queue's labels: controller-runtime names the queue after its controller.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct QueueLabels {
    name: String,
    controller: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DepthLabels {
    name: String,
    controller: String,
    priority: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LeaseLabels {
    name: String,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

/// The metric families of every controller (see the [module](self)); clones share them.
#[derive(Clone, Debug)]
pub struct ControllerMetrics(Arc<Families>);

#[derive(Debug)]
struct Families {
    reconciles: Family<ResultLabels, Counter>,
    errors: Family<ControllerLabels, Counter>,
    reconcile_time: HistogramFamily<ControllerLabels>,
    max_concurrent: Family<ControllerLabels, Gauge>,
    active_workers: Family<ControllerLabels, Gauge>,
    queue_duration: HistogramFamily<QueueLabels>,
    work_duration: HistogramFamily<QueueLabels>,
    retries: Family<QueueLabels, Counter>,
    leader: Family<LeaseLabels, Gauge>,
    /// Each controller's queue as far as it can be seen (depth and adds, read at scrape time).
    queues: Mutex<BTreeMap<String, Queue>>,
}

impl Default for ControllerMetrics {
    fn default() -> Self {
        ControllerMetrics(Arc::new(Families {
            reconciles: Family::default(),
            errors: Family::default(),
            reconcile_time: Family::new_with_constructor(reconcile_histogram),
            max_concurrent: Family::default(),
            active_workers: Family::default(),
            queue_duration: Family::new_with_constructor(queue_histogram),
            work_duration: Family::new_with_constructor(queue_histogram),
            retries: Family::default(),
            leader: Family::default(),
            queues: Mutex::default(),
        }))
    }
}

impl ControllerMetrics {
    /// Registers every family in `registry`, without prefix (the names are
    /// controller-runtime's; `prometheus_client` ends each help with the period).
    pub fn register(&self, registry: &mut Registry) {
        let f = &self.0;
        registry.register(
            "controller_runtime_reconcile",
            "Total number of reconciliations per controller",
            f.reconciles.clone(),
        );
        registry.register(
            "controller_runtime_reconcile_errors",
            "Total number of reconciliation errors per controller",
            f.errors.clone(),
        );
        registry.register(
            "controller_runtime_reconcile_time_seconds",
            "Length of time per reconciliation per controller",
            f.reconcile_time.clone(),
        );
        registry.register(
            "controller_runtime_max_concurrent_reconciles",
            "Maximum number of concurrent reconciles per controller",
            f.max_concurrent.clone(),
        );
        registry.register(
            "controller_runtime_active_workers",
            "Number of currently used workers per controller",
            f.active_workers.clone(),
        );
        registry.register(
            "workqueue_queue_duration_seconds",
            "How long in seconds an item stays in workqueue before being requested",
            f.queue_duration.clone(),
        );
        registry.register(
            "workqueue_work_duration_seconds",
            "How long in seconds processing an item from workqueue takes",
            f.work_duration.clone(),
        );
        registry.register(
            "workqueue_retries",
            "Total number of retries handled by workqueue",
            f.retries.clone(),
        );
        registry.register(
            "leader_election_master_status",
            "Gauge of if the reporting system is master of the relevant lease, 0 indicates \
             backup, 1 indicates master. 'name' is the string used to identify the lease. \
             Please make sure to group by name",
            f.leader.clone(),
        );
        registry.register_collector(Box::new(QueueCollector(self.0.clone())));
    }

    /// Sets `leader_election_master_status{name=lease}`: 1 while leading, 0 otherwise.
    pub(crate) fn set_leader(&self, lease: &str, leading: bool) {
        let labels = LeaseLabels {
            name: lease.to_string(),
        };
        self.0.leader.get_or_create(&labels).set(i64::from(leading));
    }

    /// The meter of the controller `name` that runs at most `concurrency` reconciles at once
    /// (0: no limit); its series start at zero, as controller-runtime's do.
    pub(crate) fn meter(&self, name: &str, concurrency: u16) -> Meter {
        let f = &self.0;
        let controller = ControllerLabels {
            controller: name.to_string(),
        };
        let queue = QueueLabels {
            name: name.to_string(),
            controller: name.to_string(),
        };
        for result in RESULTS {
            let labels = ResultLabels {
                controller: name.to_string(),
                result,
            };
            f.reconciles.get_or_create(&labels).inc_by(0);
        }
        f.errors.get_or_create(&controller).inc_by(0);
        f.retries.get_or_create(&queue).inc_by(0);
        f.max_concurrent
            .get_or_create(&controller)
            .set(i64::from(concurrency));
        f.active_workers.get_or_create(&controller).set(0);
        // Histograms with no observation yet, so that every series shows from the start.
        drop(f.reconcile_time.get_or_create(&controller));
        drop(f.queue_duration.get_or_create(&queue));
        drop(f.work_duration.get_or_create(&queue));
        lock(&f.queues).entry(name.to_string()).or_default();
        Meter {
            families: self.0.clone(),
            controller,
            queue,
        }
    }
}

/// What is known of one controller's queue: its pending requeues and the adds settled.
#[derive(Debug, Default)]
struct Queue {
    /// When each object's pending requeue falls due, by `namespace/name`.
    requeues: HashMap<String, Instant>,
    /// Adds already taken out of the queue (reconciles started, requests dropped).
    settled_adds: u64,
}

impl Queue {
    /// Requeues fallen due and not started.
    fn depth(&self, now: Instant) -> u64 {
        self.requeues.values().filter(|due| **due <= now).count() as u64
    }

    /// Takes the request of `key` out of the queue; returns how long it waited if it was a
    /// requeue fallen due.
    fn take(&mut self, key: &str, now: Instant) -> Option<Duration> {
        self.settled_adds += 1;
        let due = self.requeues.remove(key)?;
        (due <= now).then(|| now - due)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Encodes `workqueue_depth` and `workqueue_adds_total`, read from the queues at each scrape.
#[derive(Debug)]
struct QueueCollector(Arc<Families>);

impl Collector for QueueCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let now = Instant::now();
        let queues = lock(&self.0.queues);
        let depth = ConstGauge::new(0i64);
        let mut family = encoder.encode_descriptor(
            "workqueue_depth",
            "Current depth of workqueue by workqueue and priority",
            None,
            depth.metric_type(),
        )?;
        for (name, queue) in queues.iter() {
            let labels = DepthLabels {
                name: name.clone(),
                controller: name.clone(),
                priority: "",
            };
            ConstGauge::new(queue.depth(now) as i64).encode(family.encode_family(&labels)?)?;
        }
        let adds = ConstCounter::new(0u64);
        let mut family = encoder.encode_descriptor(
            "workqueue_adds",
            "Total number of adds handled by workqueue",
            None,
            adds.metric_type(),
        )?;
        for (name, queue) in queues.iter() {
            let labels = QueueLabels {
                name: name.clone(),
                controller: name.clone(),
            };
            ConstCounter::new(queue.settled_adds + queue.depth(now))
                .encode(family.encode_family(&labels)?)?;
        }
        Ok(())
    }
}

/// How one controller is measured (see [`ControllerMetrics::meter`]).
#[derive(Clone)]
pub(crate) struct Meter {
    families: Arc<Families>,
    controller: ControllerLabels,
    queue: QueueLabels,
}

/// A reconcile running: counted in `active_workers` until dropped.
pub(crate) struct Running {
    meter: Meter,
    key: String,
    started: Instant,
}

impl Meter {
    /// A reconcile of the object `key` (`namespace/name`) starts.
    pub(crate) fn start(&self, key: String) -> Running {
        let now = Instant::now();
        self.taken(&key, now);
        let f = &self.families;
        f.active_workers.get_or_create(&self.controller).inc();
        Running {
            meter: self.clone(),
            key,
            started: now,
        }
    }

    /// A request for `key` was dropped without a reconcile (its object was gone).
    pub(crate) fn dropped(&self, key: &str) {
        self.taken(key, Instant::now());
    }

    fn taken(&self, key: &str, now: Instant) {
        let f = &self.families;
        let waited = lock(&f.queues)
            .get_mut(&self.queue.name)
            .and_then(|queue| queue.take(key, now));
        if let Some(waited) = waited {
            f.queue_duration
                .get_or_create(&self.queue)
                .observe(waited.as_secs_f64());
        }
    }

    /// The error policy of `key` returned `action`: a requeue is a retry.
    pub(crate) fn error_policy(&self, key: String, action: &Action) {
        if let Some(after) = requeue_after(action) {
            self.families.retries.get_or_create(&self.queue).inc();
            self.requeue(key, after);
        }
    }

    fn requeue(&self, key: String, after: Duration) {
        let due = Instant::now() + after;
        if let Some(queue) = lock(&self.families.queues).get_mut(&self.queue.name) {
            queue.requeues.insert(key, due);
        }
    }
}

impl Running {
    /// The reconcile returned `Ok(action)`, or `None` for `Err`.
    pub(crate) fn finish(self, action: Option<&Action>) {
        let m = &self.meter;
        let f = &m.families;
        let elapsed = self.started.elapsed().as_secs_f64();
        f.reconcile_time
            .get_or_create(&m.controller)
            .observe(elapsed);
        f.work_duration.get_or_create(&m.queue).observe(elapsed);
        let requeue = action.map(requeue_after);
        let result = match requeue {
            None => "error",
            Some(None) => "success",
            Some(Some(Duration::ZERO)) => "requeue",
            Some(Some(_)) => "requeue_after",
        };
        let labels = ResultLabels {
            controller: m.controller.controller.clone(),
            result,
        };
        f.reconciles.get_or_create(&labels).inc();
        match requeue {
            None => {
                f.errors.get_or_create(&m.controller).inc();
            }
            Some(Some(after)) => {
                if after.is_zero() {
                    f.retries.get_or_create(&m.queue).inc();
                }
                m.requeue(self.key.clone(), after);
            }
            Some(None) => {}
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let f = &self.meter.families;
        f.active_workers.get_or_create(&self.meter.controller).dec();
    }
}

/// The delay of `action`'s requeue, `None` for `Action::await_change()`.
///
/// kube-runtime 5's `Action` keeps its delay private and shows it only through `Debug`
/// (`Action { requeue_after: Some(1.5s) }`, a `Duration`'s `Debug`): read from there, and
/// checked against `Action::requeue` by the tests.
fn requeue_after(action: &Action) -> Option<Duration> {
    let text = format!("{action:?}");
    let value = text
        .strip_prefix("Action { requeue_after: Some(")?
        .strip_suffix(") }")?;
    let (number, unit) = value.split_at(value.find(|c: char| c.is_ascii_alphabetic() || c == 'µ')?);
    let scale = match unit {
        "s" => 1.0,
        "ms" => 1e-3,
        "µs" => 1e-6,
        "ns" => 1e-9,
        _ => return None,
    };
    let seconds = number.parse::<f64>().ok()? * scale;
    Some(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_delay_of_any_action() {
        assert_eq!(requeue_after(&Action::await_change()), None);
        for delay in [
            Duration::ZERO,
            Duration::from_nanos(7),
            Duration::from_micros(250),
            Duration::from_millis(5),
            Duration::from_millis(1500),
            Duration::from_secs(300),
            Duration::from_secs(86_400 * 365),
        ] {
            let read = requeue_after(&Action::requeue(delay)).expect("a requeue");
            let error = read.abs_diff(delay);
            assert!(
                error <= Duration::from_nanos(1),
                "{delay:?} read as {read:?}"
            );
        }
    }

    #[test]
    fn the_queue_counts_requeues_fallen_due_until_they_start() {
        let start = Instant::now();
        let at = |ms| start + Duration::from_millis(ms);
        let mut queue = Queue::default();
        queue.requeues.insert("ns/a".into(), at(10));
        queue.requeues.insert("ns/b".into(), at(100));
        assert_eq!(queue.depth(at(5)), 0, "not due yet");
        assert_eq!(queue.depth(at(50)), 1);
        assert_eq!(
            queue.take("ns/a", at(60)),
            Some(Duration::from_millis(50)),
            "waited from falling due to starting"
        );
        assert_eq!(
            queue.take("ns/b", at(70)),
            None,
            "a watch event ran it before its requeue: no wait known"
        );
        assert_eq!(queue.take("ns/c", at(80)), None, "a watch event");
        assert!(queue.requeues.is_empty());
        assert_eq!((queue.settled_adds, queue.depth(at(200))), (3, 0));
    }

    #[test]
    fn buckets_are_controller_runtimes() {
        let mut registry = Registry::default();
        let metrics = ControllerMetrics::default();
        metrics.register(&mut registry);
        drop(metrics.meter("c", 1));
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &registry).unwrap();
        let les = |metric: &str| -> Vec<String> {
            text.lines()
                .filter(|l| l.starts_with(&format!("{metric}_bucket")))
                .map(|l| {
                    l.split("le=\"")
                        .nth(1)
                        .unwrap()
                        .split('"')
                        .next()
                        .unwrap()
                        .into()
                })
                .collect()
        };
        let reconcile = les("controller_runtime_reconcile_time_seconds");
        assert_eq!(reconcile.len(), 41, "40 buckets and +Inf: {text}");
        assert_eq!(reconcile[..3], ["0.005", "0.01", "0.025"]);
        assert_eq!(reconcile[39..], ["60.0", "+Inf"]);
        let queue = les("workqueue_queue_duration_seconds");
        assert_eq!(queue.len(), 13, "{text}");
        assert_eq!(queue[0].parse::<f64>().unwrap(), 1e-8);
        assert_eq!(queue[11].parse::<f64>().unwrap(), 1000.0);
        assert_eq!(les("workqueue_work_duration_seconds"), queue);
    }
}
