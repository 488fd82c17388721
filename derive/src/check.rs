//! The engine's checks, run at compile time on what the syntax shows: field types the derive
//! can name (primitives, std, serde_json, chrono) get their real schema; other types stay
//! untyped here and are checked at run time and by `gen-cli`.

use darling::{Error, Result};
use proc_macro2::Span;

use kubegen_core::model::Errors;
use kubegen_core::parse::shape::{shape_of, Syntactic};
use kubegen_core::parse::typedef::Parsed;
use kubegen_core::schema::{Builder, Schema};

/// Builds the type's schema from its syntactic shapes, reporting every problem at its span.
pub fn type_schema(parsed: &Parsed) -> Result<Schema> {
    let mut errors = Error::accumulator();
    let mut def = parsed.def.clone();
    let mut shapes = Vec::new();
    for (field, ty) in def.fields_mut().zip(&parsed.field_types) {
        let shape = if field.serde.skip || field.markers.stops_walk() {
            Default::default()
        } else {
            errors.handle(shape_of(ty, &Syntactic).map_err(Error::from)).unwrap_or_default()
        };
        shapes.push(shape);
    }
    let def = def.with_shapes(shapes);
    let mut builder = Builder::lenient();
    let schema = builder.type_def(&def);
    if let Err(found) = builder.finish() {
        for e in spanned(found, parsed) {
            errors.push(e);
        }
    }
    errors.finish_with(schema)
}

/// Engine errors placed at the span of what they are about (the type, a field).
pub fn spanned(found: Errors, parsed: &Parsed) -> Vec<Error> {
    found
        .0
        .into_iter()
        .map(|e| {
            let span = parsed
                .sites
                .iter()
                .find(|(context, _)| *context == e.context)
                .map(|(_, span)| *span)
                .unwrap_or_else(|| parsed.sites.first().map_or(Span::call_site(), |s| s.1));
            Error::custom(e.message).with_span(&span)
        })
        .collect()
}
