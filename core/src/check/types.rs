//! Every type deriving a schema, checked on its own: what the derive checks at compile time for
//! each type, `gen-cli` checks for each type it reads, whether or not a custom resource uses it.

use crate::model::{Error, Errors, Loc, Shape};
use crate::schema::{Builder, Schema};

/// The problems of each named shape's schema, built alone (with a shared cache), including its
/// CEL rules'.
pub fn each(types: &[Shape]) -> Result<(), Errors> {
    let mut builder = Builder::new();
    let mut errors = Errors::default();
    for shape in types {
        let Shape::Named(named) = shape else { continue };
        let Ok(def) = (named.load)() else { continue };
        let schema = builder.shape(shape, &Default::default());
        errors
            .0
            .extend(cel_problems(&def.name, def.loc.as_ref(), &schema, false));
    }
    if let Err(e) = builder.finish() {
        errors.0.splice(0..0, e.0);
    }
    errors.into_result(())
}

/// The problems of the CEL rules of a type's schema, checked alone (see
/// [`check`](super::cel::check)), as errors about the type; `lenient` leaves alone the rules
/// that touch fields whose type the caller cannot see.
pub fn cel_problems(name: &str, loc: Option<&Loc>, schema: &Schema, lenient: bool) -> Vec<Error> {
    let scope = super::cel::Scope {
        resource: false,
        lenient,
    };
    super::cel::check(schema, scope)
        .errors
        .into_iter()
        .map(|problem| {
            let problem = problem.to_string();
            let message = match problem.strip_prefix(".:") {
                Some(rest) => format!("{name}:{rest}"),
                None => format!("{name}{problem}"),
            };
            Error::new(loc, "", message)
        })
        .collect()
}
