//! The size guard: how large a CRD is where Kubernetes limits it.
//!
//! Two limits matter, both on the object's JSON form (what kubectl and client-go send, and
//! what `kubectl apply` stores):
//! - client-side `kubectl apply` copies the whole object, as compact JSON plus a newline, into
//!   its `kubectl.kubernetes.io/last-applied-configuration` annotation, and the API server
//!   accepts at most [`ANNOTATIONS_LIMIT`] bytes of annotations (keys and values) on an object;
//! - the API server stores an object in etcd in one request, as JSON with what it adds
//!   ([`SERVER_ROOM`]), and etcd refuses requests larger than [`REQUEST_LIMIT`] bytes (its
//!   default `--max-request-bytes`).
//!
//! The JSON is measured as Go's `encoding/json` writes it: compact, with `<`, `>` and `&`
//! escaped as `\u003c`, `\u003e` and `\u0026` and U+2028/U+2029 as `\u2028`/`\u2029`.

use serde_json::Value;

use crate::model::{Diagnostic, Errors, Loc};

/// The most bytes of annotations (keys and values) the API server accepts on one object
/// (apimachinery's `TotalAnnotationSizeLimitB`).
pub const ANNOTATIONS_LIMIT: usize = 262_144;

/// etcd's default `--max-request-bytes` (1.5 MiB): a larger object cannot be stored.
pub const REQUEST_LIMIT: usize = 1_572_864;

/// What the API server adds to a CRD it stores (as JSON): `uid`, `creationTimestamp`,
/// `generation`, managed fields and the status (about 2 KB with one field manager, measured
/// on kube-apiserver 1.36), with room for more managers. A CRD that fits without it cannot be
/// updated, nor deleted (deletion is an update), once its status is set.
pub const SERVER_ROOM: usize = 16_384;

/// The annotation client-side `kubectl apply` writes.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// How many subtrees a report names.
const LARGEST: usize = 5;

/// A CRD's sizes, in bytes of JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Size {
    /// The whole object.
    pub json: usize,
    /// Its annotations once client-side `kubectl apply` adds its last-applied one: the
    /// object's JSON and a newline, plus every annotation's key and value.
    pub annotations: usize,
    /// What its descriptions take (`"description":"..."` and the comma).
    pub descriptions: usize,
    /// The largest schema subtrees, largest first: `v1 .spec.template` and its size. A node
    /// whose largest child holds nine tenths of it is left out (the child says the same).
    pub largest: Vec<(String, usize)>,
}

/// Measures a CRD (its JSON value).
pub fn measure(crd: &Value) -> Size {
    let json = go_len(crd);
    let existing: usize = crd
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .map(|a| {
            a.iter()
                .map(|(k, v)| k.len() + v.as_str().map_or(0, str::len))
                .sum()
        })
        .unwrap_or(0);
    let mut stripped = crd.clone();
    strip_descriptions(&mut stripped);
    let mut nodes = Vec::new();
    for version in crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = version["name"].as_str().unwrap_or_default();
        if let Some(root) = version.pointer("/schema/openAPIV3Schema") {
            schema(root, &format!("{name} "), &mut nodes);
        }
    }
    nodes.retain(|n| n.path.contains('.') && n.largest_child * 10 < n.len * 9);
    nodes.sort_by(|a, b| b.len.cmp(&a.len).then_with(|| a.path.cmp(&b.path)));
    Size {
        json,
        annotations: existing + LAST_APPLIED.len() + json + 1,
        descriptions: json - go_len(&stripped),
        largest: nodes
            .into_iter()
            .take(LARGEST)
            .map(|n| (n.path, n.len))
            .collect(),
    }
}

