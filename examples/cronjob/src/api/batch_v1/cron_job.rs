//! The `CronJob` kind, version `v1` of the `batch.tutorial.kubebuilder.io` API group: the hub
//! every other version converts through, and the version etcd stores.
//!
//! `kubegen manifests` writes `config/crd/bases/` from these types and their
//! `#[kube_marker(...)]` attributes.

// ANCHOR: imports
use k8s_openapi::api::batch::v1::JobTemplateSpec;
use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};
// ANCHOR_END: imports

// ANCHOR: resource
/// CronJobSpec defines the desired state of CronJob.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube_marker(
    group = "batch.tutorial.kubebuilder.io",
    version = "v1",
    kind = "CronJob"
)]
#[kube_marker(status = "CronJobStatus", storage_version)]
#[kube_marker(printcolumn(name = "Schedule", json_path = ".spec.schedule"))]
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
// kubegen:scaffold:resource-markers
#[serde(rename_all = "camelCase")]
// ANCHOR_END: resource
// ANCHOR: spec
pub struct CronJobSpec {
    /// The schedule in Cron format, see <https://en.wikipedia.org/wiki/Cron>.
    #[kube_marker(min_length = 0)]
    pub schedule: String,

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
    /// This is a pointer to distinguish between explicit zero and not specified.
    #[kube_marker(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successful_jobs_history_limit: Option<i32>,

    /// The number of failed finished jobs to retain.
    /// This is a pointer to distinguish between explicit zero and not specified.
    #[kube_marker(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_jobs_history_limit: Option<i32>,
}
// ANCHOR_END: spec

// ANCHOR: concurrency
/// ConcurrencyPolicy describes how the job will be handled.
/// Only one of the following concurrent policies may be specified.
/// If none of the following policies is specified, the default one
/// is AllowConcurrent.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ConcurrencyPolicy {
    /// Allow allows CronJobs to run concurrently.
    #[default]
    Allow,
    /// Forbid forbids concurrent runs, skipping next run if previous
    /// hasn't finished yet.
    Forbid,
    /// Replace cancels currently running job and replaces it with a new one.
    Replace,
}
// ANCHOR_END: concurrency

// ANCHOR: status
/// CronJobStatus defines the observed state of CronJob.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CronJobStatus {
    /// A list of pointers to currently running jobs.
    #[kube_marker(max_items = 10)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active: Vec<ObjectReference>,

    /// Information when was the last time the job was successfully scheduled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<Time>,

    /// The latest observations of the CronJob's state, one per `type` (`Available`, ...).
    #[kube_marker(list_type = "map", list_map_keys = "type")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}
// ANCHOR_END: status

#[cfg(test)]
mod tests {
    use super::*;
    use kube::CustomResourceExt;

    #[test]
    fn names() {
        assert_eq!(
            CronJob::crd_name(),
            "cronjobs.batch.tutorial.kubebuilder.io"
        );
    }

    #[test]
    fn serde_and_the_schema_agree_on_defaults() {
        let spec = serde_json::json!({"schedule": "* * * * *", "jobTemplate": {}});
        if let Err(errors) = kubegen::check_defaults::<CronJobSpec>(spec) {
            panic!("{}", errors.rendered());
        }
    }
}
