//! Gateway API's way of serving a v1 type in v1beta1: the v1beta1 spec flattens the v1 spec,
//! and the printer columns and selectable fields name the flattened fields. Compiled by
//! `flattened_paths.rs` (the derive) and read by gen-cli as a crate of its own.

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

pub mod v1 {
    use super::*;

    /// GatewayClassSpec describes a class of gateways.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[serde(rename_all = "camelCase")]
    pub struct GatewayClassSpec {
        /// The controller that manages gateways of this class.
        #[kube_marker(min_length = 1, max_length = 253)]
        pub controller_name: String,
        /// What the class is for.
        pub description: Option<String>,
        /// Where the controller's parameters are.
        pub parameters_ref: Option<ParametersReference>,
        /// How many gateways of this class may exist.
        pub limit: Option<i32>,
    }

    /// ParametersReference points to a resource with the controller's parameters.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct ParametersReference {
        /// Its API group.
        pub group: String,
        /// Its kind.
        pub kind: String,
        /// Its name.
        pub name: String,
    }
}

pub mod v1beta1 {
    use super::*;

    /// GatewayClassSpec is the v1 spec, served as v1beta1.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(
        group = "gateway.networking.example.com",
        version = "v1beta1",
        kind = "GatewayClass",
        scope = "Cluster"
    )]
    #[kube_marker(printcolumn(name = "Controller", json_path = ".spec.controllerName"))]
    #[kube_marker(printcolumn(name = "Limit", json_path = ".spec.limit"))]
    #[kube_marker(printcolumn(
        name = "Parameters",
        json_path = ".spec.parametersRef.name",
        priority = 1
    ))]
    #[kube_marker(selectable_field(json_path = ".spec.controllerName"))]
    pub struct GatewayClassSpec {
        /// The v1 fields.
        #[serde(flatten)]
        pub spec: v1::GatewayClassSpec,
        /// A field of v1beta1's own.
        pub note: Option<String>,
    }
}
