//! Diagnostics: every error and warning kubegen reports, in the engine, the derive and the CLI.
//! One type, shaped as rustc's: a level, a headline, a primary span with an optional label,
//! secondary labels, notes and a help that may carry a replacement for the primary span. The
//! derive turns one into a spanned `compile_error!`; the CLI renders it as rustc does (source
//! lines and carets) or as cargo's JSON.

use std::fmt;

use super::Loc;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Nothing is generated.
    #[default]
    Error,
    /// Generation goes on; the user should still hear about it.
    Warning,
}

impl Level {
    /// `error` or `warning`, as rustc and cargo's JSON write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
        }
    }
}

/// A secondary span with its text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Label {
    /// Where.
    pub loc: Loc,
    /// What it says there.
    pub message: String,
}

/// A `help:` line; with a replacement, the text that fixes the primary span.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Help {
    /// The help, in words.
    pub message: String,
    /// What to write instead of the primary span, when kubegen knows.
    pub replacement: Option<String>,
}

/// One problem, with where it is. Diagnostics sort by location.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Diagnostic {
    /// The primary span, when the front end knows it.
    pub loc: Option<Loc>,
    /// Error or warning.
    pub level: Level,
    /// What the problem is about, e.g. `MemcachedSpec.size`: shown before the message when there
    /// is no span to point at.
    pub context: String,
    /// What is wrong.
    pub message: String,
    /// Text under the primary span's carets.
    pub label: Option<String>,
    /// Other places that explain the problem.
    pub labels: Vec<Label>,
    /// `note:` lines.
    pub notes: Vec<String>,
    /// The `help:` line.
    pub help: Option<Help>,
}

/// A diagnostic of level [`Level::Error`].
pub type Error = Diagnostic;

/// A diagnostic of level [`Level::Warning`]: generation goes on.
pub type Warning = Diagnostic;

impl Diagnostic {
    /// A new error about `context`.
    pub fn new(loc: Option<&Loc>, context: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            loc: loc.cloned(),
            level: Level::Error,
            context: context.into(),
            message: message.into(),
            label: None,
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// A new warning about `context`.
    pub fn warning(
        loc: Option<&Loc>,
        context: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            level: Level::Warning,
            ..Diagnostic::new(loc, context, message)
        }
    }

    /// An error about nothing in the sources (a command-line or workspace problem).
    pub fn plain(message: impl Into<String>) -> Self {
        Diagnostic::new(None, "", message)
    }

    /// With a label under the primary span.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// With a `note:`.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// With a `help:`, and the text that replaces the primary span when there is one.
    pub fn with_help(mut self, message: impl Into<String>, replacement: Option<String>) -> Self {
        self.help = Some(Help {
            message: message.into(),
            replacement,
        });
        self
    }

    /// The headline: the message, after the context when there is no span to show it.
    pub fn headline(&self) -> String {
        if self.context.is_empty() || self.loc.is_some() {
            self.message.clone()
        } else {
            format!("{}: {}", self.context, self.message)
        }
    }

    /// The text a front end that can show only one line per span writes (the derive's
    /// `compile_error!`): the headline, then each note and the help.
    pub fn one_message(&self) -> String {
        let mut text = self.headline();
        for note in &self.notes {
            text.push_str(&format!("\n= note: {note}"));
        }
        if let Some(help) = &self.help {
            text.push_str(&format!("\n= help: {}", help.message));
        }
        text
    }
}

impl fmt::Display for Diagnostic {
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

impl std::error::Error for Diagnostic {}

/// Several problems, reported together: iterate them, print them (`Display`, one a line) or
/// [`render`](Errors::rendered) them as rustc would.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Errors(#[doc(hidden)] pub Vec<Error>);

impl Errors {
    /// Each problem, in the order found.
    pub fn iter(&self) -> std::slice::Iter<'_, Error> {
        self.0.iter()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

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

impl IntoIterator for Errors {
    type Item = Error;
    type IntoIter = std::vec::IntoIter<Error>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Errors {
    type Item = &'a Error;
    type IntoIter = std::slice::Iter<'a, Error>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
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

impl Errors {
    /// The errors as rustc prints its own, without the source lines (`error: ...`, `--> file`,
    /// `= note:`, `= help:`): readable where only text can go, such as the panic of a test
    /// that calls `kubegen::check_defaults`.
    pub fn rendered(&self) -> Rendered<'_> {
        Rendered(&self.0)
    }
}

/// Diagnostics in rustc's layout: see [`Errors::rendered`].
pub struct Rendered<'a>(&'a [Diagnostic]);

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n\n")?;
            }
            write!(f, "{}: {}", d.level.as_str(), d.headline())?;
            if let Some(loc) = &d.loc {
                write!(f, "\n  --> {loc}")?;
            }
            for note in &d.notes {
                write!(f, "\n   = note: {note}")?;
            }
            if let Some(help) = &d.help {
                write!(f, "\n   = help: {}", help.message)?;
            }
        }
        Ok(())
    }
}

impl From<String> for Diagnostic {
    /// An error about nothing in the sources, in words.
    fn from(message: String) -> Self {
        Diagnostic::plain(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_render_as_rustc_lays_them_out() {
        let at = Loc::at("src/api.rs", 12, 5);
        let errors = Errors(vec![
            Diagnostic::new(Some(&at), "PoolSpec.port", "the schema's default is 80")
                .with_note("serde's is 90")
                .with_help("make them agree", None),
            Diagnostic::new(None, "PoolSpec", "no location"),
        ]);
        assert_eq!(
            errors.rendered().to_string(),
            "error: the schema's default is 80\n  --> src/api.rs:12:5\n   = note: serde's is 90\n   \
             = help: make them agree\n\nerror: PoolSpec: no location"
        );
    }
}
