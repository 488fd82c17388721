//! `cache.example.com/v1beta1`: `size` is now `replicas`, as in a Deployment.

use k8s_openapi::api::core::v1::ResourceRequirements;
use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

pub use super::status::MemcachedStatus;
use super::{default_image, default_port, default_replicas};

/// MemcachedSpec defines the desired state of Memcached.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube_marker(group = "cache.example.com", version = "v1beta1", kind = "Memcached")]
#[kube_marker(status = "MemcachedStatus", short_names = "mc", categories = "all")]
#[kube_marker(scale(
    spec_path = ".spec.replicas",
    status_path = ".status.replicas",
    selector_path = ".status.selector"
))]
#[kube_marker(printcolumn(name = "Replicas", json_path = ".spec.replicas"))]
#[kube_marker(printcolumn(name = "Ready", json_path = ".status.readyReplicas"))]
#[kube_marker(printcolumn(name = "Age", json_path = ".metadata.creationTimestamp"))]
#[kube_marker(doc = "Memcached is the Schema for the memcacheds API.")]
#[serde(rename_all = "camelCase")]
pub struct MemcachedSpec {
    /// Replicas is the number of memcached pods.
    #[kube_marker(minimum = 1, maximum = 5, default = 1)]
    #[serde(default = "default_replicas")]
    pub replicas: i32,
    /// Port the memcached container listens on.
    #[kube_marker(minimum = 1, maximum = 65535, default = 11211)]
    #[serde(default = "default_port")]
    pub container_port: i32,
    /// The memcached image, with its tag (or digest): the validating webhook denies one
    /// without; the defaulting webhook gives the official `memcached` image its default tag.
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
