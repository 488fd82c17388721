//! `cache.example.com/v1alpha1`: the storage version, and the hub of conversions.

use k8s_openapi::api::core::v1::ResourceRequirements;
use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

pub use super::status::{MemcachedStatus, MemcachedStatusApply};
use super::{default_image, default_port, default_replicas};

/// MemcachedSpec defines the desired state of Memcached.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube_marker(group = "cache.example.com", version = "v1alpha1", kind = "Memcached")]
#[kube_marker(
    storage_version,
    status = "MemcachedStatus",
    short_names = "mc",
    categories = "all"
)]
// The API server calls the operator's `/convert` through the Service `webhook-service` in
// `system` (kustomize gives both their final names).
#[kube_marker(conversion(webhook(path = "/convert")))]
#[kube_marker(scale(
    spec_path = ".spec.size",
    status_path = ".status.replicas",
    selector_path = ".status.selector"
))]
// Printer column types are inferred from the schema at `json_path` (integer, integer, date).
#[kube_marker(printcolumn(name = "Size", json_path = ".spec.size"))]
#[kube_marker(printcolumn(name = "Ready", json_path = ".status.readyReplicas"))]
#[kube_marker(printcolumn(name = "Age", json_path = ".metadata.creationTimestamp"))]
#[kube_marker(doc = "Memcached is the Schema for the memcacheds API.")]
#[serde(rename_all = "camelCase")]
pub struct MemcachedSpec {
    /// Size is the number of memcached pods.
    #[kube_marker(minimum = 1, maximum = 5, default = 1)]
    #[serde(default = "default_replicas")]
    pub size: i32,
    /// Port the memcached container listens on.
    #[kube_marker(minimum = 1, maximum = 65535, default = 11211)]
    #[serde(default = "default_port")]
    pub container_port: i32,
    /// The memcached image.
    #[kube_marker(min_length = 1, default = "memcached:1.6.26-alpine3.19")]
    #[kube_marker(x_validation(
        rule = "self.trim().size() > 0",
        message = "image must not be blank"
    ))]
    #[serde(default = "default_image")]
    pub image: String,
    /// Compute resources of the memcached container.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourceRequirements>,
}
