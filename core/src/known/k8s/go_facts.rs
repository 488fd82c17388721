//! What controller-gen reads from the Go sources of `k8s.io/api` and `k8s.io/apimachinery`
//! and k8s-openapi's schemas lack: per type and field, the `+kubebuilder:validation:*` values,
//! `+default`/`+kubebuilder:default`, required-ness (`+optional`/`+required`/`omitempty`), and
//! `+structType=atomic` (also when an inline embedded struct carries it, which controller-gen
//! lifts onto the struct that embeds it).
//!
//! The tables are generated from the Go sources (`go_generate.rs`, see the README for the
//! command) into `go_v1_*.rs`; they hold facts only, never text. A test checks that they name
//! the same types and fields as k8s-openapi's schemas.
//!
//! [`apply`] merges them into a converted k8s-openapi definition: the shape (JSON names, types)
//! stays k8s-openapi's; required-ness is the Go source's where they disagree.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

use crate::schema::Schema;

/// One fact about a field, as controller-gen writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Fact {
    /// `default` (JSON text).
    Default(&'static str),
    /// `minLength`.
    MinLength(u64),
    /// `maxLength`.
    MaxLength(u64),
    /// `pattern`.
    Pattern(&'static str),
    /// `enum` (a JSON array's text).
    Enum(&'static str),
    /// `minimum`.
    Minimum(f64),
    /// `maximum`.
    #[allow(dead_code, reason = "no Kubernetes type has this marker today")]
    Maximum(f64),
    /// `minItems`.
    #[allow(dead_code, reason = "no Kubernetes type has this marker today")]
    MinItems(u64),
    /// `maxItems`.
    #[allow(dead_code, reason = "no Kubernetes type has this marker today")]
    MaxItems(u64),
    /// `x-kubernetes-list-type` (`+listType`).
    ListType(&'static str),
    /// `x-kubernetes-list-map-keys` (`+listMapKey`, in order).
    ListMapKeys(&'static [&'static str]),
    /// `x-kubernetes-map-type` (`+mapType`, or `+structType` on the field).
    MapType(&'static str),
}

/// One field of a Go struct, by JSON name (inline embedded structs' fields included).
#[derive(Debug)]
pub(super) struct GoField {
    /// The JSON name.
    pub name: &'static str,
    /// Whether controller-gen lists it in `required`.
    pub required: bool,
    /// Its facts.
    pub facts: &'static [Fact],
}

/// One Go struct, by Kubernetes definition name.
#[derive(Debug)]
pub(super) struct GoType {
    /// The definition name (`io.k8s.api.core.v1.LocalObjectReference`).
    pub name: &'static str,
    /// `x-kubernetes-map-type: atomic` on the struct (its own `+structType=atomic`, or an inline
    /// embedded struct's).
    pub atomic: bool,
    /// Every field.
    pub fields: &'static [GoField],
}

/// A field (for the generated tables).
const fn f(name: &'static str, required: bool, facts: &'static [Fact]) -> GoField {
    GoField {
        name,
        required,
        facts,
    }
}

/// A type (for the generated tables).
const fn t(name: &'static str, atomic: bool, fields: &'static [GoField]) -> GoType {
    GoType {
        name,
        atomic,
        fields,
    }
}

/// Required (for the generated tables).
const R: bool = true;
/// Optional (for the generated tables).
const O: bool = false;

mod v1_37 {
    use super::Fact::*;
    use super::{GoType, O, R, f, t};
    include!("go_v1_37.rs");
}

/// The enabled Kubernetes version's tables.
pub(super) fn types() -> &'static [GoType] {
    v1_37::TYPES
}

/// The Go facts of a definition, if the tables have it.
pub(super) fn lookup(name: &str) -> Option<&'static GoType> {
    static BY_NAME: OnceLock<HashMap<&'static str, &'static GoType>> = OnceLock::new();
    BY_NAME
        .get_or_init(|| types().iter().map(|t| (t.name, t)).collect())
        .get(name)
        .copied()
}

/// Merges the Go facts of the definition `name` into its converted schema.
pub(super) fn apply(name: &str, schema: &mut Schema) {
    let Some(go) = lookup(name) else {
        return;
    };
    if go.atomic && schema.type_str() == "object" {
        schema.x_map_type = Some("atomic".to_string());
    }
    if schema.properties.is_empty() {
        return;
    }
    schema.required = go
        .fields
        .iter()
        .filter(|field| field.required && schema.properties.contains_key(field.name))
        .map(|field| field.name.to_string())
        .collect();
    schema.required.sort();
    for field in go.fields {
        if let Some(node) = schema.properties.get_mut(field.name) {
            for fact in field.facts {
                put(node, *fact);
            }
        }
    }
}

/// Writes one fact on a property's node. Topology facts are left to
/// [`topology`](super::topology), whose data is the same markers as the Kubernetes OpenAPI
/// publishes them.
fn put(node: &mut Schema, fact: Fact) {
    let json = |text: &str| serde_json::from_str::<Value>(text).ok();
    match fact {
        Fact::Default(value) => node.default = json(value),
        Fact::MinLength(n) => node.min_length = Some(n),
        Fact::MaxLength(n) => node.max_length = Some(n),
        Fact::Pattern(p) => node.pattern = Some(p.to_string()),
        Fact::Enum(values) => {
            node.enum_ = json(values).and_then(|v| v.as_array().cloned());
        }
        Fact::Minimum(n) => node.minimum = Some(n),
        Fact::Maximum(n) => node.maximum = Some(n),
        Fact::MinItems(n) => node.min_items = Some(n),
        Fact::MaxItems(n) => node.max_items = Some(n),
        Fact::ListType(_) | Fact::ListMapKeys(_) | Fact::MapType(_) => {}
    }
}
