//! std, serde_json and date-time types.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use super::{ApplySchema, KubeSchema};
use crate::model::describe::{ListKind, Node};
use crate::model::info::{Info, InfoRef, Kind};
use crate::model::{Scalar, Shape};

/// The canonical form of a path: `alloc::`/`core::` become `std::`, and std's re-exports are
/// followed to the path users usually write (`std::collections::btree_map::BTreeMap` →
/// `std::collections::BTreeMap`).
pub fn canonical(path: &str) -> String {
    let path = path.trim_start_matches("::");
    let std_path = ["alloc::", "core::"]
        .iter()
        .find_map(|p| path.strip_prefix(p))
        .map(|rest| format!("std::{rest}"))
        .unwrap_or_else(|| path.to_string());
    for sub in [
        "btree_map::",
        "btree_set::",
        "hash_map::",
        "hash_set::",
        "vec_deque::",
        "linked_list::",
    ] {
        if let Some(rest) = std_path.strip_prefix("std::collections::")
            && let Some(name) = rest.strip_prefix(sub)
        {
            return format!("std::collections::{name}");
        }
    }
    std_path
}

/// The shape of a std, serde_json or date-time type, by canonical path.
pub(super) fn lookup(path: &str, mut args: Vec<Shape>) -> Option<Result<Shape, String>> {
    let int = |wide, unsigned| Shape::Scalar(Scalar::Int { wide, unsigned });
    let mut arg = |i: usize| {
        args.get_mut(i).map_or_else(
            || Shape::Opaque(format!("a generic argument of {path}")),
            std::mem::take,
        )
    };
    let shape = match path {
        "bool" => Shape::Scalar(Scalar::Bool),
        "i8" | "i16" | "i32" => int(false, false),
        "u8" | "u16" => int(false, true),
        "i64" | "isize" | "i128" => int(true, false),
        "u32" | "u64" | "usize" | "u128" => int(true, true),
        "f32" => Shape::Scalar(Scalar::Float { double: false }),
        "f64" => Shape::Scalar(Scalar::Float { double: true }),
        "str" | "char" | "std::string::String" => Shape::Scalar(Scalar::String),
        "std::option::Option" => Shape::Optional(Box::new(arg(0))),
        "std::vec::Vec" | "std::collections::VecDeque" | "std::collections::LinkedList" => {
            Shape::Seq {
                item: Box::new(arg(0)),
                set: false,
                len: None,
            }
        }
        "std::collections::BTreeSet" | "std::collections::HashSet" => Shape::Seq {
            item: Box::new(arg(0)),
            set: true,
            len: None,
        },
        "std::collections::BTreeMap" | "std::collections::HashMap" => {
            let key = arg(0);
            if let Err(e) = map_key(&key) {
                return Some(Err(e));
            }
            Shape::Map(Box::new(arg(1)))
        }
        "std::boxed::Box" | "std::sync::Arc" | "std::rc::Rc" | "std::borrow::Cow" => arg(0),
        "serde_json::Value" => Shape::Any,
        "serde_json::Map" => Shape::Map(Box::new(Shape::Any)),
        "chrono::DateTime" | "jiff::Timestamp" => Shape::Scalar(Scalar::DateTime),
        _ => return None,
    };
    Some(Ok(shape))
}

/// JSON object keys are strings: a map key must serialize as one.
fn map_key(key: &Shape) -> Result<(), String> {
    match key {
        Shape::Scalar(Scalar::String | Scalar::Int { .. } | Scalar::Bool)
        | Shape::Named(_)
        | Shape::Opaque(_) => Ok(()),
        other => Err(format!(
            "map keys must serialize as strings, and `{other:?}` does not"
        )),
    }
}

fn known(path: &str, args: Vec<Shape>) -> Shape {
    match lookup(path, args) {
        Some(Ok(shape)) => shape,
        Some(Err(e)) => Shape::Opaque(e),
        None => Shape::Opaque(path.to_string()),
    }
}

macro_rules! scalars {
    ($($t:ty => $path:literal as $json:literal),* $(,)?) => {$(
        impl KubeSchema for $t {
            fn shape() -> Shape {
                known($path, Vec::new())
            }
            const KIND: Kind = Kind::Scalar($json);
        }

        impl ApplySchema for $t {
            type Apply = <$t as ToOwned>::Owned;
        }
    )*};
}

scalars! {
    bool => "bool" as "boolean", i8 => "i8" as "integer", i16 => "i16" as "integer",
    i32 => "i32" as "integer", i64 => "i64" as "integer", isize => "isize" as "integer",
    i128 => "i128" as "integer", u8 => "u8" as "integer", u16 => "u16" as "integer",
    u32 => "u32" as "integer", u64 => "u64" as "integer", usize => "usize" as "integer",
    u128 => "u128" as "integer", f32 => "f32" as "number", f64 => "f64" as "number",
    str => "str" as "string", char => "char" as "string", String => "std::string::String" as "string",
}

