//! Types whose shape is known without a derive: std, serde_json, chrono/jiff, and (feature
//! `k8s`) every k8s-openapi type. One table per family serves both front ends: the
//! [`KubeSchema`] impls here (the derive's trait dispatch) and [`lookup`] (the CLI's resolved
//! paths).

#[cfg(feature = "k8s")]
mod k8s;
mod kubernetes;
mod std_types;

#[cfg(all(feature = "k8s", feature = "parse"))]
pub use k8s::read_kubernetes_sources;
#[cfg(feature = "k8s")]
pub use k8s::{KubernetesDefinitions, Minor, embedded_object_meta, overridden_by_controller_gen};
pub use kubernetes::Kubernetes;
pub use std_types::optional;

use crate::model::Shape;
use crate::model::describe::Node;
use crate::model::info::{Info, InfoRef, Kind};

/// A Rust type with a CRD schema.
///
/// Derive it with `#[derive(KubeSchema)]` on your own types; it is implemented here for the
/// std, serde_json, chrono and k8s-openapi types that docs/markers.md maps. It is the same
/// whatever the features: the apply configuration is [`ApplySchema`]'s.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no CRD schema",
    label = "this field's type needs a schema",
    note = "derive `KubeSchema` on it, or mark the field `#[kube_marker(schema_type = \"...\")]` or `#[kube_marker(schemaless)]`"
)]
pub trait KubeSchema {
    /// What the type is, as far as its JSON form goes.
    fn shape() -> Shape;

    /// The type's JSON type, as far as the compiler can know it, for the derive's
    /// compile-time checks of keys that depend on it.
    #[doc(hidden)]
    const KIND: Kind = Kind::Unknown;

    /// [`KubeSchema::KIND`] and what lies below: an array's items, a struct's fields, each
    /// leading to its type's `INFO`.
    #[doc(hidden)]
    const INFO: InfoRef = InfoRef::new(&Info::of(Self::KIND));
}

/// A [`KubeSchema`] type's apply configuration (typed server-side apply, see `kubegen::apply`).
///
/// `#[derive(KubeSchema)]` and `#[derive(CustomResource)]` implement it beside `KubeSchema` when
/// kubegen's `apply` feature is on: `FooApply`, or `kubegen::apply::Whole<Foo>` for a type
/// applied whole. It is implemented here for the types `KubeSchema` is: containers hold their
/// contents' (`Vec<T>` has `Vec<T::Apply>`), and scalars, sets, k8s-openapi and the other known
/// types are their own. Being a projection of a trait, a type without one is one error, and
/// aliases resolve.
///
/// A separate trait, defined whatever the features, so that features only add: a hand-written
/// `KubeSchema` impl stays complete when another crate of the build turns `apply` on, and a
/// hand-written type that derived types hold as a field implements this trait too (the derive
/// asks for it with `apply` on), in code that compiles with the feature on or off.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no CRD schema or no apply configuration",
    label = "this field's type needs a schema and, with kubegen's `apply` feature, an apply configuration",
    note = "derive `KubeSchema` on it (which implements `ApplySchema` too), or mark the field `#[kube_marker(schema_type = \"...\")]` or `#[kube_marker(schemaless)]`; a hand-written `KubeSchema` impl needs an `ApplySchema` impl beside it"
)]
pub trait ApplySchema: KubeSchema {
    /// The apply configuration: a partial form of the type in which every field is optional.
    type Apply;

    /// What `extract` knows of the type's JSON form: described by the derive; a container's
    /// node holds its contents'; [`Node::Value`] (taken as recorded) otherwise.
    #[doc(hidden)]
    fn apply_node() -> &'static Node {
        &Node::Value
    }

    /// The node of the items of a list, or of the values of a map: what a field's
    /// `list_type`/`map_type` markers describe when its type is an alias of one.
    #[doc(hidden)]
    fn apply_item_node() -> &'static Node {
        &Node::Value
    }
}

/// Why a type another crate defines has no schema: `path` (canonical) is no type [`lookup`]
/// knows. Both front ends say so: the CLI of any path it resolves outside the crate, the derive
/// of a std path (`std::time::Duration`), which no crate but kubegen can give a schema.
pub fn unknown_foreign(path: &str) -> String {
    format!(
        "`{path}` is a type from another crate that kubegen does not know: derive `KubeSchema` \
         on a type of your own, or mark the field with `schema_type = \"...\"` or `schemaless`"
    )
}

/// The canonical form of a path: `alloc::`/`core::` become `std::`, std's re-exports are
/// followed to the path users usually write (`std::collections::btree_map::BTreeMap` →
/// `std::collections::BTreeMap`), and (feature `k8s`) kube's re-exports of k8s-openapi types to
/// their k8s-openapi path (`kube::api::ObjectMeta` →
/// `k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta`).
pub fn canonical(path: &str) -> String {
    let path = std_types::canonical(path);
    #[cfg(feature = "k8s")]
    if let Some(k8s) = k8s::canonical(&path) {
        return k8s.to_string();
    }
    path
}

/// The shape of the type at a canonical path (see [`canonical`]) given its generic arguments'
/// shapes, k8s-openapi types as the version `kubernetes` names has them; `None` for a path that
/// is not known here. `Err` explains a known type used in a way a CRD schema cannot describe
/// (e.g. a map with non-string keys).
pub fn lookup(
    path: &str,
    args: Vec<Shape>,
    kubernetes: &Kubernetes,
) -> Option<Result<Shape, String>> {
    #[cfg(feature = "k8s")]
    if let Some(shape) = k8s::lookup(path, kubernetes) {
        return Some(Ok(shape));
    }
    #[cfg(not(feature = "k8s"))]
    let _ = kubernetes;
    std_types::lookup(path, args)
}
