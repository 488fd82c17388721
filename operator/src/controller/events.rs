//! The Events the operator publishes about a `Memcached`.

use kube::Resource;
use kube::runtime::events::{Event, EventType};
use kubegen::rbac;
use tracing::warn;

use super::Context;
use crate::api::v1alpha1::Memcached;

/// What happened to a `Memcached`'s Deployment.
pub enum Happened {
    /// The Deployment was created with this many replicas.
    Created(i32),
    /// The Deployment was scaled from one replica count to another.
    Scaled { from: i32, to: i32 },
    /// The `Memcached` is being deleted and its Deployment removed.
    Deleting,
    /// A Deployment of that name exists and is not controlled by the `Memcached`.
    Conflict,
}

impl Happened {
    fn event(&self, name: &str) -> Event {
        let (type_, reason, action, note) = match self {
            Happened::Created(size) => (
                EventType::Normal,
                "Created",
                "CreateDeployment",
                format!("Created Deployment {name} with {size} replicas"),
            ),
            Happened::Scaled { from, to } => (
                EventType::Normal,
                "Scaled",
                "ScaleDeployment",
                format!("Scaled Deployment {name} from {from} to {to} replicas"),
            ),
            Happened::Deleting => (
                EventType::Normal,
                "Deleting",
                "DeleteDeployment",
                format!("Deleting Deployment {name}"),
            ),
            Happened::Conflict => (
                EventType::Warning,
                "DeploymentConflict",
                "ApplyDeployment",
                format!("Deployment {name} exists and is not controlled by this Memcached"),
            ),
        };
        Event {
            type_,
            reason: reason.into(),
            note: Some(note),
            action: action.into(),
            secondary: None,
        }
    }
}

/// Publishes an Event about `mc`. Events are informative: a failure is logged, not returned.
#[rbac(groups = "events.k8s.io", resources = "events", verbs = "create;patch")]
pub async fn publish(ctx: &Context, mc: &Memcached, happened: Happened) {
    let name = mc.meta().name.as_deref().unwrap_or_default();
    let event = happened.event(name);
    if let Err(error) = ctx.recorder.publish(&event, &mc.object_ref(&())).await {
        warn!(%error, reason = event.reason, "could not publish an event");
    }
}
