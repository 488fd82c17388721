//! The apply configuration beside a derived type (kubegen's `apply` feature): tokens for the
//! engine's plan (`kubegen_core::apply::plan`), and the root's `<Kind>Apply`.

mod enums;
mod parts;

use darling::error::Accumulator;
use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::{DeriveInput, Ident};

use kubegen_core::apply::plan::{self, FieldPlan, Form};
use kubegen_core::model::Style;
use kubegen_core::parse::typedef::Parsed;

use crate::path::Kubegen;
use parts::node;

/// The apply configuration of `input` and the type's `impl ApplySchema` that names it;
/// problems go to `errors`.
///
/// A struct's impls are written out rather than derived, each field's part spanned at the
/// field's type: a type without a schema is then one error (the projection
/// `<T as ApplySchema>::Apply` fails exactly where the schema's `<T as ApplySchema>::apply_node`
/// beside `<T as KubeSchema>::shape()` does, see [`crate::info::of_type`], and the compiler
/// reports the same error once), where derives would add one at each derive.
pub fn configuration(
    k: &Kubegen,
    input: &DeriveInput,
    parsed: &Parsed,
    errors: &mut Accumulator,
) -> TokenStream {
    let schema: syn::Path = syn::parse_quote!(#k::ApplySchema);
    let whole_path: syn::Path = syn::parse_quote!(#k::apply::Whole);
    let plan = match plan::plan(parsed, &schema, &whole_path) {
        Ok(plan) => plan,
        Err(e) => {
            errors.push(e.into());
            // The error is at the field.
            return whole(k, input);
        }
    };
    let (vis, ident) = (&input.vis, &input.ident);
    let name = format_ident!("{}", plan.name);
    let doc = format!(
        "The apply configuration of [`{ident}`]: set only the fields this field manager owns \
         (server-side apply)."
    );
    let items = match &plan.form {
        Form::Whole => quote! {
            #[doc = #doc]
            #vis type #name = #k::apply::Whole<#ident>;
        },
        Form::Struct(fields) => structure(k, vis, &name, &doc, fields),
        Form::Enum {
            tag,
            content,
            variants,
        } => enums::enumeration(k, vis, &name, &doc, tag, content, variants),
    };
    let node = node(k, &plan.node);
    quote! {
        #items

        impl #k::ApplySchema for #ident {
            type Apply = #name;
            fn apply_node() -> &'static #k::apply::Node {
                static NODE: #k::apply::Node = #node;
                &NODE
            }
        }
    }
}

/// The type applied whole, under its configuration's name: what stands for a configuration
/// that cannot be planned, so that the code naming it adds no error.
pub fn whole(k: &Kubegen, input: &DeriveInput) -> TokenStream {
    let (vis, ident) = (&input.vis, &input.ident);
    let name = format_ident!("{ident}Apply");
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        #[doc(hidden)]
        #vis type #name #impl_generics = #k::apply::Whole<#ident #ty_generics>;

        impl #impl_generics #k::ApplySchema for #ident #ty_generics #where_clause {
            type Apply = #k::apply::Whole<Self>;
        }
    }
}

