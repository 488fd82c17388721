//! What controller-gen reads from the Go sources of `k8s.io/api` and `k8s.io/apimachinery`
//! and k8s-openapi's schemas lack: per type and field, the `+kubebuilder:validation:*` values,
//! `+default`/`+kubebuilder:default`, required-ness (`+optional`/`+required`/`omitempty`), and
//! `+structType=atomic` (also when an inline embedded struct carries it, which controller-gen
//! lifts onto the struct that embeds it); and where controller-gen's descriptions break their
//! lines (it keeps the Go doc comment's lines, k8s-openapi joins them): see [`rewrap`].
//!
//! The facts are one generated table, `go_table.rs` (by `tools/k8s-facts`, see the book's
//! "How parity is kept" for the command), covering every supported Kubernetes version: each distinct type header and
//! field once, with the set of versions it holds for ([`Versions`]). It holds facts only,
//! never text. The tool's tests check that it names the same types and fields as k8s-openapi's
//! schemas of each version.
//!
//! Which version's facts apply is a value, the [`Minor`] a schema is built for (see
//! [`Kubernetes`](crate::known::Kubernetes)): by default the one k8s-openapi is compiled for
//! (`crd()`), in gen-cli the version the user's crate resolved. Each version's entries cover
//! the types and fields of k8s-openapi's schemas of that version, and its description breaks
//! are computed against that version's words (the generator reads them from k8s-openapi's
//! sources). When the version is not the compiled one, its k8s-openapi schemas come from
//! [`selected`](super::selected) (gen-cli reads them from k8s-openapi's sources) and the facts
//! apply to them alike.
//! Not applied: `+listType`/`+mapType` facts (kept in the table; the
//! [`topology`](super::topology) data, the same markers as published, is applied instead).
//!
//! [`apply`] merges them into a converted k8s-openapi definition: the shape (JSON names, types)
//! stays k8s-openapi's; required-ness is the Go source's where they disagree.

use crate::model::{Schema, Topology};
use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

use super::Minor;

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

/// A set of Kubernetes minor versions among [`SUPPORTED`], one bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Versions(u16);

const _: () = assert!(SUPPORTED.len() <= 16, "a version set is 16 bits");

/// The oldest supported minor version.
const FIRST: u32 = SUPPORTED[0];

impl Versions {
    /// Whether the set holds `minor`.
    pub(super) const fn has(self, minor: Minor) -> bool {
        let minor = minor.get();
        minor >= FIRST && minor < FIRST + 16 && self.0 & (1 << (minor - FIRST)) != 0
    }
}

/// Every supported version (for the generated table).
const ALL: Versions = v(FIRST, SUPPORTED[SUPPORTED.len() - 1]);

/// No version (for the generated table).
const NONE: Versions = Versions(0);

/// The versions `first..=last` (for the generated table).
const fn v(first: u32, last: u32) -> Versions {
    let mut bits = 0;
    let mut minor = first;
    while minor <= last {
        bits |= 1 << (minor - FIRST);
        minor += 1;
    }
    Versions(bits)
}

/// The versions listed (for the generated table).
const fn vs(list: &[u32]) -> Versions {
    let mut bits = 0;
    let mut i = 0;
    while i < list.len() {
        bits |= 1 << (list[i] - FIRST);
        i += 1;
    }
    Versions(bits)
}

/// One field of a Go struct, by JSON name (inline embedded structs' fields included), in the
/// versions it holds for.
#[derive(Debug)]
pub(super) struct GoField {
    /// The versions whose Go struct has this field with these facts.
    pub versions: Versions,
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

/// One Go struct, by Kubernetes definition name, in every version that has it.
#[derive(Debug)]
pub(super) struct GoType {
    /// The definition name (`io.k8s.api.core.v1.LocalObjectReference`).
    pub name: &'static str,
    /// The versions that have it.
    pub versions: Versions,
    /// The versions where it is `x-kubernetes-map-type: atomic` (its own
    /// `+structType=atomic`, or an inline embedded struct's).
    pub atomic: Versions,
    /// Where controller-gen breaks the lines of the type's description (see [`rewrap`]), and
    /// in which versions; none when k8s-openapi's text is controller-gen's.
    pub breaks: &'static [(Versions, &'static str)],
    /// Every field, in every version.
    pub fields: &'static [GoField],
}

