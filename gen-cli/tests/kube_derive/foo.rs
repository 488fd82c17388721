//! Ported from kube-rs's `examples/crd_derive.rs`: the resource keys of `#[kube(...)]`, a
//! status, a typed print column and scale subresource, and a condition list whose schema a
//! `schema_with` function writes.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kube::{CustomResource, CustomResourceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a Foo wants.
#[derive(CustomResource, Serialize, Deserialize, Default, Debug, PartialEq, Clone, JsonSchema)]
#[kube(
    group = "clux.dev",
    version = "v1",
    kind = "Foo",
    plural = "fooz",
    namespaced,
    doc = "A Foo, with the keys kube-rs's crd_derive example gives",
    status = "FooStatus",
    derive = "PartialEq",
    derive = "Default",
    shortname = "f",
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas"
    ),
    printcolumn(
        name = "Spec",
        type_ = "string",
        description = "name of foo",
        json_path = ".spec.name"
    ),
    selectable = ".spec.name"
)]
pub struct FooSpec {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    info: Option<String>,
    replicas: i32,
}

/// How a Foo is.
#[derive(Debug, Clone, Serialize, Deserialize, Default, PartialEq, JsonSchema)]
pub struct FooStatus {
    is_bad: bool,
    replicas: i32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(schema_with = "conditions")]
    pub conditions: Vec<Condition>,
}

fn conditions(_: &mut schemars::generate::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["type"],
        "items": { "type": "object", "x-kubernetes-preserve-unknown-fields": true }
    })
}

/// The CRD, as a `crdgen` binary prints it.
pub fn crd_json() -> String {
    serde_json::to_string_pretty(&Foo::crd()).unwrap()
}
