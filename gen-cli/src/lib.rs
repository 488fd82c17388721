//! gen-cli: kubegen's second front end to the engine. It reads sources (never compiles them)
//! and writes a crate's `config/` tree: `workspace` finds the packages, `source` loads their
//! modules, `collect` turns kubegen's attributes into the engine's model, `generate` has the
//! engine build and render the manifests, and `output` writes them. `scaffold` starts new
//! operators (`init`, `create api`, `create webhook`).

#![deny(missing_docs)]

pub mod cli;
pub mod collect;
pub mod config;
pub mod docs;
pub mod generate;
pub mod header;
pub mod output;
pub mod scaffold;
pub mod source;
pub mod workspace;

use std::io::Write;
use std::process::ExitCode;

use cli::{Cli, Command, Options};
use generate::{Generated, What, display, generate};
use kubegen_core::model::{Error, Warning};
use output::Plan;

/// Runs a command; the exit code is 1 on any error and, with `--check`, on stale files.
pub fn run(cli: Cli) -> ExitCode {
    let (options, what, explain) = match cli.command {
        Command::Init(args) => return scaffold::report(scaffold::init::run(&args)),
        Command::Create(cli::Create::Api(args)) => {
            return scaffold::report(scaffold::api::run(&args));
        }
        Command::Create(cli::Create::Webhook(args)) => {
            return scaffold::report(scaffold::webhook::run(&args));
        }
        Command::Manifests(o) => (o, What::ALL, false),
        Command::Docs(args) => (args.options(), What::DOCS, false),
        Command::Crd(o) => (
            o,
            What {
                crds: true,
                rbac: false,
                webhooks: false,
                docs: false,
            },
            false,
        ),
        Command::Webhook(o) => (
            o,
            What {
                crds: false,
                rbac: false,
                webhooks: true,
                docs: false,
            },
            false,
        ),
        Command::Rbac { options, explain } => (
            options,
            What {
                crds: false,
                rbac: true,
                webhooks: false,
                docs: false,
            },
            explain,
        ),
    };
    if generate_and_report(&options, what, explain) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Generates (or checks) and prints what happened; `false` on any error or stale file.
pub fn generate_and_report(options: &Options, what: What, explain: bool) -> bool {
    match run_packages(options, what, explain) {
        Ok(success) => success,
        Err(errors) => {
            for e in &errors {
                eprintln!("{}", format_error(e));
            }
            eprintln!(
                "error: kubegen found {} problem(s); nothing was written",
                errors.len()
            );
            false
        }
    }
}

/// `file:line:col: error: message`, the form editors and CI annotate.
pub fn format_error(e: &Error) -> String {
    format_diagnostic("error", e)
}

/// `file:line:col: warning: message`.
pub fn format_warning(w: &Warning) -> String {
    format_diagnostic("warning", w)
}

fn format_diagnostic(level: &str, e: &Error) -> String {
    let context = if e.context.is_empty() {
        String::new()
    } else {
        format!("{}: ", e.context)
    };
    match &e.loc {
        Some(loc) => format!(
            "{}:{}:{}: {level}: {context}{}",
            display(std::path::Path::new(&loc.file)),
            loc.line,
            loc.column,
            e.message
        ),
        None => format!("{level}: {context}{}", e.message),
    }
}

/// Selects the Kubernetes version whose tables k8s-openapi types get: `--kubernetes`, else
/// the one the packages' k8s-openapi dependency names, else the one the workspace resolves when
/// a package depends on k8s-openapi without naming one; otherwise the one gen-cli is built
/// with. One per run.
fn select_kubernetes(options: &Options, packages: &[workspace::Package]) -> Result<(), String> {
    if let Some(minor) = options.kubernetes {
        return select_minor(options, minor);
    }
    let mut named: Vec<(u32, &str)> = packages
        .iter()
        .filter_map(|p| Some((p.kubernetes?, p.name.as_str())))
        .collect();
    named.sort();
    named.dedup_by_key(|(minor, _)| *minor);
    let minor = match named.as_slice() {
        [] if packages.iter().any(|p| p.k8s_openapi) => {
            workspace::resolved_kubernetes(options.manifest_path.as_deref())?
        }
        [] => None,
        [(minor, _)] => Some(*minor),
        [(a, first), (b, second), ..] => {
            return Err(format!(
                "packages use different Kubernetes versions (`{first}`: 1.{a}, `{second}`: \
                 1.{b}); run kubegen once per version with `-p`"
            ));
        }
    };
    match minor {
        Some(minor) => select_minor(options, minor),
        None => Ok(()),
    }
}

/// Selects Kubernetes 1.`minor`, reading its k8s-openapi schemas when gen-cli is built with
/// another version.
fn select_minor(options: &Options, minor: u32) -> Result<(), String> {
    kubegen_core::known::select_kubernetes(minor)?;
    if minor != kubegen_core::known::compiled_kubernetes() {
        // This binary's k8s-openapi types are another version's: read the selected one's.
        let src = workspace::k8s_openapi_src(options.manifest_path.as_deref())?
            .ok_or("the workspace names a Kubernetes version but resolves no k8s-openapi")?;
        let dir = src.join(format!("v1_{minor}"));
        if !dir.is_dir() {
            return Err(format!(
                "k8s-openapi's sources have no {} for Kubernetes 1.{minor}",
                dir.display()
            ));
        }
        kubegen_core::known::set_kubernetes_definitions(
            kubegen_core::known::read_kubernetes_sources(&dir)?,
        );
    }
    Ok(())
}

/// Generates `what` for the packages `options` selects, in memory: every package's files, or
/// every error of every package. Selects the Kubernetes version (once per process).
pub fn render(options: &Options, what: What) -> Result<Vec<Generated>, Vec<Error>> {
    let one = |message: String| vec![Error::new(None, "", message)];
    let packages =
        workspace::discover(options.manifest_path.as_deref(), &options.packages).map_err(one)?;
    if packages.is_empty() {
        return Err(one(
            "no workspace member depends on kubegen; name one with `-p`".to_string(),
        ));
    }
    select_kubernetes(options, &packages).map_err(one)?;
    let layouts = config::resolve_all(&packages, options)?;
    let mut all = Vec::new();
    let mut errors = Vec::new();
    for (package, layout) in packages.iter().zip(&layouts) {
        match generate(package, layout, what) {
            Ok(g) => all.push(g),
            Err(e) => errors.extend(e),
        }
    }
    // Warnings never change the outcome; they are printed whatever happens next.
    for w in all.iter().flat_map(|g| &g.warnings) {
        eprintln!("{}", format_warning(w));
    }
    if errors.is_empty() {
        Ok(all)
    } else {
        Err(errors)
    }
}

fn run_packages(options: &Options, what: What, explain: bool) -> Result<bool, Vec<Error>> {
    // Generate everything first: nothing is written unless every package succeeds.
    let all = render(options, what)?;
    let mut stdout = std::io::stdout().lock();
    if explain {
        for g in &all {
            let _ = write!(stdout, "{}", kubegen_core::rbac::explain(&g.roles));
        }
        return Ok(true);
    }
    if options.stdout {
        for g in &all {
            for content in g.plan.files.values() {
                let _ = write!(stdout, "{content}");
            }
        }
        return Ok(true);
    }
    // One plan for every package: a file in the way anywhere and nothing is written anywhere.
    let plan: Plan = all.into_iter().map(|g| g.plan).collect();
    let outcome = plan.apply(options.check).map_err(|refused| {
        refused
            .into_iter()
            .map(|e| Error::new(None, "", e.0))
            .collect::<Vec<_>>()
    })?;
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
        eprintln!("error: {command} are stale; run `cargo run -p gen-cli -- {command}`");
        return Ok(false);
    }
    Ok(true)
}
