//! JSON values as CEL sees them at a schema node: integers as `int`, numbers as `double`,
//! int-or-string as either, `date-time`, `date` and `duration` strings as timestamps and
//! durations, `byte` strings as bytes, objects with their declared fields (names escaped as the server
//! escapes them), maps with their keys, a resource's `apiVersion`, `kind` and
//! `metadata.name`/`generateName`; what preserve-unknown-fields keeps is not visible.

use std::collections::HashMap;
use std::sync::Arc;

use cel::objects::{Key, Map};
use serde_json::Value as Json;

use super::time;
use crate::model::Schema;

/// `v` as a CEL value of schema `s`; `resource` for a resource's root.
pub fn to_cel(s: &Schema, v: &Json, resource: bool) -> cel::Value {
    match v {
        Json::Null => cel::Value::Null,
        Json::Bool(b) => cel::Value::Bool(*b),
        Json::Number(n) => match (s.type_str(), n.as_i64()) {
            ("number", _) => cel::Value::Float(n.as_f64().unwrap_or(0.0)),
            (_, Some(i)) => cel::Value::Int(i),
            _ => match n.as_f64() {
                Some(f) if f.fract() == 0.0 && s.type_str() == "integer" => {
                    cel::Value::Int(f as i64)
                }
                f => cel::Value::Float(f.unwrap_or(0.0)),
            },
        },
        Json::String(text) => string(s, text),
        Json::Array(items) => {
            let item = s.items.as_deref();
            let items = items
                .iter()
                .map(|x| match item {
                    Some(i) => to_cel(i, x, i.x_embedded_resource),
                    None => untyped(x),
                })
                .collect();
            cel::Value::List(Arc::new(items))
        }
        Json::Object(map) => {
            let resource = resource || s.x_embedded_resource;
            let mut out = HashMap::new();
            for (k, x) in map {
                let value = if let Some(p) = s.properties.get(k) {
                    match crate::names::cel_name(k) {
                        Some(name) if !(resource && k == "metadata") => {
                            (name, to_cel(p, x, p.x_embedded_resource))
                        }
                        _ => continue,
                    }
                } else if let Some(a) = &s.additional_properties {
                    (k.clone(), to_cel(a, x, a.x_embedded_resource))
                } else if resource && (k == "apiVersion" || k == "kind") {
                    (k.clone(), untyped(x))
                } else {
                    continue;
                };
                out.insert(Key::String(Arc::new(value.0)), value.1);
            }
            if resource && let Some(meta) = map.get("metadata").and_then(Json::as_object) {
                let mut m = HashMap::new();
                for k in ["name", "generateName"] {
                    if let Some(x) = meta.get(k) {
                        m.insert(Key::String(Arc::new(k.into())), untyped(x));
                    }
                }
                let meta = cel::Value::Map(Map { map: Arc::new(m) });
                out.insert(Key::String(Arc::new("metadata".into())), meta);
            }
            cel::Value::Map(Map { map: Arc::new(out) })
        }
    }
}

/// A string as its `format` makes it: a timestamp (`date-time`, `date`), a duration
/// (`duration`), bytes (`byte`, base64), else a string (also when it does not parse, which the
/// format check reports).
fn string(s: &Schema, text: &str) -> cel::Value {
    use base64::Engine;
    let converted = match s.format.as_deref() {
        Some("byte") => base64::engine::general_purpose::STANDARD
            .decode(text)
            .ok()
            .map(|b| cel::Value::Bytes(Arc::new(b))),
        Some("date-time") => time::date_time(text).map(cel::Value::Timestamp),
        Some("date") => time::date(text).map(cel::Value::Timestamp),
        Some("duration") => time::duration(text).map(cel::Value::Duration),
        _ => None,
    };
    converted.unwrap_or_else(|| cel::Value::String(Arc::new(text.to_string())))
}

/// A value with no schema below it.
fn untyped(v: &Json) -> cel::Value {
    to_cel(&Schema::default(), v, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A CEL value back as JSON (for a message expression's or a function's result).
    fn to_json(v: &cel::Value) -> Json {
        match v {
            cel::Value::Null => Json::Null,
            cel::Value::Bool(b) => Json::Bool(*b),
            cel::Value::Int(i) => Json::from(*i),
            cel::Value::UInt(u) => Json::from(*u),
            cel::Value::Float(f) => Json::from(*f),
            cel::Value::String(s) => Json::String(s.to_string()),
            cel::Value::List(items) => Json::Array(items.iter().map(to_json).collect()),
            cel::Value::Map(m) => {
                let mut out = serde_json::Map::new();
                for (k, x) in m.map.iter() {
                    let key = match k {
                        Key::String(s) => s.to_string(),
                        Key::Int(i) => i.to_string(),
                        Key::Uint(u) => u.to_string(),
                        Key::Bool(b) => b.to_string(),
                    };
                    out.insert(key, to_json(x));
                }
                Json::Object(out)
            }
            other => Json::String(format!("{other:?}")),
        }
    }

    #[test]
    fn values_take_the_types_cel_gives_their_schema() {
        let mut s = Schema::typed("object");
        s.properties.insert("n".into(), Schema::typed("number"));
        s.properties
            .insert("min-size".into(), Schema::typed("integer"));
        let v = to_cel(&s, &json!({"n": 2, "min-size": 3, "gone": 1}), false);
        assert_eq!(to_json(&v), json!({"n": 2.0, "min__dash__size": 3}));
        let root = to_cel(
            &s,
            &json!({"kind": "K", "metadata": {"name": "a", "uid": "u"}}),
            true,
        );
        assert_eq!(
            to_json(&root),
            json!({"kind": "K", "metadata": {"name": "a"}})
        );
    }
}
