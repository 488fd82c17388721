//! `impl kubegen::KubeSchema`: the type's model travels as JSON, its fields' shapes come from
//! trait dispatch at run time.

use darling::Error;
use darling::error::Accumulator;
use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use kubegen_core::model::{Schema, TypeDef};
use kubegen_core::parse::markers::Place;
use kubegen_core::parse::shape::option_inner;
use kubegen_core::parse::typedef::{self, Parsed};

use crate::path::Kubegen;
use crate::spans::{self, Spans};
use crate::{check, info};

/// The `KubeSchema` impl of `input`, and what the engine made of it (for `CustomResource`).
/// Problems go to `errors`, all of them: parsing and the engine's checks run in one go.
pub fn kube_schema(
    input: &DeriveInput,
    place: Place,
    errors: &mut Accumulator,
) -> (TokenStream, Checked) {
    let (parsed, parse_errors) = typedef::parse_all(input, String::new(), place, &spans::locate);
    if let Err(e) = parse_errors.finish() {
        errors.push(e);
    }
    let spans = Spans::of(input, input.ident.span());
    let check::TypeSchema {
        seen,
        schema,
        warnings,
        refused,
    } = check::type_schema(&parsed, &spans, errors);
    let ident = &input.ident;
    let name = ident.to_string();
    let kubegen = Kubegen::new(parsed.crate_path.as_ref());
    let json = encode(&parsed.def, errors);
    let shapes = parsed
        .def
        .fields()
        .zip(&parsed.field_types)
        .map(|(field, ty)| {
            let shape = info::of_type(&kubegen, ty, quote!(shape()));
            match (parsed.def.walks(field), option_inner(ty)) {
                (false, _) => quote!(#kubegen::__private::Shape::default()),
                (true, Some(_)) => quote!(#kubegen::__private::optional(#shape)),
                (true, None) => shape,
            }
        });
    let shapes: Vec<TokenStream> = shapes.collect();
    let consts = info::consts(&kubegen, &seen, &parsed, &input.ident);
    #[cfg(feature = "apply")]
    let apply = crate::apply::configuration(&kubegen, input, &parsed, errors);
    #[cfg(not(feature = "apply"))]
    let apply = TokenStream::new();
    let checks = info::checks(&kubegen, &seen, &parsed);
    let same_version = kubegen.same_version();
    let tokens = quote! {
        #warnings

        #checks

        #apply

        impl #kubegen::KubeSchema for #ident {
            #consts

            fn shape() -> #kubegen::__private::Shape {
                #same_version
                #kubegen::__private::Shape::named(
                    ::core::concat!(::core::module_path!(), "::", #name),
                    || #kubegen::__private::type_def(
                        ::core::concat!(::core::module_path!(), "::", #name),
                        #json,
                        ::std::vec![#(#shapes),*],
                    ),
                )
            }
        }
    };
    (
        tokens,
        Checked {
            parsed,
            seen,
            schema,
            spans,
            refused,
        },
    )
}

/// What stands for the type's `KubeSchema` impl when the derive reports errors, as serde's and
/// clap's derives leave an impl behind theirs: an untyped schema, and (feature `apply`) its
/// apply configuration with the refused fields applied whole (the type applied whole when
/// none can be planned). The type's uses then add no error to the ones reported at their
/// causes.
pub fn fallback(input: &DeriveInput, checked: &Checked) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let kubegen = checked.kubegen();
    #[cfg(feature = "apply")]
    let apply = match input.generics.params.is_empty() {
        true => {
            let mut again = Error::accumulator();
            let apply = crate::apply::configuration(
                &kubegen,
                input,
                &checked.without_refused(),
                &mut again,
            );
            // Reported already.
            let _ = again.finish();
            apply
        }
        false => crate::apply::whole(&kubegen, input),
    };
    #[cfg(not(feature = "apply"))]
    let apply = TokenStream::new();
    quote! {
        #apply

        impl #impl_generics #kubegen::KubeSchema for #ident #ty_generics #where_clause {
            fn shape() -> #kubegen::__private::Shape {
                ::core::default::Default::default()
            }
        }
    }
}

/// The model as JSON, to be read back at run time.
pub fn encode(value: &impl serde::Serialize, errors: &mut Accumulator) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        errors.push(Error::custom(format!(
            "kubegen could not encode the model: {e}"
        )));
        String::new()
    })
}

/// A parsed type and the schema the engine built from what the syntax shows.
pub struct Checked {
    /// The parsed type.
    pub parsed: Parsed,
    /// The type with the shapes its fields' syntax shows.
    pub seen: TypeDef,
    /// Its schema, with the fields whose types the syntax cannot resolve left untyped.
    pub schema: Schema,
    /// Its tokens by location, to place the engine's errors.
    pub spans: Spans,
    /// The fields whose types are an error of their own (see [`check::TypeSchema::refused`]),
    /// which the fallback apply configuration applies whole.
    #[cfg_attr(not(feature = "apply"), allow(dead_code))]
    pub refused: Vec<usize>,
}

impl Checked {
    /// The path the type's generated code names kubegen by.
    pub fn kubegen(&self) -> Kubegen {
        Kubegen::new(self.parsed.crate_path.as_ref())
    }

    /// The parsed type with the refused fields marked `schemaless`: what its fallback apply
    /// configuration is planned from, so that it applies them whole and names no type of
    /// theirs.
    #[cfg(feature = "apply")]
    fn without_refused(&self) -> Parsed {
        let mut def = self.parsed.def.clone();
        for (i, field) in def.fields_mut().enumerate() {
            field.markers.schemaless |= self.refused.contains(&i);
        }
        Parsed {
            def,
            resource: self.parsed.resource.clone(),
            sites: self.parsed.sites.clone(),
            field_types: self.parsed.field_types.clone(),
            crate_path: self.parsed.crate_path.clone(),
        }
    }
}
