//! The attribute's grammar: a field for every key of the marker registry (its resource and
//! schema keys; a test checks they agree), its value form, and the closed sets of words.

use darling::FromMeta;
use darling::util::SpannedValue;

use crate::model::{ListType, Scope, Topology};
use crate::parse::values::{Count, Json, JsonText, List, Num, OneOf, Word};

/// Every key, as written in the attribute.
#[derive(Debug, Default, FromMeta)]
#[darling(default)]
pub(super) struct Raw {
    pub(super) group: Option<SpannedValue<String>>,
    pub(super) version: Option<SpannedValue<String>>,
    pub(super) kind: Option<SpannedValue<String>>,
    pub(super) plural: Option<SpannedValue<String>>,
    pub(super) singular: Option<SpannedValue<String>>,
    pub(super) scope: Option<OneOf<Scope>>,
    pub(super) namespaced: Option<bool>,
    pub(super) short_names: Option<SpannedValue<List>>,
    pub(super) categories: Option<SpannedValue<List>>,
    pub(super) status: Option<SpannedValue<String>>,
    pub(super) status_subresource: Option<bool>,
    pub(super) scale: Option<SpannedValue<RawScale>>,
    #[darling(multiple)]
    pub(super) printcolumn: Vec<SpannedValue<RawPrintColumn>>,
    pub(super) storage_version: Option<bool>,
    pub(super) served: Option<bool>,
    pub(super) skip_version: Option<bool>,
    pub(super) deprecated: Option<RawDeprecated>,
    #[darling(multiple)]
    pub(super) selectable_field: Vec<SpannedValue<RawSelectable>>,
    pub(super) annotations: Option<SpannedValue<List>>,
    pub(super) labels: Option<SpannedValue<List>>,
    pub(super) doc: Option<String>,
    pub(super) derive: Option<SpannedValue<List>>,
    pub(super) conversion: Option<SpannedValue<RawConversion>>,

    pub(super) minimum: Option<Num>,
    pub(super) maximum: Option<Num>,
    pub(super) exclusive_minimum: Option<bool>,
    pub(super) exclusive_maximum: Option<bool>,
    pub(super) multiple_of: Option<Num>,
    pub(super) min_length: Option<Count>,
    pub(super) max_length: Option<Count>,
    pub(super) pattern: Option<SpannedValue<String>>,
    pub(super) format: Option<String>,
    pub(super) enum_values: Option<SpannedValue<Json>>,
    pub(super) min_items: Option<Count>,
    pub(super) max_items: Option<Count>,
    pub(super) unique_items: Option<SpannedValue<bool>>,
    pub(super) min_properties: Option<Count>,
    pub(super) max_properties: Option<Count>,
    pub(super) schema_type: Option<String>,
    pub(super) items: Option<Box<Raw>>,
    #[darling(multiple)]
    pub(super) x_validation: Vec<RawRule>,
    #[darling(multiple)]
    pub(super) at_most_one_of: Vec<List>,
    #[darling(multiple)]
    pub(super) exactly_one_of: Vec<List>,
    #[darling(multiple)]
    pub(super) at_least_one_of: Vec<List>,
    pub(super) immutable: Option<bool>,
    pub(super) embedded_resource: Option<bool>,
    pub(super) int_or_string: Option<bool>,
    pub(super) preserve_unknown_fields: Option<bool>,
    pub(super) schemaless: Option<bool>,
    pub(super) list_type: Option<OneOf<ListType>>,
    pub(super) list_map_keys: Option<List>,
    pub(super) map_type: Option<OneOf<Topology>>,
    pub(super) struct_type: Option<OneOf<Topology>>,
    pub(super) optional: Option<bool>,
    pub(super) required: Option<bool>,
    pub(super) nullable: Option<bool>,
    pub(super) default: Option<SpannedValue<Json>>,
    pub(super) default_json: Option<SpannedValue<JsonText>>,
    pub(super) example: Option<SpannedValue<Json>>,
    pub(super) example_json: Option<SpannedValue<JsonText>>,
    pub(super) title: Option<String>,
    pub(super) description: Option<String>,
    pub(super) external_docs: Option<SpannedValue<RawExternalDocs>>,
    #[darling(multiple)]
    pub(super) all_of: Vec<SpannedValue<RawBranch>>,
    #[darling(multiple)]
    pub(super) any_of: Vec<SpannedValue<RawBranch>>,
    #[darling(multiple)]
    pub(super) one_of: Vec<SpannedValue<RawBranch>>,
    pub(super) not: Option<SpannedValue<Box<RawBranch>>>,
    pub(super) accept_change: Option<SpannedValue<List>>,
    #[darling(rename = "crate")]
    pub(super) crate_path: Option<SpannedValue<String>>,
}

