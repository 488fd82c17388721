//! Kubernetes' format library for CEL: `format.named(name)` (an optional format) and
//! `format.<name>()` for each named format, and `f.validate(string)`, which is `none` for a
//! valid string and otherwise the list of what is wrong with it, in apimachinery's words.

use std::sync::Arc;

use cel::objects::{Opaque, OptionalValue};
use cel::{ExecutionError, Value};

use super::url;
// The formats by name (each also a function `format.<name>()`), as the checker knows them.
use crate::check::cel::library::FORMATS as NAMES;
use crate::names::is_label_shaped;

/// A named format.
#[derive(Debug, PartialEq, Eq)]
pub struct Format(&'static str);

impl Opaque for Format {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.NamedFormat"
    }
}

/// apimachinery's `RegexError`: the message, its examples and the regular expression.
fn regex_error(message: &str, regex: &str, examples: &[&str]) -> String {
    let examples: Vec<String> = examples.iter().map(|e| format!("'{e}', ")).collect();
    format!(
        "{message} (e.g. {}regex used for validation is '{regex}')",
        examples.join(" or ")
    )
}

fn too_long(max: usize) -> String {
    format!("must be no more than {max} characters")
}

const LABEL: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric \
    characters or '-', and must start and end with an alphanumeric character";
const LABEL_REGEX: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
    characters, '-' or '.', and must start and end with an alphanumeric character";
const SUBDOMAIN_REGEX: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1035: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or \
    '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_REGEX: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const QUALIFIED: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must \
    start and end with an alphanumeric character";
const QUALIFIED_REGEX: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_EXAMPLES: &[&str] = &["MyName", "my.name", "123-abc"];
const LABEL_VALUE: &str = "a valid label must be an empty string or consist of alphanumeric \
    characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// Dot-separated label shapes (`IsDNS1123Subdomain`'s regular expression).
fn subdomain_shaped(s: &str) -> bool {
    s.split('.').all(is_label_shaped)
}

/// apimachinery's `IsDNS1123Label`.
fn dns1123_label(s: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if s.len() > 63 {
        errors.push(too_long(63));
    }
    if !is_label_shaped(s) {
        errors.push(if subdomain_shaped(s) {
            "must not contain dots".into()
        } else {
            regex_error(LABEL, LABEL_REGEX, &["my-name", "123-abc"])
        });
    }
    errors
}

/// apimachinery's `IsDNS1123Subdomain`.
fn dns1123_subdomain(s: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if s.len() > 253 {
        errors.push(too_long(253));
    }
    if !subdomain_shaped(s) {
        errors.push(regex_error(SUBDOMAIN, SUBDOMAIN_REGEX, &["example.com"]));
    }
    errors
}

/// apimachinery's `IsDNS1035Label`.
fn dns1035_label(s: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if s.len() > 63 {
        errors.push(too_long(63));
    }
    if !(is_label_shaped(s) && s.starts_with(|c: char| c.is_ascii_lowercase())) {
        errors.push(regex_error(DNS1035, DNS1035_REGEX, &["my-name", "abc-123"]));
    }
    errors
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, anchored.
fn qualified_shape(s: &str) -> bool {
    let alnum = |c: u8| c.is_ascii_alphanumeric();
    let b = s.as_bytes();
    !b.is_empty()
        && alnum(b[0])
        && alnum(b[b.len() - 1])
        && b.iter()
            .all(|&c| alnum(c) || matches!(c, b'-' | b'_' | b'.'))
}

/// apimachinery's `IsQualifiedName`.
fn qualified_name(s: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts[..] {
        [name] => name,
        [prefix, name] => {
            if prefix.is_empty() {
                errors.push("prefix part must be non-empty".into());
            } else {
                errors.extend(
                    dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|e| format!("prefix part {e}")),
                );
            }
            name
        }
        _ => {
            return vec![format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(QUALIFIED, QUALIFIED_REGEX, QUALIFIED_EXAMPLES)
            )];
        }
    };
    if name.is_empty() {
        errors.push("name part must be non-empty".into());
    } else if name.len() > 63 {
        errors.push("name part must be no more than 63 bytes".into());
    }
    if !qualified_shape(name) {
        errors.push(format!(
            "name part {}",
            regex_error(QUALIFIED, QUALIFIED_REGEX, QUALIFIED_EXAMPLES)
        ));
    }
    errors
}