/// The guard's verdict on a CRD (about the kind `context`, written at `at`): an error when the
/// API server cannot store it, a warning when client-side `kubectl apply` cannot apply it,
/// else nothing.
pub fn check(crd: &Value, at: Option<&Loc>, context: &str) -> Result<Option<Diagnostic>, Errors> {
    let size = measure(crd);
    if size.json + SERVER_ROOM > REQUEST_LIMIT {
        let error = Diagnostic::new(
            at,
            context,
            format!(
                "the CRD is {} bytes as JSON, too large for etcd",
                thousands(size.json)
            ),
        )
        .with_note(format!(
            "the API server stores it as JSON with its metadata, managed fields and status \
             (kubegen keeps {} bytes for them), and etcd accepts at most {} bytes in one \
             request (its default --max-request-bytes): the CRD cannot be stored, or once \
             stored cannot be updated nor deleted, however it is applied",
            thousands(SERVER_ROOM),
            thousands(REQUEST_LIMIT),
        ));
        return Err(shrink(error, &size).into());
    }
    if size.annotations > ANNOTATIONS_LIMIT {
        let warning = Diagnostic::warning(
            at,
            context,
            format!(
                "the CRD is {} bytes as JSON, too large for client-side `kubectl apply`",
                thousands(size.json)
            ),
        )
        .with_note(format!(
            "client-side apply stores it in its last-applied-configuration annotation: {} \
             bytes of annotations where the API server accepts {} (`metadata.annotations: Too \
             long`); apply it with `kubectl apply --server-side` (or `kubectl create`/`replace`)",
            thousands(size.annotations),
            thousands(ANNOTATIONS_LIMIT),
        ));
        return Ok(Some(shrink(warning, &size)));
    }
    Ok(None)
}

/// How to make it smaller: descriptions, then the largest subtrees.
fn shrink(diagnostic: Diagnostic, size: &Size) -> Diagnostic {
    let largest: Vec<String> = size
        .largest
        .iter()
        .map(|(path, len)| format!("{path} ({} bytes)", thousands(*len)))
        .collect();
    let diagnostic = diagnostic.with_note(format!("the largest subtrees: {}", largest.join(", ")));
    if size.descriptions > 0 {
        diagnostic.with_help(
            format!(
                "descriptions take {} bytes: `max-desc-len` in [package.metadata.kubegen] (or \
                 `--max-desc-len`) shortens them, 0 drops them",
                thousands(size.descriptions)
            ),
            None,
        )
    } else {
        diagnostic
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A schema node's path and JSON size, and its largest child's.
struct Node {
    path: String,
    len: usize,
    largest_child: usize,
}

/// The JSON size of a schema node, recording it and every schema under it: `.name` for a
/// property, `[*]` for list items and map values.
fn schema(v: &Value, path: &str, out: &mut Vec<Node>) -> usize {
    let Value::Object(map) = v else {
        return go_len(v);
    };
    let mut len = 2 + map.len().saturating_sub(1);
    let mut largest_child = 0;
    for (key, child) in map {
        len += go_str_len(key) + 1;
        len += match (key.as_str(), child) {
            ("properties", Value::Object(props)) => {
                let mut props_len = 2 + props.len().saturating_sub(1);
                for (name, prop) in props {
                    let n = schema(prop, &format!("{path}.{name}"), out);
                    largest_child = largest_child.max(n);
                    props_len += go_str_len(name) + 1 + n;
                }
                props_len
            }
            ("items" | "additionalProperties", Value::Object(_)) => {
                let n = schema(child, &format!("{path}[*]"), out);
                largest_child = largest_child.max(n);
                n
            }
            _ => go_len(child),
        };
    }
    out.push(Node {
        path: path.to_string(),
        len,
        largest_child,
    });
    len
}

/// The length of `v` as Go's `json.Marshal` writes it.
pub fn go_len(v: &Value) -> usize {
    match v {
        Value::Object(map) => {
            2 + map.len().saturating_sub(1)
                + map
                    .iter()
                    .map(|(k, v)| go_str_len(k) + 1 + go_len(v))
                    .sum::<usize>()
        }
        Value::Array(items) => {
            2 + items.len().saturating_sub(1) + items.iter().map(go_len).sum::<usize>()
        }
        Value::String(s) => go_str_len(s),
        other => other.to_string().len(),
    }
}

/// A string's length as a Go JSON string: serde_json's escapes (`\"`, `\\`, `\n`-style for
/// five control characters, `\u00XX` for the others), plus Go's HTML-safe ones (`\u003c` for
/// `<`, `>`, `&`; `\u2028`, `\u2029`), counted without writing it.
fn go_str_len(s: &str) -> usize {
    // Byte by byte: every byte below 0x80 is a whole character, and U+2028/U+2029 are the
    // only escaped characters beyond it (3 bytes written as 6).
    let extra: usize = s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 1,
            0x00..=0x1f | b'<' | b'>' | b'&' => 5,
            _ => 0,
        })
        .sum();
    let separators = if s.is_ascii() {
        0
    } else {
        s.matches(['\u{2028}', '\u{2029}']).count()
    };
    s.len() + 2 + extra + 3 * separators
}

