//! The derive's compile-time view of other types: each derived type publishes `const KIND` (its
//! JSON type) and `const INFO` (one level more: its fields' kinds), and keys whose fit depends
//! on another type are checked against them in `const` items, so a misfit is a compile error at
//! the field even when the syntax alone cannot tell.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use kubegen_core::check::paths::Deferred;
use kubegen_core::model::info::{JSON_TYPES, MapKey, Wants};
use kubegen_core::model::{Data, Field, Shape, Style, TypeDef};
use kubegen_core::parse::shape::option_inner;
use kubegen_core::parse::typedef::Parsed;
use kubegen_core::schema::{map_key_problem, type_bound_keys, wants_text};

use crate::spans::Spans;

/// `<T as KubeSchema>::item` for a field of type `ty`, spanned at `T`: for an `Option<X>`, `T`
/// is `X` (an `Option`'s `KIND` and `INFO` are its content's), so that every item the derive
/// names of a type without a schema fails in the same way, which the compiler reports once
/// (see [`option_inner`]).
///
/// With `apply`, the apply configuration needs `T: ApplySchema` too, a second error for a type
/// with neither impl: the item is then named beside `<T as ApplySchema>::apply_node`, at the
/// same span and in the same body, where the compiler reports the `ApplySchema` error alone
/// (it implies the `KubeSchema` one, its supertrait), the same error as the configuration's.
pub fn of_type(ty: &syn::Type, item: TokenStream) -> TokenStream {
    let ty = option_inner(ty).unwrap_or(ty);
    let named = quote_spanned!(ty.span()=> <#ty as ::kubegen::KubeSchema>::#item);
    #[cfg(feature = "apply")]
    let named = quote_spanned!(ty.span()=> {
        let _ = <#ty as ::kubegen::ApplySchema>::apply_node;
        #named
    });
    named
}

/// `const KIND` and `const INFO` of the derived type; `def` carries the shapes the syntax shows.
pub fn consts(def: &TypeDef, parsed: &Parsed) -> TokenStream {
    let p = quote!(::kubegen::__private::info);
    let m = &def.markers;
    let typed: Vec<(&Field, &syn::Type)> = def.fields().zip(&parsed.field_types).collect();
    let live: Vec<&(&Field, &syn::Type)> = typed.iter().filter(|(f, _)| !f.serde.skip).collect();
    let (kind, info) = if m.int_or_string {
        (quote!(#p::Kind::IntOrString), None)
    } else if let Some(t) = &m.schema_type {
        (declared(t), None)
    } else if m.stops_walk() {
        (quote!(#p::Kind::Unknown), None)
    } else {
        match &def.data {
            Data::Struct { style, fields } => {
                let transparent =
                    def.serde.transparent || (*style == Style::Tuple && fields.len() == 1);
                match live.as_slice() {
                    [(field, ty)] if transparent => {
                        let info = if def.walks(field) && field.markers.schema_type.is_none() {
                            of_type(ty, quote!(INFO))
                        } else {
                            quote!(#p::Info::of(Self::KIND))
                        };
                        (field_kind(def, field, ty), Some(info))
                    }
                    _ if *style == Style::Named && !live.iter().any(|(f, _)| f.serde.flatten) => {
                        let entries = live.iter().map(|(field, ty)| {
                            let name = def.json_name(None, field);
                            let always = def.required(field) || field.markers.default.is_some();
                            let kind = field_kind(def, field, ty);
                            let nullable = field.markers.nullable;
                            quote!(#p::FieldInfo { name: #name, always: #always, kind: #kind, nullable: #nullable })
                        });
                        (
                            quote!(#p::Kind::Object),
                            Some(quote!(#p::Info::object(&[#(#entries),*]))),
                        )
                    }
                    _ if *style == Style::Named => (quote!(#p::Kind::Object), None),
                    _ => (quote!(#p::Kind::Unknown), None),
                }
            }
            Data::Enum(variants) => {
                let unit_only = variants.iter().all(|v| v.style == Style::Unit);
                match (unit_only, &def.serde.tag, def.serde.untagged) {
                    (_, _, true) => (quote!(#p::Kind::Unknown), None),
                    (true, None, _) => (quote!(#p::Kind::Scalar("string")), None),
                    _ => (quote!(#p::Kind::Object), None),
                }
            }
        }
    };
    let info = info.map(|i| quote!(const INFO: #p::Info = #i;));
    quote! {
        const KIND: #p::Kind = #kind;
        #info
    }
}

/// The kind a `schema_type` declares.
fn declared(t: &str) -> TokenStream {
    let p = quote!(::kubegen::__private::info);
    match t {
        "string" | "integer" | "number" | "boolean" => quote!(#p::Kind::Scalar(#t)),
        "array" => quote!(#p::Kind::Array),
        "object" => quote!(#p::Kind::Object),
        _ => quote!(#p::Kind::Unknown),
    }
}

/// A field's kind: what its markers say, else its type's `KIND`.
fn field_kind(def: &TypeDef, field: &Field, ty: &syn::Type) -> TokenStream {
    if field.markers.int_or_string {
        return quote!(::kubegen::__private::info::Kind::IntOrString);
    }
    if let Some(t) = &field.markers.schema_type {
        return declared(t);
    }
    if !def.walks(field) {
        return quote!(::kubegen::__private::info::Kind::Unknown);
    }
    of_type(ty, quote!(KIND))
}

/// `const` checks of the keys the syntax could not settle: type-bound keys on fields whose
/// type the derive cannot see, and `list_map_keys` against the items' fields. The messages are
/// the engine's.
pub fn checks(def: &TypeDef, parsed: &Parsed) -> TokenStream {
    let p = quote!(::kubegen::__private::info);
    let mut out = TokenStream::new();
    for ((field, ty), span) in def
        .fields()
        .zip(&parsed.field_types)
        .zip(field_spans(parsed))
    {
        if !def.walks(field) || field.markers.schema_type.is_some() {
            continue;
        }
        let (shape, _) = field.shape.peel_optional();
        let written = quote::ToTokens::to_token_stream(ty)
            .to_string()
            .replace(" < ", "<")
            .replace(" >", ">")
            .replace(" ,", ",");
        if matches!(shape, Shape::Opaque(_)) {
            for (key, wants) in type_bound_keys(&field.markers) {
                let message = format!(
                    "`{key}` applies to {}, but `{written}` is not one",
                    wants_text(wants)
                );
                let wants = match wants {
                    Wants::Numbers => quote!(Numbers),
                    Wants::Strings => quote!(Strings),
                    Wants::Arrays => quote!(Arrays),
                    Wants::Objects => quote!(Objects),
                };
                let kind = of_type(ty, quote!(KIND));
                out.extend(quote_spanned! {span=>
                    const _: () = if !#p::fits(#kind, #p::Wants::#wants) {
                        ::core::panic!(#message)
                    };
                });
            }
        }
        let items_unseen = match shape {
            Shape::Seq { item, .. } => matches!(**item, Shape::Opaque(_)),
            Shape::Opaque(_) => true,
            _ => false,
        };
        let keys = field
            .markers
            .list_map_keys
            .iter()
            .flatten()
            .filter(|_| items_unseen);
        for key in keys {
            let missing = format!("{} of `{written}`", map_key_problem(MapKey::Missing, key));
            let optional = map_key_problem(MapKey::Optional, key);
            let not_scalar = map_key_problem(MapKey::NotScalar, key);
            let not_objects = map_key_problem(MapKey::NotObjects, key);
            let nullable = map_key_problem(MapKey::Nullable, key);
            let info = of_type(ty, quote!(INFO));
            out.extend(quote_spanned! {span=>
                const _: () = match #p::map_key(&#info, #key) {
                    #p::MapKey::Fine => {}
                    #p::MapKey::Missing => ::core::panic!(#missing),
                    #p::MapKey::Optional => ::core::panic!(#optional),
                    #p::MapKey::NotScalar => ::core::panic!(#not_scalar),
                    #p::MapKey::NotObjects => ::core::panic!(#not_objects),
                    #p::MapKey::Nullable => ::core::panic!(#nullable),
                };
            });
        }
    }
    out
}

/// `const` checks of the paths (printer columns, scale, selectable fields) that name a field
/// the spec may flatten from a type the derive cannot see, against those types' `INFO`, each
/// spanned at its path. The messages are the engine's.
pub fn flattened_paths(deferred: &[Deferred], parsed: &Parsed, spans: &Spans) -> TokenStream {
    let p = quote!(::kubegen::__private::info);
    let mut out = TokenStream::new();
    for d in deferred {
        let span = spans.at(d.loc.as_ref());
        let types = d
            .flattened
            .iter()
            .filter_map(|i| parsed.field_types.get(*i))
            .map(|ty| of_type(ty, quote!(INFO)));
        let (own, types_wanted) = (&d.own, &d.types);
        let (name, indexed, last) = (&d.name, d.indexed, d.last);
        let [before, after] = &d.missing;
        let not_a_list = &d.not_a_list;
        let wrong = d
            .wrong_type
            .iter()
            .enumerate()
            .filter(|(i, _)| !d.types.is_empty() && !d.types.contains(&JSON_TYPES[*i]))
            .map(|(i, message)| {
                quote_spanned!(span=> #p::Flattened::Is(#i) => ::core::panic!(#message),)
            });
        out.extend(quote_spanned! {span=>
            const _: () = {
                const TYPES: &[&#p::Info] = &[#(&#types),*];
                const OWN: &[&str] = &[#(#own),*];
                const LEN: usize = #p::listing_len(#before, OWN, TYPES, #after);
                const TEXT: [u8; LEN] = #p::listing(#before, OWN, TYPES, #after);
                match #p::flattened(TYPES, #name, #indexed, #last, &[#(#types_wanted),*]) {
                    #p::Flattened::Missing => match ::core::str::from_utf8(&TEXT) {
                        ::core::result::Result::Ok(text) => ::core::panic!("{}", text),
                        ::core::result::Result::Err(_) => ::core::panic!(#before),
                    },
                    #p::Flattened::NotAList => ::core::panic!(#not_a_list),
                    #(#wrong)*
                    _ => {}
                }
            };
        });
    }
    out
}

/// Each field's span (its name, or its type in tuples), in field order.
fn field_spans(parsed: &Parsed) -> Vec<proc_macro2::Span> {
    // `sites` holds the type first, then one entry per field in field order.
    parsed.sites.iter().skip(1).map(|(_, span)| *span).collect()
}
