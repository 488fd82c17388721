//! k8s-openapi's schemas, converted into structural [`Schema`]s.
//!
//! schemars generates a type's schema with `SchemaSettings::openapi3()` and no inlining, so
//! every k8s-openapi type arrives as a `$ref` to a definition named by its Kubernetes name
//! (`io.k8s.api.core.v1.PodSpec`). k8s-openapi writes a field's description next to the
//! `$ref`, which schemars' `RemoveRefSiblings` transform turns into `allOf: [{$ref}]` plus the
//! description. The conversion resolves the references itself: a field gets the definition's
//! schema with the field's own keywords on top, so a field's description wins over its type's,
//! as in controller-gen.
//!
//! Each converted definition gets the Kubernetes topology extensions k8s-openapi's schemas lack
//! (`x-kubernetes-list-type` and keys, `x-kubernetes-map-type`, and defaults of list-map keys):
//! see [`topology`](super::topology).
//!
//! Definitions controller-gen overrides (`KnownPackages` in controller-tools'
//! `pkg/crd/known_types.go`, see [`overridden`]) are replaced wherever they appear, at the top
//! or nested, by the override, which has no description of its own.
//!
//! What a structural schema cannot hold, and what becomes of it:
//! - `title`: dropped (k8s-openapi emits none today);
//! - `oneOf`/`anyOf`/`allOf` alternatives other than a single `$ref` (apiextensions'
//!   `JSONSchemaPropsOrArray`, `JSONSchemaPropsOrBool`, `JSONSchemaPropsOrStringArray`): a
//!   structural schema allows no `type` inside them, so the node becomes
//!   `x-kubernetes-preserve-unknown-fields: true` (any JSON value), keeping its description;
//! - recursion (`JSONSchemaProps` holds `JSONSchemaProps`): a `$ref` to a definition that is
//!   being expanded becomes `{type: object, x-kubernetes-preserve-unknown-fields: true}`;
//! - boolean schemas: `true` becomes `x-kubernetes-preserve-unknown-fields: true`;
//!   `additionalProperties: true` makes its object keep unknown fields instead, and
//!   `additionalProperties: false` is dropped (objects without it prune unknown fields anyway);
//! - a `$ref` that does not point at a definition, keywords our [`Schema`] does not have, and
//!   values it cannot hold: dropped (a node that cannot be read at all keeps unknown fields).
//!   None of these occur in k8s-openapi 0.29; a test converts every type to check.

use crate::model::Schema;
use std::any::type_name;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};

use schemars::JsonSchema;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::{Map, Value};

use super::Minor;

/// Where schemars' `openapi3` settings put definitions.
pub(super) const REF_PREFIX: &str = "#/components/schemas/";

/// The regex controller-gen gives `resource.Quantity` (controller-tools' `known_types.go`).
pub(super) const QUANTITY_PATTERN: &str = r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$";

/// The JSON names our [`Schema`] holds, and `title` (dropped on purpose). References (`$ref`)
/// are resolved before these are checked; one that does not point at a definition is dropped.
const KEYWORDS: &[&str] = &[
    "description",
    "type",
    "format",
    "title",
    "default",
    "example",
    "enum",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "multipleOf",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "maxProperties",
    "minProperties",
    "required",
    "items",
    "properties",
    "additionalProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "nullable",
    "externalDocs",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-list-type",
    "x-kubernetes-map-type",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-validations",
];

/// The structural schema of a k8s-openapi type (any `JsonSchema` type whose definitions are
/// named uniquely, in fact), with controller-gen's known-type overrides applied. Converted once
/// per type and process, then cloned.
pub fn schema_of<T: JsonSchema>() -> Schema {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, Schema>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = type_name::<T>();
    if let Some(schema) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(key) {
        return schema.clone();
    }
    // Converted outside the lock: two threads may both convert a type, to the same result.
    let schema = convert(generate::<T>, Minor::compiled()).schema;
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert(schema)
        .clone()
}

/// [`Known::build`](crate::model::Known::build) of a compiled k8s-openapi type: its
/// [`schema_of`] (another version's comes from [`Kubernetes::schema`]).
pub(super) fn compiled<T: JsonSchema>(_: &'static str) -> Schema {
    schema_of::<T>()
}

/// How to generate a type's schemars schema.
pub(super) type Generate = fn(&mut SchemaGenerator) -> schemars::Schema;

/// `T`'s schema as schemars gives it: a `$ref` for k8s-openapi types.
pub(super) fn generate<T: JsonSchema>(generator: &mut SchemaGenerator) -> schemars::Schema {
    generator.subschema_for::<T>()
}

/// A converted schema, and (for tests) the keywords the conversion had to drop.
pub(super) struct Converted {
    /// The structural schema.
    pub schema: Schema,
    /// Keywords found in schemars' output that [`Schema`] cannot hold, sorted and deduplicated.
    #[cfg(test)]
    pub dropped: Vec<String>,
}

