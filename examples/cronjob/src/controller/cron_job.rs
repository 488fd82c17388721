//! The `CronJob` controller: runs each CronJob's Job when its schedule says, keeps its
//! history within the limits, reports the running Jobs and the last run in the status, and
//! with a finalizer stops the running Jobs when the CronJob is deleted.

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kube::api::{
    DeleteParams, ListParams, ObjectMeta, Patch, PatchParams, PostParams, PropagationPolicy,
};
use kube::runtime::controller::Action;
use kube::runtime::finalizer::{Event, finalizer};
use kube::runtime::watcher;
use kube::{Api, Client, Resource, ResourceExt};
use kubegen::rbac;
use kubegen::runtime::{Scope, conditions};
use serde_json::json;
use tracing::{info, warn};

use crate::api::batch_v1::{ConcurrencyPolicy, CronJob, CronJobStatus};
use crate::schedule;

// ANCHOR: constants
/// The finalizer put on every `CronJob`, so that its deletion waits for [`cleanup`].
pub const FINALIZER: &str = "batch.tutorial.kubebuilder.io/finalizer";

/// The annotation on each Job with the time it was scheduled for (RFC 3339).
pub const SCHEDULED_AT: &str = "batch.tutorial.kubebuilder.io/scheduled-at";

/// The field manager of the status the operator applies.
const FIELD_MANAGER: &str = "cronjob-operator";
// ANCHOR_END: constants

// ANCHOR: error
/// What a reconcile failed on.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A Kubernetes API call failed.
    #[error("Kubernetes API call failed: {0}")]
    Kube(#[from] kube::Error),
    /// The schedule does not parse, or has missed too many runs.
    #[error("schedule {schedule:?}: {reason}")]
    Schedule { schedule: String, reason: String },
    /// Adding or removing the finalizer failed, or the work around it did.
    #[error("{0}")]
    Finalizer(#[source] Box<kube::runtime::finalizer::Error<Error>>),
}
// ANCHOR_END: error

// ANCHOR: clock
/// What every reconcile shares: the client and the clock. The clock is a function so that a
/// test can say what time it is instead of waiting for the schedule.
pub struct Context {
    pub client: Client,
    pub now: Box<dyn Fn() -> Timestamp + Send + Sync>,
}

impl Context {
    /// A context on the system clock.
    pub fn new(client: Client) -> Self {
        Context {
            client,
            now: Box::new(Timestamp::now),
        }
    }
}
// ANCHOR_END: clock

// ANCHOR: run
/// Runs the controller until `scope.shutdown` is cancelled: CronJobs, and the Jobs they own
/// (a Job that finishes reconciles its CronJob again), measured on `/metrics` as the
/// controller `cronjob`.
#[rbac(
    groups = "batch.tutorial.kubebuilder.io",
    resources = "cronjobs",
    verbs = "get;list;watch"
)]
#[rbac(groups = "batch", resources = "jobs", verbs = "list;watch")]
pub async fn run(scope: Scope) {
    let cron_jobs: Api<CronJob> = scope.api();
    let jobs: Api<Job> = scope.api();
    let ctx = Arc::new(Context::new(scope.client.clone()));
    scope
        .controller("cronjob", cron_jobs, watcher::Config::default())
        .owns(jobs, watcher::Config::default())
        .run(reconcile, error_policy, ctx)
        .await;
}
// ANCHOR_END: run

// ANCHOR: reconcile
/// Reconciles one `CronJob`: adds the finalizer, then [`apply`]; once it is being deleted,
/// [`cleanup`] and removes the finalizer.
#[rbac(
    groups = "batch.tutorial.kubebuilder.io",
    resources = "cronjobs",
    verbs = "patch"
)]
pub async fn reconcile(object: Arc<CronJob>, ctx: Arc<Context>) -> Result<Action, Error> {
    let api: Api<CronJob> = Api::namespaced(ctx.client.clone(), &namespace(&object));
    finalizer(&api, FINALIZER, object, |event| async {
        match event {
            Event::Apply(object) => apply(&object, &ctx).await,
            Event::Cleanup(object) => cleanup(&object, &ctx).await,
        }
    })
    .await
    .map_err(|e| Error::Finalizer(Box::new(e)))
}
// ANCHOR_END: reconcile

