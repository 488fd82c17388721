//! The Kubernetes topology extensions of k8s-openapi types: `x-kubernetes-list-type` (with
//! `x-kubernetes-list-map-keys`) on lists and `x-kubernetes-map-type` on maps and structs, as
//! the Kubernetes OpenAPI publishes them (and controller-gen writes them from the Go markers
//! `+listType`, `+listMapKey`, `+mapType`, `+structType`).
//!
//! # Where the data comes from
//!
//! k8s-openapi's schemas carry none of these extensions. Its `DeepMerge` impls do encode most
//! of them: k8s-openapi's code generator turns each list's `x-kubernetes-list-type` into
//! `merge_strategies::list::{atomic, set, map}` (with the `x-kubernetes-list-map-keys` as key
//! comparisons) and each map's `x-kubernetes-map-type` into `merge_strategies::map::{atomic,
//! granular}`. A test reads those impls from the k8s-openapi sources and writes them, per
//! Kubernetes version, to the generated `deep_merge.rs` (regenerated and checked like the type
//! list). What that encoding loses, checked against the Kubernetes OpenAPI (v2, 1.33 to 1.37):
//!
//! 1. a list with no `x-kubernetes-list-type` becomes `list::atomic`, Kubernetes' default for
//!    lists: we write `atomic` where Kubernetes writes nothing (one property in 1.37,
//!    `APIResource.verbs`; the same behaviour either way);
//! 2. the generator replaces `x-kubernetes-list-map-keys` by `x-kubernetes-patch-merge-key`
//!    when a list has both, and turns `x-kubernetes-patch-strategy: merge` into `map` (or
//!    `set`) even on lists published as `atomic`: see [`CORRECTIONS`];
//! 3. struct-level `x-kubernetes-map-type: atomic` (`+structType=atomic`, e.g. on
//!    `ObjectReference`) has no merge strategy: structs always merge field by field. Nothing in
//!    k8s-openapi's sources carries it (not the schemas, not the doc comments, not the code): see
//!    [`ATOMIC_STRUCTS`], and [`GRANULAR_STRUCT_PROPERTIES`] for the one property that makes an
//!    atomic struct granular again;
//! 4. `x-kubernetes-map-type: granular` is the default and is not written (Kubernetes writes it
//!    on one map, `PersistentVolumeClaimStatus.allocatedResourceStatuses`; the same behaviour).
//!
//! Not written on purpose: the strategies of map values (`CertificateSigningRequestSpec.extra`'s
//! lists merge atomically, where Kubernetes publishes nothing, the default), and the
//! `x-kubernetes-list-type: atomic` Kubernetes 1.33 to 1.37 publishes on a few `[]byte` fields
//! (`APIServiceSpec.caBundle`, ...), strings in JSON, where a CRD cannot have it. With the
//! corrections, the result equals the Kubernetes OpenAPI (v2) of 1.33 to 1.37 on every property
//! of every listed type but `APIResource.verbs` (point 1).
//!
//! The hand-written tables ([`CORRECTIONS`], [`ATOMIC_STRUCTS`], [`GRANULAR_STRUCT_PROPERTIES`],
//! [`KEY_DEFAULTS`]) come from the Kubernetes OpenAPI of 1.33 to 1.37; tests check each entry
//! against k8s-openapi's sources and the generated data, so that an entry k8s-openapi no longer
//! needs, or that no longer applies, fails loudly.
//!
//! # Valid for a CRD
//!
//! The apiserver checks topology in a CRD's schema more strictly than in its own types
//! (apiextensions' `ValidateCustomResourceDefinitionOpenAPISchema`): a `map` list needs object
//! items and keys that are scalar properties of the items, each required or defaulted (and not
//! nullable); a `set` list needs scalar items, atomic objects or atomic lists. The Kubernetes
//! OpenAPI has `map` lists whose keys are optional without a default (`ServiceAccount.secrets`
//! by `name`, conditions by `type` in `flowcontrol`/`apps` status, ...): a CRD embedding them
//! would be rejected (k8s-openapi's `required` lists are Kubernetes' plus its own fixes, such as
//! `LocalObjectReference.name`, so `imagePullSecrets` keyed by `name` is fine). [`apply`] checks
//! every list it marks, against the converted items (their `required`, and the defaults of
//! [`KEY_DEFAULTS`]), and writes `atomic` (the default, and what the apiserver accepts for any
//! list) where the published type cannot be valid; also where recursion cut the items to an
//! object that keeps unknown fields, which has no key properties.

