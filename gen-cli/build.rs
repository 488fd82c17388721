//! Records the commit `kubegen` is built from (for `--version`, and for the kubegen dependency
//! `kubegen init` writes), when the sources are a git checkout.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        .filter(|s| !s.is_empty())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let Some(commit) = git(&["rev-parse", "HEAD"]) else {
        return;
    };
    // Rebuild when HEAD moves (a commit, a checkout).
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        let dir = Path::new(&dir);
        println!("cargo:rerun-if-changed={}", dir.join("HEAD").display());
        if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={}", dir.join(reference).display());
        }
    }
    let date = git(&["log", "-1", "--format=%cs", "HEAD"]).unwrap_or_default();
    println!("cargo:rustc-env=KUBEGEN_COMMIT={commit}");
    let short: String = commit.chars().take(7).collect();
    println!("cargo:rustc-env=KUBEGEN_COMMIT_SHORT={short}");
    println!("cargo:rustc-env=KUBEGEN_COMMIT_DATE={date}");
}
