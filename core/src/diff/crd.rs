//! The rules about the CRD as a whole: scope, versions, conversion, removed fields.

use std::collections::BTreeSet;

use serde_json::Value;

use super::version::{Version, flatten, removed_fields, version_schema, versions};
use super::{Change, Config, Finding, SchemaPath};

/// Why a storage version move needs a migration.
const MIGRATION: &str = "objects stay stored in the old storage version until they are \
    written again: migrate them (rewrite every object, e.g. with kube-storage-version-migrator) \
    and drop the old version from the CRD's status.storedVersions before removing it";

/// Why removing a stored version breaks.
const STORED: &str = "objects stored in this version can no longer be read; the apiserver \
    refuses the CRD while status.storedVersions lists it: migrate the objects first";

/// The CRD-wide changes.
pub(super) fn compare(old: &Value, new: &Value, config: &Config) -> Vec<Change> {
    let mut found = Vec::new();
    let scope = |crd: &Value| {
        // `Value` indexing by key: a missing key reads as `null`, it never panics.
        crd["spec"]["scope"]
            .as_str()
            .unwrap_or("Namespaced")
            .to_string()
    };
    let (old_scope, new_scope) = (scope(old), scope(new));
    if old_scope != new_scope {
        found.push((
            None,
            Finding::flagged(
                "scope",
                format!("scope changed: {old_scope} -> {new_scope}"),
                Some(Value::from(old_scope)),
                Some(Value::from(new_scope)),
            ),
        ));
    }
    let (old_versions, new_versions) = (versions(old), versions(new));
    let new_names: BTreeSet<&str> = new_versions.iter().map(|v| v.name).collect();
    for removed in stored_versions(old).difference(&new_names) {
        found.push((
            Some(removed.to_string()),
            Finding::flagged(
                "storedVersionRemoval",
                format!("stored version `{removed}` removed"),
                Some(Value::from(*removed)),
                None,
            )
            .with_note(STORED),
        ));
    }
    for v in &old_versions {
        let now = new_versions.iter().find(|n| n.name == v.name);
        if v.served && !now.is_some_and(|n| n.served) {
            let what = if now.is_some() {
                "no longer served"
            } else {
                "removed"
            };
            found.push((
                Some(v.name.to_string()),
                Finding::flagged(
                    "servedVersionRemoval",
                    format!("served version `{}` {what}", v.name),
                    Some(Value::from(v.name)),
                    now.map(|n| Value::from(n.name)),
                )
                .with_note("clients that use this version get 404s"),
            ));
        }
    }
    for v in &new_versions {
        if !old_versions.iter().any(|o| o.name == v.name) {
            found.push((
                Some(v.name.to_string()),
                Finding::safe(
                    "version",
                    format!("version `{}` added", v.name),
                    None,
                    Some(Value::from(v.name)),
                ),
            ));
        }
    }
    if let (Some(was), Some(is)) = (storage(&old_versions), storage(&new_versions))
        && was != is
    {
        found.push((
            None,
            Finding::flagged(
                "storageVersionChange",
                format!("storage version moved: {was} -> {is}; a storage migration is needed"),
                Some(Value::from(was)),
                Some(Value::from(is)),
            )
            .with_note(MIGRATION),
        ));
    }
    let strategy = |crd: &Value| {
        // `Value` indexing by key: a missing key reads as `null`, it never panics.
        crd["spec"]["conversion"]["strategy"]
            .as_str()
            .unwrap_or("None")
            .to_string()
    };
    let (old_strategy, new_strategy) = (strategy(old), strategy(new));
    if old_strategy != new_strategy {
        found.push((
            None,
            Finding::flagged(
                "conversion",
                format!("conversion strategy changed: {old_strategy} -> {new_strategy}"),
                Some(Value::from(old_strategy)),
                Some(Value::from(new_strategy)),
            )
            .with_note(
                "with `None` the apiserver only rewrites apiVersion: versions whose schemas \
                 differ need a webhook, and a webhook must be deployed before the CRD",
            ),
        ));
    }
    let mut changes: Vec<Change> = found
        .into_iter()
        .map(|(version, f)| f.into_change(config, version, SchemaPath::default()))
        .collect();
    for v in &new_versions {
        let Some(was) = old_versions.iter().find(|o| o.name == v.name) else {
            continue;
        };
        let (before, after) = (
            flatten(version_schema(was.value)),
            flatten(version_schema(v.value)),
        );
        for path in removed_fields(&before, &after) {
            let finding = Finding::flagged(
                "existingFieldRemoval",
                "field removed".to_string(),
                before.get(&path).map(|p| Value::Object(p.clone())),
                None,
            );
            changes.push(finding.into_change(config, Some(v.name.to_string()), path));
        }
    }
    changes
}

/// The storage version's name.
fn storage<'a>(versions: &[Version<'a>]) -> Option<&'a str> {
    versions.iter().find(|v| v.storage).map(|v| v.name)
}

/// The versions objects may be stored in: the status's `storedVersions` (a CRD read from a
/// cluster) and the storage version (a CRD read from a file, whose objects are stored there).
fn stored_versions(crd: &Value) -> BTreeSet<&str> {
    // `Value` indexing by key: a missing key reads as `null`, it never panics.
    let mut stored: BTreeSet<&str> = crd["status"]["storedVersions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    stored.extend(versions(crd).iter().filter(|v| v.storage).map(|v| v.name));
    stored
}
