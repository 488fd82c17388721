//! OpenAPI value validation of a custom resource, keyword by keyword, worded as kube-openapi
//! words it and turned into field errors as apiextensions turns them
//! (`kubeOpenAPIResultToFieldErrors`): `type`, `nullable`, `format`, `enum`, bounds, lengths,
//! `pattern`, item and property counts, `required`, the junctors, list-type uniqueness, and
//! what the server requires of a resource's `apiVersion`, `kind` and `metadata`.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::error::{FieldError, Reason, go_float};
use super::path::{Path, Step};
use super::{Compiled, Found, formats};
use crate::model::{ListType, Schema};

/// Validates `v` (with `old`, its value before an update, for ratcheting) against `s`.
pub(super) fn validate(
    c: &Compiled,
    s: &Schema,
    v: &Value,
    old: Option<&Value>,
    path: &Path,
    resource: bool,
    out: &mut Found,
) {
    let mut here = Vec::new();
    node(c, s, v, path, resource, &mut here);
    // Ratcheting (KEP-4008): what was already wrong in an unchanged value is let through.
    let unchanged = old == Some(v);
    for mut e in here {
        if e.path.steps().is_empty() {
            e.path = path.clone();
        }
        if unchanged {
            out.ratcheted.push(e);
        } else {
            out.errors.push(e);
        }
    }
    if !fits_type(s, v) {
        return;
    }
    for child in super::children(s, v, old, path, resource) {
        validate(
            c,
            child.schema,
            child.value,
            child.old,
            &child.path,
            false,
            out,
        );
    }
}

/// The errors of one node, its children left out.
fn node(
    c: &Compiled,
    s: &Schema,
    v: &Value,
    path: &Path,
    resource: bool,
    out: &mut Vec<FieldError>,
) {
    let name = path.openapi();
    let field = name.as_str();
    let invalid = |detail: String| {
        FieldError::new(
            Reason::Invalid,
            field,
            v,
            format!("{name} in body {detail}"),
        )
    };
    if v.is_null() {
        if !s.nullable && !type_name(s).is_empty() {
            let detail = format!("{name} in body must be of type {}: \"null\"", type_name(s));
            out.push(FieldError::new(
                Reason::TypeInvalid,
                field,
                &Value::from("null"),
                detail,
            ));
        }
        // A null is never one of the `enum`'s values, even a null one.
        if let Some(values) = s.enum_.as_ref().filter(|_| s.nullable) {
            out.push(unsupported(values, field, v));
        }
        return;
    }
    let int_format = s
        .format
        .as_deref()
        .filter(|f| matches!(*f, "int32" | "int64"));
    if !fits_type(s, v) {
        let kind = json_type(v);
        let (shown, expected) = match int_format {
            Some(f) if kind == "number" => ("float64", f),
            _ => (kind, type_name(s)),
        };
        let detail = format!("{name} in body must be of type {expected}: \"{shown}\"");
        out.push(FieldError::new(
            Reason::TypeInvalid,
            field,
            &Value::from(shown),
            detail,
        ));
        if kind == "number" && s.type_str() == "integer" {
            out.push(unchecked_integer(&name, int_format));
        }
        return;
    }
    if int_format == Some("int32") && v.as_i64().is_none_or(|n| i32::try_from(n).is_err()) {
        out.push(unchecked_integer(&name, int_format));
    }
    if s.format.as_deref() == Some("float")
        && v.as_f64().is_some_and(|f| f.abs() > f64::from(f32::MAX))
    {
        let detail = format!("Checked value must be of type number with format float in {name}");
        out.push(FieldError::new(
            Reason::Invalid,
            "",
            &Value::from(""),
            detail,
        ));
    }
    if let (Some(format), Some(text)) = (&s.format, v.as_str())
        && formats::valid(format, text) == Some(false)
    {
        let detail = format!(
            "{name} in body must be of type {format}: {}",
            super::error::go_quote(text)
        );
        out.push(FieldError::new(Reason::TypeInvalid, field, v, detail));
    }
    if let Some(values) = &s.enum_
        && !values.contains(v)
    {
        out.push(unsupported(values, field, v));
    }
    if v.is_number() {
        out.extend(
            bounds(s, v, field)
                .into_iter()
                .map(|(value, detail)| FieldError::new(Reason::Invalid, field, &value, detail)),
        );
    }
    if let Some(text) = v.as_str() {
        let len = text.chars().count() as u64;
        if let Some(max) = s.max_length
            && len > max
        {
            let unit = if max == 1 { "byte" } else { "bytes" };
            let detail = format!("may not be more than {max} {unit}");
            out.push(FieldError::new(Reason::TooLong, field, v, detail));
        }
        if let Some(min) = s.min_length
            && len < min
        {
            out.push(invalid(format!("should be at least {min} chars long")));
        }
        if let Some(pattern) = &s.pattern
            && let Some(re) = c.patterns.get(pattern)
            && !re.is_match(text)
        {
            out.push(invalid(format!("should match '{pattern}'")));
        }
    }
    if let Some(items) = v.as_array() {
        count(
            field,
            &name,
            items.len(),
            s.max_items,
            s.min_items,
            "items",
            out,
        );
        uniqueness(s, items, path, out);
    }
    if let Some(map) = v.as_object() {
        count(
            field,
            &name,
            map.len(),
            s.max_properties,
            s.min_properties,
            "properties",
            out,
        );
        for r in &s.required {
            if !map.contains_key(r) {
                let at = path.child(Step::Field(r.clone())).openapi();
                out.push(FieldError::new(Reason::Required, &at, &Value::from(""), ""));
            }
        }
        if resource || s.x_embedded_resource {
            resource_fields(map, path, resource && path.steps().is_empty(), out);
        }
    }
    junctors(c, s, v, path, &name, out);
}