// ANCHOR: apply
/// One pass of kubebuilder's CronJob reconcile: list the Jobs, report them in the status,
/// prune the history, then start the Job of a missed run if the policies allow it, and come
/// back at the next run.
async fn apply(cron_job: &CronJob, ctx: &Context) -> Result<Action, Error> {
    let now = (ctx.now)();
    let jobs = Jobs::of(cron_job, list_jobs(cron_job, ctx).await?);
    update_status(cron_job, ctx, &jobs, now).await?;
    prune_history(cron_job, ctx, &jobs).await?;

    if cron_job.spec.suspend == Some(true) {
        info!(name = %cron_job.name_any(), "suspended, not scheduling");
        return Ok(Action::await_change());
    }
    let runs = next_runs(cron_job, now)?;
    let requeue = Action::requeue(until(runs.next, now));
    let Some(missed) = runs.missed else {
        return Ok(requeue);
    };
    if let Some(deadline) = cron_job.spec.starting_deadline_seconds
        && missed + SignedDuration::from_secs(deadline) < now
    {
        info!(name = %cron_job.name_any(), "missed the starting deadline of the last run");
        return Ok(requeue);
    }
    match cron_job.spec.concurrency_policy {
        ConcurrencyPolicy::Forbid if !jobs.active.is_empty() => {
            info!(name = %cron_job.name_any(), "a Job is still running, skipping this run");
            return Ok(requeue);
        }
        ConcurrencyPolicy::Replace => {
            for job in &jobs.active {
                delete_job(cron_job, ctx, job).await?;
            }
        }
        _ => {}
    }
    create_job(cron_job, ctx, missed).await?;
    Ok(requeue)
}
// ANCHOR_END: apply

// ANCHOR: jobs
/// A CronJob's Jobs, by state.
#[derive(Debug, Default)]
struct Jobs {
    active: Vec<Job>,
    successful: Vec<Job>,
    failed: Vec<Job>,
    /// The latest time a Job was scheduled for (its [`SCHEDULED_AT`] annotation).
    last_scheduled: Option<Timestamp>,
}

impl Jobs {
    /// Sorts `jobs` out: the ones `cron_job` controls, by whether they finished and how.
    fn of(cron_job: &CronJob, jobs: Vec<Job>) -> Jobs {
        let uid = cron_job.metadata.uid.as_deref();
        let mut sorted = Jobs::default();
        for job in jobs {
            let controller = job
                .owner_references()
                .iter()
                .find(|o| o.controller == Some(true));
            if controller.map(|o| o.uid.as_str()) != uid {
                continue;
            }
            if let Some(at) = scheduled_at(&job) {
                sorted.last_scheduled = sorted.last_scheduled.max(Some(at));
            }
            match finished(&job) {
                Some("Complete") => sorted.successful.push(job),
                Some(_) => sorted.failed.push(job),
                None => sorted.active.push(job),
            }
        }
        sorted
    }
}

/// How a Job finished (`Complete` or `Failed`: the condition that is `True`), if it did.
fn finished(job: &Job) -> Option<&str> {
    let conditions = job.status.as_ref()?.conditions.as_ref()?;
    conditions
        .iter()
        .find(|c| (c.type_ == "Complete" || c.type_ == "Failed") && c.status == "True")
        .map(|c| c.type_.as_str())
}

/// The time a Job was scheduled for, from its annotation.
fn scheduled_at(job: &Job) -> Option<Timestamp> {
    job.annotations().get(SCHEDULED_AT)?.parse().ok()
}
// ANCHOR_END: jobs

// ANCHOR: list_jobs
/// The Jobs in the CronJob's namespace (sorted out by owner in [`Jobs::of`]).
async fn list_jobs(cron_job: &CronJob, ctx: &Context) -> Result<Vec<Job>, Error> {
    let api: Api<Job> = Api::namespaced(ctx.client.clone(), &namespace(cron_job));
    Ok(api.list(&ListParams::default()).await?.items)
}
// ANCHOR_END: list_jobs

