//! k8s-openapi types (feature `k8s`): every type of k8s-openapi 0.29 with a
//! `schemars::JsonSchema` impl is a [`Shape::Known`] named by its canonical path
//! (`k8s_openapi::api::core::v1::PodSpec`), whose schema is k8s-openapi's own, converted to a
//! structural [`Schema`](crate::model::Schema) with controller-gen's known-type overrides (see
//! [`convert`]).
//!
//! The types are listed once, in the generated `types.rs` (a test regenerates the list from the
//! k8s-openapi sources and fails when the committed copy is stale). That one list gives both the
//! [`KubeSchema`](super::KubeSchema) impls the derive dispatches to and the path table behind
//! [`lookup`]. One type without a `JsonSchema` impl is written by hand in the same table:
//! `k8s_openapi::ByteString` (`{type: string, format: byte}`, base64 in JSON).
//!
//! Their Kubernetes topology extensions (`x-kubernetes-list-type`, `x-kubernetes-list-map-keys`,
//! `x-kubernetes-map-type`), which k8s-openapi's schemas lack, come from its `DeepMerge` impls
//! (the generated `deep_merge.rs`) and a few hand-written corrections: see [`topology`].
//!
//! # Kubernetes versions
//!
//! k8s-openapi compiles exactly one Kubernetes version's API (1.33 to 1.37 in 0.29), chosen by
//! the final binary. The list is the union of every version's types, each entry wrapped in
//! k8s-openapi's own `k8s_if_ge_1_xx!` / `k8s_if_le_1_xx!` / `k8s_if_1_xx!` macros, so a type
//! exists here exactly when it exists in the enabled version: a user on 1.33 gets
//! `resource::v1alpha3` (gone in 1.37), and does not get 1.37's new types. A type's schema is
//! the enabled version's, unless the [`Kubernetes`](crate::known::Kubernetes) value it is built
//! for names another version with that version's schemas ([`selected`]).

mod convert;
mod go_facts;
mod minor;
mod selected;
#[cfg(feature = "parse")]
mod sources;
#[macro_use]
mod topology;

use std::collections::HashMap;
use std::sync::OnceLock;

pub use minor::Minor;
pub use selected::Definitions as KubernetesDefinitions;
pub(crate) use selected::Selected;
#[cfg(feature = "parse")]
pub use sources::read as read_kubernetes_sources;

use crate::known::Kubernetes;
use crate::model::{Known, Schema, Shape};

/// Expands `$body` (items or statements) under k8s-openapi's version gates, outermost first:
/// `gated! { [k8s_if_ge_1_34, k8s_if_le_1_36] body }` keeps `body` for 1.34 to 1.36 only.
macro_rules! gated {
    ([] $($body:tt)*) => { $($body)* };
    ([$gate:ident $(, $rest:ident)*] $($body:tt)*) => {
        k8s_openapi::$gate! { gated! { [$($rest),*] $($body)* } }
    };
}

/// The one list of k8s-openapi types, grouped by version gate: `[gates] { api::core::v1::Pod, ... }`
/// with paths relative to the `k8s_openapi` crate root. Implements `KubeSchema` and
/// `ApplySchema` for each type and defines `table()`, the same shapes by canonical path with the
/// hand-written ones ([`hand_written`]) added (and, for tests, `generators()`).
macro_rules! k8s_types {
    ($([$($gate:ident),*] { $($($segment:ident)::+),* $(,)? })*) => {
        $(gated! { [$($gate),*] $(
            impl crate::known::KubeSchema for k8s_openapi::$($segment)::+ {
                fn shape() -> crate::model::Shape {
                    crate::model::Shape::Known(crate::model::Known {
                        name: concat!("k8s_openapi" $(, "::", stringify!($segment))+),
                        build: crate::known::k8s::convert::compiled::<Self>,
                    })
                }
            }

            // k8s-openapi already makes optional what the API allows.
            impl crate::known::ApplySchema for k8s_openapi::$($segment)::+ {
                type Apply = Self;
            }
        )* })*

        /// Every listed type that exists in the enabled Kubernetes version, by canonical path,
        /// built from the `KubeSchema` impls above so both front ends see the same `Known`.
        pub(super) fn table() -> std::collections::HashMap<&'static str, crate::model::Known> {
            let mut shapes: Vec<crate::model::Shape> = Vec::new();
            $(gated! { [$($gate),*]
                shapes.extend([$(
                    <k8s_openapi::$($segment)::+ as crate::known::KubeSchema>::shape(),
                )*]);
            })*
            shapes.extend(crate::known::k8s::hand_written());
            shapes
                .into_iter()
                .filter_map(|shape| match shape {
                    crate::model::Shape::Known(known) => Some((known.name, known)),
                    _ => None,
                })
                .collect()
        }

        /// Every listed type in the enabled Kubernetes version: its canonical path and how to
        /// generate its schemars schema, for tests that convert every type.
        #[cfg(test)]
        pub(super) fn generators() -> Vec<(&'static str, crate::known::k8s::convert::Generate)> {
            use crate::known::k8s::convert::{Generate, generate};
            let mut generators: Vec<(&'static str, Generate)> = Vec::new();
            $(gated! { [$($gate),*]
                generators.extend([$((
                    concat!("k8s_openapi" $(, "::", stringify!($segment))+),
                    generate::<k8s_openapi::$($segment)::+> as Generate,
                ),)*]);
            })*
            generators
        }
    };
}

