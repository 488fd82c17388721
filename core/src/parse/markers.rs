//! `#[kube_marker(...)]`: every attribute of an item parsed once, merged, and checked against
//! where it stands (spec struct, type, or field).

use std::collections::BTreeMap;

use darling::ast::NestedMeta;
use darling::util::SpannedValue;
use darling::{Error, FromMeta, Result};
use quote::ToTokens;
use syn::{Attribute, Meta};

use super::values::{Count, Json, JsonText, List, Num, OneOf, Word, did_you_mean};
use crate::model::{
    Deprecation, ExternalDocs, ListType, PrintColumn, ResourceMarkers, Rule, Scale, SchemaMarkers,
    Scope, Topology,
};

/// The attribute's name.
pub const ATTRIBUTE: &str = "kube_marker";

/// Where a `#[kube_marker]` stands; each place accepts its own keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A `#[derive(CustomResource)]` spec struct: resource keys and type keys.
    Spec,
    /// A type deriving `KubeSchema`.
    Type,
    /// A field.
    Field,
}

/// Keys only a spec struct takes.
const RESOURCE_KEYS: &[&str] = &[
    "group",
    "version",
    "kind",
    "plural",
    "singular",
    "scope",
    "namespaced",
    "short_names",
    "categories",
    "status",
    "scale",
    "printcolumn",
    "storage_version",
    "served",
    "skip_version",
    "deprecated",
    "selectable_field",
    "annotations",
    "labels",
    "doc",
    "derive",
];
/// Keys only a field takes.
const FIELD_KEYS: &[&str] = &["optional", "required"];
/// Keys only a type takes.
const TYPE_KEYS: &[&str] = &["at_most_one_of", "exactly_one_of", "at_least_one_of"];
/// Keys that may be given more than once, each adding an entry.
const REPEATABLE: &[&str] = &[
    "printcolumn",
    "selectable_field",
    "x_validation",
    "at_most_one_of",
    "exactly_one_of",
    "at_least_one_of",
];

/// Every key, as written in the attribute.
#[derive(Debug, Default, FromMeta)]
#[darling(default)]
struct Raw {
    group: Option<SpannedValue<String>>,
    version: Option<SpannedValue<String>>,
    kind: Option<SpannedValue<String>>,
    plural: Option<SpannedValue<String>>,
    singular: Option<SpannedValue<String>>,
    scope: Option<OneOf<Scope>>,
    namespaced: Option<bool>,
    short_names: Option<SpannedValue<List>>,
    categories: Option<SpannedValue<List>>,
    status: Option<SpannedValue<String>>,
    scale: Option<RawScale>,
    #[darling(multiple)]
    printcolumn: Vec<SpannedValue<RawPrintColumn>>,
    storage_version: Option<bool>,
    served: Option<bool>,
    skip_version: Option<bool>,
    deprecated: Option<RawDeprecated>,
    #[darling(multiple)]
    selectable_field: Vec<RawSelectable>,
    annotations: Option<SpannedValue<List>>,
    labels: Option<SpannedValue<List>>,
    doc: Option<String>,
    derive: Option<SpannedValue<List>>,

