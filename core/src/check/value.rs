//! Does a JSON value (a `default` or an `example`) validate against a schema? The apiserver
//! rejects a CRD whose defaults do not, so we check before it does.

use serde_json::Value;

use crate::schema::Schema;

/// The first way `value` fails `schema`, as a message naming the JSON path; `None` if it passes.
pub fn validate(schema: &Schema, value: &Value) -> Option<String> {
    check(schema, value, "").err()
}

fn check(s: &Schema, v: &Value, path: &str) -> Result<(), String> {
    let at = |msg: String| {
        if path.is_empty() {
            msg
        } else {
            format!("{msg} at `{path}`")
        }
    };
    if v.is_null() {
        return if s.nullable {
            Ok(())
        } else {
            Err(at(
                "null is not allowed (the field is not `nullable`)".into()
            ))
        };
    }
    let fits = crate::schema::value_fits_type(v, s.type_str(), s.x_int_or_string);
    if !fits {
        return Err(at(format!("{v} is not of type {}", s.type_str())));
    }
    if let Some(values) = &s.enum_
        && !values.contains(v)
    {
        return Err(at(format!("{v} is not one of the enum values")));
    }
    for branch in &s.all_of {
        check(branch, v, path)?;
    }
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
                check(item, x, &format!("{path}[{i}]"))?;
            }
        }
    }
    if let Some(map) = v.as_object() {
        let len = map.len() as u64;
        if s.min_properties.is_some_and(|m| len < m) || s.max_properties.is_some_and(|m| len > m) {
            return Err(at(format!("{len} properties is outside the allowed range")));
        }
        for (k, x) in map {
            let child = format!("{path}.{k}");
            if let Some(prop) = s.properties.get(k) {
                check(prop, x, &child)?;
            } else if let Some(extra) = &s.additional_properties {
                check(extra, x, &child)?;
            } else if !s.x_preserve_unknown_fields && s.type_str() == "object" {
                return Err(at(format!("unknown field `{k}`")));
            }
        }
        for r in &s.required {
            let defaulted = s.properties.get(r).is_some_and(|p| p.default.is_some());
            if !map.contains_key(r) && !defaulted {
                return Err(at(format!("required field `{r}` is missing")));
            }
        }
    }
    Ok(())
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
}
