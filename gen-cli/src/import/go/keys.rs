//! A field's or type's markers as the schema keys they mirror (`+kubebuilder:validation:MinLength`
//! → `min_length`), and what they say of optionality.

use serde_json::Value;

use super::super::model::{Marker, MarkerValue, NOTE};
use super::markers::Marker as GoMarker;
use super::parse::Loc;

/// Reports what has no key at a Go location, and gives the note that keeps it in the Rust.
pub type Warn<'a> = &'a mut dyn FnMut(&Loc, &str) -> Marker;

/// The keys of some markers at a field or type, and what they say of optionality.
#[derive(Default)]
pub struct Keys {
    /// The keys.
    pub keys: Vec<Marker>,
    /// The keys of its items (`validation:items:*`).
    pub items: Vec<Marker>,
    /// `Some(true)` for `+optional`, `Some(false)` for `+required`.
    pub optional: Option<bool>,
}

/// The schema keys of some markers at a field (`field`) or a type.
pub fn schema(markers: &[GoMarker], field: bool, warn: Warn) -> Keys {
    let mut out = Keys::default();
    let mut kubebuilder_default = false;
    let mut map_keys = Vec::new();
    for m in markers {
        let name = m
            .name
            .strip_prefix("kubebuilder:validation:items:")
            .or_else(|| m.name.strip_prefix("kubebuilder:validation:"))
            .unwrap_or(&m.name);
        // `kubebuilder:validation:nullable` is no marker of controller-gen's: only `+nullable`.
        let bare = name == m.name;
        let value = m.arg("");
        let num = |v: Option<&Value>| v.and_then(Value::as_f64).map(MarkerValue::Number);
        let count = |v: Option<&Value>| v.and_then(Value::as_i64).map(MarkerValue::Count);
        let text = |v: Option<&Value>| v.map(|v| MarkerValue::Str(string(v)));
        let flag = |v: Option<&Value>| match v {
            Some(Value::Bool(false)) => None,
            _ => Some(MarkerValue::Flag),
        };
        let list = |v: Option<&Value>| {
            v.map(|v| match v {
                Value::Array(a) => MarkerValue::List(a.iter().map(string).collect()),
                other => MarkerValue::List(vec![string(other)]),
            })
        };
        let mapped: Option<(&'static str, Option<MarkerValue>)> = match name {
            "Minimum" => Some(("minimum", num(value))),
            "Maximum" => Some(("maximum", num(value))),
            "MultipleOf" => Some(("multiple_of", num(value))),
            "ExclusiveMinimum" => Some(("exclusive_minimum", flag(value))),
            "ExclusiveMaximum" => Some(("exclusive_maximum", flag(value))),
            "MinLength" => Some(("min_length", count(value))),
            "MaxLength" => Some(("max_length", count(value))),
            "MinItems" => Some(("min_items", count(value))),
            "MaxItems" => Some(("max_items", count(value))),
            "MinProperties" => Some(("min_properties", count(value))),
            "MaxProperties" => Some(("max_properties", count(value))),
            "Pattern" => Some(("pattern", text(value))),
            "Format" => Some(("format", text(value))),
            "Type" => Some(("schema_type", text(value))),
            "Enum" => Some((
                "enum_values",
                value.map(|v| {
                    MarkerValue::Json(match v {
                        Value::Array(_) => v.clone(),
                        other => Value::Array(vec![other.clone()]),
                    })
                }),
            )),
            "EmbeddedResource" | "XEmbeddedResource" => {
                Some(("embedded_resource", Some(MarkerValue::Flag)))
            }
            "XIntOrString" => Some(("int_or_string", Some(MarkerValue::Flag))),
            "Schemaless" => Some(("schemaless", Some(MarkerValue::Flag))),
            "nullable" if bare => Some(("nullable", Some(MarkerValue::Flag))),
            "kubebuilder:pruning:PreserveUnknownFields" => {
                Some(("preserve_unknown_fields", Some(MarkerValue::Flag)))
            }
            "AtMostOneOf" => Some(("at_most_one_of", list(value))),
            "ExactlyOneOf" => Some(("exactly_one_of", list(value))),
            "AtLeastOneOf" => Some(("at_least_one_of", list(value))),
            "k8s:immutable" => Some(("immutable", Some(MarkerValue::Flag))),
            "listType" | "k8s:listType" => Some(("list_type", text(value))),
            "mapType" => Some(("map_type", text(value))),
            "structType" => Some(("struct_type", text(value))),
            "kubebuilder:title" => Some(("title", text(value))),
            "kubebuilder:example" => Some(("example", value.cloned().map(MarkerValue::Json))),
            "kubebuilder:externalDocs" => {
                let args = renamed(m, &[("url", "url"), ("description", "description")]);
                Some(("external_docs", Some(MarkerValue::Nested(args))))
            }
            "XValidation" => {
                let mut args = renamed(
                    m,
                    &[
                        ("rule", "rule"),
                        ("message", "message"),
                        ("messageExpression", "message_expression"),
                        ("reason", "reason"),
                        ("fieldPath", "field_path"),
                    ],
                );
                if m.arg("optionalOldSelf") == Some(&Value::Bool(true)) {
                    args.push(key("optional_old_self", MarkerValue::Flag));
                }
                Some(("x_validation", Some(MarkerValue::Nested(args))))
            }
            "listMapKey" | "k8s:listMapKey" => {
                if let Some(v) = value {
                    map_keys.push(string(v));
                }
                None
            }
            "optional" | "k8s:optional" if field && bare => {
                out.optional = Some(true);
                None
            }
            "required" | "k8s:required" if field && bare => {
                out.optional = Some(false);
                None
            }
            "Optional" if field && !bare => {
                out.optional = Some(true);
                None
            }
            "Required" if field && !bare => {
                out.optional = Some(false);
                None
            }
            "kubebuilder:default" => {
                kubebuilder_default = true;
                out.keys.retain(|k| k.key != "default");
                Some(("default", value.cloned().map(MarkerValue::Json)))
            }
            "default" if !kubebuilder_default => {
                let raw = m.text.strip_prefix("default=").unwrap_or_default();
                match serde_json::from_str::<Value>(raw) {
                    Ok(v) => Some(("default", Some(MarkerValue::Json(v)))),
                    Err(_) => {
                        let w = warn(
                            &m.loc,
                            &format!("`+{}`: not a JSON value; left out", m.text),
                        );
                        out.keys.push(w);
                        None
                    }
                }
            }
            "default"
            | "kubebuilder:object:root"
            | "kubebuilder:object:generate"
            | "k8s:enum"
            | "genclient"
            | "genclient:nonNamespaced"
            | "k8s:deepcopy-gen"
            | "kubebuilder:ac:generate" => None,
            _ if !field && root_only(&m.name) => None,
            _ => {
                let w = warn(
                    &m.loc,
                    &format!("`+{}`: no kubegen key says this; left out", m.text),
                );
                out.keys.push(w);
                None
            }
        };
        if let Some((k, Some(v))) = mapped {
            let target = if m.name.starts_with("kubebuilder:validation:items:") {
                &mut out.items
            } else {
                &mut out.keys
            };
            target.push(key(k, v));
        }
    }
    if !map_keys.is_empty() {
        out.keys
            .push(key("list_map_keys", MarkerValue::List(map_keys)));
    }
    out
}

