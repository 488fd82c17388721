//! The `cache.example.com/v1alpha1` API: `Memcached`.

use k8s_openapi::api::core::v1::ResourceRequirements;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// MemcachedSpec defines the desired state of Memcached.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube_marker(group = "cache.example.com", version = "v1alpha1", kind = "Memcached")]
#[kube_marker(status = "MemcachedStatus", short_names = "mc", categories = "all")]
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
    #[serde(default = "default_size")]
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
    pub resources: Option<ResourceRequirements>,
}

fn default_size() -> i32 {
    1
}

fn default_port() -> i32 {
    11211
}

fn default_image() -> String {
    "memcached:1.6.26-alpine3.19".to_string()
}

/// MemcachedStatus defines the observed state of Memcached.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MemcachedStatus {
    /// The latest observations of the Memcached's state: `Available`, `Progressing`, `Degraded`.
    #[kube_marker(list_type = "map", list_map_keys = "type")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Pods the Deployment has (the scale subresource's status replicas).
    #[serde(default)]
    pub replicas: i32,
    /// Pods ready.
    #[serde(default)]
    pub ready_replicas: i32,
    /// The label selector of the pods, as a string (for the scale subresource).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub selector: String,
}
