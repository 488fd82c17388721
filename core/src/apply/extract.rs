//! `extract`: the part of an object one field manager owns, as client-go's `ExtractX` gives
//! it. The owned fields are the manager's `Apply` entry of `metadata.managedFields`, whose
//! `fieldsV1` is a tree of path elements: `f:<name>` a field (or a map key), `k:<json>` the
//! item of a list map with these keys, `v:<json>` the item of a set with this value, `i:<n>`
//! the item at this index, and `.` the node itself. A leaf (`{}`) owns the whole value there.

use std::fmt;

use serde_json::{Map, Value};

use crate::model::describe::{ListKind, Node};

/// Why the owned fields could not be extracted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExtractError {
    /// `managedFields` names a field the type does not have.
    UnknownField {
        /// Where, as a JSON path (`.spec.ports[name="http"]`).
        path: String,
        /// The field's JSON name.
        field: String,
        /// The fields the type has there.
        known: Vec<&'static str>,
    },
    /// `managedFields` is not what the API server writes, or does not fit the type's lists.
    Malformed {
        /// Where, as a JSON path.
        path: String,
        /// What is wrong.
        problem: String,
    },
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractError::UnknownField { path, field, known } => {
                write!(
                    f,
                    "managedFields names `{field}` at `{path}`, which the type does not have"
                )?;
                if !known.is_empty() {
                    write!(f, " (fields there: {})", known.join(", "))?;
                }
                Ok(())
            }
            ExtractError::Malformed { path, problem } => {
                write!(f, "malformed managedFields at `{path}`: {problem}")
            }
        }
    }
}

impl std::error::Error for ExtractError {}

fn malformed(path: &str, problem: impl Into<String>) -> ExtractError {
    ExtractError::Malformed {
        path: display(path),
        problem: problem.into(),
    }
}

fn display(path: &str) -> String {
    if path.is_empty() {
        ".".into()
    } else {
        path.into()
    }
}

/// The field set `manager` owns through `Apply` operations on `subresource` (`""` for the main
/// resource, `"status"`) in the object's `metadata.managedFields`: the union of its entries'
/// `fieldsV1`, `None` when it owns nothing.
pub fn owned_fields(
    object: &Value,
    manager: &str,
    subresource: &str,
) -> Result<Option<Value>, ExtractError> {
    let path = ".metadata.managedFields";
    let entries = match object.pointer("/metadata/managedFields") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(entries)) => entries,
        Some(_) => return Err(malformed(path, "not a list")),
    };
    let mut owned: Option<Value> = None;
    for (i, entry) in entries.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let Value::Object(entry) = entry else {
            return Err(malformed(&at, "an entry is not an object"));
        };
        let text = |key: &str| match entry.get(key) {
            None | Some(Value::Null) => Ok(""),
            Some(Value::String(s)) => Ok(s.as_str()),
            Some(_) => Err(malformed(&at, format!("`{key}` is not a string"))),
        };
        if text("manager")? != manager
            || text("operation")? != "Apply"
            || text("subresource")? != subresource
        {
            continue;
        }
        let kind = text("fieldsType")?;
        if kind != "FieldsV1" {
            return Err(malformed(
                &at,
                format!("fieldsType is `{kind}`, and only `FieldsV1` is known"),
            ));
        }
        let Some(fields @ Value::Object(_)) = entry.get("fieldsV1") else {
            return Err(malformed(&at, "fieldsV1 is missing or not an object"));
        };
        match &mut owned {
            Some(all) => union(all, fields),
            None => owned = Some(fields.clone()),
        }
    }
    Ok(owned)
}

/// Adds the set `more` to the set `set`.
fn union(set: &mut Value, more: &Value) {
    if let (Value::Object(set), Value::Object(more)) = (set, more) {
        for (key, child) in more {
            match set.get_mut(key) {
                Some(existing) => union(existing, child),
                None => {
                    set.insert(key.clone(), child.clone());
                }
            }
        }
    }
}

/// The part of `value` that the field set `fields` covers, checked against `node`: every field
/// the set names must be one the type has, every list item it names must fit the list's type.
/// Items of list maps keep their keys. What the set names but `value` no longer has is left
/// out.
pub fn extract(value: &Value, fields: &Value, node: &Node) -> Result<Value, ExtractError> {
    walk(value, fields, node, "")
}

fn walk(value: &Value, set: &Value, node: &Node, path: &str) -> Result<Value, ExtractError> {
    let Value::Object(set) = set else {
        return Err(malformed(path, "a node of fieldsV1 is not an object"));
    };
    if set.keys().all(|k| k == ".") {
        return Ok(value.clone());
    }
    let node = node.resolve();
    match value {
        Value::Object(object) => object_part(object, set, node, path),
        Value::Array(items) => list_part(items, set, node, path),
        _ => Err(malformed(
            path,
            "fieldsV1 names members inside a value that has none",
        )),
    }
}

