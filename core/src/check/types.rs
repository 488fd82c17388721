//! Every type deriving a schema, checked on its own: what the derive checks at compile time for
//! each type, `gen-cli` checks for each type it reads, whether or not a custom resource uses it.

use crate::model::{Error, Errors, Loc, Shape};
use crate::schema::{Builder, Schema};

/// The problems of each named shape's schema, built alone (with a shared cache), including its
/// CEL rules' field references.
pub fn each(types: &[Shape]) -> Result<(), Errors> {
    let mut builder = Builder::new();
    let mut errors = Errors::default();
    for shape in types {
        let Shape::Named(named) = shape else { continue };
        let Ok(def) = (named.load)() else { continue };
        let schema = builder.shape(shape, &Default::default());
        errors
            .0
            .extend(cel_references(&def.name, def.loc.as_ref(), &schema));
    }
    if let Err(e) = builder.finish() {
        errors.0.splice(0..0, e.0);
    }
    errors.into_result(())
}

/// The CEL rules of a type's schema that select fields it does not have (see
/// [`references`](super::cel::references)), as errors about the type.
pub fn cel_references(name: &str, loc: Option<&Loc>, schema: &Schema) -> Vec<Error> {
    super::cel::references(schema)
        .into_iter()
        .map(|problem| {
            let message = match problem.strip_prefix(".:") {
                Some(rest) => format!("{name}:{rest}"),
                None => format!("{name}{problem}"),
            };
            Error::new(loc, "", message)
        })
        .collect()
}