/// The error of an integer the server's format check refuses (a fraction, or out of `int32`):
/// at no field.
fn unchecked_integer(name: &str, format: Option<&str>) -> FieldError {
    let format = match format {
        Some(f) => format!("with format {f}"),
        None => "(default format)".into(),
    };
    let detail = format!("Checked value must be of type integer {format} in {name}");
    FieldError::new(Reason::Invalid, "", &Value::from(""), detail)
}

/// `maxItems`/`minItems` (`what` is `items`) or `maxProperties`/`minProperties`.
fn count(
    field: &str,
    name: &str,
    n: usize,
    max: Option<u64>,
    min: Option<u64>,
    what: &str,
    out: &mut Vec<FieldError>,
) {
    let n64 = n as u64;
    if let Some(max) = max
        && n64 > max
    {
        let unit = if max == 1 { "item" } else { "items" };
        let detail = format!("must have at most {max} {unit}");
        out.push(FieldError::new(
            Reason::TooMany,
            field,
            &Value::from(n),
            detail,
        ));
    }
    if let Some(min) = min
        && n64 < min
    {
        let detail = format!("{name} in body should have at least {min} {what}");
        out.push(FieldError::new(
            Reason::Invalid,
            field,
            &Value::from(n),
            detail,
        ));
    }
}

/// `x-kubernetes-list-type: set` items and `map` keys must be unique: a value's first repeat
/// is a `Duplicate value` at its index.
fn uniqueness(s: &Schema, items: &[Value], path: &Path, out: &mut Vec<FieldError>) {
    let key = |x: &Value| -> Value {
        match (&s.x_list_type, &s.x_list_map_keys) {
            (Some(ListType::Map), Some(keys)) => {
                let mut k = Map::new();
                for name in keys {
                    if let Some(v) = x.get(name) {
                        k.insert(name.clone(), v.clone());
                    }
                }
                Value::Object(k)
            }
            _ => x.clone(),
        }
    };
    if !matches!(s.x_list_type, Some(ListType::Set | ListType::Map)) {
        return;
    }
    let (mut seen, mut repeated): (Vec<Value>, Vec<Value>) = (Vec::new(), Vec::new());
    for (i, x) in items.iter().enumerate() {
        let k = key(x);
        if !seen.contains(&k) {
            seen.push(k);
        } else if !repeated.contains(&k) {
            let item = path.child(Step::Index(i));
            out.push(FieldError::new(Reason::Duplicate, &item.field(), &k, "").at(&item));
            repeated.push(k);
        }
    }
}