/// The resource markers a kind carries (read by `resource::keys`, not as schema keys).
fn root_only(name: &str) -> bool {
    name.starts_with("kubebuilder:resource")
        || name.starts_with("kubebuilder:subresource")
        || name.starts_with("kubebuilder:printcolumn")
        || name.starts_with("kubebuilder:metadata")
        || name.starts_with("kubebuilder:selectablefield")
        || matches!(
            name,
            "kubebuilder:storageversion"
                | "kubebuilder:unservedversion"
                | "kubebuilder:skipversion"
                | "kubebuilder:deprecatedversion"
        )
}

/// `items(...)` of some keys, or nothing.
pub fn items_key(items: Vec<Marker>) -> Option<Marker> {
    (!items.is_empty()).then(|| key("items", MarkerValue::Nested(items)))
}

/// A type's item keys under a field's: the field's win.
pub fn merge_items(from_type: Vec<Marker>, from_field: Vec<Marker>) -> Vec<Marker> {
    let mut all: Vec<Marker> = from_type
        .into_iter()
        .filter(|k| !from_field.iter().any(|f| f.key == k.key))
        .collect();
    all.extend(from_field);
    all
}

/// Keys without repeats of a single-valued key (the last wins, as a later marker does).
pub fn dedup(keys: Vec<Marker>) -> Vec<Marker> {
    let repeatable = ["x_validation", NOTE];
    let mut out: Vec<Marker> = Vec::new();
    for k in keys {
        if !repeatable.contains(&k.key) {
            out.retain(|o| o.key != k.key);
        }
        out.push(k);
    }
    out
}

/// The string arguments `names` of a marker as keys: (Go argument, key).
pub fn renamed(m: &GoMarker, names: &[(&str, &'static str)]) -> Vec<Marker> {
    names
        .iter()
        .filter_map(|(go, rust)| Some(key(rust, MarkerValue::Str(string(m.arg(go)?)))))
        .collect()
}

/// A marker value as text.
pub fn string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// One key.
pub fn key(key: &'static str, value: MarkerValue) -> Marker {
    Marker { key, value }
}

/// A note: what has no Rust form.
pub fn note(text: String) -> Marker {
    key(NOTE, MarkerValue::Str(text))
}
