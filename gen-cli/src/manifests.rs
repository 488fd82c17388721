//! `kubegen manifests`, `crd`, `rbac` and `webhook`: every selected package generated in
//! memory, then written all together (or checked, or printed).

use std::io::Write;

use kubegen_core::model::Diagnostic;

use crate::cli::Options;
use crate::generate::{Generated, What, display, generate};
use crate::output::Plan;
use crate::report::Reporter;
use crate::{config, hint, kubernetes, workspace};

/// Generates `what` for the packages `options` selects, in memory: every package's files (with
/// their warnings), or every error of every package, for the Kubernetes version they use.
pub fn render(options: &Options, what: What) -> Result<Vec<Generated>, Vec<Diagnostic>> {
    let one = |message: String| vec![Diagnostic::plain(message)];
    let packages =
        workspace::discover(options.manifest_path.as_deref(), &options.packages).map_err(one)?;
    if packages.is_empty() {
        return Err(vec![
            Diagnostic::plain("no workspace member depends on kubegen")
                .with_help("name one with `-p`", None),
        ]);
    }
    let kubernetes = kubernetes::select(options, &packages).map_err(|e| vec![e])?;
    let layouts = config::resolve_all(&packages, options)?;
    let mut all = Vec::new();
    let mut errors = Vec::new();
    for (package, layout) in packages.iter().zip(&layouts) {
        match generate(package, layout, what, &kubernetes) {
            Ok(g) => all.push(g),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(all)
    } else {
        // What generated still warns: the warnings come first, then the errors.
        let mut found: Vec<Diagnostic> = all.into_iter().flat_map(|g| g.warnings).collect();
        found.extend(errors);
        Err(found)
    }
}

/// Generates (or checks, or prints) and reports what happened; `false` on any error or stale
/// file.
pub fn run(options: &Options, what: What, explain: bool, reporter: &Reporter) -> bool {
    let all = match render(options, what) {
        Ok(all) => all,
        Err(found) => {
            reporter.emit_failure(&found, "nothing was written");
            return false;
        }
    };
    let warnings: Vec<Diagnostic> = all.iter().flat_map(|g| g.warnings.clone()).collect();
    reporter.emit_all(&warnings);
    let mut stdout = std::io::stdout().lock();
    if explain {
        for g in &all {
            let _ = write!(stdout, "{}", kubegen_core::rbac::explain(&g.roles));
        }
        return true;
    }
    if options.stdout {
        for g in &all {
            for content in g.plan.files.values() {
                let _ = write!(stdout, "{content}");
            }
        }
        return true;
    }
    if what.crds && !options.check {
        // A breaking change to a CRD is written, but never silently.
        reporter.emit_all(&crate::diff::overwrite_warnings(&all));
    }
    // One plan for every package: a file in the way anywhere and nothing is written anywhere.
    let plan: Plan = all.into_iter().map(|g| g.plan).collect();
    let outcome = match plan.apply(options.check) {
        Ok(outcome) => outcome,
        Err(refused) => {
            let found: Vec<Diagnostic> = refused
                .into_iter()
                .map(|e| Diagnostic::plain(e.0))
                .collect();
            reporter.emit_failure(&found, "nothing was written");
            return false;
        }
    };
    for path in &outcome.changed {
        let verb = if options.check { "stale" } else { "wrote" };
        eprintln!("{verb}: {}", display(path));
    }
    for path in &outcome.removed {
        let verb = if options.check {
            "would remove"
        } else {
            "removed"
        };
        eprintln!("{verb}: {} (its kind no longer exists)", display(path));
    }
    if options.check && !(outcome.changed.is_empty() && outcome.removed.is_empty()) {
        for d in &outcome.diffs {
            let _ = write!(stdout, "{d}");
        }
        let command = if what.docs { "docs" } else { "manifests" };
        reporter.emit_all(&[Diagnostic::plain(format!("{command} are stale"))
            .with_help(format!("run `{}`", hint::command(command)), None)]);
        return false;
    }
    true
}
