//! `#[derive(CustomResource)]`: the root type, `kube::Resource`, `kube::CustomResourceExt`,
//! `kubegen::CustomResource`, and the spec's `KubeSchema`.

use darling::Error;
use darling::error::Accumulator;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::DeriveInput;

use kubegen_core::check::paths;
use kubegen_core::model::{ResourceDef, ResourceMarkers, Scope, Shape};
use kubegen_core::parse::markers::Place;

use crate::codegen::{self, Checked};
use crate::path::Kubegen;
use crate::{check, info};

/// Expands the derive on a spec struct. Every problem is collected before anything returns;
/// with problems, their errors come with the root type and its impls over a fallback schema
/// (see [`codegen::fallback`]), so that the code using them adds no error of its own.
pub fn expand(input: &DeriveInput) -> TokenStream {
    let mut errors = Error::accumulator();
    let (schema_impl, checked) = codegen::kube_schema(input, Place::Spec, &mut errors);
    let m = &checked.parsed.resource;
    // `#[rbac]` and `#[webhook]` are also this derive's helper attributes: check them as the
    // attribute macros would (their `crate` changes nothing here, but is checked alike).
    let mut webhook_crates = Vec::new();
    for attr in &input.attrs {
        let (rbac, webhook) = (
            attr.path().is_ident("rbac"),
            attr.path().is_ident("webhook"),
        );
        if !rbac && !webhook {
            continue;
        }
        match attr.meta.require_list() {
            Ok(list) if rbac => {
                errors.handle(kubegen_core::parse::rbac::parse(list.tokens.clone()));
            }
            Ok(list) => {
                let parsed = kubegen_core::parse::webhook::parse_with_crate(list.tokens.clone());
                if let Some((_, path)) = errors.handle(parsed) {
                    webhook_crates.push(path);
                }
            }
            Err(e) => errors.push(e.into()),
        }
    }
    errors.handle(kubegen_core::parse::webhook::one_crate(webhook_crates));
    // The parser checked that these parse.
    let status: Option<syn::Type> = m.status.as_ref().and_then(|s| syn::parse_str(s).ok());
    let deferred = check_paths(&checked, &input.ident, status.as_ref(), &mut errors);
    let derives: Vec<syn::Path> = m
        .derive
        .iter()
        .filter_map(|d| syn::parse_str(d).ok())
        .collect();
    let json = codegen::encode(m, &mut errors);
    let kubegen = checked.kubegen();
    match errors.finish() {
        Ok(()) => {
            let mut tokens = generate(
                &kubegen,
                input,
                m,
                status.as_ref(),
                &derives,
                &json,
                schema_impl,
            );
            tokens.extend(deferred);
            tokens
        }
        Err(e) => {
            let mut out = crate::compile_errors(e);
            if let Some(m) = fallback_markers(input, m) {
                let fallback = codegen::fallback(input, &checked);
                out.extend(generate(
                    &kubegen,
                    input,
                    &m,
                    status.as_ref(),
                    &derives,
                    &json,
                    fallback,
                ));
            }
            out
        }
    }
}

/// The markers the fallback root is generated from: the kind as written, or, when it is
/// missing or no identifier, the spec's name without `Spec`. `None` when that leaves none, the
/// kind is the spec's own name, or the spec is no struct (a root could not hold it).
fn fallback_markers(input: &DeriveInput, m: &ResourceMarkers) -> Option<ResourceMarkers> {
    if !matches!(input.data, syn::Data::Struct(_)) {
        return None;
    }
    let spec = input.ident.to_string();
    let kind = [
        m.kind.as_str(),
        spec.strip_suffix("Spec").unwrap_or_default(),
    ]
    .into_iter()
    .find(|k| *k != spec && syn::parse_str::<syn::Ident>(k).is_ok())?;
    Some(ResourceMarkers {
        kind: kind.to_string(),
        ..m.clone()
    })
}

/// Printer columns, scale paths and selectable fields, checked against what the syntax shows;
/// paths that go into types the derive cannot see (the status type, the spec's fields' and
/// flattened types) become `const` checks through those types' `INFO` (returned).
fn check_paths(
    checked: &Checked,
    spec: &syn::Ident,
    status: Option<&syn::Type>,
    errors: &mut Accumulator,
) -> TokenStream {
    let m = &checked.parsed.resource;
    let known = ResourceDef {
        markers: m.clone(),
        spec: Shape::Opaque(String::new()),
        status: m.status.as_ref().map(|_| Shape::Opaque(String::new())),
    };
    // The root as `crd()` builds it; the status type is not visible here, so paths into it are
    // deferred.
    let root = kubegen_core::crd::root_of_spec(m, checked.schema.clone());
    match paths::check(&known, &root, paths::View::Partial(&checked.seen)) {
        Ok(deferred) => {
            info::deferred_paths(&checked.kubegen(), &deferred, spec, status, &checked.spans)
        }
        Err(found) => {
            for e in check::spanned(found, &checked.spans) {
                errors.push(e);
            }
            TokenStream::new()
        }
    }
}

