//! `kubegen migrate`: a kube-derive crate's attributes rewritten as kubegen's, by the engine's
//! migration table ([`kubegen_core::parse::foreign`]); [`table`] prints that table into the
//! README.

pub mod table;

use std::path::PathBuf;

use crate::report::Reporter;

/// `kubegen migrate`.
#[derive(Debug, Clone, clap::Args)]
pub struct MigrateArgs {
    /// Rewrite the generated table of attribute equivalents in this Markdown file (kubegen's
    /// README.md), and do nothing else.
    #[arg(long, value_name = "FILE", hide = true, required = true)]
    pub write_docs: Option<PathBuf>,
}

/// Runs `kubegen migrate`; `false` on an error.
pub fn run(args: &MigrateArgs, reporter: &Reporter) -> bool {
    if let Some(file) = &args.write_docs {
        return match crate::markers::page::write_with(file, table::refresh) {
            Ok(()) => true,
            Err(error) => {
                reporter.emit_all(&[error]);
                false
            }
        };
    }
    true
}