use crate::model::{self, ListType, Schema};
use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

/// The topology of one property of a k8s-openapi type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Topology {
    /// A list: `x-kubernetes-list-type: atomic`.
    Atomic,
    /// A list: `x-kubernetes-list-type: set`.
    Set,
    /// A list: `x-kubernetes-list-type: map` with these `x-kubernetes-list-map-keys` (JSON
    /// names of the items' properties). Empty when k8s-openapi keys the list by something else
    /// (`metadata.name`), which a CRD cannot say.
    Map(&'static [&'static str]),
    /// A map: `x-kubernetes-map-type: atomic`.
    MapAtomic,
}

/// Expands the generated `deep_merge.rs`: `[gates] { "definition" { "property": kind, ... } }`
/// groups, kinds `atomic`, `set`, `map["key", ...]` and `map_atomic`, into `generated()`, the
/// entries of the enabled Kubernetes version.
macro_rules! k8s_topology {
    (@kind atomic) => { crate::known::k8s::topology::Topology::Atomic };
    (@kind set) => { crate::known::k8s::topology::Topology::Set };
    (@kind map_atomic) => { crate::known::k8s::topology::Topology::MapAtomic };
    (@kind map [$($key:literal),*]) => { crate::known::k8s::topology::Topology::Map(&[$($key),*]) };
    ($([$($gate:ident),*] {
        $($definition:literal { $($property:literal: $kind:ident $([$($key:literal),*])?),* $(,)? })*
    })*) => {
        /// The topology of every property k8s-openapi's `DeepMerge` impls give a strategy
        /// other than a field-wise merge or a granular map, in the enabled Kubernetes version:
        /// (definition, property, topology).
        pub(super) fn generated() -> Vec<(&'static str, &'static str, crate::known::k8s::topology::Topology)> {
            let mut entries = Vec::new();
            $(gated! { [$($gate),*]
                entries.extend([$($(
                    ($definition, $property, k8s_topology!(@kind $kind $([$($key),*])?)),
                )*)*]);
            })*
            entries
        }

        /// Every entry of every Kubernetes version (the gates ignored), for tests that check
        /// the hand-written corrections against all versions.
        #[cfg(test)]
        pub(super) fn every_version() -> Vec<(&'static str, &'static str, crate::known::k8s::topology::Topology)> {
            vec![$($($(
                ($definition, $property, k8s_topology!(@kind $kind $([$($key),*])?)),
            )*)*)*]
        }
    };
}

/// A property whose topology k8s-openapi's `DeepMerge` impl gets wrong: when the generated data
/// says `deep_merge`, Kubernetes publishes `published`. Applied only when the generated data
/// says exactly `deep_merge`, so a k8s-openapi that fixes its generator wins (and a test says to
/// remove the entry).
pub(super) struct Correction {
    /// The Kubernetes definition name.
    pub definition: &'static str,
    /// The property's JSON name.
    pub property: &'static str,
    /// What k8s-openapi's `DeepMerge` impl says.
    pub deep_merge: Topology,
    /// What the Kubernetes OpenAPI says.
    pub published: Topology,
}

