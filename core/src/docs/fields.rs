//! One field's row: its type (linked), its default and its validations written out.

use crate::model::{ListType, Schema, Topology};
use serde_json::Value;

use super::types::TypeName;

/// How a page links a type: its own section, or the Kubernetes API reference.
pub trait Links {
    /// The link to the type at `path`, if it has a name: `[PodSpec](https://...)`.
    fn link(&self, path: &str) -> Option<String>;
}

/// No links: a type's own section names its type without linking to itself.
pub struct Plain;

impl Links for Plain {
    fn link(&self, _: &str) -> Option<String> {
        None
    }
}

/// The type column: scalars with their format, `list of T`, `map of T` (string keys), named
/// types linked.
pub fn type_of(schema: &Schema, path: &str, links: &dyn Links) -> String {
    if let Some(link) = links.link(path) {
        return link;
    }
    if schema.x_int_or_string {
        return "int or string".into();
    }
    match schema.type_str() {
        "array" => match &schema.items {
            Some(items) => format!("list of {}", type_of(items, &format!("{path}[*]"), links)),
            None => "list".into(),
        },
        "object" => match &schema.additional_properties {
            Some(values) => format!("map of {}", type_of(values, &format!("{path}[*]"), links)),
            None if schema.x_embedded_resource => "object (a Kubernetes object)".into(),
            None if schema.x_preserve_unknown_fields => "object (any fields)".into(),
            None => "object".into(),
        },
        "" if schema.x_preserve_unknown_fields => "any".into(),
        "" => "any".into(),
        scalar => match &schema.format {
            Some(format) => format!("{scalar} ({format})"),
            None => scalar.to_string(),
        },
    }
}

/// The default, as JSON.
pub fn default_of(schema: &Schema) -> Option<String> {
    schema.default.as_ref().map(|d| code(&compact(d)))
}

/// Every validation on the node (and its `allOf` branches), in words; list items' and map
/// values' own validations follow, prefixed.
pub fn validations(schema: &Schema) -> Vec<String> {
    let mut out = own(schema);
    for branch in &schema.all_of {
        out.extend(own(branch));
    }
    for (label, child) in [
        ("items", schema.items.as_deref()),
        ("values", schema.additional_properties.as_deref()),
    ] {
        if let Some(child) = child {
            out.extend(own(child).into_iter().map(|v| format!("{label}: {v}")));
        }
    }
    out
}

fn own(s: &Schema) -> Vec<String> {
    let mut out = Vec::new();
    let bound = |value: f64, exclusive: bool, word: &str, strict: &str| {
        if exclusive {
            format!("{strict} {}", number(value))
        } else {
            format!("{word} {}", number(value))
        }
    };
    if let Some(min) = s.minimum {
        out.push(bound(min, s.exclusive_minimum, "minimum", "greater than"));
    }
    if let Some(max) = s.maximum {
        out.push(bound(max, s.exclusive_maximum, "maximum", "less than"));
    }
    if let Some(m) = s.multiple_of {
        out.push(format!("a multiple of {}", number(m)));
    }
    let counts = [
        (s.min_length, "at least", "characters"),
        (s.max_length, "at most", "characters"),
        (s.min_items, "at least", "items"),
        (s.max_items, "at most", "items"),
        (s.min_properties, "at least", "keys"),
        (s.max_properties, "at most", "keys"),
    ];
    for (count, word, unit) in counts {
        if let Some(n) = count {
            let unit = if n == 1 {
                unit.trim_end_matches('s')
            } else {
                unit
            };
            out.push(format!("{word} {n} {unit}"));
        }
    }
    if let Some(pattern) = &s.pattern {
        out.push(format!("matches {}", code(pattern)));
    }
    if let Some(values) = &s.enum_ {
        let values: Vec<String> = values.iter().map(|v| code(&compact(v))).collect();
        out.push(format!("one of {}", values.join(", ")));
    }
    match s.x_list_type {
        Some(ListType::Set) => out.push("a set: items are unique".into()),
        Some(ListType::Map) => {
            let keys: Vec<String> = s
                .x_list_map_keys
                .iter()
                .flatten()
                .map(|k| code(k))
                .collect();
            out.push(format!("a map list, keyed by {}", keys.join(", ")));
        }
        Some(ListType::Atomic) => out.push("atomic: replaced whole on apply".into()),
        None => {}
    }
    match s.x_map_type {
        Some(Topology::Atomic) => out.push("atomic: replaced whole on apply".into()),
        Some(Topology::Granular) => out.push("granular: merged key by key on apply".into()),
        None => {}
    }
    if s.nullable {
        out.push("may be null".into());
    }
    for rule in &s.x_validations {
        let mut text = format!("rule {}", code(&rule.rule));
        if let Some(message) = &rule.message {
            text.push_str(&format!(": \"{message}\""));
        } else if let Some(expression) = &rule.message_expression {
            text.push_str(&format!(": message {}", code(expression)));
        }
        if let Some(path) = &rule.field_path {
            text.push_str(&format!(" (on {})", code(path)));
        }
        if let Some(reason) = &rule.reason {
            text.push_str(&format!(" ({reason})"));
        }
        out.push(text);
    }
    out
}

/// A number as the schema writes it: `1`, not `1.0`.
fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// An inline code span that holds any text (backticks included).
pub fn code(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A table cell: pipes escaped, line breaks as `<br>`.
pub fn cell(text: &str) -> String {
    text.trim()
        .replace('|', "\\|")
        .replace("\n\n", "<br><br>")
        .replace('\n', " ")
}

/// A [`TypeName`]'s text when it has no section: its last path segment.
pub fn short(name: &TypeName) -> &str {
    match name {
        TypeName::Own { name, .. } => name,
        TypeName::Kubernetes(path) => path.rsplit("::").next().unwrap_or(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Rule;

    #[test]
    fn types_and_validations_are_written_out() {
        let list = Schema {
            items: Some(Box::new(Schema {
                max_length: Some(63),
                ..Schema::formatted("string", "hostname")
            })),
            x_list_type: Some(ListType::Set),
            max_items: Some(3),
            ..Schema::typed("array")
        };
        assert_eq!(type_of(&list, ".a", &Plain), "list of string (hostname)");
        assert_eq!(
            validations(&list),
            [
                "at most 3 items",
                "a set: items are unique",
                "items: at most 63 characters"
            ]
        );
        let number = Schema {
            minimum: Some(0.0),
            exclusive_minimum: true,
            maximum: Some(10.0),
            enum_: Some(vec![1.into(), 2.into()]),
            x_validations: vec![Rule::new("self != 3 || x", "not three")],
            ..Schema::typed("integer")
        };
        assert_eq!(
            validations(&number),
            [
                "greater than 0",
                "maximum 10",
                "one of `1`, `2`",
                "rule `self != 3 || x`: \"not three\""
            ]
        );
        assert_eq!(cell("a | b\nc\n\nd"), "a \\| b c<br><br>d");
        assert_eq!(code("a`b"), "``a`b``");
    }
}
