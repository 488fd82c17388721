//! `kubegen --version`: the package version and, when known, the commit it was built from.

/// `0.1.0 (3713ee3 2026-12-01)`, or `0.1.0` when the build saw no git checkout.
pub const SHORT: &str = match option_env!("KUBEGEN_COMMIT_SHORT") {
    Some(_) => concat!(
        env!("CARGO_PKG_VERSION"),
        " (",
        env!("KUBEGEN_COMMIT_SHORT"),
        " ",
        env!("KUBEGEN_COMMIT_DATE"),
        ")"
    ),
    None => env!("CARGO_PKG_VERSION"),
};

/// `--version` in full: also the whole commit hash.
pub const LONG: &str = match option_env!("KUBEGEN_COMMIT") {
    Some(_) => concat!(
        env!("CARGO_PKG_VERSION"),
        "\ncommit-hash: ",
        env!("KUBEGEN_COMMIT"),
        "\ncommit-date: ",
        env!("KUBEGEN_COMMIT_DATE")
    ),
    None => env!("CARGO_PKG_VERSION"),
};

/// The commit the binary was built from, when known.
pub const COMMIT: Option<&str> = option_env!("KUBEGEN_COMMIT");
