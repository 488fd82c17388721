//! A YAML writer that reproduces controller-gen's output byte for byte.
//!
//! controller-gen turns every object into JSON (Go `encoding/json`), reads the JSON back
//! with `gopkg.in/yaml.v2` (v2.4.0) into a generic map, and marshals that map with
//! yaml.v2. This module renders a [`serde_json::Value`] the same way:
//!
//! - mapping keys are sorted at every level with yaml.v2's order ([`key_order`]);
//! - scalars get yaml.v2's styles: plain, `'single'`, `"double"` or a `|` literal block
//!   (`scalar` and `resolve`), numbers its spelling (`number`);
//! - the layout is libyaml's: 2-space indentation, sequences not indented under their
//!   key, empty collections as `[]` / `{}`, and plain and quoted scalars folded at width
//!   80 (`emit`).
//!
//! It is hand-written rather than built on serde-saphyr, the ecosystem's YAML crate,
//! because serde-saphyr cannot reproduce yaml.v2's folding of long scalars at width 80 nor
//! its quoting choices. serde-saphyr is still what the tests use to read YAML back.
//!
//! Limits, all outside what kubegen generates in practice:
//! - the value is written as given. controller-gen's JSON → YAML re-read would fold a raw
//!   U+0085 (NEL) in a string into a space and fails outright on DEL and C1 control
//!   characters; here such characters are written escaped;
//! - a line or paragraph separator (U+2028, U+2029) is escaped in double quotes (`\L`, `\P`),
//!   where yaml.v2 writes it raw as a line break, which YAML 1.2 readers (serde-saphyr among
//!   them) do not take for one: every reader reads the same text, in other bytes than
//!   controller-gen's;
//! - yaml.v2's key order is cyclic for some keys with zero-led digit runs (see
//!   [`key_order`]); controller-gen's output is then random, ours is deterministic;
//! - timestamp-looking strings are quoted per current Go `time.Parse` (a fraction of any
//!   length, zone offsets up to 24:60).

mod emit;
mod number;
mod order;
mod resolve;
mod scalar;

pub use order::key_order;

/// Renders one YAML document as yaml.v2's `Marshal` does: no leading `---`, every mapping
/// sorted with [`key_order`], and a final line break.
///
/// ```
/// let value = serde_json::json!({"spec": {"versions": ["v1"], "group": "example.com"}});
/// assert_eq!(
///     kubegen_core::render::to_yaml(&value),
///     "spec:\n  group: example.com\n  versions:\n  - v1\n"
/// );
/// ```
pub fn to_yaml(value: &serde_json::Value) -> String {
    emit::document(value)
}

/// Renders several documents in controller-gen's file layout: each one preceded by a
/// `---` line.
///
/// ```
/// let docs = [serde_json::json!({"a": 1}), serde_json::json!({"b": "true"})];
/// assert_eq!(
///     kubegen_core::render::to_yaml_documents(&docs),
///     "---\na: 1\n---\nb: \"true\"\n"
/// );
/// ```
pub fn to_yaml_documents(docs: &[serde_json::Value]) -> String {
    docs.iter().fold(String::new(), |mut out, doc| {
        out.push_str("---\n");
        out.push_str(&to_yaml(doc));
        out
    })
}
