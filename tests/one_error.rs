//! One mistake, one error, whatever kubegen's features: a field of a std type without a schema
//! in a spec and in a status, each case's snapshot holding exactly one `error:` (no error on the
//! other fields, the derive line, the generated root or the code that uses them). The derive's
//! output changes with `apply` and `cel` only, so `.ci/run` runs this with no feature, with each
//! of them alone, and (the workspace's run) with every feature:
//! `cargo test -p kubegen-rs --features "<set>" --test one_error`. The slow tier: trybuild
//! checks each case in a cargo project of its own.

#[test]
fn slow_one_mistake_is_one_error_with_these_features() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/one-error/*.rs");
}

#[test]
fn each_snapshot_holds_exactly_one_error() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/one-error");
    let mut cases = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "stderr") {
            let text = std::fs::read_to_string(&path).unwrap();
            let errors = text.lines().filter(|l| l.starts_with("error")).count();
            assert_eq!(errors, 1, "{}:\n{text}", path.display());
            cases += 1;
        }
    }
    assert_eq!(cases, 2, "a spec case and a status case");
}
