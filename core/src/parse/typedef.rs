//! A struct or enum → [`TypeDef`]: docs, serde attributes, markers, fields and variants, with
//! every problem reported at its span.

use darling::{Error, Result};
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Data as SynData, DeriveInput, Fields};

use super::foreign::{Site, leftovers};
use super::markers::{self, ATTRIBUTE, Place};
use super::{docs, serde_attrs};
use crate::model::{Data, Field, Loc, ResourceMarkers, Style, TypeDef, Variant};

/// A parsed type and what the front ends need beside it.
pub struct Parsed {
    /// The model of the type (field shapes not filled in yet).
    pub def: TypeDef,
    /// The resource keys, for a spec struct.
    pub resource: ResourceMarkers,
    /// Each place the builder names in errors (`Type`, `Type.field`, `Type::Variant.field`),
    /// with its span: the type first, then each field in field order.
    pub sites: Vec<(String, Span)>,
    /// Each field's Rust type, in the order of [`TypeDef::fields_mut`].
    pub field_types: Vec<syn::Type>,
    /// The type's `crate = "..."` (see [`markers::Markers::crate_path`]).
    pub crate_path: Option<syn::Path>,
}

/// Parses a type deriving `KubeSchema` (`place` = [`Place::Type`]) or `CustomResource`
/// ([`Place::Spec`]). `key` identifies the type; `loc` turns spans into source locations (the
/// CLI) or gives `None` (the derive, which reports by span).
pub fn parse(
    input: &DeriveInput,
    key: String,
    place: Place,
    loc: &dyn Fn(Span) -> Option<Loc>,
) -> Result<Parsed> {
    let (parsed, errors) = parse_all(input, key, place, loc);
    errors.finish_with(parsed)
}

/// Like [`parse`], but returns what parsed beside the problems, so the engine's checks can
/// report their findings in the same run.
pub fn parse_all(
    input: &DeriveInput,
    key: String,
    place: Place,
    loc: &dyn Fn(Span) -> Option<Loc>,
) -> (Parsed, darling::error::Accumulator) {
    let mut errors = Error::accumulator();
    let name = input.ident.to_string();
    if !input.generics.params.is_empty() {
        errors.push(
            Error::custom(
                "generic types cannot derive a schema: kubegen reads one concrete type; derive \
                 on a type without parameters",
            )
            .with_span(&input.generics),
        );
    }
    for e in leftovers(&input.attrs, &Site::new(place, None, &input.attrs)) {
        errors.push(e);
    }
    let (m, marker_errors) = markers::parse_all(&input.attrs, place, &input.ident, loc);
    if let Err(e) = marker_errors.finish() {
        errors.push(e);
    }
    if place == Place::Spec && m.resource.kind == name {
        errors.push(
            Error::custom(format!(
                "the spec cannot be named `{name}` like its kind: `CustomResource` generates \
                 that type; name the spec `{name}Spec`"
            ))
            .with_span(&input.ident),
        );
    }
    let serde = errors
        .handle(serde_attrs::container(&input.attrs).map_err(Error::from))
        .unwrap_or_default();
    // Sized exactly: the CLI holds these for every type of a crate at once.
    let field_count = match &input.data {
        SynData::Struct(s) => s.fields.len(),
        SynData::Enum(e) => e.variants.iter().map(|v| v.fields.len()).sum(),
        SynData::Union(_) => 0,
    };
    let mut sites = Vec::with_capacity(1 + field_count);
    sites.push((name.clone(), input.ident.span()));
    let mut field_types = Vec::with_capacity(field_count);
    let mut fields_of = |owner: &str, fields: &Fields, errors: &mut darling::error::Accumulator| {
        let mut out = Vec::with_capacity(fields.len());
        for (i, f) in fields.iter().enumerate() {
            let ident = f
                .ident
                .as_ref()
                .map(|i| i.to_string().trim_start_matches("r#").to_string());
            let context = format!("{owner}.{}", ident.clone().unwrap_or_else(|| i.to_string()));
            let at = f.ident.as_ref().map_or_else(|| f.ty.span(), |i| i.span());
            sites.push((context, at));
            field_types.push(f.ty.clone());
            for e in leftovers(&f.attrs, &Site::new(Place::Field, Some(&f.ty), &f.attrs)) {
                errors.push(e);
            }
            out.push(Field {
                ident,
                ty: quote::ToTokens::to_token_stream(&f.ty).to_string(),
                doc: docs::doc(&f.attrs),
                markers: {
                    let (m, e) = markers::parse_all(&f.attrs, Place::Field, &f.ident, loc);
                    if let Err(e) = e.finish() {
                        errors.push(e);
                    }
                    m.schema.into()
                },
                serde: errors
                    .handle(serde_attrs::field(&f.attrs).map_err(Error::from))
                    .unwrap_or_default(),
                loc: loc(at),
                shape: Default::default(),
            });
        }
        out
    };
    let data = match &input.data {
        SynData::Struct(s) => Data::Struct {
            style: style(&s.fields),
            fields: fields_of(&name, &s.fields, &mut errors),
        },
        SynData::Enum(e) => Data::Enum(
            e.variants
                .iter()
                .map(|v| {
                    for e in leftovers(&v.attrs, &Site::new(Place::Type, None, &v.attrs)) {
                        errors.push(e);
                    }
                    if let Some(a) = v.attrs.iter().find(|a| a.path().is_ident(ATTRIBUTE)) {
                        errors.push(
                            Error::custom(
                                "`kube_marker` does not go on enum variants: put it on the \
                                 variant's fields or on the enum",
                            )
                            .with_span(a),
                        );
                    }
                    Variant {
                        ident: v.ident.to_string(),
                        doc: docs::doc(&v.attrs),
                        serde: errors
                            .handle(serde_attrs::variant(&v.attrs).map_err(Error::from))
                            .unwrap_or_default(),
                        style: style(&v.fields),
                        fields: fields_of(&format!("{name}::{}", v.ident), &v.fields, &mut errors),
                        loc: loc(v.ident.span()),
                    }
                })
                .collect(),
        ),
        SynData::Union(u) => {
            errors.push(
                Error::custom("unions have no JSON form: use a struct or an enum")
                    .with_span(&u.union_token),
            );
            // Reported: an empty struct stands in, so nothing else is said about it.
            Data::Struct {
                style: Style::Named,
                fields: Vec::new(),
            }
        }
    };
    let mut def = TypeDef {
        key,
        name,
        doc: docs::doc(&input.attrs),
        markers: m.schema.into(),
        serde,
        data,
        loc: loc(input.ident.span()),
    };
    if let Some(into) = def.serde.into.clone() {
        // `#[serde(into = "T")]`: what is written is a `T`, so the type is a transparent
        // wrapper of `T` as far as its schema goes.
        match syn::parse_str::<syn::Type>(&into) {
            Ok(ty) => {
                def.data = Data::Struct {
                    style: Style::Tuple,
                    fields: vec![Field {
                        ident: None,
                        ty: into,
                        doc: None,
                        markers: Default::default(),
                        serde: Default::default(),
                        loc: def.loc.clone(),
                        shape: Default::default(),
                    }],
                };
                def.serde.transparent = true;
                field_types = vec![ty];
                sites.truncate(1);
                sites.push((format!("{}.0", def.name), input.ident.span()));
            }
            Err(e) => errors.push(
                Error::custom(format!("serde `into = \"{into}\"` is not a type: {e}"))
                    .with_span(&input.ident),
            ),
        }
    }
    for (field, ty) in def.fields().zip(&field_types) {
        if field.serde.custom && def.walks(field) {
            errors.push(
                Error::custom(
                    "`#[serde(with)]` writes this field with a function, so its type does not \
                     tell its JSON form: give the field `#[kube_marker(schema_type = \"...\")]` \
                     (and `format` where it helps) or `schemaless`",
                )
                .with_span(ty),
            );
        }
    }
    let parsed = Parsed {
        def,
        resource: m.resource,
        sites,
        field_types,
        crate_path: m.crate_path,
    };
    (parsed, errors)
}