// ANCHOR: status
/// Writes the running Jobs, the last run and an `Available` condition into the status, when
/// they differ from what it says.
#[rbac(
    groups = "batch.tutorial.kubebuilder.io",
    resources = "cronjobs/status",
    verbs = "patch"
)]
async fn update_status(
    cron_job: &CronJob,
    ctx: &Context,
    jobs: &Jobs,
    now: Timestamp,
) -> Result<(), Error> {
    let old = cron_job.status.clone().unwrap_or_default();
    let mut status = CronJobStatus {
        active: jobs.active.iter().map(reference).collect(),
        last_schedule_time: jobs
            .last_scheduled
            .map(Time)
            .or(old.last_schedule_time.clone()),
        conditions: old.conditions.clone(),
    };
    let (reason, message) = if cron_job.spec.suspend == Some(true) {
        ("Suspended", "the CronJob is suspended".to_string())
    } else {
        (
            "Scheduling",
            format!("{} active Job(s)", status.active.len()),
        )
    };
    conditions::set(
        &mut status.conditions,
        Condition {
            type_: "Available".to_string(),
            status: "True".to_string(),
            reason: reason.to_string(),
            message,
            observed_generation: cron_job.metadata.generation,
            last_transition_time: Time(now),
        },
    );
    if status == old {
        return Ok(());
    }
    // Server-side apply: a field left out (no active Job) is removed, as the operator owns it.
    let api: Api<CronJob> = Api::namespaced(ctx.client.clone(), &namespace(cron_job));
    let patch = Patch::Apply(json!({
        "apiVersion": CronJob::api_version(&()),
        "kind": CronJob::kind(&()),
        "status": status,
    }));
    let params = PatchParams::apply(FIELD_MANAGER).force();
    api.patch_status(&cron_job.name_any(), &params, &patch)
        .await?;
    Ok(())
}

/// A reference to `job` for `status.active`.
fn reference(job: &Job) -> ObjectReference {
    ObjectReference {
        api_version: Some("batch/v1".to_string()),
        kind: Some("Job".to_string()),
        name: job.metadata.name.clone(),
        namespace: job.metadata.namespace.clone(),
        uid: job.metadata.uid.clone(),
        resource_version: job.metadata.resource_version.clone(),
        ..ObjectReference::default()
    }
}
// ANCHOR_END: status

// ANCHOR: prune
/// Deletes the oldest finished Jobs beyond `successfulJobsHistoryLimit` and
/// `failedJobsHistoryLimit`.
async fn prune_history(cron_job: &CronJob, ctx: &Context, jobs: &Jobs) -> Result<(), Error> {
    let spec = &cron_job.spec;
    for (finished, limit) in [
        (&jobs.successful, spec.successful_jobs_history_limit),
        (&jobs.failed, spec.failed_jobs_history_limit),
    ] {
        let Some(limit) = limit else { continue };
        let mut oldest_first: Vec<&Job> = finished.iter().collect();
        oldest_first.sort_by_key(|job| {
            job.status
                .as_ref()
                .and_then(|s| s.start_time.clone())
                .map(|t| t.0)
        });
        let excess = oldest_first
            .len()
            .saturating_sub(usize::try_from(limit).unwrap_or(0));
        for job in &oldest_first[..excess] {
            delete_job(cron_job, ctx, job).await?;
        }
    }
    Ok(())
}
// ANCHOR_END: prune

/// The runs of the CronJob's schedule around `now`, counting from its last run (or its
/// creation).
fn next_runs(cron_job: &CronJob, now: Timestamp) -> Result<schedule::Runs, Error> {
    let schedule_error = |reason| Error::Schedule {
        schedule: cron_job.spec.schedule.clone(),
        reason,
    };
    let cron = schedule::parse(&cron_job.spec.schedule).map_err(schedule_error)?;
    let last = cron_job
        .status
        .as_ref()
        .and_then(|s| s.last_schedule_time.clone())
        .or(cron_job.metadata.creation_timestamp.clone())
        .map_or(now, |t| t.0);
    let deadline = cron_job
        .spec
        .starting_deadline_seconds
        .map(SignedDuration::from_secs);
    schedule::runs(&cron, last, deadline, now).map_err(schedule_error)
}

