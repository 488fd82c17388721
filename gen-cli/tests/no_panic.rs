//! gen-cli never panics on its input: the repository's API crates mutated token by token (a
//! token deleted, duplicated or two swapped, as a fuzzer does), and random API crates built by
//! a structured generator (`support/api_source.rs`), run through the library's `generate`,
//! either generate or report at least one error with a location. The fuzz targets
//! `mutated_fixtures` and `api_sources` (`fuzz/`) check the same properties for longer.

mod support {
    pub mod api_source;
    pub mod fixtures;
    pub mod mutate;
    pub mod verdict;
}

use std::path::{Path, PathBuf};

use kubegen_core::parse::registry::SECTIONS;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use support::api_source::{drawn_keys, write_api_source};
use support::fixtures::copy_all;
use support::mutate::Edit;
use support::verdict::{generates_or_locates, manifests_and_docs, package};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A folder for a test, removed when dropped.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("kubegen-{name}-"))
        .tempdir()
        .expect("a temporary folder")
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Edit::Swap(i, j)),
    ]
}

#[test]
fn mutated_api_crates_generate_or_report_a_located_error() {
    let dir = temp_dir("no-panic");
    let copies = copy_all(&repo(), dir.path());
    // The cases share the copies: one case at a time.
    let config = Config {
        cases: 1500,
        failure_persistence: None,
        ..Config::default()
    };
    let cases = (
        any::<proptest::sample::Index>(),
        any::<usize>(),
        proptest::collection::vec(edit(), 1..3),
    );
    TestRunner::new(config)
        .run(&cases, |(krate, file, edits)| {
            krate.get(&copies).check_mutant(file, &edits);
            Ok(())
        })
        .unwrap();
}

#[test]
fn random_api_crates_generate_or_report_a_located_error() {
    let dir = temp_dir("api-sources");
    let config = Config {
        cases: 300,
        failure_persistence: None,
        ..Config::default()
    };
    let bytes = proptest::collection::vec(any::<u8>(), 0..2048);
    TestRunner::new(config)
        .run(&bytes, |bytes| {
            let (root, source) = write_api_source(&bytes, dir.path());
            if std::panic::catch_unwind(|| generates_or_locates(&root)).is_err() {
                panic!("on this source:\n{source}");
            }
            Ok(())
        })
        .unwrap();
}

/// The generator reaches both of gen-cli's paths: of 200 crates from fixed bytes, some
/// generate their manifests and some are refused with errors.
#[test]
fn the_api_source_generator_reaches_output_and_errors() {
    let tmp = temp_dir("api-sources-reach");
    let dir = tmp.path();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let (mut generated, mut refused) = (0, 0);
    for _ in 0..200 {
        let bytes: Vec<u8> = (0..1024)
            .map(|_| {
                // xorshift: fixed, varied bytes without a dependency.
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state.to_le_bytes()[0]
            })
            .collect();
        let (root, _) = write_api_source(&bytes, dir);
        match support::verdict::manifests_and_docs(&package(&root)) {
            Ok(_) => generated += 1,
            Err(_) => refused += 1,
        }
    }
    // 62 and 138 when written.
    assert!(
        generated >= 40 && refused >= 40,
        "{generated} generated, {refused} refused"
    );
}

/// The unmutated crates generate (so a mutant's error is the mutation's).
#[test]
fn the_api_crates_generate() {
    let dir = temp_dir("no-panic-unmutated");
    for copy in copy_all(&repo(), dir.path()) {
        generates_or_locates(&copy.root);
    }
}

/// The errors (message, line, column; 0 and 0 without a location) gen-cli's generators give
/// on a crate whose root file is `source`, after checking that they do not panic.
fn errors_of(name: &str, source: &str) -> Vec<(String, usize, usize)> {
    let dir = temp_dir(name);
    let root = dir.path().join("lib.rs");
    std::fs::write(&root, source).expect("the source is written");
    generates_or_locates(&root);
    let errors = manifests_and_docs(&package(&root))
        .err()
        .unwrap_or_default();
    errors
        .iter()
        .map(|e| {
            let (line, column) = e.loc.as_ref().map_or((0, 0), |l| (l.line, l.column));
            (e.message.clone(), line, column)
        })
        .collect()
}

/// The issue's first finding, through gen-cli: one missing `=` in `#[rbac]` panicked
/// ("darling::error::Accumulator dropped without being finished").
#[test]
fn a_missing_equals_sign_is_an_error_at_its_token() {
    let source = "use kubegen::rbac;\n\n#[rbac(groups walk \"apps\", resources = \"deployments\", verbs = \"get\")]\npub fn f() {}\n";
    assert_eq!(
        errors_of("missing-eq", source),
        [("expected `=` after `groups`".to_string(), 3, 15)]
    );
}

/// Found by the fuzz target `source`: a type whose attributes did not parse (here an invalid
/// `pattern` in `items(...)`), used by another, panicked ("every derived type is in the
/// table").
#[test]
fn a_type_with_errors_used_by_another_is_reported() {
    let source = r#"use kubegen::{CustomResource, KubeSchema};

#[derive(CustomResource)]
#[kube_marker(group = "example.com", version = "v1", kind = "Foo")]
pub struct FooSpec {
    pub hosts: Hosts,
}

#[derive(KubeSchema)]
#[kube_marker(items(pattern = "a)"))]
#[serde(transparent)]
pub struct Hosts(pub Vec<String>);
"#;
    let errors = errors_of("items-pattern", source);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert_eq!(
        errors[0],
        (
            "this type has errors (reported at its definition)".to_string(),
            0,
            0
        )
    );
    assert!(
        errors[1]
            .0
            .starts_with("invalid regular expression in `pattern`")
    );
    assert_eq!((errors[1].1, errors[1].2), (10, 31), "{errors:#?}");
}

/// The generator draws keys of the marker registry (the keys the parsers take) and leaves out
/// only the ones named here, so a key added to the registry is drawn or left out on purpose.
#[test]
fn the_generator_draws_the_registrys_keys() {
    let drawn = drawn_keys();
    let registry: Vec<(&str, &str)> = SECTIONS
        .iter()
        .flat_map(|s| s.names().into_iter().map(|k| (s.attribute, k)))
        .collect();
    for key in &drawn {
        assert!(
            registry.contains(key),
            "{key:?} is not a key of the registry"
        );
    }
    let left_out: Vec<&str> = registry
        .iter()
        .filter(|key| !drawn.contains(key))
        .map(|(_, key)| *key)
        .collect();
    // Not drawn yet: the junctors' nested branches, `status_subresource`, and `kube_marker`'s
    // and `webhook`'s `crate` (the derive's path to kubegen, which gen-cli only checks is a
    // path).
    assert_eq!(
        left_out,
        [
            "status_subresource",
            "at_least_one_of",
            "one_of",
            "any_of",
            "all_of",
            "not",
            "accept_change",
            "crate",
            "crate"
        ]
    );
}
