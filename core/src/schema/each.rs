//! Every type deriving a schema, built and checked on its own.

use std::collections::HashSet;

use super::Builder;
use crate::check::types::cel_problems;
use crate::known::Kubernetes;
use crate::model::{Errors, Level, Shape};

/// The problems of each named shape's schema, built alone (with a shared cache) for the
/// Kubernetes version `kubernetes`, including its CEL rules'.
///
/// The cache keeps only the schemas of types that other types embed: a type nothing embeds is
/// never asked for again, so its schema is dropped once checked (on a large API, most types).
pub fn each(types: &[Shape], kubernetes: &Kubernetes) -> Result<(), Errors> {
    let embedded = embedded(types);
    let mut builder = Builder::for_kubernetes(kubernetes.clone());
    let mut errors = Errors::default();
    for shape in types {
        let Shape::Named(named) = shape else { continue };
        let Ok(def) = (named.load)() else { continue };
        let schema = builder.shape(shape, &Default::default());
        // The warnings come with the CRDs that use the type.
        let problems = cel_problems(&def, &schema, false);
        errors
            .0
            .extend(problems.into_iter().filter(|p| p.level == Level::Error));
        if !embedded.contains(&named.key) {
            builder.forget(&named.key);
        }
    }
    if let Err(e) = builder.finish() {
        errors.0.splice(0..0, e.0);
    }
    errors.into_result(())
}

/// The keys of the named types that a field of one of `types` holds (directly, or in an
/// `Option`, a list or a map).
fn embedded(types: &[Shape]) -> HashSet<String> {
    fn add(shape: &Shape, keys: &mut HashSet<String>) {
        match shape {
            Shape::Named(named) => {
                keys.insert(named.key.clone());
            }
            Shape::Optional(inner) | Shape::Map(inner) | Shape::Seq { item: inner, .. } => {
                add(inner, keys)
            }
            Shape::Scalar(_) | Shape::Any | Shape::Known(_) | Shape::Opaque(_) => {}
        }
    }
    let mut keys = HashSet::new();
    for shape in types {
        let Shape::Named(named) = shape else { continue };
        let Ok(def) = (named.load)() else { continue };
        for field in def.fields() {
            add(&field.shape, &mut keys);
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        BoxedMarkers, ContainerAttrs, Data, Field, FieldAttrs, Scalar, Style, TypeDef,
    };

    /// A struct `name` whose one field has `shape`.
    fn one_field(name: &'static str, shape: Shape) -> Shape {
        Shape::named(format!("t::{name}"), move || {
            Ok(TypeDef {
                key: format!("t::{name}"),
                name: name.into(),
                doc: None,
                markers: BoxedMarkers::default(),
                serde: ContainerAttrs::default(),
                data: Data::Struct {
                    style: Style::Named,
                    fields: vec![Field {
                        ident: Some("f".into()),
                        ty: "T".into(),
                        doc: None,
                        markers: BoxedMarkers::default(),
                        serde: FieldAttrs::default(),
                        loc: None,
                        shape: shape.clone(),
                    }],
                },
                loc: None,
            })
        })
    }

    #[test]
    fn embedded_types_are_found_inside_options_lists_and_maps() {
        let int = Shape::Scalar(Scalar::Int {
            wide: false,
            unsigned: false,
        });
        let leaf = one_field("Leaf", int.clone());
        let other = one_field("Other", int);
        let holder = one_field(
            "Holder",
            Shape::Optional(Box::new(Shape::Seq {
                item: Box::new(Shape::Map(Box::new(leaf.clone()))),
                set: false,
                len: None,
            })),
        );
        let types = [holder, leaf, other];
        assert_eq!(embedded(&types), HashSet::from(["t::Leaf".to_string()]));
        // Checking them all, the cache dropping what nothing embeds, still succeeds.
        assert_eq!(each(&types, &Kubernetes::compiled()), Ok(()));
    }
}
