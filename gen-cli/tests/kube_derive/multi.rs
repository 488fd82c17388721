//! Ported from kube-rs's `examples/crd_derive_multi.rs`: two versions of one kind in two
//! modules, merged by `merge_crds` with `v1` stored, the second version's status type named
//! across modules.

use kube::core::crd::merge_crds;
use kube::{CustomResource, CustomResourceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub mod v1 {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Default, Debug, Clone, JsonSchema)]
    #[kube(
        group = "kube.rs",
        version = "v1",
        kind = "ManyDerive",
        status = "ManyDeriveStatus",
        namespaced
    )]
    pub struct ManyDeriveSpec {
        pub name: String,
        pub oldprop: u32,
    }

    #[derive(Serialize, Deserialize, Default, Debug, Clone, JsonSchema)]
    pub struct ManyDeriveStatus {
        pub condition: Option<bool>,
    }
}

pub mod v2 {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Default, Debug, Clone, JsonSchema)]
    #[kube(
        group = "kube.rs",
        version = "v2",
        kind = "ManyDerive",
        namespaced,
        status = "v1::ManyDeriveStatus"
    )]
    pub struct ManyDeriveSpec {
        pub name: String,
        pub extra: Option<String>,
    }
}

/// Both versions in one CRD, `v1` stored, as a `crdgen` binary prints it.
pub fn crd_json() -> String {
    let crds = vec![v1::ManyDerive::crd(), v2::ManyDerive::crd()];
    serde_json::to_string_pretty(&merge_crds(crds, "v1").unwrap()).unwrap()
}