impl KubeSchema for serde_json::Value {
    fn shape() -> Shape {
        known("serde_json::Value", Vec::new())
    }
}

impl ApplySchema for serde_json::Value {
    type Apply = Self;
}

/// The apply items of a type that holds one `T` (`Option`, `Box`, a reference): `T`'s own,
/// with `T`'s apply configuration inside `$apply`.
macro_rules! apply_through {
    ($apply:ty) => {
        type Apply = $apply;
        fn apply_node() -> &'static Node {
            T::apply_node()
        }
        fn apply_item_node() -> &'static Node {
            T::apply_item_node()
        }
    };
}

/// The apply items of a container of `$of` (a list's items, a map's values) whose
/// configuration is `$apply` and whose description is `$node`.
macro_rules! apply_container {
    ($apply:ty, $of:ident, $node:expr) => {
        type Apply = $apply;
        fn apply_node() -> &'static Node {
            &$node
        }
        fn apply_item_node() -> &'static Node {
            $of::apply_node()
        }
    };
}

/// The apply items of a list of `T` whose configuration is `$apply`: atomic.
macro_rules! apply_list {
    ($apply:ty) => {
        apply_container!(
            $apply,
            T,
            Node::List {
                kind: ListKind::Atomic,
                item: &Node::Type(T::apply_node),
            }
        );
    };
}

/// The apply items of a set: the set itself, owned item by item.
macro_rules! apply_set {
    () => {
        type Apply = Self;
        fn apply_node() -> &'static Node {
            &Node::List {
                kind: ListKind::Set,
                item: &Node::Value,
            }
        }
    };
}

/// The apply items of a map of `V` whose configuration is `$apply`: granular.
macro_rules! apply_map {
    ($apply:ty) => {
        apply_container!(
            $apply,
            V,
            Node::Map {
                atomic: false,
                value: &Node::Type(V::apply_node),
            }
        );
    };
}

macro_rules! wrappers {
    ($($t:ident => $path:literal),* $(,)?) => {$(
        impl<T: KubeSchema + ?Sized> KubeSchema for $t<T> {
            fn shape() -> Shape {
                known($path, vec![T::shape()])
            }
            const KIND: Kind = T::KIND;
            const INFO: InfoRef = T::INFO;
        }

        // Boxed, whatever the pointer: the configuration of a recursive type needs one.
        impl<T: ApplySchema + ?Sized> ApplySchema for $t<T> {
            apply_through!(Box<T::Apply>);
        }
    )*};
}

wrappers! {
    Box => "std::boxed::Box", Arc => "std::sync::Arc", Rc => "std::rc::Rc",
}

/// The shape of an `Option` of a value of shape `inner`: its impl's, and the derive's for an
/// `Option<X>` field, whose schema it names through `X`.
pub fn optional(inner: Shape) -> Shape {
    known("std::option::Option", vec![inner])
}

impl<T: KubeSchema> KubeSchema for Option<T> {
    fn shape() -> Shape {
        optional(T::shape())
    }
    const KIND: Kind = T::KIND;
    const INFO: InfoRef = T::INFO;
}

impl<T: ApplySchema> ApplySchema for Option<T> {
    apply_through!(Option<T::Apply>);
}

macro_rules! sequences {
    ($($t:ident => $path:literal as $apply:ident),* $(,)?) => {$(
        impl<T: KubeSchema> KubeSchema for $t<T> {
            fn shape() -> Shape {
                known($path, vec![T::shape()])
            }
            const KIND: Kind = Kind::Array;
            const INFO: InfoRef = InfoRef::new(&Info::array(T::INFO));
        }

        sequences!(@apply $t $apply);
    )*};
    (@apply $t:ident list) => {
        impl<T: ApplySchema> ApplySchema for $t<T> {
            apply_list!($t<T::Apply>);
        }
    };
    (@apply $t:ident set) => {
        impl<T: KubeSchema> ApplySchema for $t<T> {
            apply_set!();
        }
    };
}

sequences! {
    Vec => "std::vec::Vec" as list, VecDeque => "std::collections::VecDeque" as list,
    LinkedList => "std::collections::LinkedList" as list,
    BTreeSet => "std::collections::BTreeSet" as set,
}

impl<T: KubeSchema, S> KubeSchema for HashSet<T, S> {
    fn shape() -> Shape {
        known("std::collections::HashSet", vec![T::shape()])
    }
    const KIND: Kind = Kind::Array;
    const INFO: InfoRef = InfoRef::new(&Info::array(T::INFO));
}

impl<T: KubeSchema, S> ApplySchema for HashSet<T, S> {
    apply_set!();
}

impl<K: KubeSchema, V: KubeSchema> KubeSchema for BTreeMap<K, V> {
    fn shape() -> Shape {
        known("std::collections::BTreeMap", vec![K::shape(), V::shape()])
    }
    const KIND: Kind = Kind::Map;
}

