//! Every type deriving a schema, checked on its own: what the derive checks at compile time for
//! each type, `gen-cli` checks for each type it reads, whether or not a custom resource uses it.

use crate::known::Kubernetes;
use crate::model::{Error, Errors, Rule, SchemaMarkers, Shape, TypeDef};
use crate::schema::{Builder, Schema};

/// The problems of each named shape's schema, built alone (with a shared cache) for the
/// Kubernetes version `kubernetes`, including its CEL rules'.
pub fn each(types: &[Shape], kubernetes: &Kubernetes) -> Result<(), Errors> {
    let mut builder = Builder::for_kubernetes(kubernetes.clone());
    let mut errors = Errors::default();
    for shape in types {
        let Shape::Named(named) = shape else { continue };
        let Ok(def) = (named.load)() else { continue };
        let schema = builder.shape(shape, &Default::default());
        errors.0.extend(cel_problems(&def, &schema, false));
    }
    if let Err(e) = builder.finish() {
        errors.0.splice(0..0, e.0);
    }
    errors.into_result(())
}

/// The problems of the CEL rules of a type's schema, checked alone (see
/// [`check`](super::cel::check)), as errors about the type, each at the rule it is about (else
/// at the type); `lenient` leaves alone the rules that touch fields whose type the caller
/// cannot see.
pub fn cel_problems(def: &TypeDef, schema: &Schema, lenient: bool) -> Vec<Error> {
    let scope = super::cel::Scope {
        resource: false,
        lenient,
    };
    let rules = rules(def);
    super::cel::check(schema, scope)
        .errors
        .into_iter()
        .map(|problem| {
            // The rule at the problem's node, else the first with its text (a field the
            // path cannot name: a variant's, a flattened one's).
            let same =
                |rule: &&(String, &Rule)| Some(rule.1.rule.as_str()) == problem.rule.as_deref();
            let at = rules
                .iter()
                .filter(same)
                .find(|(path, _)| *path == problem.at)
                .or_else(|| rules.iter().find(same))
                .and_then(|(_, rule)| rule.loc.as_ref())
                .or(def.loc.as_ref());
            let problem_text = problem.to_string();
            let message = match problem_text.strip_prefix(".:") {
                Some(rest) => format!("{}:{rest}", def.name),
                None => format!("{}{problem_text}", def.name),
            };
            Error::new(at, "", message)
        })
        .collect()
}

/// The type's rules, each with the path of its node as the CEL check names it (`.`,
/// `.field`, `.field[*]`): its own, its fields' and their items', at any depth of `items(...)`.
fn rules(def: &TypeDef) -> Vec<(String, &Rule)> {
    fn of<'a>(path: String, markers: &'a SchemaMarkers, out: &mut Vec<(String, &'a Rule)>) {
        out.extend(markers.x_validations.iter().map(|r| (path.clone(), r)));
        if let Some(items) = &markers.items {
            of(format!("{}[*]", path.trim_end_matches('.')), items, out);
        }
    }
    let mut out = Vec::new();
    of(".".to_string(), &def.markers, &mut out);
    for field in def.fields() {
        of(
            format!(".{}", def.json_name(None, field)),
            &field.markers,
            &mut out,
        );
    }
    out
}
