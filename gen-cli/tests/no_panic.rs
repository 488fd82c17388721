//! gen-cli never panics on its input: the repository's API crates mutated token by token (a
//! token deleted, duplicated or two swapped, as a fuzzer does), run through the library's
//! `generate`, either generate or report at least one error with a location. The fuzz target
//! `mutated_fixtures` (`fuzz/`) checks the same property for longer.

mod support {
    pub mod fixtures;
    pub mod mutate;
    pub mod verdict;
}

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::Config;
use support::fixtures::{Copied, copy_all};
use support::mutate::Edit;
use support::verdict::generates_or_locates;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The crates, copied once per test process.
fn copies() -> &'static [Copied] {
    static COPIES: OnceLock<Vec<Copied>> = OnceLock::new();
    COPIES.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("kubegen-no-panic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        copy_all(&repo(), &dir)
    })
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Edit::Swap(i, j)),
    ]
}

proptest! {
    // The crates share their copies: one case at a time.
    #![proptest_config(Config { cases: 1500, failure_persistence: None, ..Config::default() })]

    #[test]
    fn mutated_api_crates_generate_or_report_a_located_error(
        krate in any::<proptest::sample::Index>(),
        file in any::<usize>(),
        edits in proptest::collection::vec(edit(), 1..3),
    ) {
        let copies = copies();
        krate.get(copies).check_mutant(file, &edits);
    }
}

/// The unmutated crates generate (so a mutant's error is the mutation's).
#[test]
fn the_api_crates_generate() {
    for copy in copies() {
        generates_or_locates(&copy.root);
    }
}

/// The first finding, through gen-cli: one missing `=` in `#[rbac]` panicked
/// ("darling::error::Accumulator dropped without being finished").
#[test]
fn a_missing_equals_sign_is_an_error_at_its_token() {
    let dir = std::env::temp_dir().join(format!("kubegen-missing-eq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let root = dir.join("lib.rs");
    std::fs::write(
        &root,
        "use kubegen::rbac;\n\n#[rbac(groups walk \"apps\", resources = \"deployments\", verbs = \"get\")]\npub fn f() {}\n",
    )
    .expect("the source is written");
    let errors = gen_cli::generate::read(&package(&root))
        .err()
        .expect("an error");
    let found: Vec<(String, usize, usize)> = errors
        .iter()
        .map(|e| {
            let loc = e.loc.clone().expect("a location");
            (e.message.clone(), loc.line, loc.column)
        })
        .collect();
    assert_eq!(found, [("expected `=` after `groups`".to_string(), 3, 15)]);
    let _ = std::fs::remove_dir_all(&dir);
}

fn package(root: &Path) -> gen_cli::workspace::Package {
    gen_cli::workspace::Package {
        name: "input".into(),
        dir: root.parent().unwrap_or(root).to_path_buf(),
        targets: vec![("input".into(), root.to_path_buf())],
        k8s_openapi: false,
        kubernetes: None,
        config: Default::default(),
        diff: None,
    }
}
