//! The `CronJob` kind, version `v2` of the `batch.tutorial.kubebuilder.io` API group: the
//! schedule is a struct of its five fields instead of one string. Everything else is v1's;
//! `crate::webhook::cron_job_conversion` converts between the two.

use k8s_openapi::api::batch::v1::JobTemplateSpec;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

pub use crate::api::batch_v1::{ConcurrencyPolicy, CronJobStatus};

// ANCHOR: spec
/// CronJobSpec defines the desired state of CronJob.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube_marker(
    group = "batch.tutorial.kubebuilder.io",
    version = "v2",
    kind = "CronJob"
)]
#[kube_marker(status = "CronJobStatus")]
#[kube_marker(printcolumn(name = "Suspend", type = "boolean", json_path = ".spec.suspend"))]
#[kube_marker(printcolumn(
    name = "Last Schedule",
    type = "date",
    json_path = ".status.lastScheduleTime"
))]
#[kube_marker(printcolumn(name = "Age", json_path = ".metadata.creationTimestamp"))]
#[kube_marker(doc = "CronJob is the Schema for the cronjobs API.")]
#[kube_marker(conversion(webhook(
    service_name = "cronjob-operator-webhook-service",
    service_namespace = "cronjob-operator-system"
)))]
#[serde(rename_all = "camelCase")]
pub struct CronJobSpec {
    /// The schedule in Cron format, see <https://en.wikipedia.org/wiki/Cron>.
    pub schedule: CronSchedule,
    /// Optional deadline in seconds for starting the job if it misses scheduled
    /// time for any reason.  Missed jobs executions will be counted as failed ones.
    #[kube_marker(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starting_deadline_seconds: Option<i64>,

    /// Specifies how to treat concurrent executions of a Job.
    #[kube_marker(default = "Allow")]
    #[serde(default)]
    pub concurrency_policy: ConcurrencyPolicy,

    /// This flag tells the controller to suspend subsequent executions, it does
    /// not apply to already started executions.  Defaults to false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,

    /// Specifies the job that will be created when executing a CronJob.
    pub job_template: JobTemplateSpec,

    /// The number of successful finished jobs to retain.
    #[kube_marker(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successful_jobs_history_limit: Option<i32>,

    /// The number of failed finished jobs to retain.
    #[kube_marker(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_jobs_history_limit: Option<i32>,
}
// ANCHOR_END: spec

// ANCHOR: schedule
/// Describes a Cron schedule.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CronSchedule {
    /// Specifies the minute during which the job executes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minute: Option<CronField>,
    /// Specifies the hour during which the job executes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hour: Option<CronField>,
    /// Specifies the day of the month during which the job executes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day_of_month: Option<CronField>,
    /// Specifies the month during which the job executes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub month: Option<CronField>,
    /// Specifies the day of the week during which the job executes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day_of_week: Option<CronField>,
}

/// Represents a Cron field specifier.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
#[serde(transparent)]
pub struct CronField(pub String);
// ANCHOR_END: schedule
