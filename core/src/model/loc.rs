use serde::{Deserialize, Serialize};
use std::fmt;

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
