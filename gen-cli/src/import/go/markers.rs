//! controller-tools' marker lines (`// +name`, `// +name=value`, `// +name:arg=value,...`)
//! parsed as its registry does: the longest known name wins, then its arguments, whose values
//! are read as controller-tools' `any` parser reads them (Go strings, `{a,b}` slices,
//! `{k: v}` maps, `a;b` lists, numbers, booleans, bare words).

use serde_json::{Map, Number, Value};

use super::parse::{Comment, Loc};

/// One marker.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    /// Its name (`kubebuilder:validation:Minimum`), as the registry knows it; for an unknown
    /// marker, the text up to its first `=`.
    pub name: String,
    /// Whether the registry knows the name.
    pub known: bool,
    /// The arguments: one unnamed (`""`) or several named.
    pub args: Vec<(String, Value)>,
    /// The marker's text as written, without `+`.
    pub text: String,
    /// Where it is.
    pub loc: Loc,
}

impl Marker {
    /// The value of the unnamed argument, or of `name`.
    pub fn arg(&self, name: &str) -> Option<&Value> {
        self.args.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// The names controller-gen's CRD, RBAC and webhook generators register, longest first where
/// one is the other's prefix. A name whose arguments are named ends in `:`.
const KNOWN: &[&str] = &[
    "groupName",
    "versionName",
    "kubebuilder:object:root",
    "kubebuilder:object:generate",
    "kubebuilder:skip",
    "kubebuilder:skipversion",
    "kubebuilder:storageversion",
    "kubebuilder:unservedversion",
    "kubebuilder:deprecatedversion:",
    "kubebuilder:subresource:status",
    "kubebuilder:subresource:scale:",
    "kubebuilder:resource:",
    "kubebuilder:printcolumn:",
    "kubebuilder:selectablefield:",
    "kubebuilder:metadata:",
    "kubebuilder:rbac:",
    "kubebuilder:webhook:",
    "kubebuilder:webhookconfiguration:",
    "kubebuilder:validation:XValidation:",
    "kubebuilder:validation:items:",
    "kubebuilder:validation:",
    "kubebuilder:pruning:PreserveUnknownFields",
    "kubebuilder:default",
    "kubebuilder:example",
    "kubebuilder:title",
    "kubebuilder:externalDocs:",
    "kubebuilder:ac:generate",
    "optional",
    "required",
    "nullable",
    "default",
    "listType",
    "listMapKey",
    "mapType",
    "structType",
    "k8s:optional",
    "k8s:required",
    "k8s:listType",
    "k8s:listMapKey",
    "k8s:enum",
    "k8s:immutable",
    "k8s:deepcopy-gen",
    "genclient",
    "genclient:nonNamespaced",
];

/// The markers of some comments: their `//` lines starting with `+`.
pub fn of(comments: &[Comment]) -> Vec<Marker> {
    comments
        .iter()
        .filter_map(|c| {
            let body = c.text.strip_prefix("//")?.trim();
            let text = body.strip_prefix('+')?;
            Some(parse(text, c.loc.clone()))
        })
        .collect()
}

/// One marker's text (after `+`).
pub fn parse(text: &str, loc: Loc) -> Marker {
    let text = text.trim_end();
    // `validation:` names its check in the name (`kubebuilder:validation:MinLength=4`), as do
    // `items:` and `metadata:`: the name runs to the `=`, arguments are unnamed.
    let found = KNOWN
        .iter()
        .filter(|k| {
            let bare = k.trim_end_matches(':');
            text == bare
                || text.starts_with(&format!("{bare}="))
                || text.starts_with(&format!("{bare}:"))
        })
        .max_by_key(|k| k.len());
    let (name, known, rest) = match found {
        Some(k) if k.ends_with(':') && is_prefix_family(k) => {
            let end = text.find('=').unwrap_or(text.len());
            // `Minimum:=1` is `Minimum=1` to controller-tools (Gateway API writes it).
            let name = text[..end].strip_suffix(':').unwrap_or(&text[..end]);
            (name.to_string(), true, &text[end..])
        }
        Some(k) => {
            let bare = k.trim_end_matches(':');
            (bare.to_string(), true, &text[bare.len()..])
        }
        None => {
            let end = text.find('=').unwrap_or(text.len());
            (text[..end].to_string(), false, &text[end..])
        }
    };
    let args = if let Some(value) = rest.strip_prefix('=') {
        vec![(String::new(), any(value))]
    } else if let Some(named) = rest.strip_prefix(':') {
        named_args(named)
    } else {
        Vec::new()
    };
    Marker {
        name,
        known,
        args,
        text: text.to_string(),
        loc,
    }
}

/// The names whose next part is the check's name rather than an argument.
fn is_prefix_family(name: &str) -> bool {
    matches!(
        name,
        "kubebuilder:validation:" | "kubebuilder:validation:items:" | "kubebuilder:metadata:"
    )
}

/// `a=1,b="x,y",c={p,q}`: each argument, its value read up to the next top-level `,`.
fn named_args(text: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for part in split_top(text, ',') {
        match part.split_once('=') {
            Some((k, v)) => out.push((k.trim().to_string(), any(v))),
            None => out.push((part.trim().to_string(), Value::Bool(true))),
        }
    }
    out
}

/// `text` split at each `sep` outside quotes and braces.
fn split_top(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None, 0);
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '`' => quote = Some(c),
                '{' | '[' => depth += 1,
                '}' | ']' => depth -= 1,
                c if c == sep && depth == 0 => {
                    parts.push(&text[start..i]);
                    start = i + c.len_utf8();
                }
                _ => {}
            },
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A value as controller-tools' `any` argument reads it; a `;` list is an array.
pub fn any(text: &str) -> Value {
    let items = split_top(text, ';');
    if items.len() > 1 {
        return Value::Array(items.into_iter().map(scalar_or_nested).collect());
    }
    scalar_or_nested(text)
}

fn scalar_or_nested(text: &str) -> Value {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
        let parts: Vec<&str> = split_top(inner, ',')
            .into_iter()
            .filter(|p| !p.trim().is_empty())
            .collect();
        let is_map = parts
            .first()
            .is_some_and(|p| split_top(p, ':').len() > 1 && !p.trim_start().starts_with('{'));
        if is_map {
            let mut map = Map::new();
            for p in parts {
                let kv = split_top(p, ':');
                let key = super::parse::unquote(kv[0].trim());
                let value = kv[1..].join(":");
                map.insert(key, scalar_or_nested(&value));
            }
            return Value::Object(map);
        }
        return Value::Array(parts.into_iter().map(scalar_or_nested).collect());
    }
    if t.starts_with('"') || t.starts_with('`') {
        return Value::String(super::parse::unquote(t));
    }
    match t {
        "true" => return Value::Bool(true),
        "false" => return Value::Bool(false),
        _ => {}
    }
    if let Ok(i) = t.parse::<i64>() {
        return Value::Number(i.into());
    }
    if let Some(n) = t.parse::<f64>().ok().and_then(Number::from_f64)
        && t.contains('.')
    {
        return Value::Number(n);
    }
    Value::String(t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn m(text: &str) -> Marker {
        parse(
            text,
            Loc {
                file: "a.go".into(),
                line: 1,
                col: 1,
            },
        )
    }

    #[test]
    fn names_and_arguments_as_the_registry_reads_them() {
        let x = m(
            r#"kubebuilder:validation:XValidation:rule="self.size() % 2 == 0",message="even, please""#,
        );
        assert_eq!(x.name, "kubebuilder:validation:XValidation");
        assert_eq!(x.arg("rule"), Some(&json!("self.size() % 2 == 0")));
        assert_eq!(x.arg("message"), Some(&json!("even, please")));
        let min = m("kubebuilder:validation:Minimum=-0.5");
        assert_eq!(min.name, "kubebuilder:validation:Minimum");
        assert_eq!(min.arg(""), Some(&json!(-0.5)));
        let max = m("kubebuilder:validation:Maximum:=599");
        assert_eq!(max.name, "kubebuilder:validation:Maximum");
        assert_eq!(max.arg(""), Some(&json!(599)));
        let items = m("kubebuilder:validation:items:Pattern=^[a-z]$");
        assert_eq!(items.name, "kubebuilder:validation:items:Pattern");
        assert_eq!(items.arg(""), Some(&json!("^[a-z]$")));
        let col = m(
            "kubebuilder:printcolumn:name=\"Age\",type=\"date\",JSONPath=`.metadata.creationTimestamp`",
        );
        assert_eq!(col.name, "kubebuilder:printcolumn");
        assert_eq!(
            col.arg("JSONPath"),
            Some(&json!(".metadata.creationTimestamp"))
        );
        assert_eq!(m("kubebuilder:subresource:status").args, []);
        let unknown = m("kubebuilder:validation:Nope=1");
        assert!(
            unknown.known,
            "validation names are checked where they are used"
        );
        assert!(!m("gateway:experimental").known);
    }

    #[test]
    fn values_as_the_any_parser_reads_them() {
        assert_eq!(any("{a,b}"), json!(["a", "b"]));
        assert_eq!(
            any(r#"{{nested: {foo: "baz", bar: true}},{nested: {foo: "qux", bar: false}}}"#),
            json!([{"nested": {"foo": "baz", "bar": true}}, {"nested": {"foo": "qux", "bar": false}}])
        );
        assert_eq!(any("{}"), json!([]));
        assert_eq!(any(r#"1;2;"foo";"bar""#), json!([1, 2, "foo", "bar"]));
        assert_eq!(any("Allow;Forbid"), json!(["Allow", "Forbid"]));
        assert_eq!(any("forty-two"), json!("forty-two"));
        assert_eq!(any("\"124\""), json!("124"));
    }
}