fn generate(
    kubegen: &Kubegen,
    input: &DeriveInput,
    m: &ResourceMarkers,
    status: Option<&syn::Type>,
    derives: &[syn::Path],
    markers_json: &str,
    schema_impl: TokenStream,
) -> TokenStream {
    let vis = &input.vis;
    let spec = &input.ident;
    let kind = format_ident!("{}", m.kind);
    let (kind_str, group, version) = (&m.kind, &m.group, &m.version);
    let api_version = m.api_version();
    let plural = m.plural();
    let crd_name = m.crd_name();
    let short_names = m.short_names.clone().unwrap_or_default();
    let p = quote!(#kubegen::__private);
    let same_version = kubegen.same_version();
    let meta = quote!(#p::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta);
    let scope = match m.scope() {
        Scope::Namespaced => quote!(#p::k8s_openapi::NamespaceResourceScope),
        Scope::Cluster => quote!(#p::k8s_openapi::ClusterResourceScope),
    };
    let doc = m.doc.clone().unwrap_or_else(|| {
        format!("`{kind_str}` ({api_version}), the custom resource whose spec is [`{spec}`].")
    });
    let status_doc = if m.has_status_subresource() {
        "The observed state, written by the controller through the status subresource."
    } else {
        "The observed state (this version has no status subresource)."
    };
    let status_field = status.map(|s| {
        quote! {
            #[doc = #status_doc]
            #[serde(default, skip_serializing_if = "::core::option::Option::is_none")]
            pub status: ::core::option::Option<#s>,
        }
    });
    let status_init = status.map(|_| quote!(status: ::core::option::Option::None,));
    let status_ser = status.map(|_| {
        quote! {
            match &self.status {
                ::core::option::Option::Some(status) => state.serialize_field("status", status)?,
                ::core::option::Option::None => state.skip_field("status")?,
            }
        }
    });
    // `optional` on the spec struct: the root's `spec` may be missing.
    let (spec_ty, spec_doc, spec_attr, spec_init, spec_ser) = if m.spec_optional {
        (
            quote!(::core::option::Option<#spec>),
            "The desired state, when the object has one (`spec` is not required).",
            quote!(#[serde(default, skip_serializing_if = "::core::option::Option::is_none")]),
            quote!(::core::option::Option::Some(spec)),
            quote! {
                match &self.spec {
                    ::core::option::Option::Some(spec) => state.serialize_field("spec", spec)?,
                    ::core::option::Option::None => state.skip_field("spec")?,
                }
            },
        )
    } else {
        (
            quote!(#spec),
            "The desired state.",
            TokenStream::new(),
            quote!(spec),
            quote!(state.serialize_field("spec", &self.spec)?;),
        )
    };
    let field_count = if status.is_some() { 5usize } else { 4 };
    let status_shape = match status {
        Some(s) => quote!(::core::option::Option::Some(<#s as #kubegen::KubeSchema>::shape())),
        None => quote!(::core::option::Option::None),
    };
    let has_status = status.map(|s| {
        quote! {
            impl #p::kube::core::object::HasStatus for #kind {
                type Status = #s;
                fn status(&self) -> ::core::option::Option<&#s> {
                    self.status.as_ref()
                }
                fn status_mut(&mut self) -> &mut ::core::option::Option<#s> {
                    &mut self.status
                }
            }
        }
    });
    let serde = kubegen.text("::__private::serde");
    #[cfg(feature = "apply")]
    let apply = crate::apply::root(kubegen, vis, &kind, spec, status, &api_version);
    #[cfg(not(feature = "apply"))]
    let apply = TokenStream::new();
    quote! {
        #schema_impl

        #apply

        #[doc = #doc]
        #[derive(#p::serde::Deserialize, ::core::clone::Clone, ::core::fmt::Debug #(, #derives)*)]
        #[serde(crate = #serde)]
        #vis struct #kind {
            /// Standard object metadata.
            pub metadata: #meta,
            #[doc = #spec_doc]
            #spec_attr
            pub spec: #spec_ty,
            #status_field
        }

        impl #kind {
            /// A new object with this name and spec.
            pub fn new(name: &str, spec: #spec) -> Self {
                Self {
                    metadata: #meta {
                        name: ::core::option::Option::Some(::std::string::ToString::to_string(name)),
                        ..::core::default::Default::default()
                    },
                    spec: #spec_init,
                    #status_init
                }
            }
        }

        impl #p::serde::Serialize for #kind {
            fn serialize<S: #p::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                use #p::serde::ser::SerializeStruct as _;
                let mut state = serializer.serialize_struct(#kind_str, #field_count)?;
                state.serialize_field("apiVersion", #api_version)?;
                state.serialize_field("kind", #kind_str)?;
                state.serialize_field("metadata", &self.metadata)?;
                #spec_ser
                #status_ser
                state.end()
            }
        }

        impl #p::kube::Resource for #kind {
            type DynamicType = ();
            type Scope = #scope;
            fn kind(_: &()) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed(#kind_str)
            }
            fn group(_: &()) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed(#group)
            }
            fn version(_: &()) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed(#version)
            }
            fn api_version(_: &()) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed(#api_version)
            }
            fn plural(_: &()) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed(#plural)
            }
            fn meta(&self) -> &#meta {
                &self.metadata
            }
            fn meta_mut(&mut self) -> &mut #meta {
                &mut self.metadata
            }
        }

        impl #kubegen::CustomResource for #kind {
            fn resource() -> #p::ResourceDef {
                #same_version
                #p::resource_def(
                    #markers_json,
                    <#spec as #kubegen::KubeSchema>::shape(),
                    #status_shape,
                )
            }
        }

        impl #p::kube::CustomResourceExt for #kind {
            fn crd() -> #p::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
                #p::crd::<Self>()
            }
            fn crd_name() -> &'static str {
                #crd_name
            }
            fn api_resource() -> #p::kube::core::ApiResource {
                #p::kube::core::ApiResource::erase::<Self>(&())
            }
            fn shortnames() -> &'static [&'static str] {
                &[#(#short_names),*]
            }
        }

        impl #p::kube::core::object::HasSpec for #kind {
            type Spec = #spec_ty;
            fn spec(&self) -> &#spec_ty {
                &self.spec
            }
            fn spec_mut(&mut self) -> &mut #spec_ty {
                &mut self.spec
            }
        }

        #has_status
    }
}
