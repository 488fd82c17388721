//! The status of a `Memcached`: what its Deployment reports, as replicas and the `Available`,
//! `Progressing` and `Degraded` conditions, applied through the status subresource
//! (server-side apply, with the operator's field manager: it owns these fields and conditions,
//! and no other writer's).

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use k8s_openapi::jiff::Timestamp;
use kube::api::{Patch, PatchParams};
use kube::{Api, ResourceExt};
use kubegen::rbac;

use super::{Error, MANAGER, deployment};
use crate::api::v1alpha1::{Memcached, MemcachedApply, MemcachedStatus, MemcachedStatusApply};

/// The condition that is `True` when every requested replica is ready.
pub const AVAILABLE: &str = "Available";
/// The condition that is `True` while the Deployment has not reached the requested state.
pub const PROGRESSING: &str = "Progressing";
/// The condition that is `True` when the Deployment cannot reach the requested state.
pub const DEGRADED: &str = "Degraded";

/// One condition as the reconciler sees it, before timestamps and generations are added.
#[derive(Clone, Debug, PartialEq)]
pub struct Observed {
    /// The condition's type.
    pub type_: &'static str,
    /// `True` or `False`.
    pub status: bool,
    /// A CamelCase reason.
    pub reason: &'static str,
    /// A sentence for people.
    pub message: String,
}

impl Observed {
    fn new(
        type_: &'static str,
        status: bool,
        reason: &'static str,
        message: impl Into<String>,
    ) -> Self {
        Self {
            type_,
            status,
            reason,
            message: message.into(),
        }
    }
}

/// What the status should say about `mc`, given its Deployment as the apiserver returned it.
///
/// With no Deployment controller running (a bare apiserver), the Deployment never reports on
/// its generation: the conditions then say so instead of claiming progress.
pub fn observe(mc: &Memcached, deploy: &Deployment) -> (MemcachedStatus, Vec<Observed>) {
    let size = mc.spec.size;
    let name = mc.name_any();
    let ds = deploy.status.clone().unwrap_or_default();
    let ready = ds.ready_replicas.unwrap_or(0);
    let status = MemcachedStatus {
        conditions: Vec::new(),
        replicas: ds.replicas.unwrap_or(0),
        ready_replicas: ready,
        selector: deployment::selector_string(mc),
    };
    let generation = deploy.metadata.generation.unwrap_or(0);
    let seen = ds.observed_generation.is_some_and(|g| g >= generation);
    let failure = ds.conditions.iter().flatten().find(|c| {
        let is = |type_: &str, status: &str| {
            c.type_.as_deref() == Some(type_) && c.status.as_deref() == Some(status)
        };
        is("Progressing", "False") || is("ReplicaFailure", "True")
    });
    let progress = format!("{ready}/{size} replicas ready");
    let available = || {
        let reason = if ready >= size {
            "AllReplicasReady"
        } else {
            "ReplicasNotReady"
        };
        Observed::new(AVAILABLE, ready >= size, reason, &progress)
    };
    let conditions = if !seen {
        let waiting = format!(
            "Deployment {name} generation {generation} is not yet observed by the Deployment controller; {progress}"
        );
        vec![
            Observed::new(AVAILABLE, false, "DeploymentNotObserved", &waiting),
            Observed::new(
                PROGRESSING,
                true,
                "WaitingForDeploymentController",
                &waiting,
            ),
            Observed::new(DEGRADED, false, "AsExpected", "No failure reported"),
        ]
    } else if let Some(failure) = failure {
        let reason = if failure.type_.as_deref() == Some("ReplicaFailure") {
            "ReplicaFailure"
        } else {
            "ProgressDeadlineExceeded"
        };
        let message = format!(
            "Deployment {name}: {}; {progress}",
            failure.message.as_deref().unwrap_or(reason)
        );
        vec![
            available(),
            Observed::new(PROGRESSING, false, reason, &message),
            Observed::new(DEGRADED, true, reason, &message),
        ]
    } else {
        let complete = ready >= size
            && ds.updated_replicas.unwrap_or(0) >= size
            && ds.replicas.unwrap_or(0) == size;
        vec![
            available(),
            if complete {
                Observed::new(
                    PROGRESSING,
                    false,
                    "ReconcileComplete",
                    format!("Deployment {name} is up to date; {progress}"),
                )
            } else {
                Observed::new(
                    PROGRESSING,
                    true,
                    "RollingOut",
                    format!("Deployment {name} is rolling out; {progress}"),
                )
            },
            Observed::new(DEGRADED, false, "AsExpected", "No failure reported"),
        ]
    };
    (status, conditions)
}

