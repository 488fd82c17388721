//! The CEL rules of one type's schema, checked on their own and placed at the rule they are
//! about: what the derive checks at compile time for each type, and `gen-cli` for each type it
//! reads (see [`crate::schema::each`]), whether or not a custom resource uses it.

use super::cel::Class;
use crate::model::{Diagnostic, Rule, Schema, SchemaMarkers, TypeDef};

/// The problems of the CEL rules of a type's schema, checked alone (see
/// [`check`](super::cel::check)), as errors about the type, each at the rule it is about (else
/// at the type), then the warnings about rules that read optional fields with no guard (worded
/// as [`crd::build`](crate::crd::build) words them); `lenient` leaves alone the rules that
/// touch fields whose type the caller cannot see.
pub fn cel_problems(def: &TypeDef, schema: &Schema, lenient: bool) -> Vec<Diagnostic> {
    let scope = super::cel::Scope {
        resource: false,
        lenient,
    };
    let rules = rules(def);
    let report = super::cel::check(schema, scope);
    let errors = report.errors.into_iter().map(|problem| {
        // The rule at the problem's node, else the first with its text (a field the
        // path cannot name: a variant's, a flattened one's).
        let same = |rule: &&(String, &Rule)| Some(rule.1.rule.as_str()) == problem.rule.as_deref();
        let at = rules
            .iter()
            .filter(same)
            .find(|(path, _)| *path == problem.at)
            .or_else(|| rules.iter().find(same))
            .and_then(|(_, rule)| rule.loc.as_ref())
            .or(problem.loc.as_ref());
        let at = problem.place(at).or_else(|| def.loc.clone());
        let problem_text = problem.to_string();
        let message = match problem_text.strip_prefix(".:") {
            Some(rest) => format!("{}:{rest}", def.name),
            None => format!("{}{problem_text}", def.name),
        };
        problem.annotate(Diagnostic::new(at.as_ref(), "", message))
    });
    let warnings = report
        .warnings
        .into_iter()
        .filter(|problem| problem.class == Class::NoSuchKey)
        .map(|problem| {
            Diagnostic::warning(
                problem.loc.as_ref().or(def.loc.as_ref()),
                "",
                problem.message,
            )
        });
    errors.chain(warnings).collect()
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
