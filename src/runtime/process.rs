//! The process metrics Prometheus' Go client exports (and so every controller-runtime
//! manager), under its names: read from `/proc/self` at each scrape, on Linux (elsewhere there
//! are none).
//!
//! - `process_cpu_seconds_total`: user and system CPU time;
//! - `process_resident_memory_bytes`, `process_virtual_memory_bytes`: resident and virtual
//!   memory;
//! - `process_virtual_memory_max_bytes`, `process_max_fds`: the soft limits on address space
//!   and open files (unlimited: 2^64, as Go writes `RLIM_INFINITY`);
//! - `process_open_fds`: open file descriptors;
//! - `process_start_time_seconds`: when the process started, in seconds since the Unix epoch.
//!
//! `/proc` is read with the `procfs` crate. A file that cannot be read leaves its metrics out
//! of that scrape, as Go's collector does.

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;

/// The `process_*` metrics (see the [module](self)); the [`Manager`](super::Manager) registers
/// them in the registry `/metrics` serves.
#[derive(Debug, Default)]
pub struct ProcessMetrics;

/// One sample: its name (without `_total` for a counter), help and value.
struct Sample {
    name: &'static str,
    help: &'static str,
    value: f64,
    counter: bool,
}

impl Collector for ProcessMetrics {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        for s in samples() {
            if s.counter {
                one(&mut encoder, &s, ConstCounter::new(s.value))?;
            } else {
                one(&mut encoder, &s, ConstGauge::new(s.value))?;
            }
        }
        Ok(())
    }
}

/// Encodes `sample`'s family, of the one `metric`.
fn one(
    encoder: &mut DescriptorEncoder,
    sample: &Sample,
    metric: impl EncodeMetric,
) -> Result<(), std::fmt::Error> {
    let family = encoder.encode_descriptor(sample.name, sample.help, None, metric.metric_type())?;
    metric.encode(family)
}

#[cfg(target_os = "linux")]
fn samples() -> Vec<Sample> {
    use procfs::process::{LimitValue, Process};

    let gauge = |name, help, value| Sample {
        name,
        help,
        value,
        counter: false,
    };
    let limit = |value: LimitValue| match value {
        LimitValue::Value(n) => n as f64,
        LimitValue::Unlimited => u64::MAX as f64,
    };
    let mut samples = Vec::new();
    let Ok(me) = Process::myself() else {
        return samples;
    };
    if let Ok(stat) = me.stat() {
        let ticks = procfs::ticks_per_second() as f64;
        samples.push(Sample {
            counter: true,
            ..gauge(
                "process_cpu_seconds",
                "Total user and system CPU time spent in seconds",
                (stat.utime + stat.stime) as f64 / ticks,
            )
        });
        samples.push(gauge(
            "process_resident_memory_bytes",
            "Resident memory size in bytes",
            (stat.rss * procfs::page_size()) as f64,
        ));
        samples.push(gauge(
            "process_virtual_memory_bytes",
            "Virtual memory size in bytes",
            stat.vsize as f64,
        ));
        if let Ok(boot) = procfs::boot_time_secs() {
            samples.push(gauge(
                "process_start_time_seconds",
                "Start time of the process since unix epoch in seconds",
                boot as f64 + stat.starttime as f64 / ticks,
            ));
        }
    }
    if let Ok(open) = me.fd_count() {
        samples.push(gauge(
            "process_open_fds",
            "Number of open file descriptors",
            open as f64,
        ));
    }
    if let Ok(limits) = me.limits() {
        samples.push(gauge(
            "process_max_fds",
            "Maximum number of open file descriptors",
            limit(limits.max_open_files.soft_limit),
        ));
        samples.push(gauge(
            "process_virtual_memory_max_bytes",
            "Maximum amount of virtual memory available in bytes",
            limit(limits.max_address_space.soft_limit),
        ));
    }
    samples
}

#[cfg(not(target_os = "linux"))]
fn samples() -> Vec<Sample> {
    Vec::new()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use prometheus_client::registry::Registry;

    /// The value of the series `name` (no labels) in `text`.
    fn value(text: &str, name: &str) -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no {name} in\n{text}"))
            .parse()
            .unwrap()
    }

    /// This process's metrics as `/metrics` shows them.
    fn scrape() -> String {
        let mut registry = Registry::default();
        registry.register_collector(Box::new(ProcessMetrics));
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &registry).unwrap();
        text
    }

    #[test]
    fn reads_this_process() {
        let text = scrape();
        assert!(
            text.contains("# TYPE process_cpu_seconds counter"),
            "{text}"
        );
        let resident = value(&text, "process_resident_memory_bytes");
        assert!(
            resident > 1e6,
            "a test binary holds more than a megabyte: {resident}"
        );
        assert!(value(&text, "process_virtual_memory_bytes") >= resident);
        let open = value(&text, "process_open_fds");
        let max = value(&text, "process_max_fds");
        assert!((3.0..=max).contains(&open), "{text}");
        assert!(value(&text, "process_virtual_memory_max_bytes") > 0.0);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs_f64();
        let started = value(&text, "process_start_time_seconds");
        assert!(
            started <= now + 1.0 && started > now - 3600.0,
            "this test started within the hour: {started} vs {now}"
        );
    }

    #[test]
    fn cpu_time_grows_with_work() {
        let cpu = || value(&scrape(), "process_cpu_seconds_total");
        let before = cpu();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let mut after = before;
        while after <= before && std::time::Instant::now() < deadline {
            let busy = std::time::Instant::now();
            let mut x = 0u64;
            while busy.elapsed() < std::time::Duration::from_millis(20) {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
            after = cpu();
        }
        assert!(after > before, "{before} then {after}");
    }
}
