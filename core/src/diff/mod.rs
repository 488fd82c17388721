//! Upgrade safety: what changes between an old and a new CustomResourceDefinition, and which
//! changes break objects already stored or clients already written.
//!
//! The rules are crdify's (kubernetes-sigs/crdify, which OLM runs as its CRD upgrade
//! preflight), with its semantics and defaults, and a few more (served and storage versions,
//! list and map types, unknown fields, CEL rules, conversion). [`compare`] runs them all:
//!
//! - CRD-wide: `scope`, `existingFieldRemoval`, `storedVersionRemoval`, and kubegen's
//!   `servedVersionRemoval`, `storageVersionChange`, `conversion`;
//! - per property, within each version both CRDs have and (as crdify's served-version
//!   validator) between each pair of served versions of the new CRD, minus what the old CRD
//!   already had: `enum`, `default`, `minimum`/`minLength`/`minItems`/`minProperties`,
//!   their `max` twins, `required`, `type`, `nullable`, `pattern`, `description`, and
//!   kubegen's `format`, `listType`, `listMapKeys`, `mapType`, `preserveUnknownFields`,
//!   `cel`; any other keyword that changed is `unhandled`, as crdify has it.
//!
//! Each [`Change`] names its rule, its [`Class`] (from the rule's enforcement in [`Config`]),
//! the version, the schema path, and the old and new values. It works on the CRDs as JSON
//! (`serde_json::to_value` of k8s-openapi's `CustomResourceDefinition`, or a parsed file).

mod config;
mod crd;
mod locate;
mod path;
mod property;
mod version;

pub use config::{Config, ConversionPolicy, Enforcement, Policy, RULES};
pub use locate::{Source, locate};
pub use path::{SchemaPath, Segment};

use serde_json::Value;

/// How much a change matters to objects already stored and clients already written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Existing objects, or clients, stop working (or may): the rule's enforcement is `Error`.
    Breaking,
    /// Worth a review: the rule's enforcement is `Warning`.
    Warning,
    /// Compatible (or a rule whose enforcement is `None`).
    Safe,
}

impl Class {
    /// `breaking`, `warning` or `safe`.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Breaking => "breaking",
            Class::Warning => "warning",
            Class::Safe => "safe",
        }
    }
}

/// One difference between the old and the new CRD.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The rule that saw it, as crdify names its validations (`enum`, `maxLength`,
    /// `existingFieldRemoval`, ...).
    pub rule: &'static str,
    /// How much it matters.
    pub class: Class,
    /// The version (`v1`), a pair of served versions (`v1alpha1 -> v1`), or `None` for the
    /// CRD as a whole.
    pub version: Option<String>,
    /// Where in the version's schema (empty for the CRD as a whole).
    pub path: SchemaPath,
    /// What it says, e.g. `allowed enum values removed: ["Unmanaged"]`.
    pub message: String,
    /// The old value, when there was one.
    pub old: Option<Value>,
    /// The new value, when there is one.
    pub new: Option<Value>,
    /// What it means for a cluster (ratcheting, storage migration), when there is more to say.
    pub note: Option<&'static str>,
}

impl Change {
    /// `v1 .spec.size` or `v1alpha1 -> v1 .spec.size`: where the change is, for a headline.
    pub fn place(&self) -> String {
        match (&self.version, self.path.is_root()) {
            (None, _) => String::new(),
            (Some(v), true) => v.clone(),
            (Some(v), false) => format!("{v} {}", self.path),
        }
    }
}

/// A change a rule found, before the configuration says how much it matters.
struct Finding {
    rule: &'static str,
    /// The rule considers it incompatible: its class is the rule's enforcement. Otherwise it
    /// is safe whatever the configuration says.
    flagged: bool,
    message: String,
    old: Option<Value>,
    new: Option<Value>,
    note: Option<&'static str>,
}

impl Finding {
    fn flagged(
        rule: &'static str,
        message: String,
        old: Option<Value>,
        new: Option<Value>,
    ) -> Self {
        Finding {
            rule,
            flagged: true,
            message,
            old,
            new,
            note: None,
        }
    }

    fn safe(rule: &'static str, message: String, old: Option<Value>, new: Option<Value>) -> Self {
        Finding {
            flagged: false,
            ..Finding::flagged(rule, message, old, new)
        }
    }

    fn with_note(mut self, note: &'static str) -> Self {
        self.note = Some(note);
        self
    }

    fn into_change(self, config: &Config, version: Option<String>, path: SchemaPath) -> Change {
        let class = if self.flagged {
            config.enforcement(self.rule).class()
        } else {
            Class::Safe
        };
        Change {
            rule: self.rule,
            class,
            version,
            path,
            message: self.message,
            old: self.old,
            new: self.new,
            note: self.note,
        }
    }
}

/// Every change from `old` to `new` (two CustomResourceDefinitions as JSON), CRD-wide first,
/// then by version and path.
pub fn compare(old: &Value, new: &Value, config: &Config) -> Vec<Change> {
    let mut changes = crd::compare(old, new, config);
    changes.extend(version::same(old, new, config));
    changes.extend(version::served(old, new, config));
    changes
}

/// [`compare`] on k8s-openapi objects.
#[cfg(feature = "k8s")]
pub fn compare_crds(
    old: &k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    new: &k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    config: &Config,
) -> Vec<Change> {
    let json = |crd| serde_json::to_value(crd).unwrap_or(Value::Null);
    compare(&json(old), &json(new), config)
}

/// True when any change is breaking.
pub fn breaking(changes: &[Change]) -> bool {
    changes.iter().any(|c| c.class == Class::Breaking)
}

#[cfg(test)]
mod tests;
