//! cargo run on the package before it is migrated, with `--message-format json`: a build that
//! fails gives the compiler's first error, at its place, as the reason `migrate` refuses.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use cargo_metadata::Message;
use cargo_metadata::diagnostic::DiagnosticLevel;
use kubegen_core::model::{Diagnostic, Loc};

use crate::paths::display;

/// What a compiler error's message starts with.
pub const REFUSED: &str =
    "the package does not build before migration, so `migrate` leaves it alone: ";

/// A cargo command to run: `cargo <subcommand> --manifest-path <manifest> --message-format
/// json`, with these extra arguments.
pub struct Cargo<'a> {
    /// `check` or `build`.
    pub subcommand: &'a str,
    /// The manifest of the package built.
    pub manifest: &'a Path,
    /// The migrated package's workspace root: cargo runs there, as the user would run it (it
    /// reads `.cargo/config.toml` from there).
    pub cwd: &'a Path,
    /// The root of the workspace built, which the compiler's relative paths start from.
    pub root: &'a Path,
    /// Further arguments (`--offline`, `--target-dir DIR`).
    pub args: Vec<String>,
}

impl Cargo<'_> {
    /// Runs it; the executables it built, or the compiler's first error (cargo's own last
    /// words when no compiler message explains the failure).
    pub fn run(&self) -> Result<Vec<PathBuf>, Diagnostic> {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let out = Command::new(cargo)
            .arg(self.subcommand)
            .arg("--manifest-path")
            .arg(self.manifest)
            .args(["--message-format", "json"])
            .args(&self.args)
            .current_dir(self.cwd)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| Diagnostic::plain(format!("cannot run cargo: {e}")))?;
        let mut executables = Vec::new();
        let mut first = None;
        for message in Message::parse_stream(&out.stdout[..]).flatten() {
            match message {
                Message::CompilerArtifact(a) => {
                    executables.extend(a.executable.map(|e| e.into_std_path_buf()))
                }
                Message::CompilerMessage(m) if m.message.level == DiagnosticLevel::Error => {
                    first.get_or_insert_with(|| self.error(&m.message));
                }
                _ => {}
            }
        }
        if out.status.success() {
            return Ok(executables);
        }
        Err(first.unwrap_or_else(|| {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let last: Vec<&str> = stderr.lines().rev().take(4).collect();
            let words: Vec<&str> = last.into_iter().rev().collect();
            Diagnostic::plain(format!(
                "`cargo {}` on {} failed: {}",
                self.subcommand,
                display(self.manifest),
                words.join("\n")
            ))
        }))
    }

    /// A compiler error as kubegen's diagnostic, at its primary span.
    fn error(&self, m: &cargo_metadata::diagnostic::Diagnostic) -> Diagnostic {
        let loc = m.spans.iter().find(|s| s.is_primary).map(|s| {
            let file = Path::new(&s.file_name);
            Loc {
                file: display(&self.root.join(file)),
                line: s.line_start,
                column: s.column_start,
                end_line: s.line_end,
                end_column: s.column_end,
            }
        });
        let code = m
            .code
            .as_ref()
            .map_or(String::new(), |c| format!("[{}]", c.code));
        let mut d = Diagnostic::new(
            loc.as_ref(),
            "",
            format!("{REFUSED}error{code}: {}", m.message),
        );
        d.label = m
            .spans
            .iter()
            .find(|s| s.is_primary)
            .and_then(|s| s.label.clone());
        d.help = Some(kubegen_core::model::Help {
            message: "fix it (`cargo check` shows every error), then run `kubegen migrate` again"
                .into(),
            replacement: None,
        });
        d
    }
}
