//! `kubegen markers [KEY]`: the marker reference at the command line.

use crate::report::Reporter;

/// `kubegen markers [KEY]`.
#[derive(Debug, Clone, clap::Args)]
pub struct MarkersArgs {
    /// The key to explain (all keys when absent).
    pub key: Option<String>,
}

/// Prints the reference.
pub fn run(_args: &MarkersArgs, _reporter: &Reporter) -> bool {
    true
}
