//! CEL types, and the declared type the apiserver derives from a schema node: its CEL type, the
//! most elements (bytes, items, properties) a value can have, and its smallest JSON size.

use crate::model::Schema;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// The request-size limit (3 MiB) that bounds what no `max*` keyword does.
pub const MAX_REQUEST_BYTES: u64 = 3 * 1024 * 1024;

/// A CEL type.
#[derive(Clone, Debug)]
pub enum Type {
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Null,
    Duration,
    Timestamp,
    List(Box<Type>),
    Map(Box<Type>, Box<Type>),
    /// An object with declared fields (one per schema node: equal only to itself).
    Object(Arc<Decl>),
    Optional(Box<Type>),
    /// A type as a value (`int`, `type(self)`).
    Meta(Box<Type>),
    /// A value of one of Kubernetes' libraries.
    Opaque(Opaque),
    Dyn,
    /// A type parameter of a library overload.
    Param(u8),
    /// A node whose type the caller cannot see (the derive's untyped fields): rules touching it
    /// are left to `gen-cli` and `crd()`.
    Unknown,
}

/// The values of Kubernetes' CEL libraries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opaque {
    Quantity,
    Ip,
    Cidr,
    Url,
    Semver,
    Format,
}

impl PartialEq for Type {
    fn eq(&self, other: &Type) -> bool {
        match (self, other) {
            (Type::List(a), Type::List(b))
            | (Type::Optional(a), Type::Optional(b))
            | (Type::Meta(a), Type::Meta(b)) => a == b,
            (Type::Map(k, v), Type::Map(l, w)) => k == l && v == w,
            (Type::Object(a), Type::Object(b)) => Arc::ptr_eq(a, b),
            (Type::Opaque(a), Type::Opaque(b)) => a == b,
            (Type::Param(a), Type::Param(b)) => a == b,
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }
}

impl Type {
    /// Whether cel-go's cost model sizes this type as one element (numbers, bools, times).
    pub fn is_scalar(&self) -> bool {
        match self {
            Type::Bool | Type::Int | Type::Uint | Type::Double | Type::Duration => true,
            Type::Timestamp => true,
            Type::Optional(t) => t.is_scalar(),
            _ => false,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Bool => f.write_str("bool"),
            Type::Int => f.write_str("int"),
            Type::Uint => f.write_str("uint"),
            Type::Double => f.write_str("double"),
            Type::String => f.write_str("string"),
            Type::Bytes => f.write_str("bytes"),
            Type::Null => f.write_str("null_type"),
            Type::Duration => f.write_str("google.protobuf.Duration"),
            Type::Timestamp => f.write_str("google.protobuf.Timestamp"),
            Type::List(e) => write!(f, "list({e})"),
            Type::Map(k, v) => write!(f, "map({k}, {v})"),
            Type::Object(d) => write!(f, "object({})", d.field_names().join(", ")),
            Type::Optional(t) => write!(f, "optional_type({t})"),
            Type::Meta(t) => write!(f, "type({t})"),
            Type::Opaque(o) => f.write_str(match o {
                Opaque::Quantity => "kubernetes.Quantity",
                Opaque::Ip => "net.IP",
                Opaque::Cidr => "net.CIDR",
                Opaque::Url => "kubernetes.URL",
                Opaque::Semver => "kubernetes.Semver",
                Opaque::Format => "kubernetes.NamedFormat",
            }),
            Type::Dyn | Type::Unknown => f.write_str("dyn"),
            Type::Param(p) => write!(f, "{}", *p as char),
        }
    }
}

/// A schema node as the apiserver declares it to CEL.
#[derive(Debug)]
pub struct Decl {
    pub kind: DeclKind,
    /// The most bytes (strings: 4 per character), items or properties a value can have.
    pub max_elements: u64,
    /// The fewest bytes the value takes in JSON.
    pub min_size: u64,
}

/// What a declared node holds.
#[derive(Debug)]
pub enum DeclKind {
    Scalar(Type),
    List(Arc<Decl>),
    /// String keys (declared with no maximum), values.
    Map(Arc<Decl>),
    /// Fields by JSON name (only those CEL can name).
    Object(BTreeMap<String, Arc<Decl>>),
}

impl Decl {
    fn scalar(t: Type, max_elements: u64, min_size: u64) -> Arc<Decl> {
        Arc::new(Decl {
            kind: DeclKind::Scalar(t),
            max_elements,
            min_size,
        })
    }