/// What the server requires of a resource: an embedded one's `apiVersion` and `kind`, the
/// root's `metadata.name` (or `generateName`), a DNS subdomain.
fn resource_fields(map: &Map<String, Value>, path: &Path, root: bool, out: &mut Vec<FieldError>) {
    if root {
        let meta = map.get("metadata");
        let name = meta.and_then(|m| m.get("name")).and_then(Value::as_str);
        let generate = meta
            .and_then(|m| m.get("generateName"))
            .and_then(Value::as_str);
        match name {
            Some(n) if !crate::names::is_dns_subdomain(n) => {
                out.push(FieldError::new(
                    Reason::Invalid,
                    "metadata.name",
                    &Value::from(n),
                    DNS_SUBDOMAIN,
                ));
            }
            None | Some("") if generate.is_none_or(str::is_empty) => out.push(FieldError::new(
                Reason::Required,
                "metadata.name",
                &Value::from(""),
                "name or generateName is required",
            )),
            _ => {}
        }
        return;
    }
    for k in ["apiVersion", "kind"] {
        let at = path.child(Step::Field(k.into())).field();
        match map.get(k).and_then(Value::as_str) {
            None => out.push(FieldError::new(Reason::Required, &at, &Value::from(""), "")),
            Some("") => out.push(FieldError::new(
                Reason::Invalid,
                &at,
                &Value::from(""),
                "must not be empty",
            )),
            Some(_) => {}
        }
    }
}

