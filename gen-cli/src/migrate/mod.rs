//! `kubegen migrate`: a kube-derive crate moved to kubegen in place, as `cargo fix` does.
//! [`rewrite`] edits each source file by the engine's migration table
//! ([`kubegen_core::parse::foreign`]), [`manifest`] the package's `Cargo.toml`; every file is
//! checked before any is written, and written whole. Before writing, the package must build
//! ([`cargo`]: the compiler's first error refuses it), and [`before`] records the CRDs
//! kube-derive gives it by building a scratch crate; after, `kubegen diff` compares the
//! migrated CRDs with those (or with the CRD files of `--base DIR`, when the package is only
//! checked). [`table`] prints the migration table into the book
//! (`docs/book/src/guides/migrate.md`).

pub mod before;
pub mod cargo;
pub mod manifest;
pub mod rewrite;
pub mod table;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use clap::Parser;
use kubegen_core::model::Diagnostic;

use crate::diff::DiffArgs;
use crate::paths::display;
use crate::report::Reporter;
use crate::scaffold::init::{KubegenFlags, is_kubegen_checkout, source};
use crate::workspace::KUBEGEN_PACKAGE;

/// `kubegen migrate`.
#[derive(Debug, Clone, clap::Args)]
pub struct MigrateArgs {
    /// The workspace member to migrate (default: the package of `--manifest-path`, or of
    /// the current folder).
    #[arg(short = 'p', long = "package", value_name = "NAME")]
    pub package: Option<String>,
    /// The workspace or package manifest (default: `Cargo.toml` in the current folder).
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Write nothing: print the changes as a patch (nothing is built).
    #[arg(long)]
    pub dry_run: bool,
    /// The same as `--dry-run`.
    #[arg(long)]
    pub diff: bool,
    /// Compare each CRD with the crate's CRD files from before the migration in this folder,
    /// with `kubegen diff`'s rules (the package is then only checked, not built to record
    /// its CRDs).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["dry_run", "diff"])]
    pub base: Option<PathBuf>,
    /// Exit 1 when a CRD changes in a way that breaks upgrades.
    #[arg(long)]
    pub strict: bool,
    /// Neither build the package first nor compare its CRDs (for a package that cannot build
    /// here).
    #[arg(long, conflicts_with_all = ["base", "strict"])]
    pub no_build: bool,
    /// Where the package gets kubegen from (default: the kubegen checkout this binary was
    /// built from, by path, when it is still there).
    #[command(flatten)]
    pub kubegen: KubegenFlags,
    /// Rewrite the generated table of attribute equivalents in this Markdown file (kubegen's
    /// docs/book/src/guides/migrate.md), and do nothing else.
    #[arg(long, value_name = "FILE", hide = true)]
    pub write_docs: Option<PathBuf>,
}

/// What a migration changes.
#[derive(Debug, Default)]
pub struct Changes {
    /// Each file that changes, with its old and new text.
    pub files: BTreeMap<PathBuf, (String, String)>,
    /// What could not be translated, as warnings at its place.
    pub untranslated: Vec<Diagnostic>,
    /// Where the package holds what `migrate` writes already (it left it half-way), if it
    /// does.
    pub half_way: Option<String>,
}

