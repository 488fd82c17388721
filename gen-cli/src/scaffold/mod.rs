//! `kubegen init`, `kubegen create api` and `kubegen create webhook`: a new operator crate and
//! its kinds, from the templates under `gen-cli/templates/`. Files are only ever created or
//! extended at `kubegen:scaffold:*` marker comments (`files`); the manifests are then
//! regenerated as `kubegen manifests` does.

pub mod api;
mod files;
pub mod init;
mod names;
mod project;
mod template;
mod vendor;
pub mod webhook;

use std::path::Path;

use crate::generate::What;
use crate::options::Options;
use crate::report::Reporter;
use kubegen_core::model::Diagnostic;

pub use names::Names;
pub use project::Project;

/// Whether a command succeeded, its error printed.
pub fn report(result: Result<(), Diagnostic>, reporter: &Reporter) -> bool {
    match result {
        Ok(()) => true,
        Err(error) => {
            reporter.emit_all(&[error]);
            false
        }
    }
}

/// Applies `changes` under `root`, formats the Rust files it created (with `rustfmt`, when
/// there is one) and prints what happened to each file.
fn apply(changes: files::Changes, root: &Path) -> Result<(), String> {
    let report = changes
        .apply(root)
        .map_err(|problems| format!("nothing was written:\n{}", problems.join("\n")))?;
    let created: Vec<_> = report
        .iter()
        .filter(|(path, outcome)| {
            *outcome == files::Outcome::Created && path.extension().is_some_and(|e| e == "rs")
        })
        .map(|(path, _)| root.join(path))
        .collect();
    if !created.is_empty() {
        // Formatting is a nicety: without rustfmt the files are still valid.
        let _ = std::process::Command::new("rustfmt")
            .args(["--edition", "2024"])
            .args(&created)
            .status();
    }
    files::print(root, &report);
    Ok(())
}

/// Regenerates the project's manifests, as `kubegen manifests --manifest-path
/// <root>/Cargo.toml` does.
fn manifests(root: &Path, reporter: &Reporter) -> Result<(), Diagnostic> {
    let options = Options {
        packages: Vec::new(),
        manifest_path: Some(root.join("Cargo.toml")),
        out_dir: "config".into(),
        check: false,
        stdout: false,
        kubernetes: None,
        features: Default::default(),
        config: Default::default(),
    };
    if crate::manifests::run(&options, What::ALL, false, reporter) {
        Ok(())
    } else {
        Err(Diagnostic::plain(
            "the files above are written, but the manifests could not be regenerated",
        )
        .with_help(
            format!(
                "fix what is reported and run `{}`",
                crate::hint::command("manifests")
            ),
            None,
        ))
    }
}
