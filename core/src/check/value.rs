//! JSON values against schemas, as the apiserver checks them.
//!
//! - [`validate`]: a value written into a schema (a `default`, an `example`). The apiserver
//!   rejects a CRD whose defaults do not validate, so nothing is forgiven: a null needs
//!   `nullable`, a field the schema does not know is an error.
//! - [`admit`]: an object sent to the apiserver. It is first changed the way the apiserver
//!   changes a request (pruning, then defaulting), then validated:
//!   1. a field the schema does not know is dropped, unless a node on the way keeps unknown
//!      fields (`x-kubernetes-preserve-unknown-fields`); `apiVersion`, `kind` and `metadata` of
//!      the root and of an `x-kubernetes-embedded-resource` are always known;
//!   2. a null where the schema is not `nullable` is dropped (not rejected), or replaced by the
//!      field's `default` when it has one; nulls inside arrays stay (and are rejected);
//!   3. an absent field with a `default` gets it.
//!
//! Validation covers `type`, `x-kubernetes-int-or-string`, `enum`, the bounds (`minimum`,
//! `maximum` with their `exclusive*` flags, `multipleOf`, `min`/`maxLength`, `min`/`maxItems`,
//! `min`/`maxProperties`), `items`, `properties`, `additionalProperties`, `required`, `allOf`,
//! `anyOf`, `oneOf`, `not`, and the `apiVersion`/`kind` an embedded resource must have. Not
//! checked: `format`, `pattern`, list-type uniqueness, CEL rules, and what is inside `metadata`
//! (the apiserver validates object metadata with its own rules).

use crate::model::Schema;
use serde_json::Value;

/// The first way `value` fails `schema`, as a message naming the JSON path; `None` if it passes.
pub fn validate(schema: &Schema, value: &Value) -> Option<String> {
    check(schema, value, false, "").err()
}

/// How [`admit`] receives an object.
#[derive(Clone, Copy, Debug, Default)]
pub struct Admission {
    /// The value is a whole resource (`schema` is a version's `openAPIV3Schema`): its
    /// `apiVersion`, `kind` and `metadata` are treated as in an embedded resource.
    pub root: bool,
    /// Also reject what the apiserver would drop silently: a field the schema does not know,
    /// and a null map value (the entry disappears). A null dropped from a named property is
    /// not a loss: the field reads back as absent.
    pub strict: bool,
}

/// `object` as the apiserver would store it (pruned and defaulted), or the first reason it
/// would be rejected.
pub fn admit(schema: &Schema, object: &Value, how: Admission) -> Result<Value, String> {
    let mut stored = object.clone();
    let mut dropped = Vec::new();
    prune(schema, &mut stored, how.root, "", &mut dropped);
    super::defaults::apply(schema, &mut stored);
    if how.strict
        && let Some(loss) = dropped.into_iter().next()
    {
        return Err(match loss {
            Dropped::Unknown(at) => format!("unknown field `{at}` is dropped"),
            Dropped::NullEntry(at) => format!("the null map value at `{at}` is dropped"),
        });
    }
    check(schema, &stored, how.root, "")?;
    Ok(stored)
}

/// The fields the apiserver knows on every resource, root or embedded. It checks `metadata`
/// with its own rules, whatever the schema says below it.
const RESOURCE_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// The schema of field `key` of an object, and whether it is a map entry
/// (`additionalProperties`) rather than a named property.
fn field<'s>(s: &'s Schema, key: &str) -> Option<(&'s Schema, bool)> {
    match s.properties.get(key) {
        Some(prop) => Some((prop, false)),
        None => s
            .additional_properties
            .as_deref()
            .map(|extra| (extra, true)),
    }
}

/// What pruning dropped that strict mode rejects, at a path written `.a.b[0]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dropped {
    /// A field the schema does not know.
    Unknown(String),
    /// A null map value.
    NullEntry(String),
}