fn object_part(
    object: &Map<String, Value>,
    set: &Map<String, Value>,
    node: &Node,
    path: &str,
) -> Result<Value, ExtractError> {
    if let Node::List { .. } = node {
        return Err(malformed(
            path,
            "the type has a list here, the object a map",
        ));
    }
    let mut out = Map::new();
    for (key, child) in set {
        if key == "." {
            continue;
        }
        let Some(name) = key.strip_prefix("f:") else {
            return Err(malformed(
                path,
                format!("`{key}` names a list item, but this is an object"),
            ));
        };
        let Some(child_node) = node.field(name) else {
            return Err(ExtractError::UnknownField {
                path: display(path),
                field: name.to_string(),
                known: node.field_names(),
            });
        };
        if let Some(v) = object.get(name) {
            let at = format!("{path}.{name}");
            out.insert(name.to_string(), walk(v, child, child_node, &at)?);
        }
    }
    Ok(Value::Object(out))
}

fn list_part(
    items: &[Value],
    set: &Map<String, Value>,
    node: &Node,
    path: &str,
) -> Result<Value, ExtractError> {
    let (kind, item_node) = match node {
        Node::List { kind, item } => (Some(kind), *item),
        Node::Value => (None, &Node::Value),
        _ => {
            return Err(malformed(
                path,
                "the type has an object here, the object a list",
            ));
        }
    };
    let mut found: Vec<(usize, Value)> = Vec::new();
    for (key, child) in set {
        if key == "." {
            continue;
        }
        let (element, rest) = key.split_at(key.find(':').map_or(0, |i| i + 1));
        let parsed = |what: &str| {
            serde_json::from_str::<Value>(rest)
                .map_err(|e| malformed(path, format!("`{key}`: {what} is not JSON: {e}")))
        };
        match element {
            "k:" => {
                let Value::Object(keys) = parsed("the key")? else {
                    return Err(malformed(
                        path,
                        format!("`{key}`: the key is not an object"),
                    ));
                };
                match kind {
                    Some(ListKind::Map(names)) => {
                        let mut named: Vec<&str> = keys.keys().map(String::as_str).collect();
                        named.sort_unstable();
                        let mut expected = names.to_vec();
                        expected.sort_unstable();
                        if named != expected {
                            return Err(malformed(
                                path,
                                format!(
                                    "`{key}` names the keys {named:?}, but the list's keys are {expected:?}"
                                ),
                            ));
                        }
                    }
                    Some(_) => {
                        return Err(malformed(
                            path,
                            format!(
                                "`{key}` names a list map item, but the list is not a list map"
                            ),
                        ));
                    }
                    None => {}
                }
                let at = format!("{path}[{}]", selector(&keys));
                let hit = items
                    .iter()
                    .enumerate()
                    .find(|(_, item)| keys.iter().all(|(k, v)| item.get(k) == Some(v)));
                if let Some((i, item)) = hit {
                    let mut part = walk(item, child, item_node, &at)?;
                    if let Value::Object(part) = &mut part {
                        for (k, v) in keys {
                            part.insert(k, v);
                        }
                    }
                    found.push((i, part));
                }
            }
            "v:" => {
                let wanted = parsed("the value")?;
                if kind.is_some_and(|k| *k != ListKind::Set) {
                    return Err(malformed(
                        path,
                        format!("`{key}` names a set item, but the list is not a set"),
                    ));
                }
                if let Some(i) = items.iter().position(|item| *item == wanted) {
                    found.push((i, wanted));
                }
            }
            "i:" => {
                let i: usize = rest
                    .parse()
                    .map_err(|_| malformed(path, format!("`{key}`: not an index")))?;
                if let Some(ListKind::Map(_) | ListKind::Set) = kind {
                    return Err(malformed(
                        path,
                        format!("`{key}` names an item by index, but the list's items have keys"),
                    ));
                }
                if let Some(item) = items.get(i) {
                    found.push((i, walk(item, child, item_node, &format!("{path}[{i}]"))?));
                }
            }
            _ => {
                return Err(malformed(
                    path,
                    format!("`{key}` names a field, but this is a list"),
                ));
            }
        }
    }
    found.sort_by_key(|(i, _)| *i);
    Ok(Value::Array(found.into_iter().map(|(_, v)| v).collect()))
}