/// Lists where k8s-openapi's generator put the patch merge key (`patchMergeKey`, one field) in
/// place of the list-map keys, or made a `patchStrategy: merge` list published as `atomic` a
/// `map`. From the Kubernetes OpenAPI (1.33 to 1.37; `healthConditions` are new in 1.37).
pub(super) const CORRECTIONS: &[Correction] = &[
    // `+listType=map +listMapKey=containerPort +listMapKey=protocol` (`+patchMergeKey=
    // containerPort`): keyed by `containerPort` alone, 53/TCP and 53/UDP would collide.
    Correction {
        definition: "io.k8s.api.core.v1.Container",
        property: "ports",
        deep_merge: Topology::Map(&["containerPort"]),
        published: Topology::Map(&["containerPort", "protocol"]),
    },
    Correction {
        definition: "io.k8s.api.core.v1.EphemeralContainer",
        property: "ports",
        deep_merge: Topology::Map(&["containerPort"]),
        published: Topology::Map(&["containerPort", "protocol"]),
    },
    Correction {
        definition: "io.k8s.api.core.v1.ServiceSpec",
        property: "ports",
        deep_merge: Topology::Map(&["port"]),
        published: Topology::Map(&["port", "protocol"]),
    },
    Correction {
        definition: "io.k8s.api.core.v1.PodSpec",
        property: "topologySpreadConstraints",
        deep_merge: Topology::Map(&["topologyKey"]),
        published: Topology::Map(&["topologyKey", "whenUnsatisfiable"]),
    },
    Correction {
        definition: "io.k8s.api.core.v1.PodVolumeHealth",
        property: "healthConditions",
        deep_merge: Topology::Map(&["status"]),
        published: Topology::Map(&["status", "reason"]),
    },
    Correction {
        definition: "io.k8s.api.core.v1.VolumeHealthStatus",
        property: "healthConditions",
        deep_merge: Topology::Map(&["status"]),
        published: Topology::Map(&["status", "reason"]),
    },
    // `+listType=atomic` with `+patchStrategy=merge +patchMergeKey=...`.
    Correction {
        definition: "io.k8s.api.batch.v1.JobStatus",
        property: "conditions",
        deep_merge: Topology::Map(&["type"]),
        published: Topology::Atomic,
    },
    Correction {
        definition: "io.k8s.api.core.v1.PodStatus",
        property: "hostIPs",
        deep_merge: Topology::Map(&["ip"]),
        published: Topology::Atomic,
    },
    // `+listType=atomic`; k8s-openapi keys it by `metadata.name` itself.
    Correction {
        definition: "io.k8s.api.apps.v1.StatefulSetSpec",
        property: "volumeClaimTemplates",
        deep_merge: Topology::Map(&[]),
        published: Topology::Atomic,
    },
];

/// The structs Kubernetes publishes with `x-kubernetes-map-type: atomic` (`+structType=atomic`),
/// 1.33 to 1.37 (each is atomic in every version that has it).
pub(super) const ATOMIC_STRUCTS: &[&str] = &[
    "io.k8s.api.admissionregistration.v1.MatchResources",
    "io.k8s.api.admissionregistration.v1.NamedRuleWithOperations",
    "io.k8s.api.admissionregistration.v1.ParamKind",
    "io.k8s.api.admissionregistration.v1.ParamRef",
    "io.k8s.api.admissionregistration.v1.Variable",
    "io.k8s.api.admissionregistration.v1alpha1.MatchResources",
    "io.k8s.api.admissionregistration.v1alpha1.NamedRuleWithOperations",
    "io.k8s.api.admissionregistration.v1alpha1.ParamKind",
    "io.k8s.api.admissionregistration.v1alpha1.ParamRef",
    "io.k8s.api.admissionregistration.v1beta1.MatchResources",
    "io.k8s.api.admissionregistration.v1beta1.NamedRuleWithOperations",
    "io.k8s.api.admissionregistration.v1beta1.ParamKind",
    "io.k8s.api.admissionregistration.v1beta1.ParamRef",
    "io.k8s.api.admissionregistration.v1beta1.Variable",
    "io.k8s.api.autoscaling.v1.CrossVersionObjectReference",
    "io.k8s.api.core.v1.ConfigMapKeySelector",
    "io.k8s.api.core.v1.EndpointAddress",
    "io.k8s.api.core.v1.EndpointPort",
    "io.k8s.api.core.v1.EvictionResponder",
    "io.k8s.api.core.v1.FileKeySelector",
    "io.k8s.api.core.v1.LocalObjectReference",
    "io.k8s.api.core.v1.NodeSelector",
    "io.k8s.api.core.v1.NodeSelectorTerm",
    "io.k8s.api.core.v1.ObjectFieldSelector",
    "io.k8s.api.core.v1.ObjectReference",
    "io.k8s.api.core.v1.ResourceFieldSelector",
    "io.k8s.api.core.v1.ScopeSelector",
    "io.k8s.api.core.v1.SecretKeySelector",
    "io.k8s.api.core.v1.SecretReference",
    "io.k8s.api.core.v1.TopologySelectorTerm",
    "io.k8s.api.core.v1.TypedLocalObjectReference",
    "io.k8s.api.discovery.v1.EndpointPort",
    "io.k8s.api.lifecycle.v1alpha1.Requester",
    "io.k8s.api.lifecycle.v1alpha1.TargetResponder",
    "io.k8s.api.networking.v1.ServiceBackendPort",
    "io.k8s.api.rbac.v1.RoleRef",
    "io.k8s.api.rbac.v1.Subject",
    "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector",
    "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
];

