//! Admission of a custom resource as kube-apiserver admits it (feature `admit`), in its
//! order: unknown fields pruned (and reported), defaults applied, the OpenAPI value
//! validation (`openapi`, with `formats`), then the `x-kubernetes-validations` rules (`rules`,
//! in the `cel` crate's evaluator with the Kubernetes libraries of `library`, on values
//! `convert` gives CEL's types). An error the server counts as making the object unfit for
//! rules (`Unsupported value`, `Required value`, `Too long`, `Too many`, a wrong type) skips
//! every rule and, when the schema has rules, adds the server's "some validation rules were
//! not checked" cause. A rule that could go over the server's per-call cost limit is estimated
//! on the value's own sizes first (`cost`) and, over it, refused unevaluated as the server
//! refuses it, and no further rule runs.
//!
//! On update, the old object is pruned and defaulted too, values pair up as the server pairs
//! them (object fields, map entries, `map` list items by their keys) for `oldSelf`, and what
//! fails on a value equal to its old one is ratcheted (KEP-4008): reported as a warning, not
//! an error; transition rules are never ratcheted.
//!
//! Errors are [`FieldError`]s worded as the server words them.

mod convert;
mod cost;
mod error;
mod format_named;
mod formats;
mod library;
mod macros;
mod openapi;
mod path;
mod quantity;
mod rules;
mod semver;
mod time;
mod url;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;

pub use error::{FieldError, Reason};
pub use path::{Path, Step};

use super::value::{Dropped, prune};
use crate::model::{ListType, Schema};

/// A version's schema, ready to admit objects: its patterns and rules compiled once.
pub struct Validator {
    schema: Schema,
    compiled: Compiled,
}

impl Compiled {
    /// Whether the schema has rules (the server says it skipped them only then).
    fn has_rules(&self) -> bool {
        !self.programs.is_empty()
    }
}

/// What [`Validator::admit`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Admitted {
    /// The object as the server would store it: pruned and defaulted.
    pub object: Value,
    /// Why the server would refuse it; empty if it would accept it.
    pub errors: Vec<FieldError>,
    /// Errors ratcheted on update (the value did not change): the server lets them through.
    pub ratcheted: Vec<FieldError>,
    /// The rules among them, which the server returns as warnings
    /// (`spec.word: Invalid value: "bad": starts with a`); ratcheted OpenAPI errors are silent.
    pub ratcheted_rules: Vec<FieldError>,
    /// The fields pruning dropped (`spec.foo`), which `fieldValidation=Strict` refuses and
    /// `Warn` warns about as `unknown field "spec.foo"`.
    pub unknown_fields: Vec<String>,
}

/// What the walks share: compiled patterns, the CEL environment and compiled expressions.
struct Compiled {
    patterns: HashMap<String, regex::Regex>,
    env: Arc<cel::Env>,
    programs: HashMap<String, cel::Program>,
    /// The rules that may cost more than the server's per-call limit on some value.
    costly: HashSet<String>,
}

/// Errors and ratcheted errors, as the walks collect them.
#[derive(Default)]
struct Found {
    errors: Vec<FieldError>,
    ratcheted: Vec<FieldError>,
    ratcheted_rules: Vec<FieldError>,
}

impl Validator {
    /// A validator for a version's `openAPIV3Schema`. Fails with the first rule or message
    /// expression that does not parse.
    pub fn new(schema: Schema) -> Result<Validator, String> {
        let env = library::env().map_err(|e| e.to_string())?;
        let mut compiled = Compiled {
            patterns: HashMap::new(),
            env: Arc::new(env),
            programs: HashMap::new(),
            costly: HashSet::new(),
        };
        compile(&schema, true, &mut compiled)?;
        Ok(Validator { schema, compiled })
    }

    /// A validator for the `openAPIV3Schema` of a CRD version as JSON (`apiextensions.k8s.io/v1`).
    pub fn from_json(schema: &Value) -> Result<Validator, String> {
        let schema: Schema = serde_json::from_value(schema.clone()).map_err(|e| e.to_string())?;
        Validator::new(schema)
    }

    /// The schema it validates against.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Admits `object` as a create, or as an update of `old`.
    pub fn admit(&self, object: &Value, old: Option<&Value>) -> Admitted {
        let (stored, dropped) = self.store(object);
        let old = old.map(|o| self.store(o).0);
        let c = &self.compiled;
        let mut found = Found::default();
        let root = path::Path::default();
        openapi::validate(
            c,
            &self.schema,
            &stored,
            old.as_ref(),
            &root,
            true,
            &mut found,
        );
        if found.errors.iter().any(|e| e.reason.skips_rules()) {
            if c.has_rules() {
                found.errors.push(FieldError::rules_not_checked());
            }
        } else {
            let rules = rules::Rules::new(c);
            rules.evaluate(&self.schema, &stored, old.as_ref(), &root, true, &mut found);
        }
        let unknown_fields = dropped
            .into_iter()
            .filter_map(|d| match d {
                Dropped::Unknown(at) => Some(at.trim_start_matches('.').to_string()),
                Dropped::NullEntry(_) => None,
            })
            .collect();
        let mut stored = stored;
        go_numbers(&mut stored);
        Admitted {
            object: stored,
            errors: found.errors,
            ratcheted: found.ratcheted,
            ratcheted_rules: found.ratcheted_rules,
            unknown_fields,
        }
    }

