//! Spans as the model's [`Loc`]s: one conversion for both front ends (the CLI's spans come
//! from the files it parsed, the derive's from the compiler).

use proc_macro2::Span;

use crate::model::Loc;

/// Where `span` is in `file` (proc-macro2's columns are 0-based; `Loc`'s are 1-based).
pub fn loc(file: &str, span: Span) -> Loc {
    let (start, end) = (span.start(), span.end());
    Loc {
        file: file.to_owned(),
        line: start.line,
        column: start.column + 1,
        end_line: end.line,
        end_column: end.column + 1,
    }
}
