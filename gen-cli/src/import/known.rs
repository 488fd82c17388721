//! The k8s-openapi types an imported subtree may become. A node equal, but for its
//! description, to the schema kubegen renders for one of these types at the Kubernetes version
//! the imported crate builds for ([`OVERRIDDEN`] and [`DESCRIBED`]) is a field of that type (`Condition`, `PodTemplateSpec`,
//! `Time`), so that the regenerated CRD stays the same: a node that differs in one keyword
//! (another version's descriptions, a missing list type) keeps its own types.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSONSchemaProps;
use kubegen_core::known::{Kubernetes, lookup};
use kubegen_core::model::Shape;

/// The types whose schema is controller-gen's own (no description, the same in every
/// Kubernetes version), by canonical path; of two with one schema, the first is taken (`Time`,
/// not `MicroTime`).
pub const OVERRIDDEN: &[&str] = &[
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::Time",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta",
    "k8s_openapi::apimachinery::pkg::api::resource::Quantity",
    "k8s_openapi::apimachinery::pkg::runtime::RawExtension",
];

/// The other types tried, whose schemas (and descriptions) are k8s-openapi's of a version:
/// those CRDs embed (metav1's conditions and selectors, core/v1's pod and reference types).
pub const DESCRIBED: &[&str] = &[
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector",
    "k8s_openapi::api::core::v1::Affinity",
    "k8s_openapi::api::core::v1::ConfigMapKeySelector",
    "k8s_openapi::api::core::v1::Container",
    "k8s_openapi::api::core::v1::EnvFromSource",
    "k8s_openapi::api::core::v1::EnvVar",
    "k8s_openapi::api::core::v1::LocalObjectReference",
    "k8s_openapi::api::core::v1::ObjectReference",
    "k8s_openapi::api::core::v1::PersistentVolumeClaimSpec",
    "k8s_openapi::api::core::v1::PodSecurityContext",
    "k8s_openapi::api::core::v1::PodSpec",
    "k8s_openapi::api::core::v1::PodTemplateSpec",
    "k8s_openapi::api::core::v1::Probe",
    "k8s_openapi::api::core::v1::ResourceRequirements",
    "k8s_openapi::api::core::v1::SecretKeySelector",
    "k8s_openapi::api::core::v1::SecretReference",
    "k8s_openapi::api::core::v1::SecurityContext",
    "k8s_openapi::api::core::v1::ServicePort",
    "k8s_openapi::api::core::v1::Toleration",
    "k8s_openapi::api::core::v1::TopologySpreadConstraint",
    "k8s_openapi::api::core::v1::TypedLocalObjectReference",
    "k8s_openapi::api::core::v1::Volume",
    "k8s_openapi::api::core::v1::VolumeMount",
];

/// The schemas of some k8s-openapi types at one Kubernetes version, as CRD nodes.
#[derive(Debug, Clone, Default)]
pub struct Known {
    types: Vec<(&'static str, JSONSchemaProps)>,
}

impl Known {
    /// Every type tried, as `kubernetes` renders them (those it has).
    pub fn new(kubernetes: &Kubernetes) -> Known {
        let mut known = Known::of(OVERRIDDEN, kubernetes);
        known.types.extend(Known::of(DESCRIBED, kubernetes).types);
        known
    }

    /// Some types (canonical paths) as `kubernetes` renders them; those it lacks are left out.
    pub fn of(paths: &[&'static str], kubernetes: &Kubernetes) -> Known {
        let types = paths
            .iter()
            .filter_map(|path| match lookup(path, Vec::new(), kubernetes)? {
                Ok(Shape::Known(known)) => {
                    let value = serde_json::to_value(kubernetes.schema(&known)).ok()?;
                    Some((*path, serde_json::from_value(value).ok()?))
                }
                _ => None,
            })
            .collect();
        Known { types }
    }

    /// The type `node` is: one whose schema is `node`'s but for the description, where
    /// `node`'s description (a field's doc, or an item's key) can stand in for the type's (it
    /// has one, or the type has none).
    pub fn find(&self, node: &JSONSchemaProps) -> Option<&'static str> {
        self.types
            .iter()
            .filter(|(_, t)| {
                t.type_ == node.type_
                    && t.format == node.format
                    && t.x_kubernetes_int_or_string == node.x_kubernetes_int_or_string
                    && property_names(t) == property_names(node)
                    && (node.description.is_some() || t.description.is_none())
            })
            .find(|(_, t)| {
                let bare = |s: &JSONSchemaProps| JSONSchemaProps {
                    description: None,
                    ..s.clone()
                };
                bare(t) == bare(node)
            })
            .map(|(path, _)| *path)
    }

    /// The description of the type at `path`, as it renders it.
    pub fn description(&self, path: &str) -> Option<&str> {
        let (_, t) = self.types.iter().find(|(p, _)| *p == path)?;
        t.description.as_deref()
    }
}

/// A node's property names, in order.
fn property_names(s: &JSONSchemaProps) -> Vec<&str> {
    s.properties
        .iter()
        .flat_map(|p| p.keys().map(String::as_str))
        .collect()
}
