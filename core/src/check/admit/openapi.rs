//! OpenAPI value validation of a custom resource, keyword by keyword, worded as kube-openapi
//! words it and turned into field errors as apiextensions turns them
//! (`kubeOpenAPIResultToFieldErrors`): `type`, `nullable`, `format`, `enum`, bounds, lengths,
//! `pattern`, item and property counts, `required`, the junctors, list-type uniqueness, and
//! what the server requires of a resource's `apiVersion`, `kind` and `metadata`.

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
        let listed: Vec<String> = values
            .iter()
            .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
            .map(|x| super::error::go_quote(&x))
            .collect();
        let detail = format!("supported values: {}", listed.join(", "));
        out.push(FieldError::new(Reason::NotSupported, field, v, detail));
    }
    if let Some(n) = v.as_f64() {
        if let Some(max) = s.maximum {
            if s.exclusive_maximum && n >= max {
                out.push(invalid(format!("should be less than {}", go_float(max))));
            } else if n > max {
                out.push(invalid(format!(
                    "should be less than or equal to {}",
                    go_float(max)
                )));
            }
        }
        if let Some(min) = s.minimum {
            if s.exclusive_minimum && n <= min {
                out.push(invalid(format!("should be greater than {}", go_float(min))));
            } else if n < min {
                out.push(invalid(format!(
                    "should be greater than or equal to {}",
                    go_float(min)
                )));
            }
        }
        if let Some(m) = s.multiple_of
            && m > 0.0
            && (n / m).fract() != 0.0
        {
            out.push(invalid(format!("should be a multiple of {}", go_float(m))));
        }
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

/// `x-kubernetes-list-type: set` items and `map` keys must be unique: each repeat is a
/// `Duplicate value` at its index.
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
    let mut seen: Vec<Value> = Vec::with_capacity(items.len());
    for (i, x) in items.iter().enumerate() {
        let k = key(x);
        if seen.contains(&k) {
            let item = path.child(Step::Index(i));
            out.push(FieldError::new(Reason::Duplicate, &item.field(), &k, "").at(&item));
        } else {
            seen.push(k);
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
        if map.get(k).and_then(Value::as_str).is_none_or(str::is_empty) {
            let at = path.child(Step::Field(k.into())).field();
            out.push(FieldError::new(Reason::Required, &at, &Value::from(""), ""));
        }
    }
}

/// The detail of an object name that is not a DNS subdomain.
const DNS_SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case \
    alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character \
    (e.g. 'example.com', regex used for validation is \
    '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/// `allOf` (every branch's errors), `anyOf`, `oneOf` and `not` (one error each).
fn junctors(
    c: &Compiled,
    s: &Schema,
    v: &Value,
    path: &Path,
    name: &str,
    out: &mut Vec<FieldError>,
) {
    for branch in &s.all_of {
        node(c, branch, v, path, false, out);
    }
    let passes = |b: &Schema| {
        let mut errors = Vec::new();
        node(c, b, v, path, false, &mut errors);
        errors.is_empty()
    };
    let mut summary = |detail: &str| {
        let d = format!("{name} in body {detail}");
        out.push(FieldError::new(Reason::Invalid, name, v, d));
    };
    if !s.any_of.is_empty() && !s.any_of.iter().any(passes) {
        summary("must validate at least one schema (anyOf)");
    }
    if !s.one_of.is_empty() && s.one_of.iter().filter(|b| passes(b)).count() != 1 {
        summary("must validate one and only one schema (oneOf)");
    }
    if let Some(not) = &s.not
        && passes(not)
    {
        summary("must not validate the schema (not)");
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
