//! Token-level mutations of Rust sources, a fuzzer's kind of typo: a token deleted, duplicated,
//! or two tokens swapped (a group's delimiters are tokens of their own, so a mutant may not
//! even lex). Shared by `no_panic.rs` and the fuzz targets (`fuzz/`, which include this file).

#![allow(dead_code)] // each user calls its own part

use std::ops::Range;

use proc_macro2::{TokenStream, TokenTree};

/// One edit; token indices are taken modulo the number of tokens.
#[derive(Clone, Copy, Debug)]
pub enum Edit {
    /// The token is removed.
    Delete(usize),
    /// The token is written twice.
    Duplicate(usize),
    /// The two tokens change places.
    Swap(usize, usize),
}

/// A source cut into tokens: the text before the first token, then each token with the
/// whitespace and comments after it. Cut once: lexing is most of a mutant's cost.
pub struct Tokens {
    text: String,
    /// Where each piece starts; the prefix ends at the first.
    starts: Vec<usize>,
}

impl Tokens {
    /// `src` cut at its tokens; `None` when it does not lex or has no token.
    pub fn new(src: String) -> Option<Self> {
        let stream: TokenStream = src.parse().ok()?;
        let mut ranges = Vec::new();
        flatten(stream, &mut ranges);
        // Spans are only needed here: forget the text proc-macro2 keeps for them.
        proc_macro2::extra::invalidate_current_thread_spans();
        ranges.sort_by_key(|r| r.start);
        // A doc comment lexes as several tokens sharing its span: keep it once.
        let mut starts: Vec<usize> = Vec::new();
        let mut end = 0;
        for r in ranges {
            if r.start >= end {
                starts.push(r.start);
                end = r.end;
            }
        }
        // Every cut must fall on a character boundary.
        if starts.is_empty() || !starts.iter().all(|&s| src.is_char_boundary(s)) {
            return None;
        }
        Some(Tokens { text: src, starts })
    }

    /// The source, unmutated.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// How many tokens.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// The source with `edits` applied in order.
    pub fn mutate(&self, edits: &[Edit]) -> String {
        let ends = self.starts.iter().skip(1).copied().chain([self.text.len()]);
        let mut pieces: Vec<&str> = self
            .starts
            .iter()
            .zip(ends)
            .map(|(&s, e)| &self.text[s..e])
            .collect();
        for &edit in edits {
            let n = pieces.len();
            if n == 0 {
                break;
            }
            match edit {
                Edit::Delete(i) => {
                    pieces.remove(i % n);
                }
                Edit::Duplicate(i) => pieces.insert(i % n, pieces[i % n]),
                Edit::Swap(i, j) => pieces.swap(i % n, j % n),
            }
        }
        let mut out = self.text[..self.starts[0]].to_owned();
        for piece in pieces {
            // A token moved next to another must stay separate from it.
            if !piece.ends_with(char::is_whitespace) {
                out.push_str(piece);
                out.push(' ');
            } else {
                out.push_str(piece);
            }
        }
        out
    }
}

/// The byte range of every token of `stream`, each delimiter of a group on its own.
fn flatten(stream: TokenStream, out: &mut Vec<Range<usize>>) {
    for tree in stream {
        match tree {
            TokenTree::Group(group) => {
                out.push(group.span_open().byte_range());
                flatten(group.stream(), out);
                out.push(group.span_close().byte_range());
            }
            other => out.push(other.span().byte_range()),
        }
    }
}
