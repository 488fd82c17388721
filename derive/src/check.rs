//! The engine's checks, run at compile time on what the syntax shows: field types the derive
//! can name (primitives, std, serde_json, chrono) get their real schema; other types stay
//! untyped here and are checked at run time and by `gen-cli`.

use darling::Error;
use darling::error::Accumulator;

use kubegen_core::model::{Diagnostic, Errors, Level, Schema, TypeDef};
use kubegen_core::parse::shape::{Syntactic, shape_of};
use kubegen_core::parse::typedef::Parsed;
use kubegen_core::schema::{Builder, recursion};
use proc_macro2::TokenStream;

use crate::spans::Spans;
use syn::visit::Visit;

/// What the engine's checks made of a type.
pub struct TypeSchema {
    /// The type with the shapes its fields' syntax shows.
    pub seen: TypeDef,
    /// Its schema, with the fields whose types the syntax cannot resolve left untyped.
    pub schema: Schema,
    /// The engine's warnings as tokens (see [`warnings`]).
    pub warnings: TokenStream,
    /// The fields (in [`TypeDef::fields`] order) whose types are an error of their own (a
    /// tuple, a std type without a schema): no code but the error may name them.
    pub refused: Vec<usize>,
}

/// What the engine's checks make of `parsed`; every error is reported at its span.
pub fn type_schema(parsed: &Parsed, spans: &Spans, errors: &mut Accumulator) -> TypeSchema {
    let mut shapes = Vec::new();
    let mut refused = Vec::new();
    for (i, (field, ty)) in parsed.def.fields().zip(&parsed.field_types).enumerate() {
        let stops = !parsed.def.walks(field);
        if !stops && mentions(ty, &parsed.def.name) {
            errors.push(Error::custom(recursion(&parsed.def.name)).with_span(ty));
        }
        let shape = if stops {
            Default::default()
        } else {
            let shape = errors.handle(shape_of(ty, &Syntactic).map_err(Error::from));
            if shape.is_none() {
                refused.push(i);
            }
            shape.unwrap_or_default()
        };
        shapes.push(shape);
    }
    let def = parsed.def.clone().with_shapes(shapes);
    let mut builder = Builder::lenient();
    let schema = builder.type_def(&def);
    if let Err(found) = builder.finish() {
        for e in spanned(found, spans) {
            errors.push(e);
        }
    }
    // CEL rules against the fields the syntax shows (with the `cel` feature): types and cost,
    // each reported at the rule it is about, and reads of optional fields with no guard.
    let (found, warned): (Vec<_>, Vec<_>) =
        kubegen_core::check::types::cel_problems(&parsed.def, &schema, true)
            .into_iter()
            .partition(|d| d.level == Level::Error);
    for e in spanned(Errors(found), spans) {
        errors.push(e);
    }
    TypeSchema {
        seen: def,
        schema,
        warnings: warnings(&warned, spans),
        refused,
    }
}

/// Each warning as rustc's `deprecated` lint at its span, the one warning a derive can emit on
/// stable Rust (as the `proc-macro-warning` crate does): the use of a constant marked
/// `#[deprecated]` whose note is the warning.
///
/// ```text
/// warning: use of deprecated constant `…::kubegen_warning`: rule `…` reads `self.strategy` with no `has()` guard, …
/// ```
fn warnings(found: &[Diagnostic], spans: &Spans) -> TokenStream {
    found
        .iter()
        .map(|w| {
            let note = w.one_message();
            let name = quote::format_ident!("kubegen_warning", span = spans.at(w.loc.as_ref()));
            quote::quote! {
                const _: () = {
                    #[deprecated(note = #note)]
                    #[allow(non_upper_case_globals)]
                    const kubegen_warning: () = ();
                    #name
                };
            }
        })
        .collect()
}

/// Whether the type names `name` (or `Self`) anywhere as a bare name (`Box<Tree>`,
/// `Vec<Self>`, `self::Tree`): the field leads back to its own type. A longer path that only
/// ends in the same name (`k8s_openapi::api::core::v1::Container` in `struct Container`) may be
/// another type: `crd()` and `gen-cli`, which resolve paths, judge it.
fn mentions(ty: &syn::Type, name: &str) -> bool {
    struct Finder<'a>(&'a str, bool);
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_path(&mut self, path: &'ast syn::Path) {
            let own = |seg: &syn::PathSegment| seg.ident == self.0 || seg.ident == "Self";
            let segments: Vec<&syn::PathSegment> = path.segments.iter().collect();
            self.1 |= match segments.as_slice() {
                [only] => own(only),
                [first, last] => first.ident == "self" && own(last),
                _ => false,
            };
            syn::visit::visit_path(self, path);
        }
    }
    let mut finder = Finder(name, false);
    finder.visit_type(ty);
    finder.1
}

/// Engine errors, each placed at the token its location starts at.
pub fn spanned(found: Errors, spans: &Spans) -> Vec<Error> {
    found
        .0
        .into_iter()
        .map(|e| Error::custom(e.one_message()).with_span(&spans.at(e.loc.as_ref())))
        .collect()
}
