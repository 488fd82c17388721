//! Typed server-side apply (feature `apply`): apply configurations and `extract`.
//!
//! With the feature on, every type deriving `CustomResource` or `KubeSchema` gets an *apply
//! configuration* beside it, with the same visibility: `FooApply` for a type `Foo`, and
//! `<Kind>Apply` for the root. Every field is `pub` and an `Option` (left out when `None`); a
//! field of type `T` holds `<T as ApplySchema>::Apply`: a derived type's configuration,
//! containers of them (`Vec`s and maps, through aliases too), k8s-openapi types and scalars
//! themselves. The JSON names and shapes are the type's own (renames, `flatten`, every enum
//! tagging). A field manager that sends one owns exactly the fields it sets, where sending the
//! whole type would claim every field it serializes. Structs' configurations are `Default`
//! (nothing set); enums' are not, since each of their values sets a variant.
//!
//! A type with a hand-written `KubeSchema` impl that derived types hold as a field implements
//! [`ApplySchema`] beside it (`type Apply = Self;` applies it whole); the trait is defined
//! without the feature too, so that impl builds with the feature on or off.
//!
//! A struct's configuration has a builder per field, `with_<field>(value)`, that takes any
//! value the field's configuration converts from (`From`): `with_image("memcached")` for a
//! `String`, `with_phase(Phase::Ready)` for a type applied whole ([`Whole`]), the
//! configuration itself for a derived type. A list or a map of derived types takes its
//! configuration as it is (`with_ports(vec![PortApply::default()])`): a conversion there would
//! add an error to the one a missing `KubeSchema` derive gets.
//!
//! ```
//! # #[cfg(feature = "apply")] {
//! use kubegen::{CustomResource, KubeSchema};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube_marker(group = "cache.example.com", version = "v1alpha1", kind = "Memcached")]
//! #[kube_marker(status = "MemcachedStatus")]
//! #[serde(rename_all = "camelCase")]
//! pub struct MemcachedSpec {
//!     pub size: i32,
//!     pub image: String,
//!     #[kube_marker(list_type = "map", list_map_keys = "name")]
//!     pub ports: Vec<Port>,
//! }
//!
//! #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
//! #[serde(rename_all = "camelCase")]
//! pub struct Port {
//!     pub name: String,
//!     pub container_port: i32,
//! }
//!
//! #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
//! #[serde(rename_all = "camelCase")]
//! pub struct MemcachedStatus {
//!     pub ready_replicas: Option<i32>,
//! }
//!
//! // Only `size` and one port: the manager owns these, and nothing else of the spec.
//! let cfg = MemcachedApply::new("cache")
//!     .with_spec(
//!         MemcachedSpecApply::default()
//!             .with_size(3)
//!             .with_ports(vec![PortApply::default().with_name("http").with_container_port(80)]),
//!     );
//! assert_eq!(
//!     serde_json::to_value(&cfg).unwrap(),
//!     serde_json::json!({
//!         "apiVersion": "cache.example.com/v1alpha1",
//!         "kind": "Memcached",
//!         "metadata": {"name": "cache"},
//!         "spec": {"size": 3, "ports": [{"name": "http", "containerPort": 80}]}
//!     })
//! );
//! // Sent with `Api::<Memcached>::patch("cache", &PatchParams::apply("my-manager"), &Patch::Apply(&cfg))`.
//!
//! // An item of a list map without its key is refused before anything is sent.
//! let keyless = MemcachedApply::new("cache")
//!     .with_spec(MemcachedSpecApply::default().with_ports(vec![PortApply::default().with_container_port(80)]));
//! assert!(serde_json::to_value(&keyless).unwrap_err().to_string().contains("`name`"));
//! # }
//! ```
//!
//! `<Kind>Apply::extract(&obj, "my-manager")` (and `extract_status`) return the configuration of
//! exactly the fields that manager owns in `metadata.managedFields`, as client-go's
//! `ExtractX` does: read, change, apply, without taking other managers' fields.

use std::fmt;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

// What the derive's apply configurations describe themselves with.
#[doc(hidden)]
pub use kubegen_core::apply::describe::{Field, ListKind, Node};
pub use kubegen_core::apply::extract::ExtractError;

use crate::ApplySchema;

/// The apply configuration that sets every field `value` serializes: what a manager that
/// owns all of a value (a controller and the status it computes) applies.
pub fn configuration<T>(value: &T) -> Result<T::Apply, serde_json::Error>
where
    T: ApplySchema + Serialize,
    T::Apply: DeserializeOwned,
{
    serde_json::to_value(value).and_then(serde_json::from_value)
}

