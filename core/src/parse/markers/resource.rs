//! Resource keys: from the attribute's grammar to [`ResourceMarkers`], with the name rules
//! the apiserver enforces.

use darling::util::SpannedValue;
use darling::{Error, Result};
use quote::ToTokens;

use proc_macro2::Span;

use super::raw::{Raw, RawConversion, RawPrintColumn, RawScale, RawSelectable};
use crate::model::{
    Conversion, Deprecation, Loc, PrintColumn, ResourceMarkers, Scale, Scope, SelectableField,
};
use crate::names::{APPROVAL_ANNOTATION, approval_problem, is_dns1035_label, is_group, is_kind};
use crate::parse::values::{List, did_you_mean};

pub(super) fn resource_markers<T: ToTokens>(
    raw: &Raw,
    item: &T,
    loc: Locate,
) -> Result<ResourceMarkers> {
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
        is_group,
        "a lowercase DNS subdomain with at least one dot, such as `cache.example.com`",
    );
    check_name(
        &mut errors,
        "version",
        raw.version.as_ref(),
        is_dns1035_label,
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
        is_dns1035_label,
        "a lowercase DNS label starting with a letter",
    );
    check_name(
        &mut errors,
        "singular",
        raw.singular.as_ref(),
        is_dns1035_label,
        "a lowercase DNS label starting with a letter",
    );
    for (key, list) in [
        ("short_names", &raw.short_names),
        ("categories", &raw.categories),
    ] {
        if let Some(list) = list {
            for name in &list.0 {
                if !is_dns1035_label(name) {
                    errors.push(
                        Error::custom(format!(
                            "`{key}` entry `{name}` must be a lowercase DNS label starting \
                             with a letter"
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
        if pc.type_keyword.is_some() && pc.type_ident.is_some() {
            errors.push(Error::custom("give a printcolumn's `type` once").with_span(&pc.span()));
        }
        let column = column(pc, loc);
        const COLUMN_TYPES: [&str; 5] = ["integer", "number", "string", "boolean", "date"];
        if let Some(type_) = &column.type_
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
        printcolumns.push(column);
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
    let annotations: Option<Vec<(String, String)>> = pairs("annotations", &raw.annotations);
    let labels = pairs("labels", &raw.labels);
    // Each version carries the approval of a protected group (as Go's package marker does).
    let approval = annotations
        .iter()
        .flatten()
        .find(|(k, _)| k == APPROVAL_ANNOTATION)
        .map(|(_, v)| v.as_str());
    if let Some(problem) = approval_problem(&group, approval) {
        let error = Error::custom(problem);
        errors.push(match (approval, &raw.annotations, &raw.group) {
            (Some(_), Some(list), _) => error.with_span(&list.span()),
            (_, _, Some(g)) => error.with_span(&g.span()),
            _ => error.with_span(item),
        });
    }
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
    let conversion = raw.conversion.as_ref().map(|c| conversion(c, &mut errors));
    let markers = ResourceMarkers {
        group,
        version,
        kind,
        plural: raw.plural.as_ref().map(|s| s.to_string()),
        singular: raw.singular.as_ref().map(|s| s.to_string()),
        scope,
        short_names: raw.short_names.as_ref().map(|l| l.0.clone()),
        categories: raw.categories.as_ref().map(|l| l.0.clone()),
        spec_optional: raw.optional.unwrap_or(false),
        status: raw.status.as_ref().map(|s| s.to_string()),
        status_subresource: raw.status_subresource,
        scale: raw.scale.as_ref().map(|s| scale(s, loc)),
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
            .map(|f| selectable(f, loc))
            .collect(),
        annotations,
        labels,
        doc: raw.doc.clone(),
        derive,
        conversion,
        loc: None,
    };
    errors.finish_with(markers)
}

/// `conversion(webhook(...))`, with the same client rules as `#[webhook]`.
fn conversion(
    c: &SpannedValue<RawConversion>,
    errors: &mut darling::error::Accumulator,
) -> Conversion {
    let w = &c.webhook;
    let mut err =
        |span: Span, message: String| errors.push(Error::custom(message).with_span(&span));
    if let (Some(path), Some(_)) = (&w.path, &w.url) {
        err(path.span(), "`path` and `url` cannot both be given: `path` is on the webhook service, `url` replaces the service".into());
    }
    if let Some(path) = &w.path
        && !path.starts_with('/')
    {
        err(
            path.span(),
            format!("`path = \"{}\"` must start with `/`", path.as_str()),
        );
    }
    if let Some(url) = &w.url {
        if !url.starts_with("https://") {
            err(
                url.span(),
                format!("`url = \"{}\"` must be an `https://` URL", url.as_str()),
            );
        }
        if w.service_name.is_some() || w.service_namespace.is_some() || w.service_port.is_some() {
            err(url.span(), "`service_name`, `service_namespace` and `service_port` cannot be combined with `url`: the URL replaces the service".into());
        }
    }
    if let Some(port) = &w.service_port
        && !(1..=65535).contains(&port.0)
    {
        err(
            port.span(),
            format!(
                "`service_port = {}` is not a port: it must be between 1 and 65535",
                port.0
            ),
        );
    }
    let review_versions = match &w.review_versions {
        Some(list) if list.0.is_empty() || list.0.iter().any(String::is_empty) => {
            err(list.span(), "`review_versions` must list at least one ConversionReview version, such as `\"v1\"`".into());
            list.0.clone()
        }
        Some(list) => list.0.clone(),
        None => vec!["v1".into()],
    };
    Conversion {
        path: w.path.as_ref().map(|p| p.to_string()),
        url: w.url.as_ref().map(|u| u.to_string()),
        service_name: w.service_name.clone(),
        service_namespace: w.service_namespace.clone(),
        service_port: w
            .service_port
            .as_ref()
            .map(|p| i32::try_from(p.0).unwrap_or(i32::MAX)),
        review_versions,
    }
}

/// Turns spans into source locations (or gives `None`).
type Locate<'a> = &'a dyn Fn(Span) -> Option<Loc>;

fn column(pc: &RawPrintColumn, loc: Locate) -> PrintColumn {
    PrintColumn {
        name: pc.name.clone(),
        type_: pc.type_keyword.clone().or_else(|| pc.type_ident.clone()),
        json_path: pc.json_path.to_string(),
        description: pc.description.clone(),
        format: pc.format.clone(),
        priority: pc.priority,
        loc: loc(pc.json_path.span()),
    }
}

fn scale(s: &RawScale, loc: Locate) -> Scale {
    Scale {
        spec_path: s.spec_path.to_string(),
        status_path: s.status_path.to_string(),
        selector_path: s.selector_path.as_ref().map(|p| p.to_string()),
        spec_path_loc: loc(s.spec_path.span()),
        status_path_loc: loc(s.status_path.span()),
        selector_path_loc: s.selector_path.as_ref().and_then(|p| loc(p.span())),
    }
}

fn selectable(f: &RawSelectable, loc: Locate) -> SelectableField {
    SelectableField {
        json_path: f.json_path.to_string(),
        loc: loc(f.json_path.span()),
    }
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