/// Runs `kubegen migrate`; `false` on an error (and with `--strict`, a breaking CRD change).
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
    let fail = |message: String| {
        reporter.emit_failure(&[Diagnostic::plain(message)], "nothing was written");
        false
    };
    let dir = match package_dir(args) {
        Ok(dir) => dir,
        Err(e) => return fail(e),
    };
    let dependency = match dependency(&args.kubegen) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    let changes = match plan(&dir, &dependency) {
        Ok(changes) => changes,
        Err(e) => {
            reporter.emit_failure(&[e], "nothing was written");
            return false;
        }
    };
    reporter.emit_all(&changes.untranslated);
    if args.dry_run || args.diff {
        for (path, (old, new)) in &changes.files {
            print!(
                "{}",
                crate::output::diff(Path::new(&display(path)), old, new)
            );
        }
        return true;
    }
    let before = match built(args, &dir, &changes, reporter) {
        Ok(before) => before,
        Err(e) => {
            reporter.emit_failure(&[e], "nothing was written");
            return false;
        }
    };
    let files = changes
        .files
        .iter()
        .map(|(path, (_, new))| (path.clone(), new.clone()))
        .collect();
    if let Err(e) = crate::output::replace_all(&files) {
        return fail(e.0);
    }
    for path in files.keys() {
        eprintln!("migrated {}", display(path));
    }
    if !changes.untranslated.is_empty() {
        eprintln!(
            "{} things left to you, each listed above (attribute keys at a `// kubegen \
             migrate:` comment)",
            changes.untranslated.len()
        );
    }
    match args.base.as_deref().or(before.as_deref()) {
        Some(base) => compare(&dir, base, reporter) || !args.strict,
        None => true,
    }
}

/// The package checked before it is migrated (built, with its CRDs recorded, when no
/// `--base` holds them): the folder of its recorded CRDs, or the compiler's first error. A
/// package `migrate` left half-way, or with nothing to migrate, is not built.
fn built(
    args: &MigrateArgs,
    dir: &Path,
    changes: &Changes,
    reporter: &Reporter,
) -> Result<Option<PathBuf>, Diagnostic> {
    if args.no_build || changes.files.is_empty() {
        return Ok(None);
    }
    if let Some(mark) = &changes.half_way {
        eprintln!(
            "{mark} is `kubegen migrate`'s: finishing the migration it left half-way, without \
             building the package first{}",
            match args.base {
                Some(_) => "",
                None => " (nor comparing its CRDs: `--base DIR` compares them with CRD files)",
            }
        );
        return Ok(None);
    }
    let package = before::Package::read(&dir.join("Cargo.toml"))?;
    if args.base.is_some() {
        return package.check().map(|()| None);
    }
    let mut notes = Vec::new();
    let recorded = package.record(&mut notes);
    reporter.emit_all(&notes);
    recorded
}

/// What `migrate` writes, which marks a package it left half-way: a `#[kube_marker]`, an
/// import of kubegen's derives, a `// kubegen migrate:` comment, kubegen in `Cargo.toml`.
const MARKS: [&str; 4] = [
    "#[kube_marker(",
    "use kubegen::",
    "// kubegen migrate:",
    KUBEGEN_PACKAGE,
];

/// The first of [`MARKS`] in the file at `path`, with where it is.
fn mark(path: &Path, text: &str) -> Option<String> {
    let mark = MARKS.iter().find(|m| text.contains(**m))?;
    Some(format!("`{mark}` in {}", display(path)))
}

/// The folder of the package to migrate.
fn package_dir(args: &MigrateArgs) -> Result<PathBuf, String> {
    if let Some(name) = &args.package {
        let found =
            crate::workspace::discover(args.manifest_path.as_deref(), std::slice::from_ref(name))?;
        return found
            .into_iter()
            .next()
            .map(|p| p.dir)
            .ok_or_else(|| format!("no package `{name}`"));
    }
    let manifest = args
        .manifest_path
        .clone()
        .unwrap_or_else(|| PathBuf::from("Cargo.toml"));
    let text = fs::read_to_string(&manifest)
        .map_err(|e| format!("{}: {e}; pass -p or --manifest-path", display(&manifest)))?;
    if !text.lines().any(|l| l.trim() == "[package]") {
        return Err(format!(
            "{} has no [package]: name the member to migrate with -p",
            display(&manifest)
        ));
    }
    let dir = manifest.parent().unwrap_or(Path::new("."));
    Ok(if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir.to_path_buf()
    })
}