/// A value applied as a whole: the apply configuration of a type whose JSON form is not
/// made of its fields (a newtype, an enum of unit variants, an untagged enum, a type with
/// `schema_type` or `schemaless`), and of fields marked `schema_type` or `schemaless`.
/// It holds the value's JSON (so `T` needs neither `Clone` nor `PartialEq`) and serializes as
/// the value itself; [`Whole::get`] reads it back as a `T`.
pub struct Whole<T> {
    json: serde_json::Value,
    of: PhantomData<fn() -> T>,
}

impl<T: Serialize> Whole<T> {
    /// The configuration of `value`, or why `value` does not serialize.
    pub fn new(value: &T) -> Result<Self, serde_json::Error> {
        serde_json::to_value(value).map(|json| Whole {
            json,
            of: PhantomData,
        })
    }
}

impl<T: DeserializeOwned> Whole<T> {
    /// The value.
    pub fn get(&self) -> Result<T, serde_json::Error> {
        T::deserialize(&self.json)
    }
}

impl<T> Whole<T> {
    /// The value's JSON.
    pub fn json(&self) -> &serde_json::Value {
        &self.json
    }
}

impl<T: Serialize> From<T> for Whole<T> {
    /// # Panics
    ///
    /// When `value` does not serialize to JSON (a map whose keys are not strings: a type
    /// kubegen gives no schema); [`Whole::new`] returns the error instead.
    fn from(value: T) -> Self {
        Whole::new(&value).expect("a type with a CRD schema serializes to JSON")
    }
}

impl<T> Clone for Whole<T> {
    fn clone(&self) -> Self {
        Whole {
            json: self.json.clone(),
            of: PhantomData,
        }
    }
}

impl<T> fmt::Debug for Whole<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Whole").field(&self.json).finish()
    }
}

impl<T> PartialEq for Whole<T> {
    fn eq(&self, other: &Self) -> bool {
        self.json == other.json
    }
}

impl<T> Serialize for Whole<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(serializer)
    }
}

impl<'de, T> Deserialize<'de> for Whole<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let json = serde_json::Value::deserialize(deserializer)?;
        Ok(Whole {
            json,
            of: PhantomData,
        })
    }
}

/// What the generated code uses. Not a public API.
#[doc(hidden)]
pub mod __private {
    use serde::Serializer;
    use serde::de::Error as _;
    use serde::ser::{Error as _, SerializeMap as _};
    use serde_json::Value;

    use super::*;

    /// Serializes a list map field, refusing an item that lacks one of the keys the API
    /// server cannot default (it would reject the whole request).
    pub fn list_map<V: Serialize, S: Serializer>(
        value: &V,
        field: &str,
        keys: &[&str],
        item: &Node,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let json = serde_json::to_value(value).map_err(S::Error::custom)?;
        if let Value::Array(items) = &json {
            for (i, it) in items.iter().enumerate() {
                let missing = keys.iter().find(|k| {
                    item.defaulted(k) == Some(false) && it.get(**k).is_none_or(Value::is_null)
                });
                if let Some(key) = missing {
                    return Err(S::Error::custom(format!(
                        "item {i} of the list map `{field}` has no `{key}`: the items of a list \
                         map must carry their keys ({}), or the API server rejects the apply",
                        keys.join(", ")
                    )));
                }
            }
        }
        json.serialize(serializer)
    }

