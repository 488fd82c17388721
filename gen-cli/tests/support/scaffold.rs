//! Scaffolding a project with the `kubegen` binary, and building it offline against this
//! workspace: shared by `scaffold.rs` and `scaffold_cluster.rs`.

#![allow(dead_code)] // each test file uses its own part

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

/// This workspace's root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A fresh, empty folder for a test, removed when dropped.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("kubegen-scaffold-{name}-"))
        .tempdir()
        .expect("a temporary folder")
}

/// A command line's words: `words("create api --kind X")`.
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Runs `kubegen args...` in `dir`.
pub fn kubegen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kubegen"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Runs `kubegen args...` in `dir` and returns its standard error, where kubegen reports what
/// it did (files created, next steps; standard output is for what a command is asked to print,
/// and these commands print nothing there); panics with both outputs when it fails.
pub fn ok(dir: &Path, args: &[&str]) -> String {
    let out = kubegen(dir, args);
    let (stdout, stderr) = texts(&out);
    assert!(
        out.status.success(),
        "kubegen {args:?} failed:\n{stdout}\n{stderr}"
    );
    assert_eq!(stdout, "", "kubegen {args:?} reports on stderr only");
    stderr
}

/// Standard output and error as text.
pub fn texts(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `init` in `dir` (folder `guestbook-operator`), depending on this workspace's kubegen.
pub fn init(dir: &Path) -> PathBuf {
    let kubegen_path = workspace();
    ok(
        dir,
        &[
            "init",
            "--domain",
            "my.domain",
            "--kubegen-path",
            kubegen_path.to_str().unwrap(),
            "guestbook-operator",
        ],
    );
    dir.join("guestbook-operator")
}

/// What a newcomer does first: `init` and two kinds, one cluster-wide.
pub fn two_kinds(dir: &Path) -> PathBuf {
    let project = init(dir);
    let create = |args: &[&str]| ok(&project, args);
    create(&words(
        "create api --group webapp --version v1 --kind Guestbook",
    ));
    create(&words(
        "create api --group webapp --version v1 --kind GuestbookPolicy --namespaced=false",
    ));
    project
}

/// Then the defaulting and validating webhooks of the first kind, its version v2 and the
/// conversion webhook between the two, through v2.
pub fn newcomer(dir: &Path) -> PathBuf {
    let project = two_kinds(dir);
    let create = |args: &[&str]| ok(&project, args);
    create(&words(
        "create webhook --group webapp --version v1 --kind Guestbook --defaulting --programmatic-validation",
    ));
    create(&words(
        "create api --group webapp --version v2 --kind Guestbook",
    ));
    create(&words(
        "create webhook --group webapp --version v2 --kind Guestbook --conversion",
    ));
    project
}

/// Runs `cargo <args>` offline in the project, with this workspace's `Cargo.lock` when it has
/// none (so that nothing needs resolving) and target folder (so that compiled dependencies
/// are reused).
pub fn cargo(project: &Path, args: &[&str]) {
    let out = cargo_output(project, args);
    let (_, stderr) = texts(&out);
    assert!(
        out.status.success(),
        "cargo {args:?} failed in {}",
        project.display()
    );
    assert!(
        !stderr.contains("warning: `guestbook-operator`"),
        "the scaffolded project compiles without warnings"
    );
}

/// [`cargo`], whatever it ends with: its output, printed to this test's stderr as well.
pub fn cargo_output(project: &Path, args: &[&str]) -> Output {
    let lock = project.join("Cargo.lock");
    if !lock.exists() {
        fs::copy(workspace().join("Cargo.lock"), &lock).unwrap();
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"));
    let start = Instant::now();
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .env("CARGO_NET_OFFLINE", "true")
        // This workspace's pin for its libraries (.cargo/config.toml), not the project's.
        .env_remove("K8S_OPENAPI_ENABLED_VERSION")
        .current_dir(project)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&out);
    eprintln!(
        "{stderr}{stdout}cargo {args:?} in the scaffolded project: {:.1?}",
        start.elapsed()
    );
    out
}

/// Copies the build context `docker build .` sends from `dir` into `into`: every file but
/// those `.dockerignore` excludes. Its patterns are paths from the context's root, each
/// excluding what is under it too; the helper refuses the forms it does not implement
/// (wildcards, `!` exceptions), so that a change to the scaffold's `.dockerignore` cannot
/// pass unnoticed.
pub fn copy_context(dir: &Path, into: &Path) {
    let ignore = fs::read_to_string(dir.join(".dockerignore")).unwrap();
    let excluded: Vec<PathBuf> = ignore
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            assert!(
                !l.contains(['*', '?', '[', '!']),
                ".dockerignore pattern `{l}`: not implemented by this helper"
            );
            PathBuf::from(l.trim_matches('/'))
        })
        .collect();
    copy_tree(dir, into, Path::new(""), &excluded);
}

fn copy_tree(from: &Path, into: &Path, relative: &Path, excluded: &[PathBuf]) {
    fs::create_dir_all(into.join(relative)).unwrap();
    for entry in fs::read_dir(from.join(relative)).unwrap() {
        let entry = entry.unwrap();
        let path = relative.join(entry.file_name());
        if excluded.contains(&path) {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            copy_tree(from, into, &path, excluded);
        } else {
            fs::copy(from.join(&path), into.join(&path)).unwrap();
        }
    }
}

/// The YAML documents of a file, as JSON.
pub fn documents(path: &Path) -> Vec<serde_json::Value> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_saphyr::from_multiple::<serde_json::Value>(&text)
        .unwrap()
        .into_iter()
        .filter(|d| !d.is_null())
        .collect()
}

/// The binary `cargo build` made for the project.
pub fn binary(name: &str) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"))
        .join("debug")
        .join(name)
}

/// `kubectl kustomize config/default` of the project, checked to succeed; `None` without
/// `kubectl`.
pub fn kustomize(project: &Path) -> Option<String> {
    let out = Command::new("kubectl")
        .args(["kustomize", "config/default"])
        .current_dir(project)
        .output()
        .ok()?;
    let (stdout, stderr) = texts(&out);
    assert!(
        out.status.success(),
        "kubectl kustomize config/default: {stderr}"
    );
    Some(stdout)
}
