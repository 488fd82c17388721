//! One reconciliation of a `Memcached`, and what happens when it fails.

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use kube::runtime::controller::Action;
use kube::runtime::finalizer::{Event, finalizer};
use kube::runtime::reflector::ObjectRef;
use kube::{Api, ResourceExt};
use kubegen::rbac;
use tracing::{debug, info, instrument, warn};

use super::events::{self, Happened};
use super::finalizer::{FINALIZER, cleanup};
use super::{Context, Error, deployment, status};
use crate::api::v1alpha1::Memcached;

/// How often a settled `Memcached` is looked at again even when nothing changed.
pub const RESYNC: Duration = Duration::from_secs(300);

// ANCHOR: reconcile
/// Reconciles one `Memcached`: makes sure it carries the finalizer, then applies its
/// Deployment and updates its status; on deletion, cleans up and removes the finalizer (the
/// finalizer is added and removed with JSON patches on the object).
#[instrument(skip_all, fields(memcached = %mc.name_any(), namespace = mc.namespace().unwrap_or_default()))]
#[rbac(
    groups = "cache.example.com",
    resources = "memcacheds",
    verbs = "patch"
)]
pub async fn reconcile(mc: Arc<Memcached>, ctx: Arc<Context>) -> Result<Action, Error> {
    let timer = ctx.metrics.reconcile_started();
    let object = ObjectRef::from_obj(mc.as_ref());
    let (_, namespace) = super::name_and_namespace(&mc)?;
    let api: Api<Memcached> = Api::namespaced(ctx.client.clone(), &namespace);
    let result = finalizer(&api, FINALIZER, mc, |event| async {
        match event {
            Event::Apply(mc) => apply(&mc, &ctx).await,
            Event::Cleanup(mc) => cleanup(&mc, &ctx).await,
        }
    })
    .await
    .map_err(|e| Error::Finalizer(Box::new(e)));
    drop(timer);
    if result.is_ok() {
        ctx.backoff.reset(&object);
    }
    result
}
// ANCHOR_END: reconcile

/// Applies the Deployment of `mc`, publishes what changed and writes the status.
async fn apply(mc: &Memcached, ctx: &Context) -> Result<Action, Error> {
    let (name, namespace) = super::name_and_namespace(mc)?;
    let deployments: Api<Deployment> = Api::namespaced(ctx.client.clone(), &namespace);
    let memcacheds: Api<Memcached> = Api::namespaced(ctx.client.clone(), &namespace);
    let existing = deployment::get(&deployments, &name).await?;
    if let Some(existing) = &existing
        && !deployment::is_controlled_by(existing, mc)
    {
        warn!("a Deployment of this name exists and is not ours");
        events::publish(ctx, mc, Happened::Conflict).await;
        status::update(&memcacheds, mc, &status::conflict(mc)).await?;
        return Ok(Action::requeue(RESYNC));
    }
    let applied = deployment::apply(&deployments, mc).await?;
    let size = mc.spec.size;
    match existing.as_ref().map(deployment::spec_replicas) {
        None => {
            info!(size, "created the Deployment");
            events::publish(ctx, mc, Happened::Created(size)).await;
        }
        Some(from) if from != size => {
            info!(from, to = size, "scaled the Deployment");
            events::publish(ctx, mc, Happened::Scaled { from, to: size }).await;
        }
        Some(_) => debug!("the Deployment is up to date"),
    }
    status::update(&memcacheds, mc, &status::observe(mc, &applied)).await?;
    Ok(Action::requeue(RESYNC))
}

/// Decides when a failed reconciliation is retried: capped exponential backoff per object.
pub fn error_policy(mc: Arc<Memcached>, error: &Error, ctx: Arc<Context>) -> Action {
    ctx.metrics.reconcile_failed(error.metric_label());
    let delay = ctx.backoff.next_delay(ObjectRef::from_obj(mc.as_ref()));
    warn!(memcached = %mc.name_any(), namespace = mc.namespace().unwrap_or_default(), %error, retry_in = ?delay, "reconcile failed");
    Action::requeue(delay)
}
