//! The engine reports problems at [`Loc`]s; the derive finds the token each one starts at, so
//! its `compile_error!` is placed exactly where the CLI's caret is.

use std::collections::HashMap;

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;

use kubegen_core::model::Loc;

/// The item's tokens by where they start.
pub struct Spans {
    starts: HashMap<(usize, usize), Span>,
    fallback: Span,
}

impl Spans {
    /// Every token of `item` (inside groups too); `fallback` is used for problems without a
    /// location.
    pub fn of(item: &impl ToTokens, fallback: Span) -> Spans {
        let mut starts = HashMap::new();
        walk(item.to_token_stream(), &mut starts);
        Spans { starts, fallback }
    }

    /// The token `loc` starts at (the fallback when there is none).
    pub fn at(&self, loc: Option<&Loc>) -> Span {
        loc.and_then(|l| self.starts.get(&(l.line, l.column)))
            .copied()
            .unwrap_or(self.fallback)
    }
}

fn walk(tokens: TokenStream, starts: &mut HashMap<(usize, usize), Span>) {
    for tree in tokens {
        // A group's span covers its delimiters and what is inside, as darling's errors do.
        let span = tree.span();
        if let TokenTree::Group(g) = &tree {
            walk(g.stream(), starts);
        }
        let start = span.start();
        starts.entry((start.line, start.column + 1)).or_insert(span);
    }
}

/// The derive's way of turning spans into locations: the same as the CLI's, with the file as
/// the compiler names it.
pub fn locate(span: Span) -> Option<Loc> {
    Some(kubegen_core::parse::span::loc(&span.file(), span))
}
