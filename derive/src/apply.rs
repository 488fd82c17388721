//! The apply configuration beside a derived type (kubegen's `apply` feature): tokens for the
//! engine's plan (`kubegen_core::apply::plan`), and the root's `<Kind>Apply`.

use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident};

use kubegen_core::apply::plan::{self, FieldPlan, Form, NodePlan};
use kubegen_core::model::Style;
use kubegen_core::parse::typedef::Parsed;

/// The apply configuration of `input` and its `Applicable` impl; problems go to `errors`.
pub fn configuration(
    input: &DeriveInput,
    parsed: &Parsed,
    errors: &mut Accumulator,
) -> TokenStream {
    let applicable: syn::Path = syn::parse_quote!(::kubegen::apply::Applicable);
    let whole: syn::Path = syn::parse_quote!(::kubegen::apply::Whole);
    let plan = match plan::plan(parsed, &applicable, &whole) {
        Ok(plan) => plan,
        Err(e) => {
            errors.push(e.into());
            return TokenStream::new();
        }
    };
    let vis = &input.vis;
    let ident = &input.ident;
    let name = format_ident!("{}", plan.name);
    let doc = format!(
        "The apply configuration of [`{ident}`]: set only the fields this field manager owns \
         (server-side apply)."
    );
    let p = quote!(::kubegen::__private::serde);
    let derives =
        quote!(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq, #p::Serialize);
    let item = match &plan.form {
        Form::Whole => quote! {
            #[doc = #doc]
            #vis type #name = ::kubegen::apply::Whole<#ident>;
        },
        Form::Struct(fields) => {
            let defs = fields.iter().map(|f| field(f, &name, true));
            let builders = fields.iter().filter_map(builder);
            let helpers = fields.iter().filter_map(list_map_helper);
            let read = read_struct(&name, fields);
            quote! {
                #[doc = #doc]
                #[derive(::core::default::Default, #derives)]
                #[serde(crate = "::kubegen::__private::serde")]
                #vis struct #name {
                    #(#defs)*
                }

                impl #name {
                    #(#builders)*
                    #(#helpers)*
                }

                #read
            }
        }
        Form::Enum {
            tag,
            content,
            variants,
        } => {
            let tag = tag.as_ref().map(|t| quote!(tag = #t,));
            let content = content.as_ref().map(|c| quote!(content = #c,));
            let mut helpers = Vec::new();
            let variants = variants.iter().map(|v| {
                let vident = format_ident!("{}", v.ident);
                let json = &v.json;
                helpers.extend(v.fields.iter().filter_map(list_map_helper));
                let fields = v.fields.iter().map(|f| field(f, &name, false));
                let body = match v.style {
                    Style::Named => quote!({ #(#fields)* }),
                    Style::Tuple => quote!(( #(#fields)* )),
                    Style::Unit => quote!(),
                };
                let doc = format!("The `{json}` variant.");
                quote!(#[doc = #doc] #[serde(rename = #json)] #vident #body,)
            });
            let variants: Vec<TokenStream> = variants.collect();
            quote! {
                #[doc = #doc]
                #[derive(#derives, #p::Deserialize)]
                #[serde(crate = "::kubegen::__private::serde", #tag #content)]
                #vis enum #name {
                    #(#variants)*
                }

                impl #name {
                    #(#helpers)*
                }
            }
        }
    };
    let node = node(&plan.node);
    quote! {
        #item

        impl ::kubegen::apply::Applicable for #ident {
            type Config = #name;
            fn describe() -> &'static ::kubegen::apply::Node {
                static NODE: ::kubegen::apply::Node = #node;
                &NODE
            }
        }
    }
}

/// The `<Kind>Apply` of a custom resource: `metadata`, `spec` and `status` (when the kind has
/// one), `new`, `extract` and `extract_status`.
pub fn root(
    vis: &syn::Visibility,
    kind: &Ident,
    spec: &Ident,
    status: Option<&syn::Type>,
    api_version: &str,
) -> TokenStream {
    let name = format_ident!("{kind}Apply");
    let kind_str = kind.to_string();
    let p = quote!(::kubegen::__private);
    let meta = quote!(#p::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta);
    let applicable = quote!(::kubegen::apply::Applicable);
    let doc = format!(
        "The apply configuration of [`{kind}`]: its metadata and the parts of its spec and \
         status this field manager owns. Send it with \
         `Api::<{kind}>::patch(name, &PatchParams::apply(\"manager\"), &Patch::Apply(&cfg))` \
         (`patch_status` for the status)."
    );
    let optional =
        quote!(#[serde(default, skip_serializing_if = "::core::option::Option::is_none")]);
    let status_field = status.map(|s| {
        quote! {
            /// The part of the status this manager owns (applied through the status subresource).
            #optional
            pub status: ::core::option::Option<<#s as #applicable>::Config>,
        }
    });
    let status_ser = status.map(|_| {
        quote! {
            if let ::core::option::Option::Some(status) = &self.status {
                state.serialize_entry("status", status)?;
            }
        }
    });
    let status_methods = status.map(|s| {
        quote! {
            /// Sets the status.
            pub fn with_status(mut self, status: <#s as #applicable>::Config) -> Self {
                self.status = ::core::option::Option::Some(status);
                self
            }

            /// The apply configuration of exactly the status fields `manager` owns through the
            /// status subresource (client-go's `ExtractXStatus`), with `obj`'s name and namespace.
            pub fn extract_status(obj: &#kind, manager: &str) -> ::core::result::Result<Self, ::kubegen::apply::ExtractError> {
                ::kubegen::apply::__private::extract(obj, manager, "status", Self::describe())
            }
        }
    });
    let status_node = status.map(|s| {
        quote!(::kubegen::apply::Field { name: "status", flatten: false, defaulted: false, node: ::kubegen::apply::Node::Type(<#s as #applicable>::describe) },)
    });
    quote! {
        #[doc = #doc]
        #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::default::Default, ::core::cmp::PartialEq, #p::serde::Deserialize)]
        #[serde(crate = "::kubegen::__private::serde")]
        #vis struct #name {
            /// The object's metadata: `name` (and `namespace`) identify it; labels and
            /// annotations set here are owned by this manager.
            #[serde(default)]
            pub metadata: #meta,
            /// The part of the spec this manager owns.
            #optional
            pub spec: ::core::option::Option<<#spec as #applicable>::Config>,
            #status_field
        }

        impl #name {
            /// A configuration of the object named `name`, with nothing else set.
            pub fn new(name: &str) -> Self {
                let mut cfg = <Self as ::core::default::Default>::default();
                cfg.metadata.name = ::core::option::Option::Some(::std::string::ToString::to_string(name));
                cfg
            }

            /// Sets `metadata.namespace`.
            pub fn with_namespace(mut self, namespace: &str) -> Self {
                self.metadata.namespace = ::core::option::Option::Some(::std::string::ToString::to_string(namespace));
                self
            }

            /// Sets the spec.
            pub fn with_spec(mut self, spec: <#spec as #applicable>::Config) -> Self {
                self.spec = ::core::option::Option::Some(spec);
                self
            }

            /// The apply configuration of exactly the fields `manager` owns in `obj`'s
            /// `metadata.managedFields` (client-go's `ExtractX`), with `obj`'s name and
            /// namespace: change it and apply it again without taking other managers' fields.
            pub fn extract(obj: &#kind, manager: &str) -> ::core::result::Result<Self, ::kubegen::apply::ExtractError> {
                ::kubegen::apply::__private::extract(obj, manager, "", Self::describe())
            }

            #status_methods

            /// What `extract` knows of the object's JSON form.
            pub fn describe() -> &'static ::kubegen::apply::Node {
                static NODE: ::kubegen::apply::Node = ::kubegen::apply::Node::Object(&[
                    ::kubegen::apply::Field { name: "apiVersion", flatten: false, defaulted: false, node: ::kubegen::apply::Node::Value },
                    ::kubegen::apply::Field { name: "kind", flatten: false, defaulted: false, node: ::kubegen::apply::Node::Value },
                    ::kubegen::apply::Field { name: "metadata", flatten: false, defaulted: false, node: ::kubegen::apply::Node::Value },
                    ::kubegen::apply::Field { name: "spec", flatten: false, defaulted: false, node: ::kubegen::apply::Node::Type(<#spec as #applicable>::describe) },
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

/// `Deserialize` of a configuration struct, through its JSON object: a few lines per type
/// where serde's derive writes a visitor, which is most of what the feature costs to build.
/// Named fields first; flattened ones read the entries left.
fn read_struct(name: &Ident, fields: &[FieldPlan]) -> TokenStream {
    let p = quote!(::kubegen::__private::serde);
    let locals: Vec<Ident> = (0..fields.len()).map(|i| format_ident!("f{i}")).collect();
    let named = fields
        .iter()
        .zip(&locals)
        .filter(|(f, _)| !f.flatten)
        .map(|(f, l)| {
            let json = &f.json;
            quote!(let #l = object.take(#json)?;)
        });
    let flattened = fields
        .iter()
        .zip(&locals)
        .filter(|(f, _)| f.flatten)
        .map(|(_, l)| quote!(let #l = object.flattened()?;));
    let idents = fields
        .iter()
        .map(|f| ident(f.ident.as_deref().unwrap_or_default()));
    quote! {
        impl<'de> #p::Deserialize<'de> for #name {
            fn deserialize<D: #p::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                let mut object = ::kubegen::apply::__private::Object::read(deserializer)?;
                #(#named)*
                #(#flattened)*
                ::core::result::Result::Ok(Self { #(#idents: #locals),* })
            }
        }
    }
}

/// One field of a configuration struct or variant.
fn field(f: &FieldPlan, owner: &Ident, in_struct: bool) -> TokenStream {
    let ty = &f.ty;
    let json = &f.json;
    let doc = match &f.ident {
        Some(_) if f.flatten => "Flattened fields.".to_string(),
        Some(_) => format!("`{json}`."),
        None => "The content.".to_string(),
    };
    if !f.optional {
        return match &f.ident {
            Some(i) => {
                let i = ident(i);
                quote!(#[doc = #doc] #[serde(rename = #json)] #i: #ty,)
            }
            None => quote!(#ty,),
        };
    }
    let i = ident(f.ident.as_deref().unwrap_or_default());
    let serde = if f.flatten {
        quote!(#[serde(flatten)])
    } else if f.list_map.is_some() {
        let helper = format!("{owner}::{}", helper_name(f));
        quote!(#[serde(rename = #json, default, skip_serializing_if = "::core::option::Option::is_none", serialize_with = #helper)])
    } else {
        quote!(#[serde(rename = #json, default, skip_serializing_if = "::core::option::Option::is_none")])
    };
    let vis = in_struct.then(|| quote!(pub));
    quote!(#[doc = #doc] #serde #vis #i: ::core::option::Option<#ty>,)
}

/// `with_<field>(value)`: a struct field's builder.
fn builder(f: &FieldPlan) -> Option<TokenStream> {
    let name = f.ident.as_deref()?;
    let (i, ty) = (ident(name), &f.ty);
    let method = format_ident!("with_{name}");
    let doc = format!("Sets `{}`.", if f.flatten { name } else { &f.json });
    Some(quote! {
        #[doc = #doc]
        pub fn #method(mut self, value: impl ::core::convert::Into<#ty>) -> Self {
            self.#i = ::core::option::Option::Some(value.into());
            self
        }
    })
}

fn helper_name(f: &FieldPlan) -> String {
    format!("__kubegen_list_map_{}", f.ident.as_deref().unwrap_or("0"))
}

/// The serializer of a list map field that refuses items without their keys.
fn list_map_helper(f: &FieldPlan) -> Option<TokenStream> {
    let keys = f.list_map.as_ref()?;
    let NodePlan::List { item, .. } = &f.node else {
        return None;
    };
    let name = format_ident!("{}", helper_name(f));
    let json = &f.json;
    let item = node(item);
    let p = quote!(::kubegen::__private::serde);
    Some(quote! {
        #[doc(hidden)]
        fn #name<V: #p::Serialize, S: #p::Serializer>(value: &V, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
            static ITEM: ::kubegen::apply::Node = #item;
            ::kubegen::apply::__private::list_map(value, #json, &[#(#keys),*], &ITEM, serializer)
        }
    })
}

/// A `kubegen::apply::Node` expression for a static.
fn node(n: &NodePlan) -> TokenStream {
    let kind = quote!(::kubegen::apply::Node);
    match n {
        NodePlan::Value => quote!(#kind::Value),
        NodePlan::Type(ty) => {
            quote_spanned!(ty.span()=> #kind::Type(<#ty as ::kubegen::apply::Applicable>::describe))
        }
        NodePlan::Object(fields) => {
            let fields = fields.iter().map(|(name, flatten, defaulted, n)| {
                let n = node(n);
                quote!(::kubegen::apply::Field { name: #name, flatten: #flatten, defaulted: #defaulted, node: #n })
            });
            quote!(#kind::Object(&[#(#fields),*]))
        }
        NodePlan::OneOf(forms) => {
            let forms = forms.iter().map(node);
            quote!(#kind::OneOf(&[#(#forms),*]))
        }
        NodePlan::List { keys, item } => {
            let list = match keys {
                None => quote!(::kubegen::apply::ListKind::Atomic),
                Some(k) if k.is_empty() => quote!(::kubegen::apply::ListKind::Set),
                Some(k) => quote!(::kubegen::apply::ListKind::Map(&[#(#k),*])),
            };
            let item = node(item);
            quote!(#kind::List { kind: #list, item: &#item })
        }
        NodePlan::Map { atomic, value } => {
            let value = node(value);
            quote!(#kind::Map { atomic: #atomic, value: &#value })
        }
    }
}

/// The identifier of a field named `name` (raw when it is a keyword).
fn ident(name: &str) -> Ident {
    syn::parse_str::<Ident>(name).unwrap_or_else(|_| Ident::new_raw(name, Span::call_site()))
}
