//! kubegen's verdict on a whole CustomResourceDefinition object: the engine's checks (names,
//! versions, printer columns, selectable fields, subresources, conversion, and every schema
//! rule: structural, list types, patterns, field paths, defaults, enums, bounds, CEL) applied to
//! the object itself rather than to markers. The differential corpus (`core/tests/crd/`)
//! compares it with a real API server's verdict on the same objects.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::bounds::contradictions;
use super::lists;
use super::paths;
use crate::model::{ListType, Schema, Topology};
use crate::names::{APPROVAL_ANNOTATION, approval_problem, is_dns1035_label, is_group, is_kind};

use super::{cel, field_path, re2, structural, value};

/// Every problem kubegen finds in `crd` (a `CustomResourceDefinition` as JSON), each as
/// `path: message`; empty when kubegen would write it.
pub fn problems(crd: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let spec = &crd["spec"];
    let names = &spec["names"];
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let (group, plural, kind) = (
        text(&spec["group"]),
        text(&names["plural"]),
        text(&names["kind"]),
    );
    let mut report = |at: &str, message: String| found.push(format!("{at}: {message}"));
    if !is_group(&group) {
        report(
            "spec.group",
            format!("`{group}` is not a DNS subdomain with a dot"),
        );
    }
    // Indexing a `serde_json::Value` by key never panics: a missing key reads as `null`.
    if crd["metadata"]["name"].as_str() != Some(&format!("{plural}.{group}")) {
        report("metadata.name", format!("must be `{plural}.{group}`"));
    }
    let approval = crd["metadata"]["annotations"][APPROVAL_ANNOTATION].as_str();
    if let Some(problem) = approval_problem(&group, approval) {
        report("metadata.annotations", problem);
    }
    for (key, required) in [("plural", true), ("singular", false)] {
        let name = text(&names[key]);
        if (required || !name.is_empty()) && !is_dns1035_label(&name) {
            report(
                &format!("spec.names.{key}"),
                format!("`{name}` is not an RFC 1035 label"),
            );
        }
    }
    for key in ["shortNames", "categories"] {
        for name in names[key].as_array().into_iter().flatten() {
            if !name.as_str().is_some_and(is_dns1035_label) {
                report(
                    &format!("spec.names.{key}"),
                    format!("{name} is not an RFC 1035 label"),
                );
            }
        }
    }
    if !is_kind(&kind) {
        report(
            "spec.names.kind",
            format!("`{kind}` is not a CamelCase name"),
        );
    }
    let list_kind = text(&names["listKind"]);
    if !list_kind.is_empty() && (!is_kind(&list_kind) || list_kind == kind) {
        report(
            "spec.names.listKind",
            format!("`{list_kind}` must be a CamelCase name other than the kind"),
        );
    }
    if !matches!(spec["scope"].as_str(), Some("Namespaced" | "Cluster")) {
        report("spec.scope", "must be `Namespaced` or `Cluster`".into());
    }
    let versions = spec["versions"].as_array().cloned().unwrap_or_default();
    let storage = versions.iter().filter(|v| v["storage"] == true).count();
    if versions.is_empty() || storage != 1 {
        report(
            "spec.versions",
            format!("needs exactly one storage version, has {storage}"),
        );
    }
    let mut seen = Vec::new();
    for (i, version) in versions.iter().enumerate() {
        let name = text(&version["name"]);
        let at = format!("spec.versions[{i}]");
        if !is_dns1035_label(&name) || seen.contains(&name) {
            report(&at, format!("`{name}` is not a new RFC 1035 label"));
        }
        seen.push(name);
        for problem in version_problems(version) {
            report(&at, problem);
        }
    }
    for problem in conversion_problems(&spec["conversion"], versions.len()) {
        report("spec.conversion", problem);
    }
    found
}