/// A configuration struct and its impls, written out (see [`configuration`]); the ones no
/// function of the crate calls are `#[inline]`, so that they are compiled where they are used.
fn structure(
    k: &Kubegen,
    vis: &syn::Visibility,
    name: &Ident,
    doc: &str,
    fields: &[FieldPlan],
) -> TokenStream {
    let p = quote!(#k::__private::serde);
    let parts = parts::parts(fields, "f");
    let defs = parts.iter().map(|part| part.def(quote!(pub)));
    let defaults = parts::construct(
        quote!(Self),
        Style::Named,
        &parts,
        |part| quote_spanned!(part.span=> ::core::option::Option::None),
    );
    let clones = parts::construct(quote!(Self), Style::Named, &parts, |part| {
        let field = part.of_self();
        quote_spanned!(part.span=> ::core::clone::Clone::clone(&#field))
    });
    let equals = parts.iter().map(|part| {
        let (field, i) = (part.of_self(), &part.ident);
        let other = part.stretch(quote_spanned!(part.span=> other.#i));
        quote_spanned!(part.span=> && #field == #other)
    });
    let debugs = parts.iter().map(|part| {
        let field = part.of_self();
        part.debug(quote!(&#field))
    });
    let writes = parts.iter().map(|part| {
        let field = part.of_self();
        part.write(k, quote!(&#field))
    });
    let reads = parts::reads(&parts);
    let fills = parts::construct(quote!(Self), Style::Named, &parts, |part| {
        part.local.to_token_stream()
    });
    let builders = parts.iter().map(|part| {
        let (f, field) = (part.plan, part.of_self());
        let name = f.ident.as_deref().unwrap_or_default();
        let method = format_ident!("with_{name}");
        let doc = format!("Sets `{}`.", if f.flatten { name } else { &f.json });
        let ty = &f.ty;
        // A value that converts: the bound is on the configuration's type, so what fails in it
        // fails at the type's span, as the schema's error does (a bound on the value's type
        // would fail at the trait's name).
        let v = quote!(__KubegenValue);
        let (params, value, bound, set) = match f.converts {
            true => (
                quote!(<#v>),
                v.clone(),
                Some(quote_spanned!(part.end=> where #ty: ::core::convert::From<#v>)),
                part.around(
                    quote!(<),
                    quote!(as ::core::convert::From<#v>>::from(value)),
                ),
            ),
            false => (
                TokenStream::new(),
                ty.to_token_stream(),
                None,
                quote!(value),
            ),
        };
        // The signature is checked at the function's span, stretched over the field's type.
        part.stretch(quote_spanned! {part.span=>
            #[doc = #doc]
            #[inline]
            pub fn #method #params(mut self, value: #value) -> Self #bound {
                #field = ::core::option::Option::Some(#set);
                self
            }
        })
    });
    let name_str = name.to_string();
    quote! {
        // Every field is `pub`, also those of private types, a private type's builders may go
        // unused, and a field's type is its type's projection: the lints would point at the
        // user's fields.
        #[doc = #doc]
        #[allow(private_interfaces, clippy::type_complexity)]
        #vis struct #name {
            #(#defs)*
        }

        #[allow(dead_code, private_bounds, clippy::type_complexity)]
        impl #name {
            #(#builders)*
        }

        impl ::core::default::Default for #name {
            #[inline]
            fn default() -> Self {
                #defaults
            }
        }

        impl ::core::clone::Clone for #name {
            #[inline]
            fn clone(&self) -> Self {
                #clones
            }
        }

        impl ::core::cmp::PartialEq for #name {
            #[inline]
            fn eq(&self, other: &Self) -> bool {
                true #(#equals)*
            }
        }

        impl ::core::fmt::Debug for #name {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(#name_str) #(#debugs)* .finish()
            }
        }

        impl #p::Serialize for #name {
            fn serialize<S: #p::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                let mut object = #k::apply::__private::Writer::new(serializer)?;
                #(#writes)*
                object.end()
            }
        }

        impl<'de> #p::Deserialize<'de> for #name {
            fn deserialize<D: #p::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                let mut object = #k::apply::__private::Object::read(deserializer)?;
                #reads
                ::core::result::Result::Ok(#fills)
            }
        }
    }
}

/// The `<Kind>Apply` of a custom resource: `metadata`, `spec` and `status` (when the kind has
/// one), `new`, `extract` and `extract_status`.
pub fn root(
    k: &Kubegen,
    vis: &syn::Visibility,
    kind: &Ident,
    spec: &Ident,
    status: Option<&syn::Type>,
    api_version: &str,
) -> TokenStream {
    let name = format_ident!("{kind}Apply");
    let kind_str = kind.to_string();
    let p = quote!(#k::__private);
    let meta = quote!(#p::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta);
    let schema = quote!(#k::ApplySchema);
    let doc = format!(
        "The apply configuration of [`{kind}`]: its metadata and the parts of its spec and \
         status this field manager owns. Send it with \
         `Api::<{kind}>::patch(name, &PatchParams::apply(\"manager\"), &Patch::Apply(&cfg))` \
         (`patch_status` for the status)."
    );
    let status_field = status.map(|s| {
        quote! {
            /// The part of the status this manager owns (applied through the status subresource).
            pub status: ::core::option::Option<<#s as #schema>::Apply>,
        }
    });
    let name_str = name.to_string();
    let has_status = status.is_some();
    let status_none = has_status.then(|| quote!(status: ::core::option::Option::None,));
    let status_clone =
        has_status.then(|| quote!(status: ::core::clone::Clone::clone(&self.status),));
    let status_eq = has_status.then(|| quote!(&&self.status == other.status));
    let status_debug = has_status.then(|| quote!(.field("status", &self.status)));
    let status_take = has_status.then(|| quote!(status: object.take("status")?,));
    let status_ser = status.map(|_| {
        quote! {
            if let ::core::option::Option::Some(status) = &self.status {
                state.serialize_entry("status", status)?;
            }
        }
    });
    let spec_methods = part_methods(
        k,
        kind,
        "spec",
        &quote!(<#spec as #schema>::Apply),
        "extract",
        "The apply configuration of exactly the fields `manager` owns in `obj`'s \
         `metadata.managedFields` (client-go's `ExtractX`), with `obj`'s name and namespace: \
         change it and apply it again without taking other managers' fields.",
        "",
    );
    let status_methods = status.map(|s| {
        part_methods(
            k,
            kind,
            "status",
            &quote!(<#s as #schema>::Apply),
            "extract_status",
            "The apply configuration of exactly the status fields `manager` owns through the \
             status subresource (client-go's `ExtractXStatus`), with `obj`'s name and namespace.",
            "status",
        )
    });
    let status_node = status.map(|s| {
        quote!(#k::apply::Field { name: "status", flatten: false, defaulted: false, node: #k::apply::Node::Type(<#s as #schema>::apply_node) },)
    });
    quote! {
        #[doc = #doc]
        #vis struct #name {
            /// The object's metadata: `name` (and `namespace`) identify it; labels and
            /// annotations set here are owned by this manager.
            pub metadata: #meta,
            /// The part of the spec this manager owns.
            pub spec: ::core::option::Option<<#spec as #schema>::Apply>,
            #status_field
        }

        impl ::core::default::Default for #name {
            #[inline]
            fn default() -> Self {
                Self { metadata: ::core::default::Default::default(), spec: ::core::option::Option::None, #status_none }
            }
        }

        impl ::core::clone::Clone for #name {
            #[inline]
            fn clone(&self) -> Self {
                Self { metadata: ::core::clone::Clone::clone(&self.metadata), spec: ::core::clone::Clone::clone(&self.spec), #status_clone }
            }
        }

        impl ::core::cmp::PartialEq for #name {
            #[inline]
            fn eq(&self, other: &Self) -> bool {
                self.metadata == other.metadata && self.spec == other.spec #status_eq
            }
        }

        impl ::core::fmt::Debug for #name {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(#name_str).field("metadata", &self.metadata).field("spec", &self.spec) #status_debug .finish()
            }
        }

        impl<'de> #p::serde::Deserialize<'de> for #name {
            fn deserialize<D: #p::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                let mut object = #k::apply::__private::Object::read(deserializer)?;
                ::core::result::Result::Ok(Self {
                    metadata: object.take("metadata")?.unwrap_or_default(),
                    spec: object.take("spec")?,
                    #status_take
                })
            }
        }

        impl #name {
            /// A configuration of the object named `name`, with nothing else set.
            #[inline]
            pub fn new(name: impl ::core::convert::Into<::std::string::String>) -> Self {
                let mut cfg = <Self as ::core::default::Default>::default();
                cfg.metadata.name = ::core::option::Option::Some(name.into());
                cfg
            }

            /// Sets `metadata.namespace`.
            #[inline]
            pub fn with_namespace(mut self, namespace: impl ::core::convert::Into<::std::string::String>) -> Self {
                self.metadata.namespace = ::core::option::Option::Some(namespace.into());
                self
            }

            #spec_methods

            #status_methods

            /// What `extract` knows of the object's JSON form.
            #[inline]
            pub fn describe() -> &'static #k::apply::Node {
                static NODE: #k::apply::Node = #k::apply::Node::Object(&[
                    #k::apply::Field { name: "apiVersion", flatten: false, defaulted: false, node: #k::apply::Node::Value },
                    #k::apply::Field { name: "kind", flatten: false, defaulted: false, node: #k::apply::Node::Value },
                    #k::apply::Field { name: "metadata", flatten: false, defaulted: false, node: #k::apply::Node::Value },
                    #k::apply::Field { name: "spec", flatten: false, defaulted: false, node: #k::apply::Node::Type(<#spec as #schema>::apply_node) },
                    #status_node
                ]);
                &NODE
            }
        }

        impl #p::serde::Serialize for #name {
            fn serialize<S: #p::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                use #p::serde::ser::SerializeMap as _;
                let mut state = serializer.serialize_map(::core::option::Option::None)?;
                state.serialize_entry("apiVersion", #api_version)?;
                state.serialize_entry("kind", #kind_str)?;
                state.serialize_entry("metadata", &self.metadata)?;
                if let ::core::option::Option::Some(spec) = &self.spec {
                    state.serialize_entry("spec", spec)?;
                }
                #status_ser
                state.end()
            }
        }
    }
}

/// The root's `with_<part>` setter, and its `extract` for the fields of `part` one manager owns
/// (`subresource`: `""` for the object, `"status"` for the status subresource).
fn part_methods(
    k: &Kubegen,
    kind: &Ident,
    part: &str,
    config: &TokenStream,
    extract: &str,
    extract_doc: &str,
    subresource: &str,
) -> TokenStream {
    let field = format_ident!("{part}");
    let setter = format_ident!("with_{part}");
    let extract = format_ident!("{extract}");
    let setter_doc = format!("Sets the {part}.");
    quote! {
        #[doc = #setter_doc]
        #[inline]
        pub fn #setter(mut self, #field: #config) -> Self {
            self.#field = ::core::option::Option::Some(#field);
            self
        }

        #[doc = #extract_doc]
        #[inline]
        pub fn #extract(obj: &#kind, manager: &str) -> ::core::result::Result<Self, #k::apply::ExtractError> {
            #k::apply::__private::extract(obj, manager, #subresource, Self::describe())
        }
    }
}