    /// A list map field as [`list_map`] writes it.
    struct ListMap<'a, V> {
        value: &'a V,
        field: &'a str,
        keys: &'a [&'a str],
        item: &'a Node,
    }

    impl<V: Serialize> Serialize for ListMap<'_, V> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            list_map(self.value, self.field, self.keys, self.item, serializer)
        }
    }

    /// A configuration struct's JSON object, written field by field by its `Serialize`: a
    /// field that is `None` is left out.
    pub struct Writer<S: Serializer>(S::SerializeMap);

    impl<S: Serializer> Writer<S> {
        /// Starts the object.
        pub fn new(serializer: S) -> Result<Self, S::Error> {
            serializer.serialize_map(None).map(Writer)
        }

        /// Writes the field `name`.
        pub fn field<T: Serialize>(
            &mut self,
            name: &str,
            value: &Option<T>,
        ) -> Result<(), S::Error> {
            match value {
                Some(value) => self.0.serialize_entry(name, value),
                None => Ok(()),
            }
        }

        /// Writes the list map field `name`, refusing an item without its keys (see
        /// [`list_map`]).
        pub fn list_map<T: Serialize>(
            &mut self,
            name: &str,
            value: &Option<T>,
            keys: &[&str],
            item: &Node,
        ) -> Result<(), S::Error> {
            match value {
                Some(value) => {
                    let field = ListMap {
                        value,
                        field: name,
                        keys,
                        item,
                    };
                    self.0.serialize_entry(name, &field)
                }
                None => Ok(()),
            }
        }

        /// Writes the fields of a flattened field beside the object's own.
        pub fn flatten<T: Serialize>(&mut self, value: &Option<T>) -> Result<(), S::Error> {
            let Some(value) = value else { return Ok(()) };
            match serde_json::to_value(value).map_err(S::Error::custom)? {
                Value::Object(entries) => entries
                    .iter()
                    .try_for_each(|(name, value)| self.0.serialize_entry(name, value)),
                Value::Null => Ok(()),
                other => Err(S::Error::custom(format_args!(
                    "a flattened field must write an object, not `{other}`"
                ))),
            }
        }

        /// Ends the object.
        pub fn end(self) -> Result<S::Ok, S::Error> {
            self.0.end()
        }
    }

    /// A configuration struct's JSON object, read field by field by its `Deserialize`.
    pub struct Object(serde_json::Map<String, Value>);

    impl Object {
        /// Reads the object.
        pub fn read<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            serde_json::Map::deserialize(deserializer).map(Object)
        }

        /// Takes the string at `key`: the tag of an internally or adjacently tagged enum.
        fn tag<E: serde::de::Error>(&mut self, key: &'static str) -> Result<String, E> {
            match self.0.remove(key) {
                Some(Value::String(name)) => Ok(name),
                Some(other) => Err(E::custom(format_args!(
                    "the tag `{key}` must be a variant's name, not `{other}`"
                ))),
                None => Err(E::missing_field(key)),
            }
        }

        /// Takes the field `name`: `None` when absent or `null`.
        pub fn take<T: DeserializeOwned, E: serde::de::Error>(
            &mut self,
            name: &str,
        ) -> Result<Option<T>, E> {
            match self.0.remove(name) {
                None | Some(Value::Null) => Ok(None),
                Some(value) => T::deserialize(value)
                    .map(Some)
                    .map_err(|e| E::custom(format_args!("field `{name}`: {e}"))),
            }
        }

        /// Reads a flattened field from the entries no named field took: `None` when it
        /// reads as an empty object (none of its fields is there).
        pub fn flattened<T: DeserializeOwned + Serialize, E: serde::de::Error>(
            &self,
        ) -> Result<Option<T>, E> {
            let value = T::deserialize(Value::Object(self.0.clone())).map_err(E::custom)?;
            let empty =
                matches!(serde_json::to_value(&value), Ok(Value::Object(m)) if m.is_empty());
            Ok((!empty).then_some(value))
        }
    }

    /// How a configuration enum's variants are written: its name and the tagging of the type
    /// it configures. Its `Serialize` and `Deserialize` are written out (so that a field whose
    /// type has no schema is one error), through these.
    pub struct Variants {
        /// The configuration's name (what serde's enum methods are given).
        pub name: &'static str,
        /// The tagging.
        pub tagging: Tagging,
    }

    /// The serde tagging of an enum.
    pub enum Tagging {
        /// `{"variant": content}`; unit variants are `"variant"`.
        External,
        /// `{"tag": "variant", ...fields}` (`#[serde(tag)]`).
        Internal(&'static str),
        /// `{"tag": "variant", "content": content}` (`#[serde(tag, content)]`).
        Adjacent(&'static str, &'static str),
    }

    /// The object a struct variant's fields are written to ([`Writer`] over a JSON value).
    pub type Fields = Writer<serde_json::value::Serializer>;

    impl Variants {
        /// Writes the unit variant `variant`, the `index`th.
        pub fn unit<S: Serializer>(
            &self,
            serializer: S,
            index: u32,
            variant: &'static str,
        ) -> Result<S::Ok, S::Error> {
            match self.tagging {
                Tagging::External => serializer.serialize_unit_variant(self.name, index, variant),
                Tagging::Internal(tag) | Tagging::Adjacent(tag, _) => {
                    let mut object = serializer.serialize_map(Some(1))?;
                    object.serialize_entry(tag, variant)?;
                    object.end()
                }
            }
        }

        /// Writes the newtype variant `variant`, the `index`th, holding `value`.
        pub fn newtype<S: Serializer, T: Serialize>(
            &self,
            serializer: S,
            index: u32,
            variant: &'static str,
            value: &T,
        ) -> Result<S::Ok, S::Error> {
            match self.tagging {
                Tagging::External => {
                    serializer.serialize_newtype_variant(self.name, index, variant, value)
                }
                Tagging::Internal(tag) => {
                    let mut object = Writer::new(serializer)?;
                    object.0.serialize_entry(tag, variant)?;
                    object
                        .flatten(&Some(value))
                        .map_err(|e| S::Error::custom(format_args!("variant `{variant}`: {e}")))?;
                    object.end()
                }
                Tagging::Adjacent(tag, content) => {
                    let mut object = serializer.serialize_map(Some(2))?;
                    object.serialize_entry(tag, variant)?;
                    object.serialize_entry(content, value)?;
                    object.end()
                }
            }
        }

        /// Writes the struct variant `variant`, the `index`th, whose fields `write` writes.
        pub fn fields<S: Serializer>(
            &self,
            serializer: S,
            index: u32,
            variant: &'static str,
            write: impl FnOnce(&mut Fields) -> Result<(), serde_json::Error>,
        ) -> Result<S::Ok, S::Error> {
            let mut fields =
                Writer::new(serde_json::value::Serializer).map_err(S::Error::custom)?;
            write(&mut fields).map_err(S::Error::custom)?;
            let fields = fields.end().map_err(S::Error::custom)?;
            self.newtype(serializer, index, variant, &fields)
        }

        /// Reads a variant: its name, and its content (absent for a unit variant written as its
        /// name, or without the adjacent content).
        pub fn read<'de, D: serde::Deserializer<'de>>(
            &self,
            deserializer: D,
        ) -> Result<(String, Content), D::Error> {
            let (name, value, key) = match self.tagging {
                Tagging::External => {
                    let expected = || {
                        D::Error::custom(format_args!(
                            "expected a variant of `{}`: its name, or an object with one entry, \
                             the variant's name and its content",
                            self.name
                        ))
                    };
                    match Value::deserialize(deserializer)? {
                        Value::String(name) => (name, None, None),
                        Value::Object(object) => {
                            let mut entries = object.into_iter();
                            match (entries.next(), entries.next()) {
                                (Some((name, content)), None) => (name, Some(content), None),
                                _ => return Err(expected()),
                            }
                        }
                        _ => return Err(expected()),
                    }
                }
                Tagging::Internal(tag) => {
                    let mut object = Object::read(deserializer)?;
                    let name = object.tag(tag)?;
                    (name, Some(Value::Object(object.0)), None)
                }
                Tagging::Adjacent(tag, content) => {
                    let mut object = Object::read(deserializer)?;
                    let name = object.tag(tag)?;
                    (name, object.0.remove(content), Some(content))
                }
            };
            Ok((name, Content { value, key }))
        }
    }

    /// A variant's content as read by [`Variants::read`].
    pub struct Content {
        value: Option<Value>,
        /// The key it is under (adjacent tagging), for the error when it is absent.
        key: Option<&'static str>,
    }

    impl Content {
        /// The content of a newtype variant.
        pub fn value<T: DeserializeOwned, E: serde::de::Error>(self) -> Result<T, E> {
            T::deserialize(self.present()?).map_err(E::custom)
        }

        /// The fields of a struct variant.
        pub fn fields<E: serde::de::Error>(self) -> Result<Object, E> {
            match self.present()? {
                Value::Object(fields) => Ok(Object(fields)),
                other => Err(E::custom(format_args!(
                    "expected an object of the variant's fields, not `{other}`"
                ))),
            }
        }

        fn present<E: serde::de::Error>(self) -> Result<Value, E> {
            match (self.value, self.key) {
                (Some(value), _) => Ok(value),
                (None, Some(key)) => Err(E::missing_field(key)),
                (None, None) => Err(E::custom("the variant's content is missing")),
            }
        }
    }

    /// `<Kind>Apply::extract`: the apply configuration of what `manager` owns of `object`
    /// through `subresource` (`""` or `"status"`), with the object's name and namespace.
    pub fn extract<K, A>(
        object: &K,
        manager: &str,
        subresource: &str,
        node: &Node,
    ) -> Result<A, ExtractError>
    where
        K: Serialize + kube::Resource,
        A: DeserializeOwned,
    {
        use kubegen_core::apply::extract::{extract, owned_fields};
        let malformed = |problem: String| ExtractError::Malformed {
            path: ".".into(),
            problem,
        };
        let value = serde_json::to_value(object).map_err(|e| malformed(e.to_string()))?;
        let mut part = match owned_fields(&value, manager, subresource)? {
            Some(fields) => extract(&value, &fields, node)?,
            None => Value::Object(Default::default()),
        };
        if let Value::Object(part) = &mut part {
            part.remove("apiVersion");
            part.remove("kind");
            let meta = object.meta();
            let metadata = part
                .entry("metadata")
                .or_insert_with(|| Value::Object(Default::default()));
            if let Value::Object(metadata) = metadata {
                for (key, value) in [("name", &meta.name), ("namespace", &meta.namespace)] {
                    if let Some(value) = value {
                        metadata.insert(key.into(), Value::String(value.clone()));
                    }
                }
            }
        }
        serde_json::from_value(part).map_err(|e| {
            malformed(format!(
                "the owned fields do not read as the apply configuration: {e}"
            ))
        })
    }
}