/// What the status should say when a Deployment of `mc`'s name is controlled by someone else.
pub fn conflict(mc: &Memcached) -> (MemcachedStatus, Vec<Observed>) {
    let message = format!(
        "Deployment {} exists and is not controlled by this Memcached",
        mc.name_any()
    );
    let status = MemcachedStatus {
        selector: deployment::selector_string(mc),
        ..MemcachedStatus::default()
    };
    let conditions = vec![
        Observed::new(AVAILABLE, false, "DeploymentConflict", &message),
        Observed::new(PROGRESSING, false, "DeploymentConflict", &message),
        Observed::new(DEGRADED, true, "DeploymentConflict", &message),
    ];
    (status, conditions)
}

/// `status` with `observed` merged into `current`'s conditions as `meta.SetStatusCondition`
/// does: a condition keeps its `lastTransitionTime` unless its status changes; conditions of
/// other types are kept.
pub fn merge(
    current: Option<&MemcachedStatus>,
    mut status: MemcachedStatus,
    observed: &[Observed],
    generation: Option<i64>,
    now: Timestamp,
) -> MemcachedStatus {
    let mut conditions = current.map(|s| s.conditions.clone()).unwrap_or_default();
    for o in observed {
        let value = if o.status { "True" } else { "False" };
        let old = conditions.iter().position(|c| c.type_ == o.type_);
        let last_transition_time = match old.map(|i| &conditions[i]) {
            Some(c) if c.status == value => c.last_transition_time.clone(),
            _ => Time(now),
        };
        let condition = Condition {
            type_: o.type_.to_string(),
            status: value.to_string(),
            reason: o.reason.to_string(),
            message: o.message.clone(),
            observed_generation: generation,
            last_transition_time,
        };
        match old {
            Some(i) => conditions[i] = condition,
            None => conditions.push(condition),
        }
    }
    status.conditions = conditions;
    status
}

/// Applies the status `desired` computes (with `observedGeneration` = `generation`) through
/// the status subresource, unless it is already there. The apply carries only what the
/// operator owns: the status fields and its own conditions (conditions of other types, written
/// by other managers, stay theirs). No `resourceVersion` is sent, so a concurrent write is no
/// conflict to retry; `force` keeps the operator the owner of its fields.
// ANCHOR: update
#[rbac(
    groups = "cache.example.com",
    resources = "memcacheds/status",
    verbs = "patch"
)]
pub async fn update(
    api: &Api<Memcached>,
    mc: &Memcached,
    desired: &(MemcachedStatus, Vec<Observed>),
) -> Result<(), Error> {
    let (name, namespace) = super::name_and_namespace(mc)?;
    let (status, observed) = desired.clone();
    let next = merge(
        mc.status.as_ref(),
        status,
        &observed,
        mc.metadata.generation,
        Timestamp::now(),
    );
    if mc.status.as_ref() == Some(&next) {
        return Ok(());
    }
    let apply = MemcachedApply::new(&name)
        .with_namespace(&namespace)
        .with_status(owned(next, &observed));
    let params = PatchParams::apply(MANAGER).force();
    api.patch_status(&name, &params, &Patch::Apply(&apply))
        .await?;
    Ok(())
}
// ANCHOR_END: update

/// The apply configuration of `status` with only the conditions the operator observes.
fn owned(status: MemcachedStatus, observed: &[Observed]) -> MemcachedStatusApply {
    let conditions = status
        .conditions
        .into_iter()
        .filter(|c| observed.iter().any(|o| o.type_ == c.type_));
    MemcachedStatusApply::default()
        .with_conditions(conditions.collect::<Vec<_>>())
        .with_replicas(status.replicas)
        .with_ready_replicas(status.ready_replicas)
        .with_selector(status.selector)
}
