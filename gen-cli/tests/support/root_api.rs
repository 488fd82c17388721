//! Kinds whose root is not the default one (a spec that is not required, a status apart from
//! its subresource) and logical junctors on a type and a field. Compiled by `root_and_junctors.rs`
//! (the derive) and read by gen-cli as a crate of its own.

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// A spec the root does not require.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "roots.example.com", version = "v1", kind = "Loose", optional)]
#[kube_marker(status = "LooseStatus", status_subresource = false)]
pub struct LooseSpec {
    /// How many.
    pub size: i32,
}

/// The status, written with the main resource.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct LooseStatus {
    /// What was seen.
    pub seen: Option<i32>,
}

/// A status subresource without a status type, and junctors.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(
    group = "roots.example.com",
    version = "v1",
    kind = "Gate",
    status_subresource
)]
#[kube_marker(not(required = ["addresses", "hostname"]))]
pub struct GateSpec {
    /// Where.
    pub addresses: Option<Vec<Address>>,
    /// Or by name.
    #[kube_marker(any_of(min_length = 1), any_of(pattern = "^x"))]
    pub hostname: Option<String>,
}

/// An address, as Gateway API's generator constrains it.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(
    one_of(
        property(name = "type", enum_values = ["IPAddress"]),
        property(name = "value", any_of(format = "ipv4"), any_of(format = "ipv6"))
    ),
    one_of(property(name = "type", not(enum_values = ["IPAddress"])))
)]
pub struct Address {
    /// The kind of address.
    #[serde(rename = "type")]
    pub type_: String,
    /// The address.
    pub value: Option<String>,
}
