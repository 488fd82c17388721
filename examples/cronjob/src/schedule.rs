//! When a CronJob runs: its schedule parsed as Kubernetes' CronJob controller reads one (five
//! fields, or a macro such as `@hourly`), and the runs missed since the last one.

use croner::Cron;
use croner::parser::{CronParser, Seconds, Year};
use k8s_openapi::jiff::tz::TimeZone;
use k8s_openapi::jiff::{SignedDuration, Timestamp};

/// More missed runs than this and the controller gives up on the CronJob until its schedule
/// or `startingDeadlineSeconds` changes (a clock skew or a long outage), as kubebuilder's does.
pub const MAX_MISSED_RUNS: usize = 100;

// ANCHOR: parse
/// `schedule` parsed: five fields (minute, hour, day of month, month, day of week) or a
/// macro (`@hourly`, `@daily`...); no seconds or years, which Kubernetes does not take.
pub fn parse(schedule: &str) -> Result<Cron, String> {
    CronParser::builder()
        .seconds(Seconds::Disallowed)
        .year(Year::Disallowed)
        .build()
        .parse(schedule)
        .map_err(|e| e.to_string())
}
// ANCHOR_END: parse

/// The runs of a schedule around `now`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Runs {
    /// The latest run due at or before `now` and not started yet, if any.
    pub missed: Option<Timestamp>,
    /// The first run after `now`.
    pub next: Timestamp,
}

// ANCHOR: next_runs
/// The runs of `cron` around `now`, counting from `last` (the last run's time, else the
/// CronJob's creation). With a `deadline` (`startingDeadlineSeconds`), runs older than it are
/// not missed, just skipped.
pub fn runs(
    cron: &Cron,
    last: Timestamp,
    deadline: Option<SignedDuration>,
    now: Timestamp,
) -> Result<Runs, String> {
    let mut earliest = last;
    if let Some(deadline) = deadline {
        let oldest = now.checked_sub(deadline).map_err(|e| e.to_string())?;
        earliest = earliest.max(oldest);
    }
    let next_after = |t: Timestamp| -> Result<Timestamp, String> {
        let next = cron
            .find_next_occurrence(&t.to_zoned(TimeZone::UTC), false)
            .map_err(|e| e.to_string())?;
        Ok(next.timestamp())
    };
    let mut missed = None;
    let mut count = 0;
    let mut t = next_after(earliest)?;
    while t <= now {
        count += 1;
        if count > MAX_MISSED_RUNS {
            return Err(format!(
                "too many missed start times (> {MAX_MISSED_RUNS}): set or decrease \
                 .spec.startingDeadlineSeconds or check clock skew"
            ));
        }
        missed = Some(t);
        t = next_after(t)?;
    }
    Ok(Runs { missed, next: t })
}
// ANCHOR_END: next_runs

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn five_fields_and_macros_parse_seconds_and_nonsense_do_not() {
        assert!(parse("*/1 * * * *").is_ok());
        assert!(parse("0 9 * * MON-FRI").is_ok());
        assert!(parse("@hourly").is_ok());
        assert!(parse("0 */1 * * * *").is_err(), "six fields: seconds");
        assert!(parse("every minute").is_err());
        assert!(parse("61 * * * *").is_err());
    }

    #[test]
    fn the_latest_missed_run_and_the_next_one() {
        let cron = parse("*/5 * * * *").unwrap();
        let runs = runs(
            &cron,
            at("2026-12-02T10:00:00Z"),
            None,
            at("2026-12-02T10:12:30Z"),
        );
        assert_eq!(
            runs.unwrap(),
            Runs {
                missed: Some(at("2026-12-02T10:10:00Z")),
                next: at("2026-12-02T10:15:00Z"),
            }
        );
    }

    #[test]
    fn nothing_is_missed_before_the_first_run() {
        let cron = parse("0 * * * *").unwrap();
        let runs = runs(
            &cron,
            at("2026-12-02T10:00:00Z"),
            None,
            at("2026-12-02T10:59:59Z"),
        );
        assert_eq!(
            runs.unwrap(),
            Runs {
                missed: None,
                next: at("2026-12-02T11:00:00Z")
            }
        );
    }

    #[test]
    fn a_run_older_than_the_deadline_is_skipped() {
        let cron = parse("0 * * * *").unwrap();
        let deadline = Some(SignedDuration::from_secs(60));
        let late = runs(
            &cron,
            at("2026-12-02T09:30:00Z"),
            deadline,
            at("2026-12-02T10:02:00Z"),
        );
        assert_eq!(late.unwrap().missed, None);
        let in_time = runs(
            &cron,
            at("2026-12-02T09:30:00Z"),
            deadline,
            at("2026-12-02T10:00:30Z"),
        );
        assert_eq!(in_time.unwrap().missed, Some(at("2026-12-02T10:00:00Z")));
    }

    #[test]
    fn too_many_missed_runs_is_an_error() {
        let cron = parse("* * * * *").unwrap();
        let error = runs(
            &cron,
            at("2026-12-02T00:00:00Z"),
            None,
            at("2026-12-02T10:00:00Z"),
        );
        assert!(error.unwrap_err().contains("too many missed start times"));
    }
}
