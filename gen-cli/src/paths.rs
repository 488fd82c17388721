//! How paths are shown to the user.

use std::path::Path;

/// A path shown relative to the current folder when it is under it.
pub fn display(path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    path.strip_prefix(&cwd)
        .unwrap_or(path)
        .display()
        .to_string()
}
