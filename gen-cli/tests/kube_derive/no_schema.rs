//! Ported from kube-rs's `examples/crd_derive_no_schema.rs`: `schema = "disabled"`, a kind
//! whose objects the API server keeps as they come.

use kube::{CustomResource, CustomResourceExt};
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Debug, Clone)]
#[kube(
    group = "clux.dev",
    version = "v1",
    kind = "Loose",
    namespaced,
    schema = "disabled"
)]
pub struct LooseSpec {
    anything: String,
}

/// The CRD, as a `crdgen` binary prints it.
pub fn crd_json() -> String {
    serde_json::to_string_pretty(&Loose::crd()).unwrap()
}
