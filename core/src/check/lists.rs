//! The list-type rules, written once: what the apiserver requires of a node's
//! `x-kubernetes-list-type` and `x-kubernetes-list-map-keys` in a CRD (apiextensions'
//! schema validation with the options of new CRDs: atomic set items, map keys required or
//! defaulted and not nullable). The builder applies them to the lists users declare, the derive's
//! compile-time checks word their findings the same way, and the Kubernetes types' topology is
//! only kept where they pass.

use std::fmt;

use crate::model::info::MapKey;
use crate::model::{ListType, Schema};

/// One way a list's topology is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListProblem {
    /// A list type on something that is not a list.
    NotAList(String),
    /// Keys without `list_type = "map"`.
    KeysWithoutMap,
    /// `list_type = "map"` without keys.
    MapWithoutKeys,
    /// Map items that are not objects with fields.
    NotObjects,
    /// Nullable items in a map list.
    NullableMapItems,
    /// Set items that are objects or lists, and not atomic.
    SetItems,
    /// Nullable items in a set.
    NullableSetItems,
    /// A key named twice.
    DuplicateKey(String),
    /// A key that is not a field of the items (the items' fields, when known).
    MissingKey(String, Vec<String>),
    /// A key that is a list or an object.
    NotScalarKey(String),
    /// A key that may be absent (neither required nor defaulted).
    OptionalKey(String),
    /// A nullable key.
    NullableKey(String),
}

impl fmt::Display for ListProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListProblem::NotAList(t) => write!(f, "`list_type` goes on lists, but this is {t}"),
            ListProblem::KeysWithoutMap => {
                f.write_str("`list_map_keys` needs `list_type = \"map\"`")
            }
            ListProblem::MapWithoutKeys => {
                f.write_str("`list_type = \"map\"` needs `list_map_keys`")
            }
            ListProblem::NotObjects => f.write_str(
                "`list_type = \"map\"` needs items that are structs with fields (the keys name \
                 some of them)",
            ),
            ListProblem::NullableMapItems => {
                f.write_str("`list_type = \"map\"` needs items that are not `nullable`")
            }
            ListProblem::SetItems => f.write_str(
                "`list_type = \"set\"` needs scalar items (or atomic ones); use \
                 `list_type = \"map\"` with `list_map_keys` for objects",
            ),
            ListProblem::NullableSetItems => {
                f.write_str("`list_type = \"set\"` needs items that are not `nullable`")
            }
            ListProblem::DuplicateKey(key) => write!(f, "`list_map_keys` names `{key}` twice"),
            ListProblem::MissingKey(key, fields) => {
                write!(
                    f,
                    "`list_map_keys` names `{key}`, which is not a field of the items"
                )?;
                if !fields.is_empty() {
                    write!(f, " (JSON names: {})", fields.join(", "))?;
                }
                Ok(())
            }
            ListProblem::NotScalarKey(key) => {
                write!(f, "list map key `{key}` must be a scalar field")
            }
            ListProblem::OptionalKey(key) => write!(
                f,
                "list map key `{key}` must be required or have a default in the items"
            ),
            ListProblem::NullableKey(key) => {
                write!(f, "list map key `{key}` must not be `nullable`")
            }
        }
    }
}

impl ListProblem {
    /// The problem the derive's compile-time check found (`None` for [`MapKey::Fine`]).
    pub fn of_map_key(problem: MapKey, key: &str) -> Option<ListProblem> {
        match problem {
            MapKey::Fine => None,
            MapKey::NotObjects => Some(ListProblem::NotObjects),
            MapKey::Missing => Some(ListProblem::MissingKey(key.to_string(), Vec::new())),
            MapKey::NotScalar => Some(ListProblem::NotScalarKey(key.to_string())),
            MapKey::Optional => Some(ListProblem::OptionalKey(key.to_string())),
            MapKey::Nullable => Some(ListProblem::NullableKey(key.to_string())),
        }
    }
}

