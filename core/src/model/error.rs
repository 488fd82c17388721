//! Errors found in the model: each names the place (type and field) and, when known, the
//! source location.

use std::fmt;

use super::Loc;

/// One problem, with where it is. Errors sort by location.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Error {
    /// The source location, when the front end knows it.
    pub loc: Option<Loc>,
    /// What the problem is about, e.g. `MemcachedSpec.size`.
    pub context: String,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl Error {
    /// A new error about `context`.
    pub fn new(loc: Option<&Loc>, context: impl Into<String>, message: impl Into<String>) -> Self {
        Error {
            loc: loc.cloned(),
            context: context.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.loc {
            write!(f, "{loc}: ")?;
        }
        if self.context.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.context, self.message)
        }
    }
}

impl std::error::Error for Error {}

/// Something that does not stop generation but that the user should hear about: the same
/// parts as an [`Error`]; front ends print it as a warning.
pub type Warning = Error;

/// Several problems, reported together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Errors(pub Vec<Error>);

impl Errors {
    /// Adds one.
    pub fn push(&mut self, error: Error) {
        self.0.push(error);
    }

    /// `Ok(value)` when there are none.
    pub fn into_result<T>(self, value: T) -> Result<T, Errors> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(self)
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<Error> for Errors {
    fn from(error: Error) -> Self {
        Errors(vec![error])
    }
}

impl fmt::Display for Errors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Errors {}