fn strip_descriptions(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("description");
            map.values_mut().for_each(strip_descriptions);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_descriptions),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn lengths_are_go_json_lengths() {
        let v = json!({"a": [1, "x<y"], "b": {"c": true}, "d": "\u{2028}"});
        // {"a":[1,"x\u003cy"],"b":{"c":true},"d":"\u2028"}
        assert_eq!(
            go_len(&v),
            r#"{"a":[1,"x\u003cy"],"b":{"c":true},"d":"\u2028"}"#.len()
        );
        assert_eq!(thousands(1_572_864), "1,572,864");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn string_lengths_count_every_escape_as_written() {
        // Written out by serde_json, then Go's HTML-safe escapes added.
        let written = |s: &str| {
            let html = s.chars().filter(|c| matches!(c, '<' | '>' | '&')).count();
            let separators = s.chars().filter(|c| matches!(c, '\u{2028}' | '\u{2029}'));
            serde_json::to_string(s).unwrap().len() + 5 * html + 3 * separators.count()
        };
        let mut samples: Vec<String> = (0u8..0x80).map(|b| char::from(b).to_string()).collect();
        samples.extend(
            [
                "",
                "plain",
                "a\"b\\c",
                "x<y>&z",
                "\u{2028}\u{2029}",
                "é€𝄞",
                "\u{7f}\u{80}\u{a0}",
            ]
            .map(String::from),
        );
        for s in samples {
            assert_eq!(go_str_len(&s), written(&s), "{s:?}");
        }
    }

    fn crd(description: &str) -> Value {
        json!({
            "metadata": {"name": "xs.example.com", "annotations": {"kubegen.io/version": "0.1.0"}},
            "spec": {"versions": [{"name": "v1", "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {
                    "spec": {"type": "object", "properties": {
                        "big": {"type": "string", "description": description},
                        "small": {"type": "string"},
                    }},
                },
            }}}]},
        })
    }

    #[test]
    fn sizes_name_the_largest_subtrees_and_the_descriptions() {
        let c = crd("d");
        let size = measure(&c);
        assert_eq!(size.json, serde_json::to_string(&c).unwrap().len());
        assert_eq!(
            size.annotations,
            "kubegen.io/version".len() + "0.1.0".len() + LAST_APPLIED.len() + size.json + 1
        );
        assert_eq!(size.descriptions, r#","description":"d""#.len());
        let paths: Vec<&str> = size.largest.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["v1 .spec", "v1 .spec.big", "v1 .spec.small"]);
        let big = &c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
        assert_eq!(size.largest[0].1, go_len(big));
    }

    fn check_at(crd: &Value) -> Result<Option<Diagnostic>, Errors> {
        check(crd, None, "Big")
    }

    #[test]
    fn a_crd_too_large_to_apply_client_side_warns_and_one_too_large_to_store_fails() {
        assert_eq!(check_at(&crd("small")), Ok(None));
        let warning = check_at(&crd(&"x".repeat(ANNOTATIONS_LIMIT)))
            .unwrap()
            .unwrap();
        let text = warning.one_message();
        assert_eq!(warning.level, crate::model::Level::Warning);
        assert!(text.contains("kubectl apply --server-side"), "{text}");
        assert!(text.contains("descriptions take 262,161 bytes"), "{text}");
        assert!(text.contains("v1 .spec.big (262,"), "{text}");
        // Just under the annotation limit once kubectl's annotation is counted: the object
        // alone fits, the annotations do not.
        let base = measure(&crd("")).annotations;
        let edge = ANNOTATIONS_LIMIT - base;
        assert_eq!(check_at(&crd(&"x".repeat(edge))), Ok(None));
        assert!(check_at(&crd(&"x".repeat(edge + 1))).unwrap().is_some());
        let error = check_at(&crd(&"<".repeat(REQUEST_LIMIT / 6 + 1))).unwrap_err();
        assert!(error.0[0].message.contains("too large for etcd"), "{error}");
        // The API server's room is kept below etcd's limit.
        let base = measure(&crd("")).json;
        let edge = REQUEST_LIMIT - SERVER_ROOM - base;
        assert!(check_at(&crd(&"x".repeat(edge))).is_ok());
        assert!(check_at(&crd(&"x".repeat(edge + 1))).is_err());
    }
}