    minimum: Option<Num>,
    maximum: Option<Num>,
    exclusive_minimum: Option<bool>,
    exclusive_maximum: Option<bool>,
    multiple_of: Option<Num>,
    min_length: Option<Count>,
    max_length: Option<Count>,
    pattern: Option<SpannedValue<String>>,
    format: Option<String>,
    enum_values: Option<SpannedValue<Json>>,
    min_items: Option<Count>,
    max_items: Option<Count>,
    unique_items: Option<SpannedValue<bool>>,
    min_properties: Option<Count>,
    max_properties: Option<Count>,
    schema_type: Option<String>,
    items: Option<Box<Raw>>,
    #[darling(multiple)]
    x_validation: Vec<RawRule>,
    #[darling(multiple)]
    at_most_one_of: Vec<List>,
    #[darling(multiple)]
    exactly_one_of: Vec<List>,
    #[darling(multiple)]
    at_least_one_of: Vec<List>,
    immutable: Option<bool>,
    embedded_resource: Option<bool>,
    int_or_string: Option<bool>,
    preserve_unknown_fields: Option<bool>,
    schemaless: Option<bool>,
    list_type: Option<OneOf<ListType>>,
    list_map_keys: Option<List>,
    map_type: Option<OneOf<Topology>>,
    struct_type: Option<OneOf<Topology>>,
    optional: Option<bool>,
    required: Option<bool>,
    nullable: Option<bool>,
    default: Option<Json>,
    default_json: Option<JsonText>,
    example: Option<Json>,
    example_json: Option<JsonText>,
    title: Option<String>,
    description: Option<String>,
    external_docs: Option<SpannedValue<RawExternalDocs>>,
}

#[derive(Debug, FromMeta)]
struct RawScale {
    spec_path: String,
    status_path: String,
    selector_path: Option<String>,
}

#[derive(Debug, FromMeta)]
struct RawPrintColumn {
    name: String,
    #[darling(rename = "type")]
    type_keyword: Option<String>,
    #[darling(rename = "type_")]
    type_ident: Option<String>,
    json_path: String,
    description: Option<String>,
    format: Option<String>,
    priority: Option<i32>,
}

#[derive(Debug, FromMeta)]
struct RawSelectable {
    json_path: String,
}

#[derive(Debug, Default, FromMeta)]
#[darling(from_word = || Ok(Default::default()))]
struct RawDeprecated {
    warning: Option<String>,
}

#[derive(Debug, FromMeta)]
struct RawRule {
    rule: SpannedValue<String>,
    message: Option<String>,
    message_expression: Option<String>,
    reason: Option<OneOf<Reason>>,
    field_path: Option<String>,
    optional_old_self: Option<bool>,
}

#[derive(Debug, FromMeta)]
struct RawExternalDocs {
    url: String,
    description: Option<String>,
}

/// `x_validation(reason = ...)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reason(&'static str);

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

/// What the markers of one item say.
#[derive(Debug, Default)]
pub struct Markers {
    /// The schema keys.
    pub schema: SchemaMarkers,
    /// The resource keys (spec structs only).
    pub resource: ResourceMarkers,
}

/// Parses every `#[kube_marker(...)]` in `attrs` for an item at `place`, reporting all problems
/// together. `item` spans the item, for errors about missing keys.
pub fn parse<T: ToTokens>(attrs: &[Attribute], place: Place, item: &T) -> Result<Markers> {
    let (markers, errors) = parse_all(attrs, place, item);
    errors.finish_with(markers)
}

/// Like [`parse`], but keeps what parsed beside the problems, so later checks can still run on
/// the rest (a key given twice keeps its first value; an unknown key drops the attribute's keys).
pub fn parse_all<T: ToTokens>(
    attrs: &[Attribute],
    place: Place,
    item: &T,
) -> (Markers, darling::error::Accumulator) {
    let mut errors = Error::accumulator();
    let metas = collect(attrs, place, &mut errors);
    let raw = errors.handle(Raw::from_list(&metas)).unwrap_or_default();
    let mut markers = Markers {
        schema: errors.handle(schema_markers(&raw)).unwrap_or_default(),
        ..Markers::default()
    };
    if place == Place::Spec {
        markers.resource = errors
            .handle(resource_markers(&raw, item))
            .unwrap_or_default();
    }
    (markers, errors)
}

