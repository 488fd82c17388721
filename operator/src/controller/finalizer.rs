//! What happens when a `Memcached` is deleted: the finalizer's cleanup.

use k8s_openapi::api::apps::v1::Deployment;
use kube::Api;
use kube::runtime::controller::Action;

use super::events::{self, Happened};
use super::{Context, Error, deployment};
use crate::api::v1alpha1::Memcached;

/// The finalizer the operator puts on every `Memcached`, so that it sees the deletion.
pub const FINALIZER: &str = "cache.example.com/finalizer";

/// Publishes a `Deleting` event and deletes the Deployment `mc` controls, without relying on
/// the garbage collector; the finalizer is removed once this succeeds.
pub async fn cleanup(mc: &Memcached, ctx: &Context) -> Result<Action, Error> {
    let (name, namespace) = super::name_and_namespace(mc)?;
    events::publish(ctx, mc, Happened::Deleting).await;
    let api: Api<Deployment> = Api::namespaced(ctx.client.clone(), &namespace);
    if let Some(existing) = deployment::get(&api, &name).await?
        && deployment::is_controlled_by(&existing, mc)
    {
        deployment::delete(&api, &existing).await?;
    }
    Ok(Action::await_change())
}
