//! Which Rust type each schema node comes from: the CRD's schema is flat, the model knows the
//! names. Paths are the size guard's: `.spec.template` for a property, `[*]` for list items
//! and map values.

use std::collections::BTreeMap;

use crate::model::{Data, ResourceDef, Shape, Style};

/// The type a schema node was built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeName {
    /// A type of the crate (`derive(KubeSchema)`): its unique key and its name.
    Own {
        /// The module path and name.
        key: String,
        /// The Rust name.
        name: String,
    },
    /// A k8s-openapi type: its path (`k8s_openapi::api::core::v1::PodSpec`).
    Kubernetes(&'static str),
}

/// The types of one version's nodes, by path.
pub fn of_version(def: &ResourceDef) -> BTreeMap<String, TypeName> {
    let mut out = BTreeMap::new();
    out.insert(
        ".metadata".to_string(),
        TypeName::Kubernetes("k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta"),
    );
    let mut stack = Vec::new();
    walk(&def.spec, ".spec".to_string(), &mut out, &mut stack);
    if let Some(status) = &def.status {
        walk(status, ".status".to_string(), &mut out, &mut stack);
    }
    out
}

fn walk(
    shape: &Shape,
    path: String,
    out: &mut BTreeMap<String, TypeName>,
    stack: &mut Vec<String>,
) {
    match shape {
        Shape::Optional(inner) => walk(inner, path, out, stack),
        Shape::Seq { item, .. } => walk(item, format!("{path}[*]"), out, stack),
        Shape::Map(value) => walk(value, format!("{path}[*]"), out, stack),
        Shape::Known(known) if known.name.starts_with("k8s_openapi::") => {
            out.insert(path, TypeName::Kubernetes(known.name));
        }
        Shape::Named(named) => {
            // A recursive type's schema stops where it recurs.
            if stack.contains(&named.key) {
                return;
            }
            let Ok(def) = (named.load)() else { return };
            let own = TypeName::Own {
                key: def.key.clone(),
                name: def.name.clone(),
            };
            out.insert(path.clone(), own.clone());
            if def.markers.stops_walk() {
                return;
            }
            let Data::Struct { fields, style } = &def.data else {
                return;
            };
            stack.push(named.key.clone());
            for field in fields.iter().filter(|f| def.walks(f)) {
                if field.serde.flatten || *style == Style::Tuple {
                    // A flattened type's fields are this node's, and a newtype's inner type
                    // is this node: the node keeps its name.
                    walk(&field.shape, path.clone(), out, stack);
                    out.insert(path.clone(), own.clone());
                } else {
                    let child = format!("{path}.{}", def.json_name(None, field));
                    walk(&field.shape, child, out, stack);
                }
            }
            stack.pop();
        }
        _ => {}
    }
}