/// The nested metas of all the item's `#[kube_marker]`s, with keys checked against the place
/// and repeated keys merged (the same value twice is fine, two values are an error).
fn collect(
    attrs: &[Attribute],
    place: Place,
    errors: &mut darling::error::Accumulator,
) -> Vec<NestedMeta> {
    let mut seen: BTreeMap<String, NestedMeta> = BTreeMap::new();
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident(ATTRIBUTE)) {
        let list = match &attr.meta {
            Meta::List(list) => list,
            other => {
                errors.push(
                    Error::custom("expected `#[kube_marker(key = value, ...)]`").with_span(other),
                );
                continue;
            }
        };
        let Some(metas) =
            errors.handle(NestedMeta::parse_meta_list(list.tokens.clone()).map_err(Error::from))
        else {
            continue;
        };
        for meta in metas {
            let NestedMeta::Meta(m) = &meta else {
                errors.push(Error::custom("expected `key = value`").with_span(&meta));
                continue;
            };
            let key = m.path().to_token_stream().to_string();
            if let Some(problem) = misplaced(&key, place) {
                errors.push(Error::custom(problem).with_span(m.path()));
                continue;
            }
            if REPEATABLE.contains(&key.as_str()) {
                out.push(meta);
                continue;
            }
            match seen.get(&key) {
                Some(earlier) if same(earlier, &meta) => {}
                Some(_) => errors.push(
                    Error::custom(format!(
                        "`{key}` is given twice with different values; give it once"
                    ))
                    .with_span(&meta),
                ),
                None => {
                    seen.insert(key, meta.clone());
                    out.push(meta);
                }
            }
        }
    }
    out
}

fn same(a: &NestedMeta, b: &NestedMeta) -> bool {
    a.to_token_stream().to_string() == b.to_token_stream().to_string()
}

/// Why `key` cannot stand at `place`, if it cannot.
fn misplaced(key: &str, place: Place) -> Option<String> {
    if RESOURCE_KEYS.contains(&key) && place != Place::Spec {
        return Some(format!(
            "`{key}` describes a custom resource: it goes on the spec struct that derives \
             `CustomResource`"
        ));
    }
    if FIELD_KEYS.contains(&key) && place != Place::Field {
        return Some(format!("`{key}` goes on a field"));
    }
    if TYPE_KEYS.contains(&key) && place == Place::Field {
        return Some(format!(
            "`{key}` goes on the struct whose fields it names (on its type, not on this field)"
        ));
    }
    None
}

