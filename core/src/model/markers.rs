//! Schema markers: the `#[kube_marker(...)]` keys that shape an OpenAPI schema node.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::LazyLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::Loc;

/// Every schema key of one field or one type, after all its `#[kube_marker]`s are merged.
///
/// The names follow kubebuilder's markers; `kubegen::markers` lists them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SchemaMarkers {
    /// `minimum`
    pub minimum: Option<f64>,
    /// `maximum`
    pub maximum: Option<f64>,
    /// `exclusive_minimum`
    pub exclusive_minimum: bool,
    /// `exclusive_maximum`
    pub exclusive_maximum: bool,
    /// `multiple_of`
    pub multiple_of: Option<f64>,
    /// `min_length`
    pub min_length: Option<u64>,
    /// `max_length`
    pub max_length: Option<u64>,
    /// `pattern`
    pub pattern: Option<String>,
    /// `format`
    pub format: Option<String>,
    /// `enum_values`
    pub enum_values: Option<Vec<Value>>,
    /// `min_items`
    pub min_items: Option<u64>,
    /// `max_items`
    pub max_items: Option<u64>,
    /// `min_properties`
    pub min_properties: Option<u64>,
    /// `max_properties`
    pub max_properties: Option<u64>,
    /// `schema_type`: replaces the inferred `type` and stops the walk into the Rust type.
    pub schema_type: Option<String>,
    /// `items(...)`: markers for the items of an array.
    pub items: Option<Box<SchemaMarkers>>,
    /// `x_validation(...)`, in source order.
    #[serde(with = "located_rules")]
    pub x_validations: Vec<Rule>,
    /// `at_most_one_of`, one entry per marker.
    pub at_most_one_of: Vec<Vec<String>>,
    /// `exactly_one_of`, one entry per marker.
    pub exactly_one_of: Vec<Vec<String>>,
    /// `at_least_one_of`, one entry per marker.
    pub at_least_one_of: Vec<Vec<String>>,
    /// `immutable`
    pub immutable: bool,
    /// `embedded_resource`
    pub embedded_resource: bool,
    /// `int_or_string`
    pub int_or_string: bool,
    /// `preserve_unknown_fields`
    pub preserve_unknown_fields: bool,
    /// `schemaless`
    pub schemaless: bool,
    /// `list_type`
    pub list_type: Option<ListType>,
    /// `list_map_keys`
    pub list_map_keys: Option<Vec<String>>,
    /// `map_type`
    pub map_type: Option<Topology>,
    /// `struct_type`
    pub struct_type: Option<Topology>,
    /// `optional`
    pub optional: bool,
    /// `required`
    pub required: bool,
    /// `nullable`
    pub nullable: bool,
    /// `default` / `default_json`
    pub default: Option<Value>,
    /// Where the `default` value is written, for errors about it; not part of the schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_loc: Option<Loc>,
    /// `example` / `example_json`
    pub example: Option<Value>,
    /// Where the `example` value is written, for errors about it; not part of the schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example_loc: Option<Loc>,
    /// `title`
    pub title: Option<String>,
    /// `description`: replaces the doc comment.
    pub description: Option<String>,
    /// `external_docs(url, description)`
    pub external_docs: Option<ExternalDocs>,
    /// `all_of(...)`, one branch per marker.
    pub all_of: Vec<super::Schema>,
    /// `any_of(...)`, one branch per marker.
    pub any_of: Vec<super::Schema>,
    /// `one_of(...)`, one branch per marker.
    pub one_of: Vec<super::Schema>,
    /// `not(...)`
    pub not: Option<Box<super::Schema>>,
    /// `accept_change`: the upgrade-safety rules (`kubegen diff`) whose breaking changes at
    /// this item are intended; they are reported as accepted and do not fail the check.
    pub accept_change: Vec<String>,
}

impl SchemaMarkers {
    /// True when these markers say not to look into the Rust type at all.
    pub fn stops_walk(&self) -> bool {
        self.schemaless
            || self.schema_type.is_some()
            || (self.preserve_unknown_fields && self.schema_type.as_deref() == Some("object"))
    }
}

