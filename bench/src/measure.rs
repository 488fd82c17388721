//! Timing whole commands: repeated runs, median and spread.

use std::fmt;
use std::process::Command;
use std::time::Instant;

/// Wall-clock seconds of repeated runs.
pub struct Stats {
    /// The median.
    pub median: f64,
    /// The fastest.
    pub min: f64,
    /// The slowest.
    pub max: f64,
    /// How many runs.
    pub runs: usize,
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
        )
    }
}

fn human(seconds: f64) -> String {
    if seconds < 1.0 {
        format!("{:.1} ms", seconds * 1000.0)
    } else {
        format!("{seconds:.2} s")
    }
}

/// Runs the command `runs` times after one warm-up run; `make` builds it afresh each time
/// (and may change files before the run).
pub fn time_runs(runs: usize, mut make: impl FnMut() -> Command) -> Stats {
    let mut once = || time_once(make());
    once();
    Stats::of((0..runs.max(1)).map(|_| once()).collect())
}

/// Runs `cmd` once and returns its wall-clock seconds.
pub fn time_once(mut cmd: Command) -> f64 {
    let start = Instant::now();
    let status = cmd.status().expect("the command starts");
    let elapsed = start.elapsed().as_secs_f64();
    assert!(status.success(), "{cmd:?} failed");
    elapsed
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
        }
    }
}
