//! Schema keys: from the attribute's grammar to [`SchemaMarkers`], with the checks that need
//! no type (Go's regexp syntax, CEL syntax, JSON values, URLs).

use darling::{Error, Result};
use proc_macro2::Span;

use super::raw::Raw;
use crate::model::{ExternalDocs, Loc, Rule, SchemaMarkers};

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
    if let Some(p) = &raw.pattern
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
        accept_change: raw
            .accept_change
            .as_ref()
            .map(|l| l.0.clone())
            .unwrap_or_default(),
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