/// The detail of an object name that is not a DNS subdomain.
const DNS_SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case \
    alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character \
    (e.g. 'example.com', regex used for validation is \
    '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/// `allOf`, `anyOf`, `oneOf` and `not` as kube-openapi reports them: a summary without a
/// field (`"spec.x" must validate all the schemas (allOf)`), with every branch's errors for
/// `allOf` and the first branch's for a failed `anyOf` or a `oneOf` that none passes.
fn junctors(
    c: &Compiled,
    s: &Schema,
    v: &Value,
    path: &Path,
    name: &str,
    out: &mut Vec<FieldError>,
) {
    let errors_of = |b: &Schema| {
        let mut errors = Vec::new();
        node(c, b, v, path, false, &mut errors);
        errors
    };
    let summary = |detail: &str| {
        let d = format!("{} {detail}", super::error::go_quote(name));
        FieldError::new(Reason::Invalid, "", &Value::from(""), d).at(path)
    };
    let all: Vec<FieldError> = s.all_of.iter().flat_map(errors_of).collect();
    if !all.is_empty() {
        out.extend(all);
        out.push(summary("must validate all the schemas (allOf)"));
    }
    if !s.any_of.is_empty() {
        let failed: Vec<Vec<FieldError>> = s.any_of.iter().map(errors_of).collect();
        if failed.iter().all(|e| !e.is_empty()) {
            out.push(summary("must validate at least one schema (anyOf)"));
            out.extend(failed.into_iter().next().unwrap_or_default());
        }
    }
    if !s.one_of.is_empty() {
        let results: Vec<Vec<FieldError>> = s.one_of.iter().map(errors_of).collect();
        match results.iter().filter(|e| e.is_empty()).count() {
            1 => {}
            0 => {
                out.push(summary(
                    "must validate one and only one schema (oneOf). Found none valid",
                ));
                out.extend(results.into_iter().next().unwrap_or_default());
            }
            n => out.push(summary(&format!(
                "must validate one and only one schema (oneOf). Found {n} valid alternatives"
            ))),
        }
    }
    if let Some(not) = &s.not
        && errors_of(not).is_empty()
    {
        out.push(summary("must not validate the schema (not)"));
    }
}

/// The `type` as kube-openapi names it in messages (`integer,string` for int-or-string).
fn type_name(s: &Schema) -> &str {
    if s.x_int_or_string {
        "integer,string"
    } else {
        s.type_str()
    }
}

/// The JSON type of a value, as kube-openapi names it: a number written with a fraction or an
/// exponent (`2.0`, `2e3`) is a `number`, even where an `integer` accepts it.
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether `v` (not null) has the schema's type.
fn fits_type(s: &Schema, v: &Value) -> bool {
    v.is_null() || crate::check::value::fits_type(v, s.type_str(), s.x_int_or_string)
}

/// The error of a value not in `enum`.
fn unsupported(values: &[Value], field: &str, v: &Value) -> FieldError {
    let listed: Vec<String> = values
        .iter()
        .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
        .map(|x| super::error::go_quote(&x))
        .collect();
    let detail = format!("supported values: {}", listed.join(", "));
    FieldError::new(Reason::NotSupported, field, v, detail)
}

/// A number's `maximum`, `minimum` and `multipleOf` errors (the value shown, and the detail)
/// at `field`.
/// An integer is checked as go-openapi's `*NativeType` checks do: against the bounds and the
/// factor truncated to integers (`maximum: 2.5` reads as 2, `multipleOf: 0.5` as 0, which
/// is refused as not positive).
fn bounds(s: &Schema, v: &Value, field: &str) -> Vec<(Value, String)> {
    let mut out = Vec::new();
    let mut invalid = |detail: String| out.push((v.clone(), format!("{field} in body {detail}")));
    let integer = v.as_i64().map(i128::from).or(v.as_u64().map(i128::from));
    let n = v.as_f64().unwrap_or_default();
    // `n` compared with `bound`: exactly for an integer (the bound truncated), else as floats.
    let order = |bound: f64| match integer {
        Some(i) => (i.cmp(&(bound.trunc() as i128)), bound.trunc()),
        None => (n.partial_cmp(&bound).unwrap_or(Ordering::Equal), bound),
    };
    if let Some(max) = s.maximum {
        let (o, max) = order(max);
        if s.exclusive_maximum && o != Ordering::Less {
            invalid(format!("should be less than {}", go_float(max)));
        } else if o == Ordering::Greater {
            invalid(format!("should be less than or equal to {}", go_float(max)));
        }
    }
    if let Some(min) = s.minimum {
        let (o, min) = order(min);
        if s.exclusive_minimum && o != Ordering::Greater {
            invalid(format!("should be greater than {}", go_float(min)));
        } else if o == Ordering::Less {
            invalid(format!(
                "should be greater than or equal to {}",
                go_float(min)
            ));
        }
    }
    let mut positive = None;
    if let Some(m) = s.multiple_of {
        match integer {
            Some(i) => {
                let factor = m.trunc() as i128;
                if factor <= 0 {
                    let detail = format!(
                        "factor MultipleOf declared for {field} must be positive: {factor}"
                    );
                    positive = Some((Value::from(factor as i64), detail));
                } else if i % factor != 0 {
                    invalid(format!("should be a multiple of {factor}"));
                }
            }
            None => {
                let ratio = if m < 1.0 { 1.0 / m * n } else { n / m };
                if !is_json_integer(ratio) {
                    invalid(format!("should be a multiple of {}", go_float(m)));
                }
            }
        }
    }
    out.extend(positive);
    out
}

/// go-openapi's `IsFloat64AJSONInteger`: `f` is an integer, up to a relative error of 1e-9.
fn is_json_integer(f: f64) -> bool {
    if !f.is_finite() || f.abs() > 9_007_199_254_740_992.0 {
        return false;
    }
    let g = f.trunc();
    let diff = (f - g).abs();
    if f == g {
        return true;
    }
    if f == 0.0 || g == 0.0 {
        return false;
    }
    diff / (f.abs() + g.abs()).min(f64::MAX) < 1e-9
}
