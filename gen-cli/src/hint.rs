//! Commands named in hints, as they work where the user is: `cargo run -p gen-cli -- ...`
//! when kubegen runs through `cargo run` in its own workspace, `kubegen ...` otherwise.

/// How to run kubegen's `args` from here.
pub fn command(args: &str) -> String {
    // `cargo run` tells the program it runs which package it is.
    if std::env::var("CARGO_PKG_NAME").is_ok_and(|p| p == env!("CARGO_PKG_NAME")) {
        format!("cargo run -p {} -- {args}", env!("CARGO_PKG_NAME"))
    } else {
        format!("kubegen {args}")
    }
}