/// [`SchemaMarkers`] allocated only once one is set, for fields and types: most have none and
/// the markers take over 500 bytes, so unset ones cost a pointer.
///
/// They read as `SchemaMarkers` (`field.markers.minimum`, through `Deref`) and allocate on the
/// first write through `DerefMut`. Their JSON form and their `Debug` output are those of
/// `SchemaMarkers`, and allocated markers with nothing set equal unset ones.
#[derive(Clone, Default)]
pub struct BoxedMarkers(Option<Box<SchemaMarkers>>);

/// What unset [`BoxedMarkers`] read as.
static UNSET: LazyLock<SchemaMarkers> = LazyLock::new(SchemaMarkers::default);

impl From<SchemaMarkers> for BoxedMarkers {
    /// Allocates only if a key is set.
    fn from(markers: SchemaMarkers) -> Self {
        BoxedMarkers((markers != *UNSET).then(|| Box::new(markers)))
    }
}

impl Deref for BoxedMarkers {
    type Target = SchemaMarkers;

    fn deref(&self) -> &SchemaMarkers {
        self.0.as_deref().unwrap_or(&UNSET)
    }
}

impl DerefMut for BoxedMarkers {
    fn deref_mut(&mut self) -> &mut SchemaMarkers {
        self.0.get_or_insert_default()
    }
}

impl PartialEq for BoxedMarkers {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl fmt::Debug for BoxedMarkers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

impl Serialize for BoxedMarkers {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for BoxedMarkers {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        SchemaMarkers::deserialize(deserializer).map(BoxedMarkers::from)
    }
}

/// One `x_validation(...)`: a CEL rule, serialized as an `x-kubernetes-validations` item.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct Rule {
    /// The CEL expression.
    pub rule: String,
    /// The message shown when the rule fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// A CEL expression computing the message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_expression: Option<String>,
    /// `FieldValueInvalid` (the apiserver's default), `FieldValueRequired`, `FieldValueForbidden`
    /// or `FieldValueDuplicate`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The field the failure is reported on, as a JSON path relative to the rule's node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_path: Option<String>,
    /// Where `field_path` is written, for errors about it; not part of the schema.
    #[serde(skip)]
    pub field_path_loc: Option<Loc>,
    /// Where the rule is written, for errors about it; not part of the schema.
    #[serde(skip)]
    pub loc: Option<Loc>,
    /// Whether the rule is evaluated when `oldSelf` is absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optional_old_self: Option<bool>,
}

impl Rule {
    /// A rule with a message.
    pub fn new(rule: impl Into<String>, message: impl Into<String>) -> Self {
        Rule {
            rule: rule.into(),
            message: Some(message.into()),
            ..Rule::default()
        }
    }
}

/// The markers' JSON form of their rules (what the derive embeds): each [`Rule`] with the
/// places its CRD form leaves out, so that errors found at run time (`crd()`, `check_crds`)
/// point at the rule as the CLI's do.
mod located_rules {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{Loc, Rule};

    #[derive(Serialize)]
    struct Placed<'a> {
        rule: &'a Rule,
        #[serde(skip_serializing_if = "unset")]
        loc: &'a Option<Loc>,
        #[serde(skip_serializing_if = "unset")]
        field_path_loc: &'a Option<Loc>,
    }

    fn unset(loc: &&Option<Loc>) -> bool {
        loc.is_none()
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Read {
        rule: Rule,
        #[serde(default)]
        loc: Option<Loc>,
        #[serde(default)]
        field_path_loc: Option<Loc>,
    }

    pub fn serialize<S: Serializer>(rules: &[Rule], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(rules.iter().map(|rule| Placed {
            rule,
            loc: &rule.loc,
            field_path_loc: &rule.field_path_loc,
        }))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Rule>, D::Error> {
        let read = Vec::<Read>::deserialize(deserializer)?;
        Ok(read
            .into_iter()
            .map(|r| Rule {
                loc: r.loc,
                field_path_loc: r.field_path_loc,
                ..r.rule
            })
            .collect())
    }
}

/// `x-kubernetes-list-type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ListType {
    /// The list is replaced as a whole.
    Atomic,
    /// Scalar items, each unique.
    Set,
    /// Object items identified by `list_map_keys`.
    Map,
}

