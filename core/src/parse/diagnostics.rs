//! darling's errors (what the attribute grammar reports) as the engine's [`Diagnostic`]s, so
//! both front ends word and place them alike: darling's own wording (without the ` at key`
//! its `Display` adds), and a "did you mean" turned into a `help:` that, for an unknown key,
//! replaces the key.

use proc_macro2::{Span, TokenTree};

use crate::model::{Diagnostic, Loc};
use crate::names::SUGGESTION;

/// Each of darling's errors, with its span and as a diagnostic located by `locate`.
pub fn from_darling(
    error: darling::Error,
    locate: &dyn Fn(Span) -> Option<Loc>,
) -> Vec<(Span, Diagnostic)> {
    error
        .flatten()
        .into_iter()
        .map(|e| {
            let span = e.span();
            let text = words(&e);
            let mut d = Diagnostic::new(locate(span).as_ref(), "", text.clone());
            if let Some((before, rest)) = text.split_once(SUGGESTION)
                && let Some((suggestion, after)) = rest.split_once("`?")
            {
                d.message = format!("{before}{after}");
                let key = before.starts_with("Unknown field:");
                let (help, replacement) = if key {
                    (
                        "a key with a similar name exists",
                        Some(suggestion.to_string()),
                    )
                } else {
                    ("a value with a similar name exists", None)
                };
                d = d.with_help(format!("{help}: `{suggestion}`"), replacement);
            }
            (span, d)
        })
        .collect()
}

/// darling's text for one error, as its `compile_error!` shows it.
fn words(e: &darling::Error) -> String {
    e.clone()
        .write_errors()
        .into_iter()
        .find_map(|t| match t {
            TokenTree::Group(g) => syn::parse2::<syn::LitStr>(g.stream()).ok(),
            _ => None,
        })
        .map_or_else(|| e.to_string(), |lit| lit.value())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_become_help() {
        let e = darling::Error::unknown_field_with_alts("min_lenght", &["min_length", "pattern"]);
        let [(_, d)] = from_darling(e, &|_| None).try_into().unwrap();
        assert_eq!(d.message, "Unknown field: `min_lenght`");
        let help = d.help.unwrap();
        assert_eq!(
            help.message,
            "a key with a similar name exists: `min_length`"
        );
        assert_eq!(help.replacement.as_deref(), Some("min_length"));

        let e = darling::Error::custom(
            "unknown verb `lsit`. Did you mean `list`?; the verbs are get, list",
        );
        let [(_, d)] = from_darling(e, &|_| None).try_into().unwrap();
        assert_eq!(d.message, "unknown verb `lsit`; the verbs are get, list");
        assert_eq!(d.help.unwrap().replacement, None);

        let e = darling::Error::custom("plain");
        let [(_, d)] = from_darling(e, &|_| None).try_into().unwrap();
        assert_eq!((d.message.as_str(), d.help), ("plain", None));
    }
}