fn schema_markers(raw: &Raw) -> Result<SchemaMarkers> {
    let mut errors = Error::accumulator();
    if let Some(u) = &raw.unique_items {
        errors.push(
            Error::custom(
                "`unique_items` is not allowed: the apiserver rejects `uniqueItems: true` in CRD \
                 schemas; use `list_type = \"set\"` for lists of unique scalars",
            )
            .with_span(&u.span()),
        );
    }
    if let Some(p) = &raw.pattern
        && let Err(e) = regex_syntax::Parser::new().parse(p)
    {
        errors.push(
            Error::custom(format!("invalid regular expression in `pattern`: {e}"))
                .with_span(&p.span()),
        );
    }
    for (key, plain, json) in [
        ("default", &raw.default, &raw.default_json),
        ("example", &raw.example, &raw.example_json),
    ] {
        if plain.is_some() && json.is_some() {
            errors.push(Error::custom(format!(
                "give `{key}` or `{key}_json`, not both"
            )));
        }
    }
    if let Some(values) = &raw.enum_values
        && !values.0.is_array()
    {
        errors.push(
            Error::custom("`enum_values` takes a list: `[\"a\", \"b\"]`").with_span(&values.span()),
        );
    }
    let mut rules = Vec::new();
    for r in &raw.x_validation {
        if let Some(e) = crate::check::cel::syntax_error(&r.rule) {
            errors.push(Error::custom(e).with_span(&r.rule.span()));
        }
        rules.push(Rule {
            rule: r.rule.to_string(),
            message: r.message.clone(),
            message_expression: r.message_expression.clone(),
            reason: r.reason.map(|r| r.0.0.to_string()),
            field_path: r.field_path.clone(),
            optional_old_self: r.optional_old_self,
        });
    }
    if let Some(docs) = &raw.external_docs
        && !is_request_uri(&docs.url)
    {
        errors.push(
            Error::custom(format!(
                "`external_docs` url `{}` is not an absolute URL",
                docs.url
            ))
            .with_span(&docs.span()),
        );
    }
    let items = match &raw.items {
        Some(items) => errors.handle(schema_markers(items)).map(Box::new),
        None => None,
    };
    let flag = |f: Option<bool>| f.unwrap_or(false);
    let markers = SchemaMarkers {
        minimum: raw.minimum.map(|n| n.0),
        maximum: raw.maximum.map(|n| n.0),
        exclusive_minimum: flag(raw.exclusive_minimum),
        exclusive_maximum: flag(raw.exclusive_maximum),
        multiple_of: raw.multiple_of.map(|n| n.0),
        min_length: raw.min_length.map(|n| n.0),
        max_length: raw.max_length.map(|n| n.0),
        pattern: raw.pattern.as_ref().map(|p| p.to_string()),
        format: raw.format.clone(),
        enum_values: raw
            .enum_values
            .as_ref()
            .and_then(|v| v.0.as_array().cloned()),
        min_items: raw.min_items.map(|n| n.0),
        max_items: raw.max_items.map(|n| n.0),
        min_properties: raw.min_properties.map(|n| n.0),
        max_properties: raw.max_properties.map(|n| n.0),
        schema_type: raw.schema_type.clone(),
        items,
        x_validations: rules,
        at_most_one_of: raw.at_most_one_of.iter().map(|l| l.0.clone()).collect(),
        exactly_one_of: raw.exactly_one_of.iter().map(|l| l.0.clone()).collect(),
        at_least_one_of: raw.at_least_one_of.iter().map(|l| l.0.clone()).collect(),
        immutable: flag(raw.immutable),
        embedded_resource: flag(raw.embedded_resource),
        int_or_string: flag(raw.int_or_string),
        preserve_unknown_fields: flag(raw.preserve_unknown_fields),
        schemaless: flag(raw.schemaless),
        list_type: raw.list_type.map(|t| t.0),
        list_map_keys: raw.list_map_keys.as_ref().map(|l| l.0.clone()),
        map_type: raw.map_type.map(|t| t.0),
        struct_type: raw.struct_type.map(|t| t.0),
        optional: flag(raw.optional),
        required: flag(raw.required),
        nullable: flag(raw.nullable),
        default: raw
            .default
            .as_ref()
            .map(|j| j.0.clone())
            .or_else(|| raw.default_json.as_ref().map(|j| j.0.clone())),
        example: raw
            .example
            .as_ref()
            .map(|j| j.0.clone())
            .or_else(|| raw.example_json.as_ref().map(|j| j.0.clone())),
        title: raw.title.clone(),
        description: raw.description.clone(),
        external_docs: raw.external_docs.as_ref().map(|d| ExternalDocs {
            url: d.url.clone(),
            description: d.description.clone(),
        }),
    };
    errors.finish_with(markers)
}

/// Go's `url.ParseRequestURI` accepts an absolute URL or an absolute path.
fn is_request_uri(url: &str) -> bool {
    if url.starts_with('/') {
        return true;
    }
    match url.split_once(':') {
        Some((scheme, rest)) => {
            !rest.is_empty()
                && scheme
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        }
        None => false,
    }
}

