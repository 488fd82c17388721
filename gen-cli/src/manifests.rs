//! `kubegen manifests`, `crd`, `rbac` and `webhook`: every selected package generated in
//! memory, then written all together (or checked, or printed).

use std::io::Write;

use kubegen_core::model::Diagnostic;

use crate::generate::{What, render};
use crate::hint;
use crate::options::Options;
use crate::output::Plan;
use crate::paths::display;
use crate::report::Reporter;

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
