use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Serialize};

/// A span in a source file: 1-based lines and columns (as editors show them), the end
/// exclusive. Columns count characters.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Loc {
    /// The file, as given to the tool (usually relative to the workspace root).
    pub file: String,
    /// 1-based line of the first character.
    pub line: usize,
    /// 1-based column of the first character.
    pub column: usize,
    /// 1-based line of the end.
    pub end_line: usize,
    /// 1-based column just past the last character.
    pub end_column: usize,
}

impl Loc {
    /// The part of this span, a string literal holding `text`, that holds the characters
    /// `chars` of `text`: when the literal is written plainly on one line (`"…"` without
    /// escapes, the one form in which positions in the value are positions in the source),
    /// and the part is not the whole. `None` otherwise.
    pub fn within(&self, text: &str, chars: Range<usize>) -> Option<Loc> {
        let len = text.chars().count();
        let plain = self.line == self.end_line && self.end_column == self.column + len + 2;
        let part = chars.start < chars.end && chars.end <= len && chars.end - chars.start < len;
        (plain && part).then(|| Loc {
            file: self.file.clone(),
            line: self.line,
            column: self.column + 1 + chars.start,
            end_line: self.line,
            end_column: self.column + 1 + chars.end,
        })
    }

    /// A one-character span at `line:column` (a place known only by its start).
    pub fn at(file: impl Into<String>, line: usize, column: usize) -> Loc {
        Loc {
            file: file.into(),
            line,
            column,
            end_line: line,
            end_column: column + 1,
        }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_of_a_plain_literal_is_found_in_the_source() {
        // `"self.a == 1"` written at column 10.
        let lit = Loc {
            end_column: 10 + 13,
            ..Loc::at("f.rs", 3, 10)
        };
        let part = lit.within("self.a == 1", 0..6).unwrap();
        assert_eq!((part.column, part.end_column), (11, 17));
        // The whole, an empty part, a literal with escapes or over lines: no part.
        assert_eq!(lit.within("self.a == 1", 0..11), None);
        assert_eq!(lit.within("self.a == 1", 2..2), None);
        let escaped = Loc {
            end_column: 10 + 14,
            ..lit.clone()
        };
        assert_eq!(escaped.within("self.a == 1", 0..6), None);
        let lines = Loc { end_line: 4, ..lit };
        assert_eq!(lines.within("self.a == 1", 0..6), None);
    }
}
