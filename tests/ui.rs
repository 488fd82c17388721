//! Compile errors for every class of user mistake, shown by committed `.stderr` files
//! (regenerate them with `TRYBUILD=overwrite cargo test --test ui --all-features`, then read
//! the diff).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
