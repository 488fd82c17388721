//! Ported from kube-rs's `examples/crd_derive_cel.rs` and `examples/crd_derive_schema.rs`:
//! CEL rules with `#[kube(validation)]` on the root and `#[x_kube(validation)]` on fields,
//! in every form kube-derive takes, merge strategies and kube-derive's `KubeSchema`.

use kube::core::{ListMerge, MapMerge, Message, Reason, Rule};
use kube::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(CustomResource, KubeSchema, Serialize, Deserialize, Default, Debug, Clone)]
#[kube(
    group = "kube.rs",
    version = "v1",
    kind = "Baz",
    namespaced,
    validation = Rule::new("self.spec.replicas <= 10").message("at most ten replicas"),
)]
#[serde(rename_all = "camelCase")]
pub struct BazSpec {
    replicas: i32,
    #[x_kube(
        validation = Rule::new("self != 'illegal'").message(Message::Expression("'string cannot be illegal'".into())).reason(Reason::FieldValueForbidden),
        validation = Rule::new("self != 'not legal'").reason(Reason::FieldValueInvalid),
    )]
    cel_validated: Option<String>,
    #[x_kube(validation = Rule::new("self == oldSelf").message("is immutable"))]
    sub: Option<BazSub>,
    #[x_kube(merge_strategy = ListMerge::Set)]
    #[serde(default)]
    set_listable: Vec<u32>,
    #[x_kube(merge_strategy = MapMerge::Atomic)]
    #[serde(default)]
    selector: BTreeMap<String, String>,
}

#[derive(KubeSchema, Serialize, Deserialize, Default, Debug, Clone)]
pub struct BazSub {
    #[x_kube(validation = "self != 'not legal'", validation = ("self != 'not that'", "not that"))]
    field: String,
}

/// The CRD, as a `crdgen` binary prints it.
pub fn crd_json() -> String {
    serde_json::to_string_pretty(&Baz::crd()).unwrap()
}
