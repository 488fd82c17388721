//! Controller metrics under controller-runtime's names, labels and buckets, so that the
//! dashboards and alerts written for kubebuilder operators work unchanged.
//!
//! [`ControllerMetrics`] holds the families; the [`Manager`](super::Manager) registers them in
//! the registry `/metrics` serves (the operator's own metrics beside them) and gives them to
//! every controller through its [`Scope`](super::Scope). A controller run with
//! [`Scope::controller`](super::Scope::controller) is kube-runtime's `applier` (the engine
//! of its `Controller`) fed from trigger streams the runtime builds, with the reconcile and
//! error policy wrapped: every request is seen when a trigger makes it, when its reconcile
//! starts and when it ends.
//!
//! - `controller_runtime_reconcile_total{controller,result}`: each reconcile, by result:
//!   `error`, `requeue_after` (an `Action::requeue` with a delay), `requeue`
//!   (`Action::requeue(Duration::ZERO)`) or `success` (`Action::await_change`);
//! - `controller_runtime_reconcile_errors_total{controller}`: reconciles that returned `Err`;
//! - `controller_runtime_reconcile_time_seconds{controller}`: how long each reconcile took;
//! - `controller_runtime_max_concurrent_reconciles{controller}`: the concurrency limit in
//!   force: [`Run::concurrency`](super::Run::concurrency), by default
//!   [`DEFAULT_CONCURRENCY`](super::DEFAULT_CONCURRENCY) (1, controller-runtime's default;
//!   kube-runtime's own default of no limit is not used);
//! - `controller_runtime_active_workers{controller}`: reconciles running now;
//! - `workqueue_adds_total{name,controller}`: requests queued. A watch event's request is
//!   added when the trigger makes it (controller-runtime: when the event handler enqueues,
//!   after the cache is updated); a requeue asked for by an `Action` (of the reconcile or of
//!   the error policy) when its delay has passed (client-go's `AddAfter`). An object has at
//!   most one request queued, as in kube-runtime's scheduler: a request for an object that
//!   has one is merged into it, the earlier time winning, and is not an add (client-go does
//!   not count an add of an item already queued);
//! - `workqueue_depth{name,controller,priority}`: requests queued and not started: waiting
//!   for a worker, for the cache's first list, or for the end of the same object's running
//!   reconcile (client-go counts an item added while it is processed the same way);
//! - `workqueue_queue_duration_seconds{name,controller}`: from a request's add to the start
//!   of its reconcile;
//! - `workqueue_work_duration_seconds{name,controller}`: the same durations as the reconcile
//!   time (the reconcile is the whole work of an item);
//! - `workqueue_retries_total{name,controller}`: retries asked for, as client-go's
//!   `AddRateLimited` counts them: an error whose policy requeues, or a `requeue` result;
//! - `workqueue_unfinished_work_seconds{name,controller}`: how long the reconciles running now
//!   have run, added up (read at scrape time; growing by more than a second a second means
//!   stuck reconciles);
//! - `workqueue_longest_running_processor_seconds{name,controller}`: how long the longest
//!   running reconcile has run;
//! - `leader_election_master_status{name}`: 1 while this replica holds the leader Lease, 0
//!   while it waits (only with `--leader-elect`).
//!
//! Where kube-runtime's queue differs from controller-runtime's, the metrics show what
//! kube-runtime does:
//!
//! - a request for an object whose requeue is still waiting for its delay replaces the
//!   requeue (one add, one reconcile); client-go's delayed add would still come later (a
//!   second add and reconcile);
//! - a request for an object gone from the cache is dropped by kube-runtime, not reconciled
//!   (controller-runtime calls the reconciler, which finds the object gone): it counts as an
//!   add taken out of the queue (with its queue duration, measured when kube-runtime reports
//!   it, a moment after it left the queue) and in no reconcile series;
//! - a retry waits for the delay the error policy returns, not for client-go's per-item
//!   exponential rate limiter (5 ms doubling to 1000 s), and `Action::requeue(Duration::ZERO)`
//!   runs at once;
//! - `priority` is always `""` (controller-runtime's priority queue is not modelled).
//!
//! kube-runtime 5's `Action` keeps its delay private and shows it only through `Debug`: the
//! delay is read there, exactly, and used only if `Action::requeue` of it equals the action
//! (`Action` is `Eq`); a test fails if kube-runtime writes it differently. Should a delay
//! ever be unreadable, the requeue is seen only when its reconcile starts (an add then, no
//! queue duration) and a warning is logged once.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, Once};
use std::time::{Duration, Instant};

