//! The Rust source of a module, formatted by `prettyplease` (the book's "Importing
//! third-party CRDs" says why not rustfmt).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

use super::model::{Enum, Field, Item, Marker, MarkerValue, Module, NOTE, Newtype, Struct, Ty};

pub use crate::header::RUST_HEADER;

/// A module's source file: the header line, then its types.
pub fn module(module: &Module) -> String {
    module_from(module, "its CRD by `kubegen import crd`")
}

/// A module's source file, its doc naming where it comes `from`.
pub fn module_from(module: &Module, from: &str) -> String {
    let items = module.items.iter().map(item);
    let schemas = module.items.iter().any(|i| {
        !matches!(
            i,
            Item::Struct(Struct {
                resource: Some(_),
                ..
            })
        )
    });
    let derives = if schemas {
        quote!({ CustomResource, KubeSchema })
    } else {
        quote!(CustomResource)
    };
    let file: syn::File = syn::parse_quote! {
        use kubegen::#derives;
        use serde::{Deserialize, Serialize};
        #(#items)*
    };
    // A blank line between items, as rustfmt leaves them (prettyplease writes none).
    let text = prettyplease::unparse(&file)
        .replace("\n}\n", "\n}\n\n")
        .replace(";\n#[derive", ";\n\n#[derive")
        .replace(";\n///", ";\n\n///");
    let text = notes(text.trim_end());
    let doc = format!(
        "//! `{}/{}`, imported from {from}.\n",
        module.group, module.version
    );
    format!("{RUST_HEADER}{doc}\n{text}\n")
}

/// The [`NOTE`] attributes as the comments they stand for.
fn notes(text: &str) -> String {
    let attr = format!("#[{NOTE} = ");
    text.lines()
        .map(|line| match line.trim_start().strip_prefix(&attr) {
            Some(rest) => {
                let indent = &line[..line.len() - line.trim_start().len()];
                let value: String = syn::parse_str::<syn::LitStr>(rest.trim_end_matches(']'))
                    .map(|l| l.value())
                    .unwrap_or_default();
                format!("{indent}// kubegen import: {value}\n")
            }
            None => format!("{line}\n"),
        })
        .collect()
}

fn item(item: &Item) -> TokenStream {
    match item {
        Item::Struct(s) => strukt(s),
        Item::Enum(e) => enumeration(e),
        Item::Newtype(n) => newtype(n),
    }
}

