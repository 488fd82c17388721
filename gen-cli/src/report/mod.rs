//! How gen-cli tells the user about problems: every error and warning is a
//! [`Diagnostic`], printed as rustc prints its own (`human`:
//! source lines, carets, labels, `= help:`) or as rustc's JSON diagnostics (`json`), one object
//! a line, for editors and CI.

mod human;
mod json;
mod source;

use std::io::{IsTerminal, Write};

use clap::ValueEnum;
use kubegen_core::model::{Diagnostic, Level};

pub use source::Sources;

/// `--message-format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum MessageFormat {
    /// As rustc prints: a headline, the source lines with carets, notes and help.
    #[default]
    Human,
    /// One JSON object per diagnostic on standard output, with rustc's (and cargo's) fields.
    Json,
}

/// `--color`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// Color on a terminal, unless `NO_COLOR` is set.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Prints diagnostics in the chosen format.
#[derive(Clone, Copy, Debug)]
pub struct Reporter {
    format: MessageFormat,
    color: bool,
}

impl Default for Reporter {
    fn default() -> Self {
        Reporter::new(MessageFormat::Human, Color::Never)
    }
}

impl Reporter {
    /// A reporter; `Color::Auto` colors when standard error is a terminal and `NO_COLOR` is
    /// unset or empty.
    pub fn new(format: MessageFormat, color: Color) -> Reporter {
        let color = match color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::io::stderr().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        };
        Reporter { format, color }
    }

    /// Prints one diagnostic: human ones on standard error, JSON on standard output.
    pub fn emit(&self, diagnostic: &Diagnostic, sources: &mut Sources) {
        match self.format {
            MessageFormat::Human => {
                let text = human::render(diagnostic, sources, self.color);
                let _ = writeln!(std::io::stderr().lock(), "{text}\n");
            }
            MessageFormat::Json => {
                let rendered = human::render(diagnostic, sources, false);
                let value = json::render(diagnostic, sources, &rendered);
                let _ = writeln!(std::io::stdout().lock(), "{value}");
            }
        }
    }

    /// Prints each.
    pub fn emit_all(&self, diagnostics: &[Diagnostic]) {
        let mut sources = Sources::default();
        for d in diagnostics {
            self.emit(d, &mut sources);
        }
    }

    /// Prints each, then (human format) how many errors there were and `outcome` (what kubegen
    /// did about them: "nothing was written").
    pub fn emit_failure(&self, diagnostics: &[Diagnostic], outcome: &str) {
        self.emit_all(diagnostics);
        let errors = diagnostics
            .iter()
            .filter(|d| d.level == Level::Error)
            .count();
        if errors > 1 && self.format == MessageFormat::Human {
            self.error(format!("kubegen found {errors} problems; {outcome}"));
        } else if errors == 1 && self.format == MessageFormat::Human {
            self.error(format!("kubegen found 1 problem; {outcome}"));
        }
    }

    /// An error that is about no source file (a command line, workspace or file-system
    /// problem).
    pub fn error(&self, message: impl Into<String>) {
        self.emit(&Diagnostic::plain(message), &mut Sources::default());
    }
}