/// Every way the apiserver would refuse `node`'s list type and keys; empty when it accepts them
/// or the node has none. Items that are untyped (not visible yet, in the derive) are not judged.
pub fn problems(node: &Schema) -> Vec<ListProblem> {
    let mut found = Vec::new();
    let has_keys = node.x_list_map_keys.as_ref().is_some_and(|k| !k.is_empty());
    let Some(list_type) = node.x_list_type else {
        if has_keys {
            found.push(ListProblem::KeysWithoutMap);
        }
        return found;
    };
    if !matches!(node.type_str(), "array" | "") {
        found.push(ListProblem::NotAList(node.type_str().to_string()));
        return found;
    }
    let items = node.items.as_deref().filter(|i| seen(i));
    match list_type {
        ListType::Atomic | ListType::Set if has_keys => found.push(ListProblem::KeysWithoutMap),
        ListType::Atomic => {}
        ListType::Set => match items {
            Some(items) if items.nullable => found.push(ListProblem::NullableSetItems),
            Some(items) if !items.can_be_set_item() => found.push(ListProblem::SetItems),
            _ => {}
        },
        ListType::Map => {
            let keys = node.x_list_map_keys.as_deref().unwrap_or_default();
            if keys.is_empty() {
                found.push(ListProblem::MapWithoutKeys);
            }
            let unique: Vec<&String> = keys
                .iter()
                .enumerate()
                .filter(|(i, key)| {
                    let again = keys.iter().take(*i).any(|k| k == *key);
                    if again {
                        found.push(ListProblem::DuplicateKey(key.to_string()));
                    }
                    !again
                })
                .map(|(_, key)| key)
                .collect();
            let Some(items) = items else { return found };
            if items.type_str() != "object" || items.properties.is_empty() {
                found.push(ListProblem::NotObjects);
                return found;
            }
            if items.nullable {
                found.push(ListProblem::NullableMapItems);
            }
            for key in unique {
                let Some(property) = items.properties.get(key) else {
                    let fields = items.properties.keys().cloned().collect();
                    found.push(ListProblem::MissingKey(key.clone(), fields));
                    continue;
                };
                if matches!(property.type_str(), "array" | "object") {
                    found.push(ListProblem::NotScalarKey(key.clone()));
                }
                if !items.always_has(key) {
                    found.push(ListProblem::OptionalKey(key.clone()));
                }
                if property.nullable {
                    found.push(ListProblem::NullableKey(key.clone()));
                }
            }
        }
    }
    found
}

/// Whether a node says anything to judge items by (the derive leaves unseen types untyped).
fn seen(items: &Schema) -> bool {
    !items.type_str().is_empty() || !items.properties.is_empty() || items.nullable
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Topology;

    fn object(props: &[(&str, Schema)], required: &[&str]) -> Schema {
        let mut s = Schema::typed("object");
        for (k, v) in props {
            s.properties.insert(k.to_string(), v.clone());
        }
        s.required = required.iter().map(|r| r.to_string()).collect();
        s
    }

    fn list(list_type: ListType, keys: Option<&[&str]>, items: Schema) -> Schema {
        Schema {
            items: Some(Box::new(items)),
            x_list_type: Some(list_type),
            x_list_map_keys: keys.map(|k| k.iter().map(|k| k.to_string()).collect()),
            ..Schema::typed("array")
        }
    }

    #[test]
    fn map_keys_must_be_required_non_nullable_scalars_named_once() {
        let nullable = Schema {
            nullable: true,
            ..Schema::typed("string")
        };
        let item = object(
            &[
                ("name", Schema::typed("string")),
                ("port", Schema::typed("integer")),
                ("tags", Schema::typed("array")),
                ("zone", nullable),
            ],
            &["port", "tags", "zone"],
        );
        let keys: &[&str] = &["name", "port", "port", "tags", "zone", "nope"];
        assert_eq!(
            problems(&list(ListType::Map, Some(keys), item)),
            [
                ListProblem::DuplicateKey("port".into()),
                ListProblem::OptionalKey("name".into()),
                ListProblem::NotScalarKey("tags".into()),
                ListProblem::NullableKey("zone".into()),
                ListProblem::MissingKey(
                    "nope".into(),
                    vec!["name".into(), "port".into(), "tags".into(), "zone".into()]
                ),
            ]
        );
    }

    #[test]
    fn sets_need_scalar_or_atomic_items_that_are_not_nullable() {
        let obj = object(&[("a", Schema::typed("string"))], &[]);
        assert_eq!(
            problems(&list(ListType::Set, None, obj.clone())),
            [ListProblem::SetItems]
        );
        let atomic = Schema {
            x_map_type: Some(Topology::Atomic),
            ..obj
        };
        assert!(problems(&list(ListType::Set, None, atomic)).is_empty());
        let nullable = Schema {
            nullable: true,
            ..Schema::typed("string")
        };
        assert_eq!(
            problems(&list(ListType::Set, None, nullable)),
            [ListProblem::NullableSetItems]
        );
    }

    #[test]
    fn keys_and_map_go_together_and_unseen_items_are_not_judged() {
        let s = Schema::typed("string");
        assert_eq!(
            problems(&list(ListType::Set, Some(&["a"]), s.clone())),
            [ListProblem::KeysWithoutMap]
        );
        assert_eq!(
            problems(&list(ListType::Map, None, Schema::default())),
            [ListProblem::MapWithoutKeys]
        );
        assert_eq!(
            problems(&list(ListType::Map, Some(&["a"]), s)),
            [ListProblem::NotObjects]
        );
        assert!(problems(&list(ListType::Map, Some(&["a"]), Schema::default())).is_empty());
    }
}