/// How long from `now` until `next`.
fn until(next: Timestamp, now: Timestamp) -> Duration {
    Duration::try_from(next.duration_since(now)).unwrap_or_default()
}

// ANCHOR: job_for
/// The Job of the run scheduled at `at`: the CronJob's template, named after the CronJob and
/// the run's time (so a second reconcile of the same run cannot create it twice), controlled
/// by the CronJob.
pub fn job_for(cron_job: &CronJob, at: Timestamp) -> Job {
    let template = &cron_job.spec.job_template;
    let template_meta = template.metadata.clone().unwrap_or_default();
    let mut annotations = template_meta.annotations.unwrap_or_default();
    annotations.insert(SCHEDULED_AT.to_string(), at.to_string());
    Job {
        metadata: ObjectMeta {
            name: Some(format!("{}-{}", cron_job.name_any(), at.as_second())),
            namespace: cron_job.metadata.namespace.clone(),
            labels: template_meta.labels,
            annotations: Some(annotations),
            owner_references: cron_job.controller_owner_ref(&()).map(|o| vec![o]),
            ..ObjectMeta::default()
        },
        spec: template.spec.clone(),
        status: None,
    }
}
// ANCHOR_END: job_for

// ANCHOR: create_job
/// Creates the Job of the run at `at`. A controller reference blocks its owner's deletion,
/// which needs `update` on `cronjobs/finalizers` where the API server enforces owner
/// references' permissions.
#[rbac(groups = "batch", resources = "jobs", verbs = "create")]
#[rbac(
    groups = "batch.tutorial.kubebuilder.io",
    resources = "cronjobs/finalizers",
    verbs = "update"
)]
async fn create_job(cron_job: &CronJob, ctx: &Context, at: Timestamp) -> Result<(), Error> {
    let api: Api<Job> = Api::namespaced(ctx.client.clone(), &namespace(cron_job));
    match api
        .create(&PostParams::default(), &job_for(cron_job, at))
        .await
    {
        Ok(job) => info!(name = %job.name_any(), "created the Job of the run at {at}"),
        // Created by an earlier reconcile of the same run.
        Err(kube::Error::Api(e)) if e.code == 409 => {}
        Err(e) => return Err(e.into()),
    }
    Ok(())
}
// ANCHOR_END: create_job

/// Deletes `job` and, in the background, its Pods.
#[rbac(groups = "batch", resources = "jobs", verbs = "delete")]
async fn delete_job(cron_job: &CronJob, ctx: &Context, job: &Job) -> Result<(), Error> {
    let api: Api<Job> = Api::namespaced(ctx.client.clone(), &namespace(cron_job));
    let params = DeleteParams {
        propagation_policy: Some(PropagationPolicy::Background),
        ..DeleteParams::default()
    };
    match api.delete(&job.name_any(), &params).await {
        Ok(_) => info!(name = %job.name_any(), "deleted the Job"),
        Err(kube::Error::Api(e)) if e.code == 404 => {}
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

// ANCHOR: cleanup
/// Runs before a `CronJob` goes away: its running Jobs are stopped now rather than left to
/// run until the garbage collector deletes them. The finalizer is removed once this succeeds.
async fn cleanup(cron_job: &CronJob, ctx: &Context) -> Result<Action, Error> {
    let jobs = Jobs::of(cron_job, list_jobs(cron_job, ctx).await?);
    for job in &jobs.active {
        delete_job(cron_job, ctx, job).await?;
    }
    info!(name = %cron_job.name_any(), stopped = jobs.active.len(), "cleaned up");
    Ok(Action::await_change())
}
// ANCHOR_END: cleanup

/// When a failed reconcile is tried again.
fn error_policy(object: Arc<CronJob>, error: &Error, _ctx: Arc<Context>) -> Action {
    warn!(name = %object.name_any(), %error, "reconcile failed");
    Action::requeue(Duration::from_secs(5))
}

/// The namespace of a namespaced object.
fn namespace(cron_job: &CronJob) -> String {
    cron_job.namespace().unwrap_or_default()
}

#[cfg(test)]
mod tests;
