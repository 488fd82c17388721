//! The tokens of a configuration's fields, shared by structs and the struct and tuple variants
//! of enums. Each field's tokens are spanned at the field's type, whose own tokens keep their
//! spans: a type without a schema is then the one error of `<T as ApplySchema>::apply_node`
//! beside the schema's `<T as KubeSchema>::shape()`, which the compiler reports once.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use kubegen_core::apply::plan::{self, FieldPlan, NodePlan};
use kubegen_core::model::Style;

use crate::path::Kubegen;

/// A field of a configuration.
pub struct Part<'a> {
    /// Its plan.
    pub plan: &'a FieldPlan,
    /// Its Rust name (`None` in tuple variants).
    pub ident: Option<Ident>,
    /// The local variable that holds it (its reference, in a `match` arm).
    pub local: Ident,
    /// The span of its type's first token: the field's tokens are spanned there.
    pub span: Span,
    /// The span of its type's last token.
    pub end: Span,
}

/// The parts of `fields`, whose locals are `{prefix}0`, `{prefix}1`, ...: names the user's
/// field names cannot shadow. Names and locals are spanned at the field's type too: a struct
/// literal's field is checked at them.
pub fn parts<'a>(fields: &'a [FieldPlan], prefix: &str) -> Vec<Part<'a>> {
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (span, end) = plan::ends(&f.ty);
            let mut name = f.ident.as_deref().map(ident);
            if let Some(name) = &mut name {
                name.set_span(span);
            }
            Part {
                plan: f,
                ident: name,
                local: format_ident!("{prefix}{i}", span = span),
                span,
                end,
            }
        })
        .collect()
}