mod deep_merge;
mod types;

/// `k8s_openapi::ByteString`: bytes, base64 in JSON. k8s-openapi implements no `JsonSchema`
/// for it (the types that hold it write `{type: string, format: byte}` in their own schemas).
impl super::KubeSchema for k8s_openapi::ByteString {
    fn shape() -> Shape {
        Shape::Known(Known {
            name: "k8s_openapi::ByteString",
            build: byte_string,
        })
    }
}

impl super::ApplySchema for k8s_openapi::ByteString {
    type Apply = Self;
}

/// The schema of `k8s_openapi::ByteString`, as the Kubernetes OpenAPI writes `[]byte` fields.
fn byte_string(_: &'static str) -> Schema {
    Schema::formatted("string", "byte")
}

/// The k8s-openapi types written by hand rather than listed in `types.rs`.
fn hand_written() -> Vec<Shape> {
    vec![<k8s_openapi::ByteString as super::KubeSchema>::shape()]
}

/// The shape of the k8s-openapi type at a canonical path (see [`canonical`]) in the version
/// `kubernetes` names; `None` for any other path, including types that version does not have.
pub(super) fn lookup(path: &str, kubernetes: &Kubernetes) -> Option<Shape> {
    static TABLE: OnceLock<HashMap<&'static str, Known>> = OnceLock::new();
    if !path.starts_with("k8s_openapi::") {
        return None;
    }
    let table = TABLE.get_or_init(types::table);
    let known = match kubernetes.selected() {
        // The selected version's types, built from its schemas.
        Some(selected) => match selected.name(path) {
            Some(name) => Known {
                name,
                build: selected::build,
            },
            None => hand_written().into_iter().find_map(|shape| match shape {
                Shape::Known(known) if known.name == path => Some(known),
                _ => None,
            })?,
        },
        None => *table.get(path)?,
    };
    Some(Shape::Known(known))
}

/// The schema of an `ObjectMeta` below a CRD's root (a pod template's): its embedded form, with
/// `name`, `namespace`, `labels`, `annotations` and `finalizers`.
pub fn embedded_object_meta() -> crate::model::Schema {
    convert::overridden("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
        .expect("ObjectMeta is overridden")
}

/// Whether controller-gen replaces the Kubernetes definition `name` (`Quantity`, `Time`, …) by
/// a schema of its own wherever it appears: such definitions get no Go facts.
pub fn overridden_by_controller_gen(name: &str) -> bool {
    convert::overridden(name).is_some()
}

/// The k8s-openapi path of a kube re-export of a k8s-openapi type (kube 5.0: `kube::api::`
/// re-exports kube-client's `api` module, `kube::core` is kube-core), `None` for other paths.
/// Expects a path without a leading `::`.
pub(super) fn canonical(path: &str) -> Option<&'static str> {
    let path = [
        ("kube::core::", "kube_core::"),
        ("kube_client::core::", "kube_core::"),
        ("kube::api::", "kube_client::api::"),
    ]
    .iter()
    .find_map(|(alias, real)| path.strip_prefix(alias).map(|rest| format!("{real}{rest}")))
    .unwrap_or_else(|| path.to_string());
    Some(match path.as_str() {
        // kube-core: `pub use metadata::{ListMeta, ObjectMeta, ..}` from
        // `metadata.rs: pub use k8s_openapi::..::meta::v1::{ListMeta, ObjectMeta}`; kube-client's
        // `api` re-exports `kube_core::metadata::{ListMeta, ObjectMeta, ..}`.
        "kube_core::ObjectMeta"
        | "kube_core::metadata::ObjectMeta"
        | "kube_client::api::ObjectMeta" => {
            "k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta"
        }
        "kube_core::ListMeta" | "kube_core::metadata::ListMeta" | "kube_client::api::ListMeta" => {
            "k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta"
        }
        // `subresource.rs: pub use k8s_openapi::api::autoscaling::v1::{Scale, ScaleSpec,
        // ScaleStatus}` in both crates; kube-client's `api` re-exports only the last two.
        "kube_core::subresource::Scale" => "k8s_openapi::api::autoscaling::v1::Scale",
        "kube_core::subresource::ScaleSpec" | "kube_client::api::ScaleSpec" => {
            "k8s_openapi::api::autoscaling::v1::ScaleSpec"
        }
        "kube_core::subresource::ScaleStatus" | "kube_client::api::ScaleStatus" => {
            "k8s_openapi::api::autoscaling::v1::ScaleStatus"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