    /// `object` pruned and defaulted, with what pruning dropped.
    fn store(&self, object: &Value) -> (Value, Vec<Dropped>) {
        let mut stored = object.clone();
        let mut dropped = Vec::new();
        prune(&self.schema, &mut stored, true, "", &mut dropped);
        super::defaults::apply(&self.schema, &mut stored);
        (stored, dropped)
    }
}

/// Whole floating-point numbers as integers, as Go's JSON encoder writes them (`1.0` as `1`).
fn go_numbers(v: &mut Value) {
    match v {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or_default();
            if f.fract() == 0.0 && f.abs() < 9.2e18 {
                *v = Value::from(f as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(go_numbers),
        Value::Object(map) => map.values_mut().for_each(go_numbers),
        _ => {}
    }
}

/// `pattern` with Go's ASCII-only Perl classes (`\d`, `\w`, `\s`, their negations, and `\b`,
/// `\B`) written out for Rust's `regex`, whose classes are Unicode's.
fn ascii_classes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut in_class = false;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(e) = chars.next() else {
                    out.push(c);
                    break;
                };
                let set = match e.to_ascii_lowercase() {
                    'd' => Some("0-9"),
                    'w' => Some("0-9A-Za-z_"),
                    's' => Some("\\t\\n\\f\\r "),
                    _ => None,
                };
                match (set, e.is_ascii_uppercase(), in_class) {
                    (Some(set), false, true) => out.push_str(set),
                    (Some(set), false, false) => out.push_str(&format!("[{set}]")),
                    (Some(set), true, _) => out.push_str(&format!("[^{set}]")),
                    (None, _, false) if matches!(e, 'b' | 'B') => {
                        out.push_str(&format!("(?-u:\\{e})"))
                    }
                    (None, _, _) => {
                        out.push(c);
                        out.push(e);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                // A `]` first (after any `^`) is a literal.
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push_str("\\]");
                    chars.next();
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Compiles every pattern (with Rust's `regex`, once Go's syntax accepts it) and every rule
/// and message expression of `s` and below (`s` a resource's root if `resource`), and notes
/// the rules that may go over the per-call cost limit.
fn compile(s: &Schema, resource: bool, c: &mut Compiled) -> Result<(), String> {
    if let Some(p) = &s.pattern
        && !c.patterns.contains_key(p)
        && super::re2::compile(p).is_ok()
        && let Ok(re) = regex::Regex::new(&ascii_classes(p))
    {
        c.patterns.insert(p.clone(), re);
    }
    for rule in &s.x_validations {
        if !c.costly.contains(&rule.rule) && cost::may_exceed(s, resource, rule) {
            c.costly.insert(rule.rule.clone());
        }
        for expr in std::iter::once(&rule.rule).chain(&rule.message_expression) {
            if !c.programs.contains_key(expr) {
                let program = c
                    .env
                    .compile(expr)
                    .map_err(|e| format!("rule `{expr}`: {e}"))?;
                c.programs.insert(expr.clone(), program);
            }
        }
    }
    let mut children = s
        .properties
        .values()
        .chain(s.additional_properties.as_deref())
        .chain(s.items.as_deref())
        .chain(s.junctors());
    children.try_for_each(|child| compile(child, false, c))
}

/// One child of a value the walks go into: its schema, value, old value and path.
struct Child<'a> {
    schema: &'a Schema,
    value: &'a Value,
    old: Option<&'a Value>,
    path: Path,
}

/// The children of `v` (of schema `s`, `old` its old value) that have a schema: declared
/// properties (a resource's `metadata` left to the server), map entries and list items.
fn children<'a>(
    s: &'a Schema,
    v: &'a Value,
    old: Option<&'a Value>,
    at: &Path,
    resource: bool,
) -> Vec<Child<'a>> {
    let resource = resource || s.x_embedded_resource;
    let mut out = Vec::new();
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                let (schema, step) = match s.properties.get(k) {
                    Some(_) if resource && k == "metadata" => continue,
                    Some(p) => (p, Step::Field(k.clone())),
                    None => match &s.additional_properties {
                        Some(a) => (a.as_ref(), Step::Key(k.clone())),
                        None => continue,
                    },
                };
                let old = old.and_then(|o| o.get(k));
                out.push(Child {
                    schema,
                    value: x,
                    old,
                    path: at.child(step),
                });
            }
        }
        Value::Array(items) => {
            if let Some(item) = &s.items {
                for (i, x) in items.iter().enumerate() {
                    let old = correlate_item(s, old, items, x);
                    let path = at.child(Step::Index(i));
                    out.push(Child {
                        schema: item,
                        value: x,
                        old,
                        path,
                    });
                }
            }
        }
        _ => {}
    }
    out
}

/// The old item `item` of the list `items` pairs up with: in a `map` list, the old item with
/// the same keys; in a `set`, an equal old item; in an atomic list, its own old value when the
/// whole list is unchanged.
fn correlate_item<'o>(
    list: &Schema,
    old: Option<&'o Value>,
    items: &[Value],
    item: &Value,
) -> Option<&'o Value> {
    let old_items = old?.as_array()?;
    match (&list.x_list_type, &list.x_list_map_keys) {
        (Some(ListType::Map), Some(keys)) => old_items
            .iter()
            .find(|o| keys.iter().all(|k| o.get(k) == item.get(k))),
        (Some(ListType::Set), _) => old_items.iter().find(|o| *o == item),
        _ if old_items.as_slice() == items => old_items.iter().find(|o| *o == item),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