/// A branch of `all_of`, `any_of`, `one_of` or `not`: value validations only, as a structural
/// schema allows there, with the properties and items they constrain.
#[derive(Debug, Default, FromMeta)]
#[darling(default)]
pub(super) struct RawBranch {
    /// The property's name (in `property(...)` only).
    pub(super) name: Option<SpannedValue<String>>,
    pub(super) minimum: Option<Num>,
    pub(super) maximum: Option<Num>,
    pub(super) exclusive_minimum: Option<bool>,
    pub(super) exclusive_maximum: Option<bool>,
    pub(super) multiple_of: Option<Num>,
    pub(super) min_length: Option<Count>,
    pub(super) max_length: Option<Count>,
    pub(super) pattern: Option<SpannedValue<String>>,
    pub(super) format: Option<String>,
    pub(super) enum_values: Option<SpannedValue<Json>>,
    pub(super) min_items: Option<Count>,
    pub(super) max_items: Option<Count>,
    pub(super) min_properties: Option<Count>,
    pub(super) max_properties: Option<Count>,
    /// The property names the branch requires.
    pub(super) required: Option<SpannedValue<List>>,
    #[darling(multiple)]
    pub(super) property: Vec<SpannedValue<RawBranch>>,
    pub(super) items: Option<SpannedValue<Box<RawBranch>>>,
    #[darling(multiple)]
    pub(super) all_of: Vec<SpannedValue<RawBranch>>,
    #[darling(multiple)]
    pub(super) any_of: Vec<SpannedValue<RawBranch>>,
    #[darling(multiple)]
    pub(super) one_of: Vec<SpannedValue<RawBranch>>,
    pub(super) not: Option<SpannedValue<Box<RawBranch>>>,
}

/// `conversion(webhook(...))`: the only strategy that needs a key (`None` is the default).
#[derive(Debug, FromMeta)]
pub(super) struct RawConversion {
    pub(super) webhook: RawConversionWebhook,
}

#[derive(Debug, FromMeta)]
pub(super) struct RawConversionWebhook {
    pub(super) path: Option<SpannedValue<String>>,
    pub(super) url: Option<SpannedValue<String>>,
    pub(super) service_name: Option<String>,
    pub(super) service_namespace: Option<String>,
    pub(super) service_port: Option<SpannedValue<Count>>,
    pub(super) review_versions: Option<SpannedValue<List>>,
}

#[derive(Debug, FromMeta)]
pub(super) struct RawScale {
    pub(super) spec_path: SpannedValue<String>,
    pub(super) status_path: SpannedValue<String>,
    pub(super) selector_path: Option<SpannedValue<String>>,
}

#[derive(Debug, FromMeta)]
pub(super) struct RawPrintColumn {
    pub(super) name: String,
    #[darling(rename = "type")]
    pub(super) type_keyword: Option<String>,
    #[darling(rename = "type_")]
    pub(super) type_ident: Option<String>,
    pub(super) json_path: SpannedValue<String>,
    pub(super) description: Option<String>,
    pub(super) format: Option<String>,
    pub(super) priority: Option<i32>,
}

#[derive(Debug, FromMeta)]
pub(super) struct RawSelectable {
    pub(super) json_path: SpannedValue<String>,
}

#[derive(Debug, Default, FromMeta)]
#[darling(from_word = || Ok(Default::default()))]
pub(super) struct RawDeprecated {
    pub(super) warning: Option<String>,
}

#[derive(Debug, FromMeta)]
pub(super) struct RawRule {
    pub(super) rule: SpannedValue<String>,
    pub(super) message: Option<String>,
    pub(super) message_expression: Option<String>,
    pub(super) reason: Option<OneOf<Reason>>,
    pub(super) field_path: Option<SpannedValue<String>>,
    pub(super) optional_old_self: Option<bool>,
}

#[derive(Debug, FromMeta)]
pub(super) struct RawExternalDocs {
    pub(super) url: String,
    pub(super) description: Option<String>,
}

/// `x_validation(reason = ...)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Reason(pub(super) &'static str);

impl Word for Reason {
    const WORDS: &'static [(&'static str, Self)] = &[
        ("FieldValueInvalid", Reason("FieldValueInvalid")),
        ("FieldValueRequired", Reason("FieldValueRequired")),
        ("FieldValueForbidden", Reason("FieldValueForbidden")),
        ("FieldValueDuplicate", Reason("FieldValueDuplicate")),
    ];
}

impl Word for Scope {
    const WORDS: &'static [(&'static str, Self)] = &[
        ("Namespaced", Scope::Namespaced),
        ("Cluster", Scope::Cluster),
    ];
}

impl Word for ListType {
    const WORDS: &'static [(&'static str, Self)] = &[
        ("atomic", ListType::Atomic),
        ("set", ListType::Set),
        ("map", ListType::Map),
    ];
}

impl Word for Topology {
    const WORDS: &'static [(&'static str, Self)] = &[
        ("atomic", Topology::Atomic),
        ("granular", Topology::Granular),
    ];
}
