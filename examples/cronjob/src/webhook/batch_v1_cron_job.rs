//! The admission webhooks of `CronJob` v1.

use kubegen::webhook;
use kubegen::webhook::{Denied, Server};

use crate::api::batch_v1::CronJob;
use crate::schedule;

/// Serves this kind's webhooks on `server`.
pub fn register(server: Server) -> Server {
    server
        .mutate(default::webhooks(), default)
        .validate(validate::webhooks(), validate)
}

// ANCHOR: default
/// Fills in what a new or updated `CronJob` leaves out, as kubebuilder's tutorial does: not
/// suspended, three successful and one failed Job kept. (`concurrencyPolicy` has a schema
/// default, `#[kube_marker(default = "Allow")]`, which needs no webhook.)
#[webhook(
    mutating = true,
    failure_policy = "fail",
    side_effects = "None",
    groups = "batch.tutorial.kubebuilder.io",
    resources = "cronjobs",
    verbs = "create;update",
    versions = "v1",
    name = "mcronjob-v1.batch.tutorial.kubebuilder.io",
    admission_review_versions = "v1"
)]
fn default(object: &mut CronJob) {
    let spec = &mut object.spec;
    spec.suspend.get_or_insert(false);
    spec.successful_jobs_history_limit.get_or_insert(3);
    spec.failed_jobs_history_limit.get_or_insert(1);
}
// ANCHOR_END: default

// ANCHOR: validate
/// Accepts or denies a new or updated `CronJob`: what its schema cannot say. The schedule must
/// parse, and the name leave room for the 11 characters of a Job's `-<minutes>` suffix.
#[webhook(
    mutating = false,
    failure_policy = "fail",
    side_effects = "None",
    groups = "batch.tutorial.kubebuilder.io",
    resources = "cronjobs",
    verbs = "create;update",
    versions = "v1",
    name = "vcronjob-v1.batch.tutorial.kubebuilder.io",
    admission_review_versions = "v1"
)]
fn validate(object: &CronJob, _old: Option<&CronJob>) -> Result<(), Denied> {
    let mut problems = Vec::new();
    let name = object.metadata.name.as_deref().unwrap_or_default();
    if name.len() > MAX_NAME_LENGTH {
        problems.push(format!(
            "metadata.name: Invalid value: {name:?}: must be no more than {MAX_NAME_LENGTH} characters"
        ));
    }
    if let Err(error) = schedule::parse(&object.spec.schedule) {
        problems.push(format!(
            "spec.schedule: Invalid value: {:?}: {error}",
            object.spec.schedule
        ));
    }
    if problems.is_empty() {
        return Ok(());
    }
    let message = format!(
        "CronJob.batch.tutorial.kubebuilder.io {name:?} is invalid: {}",
        problems.join(", ")
    );
    Err(Denied::new(message).with_code(422))
}

/// A Job's name is its CronJob's and `-` with the scheduled time in minutes (up to 11
/// characters), within the 63 characters of a label value.
const MAX_NAME_LENGTH: usize = 63 - 11;
// ANCHOR_END: validate

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_each_webhook_on_its_manifest_path() {
        let server = register(Server::new());
        let paths: Vec<&str> = server.paths().collect();
        assert!(
            paths.contains(&"/mutate-batch-tutorial-kubebuilder-io-v1-cronjob"),
            "{paths:?}"
        );
        assert!(
            paths.contains(&"/validate-batch-tutorial-kubebuilder-io-v1-cronjob"),
            "{paths:?}"
        );
    }

    fn cron_job(name: &str, schedule: &str) -> CronJob {
        let spec = serde_json::from_value(serde_json::json!({
            "schedule": schedule, "jobTemplate": {}
        }))
        .unwrap();
        CronJob::new(name, spec)
    }

    #[test]
    fn defaulting_fills_in_what_is_left_out_and_keeps_what_is_set() {
        let mut object = cron_job("sample", "*/1 * * * *");
        object.spec.failed_jobs_history_limit = Some(5);
        default(&mut object);
        assert_eq!(object.spec.suspend, Some(false));
        assert_eq!(object.spec.successful_jobs_history_limit, Some(3));
        assert_eq!(object.spec.failed_jobs_history_limit, Some(5));
    }

    #[test]
    fn validation_denies_a_bad_schedule_and_a_long_name() {
        assert_eq!(validate(&cron_job("sample", "*/1 * * * *"), None), Ok(()));
        let denied = validate(&cron_job(&"n".repeat(53), "every minute"), None).unwrap_err();
        assert_eq!(denied.code, 422);
        assert!(
            denied.message.contains("metadata.name: Invalid value"),
            "{}",
            denied.message
        );
        assert!(
            denied
                .message
                .contains("spec.schedule: Invalid value: \"every minute\""),
            "{}",
            denied.message
        );
        assert!(validate(&cron_job(&"n".repeat(52), "@hourly"), None).is_ok());
    }
}
