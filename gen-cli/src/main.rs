//! The `kubegen` binary.

use clap::Parser;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    gen_cli::run(gen_cli::cli::Cli::parse())
}