impl ListType {
    /// The value written in the schema.
    pub fn as_str(self) -> &'static str {
        match self {
            ListType::Atomic => "atomic",
            ListType::Set => "set",
            ListType::Map => "map",
        }
    }
}

/// `x-kubernetes-map-type`, set by `map_type` and `struct_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Topology {
    /// Replaced as a whole.
    Atomic,
    /// Merged key by key.
    Granular,
}

impl Topology {
    /// The value written in the schema.
    pub fn as_str(self) -> &'static str {
        match self {
            Topology::Atomic => "atomic",
            Topology::Granular => "granular",
        }
    }
}

/// `external_docs(url, description)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalDocs {
    /// The documentation's URL.
    pub url: String,
    /// A short description of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn some_keys() -> SchemaMarkers {
        SchemaMarkers {
            minimum: Some(1.0),
            pattern: Some("^[a-z]+$".into()),
            items: Some(Box::new(SchemaMarkers {
                max_length: Some(63),
                ..SchemaMarkers::default()
            })),
            x_validations: vec![Rule::new("self > 0", "positive")],
            default: Some(serde_json::json!({"a": [1, 2]})),
            ..SchemaMarkers::default()
        }
    }

    #[test]
    fn unset_markers_read_as_empty_without_allocating() {
        assert_eq!(size_of::<BoxedMarkers>(), size_of::<usize>());
        let unset = BoxedMarkers::default();
        assert!(unset.0.is_none());
        assert_eq!(*unset, SchemaMarkers::default());
        assert_eq!(unset.minimum, None);
        assert!(BoxedMarkers::from(SchemaMarkers::default()).0.is_none());
    }

    #[test]
    fn writing_a_key_allocates_the_markers() {
        // Unset, as `default()` is (clippy takes a write through `DerefMut` for a field's).
        let mut markers = BoxedMarkers(None);
        markers.minimum = Some(2.0);
        assert!(markers.0.is_some());
        assert_eq!(markers.minimum, Some(2.0));
        assert_eq!(
            *markers,
            SchemaMarkers {
                minimum: Some(2.0),
                ..SchemaMarkers::default()
            }
        );
        assert!(BoxedMarkers::from(some_keys()).0.is_some());
    }

    #[test]
    fn allocated_empty_markers_equal_unset_ones() {
        let mut written = BoxedMarkers(None);
        written.immutable = false;
        assert!(written.0.is_some());
        assert_eq!(written, BoxedMarkers::default());
        assert_eq!(written.clone(), BoxedMarkers::default());
        let keys = BoxedMarkers::from(some_keys());
        assert_ne!(keys, BoxedMarkers::default());
        assert_eq!(keys.clone(), keys);
        written.minimum = Some(1.0);
        assert_ne!(written, keys);
    }

    #[test]
    fn boxed_markers_have_the_json_and_debug_forms_of_schema_markers() {
        for markers in [SchemaMarkers::default(), some_keys()] {
            let json = serde_json::to_string(&markers).expect("serializes");
            let boxed = BoxedMarkers::from(markers.clone());
            assert_eq!(serde_json::to_string(&boxed).expect("serializes"), json);
            assert_eq!(format!("{boxed:?}"), format!("{markers:?}"));
            assert_eq!(format!("{boxed:#?}"), format!("{markers:#?}"));
            let back: BoxedMarkers = serde_json::from_str(&json).expect("deserializes");
            assert_eq!(*back, markers);
            assert_eq!(back.0.is_some(), markers != SchemaMarkers::default());
        }
        let unknown = serde_json::from_str::<BoxedMarkers>(r#"{"minimun": 1}"#);
        let expected = serde_json::from_str::<SchemaMarkers>(r#"{"minimun": 1}"#);
        assert_eq!(
            unknown.expect_err("an unknown key").to_string(),
            expected.expect_err("an unknown key").to_string()
        );
    }
}
