//! The text of the files diagnostics point into, read once each, and locations turned into
//! byte ranges.

use std::collections::HashMap;
use std::ops::Range;

use kubegen_core::model::Loc;

/// Source files by name, as read when first needed.
#[derive(Default)]
pub struct Sources {
    texts: HashMap<String, Option<String>>,
}

impl Sources {
    /// The text of `file`, if it can be read.
    pub fn text(&mut self, file: &str) -> Option<&str> {
        self.texts
            .entry(file.to_owned())
            .or_insert_with(|| std::fs::read_to_string(file).ok())
            .as_deref()
    }
}

/// The byte range `loc` covers in `text` (its columns count characters); `None` when the
/// location is not in the text (the file changed since).
pub fn byte_range(text: &str, loc: &Loc) -> Option<Range<usize>> {
    let start = offset(text, loc.line, loc.column)?;
    let end = offset(text, loc.end_line, loc.end_column).unwrap_or(start);
    Some(start..end.max(start))
}

/// The byte offset of 1-based `line`, `column` (characters).
fn offset(text: &str, line: usize, column: usize) -> Option<usize> {
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n').nth(line - 2)?.0 + 1
    };
    // `line_start` is 0 or just after a `\n`: a character boundary.
    let rest = &text[line_start..];
    let line_text = rest.split('\n').next().unwrap_or("");
    let by_chars = line_text
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(line_text.len()))
        .nth(column.checked_sub(1)?)?;
    Some(line_start + by_chars)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(line: usize, column: usize, end_line: usize, end_column: usize) -> Loc {
        Loc {
            file: String::new(),
            line,
            column,
            end_line,
            end_column,
        }
    }

    #[test]
    fn locations_become_byte_ranges() {
        let text = "ab\n\u{e9}xyz\nlast";
        assert_eq!(byte_range(text, &loc(1, 1, 1, 3)), Some(0..2));
        // `é` is two bytes: column 2 starts at byte 5.
        assert_eq!(byte_range(text, &loc(2, 2, 2, 4)), Some(5..7));
        assert_eq!(byte_range(text, &loc(2, 1, 3, 5)), Some(3..13));
        assert_eq!(byte_range(text, &loc(9, 1, 9, 2)), None);
    }
}