use kube::runtime::controller::Action;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::{ConstGauge, Gauge};
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use tracing::warn;

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
/// as Go computes them (each the previous times ten); controller-runtime's webhook latency
/// has the same.
pub(super) fn queue_histogram() -> Histogram {
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

/// One controller's queue as kube-runtime's scheduler keeps it: a request per object, the
/// earliest.
#[derive(Debug, Default)]
struct Queue {
    /// The requests not started yet, by `namespace/name`: when each falls (or fell) due.
    pending: HashMap<String, Instant>,
    /// Adds already taken out of the queue (reconciles started, requests dropped).
    settled_adds: u64,
    /// The reconciles running, by `namespace/name`: when each started.
    running: HashMap<String, Instant>,
}

impl Queue {
    /// A request for `key` falling due at `due`, merged into the object's pending request if
    /// there is one (the earlier time wins, as in kube-runtime's scheduler).
    fn add(&mut self, key: String, due: Instant) {
        self.pending
            .entry(key)
            .and_modify(|pending| *pending = due.min(*pending))
            .or_insert(due);
    }

    /// The requests fallen due and not started: controller-runtime's queue depth.
    fn depth(&self, now: Instant) -> u64 {
        self.pending.values().filter(|due| **due <= now).count() as u64
    }

    /// How long the reconciles running at `now` have run: added up, and the longest.
    fn unfinished(&self, now: Instant) -> (f64, f64) {
        self.running
            .values()
            .map(|started| now.saturating_duration_since(*started).as_secs_f64())
            .fold((0.0, 0.0), |(sum, longest), run| {
                (sum + run, run.max(longest))
            })
    }

    /// Takes the request of `key` out of the queue; returns how long it waited since it fell
    /// due, or `None` if it was not seen queued.
    fn take(&mut self, key: &str, now: Instant) -> Option<Duration> {
        self.settled_adds += 1;
        let due = self.pending.remove(key)?;
        Some(now.saturating_duration_since(due))
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Encodes `workqueue_depth`, `workqueue_adds_total`, `workqueue_unfinished_work_seconds` and
/// `workqueue_longest_running_processor_seconds`, read from the queues at each scrape.
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
        let seconds = ConstGauge::new(0.0f64);
        for (name, help, longest) in [
            (
                "workqueue_unfinished_work_seconds",
                "How many seconds of work has done that is in progress and hasn't been observed \
                 by work_duration. Large values indicate stuck threads. One can deduce the \
                 number of stuck threads by observing the rate at which this increases",
                false,
            ),
            (
                "workqueue_longest_running_processor_seconds",
                "How many seconds has the longest running processor for workqueue been running",
                true,
            ),
        ] {
            let mut family = encoder.encode_descriptor(name, help, None, seconds.metric_type())?;
            for (queue_name, queue) in queues.iter() {
                let labels = QueueLabels {
                    name: queue_name.clone(),
                    controller: queue_name.clone(),
                };
                let (sum, max) = queue.unfinished(now);
                let value = if longest { max } else { sum };
                ConstGauge::new(value).encode(family.encode_family(&labels)?)?;
            }
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
    /// A trigger asked for a reconcile of `key` (`namespace/name`): a request queued now.
    pub(crate) fn queued(&self, key: String) {
        self.enqueue(key, Instant::now());
    }

    /// A reconcile of `key` starts.
    pub(crate) fn start(&self, key: String) -> Running {
        let now = Instant::now();
        self.taken(&key, now);
        let f = &self.families;
        if let Some(queue) = lock(&f.queues).get_mut(&self.queue.name) {
            queue.running.insert(key.clone(), now);
        }
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
        if let Next::Requeue(after) = Next::of(action) {
            self.families.retries.get_or_create(&self.queue).inc();
            self.requeue(key, after);
        }
    }

    /// A requeue of `key` asked for now: queued once `after` has passed (as client-go's
    /// `AddAfter`); one whose delay is unknown is seen only when its reconcile starts.
    fn requeue(&self, key: String, after: Option<Duration>) {
        if let Some(due) = after.and_then(|after| Instant::now().checked_add(after)) {
            self.enqueue(key, due);
        }
    }

    fn enqueue(&self, key: String, due: Instant) {
        if let Some(queue) = lock(&self.families.queues).get_mut(&self.queue.name) {
            queue.add(key, due);
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
        let next = action.map(Next::of);
        let result = match next {
            None => "error",
            Some(Next::AwaitChange) => "success",
            Some(Next::Requeue(Some(Duration::ZERO))) => "requeue",
            Some(Next::Requeue(_)) => "requeue_after",
        };
        let labels = ResultLabels {
            controller: m.controller.controller.clone(),
            result,
        };
        f.reconciles.get_or_create(&labels).inc();
        match next {
            None => {
                f.errors.get_or_create(&m.controller).inc();
            }
            Some(Next::Requeue(after)) => {
                if after == Some(Duration::ZERO) {
                    f.retries.get_or_create(&m.queue).inc();
                }
                m.requeue(self.key.clone(), after);
            }
            Some(Next::AwaitChange) => {}
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let f = &self.meter.families;
        if let Some(queue) = lock(&f.queues).get_mut(&self.meter.queue.name) {
            queue.running.remove(&self.key);
        }
        f.active_workers.get_or_create(&self.meter.controller).dec();
    }
}

/// What an `Action` asks for, as the metrics need it.
#[derive(Debug, PartialEq)]
enum Next {
    /// `Action::await_change()`: nothing until a watch event.
    AwaitChange,
    /// `Action::requeue(after)`; `None` when the delay could not be read (see [`read_delay`]).
    Requeue(Option<Duration>),
}

impl Next {
    /// Reads `action`: kube-runtime 5's `Action` keeps its delay private and shows it only
    /// through `Debug`, so the delay is read there ([`read_delay`]) and taken only if
    /// `Action::requeue` of it equals `action` (`Action` is `Eq`): a reading is either exact or
    /// not used.
    fn of(action: &Action) -> Next {
        if *action == Action::await_change() {
            return Next::AwaitChange;
        }
        if *action == Action::requeue(Duration::ZERO) {
            return Next::Requeue(Some(Duration::ZERO));
        }
        let delay = read_delay(&format!("{action:?}")).filter(|d| Action::requeue(*d) == *action);
        if delay.is_none() {
            static UNREADABLE: Once = Once::new();
            UNREADABLE.call_once(|| {
                warn!(
                    ?action,
                    "cannot read the delay of a requeue: requeues are counted in the work queue \
                     metrics only when their reconcile starts"
                );
            });
        }
        Next::Requeue(delay)
    }
}

/// The delay in `Action`'s `Debug` (`Action { requeue_after: Some(1.5s) }`, a `Duration`'s
/// `Debug`, which writes every significant digit down to the nanosecond: read exactly).
fn read_delay(text: &str) -> Option<Duration> {
    let value = text
        .strip_prefix("Action { requeue_after: Some(")?
        .strip_suffix(") }")?;
    let (number, unit) = value.split_at(value.find(|c: char| !(c.is_ascii_digit() || c == '.'))?);
    let digits = match unit {
        "s" => 9,
        "ms" => 6,
        "µs" => 3,
        "ns" => 0,
        _ => return None,
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let fraction = match fraction.len() {
        0 => 0,
        len if len <= digits => fraction.parse::<u128>().ok()? * 10u128.pow((digits - len) as u32),
        _ => return None,
    };
    let nanos = whole.parse::<u128>().ok()? * 10u128.pow(digits as u32) + fraction;
    let secs = u64::try_from(nanos / 1_000_000_000).ok()?;
    Some(Duration::new(secs, (nanos % 1_000_000_000) as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails as soon as kube-runtime writes an `Action`'s delay differently in `Debug`.
    #[test]
    fn reads_the_delay_of_any_action_exactly() {
        assert_eq!(Next::of(&Action::await_change()), Next::AwaitChange);
        for delay in [
            Duration::ZERO,
            Duration::from_nanos(7),
            Duration::from_nanos(1_001),
            Duration::from_micros(250),
            Duration::new(0, 123_456_789),
            Duration::from_millis(5),
            Duration::from_millis(1500),
            Duration::new(1, 1),
            Duration::from_secs(300),
            Duration::from_secs(86_400 * 365),
            Duration::MAX,
        ] {
            let action = Action::requeue(delay);
            assert_eq!(
                read_delay(&format!("{action:?}")),
                Some(delay),
                "{action:?}"
            );
            assert_eq!(Next::of(&action), Next::Requeue(Some(delay)));
        }
    }

    #[test]
    fn a_delay_misread_is_not_used() {
        for text in [
            "Action { requeue_after: Some(1.5 s) }",
            "Action { requeue_after: Some(1.0000000001s) }",
            "Action { requeue_after: Some(5m) }",
            "Action { requeue_after: 5s }",
        ] {
            assert_eq!(read_delay(text), None, "{text}");
        }
    }

    #[test]
    fn the_queue_holds_one_request_per_object_until_it_starts() {
        let start = Instant::now();
        let at = |ms| start + Duration::from_millis(ms);
        let mut queue = Queue::default();
        queue.add("ns/a".into(), at(10));
        queue.add("ns/b".into(), at(100));
        assert_eq!(queue.depth(at(5)), 0, "not due yet");
        assert_eq!(queue.depth(at(50)), 1);
        queue.add("ns/a".into(), at(40));
        assert_eq!(
            queue.take("ns/a", at(60)),
            Some(Duration::from_millis(50)),
            "a later request is merged into the earlier one"
        );
        queue.add("ns/b".into(), at(70));
        assert_eq!(
            queue.depth(at(80)),
            1,
            "an earlier request replaces a requeue"
        );
        assert_eq!(queue.take("ns/b", at(90)), Some(Duration::from_millis(20)));
        assert_eq!(queue.take("ns/c", at(95)), None, "not seen queued");
        assert!(queue.pending.is_empty());
        assert_eq!((queue.settled_adds, queue.depth(at(200))), (3, 0));
    }

    #[test]
    fn unfinished_work_adds_up_the_reconciles_running() {
        let start = Instant::now();
        let mut queue = Queue::default();
        assert_eq!(queue.unfinished(start), (0.0, 0.0));
        queue.running.insert("ns/a".into(), start);
        queue
            .running
            .insert("ns/b".into(), start + Duration::from_secs(2));
        let at = start + Duration::from_secs(5);
        assert_eq!(
            queue.unfinished(at),
            (8.0, 5.0),
            "5 s and 3 s; the longest 5 s"
        );
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