/// apimachinery's `IsValidLabelValue`.
fn label_value(s: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if s.len() > 63 {
        errors.push("must be no more than 63 bytes".into());
    }
    if !s.is_empty() && !qualified_shape(s) {
        let regex = format!("({QUALIFIED_REGEX})?");
        errors.push(regex_error(
            LABEL_VALUE,
            &regex,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errors
}

/// A prefix of a name, to which the API server appends a suffix: a final `-` is allowed (as
/// apimachinery's `maskTrailingDash` lets it through).
fn prefix(s: &str) -> String {
    match s.strip_suffix('-') {
        Some(_) if s.len() > 1 => format!("{}a", &s[..s.len() - 2]),
        _ => s.to_string(),
    }
}

/// What is wrong with `s` as format `name`.
fn errors(name: &str, s: &str) -> Vec<String> {
    let one = |ok: bool, message: &str| {
        if ok {
            vec![]
        } else {
            vec![message.to_string()]
        }
    };
    match name {
        "dns1123Label" => dns1123_label(s),
        "dns1123Subdomain" => dns1123_subdomain(s),
        "dns1035Label" => dns1035_label(s),
        "qualifiedName" => qualified_name(s),
        "dns1123LabelPrefix" => dns1123_label(&prefix(s)),
        "dns1123SubdomainPrefix" => dns1123_subdomain(&prefix(s)),
        "dns1035LabelPrefix" => dns1035_label(&prefix(s)),
        "labelValue" => label_value(s),
        "uri" => url::parsed(s).err().into_iter().collect(),
        "uuid" => one(
            super::formats::valid("uuid", s) == Some(true),
            "does not match the UUID format",
        ),
        "byte" => one(
            super::formats::valid("byte", s) == Some(true),
            "invalid base64",
        ),
        "date" => one(
            super::formats::valid("date", s) == Some(true),
            "invalid date",
        ),
        _ => one(
            super::formats::valid("datetime", s) == Some(true),
            "invalid datetime",
        ),
    }
}

fn format(name: &'static str) -> Value {
    Value::Opaque(Arc::new(Format(name)))
}

/// `format.named(string)`: the format, or `none` for a name it does not know.
pub fn named(v: &[Value]) -> Result<Value, ExecutionError> {
    let Some(Value::String(s)) = v.first() else {
        return Err(ExecutionError::function_error(
            "format.named",
            "no such overload",
        ));
    };
    let found = NAMES.iter().find(|n| **n == s.as_str());
    let o = found.map_or_else(OptionalValue::none, |n| OptionalValue::of(format(n)));
    Ok(Value::Opaque(Arc::new(o)))
}

/// `format.<name>()`.
pub fn constant(name: &'static str) -> Value {
    debug_assert!(NAMES.contains(&name));
    format(name)
}

/// `f.validate(string)`: `none`, or the errors.
pub fn validate(v: &[Value]) -> Result<Value, ExecutionError> {
    let (Some(Value::Opaque(f)), Some(Value::String(s))) = (v.first(), v.get(1)) else {
        return Err(ExecutionError::function_error(
            "validate",
            "no such overload",
        ));
    };
    let f = f
        .downcast_ref::<Format>()
        .ok_or_else(|| ExecutionError::function_error("validate", "no such overload"))?;
    let found = errors(f.0, s);
    let o = if found.is_empty() {
        OptionalValue::none()
    } else {
        let list = found
            .into_iter()
            .map(|e| Value::String(Arc::new(e)))
            .collect();
        OptionalValue::of(Value::List(Arc::new(list)))
    };
    Ok(Value::Opaque(Arc::new(o)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_judged_in_apimachinery_s_words() {
        assert!(errors("dns1123Label", "my-name").is_empty());
        assert_eq!(errors("dns1123Label", "a.b"), ["must not contain dots"]);
        assert!(errors("dns1123Label", "A")[0].starts_with("a lowercase RFC 1123 label"));
        assert!(errors("dns1123LabelPrefix", "my-").is_empty());
        assert!(errors("qualifiedName", "example.com/My_Name").is_empty());
        assert_eq!(
            errors("qualifiedName", "/a"),
            ["prefix part must be non-empty"]
        );
        assert!(errors("labelValue", "").is_empty());
        assert_eq!(
            errors("uri", "x"),
            [r#"parse "x": invalid URI for request"#]
        );
    }
}
