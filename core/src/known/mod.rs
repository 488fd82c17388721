//! Types whose shape is known without a derive: std, serde_json, chrono/jiff, and (feature
//! `k8s`) every k8s-openapi type. One table per family serves both front ends: the
//! [`KubeSchema`] impls here (the derive's trait dispatch) and [`lookup`] (the CLI's resolved
//! paths).

mod std_types;

pub use std_types::canonical;

use crate::model::Shape;

/// A Rust type with a CRD schema.
///
/// Derive it with `#[derive(KubeSchema)]` on your own types; it is implemented here for the
/// std, serde_json, chrono and k8s-openapi types that MARKERS.md maps.
pub trait KubeSchema {
    /// What the type is, as far as its JSON form goes.
    fn shape() -> Shape;
}

/// The shape of the type at a canonical path (see [`canonical`]) given its generic arguments'
/// shapes; `None` for a path that is not known here. `Err` explains a known type used in a way
/// a CRD schema cannot describe (e.g. a map with non-string keys).
pub fn lookup(path: &str, args: Vec<Shape>) -> Option<Result<Shape, String>> {
    std_types::lookup(path, args)
}
