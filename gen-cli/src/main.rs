//! The `kubegen` binary.

use clap::Parser;

fn main() -> std::process::ExitCode {
    gen_cli::run(gen_cli::cli::Cli::parse())
}
