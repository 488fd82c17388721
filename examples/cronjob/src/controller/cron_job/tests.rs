//! The `CronJob` controller against a real API server (`kubegen::testing`): etcd and
//! kube-apiserver from setup-envtest, one control plane for all tests of the binary. There is
//! no kube-controller-manager: Jobs never run, so the test writes a Job's status itself, and
//! nothing garbage-collects.
//!
//! ```sh
//! export KUBEBUILDER_ASSETS=$(setup-envtest use -p path)
//! cargo test -p cronjob-operator -- --ignored
//! ```

use std::sync::{Arc, Mutex};

use k8s_openapi::api::batch::v1::{Job, JobCondition, JobStatus};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kube::api::{DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::{Api, ResourceExt};
use kubegen::CustomResource;
use kubegen::testing::ControlPlane;

use super::{Context, FINALIZER, SCHEDULED_AT, reconcile};
use crate::api::batch_v1::CronJob;
use crate::api::batch_v2 as v2;

// ANCHOR: clock
/// A clock the test sets: `Context::now` reads it.
#[derive(Clone)]
struct TestClock(Arc<Mutex<Timestamp>>);

impl TestClock {
    fn context(&self, client: kube::Client) -> Arc<Context> {
        let clock = self.0.clone();
        Arc::new(Context {
            client,
            now: Box::new(move || *clock.lock().unwrap()),
        })
    }

    fn advance(&self, by: SignedDuration) {
        let mut now = self.0.lock().unwrap();
        *now += by;
    }
}
// ANCHOR_END: clock

// ANCHOR: test
/// A `CronJob` through its life, reconciled as the operator's ServiceAccount
/// (`config/rbac/role.yaml` bound to it): the finalizer added, no Job before the first run,
/// the run's Job created once the clock passes it, the status listing it as active and then,
/// once it completed, the last schedule time; on deletion the running Jobs stopped and the
/// finalizer removed. A call the role does not allow fails with 403.
#[tokio::test]
#[ignore = "needs KUBEBUILDER_ASSETS (setup-envtest use -p path)"]
async fn a_cron_job_runs_its_job_on_schedule_as_the_service_account() {
    let cp = ControlPlane::shared()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // Both versions (v2 converts through the webhook, which this test does not call).
    let versions = [CronJob::resource(), v2::CronJob::resource()];
    cp.install_crds(&[kubegen::crd_for(&versions).unwrap()])
        .await
        .unwrap();
    let namespace = cp.namespace("cronjob").await.unwrap();
    let role = include_str!("../../../config/rbac/role.yaml");
    let operator = cp
        .client_as(&namespace, "controller-manager", role)
        .await
        .unwrap();
    let admin: Api<CronJob> = Api::namespaced(cp.client(), &namespace);
    let jobs: Api<Job> = Api::namespaced(cp.client(), &namespace);

    let object: CronJob = serde_json::from_value(serde_json::json!({
        "apiVersion": "batch.tutorial.kubebuilder.io/v1",
        "kind": "CronJob",
        "metadata": {"name": "test-cronjob"},
        "spec": {
            "schedule": "*/5 * * * *",
            "jobTemplate": {"spec": {"template": {"spec": {
                "restartPolicy": "OnFailure",
                "containers": [{"name": "test-container", "image": "test-image"}],
            }}}},
        },
    }))
    .unwrap();
    let mut object = admin.create(&PostParams::default(), &object).await.unwrap();
    let name = object.name_any();
    // The clock starts a minute after the creation, before the first run (every 5 minutes).
    let created = object.metadata.creation_timestamp.clone().unwrap().0;
    let first_run = crate::schedule::parse("*/5 * * * *")
        .unwrap()
        .find_next_occurrence(
            &created.to_zoned(k8s_openapi::jiff::tz::TimeZone::UTC),
            false,
        )
        .unwrap()
        .timestamp();
    let clock = TestClock(Arc::new(Mutex::new(
        first_run - SignedDuration::from_secs(60),
    )));
    let ctx = clock.context(operator);

    // The first reconcile adds the finalizer, the next one finds no run due yet.
    for _ in 0..2 {
        reconcile(Arc::new(object), ctx.clone()).await.unwrap();
        object = admin.get(&name).await.unwrap();
    }
    assert_eq!(object.finalizers(), [FINALIZER]);
    assert!(
        jobs.list(&ListParams::default())
            .await
            .unwrap()
            .items
            .is_empty()
    );

    // Two minutes later the first run is due: its Job is created, owned by the CronJob.
    clock.advance(SignedDuration::from_secs(120));
    reconcile(Arc::new(object.clone()), ctx.clone())
        .await
        .unwrap();
    let job = jobs
        .get(&format!("{name}-{}", first_run.as_second()))
        .await
        .unwrap();
    assert_eq!(job.annotations()[SCHEDULED_AT], first_run.to_string());
    let owner = &job.owner_references()[0];
    assert_eq!(
        (owner.uid.as_str(), owner.controller),
        (object.uid().unwrap().as_str(), Some(true))
    );

    // The next reconcile reports it running, and creates nothing more.
    reconcile(Arc::new(object), ctx.clone()).await.unwrap();
    object = admin.get(&name).await.unwrap();
    let status = object.status.clone().unwrap();
    assert_eq!(status.active.len(), 1);
    assert_eq!(status.active[0].name, job.metadata.name);
    assert_eq!(status.last_schedule_time.map(|t| t.0), Some(first_run));
    let available = status
        .conditions
        .iter()
        .find(|c| c.type_ == "Available")
        .unwrap();
    assert_eq!(
        (available.status.as_str(), available.reason.as_str()),
        ("True", "Scheduling")
    );
    assert_eq!(
        jobs.list(&ListParams::default()).await.unwrap().items.len(),
        1
    );
    // ANCHOR_END: test

    // The Job completes (no kube-controller-manager here: the test says so): it leaves
    // `status.active`.
    let condition = |type_: &str| JobCondition {
        type_: type_.to_string(),
        status: "True".to_string(),
        ..JobCondition::default()
    };
    let complete = JobStatus {
        start_time: Some(Time(first_run)),
        completion_time: Some(Time(first_run + SignedDuration::from_secs(10))),
        succeeded: Some(1),
        conditions: Some(vec![condition("SuccessCriteriaMet"), condition("Complete")]),
        ..JobStatus::default()
    };
    let patch = Patch::Merge(serde_json::json!({ "status": complete }));
    jobs.patch_status(&job.name_any(), &PatchParams::default(), &patch)
        .await
        .unwrap();
    reconcile(Arc::new(object), ctx.clone()).await.unwrap();
    object = admin.get(&name).await.unwrap();
    let status = object.status.clone().unwrap();
    assert!(status.active.is_empty(), "{status:?}");
    assert_eq!(status.last_schedule_time.map(|t| t.0), Some(first_run));

    // The second run's Job, then the CronJob deleted: the finalizer holds it until the
    // cleanup stopped the running Job, then it is gone.
    clock.advance(SignedDuration::from_secs(300));
    reconcile(Arc::new(object.clone()), ctx.clone())
        .await
        .unwrap();
    let second = format!(
        "{name}-{}",
        (first_run + SignedDuration::from_secs(300)).as_second()
    );
    assert!(
        jobs.get_opt(&second).await.unwrap().is_some(),
        "the second run's Job"
    );
    admin.delete(&name, &DeleteParams::default()).await.unwrap();
    object = admin.get(&name).await.unwrap();
    assert!(object.metadata.deletion_timestamp.is_some());
    reconcile(Arc::new(object), ctx).await.unwrap();
    assert!(
        admin.get_opt(&name).await.unwrap().is_none(),
        "the finalizer is removed"
    );
    assert!(
        jobs.get_opt(&second).await.unwrap().is_none(),
        "the running Job is stopped"
    );
    assert!(
        jobs.get_opt(&job.name_any()).await.unwrap().is_some(),
        "the finished Job is kept"
    );
}
