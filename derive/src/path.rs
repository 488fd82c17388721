//! How the generated code names kubegen: the one place every generated path starts from.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};

/// The path to kubegen: the `crate = "..."` given (`#[kube_marker]`'s on a derived type,
/// `#[webhook]`'s on a handler), spanned at that string so that a path that does not resolve
/// is reported there; else `::kubegen`.
#[derive(Clone)]
pub struct Kubegen(Option<syn::Path>);

impl Kubegen {
    /// The path `given`, or `::kubegen`.
    pub fn new(given: Option<&syn::Path>) -> Kubegen {
        Kubegen(given.cloned())
    }

    /// The path for tokens spanned at `span` (`quote_spanned!`): `::kubegen` at `span` too, so
    /// that the error of a type naming it is where the type is; a given path keeps its span.
    pub fn at(&self, span: Span) -> TokenStream {
        match &self.0 {
            Some(path) => path.to_token_stream(),
            None => quote::quote_spanned!(span=> ::kubegen),
        }
    }

    /// A statement that fails to compile, naming both versions' mismatch, when the kubegen this
    /// path names is not of this derive's version (the derive embeds kubegen's model as JSON,
    /// which only the same version reads).
    pub fn same_version(&self) -> TokenStream {
        let version = env!("CARGO_PKG_VERSION");
        quote!(#self::__private::derive_version!(#version);)
    }

    /// The path followed by `rest` (`::__private::serde`), as the text of a string attribute
    /// (`#[serde(crate = "...")]`).
    pub fn text(&self, rest: &str) -> String {
        let path = self.to_token_stream().to_string().replace(' ', "");
        format!("{path}{rest}")
    }
}

impl ToTokens for Kubegen {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match &self.0 {
            Some(path) => path.to_tokens(tokens),
            None => tokens.extend(quote!(::kubegen)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Kubegen;

    #[test]
    fn the_default_is_kubegen_and_a_given_path_replaces_it() {
        let default = Kubegen::new(None);
        assert_eq!(quote::quote!(#default::X).to_string(), ":: kubegen :: X");
        assert_eq!(
            default.text("::__private::serde"),
            "::kubegen::__private::serde"
        );
        let given: syn::Path = syn::parse_quote!(my_sdk::kubegen);
        let given = Kubegen::new(Some(&given));
        assert_eq!(
            quote::quote!(#given::X).to_string(),
            "my_sdk :: kubegen :: X"
        );
        assert_eq!(
            given.at(proc_macro2::Span::call_site()).to_string(),
            "my_sdk :: kubegen"
        );
        assert_eq!(
            given.text("::__private::serde"),
            "my_sdk::kubegen::__private::serde"
        );
    }

    #[test]
    fn the_version_check_names_this_derive_s_version() {
        let check = Kubegen::new(None).same_version().to_string();
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            check,
            format!(":: kubegen :: __private :: derive_version ! (\"{version}\") ;")
        );
    }
}