/// Generates a schema with `openapi3` settings and converts it with the Go facts of `minor`.
pub(super) fn convert(generate: Generate, minor: Minor) -> Converted {
    let mut generator = SchemaSettings::openapi3()
        .with(|settings| settings.inline_subschemas = false)
        .into_generator();
    let mut root = generate(&mut generator);
    for transform in generator.transforms_mut() {
        transform.transform(&mut root);
    }
    convert_value(root.as_value(), &generator.take_definitions(true), minor)
}

/// The definition `name` of `definitions` (k8s-openapi's schemas of Kubernetes 1.`minor` by
/// Kubernetes name, as its `JsonSchema` impls write them), converted as [`schema_of`] converts
/// a compiled type.
pub(super) fn convert_definition(
    name: &str,
    definitions: &Map<String, Value>,
    minor: Minor,
) -> Schema {
    let root = serde_json::json!({ "$ref": format!("{REF_PREFIX}{name}") });
    convert_value(&root, definitions, minor).schema
}

/// Converts `root`, resolving its references against `definitions`, with the Go facts of
/// `minor`.
fn convert_value(root: &Value, definitions: &Map<String, Value>, minor: Minor) -> Converted {
    let mut converter = Converter {
        definitions,
        minor,
        expanding: Vec::new(),
        dropped: Vec::new(),
    };
    let schema = converter.node(root);
    Converted {
        schema,
        #[cfg(test)]
        dropped: {
            let mut dropped = converter.dropped;
            dropped.sort();
            dropped.dedup();
            dropped
        },
    }
}

/// controller-gen's schema for a definition it overrides, by Kubernetes name; `None` for the
/// others.
///
/// `metav1.Duration` and `unstructured.Unstructured` have no k8s-openapi type. `FieldsV1`
/// (`ManagedFieldsEntry.fieldsV1`) is not overridden: controller-gen walks its Go struct,
/// whose only field is `json:"-"`, and gets `{type: object}` with the type's doc, which is
/// k8s-openapi's schema already (note that it prunes the field's content).
pub(super) fn overridden(name: &str) -> Option<Schema> {
    let string = || Schema::typed("string");
    let int_or_string = || Schema {
        any_of: vec![Schema::typed("integer"), string()],
        x_int_or_string: true,
        ..Schema::default()
    };
    Some(match name {
        // The embedded form (controller-gen's `crd:generateEmbeddedObjectMeta=true`,
        // `ObjectMetaPackages`): what the apiserver keeps of a nested ObjectMeta. The root
        // `metadata` is reset to `{type: object}` by the CRD builder.
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" => {
            let map_of_string = Schema {
                additional_properties: Some(Box::new(string())),
                ..Schema::typed("object")
            };
            Schema {
                properties: BTreeMap::from([
                    ("annotations".to_string(), map_of_string.clone()),
                    (
                        "finalizers".to_string(),
                        Schema {
                            items: Some(Box::new(string())),
                            ..Schema::typed("array")
                        },
                    ),
                    ("labels".to_string(), map_of_string),
                    ("name".to_string(), string()),
                    ("namespace".to_string(), string()),
                ]),
                ..Schema::typed("object")
            }
        }
        "io.k8s.apimachinery.pkg.apis.meta.v1.Time"
        | "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime" => {
            Schema::formatted("string", "date-time")
        }
        "io.k8s.apimachinery.pkg.api.resource.Quantity" => Schema {
            pattern: Some(QUANTITY_PATTERN.to_string()),
            ..int_or_string()
        },
        "io.k8s.apimachinery.pkg.util.intstr.IntOrString" => int_or_string(),
        "io.k8s.apimachinery.pkg.runtime.RawExtension" => Schema {
            x_preserve_unknown_fields: true,
            ..Schema::typed("object")
        },
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON" => preserve_unknown(),
        _ => return None,
    })
}

/// `{x-kubernetes-preserve-unknown-fields: true}`: any JSON value.
fn preserve_unknown() -> Schema {
    Schema {
        x_preserve_unknown_fields: true,
        ..Schema::default()
    }
}

/// Resolves references against one set of definitions.
struct Converter<'a> {
    /// The definitions by Kubernetes name.
    definitions: &'a Map<String, Value>,
    /// The Kubernetes version whose Go facts apply.
    minor: Minor,
    /// The definitions being expanded, outermost first (to cut recursion).
    expanding: Vec<String>,
    /// Keywords dropped so far.
    dropped: Vec<String>,
}