/// Properties Kubernetes publishes with `x-kubernetes-map-type: granular` over an atomic struct
/// (`+structType=granular` on the field), 1.33 to 1.37: (definition, property).
pub(super) const GRANULAR_STRUCT_PROPERTIES: &[(&str, &str)] =
    &[("io.k8s.api.core.v1.PersistentVolumeSpec", "claimRef")];

/// Defaults Kubernetes gives list-map keys that are not required (`+default="TCP"`, published
/// in its OpenAPI v3 and written by controller-gen; k8s-openapi's schemas have no defaults):
/// (definition, property, default). Without them [`CORRECTIONS`]' `protocol` keys could not be
/// keys in a CRD.
pub(super) const KEY_DEFAULTS: &[(&str, &str, &str)] = &[
    ("io.k8s.api.core.v1.ContainerPort", "protocol", "TCP"),
    ("io.k8s.api.core.v1.ServicePort", "protocol", "TCP"),
];

/// The topology of every property that has one in the enabled Kubernetes version, by
/// definition: the generated data with [`CORRECTIONS`] applied.
pub(super) fn properties() -> &'static HashMap<&'static str, Vec<(&'static str, Topology)>> {
    static PROPERTIES: OnceLock<HashMap<&'static str, Vec<(&'static str, Topology)>>> =
        OnceLock::new();
    PROPERTIES.get_or_init(|| {
        let mut by_definition: HashMap<&str, Vec<(&str, Topology)>> = HashMap::new();
        for (definition, property, mut topology) in super::deep_merge::generated() {
            if let Some(correction) = CORRECTIONS.iter().find(|c| {
                c.definition == definition && c.property == property && c.deep_merge == topology
            }) {
                topology = correction.published;
            }
            by_definition
                .entry(definition)
                .or_default()
                .push((property, topology));
        }
        by_definition
    })
}

/// The generated entries of the enabled Kubernetes version, uncorrected (for tests).
#[cfg(test)]
pub(super) fn generated() -> Vec<(&'static str, &'static str, Topology)> {
    super::deep_merge::generated()
}

/// Writes the topology of the definition `name` into its converted schema: the struct's own
/// `x-kubernetes-map-type`, its properties' list and map types (and granular struct
/// properties), and the defaults of list-map keys. Lists whose items cannot carry the published list type in a CRD get `atomic`.
pub(super) fn apply(name: &str, schema: &mut Schema) {
    if ATOMIC_STRUCTS.contains(&name) && schema.type_str() == "object" {
        schema.x_map_type = Some(model::Topology::Atomic);
    }
    for (definition, property, default) in KEY_DEFAULTS {
        if *definition == name
            && let Some(property) = schema.properties.get_mut(*property)
        {
            property.default = Some(Value::String(default.to_string()));
        }
    }
    for (definition, property) in GRANULAR_STRUCT_PROPERTIES {
        if *definition == name
            && let Some(property) = schema.properties.get_mut(*property)
            && property.x_map_type.is_some()
        {
            property.x_map_type = Some(model::Topology::Granular);
        }
    }
    let Some(topologies) = properties().get(name) else {
        return;
    };
    for (property, topology) in topologies {
        let Some(node) = schema.properties.get_mut(*property) else {
            continue;
        };
        mark(node, *topology);
    }
}

/// Writes one topology on a property's node, if the node has the matching shape (a list for
/// list types, a map for map types), falling back to `atomic` for lists the apiserver would
/// reject as published.
fn mark(node: &mut Schema, topology: Topology) {
    match topology {
        Topology::MapAtomic => {
            if node.type_str() == "object" && node.additional_properties.is_some() {
                node.x_map_type = Some(model::Topology::Atomic);
            }
        }
        Topology::Atomic | Topology::Set | Topology::Map(_) => {
            if node.type_str() != "array" {
                return;
            }
            let (list_type, keys) = match topology {
                Topology::Set => (ListType::Set, None),
                Topology::Map(keys) => (
                    ListType::Map,
                    Some(keys.iter().map(|k| k.to_string()).collect()),
                ),
                _ => (ListType::Atomic, None),
            };
            node.x_list_type = Some(list_type);
            node.x_list_map_keys = keys;
            if !crate::check::lists::problems(node).is_empty() {
                node.x_list_type = Some(ListType::Atomic);
                node.x_list_map_keys = None;
            }
        }
    }
}
