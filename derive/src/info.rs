//! The derive's compile-time view of other types: each derived type publishes `const KIND` (its
//! JSON type) and `const INFO` (a link to what lies below: its fields, each with its kind and a
//! link to its type's `INFO`, and the types it flattens), and keys whose fit depends on another
//! type are checked against them in `const` items, so a misfit is a compile error at the field
//! even when the syntax alone cannot tell.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use kubegen_core::check::paths::Deferred;
use kubegen_core::model::info::{Kind, MapKey, Wants};
use kubegen_core::model::{Data, Field, Shape, StructForm, Style, Tagging, TypeDef};
use kubegen_core::parse::shape::option_inner;
use kubegen_core::parse::typedef::Parsed;
use kubegen_core::schema::{map_key_problem, type_bound_keys, wants_text};

use crate::path::Kubegen;
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
pub fn of_type(kubegen: &Kubegen, ty: &syn::Type, item: TokenStream) -> TokenStream {
    let ty = option_inner(ty).unwrap_or(ty);
    let k = kubegen.at(ty.span());
    let named = quote_spanned!(ty.span()=> <#ty as #k::KubeSchema>::#item);
    #[cfg(feature = "apply")]
    let named = quote_spanned!(ty.span()=> {
        let _ = <#ty as #k::ApplySchema>::apply_node;
        #named
    });
    named
}

/// `const KIND` and `const INFO` of the derived type; `def` carries the shapes the syntax shows.
/// A struct's `Info` is a `static` (linked to, so that a type containing itself links back to
/// it instead of being a constant defined by itself).
pub fn consts(k: &Kubegen, def: &TypeDef, parsed: &Parsed, ident: &syn::Ident) -> TokenStream {
    let p = quote!(#k::__private::info);
    let m = &def.markers;
    let typed: Vec<(&Field, &syn::Type)> = def.fields().zip(&parsed.field_types).collect();
    let live: Vec<&(&Field, &syn::Type)> = typed.iter().filter(|(f, _)| !f.serde.skip).collect();
    let (kind, info) = if m.int_or_string {
        (quote!(#p::Kind::IntOrString), None)
    } else if let Some(t) = &m.schema_type {
        (kind(k, Kind::declared(t)), None)
    } else if m.stops_walk() {
        (quote!(#p::Kind::Unknown), None)
    } else {
        match &def.data {
            Data::Struct { style, fields } => {
                match (def.struct_form(*style, fields), live.as_slice()) {
                    (StructForm::Transparent { single: true }, [(field, ty)]) => {
                        let info = if def.walks(field) && field.markers.schema_type.is_none() {
                            of_type(k, ty, quote!(INFO))
                        } else {
                            quote!(#p::InfoRef::new(&#p::Info::of(Self::KIND)))
                        };
                        (field_kind(k, def, field, ty), Some(info))
                    }
                    (StructForm::Object, _) => {
                        let (flattened, own): (Vec<&(&Field, &syn::Type)>, Vec<_>) =
                            live.iter().copied().partition(|(f, _)| f.serde.flatten);
                        let entries = own.iter().map(|(field, ty)| {
                        let name = def.json_name(None, field);
                        let always = def.required(field) || field.markers.default.is_some();
                        let kind = field_kind(k, def, field, ty);
                        let nullable = field.markers.nullable;
                        let info = field_info(k, def, field, ty);
                        quote!(#p::FieldInfo { name: #name, always: #always, kind: #kind, nullable: #nullable, info: #info })
                    });
                        let flattened = flattened
                            .iter()
                            .map(|(field, ty)| field_info(k, def, field, ty));
                        let object = without_self(
                            quote!(#p::Info::object(&[#(#entries),*], &[#(#flattened),*])),
                            ident,
                        );
                        let info = quote!({
                            static INFO: #p::Info = #object;
                            #p::InfoRef::new(&INFO)
                        });
                        (quote!(#p::Kind::Object), Some(info))
                    }
                    _ => (quote!(#p::Kind::Unknown), None),
                }
            }
            Data::Enum(variants) => match def.tagging() {
                Tagging::Untagged => (quote!(#p::Kind::Unknown), None),
                Tagging::External if variants.iter().all(|v| v.style == Style::Unit) => {
                    (quote!(#p::Kind::Scalar("string")), None)
                }
                _ => (quote!(#p::Kind::Object), None),
            },
        }
    };
    let info = info.map(|i| quote!(const INFO: #p::InfoRef = #i;));
    quote! {
        const KIND: #p::Kind = #kind;
        #info
    }
}

/// `tokens` with `Self` written as the type's name (`ident`), for an item (a `static`) that
/// cannot name `Self`.
fn without_self(tokens: TokenStream, ident: &syn::Ident) -> TokenStream {
    tokens
        .into_iter()
        .map(|tree| match tree {
            proc_macro2::TokenTree::Ident(i) if i == "Self" => {
                let mut named = ident.clone();
                named.set_span(i.span());
                proc_macro2::TokenTree::Ident(named)
            }
            proc_macro2::TokenTree::Group(g) => {
                let mut inner =
                    proc_macro2::Group::new(g.delimiter(), without_self(g.stream(), ident));
                inner.set_span(g.span());
                proc_macro2::TokenTree::Group(inner)
            }
            other => other,
        })
        .collect()
}

/// A field's link to its type's `INFO`, or to nothing known where its markers decide its kind.
fn field_info(k: &Kubegen, def: &TypeDef, field: &Field, ty: &syn::Type) -> TokenStream {
    let m = &field.markers;
    if m.int_or_string || m.schema_type.is_some() || !def.walks(field) {
        return quote!(#k::__private::info::InfoRef::UNKNOWN);
    }
    of_type(k, ty, quote!(INFO))
}

/// The tokens of a `Kind` the engine decided.
fn kind(k: &Kubegen, kind: Kind) -> TokenStream {
    let p = quote!(#k::__private::info);
    match kind {
        Kind::Unknown => quote!(#p::Kind::Unknown),
        Kind::Scalar(t) => quote!(#p::Kind::Scalar(#t)),
        Kind::IntOrString => quote!(#p::Kind::IntOrString),
        Kind::Array => quote!(#p::Kind::Array),
        Kind::Map => quote!(#p::Kind::Map),
        Kind::Object => quote!(#p::Kind::Object),
    }
}

/// A field's kind: what its markers say, else its type's `KIND`.
fn field_kind(k: &Kubegen, def: &TypeDef, field: &Field, ty: &syn::Type) -> TokenStream {
    if field.markers.int_or_string {
        return quote!(#k::__private::info::Kind::IntOrString);
    }
    if let Some(t) = &field.markers.schema_type {
        return kind(k, Kind::declared(t));
    }
    if !def.walks(field) {
        return quote!(#k::__private::info::Kind::Unknown);
    }
    of_type(k, ty, quote!(KIND))
}

/// `const` checks of the keys the syntax could not settle: type-bound keys on fields whose
/// type the derive cannot see, and `list_map_keys` against the items' fields. The messages are
/// the engine's.
pub fn checks(k: &Kubegen, def: &TypeDef, parsed: &Parsed) -> TokenStream {
    let p = quote!(#k::__private::info);
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
                let kind = of_type(k, ty, quote!(KIND));
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
            let info = of_type(k, ty, quote!(INFO));
            out.extend(quote_spanned! {span=>
                const _: () = match #p::map_key(#info, #key) {
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

/// `const` checks of the paths (printer columns, scale, selectable fields) the syntax could not
/// settle, each spanned at its path: walked step by step through the `INFO` of the spec type
/// (`spec`) or of the status type, with the engine's messages and "did you mean".
pub fn deferred_paths(
    k: &Kubegen,
    deferred: &[Deferred],
    spec: &syn::Ident,
    status: Option<&syn::Type>,
    spans: &Spans,
) -> TokenStream {
    let p = quote!(#k::__private::info);
    let mut out = TokenStream::new();
    for d in deferred {
        let span = spans.at(d.loc.as_ref());
        let at = k.at(span);
        let top = match (d.status, status) {
            (false, _) => quote_spanned!(span=> <#spec as #at::KubeSchema>::INFO),
            (true, Some(status)) => quote_spanned!(span=> <#status as #at::KubeSchema>::INFO),
            // Without a status type, `.status` paths are settled (refused) by the syntax.
            (true, None) => continue,
        };
        let steps = d
            .steps
            .iter()
            .map(|(name, indexed)| quote!(#p::Step { name: #name, indexed: #indexed }));
        let wants = &d.types;
        let missing = d
            .missing
            .iter()
            .map(|[before, after]| quote!([#before, #after]));
        let [help_before, help_after] = &d.help;
        let not_a_list = &d.not_a_list;
        let wrong = &d.wrong_type;
        out.extend(quote_spanned! {span=>
            const _: () = {
                const STEPS: &[#p::Step] = &[#(#steps),*];
                const WALK: #p::Walk = #p::walk(#top, STEPS, &[#(#wants),*]);
                const AT: (usize, #p::InfoRef) = WALK.missing();
                const N: usize = #p::names_len(AT.1);
                const NAMES: [&str; N] = #p::names(AT.1);
                const MISSING: &[[&str; 2]] = &[#(#missing),*];
                const PARTS: [&str; 2] = if AT.0 < MISSING.len() { MISSING[AT.0] } else { ["", ""] };
                const NAME: &str = if AT.0 < STEPS.len() { STEPS[AT.0].name } else { "" };
                const NEAR: ::core::option::Option<&str> = #at::__private::nearest(NAME, &NAMES);
                const HELP: [&str; 2] = [#help_before, #help_after];
                const LEN: usize = #p::missing_len(PARTS, &NAMES, HELP, NEAR);
                const TEXT: [u8; LEN] = #p::missing(PARTS, &NAMES, HELP, NEAR);
                match WALK {
                    #p::Walk::Missing { .. } => match ::core::str::from_utf8(&TEXT) {
                        ::core::result::Result::Ok(text) => ::core::panic!("{}", text),
                        ::core::result::Result::Err(_) => ::core::panic!("{}", PARTS[0]),
                    },
                    #p::Walk::NotAList { step } => ::core::panic!("{}", #p::pick(&[#(#not_a_list),*], step)),
                    #p::Walk::Is(t) => ::core::panic!("{}", #p::pick(&[#(#wrong),*], t)),
                    #p::Walk::Fine => {}
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
