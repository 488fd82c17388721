//! Schema keys: from the attribute's grammar to [`SchemaMarkers`], with the checks that need
//! no type (Go's regexp syntax, CEL syntax, JSON values, URLs).

use darling::error::Accumulator;
use darling::util::SpannedValue;
use darling::{Error, Result};
use proc_macro2::Span;

use super::raw::{Raw, RawBranch};
use crate::model::{ExternalDocs, Loc, Rule, Schema, SchemaMarkers};
use crate::parse::values::Json;

/// The schema keys of `raw`; `loc` places the values the engine's errors point at (`field_path`,
/// `default`, `example`).
pub(super) fn schema_markers(
    raw: &Raw,
    loc: &dyn Fn(Span) -> Option<Loc>,
) -> Result<SchemaMarkers> {
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
    check_pattern(raw.pattern.as_ref(), &mut errors);
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
    check_enum_values(raw.enum_values.as_ref(), &mut errors);
    for name in raw.accept_change.iter().flat_map(|l| &l.0) {
        if !crate::diff::RULES.contains(&name.as_str()) {
            let span = raw.accept_change.as_ref().map(|l| l.span());
            let near = crate::parse::values::did_you_mean(name, crate::diff::RULES);
            errors.push(
                Error::custom(format!(
                    "`accept_change`: no upgrade-safety rule is named `{name}`{near}"
                ))
                .with_span(&span.unwrap_or_else(proc_macro2::Span::call_site)),
            );
        }
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
            field_path: r.field_path.as_ref().map(|p| p.to_string()),
            field_path_loc: r.field_path.as_ref().and_then(|p| loc(p.span())),
            loc: loc(r.rule.span()),
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
    let branches = |list: &[SpannedValue<RawBranch>], errors: &mut Accumulator| {
        list.iter().map(|b| branch(b, false, errors)).collect()
    };
    let all_of = branches(&raw.all_of, &mut errors);
    let any_of = branches(&raw.any_of, &mut errors);
    let one_of = branches(&raw.one_of, &mut errors);
    let not = raw
        .not
        .as_ref()
        .map(|b| Box::new(branch(b, false, &mut errors)));
    let items = match &raw.items {
        Some(items) => errors.handle(schema_markers(items, loc)).map(Box::new),
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
        default_loc: (raw.default.as_ref().map(|j| j.span()))
            .or_else(|| raw.default_json.as_ref().map(|j| j.span()))
            .and_then(loc),
        example: raw
            .example
            .as_ref()
            .map(|j| j.0.clone())
            .or_else(|| raw.example_json.as_ref().map(|j| j.0.clone())),
        example_loc: (raw.example.as_ref().map(|j| j.span()))
            .or_else(|| raw.example_json.as_ref().map(|j| j.span()))
            .and_then(loc),
        title: raw.title.clone(),
        description: raw.description.clone(),
        external_docs: raw.external_docs.as_ref().map(|d| ExternalDocs {
            url: d.url.clone(),
            description: d.description.clone(),
        }),
        all_of,
        any_of,
        one_of,
        not,
        accept_change: raw
            .accept_change
            .as_ref()
            .map(|l| l.0.clone())
            .unwrap_or_default(),
    };
    errors.finish_with(markers)
}

/// The schema of a junctor's branch (`property` for one of its `property(...)`, which names
/// the property), with the checks that need no type.
fn branch(raw: &RawBranch, property: bool, errors: &mut Accumulator) -> Schema {
    if property != raw.name.is_some() {
        let message = if property {
            "`property(...)` needs the property's `name = \"...\"` (its JSON name)"
        } else {
            "`name` goes in a `property(...)` of a branch"
        };
        let span = raw.name.as_ref().map_or_else(Span::call_site, |n| n.span());
        errors.push(Error::custom(message).with_span(&span));
    }
    check_pattern(raw.pattern.as_ref(), errors);
    check_enum_values(raw.enum_values.as_ref(), errors);
    let nested = |list: &[SpannedValue<RawBranch>], errors: &mut Accumulator| {
        list.iter().map(|b| branch(b, false, errors)).collect()
    };
    let mut properties = std::collections::BTreeMap::new();
    for p in &raw.property {
        let schema = branch(p, true, errors);
        let name = p.name.as_ref().map(|n| n.to_string()).unwrap_or_default();
        if properties.insert(name.clone(), schema).is_some() {
            errors.push(
                Error::custom(format!("`property(name = \"{name}\")` is given twice"))
                    .with_span(&p.span()),
            );
        }
    }
    Schema {
        minimum: raw.minimum.map(|n| n.0),
        maximum: raw.maximum.map(|n| n.0),
        exclusive_minimum: raw.exclusive_minimum.unwrap_or(false),
        exclusive_maximum: raw.exclusive_maximum.unwrap_or(false),
        multiple_of: raw.multiple_of.map(|n| n.0),
        min_length: raw.min_length.map(|n| n.0),
        max_length: raw.max_length.map(|n| n.0),
        pattern: raw.pattern.as_ref().map(|p| p.to_string()),
        format: raw.format.clone(),
        enum_: (raw.enum_values.as_ref()).and_then(|v| v.0.as_array().cloned()),
        min_items: raw.min_items.map(|n| n.0),
        max_items: raw.max_items.map(|n| n.0),
        min_properties: raw.min_properties.map(|n| n.0),
        max_properties: raw.max_properties.map(|n| n.0),
        required: raw
            .required
            .as_ref()
            .map(|l| l.0.clone())
            .unwrap_or_default(),
        properties,
        items: (raw.items.as_ref()).map(|i| Box::new(branch(i, false, errors))),
        all_of: nested(&raw.all_of, errors),
        any_of: nested(&raw.any_of, errors),
        one_of: nested(&raw.one_of, errors),
        not: (raw.not.as_ref()).map(|b| Box::new(branch(b, false, errors))),
        ..Schema::default()
    }
}

/// `pattern` must compile as the API server compiles it.
fn check_pattern(p: Option<&SpannedValue<String>>, errors: &mut Accumulator) {
    if let Some(p) = p
        && let Err(e) = crate::check::re2::compile(p)
    {
        errors.push(
            Error::custom(format!(
                "invalid regular expression in `pattern` (the apiserver compiles it with Go's \
                 regexp, RE2 syntax): {}: `{}`",
                e.code, e.expr
            ))
            .with_span(&p.span()),
        );
    }
}

/// `enum_values` is a list.
fn check_enum_values(values: Option<&SpannedValue<Json>>, errors: &mut Accumulator) {
    if let Some(values) = values
        && !values.0.is_array()
    {
        errors.push(
            Error::custom("`enum_values` takes a list: `[\"a\", \"b\"]`").with_span(&values.span()),
        );
    }
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