impl<K: KubeSchema, V: ApplySchema> ApplySchema for BTreeMap<K, V> {
    apply_map!(BTreeMap<K, V::Apply>);
}

impl<K: KubeSchema, V: KubeSchema, S> KubeSchema for HashMap<K, V, S> {
    fn shape() -> Shape {
        known("std::collections::HashMap", vec![K::shape(), V::shape()])
    }
    const KIND: Kind = Kind::Map;
}

impl<K: KubeSchema, V: ApplySchema, S> ApplySchema for HashMap<K, V, S> {
    apply_map!(HashMap<K, V::Apply, S>);
}

impl<T: KubeSchema + ToOwned + ?Sized> KubeSchema for Cow<'_, T> {
    fn shape() -> Shape {
        known("std::borrow::Cow", vec![T::shape()])
    }
    const KIND: Kind = T::KIND;
    const INFO: InfoRef = T::INFO;
}

impl<T: ApplySchema + ToOwned + ?Sized> ApplySchema for Cow<'_, T> {
    apply_through!(T::Apply);
}

impl<T: KubeSchema + ?Sized> KubeSchema for &T {
    fn shape() -> Shape {
        T::shape()
    }
    const KIND: Kind = T::KIND;
    const INFO: InfoRef = T::INFO;
}

impl<T: ApplySchema + ?Sized> ApplySchema for &T {
    apply_through!(T::Apply);
}

impl<T: KubeSchema> KubeSchema for [T] {
    fn shape() -> Shape {
        known("std::vec::Vec", vec![T::shape()])
    }
    const KIND: Kind = Kind::Array;
    const INFO: InfoRef = InfoRef::new(&Info::array(T::INFO));
}

impl<T: ApplySchema> ApplySchema for [T] {
    apply_list!(Vec<T::Apply>);
}

impl<T: KubeSchema, const N: usize> KubeSchema for [T; N] {
    fn shape() -> Shape {
        Shape::Seq {
            item: Box::new(T::shape()),
            set: false,
            len: Some(N as u64),
        }
    }
    const KIND: Kind = Kind::Array;
    const INFO: InfoRef = InfoRef::new(&Info::array(T::INFO));
}

// A fixed-length list is one value (atomic).
impl<T: KubeSchema, const N: usize> ApplySchema for [T; N] {
    type Apply = Self;
    fn apply_node() -> &'static Node {
        &Node::List {
            kind: ListKind::Atomic,
            item: &Node::Value,
        }
    }
}

#[cfg(feature = "chrono")]
impl<Tz: chrono::TimeZone> KubeSchema for chrono::DateTime<Tz> {
    fn shape() -> Shape {
        known("chrono::DateTime", Vec::new())
    }
    const KIND: Kind = Kind::Scalar("string");
}

#[cfg(feature = "chrono")]
impl<Tz: chrono::TimeZone> ApplySchema for chrono::DateTime<Tz> {
    type Apply = Self;
}

#[cfg(feature = "jiff")]
impl KubeSchema for jiff::Timestamp {
    fn shape() -> Shape {
        known("jiff::Timestamp", Vec::new())
    }
    const KIND: Kind = Kind::Scalar("string");
}

#[cfg(feature = "jiff")]
impl ApplySchema for jiff::Timestamp {
    type Apply = Self;
}

impl KubeSchema for serde_json::Map<String, serde_json::Value> {
    fn shape() -> Shape {
        known("serde_json::Map", Vec::new())
    }
    const KIND: Kind = Kind::Map;
}

impl ApplySchema for serde_json::Map<String, serde_json::Value> {
    type Apply = Self;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_paths() {
        assert_eq!(canonical("alloc::vec::Vec"), "std::vec::Vec");
        assert_eq!(
            canonical("::std::collections::btree_map::BTreeMap"),
            "std::collections::BTreeMap"
        );
        assert_eq!(
            canonical("k8s_openapi::api::core::v1::Pod"),
            "k8s_openapi::api::core::v1::Pod"
        );
    }

    #[test]
    fn trait_dispatch_and_lookup_agree() {
        type Nested = Option<Vec<BTreeMap<String, Box<u32>>>>;
        let by_trait = Nested::shape();
        let by_path = known(
            "std::option::Option",
            vec![known(
                "std::vec::Vec",
                vec![known(
                    "std::collections::BTreeMap",
                    vec![
                        known("std::string::String", vec![]),
                        known("std::boxed::Box", vec![known("u32", vec![])]),
                    ],
                )],
            )],
        );
        assert_eq!(by_trait, by_path);
        assert_eq!(
            format!("{by_trait:?}"),
            "Option<Vec<Map<String, Int { wide: true, unsigned: true }>>>"
        );
    }

    #[test]
    fn map_keys_must_be_strings() {
        let err = lookup(
            "std::collections::BTreeMap",
            vec![Vec::<String>::shape(), String::shape()],
        );
        assert!(matches!(err, Some(Err(e)) if e.contains("map keys")));
    }
}
