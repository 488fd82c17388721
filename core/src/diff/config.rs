//! How much each rule's findings matter: crdify's configuration (per-rule enforcement, the
//! enum, pattern and nullable policies), read from `[package.metadata.kubegen.diff]`.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::Class;

/// What a rule's finding becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Enforcement {
    /// Breaking: `kubegen diff` exits 1.
    Error,
    /// Reported as a warning.
    #[serde(alias = "Warn")]
    Warning,
    /// Reported as safe.
    None,
}

impl Enforcement {
    /// The class a flagged finding gets.
    pub fn class(self) -> Class {
        match self {
            Enforcement::Error => Class::Breaking,
            Enforcement::Warning => Class::Warning,
            Enforcement::None => Class::Safe,
        }
    }
}

/// Whether a change a policy is about is compatible.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Policy {
    /// Compatible.
    Allow,
    /// Incompatible (crdify's default for each policy).
    #[default]
    Disallow,
}

/// crdify's `conversion` policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum ConversionPolicy {
    /// Served versions are compared with each other.
    #[default]
    None,
    /// When the new CRD converts with a webhook, served versions are not compared with each
    /// other (the webhook maps between them).
    Ignore,
}

/// The configuration of every rule. The default is crdify's (every crdify rule `Error`),
/// except `description` (`None`: the and crdify's reference call it generally safe)
/// and kubegen's own rules that a review should see without blocking (`Warning`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Config {
    /// Enforcement by rule name (`enum = "Warning"`), over the defaults.
    #[serde(default)]
    pub enforcement: BTreeMap<String, Enforcement>,
    /// crdify's enum `additionPolicy`: is a new allowed value compatible?
    #[serde(default)]
    pub enum_addition: Policy,
    /// crdify's pattern `removalPolicy`: is removing a pattern compatible?
    #[serde(default)]
    pub pattern_removal: Policy,
    /// crdify's nullable `additionPolicy`: is allowing null compatible?
    #[serde(default)]
    pub nullable_addition: Policy,
    /// crdify's nullable `removalPolicy`: is disallowing null compatible?
    #[serde(default)]
    pub nullable_removal: Policy,
    /// crdify's `conversion` policy.
    #[serde(default)]
    pub conversion: ConversionPolicy,
}

/// Every rule's name, as the configuration spells it.
pub const RULES: &[&str] = &[
    "scope",
    "existingFieldRemoval",
    "storedVersionRemoval",
    "servedVersionRemoval",
    "storageVersionChange",
    "conversion",
    "enum",
    "default",
    "minimum",
    "minLength",
    "minItems",
    "minProperties",
    "maximum",
    "maxLength",
    "maxItems",
    "maxProperties",
    "required",
    "type",
    "nullable",
    "pattern",
    "description",
    "format",
    "listType",
    "listMapKeys",
    "mapType",
    "preserveUnknownFields",
    "cel",
    "unhandled",
];

impl Config {
    /// The enforcement of `rule`: configured, else its default.
    pub fn enforcement(&self, rule: &str) -> Enforcement {
        if let Some(e) = self.enforcement.get(rule) {
            return *e;
        }
        match rule {
            "description" => Enforcement::None,
            "storageVersionChange" | "conversion" | "format" | "cel" => Enforcement::Warning,
            _ => Enforcement::Error,
        }
    }

    /// Rule names the configuration gives an enforcement that no rule has.
    pub fn unknown_rules(&self) -> Vec<&str> {
        self.enforcement
            .keys()
            .map(String::as_str)
            .filter(|name| !RULES.contains(name))
            .collect()
    }
}