fn resource_markers<T: ToTokens>(raw: &Raw, item: &T) -> Result<ResourceMarkers> {
    let mut errors = Error::accumulator();
    let mut required = |key: &str, value: &Option<SpannedValue<String>>| match value {
        Some(v) => v.to_string(),
        None => {
            errors.push(
                Error::custom(format!(
                    "missing `{key}`: a custom resource needs `#[kube_marker(group = \"...\", \
                     version = \"...\", kind = \"...\")]`"
                ))
                .with_span(item),
            );
            String::new()
        }
    };
    let group = required("group", &raw.group);
    let version = required("version", &raw.version);
    let kind = required("kind", &raw.kind);
    check_name(
        &mut errors,
        "group",
        raw.group.as_ref(),
        is_dns_subdomain,
        "a lowercase DNS subdomain such as `cache.example.com`",
    );
    check_name(
        &mut errors,
        "version",
        raw.version.as_ref(),
        is_version,
        "a lowercase DNS label starting with a letter, such as `v1alpha1`",
    );
    check_name(
        &mut errors,
        "kind",
        raw.kind.as_ref(),
        is_kind,
        "a CamelCase name such as `Memcached`",
    );
    check_name(
        &mut errors,
        "plural",
        raw.plural.as_ref(),
        is_dns_label,
        "a lowercase DNS label",
    );
    check_name(
        &mut errors,
        "singular",
        raw.singular.as_ref(),
        is_dns_label,
        "a lowercase DNS label",
    );
    for (key, list) in [
        ("short_names", &raw.short_names),
        ("categories", &raw.categories),
    ] {
        if let Some(list) = list {
            for name in &list.0 {
                if !is_dns_label(name) {
                    errors.push(
                        Error::custom(format!(
                            "`{key}` entry `{name}` must be a lowercase DNS label"
                        ))
                        .with_span(&list.span()),
                    );
                }
            }
        }
    }
    let scope = match (raw.scope, raw.namespaced) {
        (Some(s), None) => Some(s.0),
        (None, Some(true)) => Some(Scope::Namespaced),
        (None, Some(false)) => Some(Scope::Cluster),
        (Some(s), Some(n)) if (s.0 == Scope::Namespaced) == n => Some(s.0),
        (Some(_), Some(_)) => {
            errors.push(Error::custom("`scope` and `namespaced` disagree").with_span(item));
            None
        }
        (None, None) => None,
    };
    if let Some(status) = &raw.status
        && syn::parse_str::<syn::Type>(status).is_err()
    {
        errors.push(
            Error::custom(format!(
                "`status = \"{}\"` is not a type path",
                status.as_str()
            ))
            .with_span(&status.span()),
        );
    }
    let mut printcolumns = Vec::new();
    for pc in &raw.printcolumn {
        let type_ = match (&pc.type_keyword, &pc.type_ident) {
            (Some(t), None) | (None, Some(t)) => Some(t.clone()),
            (None, None) => None,
            (Some(_), Some(_)) => {
                errors
                    .push(Error::custom("give a printcolumn's `type` once").with_span(&pc.span()));
                None
            }
        };
        const COLUMN_TYPES: [&str; 5] = ["integer", "number", "string", "boolean", "date"];
        if let Some(type_) = &type_
            && !COLUMN_TYPES.contains(&type_.as_str())
        {
            errors.push(
                Error::custom(format!(
                    "printcolumn type `{type_}` is not one of {}{}",
                    COLUMN_TYPES.join(", "),
                    did_you_mean(type_, &COLUMN_TYPES)
                ))
                .with_span(&pc.span()),
            );
        }
        if pc.priority.is_some_and(|p| p < 0) {
            errors.push(
                Error::custom("printcolumn priority must be 0 or more").with_span(&pc.span()),
            );
        }
        printcolumns.push(PrintColumn {
            name: pc.name.clone(),
            type_,
            json_path: pc.json_path.clone(),
            description: pc.description.clone(),
            format: pc.format.clone(),
            priority: pc.priority,
        });
    }
    let mut pairs = |key: &str, list: &Option<SpannedValue<List>>| {
        list.as_ref().map(|list| {
            list.0
                .iter()
                .filter_map(|kv| match kv.split_once('=') {
                    Some((k, v)) => Some((k.to_string(), v.to_string())),
                    None => {
                        errors.push(
                            Error::custom(format!(
                                "`{key}` entry `{kv}` is not in `key=value` form"
                            ))
                            .with_span(&list.span()),
                        );
                        None
                    }
                })
                .collect()
        })
    };
    let annotations = pairs("annotations", &raw.annotations);
    let labels = pairs("labels", &raw.labels);
    let derive = raw.derive.as_ref().map(|d| d.0.clone()).unwrap_or_default();
    if let Some(d) = &raw.derive {
        for path in &d.0 {
            if syn::parse_str::<syn::Path>(path).is_err() {
                errors.push(
                    Error::custom(format!("`derive` entry `{path}` is not a trait path"))
                        .with_span(&d.span()),
                );
            }
        }
    }
    let markers = ResourceMarkers {
        group,
        version,
        kind,
        plural: raw.plural.as_ref().map(|s| s.to_string()),
        singular: raw.singular.as_ref().map(|s| s.to_string()),
        scope,
        short_names: raw.short_names.as_ref().map(|l| l.0.clone()),
        categories: raw.categories.as_ref().map(|l| l.0.clone()),
        status: raw.status.as_ref().map(|s| s.to_string()),
        scale: raw.scale.as_ref().map(|s| Scale {
            spec_path: s.spec_path.clone(),
            status_path: s.status_path.clone(),
            selector_path: s.selector_path.clone(),
        }),
        printcolumns,
        storage_version: raw.storage_version.unwrap_or(false),
        served: raw.served,
        skip_version: raw.skip_version.unwrap_or(false),
        deprecated: raw.deprecated.as_ref().map(|d| Deprecation {
            warning: d.warning.clone(),
        }),
        selectable_fields: raw
            .selectable_field
            .iter()
            .map(|s| s.json_path.clone())
            .collect(),
        annotations,
        labels,
        doc: raw.doc.clone(),
        derive,
        loc: None,
    };
    errors.finish_with(markers)
}

