//! The conversion webhook of `CronJob`: every version converts through the hub, v1. v2's
//! schedule is v1's five fields one by one (`None` for `*`); the rest is the same.

use kubegen::webhook::{Conversion, Server};

use crate::api::batch_v1 as hub;
use crate::api::batch_v2 as v2;

// ANCHOR: register
/// Serves the conversion webhook of `CronJob` on `server`.
pub fn register(server: Server) -> Server {
    server.convert(Conversion::<hub::CronJob>::through().version::<v2::CronJob>())
}
// ANCHOR_END: register

// ANCHOR: to_hub
impl From<v2::CronJob> for hub::CronJob {
    fn from(object: v2::CronJob) -> Self {
        let spec = object.spec;
        let s = spec.schedule;
        let schedule = [s.minute, s.hour, s.day_of_month, s.month, s.day_of_week]
            .map(|field| field.map_or_else(|| "*".to_string(), |f| f.0))
            .join(" ");
        hub::CronJob {
            metadata: object.metadata,
            spec: hub::CronJobSpec {
                schedule,
                starting_deadline_seconds: spec.starting_deadline_seconds,
                concurrency_policy: spec.concurrency_policy,
                suspend: spec.suspend,
                job_template: spec.job_template,
                successful_jobs_history_limit: spec.successful_jobs_history_limit,
                failed_jobs_history_limit: spec.failed_jobs_history_limit,
            },
            status: object.status,
        }
    }
}
// ANCHOR_END: to_hub

// ANCHOR: from_hub
impl TryFrom<hub::CronJob> for v2::CronJob {
    type Error = String;

    /// Fails on a schedule that is not five fields (`@hourly`): v2 has no field for it.
    fn try_from(object: hub::CronJob) -> Result<Self, String> {
        let spec = object.spec;
        let fields: Vec<&str> = spec.schedule.split_whitespace().collect();
        let [minute, hour, day_of_month, month, day_of_week] = fields[..] else {
            return Err(format!(
                "invalid schedule {:?}: not a standard 5-field schedule",
                spec.schedule
            ));
        };
        let field = |raw: &str| (raw != "*").then(|| v2::CronField(raw.to_string()));
        Ok(v2::CronJob {
            metadata: object.metadata,
            spec: v2::CronJobSpec {
                schedule: v2::CronSchedule {
                    minute: field(minute),
                    hour: field(hour),
                    day_of_month: field(day_of_month),
                    month: field(month),
                    day_of_week: field(day_of_week),
                },
                starting_deadline_seconds: spec.starting_deadline_seconds,
                concurrency_policy: spec.concurrency_policy,
                suspend: spec.suspend,
                job_template: spec.job_template,
                successful_jobs_history_limit: spec.successful_jobs_history_limit,
                failed_jobs_history_limit: spec.failed_jobs_history_limit,
            },
            status: object.status,
        })
    }
}
// ANCHOR_END: from_hub

#[cfg(test)]
mod tests {
    use super::*;

    fn v1(schedule: &str) -> hub::CronJob {
        let mut object = hub::CronJob::new(
            "sample",
            serde_json::from_value(serde_json::json!({
                "schedule": schedule, "jobTemplate": {}, "suspend": true
            }))
            .unwrap(),
        );
        object.metadata.namespace = Some("default".to_string());
        object
    }

    #[test]
    fn a_schedule_converts_field_by_field_and_back() {
        let object = v1("*/1 * 1 * MON");
        let converted = v2::CronJob::try_from(object.clone()).unwrap();
        let schedule = &converted.spec.schedule;
        assert_eq!(schedule.minute, Some(v2::CronField("*/1".to_string())));
        assert_eq!(schedule.hour, None);
        assert_eq!(schedule.day_of_month, Some(v2::CronField("1".to_string())));
        assert_eq!(schedule.day_of_week, Some(v2::CronField("MON".to_string())));
        assert_eq!(converted.spec.suspend, Some(true));
        let back = hub::CronJob::from(converted);
        assert_eq!(back.spec, object.spec);
        assert_eq!(back.metadata, object.metadata);
    }

    #[test]
    fn a_schedule_v2_cannot_hold_is_refused() {
        let error = v2::CronJob::try_from(v1("@hourly")).unwrap_err();
        assert!(error.contains("not a standard 5-field schedule"), "{error}");
    }
}
