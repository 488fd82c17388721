//! Timing whole commands: repeated runs, median and spread of wall time, and peak memory.

use std::fmt;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus};
use std::time::Instant;

/// Wall-clock seconds (and peak resident memory) of repeated runs.
pub struct Stats {
    /// The median.
    pub median: f64,
    /// The fastest.
    pub min: f64,
    /// The slowest.
    pub max: f64,
    /// How many runs.
    pub runs: usize,
    /// The median of each run's peak resident set, in MiB, when measured.
    pub rss_mib: Option<f64>,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "median {} (min {}, max {}, {} runs)",
            human(self.median),
            human(self.min),
            human(self.max),
            self.runs
        )?;
        if let Some(rss) = self.rss_mib {
            write!(f, ", peak memory {rss:.0} MiB")?;
        }
        Ok(())
    }
}

fn human(seconds: f64) -> String {
    if seconds < 1.0 {
        format!("{:.1} ms", seconds * 1000.0)
    } else {
        format!("{seconds:.2} s")
    }
}

impl Stats {
    /// The statistics of some runs' seconds (at least one).
    pub fn of(mut times: Vec<f64>) -> Stats {
        times.sort_by(f64::total_cmp);
        Stats {
            median: times[times.len() / 2],
            min: times[0],
            max: times[times.len() - 1],
            runs: times.len(),
            rss_mib: None,
        }
    }
}

/// Runs `cmd` and waits for it: its wall time and peak resident set (KiB), read with `wait4`
/// so that only this child counts. Panics when it fails.
#[allow(
    clippy::zombie_processes,
    reason = "the child is reaped by `wait4`, which also reads its resource usage"
)]
fn run_once(cmd: &mut Command) -> (f64, u64) {
    let start = Instant::now();
    let child = cmd.spawn().expect("the command starts");
    let mut status = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills in; the pid is our own child's, waited
    // for once.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    let elapsed = start.elapsed().as_secs_f64();
    assert!(pid > 0, "wait4 failed: {}", std::io::Error::last_os_error());
    let status = ExitStatus::from_raw(status);
    assert!(status.success(), "{cmd:?} failed: {status}");
    (elapsed, usage.ru_maxrss.max(0) as u64)
}

/// Runs `cmd` once and returns its wall-clock seconds.
pub fn time_once(mut cmd: Command) -> f64 {
    run_once(&mut cmd).0
}

/// Runs the command `runs` times after one warm-up run; `make` builds it afresh each time
/// (and may change files before the run).
pub fn time_runs(runs: usize, mut make: impl FnMut() -> Command) -> Stats {
    let mut once = || run_once(&mut make());
    once();
    let (times, mut rss): (Vec<f64>, Vec<u64>) = (0..runs.max(1)).map(|_| once()).unzip();
    rss.sort_unstable();
    Stats {
        rss_mib: Some(rss[rss.len() / 2] as f64 / 1024.0),
        ..Stats::of(times)
    }
}