fn check_name(
    errors: &mut darling::error::Accumulator,
    key: &str,
    value: Option<&SpannedValue<String>>,
    ok: fn(&str) -> bool,
    wants: &str,
) {
    if let Some(v) = value
        && !ok(v)
    {
        errors.push(
            Error::custom(format!("`{key} = \"{}\"` must be {wants}", v.as_str()))
                .with_span(&v.span()),
        );
    }
}

/// RFC 1123 label: lowercase alphanumerics and `-`, 1–63 characters, alphanumeric at both ends.
pub fn is_dns_label(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// RFC 1123 subdomain: dot-separated labels, at most 253 characters.
pub fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(is_dns_label)
}

fn is_version(s: &str) -> bool {
    is_dns_label(s) && s.starts_with(|c: char| c.is_ascii_lowercase())
}

fn is_kind(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase()) && s.chars().all(|c| c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn attrs(src: &str) -> Vec<Attribute> {
        let item: syn::ItemStruct = syn::parse_str(&format!("{src} struct S;")).unwrap();
        item.attrs
    }

    fn parse_at(src: &str, place: Place) -> Result<Markers> {
        parse(&attrs(src), place, &quote::quote!(S))
    }

    #[test]
    fn repeated_attributes_merge() {
        let m = parse_at(
            "#[kube_marker(minimum = 1)] #[kube_marker(maximum = 5, minimum = 1)]",
            Place::Field,
        )
        .unwrap();
        assert_eq!(m.schema.minimum, Some(1.0));
        assert_eq!(m.schema.maximum, Some(5.0));
    }

    #[test]
    fn conflicting_values_are_an_error() {
        let e = parse_at(
            "#[kube_marker(minimum = 1)] #[kube_marker(minimum = 2)]",
            Place::Field,
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("given twice with different values"),
            "{e}"
        );
    }

    #[test]
    fn unknown_keys_get_a_suggestion() {
        let e = parse_at("#[kube_marker(min_lenght = 1)]", Place::Field).unwrap_err();
        assert!(e.to_string().contains("min_length"), "{e}");
    }

    #[test]
    fn keys_must_stand_in_their_place() {
        let e = parse_at("#[kube_marker(group = \"a.b\")]", Place::Field).unwrap_err();
        assert!(e.to_string().contains("spec struct"), "{e}");
        let e = parse_at("#[kube_marker(optional)]", Place::Type).unwrap_err();
        assert!(e.to_string().contains("goes on a field"), "{e}");
    }

    #[test]
    fn resource_keys_parse_and_validate() {
        let m = parse_at(
            r#"#[kube_marker(group = "cache.example.com", version = "v1alpha1", kind = "Memcached",
                short_names = "mc", categories = ["all"], status = "MemcachedStatus",
                printcolumn(name = "Size", type = "integer", json_path = ".spec.size"),
                printcolumn(name = "Age", type_ = "date", json_path = ".metadata.creationTimestamp"),
                scale(spec_path = ".spec.size", status_path = ".status.replicas"),
                deprecated, annotations = "a=b;c=d", namespaced)]"#,
            Place::Spec,
        )
        .unwrap();
        let r = m.resource;
        assert_eq!(r.kind, "Memcached");
        assert_eq!(r.short_names, Some(vec!["mc".to_string()]));
        assert_eq!(r.printcolumns.len(), 2);
        assert_eq!(r.printcolumns[1].type_.as_deref(), Some("date"));
        assert_eq!(r.deprecated, Some(Deprecation { warning: None }));
        assert_eq!(
            r.annotations.unwrap()[1],
            ("c".to_string(), "d".to_string())
        );
        assert_eq!(r.scope, Some(Scope::Namespaced));
        let e = parse_at(
            r#"#[kube_marker(group = "Bad_Group", version = "1", kind = "x")]"#,
            Place::Spec,
        )
        .unwrap_err();
        assert_eq!(e.len(), 3, "{e}");
        let e = parse_at(r#"#[kube_marker(group = "a.b")]"#, Place::Spec).unwrap_err();
        assert!(e.to_string().contains("missing `version`"), "{e}");
    }

    #[test]
    fn schema_values() {
        let m = parse_at(
            r#"#[kube_marker(default = ["a", "b"], pattern = r"^\d+$", enum_values = [1, "x"],
                list_type = "map", list_map_keys = "name;port",
                x_validation(rule = "self.a > 0", message = "a must be positive", reason = "FieldValueForbidden"),
                items(max_length = 3))]"#,
            Place::Field,
        )
        .unwrap()
        .schema;
        assert_eq!(m.default, Some(json!(["a", "b"])));
        assert_eq!(m.pattern.as_deref(), Some(r"^\d+$"));
        assert_eq!(m.enum_values, Some(vec![json!(1), json!("x")]));
        assert_eq!(m.list_map_keys, Some(vec!["name".into(), "port".into()]));
        assert_eq!(
            m.x_validations[0].reason.as_deref(),
            Some("FieldValueForbidden")
        );
        assert_eq!(m.items.unwrap().max_length, Some(3));
    }

    #[cfg(feature = "cel")]
    #[test]
    fn bad_cel_is_an_error() {
        let e = parse_at(
            "#[kube_marker(x_validation(rule = \"self.a >\"))]",
            Place::Field,
        )
        .unwrap_err();
        assert!(e.to_string().contains("invalid CEL rule"), "{e}");
    }

    #[test]
    fn bad_values_are_errors() {
        for (src, expect) in [
            ("#[kube_marker(unique_items)]", "list_type = \"set\""),
            (
                "#[kube_marker(pattern = \"a(\")]",
                "invalid regular expression",
            ),
            ("#[kube_marker(list_type = \"sett\")]", "Did you mean `set`"),
            ("#[kube_marker(max_length = \"4\")]", "without quotes"),
            ("#[kube_marker(default_json = \"{\")]", "not valid JSON"),
        ] {
            let e = parse_at(src, Place::Field).unwrap_err();
            assert!(e.to_string().contains(expect), "{src}: {e}");
        }
    }
}