/// A field (for the generated table).
const fn f(
    versions: Versions,
    name: &'static str,
    required: bool,
    facts: &'static [Fact],
) -> GoField {
    fb(versions, name, required, facts, "")
}

/// A field whose description controller-gen breaks differently (for the generated table).
const fn fb(
    versions: Versions,
    name: &'static str,
    required: bool,
    facts: &'static [Fact],
    breaks: &'static str,
) -> GoField {
    GoField {
        versions,
        name,
        required,
        facts,
        breaks,
    }
}

/// A type (for the generated table).
const fn t(
    name: &'static str,
    versions: Versions,
    atomic: Versions,
    fields: &'static [GoField],
) -> GoType {
    tb(name, versions, atomic, &[], fields)
}

/// A type whose description controller-gen breaks differently (for the generated table).
const fn tb(
    name: &'static str,
    versions: Versions,
    atomic: Versions,
    breaks: &'static [(Versions, &'static str)],
    fields: &'static [GoField],
) -> GoType {
    GoType {
        name,
        versions,
        atomic,
        breaks,
        fields,
    }
}

/// Required (for the generated table).
const R: bool = true;
/// Optional (for the generated table).
const O: bool = false;

mod table {
    use super::Fact::*;
    use super::{ALL, GoType, NONE, O, R, f, fb, t, tb, v, vs};
    include!("go_table.rs");
}

pub(crate) use table::SUPPORTED;

/// One Go struct as one Kubernetes version has it.
#[derive(Clone, Copy, Debug)]
pub(super) struct GoView {
    /// The struct in every version.
    pub go: &'static GoType,
    /// The version.
    pub minor: Minor,
}

impl GoView {
    /// `x-kubernetes-map-type: atomic` on the struct.
    pub fn atomic(self) -> bool {
        self.go.atomic.has(self.minor)
    }

    /// Where controller-gen breaks the lines of the type's description.
    pub fn breaks(self) -> &'static str {
        self.go
            .breaks
            .iter()
            .find(|(versions, _)| versions.has(self.minor))
            .map_or("", |(_, breaks)| breaks)
    }

    /// The struct's fields in this version.
    pub fn fields(self) -> impl Iterator<Item = &'static GoField> {
        self.go
            .fields
            .iter()
            .filter(move |field| field.versions.has(self.minor))
    }
}

/// The Go facts of a definition in Kubernetes 1.`minor`, if the table has it.
pub(super) fn lookup(minor: Minor, name: &str) -> Option<GoView> {
    static BY_NAME: OnceLock<HashMap<&'static str, &'static GoType>> = OnceLock::new();
    let go = BY_NAME
        .get_or_init(|| table::TYPES.iter().map(|t| (t.name, t)).collect())
        .get(name)
        .copied()?;
    go.versions.has(minor).then_some(GoView { go, minor })
}

/// Merges the Go facts of the definition `name` in Kubernetes 1.`minor` into its converted
/// schema.
pub(super) fn apply(minor: Minor, name: &str, schema: &mut Schema) {
    let Some(go) = lookup(minor, name) else {
        return;
    };
    if go.atomic() && schema.type_str() == "object" {
        schema.x_map_type = Some(Topology::Atomic);
    }
    rewrap_description(&mut schema.description, go.breaks());
    if schema.properties.is_empty() {
        return;
    }
    schema.required = go
        .fields()
        .filter(|field| field.required && schema.properties.contains_key(field.name))
        .map(|field| field.name.to_string())
        .collect();
    schema.required.sort();
    for field in go.fields() {
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