/// The keys of the package's `[dependencies.kubegen]`: kubegen's checkout by path (the one
/// named, else the one this binary was built from) or, as `kubegen init` writes them, its git
/// repository or its version on crates.io.
fn dependency(flags: &KubegenFlags) -> Result<String, String> {
    let built_from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .filter(|d| is_kubegen_checkout(d))
        .map(Path::to_path_buf);
    let checkout = match (
        &flags.kubegen_path,
        &flags.kubegen_git,
        &flags.kubegen_version,
    ) {
        (Some(path), _, _) => Some(path.clone()),
        (None, None, None) => built_from,
        _ => None,
    };
    match checkout {
        Some(dir) => {
            let dir = fs::canonicalize(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            Ok(format!(
                "package = \"{KUBEGEN_PACKAGE}\"\npath = {:?}",
                dir.display().to_string()
            ))
        }
        None => source(flags).map(|s| s.dependency),
    }
}

/// Every change the migration of the package in `dir` makes, checked whole: a source that
/// does not parse refuses them all.
pub fn plan(dir: &Path, dependency: &str) -> Result<Changes, Diagnostic> {
    let mut changes = Changes::default();
    let mut files = Vec::new();
    let mut stored = Vec::new();
    for path in rust_files(dir) {
        let old = fs::read_to_string(&path)
            .map_err(|e| Diagnostic::plain(format!("{}: {e}", display(&path))))?;
        stored.extend(rewrite::stored_versions(&old).map_err(|e| syntax(&path, &e))?);
        changes.half_way = changes.half_way.or_else(|| mark(&path, &old));
        files.push((path, old));
    }
    let mut migrated = Vec::new();
    let mut features = Vec::new();
    for (path, old) in files {
        let shown = display(&path);
        let m = rewrite::migrate(&shown, &old, &stored).map_err(|e| syntax(&path, &e))?;
        for (loc, what) in m.untranslated {
            changes.untranslated.push(Diagnostic::warning(
                Some(&loc),
                "",
                format!("kubegen migrate: not translated: {what}"),
            ));
        }
        if m.text != old {
            changes.files.insert(path.clone(), (old, m.text.clone()));
        }
        features.extend(m.features);
        migrated.push(m.text);
    }
    features.sort_unstable();
    features.dedup();
    let dependency = match &features[..] {
        [] => dependency.to_string(),
        some => format!("{dependency}\nfeatures = {some:?}"),
    };
    let manifest = dir.join("Cargo.toml");
    let old = fs::read_to_string(&manifest)
        .map_err(|e| Diagnostic::plain(format!("{}: {e}", display(&manifest))))?;
    changes.half_way = changes.half_way.or_else(|| mark(&manifest, &old));
    let sources: Vec<&str> = migrated.iter().map(String::as_str).collect();
    let new = manifest::migrate(&old, &dependency, &sources)
        .map_err(|e| Diagnostic::plain(format!("{}: {e}", display(&manifest))))?;
    if new != old {
        changes.files.insert(manifest, (old, new));
    }
    Ok(changes)
}

/// A file that does not parse, at the place syn stopped.
fn syntax(path: &Path, e: &syn::Error) -> Diagnostic {
    let loc = kubegen_core::parse::span::loc(&display(path), e.span());
    Diagnostic::new(Some(&loc), "", format!("syntax error: {e}"))
}

/// The package's Rust files: every `.rs` under `dir` but in `target/`, `vendor/` and hidden
/// folders, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !(name.starts_with('.') || name == "target" || name == "vendor") {
                out.extend(rust_files(&path));
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// `kubegen diff --base DIR` on the migrated package; `false` when a change breaks upgrades.
fn compare(dir: &Path, base: &Path, reporter: &Reporter) -> bool {
    #[derive(Parser)]
    struct Diff {
        #[command(flatten)]
        args: DiffArgs,
    }
    let manifest = dir.join("Cargo.toml");
    let line = [
        "diff".as_ref(),
        "--manifest-path".as_ref(),
        manifest.as_os_str(),
        "--base".as_ref(),
        base.as_os_str(),
    ];
    match Diff::try_parse_from(line) {
        Ok(diff) => crate::diff::run(&diff.args, reporter),
        Err(e) => {
            reporter.error(e.to_string());
            false
        }
    }
}
