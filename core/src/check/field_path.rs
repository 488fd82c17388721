//! `x_validation(field_path = ...)` as the apiserver reads it (apiextensions' `ValidFieldPath`):
//! a path relative to the node that carries the rule, made of `.field` and `['key']` steps,
//! each naming a property of the node it starts from (or any key of a map); no list indexes.
//! Blank paths and line breaks are refused too. The wording of each problem ends with the
//! apiserver's own.

use crate::model::Schema;

/// Why the apiserver would refuse `path` as the `fieldPath` of a rule on `node`, if it would.
/// `None` for an empty path (no `fieldPath`). With `partial`, nodes that are not typed yet (the
/// derive's view of types behind other types) accept any step, so only what the syntax shows
/// is judged there.
pub fn problem(path: &str, node: &Schema, partial: bool) -> Option<String> {
    if path.is_empty() {
        return None;
    }
    if path.trim().is_empty() {
        return Some(
            "a blank path: leave `field_path` out to report at the rule's node (the apiserver: \
             \"must be non-empty if specified\")"
                .into(),
        );
    }
    if path.contains(['\n', '\r']) {
        return Some(
            "a path has no line breaks (the apiserver: \"must not contain line breaks\")".into(),
        );
    }
    let unseen = |s: &Schema| {
        partial
            && s.type_.is_none()
            && s.properties.is_empty()
            && s.additional_properties.is_none()
            && !s.x_preserve_unknown_fields
            && !s.x_int_or_string
    };
    let mut at: Option<&Schema> = (!unseen(node)).then_some(node);
    let mut walked = String::new();
    let mut tokens = tokens(path).into_iter();
    // One step from the node reached so far; an untyped node (partial view) takes any step.
    let go = |at: &mut Option<&Schema>, name: &str, walked: &str| -> Result<(), String> {
        if let Some(node) = *at {
            let next = step(node, name, walked)?;
            *at = (!unseen(next)).then_some(next);
        }
        Ok(())
    };
    while let Some(token) = tokens.next() {
        let result = match token {
            "[" => {
                let Some(quoted) = tokens.next() else {
                    return Some(bad(Bad::End));
                };
                let Some(name) = quoted
                    .strip_prefix('\'')
                    .and_then(|q| q.strip_suffix('\''))
                    .filter(|_| quoted.len() >= 2)
                else {
                    return Some(bad(Bad::NotQuoted(quoted)));
                };
                let name = match unescape(name) {
                    Ok(name) => name,
                    Err(escape) => return Some(bad(Bad::Escape(escape))),
                };
                go(&mut at, &name, &walked).and_then(|()| match tokens.next() {
                    Some("]") => Ok(format!("['{name}']")),
                    Some(other) => Err(bad(Bad::NoClose(other))),
                    None => Err(bad(Bad::End)),
                })
            }
            "." => match tokens.next() {
                Some(name) => go(&mut at, name, &walked).map(|()| format!(".{name}")),
                None => Err(bad(Bad::End)),
            },
            other => Err(bad(Bad::NoDot(other))),
        };
        match result {
            Ok(step) => walked.push_str(&step),
            Err(e) => return Some(e),
        }
    }
    None
}

/// One step from `node` (reached by `walked`) to its property or map value `name`.
fn step<'a>(node: &'a Schema, name: &str, walked: &str) -> Result<&'a Schema, String> {
    let here = if walked.is_empty() {
        "the rule's node".to_string()
    } else {
        format!("`{walked}`")
    };
    if !node.properties.is_empty() {
        return node.properties.get(name).ok_or_else(|| {
            let fields: Vec<&str> = node.properties.keys().map(String::as_str).collect();
            bad(Bad::NoField(format!(
                "`{name}` is not a field of {here} (fields: {})",
                fields.join(", ")
            )))
        });
    }
    if let Some(values) = &node.additional_properties {
        return Ok(values);
    }
    let what = match node.type_str() {
        "array" => "a list, and a path cannot step into list items".to_string(),
        "" if node.x_int_or_string => "an int-or-string".to_string(),
        "" if node.x_preserve_unknown_fields => {
            "an object without declared fields (it keeps unknown fields)".to_string()
        }
        "" => "untyped".to_string(),
        "object" => "an object without declared fields".to_string(),
        t => format!("a {t}, which has no fields"),
    };
    Err(bad(Bad::NoField(format!("{here} is {what}"))))
}