/// `name="a",port=80`, for paths in messages.
fn selector(keys: &Map<String, Value>) -> String {
    let parts: Vec<String> = keys.iter().map(|(k, v)| format!("{k}={v}")).collect();
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::describe::Field;

    const fn field(name: &'static str, node: Node) -> Field {
        Field {
            name,
            flatten: false,
            defaulted: false,
            node,
        }
    }

    static PORT: Node = Node::Object(&[
        field("name", Node::Value),
        field("port", Node::Value),
        field("protocol", Node::Value),
    ]);

    fn port() -> &'static Node {
        &PORT
    }

    static SPEC: Node = Node::Object(&[
        field("replicas", Node::Value),
        field(
            "ports",
            Node::List {
                kind: ListKind::Map(&["name"]),
                item: &Node::Type(port),
            },
        ),
        field(
            "tags",
            Node::List {
                kind: ListKind::Set,
                item: &Node::Value,
            },
        ),
        field(
            "args",
            Node::List {
                kind: ListKind::Atomic,
                item: &Node::Value,
            },
        ),
        field(
            "labels",
            Node::Map {
                atomic: false,
                value: &Node::Value,
            },
        ),
    ]);

    fn spec() -> Value {
        json!({
            "replicas": 3,
            "ports": [
                {"name": "http", "port": 80, "protocol": "TCP"},
                {"name": "metrics", "port": 9090}
            ],
            "tags": ["a", "b", "c"],
            "args": ["--x", "--y"],
            "labels": {"mine": "1", "theirs": "2"}
        })
    }

    #[test]
    fn fields_list_map_items_set_items_and_map_entries() {
        let set = json!({
            "f:replicas": {},
            "f:ports": {
                "k:{\"name\":\"metrics\"}": {".": {}, "f:port": {}}
            },
            "f:tags": {"v:\"c\"": {}, "v:\"a\"": {}},
            "f:args": {},
            "f:labels": {"f:mine": {}}
        });
        let got = extract(&spec(), &set, &SPEC).unwrap();
        assert_eq!(
            got,
            json!({
                "replicas": 3,
                "ports": [{"name": "metrics", "port": 9090}],
                "tags": ["a", "c"],
                "args": ["--x", "--y"],
                "labels": {"mine": "1"}
            })
        );
    }

    #[test]
    fn what_the_object_no_longer_has_is_left_out() {
        let set = json!({"f:ports": {"k:{\"name\":\"gone\"}": {"f:port": {}}}, "f:labels": {"f:gone": {}}});
        let got = extract(&spec(), &set, &SPEC).unwrap();
        assert_eq!(got, json!({"ports": [], "labels": {}}));
    }

    #[test]
    fn an_unknown_field_is_an_error_naming_the_known_ones() {
        let set = json!({"f:ports": {"k:{\"name\":\"http\"}": {"f:hostPort": {}}}});
        let e = extract(&spec(), &set, &SPEC).unwrap_err();
        assert_eq!(
            e.to_string(),
            "managedFields names `hostPort` at `.ports[name=\"http\"]`, which the type does not have (fields there: name, port, protocol)"
        );
    }

    #[test]
    fn list_elements_must_fit_the_list_type() {
        let cases = [
            (
                json!({"f:args": {"k:{\"name\":\"x\"}": {}}}),
                "not a list map",
            ),
            (
                json!({"f:ports": {"k:{\"port\":80}": {}}}),
                "the list's keys are [\"name\"]",
            ),
            (json!({"f:ports": {"v:\"x\"": {}}}), "not a set"),
            (json!({"f:tags": {"i:0": {}}}), "by index"),
            (json!({"f:ports": {"k:nope": {}}}), "not JSON"),
            (json!({"f:replicas": {"f:x": {}}}), "has none"),
            (json!({"f:labels": {"k:{}": {}}}), "this is an object"),
            (json!({"f:replicas": []}), "not an object"),
        ];
        for (set, expected) in cases {
            let e = extract(&spec(), &set, &SPEC).unwrap_err().to_string();
            assert!(e.contains(expected), "{set}: {e}");
        }
    }

    #[test]
    fn undescribed_values_are_taken_as_recorded() {
        let value = json!({"labels": {"a": "1", "b": "2"}, "list": [{"k": 1, "x": 2}, {"k": 2}]});
        let set = json!({"f:labels": {"f:b": {}}, "f:list": {"k:{\"k\":1}": {"f:x": {}}}});
        let got = extract(&value, &set, &Node::Value).unwrap();
        assert_eq!(
            got,
            json!({"labels": {"b": "2"}, "list": [{"k": 1, "x": 2}]})
        );
    }

    #[test]
    fn owned_fields_are_the_managers_apply_entries() {
        let object = json!({"metadata": {"managedFields": [
            {"manager": "a", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:x": {}}}},
            {"manager": "a", "operation": "Update", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:y": {}}}},
            {"manager": "a", "operation": "Apply", "subresource": "status", "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {}}},
            {"manager": "b", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:z": {}}}},
            {"manager": "a", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:w": {}}}}
        ]}});
        assert_eq!(
            owned_fields(&object, "a", "").unwrap(),
            Some(json!({"f:spec": {"f:x": {}, "f:w": {}}}))
        );
        assert_eq!(
            owned_fields(&object, "a", "status").unwrap(),
            Some(json!({"f:status": {}}))
        );
        assert_eq!(owned_fields(&object, "c", "").unwrap(), None);
        let bad = json!({"metadata": {"managedFields": [{"manager": "a", "operation": "Apply", "fieldsType": "FieldsV2"}]}});
        assert!(
            owned_fields(&bad, "a", "")
                .unwrap_err()
                .to_string()
                .contains("FieldsV2")
        );
        let bad = json!({"metadata": {"managedFields": {}}});
        assert!(owned_fields(&bad, "a", "").is_err());
    }
}