impl Converter<'_> {
    /// Converts one schema node.
    fn node(&mut self, value: &Value) -> Schema {
        let Value::Object(object) = value else {
            // A boolean schema: `true` accepts anything; `false` (nothing) has no structural
            // form and does not occur.
            return preserve_unknown();
        };
        let mut object = object.clone();
        object.remove("title");
        for key in object.keys() {
            if key != "$ref" && !KEYWORDS.contains(&key.as_str()) {
                self.dropped.push(key.clone());
            }
        }
        let reference = take_ref(&mut object);
        if object.contains_key("$ref") {
            // Left over: it does not point at a definition.
            self.dropped.push("$ref".to_string());
        }
        object.retain(|key, _| KEYWORDS.contains(&key.as_str()));
        if let Some(name) = reference {
            let base = self.definition(&name);
            let own = self.keywords(object);
            return overlay(base, own);
        }
        if object.keys().all(|key| key == "description") {
            // `{}`: any JSON value.
            return Schema {
                description: take_description(&mut object),
                ..preserve_unknown()
            };
        }
        self.keywords(object)
    }

    /// The schema of a referenced definition: its override, its conversion, or for a
    /// definition being expanded, an object that keeps whatever it holds.
    fn definition(&mut self, name: &str) -> Schema {
        if let Some(schema) = overridden(name) {
            return schema;
        }
        if self.expanding.iter().any(|n| n == name) {
            return Schema {
                x_preserve_unknown_fields: true,
                ..Schema::typed("object")
            };
        }
        let Some(value) = self.definitions.get(name).cloned() else {
            self.dropped
                .push(format!("$ref to the missing definition {name}"));
            return preserve_unknown();
        };
        self.expanding.push(name.to_string());
        let mut schema = self.node(&value);
        self.expanding.pop();
        super::go_facts::apply(self.minor, name, &mut schema);
        super::topology::apply(name, &mut schema);
        schema
    }

    /// Converts a node's keywords (all in [`KEYWORDS`]; no reference).
    fn keywords(&mut self, mut object: Map<String, Value>) -> Schema {
        let int_or_string = object.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true));
        let mut any_of = Vec::new();
        for junctor in ["allOf", "anyOf", "oneOf"] {
            let Some(branches) = object.remove(junctor) else {
                continue;
            };
            if int_or_string && junctor == "anyOf" {
                // `anyOf: [{type: integer}, {type: string}]` next to int-or-string is the one
                // typed alternative structural schemas allow.
                any_of = branches
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|b| self.node(b))
                    .collect();
            } else {
                return Schema {
                    description: take_description(&mut object),
                    ..preserve_unknown()
                };
            }
        }

        let properties = object.remove("properties");
        let items = object.remove("items");
        let additional = object.remove("additionalProperties");
        let mut schema: Schema = match serde_json::from_value(Value::Object(object)) {
            Ok(schema) => schema,
            Err(e) => {
                // A keyword with a value our Schema cannot hold (`type: [string, "null"]`).
                self.dropped
                    .push(format!("a node whose keywords do not fit: {e}"));
                return preserve_unknown();
            }
        };
        schema.any_of = any_of;
        if let Some(Value::Object(properties)) = properties {
            schema.properties = properties
                .iter()
                .map(|(name, value)| (name.clone(), self.node(value)))
                .collect();
        }
        if let Some(items) = items {
            schema.items = Some(Box::new(self.node(&items)));
        }
        match additional {
            Some(Value::Bool(true)) => schema.x_preserve_unknown_fields = true,
            Some(Value::Bool(false)) | None => {}
            Some(value) => schema.additional_properties = Some(Box::new(self.node(&value))),
        }
        schema.required.sort();
        schema.required.dedup();
        schema
    }
}

/// Removes a node's description.
fn take_description(object: &mut Map<String, Value>) -> Option<String> {
    match object.remove("description") {
        Some(Value::String(description)) => Some(description),
        _ => None,
    }
}

/// Removes a reference from a node, `$ref` or `allOf: [{$ref}]` (schemars' form of a `$ref`
/// with siblings), and returns the definition's name.
fn take_ref(object: &mut Map<String, Value>) -> Option<String> {
    let name = |reference: &Value| {
        reference
            .as_str()
            .and_then(|r| r.strip_prefix(REF_PREFIX))
            .map(str::to_string)
    };
    if let Some(reference) = object.get("$ref") {
        let found = name(reference);
        if found.is_some() {
            object.remove("$ref");
        }
        return found;
    }
    if let Some(Value::Array(branches)) = object.get("allOf")
        && let [Value::Object(only)] = branches.as_slice()
        && only.len() == 1
        && let Some(found) = only.get("$ref").and_then(name)
    {
        object.remove("allOf");
        return Some(found);
    }
    None
}

/// `base` with every keyword `own` sets put on top (a field's description over its type's).
fn overlay(mut base: Schema, own: Schema) -> Schema {
    if own == Schema::default() {
        return base;
    }
    if own
        == (Schema {
            description: own.description.clone(),
            ..Schema::default()
        })
    {
        base.description = own.description;
        return base;
    }
    let to_map = |schema: Schema| match serde_json::to_value(schema) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    let mut merged = to_map(base);
    merged.extend(to_map(own));
    serde_json::from_value(Value::Object(merged)).unwrap_or_default()
}