/// What is wrong, each with the apiserver's wording.
enum Bad<'a> {
    /// The path ends after `.` or `[` or inside `['...'`.
    End,
    /// A first step that is not `.` or `[`.
    NoDot(&'a str),
    /// `[` not followed by a quoted key (a list index).
    NotQuoted(&'a str),
    /// `['key'` not followed by `]`.
    NoClose(&'a str),
    /// An escape the apiserver does not know in a quoted key.
    Escape(String),
    /// A step to a field that is not there.
    NoField(String),
}

fn bad(b: Bad) -> String {
    let (ours, theirs) = match b {
        Bad::End => (
            "the path ends after `.` or `[`".to_string(),
            "unexpected end of JSON path".to_string(),
        ),
        Bad::NoDot(token) => (
            format!("a path starts with `.` or `['`, relative to the rule's node: `.{token}`"),
            format!("expected [ or . but got: {token}"),
        ),
        Bad::NotQuoted(token)
            if !token.is_empty() && token.chars().all(|c| c.is_ascii_digit()) || token == "*" =>
        {
            (
                format!(
                    "`[{token}]` indexes a list; a path has only `.field` and `['key']` steps (put \
                 the rule on the list's items to report at one item)"
                ),
                format!("expected single quoted string but got {token}"),
            )
        }
        Bad::NotQuoted(token) => (
            format!("`[` takes a key in single quotes, `['{token}']`"),
            format!("expected single quoted string but got {token}"),
        ),
        Bad::NoClose(token) => (
            format!("`['...'` must be closed by `]`, not `{token}`"),
            format!("expected ] but got {token}"),
        ),
        Bad::Escape(escape) => (
            format!("`{escape}` is not an escape the apiserver knows (`\\'`, `\\\\`, `\\n`, ...)"),
            format!("invalid string literal: invalid escape char {escape}"),
        ),
        Bad::NoField(ours) => (ours, "does not refer to a valid field".to_string()),
    };
    format!("{ours} (the apiserver: \"must be a valid path\"; its path parser: \"{theirs}\")")
}

/// The path's tokens as the apiserver's scanner splits them: `.`, `[` and `]` alone, a quoted
/// string from `'` to the next `'` not after a backslash (or to the end), and the text between.
fn tokens(path: &str) -> Vec<&str> {
    // Indexes stay below `bytes.len()` (`i - 1` only for `i > start`), and every cut is at an
    // ASCII byte (`.`, `[`, `]`, `'`) or the end: a character boundary of `path`.
    let bytes = path.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let end = if bytes[start] == b'\'' {
            (start + 1..bytes.len())
                .find(|&i| bytes[i] == b'\'' && bytes[i - 1] != b'\\')
                .map_or(bytes.len(), |i| i + 1)
        } else if b".[]".contains(&bytes[start]) {
            start + 1
        } else {
            (start..bytes.len())
                .find(|&i| b".[]".contains(&bytes[i]))
                .unwrap_or(bytes.len())
        };
        out.push(&path[start..end]);
        start = end;
    }
    out
}

/// A quoted key's text with its escapes replaced, or the first unknown escape.
fn unescape(quoted: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push(c);
            break;
        };
        out.push(match e {
            'a' => '\x07',
            'b' => '\x08',
            'f' => '\x0c',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\x0b',
            '\'' => '\'',
            '\\' => '\\',
            other => return Err(format!("\\{other}")),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> Schema {
        serde_json::from_value(serde_json::json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "replicas": {"type": "integer"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "backends": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"port": {"type": "integer"}}},
                },
                "a.b": {"type": "string"},
                "inner": {"type": "object", "properties": {"x": {"type": "string"}}},
                "free": {},
            },
        }))
        .unwrap()
    }

    fn verdict(path: &str) -> Result<(), String> {
        problem(path, &spec(), false).map_or(Ok(()), Err)
    }

    #[test]
    fn paths_the_apiserver_accepts() {
        for path in [
            "",
            ".name",
            ".inner.x",
            "['name']",
            ".labels.anything",
            ".labels['with.dot']",
            "['a.b']",
            ".inner['x']",
            "['inner'].x",
        ] {
            assert_eq!(verdict(path), Ok(()), "{path}");
        }
    }

    #[test]
    fn each_refusal_carries_the_apiservers_words() {
        for (path, words) in [
            (".nosuch", "does not refer to a valid field"),
            ("replicas", "expected [ or . but got: replicas"),
            (".name.foo", "does not refer to a valid field"),
            (
                ".backends[0].port",
                "expected single quoted string but got 0",
            ),
            (".backends['x']", "does not refer to a valid field"),
            (".", "unexpected end of JSON path"),
            ("..", "does not refer to a valid field"),
            (".a.b", "does not refer to a valid field"),
            ("['name'", "unexpected end of JSON path"),
            ("['name'.", "expected ] but got ."),
            (
                "['na\\qme']",
                "invalid string literal: invalid escape char \\q",
            ),
            ("[name]", "expected single quoted string but got name"),
            (".free.x", "does not refer to a valid field"),
            ("   ", "must be non-empty if specified"),
            (".name\n", "must not contain line breaks"),
        ] {
            let e = verdict(path).expect_err(path);
            assert!(e.contains(words), "{path}: {e}");
        }
    }

    #[test]
    fn messages_say_what_is_there() {
        let e = verdict(".nosuch").unwrap_err();
        assert!(
            e.contains("`nosuch` is not a field of the rule's node (fields: a.b, backends"),
            "{e}"
        );
        let e = verdict(".name.foo").unwrap_err();
        assert!(
            e.contains("`.name` is a string, which has no fields"),
            "{e}"
        );
        let e = verdict(".backends[0].port").unwrap_err();
        assert!(e.contains("`[0]` indexes a list"), "{e}");
    }

    #[test]
    fn a_partial_view_judges_only_what_it_sees() {
        let mut s = spec();
        s.properties.insert("hidden".into(), Schema::default());
        assert_eq!(problem(".hidden.deep.er", &s, true), None);
        assert!(problem(".hidden[0]", &s, true).is_some());
        assert!(problem(".nosuch", &s, true).is_some());
        assert!(problem(".hidden.x", &s, false).is_some());
    }
}
