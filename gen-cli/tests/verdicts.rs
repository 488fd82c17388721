//! The derive and `gen-cli` give the same verdict on the same source: every trybuild case (which
//! the derive refuses at compile time) is refused by `gen-cli`, and every crate the derive
//! accepts and whose `crd()` succeeds (the fixtures, the operator, the derive's regression
//! tests) is accepted by `gen-cli`.

use std::path::{Path, PathBuf};

use gen_cli::cli::Options;
use gen_cli::config::Layout;
use gen_cli::generate::{What, generate};
use gen_cli::workspace::Package;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `gen-cli`'s verdict on the crate whose root file is `file`: `Ok` or its error messages.
fn verdict(file: &Path) -> Result<(), Vec<String>> {
    let package = Package {
        name: "input".into(),
        dir: std::env::temp_dir(),
        targets: vec![("input".into(), file.to_path_buf())],
        k8s_openapi: false,
        kubernetes: None,
        config: Default::default(),
    };
    let options = Options {
        packages: Vec::new(),
        manifest_path: None,
        out_dir: "config".into(),
        check: true,
        stdout: false,
        kubernetes: None,
        config: Default::default(),
    };
    let what = What {
        crds: true,
        rbac: true,
        webhooks: true,
        docs: true,
    };
    let layout = Layout::resolve(&package, &options.config, &options.out_dir)
        .expect("the default layout resolves");
    generate(&package, &layout, what)
        .map(|_| ())
        .map_err(|errors| errors.iter().map(gen_cli::format_error).collect())
}

/// The `.rs` files directly in `dir`, sorted.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_input_the_derive_refuses_gen_cli_refuses() {
    let cases: Vec<PathBuf> = ["tests/ui", "tests/ui-cel"]
        .iter()
        .flat_map(|d| sources(&root().join(d)))
        .collect();
    assert!(cases.len() >= 20, "trybuild cases found: {cases:?}");
    let accepted: Vec<String> = cases
        .iter()
        .filter(|case| verdict(case).is_ok())
        .map(|case| case.display().to_string())
        .collect();
    assert!(
        accepted.is_empty(),
        "the derive refuses these (see their .stderr), gen-cli accepts them: {accepted:#?}"
    );
}

#[test]
fn every_input_the_derive_accepts_gen_cli_accepts() {
    let mut crates: Vec<PathBuf> = [
        "fixtures/cronjob",
        "fixtures/multiversion",
        "fixtures/gen",
        "fixtures/plural",
        "fixtures/rbac",
        "operator",
    ]
    .iter()
    .map(|c| root().join(c).join("src/lib.rs"))
    .collect();
    for case in std::fs::read_dir(root().join("fixtures/webhook/cases")).expect("webhook cases") {
        crates.push(case.expect("a case").path().join("src/lib.rs"));
    }
    crates.push(root().join("operator/src/main.rs"));
    crates.push(root().join("tests/one_engine.rs"));
    crates.push(root().join("tests/derive_memcached.rs"));
    let refused: Vec<String> = crates
        .iter()
        .filter_map(|c| {
            verdict(c)
                .err()
                .map(|errors| format!("{}:\n  {}", c.display(), errors.join("\n  ")))
        })
        .collect();
    assert!(
        refused.is_empty(),
        "the derive accepts these, gen-cli refuses them:\n{}",
        refused.join("\n")
    );
}