/// Steps 1 and 2 of [`admit`], recording in `dropped` each loss that strict mode rejects.
pub(crate) fn prune(
    s: &Schema,
    v: &mut Value,
    resource: bool,
    path: &str,
    dropped: &mut Vec<Dropped>,
) {
    match v {
        Value::Object(map) => {
            let resource = resource || s.x_embedded_resource;
            map.retain(|k, x| {
                let at = format!("{path}.{k}");
                let implicit = resource && RESOURCE_FIELDS.contains(&k.as_str());
                match field(s, k) {
                    _ if implicit && k == "metadata" => true,
                    // Kept for defaulting (step 3) when there is a default.
                    Some((child, entry)) if x.is_null() && !child.nullable => {
                        if child.default.is_none() && entry {
                            dropped.push(Dropped::NullEntry(at.clone()));
                        }
                        child.default.is_some()
                    }
                    Some((child, _)) => {
                        prune(child, x, false, &at, dropped);
                        true
                    }
                    None if implicit || s.x_preserve_unknown_fields => true,
                    None => {
                        dropped.push(Dropped::Unknown(at.clone()));
                        false
                    }
                }
            });
        }
        Value::Array(items) => {
            if let Some(item) = &s.items {
                for (i, x) in items.iter_mut().enumerate() {
                    prune(item, x, false, &format!("{path}[{i}]"), dropped);
                }
            }
        }
        _ => {}
    }
}

/// Validation proper: `resource` says the value is the root resource.
fn check(s: &Schema, v: &Value, resource: bool, path: &str) -> Result<(), String> {
    let at = |msg: String| located(path, msg);
    if v.is_null() {
        return if s.nullable {
            Ok(())
        } else {
            Err(at(
                "null is not allowed (the field is not `nullable`)".into()
            ))
        };
    }
    let fits = fits_type(v, s.type_str(), s.x_int_or_string);
    if !fits {
        return Err(at(format!("{v} is not of type {}", s.type_str())));
    }
    if let Some(values) = &s.enum_
        && !values.contains(v)
    {
        let listed: Vec<String> = values.iter().map(Value::to_string).collect();
        let near = match v.as_str() {
            Some(text) => {
                let names: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
                crate::names::nearest(text, &names)
                    .map(|n| format!("; did you mean `{n}`?"))
                    .unwrap_or_default()
            }
            None => String::new(),
        };
        return Err(at(format!(
            "{v} is not one of the enum values ({}){near}",
            listed.join(", ")
        )));
    }
    junctors(s, v, path)?;
    if let Some(n) = v.as_f64() {
        if let Some(min) = s.minimum
            && (n < min || (s.exclusive_minimum && n == min))
        {
            return Err(at(format!("{v} is below the minimum {min}")));
        }
        if let Some(max) = s.maximum
            && (n > max || (s.exclusive_maximum && n == max))
        {
            return Err(at(format!("{v} is above the maximum {max}")));
        }
        if let Some(m) = s.multiple_of
            && (n / m).fract() != 0.0
        {
            return Err(at(format!("{v} is not a multiple of {m}")));
        }
    }
    if let Some(text) = v.as_str() {
        let len = text.chars().count() as u64;
        if s.min_length.is_some_and(|m| len < m) || s.max_length.is_some_and(|m| len > m) {
            return Err(at(format!("{v} has a length outside the allowed range")));
        }
    }
    if let Some(items) = v.as_array() {
        let len = items.len() as u64;
        if s.min_items.is_some_and(|m| len < m) || s.max_items.is_some_and(|m| len > m) {
            return Err(at(format!("{len} items is outside the allowed range")));
        }
        if let Some(item) = &s.items {
            for (i, x) in items.iter().enumerate() {
                check(item, x, false, &format!("{path}[{i}]"))?;
            }
        }
    }
    if let Some(map) = v.as_object() {
        let len = map.len() as u64;
        if s.min_properties.is_some_and(|m| len < m) || s.max_properties.is_some_and(|m| len > m) {
            return Err(at(format!("{len} properties is outside the allowed range")));
        }
        let resource = resource || s.x_embedded_resource;
        for (k, x) in map {
            let child = format!("{path}.{k}");
            let implicit = resource && RESOURCE_FIELDS.contains(&k.as_str());
            if implicit {
                resource_field(k, x).map_err(|msg| located(&child, msg))?;
            }
            match field(s, k) {
                _ if implicit && k == "metadata" => {}
                Some((prop, _)) => check(prop, x, false, &child)?,
                None if implicit || s.x_preserve_unknown_fields || s.type_str() != "object" => {}
                None => return Err(at(format!("unknown field `{k}`"))),
            }
        }
        let required = s.required.iter().map(String::as_str);
        let implied = resource.then_some(["apiVersion", "kind"]).into_iter();
        for r in required.chain(implied.flatten()) {
            let defaulted = s.properties.get(r).is_some_and(|p| p.default.is_some());
            if !map.contains_key(r) && !defaulted {
                return Err(at(format!("required field `{r}` is missing")));
            }
        }
    }
    Ok(())
}