/// A version's schema, printer columns, selectable fields and subresources.
fn version_problems(version: &Value) -> Vec<String> {
    // `Value` indexing by key: a missing key reads as `null`, it never panics.
    let mut raw = version["schema"]["openAPIV3Schema"].clone();
    let mut found = Vec::new();
    raw_problems(&mut raw, ".", &mut found);
    let schema: Schema = match serde_json::from_value(raw) {
        Ok(schema) => schema,
        Err(e) => return vec![format!("the schema is not a schema kubegen reads: {e}")],
    };
    found.extend(structural::violations(&schema));
    if let Some(metadata) = schema.properties.get("metadata") {
        for (name, prop) in &metadata.properties {
            if !matches!(name.as_str(), "name" | "generateName") || prop.type_str() != "string" {
                found.push(format!(
                    ".metadata.{name}: only `name` and `generateName` (strings) may be specified"
                ));
            }
        }
    }
    node_problems(&schema, ".", &mut found);
    let scope = cel::Scope {
        resource: true,
        lenient: false,
    };
    found.extend(
        cel::check(&schema, scope)
            .errors
            .iter()
            .map(ToString::to_string),
    );
    const COLUMN_TYPES: [&str; 5] = ["integer", "number", "string", "boolean", "date"];
    for column in version["additionalPrinterColumns"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let name = column["name"].as_str().unwrap_or_default();
        if name.is_empty() {
            found.push("a printer column needs a name".into());
        }
        if !column["type"]
            .as_str()
            .is_some_and(|t| COLUMN_TYPES.contains(&t))
        {
            found.push(format!(
                "printer column `{name}`: type {} is not one of {COLUMN_TYPES:?}",
                column["type"]
            ));
        }
        if column["priority"].as_i64().is_some_and(|p| p < 0) {
            found.push(format!(
                "printer column `{name}`: priority must be 0 or more"
            ));
        }
        let path = column["jsonPath"].as_str().unwrap_or_default();
        if let Err(e) = paths::resolve(&schema, path) {
            found.push(format!("printer column `{name}`: {e}"));
        }
    }
    for field in version["selectableFields"].as_array().into_iter().flatten() {
        let path = field["jsonPath"].as_str().unwrap_or_default();
        match paths::resolve(&schema, path) {
            _ if path.contains('[') || path.starts_with(".metadata") => {
                found.push(format!(
                    "selectable field `{path}`: no lists, nothing under metadata"
                ));
            }
            Ok(Some(node)) if matches!(node.type_str(), "string" | "integer" | "boolean") => {}
            Ok(_) => found.push(format!(
                "selectable field `{path}`: must be a string, integer or boolean"
            )),
            Err(e) => found.push(format!("selectable field `{path}`: {e}")),
        }
    }
    // `Value` indexing by key: a missing key reads as `null`, it never panics.
    let scale = &version["subresources"]["scale"];
    if let Some(path) = scale["labelSelectorPath"].as_str()
        && !path.starts_with(".spec.")
        && !path.starts_with(".status.")
    {
        found.push(format!(
            "scale labelSelectorPath `{path}` must be under `.spec.` or `.status.`"
        ));
    }
    for (key, under) in [
        ("specReplicasPath", ".spec."),
        ("statusReplicasPath", ".status."),
    ] {
        let Some(path) = scale[key].as_str() else {
            continue;
        };
        match paths::resolve(&schema, path) {
            _ if !path.starts_with(under) => {
                found.push(format!("scale {key} `{path}` must be under `{under}`"))
            }
            Ok(Some(node)) if node.type_str() == "integer" => {}
            Ok(_) => found.push(format!("scale {key} `{path}` must be an integer")),
            Err(e) => found.push(format!("scale {key}: {e}")),
        }
    }
    found
}

/// The string at `key` when it is none of `T`'s words, removed from `object`.
fn unknown_word<T: DeserializeOwned>(object: &mut Map<String, Value>, key: &str) -> Option<String> {
    let word = object.get(key)?.as_str()?.to_string();
    if serde_json::from_value::<T>(Value::from(word.as_str())).is_ok() {
        return None;
    }
    object.remove(key);
    Some(word)
}

/// What a schema's JSON shows before it is read as a [`Schema`]: JSON Schema keywords a CRD
/// schema may not use, and list and map types that are none of their words (each reported,
/// then removed, so that the rest of the schema is read and checked).
fn raw_problems(raw: &mut Value, at: &str, found: &mut Vec<String>) {
    const FORBIDDEN: [&str; 7] = [
        "$ref",
        "$schema",
        "id",
        "additionalItems",
        "patternProperties",
        "dependencies",
        "definitions",
    ];
    let Some(object) = raw.as_object_mut() else {
        return;
    };
    if let Some(word) = unknown_word::<ListType>(object, "x-kubernetes-list-type") {
        found.push(format!("{at}: unknown list type `{word}`"));
    }
    if let Some(word) = unknown_word::<Topology>(object, "x-kubernetes-map-type") {
        found.push(format!(
            "{at}: `x-kubernetes-map-type` is `atomic` or `granular`, not `{word}`"
        ));
    }
    for key in FORBIDDEN {
        if object.contains_key(key) {
            found.push(format!("{at}: `{key}` is not allowed in a CRD schema"));
        }
    }
    if object.get("uniqueItems") == Some(&Value::Bool(true)) {
        found.push(format!(
            "{at}: `uniqueItems: true` is not allowed (use `x-kubernetes-list-type: set`)"
        ));
    }
    for (key, child) in object {
        match key.as_str() {
            "properties" => {
                for (name, prop) in child.as_object_mut().into_iter().flatten() {
                    raw_problems(prop, &format!("{}.{name}", at.trim_end_matches('.')), found);
                }
            }
            "items" | "additionalProperties" | "not" => {
                raw_problems(child, &format!("{at}[*]"), found)
            }
            "allOf" | "anyOf" | "oneOf" => {
                for branch in child.as_array_mut().into_iter().flatten() {
                    raw_problems(branch, at, found);
                }
            }
            _ => {}
        }
    }
}

