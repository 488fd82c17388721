//! The engine reports problems at [`Loc`]s; the derive finds the token each one starts at, so
//! its `compile_error!` is placed exactly where the CLI's caret is.

use std::collections::HashMap;

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;

use kubegen_core::model::Loc;

/// The item's tokens by where they start.
pub struct Spans {
    starts: HashMap<(usize, usize), Span>,
    /// Each literal on one line: its line, first and past-the-end columns.
    literals: Vec<(usize, usize, usize, Span)>,
    fallback: Span,
}

impl Spans {
    /// Every token of `item` (inside groups too); `fallback` is used for problems without a
    /// location.
    pub fn of(item: &impl ToTokens, fallback: Span) -> Spans {
        let mut spans = Spans {
            starts: HashMap::new(),
            literals: Vec::new(),
            fallback,
        };
        spans.walk(item.to_token_stream());
        spans
    }

    /// The token `loc` starts at; for a place inside a literal (the part of a CEL rule at
    /// fault, which only the CLI can underline alone), the literal; else the fallback.
    pub fn at(&self, loc: Option<&Loc>) -> Span {
        let Some(l) = loc else {
            return self.fallback;
        };
        let inside = |&&(line, start, end, _): &&(usize, usize, usize, Span)| {
            line == l.line && l.end_line == line && start < l.column && l.end_column < end
        };
        self.starts
            .get(&(l.line, l.column))
            .or_else(|| self.literals.iter().find(inside).map(|(.., span)| span))
            .copied()
            .unwrap_or(self.fallback)
    }

    fn walk(&mut self, tokens: TokenStream) {
        for tree in tokens {
            // A group's span covers its delimiters and what is inside, as darling's errors do.
            let span = tree.span();
            let (start, end) = (span.start(), span.end());
            match &tree {
                TokenTree::Group(g) => self.walk(g.stream()),
                TokenTree::Literal(_) if start.line == end.line => {
                    self.literals
                        .push((start.line, start.column + 1, end.column + 1, span));
                }
                _ => {}
            }
            self.starts
                .entry((start.line, start.column + 1))
                .or_insert(span);
        }
    }
}

/// The derive's way of turning spans into locations: the same as the CLI's, with the file as
/// the compiler names it.
pub fn locate(span: Span) -> Option<Loc> {
    Some(kubegen_core::parse::span::loc(&span.file(), span))
}
