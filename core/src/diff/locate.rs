//! From a schema path back to the Rust source: the field (or the spec struct) whose schema a
//! change is in.

use std::sync::Arc;

use super::{SchemaPath, Segment};
use crate::model::{Data, Field, Loc, ResourceDef, Shape, TypeDef};

/// The Rust item a schema change comes from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Source {
    /// Where it is.
    pub loc: Option<Loc>,
    /// The rules its `accept_change` key names.
    pub accepted: Vec<String>,
    /// The spec struct, when its `accept_change` key is the one that accepts a change shown
    /// elsewhere (at the status type, which takes no key).
    pub accept_on: Option<String>,
}

/// Where `path` (in the schema of the version `def` declares) is in the sources: the deepest
/// Rust field along it that can be found (a path that goes on into a type from another crate,
/// or into a field that was removed, stops at the last one), else the type the path starts in:
/// the status type under `.status`, the spec struct anywhere else.
pub fn locate(def: &ResourceDef, path: &SchemaPath) -> Source {
    let spec_struct = named(&def.spec);
    let spec = Source {
        loc: def.markers.loc.clone(),
        accepted: (spec_struct.as_ref())
            .map(|t| t.markers.accept_change.clone())
            .unwrap_or_default(),
        accept_on: None,
    };
    let Some(Segment::Field(first)) = path.0.first() else {
        return spec;
    };
    let (mut shape, mut found) = match (first.as_str(), &def.status) {
        ("spec", _) => (def.spec.clone(), spec),
        ("status", Some(status)) => {
            let at_status = named(status).and_then(|t| t.loc.clone()).map(|loc| Source {
                loc: Some(loc),
                accept_on: spec_struct.as_ref().map(|t| t.name.clone()),
                ..spec.clone()
            });
            (status.clone(), at_status.unwrap_or(spec))
        }
        _ => return spec,
    };
    let names = path.fields().unwrap_or_default();
    for name in names.iter().skip(1) {
        let Some(field) = named(&shape).and_then(|t| field_named(&t, name)) else {
            break;
        };
        if field.loc.is_some() {
            found = Source {
                loc: field.loc.clone(),
                accepted: field.markers.accept_change.clone(),
                accept_on: None,
            };
        }
        shape = field.shape;
    }
    found
}

/// The type a field's shape leads to, through `Option`, lists and maps.
fn named(shape: &Shape) -> Option<Arc<TypeDef>> {
    match shape {
        Shape::Optional(inner) | Shape::Map(inner) | Shape::Seq { item: inner, .. } => named(inner),
        Shape::Named(r) => (r.load)().ok(),
        _ => None,
    }
}

/// The field whose JSON name is `name`, looking through `#[serde(flatten)]` fields.
fn field_named(typedef: &TypeDef, name: &str) -> Option<Field> {
    let fields: Vec<(Option<&crate::model::Variant>, &Field)> = match &typedef.data {
        Data::Struct { fields, .. } => fields.iter().map(|f| (None, f)).collect(),
        Data::Enum(variants) => variants
            .iter()
            .flat_map(|v| v.fields.iter().map(move |f| (Some(v), f)))
            .collect(),
    };
    fields.into_iter().find_map(|(variant, field)| {
        if field.serde.flatten {
            named(&field.shape).and_then(|inner| field_named(&inner, name))
        } else if typedef.json_name(variant, field) == name {
            Some(field.clone())
        } else {
            None
        }
    })
}