/// `allOf`, `anyOf`, `oneOf` and `not`: in a structural schema their branches hold value
/// validations only (often just `required`), checked against the same value.
fn junctors(s: &Schema, v: &Value, path: &str) -> Result<(), String> {
    for branch in &s.all_of {
        check(branch, v, false, path)?;
    }
    let passing = |branches: &[Schema]| {
        branches
            .iter()
            .filter(|b| check(b, v, false, path).is_ok())
            .count()
    };
    if !s.any_of.is_empty() && passing(&s.any_of) == 0 {
        return Err(located(path, "matches none of the `anyOf` branches".into()));
    }
    if !s.one_of.is_empty() {
        let n = passing(&s.one_of);
        if n != 1 {
            let msg = format!("matches {n} of the `oneOf` branches instead of exactly one");
            return Err(located(path, msg));
        }
    }
    if let Some(not) = &s.not
        && check(not, v, false, path).is_ok()
    {
        return Err(located(path, "matches the `not` schema".into()));
    }
    Ok(())
}

/// `msg`, saying where unless at the root.
fn located(path: &str, msg: String) -> String {
    if path.is_empty() {
        msg
    } else {
        format!("{msg} at `{path}`")
    }
}

/// What the apiserver requires of `apiVersion`, `kind` and `metadata` where the schema does
/// not say: non-empty strings, and an object.
fn resource_field(key: &str, v: &Value) -> Result<(), String> {
    let ok = match key {
        "metadata" => v.is_object(),
        _ => v.as_str().is_some_and(|s| !s.is_empty()),
    };
    if ok {
        Ok(())
    } else if key == "metadata" {
        Err(format!("{v} is not an object"))
    } else {
        Err(format!("{v} is not a non-empty string"))
    }
}

