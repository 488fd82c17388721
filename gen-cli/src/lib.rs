//! gen-cli: kubegen's second front end to the engine. It reads sources (never compiles them)
//! and writes a crate's `config/` tree: `workspace` finds the packages, `source` loads their
//! modules, `collect` turns kubegen's attributes into the engine's model, `generate` has the
//! engine build and render one package's manifests (its sources read with the features
//! `features` decides), `manifests` runs that for every package and `output` writes the files;
//! `diff` compares the CRDs with a base for upgrade safety; `report` prints every problem as
//! rustc does. `scaffold` starts new operators (`init`, `create api`, `create webhook`);
//! `markers` is the marker reference at the command line.

#![deny(missing_docs)]
// A command fails once, with one diagnostic: its size does not matter on that path.
#![allow(clippy::result_large_err)]

// Layers, lowest first: a module uses only modules of the layers before its own
// (`gen-cli/tests/layers.rs` checks this list).
// 1. features, header, hint, parallel, paths, source, version: what every command shares
// 2. collect, output, report, workspace: sources → model; writing files; printing problems
// 3. config, markers: a package's configuration; `kubegen markers`
// 4. options: the options of every command that reads a workspace
// 5. docs, kubernetes: `kubegen docs`; the Kubernetes version of a run
// 6. generate: one package's manifests in memory
// 7. diff: `kubegen diff`
// 8. manifests: `kubegen manifests` and its parts
// 9. scaffold: `kubegen init` and `kubegen create`
// 10. import, migrate: `kubegen import crd`/`go`, `kubegen migrate` (with `init`'s dependency
//     writer)
// 11. validate: `kubegen validate` (with import's reading of files)
// 12. cli: the command line
// 13. reference: the command line's reference page
pub mod cli;
pub mod collect;
pub mod config;
pub mod diff;
pub mod docs;
pub mod features;
pub mod generate;
pub mod header;
pub mod hint;
pub mod import;
mod kubernetes;
pub mod manifests;
pub mod markers;
pub mod migrate;
pub mod options;
pub mod output;
mod parallel;
pub mod paths;
pub mod reference;
pub mod report;
pub mod scaffold;
pub mod source;
pub mod validate;
pub mod version;
pub mod workspace;

use std::process::ExitCode;

use cli::{Cli, Command, Create, Import};
use generate::What;
use report::Reporter;

pub use generate::render;

/// Runs a command; the exit code is 1 on any error, with `--check` on stale files, and for
/// `diff` on a breaking change.
pub fn run(cli: Cli) -> ExitCode {
    let reporter = Reporter::new(cli.message_format, cli.color);
    let ok = match cli.command {
        Command::Init(args) => scaffold::report(scaffold::init::run(&args, &reporter), &reporter),
        Command::Create(Create::Api(args)) => {
            scaffold::report(scaffold::api::run(&args, &reporter), &reporter)
        }
        Command::Create(Create::Webhook(args)) => {
            scaffold::report(scaffold::webhook::run(&args, &reporter), &reporter)
        }
        Command::Markers(args) => markers::run(&args, &reporter),
        Command::Import(Import::Crd(args)) => import::run(&args, &reporter),
        Command::Import(Import::Go(args)) => import::run_go(&args, &reporter),
        Command::Validate(args) => validate::run(&args, &reporter),
        Command::Migrate(args) => migrate::run(&args, &reporter),
        Command::Diff(args) => diff::run(&args, &reporter),
        Command::Manifests(o) => manifests::run(&o, What::ALL, false, &reporter),
        Command::Docs(args) => manifests::run(&args.options(), What::DOCS, false, &reporter),
        Command::Crd(o) => manifests::run(&o, What::CRDS, false, &reporter),
        Command::Webhook(o) => manifests::run(&o, What::WEBHOOKS, false, &reporter),
        Command::Rbac { options, explain } => {
            manifests::run(&options, What::RBAC, explain, &reporter)
        }
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
