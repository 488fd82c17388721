//! Shapes: what a field's Rust type is, as far as its JSON form goes.
//!
//! The derive gets a field's shape by trait dispatch (`<T as KubeSchema>::shape()`), the CLI by
//! resolving the type's path in the sources; both end here, so the schema builder never sees
//! Rust syntax.

use std::fmt;
use std::sync::Arc;

use super::Schema;
use super::{Errors, TypeDef};

/// The JSON form of a Rust type.
#[derive(Clone)]
pub enum Shape {
    /// A type with a fixed scalar schema.
    Scalar(Scalar),
    /// `Option<T>`: `T`, not required.
    Optional(Box<Shape>),
    /// A sequence: `Vec<T>`, `[T; N]`, sets.
    Seq {
        /// The item type.
        item: Box<Shape>,
        /// Sets: items are unique (`x-kubernetes-list-type: set`).
        set: bool,
        /// Fixed-size arrays: `minItems` = `maxItems` = N.
        len: Option<u64>,
    },
    /// A map with string keys.
    Map(Box<Shape>),
    /// Any JSON value (`serde_json::Value`).
    Any,
    /// A type from another crate with a published schema (k8s-openapi, chrono, ...).
    Known(Known),
    /// A type deriving `KubeSchema`.
    Named(NamedRef),
    /// A type the front end could not see into (the derive, at compile time, for paths it
    /// cannot resolve). The schema builder refuses it; checks skip it.
    Opaque(String),
}

impl Default for Shape {
    fn default() -> Self {
        Shape::Opaque(String::new())
    }
}

impl Shape {
    /// A shape for a type deriving `KubeSchema`, loaded only when the builder needs it.
    pub fn named(
        key: impl Into<String>,
        load: impl Fn() -> Result<TypeDef, Errors> + Send + Sync + 'static,
    ) -> Shape {
        Shape::shared(key, move || load().map(Arc::new))
    }

    /// [`Shape::named`] for a definition kept elsewhere (the CLI's table of every type), handed
    /// out without a copy.
    pub fn shared(
        key: impl Into<String>,
        load: impl Fn() -> Result<Arc<TypeDef>, Errors> + Send + Sync + 'static,
    ) -> Shape {
        Shape::Named(NamedRef {
            key: key.into(),
            load: Arc::new(load),
        })
    }

    /// `Option<T>` peeled off, and whether there was one.
    pub fn peel_optional(&self) -> (&Shape, bool) {
        match self {
            Shape::Optional(inner) => (inner.peel_optional().0, true),
            other => (other, false),
        }
    }
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Scalar(s) => write!(f, "{s:?}"),
            Shape::Optional(inner) => write!(f, "Option<{inner:?}>"),
            Shape::Seq { item, set, len } => match (set, len) {
                (true, _) => write!(f, "Set<{item:?}>"),
                (false, Some(n)) => write!(f, "[{item:?}; {n}]"),
                (false, None) => write!(f, "Vec<{item:?}>"),
            },
            Shape::Map(value) => write!(f, "Map<String, {value:?}>"),
            Shape::Any => f.write_str("Any"),
            Shape::Known(k) => f.write_str(k.name),
            Shape::Named(n) => f.write_str(&n.key),
            Shape::Opaque(name) => write!(f, "Opaque({name})"),
        }
    }
}

impl PartialEq for Shape {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Shape::Scalar(a), Shape::Scalar(b)) => a == b,
            (Shape::Optional(a), Shape::Optional(b)) => a == b,
            (
                Shape::Seq { item, set, len },
                Shape::Seq {
                    item: item2,
                    set: set2,
                    len: len2,
                },
            ) => item == item2 && set == set2 && len == len2,
            (Shape::Map(a), Shape::Map(b)) => a == b,
            (Shape::Any, Shape::Any) => true,
            (Shape::Known(a), Shape::Known(b)) => a.name == b.name,
            (Shape::Named(a), Shape::Named(b)) => a.key == b.key,
            (Shape::Opaque(a), Shape::Opaque(b)) => a == b,
            _ => false,
        }
    }
}

/// Scalars, with the schema docs/markers.md gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// `bool`
    Bool,
    /// Integers: 32-bit (`i8`..`i32`, `u8`, `u16`) or 64-bit; unsigned ones get `minimum: 0`.
    Int {
        /// `format: int64` rather than `int32`.
        wide: bool,
        /// Adds `minimum: 0`.
        unsigned: bool,
    },
    /// `f32` (`float`) or `f64` (`double`).
    Float {
        /// `f64`
        double: bool,
    },
    /// Strings and chars.
    String,
    /// A timestamp written as an RFC 3339 string (`format: date-time`).
    DateTime,
}

/// A type from another crate whose schema is known without looking at its source.
#[derive(Clone, Copy)]
pub struct Known {
    /// Its canonical path, e.g. `k8s_openapi::api::core::v1::PodSpec`.
    pub name: &'static str,
    /// Builds its schema, given [`Known::name`]: as the Kubernetes version k8s-openapi is
    /// compiled for has it (the schema builder asks its Kubernetes version first, which may
    /// hold another version's schemas: `known::Kubernetes::schema`).
    pub build: fn(&'static str) -> Schema,
}

impl Known {
    /// Its schema in the compiled Kubernetes version.
    pub fn schema(&self) -> Schema {
        (self.build)(self.name)
    }
}

/// A reference to a type deriving `KubeSchema`, loaded lazily so recursive types terminate.
#[derive(Clone)]
pub struct NamedRef {
    /// The type's unique key (its module path and name).
    pub key: String,
    /// Produces the definition with field shapes filled in.
    pub load: Arc<dyn Fn() -> Result<Arc<TypeDef>, Errors> + Send + Sync>,
}