impl Part<'_> {
    /// The field's type in the configuration: its value's, in an `Option` when optional.
    pub fn ty(&self) -> TokenStream {
        match self.plan.optional {
            true => self.around(quote!(::core::option::Option<), quote!(>)),
            false => self.plan.ty.to_token_stream(),
        }
    }

    /// The value's type between `open` and `close`, spanned at its first and last tokens: the
    /// compiler's span of the whole is then the field's type's, where the schema's error is.
    pub fn around(&self, open: TokenStream, close: TokenStream) -> TokenStream {
        let ty = &self.plan.ty;
        let open = respan(open, self.span);
        let close = respan(close, self.end);
        quote!(#open #ty #close)
    }

    /// `tokens` with the first spanned at the type's first token and the last at its last:
    /// where the compiler checks the field's type at an expression or a pattern, it reports
    /// the whole's span, which is then the type's.
    pub fn stretch(&self, tokens: TokenStream) -> TokenStream {
        let mut trees: Vec<TokenTree> = tokens.into_iter().collect();
        if let Some(first) = trees.first_mut() {
            first.set_span(self.span);
        }
        if let Some(last) = trees.last_mut() {
            last.set_span(self.end);
        }
        trees.into_iter().collect()
    }

    /// `self.<field>` (in a struct's impls).
    pub fn of_self(&self) -> TokenStream {
        let i = &self.ident;
        self.stretch(quote_spanned!(self.span=> self.#i))
    }

    /// The field's definition, `pub` in a struct (`vis`).
    pub fn def(&self, vis: TokenStream) -> TokenStream {
        let ty = self.ty();
        let Some(i) = &self.ident else {
            return quote!(#ty,);
        };
        let doc = match self.plan.flatten {
            true => "Flattened fields.".to_string(),
            false => format!("`{}`.", self.plan.json),
        };
        quote_spanned!(self.span=> #[doc = #doc] #vis #i: #ty,)
    }

    /// Writes the field, a reference to whose value is `value`, to `object` (a
    /// `kubegen::apply::__private::Writer`).
    pub fn write(&self, k: &Kubegen, value: TokenStream) -> TokenStream {
        let f = self.plan;
        let json = &f.json;
        match (&f.list_map, &f.node) {
            _ if f.flatten => quote_spanned!(self.span=> object.flatten(#value)?;),
            (Some(keys), NodePlan::List { item, .. }) => {
                let item = node(k, item);
                quote_spanned!(self.span=> object.list_map(#json, #value, &[#(#keys),*], &#item)?;)
            }
            _ => quote_spanned!(self.span=> object.field(#json, #value)?;),
        }
    }

    /// `.field(...)` of a `debug_struct` or `debug_tuple`, with the field's reference `value`.
    pub fn debug(&self, value: TokenStream) -> TokenStream {
        match &self.plan.ident {
            Some(name) => quote_spanned!(self.span=> .field(#name, #value)),
            None => quote_spanned!(self.span=> .field(#value)),
        }
    }
}

/// Reads the fields from `object` (a `kubegen::apply::__private::Object`) into their locals:
/// named fields first, then flattened ones from the entries left.
pub fn reads(parts: &[Part]) -> TokenStream {
    let (flat, named): (Vec<&Part>, Vec<&Part>) = parts.iter().partition(|p| p.plan.flatten);
    let named = named.iter().map(|p| {
        let (local, json) = (&p.local, &p.plan.json);
        quote_spanned!(p.span=> let #local = object.take(#json)?;)
    });
    let flat = flat.iter().map(|p| {
        let local = &p.local;
        quote_spanned!(p.span=> let #local = object.flattened()?;)
    });
    quote!(#(#named)* #(#flat)*)
}

/// `path { a: v0, b: v1 }`, `path(v0, v1)` or `path`, by `style`: a pattern or a value of a
/// struct or variant with `parts`, whose values are `value(part)`.
pub fn construct(
    path: TokenStream,
    style: Style,
    parts: &[Part],
    value: impl Fn(&Part) -> TokenStream,
) -> TokenStream {
    let values = parts.iter().map(|p| {
        let (ident, value) = (&p.ident, value(p));
        let label = ident.as_ref().map(|i| quote!(#i:));
        p.stretch(quote_spanned!(p.span=> #label #value))
    });
    match (style, parts) {
        (Style::Named, _) => quote!(#path { #(#values),* }),
        // A newtype variant's constructor is checked at its path, and its call.
        (Style::Tuple, [one]) => {
            let path = one.stretch(path);
            one.stretch(quote!(#path(#(#values),*)))
        }
        (Style::Tuple, _) => quote!(#path(#(#values),*)),
        (Style::Unit, _) => path,
    }
}

/// A `kubegen::apply::Node` expression for a static.
pub fn node(k: &Kubegen, n: &NodePlan) -> TokenStream {
    let kind = quote!(#k::apply::Node);
    match n {
        NodePlan::Value => quote!(#kind::Value),
        NodePlan::Type(ty) => {
            let at = k.at(ty.span());
            quote_spanned!(ty.span()=> #kind::Type(<#ty as #at::ApplySchema>::apply_node))
        }
        NodePlan::ItemsOf(ty) => {
            let at = k.at(ty.span());
            quote_spanned!(ty.span()=> #kind::Type(<#ty as #at::ApplySchema>::apply_item_node))
        }
        NodePlan::Object(fields) => {
            let fields = fields.iter().map(|(name, flatten, defaulted, n)| {
                let n = node(k, n);
                quote!(#k::apply::Field { name: #name, flatten: #flatten, defaulted: #defaulted, node: #n })
            });
            quote!(#kind::Object(&[#(#fields),*]))
        }
        NodePlan::OneOf(forms) => {
            let forms = forms.iter().map(|f| node(k, f));
            quote!(#kind::OneOf(&[#(#forms),*]))
        }
        NodePlan::List { keys, item } => {
            let list = match keys {
                None => quote!(#k::apply::ListKind::Atomic),
                Some(keys) if keys.is_empty() => quote!(#k::apply::ListKind::Set),
                Some(keys) => quote!(#k::apply::ListKind::Map(&[#(#keys),*])),
            };
            let item = node(k, item);
            quote!(#kind::List { kind: #list, item: &#item })
        }
        NodePlan::Map { atomic, value } => {
            let value = node(k, value);
            quote!(#kind::Map { atomic: #atomic, value: &#value })
        }
    }
}

/// `tokens` (with no groups) at `span`.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tree| {
            tree.set_span(span);
            tree
        })
        .collect()
}

/// The identifier of a field named `name` (raw when it is a keyword).
pub fn ident(name: &str) -> Ident {
    syn::parse_str::<Ident>(name).unwrap_or_else(|_| Ident::new_raw(name, Span::call_site()))
}