    /// The declared type of `s`, `None` where the apiserver has none (an untyped node, unless
    /// `lenient`: then it is [`Type::Unknown`]). `resource` adds `apiVersion`, `kind` and
    /// `metadata` (name and generateName only), as for a resource's root or an embedded one.
    pub fn of(s: &Schema, resource: bool, lenient: bool) -> Option<Arc<Decl>> {
        let unbounded_string = MAX_REQUEST_BYTES - 2;
        if s.x_int_or_string {
            let max = s
                .max_length
                .map_or(unbounded_string, |m| m.saturating_mul(4));
            return Some(Decl::scalar(Type::Dyn, max, 1));
        }
        let child = |c: &Schema| Decl::of(c, c.x_embedded_resource, lenient);
        match s.type_.as_deref() {
            Some("array") => {
                let items = child(s.items.as_deref()?)?;
                let max = s
                    .max_items
                    .unwrap_or(unbounded_string / (items.min_size + 1));
                Some(Arc::new(Decl {
                    kind: DeclKind::List(items),
                    max_elements: max,
                    min_size: 2,
                }))
            }
            Some("object") => {
                if let Some(values) = &s.additional_properties {
                    let values = child(values)?;
                    let max = s
                        .max_properties
                        .unwrap_or(unbounded_string / (values.min_size + 6));
                    return Some(Arc::new(Decl {
                        kind: DeclKind::Map(values),
                        max_elements: max,
                        min_size: 2,
                    }));
                }
                let mut fields = BTreeMap::new();
                let mut min_size = 2;
                for (name, prop) in &s.properties {
                    let Some(decl) = child(prop) else { continue };
                    if s.required.contains(name) && prop.default.is_none() {
                        min_size += name.len() as u64 + decl.min_size + 4;
                    }
                    if escape(name).is_some() {
                        fields.insert(name.clone(), decl);
                    }
                }
                if resource {
                    let string = || Decl::scalar(Type::String, unbounded_string, 2);
                    fields.insert("apiVersion".into(), string());
                    fields.insert("kind".into(), string());
                    let meta = [("name", string()), ("generateName", string())];
                    let meta = meta.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
                    fields.insert(
                        "metadata".into(),
                        Arc::new(Decl {
                            kind: DeclKind::Object(meta),
                            max_elements: 0,
                            min_size: 2,
                        }),
                    );
                }
                Some(Arc::new(Decl {
                    kind: DeclKind::Object(fields),
                    max_elements: 0,
                    min_size,
                }))
            }
            Some("string") => Some(match s.format.as_deref() {
                Some("byte") => {
                    Decl::scalar(Type::Bytes, s.max_length.unwrap_or(unbounded_string), 2)
                }
                Some("duration") => Decl::scalar(Type::Duration, 32, 3),
                Some("date") => Decl::scalar(Type::Timestamp, 12, 12),
                Some("date-time") => Decl::scalar(Type::Timestamp, 32, 21),
                _ => {
                    let enum_max = s.enum_.as_ref().map(|values| {
                        let lens = values.iter().filter_map(|v| v.as_str()).map(str::len);
                        lens.max().unwrap_or(0) as u64
                    });
                    let max = match (s.max_length, enum_max) {
                        (Some(m), _) => m.saturating_mul(4),
                        (None, Some(m)) => m,
                        (None, None) => unbounded_string,
                    };
                    Decl::scalar(Type::String, max, 2)
                }
            }),
            Some("boolean") => Some(Decl::scalar(Type::Bool, 0, 4)),
            Some("number") => Some(Decl::scalar(Type::Double, 0, 1)),
            Some("integer") => Some(Decl::scalar(Type::Int, 0, 1)),
            _ if lenient && !s.x_preserve_unknown_fields => Some(Decl::scalar(Type::Unknown, 0, 1)),
            _ => None,
        }
    }

    /// The CEL type of values of this node.
    pub fn cel_type(self: &Arc<Decl>) -> Type {
        match &self.kind {
            DeclKind::Scalar(t) => t.clone(),
            DeclKind::List(e) => Type::List(Box::new(e.cel_type())),
            DeclKind::Map(v) => Type::Map(Box::new(Type::String), Box::new(v.cel_type())),
            DeclKind::Object(_) => Type::Object(Arc::clone(self)),
        }
    }

    /// The field CEL names `cel_name` (escaped), if the object has it.
    pub fn field(&self, cel_name: &str) -> Option<&Arc<Decl>> {
        match &self.kind {
            DeclKind::Object(fields) => fields
                .iter()
                .find(|(name, _)| escape(name).as_deref() == Some(cel_name))
                .map(|(_, decl)| decl),
            _ => None,
        }
    }

    /// The JSON names of an object's fields.
    pub fn field_names(&self) -> Vec<&str> {
        match &self.kind {
            DeclKind::Object(fields) => fields.keys().map(String::as_str).collect(),
            _ => Vec::new(),
        }
    }

    /// The declared node at a cost-model path below this one (`@items`, `@values`, `@keys` or
    /// a field's CEL name), and the most elements its values have there.
    pub fn max_at(self: &Arc<Decl>, path: &[String]) -> Option<u64> {
        let mut node = Arc::clone(self);
        for (i, step) in path.iter().enumerate() {
            node = match (step.as_str(), &node.kind) {
                ("@items" | "@values", DeclKind::List(e) | DeclKind::Map(e)) => Arc::clone(e),
                // Keys are strings declared with no maximum, and have no fields.
                ("@keys", DeclKind::Map(_)) => return (i + 1 == path.len()).then_some(0),
                (name, _) => Arc::clone(node.field(name)?),
            };
        }
        Some(node.max_elements)
    }
}

pub(crate) use crate::names::cel_name as escape;
