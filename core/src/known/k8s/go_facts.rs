//! What controller-gen reads from the Go sources of `k8s.io/api` and `k8s.io/apimachinery`
//! and k8s-openapi's schemas lack: per type and field, the `+kubebuilder:validation:*` values,
//! `+default`/`+kubebuilder:default`, required-ness (`+optional`/`+required`/`omitempty`), and
//! `+structType=atomic` (also when an inline embedded struct carries it, which controller-gen
//! lifts onto the struct that embeds it); and where controller-gen's descriptions break their
//! lines (it keeps the Go doc comment's lines, k8s-openapi joins them): see [`rewrap`].
//!
//! The tables are generated from the Go sources (`go_generate.rs`, see the README for the
//! command) into `go_v1_*.rs`; they hold facts only, never text. A test checks that they name
//! the same types and fields as k8s-openapi's schemas.
//!
//! Every supported version's table is compiled in; [`select`] picks one (gen-cli, from the
//! version the user's crate resolved), by default the one k8s-openapi is compiled for (`crd()`).
//! Each table covers the types and fields of k8s-openapi's schemas of its version, and its
//! description breaks are computed against that version's words (the generator reads them
//! from k8s-openapi's sources).
//! When the selected version is not the compiled one, its k8s-openapi schemas come from
//! [`selected`](super::selected) (gen-cli reads them from k8s-openapi's sources) and the facts
//! apply to them alike.
//! Not applied: `+listType`/`+mapType` facts (kept in the tables; the
//! [`topology`](super::topology) data, the same markers as published, is applied instead).
//!
//! [`apply`] merges them into a converted k8s-openapi definition: the shape (JSON names, types)
//! stays k8s-openapi's; required-ness is the Go source's where they disagree.

use crate::model::Schema;
use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

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
    /// The description of a list's items or a map's values: the doc of their named scalar Go
    /// type (`[]Capability`), which k8s-openapi does not keep.
    ItemsDoc(&'static str),
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
    /// Where controller-gen breaks the lines of its description (see [`rewrap`]); empty when
    /// k8s-openapi's text is controller-gen's, or not the same words.
    pub breaks: &'static str,
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
    /// Where controller-gen breaks the lines of the type's description (see [`rewrap`]).
    pub breaks: &'static str,
}

/// A field (for the generated tables).
const fn f(name: &'static str, required: bool, facts: &'static [Fact]) -> GoField {
    fb(name, required, facts, "")
}

/// A field whose description controller-gen breaks differently (for the generated tables).
const fn fb(
    name: &'static str,
    required: bool,
    facts: &'static [Fact],
    breaks: &'static str,
) -> GoField {
    GoField {
        name,
        required,
        facts,
        breaks,
    }
}

/// A type (for the generated tables).
const fn t(name: &'static str, atomic: bool, fields: &'static [GoField]) -> GoType {
    tb(name, atomic, "", fields)
}

/// A type whose description controller-gen breaks differently (for the generated tables).
const fn tb(
    name: &'static str,
    atomic: bool,
    breaks: &'static str,
    fields: &'static [GoField],
) -> GoType {
    GoType {
        name,
        atomic,
        fields,
        breaks,
    }
}

/// Required (for the generated tables).
const R: bool = true;
/// Optional (for the generated tables).
const O: bool = false;

/// One Kubernetes version's table module, from its generated file.
macro_rules! table {
    ($module:ident, $file:literal) => {
        mod $module {
            use super::Fact::*;
            use super::{GoType, O, R, f, fb, t, tb};
            include!($file);
        }
    };
}
table!(v1_33, "go_v1_33.rs");
table!(v1_34, "go_v1_34.rs");
table!(v1_35, "go_v1_35.rs");
table!(v1_36, "go_v1_36.rs");
table!(v1_37, "go_v1_37.rs");

/// The Kubernetes minor versions with tables: k8s-openapi 0.29's `v1_33` to `v1_37`.
pub const SUPPORTED: &[u32] = &[33, 34, 35, 36, 37];

/// The table of a Kubernetes minor version.
pub(super) fn table(minor: u32) -> Option<&'static [GoType]> {
    Some(match minor {
        33 => v1_33::TYPES,
        34 => v1_34::TYPES,
        35 => v1_35::TYPES,
        36 => v1_36::TYPES,
        37 => v1_37::TYPES,
        _ => return None,
    })
}

