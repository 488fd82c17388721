//! The status both versions share.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

// ANCHOR: status
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
// ANCHOR_END: status
