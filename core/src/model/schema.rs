//! The schema node the engine builds: the subset of OpenAPI v3 that CRDs accept, with the
//! same JSON names as apiextensions' `JSONSchemaProps`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{ExternalDocs, ListType, Rule, Topology};

/// One schema node. Empty keywords are left out when serialized.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Schema {
    /// `description`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `type`
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// `format`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// `title`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// `default`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// `example`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<Value>,
    /// `enum`
    #[serde(rename = "enum", skip_serializing_if = "Option::is_none")]
    pub enum_: Option<Vec<Value>>,
    /// `maximum`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximum: Option<f64>,
    /// `exclusiveMaximum`
    #[serde(skip_serializing_if = "is_false")]
    pub exclusive_maximum: bool,
    /// `minimum`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum: Option<f64>,
    /// `exclusiveMinimum`
    #[serde(skip_serializing_if = "is_false")]
    pub exclusive_minimum: bool,
    /// `multipleOf`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multiple_of: Option<f64>,
    /// `maxLength`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
    /// `minLength`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    /// `pattern`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// `maxItems`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    /// `minItems`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    /// `maxProperties`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_properties: Option<u64>,
    /// `minProperties`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_properties: Option<u64>,
    /// `required`, sorted.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub required: Vec<String>,
    /// `items`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<Schema>>,
    /// `properties`
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Schema>,
    /// `additionalProperties`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_properties: Option<Box<Schema>>,
    /// `allOf`
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub all_of: Vec<Schema>,
    /// `anyOf`
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub any_of: Vec<Schema>,
    /// `oneOf`
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub one_of: Vec<Schema>,
    /// `not`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not: Option<Box<Schema>>,
    /// `nullable`
    #[serde(skip_serializing_if = "is_false")]
    pub nullable: bool,
    /// `externalDocs`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_docs: Option<ExternalDocs>,
    /// `x-kubernetes-embedded-resource`
    #[serde(
        rename = "x-kubernetes-embedded-resource",
        skip_serializing_if = "is_false"
    )]
    pub x_embedded_resource: bool,
    /// `x-kubernetes-int-or-string`
    #[serde(
        rename = "x-kubernetes-int-or-string",
        skip_serializing_if = "is_false"
    )]
    pub x_int_or_string: bool,
    /// `x-kubernetes-list-map-keys`
    #[serde(
        rename = "x-kubernetes-list-map-keys",
        skip_serializing_if = "Option::is_none"
    )]
    pub x_list_map_keys: Option<Vec<String>>,
    /// `x-kubernetes-list-type`
    #[serde(
        rename = "x-kubernetes-list-type",
        skip_serializing_if = "Option::is_none"
    )]
    pub x_list_type: Option<ListType>,
    /// `x-kubernetes-map-type`
    #[serde(
        rename = "x-kubernetes-map-type",
        skip_serializing_if = "Option::is_none"
    )]
    pub x_map_type: Option<Topology>,
    /// `x-kubernetes-preserve-unknown-fields`
    #[serde(
        rename = "x-kubernetes-preserve-unknown-fields",
        skip_serializing_if = "is_false"
    )]
    pub x_preserve_unknown_fields: bool,
    /// `x-kubernetes-validations`, in order.
    #[serde(
        rename = "x-kubernetes-validations",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub x_validations: Vec<Rule>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Schema {
    /// `{type: t}`
    pub fn typed(t: &str) -> Schema {
        Schema {
            type_: Some(t.to_string()),
            ..Schema::default()
        }
    }

    /// `{type: t, format: f}`
    pub fn formatted(t: &str, f: &str) -> Schema {
        Schema {
            format: Some(f.to_string()),
            ..Schema::typed(t)
        }
    }

    /// The `type`, or `""`.
    pub fn type_str(&self) -> &str {
        self.type_.as_deref().unwrap_or("")
    }

    /// The logical junctors' branches: `allOf`, `anyOf`, `oneOf`, then `not`.
    pub fn junctors(&self) -> impl Iterator<Item = &Schema> {
        self.all_of
            .iter()
            .chain(&self.any_of)
            .chain(&self.one_of)
            .chain(self.not.as_deref())
    }

    /// True for strings, and for int-or-string (where string keywords apply too).
    pub fn is_textual(&self) -> bool {
        self.type_str() == "string" || self.x_int_or_string
    }

    /// True for `integer` and `number`.
    pub fn is_numeric(&self) -> bool {
        matches!(self.type_str(), "integer" | "number")
    }

    /// True for `string`, `integer`, `number` and `boolean`.
    pub fn is_scalar(&self) -> bool {
        matches!(self.type_str(), "string" | "integer" | "number" | "boolean")
    }

    /// Whether property `key` is always there once the apiserver has defaulted the object:
    /// required, or with a default. List map keys must be.
    pub fn always_has(&self, key: &str) -> bool {
        self.required.iter().any(|r| r == key)
            || self
                .properties
                .get(key)
                .is_some_and(|p| p.default.is_some())
    }

    /// Whether this can be the item of an `x-kubernetes-list-type: set` list: a scalar, or an
    /// atomic object or list.
    pub fn can_be_set_item(&self) -> bool {
        match self.type_str() {
            // Objects are granular unless they say otherwise; lists are atomic by default.
            "object" => self.x_map_type == Some(Topology::Atomic),
            "array" => self.x_list_type.is_none_or(|t| t == ListType::Atomic),
            _ => true,
        }
    }
}