fn style(fields: &Fields) -> Style {
    match fields {
        Fields::Named(_) => Style::Named,
        Fields::Unnamed(_) => Style::Tuple,
        Fields::Unit => Style::Unit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{RenameRule, Shape};

    fn parse_src(src: &str, place: Place) -> Result<Parsed> {
        let input: DeriveInput = syn::parse_str(src).unwrap();
        parse(&input, format!("test::{}", input.ident), place, &|_| None)
    }

    #[test]
    fn structs_with_docs_serde_and_markers() {
        let p = parse_src(
            r#"
            /// The spec.
            #[serde(rename_all = "camelCase")]
            struct FooSpec {
                /// Size of it.
                #[kube_marker(minimum = 1)]
                pub size: i32,
                #[serde(rename = "x")]
                pub r#type: Option<String>,
            }"#,
            Place::Type,
        )
        .unwrap();
        assert_eq!(p.def.doc.as_deref(), Some("The spec."));
        assert_eq!(p.def.serde.rename_all, Some(RenameRule::Camel));
        let Data::Struct { fields, .. } = &p.def.data else {
            panic!()
        };
        assert_eq!(fields[0].markers.minimum, Some(1.0));
        assert_eq!(fields[1].ident.as_deref(), Some("type"));
        assert_eq!(p.def.json_name(None, &fields[1]), "x");
        assert_eq!(p.field_types.len(), 2);
        assert_eq!(p.sites[1].0, "FooSpec.size");
        assert_eq!(fields[0].shape, Shape::default());
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let e = parse_src(
            r#"
            struct Foo<T> {
                #[kube_marker(min_lenght = 1)]
                a: T,
                #[kube_marker(group = "x")]
                b: i32,
            }"#,
            Place::Type,
        )
        .err()
        .unwrap();
        assert_eq!(e.len(), 3, "{e}");
    }

    #[test]
    fn enums_and_variant_markers() {
        let p = parse_src(
            r#"#[serde(tag = "kind")] enum E { A { x: i32 }, #[serde(rename = "bee")] B }"#,
            Place::Type,
        )
        .unwrap();
        let Data::Enum(vs) = &p.def.data else {
            panic!()
        };
        assert_eq!(p.def.variant_name(&vs[1]), "bee");
        assert_eq!(p.sites[1].0, "E::A.x");
        let e = parse_src("enum E { #[kube_marker(minimum = 1)] A }", Place::Type)
            .err()
            .unwrap();
        assert!(e.to_string().contains("variants"), "{e}");
    }
}