fn strukt(s: &Struct) -> TokenStream {
    let name = format_ident!("{}", s.name);
    let doc = doc(s.doc.as_deref());
    let derive = if s.resource.is_some() {
        quote!(CustomResource)
    } else {
        quote!(KubeSchema)
    };
    let resource = s.resource.as_deref().map(markers);
    let keys = markers(&s.markers);
    let camel = s
        .camel_case
        .then(|| quote!(#[serde(rename_all = "camelCase")]));
    let fields = s.fields.iter().map(field);
    quote! {
        #doc
        #[derive(#derive, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #resource
        #keys
        #camel
        pub struct #name {
            #(#fields),*
        }
    }
}

fn field(f: &Field) -> TokenStream {
    let name = format_ident!("{}", f.rust);
    let doc = doc(f.doc.as_deref());
    let rename = f.rename.as_ref().map(|r| quote!(#[serde(rename = #r)]));
    let skip = matches!(f.ty, Ty::Option(_))
        .then(|| quote!(#[serde(default, skip_serializing_if = "Option::is_none")]));
    let flatten = f.flatten.then(|| quote!(#[serde(flatten)]));
    let keys = markers(&f.markers);
    let ty = ty(&f.ty);
    let cfg = f.feature.as_ref().map(|f| quote!(#[cfg(feature = #f)]));
    quote! {
        #cfg
        #doc
        #rename
        #skip
        #flatten
        #keys
        pub #name: #ty
    }
}

fn enumeration(e: &Enum) -> TokenStream {
    let name = format_ident!("{}", e.name);
    let doc = doc(e.doc.as_deref());
    let keys = markers(&e.markers);
    let variants = e.variants.iter().map(|(v, rename)| {
        let v = format_ident!("{}", v);
        let rename = rename.as_ref().map(|r| quote!(#[serde(rename = #r)]));
        quote!(#rename #v)
    });
    quote! {
        #doc
        #[derive(KubeSchema, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
        #keys
        pub enum #name {
            #(#variants),*
        }
    }
}

fn newtype(n: &Newtype) -> TokenStream {
    let name = format_ident!("{}", n.name);
    let doc = doc(n.doc.as_deref());
    let keys = markers(&n.markers);
    let ty = ty(&n.ty);
    quote! {
        #doc
        #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #keys
        #[serde(transparent)]
        pub struct #name(pub #ty);
    }
}

fn ty(t: &Ty) -> TokenStream {
    match t {
        Ty::Named(n) => {
            let n = format_ident!("{}", n);
            quote!(#n)
        }
        Ty::Path(p) => p.parse().unwrap_or_default(),
        Ty::Extern(p) => p.parse().unwrap_or_default(),
        Ty::Vec(t) => {
            let t = ty(t);
            quote!(Vec<#t>)
        }
        Ty::Map(t) => {
            let t = ty(t);
            quote!(std::collections::BTreeMap<String, #t>)
        }
        Ty::Option(t) => {
            let t = ty(t);
            quote!(Option<#t>)
        }
    }
}

fn doc(text: Option<&str>) -> TokenStream {
    let lines = text
        .into_iter()
        .flat_map(|t| t.split('\n'))
        .map(|l| format!(" {l}"));
    quote!(#(#[doc = #lines])*)
}

/// `#[kube_marker(...)]` of some keys, or nothing; each [`NOTE`] first, as an attribute
/// [`notes`] makes a comment of.
fn markers(keys: &[Marker]) -> TokenStream {
    let (noted, keys): (Vec<&Marker>, Vec<Marker>) = (
        keys.iter().filter(|m| m.key == NOTE).collect(),
        keys.iter().filter(|m| m.key != NOTE).cloned().collect(),
    );
    let note = format_ident!("{NOTE}");
    let noted = noted.into_iter().map(|m| match &m.value {
        MarkerValue::Str(s) => quote!(#[#note = #s]),
        _ => quote!(),
    });
    let keys = (!keys.is_empty()).then(|| {
        let args = args(&keys);
        quote!(#[kube_marker(#args)])
    });
    quote!(#(#noted)* #keys)
}

fn args(keys: &[Marker]) -> TokenStream {
    let args = keys.iter().map(|m| {
        let key = format_ident!("{}", m.key);
        match &m.value {
            MarkerValue::Flag => quote!(#key),
            MarkerValue::False => quote!(#key = false),
            MarkerValue::Str(s) => quote!(#key = #s),
            MarkerValue::Number(n) => {
                let n = number(*n);
                quote!(#key = #n)
            }
            MarkerValue::Count(n) => {
                let n = Literal::i64_unsuffixed(*n);
                quote!(#key = #n)
            }
            MarkerValue::List(items) => quote!(#key = [#(#items),*]),
            MarkerValue::Nested(inner) => {
                let inner = args(inner);
                quote!(#key(#inner))
            }
            MarkerValue::Json(v) => match literal(v) {
                Some(lit) => quote!(#key = #lit),
                None => {
                    let key = format_ident!("{}_json", m.key);
                    let json = v.to_string();
                    quote!(#key = #json)
                }
            },
        }
    });
    quote!(#(#args),*)
}

/// A number as a literal: whole numbers without a fraction.
fn number(n: f64) -> TokenStream {
    let lit = if n.fract() == 0.0 && n.abs() < 1e15 {
        Literal::i64_unsuffixed(n.abs() as i64)
    } else {
        Literal::f64_unsuffixed(n.abs())
    };
    if n < 0.0 { quote!(-#lit) } else { quote!(#lit) }
}

/// A JSON value the marker parser reads as a literal: a scalar, or an array of scalars.
fn literal(v: &Value) -> Option<TokenStream> {
    match v {
        Value::Bool(b) => Some(quote!(#b)),
        Value::String(s) => Some(quote!(#s)),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => {
                let lit = Literal::i64_unsuffixed(i.abs());
                Some(if i < 0 { quote!(-#lit) } else { quote!(#lit) })
            }
            (None, Some(f)) if f.fract() != 0.0 => Some(number(f)),
            _ => None,
        },
        Value::Array(items) if !items.is_empty() => {
            let items: Option<Vec<TokenStream>> = items
                .iter()
                .map(|i| (!i.is_array()).then(|| literal(i)).flatten())
                .collect();
            let items = items?;
            Some(quote!([#(#items),*]))
        }
        _ => None,
    }
}
