//! The one `cfg` we can evaluate without compiling: "only when testing".
//!
//! `gen-cli` describes the crate as a normal build sees it, so items that exist only under
//! `cfg(test)` are left out. Every other `cfg` is kept, whatever it says (see the module docs).

use syn::punctuated::Punctuated;
use syn::{Attribute, Meta, Token};

/// Whether `attrs` hold a `#[cfg(..)]` (or `#![cfg(..)]`) that is false unless compiling tests:
/// `test`, `all(.., test, ..)`, `any(test, all(test, ..))`.
pub(super) fn is_test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg") && attr.parse_args::<Meta>().is_ok_and(|p| requires_test(&p))
    })
}

/// Whether the cfg predicate `predicate` can only hold when `test` does.
fn requires_test(predicate: &Meta) -> bool {
    match predicate {
        Meta::Path(path) => path.is_ident("test"),
        Meta::List(list) => {
            let Ok(args) = list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            else {
                return false;
            };
            if list.path.is_ident("all") {
                args.iter().any(requires_test)
            } else if list.path.is_ident("any") {
                !args.is_empty() && args.iter().all(requires_test)
            } else {
                false
            }
        }
        Meta::NameValue(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_test_only;
    use syn::parse_quote;

    fn test_only(item: syn::ItemStruct) -> bool {
        is_test_only(&item.attrs)
    }

    #[test]
    fn test_predicates() {
        assert!(test_only(parse_quote!(
            #[cfg(test)]
            struct A;
        )));
        assert!(test_only(parse_quote!(
            #[cfg(all(test, feature = "x"))]
            struct A;
        )));
        assert!(test_only(parse_quote!(
            #[cfg(all(unix, all(test)))]
            struct A;
        )));
        assert!(test_only(parse_quote!(
            #[cfg(any(test, all(test, unix)))]
            struct A;
        )));
        assert!(test_only(parse_quote!(
            #[derive(Debug)]
            #[cfg(test)]
            struct A;
        )));
    }

    #[test]
    fn other_predicates_are_kept() {
        assert!(!test_only(parse_quote!(
            struct A;
        )));
        assert!(!test_only(parse_quote!(
            #[cfg(not(test))]
            struct A;
        )));
        assert!(!test_only(parse_quote!(
            #[cfg(any(test, unix))]
            struct A;
        )));
        assert!(!test_only(parse_quote!(
            #[cfg(any())]
            struct A;
        )));
        assert!(!test_only(parse_quote!(
            #[cfg(feature = "test")]
            struct A;
        )));
        assert!(!test_only(parse_quote!(
            #[cfg_attr(test, derive(Debug))]
            struct A;
        )));
        assert!(!test_only(parse_quote!(
            #[cfg(tests)]
            struct A;
        )));
    }
}