/// The rules of each node: list types, bounds, patterns, field paths, defaults and enums.
fn node_problems(node: &Schema, at: &str, found: &mut Vec<String>) {
    let mut report = |message: String| found.push(format!("{at}: {message}"));
    for problem in lists::problems(node) {
        report(problem.to_string());
    }
    for problem in contradictions(node) {
        report(problem);
    }
    if let Some(pattern) = &node.pattern
        && let Err(e) = re2::compile(pattern)
    {
        report(format!("pattern: {e}"));
    }
    for rule in &node.x_validations {
        if let Some(problem) = rule
            .field_path
            .as_deref()
            .and_then(|p| field_path::problem(p, node, false))
        {
            report(format!("fieldPath: {problem}"));
        }
        const REASONS: [&str; 4] = [
            "FieldValueInvalid",
            "FieldValueRequired",
            "FieldValueForbidden",
            "FieldValueDuplicate",
        ];
        if let Some(reason) = rule.reason.as_deref().filter(|r| !REASONS.contains(r)) {
            report(format!("reason `{reason}` is not one of {REASONS:?}"));
        }
        if rule
            .message
            .as_deref()
            .is_some_and(|m| m.contains(['\n', '\r']))
        {
            report("a rule's message has no line breaks".into());
        }
        if let Some(problem) = cel::syntax_error(&rule.rule) {
            report(problem);
        }
    }
    if let Some(default) = &node.default {
        let plain = Schema {
            default: None,
            ..node.clone()
        };
        if let Some(problem) = value::validate(&plain, default) {
            report(format!("default does not fit: {problem}"));
        }
    }
    for v in node.enum_.iter().flatten() {
        if node.type_.is_some()
            && !super::value::fits_type(v, node.type_str(), node.x_int_or_string)
        {
            report(format!("enum value {v} is not a {}", node.type_str()));
        }
    }
    let base = at.trim_end_matches('.');
    for (name, prop) in &node.properties {
        node_problems(prop, &format!("{base}.{name}"), found);
    }
    for child in node.items.iter().chain(&node.additional_properties) {
        node_problems(child, &format!("{base}[*]"), found);
    }
}

/// `spec.conversion`: `None`, or `Webhook` with a client config and review versions (and more
/// than one version to convert between).
fn conversion_problems(conversion: &Value, versions: usize) -> Vec<String> {
    let webhook = &conversion["webhook"];
    match conversion["strategy"].as_str() {
        None | Some("None") if webhook.is_null() => Vec::new(),
        None | Some("None") => vec!["`webhook` needs `strategy: Webhook`".into()],
        Some("Webhook") => {
            let mut found = Vec::new();
            let config = &webhook["clientConfig"];
            if config["url"].is_null() == config["service"].is_null() {
                found.push("the webhook needs exactly one of `url` and `service`".into());
            }
            if config["url"]
                .as_str()
                .is_some_and(|url| !url.starts_with("https://"))
            {
                found.push("the webhook's `url` must be `https://`".into());
            }
            if webhook["conversionReviewVersions"]
                .as_array()
                .is_none_or(Vec::is_empty)
            {
                found.push("the webhook needs `conversionReviewVersions`".into());
            }
            if versions < 2 {
                found.push("a single version has nothing to convert".into());
            }
            found
        }
        Some(other) => vec![format!("unknown strategy `{other}`")],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_list_and_map_types_are_reported_and_the_rest_is_still_read() {
        let crd = json!({
            "metadata": {"name": "widgets.example.com"},
            "spec": {
                "group": "example.com",
                "names": {"plural": "widgets", "kind": "Widget"},
                "scope": "Namespaced",
                "versions": [{"name": "v1", "served": true, "storage": true, "schema": {
                    "openAPIV3Schema": {"type": "object", "properties": {
                        "tags": {"type": "array", "items": {"type": "string"},
                                 "x-kubernetes-list-type": "bag"},
                        "labels": {"type": "object",
                                   "additionalProperties": {"type": "string"},
                                   "x-kubernetes-map-type": "bag"},
                        "ports": {"type": "array", "items": {"type": "string"},
                                  "x-kubernetes-list-type": "set"},
                        "size": {"type": "integer", "minimum": 5, "maximum": 1}
                    }}
                }}]
            }
        });
        assert_eq!(
            problems(&crd),
            [
                "spec.versions[0]: .labels: `x-kubernetes-map-type` is `atomic` or `granular`, not `bag`",
                "spec.versions[0]: .tags: unknown list type `bag`",
                "spec.versions[0]: .size: `maximum = 1` is below `minimum = 5`",
            ]
        );
    }
}
