//! A configuration enum and its impls, written out as a struct's are (see
//! `super::configuration`): the type's variants, in the type's tagging
//! (`kubegen::apply::__private::Variants` writes and reads it).

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::Ident;

use kubegen_core::apply::plan::VariantPlan;
use kubegen_core::model::Style;

use super::parts::{self, Part};
use crate::path::Kubegen;

/// A configuration enum with `variants`, tagged as `tag` and `content` say.
pub fn enumeration(
    k: &Kubegen,
    vis: &syn::Visibility,
    name: &Ident,
    doc: &str,
    tag: &Option<String>,
    content: &Option<String>,
    variants: &[VariantPlan],
) -> TokenStream {
    let p = quote!(#k::__private::serde);
    let name_str = name.to_string();
    let tagging = match (tag, content) {
        (None, _) => quote!(External),
        (Some(t), None) => quote!(Internal(#t)),
        (Some(t), Some(c)) => quote!(Adjacent(#t, #c)),
    };
    let private = quote!(#k::apply::__private);
    let described = quote! {
        let variants = #private::Variants { name: #name_str, tagging: #private::Tagging::#tagging };
    };
    let arms: Vec<Arms> = variants
        .iter()
        .zip(0u32..)
        .map(|v| Arms::of(k, v))
        .collect();
    let defs = arms.iter().map(|a| &a.def);
    let clones = arms.iter().map(|a| &a.clone);
    let equals = arms.iter().map(|a| &a.eq);
    let different = (arms.len() > 1).then(|| quote!(_ => false,));
    let debugs = arms.iter().map(|a| &a.debug);
    let writes = arms.iter().map(|a| &a.write);
    let reads = arms.iter().map(|a| &a.read);
    let names = variants.iter().map(|v| &v.json);
    quote! {
        // As a struct's: the variants' fields are public, and their types projections.
        #[doc = #doc]
        #[allow(private_interfaces, clippy::type_complexity)]
        #vis enum #name {
            #(#defs)*
        }

        impl ::core::clone::Clone for #name {
            #[inline]
            fn clone(&self) -> Self {
                match self { #(#clones)* }
            }
        }

        impl ::core::cmp::PartialEq for #name {
            #[inline]
            fn eq(&self, other: &Self) -> bool {
                match (self, other) { #(#equals)* #different }
            }
        }

        impl ::core::fmt::Debug for #name {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self { #(#debugs)* }
            }
        }

        impl #p::Serialize for #name {
            fn serialize<S: #p::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                #described
                match self { #(#writes)* }
            }
        }

        impl<'de> #p::Deserialize<'de> for #name {
            fn deserialize<D: #p::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                #described
                let (variant, content) = variants.read(deserializer)?;
                match variant.as_str() {
                    #(#reads)*
                    other => ::core::result::Result::Err(
                        <D::Error as #p::de::Error>::unknown_variant(other, &[#(#names),*]),
                    ),
                }
            }
        }
    }
}

/// A variant's definition and its arms in each impl.
struct Arms {
    def: TokenStream,
    clone: TokenStream,
    eq: TokenStream,
    debug: TokenStream,
    write: TokenStream,
    read: TokenStream,
}

impl Arms {
    fn of(k: &Kubegen, (v, index): (&VariantPlan, u32)) -> Arms {
        let vident = parts::ident(&v.ident);
        let path = quote!(Self::#vident);
        let (vname, json, style) = (&v.ident, &v.json, v.style);
        let ours = parts::parts(&v.fields, "f");
        let theirs = parts::parts(&v.fields, "g");
        let local = |part: &Part| part.local.to_token_stream();
        // `&Variant { field: ref f0 }`: the pattern of a field spans its type (see
        // `Part::stretch`), which a binding alone (`Variant(f0)`) cannot.
        let bind = |part: &Part| {
            let local = &part.local;
            quote_spanned!(part.span=> ref #local)
        };
        let pattern = parts::construct(path.clone(), style, &ours, bind);
        let value = parts::construct(path.clone(), style, &ours, local);
        let defs = ours.iter().map(|part| part.def(TokenStream::new()));
        let body = match style {
            Style::Named => quote!({ #(#defs)* }),
            Style::Tuple => quote!(( #(#defs)* )),
            Style::Unit => TokenStream::new(),
        };
        let doc = format!("The `{json}` variant.");
        let clones = ours.iter().map(|part| {
            let local = &part.local;
            let clone =
                part.stretch(quote_spanned!(part.span=> ::core::clone::Clone::clone(#local)));
            quote_spanned!(part.span=> let #local = #clone;)
        });
        let clone = quote!({ #(#clones)* #value });
        let other = parts::construct(path, style, &theirs, bind);
        let equals = ours.iter().zip(&theirs).map(|(a, b)| {
            let (span, a, b) = (a.span, &a.local, &b.local);
            quote_spanned!(span=> && #a == #b)
        });
        let fields = ours.iter().map(|part| part.debug(local(part)));
        let debug = match style {
            Style::Named => quote!(f.debug_struct(#vname) #(#fields)* .finish()),
            Style::Tuple => quote!(f.debug_tuple(#vname) #(#fields)* .finish()),
            Style::Unit => quote!(f.write_str(#vname)),
        };
        let locals: Vec<&Ident> = ours.iter().map(|part| &part.local).collect();
        // A tuple variant's content: its one field, or (refused by the schema) several.
        let content = match locals.as_slice() {
            [one] => quote!(#one),
            many => quote!((#(#many),*)),
        };
        let arg = match ours.as_slice() {
            [one] => {
                let local = &one.local;
                one.stretch(quote_spanned!(one.span=> &*#local))
            }
            _ => quote!(&#content),
        };
        let (write, read) = match style {
            Style::Named if ours.is_empty() => (
                quote!(variants.fields(serializer, #index, #json, |_| ::core::result::Result::Ok(()))),
                quote!(content.fields::<D::Error>().map(|_| #value)),
            ),
            Style::Named => {
                let writes = ours.iter().map(|part| part.write(k, local(part)));
                let reads = parts::reads(&ours);
                (
                    quote! {
                        variants.fields(serializer, #index, #json, |object| {
                            #(#writes)*
                            ::core::result::Result::Ok(())
                        })
                    },
                    quote!({
                        let mut object = content.fields()?;
                        #reads
                        ::core::result::Result::Ok(#value)
                    }),
                )
            }
            Style::Tuple => {
                let call = quote!(variants.newtype(serializer, #index, #json, #arg));
                let span = ours
                    .first()
                    .map_or_else(proc_macro2::Span::call_site, |p| p.span);
                (
                    // Stretched over a newtype's one field (see `Part::stretch`).
                    match ours.as_slice() {
                        [one] => one.stretch(call),
                        _ => call,
                    },
                    quote_spanned!(span=> {
                        let #content = content.value()?;
                        ::core::result::Result::Ok(#value)
                    }),
                )
            }
            Style::Unit => (
                quote!(variants.unit(serializer, #index, #json)),
                quote!(::core::result::Result::Ok(#value)),
            ),
        };
        Arms {
            def: quote!(#[doc = #doc] #vident #body,),
            clone: quote!(&#pattern => #clone,),
            eq: quote!((&#pattern, &#other) => true #(#equals)*,),
            debug: quote!(&#pattern => #debug,),
            write: quote!(&#pattern => #write,),
            read: quote!(#json => #read,),
        }
    }
}