/// Whether a JSON value has the given OpenAPI type.
pub(crate) fn fits_type(v: &Value, ty: &str, int_or_string: bool) -> bool {
    let is_int = v.as_f64().is_some_and(|f| f.fract() == 0.0);
    match ty {
        _ if int_or_string => v.is_string() || is_int,
        "string" => v.is_string(),
        "integer" => is_int,
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_checked_against_type_and_bounds() {
        let int = Schema {
            minimum: Some(1.0),
            maximum: Some(5.0),
            ..Schema::typed("integer")
        };
        assert_eq!(validate(&int, &json!(3)), None);
        assert!(
            validate(&int, &json!(0))
                .unwrap()
                .contains("below the minimum")
        );
        assert!(
            validate(&int, &json!(1.5))
                .unwrap()
                .contains("not of type integer")
        );
        assert!(validate(&int, &json!("3")).unwrap().contains("not of type"));
    }

    #[test]
    fn objects_check_properties_and_required() {
        let mut obj = Schema::typed("object");
        obj.properties.insert("a".into(), Schema::typed("string"));
        obj.required = vec!["a".into()];
        assert_eq!(validate(&obj, &json!({"a": "x"})), None);
        assert!(
            validate(&obj, &json!({}))
                .unwrap()
                .contains("required field `a`")
        );
        assert!(
            validate(&obj, &json!({"a": "x", "b": 1}))
                .unwrap()
                .contains("unknown field `b`")
        );
        assert!(
            validate(&obj, &json!({"a": 1}))
                .unwrap()
                .contains("at `.a`")
        );
    }

    fn required(names: &[&str]) -> Schema {
        Schema {
            required: names.iter().map(|n| n.to_string()).collect(),
            ..Schema::default()
        }
    }

    /// `{a?: string, b?: string}` with the given junctors.
    fn pair(f: impl FnOnce(&mut Schema)) -> Schema {
        let mut obj = Schema::typed("object");
        obj.properties.insert("a".into(), Schema::typed("string"));
        obj.properties.insert("b".into(), Schema::typed("string"));
        f(&mut obj);
        obj
    }

    #[test]
    fn junctors_count_matching_branches() {
        let both = json!({"a": "x", "b": "y"});
        let one_of = pair(|o| o.one_of = vec![required(&["a"]), required(&["b"])]);
        assert!(
            validate(&one_of, &both)
                .unwrap()
                .contains("2 of the `oneOf`")
        );
        assert!(validate(&one_of, &json!({})).unwrap().contains("0 of the"));
        assert_eq!(validate(&one_of, &json!({"b": "y"})), None);

        let any_of = pair(|o| o.any_of = vec![required(&["a"]), required(&["b"])]);
        assert_eq!(validate(&any_of, &both), None);
        assert!(validate(&any_of, &json!({})).unwrap().contains("none of"));

        let not = pair(|o| o.not = Some(Box::new(required(&["a", "b"]))));
        assert!(validate(&not, &both).unwrap().contains("`not`"));
        assert_eq!(validate(&not, &json!({"a": "x"})), None);

        let all_of = pair(|o| o.all_of = vec![required(&["a"]), required(&["b"])]);
        assert!(validate(&all_of, &json!({"a": "x"})).is_some());
        assert_eq!(validate(&all_of, &both), None);
    }

    #[test]
    fn admission_prunes_nulls_and_defaults_before_validating() {
        let mut obj = pair(|o| o.required = vec!["b".into()]);
        obj.properties.get_mut("b").unwrap().default = Some(json!("d"));
        obj.properties.insert(
            "m".into(),
            Schema {
                additional_properties: Some(Box::new(Schema::typed("string"))),
                ..Schema::typed("object")
            },
        );
        let lenient = Admission::default();
        let stored = admit(&obj, &json!({"a": null, "b": null, "c": 1}), lenient).unwrap();
        assert_eq!(stored, json!({"b": "d"}));
        let strict = Admission {
            strict: true,
            ..lenient
        };
        assert_eq!(
            admit(&obj, &json!({"a": null}), strict).unwrap(),
            json!({"b": "d"})
        );
        assert!(
            admit(&obj, &json!({"c": 1}), strict)
                .unwrap_err()
                .contains("`.c`")
        );
        let null_entry = json!({"m": {"k": null}});
        assert_eq!(admit(&obj, &null_entry, lenient).unwrap()["m"], json!({}));
        assert!(
            admit(&obj, &null_entry, strict)
                .unwrap_err()
                .contains("`.m.k`")
        );
        assert!(
            admit(&obj, &json!({"a": 1}), lenient)
                .unwrap_err()
                .contains("`.a`")
        );
        let list = Schema {
            items: Some(Box::new(Schema::typed("string"))),
            ..Schema::typed("array")
        };
        assert!(
            admit(&list, &json!([null]), lenient)
                .unwrap_err()
                .contains("null")
        );
    }

    #[test]
    fn resources_know_their_api_version_kind_and_metadata() {
        let mut embedded = Schema {
            x_embedded_resource: true,
            ..Schema::typed("object")
        };
        embedded
            .properties
            .insert("spec".into(), Schema::typed("object"));
        let strict = Admission {
            root: false,
            strict: true,
        };
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}});
        assert_eq!(admit(&embedded, &pod, strict).unwrap(), pod);
        assert!(
            admit(&embedded, &json!({"kind": "Pod"}), strict)
                .unwrap_err()
                .contains("`apiVersion` is missing")
        );
        assert!(
            admit(&embedded, &json!({"apiVersion": "", "kind": "Pod"}), strict)
                .unwrap_err()
                .contains("non-empty string at `.apiVersion`")
        );
        // A version's root: `metadata: {type: object}` does not prune the object's metadata.
        let mut top = Schema::typed("object");
        top.properties
            .insert("metadata".into(), Schema::typed("object"));
        let root = Admission {
            root: true,
            ..strict
        };
        assert_eq!(admit(&top, &pod, root).unwrap(), pod);
        assert!(
            admit(&top, &pod, strict)
                .unwrap_err()
                .contains("unknown field `.apiVersion`")
        );
    }
}
