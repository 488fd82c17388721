//! Field errors as kube-apiserver words them (`k8s.io/apimachinery/pkg/util/validation/field`):
//! `spec.replicas: Invalid value: 7: spec.replicas in body should be less than or equal to 5`.

use serde_json::Value;
use std::fmt;

use super::path::Path;

/// The kind of a field error: a `details.causes[].type` of the server's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// `FieldValueInvalid`: "Invalid value".
    Invalid,
    /// `FieldValueTypeInvalid`: "Invalid value", the value is not of the schema's type or format.
    TypeInvalid,
    /// `FieldValueRequired`: "Required value".
    Required,
    /// `FieldValueNotSupported`: "Unsupported value", not one of the `enum`.
    NotSupported,
    /// `FieldValueDuplicate`: "Duplicate value".
    Duplicate,
    /// `FieldValueForbidden`: "Forbidden".
    Forbidden,
    /// `FieldValueTooLong`: "Too long".
    TooLong,
    /// `FieldValueTooMany`: "Too many".
    TooMany,
}

impl Reason {
    /// The cause type the server sends (`FieldValueInvalid`, ...).
    pub fn cause_type(self) -> &'static str {
        match self {
            Reason::Invalid => "FieldValueInvalid",
            Reason::TypeInvalid => "FieldValueTypeInvalid",
            Reason::Required => "FieldValueRequired",
            Reason::NotSupported => "FieldValueNotSupported",
            Reason::Duplicate => "FieldValueDuplicate",
            Reason::Forbidden => "FieldValueForbidden",
            Reason::TooLong => "FieldValueTooLong",
            Reason::TooMany => "FieldValueTooMany",
        }
    }

    /// The reason a rule's `reason` names, `None` for a name the server does not allow.
    #[doc(hidden)]
    pub fn of_rule(reason: &str) -> Option<Reason> {
        match reason {
            "FieldValueInvalid" => Some(Reason::Invalid),
            "FieldValueRequired" => Some(Reason::Required),
            "FieldValueForbidden" => Some(Reason::Forbidden),
            "FieldValueDuplicate" => Some(Reason::Duplicate),
            _ => None,
        }
    }

    /// The words that start the message ("Invalid value", "Too long", ...).
    fn words(self) -> &'static str {
        match self {
            Reason::Invalid | Reason::TypeInvalid => "Invalid value",
            Reason::Required => "Required value",
            Reason::NotSupported => "Unsupported value",
            Reason::Duplicate => "Duplicate value",
            Reason::Forbidden => "Forbidden",
            Reason::TooLong => "Too long",
            Reason::TooMany => "Too many",
        }
    }

    /// Whether the server's message shows the bad value.
    fn shows_value(self) -> bool {
        !matches!(self, Reason::Required | Reason::Forbidden | Reason::TooLong)
    }

    /// Whether the server skips every CEL rule of the object when one error is of this kind
    /// (and says so in a cause of its own, [`FieldError::rules_not_checked`]).
    #[doc(hidden)]
    pub fn skips_rules(self) -> bool {
        matches!(
            self,
            Reason::NotSupported
                | Reason::Required
                | Reason::TooLong
                | Reason::TooMany
                | Reason::TypeInvalid
        )
    }
}

/// One field error.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// What kind of error.
    pub reason: Reason,
    /// The field, as the server writes it: `spec.ports[0].name`, `spec.labels[key]` in CEL
    /// errors, `<nil>` for none.
    pub field: String,
    /// The bad value shown in the message; `None` where the server omits it.
    pub value: Option<Value>,
    /// What is wrong, after the value.
    pub detail: String,
    /// The value the error is about (for a missing field, the object that lacks it), to
    /// point at in the object's source.
    pub path: Path,
}

impl FieldError {
    /// An error with a value.
    #[doc(hidden)]
    pub fn new(reason: Reason, field: &str, value: &Value, detail: impl Into<String>) -> Self {
        FieldError {
            reason,
            field: field_or_nil(field),
            value: Some(value.clone()),
            detail: detail.into(),
            path: Path::default(),
        }
    }

    /// An error whose message leaves the value out.
    #[doc(hidden)]
    pub fn omitting_value(reason: Reason, field: &str, detail: impl Into<String>) -> Self {
        FieldError {
            reason,
            field: field_or_nil(field),
            value: None,
            detail: detail.into(),
            path: Path::default(),
        }
    }

    /// The error, about the value at `path`.
    pub fn at(mut self, path: &Path) -> Self {
        self.path = path.clone();
        self
    }

    /// The cause the server adds when it skipped the CEL rules.
    #[doc(hidden)]
    pub fn rules_not_checked() -> Self {
        FieldError::new(
            Reason::Invalid,
            "",
            &Value::Null,
            "some validation rules were not checked because the object was invalid; \
             correct the existing errors to complete validation",
        )
    }

    /// The message without the field: a `details.causes[].message` of the server's answer.
    pub fn body(&self) -> String {
        let mut s = self.reason.words().to_string();
        if self.reason.shows_value()
            && let Some(v) = &self.value
        {
            s.push_str(": ");
            s.push_str(&go_value(v));
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

/// The server writes a missing path as Go prints a nil `*field.Path`.
fn field_or_nil(field: &str) -> String {
    if field.is_empty() {
        "<nil>".into()
    } else {
        field.into()
    }
}

/// A value as the server prints it in a field error: numbers and booleans as they are,
/// strings quoted (Go's `%q`), anything else as JSON.
pub fn go_value(v: &Value) -> String {
    match v {
        Value::String(s) => go_quote(s),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => go_float(f),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// A float as Go's `%v` prints it: the shortest form, with an exponent from 1e21 on.
pub fn go_float(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e21 {
        format!("{f:.0}")
    } else if f.abs() >= 1e21 || (f != 0.0 && f.abs() < 1e-4) {
        let s = format!("{f:e}");
        match s.split_once('e') {
            Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e:0>2}"),
            Some((m, e)) => format!("{m}e-{:0>2}", &e[1..]),
            None => s,
        }
    } else {
        f.to_string()
    }
}

/// A string as Go's `%q` quotes it (the escapes JSON also has, and `\x..` for other control
/// characters).
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn errors_read_as_the_server_writes_them() {
        let max = FieldError::new(
            Reason::Invalid,
            "spec.replicas",
            &json!(7),
            "spec.replicas in body should be less than or equal to 5",
        );
        assert_eq!(
            max.to_string(),
            "spec.replicas: Invalid value: 7: spec.replicas in body should be less than or equal to 5"
        );
        let long = FieldError::new(
            Reason::TooLong,
            "spec.name",
            &json!("abcdef"),
            "may not be more than 5 bytes",
        );
        assert_eq!(
            long.to_string(),
            "spec.name: Too long: may not be more than 5 bytes"
        );
        assert_eq!(
            FieldError::rules_not_checked().to_string(),
            "<nil>: Invalid value: null: some validation rules were not checked because the \
             object was invalid; correct the existing errors to complete validation"
        );
        let rule = FieldError::omitting_value(Reason::Invalid, "spec", "failed rule: self.a");
        assert_eq!(rule.body(), "Invalid value: failed rule: self.a");
        assert_eq!(go_value(&json!(1.5)), "1.5");
        assert_eq!(go_value(&json!(1e22)), "1e+22");
        assert_eq!(go_value(&json!("a\"\u{1}")), "\"a\\\"\\x01\"");
        assert_eq!(
            go_value(&json!({"b": 1, "a": [true]})),
            r#"{"a":[true],"b":1}"#
        );
    }
}
