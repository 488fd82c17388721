//! The derive and `gen-cli` give the same verdict on the same source: every trybuild case (which
//! the derive refuses at compile time) is refused by `gen-cli`, and every crate the derive
//! accepts and whose `crd()` succeeds (the fixtures, the operator, the derive's regression
//! tests) is accepted by `gen-cli`.

use std::path::{Path, PathBuf};

use gen_cli::cli::Options;
use gen_cli::generate::{What, generate};
use gen_cli::workspace::Package;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `gen-cli`'s verdict on the crate whose root file is `file`: `Ok` or its error messages.
fn verdict(file: &Path) -> Result<(), Vec<String>> {
    errors(file).map_err(|errors| errors.iter().map(gen_cli::format_error).collect())
}

/// `gen-cli`'s errors on the crate whose root file is `file`.
fn errors(file: &Path) -> Result<(), Vec<kubegen_core::model::Error>> {
    let package = Package {
        name: "input".into(),
        dir: std::env::temp_dir(),
        targets: vec![("input".into(), file.to_path_buf())],
        k8s_openapi: false,
        kubernetes: None,
    };
    let options = Options {
        packages: Vec::new(),
        manifest_path: None,
        out_dir: "config".into(),
        check: true,
        stdout: false,
        role_name: "manager-role".into(),
        kubernetes: None,
        max_desc_len: None,
    };
    let what = What {
        crds: true,
        rbac: true,
        webhooks: true,
    };
    generate(&package, &options, what).map(|_| ())
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

/// `x_validation(field_path = ...)` problems are located at the value, as the derive places them
/// (`tests/ui/bad_field_path.rs`): the engine's error carries the value's line and column.
#[test]
fn each_bad_field_path_is_reported_at_its_value() {
    let file = root().join("tests/ui/bad_field_path.rs");
    let source = std::fs::read_to_string(&file).unwrap();
    let Err(errors) = errors(&file) else {
        panic!("gen-cli accepts {}", file.display());
    };
    // Every `field_path = "..."` of the file but the two valid ones, where its value starts.
    let key = "field_path = \"";
    let mut expected = Vec::new();
    for (i, line) in source.lines().enumerate() {
        if let Some(at) = line.find(key) {
            let value = &line[at + key.len()..];
            let path = &value[..value.find('"').unwrap()];
            if ![".anything", "['name']"].contains(&path) {
                expected.push((format!("field_path `{path}`"), i + 1, at + key.len()));
            }
        }
    }
    assert_eq!(expected.len(), 5, "{expected:?}");
    for (context, line, column) in &expected {
        let found = errors.iter().find(|e| &e.context == context);
        let Some(e) = found else {
            panic!("no error about {context}: {errors:#?}");
        };
        let loc = e.loc.as_ref().expect("a location");
        assert_eq!((loc.line, loc.column), (*line, *column), "{context}: {e}");
        assert!(loc.file.ends_with("bad_field_path.rs"), "{e}");
        assert!(e.message.contains("must be a valid path"), "{e}");
    }
    assert_eq!(
        errors.len(),
        expected.len(),
        "only the bad paths are refused: {errors:#?}"
    );
}
