//! What `extract` needs to know of a type: its JSON fields and the topology of its lists and
//! maps, as `'static` data the derive generates from the model (see
//! [`crate::apply::plan`]), so that nothing is parsed again at run time. It lives with the model
//! because both the apply plan and the `KubeSchema` impls of known types
//! ([`crate::known`]) produce it.

/// One node of a type's JSON form.
#[derive(Debug)]
pub enum Node {
    /// A value whose inside is not described (scalars, k8s-openapi types, `serde_json::Value`,
    /// types applied whole): the fields a manager owns inside it are taken as recorded.
    Value,
    /// A type with an apply configuration of its own, described by the function.
    Type(fn() -> &'static Node),
    /// An object with these fields.
    Object(&'static [Field]),
    /// One of several forms (the contents of an enum's variants): a field is looked up in each.
    OneOf(&'static [Node]),
    /// A list.
    List {
        /// How its items are identified.
        kind: ListKind,
        /// Its items.
        item: &'static Node,
    },
    /// A map with string keys.
    Map {
        /// `map_type = "atomic"`: replaced as a whole.
        atomic: bool,
        /// Its values.
        value: &'static Node,
    },
}

/// A field of an object.
#[derive(Debug)]
pub struct Field {
    /// Its JSON name (empty for a flattened field).
    pub name: &'static str,
    /// `#[serde(flatten)]`: its fields are the object's own.
    pub flatten: bool,
    /// The field has a default in the schema, so the API server fills it in when it is left
    /// out (a list map key with a default may be left out of an item).
    pub defaulted: bool,
    /// Its value.
    pub node: Node,
}

/// How the items of a list are identified (`x-kubernetes-list-type`).
#[derive(Debug, PartialEq, Eq)]
pub enum ListKind {
    /// The list is one value, owned as a whole (the default).
    Atomic,
    /// Scalar items, each identified by its value.
    Set,
    /// Object items, each identified by these fields.
    Map(&'static [&'static str]),
}

impl Node {
    /// The node itself, with [`Node::Type`] references followed.
    pub fn resolve(&self) -> &Node {
        let mut node = self;
        while let Node::Type(describe) = node {
            node = describe();
        }
        node
    }

    /// The node of the field named `name` of this object (flattened fields and variant
    /// contents included); `None` when the object has no such field. A node that is not
    /// described ([`Node::Value`]) has every field.
    pub fn field(&self, name: &str) -> Option<&Node> {
        match self.resolve() {
            Node::Value => Some(&Node::Value),
            Node::Object(fields) => fields.iter().find_map(|f| {
                if f.flatten {
                    f.node.field(name)
                } else {
                    (f.name == name).then_some(&f.node)
                }
            }),
            Node::OneOf(forms) => forms.iter().find_map(|n| n.field(name)),
            Node::Map { value, .. } => Some(value),
            Node::List { .. } | Node::Type(_) => None,
        }
    }

    /// Whether the field `name` of this object has a schema default; `None` when the object
    /// is not described or has no such field.
    pub fn defaulted(&self, name: &str) -> Option<bool> {
        match self.resolve() {
            Node::Object(fields) => fields.iter().find_map(|f| {
                if f.flatten {
                    f.node.defaulted(name)
                } else {
                    (f.name == name).then_some(f.defaulted)
                }
            }),
            Node::OneOf(forms) => forms.iter().find_map(|n| n.defaulted(name)),
            _ => None,
        }
    }

    /// The JSON names of the fields of this object, flattened ones included, for messages.
    pub fn field_names(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        if let Node::Object(fields) = self.resolve() {
            for f in fields.iter() {
                if f.flatten {
                    names.extend(f.node.field_names());
                } else {
                    names.push(f.name);
                }
            }
        } else if let Node::OneOf(forms) = self.resolve() {
            for form in forms.iter() {
                names.extend(form.field_names());
            }
        }
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static INNER: Node = Node::Object(&[
        Field {
            name: "a",
            flatten: false,
            defaulted: false,
            node: Node::Value,
        },
        Field {
            name: "b",
            flatten: false,
            defaulted: true,
            node: Node::Value,
        },
    ]);

    fn inner() -> &'static Node {
        &INNER
    }

    static OUTER: Node = Node::Object(&[
        Field {
            name: "c",
            flatten: false,
            defaulted: false,
            node: Node::Value,
        },
        Field {
            name: "",
            flatten: true,
            defaulted: false,
            node: Node::Type(inner),
        },
    ]);

    #[test]
    fn flattened_fields_are_the_objects_own() {
        assert!(OUTER.field("c").is_some());
        assert!(OUTER.field("a").is_some());
        assert!(OUTER.field("z").is_none());
        assert_eq!(OUTER.defaulted("b"), Some(true));
        assert_eq!(OUTER.defaulted("a"), Some(false));
        assert_eq!(OUTER.field_names(), ["c", "a", "b"]);
    }
}
