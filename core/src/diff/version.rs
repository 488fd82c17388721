//! The per-property rules, run within each version both CRDs have and, as crdify's
//! served-version validator, between each pair of served versions.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{Change, Config, ConversionPolicy, Finding, SchemaPath, Segment, property};
use crate::names::kube_order;

/// One of a CRD's versions.
pub(super) struct Version<'a> {
    pub name: &'a str,
    pub served: bool,
    pub storage: bool,
    pub value: &'a Value,
}

/// The CRD's versions, in its order.
pub(super) fn versions(crd: &Value) -> Vec<Version<'_>> {
    // `Value` indexing by key: a missing key reads as `null`, it never panics.
    crd["spec"]["versions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| Version {
            name: v["name"].as_str().unwrap_or_default(),
            served: v["served"].as_bool().unwrap_or(false),
            storage: v["storage"].as_bool().unwrap_or(false),
            value: v,
        })
        .collect()
}

/// A version's root schema.
pub(super) fn version_schema(version: &Value) -> &Value {
    // `Value` indexing by key: a missing key reads as `null`, it never panics.
    &version["schema"]["openAPIV3Schema"]
}

/// Every node of a schema by path, each without its children.
pub(super) type Flat = BTreeMap<SchemaPath, Map<String, Value>>;

/// The keys that hold child schemas.
const CHILDREN: &[&str] = &[
    "properties",
    "items",
    "additionalProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
];

/// Every node of `schema` by path, as crdify flattens a version.
pub(super) fn flatten(schema: &Value) -> Flat {
    let mut flat = Flat::new();
    walk(schema, SchemaPath::default(), &mut flat);
    flat
}

/// The paths of `before` that `after` lacks, each only once: a removed object's fields are
/// removed with it.
pub(super) fn removed_fields(before: &Flat, after: &Flat) -> Vec<SchemaPath> {
    let mut removed: Vec<SchemaPath> = Vec::new();
    for path in before.keys() {
        let under_removed = removed.iter().any(|r| path.0.starts_with(&r.0));
        if !after.contains_key(path) && !under_removed {
            removed.push(path.clone());
        }
    }
    removed
}

fn walk(schema: &Value, path: SchemaPath, flat: &mut Flat) {
    let Some(object) = schema.as_object() else {
        return;
    };
    let own = object
        .iter()
        .filter(|(k, _)| !CHILDREN.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    flat.insert(path.clone(), own);
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        for (name, child) in properties {
            walk(child, path.child(Segment::Field(name.clone())), flat);
        }
    }
    if let Some(items) = object.get("items") {
        walk(items, path.child(Segment::Items), flat);
    }
    if let Some(values) = object.get("additionalProperties") {
        walk(values, path.child(Segment::Values), flat);
    }
    for kind in ["allOf", "anyOf", "oneOf"] {
        for (i, branch) in object
            .get(kind)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            walk(branch, path.child(Segment::Branch(kind, i)), flat);
        }
    }
    if let Some(not) = object.get("not") {
        walk(not, path.child(Segment::Branch("not", 0)), flat);
    }
}

/// Property changes within each version the old and the new CRD both have. Removed fields are
/// `existingFieldRemoval`'s; a new field is reported once, as safe.
pub(super) fn same(old: &Value, new: &Value, config: &Config) -> Vec<Change> {
    let mut changes = Vec::new();
    let new_versions = versions(new);
    for was in versions(old) {
        let Some(is) = new_versions.iter().find(|v| v.name == was.name) else {
            continue;
        };
        let (before, after) = (
            flatten(version_schema(was.value)),
            flatten(version_schema(is.value)),
        );
        let name = Some(was.name.to_string());
        for (path, old_props) in &before {
            if let Some(new_props) = after.get(path) {
                for f in property::compare(old_props, new_props, config) {
                    changes.push(f.into_change(config, name.clone(), path.clone()));
                }
            }
        }
        for path in removed_fields(&after, &before) {
            let added = Finding::safe(
                "fieldAddition",
                "field added".to_string(),
                None,
                after.get(&path).map(|p| Value::Object(p.clone())),
            );
            changes.push(added.into_change(config, name.clone(), path));
        }
    }
    changes
}

/// crdify's served-version validator: the property changes from each served version of the
/// new CRD to each later one (`v1alpha1 -> v1`), minus those the old CRD already had between
/// the same two versions. A field a later version lacks is `existingFieldRemoval`.
pub(super) fn served(old: &Value, new: &Value, config: &Config) -> Vec<Change> {
    // `Value` indexing by key: a missing key reads as `null`, it never panics.
    let webhook = new["spec"]["conversion"]["strategy"] == "Webhook";
    if webhook && config.conversion == ConversionPolicy::Ignore {
        return Vec::new();
    }
    // As crdify, a change is the same when it says the same thing at the same place.
    let key = |c: &Change| (c.rule, c.version.clone(), c.path.clone(), c.message.clone());
    let known: Vec<_> = pairs(old, config).iter().map(key).collect();
    pairs(new, config)
        .into_iter()
        .filter(|c| !known.contains(&key(c)))
        .collect()
}

fn pairs(crd: &Value, config: &Config) -> Vec<Change> {
    let mut served: Vec<Version<'_>> = versions(crd).into_iter().filter(|v| v.served).collect();
    served.sort_by(|a, b| kube_order(a.name, b.name));
    let mut changes = Vec::new();
    for (i, earlier) in served.iter().enumerate() {
        for later in served.iter().skip(i + 1) {
            let pair = Some(format!("{} -> {}", earlier.name, later.name));
            let before = flatten(version_schema(earlier.value));
            let after = flatten(version_schema(later.value));
            for (path, old_props) in &before {
                if let Some(new_props) = after.get(path) {
                    for f in property::compare(old_props, new_props, config) {
                        changes.push(f.into_change(config, pair.clone(), path.clone()));
                    }
                }
            }
            for path in removed_fields(&before, &after) {
                let removed = Finding::flagged(
                    "existingFieldRemoval",
                    format!("field not in `{}`", later.name),
                    before.get(&path).map(|p| Value::Object(p.clone())),
                    None,
                );
                changes.push(removed.into_change(config, pair.clone(), path));
            }
        }
    }
    changes
}