/// The Kubernetes minor version k8s-openapi is compiled for (its `v1_xx` feature).
#[allow(unreachable_code, reason = "exactly one version gate expands")]
pub fn compiled_minor() -> u32 {
    k8s_openapi::k8s_if_1_33! { return 33; }
    k8s_openapi::k8s_if_1_34! { return 34; }
    k8s_openapi::k8s_if_1_35! { return 35; }
    k8s_openapi::k8s_if_1_36! { return 36; }
    k8s_openapi::k8s_if_1_37! { return 37; }
    0
}

/// The version [`select`] chose, if any.
static SELECTED: OnceLock<u32> = OnceLock::new();

/// Chooses the Kubernetes minor version whose tables apply (gen-cli: the version the user's
/// crate resolved), once per process and before any schema is built; by default the compiled
/// one. An unsupported version is an error naming the supported ones.
pub fn select(minor: u32) -> Result<(), String> {
    if table(minor).is_none() {
        let names: Vec<String> = SUPPORTED.iter().map(|m| format!("v1_{m}")).collect();
        return Err(format!(
            "kubegen has no tables for Kubernetes 1.{minor} (k8s-openapi feature `v1_{minor}`); \
             supported: {}",
            names.join(", ")
        ));
    }
    let chosen = *SELECTED.get_or_init(|| minor);
    if chosen == minor {
        Ok(())
    } else {
        Err(format!(
            "Kubernetes 1.{chosen} is already selected; one process serves one version (1.{minor} asked)"
        ))
    }
}

/// The Kubernetes minor version whose tables apply.
pub fn selected() -> u32 {
    SELECTED.get().copied().unwrap_or_else(compiled_minor)
}

/// The selected Kubernetes version's tables.
pub(super) fn types() -> &'static [GoType] {
    table(selected()).unwrap_or_default()
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
    rewrap_description(&mut schema.description, go.breaks);
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
            rewrap_description(&mut node.description, field.breaks);
        }
    }
}

/// Rewraps a description in place (see [`rewrap`]).
fn rewrap_description(description: &mut Option<String>, breaks: &str) {
    if let Some(text) = description.as_deref()
        && let Some(rewrapped) = rewrap(text, breaks)
    {
        *description = Some(rewrapped);
    }
}

/// k8s-openapi's description `text` with controller-gen's line breaks: its words, separated
/// by single spaces except where `breaks` says. `breaks` is `<words>|<entries>`, each entry
/// `<gap><codes>`: the gap is the number of words since the previous entry's word (the first
/// counts from word 0), the codes spell the whitespace before that word (`n` a newline, `s` a
/// space, `t` a tab). `None` (the text is left alone) when `breaks` is empty or the word count
/// is not `<words>`: the tables are for another text.
pub(super) fn rewrap(text: &str, breaks: &str) -> Option<String> {
    let (count, entries) = breaks.split_once('|')?;
    let words: Vec<&str> = text.split_whitespace().collect();
    if count.parse::<usize>().ok()? != words.len() {
        return None;
    }
    let mut separators = HashMap::new();
    let mut index = 0;
    for entry in entries.split(',').filter(|e| !e.is_empty()) {
        let digits = entry.find(|c: char| !c.is_ascii_digit())?;
        index += entry[..digits].parse::<usize>().ok()?;
        let separator: String = entry[digits..]
            .chars()
            .map(|c| match c {
                'n' => '\n',
                't' => '\t',
                _ => ' ',
            })
            .collect();
        separators.insert(index, separator);
    }
    let mut out = String::with_capacity(text.len());
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            out.push_str(separators.get(&i).map_or(" ", String::as_str));
        }
        out.push_str(word);
    }
    Some(out)
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
        Fact::ItemsDoc(text) => {
            if let Some(element) = node.items.as_mut().or(node.additional_properties.as_mut()) {
                element.description.get_or_insert_with(|| text.to_string());
            }
        }
        Fact::ListType(_) | Fact::ListMapKeys(_) | Fact::MapType(_) => {}
    }
}
