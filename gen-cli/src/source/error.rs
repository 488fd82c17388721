//! Errors from loading and resolving a crate's sources, each at a `file:line:col`.

use kubegen_core::model::Loc;
use proc_macro2::Span;
use std::fmt;
use std::io;
use std::path::Path;

/// A problem in a crate's sources: where it is and what it is.
///
/// Displays as `file:line:col: message`, the form editors and CI logs link to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError {
    /// Where the problem is.
    pub loc: Loc,
    /// What the problem is, in words.
    pub message: String,
}

impl SourceError {
    pub(super) fn new(loc: Loc, message: impl Into<String>) -> Self {
        SourceError {
            loc,
            message: message.into(),
        }
    }

    /// A file that could not be read, blamed on `loc` (the `mod` item that asked for it, or the
    /// file itself for the crate root).
    pub(super) fn io(loc: Loc, path: &Path, err: &io::Error) -> Self {
        SourceError::new(loc, format!("cannot read `{}`: {err}", path.display()))
    }

    /// A file that is not valid Rust, at the place syn stopped.
    pub(super) fn parse(file: &str, text: &str, err: &syn::Error) -> Self {
        let span = err.span();
        // syn reports "unexpected end of input" at the call site, which has no place in the
        // file (its range is empty at offset 0): blame the end of the file instead.
        let loc = if span.byte_range() == (0..0) {
            end_of(file, text)
        } else {
            span_loc(file, span)
        };
        let message = match err.to_string().as_str() {
            // proc-macro2's tokenizer error says nothing about the cause.
            "cannot parse string into token stream" => {
                "unbalanced delimiter or unterminated literal".to_owned()
            }
            message => message.to_owned(),
        };
        SourceError::new(loc, format!("syntax error: {message}"))
    }
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.loc, self.message)
    }
}

impl std::error::Error for SourceError {}

/// Where `span` is in `file`.
pub(super) fn span_loc(file: &str, span: Span) -> Loc {
    kubegen_core::parse::span::loc(file, span)
}

/// The first token of `span` in the file at `path` (shown as `file`), read again: this runs
/// only when there is an error to report. The whole span when the file cannot be read again.
pub(super) fn first_token(path: &Path, file: &str, span: Span) -> Loc {
    let whole = span_loc(file, span);
    let tokens = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| text.parse::<proc_macro2::TokenStream>().ok());
    let mut found = None;
    if let Some(tokens) = tokens {
        find_token(tokens, (whole.line, whole.column), file, &mut found);
    }
    found.unwrap_or(whole)
}

/// The token (a whole group, delimiters included, for a group) that starts at `start`.
fn find_token(
    tokens: proc_macro2::TokenStream,
    start: (usize, usize),
    file: &str,
    found: &mut Option<Loc>,
) {
    for tree in tokens {
        if found.is_some() {
            return;
        }
        let loc = span_loc(file, tree.span());
        if (loc.line, loc.column) == start {
            *found = Some(loc);
            return;
        }
        if let proc_macro2::TokenTree::Group(g) = tree {
            find_token(g.stream(), start, file, found);
        }
    }
}

/// The first line and column of `file`.
pub(super) fn file_start(file: &str) -> Loc {
    Loc::at(file, 1, 1)
}

/// The place just after the last character of `text`.
fn end_of(file: &str, text: &str) -> Loc {
    let line = text.split('\n').count();
    let last = text.rsplit('\n').next().unwrap_or("");
    Loc::at(file, line, last.chars().count() + 1)
}
